"""L4: nn.functional activations (torch.nn.functional's names, arguments and subgradients).

Each is a composite of namespace ops, so the tape, `ac.func` transforms and double backward
run through the ops' own rules.  Where PyTorch picks a particular subgradient at a kink
(relu'(0) = 0, hardtanh' = 0 on the boundary, hardswish'(-3) = -0.5) the `where` conditions
below reproduce it.  Branches that are not selected get inputs that keep them finite
(softplus past its threshold), so their zero cotangent never meets an inf (0 * inf = nan).
"""

from __future__ import annotations

import math
import warnings

from ...autodiff.function import Function
from ...autodiff.tracer import Tracer
from ...native import _native
from ._layer_utils import (check_array, check_floating, check_same_dtype, native_float_ok, ns,
                           untraced)

__all__ = ["relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "prelu", "elu", "elu_",
           "selu", "selu_", "celu", "celu_", "gelu", "silu", "mish", "softplus", "sigmoid",
           "tanh", "hardtanh", "hardtanh_", "hardswish", "hardsigmoid", "softmax",
           "log_softmax", "softmin", "logsigmoid", "tanhshrink", "softsign", "threshold",
           "hardshrink", "softshrink", "glu"]

# SELU's constants (Klambauer et al. 2017, "Self-Normalizing Neural Networks").
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _finish(x, y, inplace):
    """inplace=True writes the result into x and returns x (torch's F.relu_(x) etc.)."""
    if inplace:
        x[...] = y
        return x
    return y


def _float_input(x, who):
    return check_floating(x, who)


def relu(input, inplace=False):
    """max(x, 0); the gradient at 0 is 0 (torch.nn.functional.relu).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.relu(ac.asarray([-1.0, 2.0]))
    Array([0., 2.], dtype=float64)
    """
    xp = ns()
    check_array(input, "relu")
    if input.dtype.kind in "iu":
        return _finish(input, xp.maximum(input, 0), inplace)
    _float_input(input, "relu")
    # `x <= 0` (not `x > 0` with the branches swapped) so NaN propagates as in torch, and the
    # gradient is torch's threshold_backward: zero where x <= 0, passed through elsewhere.
    return _finish(input, xp.where(input <= 0, 0.0, input), inplace)


def relu_(input):
    """In-place relu."""
    return relu(input, inplace=True)


def threshold(input, threshold, value, inplace=False):
    """y = x if x > threshold else value (torch.nn.functional.threshold).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.threshold(ac.asarray([0.5, 2.0]), 1.0, -1.0)
    Array([-1.,  2.], dtype=float64)
    """
    _float_input(input, "threshold")
    return _finish(input, ns().where(input > threshold, input, float(value)), inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """clip(x, min_val, max_val); the gradient is 0 outside the open interval
    (torch.nn.functional.hardtanh).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.hardtanh(ac.asarray([-3.0, 0.5, 3.0]))
    Array([-1. ,  0.5,  1. ], dtype=float64)
    """
    xp = ns()
    _float_input(input, "hardtanh")
    if min_val > max_val:
        raise ValueError("hardtanh: min_val cannot be greater than max_val")
    inside = xp.logical_and(input > min_val, input < max_val)
    # The bound outside the interval is a constant (no gradient): a 0-d array and a scalar.
    bound = xp.where(input <= min_val, xp.asarray(min_val, dtype=input.dtype), float(max_val))
    y = xp.where(inside, input, bound)
    return _finish(input, y, inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6) (torch.nn.functional.relu6; hardtanh(0, 6)'s gradient).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.relu6(ac.asarray([-1.0, 3.0, 9.0]))
    Array([0., 3., 6.], dtype=float64)
    """
    _float_input(input, "relu6")
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x if x > 0 else negative_slope * x (torch.nn.functional.leaky_relu).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.leaky_relu(ac.asarray([-1.0, 2.0]), 0.1)
    Array([-0.1,  2. ], dtype=float64)
    """
    _float_input(input, "leaky_relu")
    return _finish(input, ns().where(input > 0, input, input * float(negative_slope)), inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def prelu(input, weight):
    """x if x > 0 else weight * x, weight broadcast along the channel axis 1 (an input of
    fewer than 2 dimensions has one channel) (torch.nn.functional.prelu).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.prelu(ac.asarray([[-1.0, 2.0]]), ac.asarray([0.25]))
    Array([[-0.25,  2.  ]], dtype=float64)
    """
    xp = ns()
    who = "prelu"
    _float_input(input, who)
    check_floating(weight, who, "weight")
    check_same_dtype(who, input, weight)
    if weight.ndim > 1:
        raise ValueError(f"{who}: weight must be 0-D or 1-D, got shape {tuple(weight.shape)}")
    n = weight.size
    if n != 1:
        # The channel axis is 1; an input of fewer than 2 dimensions has one channel.
        channels = input.shape[1] if input.ndim >= 2 else 1
        if channels != n:
            raise ValueError(f"{who}: mismatch of parameter numbers and input channel size: "
                             f"weight has {n} elements, input has {channels} channels")
        w = xp.reshape(weight, (n,) + (1,) * (input.ndim - 2))
    else:
        w = xp.reshape(weight, ())
    return xp.where(input > 0, input, w * input)


def elu(input, alpha=1.0, inplace=False):
    """x if x > 0 else alpha * (exp(x) - 1) (torch.nn.functional.elu).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.elu(ac.asarray([0.0, 1.0]))
    Array([0., 1.], dtype=float64)
    """
    xp = ns()
    _float_input(input, "elu")
    neg = xp.where(input > 0, 0.0, input)
    return _finish(input, xp.where(input > 0, input, float(alpha) * xp.expm1(neg)), inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def selu(input, inplace=False):
    """scale * elu(x, alpha) with SELU's fixed constants (torch.nn.functional.selu).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.selu(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    xp = ns()
    _float_input(input, "selu")
    neg = xp.where(input > 0, 0.0, input)
    y = SELU_SCALE * xp.where(input > 0, input, SELU_ALPHA * xp.expm1(neg))
    return _finish(input, y, inplace)


def selu_(input):
    return selu(input, inplace=True)


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) (torch.nn.functional.celu).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.celu(ac.asarray([2.0]))
    Array([2.], dtype=float64)
    """
    xp = ns()
    _float_input(input, "celu")
    if alpha == 0:
        raise ValueError("celu: ZeroDivisionError, alpha cannot be 0")
    neg = xp.where(input > 0, 0.0, input)
    y = xp.where(input > 0, input, float(alpha) * xp.expm1(neg / float(alpha)))
    return _finish(input, y, inplace)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TANH_SCALE = math.sqrt(2.0 / math.pi)


def _gelu_values(xp, x, tanh_form):
    if native_float_ok(x):
        return _native.nn_gelu(x, tanh_form)  # one native pass (kernels/nn_gelu.cpp)
    if not tanh_form:
        return x * (0.5 * (1.0 + xp.special.erf(x * _SQRT_HALF)))
    inner = _TANH_SCALE * (x + 0.044715 * (x * x * x))
    return 0.5 * x * (1.0 + xp.tanh(inner))


def _gelu_derivative(xp, x, tanh_form):
    """gelu'(x) in namespace ops (differentiable: double backward and transforms)."""
    if not tanh_form:
        cdf = 0.5 * (1.0 + xp.special.erf(x * _SQRT_HALF))
        return cdf + x * (xp.exp(-0.5 * (x * x)) * _INV_SQRT_2PI)
    t = xp.tanh(_TANH_SCALE * (x + 0.044715 * (x * x * x)))
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * (_TANH_SCALE * (1.0 + 0.134145 * (x * x)))


class _Gelu(Function):
    """GELU as one tape node: a native pass forward, g * gelu'(x) backward (native when
    nothing records, else the namespace composite above, so double backward works)."""

    @staticmethod
    def forward(x, tanh_form):
        return _gelu_values(ns(), x, tanh_form)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.tanh_form = inputs[1]
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        if untraced(g, x) and g.dtype == x.dtype and tuple(g.shape) == tuple(x.shape):
            return _native.nn_gelu_backward(g, x, ctx.tanh_form), None
        return g * _gelu_derivative(ns(), x, ctx.tanh_form), None

    @staticmethod
    def jvp(ctx, t, _t_tanh):
        (x,) = ctx.saved_tensors
        return t * _gelu_derivative(ns(), x, ctx.tanh_form)

    @staticmethod
    def vmap(info, in_dims, x, tanh_form):
        return _Gelu.apply(x, tanh_form), in_dims[0]


def gelu(input, approximate="none"):
    """x * Phi(x) (torch.nn.functional.gelu): approximate="none" is the exact form
    0.5 x (1 + erf(x / sqrt 2)); "tanh" is 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.gelu(ac.asarray([0.0, 1.0]))
    Array([0.        , 0.84134475], dtype=float64)
    """
    _float_input(input, "gelu")
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    tanh_form = approximate == "tanh"
    if _traced(input):
        return _Gelu.apply(input, tanh_form)
    return _gelu_values(ns(), input, tanh_form)


def sigmoid(input):
    """1 / (1 + exp(-x)) (torch.nn.functional.sigmoid; ac.special.expit).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.sigmoid(ac.asarray([0.0]))
    Array([0.5], dtype=float64)
    """
    _float_input(input, "sigmoid")
    return ns().special.expit(input)


def tanh(input):
    """Hyperbolic tangent (torch.nn.functional.tanh).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.tanh(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _float_input(input, "tanh")
    return ns().tanh(input)


def silu(input, inplace=False):
    """x * sigmoid(x) (torch.nn.functional.silu, a.k.a. swish).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.silu(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _float_input(input, "silu")
    return _finish(input, input * ns().special.expit(input), inplace)


def softplus(input, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold
    (torch.nn.functional.softplus).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.softplus(ac.asarray([0.0, 30.0]))
    Array([ 0.69314718, 30.        ], dtype=float64)
    """
    xp = ns()
    _float_input(input, "softplus")
    bx = input * float(beta)
    linear = bx > threshold
    safe = xp.where(linear, 0.0, bx)  # keeps exp finite in the unselected branch
    return xp.where(linear, input, xp.log1p(xp.exp(safe)) / float(beta))


def mish(input, inplace=False):
    """x * tanh(softplus(x)) (torch.nn.functional.mish).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.mish(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _float_input(input, "mish")
    return _finish(input, input * ns().tanh(softplus(input)), inplace)


def hardswish(input, inplace=False):
    """x * relu6(x + 3) / 6; PyTorch's gradient: 0 up to -3, x/3 + 1/2 on (-3, 3), 1 from 3
    (torch.nn.functional.hardswish).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.hardswish(ac.asarray([-4.0, 0.0, 4.0]))
    Array([-0.,  0.,  4.], dtype=float64)
    """
    xp = ns()
    _float_input(input, "hardswish")
    mid = input * (input + 3.0) / 6.0
    y = xp.where(input <= -3.0, 0.0 * input, xp.where(input < 3.0, mid, input))
    return _finish(input, y, inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6; the gradient is 1/6 on (-3, 3) and 0 elsewhere
    (torch.nn.functional.hardsigmoid).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.hardsigmoid(ac.asarray([-4.0, 0.0, 4.0]))
    Array([0. , 0.5, 1. ], dtype=float64)
    """
    xp = ns()
    _float_input(input, "hardsigmoid")
    inside = xp.logical_and(input > -3.0, input < 3.0)
    y = xp.where(inside, input / 6.0 + 0.5, xp.astype(input >= 3.0, input.dtype))
    return _finish(input, y, inplace)


def logsigmoid(input):
    """log(sigmoid(x)), computed stably (torch.nn.functional.logsigmoid).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.logsigmoid(ac.asarray([0.0]))
    Array([-0.69314718], dtype=float64)
    """
    _float_input(input, "logsigmoid")
    return ns().special.log_expit(input)


def tanhshrink(input):
    """x - tanh(x) (torch.nn.functional.tanhshrink).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.tanhshrink(ac.asarray([0.0]))
    Array([0.], dtype=float64)
    """
    _float_input(input, "tanhshrink")
    return input - ns().tanh(input)


def softsign(input):
    """x / (1 + |x|) (torch.nn.functional.softsign).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.softsign(ac.asarray([1.0]))
    Array([0.5], dtype=float64)
    """
    _float_input(input, "softsign")
    return input / (1.0 + ns().abs(input))


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0 (torch.nn.functional.hardshrink).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.hardshrink(ac.asarray([0.2, 1.0]))
    Array([0., 1.], dtype=float64)
    """
    xp = ns()
    _float_input(input, "hardshrink")
    return xp.where(xp.logical_or(input > lambd, input < -lambd), input, 0.0)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0 (torch.nn.functional.softshrink).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.softshrink(ac.asarray([0.2, 1.0]))
    Array([0. , 0.5], dtype=float64)
    """
    xp = ns()
    _float_input(input, "softshrink")
    if lambd < 0:
        raise ValueError(f"softshrink: lambda must be greater or equal to 0, got {lambd}")
    return xp.where(input > lambd, input - lambd, xp.where(input < -lambd, input + lambd, 0.0))


def glu(input, dim=-1):
    """a * sigmoid(b) where a, b are the halves of input along `dim`
    (torch.nn.functional.glu).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.glu(ac.asarray([1.0, 0.0])).shape
    (1,)
    """
    xp = ns()
    _float_input(input, "glu")
    if input.ndim == 0:
        raise ValueError("glu: does not support scalars because halving size must be even")
    d = dim % input.ndim if -input.ndim <= dim < input.ndim else None
    if d is None:
        raise IndexError(f"glu: dimension out of range (got {dim} for {input.ndim} dims)")
    n = input.shape[d]
    if n % 2:
        raise ValueError(f"glu: halving dimension must be even, but dimension {d} is size {n}")
    idx = [slice(None)] * input.ndim
    idx[d] = slice(0, n // 2)
    a = input[tuple(idx)]
    idx[d] = slice(n // 2, n)
    b = input[tuple(idx)]
    return a * xp.special.expit(b)


# --- softmax family ------------------------------------------------------------------------

def _softmax_dim(name, ndim, dim, stacklevel):
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the "
                      "call to include dim=X as an argument.", stacklevel=stacklevel + 1)
        return 0 if ndim in (0, 1, 3) else 1
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"{name}: dimension out of range (expected to be in range of "
                         f"[{-n}, {n - 1}], but got {dim})")
    return dim % n


def _softmax_input(input, name, dtype):
    xp = ns()
    check_array(input, name)
    if dtype is not None:
        input = xp.astype(input, dtype)
    if input.dtype.kind != "f":
        raise TypeError(f"{name}: expected a real floating-point input (or dtype=), got "
                        f"{input.dtype}")
    return input


def _shifted(xp, x, axis):
    """x - max(x, axis): the shift only guards exp against overflow; its derivative cancels
    in softmax and log_softmax, so an infinite maximum is replaced by 0 (NaN-free rows)."""
    m = xp.max(x, axis=axis, keepdims=True)
    m = xp.where(xp.isfinite(m), m, 0.0)
    return x - m


def _native_softmax(x, axis, log, safe=False):
    """softmax / log_softmax of x along axis as one native pass (kernels/nn_softmax.cpp), or
    None when an op on x would be recorded (the tape or a transform must see the composite's
    ops) or x is not float32/float64."""
    if not native_float_ok(x):
        return None
    return _native.nn_softmax(x, axis % x.ndim, log, safe)


def _log_softmax_values(xp, x, axis):
    y = _native_softmax(x, axis, True)
    if y is not None:
        return y
    t = _shifted(xp, x, axis)
    return t - xp.log(xp.sum(xp.exp(t), axis=axis, keepdims=True))


def _softmax_values(xp, x, axis, safe=False):
    """safe: a row whose entries are all -inf gives zeros instead of NaN (attention with
    every key masked; PyTorch's SDPA does this since 2.5)."""
    y = _native_softmax(x, axis, False, safe)
    if y is not None:
        return y
    m = xp.max(x, axis=axis, keepdims=True)
    m = xp.where(xp.isfinite(m), m, 0.0)
    e = xp.exp(x - m)
    s = xp.sum(e, axis=axis, keepdims=True)
    if safe:
        s = xp.where(s == 0, 1.0, s)
    return e / s


def _traced(x):
    return isinstance(x, Tracer) or getattr(x, "_ad", None) is not None


# Note [softmax as one tape node]: log_softmax and softmax are autograd.Functions with their
# closed-form derivatives (PyTorch's _log_softmax_backward_data / _softmax_backward_data):
#   log_softmax: vjp g - exp(y) sum(g),  jvp t - sum(exp(y) t)
#   softmax:     vjp y (g - sum(g y)),    jvp y (t - sum(y t))
# so the tape records one node instead of the eight ops of the max-shifted composite, and the
# backward is three ops.  The rules are namespace ops, so double backward, jvp and vmap work.

class _LogSoftmax(Function):
    @staticmethod
    def forward(x, dim):
        return _log_softmax_values(ns(), x, dim)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        xp = ns()
        (y,) = ctx.saved_tensors
        return g - xp.exp(y) * xp.sum(g, axis=ctx.dim, keepdims=True), None

    @staticmethod
    def jvp(ctx, t, _t_dim):
        xp = ns()
        (y,) = ctx.saved_tensors
        return t - xp.sum(xp.exp(y) * t, axis=ctx.dim, keepdims=True)

    @staticmethod
    def vmap(info, in_dims, x, dim):
        return _LogSoftmax.apply(ns().moveaxis(x, in_dims[0], 0), dim + 1), 0


class _Softmax(Function):
    """softmax along `dim` as one tape node (Note [softmax as one tape node]); `safe` as in
    _softmax_values (attention.py uses it for masked rows)."""

    @staticmethod
    def forward(x, dim, safe=False):
        return _softmax_values(ns(), x, dim, safe)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dim = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        xp = ns()
        (y,) = ctx.saved_tensors
        return y * (g - xp.sum(g * y, axis=ctx.dim, keepdims=True)), None, None

    @staticmethod
    def jvp(ctx, t, *_):
        xp = ns()
        (y,) = ctx.saved_tensors
        return y * (t - xp.sum(y * t, axis=ctx.dim, keepdims=True))

    @staticmethod
    def vmap(info, in_dims, x, dim, safe=False):
        return _Softmax.apply(ns().moveaxis(x, in_dims[0], 0), dim % (x.ndim - 1) + 1, safe), 0


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """exp(x) / sum(exp(x)) along `dim`, shifted by the maximum (torch.nn.functional.softmax;
    dim=None picks PyTorch's legacy dimension with its deprecation warning).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.softmax(ac.asarray([0.0, 0.0]), dim=0)
    Array([0.5, 0.5], dtype=float64)
    """
    xp = ns()
    input = _softmax_input(input, "softmax", dtype)
    d = _softmax_dim("softmax", input.ndim, dim, _stacklevel)
    if input.ndim == 0:
        return xp.exp(input - input)
    if input.size == 0:
        return input
    if _traced(input):
        return _Softmax.apply(input, d)
    return _softmax_values(xp, input, d)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """x - logsumexp(x) along `dim` (torch.nn.functional.log_softmax).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.log_softmax(ac.asarray([0.0, 0.0]), dim=0)
    Array([-0.69314718, -0.69314718], dtype=float64)
    """
    xp = ns()
    input = _softmax_input(input, "log_softmax", dtype)
    d = _softmax_dim("log_softmax", input.ndim, dim, _stacklevel)
    if input.ndim == 0:
        return input - input
    if input.size == 0:
        return input
    if _traced(input):
        return _LogSoftmax.apply(input, d)
    return _log_softmax_values(xp, input, d)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """softmax(-x) along `dim` (torch.nn.functional.softmin).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.softmin(ac.asarray([0.0, 0.0]), dim=0)
    Array([0.5, 0.5], dtype=float64)
    """
    input = _softmax_input(input, "softmin", dtype)
    d = _softmax_dim("softmin", input.ndim, dim, _stacklevel)
    return softmax(-input, d)
