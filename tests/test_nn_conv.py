"""ac.nn.functional's convolutions, pools, unfold and fold against torch.nn.functional (2.13
CPU) with identical inputs and weights: forward values and the tape's gradients (input,
weight, bias) over a grid of stride / padding / dilation / groups / shapes in float32 and
float64, unbatched and non-contiguous inputs, errors naming the function; `ac.func.grad`,
`vmap` and `jvp` against the tape / per-example loops / torch.func.jvp; double backward
against torch.  The op-table rules themselves are also swept by tests/test_autodiff_ops.py
(metadata in tests/autodiff_op_info_nn_conv.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
from arraycore.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

DTYPES = ["float64", "float32"]


def tol(dtype):
    return 1e-12 if dtype == "float64" else 2e-5


def close(ours, ref, dtype, what=""):
    a = np.asarray(ours)
    b = ref.detach().numpy() if isinstance(ref, torch.Tensor) else np.asarray(ref)
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != {b.dtype}"
    if a.dtype.kind in "iu":
        np.testing.assert_array_equal(a, b, err_msg=what)
        return
    scale = max(1.0, float(np.max(np.abs(b)))) if b.size else 1.0
    r = tol(str(a.dtype))
    np.testing.assert_allclose(a, b, rtol=r, atol=r * scale, err_msg=what)


def rand(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def pair(v, requires_grad=True):
    """(arraycore array, torch tensor) with the same values; both require grad."""
    if v is None:
        return None, None
    a = ac.asarray(v, copy=True)
    t = torch.from_numpy(v.copy())
    if requires_grad:
        a.requires_grad_()
        t.requires_grad_()
    return a, t


def check_fwd_bwd(ac_fn, torch_fn, arrays, dtype, rng, what):
    """Forward values and the tape's gradients of sum(out * g) for every array input."""
    acs, ts = zip(*[pair(v) for v in arrays])
    out = ac_fn(*acs)
    ref = torch_fn(*ts)
    close(out, ref, dtype, f"{what} forward")
    g = rand(rng, tuple(ref.shape), dtype)
    ac.sum(out * ac.asarray(g)).backward()
    (ref * torch.from_numpy(g)).sum().backward()
    for i, (a, t) in enumerate(zip(acs, ts)):
        if a is None:
            continue
        close(a.grad, t.grad, dtype, f"{what} grad of input {i}")


# --- convolutions -------------------------------------------------------------------------------

# (nd, N, Cin, Cout, spatial, kernel, stride, padding, dilation, groups, bias)
CONV_CASES = [
    (2, 2, 3, 4, (7, 6), (3, 3), 1, 1, 1, 1, True),
    (2, 2, 4, 6, (9, 8), (3, 2), (2, 1), (1, 0), (1, 2), 2, True),
    (2, 1, 6, 6, (5, 5), (3, 3), 2, 2, 1, 6, False),        # depthwise
    (2, 3, 2, 5, (4, 4), (1, 1), 1, 0, 1, 1, True),          # pointwise
    (2, 2, 2, 3, (6, 7), (2, 3), 3, "valid", 2, 1, True),
    (2, 2, 3, 4, (6, 7), (4, 3), 1, "same", (1, 2), 1, True),  # even kernel: asymmetric pad
    (1, 3, 4, 2, (11,), (3,), 2, 1, 2, 2, True),
    (1, 2, 3, 3, (8,), (4,), 1, "same", 1, 1, False),
    (3, 2, 2, 3, (4, 5, 4), (2, 3, 2), (1, 2, 1), (1, 0, 1), 1, 1, True),
    (3, 1, 4, 4, (3, 4, 5), (3, 3, 3), 1, "same", 1, 2, True),
    # many channels: the input gradient runs in blocks of input channels (conv_gemm.cpp)
    (2, 2, 64, 8, (16, 16), (3, 3), 1, 1, 1, 2, True),
    # output rows of 16+: the row-copy im2col/col2im (shorter rows take the gather map)
    (2, 2, 3, 4, (5, 20), (3, 3), 1, 1, 1, 1, True),
    (2, 1, 2, 3, (6, 40), (3, 3), 2, 1, (1, 2), 1, True),
    (1, 2, 3, 2, (40,), (3,), 1, 1, 1, 1, True),
]


def _conv_names(nd):
    return {1: ("conv1d", F.conv1d, TF.conv1d), 2: ("conv2d", F.conv2d, TF.conv2d),
            3: ("conv3d", F.conv3d, TF.conv3d)}[nd]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CONV_CASES, ids=[f"conv{c[0]}d-{i}" for i, c in
                                                  enumerate(CONV_CASES)])
def test_conv_matches_torch(case, dtype):
    nd, n, cin, cout, sp, k, stride, padding, dil, groups, has_bias = case
    rng = np.random.default_rng(hash(case) % 2**32)
    name, f_ac, f_t = _conv_names(nd)
    x = rand(rng, (n, cin) + sp, dtype)
    w = rand(rng, (cout, cin // groups) + k, dtype)
    b = rand(rng, (cout,), dtype) if has_bias else None
    kw = dict(stride=stride, padding=padding, dilation=dil, groups=groups)
    check_fwd_bwd(lambda x, w, b: f_ac(x, w, b, **kw), lambda x, w, b: f_t(x, w, b, **kw),
                  [x, w, b], dtype, rng, name)


# (nd, N, Cin, Cout, spatial, kernel, stride, padding, output_padding, dilation, groups, bias)
CONVT_CASES = [
    (2, 2, 4, 3, (4, 5), (3, 3), 2, 1, 1, 1, 1, True),
    (2, 2, 3, 2, (4, 18), (3, 3), 1, 1, 0, 1, 1, True),     # rows of 16+: row-copy col2im
    (2, 1, 4, 6, (3, 3), (2, 3), (2, 3), (0, 1), (1, 2), 1, 2, True),
    (2, 2, 3, 2, (5, 4), (3, 2), 1, 0, 0, (2, 1), 1, False),
    (1, 2, 4, 4, (6,), (4,), 3, 2, 1, 2, 4, True),
    (1, 1, 2, 3, (5,), (1,), 1, 0, 0, 1, 1, True),
    (3, 1, 2, 2, (2, 3, 2), (2, 2, 3), (2, 1, 2), (0, 0, 1), (1, 0, 0), 1, 1, True),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CONVT_CASES, ids=[f"convT{c[0]}d-{i}" for i, c in
                                                   enumerate(CONVT_CASES)])
def test_conv_transpose_matches_torch(case, dtype):
    nd, n, cin, cout, sp, k, stride, padding, out_pad, dil, groups, has_bias = case
    rng = np.random.default_rng(hash(case) % 2**32)
    f_ac = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[nd]
    f_t = {1: TF.conv_transpose1d, 2: TF.conv_transpose2d, 3: TF.conv_transpose3d}[nd]
    x = rand(rng, (n, cin) + sp, dtype)
    w = rand(rng, (cin, cout // groups) + k, dtype)
    b = rand(rng, (cout,), dtype) if has_bias else None
    kw = dict(stride=stride, padding=padding, output_padding=out_pad, groups=groups,
              dilation=dil)
    check_fwd_bwd(lambda x, w, b: f_ac(x, w, b, **kw), lambda x, w, b: f_t(x, w, b, **kw),
                  [x, w, b], dtype, rng, f"conv_transpose{nd}d")


@pytest.mark.parametrize("dtype", DTYPES)
def test_conv_unbatched_and_noncontiguous(dtype):
    rng = np.random.default_rng(1)
    x = rand(rng, (3, 9, 8), dtype)
    w = rand(rng, (5, 3, 3, 3), dtype)
    b = rand(rng, (5,), dtype)
    close(F.conv2d(ac.asarray(x), ac.asarray(w), ac.asarray(b), padding=1),
          TF.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b), padding=1),
          dtype, "unbatched conv2d")
    # transposed spatial axes and a strided channel axis
    base = rand(rng, (2, 6, 8, 9), dtype)
    xa = ac.permute_dims(ac.asarray(base), (0, 1, 3, 2))[:, ::2]
    xt = torch.from_numpy(base).permute(0, 1, 3, 2)[:, ::2]
    assert not np.asarray(xa).flags["C_CONTIGUOUS"]
    close(F.conv2d(xa, ac.asarray(w), stride=2), TF.conv2d(xt, torch.from_numpy(w), stride=2),
          dtype, "non-contiguous conv2d")
    wt = rand(rng, (3, 2, 2, 2), dtype)
    close(F.conv_transpose2d(ac.asarray(x), ac.asarray(wt), stride=2),
          TF.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(wt), stride=2),
          dtype, "unbatched conv_transpose2d")


def test_conv_errors_name_the_function():
    x = ac.ones((1, 3, 5, 5))
    w = ac.ones((4, 3, 3, 3))
    with pytest.raises(ValueError, match="conv2d.*3 channels, but got 2"):
        F.conv2d(ac.ones((1, 2, 5, 5)), w)
    with pytest.raises(ValueError, match="conv2d.*divisible by 3"):
        F.conv2d(x, ac.ones((4, 1, 3, 3)), groups=3)
    with pytest.raises(ValueError, match="conv2d: negative padding"):
        F.conv2d(x, w, padding=-1)
    with pytest.raises(ValueError, match="conv2d.*stride"):
        F.conv2d(x, w, stride=0)
    with pytest.raises(ValueError, match="conv2d: padding='same' is not supported for strided"):
        F.conv2d(x, w, stride=2, padding="same")
    with pytest.raises(ValueError, match="conv2d: invalid padding string"):
        F.conv2d(x, w, padding="full")
    with pytest.raises(ValueError, match="conv2d: expected 3D .unbatched. or 4D"):
        F.conv2d(ac.ones((5, 5)), w)
    with pytest.raises(ValueError, match="conv2d.*smaller than the dilated kernel"):
        F.conv2d(ac.ones((1, 3, 2, 2)), w)
    with pytest.raises(TypeError, match="conv2d.*floating-point input"):
        F.conv2d(ac.ones((1, 3, 5, 5), dtype=ac.int32), w)
    with pytest.raises(TypeError, match="conv2d.*same dtype"):
        F.conv2d(ac.ones((1, 3, 5, 5), dtype=ac.float32), w)
    with pytest.raises(ValueError, match="conv1d.*bias of shape"):
        F.conv1d(ac.ones((1, 3, 5)), ac.ones((4, 3, 3)), ac.ones(3))
    with pytest.raises(ValueError, match="conv_transpose2d.*output padding must be smaller"):
        F.conv_transpose2d(x, ac.ones((3, 2, 3, 3)), output_padding=1)
    with pytest.raises(ValueError, match="conv_transpose2d.*channels"):
        F.conv_transpose2d(x, ac.ones((2, 2, 3, 3)))
    with pytest.raises(ValueError, match="conv3d.*groups must be a positive"):
        F.conv3d(ac.ones((1, 2, 3, 3, 3)), ac.ones((2, 2, 1, 1, 1)), groups=0)


# --- pooling --------------------------------------------------------------------------------------

MAX_POOL_CASES = [
    (2, (2, 3, 7, 6), dict(kernel_size=2)),
    (2, (1, 2, 7, 8), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    (2, (2, 2, 9, 9), dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 0), dilation=(2, 3))),
    (1, (2, 3, 11), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    (1, (3, 10), dict(kernel_size=4, dilation=2)),                                   # unbatched
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", MAX_POOL_CASES, ids=[str(i) for i in range(len(MAX_POOL_CASES))])
def test_max_pool_matches_torch(case, dtype):
    nd, shape, kw = case
    rng = np.random.default_rng(7)
    x = rand(rng, shape, dtype)
    f_ac = {1: F.max_pool1d, 2: F.max_pool2d}[nd]
    f_t = {1: TF.max_pool1d, 2: TF.max_pool2d}[nd]
    out, idx = f_ac(ac.asarray(x), return_indices=True, **kw)
    ref, ridx = f_t(torch.from_numpy(x), return_indices=True, **kw)
    close(out, ref, dtype, "max_pool values")
    close(idx, ridx, dtype, "max_pool indices")
    check_fwd_bwd(lambda x: f_ac(x, **kw), lambda x: f_t(x, **kw), [x], dtype, rng,
                  f"max_pool{nd}d")


def test_max_pool_nan_and_ties_follow_torch():
    x = np.array([[[1.0, np.nan, 3.0, 3.0, -np.inf, -np.inf, 2.0, 2.0]]])
    out, idx = F.max_pool1d(ac.asarray(x), 2, return_indices=True)
    ref, ridx = TF.max_pool1d(torch.from_numpy(x), 2, return_indices=True)
    np.testing.assert_array_equal(np.asarray(out), ref.numpy())
    np.testing.assert_array_equal(np.asarray(idx), ridx.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("nd,kw", [(2, dict(kernel_size=2)), (2, dict(kernel_size=3, stride=3)),
                                   (2, dict(kernel_size=(2, 3), stride=(1, 2))),
                                   (3, dict(kernel_size=2)), (1, dict(kernel_size=3, stride=1))])
def test_max_pool_long_rows_with_specials_follow_torch(nd, kw, dtype):
    """Rows long enough for the vectorized row loop (kernels/pool_max.cpp), with NaN, ties
    (small integers) and -inf windows mixed in: values and indices equal torch's."""
    rng = np.random.default_rng(3)
    shape = {1: (2, 3, 61), 2: (2, 3, 9, 40), 3: (1, 2, 4, 6, 36)}[nd]
    x = rng.integers(-2, 3, size=shape).astype(dtype)
    flat = x.reshape(-1)
    flat[rng.random(flat.size) < 0.05] = np.nan
    flat[rng.random(flat.size) < 0.1] = -np.inf
    f_ac = getattr(F, f"max_pool{nd}d")
    f_t = getattr(TF, f"max_pool{nd}d")
    out, idx = f_ac(ac.asarray(x), return_indices=True, **kw)
    ref, ridx = f_t(torch.from_numpy(x), return_indices=True, **kw)
    np.testing.assert_array_equal(np.asarray(out), ref.numpy())
    np.testing.assert_array_equal(np.asarray(idx), ridx.numpy())


AVG_POOL_CASES = [
    (2, (2, 3, 7, 6), dict(kernel_size=2)),
    (2, (1, 2, 7, 8), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    (2, (2, 2, 7, 7), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True,
                           count_include_pad=False)),
    (2, (1, 2, 6, 5), dict(kernel_size=(3, 2), padding=(1, 1), divisor_override=5)),
    (1, (2, 3, 11), dict(kernel_size=3, stride=2, padding=1, count_include_pad=False)),
    (1, (3, 9), dict(kernel_size=4, stride=3, ceil_mode=True)),                      # unbatched
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", AVG_POOL_CASES, ids=[str(i) for i in range(len(AVG_POOL_CASES))])
def test_avg_pool_matches_torch(case, dtype):
    nd, shape, kw = case
    rng = np.random.default_rng(8)
    x = rand(rng, shape, dtype)
    f_ac = {1: F.avg_pool1d, 2: F.avg_pool2d}[nd]
    f_t = {1: TF.avg_pool1d, 2: TF.avg_pool2d}[nd]
    check_fwd_bwd(lambda x: f_ac(x, **kw), lambda x: f_t(x, **kw), [x], dtype, rng,
                  f"avg_pool{nd}d")


ADAPTIVE_CASES = [((2, 3, 7, 5), (3, 2)), ((1, 2, 5, 9), (5, None)), ((2, 2, 6, 6), 1),
                  ((3, 4, 7), (4, 3))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", ADAPTIVE_CASES, ids=[str(i) for i in range(len(ADAPTIVE_CASES))])
def test_adaptive_pools_match_torch(case, dtype):
    shape, size = case
    rng = np.random.default_rng(9)
    x = rand(rng, shape, dtype)
    check_fwd_bwd(lambda x: F.adaptive_avg_pool2d(x, size),
                  lambda x: TF.adaptive_avg_pool2d(x, size), [x], dtype, rng, "adaptive_avg2d")
    check_fwd_bwd(lambda x: F.adaptive_max_pool2d(x, size),
                  lambda x: TF.adaptive_max_pool2d(x, size), [x], dtype, rng, "adaptive_max2d")
    out, idx = F.adaptive_max_pool2d(ac.asarray(x), size, return_indices=True)
    ref, ridx = TF.adaptive_max_pool2d(torch.from_numpy(x), size, return_indices=True)
    close(idx, ridx, dtype, "adaptive_max_pool2d indices")
    x1 = rand(rng, shape[:-2] + (shape[-1] * 2 + 1,), dtype)
    s1 = size if isinstance(size, int) else size[0]
    check_fwd_bwd(lambda x: F.adaptive_avg_pool1d(x, s1),
                  lambda x: TF.adaptive_avg_pool1d(x, s1), [x1], dtype, rng, "adaptive_avg1d")


UNFOLD_CASES = [((2, 3, 6, 5), dict(kernel_size=3, padding=1)),
                ((1, 2, 7, 8), dict(kernel_size=(2, 3), dilation=(2, 1), padding=(1, 2),
                                    stride=(2, 3))),
                ((3, 5, 5), dict(kernel_size=2, stride=2))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", UNFOLD_CASES, ids=[str(i) for i in range(len(UNFOLD_CASES))])
def test_unfold_fold_match_torch(case, dtype):
    shape, kw = case
    rng = np.random.default_rng(10)
    x = rand(rng, shape, dtype)
    check_fwd_bwd(lambda x: F.unfold(x, **kw), lambda x: TF.unfold(x, **kw), [x], dtype, rng,
                  "unfold")
    cols = TF.unfold(torch.from_numpy(x), **kw).numpy()
    cols = rand(rng, cols.shape, dtype)
    size = shape[-2:]
    check_fwd_bwd(lambda c: F.fold(c, size, **kw), lambda c: TF.fold(c, size, **kw), [cols],
                  dtype, rng, "fold")


def test_pool_errors_name_the_function():
    x = ac.ones((1, 2, 5, 5))
    with pytest.raises(ValueError, match="max_pool2d: pad should be at most half"):
        F.max_pool2d(x, 2, padding=2)
    with pytest.raises(ValueError, match="avg_pool2d: pad should be smaller"):
        F.avg_pool2d(x, 2, padding=2)
    with pytest.raises(ValueError, match="avg_pool2d: divisor_override"):
        F.avg_pool2d(x, 2, divisor_override=0)
    with pytest.raises(ValueError, match="max_pool1d: expected 2D .unbatched. or 3D"):
        F.max_pool1d(x, 2)
    with pytest.raises(ValueError, match="max_pool2d.*kernel_size must be positive"):
        F.max_pool2d(x, 0)
    with pytest.raises(ValueError, match="max_pool2d: output size"):
        F.max_pool2d(ac.ones((1, 1, 2, 2)), 3)
    with pytest.raises(TypeError, match="avg_pool1d.*floating-point"):
        F.avg_pool1d(ac.ones((1, 2, 5), dtype=ac.int64), 2)
    with pytest.raises(ValueError, match="adaptive_avg_pool2d: output_size"):
        F.adaptive_avg_pool2d(x, (1, 2, 3))
    with pytest.raises(ValueError, match="fold: expected"):
        F.fold(ac.ones((1, 5, 9)), (4, 4), 2)
    with pytest.raises(ValueError, match="unfold: expected 3D"):
        F.unfold(ac.ones((2, 2)), 2)


# --- transforms and double backward ----------------------------------------------------------------

def _conv_loss(x, w, b, g):
    return ac.sum(F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2) * g)


def test_func_grad_jvp_vmap_match_tape():
    rng = np.random.default_rng(11)
    x = rand(rng, (2, 4, 7, 8), "float64")
    w = rand(rng, (6, 2, 3, 3), "float64")
    b = rand(rng, (6,), "float64")
    y = F.conv2d(ac.asarray(x), ac.asarray(w), ac.asarray(b), stride=(2, 1), padding=1,
                 dilation=(1, 2), groups=2)
    g = ac.asarray(rand(rng, tuple(y.shape), "float64"))
    xa, wa, ba = (ac.asarray(v, copy=True) for v in (x, w, b))
    for v in (xa, wa, ba):
        v.requires_grad_()
    _conv_loss(xa, wa, ba, g).backward()
    grads = ac.func.grad(_conv_loss, argnums=(0, 1, 2))(ac.asarray(x), ac.asarray(w),
                                                         ac.asarray(b), g)
    for got, want in zip(grads, (xa.grad, wa.grad, ba.grad)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12, atol=1e-12)

    # jvp against torch.func.jvp
    tx, tw, tb = (rand(rng, v.shape, "float64") for v in (x, w, b))

    def f_ac(x, w, b):
        return F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2)

    def f_t(x, w, b):
        return TF.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2)

    _, t_ac = ac.func.jvp(f_ac, tuple(ac.asarray(v) for v in (x, w, b)),
                          tuple(ac.asarray(v) for v in (tx, tw, tb)))
    _, t_t = torch.func.jvp(f_t, tuple(torch.from_numpy(v) for v in (x, w, b)),
                            tuple(torch.from_numpy(v) for v in (tx, tw, tb)))
    close(t_ac, t_t, "float64", "jvp")

    # vmap over a batched input, a batched weight, both (and a batched bias), at axis 1
    xs = rand(rng, (2, 3, 4, 7, 8), "float64")       # vmapped axis 1
    ws = rand(rng, (3, 6, 2, 3, 3), "float64")
    bs = rand(rng, (3, 6), "float64")
    for in_dims, args in [((1, None, None), (xs, w, b)), ((None, 0, None), (x, ws, b)),
                          ((1, 0, 0), (xs, ws, bs))]:
        out = ac.func.vmap(f_ac, in_dims=in_dims)(*[ac.asarray(a) for a in args])
        want = [f_t(*[torch.from_numpy(np.take(a, i, axis=d) if d is not None else a)
                      for a, d in zip(args, in_dims)]) for i in range(3)]
        close(out, torch.stack(want), "float64", f"vmap {in_dims}")


def test_vmap_of_grad_per_example():
    """Per-example weight gradients (vmap(grad)) equal the loop over examples."""
    rng = np.random.default_rng(12)
    x = rand(rng, (4, 1, 3, 6, 6), "float64")
    w = rand(rng, (5, 3, 3, 3), "float64")

    def loss(w, x):
        h = F.max_pool2d(ac.tanh(F.conv2d(x, w, padding=1)), 2)
        return ac.sum(F.avg_pool2d(h, 3) ** 2)

    per = ac.func.vmap(ac.func.grad(loss), in_dims=(None, 0))(ac.asarray(w), ac.asarray(x))
    for i in range(4):
        wt = torch.from_numpy(w.copy()).requires_grad_()
        h = TF.max_pool2d(torch.tanh(TF.conv2d(torch.from_numpy(x[i]), wt, padding=1)), 2)
        (TF.avg_pool2d(h, 3) ** 2).sum().backward()
        close(per[i], wt.grad, "float64", f"per-example grad {i}")


@pytest.mark.parametrize("transpose", [False, True])
def test_double_backward_matches_torch(transpose):
    rng = np.random.default_rng(13)
    if transpose:
        x, w = rand(rng, (2, 4, 4, 3), "float64"), rand(rng, (4, 3, 3, 2), "float64")
        kw = dict(stride=2, padding=1, output_padding=1, groups=1)
        f_ac, f_t = F.conv_transpose2d, TF.conv_transpose2d
    else:
        x, w = rand(rng, (2, 4, 6, 5), "float64"), rand(rng, (6, 2, 3, 2), "float64")
        kw = dict(stride=(2, 1), padding=1, groups=2)
        f_ac, f_t = F.conv2d, TF.conv2d
    b = rand(rng, (w.shape[1] if transpose else w.shape[0],), "float64")
    xa, xt = pair(x)
    wa, wt = pair(w)
    ba, bt = pair(b)
    ya, yt = f_ac(xa, wa, ba, **kw), f_t(xt, wt, bt, **kw)
    g = rand(rng, tuple(yt.shape), "float64")
    la = ac.sum(ac.tanh(ya) * ac.asarray(g))
    lt = (torch.tanh(yt) * torch.from_numpy(g)).sum()
    gx_a, gw_a = ac.autograd.grad(la, (xa, wa), create_graph=True)
    gx_t, gw_t = torch.autograd.grad(lt, (xt, wt), create_graph=True)
    close(gx_a, gx_t, "float64", "first derivative x")
    close(gw_a, gw_t, "float64", "first derivative w")
    va, vb = rand(rng, x.shape, "float64"), rand(rng, w.shape, "float64")
    sa = ac.sum(gx_a * ac.asarray(va)) + ac.sum(gw_a * ac.asarray(vb))
    st = (gx_t * torch.from_numpy(va)).sum() + (gw_t * torch.from_numpy(vb)).sum()
    dd_a = ac.autograd.grad(sa, (xa, wa, ba))
    dd_t = torch.autograd.grad(st, (xt, wt, bt))
    for a, t, nm in zip(dd_a, dd_t, ("x", "w", "b")):
        close(a, t, "float64", f"second derivative {nm}")


def test_pool_double_backward_matches_torch():
    rng = np.random.default_rng(14)
    x = rand(rng, (1, 2, 6, 6), "float64")
    xa, xt = pair(x)
    ya = F.avg_pool2d(F.max_pool2d(xa, 2, padding=1) ** 2, 2, ceil_mode=True)
    yt = TF.avg_pool2d(TF.max_pool2d(xt, 2, padding=1) ** 2, 2, ceil_mode=True)
    (ga,) = ac.autograd.grad(ac.sum(ya ** 2), (xa,), create_graph=True)
    (gt,) = torch.autograd.grad((yt ** 2).sum(), (xt,), create_graph=True)
    close(ga, gt, "float64", "first")
    v = rand(rng, x.shape, "float64")
    (dda,) = ac.autograd.grad(ac.sum(ga * ac.asarray(v)), (xa,))
    (ddt,) = torch.autograd.grad((gt * torch.from_numpy(v)).sum(), (xt,))
    close(dda, ddt, "float64", "second")


def test_big_batch_uses_threads_consistently():
    """Chunked gemms (several images per call) and the pool give the same values as torch
    for a batch large enough to split, in float32."""
    rng = np.random.default_rng(15)
    x = rand(rng, (37, 3, 10, 10), "float32")
    w = rand(rng, (8, 3, 3, 3), "float32")
    b = rand(rng, (8,), "float32")
    old = ac.get_num_threads()
    try:
        for threads in (1, 2):  # 2: chunks on the pool, weight-gradient partial sums added
            ac.set_num_threads(threads)
            check_fwd_bwd(lambda x, w, b: F.conv2d(x, w, b, padding=1),
                          lambda x, w, b: TF.conv2d(x, w, b, padding=1), [x, w, b], "float32",
                          rng, f"conv2d batch 37, {threads} threads")
            x64 = rand(rng, (9, 4, 7, 6), "float64")
            check_fwd_bwd(lambda x: F.max_pool2d(F.avg_pool2d(x, 2, 1), 2, 1),
                          lambda x: TF.max_pool2d(TF.avg_pool2d(x, 2, 1), 2, 1), [x64],
                          "float64", rng, f"pools, {threads} threads")
    finally:
        ac.set_num_threads(old)
