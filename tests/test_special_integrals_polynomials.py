"""arraycore.special, family integrals_polynomials: what the table-driven tests
(tests/test_special.py) do not cover: PyTorch's polynomials against torch.special on random
and edge inputs (negative, non-integer, huge and NaN degrees, |x| > 1, overflow to NaN, the
scalar-degree block path and the per-element path), float32 overflow semantics, and SciPy's
functions on wider or harder regions (large arguments, negative orders, non-integer degrees)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as sp

import arraycore as ac
import special_refs_intpoly as refs

POLYS = refs._NAMES


def _ac(name, x, n):
    return np.asarray(getattr(ac.special, name)(ac.asarray(x), ac.asarray(n)
                                               if isinstance(n, np.ndarray) else n))


def _close(got, want, rtol, atol=0.0):
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("name", POLYS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polynomials_match_torch_random(name, dtype):
    rng = np.random.default_rng(sum(map(ord, name)))
    lo, hi = (0.0, 1.0) if name.startswith("shifted") else (-1.0, 1.0)
    x = rng.uniform(lo - 0.2, hi + 0.2, 400).astype(dtype)
    n = rng.integers(-2, 30, 400).astype(dtype)
    want = getattr(refs, name)(x.astype(np.float64), n.astype(np.float64))
    got = _ac(name, x, n)
    scale = np.maximum(np.abs(want), 1.0)
    tol = 2e-6 if dtype == "float32" else 1e-11
    assert np.all((np.abs(got - want) <= tol * scale) | (np.isnan(got) & np.isnan(want))), name


@pytest.mark.parametrize("name", POLYS)
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8, 16, 17, 40, 100])
def test_polynomials_scalar_degree_block_path(name, n):
    """A Python-int degree takes the block recurrence (n <= 16/64) or the per-element path;
    both agree with torch and with the strided (per-element) evaluation."""
    rng = np.random.default_rng(n)
    x = rng.uniform(-1.1, 1.1, 1000)
    want = getattr(refs, name)(x, np.full_like(x, n))
    got = _ac(name, x, n)
    scale = np.maximum(np.abs(want), 1.0)
    assert np.all((np.abs(got - want) <= 1e-10 * scale) | (np.isnan(got) & np.isnan(want)))
    strided = np.asarray(getattr(ac.special, name)(ac.asarray(np.repeat(x, 2))[::2], n))
    np.testing.assert_array_equal(strided, got)


@pytest.mark.parametrize("name", POLYS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polynomials_degree_semantics(name, dtype):
    """n is truncated toward zero; negative, NaN, inf and huge n give 0 (PyTorch's int64
    conversion); |x| beyond 1 overflows to inf and then NaN as PyTorch's recurrence does."""
    x = np.array([0.3, -0.7, 0.0, 1.0, -1.0, 2.5, -3.0, 1e30, -np.inf], dtype=dtype)
    for n in [-3.0, -0.5, 0.7, 2.9, 7.0, 9.5, np.nan, np.inf, -np.inf, 1e30, 60.0, 300.0]:
        nn = np.full_like(x, n)
        want = getattr(refs, name)(x, nn)  # PyTorch in the dtype: its overflow semantics
        exact = getattr(refs, name)(x.astype(np.float64), nn.astype(np.float64)).astype(dtype)
        got = _ac(name, x, nn)
        ok = np.zeros(x.shape, bool)
        for w in (want, exact):  # float32: PyTorch's own float32 rounding is looser than ours
            ok |= np.isclose(got, w, rtol=1e-5 if dtype == "float32" else 1e-9, atol=1e-12,
                             equal_nan=True) | (np.isinf(got) & (got == w))
        assert ok.all(), f"{name} n={n}: {x[~ok]} -> {got[~ok]} vs torch {want[~ok]}"


def test_polynomials_python_int_degree_keeps_float32():
    out = ac.special.chebyshev_polynomial_t(ac.asarray(np.float32([0.25, 0.5])), 3)
    assert out.dtype == ac.float32


def test_polynomials_huge_degree_does_not_hang():
    x = ac.asarray([1.0000001, 0.3, -0.2, 2.0])
    out = np.asarray(ac.special.chebyshev_polynomial_t(x, 1e15))
    assert np.isfinite(out[1]) and np.isnan(out[3])
    out = np.asarray(ac.special.laguerre_polynomial_l(ac.asarray([0.5]), 1e12))
    assert np.isnan(out[0])  # beyond the 2^24 loop limit (documented)


def _sp(f, *a):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(sp, f)(*a)


def test_exponential_integrals_wide_range():
    x = np.geomspace(1e-300, 800, 2000)
    _close(np.asarray(ac.special.exp1(ac.asarray(x))), _sp("exp1", x), 1e-13)
    _close(np.asarray(ac.special.expi(ac.asarray(-x))), _sp("expi", -x), 1e-13)
    xp = np.geomspace(1e-300, 709, 2000)
    _close(np.asarray(ac.special.expi(ac.asarray(xp))), _sp("expi", xp), 1e-13, 1e-15)


def test_expn_orders():
    # (n < 100: beyond, SciPy's uniform asymptotic expansion is off by ~1e-7, e.g.
    # E_100(50) = 1.2915478777847485e-24 (mpmath; ours), SciPy 1.2915480463e-24)
    n = np.arange(0, 100, dtype=np.float64)[:, None]
    x = np.array([1e-8, 0.1, 0.9, 1.0, 1.1, 5.0, 50.0, 600.0])[None, :]
    _close(np.asarray(ac.special.expn(ac.asarray(n), ac.asarray(x))), _sp("expn", n, x), 1e-12)
    # n truncated like SciPy's int cast; out of int range is NaN
    got = np.asarray(ac.special.expn(ac.asarray([1.5, 0.5, -0.5, 3e9]), 1.0))
    _close(got, _sp("expn", np.array([1.5, 0.5, -0.5, 3e9]), 1.0), 1e-14)


def test_expn_large_order_against_mpmath():
    import mpmath
    n = np.array([100.0, 150.0, 400.0, 1000.0])
    x = np.array([50.0, 0.5, 3.0, 2.0])
    got = np.asarray(ac.special.expn(ac.asarray(n), ac.asarray(x)))
    with mpmath.workdps(40):
        want = np.array([float(mpmath.expint(int(a), b)) for a, b in zip(n, x)])
    _close(got, want, 1e-13)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [1, 7, 8, 9, 255, 256, 257, 1000])
def test_expn_lanes_mixed_regions_and_sizes(dtype, size):
    """expn runs its continued fractions in groups of 8 lanes per chunk of 256 (expn_chunk):
    sizes around the group and chunk edges, with the fraction (x > 1, or n > 64), the series
    (x <= 1), n = 0 and the edges (0, inf, NaN, negative and fractional n) mixed in one chunk,
    against mpmath (SciPy's asymptotic expansion for large n is off by 1e-7)."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(size)
    n = rng.integers(0, 12, size).astype(np.float64)
    x = rng.uniform(0.0, 40.0, size)
    x[::4] = rng.uniform(0.0, 1.0, x[::4].shape)  # the series region
    n[3::9] = rng.integers(65, 120, n[3::9].shape)  # large orders: the fraction below x = 1
    edge_n, edge_x = [np.nan, -1.0, 2.5, 1e10, 3.0], [0.0, np.inf, np.nan, -1.0, 1e-300]
    for k in range(min(size, 40))[1::5]:
        n[k], x[(k * 3) % size] = edge_n[k % 5], edge_x[(k + 1) % 5]
    n, x = n.astype(dtype), x.astype(dtype)
    got = np.asarray(ac.special.expn(ac.asarray(n), ac.asarray(x)))
    rtol = 2 * np.finfo(np.float32).eps if dtype == "float32" else 2e-14
    with mpmath.workdps(40):
        for i in range(size):
            ni, xi = float(n[i]), float(x[i])
            if not (np.isfinite(ni) and ni >= 0 and ni < 2**31 and xi > 0 and np.isfinite(xi)):
                want = _sp("expn", np.float64(ni), np.float64(xi))
                assert (np.isnan(got[i]) and np.isnan(want)) or got[i] == want, (ni, xi, got[i])
                continue
            want = float(mpmath.expint(int(ni), xi))
            if want < np.finfo(dtype).tiny:  # (float underflow: within an absolute tiny)
                assert abs(float(got[i]) - want) <= np.finfo(dtype).tiny, (ni, xi, got[i], want)
                continue
            assert abs(float(got[i]) - want) <= rtol * want, (ni, xi, got[i], want)


def test_expn_lanes_layouts():
    """Strided, reversed and broadcast operands give the contiguous result."""
    rng = np.random.default_rng(3)
    n = rng.integers(0, 10, (30, 41)).astype(np.float64)
    x = rng.uniform(0.0, 20.0, (30, 41))
    N, X = ac.asarray(n), ac.asarray(x)
    full = np.asarray(ac.special.expn(N, X))
    np.testing.assert_array_equal(np.asarray(ac.special.expn(N[:, ::3], X[:, ::3])), full[:, ::3])
    np.testing.assert_array_equal(np.asarray(ac.special.expn(N[::-1], X[::-1])), full[::-1])
    np.testing.assert_array_equal(np.asarray(ac.special.expn(N.T, X.T)), full.T)
    np.testing.assert_array_equal(np.asarray(ac.special.expn(3.0, X)),
                                  np.asarray(ac.special.expn(ac.full(x.shape, 3.0), X)))


def test_ellipk_near_one_and_far_negative():
    p = np.geomspace(1e-300, 1e300, 500)
    _close(np.asarray(ac.special.ellipkm1(ac.asarray(p))), _sp("ellipkm1", p), 1e-14)
    m = -np.geomspace(1e-10, 1e300, 500)
    _close(np.asarray(ac.special.ellipk(ac.asarray(m))), _sp("ellipk", m), 1e-14)


def test_spence_wide_range():
    x = np.concatenate([np.geomspace(1e-300, 1e300, 2000), np.linspace(0.4, 2.1, 500)])
    _close(np.asarray(ac.special.spence(ac.asarray(x))), _sp("spence", x), 1e-14, 1e-300)


def test_hyp1f1_regions():
    rng = np.random.default_rng(5)
    a = rng.uniform(-10, 10, 3000)
    b = rng.uniform(0.5, 10, 3000)
    x = rng.uniform(-30, 30, 3000)
    want = _sp("hyp1f1", a, b, x)
    got = np.asarray(ac.special.hyp1f1(ac.asarray(a), ac.asarray(b), ac.asarray(x)))
    # relative to the size of the terms (cancellation near the zeros of M for a < 0)
    scale = np.maximum(np.abs(want), np.exp(np.minimum(np.abs(x), 0) ))
    assert np.all(np.abs(got - want) <= 1e-9 * np.maximum(scale, np.abs(want)) + 1e-12)
    # terminating polynomials and a == b
    _close(np.asarray(ac.special.hyp1f1(-3.0, 2.5, ac.asarray([-4.0, 0.5, 7.0]))),
           _sp("hyp1f1", -3.0, 2.5, np.array([-4.0, 0.5, 7.0])), 1e-14)


def test_hyp1f1_sign_changing_series_against_mpmath():
    """x > 0 with a < 0 (or b < 0), and polynomials: the series' terms change sign and cancel
    near the zeros of M (the sum reaches 1e-10 of its largest term), which the plain double
    sum turned into relative errors up to 2e-3 (a = -24, b = 18.3, x = 28.3; SciPy 3e-11);
    the compensated sum keeps them at a few ulp.  Relative error against mpmath."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    rng = np.random.default_rng(23)
    n = 400
    a = -rng.uniform(0.1, 20, n)
    b = rng.uniform(0.5, 20, n)
    x = rng.uniform(0, 30, n)
    a[:60] = -np.floor(rng.uniform(1, 25, 60))  # polynomials
    b[60:120] = -rng.uniform(0.1, 9.9, 60)  # negative b, away from the poles
    got = np.asarray(ac.special.hyp1f1(ac.asarray(a), ac.asarray(b), ac.asarray(x)))
    for g, ai, bi, xi in zip(got, a, b, x):
        ref = mpmath.hyp1f1(ai, bi, xi)
        assert abs(g - ref) <= 2e-15 * abs(ref), (ai, bi, xi, g, float(ref))


def test_hyp1f1_terminating_series_at_negative_integer_b():
    """Integers b <= a < 0: the series stops at k = -a before (b)_k reaches 0 (SciPy's and
    Boost's convention, M(-1, -1, x) = 1 + x); a = 0 or b > a keep the pole (inf)."""
    a = np.array([-1.0, -2.0, -1.0, -2.0, -3.0, 0.0, -2.0])
    b = np.array([-1.0, -2.0, -2.0, -3.0, -5.0, -1.0, -1.0])
    x = np.array([1.5, -0.75, -2.0, 3.0, 0.4, 2.0, 2.0])
    got = np.asarray(ac.special.hyp1f1(ac.asarray(a), ac.asarray(b), ac.asarray(x)))
    np.testing.assert_allclose(got, sp.hyp1f1(a, b, x), rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(got[:2], [2.5, 1 - 0.75 + 0.75 ** 2 / 2], rtol=1e-15)
    assert np.isinf(got[-2:]).all()


def test_lpmv_integer_degree_continues_outside_the_interval():
    """m = 0 with an integer degree is the Legendre polynomial for every x (SciPy's
    convention), P_0 = P_{-1} = 1 even at NaN; other orders and degrees are NaN outside
    [-1, 1]."""
    v = np.array([3.0, -3.0, 2.0, 1.0, 0.0, -1.0, 4.0])
    x = np.array([3.0, 3.0, -2.0, 1e30, np.nan, np.inf, -7.5])
    got = np.asarray(ac.special.lpmv(0.0, ac.asarray(v), ac.asarray(x)))
    np.testing.assert_allclose(got, sp.lpmv(0.0, v, x), rtol=1e-15)
    np.testing.assert_allclose(got[:3], [63.0, 13.0, 5.5], rtol=1e-15)
    assert np.isnan(np.asarray(ac.special.lpmv(1.0, 3.0, 3.0)))
    assert np.isnan(np.asarray(ac.special.lpmv(0.0, 2.5, 3.0 + 1e-9)))
    np.testing.assert_array_equal(np.asarray(ac.special.lpmv(0.0, 3.0, ac.asarray([np.inf, -np.inf]))),
                                  [np.inf, -np.inf])


def test_lpmv_negative_order_and_fractional_degree():
    rng = np.random.default_rng(7)
    m = rng.integers(-3, 4, 500).astype(np.float64)
    v = rng.uniform(-4, 6, 500)
    x = rng.uniform(-0.5, 0.99, 500)
    want = _sp("lpmv", m, v, x)
    got = np.asarray(ac.special.lpmv(ac.asarray(m), ac.asarray(v), ac.asarray(x)))
    _close(got, want, 1e-9, 1e-10)


def test_hyp1f1_polynomial_at_minus_infinite_b():
    """SciPy's value at b = -inf with a polynomial: every term past the first vanishes."""
    import scipy.special as sp
    for a, b, x in [(-1.0, -np.inf, 3.0), (-2.0, -np.inf, -0.5), (-3.0, -np.inf, 1e30)]:
        got = float(np.asarray(ac.special.hyp1f1(ac.asarray(a), ac.asarray(b), ac.asarray(x))))
        assert got == sp.hyp1f1(a, b, x), (a, b, x, got)


def test_hyp1f1_limits_at_infinite_x_against_mpmath():
    """x = +-inf gives the limit (hyp1f1_at_infinity): a polynomial's leading term, Gamma(b)/
    Gamma(a) e^x x^(a-b) at +inf, Gamma(b)/Gamma(b-a) |x|^-a (a signed 0 or inf) at -inf.
    Each is checked against mpmath at |x| = 300 and 600: the sign, and whether |M| grows
    (inf) or shrinks (0) out there."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    cases = [(-1.0, 1.0), (-2.0, 1.0), (-3.0, 0.5), (-1.0, -2.0), (-1.0, -1.0), (-2.0, -3.0),
             (-3.0, -2.5), (1.0, 0.5), (0.5, 3.0), (3.0, 0.5), (0.5, 1e-30), (-0.5, 1.0),
             (-2.5, 0.75), (1.5, -0.5), (2.0, 1.0), (0.25, -1.5), (4.0, 2.0)]

    def ref(a, b, x):
        if b == np.floor(b) and b <= 0:  # terminating at the negative integer b
            return sum(mpmath.rf(a, k) / mpmath.rf(b, k) * mpmath.mpf(x) ** k
                       / mpmath.factorial(k) for k in range(int(-a) + 1))
        return mpmath.hyp1f1(a, b, x)

    for a, b in cases:
        got = np.asarray(ac.special.hyp1f1(a, b, ac.asarray([np.inf, -np.inf])))
        for g, x in zip(got, (300.0, -300.0)):
            near, far = ref(a, b, x), ref(a, b, 2 * x)
            assert g in (0.0, np.inf, -np.inf), (a, b, x, g)
            assert np.signbit(g) == (far < 0), (a, b, x, g, far)
            assert (g == 0) == (abs(far) < abs(near)), (a, b, x, g, near, far)


def test_hyp1f1_overflow_versus_oscillation():
    """An overflowing series is the value's overflow when every term is positive (1F1(1e30;
    1; 1) = e^(2e15...) = inf, 1F1(1; 1; 1e30) = inf) but only the terms' when they alternate:
    1F1(1e30; 1; -1) is bounded (a Bessel-like oscillation), NaN rather than -inf."""
    f = lambda a, b, x: float(np.asarray(ac.special.hyp1f1(a, b, x)))
    assert f(1e30, 1.0, 1.0) == np.inf
    assert f(1.0, 1.0, 1e30) == np.inf
    for a, b, x in [(1e30, 1.0, -1.0), (1e30, 0.5, -2.0), (-1e30, 3.0, 1.0)]:
        assert np.isnan(f(a, b, x)), (a, b, x)
    # infinite b with infinite x has no limit; with finite x every term past the first is 0
    assert np.isnan(f(1.0, np.inf, np.inf)) and np.isnan(f(-2.0, -np.inf, -np.inf))
    assert f(1.0, np.inf, 2.0) == 1.0


def test_lpmv_negative_orders_near_poles_against_mpmath():
    """P_v^-m for degrees at or near an integer n < m (and the mirrored -n-1), where
    (-1)^m Gamma(v-m+1)/Gamma(v+m+1) P_v^m is inf * 0 or rounds v - m + 1 onto the pole
    (v = 1e-30, m = 5 gave inf; P_0^-1 gave NaN): the Gauss series of negative order.
    SciPy returns NaN or 1e270 at these points."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    rng = np.random.default_rng(11)
    degrees = [0.0, 1.0, 2.0, 4.0, -1.0, -3.0, 1e-30, -1e-30, 1e-10, 2.0 + 1e-4, 3.0 - 9e-4,
               -2.0 + 1e-7, 6.0 - 1e-12, 0.5, 2.5, -3.7, 7.3]
    for v in degrees:
        m = rng.integers(1, 8, 12).astype(np.float64)
        x = rng.uniform(-0.9, 0.99, 12)
        got = np.asarray(ac.special.lpmv(ac.asarray(-m), v, ac.asarray(x)))
        for g, mi, xi in zip(got, m, x):
            ref = mpmath.legenp(v, -int(mi), xi)
            assert abs(g - ref) <= 1e-12 * abs(ref) + 1e-300, (v, -mi, xi, g, float(ref))
    # the end points: P_v^-m(1) = 0; at -1 P_n^-m (n < m) diverges to +inf, P_n^-m (n >= m) is
    # 0, and a non-integer degree diverges with a sign this does not decide (NaN)
    f = lambda m, v, x: float(np.asarray(ac.special.lpmv(m, v, x)))
    assert f(-1.0, 1e-30, 1.0) == 0.0 and f(-2.0, 0.0, 1.0) == 0.0
    assert f(-1.0, 0.0, -1.0) == np.inf and f(-3.0, 1.0, -1.0) == np.inf
    assert f(-1.0, 2.0, -1.0) == 0.0 and np.isnan(f(-1.0, 0.5, -1.0))
    # P_v(-1) for a non-integer degree: -sign(sin(v pi)) inf (DLMF 14.8.2)
    assert f(0.0, 0.5, -1.0) == -np.inf and f(0.0, 1.5, -1.0) == np.inf
    assert f(0.0, -2.5, -1.0) == np.inf  # P_-2.5 = P_1.5
