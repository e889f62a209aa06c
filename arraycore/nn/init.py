"""L4: `ac.nn.init` (torch.nn.init): fill a parameter in place from a distribution.

Every function writes into its argument under `no_grad` (the write is not recorded; a leaf
that requires grad may be initialised, as in PyTorch) and returns it.  Random draws come from
`generator` (an `ac.random.Generator`; any object with NumPy Generator's `random(size,
dtype)`, `standard_normal(size, dtype)` and `permutation(n)` also works) or, by default, from
`ac.random`'s global generator (`ac.manual_seed(n)` reseeds it).  Draws are made in the
array's dtype.  The fan and gain computations are PyTorch's, so a ported layer starts from
the same distribution.

>>> import arraycore as ac
>>> w = ac.nn.Parameter(ac.empty((64, 32), dtype=ac.float32))
>>> _ = ac.nn.init.kaiming_uniform_(w, a=5 ** 0.5, generator=ac.random.Generator(0))
>>> float(ac.max(ac.abs(w))) <= 1 / 32 ** 0.5
True
"""

from __future__ import annotations

import math
import warnings

from ..native import _native
from ._inplace import assign_

Array = _native.Array

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
           "zeros_", "eye_", "dirac_", "xavier_uniform_", "xavier_normal_",
           "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_"]


# --- helpers ----------------------------------------------------------------------------------

def _ac():
    import arraycore
    return arraycore


def _generator(generator):
    if generator is not None:
        return generator
    from .. import random as _random  # noqa: PLC0415 (ac.random imports after ac.nn)
    return _random.get_global_generator()


def _check_array(tensor, who):
    if not isinstance(tensor, Array):
        raise TypeError(f"{who}: expected an arraycore array, got {type(tensor).__name__}")


def _float_dtype(tensor, who):
    _check_array(tensor, who)
    if tensor.dtype.kind != "f":
        raise TypeError(f"{who}: expected a real floating-point array, got {tensor.dtype}")
    return tensor.dtype


def _as_ac(v, dtype):
    ac = _ac()
    v = v if isinstance(v, Array) else ac.asarray(v)
    return v if v.dtype == dtype else ac.astype(v, dtype)


def _standard_uniform(gen, shape, dtype):
    """U[0, 1) of `shape` in `dtype`."""
    return _as_ac(gen.random(size=shape, dtype=_dtype_arg(gen, dtype)), dtype)


def _standard_normal(gen, shape, dtype):
    return _as_ac(gen.standard_normal(size=shape, dtype=_dtype_arg(gen, dtype)), dtype)


def _dtype_arg(gen, dtype):
    # A foreign (NumPy-like) generator wants its own dtype names; ac.random takes ours.
    if type(gen).__module__.startswith("arraycore"):
        return dtype
    return str(dtype)


def _write(tensor, values, who):
    return assign_(tensor, values, who)


def _no_grad_uniform(tensor, a, b, generator, who):
    dtype = _float_dtype(tensor, who)
    u = _standard_uniform(_generator(generator), tensor.shape, dtype)
    return _write(tensor, u * (b - a) + a, who)


def _no_grad_normal(tensor, mean, std, generator, who):
    dtype = _float_dtype(tensor, who)
    z = _standard_normal(_generator(generator), tensor.shape, dtype)
    return _write(tensor, z * std + mean, who)


def _calculate_fan_in_and_fan_out(tensor):
    """PyTorch's fans: dim 1 is the input, dim 0 the output, dims 2.. the receptive field."""
    shape = tuple(tensor.shape)
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive_field = math.prod(shape[2:]) if len(shape) > 2 else 1
    return shape[1] * receptive_field, shape[0] * receptive_field


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


# --- gain -------------------------------------------------------------------------------------

_UNIT_GAIN = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for a nonlinearity (torch.nn.init.calculate_gain): 1 for linear,
    convolutions and sigmoid, 5/3 for tanh, sqrt(2) for relu, sqrt(2 / (1 + slope^2)) for
    leaky_relu (slope `param`, default 0.01), 3/4 for selu.

    >>> calculate_gain("leaky_relu", 0.2)
    1.3867504905630728
    """
    if nonlinearity in _UNIT_GAIN:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


# --- simple fills -----------------------------------------------------------------------------

def uniform_(tensor, a: float = 0.0, b: float = 1.0, generator=None):
    """Fills `tensor` with U(a, b) draws.

    >>> import arraycore as ac
    >>> w = ac.nn.init.uniform_(ac.empty((2, 3), dtype=ac.float32), -1, 1)
    """
    return _no_grad_uniform(tensor, a, b, generator, "uniform_")


def normal_(tensor, mean: float = 0.0, std: float = 1.0, generator=None):
    """Fills `tensor` with N(mean, std^2) draws.

    >>> import arraycore as ac
    >>> w = ac.nn.init.normal_(ac.empty((2, 3), dtype=ac.float32), std=0.02)
    """
    return _no_grad_normal(tensor, mean, std, generator, "normal_")


def trunc_normal_(tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator=None):
    """Fills `tensor` with N(mean, std^2) draws truncated to [a, b] (a and b are absolute
    bounds, as in PyTorch).  Inverse-CDF method: uniform draws between the normal CDF's
    values at the bounds, mapped back through erfinv.

    >>> import arraycore as ac
    >>> w = ac.nn.init.trunc_normal_(ac.empty((4, 4), dtype=ac.float32), std=0.02,
    ...                              a=-0.04, b=0.04)
    """
    ac = _ac()
    dtype = _float_dtype(tensor, "trunc_normal_")
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)

    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    lo = norm_cdf((a - mean) / std)
    hi = norm_cdf((b - mean) / std)
    u = _standard_uniform(_generator(generator), tensor.shape, dtype)
    u = u * (2 * hi - 2 * lo) + (2 * lo - 1)  # uniform on [2lo - 1, 2hi - 1]
    v = ac.special.erfinv(u) * (std * math.sqrt(2.0)) + mean
    return _write(tensor, ac.clip(v, a, b), "trunc_normal_")


def constant_(tensor, val: float):
    """Fills `tensor` with `val`.

    >>> import arraycore as ac
    >>> ac.nn.init.constant_(ac.empty(3, dtype=ac.float32), 0.5)
    Array([0.5, 0.5, 0.5], dtype=float32)
    """
    _check_array(tensor, "constant_")
    return _write(tensor, _ac().full((), val, dtype=tensor.dtype), "constant_")


def ones_(tensor):
    """Fills `tensor` with ones."""
    return constant_(tensor, 1)


def zeros_(tensor):
    """Fills `tensor` with zeros."""
    return constant_(tensor, 0)


def eye_(tensor):
    """Fills a 2-D `tensor` with the identity (ones on the main diagonal).

    >>> import arraycore as ac
    >>> ac.nn.init.eye_(ac.empty((2, 3), dtype=ac.float32))
    Array([[1., 0., 0.],
           [0., 1., 0.]], dtype=float32)
    """
    _check_array(tensor, "eye_")
    if tensor.ndim != 2:
        raise ValueError("eye_: only tensors with 2 dimensions are supported, got "
                         f"{tensor.ndim}")
    n, m = tensor.shape
    return _write(tensor, _ac().eye(n, m, dtype=tensor.dtype), "eye_")


def dirac_(tensor, groups: int = 1):
    """Fills a 3-, 4- or 5-D convolution weight with the Dirac delta (identity convolution),
    preserving as many input channels as possible; `groups` splits the output channels.

    >>> import arraycore as ac
    >>> w = ac.nn.init.dirac_(ac.empty((2, 2, 3), dtype=ac.float32))
    """
    ac = _ac()
    _check_array(tensor, "dirac_")
    d = tensor.ndim
    if d not in (3, 4, 5):
        raise ValueError("dirac_: only tensors with 3, 4, or 5 dimensions are supported, got "
                         f"{d}")
    shape = tuple(tensor.shape)
    if shape[0] % groups != 0:
        raise ValueError("dirac_: dim 0 must be divisible by groups")
    out_per_group = shape[0] // groups
    min_dim = min(out_per_group, shape[1])
    values = ac.zeros(shape, dtype=tensor.dtype)
    centre = tuple(s // 2 for s in shape[2:])
    for g in range(groups):
        for i in range(min_dim):
            values[(g * out_per_group + i, i) + centre] = 1
    return _write(tensor, values, "dirac_")


# --- scaled by fan ----------------------------------------------------------------------------

def xavier_uniform_(tensor, gain: float = 1.0, generator=None):
    """Glorot uniform: U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out)).

    >>> import arraycore as ac
    >>> w = ac.nn.init.xavier_uniform_(ac.empty((3, 5), dtype=ac.float32))
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _no_grad_uniform(tensor, -a, a, generator, "xavier_uniform_")


def xavier_normal_(tensor, gain: float = 1.0, generator=None):
    """Glorot normal: N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out)).

    >>> import arraycore as ac
    >>> w = ac.nn.init.xavier_normal_(ac.empty((3, 5), dtype=ac.float32))
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _no_grad_normal(tensor, 0.0, std, generator, "xavier_normal_")


def _kaiming_std(tensor, a, mode, nonlinearity, who):
    if 0 in tuple(tensor.shape):
        warnings.warn(f"{who}: initializing a zero-element tensor is a no-op", stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None):
    """He uniform: U(-b, b) with b = gain * sqrt(3 / fan) (`a`: the leaky_relu slope;
    `mode`: "fan_in" or "fan_out").  `kaiming_uniform_(w, a=sqrt(5))` is Linear's and the
    convolutions' default weight initialisation.

    >>> import arraycore as ac
    >>> w = ac.nn.init.kaiming_uniform_(ac.empty((8, 4), dtype=ac.float32), a=5 ** 0.5)
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity, "kaiming_uniform_")
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return _no_grad_uniform(tensor, -bound, bound, generator, "kaiming_uniform_")


def kaiming_normal_(tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None):
    """He normal: N(0, std^2) with std = gain / sqrt(fan).

    >>> import arraycore as ac
    >>> w = ac.nn.init.kaiming_normal_(ac.empty((8, 4), dtype=ac.float32), mode="fan_out",
    ...                                nonlinearity="relu")
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity, "kaiming_normal_")
    if std is None:
        return tensor
    return _no_grad_normal(tensor, 0.0, std, generator, "kaiming_normal_")


# --- structured ---------------------------------------------------------------------------------

def orthogonal_(tensor, gain: float = 1, generator=None):
    """Fills `tensor` (2-D, or more with the trailing dimensions flattened) with a (semi-)
    orthogonal matrix times `gain`: the Q factor of a QR decomposition of a Gaussian matrix,
    its columns' signs fixed by R's diagonal so that Q is Haar-distributed (Mezzadri, "How to
    generate random matrices from the classical compact groups", 2007).

    >>> import arraycore as ac
    >>> w = ac.nn.init.orthogonal_(ac.empty((3, 5), dtype=ac.float32))
    >>> bool(ac.all(ac.abs(w @ w.T - ac.eye(3)) < 1e-5))
    True
    """
    ac = _ac()
    dtype = _float_dtype(tensor, "orthogonal_")
    if tensor.ndim < 2:
        raise ValueError("orthogonal_: only tensors with 2 or more dimensions are supported")
    if tensor.size == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.size // rows
    flat = _standard_normal(_generator(generator), (rows, cols), dtype)
    if rows < cols:
        flat = flat.T
    q, r = ac.linalg.qr(flat)
    q = q * ac.sign(ac.linalg.diagonal(r))  # as PyTorch: d.sign()
    if rows < cols:
        q = q.T
    return _write(tensor, ac.reshape(q * gain, tensor.shape), "orthogonal_")


def sparse_(tensor, sparsity: float, std: float = 0.01, generator=None):
    """Fills a 2-D `tensor` with N(0, std^2) draws and zeroes a fraction `sparsity` of each
    column's entries (at rows chosen at random per column; Martens, "Deep learning via
    Hessian-free optimization", 2010).

    >>> import arraycore as ac
    >>> w = ac.nn.init.sparse_(ac.empty((10, 3), dtype=ac.float32), sparsity=0.3)
    >>> int(ac.sum(w == 0))
    9
    """
    ac = _ac()
    dtype = _float_dtype(tensor, "sparse_")
    if tensor.ndim != 2:
        raise ValueError("sparse_: only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    gen = _generator(generator)
    values = _standard_normal(gen, (rows, cols), dtype) * std
    for col in range(cols if num_zeros else 0):
        perm = gen.permutation(rows)
        perm = perm if isinstance(perm, Array) else ac.asarray(perm)
        values[perm[:num_zeros], col] = 0
    return _write(tensor, values, "sparse_")
