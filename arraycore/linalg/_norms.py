"""Norms, rank and condition numbers: vector_norm (a primitive), matrix_norm, norm (NumPy's),
matrix_rank, cond.  All of them reduce with the main namespace's functions; matrix_norm's
spectral norms and matrix_rank/cond use svdvals."""

from __future__ import annotations

import math
import numbers
import operator

from ..native import _native
from ._common import (REAL_OF, cast, check_array, check_bool, check_matrix, float_dtype,
                      is_empty, la, rtol_value, singular_cutoff, xp, zeros)

__all__ = ["vector_norm", "matrix_norm", "norm", "matrix_rank", "cond"]


def _check_ord_number(name, ord):
    if isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise ValueError(f"{name}: invalid norm order {ord!r}")
    return ord


def _norm_axes(name, axis, ndim):
    """axis (None, int or tuple of ints) as a sorted tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    seq = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in seq:
        if isinstance(a, bool):
            raise TypeError(f"{name}: axis must be an integer or a tuple of integers, got bool")
        try:
            a = operator.index(a)
        except TypeError:
            raise TypeError(f"{name}: axis must be an integer or a tuple of integers, got "
                            f"{type(a).__name__}") from None
        if not -ndim <= a < ndim:
            raise ValueError(f"{name}: axis {a} is out of bounds for an array of {ndim} "
                             f"dimensions")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated axis in {axis!r}")
    return tuple(sorted(out))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector norm of x over `axis` (None: all elements; an int; or a tuple of axes, taken as
    one flattened vector).  ord: any real p (sum(|x|^p)^(1/p); p < 1 and negative p as the
    standard's table), 0 (number of nonzeros), inf (max |x|), -inf (min |x|).  The result has
    the real floating dtype of x's precision (integers: float64)."""
    d = float_dtype(x, "vector_norm")
    check_bool(keepdims, "vector_norm", "keepdims")
    ord = _check_ord_number("vector_norm", ord)
    axes = _norm_axes("vector_norm", axis, x.ndim)
    x = cast(x, d)
    real = REAL_OF[d]
    if ord == 0:
        return xp.astype(xp.sum(xp.astype(x != 0, real), axis=axes, keepdims=keepdims), real)
    if ord == 2 and d.kind == "f":
        if _trailing_of_contiguous(x, axes):
            # one read of x, no x * x temporary (kernels/reduce_moments.cpp, as var's second
            # pass with a zero mean): 2.4x NumPy's time before, whose norm is a BLAS dot
            kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape)) if keepdims \
                else tuple(n for i, n in enumerate(x.shape) if i not in axes)
            return xp.sqrt(_native.sum_squared_deviations(x, zeros(kept, d), "vector_norm"))
        return xp.sqrt(xp.sum(x * x, axis=axes, keepdims=keepdims))
    a = xp.abs(x) if d.kind == "c" or ord not in (2,) else x
    if ord == 2:
        return xp.sqrt(xp.sum(a * a, axis=axes, keepdims=keepdims))
    if ord == 1:
        return xp.sum(a, axis=axes, keepdims=keepdims)
    if ord == math.inf:
        return _extreme(xp.max, a, axes, keepdims, "vector_norm", ord)
    if ord == -math.inf:
        return _extreme(xp.min, a, axes, keepdims, "vector_norm", ord)
    p = float(ord)
    return xp.pow(xp.sum(xp.pow(a, p), axis=axes, keepdims=keepdims), 1.0 / p)


def _trailing_of_contiguous(x, axes):
    """Whether `axes` (sorted) are x's last axes and x is a nonempty C-contiguous array."""
    return (bool(axes) and list(axes) == list(range(x.ndim - len(axes), x.ndim))
            and x.size > 0 and x._c_contiguous)


def _extreme(f, a, axes, keepdims, name, ord):
    if any(a.shape[i] == 0 for i in axes):
        raise ValueError(f"{name}: the norm of order {ord} of an empty vector is undefined")
    return f(a, axis=axes, keepdims=keepdims)


_MATRIX_ORDS = ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """Matrix norm of each matrix in x (..., M, N): "fro" (Frobenius), "nuc" (sum of singular
    values), 2 / -2 (largest / smallest singular value), 1 / -1 (max / min column sum of
    |x|), inf / -inf (max / min row sum of |x|).  keepdims keeps the two matrix axes as
    size 1.  Real floating result of x's precision."""
    d = float_dtype(x, "matrix_norm")
    check_bool(keepdims, "matrix_norm", "keepdims")
    check_matrix(x, "matrix_norm")
    if isinstance(ord, bool) or ord not in _MATRIX_ORDS:
        raise ValueError(f"matrix_norm: invalid norm order {ord!r} for matrices (one of "
                         f"{_MATRIX_ORDS})")
    x = cast(x, d)
    return _matrix_norm_last2(x, ord, keepdims)


def _matrix_norm_last2(x, ord, keepdims):
    if ord == "fro":
        return la.vector_norm(x, axis=(-2, -1), keepdims=keepdims, ord=2)
    if ord in ("nuc", 2, -2):
        s = la.svdvals(x)
        if ord == "nuc":
            r = xp.sum(s, axis=-1)
        elif is_empty(x.shape[-2:]):  # NumPy: the max of no values is 0, the min an error
            if ord == -2:
                raise ValueError("matrix_norm: the norm of order -2 of an empty matrix is "
                                 "undefined")
            r = zeros(tuple(x.shape[:-2]), REAL_OF[x.dtype])
        else:
            r = (xp.max if ord == 2 else xp.min)(s, axis=-1)
    else:
        sum_axis, red = (-2, -1) if ord in (1, -1) else (-1, -2)
        sums = xp.sum(xp.abs(x), axis=sum_axis, keepdims=True)
        if x.shape[red] == 0:
            if ord < 0:
                raise ValueError(f"matrix_norm: the norm of order {ord} of an empty matrix is "
                                 f"undefined")
            r = zeros(tuple(sums.shape[:-2]) + (1, 1), REAL_OF[x.dtype])
        else:
            r = (xp.max if ord > 0 else xp.min)(sums, axis=red, keepdims=True)
        return r if keepdims else r[..., 0, 0]
    return r[..., None, None] if keepdims else r


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's `numpy.linalg.norm`: with axis=None, the 2-norm of the flattened array when ord
    is None, else the vector norm of a 1-D or the matrix norm of a 2-D x; an int axis takes
    vector norms (vector_norm's orders), a pair of axes matrix norms (matrix_norm's orders,
    "fro" for None).  keepdims keeps the reduced axes as size 1."""
    check_array(x, "norm")
    check_bool(keepdims, "norm", "keepdims")
    nd = x.ndim
    if axis is None:
        if ord is None:
            r = la.vector_norm(x, keepdims=keepdims)
            return r
        if nd == 1:
            axis = (0,)
        elif nd == 2:
            axis = (0, 1)
        else:
            raise ValueError(f"norm: improper number of dimensions to norm: {nd} (give axis "
                             f"for an array of more than 2 dimensions with an ord)")
    elif not isinstance(axis, tuple):
        axis = (axis,)
    axes = tuple(_norm_axes("norm", a, nd)[0] for a in axis) if nd else ()
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
        return la.vector_norm(x, axis=axes[0], keepdims=keepdims,
                              ord=2 if ord is None else ord)
    if len(axes) == 2:
        if axes[0] == axes[1]:
            raise ValueError("norm: duplicate axes given")
        r = la.matrix_norm(xp.moveaxis(x, axes, (-2, -1)), keepdims=keepdims,
                           ord="fro" if ord is None else ord)
        # keepdims: the two size-1 axes go back where the matrix axes were.
        return xp.moveaxis(r, (-2, -1), axes) if keepdims else r
    raise ValueError(f"norm: improper number of axes {len(axes)} (1 for vector norms, 2 for "
                     f"matrix norms)")


def matrix_rank(x, /, *, rtol=None, tol=None, hermitian=False):
    """Rank of each matrix in x (..., M, N): the number of singular values greater than
    max(tol, rtol * largest singular value).  rtol (a float or an array broadcasting against
    the batch) defaults to max(M, N) * eps (the standard's rule) when tol is None; tol
    (NumPy's absolute tolerance) replaces it.  `hermitian` uses |eigvalsh| as singular values.
    A 1-D x (NumPy's extension) has rank 1 unless it is all zeros.  Result: int64."""
    d = float_dtype(x, "matrix_rank")
    check_bool(hermitian, "matrix_rank", "hermitian")
    if x.ndim < 2:
        return xp.astype(xp.any(x != 0), xp.int64)
    x = cast(x, d)
    m, n = x.shape[-2:]
    if is_empty(x.shape):
        return zeros(tuple(x.shape[:-2]), xp.int64)
    s = xp.abs(la.eigvalsh(x)) if hermitian else la.svdvals(x)
    smax = xp.max(s, axis=-1, keepdims=True)
    if tol is not None:
        cutoff = _as_batch_tol("matrix_rank", tol, x, "tol")
    else:
        cutoff = singular_cutoff(rtol_value("matrix_rank", rtol, x), smax)
    return xp.astype(xp.sum(xp.astype(s > cutoff, xp.int64), axis=-1), xp.int64)


def _as_batch_tol(name, tol, x, what):
    if isinstance(tol, (int, float)) and not isinstance(tol, bool):
        return float(tol)
    check_array(tol, name, what)
    return xp.astype(tol, REAL_OF[x.dtype])[..., None]


def cond(x, p=None):
    """Condition number of each matrix in x (NumPy's `cond`): p None / 2 / -2 from the
    singular values (largest over smallest, or the reverse; for any shape), otherwise
    norm(x, p) * norm(inv(x), p) for square x with p in "fro", "nuc", 1, -1, inf, -inf; a
    singular matrix has condition number inf."""
    d = float_dtype(x, "cond")
    check_matrix(x, "cond")
    x = cast(x, d)
    if p is None or (not isinstance(p, (bool, str)) and p in (2, -2)):
        s = la.svdvals(x)
        return s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    if isinstance(p, bool) or p not in _MATRIX_ORDS:
        raise ValueError(f"cond: invalid norm order {p!r}")
    check_matrix(x, "cond", square=True)
    n = x.shape[-1]
    lu_, piv = la.lu_factor(x)
    singular = xp.any(la.diagonal(lu_) == 0, axis=-1)  # exactly singular: U has a zero
    eye = xp.broadcast_to(xp.eye(n, dtype=d), tuple(x.shape))
    xinv = la.lu_solve(lu_, piv, eye)
    r = la.matrix_norm(x, ord=p) * la.matrix_norm(xinv, ord=p)
    has_nan = xp.any(xp.isnan(x), axis=(-2, -1))
    return xp.where(xp.logical_and(xp.logical_or(singular, xp.isnan(r)),
                                   xp.logical_not(has_nan)), math.inf, r)
