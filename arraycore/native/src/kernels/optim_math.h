// Element formulas shared by the optimizer kernels (optim_*.cpp), written as PyTorch's CPU
// kernels compute them so trajectories agree to a few ulps.
#pragma once

#include <cmath>
#include <cstdint>

#include "optim.h"

namespace arraycore::native::optim {

// torch.lerp(a, b, w): the two forms PyTorch picks between by |w| < 0.5 (exact at both ends).
// `Small` is that test, hoisted out of the element loops.
template <bool Small, class T>
inline T lerp(T a, T b, T w) {
  if constexpr (Small) return a + w * (b - a);
  else return b - (b - a) * (T(1) - w);
}

// torch.maximum for the non-NaN case, written so it vectorizes (vmaxps).
template <class T>
inline T maximum(T a, T b) { return a < b ? b : a; }

// Runs body.template operator()<T>() for the lists' real dtype.
template <class Body>
void dispatch_real(const TensorLists& L, Body&& body) {
  if (L.real_dtype == DType::Float64) body.template operator()<double>();
  else body.template operator()<float>();
}

// Weight decay kinds (hoisted out of the loops): none, L2 added to the gradient (PyTorch's
// grad.add(param, alpha=weight_decay)), decoupled (param.mul_(1 - lr * weight_decay)).
enum WeightDecay : int { kNoDecay = 0, kL2 = 1, kDecoupled = 2 };

inline int decay_kind(double weight_decay, bool decoupled) {
  return weight_decay == 0 ? kNoDecay : decoupled ? kDecoupled : kL2;
}

// Turns runtime switches into template arguments, so each element loop is branch-free.
template <class F>
void with_bool(bool b, F&& f) {
  if (b) f.template operator()<true>();
  else f.template operator()<false>();
}
template <class F>
void with_decay(int kind, F&& f) {
  if (kind == kL2) f.template operator()<kL2>();
  else if (kind == kDecoupled) f.template operator()<kDecoupled>();
  else f.template operator()<kNoDecay>();
}

}  // namespace arraycore::native::optim
