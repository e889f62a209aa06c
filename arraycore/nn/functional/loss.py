"""L4: nn.functional losses (torch.nn.functional's names, arguments, reductions and
numerics).

All are composites of namespace ops: cross_entropy is log_softmax (max-shifted) followed by
nll_loss (a `take_along_axis` of the target classes), binary_cross_entropy_with_logits uses
the stable form (1 - t) x - log_sigmoid(x), binary_cross_entropy clamps its logs at -100 as
PyTorch does.  The deprecated size_average/reduce arguments map to `reduction` as in PyTorch.
"""

from __future__ import annotations

import warnings

from ...autodiff.function import Function
from ...autodiff.tracer import Tracer
from ...native import _native
from ._layer_utils import (check_array, check_floating, check_reduction, legacy_reduction, ns,
                           reduce_loss, stop_gradient, untraced)
from .activation import _log_softmax_values, _traced, log_softmax

__all__ = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy",
           "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
           "cosine_embedding_loss", "margin_ranking_loss", "triplet_margin_loss",
           "pairwise_distance", "cosine_similarity", "soft_margin_loss", "hinge_embedding_loss",
           "poisson_nll_loss", "gaussian_nll_loss"]


# --- regression losses ---------------------------------------------------------------------

def _pointwise_inputs(who, input, target):
    xp = ns()
    check_floating(input, who)
    check_array(target, who, "target")
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({tuple(target.shape)}) that is different to the "
                      f"input size ({tuple(input.shape)}). This will likely lead to incorrect "
                      "results due to broadcasting. Please ensure they have the same size.",
                      stacklevel=3)
        try:
            input, target = xp.broadcast_arrays(input, target)
        except ValueError:
            raise ValueError(f"{who}: input shape {tuple(input.shape)} and target shape "
                             f"{tuple(target.shape)} cannot be broadcast together") from None
    return input, target


def _check_weight_same_size(who, weight, input):
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        raise ValueError(f"{who}: weights and input must have the same size, got "
                         f"{tuple(weight.shape)} and {tuple(input.shape)}")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """(input - target)^2, reduced (torch.nn.functional.mse_loss).  With `weight` (input's
    shape), the mean is sum(w * e) / sum(w), as PyTorch computes it.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.mse_loss(ac.asarray([1.0, 3.0]), ac.asarray([0.0, 0.0]))
    Array(5., dtype=float64)
    """
    xp = ns()
    who = "mse_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    input, target = _pointwise_inputs(who, input, target)
    d = input - target
    loss = d * d
    if weight is not None:
        _check_weight_same_size(who, weight, input)
        loss = loss * weight
        if reduction == "mean":
            return xp.sum(loss) / xp.sum(weight)
    return reduce_loss(loss, reduction, who)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """|input - target|, reduced (torch.nn.functional.l1_loss); weighted mean as mse_loss.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.l1_loss(ac.asarray([1.0, -3.0]), ac.asarray([0.0, 0.0]))
    Array(2., dtype=float64)
    """
    xp = ns()
    who = "l1_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    input, target = _pointwise_inputs(who, input, target)
    loss = xp.abs(input - target)
    if weight is not None:
        _check_weight_same_size(who, weight, input)
        loss = loss * weight
        if reduction == "mean":
            return xp.sum(loss) / xp.sum(weight)
    return reduce_loss(loss, reduction, who)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (torch.nn.functional.smooth_l1_loss;
    beta=0 is l1_loss).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.smooth_l1_loss(ac.asarray([0.5, 3.0]), ac.asarray([0.0, 0.0]), reduction="none")
    Array([0.125, 2.5  ], dtype=float64)
    """
    xp = ns()
    who = "smooth_l1_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    if beta < 0:
        raise ValueError(f"{who}: smooth_l1_loss does not support negative values for beta, "
                         f"got {beta}")
    input, target = _pointwise_inputs(who, input, target)
    d = input - target
    a = xp.abs(d)
    if beta == 0:
        return reduce_loss(a, reduction, who)
    loss = xp.where(a < beta, (0.5 / beta) * (d * d), a - 0.5 * beta)
    return reduce_loss(loss, reduction, who)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta) (torch.nn.functional.huber_loss;
    with `weight` the mean is mean(w * loss), as PyTorch computes it).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.huber_loss(ac.asarray([0.5, 3.0]), ac.asarray([0.0, 0.0]), reduction="none")
    Array([0.125, 2.5  ], dtype=float64)
    """
    xp = ns()
    who = "huber_loss"
    check_reduction(reduction, who)
    if delta <= 0:
        raise ValueError(f"{who}: huber_loss does not support non-positive values for delta, "
                         f"got {delta}")
    input, target = _pointwise_inputs(who, input, target)
    d = input - target
    a = xp.abs(d)
    loss = xp.where(a < delta, 0.5 * (d * d), delta * (a - 0.5 * delta))
    if weight is not None:
        _check_weight_same_size(who, weight, input)
        loss = loss * weight
    return reduce_loss(loss, reduction, who)


# --- classification losses -----------------------------------------------------------------

def _class_axis(input):
    return 1 if input.ndim >= 2 else 0


def _check_class_target(who, input, target):
    if target.dtype.kind not in "iu":
        raise TypeError(f"{who}: expected an integer class-index target, got {target.dtype}")
    if input.ndim == 0:
        raise ValueError(f"{who}: input must have at least one dimension (the classes)")
    if input.ndim >= 2 and target.ndim >= 1 and target.shape[0] != input.shape[0]:
        raise ValueError(f"{who}: expected input batch_size ({input.shape[0]}) to match "
                         f"target batch_size ({target.shape[0]})")
    ax = _class_axis(input)
    expected = tuple(input.shape[:ax]) + tuple(input.shape[ax + 1:])
    if tuple(target.shape) != expected:
        raise ValueError(f"{who}: expected target size {expected}, got {tuple(target.shape)}")


def _check_weight(who, weight, n_classes, input):
    if weight is None:
        return
    check_floating(weight, who, "weight")
    if tuple(weight.shape) != (n_classes,):
        raise ValueError(f"{who}: weight tensor should be defined either for all "
                         f"{n_classes} classes or no classes but got weight tensor of shape: "
                         f"{tuple(weight.shape)}")


def _check_target_range(who, target, n_classes, ignore_index):
    """Raises for a class index outside [0, C) that is not ignore_index.  Returns whether
    ignore_index may occur (False lets nll skip its masking)."""
    if target.size == 0 or isinstance(target, Tracer):
        return True
    return _native.nn_check_class_targets(target, n_classes, ignore_index, who) > 0


def _pick(xp, input, t, ax):
    """input[..., t, ...] along the class axis, as a masked sum: its vjp is a `where` (one
    elementwise pass), where a gather's would be a scatter-add."""
    n_classes = input.shape[ax]
    classes = xp.reshape(xp.arange(n_classes, dtype=t.dtype),
                         (n_classes,) + (1,) * (input.ndim - ax - 1))
    hit = xp.expand_dims(t, axis=ax) == classes
    return xp.sum(xp.where(hit, input, 0.0), axis=ax)


# Note [cross_entropy as one tape node]: the common training call (class-index targets, no
# class weights, no label smoothing, no target equal to ignore_index) is one
# autograd.Function returning (loss, log_softmax(x)).  With p = exp(logp) and h the one-hot
# mask of the targets along the class axis:
#   vjp  dx = (p - h) * g_loss / scale  +  g_logp - p * sum(g_logp)
#   jvp  t_logp = t - sum(p t),  t_loss = -sum(h * t_logp) (reduced like the loss)
# logp is a differentiable output (its own vjp/jvp are log_softmax's), so the saved value
# carries its derivative and double backward through the Function is exact.  `lead` counts
# leading vmap batch axes kept out of a "mean"/"sum" reduction.

def _ce_reduce(xp, v, reduction, lead):
    if reduction == "none":
        return v
    axes = tuple(range(lead, v.ndim))
    if reduction == "sum":
        return xp.sum(v, axis=axes)
    return xp.mean(v, axis=axes)


class _CrossEntropy(Function):
    @staticmethod
    def forward(x, target, ax, reduction, lead):
        xp = ns()
        logp = _log_softmax_values(xp, x, ax)
        if untraced(logp, target):  # one native pass instead of arange, ==, where and sum
            picked = _native.nn_nll_pick(logp, target, ax)
        else:
            picked = -_pick(xp, logp, target, ax)
        return _ce_reduce(xp, picked, reduction, lead), logp

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, target, ctx.ax, ctx.reduction, ctx.lead = inputs
        ctx.count = 1
        for a in range(ctx.lead, x.ndim):
            if a != ctx.ax:
                ctx.count *= x.shape[a]
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(output[1], target)

    @staticmethod
    def _hit(xp, logp, target, ax):
        n_classes = logp.shape[ax]
        classes = xp.reshape(xp.arange(n_classes, dtype=target.dtype),
                             (n_classes,) + (1,) * (logp.ndim - ax - 1))
        return xp.expand_dims(target, axis=ax) == classes

    @staticmethod
    def backward(ctx, g, g_logp):
        xp = ns()
        logp, target = ctx.saved_tensors
        ax = ctx.ax
        if (g is not None and g_logp is None and untraced(g, logp, target)
                and (ctx.reduction == "none" or g.ndim == 0)):
            scale = 1.0 / ctx.count if ctx.reduction == "mean" else 1.0
            # First-order backward (no create_graph): one native pass.
            return (_native.nn_cross_entropy_backward(logp, target, ax, g, scale),
                    None, None, None, None)
        p = xp.exp(logp)
        dx = None
        if g is not None:
            if ctx.reduction == "mean":
                g = g / ctx.count
            if ctx.reduction == "none":
                gb = xp.expand_dims(g, axis=ax)
            else:
                gb = xp.reshape(g, tuple(g.shape) + (1,) * (logp.ndim - g.ndim))
            hit = _CrossEntropy._hit(xp, logp, target, ax)
            dx = xp.where(hit, p - 1.0, p) * gb
        if g_logp is not None:
            d2 = g_logp - p * xp.sum(g_logp, axis=ax, keepdims=True)
            dx = d2 if dx is None else dx + d2
        if dx is None:
            dx = xp.zeros_like(logp)
        return dx, None, None, None, None

    @staticmethod
    def jvp(ctx, t, *_):
        xp = ns()
        logp, target = ctx.saved_tensors
        ax = ctx.ax
        t_logp = t - xp.sum(xp.exp(logp) * t, axis=ax, keepdims=True)
        t_loss = -_pick(xp, t_logp, target, ax)
        return _ce_reduce(xp, t_loss, ctx.reduction, ctx.lead), t_logp

    @staticmethod
    def vmap(info, in_dims, x, target, ax, reduction, lead):
        xp = ns()
        bx, bt = in_dims[0], in_dims[1]
        x = xp.moveaxis(x, bx, 0) if bx is not None else \
            xp.broadcast_to(xp.expand_dims(x, axis=0), (info.batch_size,) + tuple(x.shape))
        target = xp.moveaxis(target, bt, 0) if bt is not None else xp.broadcast_to(
            xp.expand_dims(target, axis=0), (info.batch_size,) + tuple(target.shape))
        return _CrossEntropy.apply(x, target, ax + 1, reduction, lead + 1), (0, 0)


def _nll_terms(xp, input, target, weight, ignore_index, may_ignore=True):
    """(-w[t] * input[t] with ignored positions 0, w[t] with ignored positions 0); the
    second is None when there is neither a weight nor an ignored target (the mean is then
    over all positions)."""
    ax = _class_axis(input)
    if not may_ignore and weight is None:
        if untraced(input, target):
            return _native.nn_nll_pick(input, target, ax), None
        return -_pick(xp, input, target, ax), None
    keep = target != ignore_index
    t = xp.where(keep, target, 0)
    if t.dtype != xp.int64:
        t = xp.astype(t, xp.int64)
    picked = _pick(xp, input, t, ax)
    w = xp.astype(keep, input.dtype)
    if weight is not None:
        w = w * xp.reshape(xp.take(weight, xp.reshape(t, (-1,)), axis=0), t.shape)
    return -(picked * w), w


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Negative log-likelihood of the target classes: -weight[t] * input[..., t, ...] with
    classes on axis 1 (axis 0 of an unbatched (C,) input) (torch.nn.functional.nll_loss).
    Targets equal to ignore_index contribute nothing; the mean divides by the summed
    weights of the counted targets.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.nll_loss(ac.asarray([[-1.0, -2.0], [-3.0, -4.0]]), ac.asarray([1, 0]))
    Array(2.5, dtype=float64)
    """
    xp = ns()
    who = "nll_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input, who)
    check_array(target, who, "target")
    _check_class_target(who, input, target)
    n_classes = input.shape[_class_axis(input)]
    _check_weight(who, weight, n_classes, input)
    may_ignore = _check_target_range(who, target, n_classes, ignore_index)
    loss, w = _nll_terms(xp, input, target, weight, ignore_index, may_ignore)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return xp.sum(loss)
    return xp.sum(loss) / xp.sum(w) if w is not None else xp.mean(loss)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100,
                  reduce=None, reduction="mean", label_smoothing=0.0):
    """Cross entropy of logits `input` (classes on axis 1, or axis 0 for a (C,) input) with
    class-index targets (integer, input's shape without the class axis) or class-probability
    targets (floating, input's shape) (torch.nn.functional.cross_entropy): log_softmax then
    nll_loss, with PyTorch's weight, ignore_index and label_smoothing semantics.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.cross_entropy(ac.asarray([[0.0, 0.0]]), ac.asarray([1]))
    Array(0.69314718, dtype=float64)
    """
    xp = ns()
    who = "cross_entropy"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input, who)
    check_array(target, who, "target")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"{who}: label_smoothing must be between 0.0 and 1.0. Got: "
                         f"{label_smoothing}")
    if input.ndim == 0:
        raise ValueError(f"{who}: input must have at least one dimension (the classes)")
    ax = _class_axis(input)
    n_classes = input.shape[ax]
    _check_weight(who, weight, n_classes, input)
    wshape = tuple(n_classes if i == ax else 1 for i in range(input.ndim))
    if target.dtype.kind == "f":
        return _cross_entropy_probs(xp, who, input, target, weight, ignore_index, reduction,
                                    label_smoothing, ax, n_classes, wshape)
    _check_class_target(who, input, target)
    may_ignore = _check_target_range(who, target, n_classes, ignore_index)
    if (not may_ignore and weight is None and label_smoothing == 0.0 and _traced(input)
            and input.size):
        t = target if target.dtype == xp.int64 else xp.astype(target, xp.int64)
        return _CrossEntropy.apply(input, t, ax, reduction, 0)[0]
    logp = log_softmax(input, ax)
    loss, w = _nll_terms(xp, logp, target, weight, ignore_index, may_ignore)
    if reduction == "mean":
        denom = xp.sum(w) if w is not None else None
    if label_smoothing > 0.0:
        # PyTorch: (1 - eps) nll + eps / C * smooth, smooth = -sum_c w_c log p_c, ignored
        # positions 0, the mean normalized like nll's.
        wl = logp if weight is None else logp * xp.reshape(weight, wshape)
        smooth = -xp.sum(wl, axis=ax)
        if may_ignore:
            smooth = xp.where(target != ignore_index, smooth, 0.0)
        eps = float(label_smoothing)
        loss = (1.0 - eps) * loss + (eps / n_classes) * smooth
    if reduction == "none":
        return loss
    if reduction == "sum":
        return xp.sum(loss)
    return xp.sum(loss) / denom if denom is not None else xp.mean(loss)


def _cross_entropy_probs(xp, who, input, target, weight, ignore_index, reduction,
                         label_smoothing, ax, n_classes, wshape):
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"{who}: expected a probability target of the input's shape "
                         f"{tuple(input.shape)}, got {tuple(target.shape)}")
    if ignore_index >= 0:
        raise ValueError(f"{who}: ignore_index is not supported for floating point target")
    dt = xp.result_type(input.dtype, target.dtype)
    logp = log_softmax(xp.astype(input, dt) if input.dtype != dt else input, ax)
    if label_smoothing > 0.0:
        target = target * (1.0 - label_smoothing) + label_smoothing / n_classes
    terms = logp * target
    if weight is not None:
        terms = terms * xp.reshape(weight, wshape)
    if reduction == "none":
        return -xp.sum(terms, axis=ax)
    if reduction == "sum":
        return -xp.sum(terms)
    count = input.size // n_classes if n_classes else 0
    if input.size == 0:
        return xp.asarray(float("nan"), dtype=dt) + xp.sum(terms)
    return -xp.sum(terms) / count


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """-w (t log x + (1 - t) log(1 - x)) with each log clamped at -100, as PyTorch does
    (torch.nn.functional.binary_cross_entropy).  input holds probabilities in [0, 1].

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.binary_cross_entropy(ac.asarray([0.5]), ac.asarray([1.0]))
    Array(0.69314718, dtype=float64)
    """
    xp = ns()
    who = "binary_cross_entropy"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input, who)
    check_floating(target, who, "target")
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"{who}: using a target size ({tuple(target.shape)}) that is "
                         f"different to the input size ({tuple(input.shape)}) is deprecated. "
                         "Please ensure they have the same size.")
    if input.size and not isinstance(input, Tracer):
        if not bool(xp.all(xp.logical_and(input >= 0, input <= 1))):
            raise ValueError(f"{who}: all elements of input should be between 0 and 1")
    loss = -(target * _clamped_log(xp, input) + (1.0 - target) * _clamped_log(xp, 1.0 - input))
    if weight is not None:
        check_floating(weight, who, "weight")
        loss = loss * weight
    return reduce_loss(loss, reduction, who)


def _clamped_log(xp, x):
    """max(log x, -100) whose unselected branch never sees log(0) (a 0 * inf in the vjp)."""
    big = x > 3.720075976020836e-44  # exp(-100)
    return xp.where(big, xp.log(xp.where(big, x, 1.0)), -100.0)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None,
                                     reduce=None, reduction="mean", pos_weight=None):
    """BCE of sigmoid(input), computed stably as (1 - t) x - l log_sigmoid(x) with
    l = 1 + (pos_weight - 1) t (torch.nn.functional.binary_cross_entropy_with_logits).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.binary_cross_entropy_with_logits(ac.asarray([0.0]), ac.asarray([1.0]))
    Array(0.69314718, dtype=float64)
    """
    xp = ns()
    who = "binary_cross_entropy_with_logits"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input, who)
    check_floating(target, who, "target")
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"{who}: target size ({tuple(target.shape)}) must be the same as "
                         f"input size ({tuple(input.shape)})")
    log_sig = xp.special.log_expit(input)
    if pos_weight is not None:
        check_floating(pos_weight, who, "pos_weight")
        log_sig = log_sig * ((pos_weight - 1.0) * target + 1.0)
    loss = (1.0 - target) * input - log_sig
    if weight is not None:
        check_floating(weight, who, "weight")
        loss = loss * weight
    return reduce_loss(loss, reduction, who)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """Pointwise KL divergence target * (log target - input), input holding log-probabilities
    (torch.nn.functional.kl_div); log_target=True takes target as log-probabilities.
    reduction "batchmean" divides the sum by the batch size (the KL definition); "mean"
    averages over all elements (PyTorch's warning says so).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.kl_div(ac.log(ac.asarray([0.5, 0.5])), ac.asarray([0.5, 0.5]), reduction="sum")
    Array(0., dtype=float64)
    """
    xp = ns()
    who = "kl_div"
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns "
                      "with the KL div math definition.'mean' will be changed to behave the "
                      "same as 'batchmean' in the next major release.", stacklevel=2)
    check_reduction(reduction, who, extra=("batchmean",))
    check_floating(input, who)
    check_floating(target, who, "target")
    if log_target:
        loss = xp.exp(target) * (target - input)
    else:
        loss = xp.special.xlogy(target, target) - target * input
    if reduction == "batchmean":
        total = xp.sum(loss)
        return total / input.shape[0] if input.ndim else total
    return reduce_loss(loss, reduction, who)


# --- embedding and ranking losses ----------------------------------------------------------

def _hinge(xp, v):
    """max(v, 0) with gradient 1 at v = 0 (PyTorch's clamp_min backward: v >= 0)."""
    return xp.where(v >= 0, v, 0.0)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                          reduction="mean"):
    """1 - cos(x1, x2) for target 1, max(0, cos(x1, x2) - margin) for target -1
    (torch.nn.functional.cosine_embedding_loss; 1e-12 added to each squared norm).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.cosine_embedding_loss(ac.asarray([[1.0, 0.0]]), ac.asarray([[0.0, 1.0]]),
    ...                         ac.asarray([1]))
    Array(1., dtype=float64)
    """
    xp = ns()
    who = "cosine_embedding_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input1, who, "input1")
    check_floating(input2, who, "input2")
    check_array(target, who, "target")
    if target.ndim not in (0, 1):
        raise ValueError(f"{who}: 0D or 1D target tensor expected, multi-target not supported")
    if target.ndim == 1 and (input1.ndim != 2 or input2.ndim != 2):
        raise ValueError(f"{who}: 1D target tensor expects 2D input tensors, but found inputs "
                         f"with sizes {tuple(input1.shape)} and {tuple(input2.shape)}")
    if target.ndim == 0 and (input1.ndim != 1 or input2.ndim != 1):
        raise ValueError(f"{who}: 0D target tensor expects 1D input tensors, but found inputs "
                         f"with sizes {tuple(input1.shape)} and {tuple(input2.shape)}")
    ax = target.ndim
    eps = 1e-12
    prod = xp.sum(input1 * input2, axis=ax)
    m1 = xp.sum(input1 * input1, axis=ax) + eps
    m2 = xp.sum(input2 * input2, axis=ax) + eps
    cos = prod / xp.sqrt(m1 * m2)
    pos = xp.where(target == 1, 1.0 - cos, 0.0)
    neg = xp.where(target == -1, _hinge(xp, cos - margin), 0.0)
    return reduce_loss(pos + neg, reduction, who)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                        reduction="mean"):
    """max(0, -target * (x1 - x2) + margin) (torch.nn.functional.margin_ranking_loss).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.margin_ranking_loss(ac.asarray([1.0]), ac.asarray([2.0]), ac.asarray([1.0]))
    Array(1., dtype=float64)
    """
    xp = ns()
    who = "margin_ranking_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input1, who, "input1")
    check_floating(input2, who, "input2")
    check_array(target, who, "target")
    if not input1.ndim == input2.ndim == target.ndim:
        raise ValueError(f"{who}: all input tensors should have same dimension but got sizes: "
                         f"input1: {tuple(input1.shape)}, input2: {tuple(input2.shape)}, "
                         f"target: {tuple(target.shape)}")
    loss = _hinge(xp, -target * (input1 - input2) + margin)
    return reduce_loss(loss, reduction, who)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """||x1 - x2 + eps||_p over the last axis (torch.nn.functional.pairwise_distance).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.pairwise_distance(ac.asarray([[3.0, 0.0]]), ac.asarray([[0.0, 4.0]]), eps=0.0)
    Array([5.], dtype=float64)
    """
    xp = ns()
    who = "pairwise_distance"
    check_floating(x1, who, "x1")
    check_floating(x2, who, "x2")
    nd = max(x1.ndim, x2.ndim)
    d = x1 - x2 + eps
    if nd == 0:
        return xp.abs(d)
    return xp.linalg.vector_norm(d, ord=p, axis=nd - 1, keepdims=keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """x1 . x2 / max(||x1|| ||x2||, eps) along `dim` (torch.nn.functional.cosine_similarity;
    PyTorch clamps each norm at sqrt-free eps: x / max(||x||, eps)).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.cosine_similarity(ac.asarray([[1.0, 0.0]]), ac.asarray([[1.0, 0.0]]))
    Array([1.], dtype=float64)
    """
    xp = ns()
    who = "cosine_similarity"
    check_floating(x1, who, "x1")
    check_floating(x2, who, "x2")
    x1, x2 = xp.broadcast_arrays(x1, x2)
    n1 = xp.linalg.vector_norm(x1, axis=dim, keepdims=True)
    n2 = xp.linalg.vector_norm(x2, axis=dim, keepdims=True)
    a = x1 / xp.maximum(n1, eps)
    b = x2 / xp.maximum(n2, eps)
    return xp.sum(a * b, axis=dim)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0) with d the pairwise p-norm distance; swap=True uses
    min(d(a, n), d(p, n)) (torch.nn.functional.triplet_margin_loss).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> a = ac.asarray([[0.0, 0.0]])
    >>> F.triplet_margin_loss(a, a, a + 3.0, eps=0.0)
    Array(0., dtype=float64)
    """
    xp = ns()
    who = "triplet_margin_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    for v, what in ((anchor, "anchor"), (positive, "positive"), (negative, "negative")):
        check_floating(v, who, what)
    if margin <= 0:
        raise ValueError(f"{who}: margin must be greater than 0, got {margin}")
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise ValueError(f"{who}: the anchor, positive, and negative tensors are expected to "
                         f"have the same number of dimensions, but got: anchor {anchor.ndim}D, "
                         f"positive {positive.ndim}D, and negative {negative.ndim}D inputs")
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = xp.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    loss = _hinge(xp, margin + d_pos - d_neg)
    return reduce_loss(loss, reduction, who)


# --- a few more of torch's losses that are short composites --------------------------------

def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input)) (torch.nn.functional.soft_margin_loss).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.soft_margin_loss(ac.asarray([0.0]), ac.asarray([1.0]))
    Array(0.69314718, dtype=float64)
    """
    xp = ns()
    who = "soft_margin_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input, who)
    return reduce_loss(-xp.special.log_expit(target * input), reduction, who)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """x where target is 1, max(0, margin - x) where target is -1
    (torch.nn.functional.hinge_embedding_loss).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.hinge_embedding_loss(ac.asarray([0.3]), ac.asarray([-1.0]))
    Array(0.7, dtype=float64)
    """
    xp = ns()
    who = "hinge_embedding_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input, who)
    margin_term = xp.where(target == -1, _hinge(xp, margin - input), 0.0)
    self_term = xp.where(target == 1, input, 0.0)
    return reduce_loss(margin_term + self_term, reduction, who)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """Poisson negative log-likelihood (torch.nn.functional.poisson_nll_loss): exp(x) - t x
    for log_input, else x - t log(x + eps); full adds Stirling's term for t > 1.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.poisson_nll_loss(ac.asarray([0.0]), ac.asarray([1.0]))
    Array(1., dtype=float64)
    """
    import math
    xp = ns()
    who = "poisson_nll_loss"
    reduction = legacy_reduction(size_average, reduce, reduction, who)
    check_floating(input, who)
    if log_input:
        loss = xp.exp(input) - target * input
    else:
        loss = input - target * xp.log(input + eps)
    if full:
        t = xp.where(target > 1, target, 2.0)
        stirling = t * xp.log(t) - t + 0.5 * xp.log(2 * math.pi * t)
        loss = loss + xp.where(target > 1, stirling, 0.0)
    return reduce_loss(loss, reduction, who)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 (log(max(var, eps)) + (input - target)^2 / max(var, eps)) (+ 0.5 log 2 pi if full)
    (torch.nn.functional.gaussian_nll_loss).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.gaussian_nll_loss(ac.asarray([0.0]), ac.asarray([0.0]), ac.asarray([1.0]))
    Array(0., dtype=float64)
    """
    import math
    xp = ns()
    who = "gaussian_nll_loss"
    check_reduction(reduction, who)
    check_floating(input, who)
    if isinstance(var, (int, float)):
        var = xp.full(input.shape, float(var), dtype=input.dtype)
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = xp.expand_dims(var, axis=-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1):
            raise ValueError(f"{who}: var is of incorrect size")
    if not isinstance(var, Tracer) and var.size and bool(xp.any(var < 0)):
        raise ValueError(f"{who}: var has negative entry/entries")
    # PyTorch clamps a clone of var in place under no_grad: the value is max(var, eps) and
    # the gradient flows to var as if unclamped.
    v = var + stop_gradient(xp.maximum(var, eps) - var)
    d = input - target
    loss = 0.5 * (xp.log(v) + d * d / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce_loss(loss, reduction, who)

