"""The native softmax / log_softmax / cross-entropy passes (kernels/nn_softmax.cpp) and the
normalization over trailing axes (kernels/nn_normalize.cpp) against
PyTorch 2.13 and against float64 references: every layout the (outer, n, inner) view has to
handle, IEEE special rows, the targets' checks, and the first-order native backward of
cross_entropy against the composite one that double backward still takes."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import arraycore as ac
import arraycore.nn.functional as F
from arraycore.native import _native

SHAPES_DIMS = [((7,), 0), ((3, 10), 1), ((3, 10), 0), ((2, 5, 3, 4), 1), ((2, 5, 3, 4), -1),
               ((4, 1), 1), ((1, 33), -1), ((2, 3, 1), 2)]
# float32: a few ulp of the largest output (the sum of exps rounds in float32);
# float64: rounding of the same few operations.
RTOL = {"float32": 2e-6, "float64": 4e-15}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,dim", SHAPES_DIMS)
@pytest.mark.parametrize("log", [False, True])
def test_softmax_matches_float64_reference(dtype, shape, dim, log, rng):
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    fn = F.log_softmax if log else F.softmax
    got = np.asarray(fn(ac.asarray(x), dim=dim))
    ref_fn = torch.log_softmax if log else torch.softmax
    ref = ref_fn(torch.from_numpy(x.astype(np.float64)), dim=dim).numpy()
    assert got.dtype == np.dtype(dtype)
    scale = np.maximum(np.abs(ref), 1.0) if log else np.abs(ref).max()
    assert np.max(np.abs(got - ref) / scale) <= RTOL[dtype]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 7, 1000, 4097, 9000])
def test_log_softmax_row_sums_with_terms_far_below_the_maximum(dtype, n, rng):
    """log_softmax sums exp(x - max) with nn_softmax_exp.h's exp_term (no gradual underflow:
    terms below e^-708, or e^-87 in float32, count as that bound; table-driven on AVX2
    builds): rows spread over the whole range below their maximum, with -inf entries, a row
    whose maximum is tied, rows longer than the 4096-element summation blocks, and a NaN
    row, against PyTorch in float64."""
    lo = -1000.0 if dtype == "float64" else -120.0
    x = rng.uniform(lo, 0, (5, n))
    x[:, :: max(1, n // 5)] = rng.uniform(-3, 0, x[:, :: max(1, n // 5)].shape)
    x[1, ::3] = -np.inf  # (n == 1: a row of -inf alone, NaN as PyTorch)
    x[2] = np.round(x[2])  # ties, exact integers
    x[3] *= 1e-3
    x[4, n // 2] = np.nan
    x = x.astype(dtype)
    got = np.asarray(F.log_softmax(ac.asarray(x), dim=1)).astype(np.float64)
    ref = torch.log_softmax(torch.from_numpy(x.astype(np.float64)), dim=1).numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    ok = np.isfinite(ref)
    np.testing.assert_array_equal(got[~ok], ref[~ok])
    scale = np.maximum(np.abs(ref[ok]), 1.0)
    assert np.max(np.abs(got[ok] - ref[ok]) / scale) <= RTOL[dtype]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_rows_near_the_underflow_bound(dtype, rng):
    """softmax takes exp without its clamps (exp_in_range) on rows whose every x - max is
    above -87 (float32) / -708 (float64), and simd_math's full exp on the others: rows just
    inside and just outside the bound (subnormal and zero results), with -inf and NaN
    entries, must give the values of PyTorch in float64 rounded to the dtype, with the
    zeros, and a row shifted inside the bound the same bits as the exp path (both evaluate
    exp's reduction and polynomial)."""
    bound = 87.0 if dtype == "float32" else 708.0
    rows = [[0.0, -1.0, -(bound - 0.01), -(bound - 0.5)],           # inside: exp_in_range
            [0.0, -1.0, -(bound + 0.01), -(bound + 20.0)],          # outside: full exp
            [0.0, -1.0, -np.inf, -2.0],
            [0.0, -1.0, np.nan, -2.0],
            [0.0, -1.0, -(bound + 60.0), -(bound + 800.0)]]
    x = np.array(rows, dtype=dtype)
    got = np.asarray(F.softmax(ac.asarray(x), dim=1))
    ref = torch.softmax(torch.from_numpy(x.astype(np.float64)), dim=1).numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    ok = ~np.isnan(ref)
    np.testing.assert_array_equal(got[ok] == 0, ref[ok].astype(dtype) == 0)
    tiny = np.finfo(dtype).tiny
    normal = ok & (np.abs(ref) >= tiny)
    np.testing.assert_allclose(got[normal], ref[normal], rtol=4 * np.finfo(dtype).eps)
    sub = ok & (np.abs(ref) < tiny)  # subnormal results: within a few subnormal steps
    assert np.all(np.abs(got[sub] - ref[sub]) <= 4 * np.finfo(dtype).smallest_subnormal)
    # the same row through both paths: x and x with one entry pushed past the bound
    y = rng.uniform(-(bound - 1.0), 0.0, (1, 300)).astype(dtype)
    y[0, 0] = 0
    z = np.concatenate([y, np.full((1, 1), -(bound + 50.0), dtype=dtype)], axis=1)
    a = np.asarray(F.softmax(ac.asarray(y), dim=1))
    b = np.asarray(F.softmax(ac.asarray(z), dim=1))[:, :300]
    np.testing.assert_array_equal(a, b)  # the extra term is below the sum's last bit


@pytest.mark.parametrize("log", [False, True])
def test_softmax_non_contiguous_and_negative_strides(log, rng):
    x = rng.standard_normal((6, 8))
    a = ac.asarray(x)
    fn, ref_fn = (F.log_softmax, torch.log_softmax) if log else (F.softmax, torch.softmax)
    for view, ref in [(a.mT, x.T), (a[::-1, ::2], x[::-1, ::2])]:
        want = ref_fn(torch.from_numpy(np.ascontiguousarray(ref)), dim=1).numpy()
        np.testing.assert_allclose(np.asarray(fn(view, dim=1)), want, rtol=4e-15, atol=0)


def test_softmax_special_rows_match_torch():
    inf, nan = float("inf"), float("nan")
    x = np.array([[inf, 1.0, 2.0], [-inf, -inf, -inf], [nan, 1.0, 2.0], [-inf, 0.0, 1.0],
                  [1e308, 1e308, -1e308]])
    for fn, ref_fn in [(F.softmax, torch.softmax), (F.log_softmax, torch.log_softmax)]:
        got = np.asarray(fn(ac.asarray(x), dim=1))
        want = ref_fn(torch.from_numpy(x), dim=1).numpy()
        # Rows 1-4: PyTorch's values exactly (NaN where it has NaN).  Row 0 (+inf): NaN at
        # the +inf entry, as PyTorch; its other entries are 0 here (PyTorch: NaN).
        np.testing.assert_array_equal(got[1:], want[1:])
        assert np.isnan(got[0, 0])


def test_safe_softmax_gives_zeros_for_fully_masked_rows():
    x = np.array([[-np.inf, -np.inf], [0.0, -np.inf]], np.float32)
    got = np.asarray(_native.nn_softmax(ac.asarray(x), 1, False, True))
    np.testing.assert_array_equal(got, [[0.0, 0.0], [1.0, 0.0]])
    x3 = np.full((2, 3, 4), -np.inf)
    x3[0, 1, 2] = 5.0
    got3 = np.asarray(_native.nn_softmax(ac.asarray(x3), 1, False, True))
    want3 = np.zeros_like(x3)
    want3[0, 1, 2] = 1.0
    np.testing.assert_array_equal(got3, want3)


def test_softmax_empty_and_errors():
    assert F.softmax(ac.zeros((0, 3)), dim=1).shape == (0, 3)
    assert _native.nn_softmax(ac.zeros((3, 0)), 1, True).shape == (3, 0)
    with pytest.raises(ValueError, match="log_softmax: axis 2"):
        _native.nn_softmax(ac.zeros((3, 4)), 2, True)
    with pytest.raises(TypeError, match="softmax"):
        _native.nn_softmax(ac.zeros((3, 4), dtype=ac.int32), 1, False)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("extra", [(), (3, 2)])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_cross_entropy_native_path_forward_backward(dtype, extra, reduction, rng):
    n, c = 6, 5
    x = (rng.standard_normal((n, c) + extra) * 2).astype(dtype)
    t = rng.integers(0, c, size=(n,) + extra)
    xa = ac.asarray(x)
    xa.requires_grad_(True)
    loss = F.cross_entropy(xa, ac.asarray(t), reduction=reduction)
    xt = torch.from_numpy(x).requires_grad_(True)
    lt = torch.nn.functional.cross_entropy(xt, torch.from_numpy(t), reduction=reduction)
    tol = dict(rtol=RTOL[dtype] * 4, atol=RTOL[dtype])
    np.testing.assert_allclose(np.asarray(loss.detach()), lt.detach().numpy(), **tol)
    seed = rng.standard_normal(tuple(lt.shape)).astype(dtype)
    loss.backward(ac.asarray(seed))
    lt.backward(torch.from_numpy(seed))
    np.testing.assert_allclose(np.asarray(xa.grad), xt.grad.numpy(), **tol)


def test_cross_entropy_double_backward_matches_torch(rng):
    x = rng.standard_normal((4, 3))
    t = rng.integers(0, 3, size=4)
    xa = ac.asarray(x)
    xa.requires_grad_(True)
    (g,) = ac.autograd.grad(F.cross_entropy(xa, ac.asarray(t)), xa, create_graph=True)
    (gg,) = ac.autograd.grad(ac.sum(g * g), xa)
    xt = torch.from_numpy(x).requires_grad_(True)
    (gt,) = torch.autograd.grad(torch.nn.functional.cross_entropy(xt, torch.from_numpy(t)),
                                xt, create_graph=True)
    (ggt,) = torch.autograd.grad((gt * gt).sum(), xt)
    np.testing.assert_allclose(np.asarray(g.detach()), gt.detach().numpy(), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(gg), ggt.numpy(), rtol=1e-13, atol=1e-16)


def test_cross_entropy_targets_checked_natively():
    x = ac.zeros((3, 4))
    with pytest.raises(IndexError, match=r"cross_entropy: Target 4 is out of bounds"):
        F.cross_entropy(x, ac.asarray([0, 4, 1]))
    with pytest.raises(IndexError, match=r"nll_loss: Target -2 is out of bounds"):
        F.nll_loss(x, ac.asarray([0, -2, 1]))
    assert _native.nn_check_class_targets(ac.asarray([0, -100, 3, -100]), 4, -100, "f") == 2
    # An ignored target takes the general path: the mean is over the others (PyTorch).
    xv = np.arange(12.0).reshape(3, 4) / 7
    got = F.cross_entropy(ac.asarray(xv), ac.asarray([1, -100, 3]))
    want = torch.nn.functional.cross_entropy(torch.from_numpy(xv), torch.tensor([1, -100, 3]))
    np.testing.assert_allclose(float(got), float(want), rtol=1e-15)


# --- normalization over trailing axes (kernels/nn_normalize.cpp) ------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,normalized", [((6, 33), (33,)), ((2, 3, 4, 5), (4, 5)),
                                              ((7,), (7,)), ((3, 1), (1,))])
def test_layer_norm_native_forward_backward_match_torch(dtype, shape, normalized, rng):
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    w = rng.standard_normal(normalized).astype(dtype)
    b = rng.standard_normal(normalized).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    xa, wa, ba = ac.asarray(x), ac.asarray(w), ac.asarray(b)
    for a in (xa, wa, ba):
        a.requires_grad_(True)
    y = F.layer_norm(xa, normalized, wa, ba)
    y.backward(ac.asarray(g))
    xt, wt, bt = (torch.from_numpy(v).requires_grad_(True) for v in (x, w, b))
    yt = torch.nn.functional.layer_norm(xt, normalized, wt, bt)
    yt.backward(torch.from_numpy(g))
    tol = dict(rtol=1e-5, atol=1e-5) if dtype == "float32" else dict(rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(y.detach()), yt.detach().numpy(), **tol)
    for a, t in ((xa, xt), (wa, wt), (ba, bt)):
        np.testing.assert_allclose(np.asarray(a.grad), t.grad.numpy(), **tol)


def test_layer_norm_native_non_contiguous_and_double_backward(rng):
    x = rng.standard_normal((5, 8))
    xa = ac.asarray(x).mT  # (8, 5), non-contiguous
    xa_leaf = ac.asarray(np.ascontiguousarray(x.T))
    want = torch.nn.functional.layer_norm(torch.from_numpy(np.ascontiguousarray(x.T)), (5,))
    np.testing.assert_allclose(np.asarray(F.layer_norm(xa, (5,))), want.numpy(), rtol=1e-13,
                               atol=1e-14)
    # double backward takes the composite (create_graph): compare with torch
    xa_leaf.requires_grad_(True)
    (g1,) = ac.autograd.grad(ac.sum(F.layer_norm(xa_leaf, (5,)) ** 3), xa_leaf,
                             create_graph=True)
    (g2,) = ac.autograd.grad(ac.sum(g1 * g1), xa_leaf)
    xt = torch.from_numpy(np.ascontiguousarray(x.T)).requires_grad_(True)
    (t1,) = torch.autograd.grad((torch.nn.functional.layer_norm(xt, (5,)) ** 3).sum(), xt,
                                create_graph=True)
    (t2,) = torch.autograd.grad((t1 * t1).sum(), xt)
    np.testing.assert_allclose(np.asarray(g2), t2.numpy(), rtol=1e-10, atol=1e-12)


def test_normalize_native_empty_and_errors():
    xh, m, v = _native.nn_normalize_trailing(ac.zeros((3, 0)), 1, 1e-5)
    assert xh.shape == (3, 0) and m.shape == (3, 1) and np.isnan(np.asarray(m)).all()
    with pytest.raises(ValueError, match="normalize: cannot normalize over the last 3 axes"):
        _native.nn_normalize_trailing(ac.zeros((3, 4)), 3, 1e-5)
    with pytest.raises(TypeError, match="normalize"):
        _native.nn_normalize_trailing(ac.zeros((3, 4), dtype=ac.int64), 1, 1e-5)


# --- gelu (kernels/nn_gelu.cpp) ------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_native_matches_torch(dtype, approximate, rng):
    x = np.concatenate([rng.standard_normal(4000) * 3,
                        [0.0, -0.0, 1e-30, -1e-30, 5.0, -5.0, 8.0, 30.0, 1e30, -1e30,
                         np.inf, -np.inf, np.nan]]).astype(dtype)
    g = rng.standard_normal(x.shape).astype(dtype)
    xa = ac.asarray(x)
    xa.requires_grad_(True)
    y = F.gelu(xa, approximate=approximate)
    y.backward(ac.asarray(g))
    xt = torch.from_numpy(x).requires_grad_(True)
    yt = torch.nn.functional.gelu(xt, approximate=approximate)
    yt.backward(torch.from_numpy(g))
    # Absolute error relative to max(|x|, 1): for large negative x, 1 + erf(x / sqrt 2)
    # cancels in both libraries and the tiny results differ in their rounding.
    scale = np.maximum(np.abs(x), 1.0)
    tol = 4e-7 if dtype == "float32" else 2e-15
    got, want = np.asarray(y.detach()), yt.detach().numpy().copy()
    # torch's AVX-512 float32 kernel gives NaN at x = +inf where its scalar path (and AVX2)
    # give inf: the infinite inputs are compared with the scalar path, one at a time.
    for i in np.flatnonzero(np.isinf(x)):
        want[i] = torch.nn.functional.gelu(torch.from_numpy(x[i:i + 1]),
                                           approximate=approximate).numpy()[0]
    finite = np.isfinite(want)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])
    assert np.max(np.abs(got[finite] - want[finite]) / scale[finite]) <= tol
    gg, gw = np.asarray(xa.grad), xt.grad.numpy()
    ok = np.isfinite(gw)
    np.testing.assert_array_equal(np.isnan(gg), np.isnan(gw))
    assert np.max(np.abs(gg[ok] - gw[ok]) / np.maximum(np.abs(g[ok]), 1.0)) <= 4 * tol


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_double_backward_matches_torch(approximate, rng):
    x = rng.standard_normal(50) * 2
    xa = ac.asarray(x)
    xa.requires_grad_(True)
    (g1,) = ac.autograd.grad(ac.sum(F.gelu(xa, approximate=approximate)), xa,
                             create_graph=True)
    (g2,) = ac.autograd.grad(ac.sum(g1 * g1), xa)
    xt = torch.from_numpy(x).requires_grad_(True)
    (t1,) = torch.autograd.grad(torch.nn.functional.gelu(xt, approximate=approximate).sum(),
                                xt, create_graph=True)
    (t2,) = torch.autograd.grad((t1 * t1).sum(), xt)
    np.testing.assert_allclose(np.asarray(g1.detach()), t1.detach().numpy(), rtol=1e-13,
                               atol=1e-15)
    # gelu'' of the tanh form cancels near its zeros (|g2| ~ 1e-6 there): absolute 1e-13
    np.testing.assert_allclose(np.asarray(g2), t2.numpy(), rtol=1e-12, atol=1e-13)
