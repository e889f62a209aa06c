"""arraycore.special, family bessel: what the table-driven tests (tests/test_special.py,
test_autodiff_ops.py, test_special_accuracy.py) do not cover: the torch.special names
against PyTorch, yn's order semantics (negative, non-integer, NaN, huge), large arguments
(the libm fallback blocks beyond 2^20 and mixed blocks), and derivative limits at x = 0."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import scipy.special as sc

import arraycore as ac

torch = pytest.importorskip("torch")

# torch.special name -> (arraycore function name, sampler low, high)
TORCH = {
    "bessel_j0": ("j0", -60, 60),
    "bessel_j1": ("j1", -60, 60),
    "bessel_y0": ("y0", 0.01, 60),
    "bessel_y1": ("y1", 0.01, 60),
    "modified_bessel_i0": ("i0", -60, 60),
    "modified_bessel_i1": ("i1", -60, 60),
    "modified_bessel_k0": ("k0", 0.01, 60),
    "modified_bessel_k1": ("k1", 0.01, 60),
    "scaled_modified_bessel_k0": ("k0e", 0.01, 60),
    "scaled_modified_bessel_k1": ("k1e", 0.01, 60),
    "i0": ("i0", -60, 60),
    "i0e": ("i0e", -60, 60),
    "i1": ("i1", -60, 60),
    "i1e": ("i1e", -60, 60),
    "airy_ai": ("airy_ai", -10, 10),
    "spherical_bessel_j0": ("spherical_bessel_j0", -60, 60),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("tname", sorted(TORCH))
def test_torch_names_match_torch_special(tname, dtype):
    target, lo, hi = TORCH[tname]
    fn = getattr(ac.special, tname)
    assert fn is getattr(ac.special, target)
    rng = np.random.default_rng(sum(map(ord, tname)))
    x = rng.uniform(lo, hi, 400).astype(dtype)
    got = np.asarray(fn(ac.asarray(x)))
    # torch in float64 (its float32 kernels are less accurate than ours), rounded.  torch's
    # Cephes-style j0/j1/y0/y1/airy_ai are accurate to ~1e-7 only (ours match mpmath and
    # SciPy to 1e-15, tests/special_accuracy_bessel.py), hence their looser tolerance.
    want = getattr(torch.special, tname)(torch.from_numpy(x.astype(np.float64))).numpy()
    rtol, atol = (2e-6, 1e-7) if dtype == "float32" else (1e-12, 1e-14)
    if tname.startswith("bessel_") or tname == "airy_ai":
        rtol, atol = 5e-5, 5e-6
    np.testing.assert_allclose(got, want.astype(dtype), rtol=rtol, atol=atol, err_msg=tname)


def test_torch_special_values():
    """NaN, signed zeros, tiny and huge arguments as torch.special.  (At +-inf SciPy, our
    spec, and torch differ for some functions: i0(inf) is NaN in SciPy and inf in torch,
    airy_ai(1e30) NaN in SciPy and 0 in torch; tests/test_special.py checks SciPy's.)"""
    x = np.array([np.nan, 0.0, -0.0, 1e-30, 1e-5, 1e30], dtype=np.float64)
    for tname in sorted(TORCH):
        xs = x[:-1] if tname == "airy_ai" else x
        got = np.asarray(getattr(ac.special, tname)(ac.asarray(xs)))
        want = getattr(torch.special, tname)(torch.from_numpy(xs)).numpy()
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14, equal_nan=True,
                                   err_msg=tname)


# --- yn: SciPy's order semantics ---------------------------------------------------------

def test_yn_order_semantics_match_scipy():
    n = np.array([0, 1, 2, 5, -1, -2, -5, 2.7, -2.7, 0.9, -0.9, np.nan, 40, 1e30, -1e30])
    x = np.array([0.5, 1.0, 3.0, 10.0, 25.0, 0.0, -1.0, np.inf, np.nan])
    nn, xx = np.meshgrid(n, x)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = sc.yn(nn, xx)
    got = np.asarray(ac.special.yn(ac.asarray(nn), ac.asarray(xx)))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0, equal_nan=True)
    same_inf = np.isinf(want) == np.isinf(got)
    assert same_inf.all()
    assert (np.sign(got[np.isinf(got)]) == np.sign(want[np.isinf(want)])).all()


def test_yn_float32_and_int_orders():
    x = np.linspace(0.5, 20, 50)
    for n in (0, 3, -4, 9):
        want = sc.yn(n, x)
        got64 = np.asarray(ac.special.yn(n, ac.asarray(x)))
        np.testing.assert_allclose(got64, want, rtol=1e-11, atol=1e-14)
        got32 = np.asarray(ac.special.yn(n, ac.asarray(x.astype(np.float32))))
        assert got32.dtype == np.float32
        want32 = sc.yn(n, x.astype(np.float32).astype(np.float64))
        np.testing.assert_allclose(got32, want32.astype(np.float32), rtol=4e-6, atol=1e-7)


def test_yn_large_order_and_argument_terminate():
    # overflow ends the recurrence early; x beyond 2^20 uses libm sin/cos
    got = np.asarray(ac.special.yn(ac.asarray([300.0, 2.0, 7.0]),
                                   ac.asarray([1.0, 3e6, 1e7])))
    assert got[0] == -np.inf and sc.yn(300, 1.0) == -np.inf
    with mpmath.workdps(40):
        want = [float(mpmath.bessely(2, 3e6)), float(mpmath.bessely(7, 1e7))]
    np.testing.assert_allclose(got[1:], want, rtol=1e-12)


# --- large arguments ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["j0", "j1", "y0", "y1"])
def test_large_arguments_against_mpmath(name):
    x = np.array([1e3, 12345.678, 1048575.5, 1048577.0, 3.5e7, 1e12, 1e18, 1e300])
    got = np.asarray(getattr(ac.special, name)(ac.asarray(x)))
    f = {"j0": lambda v: mpmath.besselj(0, v), "j1": lambda v: mpmath.besselj(1, v),
         "y0": lambda v: mpmath.bessely(0, v), "y1": lambda v: mpmath.bessely(1, v)}[name]
    with mpmath.workdps(60):
        for g, v in zip(got, x):
            want = float(f(mpmath.mpf(float(v))))
            env = math.sqrt(2 / (math.pi * v))
            assert abs(g - want) <= 1e-14 * env, (name, v, g, want)


def test_mixed_fast_and_fallback_blocks():
    """One array whose blocks mix |x| <= 2^20 and beyond: every element as computed alone."""
    rng = np.random.default_rng(3)
    x = rng.uniform(-50, 50, 2000)
    x[::97] = 1e9 * rng.uniform(1, 2, x[::97].shape)
    x[5] = np.nan
    for name in ("j0", "j1", "y0", "y1", "airy_ai", "spherical_bessel_j0"):
        fn = getattr(ac.special, name)
        whole = np.asarray(fn(ac.asarray(x)))
        alone = np.array([float(fn(ac.asarray(v))) for v in x[:300]])
        # a block with one large |x| runs libm sin/cos for all its elements: the last bits
        # may differ from the vectorized reduction
        np.testing.assert_allclose(whole[:300], alone, rtol=1e-14, atol=1e-16,
                                   equal_nan=True, err_msg=name)


# Max float32 ulps of the float kernels (special_bessel_impl.h, Note [Float I0 and I1]):
# measured 1.04 / 0.90 / 0.64 / 0.67 on every 13th float of [0, 700]; the bound is 4.
FLOAT_I_ULP = {"i0e": 1.1, "i1e": 0.95, "i0": 0.7, "i1": 0.72}


@pytest.mark.parametrize("name", sorted(FLOAT_I_ULP))
def test_float32_i_kernels_ulps(name):
    """i0, i0e, i1, i1e of float32 (shortened fits evaluated in double, rounded once) against
    SciPy's float64 value: dense near 0 (where i0e's value is just below 1 and its ulps the
    finest), around the switch at |x| = 8, and out to where i0/i1 overflow float; special
    values as SciPy's rounded to float32."""
    rng = np.random.default_rng(8)
    hi = 88.0 if name in ("i0", "i1") else 1e4
    x = np.concatenate([rng.uniform(0, 1e-3, 20000), rng.uniform(0, 1, 20000),
                        rng.uniform(7.9, 8.1, 20000), rng.uniform(0, hi, 40000),
                        10.0 ** rng.uniform(-30, 0, 10000)]).astype(np.float32)
    x = np.concatenate([x, -x])
    got = np.asarray(getattr(ac.special, name)(ac.asarray(x))).astype(np.float64)
    want = getattr(sc, name)(x.astype(np.float64))
    ok = np.isfinite(want.astype(np.float32)) & (np.abs(want) >= np.finfo(np.float32).tiny)
    spacing = np.spacing(np.abs(want[ok]).astype(np.float32)).astype(np.float64)
    err = np.abs(got[ok] - want[ok]) / spacing
    assert err.max() <= FLOAT_I_ULP[name], f"{name}: {err.max():.3f} ulp at {x[ok][err.argmax()]}"
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], np.float32)
    got = np.asarray(getattr(ac.special, name)(ac.asarray(special)))
    want = getattr(sc, name)(special.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, want)  # (i0e(0) = 1 exactly: the fit is pinned)
    np.testing.assert_array_equal(np.signbit(got[3:]), np.signbit(want[3:]))


def test_airy_ai_far_negative_tail():
    x = np.array([-20.0, -123.456, -1e4, -2e4, -1e6])
    got = np.asarray(ac.special.airy_ai(ac.asarray(x)))
    with mpmath.workdps(60):
        for g, v in zip(got, x):
            want = float(mpmath.airyai(mpmath.mpf(float(v))))
            env = abs(v) ** -0.25 / math.sqrt(math.pi)
            assert abs(g - want) <= 1e-13 * env, (v, g, want)


def test_exponential_scaling_edges():
    # i0 overflows only where I0 does (~713.98), not where e^x does (709.78; SciPy's i0
    # returns inf from 709.78 on)
    got = np.asarray(ac.special.i0(ac.asarray([709.0, 711.0, 713.0, 714.0])))
    with mpmath.workdps(40):
        want = [float(mpmath.besseli(0, v)) for v in (709.0, 711.0, 713.0)]
    np.testing.assert_allclose(got[:3], want, rtol=1e-13)
    assert got[3] == np.inf
    got = np.asarray(ac.special.k0(ac.asarray([700.0, 740.0, 760.0])))
    np.testing.assert_allclose(got, sc.k0([700.0, 740.0, 760.0]), rtol=1e-12)


# --- derivatives at the removable singularities ------------------------------------------

@pytest.mark.parametrize("name, want", [("i1", 0.5), ("i1e", 0.5), ("j1", 0.5),
                                        ("i0", 0.0), ("j0", 0.0),
                                        ("spherical_bessel_j0", 0.0)])
def test_derivative_at_zero(name, want):
    from arraycore.func import grad
    fn = getattr(ac.special, name)
    g = grad(lambda x: fn(x))(ac.asarray(0.0))
    assert float(g) == pytest.approx(want, abs=1e-15)


def test_yn_order_is_not_differentiable():
    from arraycore.func import grad
    with pytest.raises(ValueError, match="yn"):
        grad(lambda n: ac.special.yn(n, ac.asarray(2.0)))(ac.asarray(2.0))


def test_airy_derivatives_chain():
    from arraycore.func import grad
    x = ac.asarray(-4.5)
    d1 = float(grad(ac.special.airy_ai)(x))
    d2 = float(grad(grad(ac.special.airy_ai))(x))
    assert d1 == pytest.approx(sc.airy(-4.5)[1], rel=1e-13)
    assert d2 == pytest.approx(-4.5 * sc.airy(-4.5)[0], rel=1e-13)
