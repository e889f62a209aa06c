"""Accuracy specs of arraycore.special, family integrals_polynomials (see
tests/special_accuracy.py).  PyTorch's polynomials are compared with mpmath's exact
polynomials on the degrees PyTorch computes by recurrence and closed form alike."""

from __future__ import annotations

import math

import mpmath
import numpy as np

from special_accuracy import Spec


def _spence(x):
    return mpmath.polylog(2, 1 - x)


def _lpmv(m, v, x):
    return mpmath.legenp(v, m, x, type=2)


def _shift(f):
    return lambda x, n: f(n, 2 * x - 1)


# Chebyshev polynomials of the third and fourth kinds, x = cos t (Mason & Handscomb, 1.2):
# V_n(x) = cos((n + 1/2) t) / cos(t / 2), W_n(x) = sin((n + 1/2) t) / sin(t / 2).
def _chebyv(n, x):
    t = mpmath.acos(x)
    return mpmath.cos((n + mpmath.mpf(0.5)) * t) / mpmath.cos(t / 2)


def _chebyw(n, x):
    t = mpmath.acos(x)
    if t == 0:
        return mpmath.mpf(2 * n + 1)
    return mpmath.sin((n + mpmath.mpf(0.5)) * t) / mpmath.sin(t / 2)


LN2 = math.log(2.0)


def _lgamma1(n):
    """log(n!) elementwise."""
    return np.vectorize(math.lgamma)(np.asarray(n, dtype=np.float64) + 1.0)


def build(add):
    add(Spec("exp1", mpmath.e1, (("log", 1e-6, 700.0),), "x in [1e-6, 700]"))
    add(Spec("expi", mpmath.ei, (("uniform", -700.0, -1e-3),), "x in [-700, -1e-3]"))
    add(Spec("expi", mpmath.ei, (("log", 0.5, 700.0),), "x in [0.5, 700]",
             dtypes=("float64",)))
    add(Spec("expi", mpmath.ei, (("log", 0.5, 88.0),), "x in [0.5, 88] (float32 range)",
             dtypes=("float32",)))
    add(Spec("expi", mpmath.ei, (("uniform", 0.2, 0.5),), "x in [0.2, 0.5] (zero at 0.3725)",
             scale=1.0, notes="absolute near the zero x0 = 0.37250741"))
    add(Spec("expn", lambda n, x: mpmath.expint(n, x), (("int", 0, 30), ("log", 1e-3, 100.0)),
             "n in 0..30, x in [1e-3, 100]"))
    add(Spec("ellipk", mpmath.ellipk, (("uniform", -100.0, 0.999),), "m in [-100, 0.999]"))
    add(Spec("ellipkm1", lambda p: mpmath.pi / (2 * mpmath.agm(1, mpmath.sqrt(p))),
             (("log", 1e-300, 1e3),), "p in [1e-300, 1e3]", dtypes=("float64",)))
    add(Spec("ellipkm1", lambda p: mpmath.pi / (2 * mpmath.agm(1, mpmath.sqrt(p))),
             (("log", 1e-37, 1e3),), "p in [1e-37, 1e3] (float32 range)",
             dtypes=("float32",)))
    add(Spec("spence", _spence, (("log", 1e-6, 1e6),), "x in [1e-6, 1e6]"))
    add(Spec("hyp1f1", mpmath.hyp1f1,
             (("uniform", 0.1, 10.0), ("uniform", 0.5, 10.0), ("uniform", 0.0, 30.0)),
             "a in [0.1, 10], b in [0.5, 10], x in [0, 30]"))
    add(Spec("hyp1f1", mpmath.hyp1f1,
             (("uniform", 0.1, 10.0), ("uniform", 0.5, 10.0), ("uniform", -30.0, 0.0)),
             "a in [0.1, 10], b in [0.5, 10], x in [-30, 0]"))
    add(Spec("hyp1f1", mpmath.hyp1f1,
             (("uniform", -20.0, -0.1), ("uniform", 0.5, 20.0), ("uniform", 0.0, 30.0)),
             "a in [-20, -0.1], b in [0.5, 20], x in [0, 30] (zeros inside)"))
    add(Spec("lpmv", _lpmv, (("int", 0, 4), ("int", 0, 20), ("uniform", -0.99, 0.99)),
             "m in 0..4, integer v in 0..20, |x| <= 0.99", scale=1.0,
             notes="absolute (oscillatory, zeros inside)"))
    # Near the zeros the error is absolute, relative to the polynomial's envelope on the
    # interval (the "absolute error relative to the scale"): 1 for T_n and P_n,
    # n + 1 for U_n, 2n + 1 for V_n and W_n (their values at the ends), DLMF 18.14.9's
    # Cramer bounds 1.0865 sqrt(n!) e^(x^2/4) for He_n and 1.0865 2^(n/2) sqrt(n!) e^(x^2/2)
    # for H_n, and e^(x/2) for L_n (DLMF 18.14.8).
    one = 1.0
    u_env = lambda x, n: n + 1.0  # noqa: E731
    vw_env = lambda x, n: 2.0 * n + 1.0  # noqa: E731
    he_env = lambda x, n: 1.0865 * np.exp(0.5 * _lgamma1(n) + x * x / 4)  # noqa: E731
    h_env = lambda x, n: 1.0865 * np.exp(0.5 * _lgamma1(n) + n * LN2 / 2 + x * x / 2)  # noqa: E731
    l_env = lambda x, n: np.exp(x / 2)  # noqa: E731
    polys = [
        ("chebyshev_polynomial_t", lambda x, n: mpmath.chebyt(n, x), -1.0, 1.0, one),
        ("chebyshev_polynomial_u", lambda x, n: mpmath.chebyu(n, x), -1.0, 1.0, u_env),
        ("legendre_polynomial_p", lambda x, n: mpmath.legendre(n, x), -1.0, 1.0, one),
        ("shifted_chebyshev_polynomial_t", _shift(mpmath.chebyt), 0.0, 1.0, one),
        ("chebyshev_polynomial_v", lambda x, n: _chebyv(n, x), -0.999, 1.0, vw_env),
        ("chebyshev_polynomial_w", lambda x, n: _chebyw(n, x), -1.0, 1.0, vw_env),
        ("shifted_chebyshev_polynomial_u", _shift(mpmath.chebyu), 0.0, 1.0, u_env),
        ("shifted_chebyshev_polynomial_v", _shift(_chebyv), 0.0005, 1.0, vw_env),
        ("shifted_chebyshev_polynomial_w", _shift(_chebyw), 0.0, 1.0, vw_env),
        ("hermite_polynomial_he", lambda x, n: mpmath.hermite(n, x / mpmath.sqrt(2))
         * mpmath.mpf(2) ** (-n / mpmath.mpf(2)), -3.0, 3.0, he_env),
        ("hermite_polynomial_h", lambda x, n: mpmath.hermite(n, x), -3.0, 3.0, h_env),
        ("laguerre_polynomial_l", lambda x, n: mpmath.laguerre(n, 0, x), 0.0, 10.0, l_env),
    ]
    for name, mp, lo, hi, scale in polys:
        add(Spec(name, mp, (("uniform", lo, hi), ("int", 0, 40)),
                 f"x in [{lo:g}, {hi:g}], n in 0..40", scale=scale,
                 notes="absolute near the zeros, relative to the envelope on the interval"))
