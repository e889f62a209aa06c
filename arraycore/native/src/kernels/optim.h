// Multi-tensor optimizer kernels (arraycore.optim): one call updates every parameter of a
// param group in place, in one fused pass per element (no temporaries), split over the thread
// pool when the group is large.  Note [Multi-tensor optimizer steps] in optim_lists.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "../ndarray.h"

namespace arraycore::native::optim {

// One list of arrays aligned with the parameters (grads, exp_avgs, ...).  An empty list stands
// for a buffer the step does not use (max_exp_avg_sqs without amsgrad).
struct Slot {
  const std::vector<NdArray>* arrays;
  bool written;      // the kernel writes this buffer (parameters and state)
  const char* name;  // for error messages
};

// The flat buffers of one step: complex arrays count as interleaved (real, imag) pairs, as
// PyTorch's optimizers do with torch.view_as_real.  Non-contiguous arrays run on contiguous
// copies; `finish` copies the written ones back.
struct TensorLists {
  DType real_dtype = DType::Float32;
  int nslots = 0;
  size_t ntensors = 0;
  std::vector<char*> ptrs;        // [slot * ntensors + tensor], null for an unused slot
  std::vector<int64_t> lengths;   // real elements per tensor
  std::vector<std::pair<NdArray, NdArray>> write_back;  // (destination, contiguous copy)

  template <class T>
  T* ptr(int slot, size_t i) const {
    return reinterpret_cast<T*>(ptrs[static_cast<size_t>(slot) * ntensors + i]);
  }
  int64_t total() const;
};

// Checks the lists (same length, dtype, shape; float32/float64/complex; written buffers
// writeable) and prepares the flat pointers.  Slot 0 is the parameters.
TensorLists gather(const char* who, const std::vector<Slot>& slots);
void finish(TensorLists& lists);

// Calls fn(tensor, begin, end) over disjoint element ranges covering every tensor, on the
// thread pool when the total is large (each range lies inside one tensor).
void for_each_span(const TensorLists& lists,
                   const std::function<void(size_t, int64_t, int64_t)>& fn);

// Hyper-parameters of one step, computed by the Python side in double as PyTorch does and
// rounded to the parameter dtype inside the kernels.
struct SgdArgs {
  double lr, momentum, dampening, weight_decay;
  bool nesterov, maximize;
};
struct AdamArgs {
  double lr, beta1, beta2, eps, weight_decay;
  bool amsgrad, maximize, decoupled;
  double step_size, bias_correction2_sqrt;
};
struct AdamaxArgs {
  double beta1, beta2, eps, weight_decay, clr;
  bool maximize;
};
struct NadamArgs {
  double lr, beta1, beta2, eps, weight_decay;
  bool maximize, decoupled;
  double bias_correction2, grad_coef, avg_coef;
};
struct RadamArgs {
  double lr, beta1, beta2, eps, weight_decay;
  bool maximize, decoupled;
  double bias_correction1, bias_correction2_sqrt, rect;  // rect < 0: no adaptive term
};
struct RmspropArgs {
  double lr, alpha, eps, weight_decay, momentum;
  bool centered, maximize;
};
struct AdagradArgs {
  double clr, eps, weight_decay;
  bool maximize;
};

// `first[i]`: the momentum buffer of tensor i is new and takes the gradient (PyTorch's
// buf = grad.clone() on the first step).
void sgd_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
              const std::vector<NdArray>& bufs, const std::vector<bool>& first,
              const SgdArgs& a);
void adam_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
               const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_avg_sqs,
               const std::vector<NdArray>& max_exp_avg_sqs, const AdamArgs& a);
void adamax_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                 const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_infs,
                 const AdamaxArgs& a);
void nadam_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_avg_sqs,
                const NadamArgs& a);
void radam_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_avg_sqs,
                const RadamArgs& a);
void rmsprop_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                  const std::vector<NdArray>& square_avgs, const std::vector<NdArray>& grad_avgs,
                  const std::vector<NdArray>& momentum_bufs, const RmspropArgs& a);
void adagrad_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                  const std::vector<NdArray>& sums, const AdagradArgs& a);

// DP-SGD's per-sample clipping: per_sample[k] has shape (B, *params[k].shape); each example's
// gradient (across all k) is scaled by min(1, max_norm / ||g_b||) and the scaled gradients are
// summed over the batch into out[k] (shape params[k].shape).  Returns the B unclipped norms.
std::vector<double> clip_and_sum(const std::vector<NdArray>& per_sample,
                                 const std::vector<NdArray>& out, double max_norm);

}  // namespace arraycore::native::optim
