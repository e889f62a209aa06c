"""L3: derivative and batching rules of the reductions family: sum, prod, max, min, mean,
var, std, cumulative_sum, cumulative_prod, diff (differentiable) and all, any (bool results).

The vjp of a reduction is g put back at the reduced axes (`_expand`) times the local
derivative; broadcasting it to x's shape is left to graph.fit_cotangent.  PyTorch's choices
where the derivative is not unique:
- max/min split the gradient evenly among the elements equal to the result (torch.amax);
- std has derivative 0 where the result is 0 (torch's std_backward masks it);
- prod and cumulative_prod are exact with zeros: the derivative of a product with respect to
  one factor is the product of the others, computed from exclusive running products, never
  by dividing the result by the factor.  The vjp of cumulative_prod is a scan of an affine
  recurrence (`_decay_scan`), also division-free, so second derivatives are right at zeros.

Batching moves the batch axis to the front and shifts the `axis` argument by one
(axis=None: all per-example axes); every batched op is one call on the bigger array.
"""

from __future__ import annotations

import math
import operator

from ..._core.op_table import OPS
from .. import batching as _b
from .base import define, define_nondiff

xp = None  # set by install()


# --- axes -----------------------------------------------------------------------------------

def _axes(axis, ndim):
    """The reduced axes, non-negative and sorted (axis=None: all)."""
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(sorted(operator.index(a) % ndim for a in items))


def _shift(axis, nd, who):
    """A per-example axis (of an example of rank nd) as an axis of the batch-first array."""
    a = operator.index(axis)
    if not -nd <= a < nd:
        raise ValueError(f"{who}: axis {a} is out of bounds for an array of dimension {nd}")
    return a % nd + 1


def _batched_axes(axis, nd, who):
    """`axis` of a per-example rank-nd reduction as axes of the batch-first array."""
    if axis is None:
        return tuple(range(1, nd + 1))
    if isinstance(axis, (tuple, list)):
        return tuple(_shift(a, nd, who) for a in axis)
    return _shift(axis, nd, who)


def _expand(g, axes, keepdims):
    """A reduction's cotangent with length-1 axes where the reduced axes were."""
    if keepdims or not axes:
        return g
    return xp.expand_dims(g, axis=axes)


def _count(x, axes):
    return math.prod(x.shape[a] for a in axes)


def _along(axis, s):
    return (slice(None),) * axis + (s,)


def _is_complex(x):
    return x.dtype.kind == "c"


def _as_dtype(v, dtype):
    return v if v.dtype == dtype else xp.astype(v, dtype)


def _computed_in(x, kwargs):
    """The dtype sum/prod/cumulative_* compute in for a float or complex x (its own unless
    `dtype=` is given): derivatives are taken there."""
    d = kwargs.get("dtype")
    return x.dtype if d is None else d


# --- batching -------------------------------------------------------------------------------

def _reduce_batch(op):
    """Batching rule of the ops taking (x, /, *, axis=None, ...)."""
    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        kw = dict(kwargs)
        kw["axis"] = _batched_axes(kwargs.get("axis"), xb.ndim - 1, op.name)
        return op.public(xb, **kw), 0
    return batch


def _cumulative_batch(op):
    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        nd = xb.ndim - 1
        kw = dict(kwargs)
        if nd == 0:  # a 0-d example is scanned as a length-1 vector
            xb = xp.reshape(xb, (size, 1))
            kw["axis"] = 1
        elif kwargs.get("axis") is None:
            if nd > 1:
                raise ValueError(f"{op.name}: axis is required for arrays of more than one "
                                 f"dimension (got {nd})")
            kw["axis"] = 1
        else:
            kw["axis"] = _shift(kwargs["axis"], nd, op.name)
        return op.public(xb, **kw), 0
    return batch


# --- sum, mean ------------------------------------------------------------------------------

def _sum_rules(op):
    def jvp(args, kwargs, t, out):
        return _as_dtype(xp.sum(t[0], **kwargs), out.dtype)

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        return {0: _expand(g, _axes(kwargs.get("axis"), x.ndim), kwargs.get("keepdims"))}

    define(op, jvp, vjp, _reduce_batch(op), saves=[])


def _mean_rules(op):
    def jvp(args, kwargs, t, out):
        return _as_dtype(xp.mean(t[0], **kwargs), out.dtype)

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        axes = _axes(kwargs.get("axis"), x.ndim)
        n = _count(x, axes)
        return {0: _expand(g, axes, kwargs.get("keepdims")) / float(max(n, 1))}

    define(op, jvp, vjp, _reduce_batch(op), saves=[])


# --- prod -----------------------------------------------------------------------------------

def _exclusive_cumprod(x, axis, reverse=False):
    """prod of x's elements before (after, reverse=True) each one along `axis`."""
    n = x.shape[axis]
    if reverse:
        x = xp.flip(x, axis=axis)
    e = xp.cumulative_prod(x, axis=axis, include_initial=True)[_along(axis, slice(0, n))]
    return xp.flip(e, axis=axis) if reverse else e


def _others_product(x, axes):
    """For each element, the product of the other elements of its reduction group."""
    if not axes:
        return xp.ones_like(x)
    if len(axes) == 1:
        a = axes[0]
        return _exclusive_cumprod(x, a) * _exclusive_cumprod(x, a, reverse=True)
    # Several axes: move them last, flatten them into one, and back.
    keep = [a for a in range(x.ndim) if a not in axes]
    perm = tuple(keep) + tuple(axes)
    xt = xp.permute_dims(x, perm)
    shape_t = tuple(xt.shape)
    flat = xp.reshape(xt, shape_t[:len(keep)] + (_count(x, axes),))
    last = flat.ndim - 1
    d = _exclusive_cumprod(flat, last) * _exclusive_cumprod(flat, last, reverse=True)
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return xp.permute_dims(xp.reshape(d, shape_t), tuple(inv))


def _prod_rules(op):
    def prepared(args, kwargs):
        x = args[0]
        return _as_dtype(x, _computed_in(x, kwargs)), _axes(kwargs.get("axis"), x.ndim)

    def jvp(args, kwargs, t, out):
        x, axes = prepared(args, kwargs)
        d = _others_product(x, axes)
        return xp.sum(_as_dtype(t[0], x.dtype) * d, axis=axes,
                      keepdims=bool(kwargs.get("keepdims")))

    def vjp(g, args, kwargs, out, needs):
        x, axes = prepared(args, kwargs)
        d = _others_product(x, axes)
        if _is_complex(d):
            d = xp.conj(d)
        return {0: _expand(g, axes, kwargs.get("keepdims")) * d}

    define(op, jvp, vjp, _reduce_batch(op), saves=[0])


# --- max, min -------------------------------------------------------------------------------

def _extreme_rules(op):
    # torch.amax / amin: the gradient is shared evenly by the elements equal to the result.
    def weights(args, kwargs, out):
        x = args[0]
        axes = _axes(kwargs.get("axis"), x.ndim)
        mask = xp.astype(xp.equal(x, _expand(out, axes, kwargs.get("keepdims"))), x.dtype)
        return mask, xp.sum(mask, axis=axes, keepdims=True), axes

    def jvp(args, kwargs, t, out):
        mask, count, axes = weights(args, kwargs, out)
        s = xp.sum(t[0] * mask, axis=axes, keepdims=True) / count
        return s if kwargs.get("keepdims") else xp.reshape(s, tuple(out.shape))

    def vjp(g, args, kwargs, out, needs):
        mask, count, axes = weights(args, kwargs, out)
        return {0: _expand(g, axes, kwargs.get("keepdims")) * (mask / count)}

    define(op, jvp, vjp, _reduce_batch(op), saves=[0, "out"])


# --- var, std -------------------------------------------------------------------------------

def _moments(args, kwargs):
    """(x - mean, reduced axes, N - correction as the forward divides by it)."""
    x = args[0]
    axes = _axes(kwargs.get("axis"), x.ndim)
    n = _count(x, axes)
    denom = n - kwargs.get("correction", 0.0)
    d = x - xp.mean(x, axis=axes, keepdims=True)
    return d, axes, float(denom) if denom > 0 else 0.0


def _dot_real(d, t):
    """Re(conj(d) * t): the derivative of |d|**2 / 2 along t."""
    if _is_complex(d) or _is_complex(t):
        return xp.real(xp.conj(d) * t)
    return d * t


def _var_rules(op):
    def jvp(args, kwargs, t, out):
        d, axes, dn = _moments(args, kwargs)
        s = xp.sum(_dot_real(d, t[0]), axis=axes, keepdims=bool(kwargs.get("keepdims")))
        return _as_dtype((2 * s) / dn, out.dtype)

    def vjp(g, args, kwargs, out, needs):
        d, axes, dn = _moments(args, kwargs)
        return {0: _expand(g, axes, kwargs.get("keepdims")) * ((2 * d) / dn)}

    define(op, jvp, vjp, _reduce_batch(op), saves=[0])


def _std_rules(op):
    # d std = d var / (2 std); 0 where std == 0 (torch's std_backward).
    def safe(s):
        zero = xp.equal(s, 0)
        return zero, xp.where(zero, 1.0, s)

    def jvp(args, kwargs, t, out):
        d, axes, dn = _moments(args, kwargs)
        zero, s = safe(out)
        v = xp.sum(_dot_real(d, t[0]), axis=axes, keepdims=bool(kwargs.get("keepdims")))
        return _as_dtype(xp.where(zero, 0.0, v / (dn * s)), out.dtype)

    def vjp(g, args, kwargs, out, needs):
        d, axes, dn = _moments(args, kwargs)
        keep = kwargs.get("keepdims")
        zero, s = safe(_expand(out, axes, keep))
        w = xp.where(zero, 0.0, _expand(g, axes, keep) / (dn * s))
        return {0: w * d}

    define(op, jvp, vjp, _reduce_batch(op), saves=[0, "out"])


# --- cumulative_sum, cumulative_prod --------------------------------------------------------

def _scan_axis(x, kwargs):
    """x as the scan sees it (0-d -> length 1) and the scanned axis."""
    if x.ndim == 0:
        return xp.reshape(x, (1,)), 0
    axis = kwargs.get("axis")
    return x, 0 if axis is None else operator.index(axis) % x.ndim


def _drop_initial(g, axis, kwargs):
    """The cotangent of the scanned values (without the leading initial entry)."""
    if kwargs.get("include_initial"):
        return g[_along(axis, slice(1, None))]
    return g


def _with_initial(t, axis, kwargs):
    """A tangent of the scanned values with the initial entry's zero tangent first."""
    if not kwargs.get("include_initial"):
        return t
    shape = list(t.shape)
    shape[axis] = 1
    return xp.concat([xp.zeros(tuple(shape), dtype=t.dtype), t], axis=axis)


def _reverse_cumsum(g, axis):
    return xp.flip(xp.cumulative_sum(xp.flip(g, axis=axis), axis=axis), axis=axis)


def _cumulative_sum_rules(op):
    def jvp(args, kwargs, t, out):
        return _as_dtype(xp.cumulative_sum(t[0], **kwargs), out.dtype)

    def vjp(g, args, kwargs, out, needs):
        _, axis = _scan_axis(args[0], kwargs)
        return {0: _reverse_cumsum(_drop_initial(g, axis, kwargs), axis)}

    define(op, jvp, vjp, _cumulative_batch(op), saves=[])  # reads x's shape only


def _decay_scan(v, a, axis):
    """out[k] = sum over i <= k of v[i] * prod(a[i+1..k]) along `axis`: the recurrence
    out[k] = a[k] * out[k-1] + v[k], by recursive doubling (log2(n) steps of whole-array
    operations, no division, so exact and differentiable at zeros of a)."""
    n = v.shape[axis]
    step = 1
    while step < n:
        head = _along(axis, slice(0, step))
        tail = _along(axis, slice(step, None))
        prev = _along(axis, slice(0, n - step))
        v = xp.concat([v[head], v[tail] + a[tail] * v[prev]], axis=axis)
        if 2 * step < n:
            a = xp.concat([a[head], a[tail] * a[prev]], axis=axis)
        step *= 2
    return v


def _cumulative_prod_rules(op):
    # y[k] = prod(x[..k]); dy[k]/dx[i] = E[i] * prod(x[i+1..k]) for i <= k, with E the
    # exclusive running product.
    def prepared(args, kwargs):
        x, axis = _scan_axis(args[0], kwargs)
        return _as_dtype(x, _computed_in(x, kwargs)), axis

    def jvp(args, kwargs, t, out):
        x, axis = prepared(args, kwargs)
        tx = _as_dtype(xp.reshape(t[0], tuple(x.shape)), x.dtype)
        return _with_initial(_decay_scan(tx * _exclusive_cumprod(x, axis), x, axis), axis,
                             kwargs)

    def vjp(g, args, kwargs, out, needs):
        x, axis = prepared(args, kwargs)
        if _is_complex(x):
            x = xp.conj(x)
        g = _drop_initial(g, axis, kwargs)
        n = x.shape[axis]
        if n == 0:
            return {0: xp.zeros_like(x)}
        # s[i] = sum over k >= i of g[k] * prod(x[i+1..k]): the same scan run backwards,
        # where the factor entering position m of the reversed sequence is its x[m-1].
        xr = xp.flip(x, axis=axis)
        one = xp.ones_like(xr[_along(axis, slice(0, 1))])
        ar = xp.concat([one, xr[_along(axis, slice(0, n - 1))]], axis=axis)
        s = xp.flip(_decay_scan(xp.flip(g, axis=axis), ar, axis), axis=axis)
        return {0: _exclusive_cumprod(x, axis) * s}

    define(op, jvp, vjp, _cumulative_batch(op), saves=[0])


# --- diff -----------------------------------------------------------------------------------

def _diff_parts(args, kwargs):
    """The (slot, value) of the joined pieces, in order: prepend, x, append."""
    parts = []
    if kwargs.get("prepend") is not None:
        parts.append(("prepend", kwargs["prepend"]))
    parts.append((0, args[0]))
    if kwargs.get("append") is not None:
        parts.append(("append", kwargs["append"]))
    return parts


def _is_arr(v):
    return hasattr(v, "shape")


def _diff_rules(op):
    def jvp(args, kwargs, t, out):
        # diff is linear in (prepend, x, append): the op on the tangents, zero where absent
        # (a Python scalar piece has tangent 0).
        x = args[0]
        kw = dict(kwargs)
        for k in ("prepend", "append"):
            v = kwargs.get(k)
            if v is not None:
                kw[k] = t[k] if k in t else (xp.zeros_like(v) if _is_arr(v) else 0)
        tx = t[0] if 0 in t else xp.zeros_like(x)
        return _as_dtype(xp.diff(tx, **kw), out.dtype)

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        axis = operator.index(kwargs.get("axis", -1)) % x.ndim
        n = kwargs.get("n", 1)
        parts = _diff_parts(args, kwargs)
        lengths = [(p.shape[axis] if _is_arr(p) else 1) for _, p in parts]
        total = sum(lengths)
        if g.shape[axis] == 0:
            shape = list(x.shape)
            shape[axis] = total
            ct = xp.zeros(tuple(shape), dtype=g.dtype)
        else:
            # The transpose of one difference is minus a difference with zeros joined on
            # both sides.
            ct = g
            for _ in range(n):
                ct = -xp.diff(ct, axis=axis, prepend=0, append=0)
        res = {}
        start = 0
        for (slot, p), k in zip(parts, lengths):
            if (slot, None) in needs and _is_arr(p):
                res[slot] = ct[_along(axis, slice(start, start + k))]
            start += k
        return res

    def batch(args, kwargs, dims, size):
        x = args[0]
        nd = x.ndim - (0 in dims)
        kw = dict(kwargs)
        if nd == 0:
            raise ValueError("diff: x must have at least one dimension")
        kw["axis"] = _shift(kwargs.get("axis", -1), nd, "diff")
        # The pieces must match per example: unbatched arrays get a (broadcast) batch axis.
        for k in ("prepend", "append"):
            v = kwargs.get(k)
            if _is_arr(v):
                kw[k] = _b.materialize(v, dims.get(k), size)
        return xp.diff(_b.materialize(x, dims.get(0), size), **kw), 0

    define(op, jvp, vjp, batch, saves=[])  # reads shapes only


# --- all, any -------------------------------------------------------------------------------

def install():
    _sum_rules(OPS["sum"])
    _mean_rules(OPS["mean"])
    _prod_rules(OPS["prod"])
    _extreme_rules(OPS["max"])
    _extreme_rules(OPS["min"])
    _var_rules(OPS["var"])
    _std_rules(OPS["std"])
    _cumulative_sum_rules(OPS["cumulative_sum"])
    _cumulative_prod_rules(OPS["cumulative_prod"])
    _diff_rules(OPS["diff"])
    for name in ("all", "any"):
        define_nondiff(OPS[name], _reduce_batch(OPS[name]))


__all__ = ["install"]
