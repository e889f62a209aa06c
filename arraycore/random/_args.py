"""Argument handling shared by the distributions: `size`, `dtype`, `device`, and parameters
that are Python numbers or arrays broadcasting with `size` (NumPy Generator's rules)."""

from __future__ import annotations

import operator

from .._core import dtypes as _dt
from .._core.device import as_device
from ..array_api._validation import check_dtype
from ..autodiff.tracer import Tracer
from ..native import _native

Array = _native.Array
_ns = None


def ns():
    global _ns
    if _ns is None:
        import arraycore
        _ns = arraycore
    return _ns


def size_tuple(size, who):
    """None, or `size` as a tuple of non-negative ints."""
    if size is None:
        return None
    dims = tuple(size) if isinstance(size, (tuple, list)) else (size,)
    out = []
    for d in dims:
        if isinstance(d, (bool, float)):
            raise TypeError(f"{who}: size entries must be integers, got {d!r}")
        try:
            d = operator.index(d)
        except TypeError:
            raise TypeError(f"{who}: size must be None, an int or a tuple of ints, got "
                            f"{type(d).__name__}") from None
        if d < 0:
            raise ValueError(f"{who}: negative dimensions are not allowed, got size {size!r}")
        out.append(d)
    return tuple(out)


def float_dtype(dtype, who):
    d = check_dtype(dtype, who) if dtype is not None else _dt.float64
    if d not in (_dt.float32, _dt.float64):
        raise TypeError(f"{who}: dtype must be float32 or float64, got {d}")
    return d


def int_dtype(dtype, who):
    d = check_dtype(dtype, who) if dtype is not None else _dt.int64
    if d.kind not in "iu":
        raise TypeError(f"{who}: dtype must be an integer dtype, got {d}")
    return d


def check_device(device, who):
    as_device(device, who)


def is_array(v):
    return isinstance(v, (Array, Tracer))


def is_concrete(v):
    return isinstance(v, Array)


def as_param(v, who, name):
    """A distribution parameter: a Python/NumPy number (returned as float/int) or an array
    (arraycore, or anything ac.asarray takes)."""
    if is_array(v):
        return v
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return v
    if getattr(v, "ndim", None) == 0:  # NumPy scalars and 0-d arrays: exact Python numbers
        item = v.item() if hasattr(v, "item") else v
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            return item
    try:
        return ns().asarray(v)
    except Exception:
        raise TypeError(f"{who}: {name} must be a number or an array, got "
                        f"{type(v).__name__}") from None


def out_shape(size, params, who):
    """The draw's shape: `size`, which array parameters must broadcast to, or (size None)
    the parameters' broadcast shape."""
    shapes = [tuple(p.shape) for p in params if is_array(p)]
    if size is None:
        if not shapes:
            return ()
        try:
            return tuple(ns().broadcast_shapes(*shapes))
        except ValueError:
            raise ValueError(f"{who}: parameter shapes {shapes} do not broadcast") from None
    for s in shapes:
        try:
            b = tuple(ns().broadcast_shapes(s, size))
        except ValueError:
            b = None
        if b != tuple(size):
            raise ValueError(f"{who}: a parameter of shape {s} does not broadcast to size "
                             f"{tuple(size)}")
    return tuple(size)


def finite_number(v, who, name):
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError(f"{who}: {name} must be finite, got {v}")


def any_true(cond):
    """bool(any(cond)) for a concrete boolean array."""
    return bool(ns().any(cond))


def cast_param(p, dtype):
    """An array parameter in the draw's dtype (so float32 draws stay float32)."""
    if is_array(p) and p.dtype != dtype:
        return ns().astype(p, dtype)
    return p
