// SGD, RMSprop and Adagrad as fused multi-tensor kernels (Note [Multi-tensor optimizer steps]
// in optim_lists.cpp), following PyTorch 2.13's single-tensor formulas (torch.optim docs'
// pseudocode; Sutskever et al. 2013 for Nesterov momentum; Hinton's RMSprop lecture and
// Graves 2013 for the centered form; Duchi et al. 2011 for Adagrad).
#include <cmath>

#include "../errors.h"
#include "optim_math.h"

namespace arraycore::native::optim {
namespace {

// g = grad (+ wd * p); buf = first ? g : buf * momentum + (1 - dampening) * g;
// g = nesterov ? g + momentum * buf : buf; p += -lr * g.
template <class T, bool Decay, bool Momentum, bool Nesterov>
void sgd_span(T* __restrict p, const T* __restrict g, T* __restrict buf, bool first, int64_t n,
              const SgdArgs& a) {
  const T sign = a.maximize ? T(-1) : T(1);
  const T wd = T(a.weight_decay), mom = T(a.momentum), keep_g = T(1 - a.dampening);
  const T neg_lr = T(-a.lr);
  for (int64_t k = 0; k < n; ++k) {
    const T pk = p[k];
    T gk = sign * g[k];
    if constexpr (Decay) gk = gk + wd * pk;
    if constexpr (Momentum) {
      const T bk = first ? gk : buf[k] * mom + keep_g * gk;
      buf[k] = bk;
      gk = Nesterov ? gk + mom * bk : bk;
    }
    p[k] = pk + neg_lr * gk;
  }
}

// square_avg = square_avg * alpha + (1 - alpha) * g * g; centered: grad_avg.lerp_(g, 1 - alpha),
// avg = sqrt(square_avg - grad_avg^2) + eps, else sqrt(square_avg) + eps; with momentum
// buf = buf * momentum + g / avg, p += -lr * buf, else p += -lr * g / avg.
template <class T, bool Decay, bool Centered, bool Momentum, bool SmallW>
void rmsprop_span(T* __restrict p, const T* __restrict g, T* __restrict sq, T* __restrict ga,
                  T* __restrict buf, int64_t n, const RmspropArgs& a) {
  const T sign = a.maximize ? T(-1) : T(1);
  const T wd = T(a.weight_decay), alpha = T(a.alpha), c = T(1 - a.alpha), w = T(1 - a.alpha);
  const T eps = T(a.eps), mom = T(a.momentum), neg_lr = T(-a.lr);
  for (int64_t k = 0; k < n; ++k) {
    const T pk = p[k];
    T gk = sign * g[k];
    if constexpr (Decay) gk = gk + wd * pk;
    const T sk = sq[k] * alpha + c * gk * gk;
    sq[k] = sk;
    T avg;
    if constexpr (Centered) {
      const T gak = lerp<SmallW>(ga[k], gk, w);
      ga[k] = gak;
      avg = std::sqrt(sk + T(-1) * gak * gak) + eps;
    } else {
      avg = std::sqrt(sk) + eps;
    }
    if constexpr (Momentum) {
      const T bk = buf[k] * mom + gk / avg;
      buf[k] = bk;
      p[k] = pk + neg_lr * bk;
    } else {
      p[k] = pk + neg_lr * gk / avg;
    }
  }
}

// sum += g * g; p += -clr * g / (sqrt(sum) + eps), clr = lr / (1 + (step - 1) * lr_decay).
template <class T, bool Decay>
void adagrad_span(T* __restrict p, const T* __restrict g, T* __restrict sum, int64_t n,
                  const AdagradArgs& a) {
  const T sign = a.maximize ? T(-1) : T(1);
  const T wd = T(a.weight_decay), eps = T(a.eps), neg_clr = T(-a.clr);
  for (int64_t k = 0; k < n; ++k) {
    const T pk = p[k];
    T gk = sign * g[k];
    if constexpr (Decay) gk = gk + wd * pk;
    const T sk = sum[k] + T(1) * gk * gk;
    sum[k] = sk;
    p[k] = pk + neg_clr * gk / (std::sqrt(sk) + eps);
  }
}

}  // namespace

void sgd_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
              const std::vector<NdArray>& bufs, const std::vector<bool>& first,
              const SgdArgs& a) {
  TensorLists L = gather("optim.SGD", {{&params, true, "params"}, {&grads, false, "grads"},
                                       {&bufs, true, "momentum_buffer"}});
  const bool momentum = a.momentum != 0;
  if (momentum && (bufs.size() != params.size() || first.size() != params.size()))
    throw ValueError("optim.SGD: momentum needs one momentum_buffer per parameter");
  dispatch_real(L, [&]<class T>() {
    with_bool(a.weight_decay != 0, [&]<bool Decay>() {
      with_bool(momentum, [&]<bool Mom>() {
        with_bool(a.nesterov, [&]<bool Nest>() {
          for_each_span(L, [&](size_t i, int64_t b, int64_t e) {
            sgd_span<T, Decay, Mom, Nest>(L.ptr<T>(0, i) + b, L.ptr<T>(1, i) + b,
                                          Mom ? L.ptr<T>(2, i) + b : nullptr,
                                          Mom && first[i], e - b, a);
          });
        });
      });
    });
  });
  finish(L);
}

void rmsprop_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                  const std::vector<NdArray>& square_avgs, const std::vector<NdArray>& grad_avgs,
                  const std::vector<NdArray>& momentum_bufs, const RmspropArgs& a) {
  TensorLists L = gather("optim.RMSprop",
                         {{&params, true, "params"}, {&grads, false, "grads"},
                          {&square_avgs, true, "square_avg"}, {&grad_avgs, true, "grad_avg"},
                          {&momentum_bufs, true, "momentum_buffer"}});
  const bool momentum = a.momentum > 0;
  if ((a.centered && grad_avgs.size() != params.size()) ||
      (momentum && momentum_bufs.size() != params.size()))
    throw ValueError("optim.RMSprop: missing grad_avg or momentum_buffer state");
  dispatch_real(L, [&]<class T>() {
    with_bool(a.weight_decay != 0, [&]<bool Decay>() {
      with_bool(a.centered, [&]<bool Cent>() {
        with_bool(momentum, [&]<bool Mom>() {
          with_bool(std::abs(1 - a.alpha) < 0.5, [&]<bool Small>() {
            for_each_span(L, [&](size_t i, int64_t b, int64_t e) {
              rmsprop_span<T, Decay, Cent, Mom, Small>(
                  L.ptr<T>(0, i) + b, L.ptr<T>(1, i) + b, L.ptr<T>(2, i) + b,
                  Cent ? L.ptr<T>(3, i) + b : nullptr, Mom ? L.ptr<T>(4, i) + b : nullptr,
                  e - b, a);
            });
          });
        });
      });
    });
  });
  finish(L);
}

void adagrad_step(const std::vector<NdArray>& params, const std::vector<NdArray>& grads,
                  const std::vector<NdArray>& sums, const AdagradArgs& a) {
  TensorLists L = gather("optim.Adagrad", {{&params, true, "params"}, {&grads, false, "grads"},
                                           {&sums, true, "sum"}});
  dispatch_real(L, [&]<class T>() {
    with_bool(a.weight_decay != 0, [&]<bool Decay>() {
      for_each_span(L, [&](size_t i, int64_t b, int64_t e) {
        adagrad_span<T, Decay>(L.ptr<T>(0, i) + b, L.ptr<T>(1, i) + b, L.ptr<T>(2, i) + b,
                               e - b, a);
      });
    });
  });
  finish(L);
}

}  // namespace arraycore::native::optim
