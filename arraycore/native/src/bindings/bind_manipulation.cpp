// Native parts of the manipulation functions: the stride arithmetic of reshape-as-a-view.
// Everything else in arraycore/array_api/_manipulation.py is views (as_strided) and copies
// (copy_into), both native.
#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {

// Strides that give `x`'s elements in row-major order under `shape`, or false when no
// strides can (the array must be copied).  Dimensions of size 1 are ignored; each group of
// old dimensions whose product equals a group of new ones must be contiguous with respect to
// each other.
bool reshape_strides(const NdArray& x, const Shape& shape, Shape& out) {
  out = Shape(shape.size(), 0);
  if (x.numel() == 0) {
    out = c_strides(shape);
    return true;
  }
  std::vector<int64_t> os, ost;
  for (int d = 0; d < x.ndim(); ++d)
    if (x.shape[d] != 1) {
      os.push_back(x.shape[d]);
      ost.push_back(x.strides[d]);
    }
  const size_t no = os.size(), nn = shape.size();
  size_t i = 0, j = 0;
  while (j < nn) {
    if (shape[j] == 1) {
      out[j++] = 0;
      continue;
    }
    if (i >= no) return false;
    const size_t i0 = i, j0 = j;
    int64_t po = os[i++], pn = shape[j++];
    while (po != pn) {
      if (po < pn) {
        if (i >= no) return false;
        po *= os[i++];
      } else {
        if (j >= nn) return false;
        pn *= shape[j++];
      }
    }
    for (size_t t = i0; t + 1 < i; ++t)
      if (ost[t] != ost[t + 1] * os[t + 1]) return false;
    int64_t st = ost[i - 1];
    for (size_t t = j; t-- > j0;) {
      out[t] = st;
      st *= shape[t];
    }
  }
  return i == no;
}

AC_BINDINGS(manipulation) {
  m.def("reshape_view", [](const NdArray& x, const Shape& shape) -> py::object {
    if (shape_numel(shape) != x.numel())
      throw ValueError("reshape: cannot reshape an array of size " + std::to_string(x.numel()) +
                       " into the requested shape");
    Shape strides;
    if (!reshape_strides(x, shape, strides)) return py::none();
    return wrap_array(as_strided(x, shape, strides, 0, "reshape"));
  }, "A view of x with `shape` (row-major order), or None when that needs a copy.");
  // repeat() with per-element counts: [0]*c0 + [1]*c1 + ... as an int64 array, the indices
  // that take() then gathers.
  m.def("repeat_indices", [](const NdArray& counts_in) {
    if (counts_in.ndim() != 1) throw ValueError("repeat: repeats must be 0-d or 1-d");
    NdArray counts = contiguous(astype(counts_in, DType::Int64));
    const int64_t* c = reinterpret_cast<const int64_t*>(counts.data());
    const int64_t n = counts.shape[0];
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (c[i] < 0) throw ValueError("repeat: repeats must be non-negative");
      total += c[i];
    }
    NdArray out = empty({total}, DType::Int64);
    int64_t* o = reinterpret_cast<int64_t*>(out.data());
    for (int64_t i = 0, k = 0; i < n; ++i)
      for (int64_t j = 0; j < c[i]; ++j) o[k++] = i;
    return out;
  });
}

}  // namespace arraycore::native::bindings
