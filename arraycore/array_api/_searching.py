"""L2: the standard's searching functions: argmax, argmin, count_nonzero, nonzero,
searchsorted, where.

Each validates its arguments, promotes dtypes (Python scalars are weak, as for elementwise
functions) and calls one engine function (kernels/search.cpp), which does the work with the GIL
released for large inputs.
"""

from __future__ import annotations

import operator as _operator

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from .._core.ops import searching as _ops  # noqa: F401  (fills the op table)
from ..native import _native
from ._validation import check_array

_SCALARS = (bool, int, float, complex)

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]


def _axis_int(who, axis):
    if isinstance(axis, bool):
        raise TypeError(f"{who}: axis must be an int or None, got bool")
    try:
        return _operator.index(axis)
    except TypeError:
        raise TypeError(f"{who}: axis must be an int or None, got {type(axis).__name__}") from None


def _as_dtype(x, dtype):
    if type(x) in _SCALARS:
        return _native.from_scalar(x, dtype.code)
    return x if x.dtype is dtype else _native.astype(x, dtype.code)


def _promote_pair(who, x1, x2, allow_scalars=(True, True)):
    """Common dtype of x1 and x2 (arrays or Python scalars, at least one array)."""
    s1, s2 = type(x1) in _SCALARS, type(x2) in _SCALARS
    if s1 and s2:
        raise TypeError(f"{who}: at least one of x1, x2 must be an array, got two scalars")
    if s1 and not allow_scalars[0]:
        raise TypeError(f"{who}: x1 must be an array, got {type(x1).__name__}")
    if s2 and not allow_scalars[1]:
        raise TypeError(f"{who}: x2 must be an array, got {type(x2).__name__}")
    if not s1:
        check_array(x1, who, "x1")
    if not s2:
        check_array(x2, who, "x2")
    return _dt.promote_operands(x1, x2, s1, s2)


def _arg_extreme(who, is_max, x, axis, keepdims):
    check_array(x, who)
    if axis is not None:
        axis = _axis_int(who, axis)
    return _native.arg_extreme(x, axis, bool(keepdims), is_max)


def argmax(x, /, *, axis=None, keepdims=False):
    """argmax(x, /, *, axis=None, keepdims=False): indices of the maximum values.

    axis=None searches the flattened array (C order).  The first occurrence wins; a NaN
    beats every number (the first NaN is returned), as in NumPy.  Complex values compare
    lexicographically.  Empty reductions raise ValueError.  Result dtype: int64.

    >>> ac.argmax(ac.asarray([1, 3, 3, 2]))
    """
    return _arg_extreme("argmax", True, x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    """argmin(x, /, *, axis=None, keepdims=False): indices of the minimum values.

    Same rules as `argmax` (first occurrence, NaN wins).  Result dtype: int64.

    >>> ac.argmin(ac.asarray([[2, 1], [0, 5]]), axis=1)
    """
    return _arg_extreme("argmin", False, x, axis, keepdims)


def _normalize_axes(who, axis, ndim):
    if axis is None:
        return None
    axes = tuple(axis) if isinstance(axis, tuple) else (axis,)
    out = []
    for a in axes:
        a = _axis_int(who, a)
        if not -ndim <= a < ndim:
            raise ValueError(f"{who}: axis {a} is out of bounds for an array of dimension {ndim}")
        a %= ndim
        if a in out:
            raise ValueError(f"{who}: repeated axis {a}")
        out.append(a)
    return out


def count_nonzero(x, /, *, axis=None, keepdims=False):
    """count_nonzero(x, /, *, axis=None, keepdims=False): number of nonzero elements.

    axis: None (all axes), an int or a tuple of ints.  NaN counts as nonzero, -0 as zero;
    a complex number is nonzero when either part is.  Result dtype: int64.

    >>> ac.count_nonzero(ac.asarray([[0, 1], [2, 0]]), axis=0)
    """
    check_array(x, "count_nonzero")
    axes = _normalize_axes("count_nonzero", axis, x.ndim)
    return _native.count_nonzero_axes(x, axes, bool(keepdims))


def nonzero(x, /):
    """nonzero(x, /): tuple of int64 index arrays, one per axis, of the nonzero elements in
    row-major (C) order.  0-d input raises ValueError (the standard requires at least one
    dimension).

    >>> ac.nonzero(ac.asarray([[0, 1], [2, 0]]))
    """
    check_array(x, "nonzero")
    return tuple(_native.nonzero_indices(x))


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """searchsorted(x1, x2, /, *, side='left', sorter=None): insertion indices.

    x1: 1-D array sorted ascending (NaNs last), or any 1-D array with `sorter`, an integer
    array of indices that sort it.  x2: array or Python scalar; x1 and x2 are promoted to a
    common dtype.  side='left' returns the first suitable index, 'right' the last.  Result:
    int64 with x2's shape.

    >>> ac.searchsorted(ac.asarray([1.0, 2.0, 3.0]), ac.asarray([2.0, 2.5]))
    """
    who = "searchsorted"
    if side not in ("left", "right"):
        raise ValueError(f"{who}: side must be 'left' or 'right', got {side!r}")
    d = _promote_pair(who, x1, x2, allow_scalars=(False, True))
    if x1.ndim != 1:
        raise ValueError(f"{who}: x1 must be one-dimensional, got {x1.ndim} dimensions")
    if sorter is not None:
        check_array(sorter, who, "sorter")
        if sorter.dtype.kind not in "iu":
            raise TypeError(f"{who}: sorter must have an integer dtype, got {sorter.dtype}")
        if sorter.dtype is not _dt.int64:
            sorter = _native.astype(sorter, _dt.int64.code)
    return _native.searchsorted_1d(_as_dtype(x1, d), _as_dtype(x2, d), side == "right", sorter)


def where(condition, x1, x2, /):
    """where(condition, x1, x2, /): elements of x1 where condition is true, else of x2.

    condition: bool array; x1, x2: arrays or Python scalars (at least one an array), promoted
    with the standard's rules.  All three broadcast together.

    >>> ac.where(ac.asarray([True, False]), ac.asarray([1, 2]), 0)
    """
    who = "where"
    condition = _np_scalars.as_operand(condition)  # np.bool_(True): a 0-d bool array
    check_array(condition, who, "condition")
    if condition.dtype is not _dt.bool_:
        raise TypeError(f"{who}: condition must have dtype bool, got {condition.dtype}")
    x1, x2 = _np_scalars.as_operand(x1), _np_scalars.as_operand(x2)  # NEP 50
    d = _promote_pair(who, x1, x2)
    return _native.where_select(condition, _as_dtype(x1, d), _as_dtype(x2, d))


for _f in (argmax, argmin, count_nonzero, nonzero, searchsorted, where):
    _f.__module__ = "arraycore"
    _f.__doc__ = _f.__doc__.replace(">>> ac.", ">>> import arraycore as ac\n    >>> ac.", 1)
del _f
