"""L2: the standard's set functions: isin and the unique_* family.

Results are sorted; every NaN is a distinct value (NaN != NaN), +0 and -0 are one value;
`indices` are first occurrences in the flattened (C order) input and `inverse_indices` has
x's shape.  The work is in kernels/sets.cpp.
"""

from __future__ import annotations

from collections import namedtuple

from .._core.ops import sets as _ops  # noqa: F401  (fills the op table)
from ..native import _native
from ._searching import _as_dtype, _promote_pair
from ._validation import check_array

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices",
                                                 "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def isin(x1, x2, /, *, invert=False):
    """isin(x1, x2, /, *, invert=False): bool array of x1's shape, True where an element of
    x1 equals some element of x2 (False with invert=True).  x1, x2: arrays or Python scalars
    (at least one an array), promoted to a common dtype.  NaN is in nothing.

    >>> import arraycore as ac
    >>> ac.isin(ac.asarray([1, 2, 3]), ac.asarray([3, 1]))
    """
    d = _promote_pair("isin", x1, x2)
    return _native.isin_values(_as_dtype(x1, d), _as_dtype(x2, d), bool(invert))


def unique_all(x, /):
    """unique_all(x, /): (values, indices, inverse_indices, counts) of the flattened x.

    >>> import arraycore as ac
    >>> ac.unique_all(ac.asarray([3, 1, 3]))
    """
    check_array(x, "unique_all")
    v, i, inv, c = _native.unique_flat(x, True, True, True)
    return UniqueAllResult(v, i, inv, c)


def unique_counts(x, /):
    """unique_counts(x, /): (values, counts) of the flattened x.

    >>> import arraycore as ac
    >>> ac.unique_counts(ac.asarray([3, 1, 3]))
    """
    check_array(x, "unique_counts")
    v, _, _, c = _native.unique_flat(x, False, False, True)
    return UniqueCountsResult(v, c)


def unique_inverse(x, /):
    """unique_inverse(x, /): (values, inverse_indices); values[inverse_indices] == x.

    >>> import arraycore as ac
    >>> ac.unique_inverse(ac.asarray([3, 1, 3]))
    """
    check_array(x, "unique_inverse")
    v, _, inv, _ = _native.unique_flat(x, False, True, False)
    return UniqueInverseResult(v, inv)


def unique_values(x, /):
    """unique_values(x, /): the sorted distinct values of the flattened x.

    >>> import arraycore as ac
    >>> ac.unique_values(ac.asarray([3, 1, 3]))
    """
    check_array(x, "unique_values")
    return _native.unique_flat(x, False, False, False)[0]


for _f in (isin, unique_all, unique_counts, unique_inverse, unique_values):
    _f.__module__ = "arraycore"
del _f
