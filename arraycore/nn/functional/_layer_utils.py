"""L4: helpers shared by the nn.functional layer and loss files (validation, reductions,
a stop-gradient and a gradient scale that hold under every autodiff frontend)."""

from __future__ import annotations

import warnings

from ...autodiff.function import Function
from ...autodiff.state import STATE
from ...autodiff.tracer import Tracer
from ...native import _native

ARRAY_TYPES = (_native.Array, Tracer)


def ns():
    """The arraycore namespace (imported lazily: nn sits above it)."""
    import arraycore
    return arraycore


def untraced(*arrays):
    """Whether no op on these arrays would be recorded: none is a transform's tracer, and none
    requires grad while grad mode is on.  Inside an autograd.Function's forward, and in a
    backward without create_graph, grad mode is off, so arrays with tape state count as
    untraced there.  The fused native kernels (softmax, cross-entropy, normalization) run only
    on untraced arrays; traced ones take the differentiable namespace composite."""
    for a in arrays:
        if isinstance(a, Tracer):
            return False
        if type(a) is _native.Array and a._promoted is not None:
            return False
        m = getattr(a, "_ad", None)
        if m is not None and m.requires_grad and STATE.grad_enabled:
            return False
    return True


def native_float_ok(*arrays):
    """Whether the fused native kernels may take these arrays: untraced, and float32/float64
    (the only dtypes the kernels have)."""
    return untraced(*arrays) and all(a.dtype.kind == "f" and a.dtype.itemsize in (4, 8)
                                     for a in arrays)


def is_array(v):
    return isinstance(v, ARRAY_TYPES)


def check_array(x, who, what="input"):
    if not is_array(x):
        raise TypeError(f"{who}: {what} must be an arraycore array, got {type(x).__name__}")
    return x


def check_floating(x, who, what="input"):
    check_array(x, who, what)
    if x.dtype.kind != "f":
        raise TypeError(f"{who}: {what} must have a real floating-point dtype, got {x.dtype}")
    return x


def check_same_dtype(who, x, *others):
    """PyTorch refuses mixed float dtypes in layers (float32 input, float64 weight)."""
    for o in others:
        if o is not None and o.dtype != x.dtype:
            raise TypeError(f"{who}: expected all arrays to have dtype {x.dtype}, got {o.dtype} "
                            "(cast the input or the parameters with astype)")


def normalize_dim(dim, ndim, who):
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"{who}: dimension out of range (expected to be in range of "
                         f"[{-n}, {n - 1}], but got {dim})")
    return dim % n


def legacy_reduction(size_average, reduce, reduction, who=None):
    """torch's deprecated size_average/reduce pair mapped to a reduction string; given `who`,
    the resulting reduction is also checked (check_reduction)."""
    if size_average is None and reduce is None:
        if who is not None:
            check_reduction(reduction, who)
        return reduction
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  "reduction='mean' (or 'sum', 'none') instead.", stacklevel=3)
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def check_reduction(reduction, who, extra=()):
    if reduction not in ("none", "mean", "sum") + tuple(extra):
        raise ValueError(f"{who}: {reduction!r} is not a valid value for reduction "
                         "(expected 'none', 'mean' or 'sum')")


def reduce_loss(loss, reduction, who):
    check_reduction(reduction, who)
    xp = ns()
    if reduction == "none":
        return loss
    if reduction == "sum":
        return xp.sum(loss)
    return xp.mean(loss)


# --- stop_gradient and grad_scale: autograd.Functions, so every frontend honours them ----------
# (`x.detach()` removes tape state only: a tracer of a func.grad or func.jvp level keeps
# its derivative through it.)

class _StopGradient(Function):
    @staticmethod
    def forward(x):
        return ns().asarray(x, copy=True)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return ns().zeros_like(g)

    @staticmethod
    def jvp(ctx, t):
        return ns().zeros_like(t)

    @staticmethod
    def vmap(info, in_dims, x):
        return _StopGradient.apply(x), in_dims[0]


def stop_gradient(x):
    """x's values as a constant for every autodiff frontend (tape and transforms)."""
    if isinstance(x, Tracer) or getattr(x, "_ad", None) is not None:
        return _StopGradient.apply(x)
    return x


class _GradScale(Function):
    """Identity forward; backward multiplies the cotangent by `scale` (a constant of x's
    broadcastable shape); forward mode passes the tangent through, as PyTorch's embedding
    does for padding_idx and scale_grad_by_freq (its jvp is the plain gather)."""

    @staticmethod
    def forward(x, scale):
        return ns().asarray(x, copy=True)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.scale = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.scale, None

    @staticmethod
    def jvp(ctx, t, _t_scale):
        return t


def grad_scale(x, scale):
    if isinstance(x, Tracer) or getattr(x, "_ad", None) is not None:
        return _GradScale.apply(x, scale)
    return x
