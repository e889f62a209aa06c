"""Shared pieces of arraycore.linalg: argument checks, dtype promotion, result tuples, and
late-bound access to the public namespaces.

The functions of this package call each other and the main namespace through `xp` and `la`
(looked up at call time), never through direct imports: `install_namespace` replaces the
public names by their dispatching versions (arraycore/autodiff/install.py), and a composite
must go through those to be differentiable.
"""

from __future__ import annotations

import operator
import sys
from collections import namedtuple

from .._core import dtypes as _dt
from ..native import _native

Array = _native.Array
# Created by the native layer (bind_linalg.cpp), raised by its functions and by ours.
LinAlgError = _native.LinAlgError
LinAlgError.__module__ = "arraycore.linalg"

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
LUResult = namedtuple("LUResult", ["P", "L", "U"])
LUFactorResult = namedtuple("LUFactorResult", ["LU", "pivots"])
LstsqResult = namedtuple("LstsqResult", ["x", "residuals", "rank", "s"])


class _Late:
    """Attribute access to a module resolved when used (the module may still be importing
    when this one is, and its public names are rebound by the autodiff install)."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        return getattr(sys.modules[self._name], attr)


xp = _Late("arraycore")
la = _Late("arraycore.linalg")

_FLOATING = frozenset(d for d in _dt.ALL_DTYPES if d.kind in "fc")
REAL_OF = {_dt.complex64: _dt.float32, _dt.complex128: _dt.float64,
           _dt.float32: _dt.float32, _dt.float64: _dt.float64}
COMPLEX_OF = {_dt.float32: _dt.complex64, _dt.float64: _dt.complex128,
              _dt.complex64: _dt.complex64, _dt.complex128: _dt.complex128}

_Tracer = None


def is_array(x) -> bool:
    """A plain array or an autodiff tracer (composites are called with either)."""
    global _Tracer
    if isinstance(x, Array):
        return True
    if _Tracer is None:
        from ..autodiff.tracer import Tracer
        _Tracer = Tracer
    return isinstance(x, _Tracer)


def check_array(x, name, what="x"):
    if not is_array(x):
        raise TypeError(f"{name}: expected an array for {what}, got {type(x).__name__}")
    return x


def float_dtype(x, name, what="x"):
    """The floating dtype `x` is computed in: its own for float/complex, float64 for
    integers (NumPy's promotion); bool is a TypeError."""
    check_array(x, name, what)
    d = x.dtype
    if d in _FLOATING:
        return d
    if d.kind in "iu":
        return _dt.default_float
    raise TypeError(f"{name}: expected a numeric (preferably floating-point) array for "
                    f"{what}, got dtype {d}")


def common_float_dtype(name, *named):
    """Promoted floating dtype of several (array, what) pairs."""
    out = None
    for x, what in named:
        d = float_dtype(x, name, what)
        out = d if out is None else _dt.promote_types(out, d)
    return out


def cast(x, d):
    """x as dtype d (no copy when it already is)."""
    if x.dtype == d:
        return x
    if type(x) is Array:
        return _native.astype(x, d.code)
    return xp.astype(x, d)


def check_matrix(x, name, what="x", square=False):
    """Validates a stack of matrices (..., M, N); with square, M == N."""
    if x.ndim < 2:
        raise ValueError(f"{name}: {what} must have at least 2 dimensions (a matrix or a "
                         f"stack of matrices), got shape {tuple(x.shape)}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name}: {what} must be a square matrix or a stack of square "
                         f"matrices, got shape {tuple(x.shape)}")
    return x


def float_matrix(x, name, what="x", square=False):
    """Promoted (floating) stack of matrices after the checks above."""
    if type(x) is Array and x.dtype in _FLOATING:  # the common case, in few steps
        shape = x.shape
        if len(shape) >= 2 and (not square or shape[-1] == shape[-2]):
            return x
    d = float_dtype(x, name, what)
    check_matrix(x, name, what, square)
    return cast(x, d)


def check_bool(value, name, what):
    if not isinstance(value, bool):
        raise TypeError(f"{name}: {what} must be a bool, got {type(value).__name__}")
    return value


def check_int(value, name, what):
    if isinstance(value, bool):
        raise TypeError(f"{name}: {what} must be an integer, got a bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: {what} must be an integer, got "
                        f"{type(value).__name__}") from None


def is_empty(shape) -> bool:
    return 0 in tuple(shape)


def zeros(shape, d):
    return _native.full(list(shape), 0, d.code)


def identity_stack(batch, n, d):
    """Identity matrices of shape batch + (n, n) (a fresh array)."""
    e = _native.eye(n, n, 0, d.code)
    return _native.copy_c(_native.broadcast_to(e, list(batch) + [n, n])) if batch else e


def broadcast_batch(name, a, b, a_core, b_core):
    """a and b with their batch dims (all but the last a_core / b_core) broadcast together
    (stride-0 views, no copies)."""
    ba, bb = tuple(a.shape[:a.ndim - a_core]), tuple(b.shape[:b.ndim - b_core])
    try:
        batch = tuple(_native.broadcast_shapes([list(ba), list(bb)]))
    except Exception:
        raise ValueError(f"{name}: the batch dimensions {ba} and {bb} of the operands do not "
                         f"broadcast") from None
    if ba != batch:
        a = xp.broadcast_to(a, batch + tuple(a.shape[a.ndim - a_core:]))
    if bb != batch:
        b = xp.broadcast_to(b, batch + tuple(b.shape[b.ndim - b_core:]))
    return a, b, batch


def mH(x):
    """Conjugate transpose of the last two axes."""
    t = xp.matrix_transpose(x)
    return xp.conj(t) if x.dtype.kind == "c" else t


def rtol_value(name, rtol, x):
    """rtol as an array broadcasting against x's batch (None: max(M, N) * eps)."""
    real = REAL_OF[x.dtype]
    if rtol is None:
        return max(x.shape[-2:]) * xp.finfo(real).eps
    if isinstance(rtol, bool):
        raise TypeError(f"{name}: rtol must be a float or an array, got bool")
    if isinstance(rtol, (int, float)):
        return float(rtol)
    if not is_array(rtol):
        raise TypeError(f"{name}: rtol must be a float or an array, got {type(rtol).__name__}")
    if rtol.dtype.kind not in "iuf":
        raise TypeError(f"{name}: rtol must have a real dtype, got {rtol.dtype}")
    return xp.astype(rtol, real) if rtol.dtype.kind != "f" else rtol


def singular_cutoff(r, smax):
    """rtol * largest singular value with rtol of the batch shape broadcast (..., 1)."""
    if isinstance(r, float):
        return r * smax
    return r[..., None] * smax
