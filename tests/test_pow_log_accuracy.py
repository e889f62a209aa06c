"""Real pow, log2 and log10 (simd_pow.h): accuracy in ulps against a long double reference,
Annex F special values bit for bit against NumPy, exact results where the math is exact, and
pow's scalar-exponent fast paths (2, -1, 1, 0.5) equal to NumPy's."""
import numpy as np
import pytest

import arraycore as ac

RNG = np.random.default_rng(20261129)
FLOATS = [np.float32, np.float64]
# Measured maxima (AMD Zen 5; the same code on every x86-64 build): pow float32 0.56 (log2 and
# exp2 in double with short polynomials, ~2^-27 relative before the rounding to float),
# log2/log10 float32 (float arithmetic) 0.70 / 0.69 over every float,
# log2/log10 float64 0.56, pow float64 1.38 (exp's own error; glibc's pow is correctly
# rounded).  The bounds leave a little room, and stay below 1 ulp.
MAX_ULP = {("pow", np.float32): 0.6, ("pow", np.float64): 1.6,
           ("log2", np.float32): 0.75, ("log2", np.float64): 0.6,
           ("log10", np.float32): 0.75, ("log10", np.float64): 0.6}


def ulp_error(got, ref_ld, dtype):
    """|got - ref| in units of the last place of ref rounded to dtype (finite refs only)."""
    with np.errstate(all="ignore"):
        ref = ref_ld.astype(dtype)
        ok = np.isfinite(ref) & (ref != 0) & (np.abs(ref) >= np.finfo(dtype).tiny)
        spacing = np.spacing(np.abs(ref[ok])).astype(np.longdouble)
        return np.abs(got[ok].astype(np.longdouble) - ref_ld[ok]) / spacing


def _wide_positive(dtype, n):
    lo, hi = (-1070, 1020) if dtype == np.float64 else (-148, 126)
    x = RNG.uniform(1, 2, n) * 2.0 ** RNG.uniform(lo, hi, n)
    near_one = 1 + RNG.uniform(-1e-6, 1e-6, n // 4)
    return np.concatenate([x, RNG.uniform(0.5, 2, n // 4), near_one]).astype(dtype)


@pytest.mark.parametrize("name", ["log2", "log10"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_log2_log10_ulps(name, dtype):
    x = _wide_positive(dtype, 40000)
    got = np.asarray(getattr(ac, name)(ac.asarray(x)))
    err = ulp_error(got, getattr(np, name)(x.astype(np.longdouble)), dtype)
    assert err.max() <= MAX_ULP[(name, dtype)], f"{name} {dtype.__name__}: {err.max():.3f} ulp"


@pytest.mark.parametrize("dtype", FLOATS)
def test_pow_ulps(dtype):
    n = 40000
    x = np.concatenate([RNG.uniform(0, 4, n), RNG.uniform(0.99, 1.01, n // 4),
                        RNG.uniform(1, 1e6, n // 4)]).astype(dtype)
    y = np.concatenate([RNG.uniform(-40, 40, n), RNG.uniform(-3000, 3000, n // 4),
                        RNG.uniform(-20, 20, n // 4)]).astype(dtype)
    neg = RNG.random(x.size) < 0.2  # negative bases with integer exponents
    x[neg] = -x[neg]
    y[neg] = np.round(y[neg])
    got = np.asarray(ac.pow(ac.asarray(x), ac.asarray(y)))
    with np.errstate(all="ignore"):
        ref = np.power(x.astype(np.longdouble), y.astype(np.longdouble))
    err = ulp_error(got, ref, dtype)
    assert err.max() <= MAX_ULP[("pow", dtype)], f"pow {dtype.__name__}: {err.max():.3f} ulp"


SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1.5, -1.5, 3.0, -3.0, 4.0, -4.0,
           7.0, -7.0, np.inf, -np.inf, np.nan, 1e-300, 5e-324, 1e308, -1e308, 2.0 ** 53,
           -(2.0 ** 53), 2.0 ** 53 + 2, 1 + 2.0 ** -52, 1 - 2.0 ** -53, 2.0 ** 24 + 1]


@pytest.mark.parametrize("dtype", FLOATS)
def test_pow_special_values_match_numpy(dtype):
    """Every pair of the special values: NaN where NumPy has NaN, else the same value (to 2
    ulp) with the same sign, zeros and infinities included (C99 Annex F, F.10.4.4)."""
    with np.errstate(all="ignore"):
        v = np.array(SPECIAL).astype(dtype)
        xs, ys = np.meshgrid(v, v)
        want = np.power(xs, ys)
    got = np.asarray(ac.pow(ac.asarray(xs), ac.asarray(ys)))
    both_nan = np.isnan(got) & np.isnan(want)
    with np.errstate(all="ignore"):
        close = np.abs(got - want) <= 2 * np.spacing(np.abs(want).astype(dtype))
    same = (got == want) | close
    ok = both_nan | (same & (np.signbit(got) == np.signbit(want)))
    bad = [(a, b, g, w) for a, b, g, w in zip(xs[~ok], ys[~ok], got[~ok], want[~ok])]
    assert not bad, f"pow {dtype.__name__} (x, y, ours, NumPy): {bad[:8]}"


@pytest.mark.parametrize("dtype", FLOATS)
def test_exact_results_are_exact(dtype):
    k = np.arange(-140, 127) if dtype == np.float32 else np.arange(-1070, 1024)
    np.testing.assert_array_equal(np.asarray(ac.log2(ac.asarray((2.0 ** k).astype(dtype)))),
                                  k.astype(dtype))
    k10 = np.arange(-37, 39) if dtype == np.float32 else np.arange(-307, 309)
    p10 = np.array([float(f"1e{i}") for i in k10]).astype(dtype)
    np.testing.assert_array_equal(np.asarray(ac.log10(ac.asarray(p10))), k10.astype(dtype))
    base = np.arange(-12, 13).astype(dtype)
    for e in (2, 3, 4, 5, -2):
        got = np.asarray(ac.pow(ac.asarray(base), ac.asarray(np.full(base.shape, e, dtype))))
        with np.errstate(all="ignore"):
            want = np.power(base.astype(np.float64), e).astype(dtype)
        exact = np.abs(want) < 2.0 ** (24 if dtype == np.float32 else 53)
        if e < 0:
            exact &= np.isin(np.abs(base), [1, 2, 4, 8])  # 1/x^2 representable
        np.testing.assert_array_equal(got[exact], want[exact], err_msg=f"x ** {e}")


@pytest.mark.parametrize("exponent", [2, -1, 1, 0.5])
@pytest.mark.parametrize("dtype", FLOATS)
def test_scalar_exponent_fast_paths_match_numpy(exponent, dtype):
    """A broadcast exponent of 2, -1, 1 or 0.5 runs as x*x, 1/x, a copy or sqrt: each one
    correctly rounded operation, hence the correctly rounded pow (NumPy's scalar fast paths
    are the same operations), with pow's special values: pow(-0, 0.5) = +0 and pow(-inf,
    0.5) = +inf as C99 and the Array API standard say, where NumPy's sqrt gives -0 and NaN."""
    x = np.concatenate([RNG.standard_normal(1000) * 10,
                        np.array(SPECIAL)]).astype(dtype)
    with np.errstate(all="ignore"):
        want = {2: x * x, -1: dtype(1) / x, 1: x.copy(), 0.5: np.sqrt(x) + dtype(0)}[exponent]
        if exponent == 0.5:
            want[x == -np.inf] = np.inf
        else:
            np.testing.assert_array_equal(want, np.power(x, dtype(exponent)))
    for got in (ac.asarray(x) ** exponent, ac.pow(ac.asarray(x), exponent)):
        got = np.asarray(got)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    y = ac.asarray(x)
    y **= exponent  # in place: the output is the input
    np.testing.assert_array_equal(np.asarray(y), want)


def test_log1p_expm1_float32_ulps():
    """float32 log1p and expm1 are float arithmetic (simd_math.h), measured 0.66 and 0.72 ulp
    over every float: held below 0.75 on the wide range, near 0, near -1 and near overflow."""
    n = 40000
    x = np.concatenate([RNG.uniform(-1, 2, n), RNG.uniform(-1e-4, 1e-4, n // 4),
                        -1 + RNG.uniform(0, 1e-3, n // 4),
                        RNG.uniform(1, 2, n // 4) * 2.0 ** RNG.uniform(-149, 127, n // 4)]
                       ).astype(np.float32)
    got = np.asarray(ac.log1p(ac.asarray(x)))
    err = ulp_error(got, np.log1p(x.astype(np.longdouble)), np.float32)
    assert err.max() <= 0.75, f"log1p float32: {err.max():.3f} ulp"
    x = np.concatenate([RNG.uniform(-20, 88.7, n), RNG.uniform(-1, 1, n // 4),
                        RNG.uniform(-1e-4, 1e-4, n // 4), RNG.uniform(-0.7, 0.7, n // 4),
                        RNG.uniform(85, 88.72, n // 4)]).astype(np.float32)
    got = np.asarray(ac.expm1(ac.asarray(x)))
    err = ulp_error(got, np.expm1(x.astype(np.longdouble)), np.float32)
    assert err.max() <= 0.75, f"expm1 float32: {err.max():.3f} ulp"


@pytest.mark.parametrize("name", ["log2", "log10", "log1p", "expm1", "log"])
def test_float32_special_values_and_layouts(name):
    """Special values as NumPy's float64 function rounded to float32 (NaN where it has NaN,
    the sign of zeros, within one spacing elsewhere: NumPy's own float32 expm1 is 2 ulp off at
    88.72), and the same bits from every layout: contiguous chunks of plain inputs take the
    op's common branch (kernel_loops.h HasCommonBranch), chunks holding a special value and
    strided layouts the full function."""
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -2.0, 1.0, 2.0, 10.0,
                        1e-45, -1e-45, 1e-40, 1.17549435e-38, 3.4e38, -3.4e38, 88.72, 88.73,
                        -17.33, -17.34, -104.0, 1e-30, -1e-30], dtype=np.float32)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(special.astype(np.float64)).astype(np.float32)
    got = np.asarray(getattr(ac, name)(ac.asarray(special)))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    fin = ~np.isnan(want)
    close = np.abs(got[fin] - want[fin]) <= np.spacing(np.abs(want[fin]))
    assert np.all((got[fin] == want[fin]) | close), (special[fin], got[fin], want[fin])
    np.testing.assert_array_equal(np.signbit(got[fin]), np.signbit(want[fin]))
    # 4096 plain values with the special values sprinkled into some chunks of 256
    x = RNG.uniform(0.01, 50, 4096).astype(np.float32)
    x[[5, 700, 701, 3000]] = special[[0, 4, 10, 5]]
    x[1000:1000 + special.size] = special
    inter = np.empty(2 * x.size, np.float32)
    inter[::2] = x
    contiguous = np.asarray(getattr(ac, name)(ac.asarray(x)))
    strided = np.asarray(getattr(ac, name)(ac.asarray(inter)[::2]))
    np.testing.assert_array_equal(contiguous.view(np.uint32), strided.view(np.uint32))


def test_float32_pow_scalar_exponent_blocks_match_the_general_path():
    """x ** c for a finite float32 c runs blocks of positive finite bases through pow without
    its special cases (Pow::rhs_scalar_run, simd_math::pow_positive): the same bits as the
    general path (a strided view), in blocks with and without a zero, negative, inf or NaN
    base, for exponents of every kind."""
    rng = np.random.default_rng(2)
    x = (np.abs(rng.standard_normal(256 * 6 + 5)) * 3).astype(np.float32)
    x[256 + 7] = 0.0
    x[512 + 1] = -2.0
    x[768 + 9] = np.inf
    x[1024 + 3] = np.nan
    x[1280 + 11] = 1e-45  # subnormal base
    strided = ac.asarray(np.stack([x, x], 1))[:, 0]
    for c in (1.7, -1.7, 3.0, -3.0, 0.0, 0.25, 1e30, -1e30, 150.0):
        got = np.asarray(ac.pow(ac.asarray(x), c))
        np.testing.assert_array_equal(got, np.asarray(ac.pow(strided, c)), err_msg=str(c))


@pytest.mark.parametrize("dtype", FLOATS)
def test_exp_common_branch_same_bits_and_ulps(dtype):
    """exp's contiguous loop runs chunks of arguments with |x| <= 87 (float32) or 708
    (float64) through simd_math::exp_in_range alone and packs the others (kernel_loops.h
    HasCommonBranch, exp_log.cpp): at every density of outside arguments (gradual underflow,
    overflow, the edges, NaN, +-inf) the result equals the strided loop's (the full exp) bit
    for bit, and the long double exp within 1 ulp (simd_math: < 0.97 measured)."""
    rng = np.random.default_rng(9)
    edge, lo, hi = (87.0, -104.0, 89.0) if dtype == np.float32 else (708.0, -746.0, 710.0)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, edge, -edge, lo, hi,
                        np.nextafter(edge, 100 * edge)], dtype)
    for density in (0.0, 0.004, 0.15, 0.45, 0.7):
        for n in (1, 255, 257, 20_011):
            x = rng.uniform(-edge, edge, n)
            out = rng.random(n) < density
            x[out] = rng.uniform(lo, hi, n)[out]
            x[rng.integers(0, n, special.size)] = special
            x = x.astype(dtype)
            whole = np.asarray(ac.exp(ac.asarray(x)))
            strided = np.asarray(ac.exp(ac.asarray(np.stack([x, x], 1))[:, 1]))
            np.testing.assert_array_equal(whole.view(f"u{x.itemsize}"),
                                          strided.view(f"u{x.itemsize}"))
            with np.errstate(all="ignore"):
                ref = np.exp(x.astype(np.longdouble))
            err = ulp_error(whole, ref, dtype)
            assert err.size == 0 or err.max() <= 1.0, f"{density} {n}: {err.max():.3f} ulp"
            tiny = np.isfinite(ref) & (ref < np.finfo(dtype).tiny)  # subnormal or 0 results
            step = np.finfo(dtype).smallest_subnormal
            assert np.all(np.abs(whole[tiny] - ref[tiny]) <= step)
            np.testing.assert_array_equal(np.isnan(whole), np.isnan(x))
