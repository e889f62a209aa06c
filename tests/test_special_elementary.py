"""arraycore.special, family elementary: what the table-driven tests (tests/test_special.py)
do not cover: logsumexp/softmax/log_softmax (SciPy's semantics, PyTorch's spellings, their
derivatives against JAX), torch.special names, degree functions at exact multiples, large
arguments, and the non-differentiable Box-Cox lambda."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc
import torch

import arraycore as ac

S = ac.special


def _np(x):
    return np.asarray(x)


# ---- logsumexp ---------------------------------------------------------------------------

LSE_CASES = [
    (np.array([0.0, -40.0]), {}),
    (np.array([1000.0, 1000.0, -1000.0]), {}),
    (np.array([np.inf, 1.0]), {}),
    (np.array([np.inf, -np.inf]), {}),
    (np.array([-np.inf, -np.inf]), {}),
    (np.array([np.nan, 1.0]), {}),
    (np.array([np.inf, np.inf]), {}),
    (np.array([1.0, 2.0]), {"b": np.array([1.0, -1.0])}),
    (np.array([1.0, 2.0]), {"b": np.array([1.0, -1.0]), "return_sign": True}),
    (np.array([1.0, 1.0]), {"b": np.array([1.0, -1.0]), "return_sign": True}),
    (np.array([1.0, 2.0]), {"b": np.array([0.0, 1.0])}),
    (np.array([np.inf, 2.0]), {"b": np.array([0.0, 1.0])}),
    (np.array([np.nan, 2.0]), {"b": np.array([0.0, 2.0])}),
    (np.arange(24.0).reshape(2, 3, 4) / 7, {"axis": 1}),
    (np.arange(24.0).reshape(2, 3, 4) / 7, {"axis": (0, 2), "keepdims": True}),
    (np.arange(24.0).reshape(2, 3, 4) / 7, {"axis": -1}),
    (np.arange(12.0).reshape(3, 4), {"axis": 0, "b": np.linspace(-1, 2, 4)}),
    (np.arange(12.0).reshape(3, 4), {"axis": 1, "b": np.linspace(-1, 2, 4),
                                     "return_sign": True}),
    (np.ones((2, 0)), {"axis": 1}),
    (np.array(3.0), {}),
]


@pytest.mark.parametrize("a,kw", LSE_CASES, ids=[str(i) for i in range(len(LSE_CASES))])
def test_logsumexp_matches_scipy(a, kw):
    with np.errstate(all="ignore"):
        want = sc.logsumexp(a, **kw)
    kw_ac = {k: (ac.asarray(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    got = S.logsumexp(ac.asarray(a), **kw_ac)
    if kw.get("return_sign"):
        np.testing.assert_allclose(_np(got[0]), want[0], rtol=1e-14, atol=0)
        np.testing.assert_array_equal(_np(got[1]), want[1])
    else:
        assert _np(got).shape == np.shape(want)
        np.testing.assert_allclose(_np(got), want, rtol=1e-14, atol=0)


def test_logsumexp_dtypes_and_aliases():
    x = np.random.default_rng(0).normal(size=(4, 5)).astype(np.float32)
    assert S.logsumexp(ac.asarray(x)).dtype == ac.float32
    assert S.logsumexp(ac.asarray([1, 2, 3])).dtype == ac.float64
    np.testing.assert_allclose(_np(S.logsumexp(ac.asarray(x), 1)),
                               torch.logsumexp(torch.from_numpy(x), 1).numpy(), rtol=1e-6)
    np.testing.assert_allclose(_np(S.logsumexp(ac.asarray(x), dim=0, keepdim=True)),
                               torch.special.logsumexp(torch.from_numpy(x), 0, True).numpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(_np(S.logsumexp([1.0, 2.0])), sc.logsumexp([1.0, 2.0]))
    with pytest.raises(TypeError, match="logsumexp"):
        S.logsumexp(ac.asarray(x), axis=0, dim=0)
    with pytest.raises(ValueError, match="logsumexp"):
        S.logsumexp(ac.asarray(x), axis=2)
    with pytest.raises(TypeError, match="logsumexp"):
        S.logsumexp(ac.asarray([1 + 1j]))


# ---- softmax, log_softmax ----------------------------------------------------------------

SM_CASES = [np.array([np.inf, 1.0]), np.array([-np.inf, 1.0]), np.array([np.nan, 1.0]),
            np.array([1000.0, 0.0]), np.array([0.0, -40.0]),
            np.arange(12.0).reshape(3, 4) / 3]


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("i", range(len(SM_CASES)))
def test_softmax_matches_scipy(fn, axis, i):
    x = SM_CASES[i]
    if axis == 0 and x.ndim == 1 and i < 5:
        pass
    with np.errstate(all="ignore"):
        want = getattr(sc, fn)(x, axis=axis)
    got = getattr(S, fn)(ac.asarray(x), axis=axis)
    np.testing.assert_allclose(_np(got), want, rtol=1e-14, atol=1e-300)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,axis", [((7, 5000), 1), ((5000,), None), ((6, 4, 9), (1, 2)),
                                        ((300, 7), 0), ((4, 300, 3), 1), ((2, 3, 4), None)])
def test_native_logsumexp_and_softmax_match_scipy_and_the_composition(shape, axis, dtype):
    """Plain contiguous arrays take the native passes (kernels/nn_softmax.cpp): rows longer
    than the 4096-element summation blocks, the (n, inner) block form for a leading axis,
    trailing axes merged, ties at the maximum, and rows holding +inf, -inf only, NaN or
    -inf among finite values, against SciPy (in float64) and against the composition (taken
    by a non-contiguous view of the same values)."""
    rng = np.random.default_rng(4)
    a = (rng.standard_normal(shape) * 4).astype(dtype)
    flat = a.reshape(-1)
    flat[::97] = flat.max()  # ties at the maximum
    if a.ndim == 2 and axis == 1:
        a[1, 3] = np.inf
        a[2, :] = -np.inf
        a[3, 10] = np.nan
        a[4, ::5] = -np.inf
    x = ac.asarray(a)
    strided = ac.asarray(np.stack([a, a], -1))[..., 0]  # same values, not contiguous
    rt = 2e-6 if dtype == "float32" else 1e-14
    for fn in ("logsumexp", "softmax", "log_softmax"):
        with np.errstate(all="ignore"):
            want = getattr(sc, fn)(a.astype(np.float64), axis=axis)
        got = getattr(S, fn)(x, axis=axis)
        assert got.dtype == x.dtype and got.shape == np.shape(want)
        np.testing.assert_allclose(_np(got).astype(np.float64), want, rtol=rt, atol=1e-300,
                                   err_msg=fn)
        np.testing.assert_allclose(_np(got), _np(getattr(S, fn)(strided, axis=axis)),
                                   rtol=rt, atol=1e-300, err_msg=fn)
    kept = S.logsumexp(x, axis=axis, keepdims=True)
    assert kept.shape == np.shape(sc.logsumexp(a, axis=axis, keepdims=True))


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_torch_spelling(fn):
    x = np.random.default_rng(1).normal(size=(3, 5)).astype(np.float32)
    want = getattr(torch.special, fn)(torch.from_numpy(x), 1).numpy()
    np.testing.assert_allclose(_np(getattr(S, fn)(ac.asarray(x), 1)), want, rtol=2e-6,
                               atol=1e-7)
    np.testing.assert_allclose(_np(getattr(S, fn)(ac.asarray(x), dim=1)), want, rtol=2e-6,
                               atol=1e-7)
    assert getattr(S, fn)(ac.asarray(x), 1).dtype == ac.float32


# ---- derivatives of the reductions against JAX ---------------------------------------------

def _jax():
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import jax.scipy.special as jss
    return jax, jnp, jss


def test_reduction_gradients_match_jax():
    jax, jnp, jss = _jax()
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 4))
    x[1, 2] = x[1, 0]                       # a tie in the maximum of row 1
    x[2, :] = x[2, 0]                       # a row of equal values
    w = rng.normal(size=(3, 4))
    b = rng.uniform(0.5, 2, size=(4,))
    cases = [
        (lambda xp, s, v: xp.sum(s.logsumexp(v, axis=1) * xp.asarray(w[:, 0])),
         lambda v: jnp.sum(jss.logsumexp(v, axis=1) * w[:, 0])),
        (lambda xp, s, v: s.logsumexp(v, b=xp.asarray(b)),
         lambda v: jss.logsumexp(v, b=b)),
        (lambda xp, s, v: xp.sum(s.softmax(v, axis=0) * xp.asarray(w)),
         lambda v: jnp.sum(jax.nn.softmax(v, axis=0) * w)),
        (lambda xp, s, v: xp.sum(s.log_softmax(v, axis=1) * xp.asarray(w)),
         lambda v: jnp.sum(jax.nn.log_softmax(v, axis=1) * w)),
    ]
    for f_ac, f_jax in cases:
        g = ac.func.grad(lambda v: f_ac(ac, S, v))(ac.asarray(x))
        np.testing.assert_allclose(_np(g), np.asarray(jax.grad(f_jax)(x)), rtol=1e-12,
                                   atol=1e-14)
        h = ac.func.hessian(lambda v: f_ac(ac, S, v))(ac.asarray(x[0]) if False else
                                                      ac.asarray(x))
        hj = jax.hessian(f_jax)(x)
        np.testing.assert_allclose(_np(h), np.asarray(hj), rtol=1e-10, atol=1e-12)


def test_reduction_jvp_and_vmap():
    jax, jnp, jss = _jax()
    rng = np.random.default_rng(4)
    x, t = rng.normal(size=(4, 5)), rng.normal(size=(4, 5))
    _, tan = ac.func.jvp(lambda v: S.log_softmax(v, axis=1), (ac.asarray(x),),
                         (ac.asarray(t),))
    _, tj = jax.jvp(lambda v: jax.nn.log_softmax(v, axis=1), (x,), (t,))
    np.testing.assert_allclose(_np(tan), np.asarray(tj), rtol=1e-12, atol=1e-14)
    got = ac.func.vmap(lambda v: S.logsumexp(v))(ac.asarray(x))
    np.testing.assert_allclose(_np(got), sc.logsumexp(x, axis=1), rtol=1e-14)


# ---- torch.special names -------------------------------------------------------------------

@pytest.mark.parametrize("name,lo,hi,arity", [
    ("entr", 0.0, 5.0, 1), ("sinc", -5.0, 5.0, 1), ("exp2", -20.0, 20.0, 1),
    ("xlogy", 0.01, 5.0, 2), ("xlog1py", -0.9, 5.0, 2)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matches_torch_special(name, lo, hi, arity, dtype):
    rng = np.random.default_rng(5)
    args = [rng.uniform(lo, hi, 200).astype(dtype) for _ in range(arity)]
    want = getattr(torch.special, name)(*[torch.from_numpy(a) for a in args]).numpy()
    got = _np(getattr(S, name)(*[ac.asarray(a) for a in args]))
    rtol = 2e-6 if dtype == "float32" else 1e-13
    # torch's sinc multiplies by pi before sin: near the zeros its relative error grows
    atol = 1e-6 if dtype == "float32" else 1e-15
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# ---- exact multiples, large arguments ------------------------------------------------------

def test_degree_functions_at_multiples_of_45_match_scipy():
    x = np.concatenate([np.arange(-1080.0, 1081.0, 45.0), [1e13 + 90, 1e14, 1.5e14, -1e15]])
    for name in ("sindg", "cosdg", "tandg", "cotdg"):
        got = _np(getattr(S, name)(ac.asarray(x)))
        with np.errstate(all="ignore"):
            want = getattr(sc, name)(x)
        exact = (want == 0) | (np.abs(want) == 1) | np.isinf(want) | np.isnan(want)
        np.testing.assert_array_equal(got[exact], want[exact], err_msg=name)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=name)
        np.testing.assert_allclose(got, want, rtol=1e-15, err_msg=name)  # 1-2 ulp


def test_cotdg_small_angles_are_accurate():
    """SciPy returns inf (tan(90 - x) with 90 - x rounded to 90); the value is 180/(pi x)."""
    x = np.array([1e-20, 1e-15, -1e-12, 180 + 1e-11])
    got = _np(S.cotdg(ac.asarray(x)))
    want = 1 / np.tan(np.deg2rad(np.array([1e-20, 1e-15, -1e-12, x[3] - 180])))
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_sinc_exact_zeros_and_large_arguments():
    x = np.array([1.0, -2.0, 3.0, 2.0 ** 52 + 1, 2.0 ** 60, 0.5, -0.5, 0.0, -0.0])
    got = _np(S.sinc(ac.asarray(x)))
    np.testing.assert_array_equal(got[:5], 0.0)
    np.testing.assert_allclose(got[5:7], 2 / np.pi, rtol=1e-15)
    np.testing.assert_array_equal(got[7:], 1.0)
    assert np.isnan(_np(S.sinc(ac.asarray([np.inf, -np.inf, np.nan])))).all()


def test_exprel_and_exp2_exp10_ranges():
    x = np.array([709.0, 710.0, 716.0, 717.0, -745.0, 1e-300])
    got = _np(S.exprel(ac.asarray(x)))
    np.testing.assert_allclose(got[:3], np.exp(x[:3] - np.log(x[:3])), rtol=1e-13)
    assert np.isinf(got[3]) and got[5] == 1.0
    e = np.array([-1074.0, -1075.0, -1022.5, 1023.0, 1024.0, 0.5])
    np.testing.assert_allclose(_np(S.exp2(ac.asarray(e))), np.exp2(e), rtol=3e-16)
    e32 = np.array([-149.0, -150.0, -126.5, 127.0, 128.0, 0.5], dtype=np.float32)
    np.testing.assert_allclose(_np(S.exp2(ac.asarray(e32))), np.exp2(e32), rtol=1.2e-7)
    t = np.array([-324.0, 308.0, 309.0, 0.0, 1.0, 2.0, 22.0, -300.0])
    np.testing.assert_allclose(_np(S.exp10(ac.asarray(t))), sc.exp10(t), rtol=1e-15)
    # SciPy's exp10 flushes to 0 below 10^-308.25 (Cephes' MINL10); the subnormals are kept
    np.testing.assert_array_equal(_np(S.exp10(ac.asarray([-323.0, -310.0]))),
                                  [1e-323, 1e-310])


def test_cbrt_subnormals_and_extremes():
    x = np.array([5e-324, -1e-310, 2.2e-308, 1.7e308, -8.0, 27.0, 1e-300])
    np.testing.assert_allclose(_np(S.cbrt(ac.asarray(x))), np.cbrt(x), rtol=4e-16)
    np.testing.assert_array_equal(_np(S.cbrt(ac.asarray([-8.0, 27.0, 64.0]))), [-2, 3, 4])


def test_boxcox_lambda_is_not_differentiable():
    f = lambda lam: ac.sum(S.boxcox(ac.asarray([1.5, 2.0]), lam))  # noqa: E731
    with pytest.raises(ValueError, match="boxcox.*lmbda"):
        ac.func.grad(f)(ac.asarray(0.5))
    g = ac.func.grad(lambda x: ac.sum(S.boxcox(x, 0.5)))(ac.asarray([1.5, 2.0]))
    np.testing.assert_allclose(_np(g), np.array([1.5, 2.0]) ** -0.5, rtol=1e-14)
