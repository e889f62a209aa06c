// Bindings of kernels/nn_softmax.cpp (softmax, log_softmax, the cross-entropy pieces), called
// by arraycore/nn/functional/activation.py and loss.py on plain (untraced) arrays.  The GIL is
// released while they run.
#include "../kernels/nn_softmax.h"
#include "bindings.h"

namespace arraycore::native::bindings {

namespace sm = arraycore::native::nn_softmax;

AC_BINDINGS(nn_softmax) {
  m.def("nn_softmax", [](const NdArray& x, int64_t axis, bool log, bool safe,
                         bool nonfinite_nan) {
    py::gil_scoped_release nogil;
    return sm::softmax(x, axis, log, safe, nonfinite_nan);
  }, py::arg("x"), py::arg("axis"), py::arg("log"), py::arg("safe") = false,
        py::arg("nonfinite_nan") = false,
        "softmax (log=False) or log_softmax (log=True) of x along axis (0 <= axis < ndim); "
        "safe: all -inf rows give zeros (softmax only); nonfinite_nan: rows whose maximum "
        "is not finite give NaN (SciPy's softmax).");
  m.def("logsumexp", [](const NdArray& x, int64_t axis, const std::vector<int64_t>& shape) {
    py::gil_scoped_release nogil;
    return sm::logsumexp(x, axis, Shape(shape.begin(), shape.end()));
  }, py::arg("x"), py::arg("axis"), py::arg("out_shape"),
        "logsumexp of x along axis (SciPy's arithmetic), shaped out_shape.");
  m.def("nn_check_class_targets", [](const NdArray& target, int64_t n_classes,
                                     int64_t ignore_index, const std::string& who) {
    py::gil_scoped_release nogil;
    return sm::check_class_targets(target, n_classes, ignore_index, who);
  }, py::arg("target"), py::arg("n_classes"), py::arg("ignore_index"), py::arg("who"),
        "Number of targets equal to ignore_index; IndexError for any other out of range.");
  m.def("nn_nll_pick", [](const NdArray& logp, const NdArray& target, int64_t axis) {
    py::gil_scoped_release nogil;
    return sm::nll_pick(logp, target, axis);
  }, py::arg("logp"), py::arg("target"), py::arg("axis"),
        "-logp[..., target, ...] per position (logp's shape without axis).");
  m.def("nn_cross_entropy_backward", [](const NdArray& logp, const NdArray& target,
                                        int64_t axis, const NdArray& g, double scale) {
    py::gil_scoped_release nogil;
    return sm::cross_entropy_backward(logp, target, axis, g, scale);
  }, py::arg("logp"), py::arg("target"), py::arg("axis"), py::arg("g"), py::arg("scale"),
        "(exp(logp) - onehot(target)) * g * scale; g 0-d or one value per position.");
}

}  // namespace arraycore::native::bindings
