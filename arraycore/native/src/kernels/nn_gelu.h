// L0: GELU and its first derivative as single native passes, for
// arraycore/nn/functional/activation.py (plain, untraced arrays only; traced ones keep the
// differentiable composite).  float32 / float64, any layout (made contiguous).
#pragma once

#include "../ndarray.h"

namespace arraycore::native::nn_gelu {

// x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), or with tanh_form PyTorch's approximation
// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
NdArray gelu(const NdArray& x, bool tanh_form);

// g * gelu'(x): Phi(x) + x phi(x), or the derivative of the tanh form.
NdArray gelu_backward(const NdArray& g, const NdArray& x, bool tanh_form);

}  // namespace arraycore::native::nn_gelu
