"""L2: the 6 data type functions of the standard and the dtype objects."""

from __future__ import annotations

from dataclasses import dataclass

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from .._core.device import as_device
from ..native import _native
from ._validation import check_array, check_dtype

Array = _native.Array

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(x, dtype, /, *, copy=True, device=None):
    """Casts x to `dtype` (complex -> real drops the imaginary part, as NumPy).

    >>> import arraycore as ac
    >>> ac.astype(ac.asarray([1.7, -2.2]), ac.int32)
    """
    check_array(x, "astype")
    dtype = check_dtype(dtype, "astype", allow_none=False)
    as_device(device, "astype")
    if dtype is x.dtype and not copy:
        return x
    return _native.astype(x, dtype.code)


def _dtype_of(v, who):
    if isinstance(v, _dt.DType):
        return v
    if isinstance(v, Array):
        return v.dtype
    d = _np_scalars.dtype_of(v)  # a NumPy scalar counts as a 0-d array of its dtype
    if d is not None:
        return d
    raise TypeError(f"{who}: expected a dtype or an array, got {type(v).__name__}")


def can_cast(from_, to, /):
    """Whether promotion rules allow casting `from_` (dtype or array) to `to` without loss."""
    f = _dtype_of(from_, "can_cast")
    t = check_dtype(to, "can_cast", allow_none=False)
    return _dt.promote_types(f, t) is t


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype (the standard's `finfo` result)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: _dt.DType


@dataclass(frozen=True)
class iinfo_object:
    """Machine limits of an integer dtype (the standard's `iinfo` result)."""

    bits: int
    max: int
    min: int
    dtype: _dt.DType


_FLOAT32_MAX = (2 - 2.0 ** -23) * 2.0 ** 127
_FLOAT64_MAX = (2 - 2.0 ** -52) * 2.0 ** 1023
_FINFO = {
    "float32": finfo_object(32, 2.0 ** -23, _FLOAT32_MAX, -_FLOAT32_MAX, 2.0 ** -126, _dt.float32),
    "float64": finfo_object(64, 2.0 ** -52, _FLOAT64_MAX, -_FLOAT64_MAX, 2.0 ** -1022,
                            _dt.float64),
}
_FINFO["complex64"] = _FINFO["float32"]
_FINFO["complex128"] = _FINFO["float64"]


def finfo(type, /):
    """Limits of a floating-point dtype (or an array's dtype).  >>> ac.finfo(ac.float32).eps"""
    d = _dtype_of(type, "finfo")
    if d.kind not in "fc":
        raise TypeError(f"finfo: expected a floating-point dtype, got {d}")
    return _FINFO[d.name]


def iinfo(type, /):
    """Limits of an integer dtype (or an array's dtype).  >>> ac.iinfo(ac.int8).max"""
    d = _dtype_of(type, "iinfo")
    if d.kind not in "iu":
        raise TypeError(f"iinfo: expected an integer dtype, got {d}")
    if d.kind == "i":
        return iinfo_object(d.bits, (1 << (d.bits - 1)) - 1, -(1 << (d.bits - 1)), d)
    return iinfo_object(d.bits, (1 << d.bits) - 1, 0, d)


_ISDTYPE_KINDS = _dt.STANDARD_KINDS


def isdtype(dtype, kind):
    """Whether `dtype` is of `kind` (a dtype, a kind name, or a tuple of those).

    >>> ac.isdtype(ac.float32, ("real floating", "complex floating"))
    """
    if not isinstance(dtype, _dt.DType):
        raise TypeError(f"isdtype: expected a dtype, got {type(dtype).__name__}")
    if isinstance(kind, tuple):
        results = [isdtype(dtype, k) for k in kind]  # all validated, as NumPy does
        return any(results)
    if isinstance(kind, _dt.DType):
        return dtype is kind
    if isinstance(kind, str):
        if kind not in _ISDTYPE_KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}; expected one of "
                             f"{', '.join(map(repr, _ISDTYPE_KINDS))}")
        return dtype.kind in _ISDTYPE_KINDS[kind]
    raise TypeError(f"isdtype: kind must be a dtype, a string or a tuple, got "
                    f"{type(kind).__name__}")


def result_type(*arrays_and_dtypes):
    """Dtype that results from promoting arrays, dtypes and Python scalars together.

    >>> ac.result_type(ac.int8, ac.asarray([1.0], dtype=ac.float32), 2)
    """
    dtypes, scalars = [], []
    for v in arrays_and_dtypes:
        if type(v) in (bool, int, float, complex):
            scalars.append(v)
        else:
            dtypes.append(_dtype_of(v, "result_type"))
    if not dtypes:
        raise ValueError("result_type: at least one array or dtype is required")
    r = _dt.promote_sequence(dtypes)
    for s in scalars:
        r = _dt.promote_with_scalar(r, s)
    return r
