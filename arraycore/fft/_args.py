"""L2: argument handling shared by the transforms of arraycore.fft (and their rules).

NumPy's semantics throughout: `n`/`s` zero-pad or truncate the input along the transformed
axes (-1 in `s`: the input's length), `axes=None` means every axis (the last len(s) when `s`
is given), `norm` is "backward" (None), "ortho" or "forward".  Input dtypes are promoted as
NumPy 2 does: real -> complex of the same precision, integers and bool -> float64 /
complex128; single precision stays single.
"""

from __future__ import annotations

import math
import operator

from .._core import dtypes as _dt
from ..array_api._manipulation import AxisError
from ..native import _native

Array = _native.Array

C64, C128 = _dt.complex64.code, _dt.complex128.code
F32, F64 = _dt.float32.code, _dt.float64.code
_COMPLEX = frozenset((C64, C128))
_REAL = frozenset((F32, F64))
TO_COMPLEX = {F32: C64, F64: C128, C64: C64, C128: C128}  # real -> complex, same precision
TO_REAL = {C64: F32, C128: F64, F32: F32, F64: F64}

_NORMS = ("backward", "ortho", "forward")
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def check_norm(norm, who):
    if norm is None or norm == "backward" or norm == "ortho" or norm == "forward":
        return norm
    raise ValueError(f'{who}: invalid norm value {norm!r}; should be "backward", "ortho" or '
                     f'"forward"')


def swap_norm(norm):
    """The norm of the adjoint (and of hfft/ihfft's underlying transform): the scale stays,
    the direction it is attached to flips."""
    return _SWAP[norm]


def scale(norm, n, inverse):
    """The factor a transform of logical size n is multiplied by (`inverse`: the transforms
    whose "backward" normalization divides by n)."""
    if norm is None or norm == "backward":
        return 1.0 / n if inverse else 1.0
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    return 1.0 if inverse else 1.0 / n


def as_complex(x, who):
    """x as complex64 / complex128 (real of the same precision, integers and bool as
    complex128)."""
    code = x._dtype_code
    if code in _COMPLEX:
        return x
    return _native.astype(x, TO_COMPLEX.get(code, C128))


def as_real(x, who):
    """x as float32 / float64 (integers and bool as float64); complex is a TypeError."""
    code = x._dtype_code
    if code in _REAL:
        return x
    if code in _COMPLEX:
        raise TypeError(f"{who}: expected a real-valued input, got {x.dtype}")
    return _native.astype(x, F64)


def check_input(x, who):
    if not isinstance(x, Array):
        raise TypeError(f"{who}: expected an array for x, got {type(x).__name__}")


def check_traced_input(x, who):
    """check_input for the composites, which also see autodiff tracers."""
    if not isinstance(x, Array):
        from ..autodiff.tracer import Tracer
        if not isinstance(x, Tracer):
            raise TypeError(f"{who}: expected an array for x, got {type(x).__name__}")


def _int(v, who, name):
    if isinstance(v, bool) or isinstance(v, float):
        raise TypeError(f"{who}: {name} must be an integer, got {v!r}")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{who}: {name} must be an integer, got {type(v).__name__}") from None


def length(n, who):
    """An `n` argument as an int (TypeError for anything else)."""
    return _int(n, who, "n")


def points(n, who):
    """A transform length: NumPy's error for n < 1."""
    if n < 1:
        raise ValueError(f"{who}: invalid number of FFT data points ({n}) specified")
    return n


def axis(a, ndim, who):
    a = _int(a, who, "axis")
    if not -ndim <= a < ndim:
        raise AxisError(f"{who}: axis {a} is out of bounds for an array of {ndim} "
                        f"dimension(s)")
    return a + ndim if a < 0 else a


def one_axis(x, n, ax, who):
    """(axis, n) of a 1-D transform: the normalized axis and the length to use (n=None:
    the input's)."""
    ax = axis(ax, x.ndim, who)
    if n is None:
        return ax, x.shape[ax]
    return ax, _int(n, who, "n")


def many_axes(x, s, axes, who, inverse_real=False):
    """(s, axes) of an n-D transform, as lists of ints with NumPy's defaults: axes=None is
    every axis (the last len(s) if s is given); s=None is the input's lengths (for the
    inverse real transforms, 2*(m-1) along the last axis); -1 in s is the input's length."""
    ndim = x.ndim
    if axes is None:
        if s is None:
            axes = list(range(ndim))
        else:
            s = _seq(s, who, "s")
            if len(s) > ndim:
                raise ValueError(f"{who}: s has {len(s)} entries, more than the "
                                 f"{ndim} dimension(s) of the input")
            axes = list(range(ndim - len(s), ndim))
    else:
        axes = [axis(a, ndim, who) for a in _seq(axes, who, "axes")]
    if s is None:
        s = [x.shape[a] for a in axes]
        if inverse_real and axes:
            s[-1] = 2 * (x.shape[axes[-1]] - 1)
    else:
        s = _seq(s, who, "s")
        if len(s) != len(axes):
            raise ValueError(f"{who}: s and axes have different lengths ({len(s)} and "
                             f"{len(axes)})")
        s = [x.shape[a] if v == -1 else v for v, a in zip(s, axes)]
    return s, axes


def _seq(v, who, name):
    if isinstance(v, (tuple, list)):
        return [_int(e, who, name) for e in v]
    if isinstance(v, Array) or hasattr(v, "__len__"):
        return [_int(e, who, name) for e in v]
    raise TypeError(f"{who}: {name} must be a sequence of integers, got {type(v).__name__}")


def fit(x, axes, lengths):
    """x truncated (a view) or zero-padded (a copy) to `lengths` along `axes` (plain
    arrays; NumPy's n/s semantics)."""
    shape = list(x.shape)
    pad = False
    cut = False
    for a, n in zip(axes, lengths):
        m = shape[a]
        if n < m:
            shape[a] = n
            cut = True
        elif n > m:
            pad = True
    if cut:
        x = x._view(shape, x._strides, 0)
    if not pad:
        return x
    out_shape = list(shape)
    for a, n in zip(axes, lengths):
        out_shape[a] = n
    out = _native.full(out_shape, 0, x._dtype_code)
    if x.size:
        out[tuple(slice(0, m) for m in shape)]._copy_from(x)
    return out


def empty_result(shape, code):
    return _native.full(list(shape), 0, code)
