// L0: softmax, log-softmax, logsumexp and the class-index cross-entropy pieces as single
// native passes,
// for arraycore/nn/functional/{activation,loss}.py.  Inputs are viewed as (outer, n, inner)
// around `axis` (n the softmax axis), so (N, C) and (N, C, d1, ...) both run without moving
// axes.  Every function makes its inputs C-contiguous and accepts float32 / float64.
#pragma once

#include <cstdint>
#include <string>

#include "../ndarray.h"

namespace arraycore::native::nn_softmax {

// softmax (log=false) or log_softmax (log=true) of x along axis.  Like the namespace
// composite it replaces: a non-finite row maximum shifts by 0, so a row with +inf or all
// -inf gives NaN (PyTorch's result).  safe (softmax only): a row whose entries are all -inf
// (every key masked in attention) gives zeros instead, as PyTorch's SDPA does since 2.5.
// nonfinite_nan (softmax only): a row whose maximum is not finite (+inf, or every entry -inf
// or NaN) gives NaN, SciPy's scipy.special.softmax result (arraycore.special.softmax).
NdArray softmax(const NdArray& x, int64_t axis, bool log, bool safe = false,
                bool nonfinite_nan = false);

// log(sum(exp(x))) along axis (x float32/float64, any layout), with SciPy's logsumexp
// arithmetic: m the maximum, c the number of entries equal to it, s the sum of exp(x - m) over
// the others, log1p(s / c) + log(c) + m (so a sum dominated by one entry keeps full relative
// accuracy); NaN anywhere gives NaN, a +inf maximum +inf, all -inf -inf.  Sums in double
// (pairwise blocks along a contiguous axis).  The result has x's dtype and out_shape (x's
// shape without the axis, or with it as 1).
NdArray logsumexp(const NdArray& x, int64_t axis, const Shape& out_shape);

// Number of targets equal to ignore_index; raises IndexError ("<who>: Target t is out of
// bounds ...") for any other target outside [0, n_classes).  target: any integer dtype.
int64_t check_class_targets(const NdArray& target, int64_t n_classes, int64_t ignore_index,
                            const std::string& who);

// -logp[..., target, ...] per position (the shape of logp without axis); target int64 of that
// shape, every entry a valid class (check_class_targets first).
NdArray nll_pick(const NdArray& logp, const NdArray& target, int64_t axis);

// d loss / d x of cross_entropy with class targets, from its log_softmax output:
//   dx = (exp(logp) - onehot(target)) * g[position] * scale
// g is 0-d (a reduced loss's gradient) or has the positions' shape (reduction "none").
NdArray cross_entropy_backward(const NdArray& logp, const NdArray& target, int64_t axis,
                               const NdArray& g, double scale);

}  // namespace arraycore::native::nn_softmax
