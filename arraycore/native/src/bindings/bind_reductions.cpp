// Bindings of the reductions family: _native.reduce and _native.cumulative.  Validation of
// axes and dtypes happens in arraycore/array_api/_statistics.py; the engine re-checks axes.
#include "../errors.h"
#include "../reductions.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

ReduceOp op_from_code(int code, const char* who) {
  if (code < 0 || code >= kNumReduceOps) throw ValueError(std::string(who) + ": bad op code");
  return static_cast<ReduceOp>(code);
}

}  // namespace

AC_BINDINGS(reductions) {
  m.def("reduce", [](int op, const NdArray& a, std::vector<int> axes, bool keepdims, int out_code,
                     const std::string& who) {
        const ReduceOp rop = op_from_code(op, who.c_str());
        const DType out = dtype_from_code(out_code, who.c_str());
        return maybe_nogil(a.numel(),
                           [&] { return reduce(rop, a, axes, keepdims, out, who.c_str()); });
      }, py::arg("op"), py::arg("x"), py::arg("axes"), py::arg("keepdims"), py::arg("dtype"),
      py::arg("who"),
      "Reduction (0 sum, 1 prod, 2 max, 3 min, 4 all, 5 any) of x over the given axes "
      "(non-negative, unique) with result dtype code `dtype`.");
  m.def("sum_squared_deviations", [](const NdArray& a, const NdArray& mean,
                                     const std::string& who) {
        return maybe_nogil(a.numel(),
                           [&] { return sum_squared_deviations(a, mean, who.c_str()); });
      }, py::arg("x"), py::arg("mean"), py::arg("who"),
      "sum((x[r] - mean[r])**2) over the rows of a C-contiguous float32/float64 array seen as "
      "(mean.size, rest); the result has mean's shape and x's dtype.");
  m.def("sum_squared_deviations_leading", [](const NdArray& a, const NdArray& mean,
                                             const std::string& who) {
        return maybe_nogil(a.numel(), [&] {
          return sum_squared_deviations_leading(a, mean, who.c_str());
        });
      }, py::arg("x"), py::arg("mean"), py::arg("who"),
      "sum((x[:, c] - mean[c])**2) over the rows of a C-contiguous float32/float64 array seen "
      "as (rest, mean.size); the result has mean's shape and x's dtype.");
  m.def("cumulative", [](int op, const NdArray& a, int axis, bool include_initial, int out_code,
                         const std::string& who) {
        const ReduceOp rop = op_from_code(op, who.c_str());
        const DType out = dtype_from_code(out_code, who.c_str());
        return maybe_nogil(a.numel(), [&] {
          return cumulative(rop, a, axis, include_initial, out, who.c_str());
        });
      }, py::arg("op"), py::arg("x"), py::arg("axis"), py::arg("include_initial"),
      py::arg("dtype"), py::arg("who"),
      "Cumulative sum (op 0) or product (op 1) of x along a non-negative axis.");
}

}  // namespace arraycore::native::bindings
