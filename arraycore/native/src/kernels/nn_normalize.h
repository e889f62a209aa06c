// L0: the normalization statistics of layer_norm / group_norm / instance_norm over the trailing
// axes of an array, and their first-order backward, as single native passes for
// arraycore/nn/functional/normalization.py (plain, untraced arrays only: a traced array keeps
// the differentiable composite).  float32 / float64; inputs are made C-contiguous.
#pragma once

#include <cstdint>
#include <vector>

#include "../ndarray.h"

namespace arraycore::native::nn_normalize {

// Over the last k axes of x: {xhat, mean, var}, xhat = (x - mean) / sqrt(var + eps) with the
// biased variance; mean and var have x's shape with the last k axes set to 1 (keepdims).
// The sums run in double for float32 too.
std::vector<NdArray> normalize_trailing(const NdArray& x, int64_t k, double eps);

// d xhat^T g / d x: rstd * (g - mean(g) - xhat * mean(g * xhat)) over the last k axes, from
// the forward's xhat and var.
NdArray normalize_trailing_backward(const NdArray& g, const NdArray& xhat, const NdArray& var,
                                    int64_t k, double eps);

}  // namespace arraycore::native::nn_normalize
