"""Autodiff test metadata of the convolution and pooling primitives (family nn_conv, loaded by
tests/autodiff_op_info.py through `build(add)`): small sample calls of the twelve
arraycore/_nn_ops.py primitives, compared with JAX by tests/test_autodiff_ops.py.

References: `jax.lax.conv_general_dilated` for `conv`; the transposed convolution and the
weight gradient are JAX's vjps of that convolution (their definitions); the pools, im2col and
the max-pool scatter are gathers through index tables built here in NumPy (one row of input
positions per output position, -1 for padding), and their adjoints JAX's vjps of those.
The samples cover 1-3 spatial dimensions, strides, asymmetric padding, dilation, groups,
ceil_mode, count_include_pad / divisor_override and non-contiguous inputs.
"""

from __future__ import annotations

import itertools

import numpy as np

from autodiff_op_info import Arg, OpInfo, Sample

# --- JAX references -----------------------------------------------------------------------------


def _jax():
    import jax
    import jax.numpy as jnp
    return jax, jnp


def _pairs(padding, nd):
    if padding is None:
        return [(0, 0)] * nd
    return [(p, p) if isinstance(p, int) else tuple(p) for p in padding]


def ref_conv(x, w, b=None, stride=None, padding=None, dilation=None, groups=1):
    jax, jnp = _jax()
    nd = x.ndim - 2
    y = jax.lax.conv_general_dilated(
        x, w, window_strides=tuple(stride or (1,) * nd), padding=_pairs(padding, nd),
        rhs_dilation=tuple(dilation or (1,) * nd), feature_group_count=groups,
        precision=jax.lax.Precision.HIGHEST)
    if b is not None:
        y = y + jnp.reshape(b, (-1,) + (1,) * nd)
    return y


def _conv_in_size(out, k, stride, padding, output_padding, dilation):
    return tuple((o - 1) * s - lo - hi + d * (kk - 1) + 1 + op
                 for o, kk, s, (lo, hi), op, d in zip(out, k, stride, padding, output_padding,
                                                       dilation))


def ref_conv_transpose(x, w, b=None, stride=None, padding=None, output_padding=None,
                       dilation=None, groups=1):
    jax, jnp = _jax()
    nd = x.ndim - 2
    stride = tuple(stride or (1,) * nd)
    dilation = tuple(dilation or (1,) * nd)
    pads = _pairs(padding, nd)
    op = tuple(output_padding or (0,) * nd)
    size = _conv_in_size(x.shape[2:], w.shape[2:], stride, pads, op, dilation)
    cout = w.shape[1] * groups
    z = jnp.zeros((x.shape[0], cout) + size, dtype=x.dtype)
    _, f = jax.vjp(lambda t: ref_conv(t, w, None, stride, pads, dilation, groups), z)
    y = f(x)[0]
    if b is not None:
        y = y + jnp.reshape(b, (-1,) + (1,) * nd)
    return y


def ref_conv_weight_grad(x, gy, kernel_size, stride=None, padding=None, dilation=None,
                         groups=1):
    jax, jnp = _jax()
    shape = (gy.shape[1], x.shape[1] // groups) + tuple(kernel_size)
    z = jnp.zeros(shape, dtype=x.dtype)
    _, f = jax.vjp(lambda w: ref_conv(x, w, None, stride, padding, dilation, groups), z)
    return f(gy)[0]


def _fixed_table(in_size, k, s, p, d, out):
    """(O, K) flat input positions of each window (-1: padding)."""
    per_dim = []
    for i, kk, ss, pp, dd, oo in zip(in_size, k, s, p, d, out):
        t = np.array([[o * ss - pp + j * dd for j in range(kk)] for o in range(oo)])
        t[(t < 0) | (t >= i)] = -1
        per_dim.append(t)
    return _combine(per_dim, in_size)


def _adaptive_table(in_size, out):
    per_dim = []
    for i, o in zip(in_size, out):
        starts = [(j * i) // o for j in range(o)]
        ends = [-((-(j + 1) * i) // o) for j in range(o)]
        kmax = max(e - st for st, e in zip(starts, ends))
        t = -np.ones((o, kmax), dtype=np.int64)
        for j, (st, e) in enumerate(zip(starts, ends)):
            t[j, :e - st] = np.arange(st, e)
        per_dim.append(t)
    return _combine(per_dim, in_size)


def _combine(per_dim, in_size):
    o_shape = [t.shape[0] for t in per_dim]
    k_shape = [t.shape[1] for t in per_dim]
    table = np.empty((int(np.prod(o_shape)), int(np.prod(k_shape))), dtype=np.int64)
    for oi, os_ in enumerate(itertools.product(*[range(n) for n in o_shape])):
        for ki, ks in enumerate(itertools.product(*[range(n) for n in k_shape])):
            flat, bad = 0, False
            for dim, (o, kk) in enumerate(zip(os_, ks)):
                v = per_dim[dim][o, kk]
                bad |= v < 0
                flat = flat * in_size[dim] + v
            table[oi, ki] = -1 if bad else flat
    return table


def _gather(x, table, fill):
    """x (N, C, *in) -> (N, C, O, K) through the table (fill where -1)."""
    _, jnp = _jax()
    n, c = x.shape[:2]
    flat = jnp.reshape(x, (n, c, -1))
    ext = jnp.concatenate([flat, jnp.full((n, c, 1), fill, dtype=x.dtype)], axis=-1)
    t = np.where(table < 0, flat.shape[-1], table)
    return ext[:, :, t]


def _pool_out(in_size, k, s, p, d, ceil_mode):
    out = []
    for i, kk, ss, pp, dd in zip(in_size, k, s, p, d):
        span = i + 2 * pp - dd * (kk - 1) - 1
        o = (span + (ss - 1 if ceil_mode else 0)) // ss + 1
        if ceil_mode and (o - 1) * ss >= i + pp:
            o -= 1
        out.append(o)
    return tuple(out)


def _window_params(x, kernel_size, stride, padding, dilation):
    nd = x.ndim - 2
    k = tuple(kernel_size)
    s = tuple(stride) if stride else k
    p = tuple(padding) if padding else (0,) * nd
    d = tuple(dilation) if dilation else (1,) * nd
    return k, s, p, d


def _max_from_table(x, table, out):
    _, jnp = _jax()
    g = _gather(x, table, -np.inf)
    vals = jnp.max(g, axis=-1)
    arg = jnp.argmax(g, axis=-1)
    idx = jnp.asarray(table)[jnp.arange(table.shape[0])[None, None, :], arg]
    shape = tuple(x.shape[:2]) + tuple(out)
    return jnp.reshape(vals, shape), jnp.reshape(idx, shape).astype(jnp.int64)


def ref_max_pool(x, kernel_size, stride=None, padding=None, dilation=None, ceil_mode=False):
    k, s, p, d = _window_params(x, kernel_size, stride, padding, dilation)
    out = _pool_out(x.shape[2:], k, s, p, d, ceil_mode)
    return _max_from_table(x, _fixed_table(x.shape[2:], k, s, p, d, out), out)


def ref_adaptive_max_pool(x, output_size):
    return _max_from_table(x, _adaptive_table(x.shape[2:], output_size), output_size)


def ref_max_pool_backward(g, indices, input_size):
    _, jnp = _jax()
    n, c = g.shape[:2]
    size = int(np.prod(input_size))
    base = (np.arange(n * c) * size).reshape(n, c, *([1] * (g.ndim - 2)))
    flat = (np.asarray(indices) + base).ravel()
    out = jnp.zeros(n * c * size, dtype=g.dtype).at[flat].add(jnp.ravel(g))
    return jnp.reshape(out, (n, c) + tuple(input_size))


def _avg_divisors(in_size, k, s, p, out, count_include_pad, divisor_override):
    per_dim_pad, per_dim_in = [], []
    for i, kk, ss, pp, oo in zip(in_size, k, s, p, out):
        lo = np.arange(oo) * ss - pp
        hi = np.minimum(lo + kk, i + pp)
        per_dim_pad.append(hi - lo)
        per_dim_in.append(np.minimum(hi, i) - np.maximum(lo, 0))
    grids = per_dim_pad if count_include_pad else per_dim_in
    div = np.ones(out, dtype=np.float64)
    for dim, v in enumerate(grids):
        shape = [1] * len(out)
        shape[dim] = -1
        div = div * v.reshape(shape)
    if divisor_override:
        div = np.full(out, float(divisor_override))
    return div.ravel()


def ref_avg_pool(x, kernel_size, stride=None, padding=None, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
    _, jnp = _jax()
    k, s, p, d = _window_params(x, kernel_size, stride, padding, None)
    out = _pool_out(x.shape[2:], k, s, p, d, ceil_mode)
    g = _gather(x, _fixed_table(x.shape[2:], k, s, p, d, out), 0.0)
    div = _avg_divisors(x.shape[2:], k, s, p, out, count_include_pad, divisor_override)
    y = jnp.sum(g, axis=-1) / div.astype(x.dtype)
    return jnp.reshape(y, tuple(x.shape[:2]) + out)


def _vjp_ref(forward, in_shape_fn):
    def ref(g, input_size, *args, **kwargs):
        jax, jnp = _jax()
        z = jnp.zeros(tuple(g.shape[:2]) + tuple(input_size), dtype=g.dtype)
        _, f = jax.vjp(lambda t: forward(t, *args, **kwargs), z)
        return f(g)[0]
    return ref


ref_avg_pool_backward = _vjp_ref(ref_avg_pool, None)


def ref_adaptive_avg_pool(x, output_size):
    _, jnp = _jax()
    table = _adaptive_table(x.shape[2:], output_size)
    g = _gather(x, table, 0.0)
    counts = (table >= 0).sum(axis=-1).astype(x.dtype)
    return jnp.reshape(jnp.sum(g, axis=-1) / counts, tuple(x.shape[:2]) + tuple(output_size))


def ref_adaptive_avg_pool_backward(g, input_size):
    jax, jnp = _jax()
    z = jnp.zeros(tuple(g.shape[:2]) + tuple(input_size), dtype=g.dtype)
    _, f = jax.vjp(lambda t: ref_adaptive_avg_pool(t, g.shape[2:]), z)
    return f(g)[0]


def ref_im2col(x, kernel_size, dilation=None, padding=None, stride=None):
    _, jnp = _jax()
    nd = x.ndim - 2
    k = tuple(kernel_size)
    d = tuple(dilation or (1,) * nd)
    p = tuple(padding or (0,) * nd)
    s = tuple(stride or (1,) * nd)
    out = tuple((i + 2 * pp - dd * (kk - 1) - 1) // ss + 1
                for i, kk, ss, pp, dd in zip(x.shape[2:], k, s, p, d))
    g = _gather(x, _fixed_table(x.shape[2:], k, s, p, d, out), 0.0)  # (N, C, L, K)
    g = jnp.swapaxes(g, -1, -2)
    return jnp.reshape(g, (x.shape[0], -1, g.shape[-1]))


def ref_col2im(x, output_size, kernel_size, dilation=None, padding=None, stride=None):
    jax, jnp = _jax()
    kprod = int(np.prod(kernel_size))
    z = jnp.zeros((x.shape[0], x.shape[1] // kprod) + tuple(output_size), dtype=x.dtype)
    _, f = jax.vjp(lambda t: ref_im2col(t, kernel_size, dilation, padding, stride), z)
    return f(x)[0]


# --- samples ------------------------------------------------------------------------------------

def _conv_samples(rng, dtype):
    return [
        Sample((Arg((2, 3, 6, 5)), Arg((4, 3, 3, 2)), Arg((4,))),
               {"stride": (2, 1), "padding": ((1, 1), (0, 1))}, name="2d_stride_asym_pad"),
        Sample((Arg((1, 4, 7)), Arg((6, 2, 3)), None),
               {"dilation": (2,), "groups": 2, "padding": ((2, 2),)}, name="1d_groups_dil"),
        Sample((Arg((2, 2, 3, 4, 3), layout="strided"), Arg((2, 2, 2, 2, 2)), Arg((2,))),
               {"stride": (1, 2, 1)}, name="3d_strided_input"),
    ]


def _conv_transpose_samples(rng, dtype):
    return [
        Sample((Arg((2, 4, 3, 3)), Arg((4, 3, 3, 2)), Arg((3,))),
               {"stride": (2, 1), "padding": ((1, 1), (0, 0)), "output_padding": (1, 0)},
               name="2d_stride_outpad"),
        Sample((Arg((1, 4, 5), layout="negative"), Arg((4, 1, 3)), None),
               {"dilation": (2,), "groups": 2}, name="1d_groups_dil"),
    ]


def _conv_weight_grad_samples(rng, dtype):
    return [
        Sample((Arg((2, 3, 5, 4)), Arg((2, 4, 3, 2)), (3, 3)),
               {"stride": (1, 1), "padding": ((0, 0), (0, 0))}, name="2d"),
        Sample((Arg((2, 4, 7)), Arg((2, 2, 4)), (3,)),
               {"stride": (2,), "padding": ((1, 1),), "dilation": (1,), "groups": 2},
               name="1d_groups_stride"),
    ]


def _distinct(rng, shape, dt):
    """Values with no ties (max pooling's derivative is defined away from ties)."""
    n = int(np.prod(shape)) if shape else 1
    return (rng.permutation(n).reshape(shape) * 0.37 - n * 0.1).astype(dt)


def _max_pool_samples(rng, dtype):
    return [
        Sample((Arg((2, 2, 5, 5)), (2, 2)), {"stride": (2, 2), "padding": (1, 1),
                                              "ceil_mode": True}, name="2d_ceil_pad"),
        Sample((Arg((1, 3, 9), layout="strided"), (3,)),
               {"stride": (2,), "dilation": (2,)}, name="1d_dilated"),
        Sample((Arg((1, 1, 4, 4, 3)), (2, 2, 2)), {}, name="3d"),
    ]


def _adaptive_max_pool_samples(rng, dtype):
    return [Sample((Arg((2, 2, 5, 7)), (3, 2)), name="2d"),
            Sample((Arg((1, 3, 10)), (4,)), name="1d")]


def _max_pool_backward_samples(rng, dtype):
    idx = np.array([[[[0, 3], [9, 14]], [[5, 2], [10, 15]]]], dtype=np.int64)
    idx_rep = np.array([[[[0, 0], [6, 6]]]], dtype=np.int64)
    return [Sample((Arg((1, 2, 2, 2)), idx, (4, 4)), name="2d"),
            Sample((Arg((1, 1, 2, 2)), idx_rep, (3, 3)), name="repeated_indices")]


def _avg_pool_samples(rng, dtype):
    return [
        Sample((Arg((2, 2, 5, 6)), (3, 2)),
               {"stride": (2, 2), "padding": (1, 1), "ceil_mode": True,
                "count_include_pad": False}, name="2d_ceil_exclude_pad"),
        Sample((Arg((1, 3, 7), layout="negative"), (3,)), {"padding": (1,)},
               name="1d_include_pad"),
        Sample((Arg((1, 2, 4, 4)), (2, 2)), {"padding": (1, 1), "divisor_override": 3},
               name="2d_divisor"),
    ]


def _avg_pool_backward_samples(rng, dtype):
    return [
        Sample((Arg((2, 2, 3, 4)), (5, 6), (3, 2)),
               {"stride": (2, 2), "padding": (1, 1), "ceil_mode": True,
                "count_include_pad": False}, name="2d"),
        Sample((Arg((1, 3, 7)), (7,), (3,)), {"stride": (1,), "padding": (1,)}, name="1d"),
    ]


def _adaptive_avg_pool_samples(rng, dtype):
    return [Sample((Arg((2, 2, 5, 7)), (3, 4)), name="2d"),
            Sample((Arg((1, 3, 10), layout="strided"), (4,)), name="1d")]


def _adaptive_avg_pool_backward_samples(rng, dtype):
    return [Sample((Arg((2, 2, 3, 4)), (5, 7)), name="2d"),
            Sample((Arg((1, 3, 4)), (10,)), name="1d")]


def _im2col_samples(rng, dtype):
    return [
        Sample((Arg((2, 2, 5, 4)), (3, 2)),
               {"dilation": (1, 2), "padding": (1, 0), "stride": (2, 1)}, name="2d"),
        Sample((Arg((1, 3, 6)), (2,)), {"stride": (2,)}, name="1d"),
    ]


def _col2im_samples(rng, dtype):
    # (N, C*K, L) for output (5, 4), kernel (3, 2), dilation (1, 2), padding (1, 0),
    # stride (2, 1): blocks (3, 2) -> L = 6, K = 6.
    return [
        Sample((Arg((2, 12, 6)), (5, 4), (3, 2)),
               {"dilation": (1, 2), "padding": (1, 0), "stride": (2, 1)}, name="2d"),
        Sample((Arg((1, 6, 3)), (6,), (2,)), {"stride": (2,)}, name="1d"),
    ]


def build(add):
    add(OpInfo("conv", _conv_samples, ref_conv, rtol=1e-11))
    add(OpInfo("conv_transpose", _conv_transpose_samples, ref_conv_transpose, rtol=1e-11))
    add(OpInfo("conv_weight_grad", _conv_weight_grad_samples, ref_conv_weight_grad,
               rtol=1e-11))
    add(OpInfo("max_pool", _max_pool_samples, ref_max_pool, sampler=_distinct))
    add(OpInfo("adaptive_max_pool", _adaptive_max_pool_samples, ref_adaptive_max_pool,
               sampler=_distinct))
    add(OpInfo("max_pool_backward", _max_pool_backward_samples, ref_max_pool_backward))
    add(OpInfo("avg_pool", _avg_pool_samples, ref_avg_pool))
    add(OpInfo("avg_pool_backward", _avg_pool_backward_samples, ref_avg_pool_backward))
    add(OpInfo("adaptive_avg_pool", _adaptive_avg_pool_samples, ref_adaptive_avg_pool))
    add(OpInfo("adaptive_avg_pool_backward", _adaptive_avg_pool_backward_samples,
               ref_adaptive_avg_pool_backward))
    add(OpInfo("im2col", _im2col_samples, ref_im2col))
    add(OpInfo("col2im", _col2im_samples, ref_col2im))
