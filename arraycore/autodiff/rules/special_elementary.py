"""L3: derivative rules of arraycore.special, family elementary (special_base.define_partials).

Closed forms (DLMF 4.14, 4.21 for the trigonometric ones in degrees, pi/180 per degree):
  cbrt' = 1/(3 cbrt(x)^2); sindg' = (pi/180) cosdg; cosdg' = -(pi/180) sindg;
  tandg' = (pi/180)(1 + tandg^2); cotdg' = -(pi/180)(1 + cotdg^2); cosm1' = -sin;
  radian: the constants pi/180, pi/10800, pi/648000; exp2' = ln2 exp2; exp10' = ln10 exp10;
  exprel' = (e^x - exprel(x))/x (series 1/2 + x/3 + x^2/8 + x^3/30 + x^4/144 for |x| < 0.01);
  sinc' = (cos(pi x) - sinc(x))/x (series -pi^2 x/3 + pi^4 x^3/30 for |x| < 1e-3);
  entr' = -log x - 1; rel_entr: (log(x/y) + 1, -x/y); kl_div: (log(x/y), 1 - x/y);
  xlogy: (log y, x/y); xlog1py: (log1p y, x/(1 + y));
  huber(delta, r): (|r| > delta: |r| - delta, else 0;  |r| <= delta: r, else delta sign r);
  pseudo_huber(delta, r) = delta^2 (s - 1), s = sqrt(1 + (r/delta)^2):
      (r^2 v^2 / (delta s (s + 1)^2),  r / s)   (v = r/delta; no cancellation);
  boxcox(x, l)' = x^(l-1); boxcox1p' = (1+x)^(l-1); inv_boxcox(y, l)' = x / (1 + l y);
  inv_boxcox1p' = (x + 1)/(1 + l y).
The Box-Cox lambda (derivative unstable at lambda -> 0 and no use of it in PyTorch/JAX) is
not differentiable here: asking for it raises.  The series branches are selected with
`where` on a safe argument, so the other branch never sees 0/0 (no NaN in hvp).
"""

from __future__ import annotations

import math

from ..._core.op_table import OPS
from .special_base import define_partials

xp = None  # set by install_all

_DEG = math.pi / 180.0
_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


def _exprel_d(x, y):
    small = xp.abs(x) < 0.01
    xs = xp.where(small, 1.0, x)
    far = (xp.exp(xs) - xp.special.exprel(xs)) / xs
    series = 0.5 + x * (1.0 / 3 + x * (1.0 / 8 + x * (1.0 / 30 + x * (1.0 / 144))))
    return xp.where(small, series, far)


def _sinc_d(x, y):
    small = xp.abs(x) < 1e-3
    xs = xp.where(small, 1.0, x)
    far = (xp.cos(math.pi * xs) - xp.special.sinc(xs)) / xs
    p2 = math.pi ** 2
    series = x * (-p2 / 3 + (p2 * p2 / 30) * (x * x))
    return xp.where(small, series, far)


def _huber_ddelta(d, r, y):
    a = xp.abs(r)
    return xp.where(a <= d, xp.zeros_like(y), a - d)


def _huber_dr(d, r, y):
    return xp.where(xp.abs(r) <= d, r, d * xp.sign(r))


def _pseudo_huber_ddelta(d, r, y):
    v = r / d
    s = xp.sqrt(1.0 + v * v)
    return (r * r) * (v * v) / (d * s * (s + 1.0) ** 2)


def _pseudo_huber_dr(d, r, y):
    v = r / d
    return r / xp.sqrt(1.0 + v * v)


def _const(c):
    return lambda d, m, s, y: xp.full_like(y, c)


def _arrays(d):
    """The partial d with Python-scalar operands made arrays of the output's dtype (a scalar
    operand reaches the rules as a float; xp.log etc. want arrays)."""
    if d is None:
        return None

    def wrapped(*args):
        y = args[-1]
        ops = [a if hasattr(a, "dtype") else xp.asarray(a, dtype=y.dtype) for a in args[:-1]]
        return d(*ops, y)
    return wrapped


def P(op, partials, arg_names=()):
    define_partials(op, [_arrays(d) for d in partials], arg_names=arg_names)


def install():
    P(OPS["cbrt"], [lambda x, y: 1.0 / (3.0 * y * y)])
    P(OPS["sindg"], [lambda x, y: _DEG * xp.special.cosdg(x)])
    P(OPS["cosdg"], [lambda x, y: -_DEG * xp.special.sindg(x)])
    P(OPS["tandg"], [lambda x, y: _DEG * (1.0 + y * y)])
    P(OPS["cotdg"], [lambda x, y: -_DEG * (1.0 + y * y)])
    P(OPS["cosm1"], [lambda x, y: -xp.sin(x)])
    P(OPS["radian"], [_const(_DEG), _const(_DEG / 60.0), _const(_DEG / 3600.0)],
      arg_names=("d", "m", "s"))
    P(OPS["exp2"], [lambda x, y: _LN2 * y])
    P(OPS["exp10"], [lambda x, y: _LN10 * y])
    P(OPS["exprel"], [_exprel_d])
    P(OPS["sinc"], [_sinc_d])
    P(OPS["entr"], [lambda x, y: -xp.log(x) - 1.0])
    P(OPS["rel_entr"], [lambda x, z, y: xp.log(x / z) + 1.0, lambda x, z, y: -x / z])
    P(OPS["kl_div"], [lambda x, z, y: xp.log(x / z), lambda x, z, y: 1.0 - x / z])
    P(OPS["xlogy"], [lambda x, z, y: xp.log(z), lambda x, z, y: x / z])
    P(OPS["xlog1py"], [lambda x, z, y: xp.log1p(z), lambda x, z, y: x / (1.0 + z)])
    P(OPS["huber"], [_huber_ddelta, _huber_dr], arg_names=("delta", "r"))
    P(OPS["pseudo_huber"], [_pseudo_huber_ddelta, _pseudo_huber_dr], arg_names=("delta", "r"))
    P(OPS["boxcox"], [lambda x, l, y: xp.exp((l - 1.0) * xp.log(x)), None],
      arg_names=("x", "lmbda"))
    P(OPS["boxcox1p"], [lambda x, l, y: xp.exp((l - 1.0) * xp.log1p(x)), None],
      arg_names=("x", "lmbda"))
    P(OPS["inv_boxcox"], [lambda z, l, y: y / (1.0 + l * z), None], arg_names=("y", "lmbda"))
    P(OPS["inv_boxcox1p"], [lambda z, l, y: (y + 1.0) / (1.0 + l * z), None],
      arg_names=("y", "lmbda"))
