"""L3: derivative rules of arraycore.special, family incomplete (special_base.define_partials).

Closed forms exist in the continuous variable only (x of the ratios, p of the distribution
functions, the probability of the inverses); the shapes, degrees of freedom and counts have
none (JAX and PyTorch do not differentiate them either): their partials are None, which
raises a ValueError naming the function and the argument.

    d/dx P(a, x)     = x^(a-1) e^-x / Gamma(a)                        (DLMF 8.8.13)
    d/dx I_x(a, b)   = x^(a-1) (1-x)^(b-1) / B(a, b)                  (DLMF 8.17.2)
    inverses         : 1 / (the derivative of the function at the result)

The normalizations 1/Gamma(a) and 1/B(a, b) depend only on the (non-differentiated)
shapes; they are obtained from this family's own functions through the recurrences
P(a, x) - P(a+1, x) = x^a e^-x / Gamma(a+1) (DLMF 8.8.11) and
I_x(a, b) - I_x(a+1, b) = x^a (1-x)^b / (a B(a, b)) (DLMF 8.17.20) evaluated at the mode
region (x = a, x = a/(a+b)), where the difference keeps most digits, so the rules need no
log-gamma from another family.  The density itself is then an elementary function of x.
"""

from __future__ import annotations

from ..._core.op_table import OPS
from .special_base import define_partials

xp = None  # set by install_all


def _log_rgamma(a):
    """log(1 / Gamma(a)) for a > 0 (a is a constant of the derivative)."""
    s = xp.special
    d = xp.where(a >= 1.0, s.gammaincc(a + 1.0, a) - s.gammaincc(a, a),
                 s.gammainc(a, a) - s.gammainc(a + 1.0, a))  # a^a e^-a / Gamma(a+1)
    return xp.log(d) + a - (a - 1.0) * xp.log(a)


def _gamma_density(a, x):
    """d/dx P(a, x) = x^(a-1) e^-x / Gamma(a)."""
    return xp.exp((a - 1.0) * xp.log(x) - x + _log_rgamma(a))


def _log_rbeta(a, b):
    """log(1 / B(a, b)) for a, b > 0 (constants of the derivative)."""
    s = xp.special
    x0 = a / (a + b)
    y0 = b / (a + b)
    d = s.betainc(a, b, x0) - s.betainc(a + 1.0, b, x0)  # x0^a y0^b / (a B(a, b))
    return xp.log(a * d) - a * xp.log(x0) - b * xp.log(y0)


def _beta_density(a, b, x):
    """d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b)."""
    return xp.exp((a - 1.0) * xp.log(x) + (b - 1.0) * xp.log1p(-x) + _log_rbeta(a, b))


def _trunc(v):
    return xp.trunc(v)


def install():
    P = define_partials
    # incomplete gamma and its inverses
    P(OPS["gammainc"], [None, lambda a, x, y: _gamma_density(a, x)], ("a", "x"))
    P(OPS["gammaincc"], [None, lambda a, x, y: -_gamma_density(a, x)], ("a", "x"))
    P(OPS["gammaincinv"], [None, lambda a, p, y: 1.0 / _gamma_density(a, y)], ("a", "y"))
    P(OPS["gammainccinv"], [None, lambda a, q, y: -1.0 / _gamma_density(a, y)], ("a", "y"))
    # incomplete beta and its inverse
    P(OPS["betainc"], [None, None, lambda a, b, x, y: _beta_density(a, b, x)], ("a", "b", "x"))
    P(OPS["betaincc"], [None, None, lambda a, b, x, y: -_beta_density(a, b, x)],
      ("a", "b", "x"))
    P(OPS["betaincinv"], [None, None, lambda a, b, p, y: 1.0 / _beta_density(a, b, y)],
      ("a", "b", "y"))

    # binomial: bdtr = I_{1-p}(n-k, k+1), so d/dp bdtr = -density of I_p(k+1, n-k)
    def binom_density(k, n, p):
        k, n = xp.floor(k), _trunc(n)
        return _beta_density(k + 1.0, n - k, p)
    P(OPS["bdtr"], [None, None, lambda k, n, p, y: -binom_density(k, n, p)], ("k", "n", "p"))
    P(OPS["bdtrc"], [None, None, lambda k, n, p, y: binom_density(k, n, p)], ("k", "n", "p"))
    P(OPS["bdtri"], [None, None, lambda k, n, q, y: -1.0 / binom_density(k, n, y)],
      ("k", "n", "y"))

    # negative binomial: nbdtr = I_p(n, k+1)
    def nbinom_density(k, n, p):
        return _beta_density(_trunc(n), _trunc(k) + 1.0, p)
    P(OPS["nbdtr"], [None, None, lambda k, n, p, y: nbinom_density(k, n, p)], ("k", "n", "p"))
    P(OPS["nbdtrc"], [None, None, lambda k, n, p, y: -nbinom_density(k, n, p)],
      ("k", "n", "p"))
    P(OPS["nbdtri"], [None, None, lambda k, n, q, y: 1.0 / nbinom_density(k, n, y)],
      ("k", "n", "y"))

    # Poisson: pdtr = Q(k+1, m)
    def poisson_density(k, m):
        return _gamma_density(xp.floor(k) + 1.0, m)
    P(OPS["pdtr"], [None, lambda k, m, y: -poisson_density(k, m)], ("k", "m"))
    P(OPS["pdtrc"], [None, lambda k, m, y: poisson_density(k, m)], ("k", "m"))
    P(OPS["pdtri"], [None, lambda k, q, y: -1.0 / poisson_density(k, y)], ("k", "y"))

    # chi-square: chdtr = P(v/2, x/2)
    def chi2_density(v, x):
        return 0.5 * _gamma_density(0.5 * v, 0.5 * x)
    P(OPS["chdtr"], [None, lambda v, x, y: chi2_density(v, x)], ("v", "x"))
    P(OPS["chdtrc"], [None, lambda v, x, y: -chi2_density(v, x)], ("v", "x"))
    P(OPS["chdtri"], [None, lambda v, q, y: -1.0 / chi2_density(v, y)], ("v", "y"))

    # gamma: gdtr(a, b, x) = P(b, a x), a the rate (differentiable), b the shape (not)
    P(OPS["gdtr"], [lambda a, b, x, y: x * _gamma_density(b, a * x), None,
                    lambda a, b, x, y: a * _gamma_density(b, a * x)], ("a", "b", "x"))
    P(OPS["gdtrc"], [lambda a, b, x, y: -x * _gamma_density(b, a * x), None,
                     lambda a, b, x, y: -a * _gamma_density(b, a * x)], ("a", "b", "x"))

    # F: fdtr = I_w(m/2, n/2), w = m x / (n + m x), dw/dx = m n / (n + m x)^2
    def f_density(m, n, x):
        s = n + m * x
        return _beta_density(0.5 * m, 0.5 * n, m * x / s) * (m * n / (s * s))
    P(OPS["fdtr"], [None, None, lambda m, n, x, y: f_density(m, n, x)], ("dfn", "dfd", "x"))
    P(OPS["fdtrc"], [None, None, lambda m, n, x, y: -f_density(m, n, x)], ("dfn", "dfd", "x"))
    P(OPS["fdtri"], [None, None, lambda m, n, p, y: 1.0 / f_density(m, n, y)],
      ("dfn", "dfd", "y"))

    # Student t: density (1 + t^2/v)^(-(v+1)/2) / (sqrt(v) B(v/2, 1/2))
    def t_density(v, t):
        return xp.exp(-0.5 * (v + 1.0) * xp.log1p(t * t / v) + _log_rbeta(0.5 * v, 0.5)
                      - 0.5 * xp.log(v))
    P(OPS["stdtr"], [None, lambda v, t, y: t_density(v, t)], ("df", "t"))
    P(OPS["stdtrit"], [None, lambda v, p, y: 1.0 / t_density(v, y)], ("df", "p"))
