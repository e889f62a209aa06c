"""L3: derivative and batching rules of the indexing ops: `take`, `take_along_axis` and the
array methods `x[key]` (op "getitem") and `x[key] = v` (op "setitem", out of place).

All are linear in the indexed values: the jvp is the op on the tangents.  The vjp of a
gather is a scatter that *adds*: an element picked twice (`x[[0, 0]]`, `take` with repeated
indices) receives the sum of both cotangents, while the out-of-place setitem keeps the last
write.  `_index_add` builds the accumulating scatter from namespace functions (a stable sort
of the positions, a segmented scan, one scatter onto distinct positions), so it is itself
differentiable and batchable.

Batching a gather is one gather on the batched array: the batch axis is indexed by a leading
`slice(None)` when only x is batched, by an `arange(size)` index broadcast against the
batched index arrays otherwise.  NumPy's rule of where advanced-index dimensions land (in
place when the advanced indices are adjacent, first otherwise) decides where the batch axis
ends up; `_Key` works that out from the per-example key.
"""

from __future__ import annotations

import math
import operator

from ..._core.op_table import OPS
from ...native import _native
from .. import batching as _b
from ..tracer import Tracer
from .base import define
from .linear import linear_jvp

xp = None  # set by install()

Array = _native.Array


def _getitem(x, key):
    return OPS["getitem"].public(x, key)


def _setitem(x, key, value):
    return OPS["setitem"].public(x, key, value)


def _is_arr(k):
    return isinstance(k, (Array, Tracer))


# --- keys ---------------------------------------------------------------------------------

def _norm_part(k):
    """A key entry with lists and NumPy values turned into arraycore arrays or Python
    scalars (same meaning as an index)."""
    if k is None or k is Ellipsis or type(k) in (slice, int, bool) or _is_arr(k):
        return k
    dt = getattr(k, "dtype", None)
    if dt is not None and getattr(k, "ndim", None) == 0:  # NumPy scalars
        return bool(k) if dt.kind == "b" else operator.index(k)
    if isinstance(k, (list, tuple)) or dt is not None or hasattr(k, "__array__"):
        a = xp.asarray(k)
        if a.size == 0 and a.dtype.kind == "f":  # [] is an empty integer index
            a = xp.astype(a, xp.int64)
        return a
    return operator.index(k)


def _key_parts(key, kdim=None):
    """(entries, batch dims of the entries) of a key, whatever form it was given in."""
    if type(key) is tuple:
        dims = list(kdim) if isinstance(kdim, (list, tuple)) else [None] * len(key)
        return tuple(_norm_part(k) for k in key), dims
    if type(key) is list and kdim is not None:
        raise NotImplementedError("vmap: a list index containing batched values; pass an "
                                  "array (ac.stack(...)) instead")
    return (_norm_part(key),), [kdim]


def _has_int_array(parts):
    """Whether the key can select one element twice (an integer array of rank >= 1)."""
    return any(_is_arr(k) and k.dtype.kind in "iu" and k.ndim > 0 for k in parts)


class _Key:
    """Where a per-example key puts things (NumPy's rules, as arraycore/_core/indexing.py's
    `_plan` applies them): the advanced view axes, whether they are adjacent, the rank `nb`
    of the broadcast index shape and the number `n_rest` of the other result dimensions."""

    def __init__(self, parts, dims, nd):
        self.parts, self.dims = parts, dims
        self.pe = [k.ndim - (d is not None) if _is_arr(k) else 0
                   for k, d in zip(parts, dims)]
        self.kinds = [self._kind(k, n) for k, n in zip(parts, self.pe)]
        self.adv = any(t in ("arr", "mask", "mask0") for t in self.kinds)
        consumed = 0
        for k, t, n in zip(parts, self.kinds, self.pe):
            consumed += (1 if t in ("int", "arr") or (t == "basic" and type(k) is slice)
                         else n if t == "mask" else 0)
        vd, axes, nb = 0, [], 0
        ellipsis = False
        for k, t, n in zip(parts, self.kinds, self.pe):
            if t == "basic":
                if k is Ellipsis:
                    ellipsis = True
                    vd += nd - consumed
                else:
                    vd += 1
            elif t == "int":
                if self.adv:  # with other advanced indices an int is one of them
                    axes.append(vd)
                    vd += 1
            elif t == "arr":
                axes.append(vd)
                vd += 1
                nb = max(nb, n)
            elif t == "mask":
                axes.extend(range(vd, vd + n))
                vd += n
                nb = max(nb, 1)
            else:  # a 0-d mask: a new axis of length 1 or 0
                axes.append(vd)
                vd += 1
                nb = max(nb, 1)
        if not ellipsis:
            vd += nd - consumed
        self.nb = nb
        self.n_rest = vd - len(axes)
        self.adjacent = axes == list(range(axes[0], axes[0] + len(axes))) if axes else True
        self.p = axes[0] if axes else 0
        self.batched = any(d is not None for d in dims)

    @staticmethod
    def _kind(k, pe_ndim):
        if k is None or k is Ellipsis or type(k) is slice:
            return "basic"
        if type(k) is bool:
            return "mask0"
        if _is_arr(k):
            if k.dtype.kind == "b":
                return "mask0" if pe_ndim == 0 else "mask"
            return "int" if pe_ndim == 0 else "arr"
        return "int"

    @property
    def target_nd(self):
        """Rank of the per-example result x[key]."""
        return self.n_rest + self.nb


def _batched_key(a, size):
    """(key for the batch-first array, perm, bdim): x_b[key] permuted by `perm` (None: as
    is) is the batched result with its batch axis at `bdim`."""
    N = 1 + a.target_nd
    if not a.batched:
        key = (slice(None),) + a.parts
        if a.adv and not a.adjacent:
            # NumPy puts the broadcast index dimensions first, before the batch axis.
            return key, None, a.nb
        return key, None, 0
    parts = []
    for k, d, t, n in zip(a.parts, a.dims, a.kinds, a.pe):
        if t == "mask0":
            raise NotImplementedError("vmap: a 0-d boolean index together with batched "
                                      "index arrays is not supported")
        if t == "mask":
            if d is not None:
                raise NotImplementedError(
                    "vmap: a boolean mask that varies over the batch gives results of "
                    "different shapes per example; use ac.where instead")
            parts.extend(xp.nonzero(k))  # the mask as the coordinates it selects
        elif d is not None:
            k = _b.to_front(k, d)
            parts.append(xp.reshape(k, (size,) + (1,) * (a.nb - n) + tuple(k.shape[1:])))
        else:
            parts.append(k)
    bidx = xp.reshape(xp.arange(size, dtype=xp.int64), (size,) + (1,) * a.nb)
    key = (bidx,) + tuple(parts)
    # The batch index is advanced too, so the index dimensions come first: (B,) + bshape +
    # rest.  Per example they are in place when adjacent: move them after rest[:p].
    if a.adv and a.adjacent and a.p > 0:
        nb, p = a.nb, a.p
        perm = ([0] + list(range(1 + nb, 1 + nb + p)) + list(range(1, 1 + nb)) +
                list(range(1 + nb + p, N)))
        return key, perm, 0
    return key, None, 0


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


# --- the accumulating scatter -------------------------------------------------------------

def _along(axis, s):
    return (slice(None),) * axis + (s,)


def _segment_scan(v, key, axis):
    """Inclusive scan of v along `axis` within runs of equal values of the sorted 1-D `key`
    (Hillis-Steele doubling: log2(len) steps of whole-array operations): the last element of
    each run ends up holding the run's sum."""
    m = key.shape[0]
    concrete = type(key) is Array
    k = 1
    while k < m:
        same = xp.equal(key[k:], key[:-k])
        if concrete and not bool(xp.any(same)):
            break  # no run is longer than k: nothing more to add
        same = xp.reshape(same, (m - k,) + (1,) * (v.ndim - axis - 1))
        add = xp.where(same, v[_along(axis, slice(0, m - k))], 0)
        v = xp.concat([v[_along(axis, slice(0, k))], v[_along(axis, slice(k, None))] + add],
                      axis=axis)
        k *= 2
    return v


def _index_add(n, axis, idx, g):
    """zeros with g's shape but n along `axis`, with g's slices along `axis` added at the
    positions `idx` (1-D integers in [-n, n)); repeated positions accumulate."""
    shape = tuple(g.shape[:axis]) + (n,) + tuple(g.shape[axis + 1:])
    m = idx.shape[0]
    if m == 0 or n == 0:
        return xp.zeros(shape, dtype=g.dtype)
    idx = xp.remainder(idx, n)
    order = xp.argsort(idx, stable=True)
    si = xp.take(idx, order)
    if type(si) is Array and (m < 2 or not bool(xp.any(xp.equal(si[1:], si[:-1])))):
        # Distinct positions (known here): one plain scatter.
        return _setitem(xp.zeros(shape, dtype=g.dtype), _along(axis, idx), g)
    tot = _segment_scan(xp.take(g, order, axis=axis), si, axis)
    # Only the last element of each run is written to its position; the others go to an
    # extra slot n that is dropped.  No kept position is written twice, so the scatter's own
    # derivative (a gather) is exact and double backward is right.
    nxt = xp.concat([si[1:], xp.full((1,), -1, dtype=si.dtype)])
    target = xp.where(xp.equal(si, nxt), n, si)
    ext = tuple(g.shape[:axis]) + (n + 1,) + tuple(g.shape[axis + 1:])
    out = _setitem(xp.zeros(ext, dtype=g.dtype), _along(axis, target), tot)
    return out[_along(axis, slice(0, n))]


def _scatter_key(shape, key, g):
    """The vjp of x[key] for x of `shape`: g added into zeros at the selected places."""
    parts, _ = _key_parts(key)
    if not _has_int_array(parts):
        # Basic indices and masks never select an element twice: a plain scatter.
        return _setitem(xp.zeros(shape, dtype=g.dtype), parts, g)
    n = math.prod(shape)
    pos = _getitem(xp.reshape(xp.arange(n, dtype=xp.int64), shape), parts)
    flat = _index_add(n, 0, xp.reshape(pos, (-1,)), xp.reshape(g, (-1,)))
    return xp.reshape(flat, shape)


# --- getitem / setitem --------------------------------------------------------------------

def _getitem_rules(op):
    jvp = linear_jvp(op)

    def vjp(g, args, kwargs, out, needs):
        x, key = args
        return {0: _scatter_key(tuple(x.shape), key, g)}

    def batch(args, kwargs, dims, size):
        x, key = args
        bx = dims.get(0)
        parts, kdims = _key_parts(key, dims.get(1))
        nd = x.ndim - (bx is not None)
        a = _Key(parts, kdims, nd)
        key_b, perm, bdim = _batched_key(a, size)
        out = _getitem(_b.materialize(x, bx, size), key_b)
        if perm is not None:
            out = xp.permute_dims(out, perm)
        return out, bdim

    define(op, jvp, vjp, batch, saves=[1])


def _setitem_rules(op):
    def jvp(args, kwargs, t, out):
        x, key, value = args
        if x.dtype.kind not in "fc":
            return None
        tx = t.get(0)
        if tx is None:
            tx = xp.zeros_like(x)
        tv = t.get(2)
        return _setitem(tx, key, 0.0 if tv is None else tv)

    def vjp(g, args, kwargs, out, needs):
        x, key, value = args
        res = {}
        if (0, None) in needs:
            res[0] = _setitem(g, key, 0.0)
        if (2, None) in needs:
            # PyTorch (index_put_ without accumulate): every occurrence of a repeated index
            # gets the gradient of its position, not only the write that won.
            res[2] = _getitem(g, key)
        return res

    def batch(args, kwargs, dims, size):
        x, key, value = args
        bx, bv = dims.get(0), dims.get(2)
        parts, kdims = _key_parts(key, dims.get(1))
        nd = x.ndim - (bx is not None)
        a = _Key(parts, kdims, nd)
        key_b, perm, bdim = _batched_key(a, size)
        if bdim != 0:  # the region's batch axis sits after the index dimensions
            nb = a.nb
            perm = [nb] + list(range(nb)) + list(range(nb + 1, 1 + a.target_nd))
        if _is_arr(value) and (bv is not None or perm is not None):
            # The value in the per-example layout (batch first, ranks aligned), then moved
            # into the layout of the batched region.
            v = _b.to_front(value, bv) if bv is not None else xp.expand_dims(value, axis=0)
            rank = v.ndim - 1
            tn = a.target_nd
            if rank > tn:  # leading length-1 dimensions that broadcasting drops
                v = xp.reshape(v, (v.shape[0],) + tuple(v.shape[1 + rank - tn:]))
            elif rank < tn:
                v = xp.reshape(v, (v.shape[0],) + (1,) * (tn - rank) + tuple(v.shape[1:]))
            if perm is not None:
                v = xp.permute_dims(v, _inverse(perm))
            value = v
        out = _setitem(_b.materialize(x, bx, size), key_b, value)
        return out, 0

    define(op, jvp, vjp, batch, saves=[1])


# --- take / take_along_axis ---------------------------------------------------------------

def _axis_arg(kwargs, default):
    return kwargs.get("axis", default)


def _take_rules(op):
    jvp = linear_jvp(op)

    def vjp(g, args, kwargs, out, needs):
        x, indices = args
        axis = _axis_arg(kwargs, None)
        ax = 0 if axis is None else axis % x.ndim
        xs = tuple(x.shape)
        g2 = xp.reshape(g, xs[:ax] + (indices.size,) + xs[ax + 1:])
        return {0: _index_add(xs[ax], ax, xp.reshape(indices, (-1,)), g2)}

    def batch(args, kwargs, dims, size):
        x, indices = args
        bx, bi = dims.get(0), dims.get(1)
        axis = _axis_arg(kwargs, None)
        nd = x.ndim - (bx is not None)
        ax = 0 if axis is None else axis % nd
        if bi is None:
            return xp.take(_b.to_front(x, bx), indices, axis=ax + 1), 0
        if bx is None:
            # The batch axis of the indices lands where the indices go in the result.
            return xp.take(x, indices, axis=ax), ax + bi
        # Both batched: one gather x_b[arange, :, ..., indices_b].
        ib = _b.to_front(indices, bi)
        ni = ib.ndim - 1
        bidx = xp.reshape(xp.arange(size, dtype=xp.int64), (size,) + (1,) * ni)
        out = _getitem(_b.to_front(x, bx), (bidx,) + (slice(None),) * ax + (ib,))
        if ax > 0:  # non-adjacent advanced indices: their dimensions came first
            rest = out.ndim - 1 - ni - ax
            perm = ([0] + list(range(1 + ni, 1 + ni + ax)) + list(range(1, 1 + ni)) +
                    list(range(1 + ni + ax, 1 + ni + ax + rest)))
            out = xp.permute_dims(out, perm)
        return out, 0

    define(op, jvp, vjp, batch, saves=[1])


def _take_along_axis_rules(op):
    jvp = linear_jvp(op)

    def vjp(g, args, kwargs, out, needs):
        x, indices = args
        axis = _axis_arg(kwargs, -1)
        xs = tuple(x.shape)
        n = math.prod(xs)
        # Where each output element comes from in x (flat); x broadcasts against the
        # indices, so a position can be used several times.
        pos = xp.take_along_axis(xp.reshape(xp.arange(n, dtype=xp.int64), xs), indices,
                                 axis=axis)
        flat = _index_add(n, 0, xp.reshape(pos, (-1,)), xp.reshape(g, (-1,)))
        return {0: xp.reshape(flat, xs)}

    def batch(args, kwargs, dims, size):
        x, indices = args
        bx, bi = dims.get(0), dims.get(1)
        axis = _axis_arg(kwargs, -1)
        nd = x.ndim - (bx is not None)
        # An unbatched operand gets a length-1 batch axis: the op broadcasts it.
        xb = _b.to_front(x, bx) if bx is not None else xp.expand_dims(x, axis=0)
        ib = _b.to_front(indices, bi) if bi is not None else xp.expand_dims(indices, axis=0)
        return xp.take_along_axis(xb, ib, axis=axis % nd + 1), 0

    define(op, jvp, vjp, batch, saves=[1])


def install():
    _take_rules(OPS["take"])
    _take_along_axis_rules(OPS["take_along_axis"])
    _getitem_rules(OPS["getitem"])
    _setitem_rules(OPS["setitem"])


__all__ = ["install"]
