// DP-SGD's per-sample clipping (Abadi et al. 2016, "Deep Learning with Differential
// Privacy", Algorithm 1): each example's gradient over all parameters is scaled to norm at
// most C, and the scaled gradients are summed over the batch.  Noise, averaging and the SGD
// step are done by the caller (arraycore/optim/dpsgd.py).
#include <cmath>
#include <string>

#include "../errors.h"
#include "../thread_pool.h"
#include "optim.h"

namespace arraycore::native::optim {
namespace {

template <class T>
double row_sumsq(const T* __restrict x, int64_t n) {
  // Four partial sums in double: vectorizes and keeps float32 sums accurate.
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    s0 += double(x[j]) * double(x[j]);
    s1 += double(x[j + 1]) * double(x[j + 1]);
    s2 += double(x[j + 2]) * double(x[j + 2]);
    s3 += double(x[j + 3]) * double(x[j + 3]);
  }
  for (; j < n; ++j) s0 += double(x[j]) * double(x[j]);
  return (s0 + s1) + (s2 + s3);
}

template <class T>
void weighted_row_sum(T* __restrict out, const T* __restrict rows, const double* w, int64_t batch,
                      int64_t n) {
  for (int64_t j = 0; j < n; ++j) out[j] = T(0);
  for (int64_t b = 0; b < batch; ++b) {
    const T f = T(w[b]);
    const T* __restrict r = rows + b * n;
    for (int64_t j = 0; j < n; ++j) out[j] += f * r[j];
  }
}

}  // namespace

std::vector<double> clip_and_sum(const std::vector<NdArray>& per_sample,
                                 const std::vector<NdArray>& out, double max_norm) {
  const char* who = "optim.DPSGD";
  if (per_sample.size() != out.size() || per_sample.empty())
    throw ValueError(std::string(who) + ": need one per-sample gradient per parameter");
  if (!(max_norm > 0) || !std::isfinite(max_norm))
    throw ValueError(std::string(who) + ": max_grad_norm must be positive and finite");
  const DType dt = out[0].dtype;
  if (dt != DType::Float32 && dt != DType::Float64)
    throw TypeError(std::string(who) + ": per-sample gradients must be float32 or float64, got " +
                    dtype_name(dt));
  const int64_t batch = per_sample[0].ndim() > 0 ? per_sample[0].shape[0] : -1;
  std::vector<NdArray> rows(per_sample.size());
  for (size_t k = 0; k < per_sample.size(); ++k) {
    const NdArray& ps = per_sample[k];
    const NdArray& o = out[k];
    if (ps.dtype != dt || o.dtype != dt)
      throw TypeError(std::string(who) + ": per-sample gradient " + std::to_string(k) +
                      " has dtype " + dtype_name(ps.dtype) + ", expected " + dtype_name(dt));
    if (ps.ndim() != o.ndim() + 1 || ps.shape[0] != batch)
      throw ValueError(std::string(who) + ": per-sample gradient " + std::to_string(k) +
                       " must have shape (batch, *param.shape) with the same batch size as the "
                       "others");
    for (int d = 0; d < o.ndim(); ++d)
      if (ps.shape[d + 1] != o.shape[d])
        throw ValueError(std::string(who) + ": per-sample gradient " + std::to_string(k) +
                         " does not match its parameter's shape");
    if (!o.is_c_contiguous() || !o.writeable())
      throw ValueError(std::string(who) + ": output buffers must be contiguous and writeable");
    rows[k] = contiguous(ps);
  }
  std::vector<double> sumsq(batch, 0.0);
  auto for_rows = [&](auto body) {
    for (size_t k = 0; k < rows.size(); ++k) {
      const int64_t n = out[k].numel();
      if (dt == DType::Float32) body(k, reinterpret_cast<float*>(rows[k].data()), n);
      else body(k, reinterpret_cast<double*>(rows[k].data()), n);
    }
  };
  for_rows([&](size_t, auto* x, int64_t n) {
    parallel_for(batch, std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(n, 1)),
                 [&](int64_t b0, int64_t b1) {
                   for (int64_t b = b0; b < b1; ++b) sumsq[b] += row_sumsq(x + b * n, n);
                 });
  });
  std::vector<double> norms(batch), factor(batch);
  for (int64_t b = 0; b < batch; ++b) {
    norms[b] = std::sqrt(sumsq[b]);
    factor[b] = norms[b] > max_norm ? max_norm / norms[b] : 1.0;
  }
  for_rows([&](size_t k, auto* x, int64_t n) {
    using T = std::remove_pointer_t<decltype(x)>;
    weighted_row_sum(reinterpret_cast<T*>(out[k].data()), x, factor.data(), batch, n);
  });
  return norms;
}

}  // namespace arraycore::native::optim
