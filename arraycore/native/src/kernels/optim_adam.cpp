// Adam, AdamW, Adamax, NAdam and RAdam as fused multi-tensor kernels (Note [Multi-tensor
// optimizer steps] in optim_lists.cpp).  Each element loop follows PyTorch 2.13's
// single-tensor formula operation by operation (torch.optim docs' pseudocode; Kingma & Ba
// 2015; Loshchilov & Hutter 2019; Dozat 2016; Liu et al. 2020), in the parameter dtype.
#include <cmath>

#include "../errors.h"
#include "optim_math.h"

namespace arraycore::native::optim {
namespace {

// Adam / AdamW: exp_avg.lerp_(g, 1-b1); exp_avg_sq.mul_(b2).addcmul_(g, g, 1-b2);
// denom = sqrt(v) / sqrt(bc2) + eps; param.addcdiv_(exp_avg, denom, -lr/bc1).
template <class T, bool Amsgrad, int Decay, bool SmallW>
void adam_span(T* __restrict p, const T* __restrict g, T* __restrict m, T* __restrict v,
               T* __restrict vmax, int64_t n, const AdamArgs& a) {
  const T sign = a.maximize ? T(-1) : T(1);
  const T wd = T(a.weight_decay), keep = T(1 - a.lr * a.weight_decay);
  const T w1 = T(1 - a.beta1), b2 = T(a.beta2), c2 = T(1 - a.beta2);
  const T bc2s = T(a.bias_correction2_sqrt), eps = T(a.eps), neg_step = T(-a.step_size);
  for (int64_t k = 0; k < n; ++k) {
    T pk = p[k];
    T gk = sign * g[k];
    if constexpr (Decay == kDecoupled) pk = pk * keep;
    if constexpr (Decay == kL2) gk = gk + wd * pk;
    const T mk = lerp<SmallW>(m[k], gk, w1);
    const T vk = v[k] * b2 + c2 * gk * gk;
    m[k] = mk;
    v[k] = vk;
    T den;
    if constexpr (Amsgrad) {
      const T mx = maximum(vmax[k], vk);
      vmax[k] = mx;
      den = std::sqrt(mx) / bc2s + eps;
    } else {
      den = std::sqrt(vk) / bc2s + eps;
    }
    p[k] = pk + neg_step * mk / den;
  }
}

// Adamax: exp_avg.lerp_(g, 1-b1); exp_inf = max(exp_inf * b2, |g| + eps);
// param.addcdiv_(exp_avg, exp_inf, -lr/bc1).
template <class T, int Decay, bool SmallW>
void adamax_span(T* __restrict p, const T* __restrict g, T* __restrict m, T* __restrict u,
                 int64_t n, const AdamaxArgs& a) {
  const T sign = a.maximize ? T(-1) : T(1);
  const T wd = T(a.weight_decay), w1 = T(1 - a.beta1), b2 = T(a.beta2), eps = T(a.eps);
  const T neg_clr = T(-a.clr);
  for (int64_t k = 0; k < n; ++k) {
    const T pk = p[k];
    T gk = sign * g[k];
    if constexpr (Decay == kL2) gk = gk + wd * pk;
    const T mk = lerp<SmallW>(m[k], gk, w1);
    const T uk = maximum(u[k] * b2, std::abs(gk) + eps);
    m[k] = mk;
    u[k] = uk;
    p[k] = pk + neg_clr * mk / uk;
  }
}

// NAdam: moments as Adam; denom = sqrt(v / bc2) + eps; two addcdiv_ (the gradient term with
// -lr (1 - mu_t) / (1 - prod mu), the momentum term with -lr mu_{t+1} / (1 - prod mu ...)).
template <class T, int Decay, bool SmallW>
void nadam_span(T* __restrict p, const T* __restrict g, T* __restrict m, T* __restrict v,
                int64_t n, const NadamArgs& a) {
  const T sign = a.maximize ? T(-1) : T(1);
  const T wd = T(a.weight_decay), keep = T(1 - a.lr * a.weight_decay);
  const T w1 = T(1 - a.beta1), b2 = T(a.beta2), c2 = T(1 - a.beta2), eps = T(a.eps);
  const T bc2 = T(a.bias_correction2), cg = T(a.grad_coef), cm = T(a.avg_coef);
  for (int64_t k = 0; k < n; ++k) {
    T pk = p[k];
    T gk = sign * g[k];
    if constexpr (Decay == kDecoupled) pk = pk * keep;
    if constexpr (Decay == kL2) gk = gk + wd * pk;
    const T mk = lerp<SmallW>(m[k], gk, w1);
    const T vk = v[k] * b2 + c2 * gk * gk;
    m[k] = mk;
    v[k] = vk;
    const T den = std::sqrt(vk / bc2) + eps;
    pk = pk + cg * gk / den;
    p[k] = pk + cm * mk / den;
  }
}

// RAdam: moments as Adam; with the variance rectification term (rho_t > 5):
// param -= (exp_avg / bc1) * lr * (sqrt(bc2) / (sqrt(v) + eps)) * rect, else
// param -= (exp_avg / bc1) * lr.
template <class T, int Decay, bool SmallW, bool Rectified>
void radam_span(T* __restrict p, const T* __restrict g, T* __restrict m, T* __restrict v,
                int64_t n, const RadamArgs& a) {
  const T sign = a.maximize ? T(-1) : T(1);
  const T wd = T(a.weight_decay), keep = T(1 - a.lr * a.weight_decay);
  const T w1 = T(1 - a.beta1), b2 = T(a.beta2), c2 = T(1 - a.beta2), eps = T(a.eps);
  const T bc1 = T(a.bias_correction1), bc2s = T(a.bias_correction2_sqrt), lr = T(a.lr);
  const T rect = T(a.rect);
  for (int64_t k = 0; k < n; ++k) {
    T pk = p[k];
    T gk = sign * g[k];
    if constexpr (Decay == kDecoupled) pk = pk * keep;
    if constexpr (Decay == kL2) gk = gk + wd * pk;
    const T mk = lerp<SmallW>(m[k], gk, w1);
    const T vk = v[k] * b2 + c2 * gk * gk;
    m[k] = mk;
    v[k] = vk;
    const T corrected = mk / bc1 * lr;
    if constexpr (Rectified) p[k] = pk - corrected * (bc2s / (std::sqrt(vk) + eps)) * rect;
    else p[k] = pk - corrected;
  }
}

bool small_weight(double beta1) { return std::abs(1 - beta1) < 0.5; }

}  // namespace

void adam_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
               const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_avg_sqs,
               const std::vector<NdArray>& max_exp_avg_sqs, const AdamArgs& a) {
  const char* who = a.decoupled ? "optim.AdamW" : "optim.Adam";
  TensorLists L = gather(who, {{&params, true, "params"}, {&grads, false, "grads"},
                               {&exp_avgs, true, "exp_avg"}, {&exp_avg_sqs, true, "exp_avg_sq"},
                               {&max_exp_avg_sqs, true, "max_exp_avg_sq"}});
  if (a.amsgrad && max_exp_avg_sqs.size() != params.size())
    throw ValueError(std::string(who) + ": amsgrad needs one max_exp_avg_sq per parameter");
  dispatch_real(L, [&]<class T>() {
    with_bool(a.amsgrad, [&]<bool Ams>() {
      with_decay(decay_kind(a.weight_decay, a.decoupled), [&]<int Decay>() {
        with_bool(small_weight(a.beta1), [&]<bool Small>() {
          for_each_span(L, [&](size_t i, int64_t b, int64_t e) {
            adam_span<T, Ams, Decay, Small>(
                L.ptr<T>(0, i) + b, L.ptr<T>(1, i) + b, L.ptr<T>(2, i) + b, L.ptr<T>(3, i) + b,
                Ams ? L.ptr<T>(4, i) + b : nullptr, e - b, a);
          });
        });
      });
    });
  });
  finish(L);
}

void adamax_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                 const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_infs,
                 const AdamaxArgs& a) {
  TensorLists L = gather("optim.Adamax", {{&params, true, "params"}, {&grads, false, "grads"},
                                          {&exp_avgs, true, "exp_avg"},
                                          {&exp_infs, true, "exp_inf"}});
  dispatch_real(L, [&]<class T>() {
    with_decay(decay_kind(a.weight_decay, false), [&]<int Decay>() {
      with_bool(small_weight(a.beta1), [&]<bool Small>() {
        for_each_span(L, [&](size_t i, int64_t b, int64_t e) {
          adamax_span<T, Decay, Small>(L.ptr<T>(0, i) + b, L.ptr<T>(1, i) + b,
                                       L.ptr<T>(2, i) + b, L.ptr<T>(3, i) + b, e - b, a);
        });
      });
    });
  });
  finish(L);
}

void nadam_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_avg_sqs,
                const NadamArgs& a) {
  TensorLists L = gather("optim.NAdam", {{&params, true, "params"}, {&grads, false, "grads"},
                                         {&exp_avgs, true, "exp_avg"},
                                         {&exp_avg_sqs, true, "exp_avg_sq"}});
  dispatch_real(L, [&]<class T>() {
    with_decay(decay_kind(a.weight_decay, a.decoupled), [&]<int Decay>() {
      with_bool(small_weight(a.beta1), [&]<bool Small>() {
        for_each_span(L, [&](size_t i, int64_t b, int64_t e) {
          nadam_span<T, Decay, Small>(L.ptr<T>(0, i) + b, L.ptr<T>(1, i) + b,
                                      L.ptr<T>(2, i) + b, L.ptr<T>(3, i) + b, e - b, a);
        });
      });
    });
  });
  finish(L);
}

void radam_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                const std::vector<NdArray>& exp_avgs, const std::vector<NdArray>& exp_avg_sqs,
                const RadamArgs& a) {
  TensorLists L = gather("optim.RAdam", {{&params, true, "params"}, {&grads, false, "grads"},
                                         {&exp_avgs, true, "exp_avg"},
                                         {&exp_avg_sqs, true, "exp_avg_sq"}});
  dispatch_real(L, [&]<class T>() {
    with_decay(decay_kind(a.weight_decay, a.decoupled), [&]<int Decay>() {
      with_bool(small_weight(a.beta1), [&]<bool Small>() {
        with_bool(a.rect >= 0, [&]<bool Rect>() {
          for_each_span(L, [&](size_t i, int64_t b, int64_t e) {
            radam_span<T, Decay, Small, Rect>(L.ptr<T>(0, i) + b, L.ptr<T>(1, i) + b,
                                              L.ptr<T>(2, i) + b, L.ptr<T>(3, i) + b, e - b, a);
          });
        });
      });
    });
  });
  finish(L);
}

}  // namespace arraycore::native::optim
