"""L3: derivative and batching rules of the linear algebra ops (matmul, matrix_transpose,
tensordot, vecdot).

The products are bilinear: jvp = op(t1, x2) + op(x1, t2).  The vjps follow PyTorch for
complex inputs (conjugate Wirtinger): matmul gives g @ conj(x2)^T and conj(x1)^T @ g;
vecdot(x1, x2) = sum(conj(x1) * x2) is conjugate-linear in x1, whose cotangent is
conj(g) * x2.  Cotangents come back with the broadcast batch dimensions; fit_cotangent sums
them (matmul folds them into the product instead when the other operand has none, which
saves a batch-sized intermediate).

Batching is one call of the op: a vmap of matmul is one batched matmul (per-example vectors
become rows/columns of a matrix), a vmap of tensordot treats the batch axis as a free axis,
or, when both operands are batched, is one batched matmul of the operands viewed as
matrices.
"""

from __future__ import annotations

import math

from ..._core.op_table import OPS
from .. import batching as _b
from .base import _sum_terms, define
from .linear import bilinear_jvp

xp = None  # set by install()


def _conj(x):
    return xp.conj(x) if x.dtype.kind == "c" else x


def _pad_after_batch(x, rank):
    extra = rank - (x.ndim - 1)
    if extra <= 0:
        return x
    return xp.reshape(x, (x.shape[0],) + (1,) * extra + tuple(x.shape[1:]))


# --- matmul -------------------------------------------------------------------------------

def _matmul_vjp(g, args, kwargs, out, needs):
    x1, x2 = args
    v1, v2 = x1.ndim == 1, x2.ndim == 1
    res = {}
    # A matrix-vector product's vector cotangent is one product with g (no 1-column
    # matrices): under vmap the batch of g becomes the rows/columns of one gemm.
    if v2 and x1.ndim == 2 and (1, None) in needs:
        res[1] = xp.matmul(g, _conj(x1))        # (n,) @ (n, k)
        needs = needs - {(1, None)}
    if v1 and x2.ndim == 2 and (0, None) in needs:
        res[0] = xp.matmul(_conj(x2), g)        # (k, p) @ (p,)
        needs = needs - {(0, None)}
    if not needs:
        return res
    # 1-D operands as a row (x1) and a column (x2); g gets the dimensions they dropped.
    a = xp.expand_dims(x1, axis=0) if v1 else x1
    b = xp.expand_dims(x2, axis=-1) if v2 else x2
    if v1 and v2:
        gm = xp.reshape(g, (1, 1))
    elif v1:
        gm = xp.expand_dims(g, axis=-2)
    elif v2:
        gm = xp.expand_dims(g, axis=-1)
    else:
        gm = g
    if (0, None) in needs:
        bh = xp.matrix_transpose(_conj(b))
        if b.ndim > 2 and a.ndim == 2:
            # x1 is one matrix used by every batch of x2: sum over the batch inside one
            # product, (n, batch*p) @ (batch*p, k).
            k = b.shape[-2]
            n = gm.shape[-2]
            gf = xp.reshape(xp.moveaxis(gm, -2, 0), (n, -1))
            ct1 = xp.matmul(gf, xp.reshape(bh, (-1, k)))
        else:
            ct1 = xp.matmul(gm, bh)
        res[0] = ct1[..., 0, :] if v1 else ct1
    if (1, None) in needs:
        ah = _conj(a)
        if a.ndim > 2 and b.ndim == 2:
            # x2 is one matrix used by every batch of x1: (k, batch*n) @ (batch*n, p).
            k = a.shape[-1]
            p = gm.shape[-1]
            ct2 = xp.matmul(xp.matrix_transpose(xp.reshape(ah, (-1, k))),
                            xp.reshape(gm, (-1, p)))
        else:
            ct2 = xp.matmul(xp.matrix_transpose(ah), gm)
        res[1] = ct2[..., 0] if v2 else ct2
    return res


def _matmul_batch(args, kwargs, dims, size):
    x1, x2 = args
    b1, b2 = dims.get(0), dims.get(1)
    if b2 is None:
        x1b = _b.to_front(x1, b1)
        if x1b.ndim == 2:
            # Per-example vectors: the batch is the rows of one matrix.
            out = xp.matmul(x1b, x2)
            return out, (0 if x2.ndim == 1 else out.ndim - 2)
        # Matrices: the batch axis in front of the (aligned) broadcast dimensions.
        return xp.matmul(_pad_after_batch(x1b, x2.ndim), x2), 0
    if b1 is None:
        x2b = _b.to_front(x2, b2)
        if x2b.ndim == 2:
            # Per-example vectors: one gemm, the batch as the rows of x2b @ x1^T (batch axis
            # in front, where the next elementwise op wants it) or, when x1 has batch
            # dimensions of its own, as the columns of x1 @ x2b^T.
            if x1.ndim == 2:
                return xp.matmul(x2b, xp.matrix_transpose(x1)), 0
            out = xp.matmul(x1, xp.matrix_transpose(x2b))
            return out, out.ndim - 1
        if x1.ndim == 2 and x2b.ndim == 3:
            # One matrix times a batch of matrices: one gemm with the batch folded into the
            # columns, (n, k) @ (k, B*p), instead of B small products.
            p = x2b.shape[2]
            if p == 1:  # columns: (B, k) @ (k, n) gives the batch as rows
                return xp.expand_dims(xp.matmul(x2b[:, :, 0], xp.matrix_transpose(x1)),
                                      axis=-1), 0
            cols = xp.reshape(xp.moveaxis(x2b, 0, 1), (x2b.shape[1], size * p))
            return xp.reshape(xp.matmul(x1, cols), (x1.shape[0], size, p)), 1
        return xp.matmul(x1, _pad_after_batch(x2b, x1.ndim)), 0
    # Both batched: per-example vectors as 1-row / 1-column matrices, batch dims aligned.
    x1b, x2b = _b.to_front(x1, b1), _b.to_front(x2, b2)
    v1, v2 = x1b.ndim == 2, x2b.ndim == 2
    if v1:
        x1b = xp.expand_dims(x1b, axis=1)
    if v2:
        x2b = xp.expand_dims(x2b, axis=-1)
    rank = max(x1b.ndim, x2b.ndim) - 1
    out = xp.matmul(_pad_after_batch(x1b, rank), _pad_after_batch(x2b, rank))
    drop = ((-2,) if v1 else ()) + ((-1,) if v2 else ())
    if drop:
        out = xp.squeeze(out, axis=drop)
    return out, 0


def _matmul_rules(op):
    define(op, bilinear_jvp(op), _matmul_vjp, _matmul_batch, saves=[0, 1])


# --- matrix_transpose ---------------------------------------------------------------------

def _matrix_transpose_rules(op):
    def jvp(args, kwargs, t, out):
        return xp.matrix_transpose(t[0])

    def vjp(g, args, kwargs, out, needs):
        return {0: xp.matrix_transpose(g)}

    def batch(args, kwargs, dims, size):
        x, d = args[0], dims[0]
        if d < x.ndim - 2:
            return xp.matrix_transpose(x), d
        return xp.matrix_transpose(_b.to_front(x, d)), 0

    define(op, jvp, vjp, batch, saves=[])


# --- tensordot ----------------------------------------------------------------------------

def _td_axes(axes, n1, n2):
    """(contracted axes of x1, of x2) as lists of non-negative ints, paired in order."""
    if isinstance(axes, int):
        return list(range(n1 - axes, n1)), list(range(axes))
    s1, s2 = axes
    s1 = (s1,) if isinstance(s1, int) else s1
    s2 = (s2,) if isinstance(s2, int) else s2
    return [a % n1 for a in s1], [a % n2 for a in s2]


def _order_to(labels):
    """The permutation putting axes labelled `labels` (a permutation of range(n)) in order."""
    return tuple(labels.index(i) for i in range(len(labels)))


def _tensordot_vjp(g, args, kwargs, out, needs):
    x1, x2 = args
    n1, n2 = x1.ndim, x2.ndim
    a1, a2 = _td_axes(kwargs.get("axes", 2), n1, n2)
    free1 = [i for i in range(n1) if i not in a1]
    free2 = [i for i in range(n2) if i not in a2]
    f1 = len(free1)
    res = {}
    if (0, None) in needs:
        # Contract g's x2 part with conj(x2)'s free axes; x2's contracted axes remain, in
        # x2's order, each standing for the x1 axis it was paired with.
        ct = xp.tensordot(g, _conj(x2), axes=(list(range(f1, g.ndim)), free2))
        labels = free1 + [a1[a2.index(j)] for j in sorted(a2)]
        res[0] = xp.permute_dims(ct, _order_to(labels))
    if (1, None) in needs:
        ct = xp.tensordot(_conj(x1), g, axes=(free1, list(range(f1))))
        labels = [a2[a1.index(j)] for j in sorted(a1)] + free2
        res[1] = xp.permute_dims(ct, _order_to(labels))
    return res


def _tensordot_batch(args, kwargs, dims, size):
    x1, x2 = args
    b1, b2 = dims.get(0), dims.get(1)
    n1 = x1.ndim - (b1 is not None)
    n2 = x2.ndim - (b2 is not None)
    a1, a2 = _td_axes(kwargs.get("axes", 2), n1, n2)
    if b2 is None:  # the batch axis is one more free axis of x1, the first
        x1b = _b.to_front(x1, b1)
        return xp.tensordot(x1b, x2, axes=([a + 1 for a in a1], a2)), 0
    if b1 is None:  # a free axis of x2: after x1's free axes
        x2b = _b.to_front(x2, b2)
        return xp.tensordot(x1, x2b, axes=(a1, [a + 1 for a in a2])), n1 - len(a1)
    # Both batched: one batched matmul of (B, free1, contracted) @ (B, contracted, free2).
    x1b, x2b = _b.to_front(x1, b1), _b.to_front(x2, b2)
    free1 = [i for i in range(n1) if i not in a1]
    free2 = [i for i in range(n2) if i not in a2]
    s1 = [x1b.shape[1 + i] for i in free1]
    s2 = [x2b.shape[1 + i] for i in free2]
    k = math.prod(x1b.shape[1 + i] for i in a1)
    m1 = xp.reshape(xp.permute_dims(x1b, tuple([0] + [1 + i for i in free1 + a1])),
                    (size, math.prod(s1), k))
    m2 = xp.reshape(xp.permute_dims(x2b, tuple([0] + [1 + i for i in a2 + free2])),
                    (size, k, math.prod(s2)))
    return xp.reshape(xp.matmul(m1, m2), tuple([size] + s1 + s2)), 0


def _tensordot_rules(op):
    define(op, bilinear_jvp(op), _tensordot_vjp, _tensordot_batch, saves=[0, 1])


# --- vecdot -------------------------------------------------------------------------------

def _vecdot_axis(x1, x2, axis):
    """vecdot's axis counted from the end of the broadcast shape."""
    if axis < 0:
        return axis
    return axis % x1.ndim - x1.ndim


def _vecdot_vjp(g, args, kwargs, out, needs):
    x1, x2 = args
    ax = _vecdot_axis(x1, x2, kwargs.get("axis", -1))
    ge = xp.expand_dims(g, axis=ax)
    res = {}
    if (0, None) in needs:
        res[0] = _conj(ge) * x2
    if (1, None) in needs:
        res[1] = ge * x1
    return res


def _vecdot_batch(args, kwargs, dims, size):
    x1, x2 = args
    b1, b2 = dims.get(0), dims.get(1)
    n1 = x1.ndim - (b1 is not None)
    n2 = x2.ndim - (b2 is not None)
    axis = kwargs.get("axis", -1)
    ax = axis if axis < 0 else axis % n1 - n1
    rank = max(n1, n2)
    # Batch first and ranks aligned, so the per-example shapes broadcast as before.
    y1 = _pad_after_batch(_b.to_front(x1, b1), rank) if b1 is not None else x1
    y2 = _pad_after_batch(_b.to_front(x2, b2), rank) if b2 is not None else x2
    return xp.vecdot(y1, y2, axis=ax), 0


def _vecdot_rules(op):
    define(op, bilinear_jvp(op), _vecdot_vjp, _vecdot_batch, saves=[0, 1])


def install():
    _matmul_rules(OPS["matmul"])
    _matrix_transpose_rules(OPS["matrix_transpose"])
    _tensordot_rules(OPS["tensordot"])
    _vecdot_rules(OPS["vecdot"])


__all__ = ["install"]
