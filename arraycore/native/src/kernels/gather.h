// L0: gather/scatter kernels behind advanced indexing, take and take_along_axis.
//
// Note [Advanced indexing layout]
// The Python layer (arraycore/_core/indexing.py) reduces every advanced index to one shape:
// a strided view `src` of the indexed array, a list of its axes `axes` that are indexed by
// integer arrays `idx` (int64, all already broadcast to one shape B, any strides, stride 0
// included), and the remaining axes R of `src` in order.  The kernels move between `src`
// and an array of shape B + R (the "subspace" layout); where NumPy puts B elsewhere in the
// result, the caller passes a transposed view of the result as `out`, so the result itself
// is still allocated row-major.  Element offsets are computed here, never in Python.
#pragma once

#include <cstdint>
#include <vector>

#include "../ndarray.h"

namespace arraycore::native {

// out[b, r] = src[idx_0[b], ..., idx_k[b] on `axes`, r on the other axes].  Negative indices
// count from the end; out-of-range ones raise IndexError naming `who`.
void gather(const NdArray& src, const std::vector<int>& axes, const std::vector<NdArray>& idx,
            const NdArray& out, const char* who);

// dst[idx_0[b], ..., r] = values[b, r], in order (a repeated index keeps the last write).
// values has shape B + R and dst's dtype.  Every index is checked before anything is written.
void scatter(const NdArray& dst, const std::vector<int>& axes, const std::vector<NdArray>& idx,
             const NdArray& values, const char* who);

// Number of true elements of a bool array.
int64_t count_true(const NdArray& mask);

// src has shape mask.shape + R; out has shape (count_true(mask),) + R.
void mask_select(const NdArray& src, const NdArray& mask, const NdArray& out);

// dst has shape mask.shape + R; values has shape (count_true(mask),) + R (stride 0 allowed)
// and dst's dtype.
void mask_assign(const NdArray& dst, const NdArray& mask, const NdArray& values);

// The coordinates of the true elements, one int64 array of length count_true(mask) per axis
// of mask, in row-major order.
std::vector<NdArray> mask_nonzero(const NdArray& mask);

}  // namespace arraycore::native
