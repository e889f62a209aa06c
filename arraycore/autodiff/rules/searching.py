"""L3: derivative and batching rules of the searching, sorting and sets families.

Differentiable: `where` (in x1 and x2; the condition only selects) and `sort` (a
permutation of x: the jvp gathers the tangent through `argsort`, the vjp gathers g through
the inverse permutation `argsort(argsort(x))`, both with take_along_axis, so the rules are
themselves differentiable and batchable).  Every other op has integer or bool results
(argmax, argmin, count_nonzero, nonzero, searchsorted, argsort, isin) or is declared
non-differentiable (the unique_* family): only batching rules.

Batching moves the batch axis to the front and shifts `axis` by one (axis=None: all
per-example axes, flattened for argmax/argmin).  `nonzero` and `unique_*` have
data-dependent shapes, so a batch of them is not an array: they raise ValueError under vmap.
"""

from __future__ import annotations

import math
import operator

from ..._core.op_table import OPS
from .. import batching as _b
from .base import define, define_nondiff, elementwise_batch

xp = None  # set by install()


def _is_arr(v):
    return hasattr(v, "shape")


def _shift(axis, nd, who):
    """A per-example axis (of an example of rank nd) as an axis of the batch-first array."""
    a = operator.index(axis)
    if not -nd <= a < nd:
        raise ValueError(f"{who}: axis {a} is out of bounds for an array of dimension {nd}")
    return a % nd + 1


def _per_example_shape(xb):
    return tuple(xb.shape[1:])


# --- where ------------------------------------------------------------------------------------

def _where_rules(op):
    def jvp(args, kwargs, t, out):
        cond = args[0]
        r = xp.where(cond, t.get(1, 0.0), t.get(2, 0.0))
        if tuple(r.shape) != tuple(out.shape):
            r = xp.broadcast_to(r, tuple(out.shape))
        return r if r.dtype == out.dtype else xp.astype(r, out.dtype)

    def vjp(g, args, kwargs, out, needs):
        cond = args[0]
        res = {}
        if (1, None) in needs:
            res[1] = xp.where(cond, g, 0.0)
        if (2, None) in needs:
            res[2] = xp.where(cond, 0.0, g)
        return res

    define(op, jvp, vjp, elementwise_batch(op), saves=[0])


# --- sort, argsort ----------------------------------------------------------------------------

def _sort_axis(x, kwargs):
    return operator.index(kwargs.get("axis", -1)) % max(x.ndim, 1)


def _sort_rules(op):
    def perm(args, kwargs):
        x = args[0]
        axis = _sort_axis(x, kwargs)
        p = xp.argsort(x, axis=axis, descending=bool(kwargs.get("descending", False)),
                       stable=True)
        return p, axis

    def jvp(args, kwargs, t, out):
        p, axis = perm(args, kwargs)
        return xp.take_along_axis(t[0], p, axis=axis)

    def vjp(g, args, kwargs, out, needs):
        p, axis = perm(args, kwargs)
        inv = xp.argsort(p, axis=axis)  # where each input element went
        return {0: xp.take_along_axis(g, inv, axis=axis)}

    define(op, jvp, vjp, _axis_batch(op), saves=[0])


def _axis_batch(op, default=-1):
    """Batching rule of ops taking (x, /, *, axis=<int>, ...) and keeping x's shape or
    reducing one axis."""
    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        kw = dict(kwargs)
        nd = xb.ndim - 1
        if nd == 0:
            raise ValueError(f"{op.name}: expected an array of at least one dimension, got "
                             "a 0-d array")
        kw["axis"] = _shift(kwargs.get("axis", default), nd, op.name)
        return op.public(xb, **kw), 0
    return batch


# --- argmax, argmin, count_nonzero ------------------------------------------------------------

def _arg_extreme_batch(op):
    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        nd = xb.ndim - 1
        axis = kwargs.get("axis")
        keepdims = bool(kwargs.get("keepdims", False))
        if axis is not None:
            return op.public(xb, axis=_shift(axis, nd, op.name), keepdims=keepdims), 0
        # axis=None searches each example's flattened elements.
        flat = xp.reshape(xb, (size, math.prod(_per_example_shape(xb))))
        r = op.public(flat, axis=1, keepdims=keepdims)
        if keepdims:
            r = xp.reshape(r, (size,) + (1,) * nd)
        return r, 0
    return batch


def _count_nonzero_batch(op):
    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        nd = xb.ndim - 1
        kw = dict(kwargs)
        axis = kwargs.get("axis")
        if axis is None:
            kw["axis"] = tuple(range(1, nd + 1))
        elif isinstance(axis, (tuple, list)):
            kw["axis"] = tuple(_shift(a, nd, op.name) for a in axis)
        else:
            kw["axis"] = _shift(axis, nd, op.name)
        return op.public(xb, **kw), 0
    return batch


# --- searchsorted -----------------------------------------------------------------------------

def _positions(keys, axis):
    """Where each element along `axis` lands in the stable sort of `keys` (the inverse of
    the argsort permutation)."""
    return xp.argsort(xp.argsort(keys, axis=axis, stable=True), axis=axis, stable=True)


def _batched_searchsorted(x1b, v, side):
    """searchsorted of each row of x1b (size, n) for the values v (size, m), as one stable
    sort of each row of [v, x1] ('left': v first, so a value goes before equal elements of
    x1) or [x1, v] ('right'): a value's rank in that sort minus its rank among the values is
    the number of x1 elements before it, which is its insertion index in the sorted x1."""
    m = v.shape[1]
    n = x1b.shape[1]
    left = side == "left"
    joined = xp.concat([v, x1b] if left else [x1b, v], axis=1)
    pos = _positions(joined, 1)
    pos_v = pos[:, :m] if left else pos[:, n:]
    return pos_v - _positions(v, 1)


def _searchsorted_batch(op):
    def batch(args, kwargs, dims, size):
        x1, x2 = args
        side = kwargs.get("side", "left")
        if 0 not in dims and "sorter" not in dims:
            # Only the values are batched: elementwise in x2.
            return op.public(x1, x2, **kwargs), dims[1]
        # The sorted rows vary: a sort per row of [values, x1] (the sorter is not needed:
        # the count of x1 elements before a value does not depend on x1's order).
        x1b = _b.materialize(x1, dims.get(0), size)
        if _is_arr(x2):
            x2b = _b.materialize(x2, dims.get(1), size)
        else:
            x2b = xp.full((size,), x2, dtype=xp.result_type(x1b.dtype, x2))
        if x1b.ndim != 2:  # let the op raise its own error
            return op.public(x1b, x2b, **kwargs), None
        dt = xp.result_type(x1b.dtype, x2b.dtype)
        x1b, x2b = xp.astype(x1b, dt), xp.astype(x2b, dt)
        shape = _per_example_shape(x2b)
        v = xp.reshape(x2b, (size, math.prod(shape)))
        r = _batched_searchsorted(x1b, v, side)
        return xp.reshape(r, (size,) + shape), 0
    return batch


# --- sets -------------------------------------------------------------------------------------

def _isin_batch(op):
    def batch(args, kwargs, dims, size):
        x1, x2 = args
        if 1 not in dims:
            return op.public(x1, x2, **kwargs), dims[0]
        # Each example has its own set x2: compare every x1 element with every x2 element
        # of its example (equality is isin's notion of membership: NaN is in nothing).
        x2b = _b.to_front(x2, dims[1])
        flat2 = xp.reshape(x2b, (size, math.prod(_per_example_shape(x2b))))
        if _is_arr(x1):
            x1b = _b.materialize(x1, dims.get(0), size)
        else:
            x1b = xp.full((size,), x1, dtype=xp.result_type(x2b.dtype, x1))
        rank = x1b.ndim - 1
        sets = xp.reshape(flat2, (size,) + (1,) * rank + (flat2.shape[1],))
        found = xp.any(xp.equal(xp.expand_dims(x1b, axis=-1), sets), axis=-1)
        return (xp.logical_not(found) if kwargs.get("invert") else found), 0
    return batch


def _no_batch(op, why):
    def batch(args, kwargs, dims, size):
        raise ValueError(f"vmap: {op.name} cannot be batched: {why}")
    return batch


def install():
    _where_rules(OPS["where"])
    _sort_rules(OPS["sort"])
    define_nondiff(OPS["argsort"], _axis_batch(OPS["argsort"]))
    for name in ("argmax", "argmin"):
        define_nondiff(OPS[name], _arg_extreme_batch(OPS[name]))
    define_nondiff(OPS["count_nonzero"], _count_nonzero_batch(OPS["count_nonzero"]))
    define_nondiff(OPS["nonzero"], _no_batch(
        OPS["nonzero"], "the number of nonzero elements differs from example to example, "
        "so the results do not stack into one array"))
    define_nondiff(OPS["searchsorted"], _searchsorted_batch(OPS["searchsorted"]))
    define_nondiff(OPS["isin"], _isin_batch(OPS["isin"]))
    for name in ("unique_all", "unique_counts", "unique_inverse", "unique_values"):
        define_nondiff(OPS[name], _no_batch(
            OPS[name], "the number of unique values differs from example to example, so "
            "the results do not stack into one array"))


__all__ = ["install"]
