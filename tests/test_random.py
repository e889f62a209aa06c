"""ac.random: the Philox4x32-10 stream, the distributions (exact relations to the stream,
KS / chi-square tests with fixed seeds), determinism across thread counts, split, state, errors,
and draws inside vmap (randomness="error" | "same" | "different")."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from scipy import stats

import arraycore as ac
from arraycore.native import _native

M64 = (1 << 64) - 1


def npa(x):
    return np.asarray(x)


def philox_words(key, counter, n):
    """The first n 32-bit words of the stream at (key, counter), block by block (scalar)."""
    out = []
    b = 0
    while len(out) < n:
        c = (counter + b) & ((1 << 128) - 1)
        out.extend(_native.random_philox_block(key, c & M64, c >> 64))
        b += 1
    return np.array(out[:n], dtype=np.uint32)


def words_of(g, n):
    s = g.get_state()
    return philox_words(s["key"], s["counter"], n)


# --- the bit generator -------------------------------------------------------------------------

def test_philox_known_answers():
    # Random123's kat_vectors for philox4x32_10 (ctr words c0..c3, key words k0, k1).
    cases = [((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
             ((0xffffffff,) * 4, (0xffffffff,) * 2,
              (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
             ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
              (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1))]
    for ctr, key, want in cases:
        lo = ctr[0] | ctr[1] << 32
        hi = ctr[2] | ctr[3] << 32
        assert _native.random_philox_block(key[0] | key[1] << 32, lo, hi) == want


@pytest.mark.parametrize("n", [1, 5, 255, 256, 257, 1000, 70001])
def test_stream_layout_matches_scalar_blocks(n):
    key = 0x0123456789ABCDEF
    for counter in (0, 12345, (1 << 64) - 7):  # the last carries into the high word
        words, blocks = _native.random_bits32(n, key, counter & M64, counter >> 64)
        np.testing.assert_array_equal(npa(words), philox_words(key, counter, n))
        assert blocks == (n + 3) // 4


def test_counter_advances_by_blocks_used():
    g = ac.random.Generator(3)
    c0 = g.get_state()["counter"]
    g.random(10, dtype=ac.float32)   # 4 values per block
    assert g.get_state()["counter"] == c0 + 3
    g.random(10)                     # 2 float64 values per block
    assert g.get_state()["counter"] == c0 + 8
    g.standard_normal(7)
    assert g.get_state()["counter"] == c0 + 12
    g.integers(0, 10, size=9)
    assert g.get_state()["counter"] == c0 + 15


# --- exact relations of the distributions to the stream -----------------------------------------

def test_uniform_bits():
    g = ac.random.Generator(11)
    n = 3001
    w = words_of(g, n)
    x = npa(g.random(n, dtype=ac.float32))
    np.testing.assert_array_equal(x, (w >> 8).astype(np.float32) * np.float32(2.0 ** -24))
    w = words_of(g, 2 * n).astype(np.uint64)
    w64 = w[0::2] | (w[1::2] << np.uint64(32))
    x = npa(g.random(n))
    np.testing.assert_array_equal(x, (w64 >> np.uint64(11)).astype(np.float64) * 2.0 ** -53)


def _box_muller_ref(r_words, a_words, radius_scale, angle_bits, u1_offset):
    u1 = r_words.astype(np.float64) * radius_scale + u1_offset
    theta = 2 * np.pi * (a_words.astype(np.float64) * 2.0 ** -angle_bits)
    rad = np.sqrt(-2 * np.log(u1))
    return rad * np.cos(theta), rad * np.sin(theta)


def test_normal_is_box_muller_float64():
    g = ac.random.Generator(5)
    n = 4000
    w = words_of(g, 2 * n).astype(np.uint64)
    w64 = w[0::2] | (w[1::2] << np.uint64(32))
    z = npa(g.standard_normal(n))
    c, s = _box_muller_ref(w64[0::2] >> np.uint64(12), w64[1::2] >> np.uint64(11), 2.0 ** -52,
                           53, 2.0 ** -53)
    np.testing.assert_allclose(z[0::2], c, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(z[1::2], s, rtol=1e-13, atol=1e-14)


def test_normal_is_box_muller_float32():
    g = ac.random.Generator(6)
    n = 4000
    w = words_of(g, n)
    z = npa(g.standard_normal(n, dtype=ac.float32))
    assert z.dtype == np.float32
    # u1 = float32(w >> 1) 2^-31 + 2^-32 (the conversion rounds to float32).
    r = (w[0::2] >> 1).astype(np.float32).astype(np.float64)
    c, s = _box_muller_ref(r, w[1::2] >> 8, 2.0 ** -31, 24, 2.0 ** -32)
    np.testing.assert_allclose(z[0::2], c, rtol=2e-6, atol=2e-6)
    np.testing.assert_allclose(z[1::2], s, rtol=2e-6, atol=2e-6)


def test_normal_loc_scale_and_uniform_low_high_are_affine():
    s = ac.random.Generator(9).get_state()
    g = ac.random.Generator(0)
    for dt in (ac.float32, ac.float64):
        g.set_state(s)
        z = npa(g.standard_normal(1000, dtype=dt))
        g.set_state(s)
        x = npa(g.normal(2.0, 3.0, size=1000, dtype=dt))
        np.testing.assert_allclose(x, 2.0 + 3.0 * z, rtol=1e-6 if dt == ac.float32 else 1e-15,
                                   atol=2e-6 if dt == ac.float32 else 1e-14)
        g.set_state(s)
        u = npa(g.random(1000, dtype=dt))
        g.set_state(s)
        x = npa(g.uniform(-1.0, 3.0, size=1000, dtype=dt))
        np.testing.assert_allclose(x, -1.0 + 4.0 * u, rtol=1e-6 if dt == ac.float32 else 1e-15,
                                   atol=1e-7)


# --- determinism ---------------------------------------------------------------------------------

DRAWS = {
    "random32": lambda g: g.random(300_001, dtype=ac.float32),
    "random64": lambda g: g.random(300_001),
    "normal32": lambda g: g.normal(1.0, 2.0, 300_001, dtype=ac.float32),
    "normal64": lambda g: g.standard_normal(300_001),
    "integers": lambda g: g.integers(-5, 1000, size=300_001, dtype=ac.int32),
    "integers64": lambda g: g.integers(0, 3 << 40, size=300_001),
    "bernoulli": lambda g: g.bernoulli(0.3, size=300_001),
    "permutation": lambda g: g.permutation(100_000),
    "truncnorm": lambda g: g.truncated_normal(size=100_000),
}


@pytest.mark.parametrize("kind", sorted(DRAWS))
def test_same_seed_same_stream_any_thread_count(kind):
    old = ac.get_num_threads()
    try:
        ac.set_num_threads(1)
        a = npa(DRAWS[kind](ac.random.Generator(123)))
        ac.set_num_threads(2)
        b = npa(DRAWS[kind](ac.random.Generator(123)))
    finally:
        ac.set_num_threads(old)
    np.testing.assert_array_equal(a, b)
    c = npa(DRAWS[kind](ac.random.Generator(124)))
    assert not np.array_equal(a, c)


def test_seeds():
    a = npa(ac.random.Generator(2 ** 100 + 5).random(4))
    b = npa(ac.random.Generator(5).random(4))
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(npa(ac.random.Generator([1, 2, 3]).random(3)),
                                  npa(ac.random.Generator([1, 2, 3]).random(3)))
    assert not np.array_equal(npa(ac.random.Generator([1, 2]).random(3)),
                              npa(ac.random.Generator([1, 2, 0]).random(3)))
    assert not np.array_equal(npa(ac.random.Generator().random(3)),
                              npa(ac.random.Generator().random(3)))  # os.urandom
    np.testing.assert_array_equal(npa(ac.random.Generator(np.int64(7)).random(2)),
                                  npa(ac.random.Generator(7).random(2)))
    with pytest.raises(ValueError, match="non-negative"):
        ac.random.Generator(-1)
    with pytest.raises(TypeError):
        ac.random.Generator("abc")
    with pytest.raises(TypeError):
        ac.random.Generator(1.5)


def test_global_generator_and_manual_seed():
    g = ac.random.get_global_generator()
    ac.manual_seed(42)
    a = npa(ac.random.normal(size=5))
    ac.random.seed(42)
    b = npa(ac.random.normal(size=5))
    np.testing.assert_array_equal(a, b)
    assert ac.random.get_global_generator() is g
    assert ac.random.default_rng(g) is g
    np.testing.assert_array_equal(npa(ac.random.default_rng(1).random(3)),
                                  npa(ac.random.Generator(1).random(3)))
    for name in ["random", "uniform", "normal", "standard_normal", "integers", "bernoulli",
                 "permutation", "shuffle", "choice", "truncated_normal"]:
        assert callable(getattr(ac.random, name))


def test_state_roundtrip_pickle_repr():
    g = ac.random.Generator(8)
    g.random(5)
    s = g.get_state()
    assert s["bit_generator"] == "Philox4x32-10"
    a = npa(g.normal(size=6))
    g.set_state(s)
    np.testing.assert_array_equal(npa(g.normal(size=6)), a)
    h = pickle.loads(pickle.dumps(g))
    np.testing.assert_array_equal(npa(h.random(3)), npa(g.random(3)))
    assert "Philox4x32-10" in repr(g) and "counter=" in repr(g)
    assert g.manual_seed(8) is g
    np.testing.assert_array_equal(npa(g.random(4)), npa(ac.random.Generator(8).random(4)))
    with pytest.raises(ValueError):
        g.set_state({"bit_generator": "PCG64", "key": 1, "counter": 0})
    with pytest.raises(ValueError):
        g.set_state({"bit_generator": "Philox4x32-10", "key": -1, "counter": 0})
    with pytest.raises(TypeError):
        g.set_state([1, 2])


def test_split_independent_and_deterministic():
    g = ac.random.Generator(0)
    kids = g.split(4)
    draws = np.stack([npa(k.standard_normal(20000)) for k in kids] + [npa(g.standard_normal(20000))])
    corr = np.corrcoef(draws)
    off = corr[~np.eye(len(draws), dtype=bool)]
    assert np.max(np.abs(off)) < 0.04  # 5.6 sigma for n = 20000
    # Same parent state, same children; successive splits differ.
    g2 = ac.random.Generator(0)
    k2 = g2.split(4)
    np.testing.assert_array_equal(npa(k2[0].random(3)), npa(ac.random.Generator(0).split(4)[0].random(3)))
    assert len({k.get_state()["key"] for k in kids + g2.split(4) + k2}) == 12 - 4
    assert [k.get_state()["key"] for k in ac.random.Generator(0).spawn(2)] == \
        [k.get_state()["key"] for k in ac.random.Generator(0).split(2)]
    assert g.split(0) == []


# --- distributions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_uniform_ks_and_range(dt):
    x = npa(ac.random.Generator(1).random(200_000, dtype=getattr(ac, dt)))
    assert x.dtype == np.dtype(dt)
    assert x.min() >= 0.0 and x.max() < 1.0
    assert stats.kstest(x, "uniform").pvalue > 1e-3
    y = npa(ac.random.Generator(2).uniform(-3.0, 5.0, 100_000, dtype=getattr(ac, dt)))
    assert y.min() >= -3.0 and y.max() <= 5.0
    assert stats.kstest(y, stats.uniform(-3, 8).cdf).pvalue > 1e-3


def test_float32_uniform_never_one():
    # The largest float32 value is (2^24 - 1) / 2^24 (a 24-bit integer scaled exactly).
    x = npa(ac.random.Generator(3).random(2_000_000, dtype=ac.float32))
    assert x.max() < 1.0
    assert x.max() > 1.0 - 1e-5


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_normal_ks_moments_tails(dt):
    z = npa(ac.random.Generator(4).standard_normal(400_000, dtype=getattr(ac, dt)))
    assert stats.kstest(z, "norm").pvalue > 1e-3
    assert abs(z.mean()) < 5 / math.sqrt(z.size)
    assert abs(z.var() - 1) < 5 * math.sqrt(2 / z.size)
    # Tails: P(|z| > 3.5) = 4.65e-4; the count is binomial.
    k = np.sum(np.abs(z) > 3.5)
    expect = z.size * 2 * stats.norm.sf(3.5)
    assert abs(k - expect) < 5 * math.sqrt(expect)
    x = npa(ac.random.Generator(5).normal(-2.0, 0.5, 100_000, dtype=getattr(ac, dt)))
    assert stats.kstest(x, stats.norm(-2.0, 0.5).cdf).pvalue > 1e-3


@pytest.mark.parametrize("a,b", [(-2.0, 2.0), (0.5, 1.0), (-1.0, 3.0), (4.0, 7.0),
                                 (-9.0, -8.0), (-0.1, 0.1)])
def test_truncated_normal_ks(a, b):
    g = ac.random.Generator(6)
    x = npa(g.truncated_normal(1.0, 2.0, a, b, size=60_000))
    assert x.min() >= a and x.max() <= b
    ref = stats.truncnorm((a - 1.0) / 2.0, (b - 1.0) / 2.0, loc=1.0, scale=2.0)
    assert stats.kstest(x, ref.cdf).pvalue > 1e-3
    y = npa(g.truncated_normal(0.0, 1.0, a, b, size=20_000, dtype=ac.float32))
    assert y.dtype == np.float32 and y.min() >= a and y.max() <= b
    assert stats.kstest(y.astype(np.float64), stats.truncnorm(a, b).cdf).pvalue > 1e-3


def test_truncated_normal_far_tail():
    # Far beyond float64's Phi resolution in linear space: log-space inverse CDF.
    x = npa(ac.random.Generator(7).truncated_normal(0.0, 1.0, 30.0, 31.0, size=20_000))
    assert x.min() >= 30.0 and x.max() <= 31.0
    assert stats.kstest(x, stats.truncnorm(30.0, 31.0).cdf).pvalue > 1e-3


def _chi2_uniform(values, k):
    counts = np.bincount(values, minlength=k)
    assert counts.size == k
    return stats.chisquare(counts).pvalue


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                "uint64"])
def test_integers_chi_square(dt):
    x = npa(ac.random.Generator(8).integers(3, 10, size=70_000, dtype=getattr(ac, dt)))
    assert x.dtype == np.dtype(dt)
    assert x.min() >= 3 and x.max() <= 9
    assert _chi2_uniform((x - 3).astype(np.int64), 7) > 1e-3
    y = npa(ac.random.Generator(9).integers(7, size=10_000, endpoint=True, dtype=getattr(ac, dt)))
    assert y.min() == 0 and y.max() == 7


def test_integers_unbiased_for_awkward_ranges():
    # range 3 * 2^30: a biased "w mod r" would give values below 2^30 twice the weight.
    r = 3 << 30
    x = npa(ac.random.Generator(10).integers(0, r, size=120_000, dtype=ac.uint32)).astype(np.int64)
    assert _chi2_uniform(x >> 30, 3) > 1e-3
    # 64-bit range (Lemire with 128-bit products): 3 * 2^62.
    r = 3 << 62
    y = npa(ac.random.Generator(11).integers(0, r, size=60_000, dtype=ac.uint64))
    assert _chi2_uniform((y >> np.uint64(62)).astype(np.int64), 3) > 1e-3


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                "uint64"])
def test_integers_dtype_limits(dt):
    info = np.iinfo(dt)
    g = ac.random.Generator(12)
    x = npa(g.integers(int(info.min), int(info.max), size=20_000, endpoint=True,
                       dtype=getattr(ac, dt)))
    assert x.dtype == np.dtype(dt)
    assert x.min() >= info.min and x.max() <= info.max
    if info.bits <= 8:
        assert x.min() == info.min and x.max() == info.max
    top = npa(g.integers(int(info.max) - 1, int(info.max), size=50, endpoint=True,
                         dtype=getattr(ac, dt)))
    assert set(top.tolist()) == {int(info.max) - 1, int(info.max)}
    with pytest.raises(ValueError, match="integers"):
        g.integers(int(info.min) - 1, 0, size=2, dtype=getattr(ac, dt))
    with pytest.raises(ValueError, match="integers"):
        g.integers(0, int(info.max) + 2, size=2, dtype=getattr(ac, dt))


def test_integers_array_bounds():
    g = ac.random.Generator(13)
    low = ac.asarray([0, 10, -5])
    high = ac.asarray([[20], [100]])
    x = npa(g.integers(low, high, size=(2, 3)))
    assert x.shape == (2, 3)
    lo = np.array([0, 10, -5])
    hi = np.array([[20], [100]])
    assert np.all(x >= lo) and np.all(x < hi)
    y = npa(g.integers(ac.asarray([0, 100]), ac.asarray([3, 103]), size=(30_000, 2)))
    assert _chi2_uniform(y[:, 0], 3) > 1e-3 and _chi2_uniform(y[:, 1] - 100, 3) > 1e-3
    with pytest.raises(ValueError, match="integers"):
        g.integers(ac.asarray([0, 5]), ac.asarray([1, 5]))


def test_bernoulli():
    g = ac.random.Generator(14)
    x = npa(g.bernoulli(0.3, size=100_000))
    assert x.dtype == np.float64 and set(np.unique(x)) <= {0.0, 1.0}
    assert abs(x.mean() - 0.3) < 5 * math.sqrt(0.21 / x.size)
    assert npa(g.bernoulli(0.0, size=1000, dtype=ac.bool)).sum() == 0
    assert npa(g.bernoulli(1.0, size=1000, dtype=ac.int8)).sum() == 1000
    p = ac.asarray([0.1, 0.9])
    y = npa(g.bernoulli(p, size=(50_000, 2), dtype=ac.float32))
    assert y.dtype == np.float32
    np.testing.assert_allclose(y.mean(axis=0), [0.1, 0.9], atol=5 * math.sqrt(0.09 / 50_000))


def test_permutation_shuffle():
    g = ac.random.Generator(15)
    p = npa(g.permutation(1000))
    assert sorted(p.tolist()) == list(range(1000))
    # Uniformity: position of element 0 over many permutations of 6.
    pos = [int(np.argmax(npa(g.permutation(6)) == 0)) for _ in range(3000)]
    assert _chi2_uniform(np.array(pos), 6) > 1e-3
    x = ac.reshape(ac.arange(24), (4, 6))
    y = npa(g.permutation(x, axis=1))
    assert sorted(map(tuple, y.T.tolist())) == sorted(map(tuple, npa(x).T.tolist()))
    z = ac.reshape(ac.arange(24.0), (4, 6))
    g.shuffle(z, axis=0)
    zz = npa(z)
    assert sorted(map(tuple, zz.tolist())) == sorted(map(tuple, np.arange(24.0).reshape(4, 6).tolist()))
    lst = list(range(10))
    g.shuffle(lst)
    assert sorted(lst) == list(range(10))
    assert npa(g.permutation(0)).shape == (0,)
    with pytest.raises(ValueError):
        g.permutation(ac.asarray(3.0))
    with pytest.raises(ValueError):
        g.shuffle(ac.arange(3), axis=1)


def test_choice():
    g = ac.random.Generator(16)
    x = npa(g.choice(5, size=(100, 3)))
    assert x.shape == (100, 3) and x.min() >= 0 and x.max() <= 4
    y = npa(g.choice(10, size=10, replace=False))
    assert sorted(y.tolist()) == list(range(10))
    # Floyd's path (k * 50 < n) and partial Fisher-Yates, uniform over the population.
    for n, k in ((1000, 3), (20, 3)):
        picks = np.concatenate([npa(g.choice(n, size=k, replace=False)) for _ in range(1500)])
        assert all(len(set(picks[i:i + k])) == k for i in range(0, picks.size, k))
        if n == 20:
            assert _chi2_uniform(picks, n) > 1e-3
    big = npa(g.choice(10 ** 9, size=5, replace=False))
    assert len(set(big.tolist())) == 5 and big.max() < 10 ** 9
    p = [0.1, 0.0, 0.6, 0.3]
    c = npa(g.choice(4, size=60_000, p=p))
    counts = np.bincount(c, minlength=4)
    assert counts[1] == 0
    assert stats.chisquare(counts[[0, 2, 3]], 60_000 * np.array([0.1, 0.6, 0.3])).pvalue > 1e-3
    # Without replacement with p: the first pick follows p; no repeats.
    firsts = []
    for _ in range(3000):
        s = npa(g.choice(4, size=2, replace=False, p=p))
        assert s[0] != s[1] and 1 not in s.tolist()
        firsts.append(s[0])
    counts = np.bincount(np.array(firsts), minlength=4)
    assert stats.chisquare(counts[[0, 2, 3]], 3000 * np.array([0.1, 0.6, 0.3])).pvalue > 1e-3
    arr = ac.reshape(ac.arange(12.0), (3, 4))
    r = npa(g.choice(arr, size=(2, 2), axis=1))
    assert r.shape == (3, 2, 2)
    assert npa(g.choice(arr)).shape == (4,)
    assert npa(g.choice(7)).shape == ()
    with pytest.raises(ValueError, match="choice"):
        g.choice(3, size=4, replace=False)
    with pytest.raises(ValueError, match="choice"):
        g.choice(3, p=[0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="choice"):
        g.choice(3, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="choice"):
        g.choice(3, size=3, replace=False, p=[0.5, 0.5, 0.0])


# --- shapes, broadcasting, edge cases -------------------------------------------------------------

def test_sizes():
    g = ac.random.Generator(17)
    for f in (g.random, g.standard_normal, lambda size: g.normal(size=size),
              lambda size: g.uniform(size=size), lambda size: g.integers(0, 3, size=size),
              lambda size: g.bernoulli(0.5, size=size),
              lambda size: g.truncated_normal(size=size)):
        assert f(None).shape == ()
        assert f(()).shape == ()
        assert f(0).shape == (0,)
        assert f((2, 0, 3)).shape == (2, 0, 3)
        assert f(3).shape == (3,)
        assert f([2, 3]).shape == (2, 3)
    assert g.choice(5, size=0).shape == (0,)


def test_broadcast_parameters():
    g = ac.random.Generator(18)
    loc = ac.asarray([0.0, 100.0, -100.0])
    x = npa(g.normal(loc, 1.0, size=(4, 3)))
    assert x.shape == (4, 3)
    assert np.all(np.abs(x - npa(loc)) < 10)
    y = npa(g.normal(loc, ac.asarray([[1.0], [2.0]])))
    assert y.shape == (2, 3)
    u = npa(g.uniform(ac.asarray([0.0, 10.0]), 11.0, size=(1000, 2), dtype=ac.float32))
    assert u.dtype == np.float32 and u.shape == (1000, 2)
    assert u[:, 0].min() >= 0 and u[:, 1].min() >= 10 and u.max() <= 11
    t = npa(g.truncated_normal(ac.asarray([0.0, 5.0]), 1.0, -1.0, 6.0, size=(1000, 2)))
    assert t.min() >= -1.0 and t.max() <= 6.0
    with pytest.raises(ValueError, match="normal"):
        g.normal(loc, 1.0, size=(4, 2))
    assert g.normal(np.array([1.0, 2.0])).shape == (2,)
    assert g.normal([1.0, 2.0]).shape == (2,)


def test_errors():
    g = ac.random.Generator(19)
    with pytest.raises(ValueError, match="normal"):
        g.normal(0.0, -1.0)
    with pytest.raises(ValueError, match="normal"):
        g.normal(ac.zeros(2), ac.asarray([1.0, -1.0]))
    with pytest.raises(TypeError, match="normal"):
        g.normal(size=3, dtype=ac.int32)
    with pytest.raises(TypeError, match="standard_normal"):
        g.standard_normal(3, dtype=ac.complex64)
    with pytest.raises(TypeError, match="random"):
        g.random(3, dtype="int64")
    with pytest.raises(ValueError, match="bernoulli"):
        g.bernoulli(1.5)
    with pytest.raises(ValueError, match="bernoulli"):
        g.bernoulli(ac.asarray([0.5, -0.1]))
    with pytest.raises(ValueError, match="integers"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match="integers"):
        g.integers(5, 3)
    with pytest.raises(TypeError, match="integers"):
        g.integers(0, 5, dtype=ac.float64)
    with pytest.raises(ValueError, match="uniform"):
        g.uniform(2.0, 1.0)
    with pytest.raises(ValueError, match="uniform"):
        g.uniform(0.0, float("inf"))
    with pytest.raises(ValueError, match="truncated_normal"):
        g.truncated_normal(a=1.0, b=1.0)
    with pytest.raises(ValueError, match="truncated_normal"):
        g.truncated_normal(scale=0.0)
    with pytest.raises(ValueError, match="random"):
        g.random(3, device="cuda")
    with pytest.raises(ValueError, match="random"):
        g.random(-1)
    with pytest.raises(TypeError, match="random"):
        g.random(2.5)
    assert g.random(2, device="cpu").shape == (2,)
    with pytest.raises(ValueError):
        g.split(-1)


def test_out_argument():
    g = ac.random.Generator(20)
    s = g.get_state()
    out = ac.empty((3, 2), dtype=ac.float32)
    assert g.standard_normal(dtype=ac.float32, out=out) is out
    g.set_state(s)
    np.testing.assert_array_equal(npa(out), npa(g.standard_normal((3, 2), dtype=ac.float32)))
    with pytest.raises(TypeError):
        g.random(out=ac.empty(3, dtype=ac.float32))  # dtype float64 asked


# --- vmap randomness -----------------------------------------------------------------------------

def _noise(x):
    return x + ac.random.normal(size=x.shape)


def test_vmap_randomness_error_is_default():
    with pytest.raises(RuntimeError, match="randomness"):
        ac.func.vmap(_noise)(ac.zeros((3, 2)))
    with pytest.raises(RuntimeError, match="randomness"):
        ac.func.vmap(lambda x: x * ac.random.integers(0, 3), randomness="error")(ac.zeros(3))


def test_vmap_randomness_same():
    out = npa(ac.func.vmap(_noise, randomness="same")(ac.zeros((4, 3))))
    assert out.shape == (4, 3)
    assert np.all(out == out[0]) and np.std(out[0]) > 0


def test_vmap_randomness_different_equals_batched_draw():
    g = ac.random.get_global_generator()
    s = g.get_state()
    out = npa(ac.func.vmap(_noise, randomness="different")(ac.zeros((4, 3))))
    g.set_state(s)
    ref = npa(ac.random.normal(size=(4, 3)))
    np.testing.assert_array_equal(out, ref)
    assert len({tuple(r) for r in out.tolist()}) == 4


def test_vmap_different_each_distribution():
    g = ac.random.Generator(21)
    fns = [lambda x: x + g.random(3), lambda x: x + g.uniform(-1, 1, 3),
           lambda x: x + g.standard_normal(3, dtype=ac.float32).astype(ac.float64),
           lambda x: x + g.integers(0, 1000, 3), lambda x: x + g.bernoulli(0.5, 3),
           lambda x: x + g.truncated_normal(size=3), lambda x: x + g.permutation(3),
           lambda x: x + g.choice(1000, 3, replace=False),
           lambda x: x + g.normal(x, 1.0)]
    for f in fns:
        out = npa(ac.func.vmap(f, randomness="different")(ac.zeros((5, 3))))
        assert out.shape == (5, 3)
        assert len({tuple(r) for r in out.tolist()}) > 1
        same = npa(ac.func.vmap(f, randomness="same")(ac.zeros((5, 3))))
        assert np.all(same == same[0])


def test_vmap_batched_parameters():
    # loc batched, randomness "same": one noise draw, shifted per batch element.
    locs = ac.asarray([[0.0, 0.0], [10.0, 10.0], [20.0, 20.0]])
    out = npa(ac.func.vmap(lambda m: ac.random.normal(m, 1.0), randomness="same")(locs))
    np.testing.assert_allclose(out - npa(locs), np.broadcast_to(out[0] - 0.0, (3, 2)), atol=1e-12)
    out = npa(ac.func.vmap(lambda m: ac.random.normal(m, 1.0), randomness="different")(locs))
    d = out - npa(locs)
    assert not np.allclose(d[0], d[1])


def test_vmap_nested():
    x = ac.zeros((3, 4, 2))
    f = lambda v: v + ac.random.normal(size=v.shape)  # noqa: E731
    # outer different, inner same: equal along the inner axis only
    out = npa(ac.func.vmap(ac.func.vmap(f, randomness="same"), randomness="different")(x))
    assert np.all(out == out[:, :1]) and not np.allclose(out[0], out[1])
    # outer same, inner different
    out = npa(ac.func.vmap(ac.func.vmap(f, randomness="different"), randomness="same")(x))
    assert np.all(out == out[:1]) and not np.allclose(out[0, 0], out[0, 1])
    # both different: all distinct, and the draw is the (3, 4, 2) draw from the same state
    g = ac.random.get_global_generator()
    s = g.get_state()
    out = npa(ac.func.vmap(ac.func.vmap(f, randomness="different"), randomness="different")(x))
    g.set_state(s)
    np.testing.assert_array_equal(out, npa(ac.random.normal(size=(3, 4, 2))))
    # an inner "error" level raises even under an outer "different" one
    with pytest.raises(RuntimeError, match="randomness"):
        ac.func.vmap(ac.func.vmap(f), randomness="different")(x)


def test_vmap_randomness_under_grad():
    def loss(w):
        return ac.sum(w * ac.random.normal(size=w.shape))

    w = ac.ones((4, 3))
    g_diff = npa(ac.func.vmap(ac.func.grad(loss), randomness="different")(w))
    assert len({tuple(r) for r in g_diff.tolist()}) == 4
    g_same = npa(ac.func.vmap(ac.func.grad(loss), randomness="same")(w))
    assert np.all(g_same == g_same[0])
    # grad of a reparameterized draw: d/dloc sum(normal(loc, s)) = 1, d/ds = z
    gen = ac.random.Generator(22)
    s = gen.get_state()
    dl, ds = ac.func.grad(lambda m, sd: ac.sum(gen.normal(m, sd)), argnums=(0, 1))(
        ac.zeros(5), ac.ones(5))
    gen.set_state(s)
    np.testing.assert_allclose(npa(dl), np.ones(5))
    np.testing.assert_allclose(npa(ds), npa(gen.standard_normal(5)), rtol=1e-15)
    # the tape
    loc = ac.zeros(3)
    loc.requires_grad_()
    ac.sum(gen.normal(loc, 2.0)).backward()
    np.testing.assert_allclose(npa(loc.grad), np.ones(3))


def test_vmap_shuffle_choice_chunks():
    x = ac.reshape(ac.arange(40.0), (5, 8))

    def shuffled(r):
        r = r * 1.0
        ac.random.shuffle(r)
        return r

    out = npa(ac.func.vmap(shuffled, randomness="different")(x))
    np.testing.assert_array_equal(np.sort(out, axis=1), npa(x))
    perms = out - npa(x)[:, :1]
    assert len({tuple(r) for r in perms.tolist()}) > 1
    out = npa(ac.func.vmap(shuffled, randomness="same")(x))
    perms = out - npa(x)[:, :1]
    assert len({tuple(r) for r in perms.tolist()}) == 1
    # choice with p, with and without replacement, per batch element
    pop = ac.asarray([1.0, 2.0, 3.0, 4.0])
    for replace in (True, False):
        f = lambda v: v + ac.random.choice(pop, size=3, replace=replace,  # noqa: E731
                                           p=[0.1, 0.2, 0.3, 0.4])
        out = npa(ac.func.vmap(f, randomness="different")(ac.zeros((6, 3))))
        assert out.shape == (6, 3) and set(out.ravel().tolist()) <= {1.0, 2.0, 3.0, 4.0}
        if not replace:
            assert all(len(set(r)) == 3 for r in out.tolist())
    # chunked vmap: still one independent draw per element
    out = npa(ac.func.vmap(_noise, randomness="different", chunk_size=2)(ac.zeros((5, 3))))
    assert len({tuple(r) for r in out.tolist()}) == 5
    # an output that does not depend on the input
    out = npa(ac.func.vmap(lambda v: ac.random.normal(size=3), randomness="same")(ac.zeros((4, 2))))
    assert out.shape == (4, 3) and np.all(out == out[0])


def test_numpy_scalar_parameters_are_exact():
    g = ac.random.Generator(23)
    x = npa(g.integers(np.uint64(2 ** 64 - 2), np.uint64(2 ** 64 - 1), size=200, endpoint=True,
                       dtype=ac.uint64))
    assert set(x.tolist()) == {2 ** 64 - 2, 2 ** 64 - 1}
    assert g.normal(np.float32(1.0), np.float64(0.5), size=2).shape == (2,)


# --- exhaustive checks (pytest --runslow) ---------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_normal_large_sample_tails(dt):
    """10^7 values: KS, and the counts beyond 3, 4 and 5 sigma against the binomial."""
    z = npa(ac.random.Generator(100).standard_normal(10_000_000, dtype=getattr(ac, dt)))
    z = z.astype(np.float64)
    assert stats.kstest(z[:2_000_000], "norm").pvalue > 1e-4
    for t in (3.0, 4.0, 5.0):
        k = np.sum(np.abs(z) > t)
        expect = z.size * 2 * stats.norm.sf(t)
        assert abs(k - expect) < 5 * math.sqrt(expect) + 2, (t, k, expect)
    # Symmetric and uncorrelated pairs (cos and sin of one Box-Muller pair)
    assert abs(np.corrcoef(z[0::2], z[1::2])[0, 1]) < 5 / math.sqrt(z.size / 2)
    assert abs(np.corrcoef(z[0::2] ** 2, z[1::2] ** 2)[0, 1]) < 5 / math.sqrt(z.size / 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_distributions_many_seeds(seed):
    g = ac.random.Generator(seed)
    for dt in (ac.float32, ac.float64):
        assert stats.kstest(npa(g.random(500_000, dtype=dt)), "uniform").pvalue > 1e-4
        assert stats.kstest(npa(g.standard_normal(500_000, dtype=dt)), "norm").pvalue > 1e-4
    x = npa(g.truncated_normal(0.0, 1.0, -0.5, 2.5, size=300_000))
    assert stats.kstest(x, stats.truncnorm(-0.5, 2.5).cdf).pvalue > 1e-4
    y = npa(g.integers(0, 1000, size=1_000_000))
    assert _chi2_uniform(y, 1000) > 1e-4
    p = npa(g.permutation(5))
    assert sorted(p.tolist()) == list(range(5))


@pytest.mark.slow
def test_thread_independence_many_sizes():
    old = ac.get_num_threads()
    try:
        for n in (1, 255, 256, 257, 32_767, 32_768, 32_769, 1_000_003):
            res = []
            for t in (1, 2, 3):
                ac.set_num_threads(t)
                g = ac.random.Generator(n)
                res.append([npa(g.standard_normal(n, dtype=ac.float32)), npa(g.random(n)),
                            npa(g.integers(0, 7, size=n, dtype=ac.int8))])
            for r in res[1:]:
                for a, b in zip(res[0], r):
                    np.testing.assert_array_equal(a, b)
    finally:
        ac.set_num_threads(old)
