// Bindings of kernels/nn_normalize.cpp (normalization over trailing axes and its backward) and
// kernels/nn_gelu.cpp, called by arraycore/nn/functional/{normalization,activation}.py on plain
// (untraced) arrays.  The GIL is released while they run.
#include "../kernels/nn_gelu.h"
#include "../kernels/nn_normalize.h"
#include "bindings.h"

namespace arraycore::native::bindings {

namespace nz = arraycore::native::nn_normalize;

AC_BINDINGS(nn_fused) {
  m.def("nn_normalize_trailing", [](const NdArray& x, int64_t k, double eps) {
    std::vector<NdArray> r;
    {
      py::gil_scoped_release nogil;
      r = nz::normalize_trailing(x, k, eps);
    }
    return py::make_tuple(std::move(r[0]), std::move(r[1]), std::move(r[2]));
  }, py::arg("x"), py::arg("k"), py::arg("eps"),
        "(xhat, mean, var) over the last k axes (mean and var keepdims, biased variance).");
  m.def("nn_normalize_trailing_backward", [](const NdArray& g, const NdArray& xhat,
                                             const NdArray& var, int64_t k, double eps) {
    py::gil_scoped_release nogil;
    return nz::normalize_trailing_backward(g, xhat, var, k, eps);
  }, py::arg("g"), py::arg("xhat"), py::arg("var"), py::arg("k"), py::arg("eps"),
        "rstd * (g - mean(g) - xhat * mean(g * xhat)) over the last k axes.");
  m.def("nn_gelu", [](const NdArray& x, bool tanh_form) {
    py::gil_scoped_release nogil;
    return arraycore::native::nn_gelu::gelu(x, tanh_form);
  }, py::arg("x"), py::arg("tanh_form"), "GELU (exact, or PyTorch's tanh approximation).");
  m.def("nn_gelu_backward", [](const NdArray& g, const NdArray& x, bool tanh_form) {
    py::gil_scoped_release nogil;
    return arraycore::native::nn_gelu::gelu_backward(g, x, tanh_form);
  }, py::arg("g"), py::arg("x"), py::arg("tanh_form"), "g * gelu'(x).");
}

}  // namespace arraycore::native::bindings
