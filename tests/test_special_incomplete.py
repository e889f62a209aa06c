"""arraycore.special, family incomplete: what the table-driven tests (tests/test_special.py)
do not cover: torch.special's gammainc/gammaincc, round trips of the inverses, SciPy's
integer-argument conventions (floored / truncated counts), large shapes (Temme's region),
tails, NaN inputs that must not loop, and the derivative rules' refusals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.special as sp

import arraycore as ac

S = ac.special


def _np(x):
    return np.asarray(x)


def test_fdtri_extreme_degrees_of_freedom_against_mpmath():
    """At 1e30 degrees of freedom SciPy's fdtri is off by 2.4e-11 in the CDF (those points
    are excluded from the SciPy comparison, tests/special_exclusions_incomplete.py); with
    a = 5e29, b = 5e-31 the root lies within 1e-30 of 1 and is solved for as 1 - x."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 60

    def cdf(x, d1, d2):
        d1, d2, x = mpmath.mpf(d1), mpmath.mpf(d2), mpmath.mpf(x)
        return mpmath.betainc(d1 / 2, d2 / 2, 0, d1 * x / (d1 * x + d2), regularized=True)

    for m, n, p in [(0.5, 1e30, 0.5), (1e30, 0.5, 0.5), (1e30, 3.0, 0.25),
                    (1e30, 1e-30, 1e-30)]:
        x = float(np.asarray(ac.special.fdtri(m, n, p)))
        assert abs(float(cdf(x, m, n)) - p) <= 1e-14 * p, (m, n, p, x)
    np.testing.assert_allclose(float(np.asarray(ac.special.fdtri(1e30, 1e-30, 1e-30))),
                               sp.fdtri(1e30, 1e-30, 1e-30), rtol=1e-13)


def test_gammainc_matches_torch_special():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    a = rng.uniform(0.1, 40.0, 500)
    x = rng.uniform(0.0, 60.0, 500)
    for name in ("gammainc", "gammaincc"):
        want = getattr(torch.special, name)(torch.from_numpy(a), torch.from_numpy(x)).numpy()
        got = _np(getattr(S, name)(ac.asarray(a), ac.asarray(x)))
        # torch's own error reaches ~1e-9 for a > 20 (mpmath agrees with us to 1e-14 there:
        # tests/special_accuracy_incomplete.py)
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-300, err_msg=name)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_inverse_round_trips(dtype):
    rng = np.random.default_rng(1)
    a = rng.uniform(0.2, 30.0, 200).astype(dtype)
    b = rng.uniform(0.2, 30.0, 200).astype(dtype)
    p = rng.uniform(0.01, 0.99, 200).astype(dtype)
    tol = 1e-12 if dtype == "float64" else 2e-5
    A, B, P = ac.asarray(a), ac.asarray(b), ac.asarray(p)
    np.testing.assert_allclose(_np(S.gammainc(A, S.gammaincinv(A, P))), p, rtol=tol)
    np.testing.assert_allclose(_np(S.gammaincc(A, S.gammainccinv(A, P))), p, rtol=tol)
    np.testing.assert_allclose(_np(S.betainc(A, B, S.betaincinv(A, B, P))), p, rtol=tol)
    np.testing.assert_allclose(_np(S.stdtr(A, S.stdtrit(A, P))), p, rtol=tol)
    np.testing.assert_allclose(_np(S.fdtr(A, B, S.fdtri(A, B, P))), p, rtol=tol)
    np.testing.assert_allclose(_np(S.chdtrc(A, S.chdtri(A, P))), p, rtol=tol)


def test_integer_arguments_follow_scipy():
    """k floored (bdtr, pdtr) or truncated (nbdtr's C ints), n truncated, as SciPy 1.17."""
    rng = np.random.default_rng(2)
    k = rng.uniform(-0.9, 8.0, 300)
    n = rng.uniform(9.0, 20.0, 300)
    p = rng.uniform(0.0, 1.0, 300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, args in (("bdtr", (k, n, p)), ("bdtrc", (k, n, p)), ("bdtri", (k, n, p)),
                           ("nbdtr", (k, n, p)), ("nbdtrc", (k, n, p)),
                           ("nbdtri", (k, n, p)), ("pdtr", (k, n)), ("pdtrc", (k, n)),
                           ("pdtri", (k, p))):
            want = getattr(sp, name)(*args)
            got = _np(getattr(S, name)(*[ac.asarray(v) for v in args]))
            np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-300, equal_nan=True,
                                       err_msg=name)


def test_large_shapes_temme_region():
    """a beyond 1e6 with x near a (Temme's expansion) and the series/fraction up to 1e6,
    against SciPy (its Temme branch; mpmath's series do not converge there)."""
    for a, x in ((2e6, 2e6 + 1500.0), (5e7, 5e7 - 9000.0), (1e5, 1.003e5), (3e4, 2.99e4),
                 (1e6 + 1, 1e6 - 2000), (999999.0, 1000900.0)):
        for name in ("gammainc", "gammaincc"):
            want = getattr(sp, name)(a, x)
            got = float(getattr(S, name)(ac.asarray(a), ac.asarray(x)))
            assert got == pytest.approx(want, rel=1e-13), (name, a, x)


def test_far_tails_keep_relative_accuracy():
    import mpmath
    cases = [("gammaincc", (5.0, 600.0), lambda: mpmath.gammainc(5, 600, mpmath.inf,
                                                                 regularized=True)),
             ("gammainc", (50.0, 0.5), lambda: mpmath.gammainc(50, 0, 0.5, regularized=True)),
             ("betainc", (40.0, 3.0, 1e-4), lambda: mpmath.betainc(40, 3, 0, 1e-4,
                                                                   regularized=True)),
             ("betaincc", (2.0, 60.0, 0.9), lambda: mpmath.betainc(2, 60, 0.9, 1,
                                                                   regularized=True)),
             ("stdtr", (4.0, -1e5), lambda: mpmath.betainc(2, 0.5, 0, 4 / (4 + 1e10),
                                                           regularized=True) / 2)]
    for name, args, ref in cases:
        with mpmath.workdps(40):
            want = float(ref())
        got = float(getattr(S, name)(*[ac.asarray(v) for v in args]))
        assert got == pytest.approx(want, rel=1e-13), name


def test_nan_and_edges_do_not_hang():
    nan = float("nan")
    x = ac.asarray([nan, 0.5, float("inf"), 1e300, 1e-300])
    for name in ("gammaincinv", "gammainccinv", "pdtri", "chdtri", "stdtrit"):
        out = _np(getattr(S, name)(x, x))
        assert out.shape == (5,) and np.isnan(out[0]), name
    for name in ("betaincinv", "fdtri", "bdtri", "nbdtri", "betainc", "fdtr"):
        out = _np(getattr(S, name)(x, x, x))
        assert out.shape == (5,) and np.isnan(out[0]), name


def test_shape_parameters_are_not_differentiable():
    a = ac.asarray([1.5, 2.5])
    x = ac.asarray([0.7, 3.0])
    with pytest.raises(ValueError, match="gammainc"):
        ac.func.grad(lambda a: ac.sum(S.gammainc(a, x)))(a)
    with pytest.raises(ValueError, match="betainc"):
        ac.func.grad(lambda b: ac.sum(S.betainc(a, b, ac.asarray([0.2, 0.4]))))(a)
    # the continuous variable is
    g = _np(ac.func.grad(lambda x: ac.sum(S.gammainc(a, x)))(x))
    want = np.exp((1.5 - 1) * np.log(0.7) - 0.7 - sp.gammaln(1.5))
    assert g[0] == pytest.approx(want, rel=1e-12)


def test_far_tail_prefactors_against_mpmath():
    """Far lower tails, where the prefactor's exponent reaches -300..-700 and rounding it to
    one double cost 1.0-1.3e-13 (the points the 2000-point checker found): the exponent is
    carried in double-double (special_incomplete_common.h, DD), so 4e-14 holds."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    P = lambda a, x: mpmath.gammainc(a, 0, x, regularized=True)
    I = lambda a, b, x: mpmath.betainc(a, b, 0, x, regularized=True)
    cases = [
        (S.gammainc, (95.02875810583838, 0.15092655747769396), P),
        (S.pdtrc, (92.0, 0.28840934785577105), lambda k, m: P(k + 1, m)),
        (S.chdtr, (193.91014849617275, 0.15017349584495504), lambda v, x: P(v / 2, x / 2)),
        (S.bdtr, (6.0, 89.0, 0.9924461270061855), lambda k, n, p: I(n - k, k + 1, 1 - p)),
        (S.betainc, (83.0, 7.0, 0.0075538729938145), I),
        (S.betaincc, (7.0, 83.0, 0.9924461270061855), lambda a, b, x: I(b, a, 1 - x)),
    ]
    for fn, args, ref in cases:
        got = float(_np(fn(*[ac.asarray(v) for v in args])))
        want = ref(*[mpmath.mpf(v) for v in args])
        assert want < 1e-100, (fn, args, want)  # a far tail indeed
        assert abs(got - want) <= 4e-14 * want, (fn, args, got, float(want))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 7, 8, 9, 255, 256, 257, 1000])
def test_gammainc_lanes_mixed_methods_and_sizes(dtype, n):
    """gammainc/gammaincc run the series and the continued fraction on packed groups of 8
    lanes per chunk of 256 (special_incomplete_gamma_lanes.h): sizes around the group and
    chunk edges, every method mixed in one chunk (series, fraction, the scalar complement
    series at small x, edge values), against SciPy in double (mpmath where they differ)."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 40
    rng = np.random.default_rng(n)
    a = rng.uniform(0.05, 40.0, n)
    x = rng.uniform(0.0, 60.0, n)
    x[::5] = rng.uniform(0.0, 1.1, x[::5].shape)  # the small-x region
    a[3::11] = rng.uniform(10.0, 200.0, a[3::11].shape)  # far lower tails, x < a/2
    edge = [0.0, np.nan, np.inf, 1e-30, 1e30]
    for k in range(min(n, 40))[2::7]:
        a[k], x[(k * 3) % n] = edge[k % 5], edge[(k + 2) % 5]
    a, x = a.astype(dtype), x.astype(dtype)
    rtol = 2 * np.finfo(dtype).eps if dtype == "float32" else 1e-13
    for name in ("gammainc", "gammaincc"):
        with np.errstate(all="ignore"):
            want = getattr(sp, name)(a.astype(np.float64), x.astype(np.float64)).astype(dtype)
        got = _np(getattr(S, name)(ac.asarray(a), ac.asarray(x)))
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
        with np.errstate(all="ignore"):
            close = (got == want) | (np.abs(got - want) <= rtol * np.abs(want))
        # SciPy itself is off by up to 3.5e-13 at large a: the others against mpmath
        for i in np.flatnonzero(~close & ~np.isnan(want)):
            ai, xi = mpmath.mpf(float(a[i])), mpmath.mpf(float(x[i]))
            ref = (mpmath.gammainc(ai, 0, xi, regularized=True) if name == "gammainc"
                   else mpmath.gammainc(ai, xi, mpmath.inf, regularized=True))
            assert abs(float(got[i]) - ref) <= rtol * ref, (name, a[i], x[i], got[i], float(ref))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gammainc_lanes_layouts(dtype):
    """Strided, negative-stride and broadcast operands give the contiguous result."""
    rng = np.random.default_rng(5)
    a = rng.uniform(0.1, 30.0, (40, 33)).astype(dtype)
    x = rng.uniform(0.0, 45.0, (40, 33)).astype(dtype)
    A, X = ac.asarray(a), ac.asarray(x)
    for name in ("gammainc", "gammaincc"):
        f = getattr(S, name)
        full = _np(f(A, X))
        np.testing.assert_array_equal(_np(f(A[:, ::2], X[:, ::2])), full[:, ::2])
        np.testing.assert_array_equal(_np(f(A[::-1, ::-3], X[::-1, ::-3])), full[::-1, ::-3])
        np.testing.assert_array_equal(_np(f(A.T, X.T)), full.T)
        col = _np(f(A[:, :1], X))  # a broadcast along the rows
        np.testing.assert_array_equal(col, _np(f(ac.asarray(np.repeat(a[:, :1], 33, 1)), X)))
        np.testing.assert_array_equal(_np(f(ac.asarray(a[0, 0]), X)),
                                      _np(f(ac.full(x.shape, float(a[0, 0]), dtype=dtype), X)))


@pytest.mark.parametrize("n", [1, 255, 256, 257, 3000])
def test_betainc_float_prefactor_across_shapes(n):
    """float32 betainc/betaincc compute the continued fraction's prefactor in a vectorized
    pass (beta_prefix_float, for a + b < 1e5; the double-double form above): shapes from
    1e-6 to 1e6 (both sides of that bound), x near the mean where the prefactor's exponent
    cancels most, and edge values mixed into one chunk.  The float result must be the
    float64 result correctly rounded (0.5 ulp; 0.51 allows for the float64 result's own
    error), whose own accuracy test_special.py checks against SciPy."""
    rng = np.random.default_rng(n)
    a = np.exp(rng.uniform(np.log(1e-6), np.log(1e6), n)).astype(np.float32)
    b = (a * np.exp(rng.uniform(-3, 3, n))).astype(np.float32)
    m = a.astype(np.float64) / (a.astype(np.float64) + b)
    sd = np.sqrt(m * (1 - m) / (a.astype(np.float64) + b + 1))
    x = np.clip(m + rng.normal(0, 2, n) * sd, 1e-7, 1 - 1e-7).astype(np.float32)
    edge = [0.0, np.nan, np.inf, 1.0, 0.5]
    for k in range(min(n, 40))[1::6]:
        a[k], x[(k * 7) % n] = edge[k % 5], edge[(k + 3) % 5]
    for name in ("betainc", "betaincc"):
        f = getattr(S, name)
        got = _np(f(ac.asarray(a), ac.asarray(b), ac.asarray(x)))
        wide = _np(f(*(ac.asarray(v.astype(np.float64)) for v in (a, b, x))))
        np.testing.assert_array_equal(np.isnan(got), np.isnan(wide), err_msg=name)
        ok = ~np.isnan(wide)
        ulp = np.spacing(np.abs(wide[ok]).astype(np.float32)).astype(np.float64)
        err = np.abs(got[ok].astype(np.float64) - wide[ok]) / np.maximum(ulp, 1e-45)
        assert err.max() <= 0.51, (name, err.max(), np.argmax(err))
