"""L4: nn.functional normalization: `batch_norm`, `layer_norm`, `group_norm`, `rms_norm`,
`instance_norm` (torch.nn.functional's semantics).

Every form is a composite of namespace ops (mean, centred square, 1/sqrt), so gradients
flow through the batch statistics on the tape and under the transforms.  Running statistics
are buffers updated in place without recording (PyTorch's momentum rule, the unbiased
variance); see `_write_stat` for how an update is made from a traced value.
"""

from __future__ import annotations

from ...autodiff.function import Function
from ...autodiff.tracer import Tracer
from ...native import _native
from ._layer_utils import check_floating, check_same_dtype, native_float_ok, ns

__all__ = ["batch_norm", "layer_norm", "group_norm", "rms_norm", "instance_norm"]


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _concrete(v):
    """The plain array below a stack of tracers, or None when it depends on a vmap batch."""
    while isinstance(v, Tracer):
        v = v._primal_value()
    return v


def _write_stat(who, buf, value):
    """buf[...] = value with recording off.  A buffer passed in as a traced value (a
    functional_call under a transform) is written through the transform; a plain buffer
    takes the primal value (func.grad / func.jvp levels), as torch.func does.  Values that
    differ per vmap example cannot go into one buffer: ValueError."""
    xp = ns()
    with xp.no_grad():
        if isinstance(buf, Tracer):
            buf[...] = value
            return
        v = _concrete(value)
        if v is None:
            raise ValueError(f"{who}: cannot update the running statistics (a plain buffer) "
                             "from a value batched by vmap; pass the buffers through "
                             "functional_call, use eval mode or track_running_stats=False")
        buf[...] = v.detach()


# Note [Normalization as one tape node]: every norm here computes xhat = (x - mean) * rstd
# over some axes, rstd = 1 / sqrt(var + eps) with the biased variance.  `_Normalize` is an
# autograd.Function returning (xhat, mean, var) with closed-form derivatives (means over the
# n normalized elements):
#   xhat: vjp rstd (g - mean(g) - xhat mean(g xhat)),  jvp rstd (t - mean(t) - xhat mean(t xhat))
#   mean: vjp g_mean / n,                                jvp mean(t)
#   var:  vjp g_var 2 xhat / (n rstd),                   jvp 2 mean(xhat t) / rstd
# so the tape holds one node and the backward is a few ops instead of the vjps of ~7 ops.
# The rules are namespace ops on the saved outputs xhat and var, which are themselves
# differentiable outputs, so double backward and the transforms work.  Plain (untraced)
# inputs skip the Function.

def _trailing(x, axes):
    """k when `axes` are the last k axes of x (layer, group and instance norm), else 0."""
    k = len(axes)
    return k if k and tuple(axes) == tuple(range(x.ndim - k, x.ndim)) else 0


def _moments(xp, x, axes, eps):
    k = _trailing(x, axes)
    if k and native_float_ok(x):  # one native pass (kernels/nn_normalize.cpp)
        return tuple(_native.nn_normalize_trailing(x, k, float(eps)))
    mean = xp.mean(x, axis=axes, keepdims=True)
    centred = x - mean
    var = xp.mean(centred * centred, axis=axes, keepdims=True)
    return centred * (1.0 / xp.sqrt(var + eps)), mean, var


class _Normalize(Function):
    @staticmethod
    def forward(x, axes, eps):
        return _moments(ns(), x, axes, eps)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.axes, ctx.eps = inputs[1], inputs[2]
        x = inputs[0]
        n = 1
        for a in ctx.axes:
            n *= x.shape[a]
        ctx.n = n
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(output[0], output[2])

    @staticmethod
    def backward(ctx, g, g_mean, g_var):
        xp = ns()
        xhat, var = ctx.saved_tensors
        k = _trailing(xhat, ctx.axes)
        if g is not None and g_mean is None and g_var is None and k and native_float_ok(g, xhat):
            # First-order backward (no create_graph): one native pass.
            return _native.nn_normalize_trailing_backward(g, xhat, var, k, ctx.eps), None, None
        rstd = 1.0 / xp.sqrt(var + ctx.eps)
        a = ctx.axes
        dx = None
        if g is not None:
            dx = rstd * (g - xp.mean(g, axis=a, keepdims=True)
                         - xhat * xp.mean(g * xhat, axis=a, keepdims=True))
        if g_mean is not None:
            dx = g_mean / ctx.n if dx is None else dx + g_mean / ctx.n
        if g_var is not None:
            dv = g_var * (2.0 / ctx.n) * xhat / rstd
            dx = dv if dx is None else dx + dv
        if dx is None:
            dx = xp.zeros_like(xhat)
        return dx, None, None

    @staticmethod
    def jvp(ctx, t, _t_axes, _t_eps):
        xp = ns()
        xhat, var = ctx.saved_tensors
        rstd = 1.0 / xp.sqrt(var + ctx.eps)
        a = ctx.axes
        t_mean = xp.mean(t, axis=a, keepdims=True)
        t_xhat_mean = xp.mean(t * xhat, axis=a, keepdims=True)
        return (rstd * (t - t_mean - xhat * t_xhat_mean), t_mean,
                2.0 * t_xhat_mean / rstd)

    @staticmethod
    def vmap(info, in_dims, x, axes, eps):
        x = ns().moveaxis(x, in_dims[0], 0)
        return _Normalize.apply(x, tuple(a + 1 for a in axes), eps), (0, 0, 0)


def _normalize(xp, x, axes, eps):
    """(xhat, mean, var) of x over `axes` (keepdims), one tape node when x is traced."""
    axes = tuple(a % x.ndim for a in axes)
    if isinstance(x, Tracer) or getattr(x, "_ad", None) is not None:
        return _Normalize.apply(x, axes, float(eps))
    return _moments(xp, x, axes, eps)


def _verify_batch_size(who, shape):
    if shape[0] * _prod(shape[2:]) == 1:
        raise ValueError(f"{who}: expected more than 1 value per channel when training, got "
                         f"input size {tuple(shape)}")


def _channel_shape(x):
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _check_param(who, what, p, n, x):
    if p is None:
        return
    check_floating(p, who, what)
    check_same_dtype(who, x, p)
    if p.ndim != 1 or p.shape[0] != n:
        raise ValueError(f"{who}: {what} must have shape ({n},), got {tuple(p.shape)}")


def _affine(xp, y, weight, bias, shape):
    if weight is not None:
        y = y * xp.reshape(weight, shape)
    if bias is not None:
        y = y + xp.reshape(bias, shape)
    return y


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Batch normalization over every axis but the channel axis 1
    (torch.nn.functional.batch_norm).

    training=True normalizes with the batch's mean and biased variance and, when running
    statistics are given, updates them in place: r = (1 - momentum) r + momentum s, with
    the unbiased variance.  training=False normalizes with the running statistics.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> x = ac.asarray([[1.0, 2.0], [3.0, 6.0]])
    >>> ac.round(F.batch_norm(x, None, None, training=True))
    Array([[-1., -1.],
           [ 1.,  1.]], dtype=float64)
    """
    xp = ns()
    who = "batch_norm"
    check_floating(input, who)
    if input.ndim < 2:
        raise ValueError(f"{who}: expected an input of at least 2 dimensions (N, C, ...), got "
                         f"shape {tuple(input.shape)}")
    c = input.shape[1]
    for what, p in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                    ("running_var", running_var)):
        _check_param(who, what, p, c, input)
    if training:
        _verify_batch_size(who, input.shape)
        if eps <= 0.0:
            raise ValueError(f"{who}: eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"{who}: eps must be non-negative, but got {eps}")
    shape = _channel_shape(input)
    if training or running_mean is None or running_var is None:
        if not training and (running_mean is None) != (running_var is None):
            raise ValueError(f"{who}: running_mean and running_var must be given together")
        axes = (0,) + tuple(range(2, input.ndim))
        y, mean, var = _normalize(xp, input, axes, eps)
        if training and running_mean is not None:
            n = input.size // c
            m = float(momentum)
            _write_stat(who, running_mean,
                        (1 - m) * running_mean + m * xp.reshape(mean, (c,)))
            if running_var is not None:
                unbiased = xp.reshape(var, (c,)) * (n / (n - 1))
                _write_stat(who, running_var, (1 - m) * running_var + m * unbiased)
        elif training and running_var is not None:
            raise ValueError(f"{who}: running_mean and running_var must be given together")
    else:
        mean = xp.reshape(running_mean, shape)
        inv = 1.0 / xp.sqrt(xp.reshape(running_var, shape) + eps)
        y = (input - mean) * inv
    return _affine(xp, y, weight, bias, shape)


def _normalized_shape(who, normalized_shape, x):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(int(s) for s in normalized_shape)
    k = len(normalized_shape)
    if k == 0 or x.ndim < k or tuple(x.shape[x.ndim - k:]) != normalized_shape:
        raise ValueError(f"{who}: given normalized_shape={list(normalized_shape)}, expected "
                         f"input with shape [*, {', '.join(map(str, normalized_shape))}], but "
                         f"got input of size {tuple(x.shape)}")
    return normalized_shape


def _check_elementwise_param(who, what, p, shape, x):
    if p is None:
        return
    check_floating(p, who, what)
    check_same_dtype(who, x, p)
    if tuple(p.shape) != shape:
        raise ValueError(f"{who}: expected {what} of shape {shape}, got {tuple(p.shape)}")


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalization over the last len(normalized_shape) axes with the biased variance,
    then elementwise weight and bias of shape normalized_shape
    (torch.nn.functional.layer_norm).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.layer_norm(ac.asarray([[1.0, 3.0]]), (2,), eps=0.0)
    Array([[-1.,  1.]], dtype=float64)
    """
    xp = ns()
    who = "layer_norm"
    check_floating(input, who)
    shape = _normalized_shape(who, normalized_shape, input)
    _check_elementwise_param(who, "weight", weight, shape, input)
    _check_elementwise_param(who, "bias", bias, shape, input)
    axes = tuple(range(input.ndim - len(shape), input.ndim))
    y = _normalize(xp, input, axes, eps)[0]
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x^2) + eps) * weight over the last len(normalized_shape) axes; eps=None
    is the dtype's machine epsilon (torch.nn.functional.rms_norm).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.rms_norm(ac.asarray([[3.0, 4.0]]), (2,), eps=0.0)
    Array([[0.84852814, 1.13137085]], dtype=float64)
    """
    xp = ns()
    who = "rms_norm"
    check_floating(input, who)
    shape = _normalized_shape(who, normalized_shape, input)
    _check_elementwise_param(who, "weight", weight, shape, input)
    if eps is None:
        eps = xp.finfo(input.dtype).eps
    axes = tuple(range(input.ndim - len(shape), input.ndim))
    ms = xp.mean(input * input, axis=axes, keepdims=True)
    y = input * (1.0 / xp.sqrt(ms + eps))
    if weight is not None:
        y = y * weight
    return y


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalization over groups of channels (and all spatial axes) of each example, then a
    per-channel affine map (torch.nn.functional.group_norm).  input (N, C, *), C divisible
    by num_groups.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.group_norm(ac.asarray([[1.0, 3.0]]), 1, eps=0.0)
    Array([[-1.,  1.]], dtype=float64)
    """
    xp = ns()
    who = "group_norm"
    check_floating(input, who)
    if input.ndim < 2:
        raise ValueError(f"{who}: expected at least 2 dimensions for input tensor but "
                         f"received {input.ndim}")
    n, c = input.shape[0], input.shape[1]
    if not isinstance(num_groups, int) or num_groups <= 0 or c % num_groups:
        raise ValueError(f"{who}: expected number of channels in input ({c}) to be "
                         f"divisible by num_groups ({num_groups})")
    _check_param(who, "weight", weight, c, input)
    _check_param(who, "bias", bias, c, input)
    group_size = (c // num_groups) * _prod(input.shape[2:])
    if (n * c // num_groups) * _prod(input.shape[2:]) == 1:
        raise ValueError(f"{who}: expected more than 1 value per channel when training, got "
                         f"input size {tuple(input.shape)}")
    grouped = xp.reshape(input, (n, num_groups, group_size))
    y = xp.reshape(_normalize(xp, grouped, (2,), eps)[0], tuple(input.shape))
    return _affine(xp, y, weight, bias, _channel_shape(input))


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalization of each (example, channel) over its spatial axes
    (torch.nn.functional.instance_norm).  input (N, C, *spatial).  With running statistics
    and use_input_stats, they are updated with the batch average of the per-instance mean
    and unbiased variance; use_input_stats=False normalizes with them instead.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.instance_norm(ac.asarray([[[1.0, 3.0]]]), eps=0.0)
    Array([[[-1.,  1.]]], dtype=float64)
    """
    xp = ns()
    who = "instance_norm"
    check_floating(input, who)
    if input.ndim < 3:
        raise ValueError(f"{who}: expected an input of at least 3 dimensions (N, C, *), got "
                         f"shape {tuple(input.shape)}")
    n, c = input.shape[0], input.shape[1]
    for what, p in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                    ("running_var", running_var)):
        _check_param(who, what, p, c, input)
    shape = _channel_shape(input)
    if use_input_stats:
        spatial = _prod(input.shape[2:])
        if spatial == 1:
            raise ValueError(f"{who}: expected more than 1 spatial element when training, got "
                             f"input size {tuple(input.shape)}")
        axes = tuple(range(2, input.ndim))
        y, mean, var = _normalize(xp, input, axes, eps)
        m = float(momentum)
        if running_mean is not None:
            batch_mean = xp.mean(xp.reshape(mean, (n, c)), axis=0)
            _write_stat(who, running_mean, (1 - m) * running_mean + m * batch_mean)
        if running_var is not None:
            unbiased = xp.reshape(var, (n, c)) * (spatial / (spatial - 1))
            _write_stat(who, running_var,
                        (1 - m) * running_var + m * xp.mean(unbiased, axis=0))
    else:
        if running_mean is None or running_var is None:
            raise ValueError(f"{who}: expected running_mean and running_var to be defined "
                             "when use_input_stats is false")
        y = (input - xp.reshape(running_mean, shape)) / xp.sqrt(
            xp.reshape(running_var, shape) + eps)
    return _affine(xp, y, weight, bias, shape)

