"""L3: derivative rules of arraycore.special, family integrals_polynomials
(special_base.define_partials).

Closed forms (DLMF): exp1' = -e^-x/x, expi' = e^x/x (6.2), E_n' = -E_{n-1} (8.19.13; E_0 =
e^-x/x so E_0' = -e^-x (x+1)/x^2), spence'(x) = ln x / (1 - x) (25.12.1; -1 at x = 1),
K'(m) = (E(m) - (1-m) K(m)) / (2 m (1-m)) (19.4.1; E by the AGM, 19.8.6: E = K (1 - sum 2^(n-1)
c_n^2), as array operations so second derivatives work), d/dx 1F1(a; b; x) = a/b 1F1(a+1;
b+1; x) (13.3.15), (1-x^2) dP_v^m/dx = (v+1) x P_v^m - (v-m+1) P_{v+1}^m (14.10.5), and the
polynomials through their derivative identities (18.9.19-25, Mason & Handscomb 1.5):
T_n' = n U_{n-1}, U_n' = ((n+1) T_{n+1} - x U_n)/(x^2-1), V_n = U_n - U_{n-1},
W_n = U_n + U_{n-1}, H_n' = 2n H_{n-1}, He_n' = n He_{n-1}, L_n' = n (L_n - L_{n-1})/x,
P_n' = n (x P_n - P_{n-1})/(x^2-1), with the limits at the removable singular points.  The
degree n is PyTorch's (truncated; negative n: the polynomial is 0).  Orders and parameters
(n of expn, a and b of hyp1f1, m and v of lpmv, n of the polynomials) have no closed-form
derivative: None (asking raises).
"""

from __future__ import annotations

import math

from ..._core.op_table import OPS
from .special_base import define_partials

xp = None  # set by install_all


def _sp():
    return xp.special


def _ellipk_dm(m, y):
    # E(m) by the AGM (DLMF 19.8.6), then K'(m); m = 0: pi/8.
    a = xp.ones_like(m)
    b = xp.sqrt(1.0 - m)
    s = 0.5 * m  # 2^-1 c_0^2, c_0^2 = m
    w = 1.0
    for _ in range(12):
        c = 0.5 * (a - b)
        a, b = 0.5 * (a + b), xp.sqrt(a * b)
        s = s + w * c * c
        w *= 2.0
    e = y * (1.0 - s)
    safe = xp.where(m == 0.0, 0.5, m)
    d = (e - (1.0 - m) * y) / (2.0 * safe * (1.0 - m))
    return xp.where(m == 0.0, math.pi / 8.0, d)


def _spence_dx(x, y):
    safe = xp.where(x == 1.0, 2.0, x)
    return xp.where(x == 1.0, -1.0, xp.log(safe) / (1.0 - safe))


def _expn_dx(n, x, y):
    e0 = -xp.exp(-x) * (x + 1.0) / (x * x)
    return xp.where(n < 1.0, e0, -_sp().expn(xp.where(n < 1.0, 1.0, n) - 1.0, x))


def _lpmv_dx(m, v, x, y):
    up = _sp().lpmv(m, v + 1.0, x)
    return ((v + 1.0) * x * y - (v - m + 1.0) * up) / ((1.0 - x) * (1.0 + x))


def _deg(n, like):
    """PyTorch's degree, truncated, as an array of `like`'s dtype (a Python number n stays
    weak: it does not promote float32)."""
    if not hasattr(n, "dtype"):
        n = xp.asarray(float(n), dtype=like.dtype)
    return xp.trunc(n)


def _cheb_u_dx(y, n, u_n):
    # U_n'(y) = ((n+1) T_{n+1} - y U_n) / (y^2 - 1); at y = +-1: (+-1)^(n+1) n(n+1)(n+2)/3
    sp = _sp()
    nt = _deg(n, y)
    edge = xp.abs(y) == 1.0
    ys = xp.where(edge, 0.5, y)
    inner = ((nt + 1.0) * sp.chebyshev_polynomial_t(ys, nt + 1.0)
             - ys * sp.chebyshev_polynomial_u(ys, nt)) / (ys * ys - 1.0)
    sign = 1.0 - 2.0 * xp.astype((y < 0) & (xp.remainder(nt, 2.0) == 0.0), y.dtype)
    at_edge = sign * nt * (nt + 1.0) * (nt + 2.0) / 3.0
    return xp.where(nt < 1.0, 0.0, xp.where(edge, at_edge, inner))


def _cheb_dx(kind, y, n):
    sp = _sp()
    nt = _deg(n, y)
    if kind == "t":
        d = nt * sp.chebyshev_polynomial_u(y, nt - 1.0)
        return xp.where(nt < 1.0, 0.0, d)
    du = _cheb_u_dx(y, nt, None)
    if kind == "u":
        return du
    dum1 = xp.where(nt < 1.0, 0.0, _cheb_u_dx(y, xp.where(nt < 1.0, 1.0, nt) - 1.0, None))
    return du - dum1 if kind == "v" else du + dum1


def _hermite_h_dx(x, n, y):
    nt = _deg(n, x)
    return xp.where(nt < 1.0, 0.0, 2.0 * nt * _sp().hermite_polynomial_h(x, nt - 1.0))


def _hermite_he_dx(x, n, y):
    nt = _deg(n, x)
    return xp.where(nt < 1.0, 0.0, nt * _sp().hermite_polynomial_he(x, nt - 1.0))


def _laguerre_dx(x, n, y):
    nt = _deg(n, x)
    zero = x == 0.0
    xs = xp.where(zero, 1.0, x)
    prev = _sp().laguerre_polynomial_l(xs, nt - 1.0)
    d = nt * (_sp().laguerre_polynomial_l(xs, nt) - prev) / xs
    return xp.where(nt < 1.0, 0.0, xp.where(zero, -nt, d))


def _legendre_dx(x, n, y):
    sp = _sp()
    nt = _deg(n, x)
    edge = xp.abs(x) == 1.0
    xs = xp.where(edge, 0.5, x)
    d = nt * (xs * sp.legendre_polynomial_p(xs, nt) - sp.legendre_polynomial_p(xs, nt - 1.0)) \
        / (xs * xs - 1.0)
    sign = 1.0 - 2.0 * xp.astype((x < 0) & (xp.remainder(nt, 2.0) == 0.0), x.dtype)
    return xp.where(nt < 1.0, 0.0, xp.where(edge, sign * nt * (nt + 1.0) / 2.0, d))


def install():
    define_partials(OPS["exp1"], [lambda x, y: -xp.exp(-x) / x])
    define_partials(OPS["expi"], [lambda x, y: xp.exp(x) / x])
    define_partials(OPS["expn"], [None, _expn_dx], arg_names=("n", "x"))
    define_partials(OPS["ellipk"], [_ellipk_dm])
    define_partials(OPS["ellipkm1"], [lambda p, y: -_ellipk_dm(1.0 - p, y)])
    define_partials(OPS["spence"], [_spence_dx])
    define_partials(OPS["hyp1f1"], [None, None,
                                    lambda a, b, x, y: a / b * _sp().hyp1f1(a + 1.0, b + 1.0, x)],
                    arg_names=("a", "b", "x"))
    define_partials(OPS["lpmv"], [None, None, _lpmv_dx], arg_names=("m", "v", "x"))
    names = ("x", "n")
    for kind in "tuvw":
        define_partials(OPS[f"chebyshev_polynomial_{kind}"],
                        [lambda x, n, y, k=kind: _cheb_dx(k, x, n), None], arg_names=names)
        define_partials(OPS[f"shifted_chebyshev_polynomial_{kind}"],
                        [lambda x, n, y, k=kind: 2.0 * _cheb_dx(k, 2.0 * x - 1.0, n), None],
                        arg_names=names)
    define_partials(OPS["hermite_polynomial_h"], [_hermite_h_dx, None], arg_names=names)
    define_partials(OPS["hermite_polynomial_he"], [_hermite_he_dx, None], arg_names=names)
    define_partials(OPS["laguerre_polynomial_l"], [_laguerre_dx, None], arg_names=names)
    define_partials(OPS["legendre_polynomial_p"], [_legendre_dx, None], arg_names=names)
