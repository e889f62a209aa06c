"""L2: the standard's linear_algebra functions (matmul, matrix_transpose, tensordot, vecdot).

Validation and promotion happen here; the products run natively (kernels/matmul.cpp):
floating dtypes through BLAS ?gemm with transposed and row-strided operands passed as they
are, integer dtypes through a native loop with wraparound arithmetic.  tensordot is a
permutation and a reshape of each operand (views whenever the axes allow) and one matmul.
"""

from __future__ import annotations

import math as _math
import operator as _operator

from .._core import dtypes as _dt
from .._core.ops import linalg as _ops  # noqa: F401  (fills the op table)
from ..native import _native
from ._validation import check_array

Array = _native.Array
_NUMERIC = frozenset(d for d in _dt.ALL_DTYPES if d.kind in "iufc")
_matmul = _native.matmul
_astype = _native.astype

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]


def _check_arrays(name, x1, x2):
    check_array(x1, name, "x1")
    check_array(x2, name, "x2")


def _common_dtype(name, x1, x2):
    """Promoted numeric dtype of two arrays (TypeError for bool or unpromotable pairs)."""
    for x in (x1, x2):
        if x.dtype not in _NUMERIC:
            raise TypeError(f"{name}: expected input of numeric dtype, got {x.dtype}")
    d = x1.dtype if x1.dtype is x2.dtype else _dt.promote_types(x1.dtype, x2.dtype)
    return d


def _cast(x, d):
    return x if x.dtype is d else _astype(x, d.code)


def _permuted(x, axes):
    shape, strides = x.shape, x._strides
    return x._view([shape[i] for i in axes], [strides[i] for i in axes], 0)


def matmul(x1, x2, /):
    """Matrix product of two arrays (the standard's `matmul`, also the `@` operator).

    A 1-D x1 is a row vector and a 1-D x2 a column vector; the added dimension is removed from
    the result.  Other leading (batch) dimensions broadcast.  Inputs must be numeric (bool is a
    TypeError) and are promoted as `result_type`; the inner dimensions must agree
    (ValueError).  Floating dtypes use BLAS gemm; integers wrap around on overflow.
    """
    if type(x1) is Array and type(x2) is Array:
        d = x1.dtype
        if d is x2.dtype and d in _NUMERIC:
            return _matmul(x1, x2)
    _check_arrays("matmul", x1, x2)
    d = _common_dtype("matmul", x1, x2)
    return _matmul(_cast(x1, d), _cast(x2, d))


def matrix_transpose(x, /):
    """Transposes the last two axes of an array of two or more dimensions (a view)."""
    if not isinstance(x, Array):
        raise TypeError(f"matrix_transpose: expected an array, got {type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: needs an array of at least 2 dimensions, got "
                         f"shape {x.shape}")
    axes = list(range(x.ndim))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return _permuted(x, axes)


def _normalize_axes(seq, ndim, which):
    try:
        axes = [_operator.index(a) for a in seq]
    except TypeError:
        raise TypeError(f"tensordot: axes of {which} must be a sequence of integers, got "
                        f"{seq!r}") from None
    out = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"tensordot: axis {a} is out of bounds for {which} with {ndim} "
                             f"dimensions")
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"tensordot: repeated axis in {which}: {list(seq)}")
    return out


def _as_matrix(x, row_axes, col_axes):
    """x with row_axes merged into one dimension and col_axes into another: a view when each
    group is one strided run in x, otherwise a row-major copy of the permutation."""
    shape, strides = x.shape, x._strides

    def merged(axes):
        dims = [(shape[i], strides[i]) for i in axes if shape[i] != 1]
        size = _math.prod(shape[i] for i in axes)
        if size == 0 or not dims:
            return size, 1
        for (_, s0), (n1, s1) in zip(dims, dims[1:]):
            if s0 != n1 * s1:
                return None
        return size, dims[-1][1]

    r, c = merged(row_axes), merged(col_axes)
    if r is not None and c is not None:
        return x._view([r[0], c[0]], [r[1], c[1]], 0)
    p = _native.copy_c(_permuted(x, list(row_axes) + list(col_axes)))
    rows = _math.prod(shape[i] for i in row_axes)
    cols = _math.prod(shape[i] for i in col_axes)
    return p._view([rows, cols], [cols, 1], 0)


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over the last `axes` axes of x1 and the first `axes` axes of x2 (an
    int), or over the axes listed in a pair of sequences `(x1_axes, x2_axes)`.

    The result has x1's remaining axes followed by x2's.  Contracted axes must have equal
    sizes (ValueError).  Computed as one matmul of the operands viewed as matrices.
    """
    _check_arrays("tensordot", x1, x2)
    n1, n2 = x1.ndim, x2.ndim
    if isinstance(axes, bool):
        raise TypeError("tensordot: axes must be an int or a pair of sequences, got bool")
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"tensordot: axes must be non-negative, got {axes}")
        if axes > n1 or axes > n2:
            raise ValueError(f"tensordot: cannot contract {axes} axes of arrays with "
                             f"{n1} and {n2} dimensions")
        a1, a2 = list(range(n1 - axes, n1)), list(range(axes))
    else:
        try:
            s1, s2 = axes
        except (TypeError, ValueError):
            raise ValueError(f"tensordot: axes must be an int or a pair of sequences, got "
                             f"{axes!r}") from None
        if isinstance(s1, int):
            s1 = (s1,)
        if isinstance(s2, int):
            s2 = (s2,)
        a1, a2 = _normalize_axes(s1, n1, "x1"), _normalize_axes(s2, n2, "x2")
        if len(a1) != len(a2):
            raise ValueError(f"tensordot: x1 and x2 need the same number of axes, got "
                             f"{len(a1)} and {len(a2)}")
    for i, j in zip(a1, a2):
        if x1.shape[i] != x2.shape[j]:
            raise ValueError(f"tensordot: shape mismatch for the contracted axes: axis {i} of "
                             f"x1 has size {x1.shape[i]}, axis {j} of x2 has size "
                             f"{x2.shape[j]}")
    d = _common_dtype("tensordot", x1, x2)
    x1, x2 = _cast(x1, d), _cast(x2, d)
    free1 = [i for i in range(n1) if i not in a1]
    free2 = [i for i in range(n2) if i not in a2]
    r = _matmul(_as_matrix(x1, free1, a1), _as_matrix(x2, a2, free2))
    out_shape = [x1.shape[i] for i in free1] + [x2.shape[i] for i in free2]
    strides, acc = [], 1
    for n in reversed(out_shape):
        strides.append(acc)
        acc *= n
    return r._view(out_shape, strides[::-1], 0)


def vecdot(x1, x2, /, *, axis=-1):
    """Dot product of vectors along `axis`: sum(conj(x1) * x2) (x1 is conjugated for complex
    dtypes).  The other axes broadcast; the contracted axes must have equal sizes
    (ValueError).  `axis` counts from the end for negative values, as the standard requires.
    """
    _check_arrays("vecdot", x1, x2)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"vecdot: axis must be an int, got {type(axis).__name__}")
    n = min(x1.ndim, x2.ndim)
    if n == 0:
        raise ValueError("vecdot: operands must have at least one dimension, got shapes "
                         f"{x1.shape} and {x2.shape}")
    if not -n <= axis < n:
        raise ValueError(f"vecdot: axis {axis} is out of bounds for arrays of {x1.ndim} and "
                         f"{x2.ndim} dimensions")
    d = _common_dtype("vecdot", x1, x2)
    x1, x2 = _cast(x1, d), _cast(x2, d)

    def last(x):
        ax = axis % x.ndim
        if ax == x.ndim - 1:
            return x
        order = [i for i in range(x.ndim) if i != ax] + [ax]
        return _permuted(x, order)

    return _native.vecdot_last(last(x1), last(x2))
