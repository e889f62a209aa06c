"""L3: derivative and batching rules of the convolution and pooling primitives
(arraycore/_core/ops/nn_conv.py, functions in arraycore/_nn_ops.py).

Convolution.  With y = conv(x, w) and a cotangent g, <g, conv(x, w)> is trilinear in
(x, w, g), and its three partial derivatives are the three ops of the family:
    d/dg = conv(x, w),   d/dx = conv_transpose(g, w),   d/dw = conv_weight_grad(x, g).
So every vjp is made of the other two ops (Note [Conv trilinear form]), double backward and
any nesting of transforms need nothing else.  The jvps follow from bilinearity:
conv(tx, w) + conv(x, tw) (+ the bias tangent).  Output padding of the transposed
convolutions in the rules is chosen so the result has exactly the input's size.

Pooling.  avg_pool, adaptive_avg_pool and im2col are linear, with adjoints avg_pool_backward,
adaptive_avg_pool_backward and col2im (and back): their jvps come from the `linear` flag.
max_pool's value is a gather of x at the returned indices: jvp = gather of the tangent,
vjp = max_pool_backward (a scatter-add), whose own vjp is the gather again.

Batching.  functorch's rules: a batched input only is folded into the batch dimension N (one
native call); a batched weight (or a batched cotangent in conv_weight_grad) folds the vmapped
dimension into the channels, with `groups` multiplied by the batch size, so the vmap is still
one grouped convolution.  Pools fold into N.
"""

from __future__ import annotations

from ..._core.op_table import OPS
from .. import batching as _b
from .base import define

xp = None  # set by install()


def _param(args, kwargs, i, name, default=None):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def _nd(x):
    return x.ndim - 2


def _conv_params(args, kwargs, first=3, transpose=False):
    """(stride, padding pairs, dilation, groups[, output_padding]) of a conv call whose
    parameters start at position `first`."""
    from ... import _nn_ops as P
    x = args[0]
    nd = _nd(x)
    i = first
    stride = tuple(_param(args, kwargs, i, "stride") or (1,) * nd)
    padding = P._pairs(_param(args, kwargs, i + 1, "padding"), nd)
    if transpose:
        out_pad = tuple(_param(args, kwargs, i + 2, "output_padding") or (0,) * nd)
        i += 1
    dilation = tuple(_param(args, kwargs, i + 2, "dilation") or (1,) * nd)
    groups = int(_param(args, kwargs, i + 3, "groups", 1))
    if transpose:
        return stride, padding, dilation, groups, out_pad
    return stride, padding, dilation, groups


def _output_padding(in_size, out_size, kernel, stride, padding, dilation):
    """output_padding that makes conv_transpose of an `out_size` map come back to `in_size`."""
    return tuple(i - ((o - 1) * s - lo - hi + d * (k - 1) + 1)
                 for i, o, k, s, (lo, hi), d in zip(in_size, out_size, kernel, stride, padding,
                                                    dilation))


def _bias_shape(c, nd):
    return (c,) + (1,) * nd


def _sum_bias(g):
    axes = (0,) + tuple(range(2, g.ndim))
    return xp.sum(g, axis=axes)


def _sum_terms(terms):
    terms = [t for t in terms if t is not None]
    if not terms:
        return None
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out


# --- conv -------------------------------------------------------------------------------------
# Note [Conv trilinear form]: B(x, w, g) = <g, conv(x, w)>.  conv = dB/dg,
# conv_transpose(g, w) = dB/dx, conv_weight_grad(x, g) = dB/dw.  The vjp of any of the three
# ops, with respect to any operand, is the derivative of B with respect to that operand with
# the op's output slot filled by the cotangent.

def _conv_jvp(op, x, w, b, t, out, kw):
    """conv(x, w) + b is bilinear in (x, w) and linear in b: the tangent is
    op(dx, w) + op(x, dw) + db (shared by conv and conv_transpose, which differ only in kw)."""
    terms = []
    if t.get(0) is not None:
        terms.append(op.public(t[0], w, None, **kw))
    if t.get(1) is not None:
        terms.append(op.public(x, t[1], None, **kw))
    tb = t.get(2, t.get("bias"))
    if tb is not None and b is not None:
        tb = xp.reshape(tb, _bias_shape(tb.shape[0], _nd(x)))
        terms.append(tb if terms else xp.zeros_like(out) + tb)
    return _sum_terms(terms)


def _conv_rules(op):
    def jvp(args, kwargs, t, out):
        x, w = args[0], args[1]
        b = _param(args, kwargs, 2, "bias")
        stride, padding, dilation, groups = _conv_params(args, kwargs)
        kw = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
        return _conv_jvp(op, x, w, b, t, out, kw)

    def vjp(g, args, kwargs, out, needs):
        x, w = args[0], args[1]
        stride, padding, dilation, groups = _conv_params(args, kwargs)
        kw = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
        res = {}
        slots = {s for s, _ in needs}
        if 0 in slots:
            op_pad = _output_padding(x.shape[2:], g.shape[2:], w.shape[2:], stride, padding,
                                     dilation)
            res[0] = OPS["conv_transpose"].public(g, w, None, output_padding=op_pad, **kw)
        if 1 in slots:
            res[1] = OPS["conv_weight_grad"].public(x, g, tuple(w.shape[2:]), **kw)
        for s in (2, "bias"):
            if s in slots:
                res[s] = _sum_bias(g)
        return res

    def batch(args, kwargs, dims, size):
        x, w = args[0], args[1]
        b = _param(args, kwargs, 2, "bias")
        stride, padding, dilation, groups = _conv_params(
            (_strip(x, dims.get(0)),) + tuple(args[1:]), kwargs)
        kw = dict(stride=stride, padding=padding, dilation=dilation)
        bias_dim = dims.get(2, dims.get("bias"))
        if 1 not in dims and bias_dim is None:
            xb = _b.to_front(x, dims[0])
            out = op.public(_fold_n(xb), w, b, groups=groups, **kw)
            return _unfold_n(out, size), 0
        xg = _channels_batched(_b.materialize(x, dims.get(0), size))
        wg = _merge_front(_b.materialize(w, dims.get(1), size))
        out = op.public(xg, wg, None, groups=groups * size, **kw)
        out = _split_channels(out, size)  # (B, N, Cout, *)
        if b is not None:
            bb = _b.materialize(b, bias_dim, size)  # (B, Cout)
            out = out + xp.reshape(bb, (size, 1, bb.shape[1]) + (1,) * (out.ndim - 3))
        return out, 0

    define(op, jvp, vjp, batch, saves=[0, 1])


def _conv_transpose_rules(op):
    def params(args, kwargs):
        return _conv_params(args, kwargs, transpose=True)

    def jvp(args, kwargs, t, out):
        x, w = args[0], args[1]
        b = _param(args, kwargs, 2, "bias")
        stride, padding, dilation, groups, out_pad = params(args, kwargs)
        kw = dict(stride=stride, padding=padding, output_padding=out_pad, dilation=dilation,
                  groups=groups)
        return _conv_jvp(op, x, w, b, t, out, kw)

    def vjp(g, args, kwargs, out, needs):
        x, w = args[0], args[1]
        stride, padding, dilation, groups, _ = params(args, kwargs)
        kw = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
        res = {}
        slots = {s for s, _ in needs}
        if 0 in slots:
            res[0] = OPS["conv"].public(g, w, None, **kw)
        if 1 in slots:
            res[1] = OPS["conv_weight_grad"].public(g, x, tuple(w.shape[2:]), **kw)
        for s in (2, "bias"):
            if s in slots:
                res[s] = _sum_bias(g)
        return res

    def batch(args, kwargs, dims, size):
        x, w = args[0], args[1]
        b = _param(args, kwargs, 2, "bias")
        stride, padding, dilation, groups, out_pad = params(
            (_strip(x, dims.get(0)),) + tuple(args[1:]), kwargs)
        kw = dict(stride=stride, padding=padding, output_padding=out_pad, dilation=dilation)
        bias_dim = dims.get(2, dims.get("bias"))
        if 1 not in dims and bias_dim is None:
            xb = _b.to_front(x, dims[0])
            out = op.public(_fold_n(xb), w, b, groups=groups, **kw)
            return _unfold_n(out, size), 0
        xg = _channels_batched(_b.materialize(x, dims.get(0), size))
        wg = _merge_front(_b.materialize(w, dims.get(1), size))
        out = op.public(xg, wg, None, groups=groups * size, **kw)
        out = _split_channels(out, size)
        if b is not None:
            bb = _b.materialize(b, bias_dim, size)
            out = out + xp.reshape(bb, (size, 1, bb.shape[1]) + (1,) * (out.ndim - 3))
        return out, 0

    define(op, jvp, vjp, batch, saves=[0, 1])


def _conv_weight_grad_rules(op):
    def params(args, kwargs):
        return _conv_params(args, kwargs, first=3)

    def ksize(args, kwargs):
        return tuple(_param(args, kwargs, 2, "kernel_size"))

    def jvp(args, kwargs, t, out):
        x, gy = args[0], args[1]
        stride, padding, dilation, groups = params(args, kwargs)
        kw = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
        k = ksize(args, kwargs)
        terms = []
        if t.get(0) is not None:
            terms.append(op.public(t[0], gy, k, **kw))
        if t.get(1) is not None:
            terms.append(op.public(x, t[1], k, **kw))
        return _sum_terms(terms)

    def vjp(c, args, kwargs, out, needs):
        x, gy = args[0], args[1]
        stride, padding, dilation, groups = params(args, kwargs)
        kw = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
        res = {}
        slots = {s for s, _ in needs}
        if 0 in slots:
            op_pad = _output_padding(x.shape[2:], gy.shape[2:], c.shape[2:], stride, padding,
                                     dilation)
            res[0] = OPS["conv_transpose"].public(gy, c, None, output_padding=op_pad, **kw)
        if 1 in slots:
            res[1] = OPS["conv"].public(x, c, None, **kw)
        return res

    def batch(args, kwargs, dims, size):
        x, gy = args[0], args[1]
        stride, padding, dilation, groups = params(
            (_strip(x, dims.get(0)),) + tuple(args[1:]), kwargs)
        kw = dict(stride=stride, padding=padding, dilation=dilation)
        xg = _channels_batched(_b.materialize(x, dims.get(0), size))
        gg = _channels_batched(_b.materialize(gy, dims.get(1), size))
        out = op.public(xg, gg, ksize(args, kwargs), groups=groups * size, **kw)
        return xp.reshape(out, (size, out.shape[0] // size) + tuple(out.shape[1:])), 0

    define(op, jvp, vjp, batch, saves=[0, 1])


# --- batching helpers -------------------------------------------------------------------------

class _Shape:
    """Stands for an argument whose batch axis is removed (only .ndim and .shape are read by
    the parameter parsing)."""

    def __init__(self, shape):
        self.shape = tuple(shape)
        self.ndim = len(self.shape)


def _strip(x, bdim):
    if bdim is None:
        return x
    s = list(x.shape)
    del s[bdim]
    return _Shape(s)


def _fold_n(xb):
    """(B, N, ...) -> (B*N, ...)."""
    return xp.reshape(xb, (xb.shape[0] * xb.shape[1],) + tuple(xb.shape[2:]))


def _unfold_n(out, size):
    return xp.reshape(out, (size, out.shape[0] // size) + tuple(out.shape[1:]))


def _merge_front(a):
    """(B, C, ...) -> (B*C, ...)."""
    return xp.reshape(a, (a.shape[0] * a.shape[1],) + tuple(a.shape[2:]))


def _channels_batched(xb):
    """(B, N, C, *s) -> (N, B*C, *s): the vmapped dimension becomes the outer channel
    block."""
    moved = xp.moveaxis(xb, 0, 1)
    return xp.reshape(moved, (moved.shape[0], moved.shape[1] * moved.shape[2]) +
                      tuple(moved.shape[3:]))


def _split_channels(out, size):
    """(N, B*C, *s) -> (B, N, C, *s)."""
    n, bc = out.shape[0], out.shape[1]
    out = xp.reshape(out, (n, size, bc // size) + tuple(out.shape[2:]))
    return xp.moveaxis(out, 1, 0)


def _fold_batch(op, n_arrays=1):
    """A pool-like op of batched (N, C, *) arrays in its first n_arrays slots: the vmapped
    dimension is folded into N (unbatched arrays among them are broadcast first)."""
    def batch(args, kwargs, dims, size):
        new = list(args)
        for i in range(n_arrays):
            a = _b.materialize(args[i], dims.get(i), size)
            new[i] = _fold_n(a)
        out = op.public(*new, **kwargs)
        if isinstance(out, tuple):
            return tuple(_unfold_n(o, size) for o in out), 0
        return _unfold_n(out, size), 0
    return batch


# --- pooling ----------------------------------------------------------------------------------

def _gather_planes(t, idx):
    """t (N, C, *in) gathered at flat per-plane indices idx (N, C, *out)."""
    n, c = t.shape[0], t.shape[1]
    flat = xp.reshape(t, (n, c, -1))
    out = xp.take_along_axis(flat, xp.reshape(idx, (n, c, -1)), axis=-1)
    return xp.reshape(out, tuple(idx.shape))


def _max_pool_rules(op):
    def jvp(args, kwargs, t, out):
        return (_gather_planes(t[0], out[1]), None)

    def vjp(g, args, kwargs, out, needs):
        g0 = g[0] if isinstance(g, (tuple, list)) else g
        if g0 is None:
            return {0: xp.zeros_like(args[0])}
        return {0: OPS["max_pool_backward"].public(g0, out[1], tuple(args[0].shape[2:]))}

    define(op, jvp, vjp, _fold_batch(op), saves=[0, "out"])


def _max_pool_backward_rules(op):
    def vjp(c, args, kwargs, out, needs):
        return {0: _gather_planes(c, args[1])}

    def batch(args, kwargs, dims, size):
        g = _fold_n(_b.materialize(args[0], dims.get(0), size))
        idx = _fold_n(_b.materialize(args[1], dims.get(1), size))
        out = op.public(g, idx, *args[2:], **kwargs)
        return _unfold_n(out, size), 0

    define(op, None, vjp, batch, saves=[1])


def _avg_pool_rules(op):
    names = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
             "divisor_override")

    def vjp(g, args, kwargs, out, needs):
        params = {nm: _param(args, kwargs, i + 1, nm) for i, nm in enumerate(names)}
        params = {k: v for k, v in params.items() if v is not None}
        return {0: OPS["avg_pool_backward"].public(g, tuple(args[0].shape[2:]), **params)}

    define(op, None, vjp, _fold_batch(op), saves=[])


def _avg_pool_backward_rules(op):
    names = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad",
             "divisor_override")

    def vjp(c, args, kwargs, out, needs):
        params = {nm: _param(args, kwargs, i + 2, nm) for i, nm in enumerate(names)}
        params = {k: v for k, v in params.items() if v is not None}
        return {0: OPS["avg_pool"].public(c, **params)}

    define(op, None, vjp, _fold_batch(op), saves=[])


def _adaptive_avg_rules(op):
    def vjp(g, args, kwargs, out, needs):
        return {0: OPS["adaptive_avg_pool_backward"].public(g, tuple(args[0].shape[2:]))}

    define(op, None, vjp, _fold_batch(op), saves=[])


def _adaptive_avg_backward_rules(op):
    def vjp(c, args, kwargs, out, needs):
        return {0: OPS["adaptive_avg_pool"].public(c, tuple(args[0].shape[2:]))}

    define(op, None, vjp, _fold_batch(op), saves=[])


def _im2col_rules(op):
    names = ("kernel_size", "dilation", "padding", "stride")

    def vjp(g, args, kwargs, out, needs):
        params = {nm: _param(args, kwargs, i + 1, nm) for i, nm in enumerate(names)}
        return {0: OPS["col2im"].public(g, tuple(args[0].shape[2:]), **params)}

    define(op, None, vjp, _fold_batch(op), saves=[])


def _col2im_rules(op):
    names = ("kernel_size", "dilation", "padding", "stride")

    def vjp(c, args, kwargs, out, needs):
        params = {nm: _param(args, kwargs, i + 2, nm) for i, nm in enumerate(names)}
        return {0: OPS["im2col"].public(c, **params)}

    define(op, None, vjp, _fold_batch(op), saves=[])


_RULES = {
    "conv": _conv_rules, "conv_transpose": _conv_transpose_rules,
    "conv_weight_grad": _conv_weight_grad_rules,
    "max_pool": _max_pool_rules, "adaptive_max_pool": _max_pool_rules,
    "max_pool_backward": _max_pool_backward_rules,
    "avg_pool": _avg_pool_rules, "avg_pool_backward": _avg_pool_backward_rules,
    "adaptive_avg_pool": _adaptive_avg_rules,
    "adaptive_avg_pool_backward": _adaptive_avg_backward_rules,
    "im2col": _im2col_rules, "col2im": _col2im_rules,
}


def install():
    for name, rules in _RULES.items():
        op = OPS.get(name)
        if op is not None and op.family == "nn_conv":
            rules(op)


__all__ = ["install"]
