// Bindings of the multi-tensor optimizer kernels (kernels/optim*.cpp) used by arraycore.optim.
// Each takes the group's lists of arrays and the step's scalars (computed in Python in double,
// as PyTorch does) and updates the parameters and state buffers in place.
#include "../kernels/optim.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

using Arrays = std::vector<NdArray>;

int64_t total_size(const Arrays& a) {
  int64_t n = 0;
  for (const NdArray& x : a) n += x.numel();
  return n;
}

}  // namespace

AC_BINDINGS(optim) {
  using namespace optim;
  m.def("optim_sgd", [](const Arrays& p, const Arrays& g, const Arrays& bufs,
                        const std::vector<bool>& first, double lr, double momentum,
                        double dampening, double weight_decay, bool nesterov, bool maximize) {
    SgdArgs a{lr, momentum, dampening, weight_decay, nesterov, maximize};
    maybe_nogil(total_size(p), [&] { sgd_step(p, g, bufs, first, a); });
  });
  m.def("optim_adam", [](const Arrays& p, const Arrays& g, const Arrays& m1, const Arrays& m2,
                         const Arrays& mx, double lr, double beta1, double beta2, double eps,
                         double weight_decay, bool amsgrad, bool maximize, bool decoupled,
                         double step_size, double bias_correction2_sqrt) {
    AdamArgs a{lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled, step_size,
               bias_correction2_sqrt};
    maybe_nogil(total_size(p), [&] { adam_step(p, g, m1, m2, mx, a); });
  });
  m.def("optim_adamax", [](const Arrays& p, const Arrays& g, const Arrays& m1, const Arrays& u,
                           double beta1, double beta2, double eps, double weight_decay,
                           bool maximize, double clr) {
    AdamaxArgs a{beta1, beta2, eps, weight_decay, clr, maximize};
    maybe_nogil(total_size(p), [&] { adamax_step(p, g, m1, u, a); });
  });
  m.def("optim_nadam", [](const Arrays& p, const Arrays& g, const Arrays& m1, const Arrays& m2,
                          double lr, double beta1, double beta2, double eps, double weight_decay,
                          bool maximize, bool decoupled, double bias_correction2,
                          double grad_coef, double avg_coef) {
    NadamArgs a{lr, beta1, beta2, eps, weight_decay, maximize, decoupled, bias_correction2,
                grad_coef, avg_coef};
    maybe_nogil(total_size(p), [&] { nadam_step(p, g, m1, m2, a); });
  });
  m.def("optim_radam", [](const Arrays& p, const Arrays& g, const Arrays& m1, const Arrays& m2,
                          double lr, double beta1, double beta2, double eps, double weight_decay,
                          bool maximize, bool decoupled, double bias_correction1,
                          double bias_correction2_sqrt, double rect) {
    RadamArgs a{lr, beta1, beta2, eps, weight_decay, maximize, decoupled, bias_correction1,
                bias_correction2_sqrt, rect};
    maybe_nogil(total_size(p), [&] { radam_step(p, g, m1, m2, a); });
  });
  m.def("optim_rmsprop", [](const Arrays& p, const Arrays& g, const Arrays& sq, const Arrays& ga,
                            const Arrays& buf, double lr, double alpha, double eps,
                            double weight_decay, double momentum, bool centered, bool maximize) {
    RmspropArgs a{lr, alpha, eps, weight_decay, momentum, centered, maximize};
    maybe_nogil(total_size(p), [&] { rmsprop_step(p, g, sq, ga, buf, a); });
  });
  m.def("optim_adagrad", [](const Arrays& p, const Arrays& g, const Arrays& sums, double clr,
                            double eps, double weight_decay, bool maximize) {
    AdagradArgs a{clr, eps, weight_decay, maximize};
    maybe_nogil(total_size(p), [&] { adagrad_step(p, g, sums, a); });
  });
  m.def("optim_clip_and_sum", [](const Arrays& per_sample, const Arrays& out, double max_norm) {
    return maybe_nogil(total_size(per_sample),
                       [&] { return clip_and_sum(per_sample, out, max_norm); });
  }, py::arg("per_sample"), py::arg("out"), py::arg("max_norm"),
        "DP-SGD clipping: scales each example's gradient (over all arrays) to norm <= max_norm "
        "and sums over the batch into `out`; returns the unclipped per-example norms.");
}

}  // namespace arraycore::native::bindings
