"""L3: derivative rules of arraycore.special, family bessel (special_base.define_partials).

d/dx of each function is a combination of functions of the family (A&S 9.1.27-28,
9.6.26-27, DLMF 9.2.1 for Airy: Ai'' = x Ai):

    i0' = i1            i1' = i0 - i1/x          (limit 1/2 at x = 0)
    k0' = -k1           k1' = -k0 - k1/x
    j0' = -j1           j1' = j0 - j1/x          (limit 1/2 at x = 0)
    y0' = -y1           y1' = y0 - y1/x
    i0e' = i1e - sign(x) i0e          i1e' = i0e - i1e/x - sign(x) i1e
    k0e' = k0e - k1e                  k1e' = k1e - k0e - k1e/x
    yn' = (y_{n-1} - y_{n+1}) / 2     (in x; the order n has no derivative)
    spherical_bessel_j0' = (cos x - sin(x)/x) / x   (series -x/3 + x^3/30 near 0)
    airy_ai' = airy_ai_prime,  airy_ai_prime' = x airy_ai

The x = 0 limits of i1', i1e', j1' use x/x-free forms there (the quotient i1/x -> 1/2).
"""

from __future__ import annotations

from ..._core.op_table import OPS
from .special_base import define_partials

xp = None  # set by install_all


def _sp():
    import arraycore.special as sp
    return sp


def _over_x(f, x):
    """f(x)/x for the odd functions i1, i1e (times e^|x|), j1: 1/2 at x = 0."""
    zero = x == 0
    safe = xp.where(zero, xp.ones_like(x), x)
    return xp.where(zero, xp.full_like(x, 0.5), f / safe)


def _sign(x):
    return xp.sign(x)


def _sph_j0_prime(x, y):
    small = xp.abs(x) < 1e-2
    safe = xp.where(small, xp.ones_like(x), x)
    x2 = x * x
    series = x * (-1.0 / 3.0 + x2 * (1.0 / 30.0 - x2 / 840.0))
    return xp.where(small, series, (xp.cos(safe) - xp.sin(safe) / safe) / safe)


def install():
    sp = _sp()
    define_partials(OPS["i0"], [lambda x, y: sp.i1(x)])
    define_partials(OPS["i1"], [lambda x, y: sp.i0(x) - _over_x(y, x)])
    define_partials(OPS["i0e"], [lambda x, y: sp.i1e(x) - _sign(x) * y])
    define_partials(OPS["i1e"], [lambda x, y: sp.i0e(x) - _over_x(y, x) - _sign(x) * y])
    define_partials(OPS["k0"], [lambda x, y: -sp.k1(x)])
    define_partials(OPS["k1"], [lambda x, y: -sp.k0(x) - y / x])
    define_partials(OPS["k0e"], [lambda x, y: y - sp.k1e(x)])
    define_partials(OPS["k1e"], [lambda x, y: y - sp.k0e(x) - y / x])
    define_partials(OPS["j0"], [lambda x, y: -sp.j1(x)])
    define_partials(OPS["j1"], [lambda x, y: sp.j0(x) - _over_x(y, x)])
    define_partials(OPS["y0"], [lambda x, y: -sp.y1(x)])
    define_partials(OPS["y1"], [lambda x, y: sp.y0(x) - y / x])
    define_partials(OPS["yn"], [None, lambda n, x, y: 0.5 * (sp.yn(n - 1, x) - sp.yn(n + 1, x))],
                    arg_names=("n", "x"))
    define_partials(OPS["spherical_bessel_j0"], [_sph_j0_prime])
    define_partials(OPS["airy_ai"], [lambda x, y: sp.airy_ai_prime(x)])
    define_partials(OPS["airy_ai_prime"], [lambda x, y: x * sp.airy_ai(x)])
