"""L3: derivative and batching rules of the manipulation ops.

Every manipulation op is linear: its jvp is the op applied to the tangents (zeros for the
list entries without one) and its vjp is the transpose, which moves the cotangent back
(flip -> flip, roll -> roll back, permute -> inverse permutation, concat/stack -> slices,
tile/repeat -> sums over the copies).  Broadcasting needs no code: graph.fit_cotangent sums
a cotangent over the dimensions its input was broadcast along.

Batching moves the batch axis to the front (a view) and shifts the axis arguments by one;
each batched op is one call of the op on the bigger array.
"""

from __future__ import annotations

import math

from ..._core.op_table import OPS
from ...native import _native
from .. import batching as _b
from ..tracer import Tracer
from .base import define, define_nondiff
from .linear import linear_jvp
from .indexing import _index_add

xp = None  # set by install()

Array = _native.Array


def _param(args, kwargs, i, name, default=None):
    """Argument `name`, given at position i or as a keyword."""
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def _tuple(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,)


def _shift_axes(axis, nd):
    """Per-example axes (an int or a sequence) as axes of the batch-first array."""
    if isinstance(axis, (tuple, list)):
        return tuple(a % nd + 1 for a in axis)
    return axis % nd + 1


def _along(axis, s):
    return (slice(None),) * axis + (s,)


def _pad_after_batch(x, rank):
    """A batch-first x with length-1 axes after the batch axis, up to per-example `rank`."""
    extra = rank - (x.ndim - 1)
    if extra <= 0:
        return x
    return xp.reshape(x, (x.shape[0],) + (1,) * extra + tuple(x.shape[1:]))


def _per_example_size(xb):
    return math.prod(xb.shape[1:])



# --- ops on one array ---------------------------------------------------------------------

def _unary_jvp(op):
    return linear_jvp(op)  # the op on the tangent (every manipulation op is linear)


def _reshape_back(g, args, kwargs, out, needs):
    return {0: xp.reshape(g, tuple(args[0].shape))}


def _broadcast_to_rules(op):
    def vjp(g, args, kwargs, out, needs):
        return {0: g}  # fit_cotangent sums over the broadcast axes

    def batch(args, kwargs, dims, size):
        shape = _tuple(_param(args, kwargs, 1, "shape"))
        xb = _pad_after_batch(_b.to_front(args[0], dims[0]), len(shape))
        return xp.broadcast_to(xb, (size,) + shape), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[])


def _expand_dims_rules(op):
    def batch(args, kwargs, dims, size):
        x = args[0]
        axis = _param(args, kwargs, 1, "axis", 0)
        out_nd = x.ndim - 1 + len(_tuple(axis))
        return xp.expand_dims(_b.to_front(x, dims[0]), axis=_shift_axes(axis, out_nd)), 0

    define(op, _unary_jvp(op), _reshape_back, batch, saves=[])


def _squeeze_rules(op):
    def batch(args, kwargs, dims, size):
        x = args[0]
        axis = _param(args, kwargs, 1, "axis")
        return xp.squeeze(_b.to_front(x, dims[0]), axis=_shift_axes(axis, x.ndim - 1)), 0

    define(op, _unary_jvp(op), _reshape_back, batch, saves=[])


def _reshape_rules(op):
    def batch(args, kwargs, dims, size):
        shape = _tuple(_param(args, kwargs, 1, "shape"))
        copy = kwargs.get("copy")
        return xp.reshape(_b.to_front(args[0], dims[0]), (size,) + shape, copy=copy), 0

    define(op, _unary_jvp(op), _reshape_back, batch, saves=[])


def _flip_rules(op):
    def vjp(g, args, kwargs, out, needs):
        return {0: xp.flip(g, **kwargs)}

    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        axis = kwargs.get("axis")
        axes = tuple(range(1, xb.ndim)) if axis is None else _shift_axes(axis, xb.ndim - 1)
        return xp.flip(xb, axis=axes), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[])


def _triangle_rules(op):
    """tril/triu keep a triangle and zero the rest: the mask is its own transpose, and it acts
    on the last two axes only, so a batch axis in front is carried through."""
    def vjp(g, args, kwargs, out, needs):
        return {0: getattr(xp, op.name)(g, **kwargs)}

    def batch(args, kwargs, dims, size):
        return getattr(xp, op.name)(_b.to_front(args[0], dims[0]), **kwargs), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[])


def _moveaxis_rules(op):
    def vjp(g, args, kwargs, out, needs):
        src = _param(args, kwargs, 1, "source")
        dst = _param(args, kwargs, 2, "destination")
        return {0: xp.moveaxis(g, dst, src)}

    def batch(args, kwargs, dims, size):
        x = args[0]
        nd = x.ndim - 1
        src = _shift_axes(_param(args, kwargs, 1, "source"), nd)
        dst = _shift_axes(_param(args, kwargs, 2, "destination"), nd)
        return xp.moveaxis(_b.to_front(x, dims[0]), src, dst), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[])


def _permute_dims_rules(op):
    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        axes = [a % x.ndim for a in _param(args, kwargs, 1, "axes")]
        inv = [0] * len(axes)
        for i, a in enumerate(axes):
            inv[a] = i
        return {0: xp.permute_dims(g, tuple(inv))}

    def batch(args, kwargs, dims, size):
        x = args[0]
        axes = _param(args, kwargs, 1, "axes")
        perm = (0,) + _shift_axes(tuple(axes), x.ndim - 1)
        return xp.permute_dims(_b.to_front(x, dims[0]), perm), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[])


def _roll_rules(op):
    def vjp(g, args, kwargs, out, needs):
        shift = _param(args, kwargs, 1, "shift")
        back = tuple(-s for s in shift) if isinstance(shift, (tuple, list)) else -shift
        return {0: xp.roll(g, back, axis=kwargs.get("axis"))}

    def batch(args, kwargs, dims, size):
        x = args[0]
        shift = _param(args, kwargs, 1, "shift")
        axis = kwargs.get("axis")
        xb = _b.to_front(x, dims[0])
        if axis is None:  # rolls each example's flattened elements
            flat = xp.reshape(xb, (size, _per_example_size(xb)))
            return xp.reshape(xp.roll(flat, shift, axis=1), tuple(xb.shape)), 0
        return xp.roll(xb, shift, axis=_shift_axes(axis, x.ndim - 1)), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[])


def _tile_rules(op):
    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        reps = _tuple(_param(args, kwargs, 1, "repetitions"))
        nd = max(len(reps), x.ndim)
        reps = (1,) * (nd - len(reps)) + reps
        xs = (1,) * (nd - x.ndim) + tuple(x.shape)
        # out index along d is r * n + i: split each axis into (copy, element), sum copies.
        inter = []
        for r, n in zip(reps, xs):
            inter += [r, n]
        s = xp.sum(xp.reshape(g, tuple(inter)), axis=tuple(range(0, 2 * nd, 2)))
        return {0: xp.reshape(s, tuple(x.shape))}

    def batch(args, kwargs, dims, size):
        x = args[0]
        reps = _tuple(_param(args, kwargs, 1, "repetitions"))
        pe = x.ndim - 1
        nd = max(len(reps), pe)
        reps = (1,) * (nd - len(reps)) + reps
        xb = _pad_after_batch(_b.to_front(x, dims[0]), nd)
        return xp.tile(xb, (1,) + reps), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[])


def _repeat_rules(op):
    def vjp(g, args, kwargs, out, needs):
        x, repeats = args[0], args[1]
        axis = kwargs.get("axis")
        base = (x.size,) if axis is None else tuple(x.shape)
        ax = 0 if axis is None else axis % x.ndim
        n = base[ax]
        r = repeats
        if isinstance(r, (Array, Tracer)) and (r.ndim == 0 or r.shape[0] == 1):
            r = int(r if r.ndim == 0 else r[0])
        if not isinstance(r, (Array, Tracer)):
            # Each element is followed by its r - 1 copies: sum them.
            r = int(r)
            g2 = xp.reshape(g, base[:ax] + (n, r) + base[ax + 1:])
            ct = xp.sum(g2, axis=ax + 1)
        else:
            # Per-element counts: output element j copies element seg[j]; add the segments.
            seg = xp.repeat(xp.arange(n, dtype=xp.int64), r)
            ct = _index_add(n, ax, seg, g)
        return {0: xp.reshape(ct, tuple(x.shape))}

    def batch(args, kwargs, dims, size):
        if 1 in dims:
            raise NotImplementedError(
                "vmap: repeat with counts that vary over the batch gives results of "
                "different shapes per example")
        x, repeats = args[0], args[1]
        axis = kwargs.get("axis")
        xb = _b.to_front(x, dims[0])
        if axis is None:
            xb = xp.reshape(xb, (size, _per_example_size(xb)))
            ax = 1
        else:
            ax = _shift_axes(axis, x.ndim - 1)
        return xp.repeat(xb, repeats, axis=ax), 0

    define(op, _unary_jvp(op), vjp, batch, saves=[1])


def _unstack_rules(op):
    def jvp(args, kwargs, t, out):
        return list(xp.unstack(t[0], **kwargs))

    def vjp(g, args, kwargs, out, needs):
        return {0: xp.stack(list(g), axis=kwargs.get("axis", 0))}

    def batch(args, kwargs, dims, size):
        x = args[0]
        ax = _shift_axes(kwargs.get("axis", 0), x.ndim - 1)
        return xp.unstack(_b.to_front(x, dims[0]), axis=ax), 0

    define(op, jvp, vjp, batch, saves=[])


# --- ops on several arrays ----------------------------------------------------------------

def _concat_rules(op):
    jvp = linear_jvp(op)

    def vjp(g, args, kwargs, out, needs):
        arrays = args[0]
        axis = kwargs.get("axis", 0)
        want = {i for (s, i) in needs if s == 0}
        res = [None] * len(arrays)
        start = 0
        for i, a in enumerate(arrays):
            if axis is None:
                n = a.size
                if i in want:
                    res[i] = xp.reshape(g[start:start + n], tuple(a.shape))
            else:
                ax = axis % a.ndim
                n = a.shape[ax]
                if i in want:
                    res[i] = g[_along(ax, slice(start, start + n))]
            start += n
        return {0: res}

    def batch(args, kwargs, dims, size):
        arrays = args[0]
        bd = dims[0]
        axis = kwargs.get("axis", 0)
        items = [_b.materialize(a, d, size) for a, d in zip(arrays, bd)]
        if axis is None:  # each example's arrays flattened, then joined
            items = [xp.reshape(a, (size, _per_example_size(a))) for a in items]
            return xp.concat(items, axis=1), 0
        return xp.concat(items, axis=_shift_axes(axis, items[0].ndim - 1)), 0

    define(op, jvp, vjp, batch, saves=[])


def _stack_rules(op):
    jvp = linear_jvp(op)

    def vjp(g, args, kwargs, out, needs):
        arrays = args[0]
        ax = kwargs.get("axis", 0) % (arrays[0].ndim + 1)
        res = [None] * len(arrays)
        for (s, i) in needs:
            if s == 0:
                res[i] = g[_along(ax, i)]
        return {0: res}

    def batch(args, kwargs, dims, size):
        arrays = args[0]
        items = [_b.materialize(a, d, size) for a, d in zip(arrays, dims[0])]
        ax = _shift_axes(kwargs.get("axis", 0), items[0].ndim)  # per-example rank + 1
        return xp.stack(items, axis=ax), 0

    define(op, jvp, vjp, batch, saves=[])


def _broadcast_arrays_rules(op):
    def jvp(args, kwargs, t, out):
        return [xp.broadcast_to(t[i], tuple(o.shape)) if i in t else None
                for i, o in enumerate(out)]

    def vjp(g, args, kwargs, out, needs):
        return {s: g[s] for (s, _) in needs}

    def batch(args, kwargs, dims, size):
        rank = max(a.ndim - (i in dims) for i, a in enumerate(args))
        items = [_pad_after_batch(_b.to_front(a, dims[i]), rank) if i in dims else a
                 for i, a in enumerate(args)]
        return xp.broadcast_arrays(*items), 0

    define(op, jvp, vjp, batch, saves=[])


def _broadcast_shapes_rules(op):
    # Takes shapes, not arrays: nothing to differentiate or batch.
    def batch(args, kwargs, dims, size):
        return op.public(*args, **kwargs), None

    define_nondiff(op, batch)


def install():
    _broadcast_arrays_rules(OPS["broadcast_arrays"])
    _broadcast_shapes_rules(OPS["broadcast_shapes"])
    _broadcast_to_rules(OPS["broadcast_to"])
    _concat_rules(OPS["concat"])
    _expand_dims_rules(OPS["expand_dims"])
    _flip_rules(OPS["flip"])
    _moveaxis_rules(OPS["moveaxis"])
    _permute_dims_rules(OPS["permute_dims"])
    _repeat_rules(OPS["repeat"])
    _reshape_rules(OPS["reshape"])
    _roll_rules(OPS["roll"])
    _squeeze_rules(OPS["squeeze"])
    _stack_rules(OPS["stack"])
    _tile_rules(OPS["tile"])
    _triangle_rules(OPS["tril"])
    _triangle_rules(OPS["triu"])
    _unstack_rules(OPS["unstack"])


__all__ = ["install"]
