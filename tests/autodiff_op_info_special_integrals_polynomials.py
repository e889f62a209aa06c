"""Autodiff test metadata of arraycore.special, family integrals_polynomials (see
tests/autodiff_op_info_special.py).  References: jax.scipy.special where its derivatives
hold (expi, hyp1f1), else jnp compositions with the same signature (the AGM for K, the
recurrences for expn, lpmv and PyTorch's polynomials).  exp1 and spence are JAX's values
with their derivatives stated (custom_jvp): JAX's own exp1 fails under a second derivative
("No constant handler"), and its spence gradient is NaN on (1, 2]; its
expn neither broadcasts nor promotes under jvp."""

from __future__ import annotations

import numpy as np

from autodiff_op_info import uniform
from autodiff_op_info_special import jax_special, special_info


def integers(lo, hi):
    def s(rng, shape, dt):
        return np.asarray(rng.randint(lo, hi + 1, size=shape), dtype=np.float64)
    return s


def _jnp():
    import jax.numpy as jnp
    return jnp


_CUSTOM = {}


def _with_derivative(name, value, derivative):
    """jss.<name> with d/dx given by `derivative(x)` (built once, on first use)."""
    if name not in _CUSTOM:
        import jax

        @jax.custom_jvp
        def f(x):
            return value(x)

        @f.defjvp
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return f(x), derivative(x) * t
        _CUSTOM[name] = f
    return _CUSTOM[name]


def exp1_ref(x):
    """E1(x), d/dx E1 = -e^-x / x (DLMF 6.2.1)."""
    import jax.scipy.special as jss
    jnp = _jnp()
    return _with_derivative("exp1", jss.exp1, lambda x: -jnp.exp(-x) / x)(x)


def spence_ref(x):
    """SciPy's spence(x) = int_1^x log(t) / (1 - t) dt: d/dx = log(x) / (1 - x) (-1 at 1)."""
    import jax.scipy.special as jss
    jnp = _jnp()

    def derivative(x):
        one = x == 1.0
        return jnp.where(one, -1.0, jnp.log(x) / jnp.where(one, 2.0, 1.0 - x))
    return _with_derivative("spence", jss.spence, derivative)(x)


def expn_ref(n, x):
    """E_n(x) for integer n >= 1 given as a constant: E_{k+1} = (e^-x - x E_k) / k from E1
    (DLMF 8.19.12; forward recurrence, stable enough at x <= 4, n <= 5 for the 1e-10
    comparison), promoted as the op promotes."""
    jnp = _jnp()
    dtype = jnp.result_type(n, x)
    n = np.asarray(n, dtype=np.float64)
    shape = np.broadcast_shapes(n.shape, jnp.shape(x))
    x = jnp.broadcast_to(x, shape)
    n = np.broadcast_to(n, shape)
    e, ex = exp1_ref(x), jnp.exp(-x)
    out = jnp.where(n == 1, e, jnp.zeros_like(x))
    for k in range(1, int(n.max()) if n.size else 1):
        e = (ex - x * e) / k
        out = jnp.where(n == k + 1, e, out)
    return out.astype(dtype)


def ellipk_ref(m):
    jnp = _jnp()
    a, b = jnp.ones_like(m), jnp.sqrt(1.0 - m)
    for _ in range(12):
        a, b = 0.5 * (a + b), jnp.sqrt(a * b)
    return jnp.pi / (a + b)


def ellipkm1_ref(p):
    return ellipk_ref(1.0 - p)


def lpmv_ref(m, v, x):
    """P_v^m(x) for integer m >= 0, integer v >= 0 given as constants: the degree recurrence."""
    jnp = _jnp()
    dtype = jnp.result_type(m, v, x)  # the op's promotion (float32 x, float64 m, v: float64)
    return _lpmv(m, v, x).astype(dtype)


def _lpmv(m, v, x):
    jnp = _jnp()
    m, v = np.asarray(m), np.asarray(v)
    shape = np.broadcast_shapes(m.shape, v.shape, jnp.shape(x))
    m, v = np.broadcast_to(m, shape), np.broadcast_to(v, shape)
    x = jnp.broadcast_to(x, shape)
    out = jnp.zeros(shape, dtype=x.dtype)
    s = jnp.sqrt((1.0 - x) * (1.0 + x))
    for mm, vv in {(int(a), int(b)) for a, b in zip(m.ravel(), v.ravel())}:
        pmm = jnp.ones_like(x)
        for i in range(1, mm + 1):
            pmm = pmm * (-(2 * i - 1)) * s
        p0, p1 = pmm, x * (2 * mm + 1) * pmm
        val = pmm if vv == mm else p1
        for ll in range(mm + 1, vv):
            p0, p1 = p1, ((2 * ll + 1) * x * p1 - (ll + mm) * p0) / (ll - mm + 1)
            val = p1
        if vv < mm:
            val = jnp.zeros_like(x)
        out = jnp.where((m == mm) & (v == vv), val, out)
    return out


def _poly_ref(first, step, start, stride, end):
    """A jnp three-term recurrence with a constant (NumPy) degree array n."""
    def ref(x, n):
        jnp = _jnp()
        dtype = jnp.result_type(x, n)  # the op's promotion (float32 x, float64 n: float64)
        n = np.trunc(np.asarray(n, dtype=np.float64))
        shape = np.broadcast_shapes(jnp.shape(x), n.shape)
        x = jnp.broadcast_to(x, shape)
        n = np.broadcast_to(n, shape)
        p, q = jnp.ones_like(x), first(x)
        out = jnp.where(n == 0, p, jnp.where(n == 1, q, jnp.zeros_like(x)))
        top = int(n.max()) if n.size else 0
        for deg in range(2, top + 1):
            k = start + stride * (deg - 2)
            p, q = q, step(x, q, p, k)
            out = jnp.where(n == deg, q, out)
        return out.astype(dtype)
    return ref


def _cheb(first, shifted=False):
    def y(x):
        return 2.0 * x - 1.0 if shifted else x
    return _poly_ref(lambda x: first(y(x)), lambda x, q, p, k: 2.0 * y(x) * q - p, 2, 1, None)


POLY_REFS = {
    "chebyshev_polynomial_t": _cheb(lambda y: y),
    "chebyshev_polynomial_u": _cheb(lambda y: 2.0 * y),
    "chebyshev_polynomial_v": _cheb(lambda y: 2.0 * y - 1.0),
    "chebyshev_polynomial_w": _cheb(lambda y: 2.0 * y + 1.0),
    "shifted_chebyshev_polynomial_t": _cheb(lambda y: y, True),
    "shifted_chebyshev_polynomial_u": _cheb(lambda y: 2.0 * y, True),
    "shifted_chebyshev_polynomial_v": _cheb(lambda y: 2.0 * y - 1.0, True),
    "shifted_chebyshev_polynomial_w": _cheb(lambda y: 2.0 * y + 1.0, True),
    "hermite_polynomial_h": _poly_ref(lambda x: 2.0 * x,
                                      lambda x, q, p, k: 2.0 * x * q - k * p, 2, 2, None),
    "hermite_polynomial_he": _poly_ref(lambda x: x, lambda x, q, p, k: x * q - k * p, 1, 1,
                                       None),
    "laguerre_polynomial_l": _poly_ref(
        lambda x: 1.0 - x, lambda x, q, p, k: ((2 * k + 1 - x) * q - k * p) / (k + 1), 1, 1,
        None),
    "legendre_polynomial_p": _poly_ref(
        lambda x: x, lambda x, q, p, k: ((2 * k + 1) * x * q - k * p) / (k + 1), 1, 1, None),
}
for _name, _f in POLY_REFS.items():
    _f.__name__ = f"jnp_{_name}"


def build(add):
    add(special_info("exp1", [uniform(0.2, 4.0)], exp1_ref))
    add(special_info("expi", [uniform(0.2, 4.0)], jax_special("expi")))
    add(special_info("expn", [integers(1, 5), uniform(0.2, 4.0)], expn_ref,
                     diff=(1,)))
    add(special_info("ellipk", [uniform(-2.0, 0.9)], ellipk_ref))
    add(special_info("ellipkm1", [uniform(0.1, 3.0)], ellipkm1_ref))
    add(special_info("spence", [uniform(0.2, 4.0)], spence_ref))
    add(special_info("hyp1f1", [uniform(0.2, 2.0), uniform(0.5, 3.0), uniform(-2.0, 2.0)],
                     jax_special("hyp1f1"), diff=(2,), rtol=1e-8))
    add(special_info("lpmv", [integers(0, 2), integers(2, 5), uniform(-0.8, 0.8)], lpmv_ref,
                     diff=(2,)))
    for name, ref in POLY_REFS.items():
        lo, hi = (-0.9, 0.9) if "hermite" not in name and "laguerre" not in name else (0.2, 2.0)
        if name.startswith("shifted"):
            lo, hi = 0.05, 0.95
        add(special_info(name, [uniform(lo, hi), integers(0, 6)], ref, diff=(0,), scalar=4))
