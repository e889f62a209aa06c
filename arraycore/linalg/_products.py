"""Products and views: diagonal, trace, cross, outer, multi_dot (NumPy's, optimal chain
order), vander (PyTorch's), tensorinv and tensorsolve (NumPy's)."""

from __future__ import annotations

import math

from ._common import Array, check_array, check_int, check_matrix, la, xp

__all__ = ["diagonal", "trace", "cross", "outer", "multi_dot", "vander", "tensorinv",
           "tensorsolve"]


def diagonal(x, /, *, offset=0):
    """The `offset`-th diagonal of each matrix in x (..., M, N), shape (..., K): offset > 0
    above the main diagonal, < 0 below.  A view sharing x's memory."""
    check_array(x, "diagonal")
    check_matrix(x, "diagonal")
    offset = check_int(offset, "diagonal", "offset")
    m, n = x.shape[-2:]
    s0, s1 = x._strides[-2:]
    if offset >= 0:
        k, start = max(0, min(m, n - offset)), offset * s1
    else:
        k, start = max(0, min(m + offset, n)), -offset * s0
    if k == 0:
        start = 0
    return x._view(list(x.shape[:-2]) + [k], list(x._strides[:-2]) + [s0 + s1], start)


def trace(x, /, *, offset=0, dtype=None):
    """Sum of the `offset`-th diagonal of each matrix in x (..., M, N), shape (...).  dtype:
    as the standard's `sum` (None keeps floating dtypes and widens small integers to the
    default integer of their signedness)."""
    check_array(x, "trace")
    check_matrix(x, "trace")
    if x.dtype.kind == "b":
        raise TypeError(f"trace: expected a numeric array, got dtype {x.dtype}")
    return xp.sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def _numeric_pair(name, x1, x2):
    check_array(x1, name, "x1")
    check_array(x2, name, "x2")
    for x in (x1, x2):
        if x.dtype.kind == "b":
            raise TypeError(f"{name}: expected numeric arrays, got dtype {x.dtype}")
    d = xp.result_type(x1, x2)
    return xp.astype(x1, d, copy=False), xp.astype(x2, d, copy=False)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors along `axis` (the same axis of both, counted from
    the end for negative values; it must have size 3 in both and is not broadcast); the
    other axes broadcast.  Numeric dtypes, promoted as result_type."""
    x1, x2 = _numeric_pair("cross", x1, x2)
    axis = check_int(axis, "cross", "axis")
    nd = min(x1.ndim, x2.ndim)
    if nd == 0 or not -nd <= axis < nd:
        raise ValueError(f"cross: axis {axis} is out of bounds for arrays of shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}")
    if axis >= 0:  # NumPy counts a non-negative axis from the start of each operand
        a1, a2 = axis, axis
    else:
        a1, a2 = x1.ndim + axis, x2.ndim + axis
    if x1.shape[a1] != 3 or x2.shape[a2] != 3:
        raise ValueError(f"cross: the vectors along axis {axis} must have 3 elements, got "
                         f"shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
    u = xp.moveaxis(x1, a1, -1)
    v = xp.moveaxis(x2, a2, -1)
    try:
        xp.broadcast_shapes(tuple(u.shape[:-1]), tuple(v.shape[:-1]))
    except ValueError:
        raise ValueError(f"cross: shapes {tuple(x1.shape)} and {tuple(x2.shape)} do not "
                         f"broadcast outside axis {axis}") from None
    c = xp.stack([u[..., 1] * v[..., 2] - u[..., 2] * v[..., 1],
                  u[..., 2] * v[..., 0] - u[..., 0] * v[..., 2],
                  u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]], axis=-1)
    return xp.moveaxis(c, -1, axis if axis < 0 else (a1 if x1.ndim >= x2.ndim else a2))


def outer(x1, x2, /):
    """Outer product of two 1-D arrays: shape (N, M), out[i, j] = x1[i] * x2[j]."""
    x1, x2 = _numeric_pair("outer", x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: expected 1-D arrays, got shapes {tuple(x1.shape)} and "
                         f"{tuple(x2.shape)}")
    return xp.reshape(x1, (-1, 1)) * xp.reshape(x2, (1, -1))


def multi_dot(arrays, *, out=None):
    """Matrix product of a sequence of arrays in the cheapest association order (NumPy's
    `multi_dot`: the textbook dynamic program over the chain's shapes).  The first array may
    be 1-D (a row vector) and the last 1-D (a column vector); the others must be 2-D.
    `out`, if given, receives the result (and is returned)."""
    arrays = list(arrays)
    n = len(arrays)
    if n < 2:
        raise ValueError(f"multi_dot: expected at least two arrays, got {n}")
    for i, a in enumerate(arrays):
        check_array(a, "multi_dot", f"arrays[{i}]")
    first, last = arrays[0], arrays[-1]
    if first.ndim == 1:
        arrays[0] = xp.reshape(first, (1, -1))
    if last.ndim == 1:
        arrays[-1] = xp.reshape(last, (-1, 1))
    for i, a in enumerate(arrays):
        if a.ndim != 2:
            raise ValueError(f"multi_dot: arrays[{i}] has {a.ndim} dimensions; only the first "
                             f"and last may be 1-D, the others must be 2-D")
    for i in range(n - 1):
        if arrays[i].shape[1] != arrays[i + 1].shape[0]:
            raise ValueError(f"multi_dot: shapes {tuple(arrays[i].shape)} (arrays[{i}]) and "
                             f"{tuple(arrays[i + 1].shape)} (arrays[{i + 1}]) are not aligned")
    if n == 2:
        result = xp.matmul(arrays[0], arrays[1])
    else:
        split = _chain_order([a.shape[0] for a in arrays] + [arrays[-1].shape[1]])
        result = _chain_product(arrays, split, 0, n - 1)
    if first.ndim == 1 and last.ndim == 1:
        result = result[0, 0]
    elif first.ndim == 1:
        result = result[0, :]
    elif last.ndim == 1:
        result = result[:, 0]
    if out is not None:
        if not isinstance(out, Array):
            raise TypeError(f"multi_dot: out must be an array, got {type(out).__name__}")
        if tuple(out.shape) != tuple(result.shape) or out.dtype != result.dtype:
            raise ValueError(f"multi_dot: out must have shape {tuple(result.shape)} and dtype "
                             f"{result.dtype}, got {tuple(out.shape)} and {out.dtype}")
        out[...] = result
        return out
    return result


def _chain_order(p):
    """split[i][j]: where the cheapest product of matrices i..j splits (p: the n + 1 sizes)."""
    n = len(p) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if best is None or c < best:
                    best, split[i][j] = c, k
            cost[i][j] = best
    return split


def _chain_product(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return xp.matmul(_chain_product(arrays, split, i, k), _chain_product(arrays, split, k + 1, j))


def vander(x, /, *, N=None):
    """Vandermonde matrices (PyTorch's `linalg.vander`): for x (..., n), shape (..., n, N) with
    columns x^0, x^1, ..., x^(N-1) (increasing powers); N defaults to n.  Integer inputs keep
    their dtype (powers wrap as products do)."""
    check_array(x, "vander")
    if x.dtype.kind == "b":
        raise TypeError("vander: expected a numeric array, got dtype bool")
    if x.ndim < 1:
        raise ValueError("vander: x must have at least one dimension, got a 0-d array")
    n = x.shape[-1]
    N = n if N is None else check_int(N, "vander", "N")
    if N < 0:
        raise ValueError(f"vander: N must be non-negative, got {N}")
    shape = tuple(x.shape) + (N,)
    if N <= 1:
        return xp.ones(shape, dtype=x.dtype)
    col = x[..., None]
    ones = xp.ones(tuple(x.shape) + (1,), dtype=x.dtype)
    # x^k as a running product (exact for integers, one rounding per step for floats).
    return xp.cumulative_prod(xp.concat([ones] + [col] * (N - 1), axis=-1), axis=-1,
                              dtype=x.dtype)


def tensorinv(a, ind=2):
    """NumPy's `tensorinv`: the inverse of a with respect to tensordot over its first `ind`
    axes: a reshaped to a (prod(shape[:ind]), prod(shape[ind:])) square matrix, inverted, and
    reshaped to shape[ind:] + shape[:ind]."""
    check_array(a, "tensorinv", "a")
    ind = check_int(ind, "tensorinv", "ind")
    if ind <= 0:
        raise ValueError(f"tensorinv: ind must be a positive integer, got {ind}")
    shape = tuple(a.shape)
    rows, cols = math.prod(shape[:ind]), math.prod(shape[ind:])
    if rows != cols:
        raise ValueError(f"tensorinv: a of shape {shape} is not square for ind={ind} "
                         f"({rows} x {cols})")
    inv = la.inv(xp.reshape(a, (rows, cols)))
    return xp.reshape(inv, shape[ind:] + shape[:ind])


def tensorsolve(a, b, axes=None):
    """NumPy's `tensorsolve`: x with tensordot(a, x, axes=x.ndim) = b.  x has shape
    a.shape[b.ndim:]; `axes` lists axes of a moved to the end first."""
    check_array(a, "tensorsolve", "a")
    check_array(b, "tensorsolve", "b")
    if axes is not None:
        axes = [check_int(v, "tensorsolve", "axes") % a.ndim for v in axes]
        rest = [i for i in range(a.ndim) if i not in axes]
        a = xp.permute_dims(a, tuple(rest + axes))
    x_shape = tuple(a.shape[b.ndim:]) if b.ndim < a.ndim else ()
    n = math.prod(x_shape)
    if math.prod(tuple(b.shape)) != n or math.prod(tuple(a.shape)) != n * n:
        raise ValueError(f"tensorsolve: a of shape {tuple(a.shape)} is not square for b of "
                         f"shape {tuple(b.shape)} (a must reshape to a "
                         f"{math.prod(tuple(b.shape))}x{n} matrix)")
    x = la.solve(xp.reshape(a, (n, n)), xp.reshape(b, (n,)))
    return xp.reshape(x, x_shape)
