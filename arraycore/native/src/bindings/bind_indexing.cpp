// Bindings of the gather/scatter kernels (kernels/gather.h).  The Python layer
// (arraycore/_core/indexing.py) turns an index into the plan described in
// Note [Advanced indexing layout]; these functions check, convert and run it.
#include "../errors.h"
#include "../kernels/gather.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

std::vector<NdArray> as_int64(const std::vector<NdArray>& idx, const char* who) {
  std::vector<NdArray> out;
  out.reserve(idx.size());
  for (const NdArray& a : idx) {
    switch (a.dtype) {
      case DType::Int64: out.push_back(a); break;
      case DType::Int8: case DType::Int16: case DType::Int32: case DType::UInt8:
      case DType::UInt16: case DType::UInt32: case DType::UInt64:
        out.push_back(astype(a, DType::Int64));
        break;
      default:
        throw IndexError(std::string(who) + ": index arrays must have an integer dtype, got " +
                         dtype_name(a.dtype));
    }
  }
  return out;
}

NdArray check_mask(const NdArray& mask, const char* who) {
  if (mask.dtype != DType::Bool)
    throw IndexError(std::string(who) + ": a mask must have dtype bool");
  return mask;
}

}  // namespace

AC_BINDINGS(indexing) {
  m.def("adv_gather",
        [](const NdArray& src, const std::vector<int>& axes, const std::vector<NdArray>& idx,
           const NdArray& out, const std::string& who) {
          std::vector<NdArray> i64 = as_int64(idx, who.c_str());
          maybe_nogil(out.numel(), [&] { gather(src, axes, i64, out, who.c_str()); });
        },
        "out[B, R] = src[idx on axes, R] (see kernels/gather.h).");
  m.def("adv_scatter",
        [](const NdArray& dst, const std::vector<int>& axes, const std::vector<NdArray>& idx,
           const NdArray& values, const std::string& who) {
          std::vector<NdArray> i64 = as_int64(idx, who.c_str());
          // The kernel reads the indices twice (checks, then writes): indices in dst's own
          // buffer are read before anything is written.
          for (NdArray& i : i64)
            if (i.buffer == dst.buffer) i = astype(i, DType::Int64);
          NdArray v = values;
          // Cast, and read everything first when the values share memory with dst.
          if (v.dtype != dst.dtype || v.buffer == dst.buffer) v = astype(v, dst.dtype);
          maybe_nogil(v.numel(), [&] { scatter(dst, axes, i64, v, who.c_str()); });
        },
        "dst[idx on axes, R] = values[B, R], in order (last write wins).");
  m.def("count_true", [](const NdArray& mask) {
    return count_true(check_mask(mask, "count_nonzero"));
  });
  m.def("mask_select", [](const NdArray& src, const NdArray& mask) {
    check_mask(mask, "__getitem__");
    const int md = mask.ndim();
    if (src.ndim() < md)
      throw IndexError("__getitem__: too many indices: a boolean mask of " +
                       std::to_string(md) + " dimensions for an array of " +
                       std::to_string(src.ndim()));
    py::gil_scoped_release nogil;
    Shape shape{0};
    for (int d = md; d < src.ndim(); ++d) shape.push_back(src.shape[d]);
    for (int d = 0; d < md; ++d)
      if (src.shape[d] != mask.shape[d])
        throw IndexError("__getitem__: boolean index did not match the indexed array along "
                         "axis " + std::to_string(d) + "; size of axis is " +
                         std::to_string(src.shape[d]) + " but size of the boolean axis is " +
                         std::to_string(mask.shape[d]));
    shape[0] = count_true(mask);
    NdArray out = empty(shape, src.dtype);
    mask_select(src, mask, out);
    return out;
  });
  m.def("mask_assign", [](const NdArray& dst, const NdArray& mask, const NdArray& values) {
    check_mask(mask, "__setitem__");
    const int md = mask.ndim();
    if (dst.ndim() < md)
      throw IndexError("__setitem__: too many indices: a boolean mask of " +
                       std::to_string(md) + " dimensions for an array of " +
                       std::to_string(dst.ndim()));
    for (int d = 0; d < md; ++d)
      if (dst.shape[d] != mask.shape[d])
        throw IndexError("__setitem__: boolean index did not match the indexed array along "
                         "axis " + std::to_string(d) + "; size of axis is " +
                         std::to_string(dst.shape[d]) + " but size of the boolean axis is " +
                         std::to_string(mask.shape[d]));
    py::gil_scoped_release nogil;
    Shape shape{count_true(mask)};
    for (int d = md; d < dst.ndim(); ++d) shape.push_back(dst.shape[d]);
    NdArray v = values;
    if (v.dtype != dst.dtype || v.buffer == dst.buffer) v = astype(v, dst.dtype);
    v = broadcast_to(v, shape, "__setitem__");
    mask_assign(dst, mask, v);
  });
  m.def("mask_nonzero", [](const NdArray& mask) {
    check_mask(mask, "nonzero");
    py::gil_scoped_release nogil;
    return mask_nonzero(mask);
  });
}

}  // namespace arraycore::native::bindings
