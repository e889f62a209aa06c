// Bindings of the searching, sorting and set kernels (kernels/search_sort.h).  Validation and
// type promotion happen in arraycore/array_api/_searching.py, _sorting.py and _sets.py; the
// GIL is released for inputs of kReleaseGilElements elements or more.
#include <pybind11/stl.h>

#include "../kernels/search_sort.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

py::object opt(const std::optional<NdArray>& a) {
  return a ? py::cast(*a) : py::none();
}

}  // namespace

AC_BINDINGS(search_sort) {
  m.def("sort_axis", [](const NdArray& x, int64_t axis, bool descending) {
    return maybe_nogil(x.numel(), [&] { return sort(x, axis, descending); });
  }, "Stable sort along an axis (NaNs last; descending keeps equal elements in input order).");
  m.def("argsort_axis", [](const NdArray& x, int64_t axis, bool descending) {
    return maybe_nogil(x.numel(), [&] { return argsort(x, axis, descending); });
  }, "Stable argsort along an axis (int64 indices).");
  m.def("arg_extreme", [](const NdArray& x, std::optional<int64_t> axis, bool keepdims,
                          bool is_max) {
    const char* who = is_max ? "argmax" : "argmin";
    return maybe_nogil(x.numel(), [&] { return arg_extreme(x, axis, keepdims, is_max, who); });
  }, "argmax (is_max) or argmin along an axis, or of the flattened array (axis None).");
  m.def("count_nonzero_axes", [](const NdArray& x, std::optional<std::vector<int64_t>> axes,
                                 bool keepdims) {
    return maybe_nogil(x.numel(), [&] { return count_nonzero(x, axes, keepdims); });
  }, "Number of nonzero elements over the given axes (None: all).");
  m.def("nonzero_indices", [](const NdArray& x) {
    return maybe_nogil(x.numel(), [&] { return nonzero(x); });
  }, "List of int64 index arrays of the nonzero elements, C order.");
  m.def("searchsorted_1d", [](const NdArray& x1, const NdArray& x2, bool right,
                              std::optional<NdArray> sorter) {
    return maybe_nogil(x1.numel() + x2.numel(),
                       [&] { return searchsorted(x1, x2, right, sorter); });
  }, "Insertion indices of x2's elements into the sorted 1-D x1.");
  m.def("where_select", [](const NdArray& c, const NdArray& a, const NdArray& b) {
    return maybe_nogil(std::max({c.numel(), a.numel(), b.numel()}),
                       [&] { return where(c, a, b); });
  }, "Elements of a where c is true, else of b (broadcast together; a and b share a dtype).");
  m.def("isin_values", [](const NdArray& a, const NdArray& b, bool invert) {
    return maybe_nogil(a.numel() + b.numel(), [&] { return isin(a, b, invert); });
  }, "Whether each element of a is in b (a and b share a dtype).");
  m.def("unique_flat", [](const NdArray& x, bool indices, bool inverse, bool counts) {
    UniqueResult r = maybe_nogil(x.numel(), [&] { return unique(x, indices, inverse, counts); });
    return py::make_tuple(r.values, opt(r.indices), opt(r.inverse), opt(r.counts));
  }, "(values, indices|None, inverse|None, counts|None) of the flattened array, sorted.");
}

}  // namespace arraycore::native::bindings
