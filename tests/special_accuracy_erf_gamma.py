"""Accuracy specs of arraycore.special, family erf_gamma (see tests/special_accuracy.py)."""

from __future__ import annotations

import mpmath

from special_accuracy import Spec


def _erfcx(x):
    if x < 50:
        return mpmath.exp(x * x) * mpmath.erfc(x)
    # asymptotic series (DLMF 7.12.1); 20 terms are exact to 40 digits for x >= 50
    # (mpmath's erfc overflows internally for huge x)
    t, total = 1 / (x * mpmath.sqrt(mpmath.pi)), 0
    for n in range(20):
        total += t
        t *= -(2 * n + 1) / (2 * x * x)
    return total


def _ndtr(x):
    return mpmath.ncdf(x)


def _log_ndtr(x):
    return mpmath.log(mpmath.ncdf(x)) if x < 0 else mpmath.log1p(-mpmath.ncdf(-x))


def _hurwitz(s, q):
    """sum_k (q + k)^-s by Euler-Maclaurin in mpmath (mpmath.zeta(s, q) loses digits for
    large s and q): N direct terms, then the integral, half term and 30 Bernoulli terms at
    a = q + N >= s + 60, where they converge fast."""
    n = int(max(0, mpmath.ceil(s + 60 - q)))
    a = q + n
    total = mpmath.fsum((q + k) ** -s for k in range(n))
    total += a ** (1 - s) / (s - 1) + a ** -s / 2
    fac = s * a ** (-s - 1)
    for j in range(1, 31):
        total += mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j) * fac
        fac *= (s + 2 * j - 1) * (s + 2 * j) / (a * a)
    return total


def _polygamma(n, x):
    n = int(n)
    if n == 0:
        return mpmath.digamma(x)
    return (-1) ** (n + 1) * mpmath.factorial(n) * _hurwitz(n + 1, x)


def _ndtri(p):
    return -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * p) if p > 0.25 and p < 0.75 else \
        _ndtri_tail(p)


def _ndtri_tail(p):
    # solve log ncdf(z) = log p with findroot started from SciPy's estimate (log space:
    # the tolerance of findroot is absolute)
    import scipy.special as sc
    z0 = float(sc.ndtri(float(p)))
    return mpmath.findroot(lambda z: mpmath.log(mpmath.ncdf(z)) - mpmath.log(p),
                           mpmath.mpf(z0))


def _ndtri_exp(y):
    import scipy.special as sc
    z0 = float(sc.ndtri_exp(float(y)))
    return mpmath.findroot(lambda z: mpmath.log(mpmath.ncdf(z)) - y, mpmath.mpf(z0))


def _erfcinv(y):
    import scipy.special as sc
    z0 = float(sc.erfcinv(float(y)))
    return mpmath.findroot(lambda z: mpmath.log(mpmath.erfc(z)) - mpmath.log(y),
                           mpmath.mpf(z0))


def _gammaln(x):
    return mpmath.log(abs(mpmath.gamma(x)))


def _zetac(x):
    return mpmath.zeta(x) - 1


def _binom(n, k):
    return mpmath.binomial(n, k)


def _betaln(a, b):
    return mpmath.log(abs(mpmath.beta(a, b)))


def _polygamma1(x):
    return mpmath.polygamma(1, x)


def _expit(x):
    return 1 / (1 + mpmath.exp(-x))


def _logit(p):
    return mpmath.log(p / (1 - p))


def _log_expit(x):
    return -mpmath.log1p(mpmath.exp(-x)) if x >= 0 else x - mpmath.log1p(mpmath.exp(x))


def build(add):
    add(Spec("erf", mpmath.erf, (("symlog", 1e-6, 6.0),), "|x| in [1e-6, 6]"))
    add(Spec("erfc", mpmath.erfc, (("uniform", -6.0, 26.0),), "x in [-6, 26]"))
    add(Spec("erfcx", _erfcx, (("uniform", -26.0, 50.0),), "x in [-26, 50]",
             dtypes=("float64",)))
    add(Spec("erfcx", _erfcx, (("uniform", -9.0, 50.0),), "x in [-9, 50]",
             dtypes=("float32",), notes="float32 overflows below -9.4"))
    add(Spec("erfcx", _erfcx, (("log", 50.0, 1e300),), "x in [50, 1e300]",
             dtypes=("float64",)))
    add(Spec("erfinv", mpmath.erfinv, (("uniform", -1.0, 1.0),), "x in (-1, 1)"))
    add(Spec("erfinv", mpmath.erfinv, (("symlog", 1e-30, 1e-3),), "|x| in [1e-30, 1e-3]"))
    add(Spec("erfcinv", _erfcinv, (("uniform", 0.0, 2.0),), "y in (0, 2)"))
    add(Spec("erfcinv", _erfcinv, (("log", 1e-300, 1e-3),), "y in [1e-300, 1e-3]",
             dtypes=("float64",)))
    add(Spec("ndtr", _ndtr, (("uniform", -37.0, 9.0),), "x in [-37, 9]"))
    add(Spec("log_ndtr", _log_ndtr, (("uniform", -1e3, 30.0),), "x in [-1e3, 30]"))
    add(Spec("ndtri", _ndtri, (("uniform", 0.0, 1.0),), "p in (0, 1)"))
    add(Spec("ndtri", _ndtri, (("log", 1e-300, 1e-3),), "p in [1e-300, 1e-3]",
             dtypes=("float64",)))
    add(Spec("ndtri_exp", _ndtri_exp, (("uniform", -700.0, -1e-3),), "y in [-700, -1e-3]"))
    add(Spec("gamma", mpmath.gamma, (("uniform", 1e-3, 171.0),), "x in [1e-3, 171]",
             dtypes=("float64",)))
    add(Spec("gamma", mpmath.gamma, (("uniform", 1e-3, 35.0),), "x in [1e-3, 35]",
             dtypes=("float32",)))
    add(Spec("gamma", mpmath.gamma, (("uniform", -170.0, 0.0),), "x in (-170, 0)"))
    add(Spec("gammaln", _gammaln, (("log", 1e-6, 1e6),), "x in [1e-6, 1e6]"))
    add(Spec("gammaln", _gammaln, (("uniform", 0.5, 3.0),), "x in [0.5, 3] (zeros 1, 2)"))
    add(Spec("gammaln", _gammaln, (("uniform", -50.0, 0.0),), "x in (-50, 0)", scale=1.0,
             notes="absolute near the zeros of log|Gamma| below 0"))
    add(Spec("loggamma", mpmath.loggamma, (("log", 1e-6, 1e6),), "x in [1e-6, 1e6]"))
    add(Spec("rgamma", mpmath.rgamma, (("uniform", -170.0, 160.0),), "x in [-170, 160]",
             dtypes=("float64",)))
    add(Spec("rgamma", mpmath.rgamma, (("uniform", -30.0, 35.0),), "x in [-30, 35]",
             dtypes=("float32",)))
    add(Spec("psi", mpmath.digamma, (("log", 1e-6, 1e6),), "x in [1e-6, 1e6]"))
    add(Spec("psi", mpmath.digamma, (("uniform", 1.2, 1.7),), "x in [1.2, 1.7] (zero 1.46)"))
    add(Spec("psi", mpmath.digamma, (("uniform", -50.0, 0.0),), "x in (-50, 0)", scale=1.0,
             notes="absolute near the zeros of psi below 0"))
    add(Spec("polygamma", _polygamma, (("int", 0, 8), ("log", 1e-3, 1e3)),
             "n in 0..8, x in [1e-3, 1e3]"))
    add(Spec("zeta", _hurwitz, (("uniform", 1.01, 60.0), ("log", 1e-3, 1e3)),
             "x in [1.01, 60], q in [1e-3, 1e3]", dtypes=("float64",)))
    add(Spec("zeta", _hurwitz, (("uniform", 1.01, 60.0), ("log", 0.5, 1e3)),
             "x in [1.01, 60], q in [0.5, 1e3]", dtypes=("float32",),
             notes="float32: q^-x overflows for small q"))
    add(Spec("zetac", _zetac, (("uniform", 1.01, 80.0),), "x in [1.01, 80]"))
    add(Spec("zetac", _zetac, (("uniform", -170.0, 0.99),), "x in [-170, 0.99]", scale=1.0,
             dtypes=("float64",), notes="absolute where zeta(x) crosses 1"))
    add(Spec("zetac", _zetac, (("uniform", -30.0, 0.99),), "x in [-30, 0.99]", scale=1.0,
             dtypes=("float32",), notes="float32 overflows below -30"))
    add(Spec("poch", mpmath.rf, (("uniform", 0.1, 30.0), ("uniform", -0.1, 20.0)),
             "z in [0.1, 30], m in [-0.1, 20]"))
    add(Spec("betaln", _betaln, (("log", 1e-3, 1e4), ("log", 1e-3, 1e4)),
             "a, b in [1e-3, 1e4]", scale=1.0, notes="absolute near the zeros of log B"))
    add(Spec("binom", _binom, (("uniform", 0.0, 50.0), ("uniform", 0.0, 25.0)),
             "n in [0, 50], k in [0, 25]", scale=1.0, notes="absolute near its zeros"))
    add(Spec("expit", _expit, (("uniform", -80.0, 40.0),), "x in [-80, 40]"))
    add(Spec("logit", _logit, (("uniform", 0.0, 1.0),), "p in (0, 1)"))
    add(Spec("log_expit", _log_expit, (("uniform", -100.0, 100.0),), "x in [-100, 100]"))
    add(Spec("gammasgn", lambda x: mpmath.sign(mpmath.gamma(x)),
             (("uniform", -60.0, 60.0),), "x in [-60, 60] (non-integers)",
             notes="exactly +-1"))
