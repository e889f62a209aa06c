"""L2: the standard's sorting functions: sort, argsort.

Both are stable whatever `stable` says (the engine's radix sort is stable at no cost; see
Note [Radix sort] in kernels/sort.cpp).  NaNs sort last; `descending=True` gives the reverse
order with equal elements kept in their input order, as the standard specifies.
"""

from __future__ import annotations

from ..native import _native
from .._core.ops import sorting as _ops  # noqa: F401  (fills the op table)
from ._searching import _axis_int
from ._validation import check_array

__all__ = ["argsort", "sort"]


def sort(x, /, *, axis=-1, descending=False, stable=True):
    """sort(x, /, *, axis=-1, descending=False, stable=True): sorted copy along `axis`.

    Every dtype is accepted; complex values sort lexicographically (real, imag) with NumPy's
    NaN placement.  NaNs come last (first when descending).

    >>> import arraycore as ac
    >>> ac.sort(ac.asarray([3.0, float('nan'), 1.0]))
    """
    check_array(x, "sort")
    return _native.sort_axis(x, _axis_int("sort", axis), bool(descending))


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    """argsort(x, /, *, axis=-1, descending=False, stable=True): int64 indices that sort x
    along `axis` (stable: equal elements keep their input order, also when descending).

    >>> import arraycore as ac
    >>> ac.argsort(ac.asarray([2, 1, 2, 0]), descending=True)
    """
    check_array(x, "argsort")
    return _native.argsort_axis(x, _axis_int("argsort", axis), bool(descending))


for _f in (sort, argsort):
    _f.__module__ = "arraycore"
del _f
