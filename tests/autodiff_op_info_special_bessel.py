"""Autodiff test metadata of arraycore.special, family bessel (see
tests/autodiff_op_info_special.py).

jax.scipy.special has i0, i0e, i1, i1e; the other references are jnp compositions whose
derivatives JAX takes itself (so the rules are checked against an independent derivative):
  J_n(x) = (1/N) sum_k cos(n t_k - x sin t_k) over N equispaced t_k of a period
          (Bessel's integral; the trapezoid rule is spectrally accurate on a period)
  K_n(x) = int_0^inf e^{-x cosh t} cosh(n t) dt     (trapezoid rule, step 1/32)
  Y_n(x) = (1/pi) int_0^pi sin(x sin t - n t) dt
           - (1/pi) int_0^inf (e^{nt} + (-1)^n e^{-nt}) e^{-x sinh t} dt   (DLMF 10.9.7;
           Gauss-Legendre)
  Ai, Ai': Maclaurin series (DLMF 9.4.1), sin(x)/x: jnp.sinc(x/pi).
"""

from __future__ import annotations

import math

import numpy as np

from autodiff_op_info import uniform
from autodiff_op_info_special import jax_special, special_info

_N_TRAP = 64
_GL_X, _GL_W = np.polynomial.legendre.leggauss(96)


def _jn(n, x):
    import jax.numpy as jnp
    t = jnp.asarray(2 * np.pi * np.arange(_N_TRAP) / _N_TRAP)
    x = jnp.asarray(x)[..., None]
    n = jnp.asarray(n)[..., None] if not np.isscalar(n) else n
    return jnp.mean(jnp.cos(n * t - x * jnp.sin(t)), axis=-1)


def _kn_scaled(n, x):
    """e^x K_n(x)."""
    import jax.numpy as jnp
    h = 1.0 / 32
    t = jnp.asarray(np.arange(0, 12, h))
    w = np.full(t.shape, h)
    w[0] = h / 2
    x = jnp.asarray(x)[..., None]
    return jnp.sum(jnp.asarray(w) * jnp.exp(-x * (jnp.cosh(t) - 1)) * jnp.cosh(n * t), axis=-1)


def _yn(n, x):
    import jax.numpy as jnp
    x = jnp.asarray(x)[..., None]
    n = jnp.asarray(n, dtype=x.dtype)[..., None]
    # first integral: Gauss-Legendre on [0, pi]
    t1 = jnp.asarray((_GL_X + 1) * np.pi / 2)
    first = jnp.sum(jnp.asarray(_GL_W * np.pi / 2) * jnp.sin(x * jnp.sin(t1) - n * t1),
                    axis=-1) / np.pi
    # second: Gauss-Legendre on [0, T] with x sinh T - n T beyond 60
    big = jnp.arcsinh((60.0 + 8.0 * jnp.abs(n)) / x)
    t2 = (jnp.asarray(_GL_X) + 1) / 2 * big
    sign = jnp.where(jnp.mod(n, 2) == 0, 1.0, -1.0)
    f = (jnp.exp(n * t2) + sign * jnp.exp(-n * t2)) * jnp.exp(-x * jnp.sinh(t2))
    second = jnp.sum(jnp.asarray(_GL_W) * f, axis=-1) * big[..., 0] / 2 / np.pi
    return first - second


def _airy(x, prime):
    import jax.numpy as jnp
    c1 = 0.35502805388781723926
    c2 = 0.25881940379280679840
    x = jnp.asarray(x)
    f = jnp.zeros_like(x)
    g = jnp.zeros_like(x)
    a, b = 1.0, 1.0
    for k in range(40):
        if prime:
            # d/dx x^{3k} = 3k x^{3k-1}; d/dx x^{3k+1} = (3k+1) x^{3k}
            if k:
                f = f + a * 3 * k * x ** (3 * k - 1)
            g = g + b * (3 * k + 1) * x ** (3 * k)
        else:
            f = f + a * x ** (3 * k)
            g = g + b * x ** (3 * k + 1)
        a = a / ((3 * k + 2) * (3 * k + 3))
        b = b / ((3 * k + 3) * (3 * k + 4))
    return c1 * f - c2 * g


def _ref(fn, name):
    """fn with its result in the dtype of its last operand (x): the quadrature nodes and
    weights are float64 constants, which would otherwise promote float32."""
    def ref(*args):
        import jax.numpy as jnp
        return fn(*args).astype(jnp.asarray(args[-1]).dtype)
    ref.__name__ = name
    return ref


def _small_ints(lo, hi):
    def s(rng, shape, dt):
        return rng.randint(lo, hi + 1, size=shape).astype(np.float64)
    return s


def build(add):
    for name in ("i0", "i0e", "i1", "i1e"):
        add(special_info(name, [uniform(-3.0, 3.0)], jax_special(name)))
    import jax.numpy as jnp  # noqa: F401 (the references import it lazily)

    def k0(x):
        import jax.numpy as jnp
        return _kn_scaled(0, x) * jnp.exp(-x)

    def k1(x):
        import jax.numpy as jnp
        return _kn_scaled(1, x) * jnp.exp(-x)

    pos = uniform(0.3, 4.0)
    add(special_info("k0", [pos], _ref(k0, "trapezoid K0")))
    add(special_info("k1", [pos], _ref(k1, "trapezoid K1")))
    add(special_info("k0e", [pos], _ref(lambda x: _kn_scaled(0, x), "trapezoid e^x K0")))
    add(special_info("k1e", [pos], _ref(lambda x: _kn_scaled(1, x), "trapezoid e^x K1")))
    add(special_info("j0", [uniform(-6.0, 6.0)], _ref(lambda x: _jn(0, x), "Bessel integral J0")))
    add(special_info("j1", [uniform(-6.0, 6.0)], _ref(lambda x: _jn(1, x), "Bessel integral J1")))
    ypos = uniform(0.5, 5.0)
    add(special_info("y0", [ypos], _ref(lambda x: _yn(0.0, x), "DLMF 10.9.7 Y0")))
    add(special_info("y1", [ypos], _ref(lambda x: _yn(1.0, x), "DLMF 10.9.7 Y1")))
    add(special_info("yn", [_small_ints(-3, 4), ypos], _ref(_yn, "DLMF 10.9.7 Yn"), diff=(1,),
                     dtypes=("float64",),
                     notes="the order n has no derivative (ValueError); float64 only: the "
                           "quadrature reference loses float32 accuracy"))
    airy = uniform(-3.0, 2.0)
    # float64 only: the Maclaurin reference cancels in float32 (x near -3)
    add(special_info("airy_ai", [airy], _ref(lambda x: _airy(x, False), "Maclaurin Ai"),
                     dtypes=("float64",)))
    add(special_info("airy_ai_prime", [airy], _ref(lambda x: _airy(x, True), "Maclaurin Ai'"),
                     dtypes=("float64",)))

    def sph(x):
        import jax.numpy as jnp
        return jnp.sinc(x / math.pi)
    add(special_info("spherical_bessel_j0", [uniform(-5.0, 5.0)], _ref(sph, "jnp.sinc(x/pi)")))
