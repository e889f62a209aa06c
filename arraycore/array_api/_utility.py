"""L2: the standard's utility functions: all, any (native reductions) and diff (views and
elementwise kernels)."""

from __future__ import annotations

import operator as _operator

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from .._core.ops import reductions as _ops  # noqa: F401  (fills the table)
from ..native import _native
from . import _elementwise as _ew
from ._creation import empty as _empty
from ._statistics import _axes
from ._validation import check_array

Array = _native.Array
_reduce = _native.reduce
_astype = _native.astype

__all__ = ["all", "any", "diff"]

_ALL, _ANY = 4, 5


def all(x, /, *, axis=None, keepdims=False):
    """all(x, /, *, axis=None, keepdims=False): whether every element is true (nonzero) over
    the given axes.  Any dtype; NaN counts as true.  Empty reductions give True.

    >>> import arraycore as ac
    >>> ac.all(ac.asarray([[True, False], [True, True]]), axis=1)
    """
    check_array(x, "all")
    return _reduce(_ALL, x, _axes("all", axis, x.ndim), bool(keepdims), _dt.bool_.code, "all")


def any(x, /, *, axis=None, keepdims=False):
    """any(x, /, *, axis=None, keepdims=False): whether some element is true (nonzero) over
    the given axes.  Any dtype.  Empty reductions give False.

    >>> import arraycore as ac
    >>> ac.any(ac.asarray([0, 0, 3]))
    """
    check_array(x, "any")
    return _reduce(_ANY, x, _axes("any", axis, x.ndim), bool(keepdims), _dt.bool_.code, "any")


def _slice(ndim, axis, s):
    key = [slice(None)] * ndim
    key[axis] = s
    return tuple(key)


def _as_part(name, what, v, x, axis):
    """prepend/append as an array of x's dtype and x's shape except along `axis`."""
    np_dtype = _np_scalars.dtype_of(v)
    if type(v) in (bool, int, float, complex) or np_dtype is not None:
        # (a NumPy scalar: a 0-d array of its dtype, broadcast along the axis, as NumPy's
        # diff concatenates it)
        d = (_dt.promote_with_scalar(x.dtype, v) if np_dtype is None
             else _dt.promote_types(x.dtype, np_dtype))
        v = v if np_dtype is None else v.item()
        shape = list(x.shape)
        shape[axis] = 1
        return _native.broadcast_to(_native.from_scalar(v, d.code), tuple(shape))
    if not isinstance(v, Array):
        raise TypeError(f"{name}: {what} must be an array or a Python scalar, got "
                        f"{type(v).__name__}")
    if v.ndim != x.ndim or _shape_differs(v.shape, x.shape, axis):
        raise ValueError(f"{name}: {what} of shape {v.shape} does not match x of shape "
                         f"{x.shape} except along axis {axis}")
    return v


def _shape_differs(a, b, skip):
    return [n for i, n in enumerate(a) if i != skip] != [n for i, n in enumerate(b) if i != skip]


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """diff(x, /, *, axis=-1, n=1, prepend=None, append=None): n-th discrete difference along
    `axis` (out[i] = x[i+1] - x[i], applied n times).

    `prepend`/`append` (arrays matching x's shape except along `axis`, or Python scalars) are
    joined to x first, with type promotion.  Bool inputs use `not_equal` (as NumPy).  x must
    have at least one dimension.

    >>> import arraycore as ac
    >>> ac.diff(ac.asarray([1, 4, 9, 16]))
    """
    check_array(x, "diff")
    if x.ndim == 0:
        raise ValueError("diff: x must have at least one dimension")
    if isinstance(n, bool) or not isinstance(n, int):
        try:
            n = _operator.index(n)
        except TypeError:
            raise TypeError(f"diff: n must be an int, got {type(n).__name__}") from None
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    if isinstance(axis, tuple):
        raise TypeError(f"diff: axis must be an int, got {axis!r}")
    (axis,) = _axes("diff", axis, x.ndim)
    parts = [p for p in (None if prepend is None else _as_part("diff", "prepend", prepend, x,
                                                                 axis),
                         x,
                         None if append is None else _as_part("diff", "append", append, x,
                                                              axis)) if p is not None]
    if len(parts) > 1:
        d = _dt.promote_sequence(p.dtype for p in parts)
        shape = list(x.shape)
        shape[axis] = _total_length(parts, axis)
        a = _empty(tuple(shape), dtype=d)
        pos = 0
        for p in parts:
            k = p.shape[axis]
            a[_slice(x.ndim, axis, slice(pos, pos + k))] = p if p.dtype is d else _astype(p, d.code)
            pos += k
    else:
        a = x
    if n == 0:
        return a
    sub = _ew.not_equal if a.dtype is _dt.bool_ else _ew.subtract
    for _ in range(n):
        m = a.shape[axis]
        if m == 0:
            break
        a = sub(a[_slice(a.ndim, axis, slice(1, None))], a[_slice(a.ndim, axis, slice(None, -1))])
    return a


def _total_length(parts, axis):
    total = 0
    for p in parts:
        total += p.shape[axis]
    return total
