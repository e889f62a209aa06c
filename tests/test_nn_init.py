"""ac.nn.init against torch.nn.init: exact fans, gains and bounds; the distributions by
statistics (Kolmogorov-Smirnov against SciPy's distributions) with fixed seeds; in-place,
unrecorded writes; errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as st
import torch

import arraycore as ac
from arraycore import nn
from arraycore.nn import init

F32 = ac.float32


def gen(seed=0):
    """ac.random's generator when it is built; NumPy's Generator (which init accepts as a
    duck-typed generator) until then."""
    r = getattr(ac, "random", None)
    try:
        import arraycore.random as r  # noqa: F811
    except ImportError:
        r = None
    if r is not None and hasattr(r, "Generator"):
        return r.Generator(seed)
    return np.random.default_rng(seed)


def param(shape, dtype=F32):
    return nn.Parameter(ac.zeros(shape, dtype=dtype))


def ks_p(sample, cdf):
    return st.kstest(np.asarray(sample, dtype=np.float64).ravel(), cdf).pvalue


# --- exact numbers ------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(3, 5), (7, 2, 3), (4, 6, 2, 3), (2, 3, 1, 2, 2), (1, 1)])
def test_fans_match_torch(shape):
    from torch.nn.init import _calculate_fan_in_and_fan_out as tfan
    assert init._calculate_fan_in_and_fan_out(ac.zeros(shape)) == tfan(torch.zeros(shape))
    for mode in ("fan_in", "fan_out", "FAN_IN"):
        from torch.nn.init import _calculate_correct_fan as tcf
        assert init._calculate_correct_fan(ac.zeros(shape), mode) == tcf(torch.zeros(shape),
                                                                         mode)


def test_fan_errors():
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.xavier_uniform_(ac.zeros(3, dtype=F32))
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        init.kaiming_uniform_(ac.zeros((2, 2), dtype=F32), mode="fan_avg")


@pytest.mark.parametrize("nl,param_", [("linear", None), ("conv2d", None), ("sigmoid", None),
                                       ("conv_transpose3d", None), ("tanh", None),
                                       ("relu", None), ("leaky_relu", None),
                                       ("leaky_relu", 0.2), ("leaky_relu", 3), ("selu", None)])
def test_gain_matches_torch(nl, param_):
    assert init.calculate_gain(nl, param_) == torch.nn.init.calculate_gain(nl, param_)


def test_gain_errors():
    with pytest.raises(ValueError, match="Unsupported nonlinearity"):
        init.calculate_gain("swish")
    with pytest.raises(ValueError, match="not a valid number"):
        init.calculate_gain("leaky_relu", True)


def test_deterministic_fills_match_torch():
    for shape in [(3, 3), (2, 5), (5, 2)]:
        np.testing.assert_array_equal(np.asarray(init.eye_(ac.empty(shape, dtype=F32))),
                                      torch.nn.init.eye_(torch.empty(shape)).numpy())
    for shape, groups in [((4, 2, 3), 1), ((4, 2, 3), 2), ((6, 3, 3, 3), 3), ((2, 4, 3, 3, 3), 1),
                          ((3, 5, 2, 2), 1)]:
        np.testing.assert_array_equal(
            np.asarray(init.dirac_(ac.full(shape, 7.0, dtype=F32), groups)),
            torch.nn.init.dirac_(torch.full(shape, 7.0), groups).numpy())
    w = init.constant_(ac.empty((2, 3), dtype=ac.float64), 0.25)
    assert np.all(np.asarray(w) == 0.25) and w.dtype == ac.float64
    assert np.all(np.asarray(init.ones_(ac.empty(4, dtype=F32))) == 1)
    assert np.all(np.asarray(init.zeros_(ac.full((2, 2), 3, dtype=ac.int32))) == 0)
    with pytest.raises(ValueError, match="2 dimensions"):
        init.eye_(ac.empty((2, 2, 2)))
    with pytest.raises(ValueError, match="3, 4, or 5 dimensions"):
        init.dirac_(ac.empty((2, 2)))
    with pytest.raises(ValueError, match="divisible by groups"):
        init.dirac_(ac.empty((3, 2, 3)), groups=2)


# --- distributions --------------------------------------------------------------------------

N = (400, 250)  # 100k draws: KS detects a 1% error in a scale


def test_uniform_normal():
    w = init.uniform_(param(N), -0.5, 2.0, generator=gen(1))
    assert ks_p(w, st.uniform(-0.5, 2.5).cdf) > 1e-3
    assert -0.5 <= float(ac.min(w)) and float(ac.max(w)) <= 2.0
    w = init.normal_(param(N), 1.5, 0.3, generator=gen(2))
    assert ks_p(w, st.norm(1.5, 0.3).cdf) > 1e-3
    w64 = init.normal_(param(N, ac.float64), generator=gen(3))
    assert w64.dtype == ac.float64 and ks_p(w64, st.norm().cdf) > 1e-3


@pytest.mark.parametrize("shape,a,mode,nl", [((400, 250), math.sqrt(5), "fan_in", "leaky_relu"),
                                             ((250, 40, 3, 3), 0, "fan_out", "relu"),
                                             ((100, 1000), 0.1, "fan_in", "leaky_relu")])
def test_kaiming_uniform_bound_and_distribution(shape, a, mode, nl):
    w = init.kaiming_uniform_(param(shape), a=a, mode=mode, nonlinearity=nl, generator=gen(4))
    fan = init._calculate_correct_fan(w, mode)
    bound = math.sqrt(3.0) * torch.nn.init.calculate_gain(nl, a) / math.sqrt(fan)
    # torch's bound, from torch's own draws' range
    t = torch.nn.init.kaiming_uniform_(torch.empty(shape), a=a, mode=mode, nonlinearity=nl)
    assert float(t.abs().max()) <= bound
    assert float(ac.max(ac.abs(w))) <= bound * (1 + 1e-6)
    assert ks_p(w, st.uniform(-bound, 2 * bound).cdf) > 1e-3


def test_kaiming_normal_xavier():
    shape = (300, 200, 2)
    w = init.kaiming_normal_(param(shape), mode="fan_out", nonlinearity="relu", generator=gen(5))
    std = math.sqrt(2.0) / math.sqrt(300 * 2)
    assert ks_p(w, st.norm(0, std).cdf) > 1e-3
    w = init.xavier_uniform_(param(N), gain=2.0, generator=gen(6))
    b = 2.0 * math.sqrt(6.0 / (N[0] + N[1]))
    assert float(ac.max(ac.abs(w))) <= b and ks_p(w, st.uniform(-b, 2 * b).cdf) > 1e-3
    w = init.xavier_normal_(param(N), gain=0.5, generator=gen(7))
    assert ks_p(w, st.norm(0, 0.5 * math.sqrt(2.0 / sum(N))).cdf) > 1e-3
    with pytest.warns(UserWarning, match="zero-element"):
        init.kaiming_uniform_(param((0, 3)))


@pytest.mark.parametrize("mean,std,a,b", [(0.0, 1.0, -2.0, 2.0), (0.0, 0.02, -0.04, 0.04),
                                          (1.0, 2.0, 0.0, 6.0)])
def test_trunc_normal(mean, std, a, b):
    w = init.trunc_normal_(param((200, 200)), mean, std, a, b, generator=gen(8))
    lo, hi = float(ac.min(w)), float(ac.max(w))
    assert a <= lo and hi <= b
    ref = st.truncnorm((a - mean) / std, (b - mean) / std, loc=mean, scale=std)
    assert ks_p(w, ref.cdf) > 1e-3
    t = torch.nn.init.trunc_normal_(torch.empty(N), mean, std, a, b)
    np.testing.assert_allclose(float(ac.mean(w)), float(t.mean()), atol=8 * std / 200)
    np.testing.assert_allclose(float(ac.std(w)), float(t.std()), rtol=2e-2)


def test_trunc_normal_warns_far_mean():
    with pytest.warns(UserWarning, match="more than 2 std"):
        init.trunc_normal_(param((3, 3)), mean=10.0, std=1.0, a=-1.0, b=1.0, generator=gen(0))


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5), (8, 2, 3), (3, 4, 2, 2)])
def test_orthogonal(shape):
    w = init.orthogonal_(param(shape, ac.float64), gain=1.5, generator=gen(9))
    m = np.asarray(w).reshape(shape[0], -1)
    rows, cols = m.shape
    if rows >= cols:
        np.testing.assert_allclose(m.T @ m, 2.25 * np.eye(cols), atol=1e-12)
    else:
        np.testing.assert_allclose(m @ m.T, 2.25 * np.eye(rows), atol=1e-12)
    with pytest.raises(ValueError, match="2 or more dimensions"):
        init.orthogonal_(param(3))


def test_orthogonal_haar_distribution():
    # With the sign fix, Q is Haar-distributed: the first entry of a random 2x2 rotation/
    # reflection is cos(theta) with theta uniform, so its distribution is arcsine.
    g = gen(2024)
    vals = [float(init.orthogonal_(ac.empty((2, 2), dtype=ac.float64), generator=g)[0, 0])
            for _ in range(400)]
    assert ks_p(vals, st.arcsine(-1, 2).cdf) > 1e-3


def test_sparse():
    w = init.sparse_(param((20, 30)), sparsity=0.25, std=0.5, generator=gen(11))
    zeros = (np.asarray(w) == 0).sum(axis=0)
    assert np.all(zeros == 5)
    nz = np.asarray(w)[np.asarray(w) != 0]
    assert ks_p(nz, st.norm(0, 0.5).cdf) > 1e-3
    with pytest.raises(ValueError, match="2 dimensions"):
        init.sparse_(param((2, 2, 2)), 0.5)


# --- writes --------------------------------------------------------------------------------

def test_init_is_unrecorded_in_place_write():
    w = param((5, 4))
    ptr = w._buffer_ptr
    v0 = w._version
    out = init.kaiming_uniform_(w, a=math.sqrt(5), generator=gen(12))
    assert out is w and w._buffer_ptr == ptr and w._version > v0
    assert w.is_leaf and w.grad_fn is None and w.requires_grad
    assert isinstance(w, nn.Parameter)
    # a graph that saved the old value refuses to backpropagate after the write
    y = ac.sum(w * w)
    init.normal_(w, generator=gen(13))
    with pytest.raises(RuntimeError, match="inplace"):
        y.backward()
    with pytest.raises(TypeError, match="floating"):
        init.normal_(ac.zeros(3, dtype=ac.int32))
    with pytest.raises(TypeError, match="arraycore array"):
        init.uniform_(np.zeros(3))


def test_same_seed_same_values():
    a = init.xavier_uniform_(param((10, 10)), generator=gen(42))
    b = init.xavier_uniform_(param((10, 10)), generator=gen(42))
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
