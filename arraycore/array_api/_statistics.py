"""L2: the standard's statistics functions (sum, prod, max, min, mean, std, var and the
cumulative scans).

Validation and result dtypes live here; the work is the engine's reduction driver
(`_native.reduce`, `_native.cumulative`; see docs/architecture.md, "Reductions").  mean/var/std
are built from native sums and elementwise kernels (two-pass variance).
"""

from __future__ import annotations

import operator as _operator

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from .._core.ops import reductions as _ops  # noqa: F401  (fills the table)
from ..native import _native
from . import _elementwise as _ew
from ._validation import check_array

_reduce = _native.reduce
_scan = _native.cumulative
_astype = _native.astype

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum",
           "var"]

_SUM, _PROD, _MAX, _MIN, _ALL, _ANY = range(6)
_DTYPES = frozenset(_dt.ALL_DTYPES)


def _check_kinds(name, x, kinds, what):
    if x.dtype.kind not in kinds:
        raise TypeError(f"{name}: expected input of {what} dtype, got {x.dtype}")


def _axes(name, axis, ndim):
    """Normalized, sorted, non-negative axes of a reduction (None: all)."""
    if axis is None:
        return list(range(ndim))
    items = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in items:
        if isinstance(a, bool) or not isinstance(a, int):
            try:
                a = _operator.index(a)
            except TypeError:
                raise TypeError(f"{name}: axis must be an int, a tuple of ints or None, "
                                f"got {axis!r}") from None
        if not -ndim <= a < ndim:
            raise ValueError(f"{name}: axis {a} is out of bounds for an array of dimension "
                             f"{ndim}")
        a = a + ndim if a < 0 else a
        if a in out:
            raise ValueError(f"{name}: repeated axis {a} in axis={axis!r}")
        out.append(a)
    return sorted(out)


def _check_dtype(name, dtype):
    if dtype not in _DTYPES:
        raise TypeError(f"{name}: dtype must be an arraycore dtype, got {dtype!r}")
    return dtype


def _sum_dtype(d):
    """The standard's default result dtype of sum/prod/cumulative_* for input dtype d."""
    if d.kind in "bi":
        return _dt.int64
    if d.kind == "u":
        return _dt.uint64
    return d


def _count(shape, axes):
    n = 1
    for a in axes:
        n *= shape[a]
    return n


def _float_input(name, x):
    """x in the dtype mean/var/std compute in: floats as they are, integers -> float64."""
    check_array(x, name)
    _check_kinds(name, x, "biufc", "numeric")
    if x.dtype.kind in "bi" or x.dtype.kind == "u":
        return _astype(x, _dt.default_float.code)
    return x


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    """sum(x, /, *, axis=None, dtype=None, keepdims=False): sum over the given axes.

    Result dtype: int64 for signed integer and bool inputs, uint64 for unsigned ones, the
    input dtype for floating inputs, unless `dtype` is given (elements are cast to it first).
    Float sums are pairwise (error O(log n)).  Empty reductions give 0.

    >>> import arraycore as ac
    >>> ac.sum(ac.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    """
    check_array(x, "sum")
    out = _sum_dtype(x.dtype) if dtype is None else _check_dtype("sum", dtype)
    return _reduce(_SUM, x, _axes("sum", axis, x.ndim), bool(keepdims), out.code, "sum")


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    """prod(x, /, *, axis=None, dtype=None, keepdims=False): product over the given axes.

    Result dtypes as for `sum`.  Empty reductions give 1.

    >>> import arraycore as ac
    >>> ac.prod(ac.asarray([1, 2, 3, 4]))
    """
    check_array(x, "prod")
    out = _sum_dtype(x.dtype) if dtype is None else _check_dtype("prod", dtype)
    return _reduce(_PROD, x, _axes("prod", axis, x.ndim), bool(keepdims), out.code, "prod")


def _minmax(name, op, x, axis, keepdims):
    check_array(x, name)
    _check_kinds(name, x, "iuf", "real numeric")
    return _reduce(op, x, _axes(name, axis, x.ndim), bool(keepdims), x.dtype.code, name)


def max(x, /, *, axis=None, keepdims=False):
    """max(x, /, *, axis=None, keepdims=False): largest element over the given axes.

    Real numeric inputs; NaN propagates.  ValueError when a reduced axis is empty.

    >>> import arraycore as ac
    >>> ac.max(ac.asarray([[1, 5], [7, 2]]), axis=1)
    """
    return _minmax("max", _MAX, x, axis, keepdims)


def min(x, /, *, axis=None, keepdims=False):
    """min(x, /, *, axis=None, keepdims=False): smallest element over the given axes.

    Real numeric inputs; NaN propagates.  ValueError when a reduced axis is empty.

    >>> import arraycore as ac
    >>> ac.min(ac.asarray([[1, 5], [7, 2]]), axis=0)
    """
    return _minmax("min", _MIN, x, axis, keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    """mean(x, /, *, axis=None, keepdims=False): arithmetic mean over the given axes.

    Floating inputs keep their dtype (complex allowed); integer and bool inputs are promoted
    to float64 (NumPy's behaviour).  The mean of an empty selection is NaN.

    >>> import arraycore as ac
    >>> ac.mean(ac.asarray([1.0, 2.0, 4.0]))
    """
    xf = _float_input("mean", x)
    axes = _axes("mean", axis, x.ndim)
    s = _reduce(_SUM, xf, axes, bool(keepdims), xf.dtype.code, "mean")
    return _ew.divide(s, float(_count(x.shape, axes)))


def _check_correction(name, correction):
    v = _np_scalars.value(correction)  # np.int64(1), np.float32(0.5): their value
    if v is not None:
        correction = v
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        raise TypeError(f"{name}: correction must be a real number, got "
                        f"{type(correction).__name__}")
    return correction


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    """var(x, /, *, axis=None, correction=0.0, keepdims=False): variance over the given axes.

    sum(|x - mean|**2) / (N - correction) (two passes).  Floating inputs; complex inputs give
    the real dtype of the same precision; integer and bool inputs are promoted to float64.
    N - correction <= 0 gives NaN (or inf), as NumPy.

    >>> import arraycore as ac
    >>> ac.var(ac.asarray([1.0, 2.0, 3.0, 4.0]), correction=1)
    """
    return _var("var", x, axis, correction, keepdims)


def _var(name, x, axis, correction, keepdims):
    xf = _float_input(name, x)
    correction = _check_correction(name, correction)
    axes = _axes(name, axis, x.ndim)
    n = _count(x.shape, axes)
    # Trailing axes of a contiguous real array (the whole array included): the second pass
    # reads x once per row (kernels/reduce_moments.cpp) instead of writing x - m and its
    # square; m (in x's dtype, as NumPy's var) then already has the result's shape.
    plain = bool(axes) and xf.dtype.kind == "f" and n > 0 and xf._c_contiguous
    one_read = plain and sorted(axes) == list(range(xf.ndim - len(axes), xf.ndim))
    # Leading axes (column statistics) likewise, against one mean per column (keepdims: m
    # is then contiguous over the kept axes).
    leading = plain and not one_read and sorted(axes) == list(range(len(axes)))
    m_keepdims = bool(keepdims) if one_read else True
    m = _ew.divide(_reduce(_SUM, xf, axes, m_keepdims, xf.dtype.code, name), float(n))
    if one_read:
        s = _native.sum_squared_deviations(xf, m, name)
    elif leading:
        s = _native.sum_squared_deviations_leading(xf, m, name)
        if not keepdims:
            s = _native.reshape_view(s, [d for i, d in enumerate(xf.shape) if i not in axes])
    else:
        d = _ew.subtract(xf, m)
        if d.dtype.kind == "c":
            re, im = _ew.real(d), _ew.imag(d)
            sq = _ew.add(_ew.multiply(re, re), _ew.multiply(im, im))
        else:
            sq = _ew.multiply(d, d)
        s = _reduce(_SUM, sq, axes, bool(keepdims), sq.dtype.code, name)
    denom = n - correction
    return _ew.divide(s, float(denom) if denom > 0 else 0.0)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    """std(x, /, *, axis=None, correction=0.0, keepdims=False): standard deviation.

    The square root of `var` with the same arguments and dtype rules.

    >>> import arraycore as ac
    >>> ac.std(ac.asarray([1.0, 2.0, 3.0, 4.0]))
    """
    return _ew.sqrt(_var("std", x, axis, correction, keepdims))


def _cumulative(name, op, x, axis, dtype, include_initial):
    check_array(x, name)
    out = _sum_dtype(x.dtype) if dtype is None else _check_dtype(name, dtype)
    if x.ndim == 0:
        x = x._view((1,), (0,), 0)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis is required for arrays of more than one dimension "
                             f"(got {x.ndim})")
        axis = 0
    (axis,) = _axes(name, axis, x.ndim) if not isinstance(axis, tuple) else _bad_axis(name, axis)
    return _scan(op, x, axis, bool(include_initial), out.code, name)


def _bad_axis(name, axis):
    raise TypeError(f"{name}: axis must be an int, got {axis!r}")



def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False): running sums.

    `axis` may be omitted for 1-D inputs only.  With include_initial=True the result starts
    with 0 (its length along `axis` is one more).  Result dtypes as for `sum`.

    >>> import arraycore as ac
    >>> ac.cumulative_sum(ac.asarray([1, 2, 3]))
    """
    return _cumulative("cumulative_sum", _SUM, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False): running products.

    As `cumulative_sum`, starting from 1 when include_initial=True.

    >>> import arraycore as ac
    >>> ac.cumulative_prod(ac.asarray([1, 2, 3]))
    """
    return _cumulative("cumulative_prod", _PROD, x, axis, dtype, include_initial)
