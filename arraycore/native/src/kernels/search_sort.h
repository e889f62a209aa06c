// L0: searching, sorting and set kernels (argmax/argmin, count_nonzero, nonzero,
// searchsorted, where, sort/argsort, isin, unique).  Python validates and promotes
// (arraycore/array_api/_searching.py, _sorting.py, _sets.py); these functions get arrays of one
// dtype and do all the work.  See docs/architecture.md, "Searching, sorting and sets".
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../errors.h"
#include "../ndarray.h"

namespace arraycore::native {

// ---- axis helpers (shared by the three kernel files) ----
int normalize_axis(int64_t axis, int ndim, const char* who);
// View of `a` with `axis` moved to the end (no copy).
NdArray move_axis_last(const NdArray& a, int axis);
// Element offsets (relative to a.data()) of the start of every line along the last axis,
// in C order of the other axes.
std::vector<int64_t> line_starts(const NdArray& a);

// ---- searching (search.cpp) ----
// axis: nullopt = flattened (C order).  Throws ValueError on empty reductions.
NdArray arg_extreme(const NdArray& x, std::optional<int64_t> axis, bool keepdims, bool is_max,
                    const char* who);
// axes: normalized, distinct, any order; nullopt = all axes.
NdArray count_nonzero(const NdArray& x, std::optional<std::vector<int64_t>> axes,
                      bool keepdims);
std::vector<NdArray> nonzero(const NdArray& x);
// x1: 1-D; sorter: nullopt or 1-D int64 of x1's length.  x1 and x2 share a dtype.
NdArray searchsorted(const NdArray& x1, const NdArray& x2, bool right,
                     const std::optional<NdArray>& sorter);
// cond: bool; x1, x2: one dtype; broadcast together.
NdArray where(const NdArray& cond, const NdArray& x1, const NdArray& x2);

// ---- sorting (sort.cpp) ----
// Stable sort along `axis` (NaNs last; descending = reverse order, equal elements keep their
// input order).  Complex: lexicographic (real, imag), NumPy's NaN placement.
NdArray sort(const NdArray& x, int64_t axis, bool descending);
NdArray argsort(const NdArray& x, int64_t axis, bool descending);

// ---- sets (sets.cpp) ----
NdArray isin(const NdArray& x1, const NdArray& x2, bool invert);
struct UniqueResult {
  NdArray values;
  std::optional<NdArray> indices, inverse, counts;
};
UniqueResult unique(const NdArray& x, bool want_indices, bool want_inverse, bool want_counts);

}  // namespace arraycore::native
