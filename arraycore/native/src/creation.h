// L0: array factories that compute their contents (arange, linspace, eye, tril/triu).
//
// Engine level: no Python.  Each fills a fresh C-contiguous array with a native loop split over
// the thread pool; errors are ValueError/TypeError naming the function.
#pragma once

#include <cstdint>

#include "dtype.h"
#include "ndarray.h"

namespace arraycore::native {

// Number of elements of arange(start, stop, step), as NumPy computes it: ceil((stop-start)/step)
// clamped at 0.  The integer form is exact; ValueError for step == 0, non-finite lengths or
// lengths that do not fit in memory.
int64_t arange_length(int64_t start, int64_t stop, int64_t step);
int64_t arange_length(double start, double stop, double step);

// Element i = start + i*step computed exactly in int64 (wrapping), then cast to `dtype`
// (any integer or real floating dtype).
NdArray arange_int(int64_t start, int64_t step, int64_t n, DType dtype);
// NumPy's fill rule: x0 = start, x1 = start + step, delta = x1 - x0, element i = x0 + i*delta,
// computed in `dtype` (for integer dtypes: x0 and start + step are truncated and the rest follow
// their difference, as NumPy's fill does).
NdArray arange_float(double start, double step, int64_t n, DType dtype);

// NumPy's linspace: div = endpoint ? num-1 : num, step = (stop-start)/div, x[i] = start + i*step
// (or start + (i/div)*(stop-start) when step underflows to 0; for complex, 1/div is multiplied in
// as NumPy's complex division does), last element exactly `stop` when
// endpoint and num > 1.  Computed in double (complex128 for complex dtypes) then rounded;
// integer dtypes floor like NumPy.  Real dtypes ignore the imaginary parts (the caller checks).
NdArray linspace(c128 start, c128 stop, int64_t num, bool endpoint, DType dtype);

// Ones on the k-th diagonal of an n_rows x n_cols matrix, zeros elsewhere.
NdArray eye(int64_t n_rows, int64_t n_cols, int64_t k, DType dtype);

// tril (upper=false: keeps j <= i + k) / triu (upper=true: keeps j >= i + k) over the last two
// axes of `a`, batched over the others; zeros elsewhere.  ValueError when a.ndim() < 2.
NdArray tri(const NdArray& a, int64_t k, bool upper);

}  // namespace arraycore::native
