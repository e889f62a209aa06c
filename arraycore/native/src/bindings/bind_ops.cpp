// Kernel lookup and application.  The Python op table (arraycore/_core/op_table.py) resolves
// each op's kernel once with kernel(name) and then calls apply1/apply2/apply3.
#include "../errors.h"
#include "../op_registry.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

template <class... A>
NdArray apply(const Kernel& k, const A&... a) {
  const NdArray* in[] = {&a...};
  return apply_kernel_nogil(k, in, sizeof...(A));
}

}  // namespace

NdArray apply_kernel_nogil(const Kernel& k, const NdArray* const* inputs, int n) {
  int64_t size = 0;
  for (int i = 0; i < n; ++i) size = std::max(size, inputs[i]->numel());
  return maybe_nogil(size, [&] { return apply_kernel(k, inputs, n); });
}

void bind_ops(py::module_& m) {
  py::class_<Kernel>(m, "Kernel")
      .def_readonly("name", &Kernel::name)
      .def_readonly("arity", &Kernel::arity)
      .def("dtype_codes", [](const Kernel& k) {
             py::list out;
             for (int i = 0; i < kNumDTypes; ++i)
               if (k.loops[i]) out.append(i);
             return out;
           }, "Codes of the input dtypes this kernel has a loop for.")
      .def("out_dtype_code", [](const Kernel& k, int code) {
             return static_cast<int>(k.out_dtype[dtype_index(dtype_from_code(code, k.name.c_str()))]);
           }, "Output dtype code for an input dtype code (-1: unsupported).")
      .def("__repr__", [](const Kernel& k) { return "<kernel " + k.name + ">"; });

  m.def("kernel", [](const std::string& name) -> const Kernel& {
        const Kernel* k = KernelRegistry::instance().find(name);
        if (!k) throw ValueError("kernel: no native kernel named '" + name + "'");
        return *k;
      }, py::return_value_policy::reference);
  m.def("kernel_names", [] {
    std::vector<std::string> names;
    for (const Kernel* k : KernelRegistry::instance().all()) names.push_back(k->name);
    return names;
  });
  m.def("apply1", [](const Kernel& k, const NdArray& a) { return apply(k, a); });
  m.def("apply2", [](const Kernel& k, const NdArray& a, const NdArray& b) { return apply(k, a, b); });
  m.def("apply3", [](const Kernel& k, const NdArray& a, const NdArray& b, const NdArray& c) {
    return apply(k, a, b, c);
  });
  // Operators (x < y) on two arrays of one accepted dtype, or an array and a weak Python
  // scalar, run straight into the kernel (try_fast_binary); any other operand mix
  // (promotion, errors, autodiff) goes to the Python function `fallback`.
  // Keeps small-array operators near NumPy's cost (no Python frames on the fast path).
  m.def("install_fast_binary", [](py::object cls, const std::string& dunder, const Kernel& k,
                                  int accepted_mask, py::object fallback) {
    const Kernel* kp = &k;
    py::cpp_function method(
        [kp, accepted_mask, fallback](py::handle self, py::handle other) -> py::object {
          py::object r = try_fast_binary(*kp, accepted_mask, self.ptr(), other.ptr());
          if (r) return r;
          return fallback(self, other);
        },
        py::name(dunder.c_str()), py::is_method(cls));
    cls.attr(dunder.c_str()) = method;
  });
  m.def("apply_into", [](const Kernel& k, const NdArray& out, std::vector<NdArray> in) {
    py::gil_scoped_release nogil;
    apply_kernel_into(k, out, in);
  }, "Writes the kernel's result into `out` (in-place operators).");
  m.def("astype", [](const NdArray& a, int code) {
    DType dt = dtype_from_code(code, "astype");
    py::gil_scoped_release nogil;
    return astype(a, dt);
  });
  m.def("copy", [](const NdArray& a) {
    py::gil_scoped_release nogil;
    NdArray out = empty_like_layout(a, a.shape, a.dtype);
    copy_into(out, a);
    return out;
  }, "A fresh copy in the same (dense) axis order, row-major otherwise.");
  m.def("copy_c", [](const NdArray& a) {
    py::gil_scoped_release nogil;
    NdArray out = empty(a.shape, a.dtype);
    copy_into(out, a);
    return out;
  }, "A fresh row-major copy.");
  m.def("broadcast_to", [](const NdArray& a, const Shape& shape) {
    return broadcast_to(a, shape, "broadcast_to");
  });
  m.def("broadcast_shapes", [](const std::vector<Shape>& shapes) {
    return broadcast_shapes(shapes, "broadcast_shapes");
  });
}

}  // namespace arraycore::native::bindings
