"""L2: argument checks shared by the namespace functions (errors name the function)."""

from __future__ import annotations

import operator

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from ..native import _native

Array = _native.Array


def check_dtype(dtype, who: str, allow_none: bool = True):
    """A DType for `dtype=` (accepts a DType or its name); TypeError otherwise."""
    if dtype is None:
        if allow_none:
            return None
        raise TypeError(f"{who}: dtype is required")
    if isinstance(dtype, _dt.DType):
        return dtype
    if isinstance(dtype, str) and dtype in _dt.BY_NAME:
        return _dt.BY_NAME[dtype]
    name = getattr(dtype, "name", None) if not isinstance(dtype, type) else \
        getattr(dtype, "__name__", None)
    if isinstance(name, str) and name in _dt.BY_NAME:  # NumPy dtypes and scalar types
        return _dt.BY_NAME[name]
    raise TypeError(f"{who}: {dtype!r} is not an arraycore dtype")


def check_shape(shape, who: str) -> tuple:
    """A tuple of non-negative ints for a `shape` argument."""
    if isinstance(shape, (tuple, list)):
        dims = shape
    else:
        dims = (shape,)
    out = []
    for d in dims:
        if isinstance(d, bool) or isinstance(d, float):
            raise TypeError(f"{who}: shape entries must be integers, got {d!r}")
        try:
            d = operator.index(d)
        except TypeError:
            raise TypeError(f"{who}: shape entries must be integers, got "
                            f"{type(d).__name__}") from None
        if d < 0:
            raise ValueError(f"{who}: negative dimensions are not allowed, got shape "
                             f"{tuple(dims)}")
        if d >= 1 << 63:  # the engine's extents are int64 (pybind11 gave a bare TypeError)
            raise ValueError(f"{who}: array is too big: dimension {d} does not fit in int64")
        out.append(d)
    if len(out) > 64:
        raise ValueError(f"{who}: at most 64 dimensions are supported, got {len(out)}")
    return tuple(out)


def check_int(value, who: str, name: str) -> int:
    if isinstance(value, bool):
        raise TypeError(f"{who}: {name} must be an integer, got a bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{who}: {name} must be an integer, got {type(value).__name__}") \
            from None


def check_array(x, who: str, name: str = "x"):
    if not isinstance(x, Array):
        raise TypeError(f"{who}: expected an array for {name}, got {type(x).__name__}")
    return x


def scalar_dtype(value):
    """Default dtype of a Python scalar (bool, int64, float64, complex128); a NumPy scalar's
    own dtype."""
    t = type(value)
    if t is bool:
        return _dt.bool_
    if t is int:
        return _dt.default_int
    if t is float:
        return _dt.default_float
    if t is complex:
        return _dt.default_complex
    d = _np_scalars.dtype_of(value)
    if d is not None:
        return d
    if isinstance(value, bool):
        return _dt.bool_
    if isinstance(value, int):
        return _dt.default_int
    if isinstance(value, float):
        return _dt.default_float
    if isinstance(value, complex):
        return _dt.default_complex
    raise TypeError(f"expected a Python scalar, got {t.__name__}")
