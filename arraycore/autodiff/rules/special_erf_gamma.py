"""L3: derivative rules of arraycore.special, family erf_gamma (special_base.define_partials).

Each partial is d(*args, y) with y the output (reused where the derivative is a function of
it).  Derivatives that are other special functions call them through xp.special, so they are
differentiable in turn (psi -> polygamma(1) -> polygamma(2) ...).  No closed form: the order
n of polygamma, the exponent x of the Hurwitz zeta (and zetac's x): None / nondiff, as in
PyTorch and JAX.
"""

from __future__ import annotations

import math

from ..._core.op_table import OPS
from .base import define_nondiff, define_zero_derivative, elementwise_batch
from .special_base import define_partials

xp = None  # set by install_all

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2.0
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)


def _sp():
    return xp.special


def _gauss(x):
    return _TWO_OVER_SQRT_PI * xp.exp(-(x * x))


def install():
    sp = _sp
    define_partials(OPS["erf"], [lambda x, y: _gauss(x)])
    define_partials(OPS["erfc"], [lambda x, y: -_gauss(x)])
    # erfcx' = 2x erfcx(x) - 2/sqrt(pi)
    define_partials(OPS["erfcx"], [lambda x, y: 2.0 * x * y - _TWO_OVER_SQRT_PI])
    define_partials(OPS["erfinv"], [lambda x, y: _SQRT_PI_OVER_2 * xp.exp(y * y)])
    define_partials(OPS["erfcinv"], [lambda x, y: -_SQRT_PI_OVER_2 * xp.exp(y * y)])
    define_partials(OPS["ndtr"], [lambda x, y: _INV_SQRT_2PI * xp.exp(-0.5 * (x * x))])
    # d log ndtr = pdf / ndtr = exp(-x^2/2 - log_ndtr(x)) / sqrt(2 pi) (no underflow)
    define_partials(OPS["log_ndtr"],
                    [lambda x, y: _INV_SQRT_2PI * xp.exp(-0.5 * (x * x) - y)])
    define_partials(OPS["ndtri"], [lambda p, y: _SQRT_2PI * xp.exp(0.5 * (y * y))])
    # d/dy ndtri(exp(y)) = sqrt(2 pi) exp(z^2/2 + y)
    define_partials(OPS["ndtri_exp"], [lambda t, y: _SQRT_2PI * xp.exp(0.5 * (y * y) + t)])

    define_partials(OPS["gamma"], [lambda x, y: y * sp().psi(x)])
    define_partials(OPS["gammaln"], [lambda x, y: sp().psi(x)])
    define_partials(OPS["loggamma"], [lambda x, y: sp().psi(x)])
    define_partials(OPS["rgamma"], [lambda x, y: -y * sp().psi(x)])
    define_zero_derivative(OPS["gammasgn"])
    define_partials(OPS["psi"], [lambda x, y: sp().polygamma(1, x)])
    define_partials(OPS["polygamma"],
                    [None, lambda n, x, y: sp().polygamma(n + 1, x)], arg_names=("n", "x"))
    # d/dq zeta(x, q) = -x zeta(x + 1, q)
    define_partials(OPS["zeta"], [None, lambda x, q, y: -x * sp().zeta(x + 1, q)],
                    arg_names=("x", "q"))
    define_nondiff(OPS["zetac"], elementwise_batch(OPS["zetac"]))
    # poch(z, m) = Gamma(z + m)/Gamma(z)
    define_partials(OPS["poch"], [
        lambda z, m, y: y * (sp().psi(z + m) - sp().psi(z)),
        lambda z, m, y: y * sp().psi(z + m)], arg_names=("z", "m"))
    define_partials(OPS["betaln"], [
        lambda a, b, y: sp().psi(a) - sp().psi(a + b),
        lambda a, b, y: sp().psi(b) - sp().psi(a + b)], arg_names=("a", "b"))
    # binom(n, k) = Gamma(n + 1) / (Gamma(k + 1) Gamma(n - k + 1))
    define_partials(OPS["binom"], [
        lambda n, k, y: y * (sp().psi(n + 1) - sp().psi(n - k + 1)),
        lambda n, k, y: y * (sp().psi(n - k + 1) - sp().psi(k + 1))], arg_names=("n", "k"))

    define_partials(OPS["expit"], [lambda x, y: y * (1.0 - y)])
    define_partials(OPS["logit"], [lambda p, y: 1.0 / (p * (1.0 - p))])
    define_partials(OPS["log_expit"], [lambda x, y: sp().expit(-x)])
