"""Accuracy specs of arraycore.special, family incomplete (see tests/special_accuracy.py).

mpmath has the incomplete gamma and beta ratios; the inverses are mpmath roots (findroot at
the checker's precision) started from SciPy's value, and the distribution functions are
written through the ratios with SciPy's argument orders.  Domains: the shapes and degrees
of freedom where a user works (0.1 .. 100 and a bit beyond), the variable over the bulk and
the tails as far as the results stay normal doubles.
"""

from __future__ import annotations

import mpmath
import scipy.special as sp

from special_accuracy import Spec


def _P(a, x):
    try:
        return mpmath.gammainc(a, 0, x, regularized=True)
    except mpmath.libmp.NoConvergence:
        # mpmath's series for P gives up at some large a, x; the complement's continued
        # fraction does not (60 extra digits absorb the cancellation of 1 - Q)
        with mpmath.extradps(60):
            return 1 - mpmath.gammainc(a, x, mpmath.inf, regularized=True)


def _Q(a, x):
    try:
        return mpmath.gammainc(a, x, mpmath.inf, regularized=True)
    except mpmath.libmp.NoConvergence:
        with mpmath.extradps(60):
            return 1 - mpmath.gammainc(a, 0, x, regularized=True)


def _I(a, b, x):
    return mpmath.betainc(a, b, 0, x, regularized=True)


def _Ic(a, b, x):
    # I_{1-x}(b, a) with 1 - x exact at the working precision (mpmath's betainc(a, b, x, 1)
    # subtracts from 1 and loses the far upper tail)
    return mpmath.betainc(b, a, 0, 1 - x, regularized=True)


def _root(forward, target, guess):
    """The x with forward(x) = target (mpmath, the checker's precision), by the secant method
    from SciPy's x (accurate to ~1e-14, so a few steps reach 40 digits)."""
    x0 = mpmath.mpf(float(guess))
    if not mpmath.isfinite(x0) or x0 == 0:
        return x0

    def g(x):
        return mpmath.re(forward(x)) - target
    return mpmath.findroot(g, (x0, x0 * (1 + mpmath.mpf(10) ** -12)), tol=mpmath.mpf(10) ** -60,
                           maxsteps=100, verify=False)


def _root_unit(forward, target, guess):
    """_root for a root in (0, 1) of a function like y^b near the end it approaches (I_x(a, b)
    at a small b with x -> 1: the secant in x overshoots out of the domain): the secant runs
    in u = ln(1 - x) above 1/2 and in u = ln(x) below."""
    x0 = mpmath.mpf(float(guess))
    if not mpmath.isfinite(x0) or x0 <= 0 or x0 >= 1:
        return x0
    upper = x0 > 0.5
    to_x = (lambda u: 1 - mpmath.exp(u)) if upper else mpmath.exp
    u0 = mpmath.log(1 - x0) if upper else mpmath.log(x0)

    def g(u):
        return mpmath.re(forward(to_x(u))) - target
    u = mpmath.findroot(g, (u0, u0 + mpmath.mpf(10) ** -6), tol=mpmath.mpf(10) ** -60,
                        maxsteps=100, verify=False)
    return to_x(u)


def _f(v):
    return float(v)


def gammaincinv(a, p):
    return _root(lambda x: _P(a, x), p, sp.gammaincinv(_f(a), _f(p)))


def gammainccinv(a, q):
    return _root(lambda x: _Q(a, x), q, sp.gammainccinv(_f(a), _f(q)))


def betaincinv(a, b, p):
    return _root_unit(lambda x: _I(a, b, x), p, sp.betaincinv(_f(a), _f(b), _f(p)))


def bdtr(k, n, p):
    return _I(n - k, k + 1, 1 - p)


def bdtrc(k, n, p):
    return _I(k + 1, n - k, p)


def bdtri(k, n, y):
    return _root(lambda p: bdtr(k, n, p), y, sp.bdtri(_f(k), int(n), _f(y)))


def nbdtr(k, n, p):
    return _I(n, k + 1, p)


def nbdtrc(k, n, p):
    return _Ic(n, k + 1, p)


def nbdtri(k, n, y):
    return _root(lambda p: nbdtr(k, n, p), y, sp.nbdtri(int(k), int(n), _f(y)))


def pdtr(k, m):
    return _Q(k + 1, m)


def pdtrc(k, m):
    return _P(k + 1, m)


def pdtri(k, y):
    return _root(lambda m: pdtr(k, m), y, sp.pdtri(int(k), _f(y)))


def chdtr(v, x):
    return _P(v / 2, x / 2)


def chdtrc(v, x):
    return _Q(v / 2, x / 2)


def chdtri(v, y):
    return _root(lambda x: chdtrc(v, x), y, sp.chdtri(_f(v), _f(y)))


def gdtr(a, b, x):
    return _P(b, a * x)


def gdtrc(a, b, x):
    return _Q(b, a * x)


def fdtr(m, n, x):
    return _I(m / 2, n / 2, m * x / (n + m * x))


def fdtrc(m, n, x):
    return _Ic(m / 2, n / 2, m * x / (n + m * x))


def fdtri(m, n, y):
    return _root(lambda x: fdtr(m, n, x), y, sp.fdtri(_f(m), _f(n), _f(y)))


def stdtr(v, t):
    tail = _I(v / 2, mpmath.mpf(1) / 2, v / (v + t * t)) / 2
    return tail if t < 0 else 1 - tail


def stdtrit(v, p):
    return _root(lambda t: stdtr(v, t), p, sp.stdtrit(_f(v), _f(p)))


SHAPE = ("log", 0.1, 100.0)
PROB = ("uniform", 0.001, 0.999)


def build(add):
    add(Spec("gammainc", _P, (SHAPE, ("log", 0.1, 150.0)), "a in [0.1, 100], x in [0.1, 150]"))
    add(Spec("gammaincc", _Q, (SHAPE, ("log", 0.1, 150.0)), "a in [0.1, 100], x in [0.1, 150]"))
    add(Spec("gammainc", _P, (("log", 100.0, 1e4), ("log", 50.0, 2e4)),
             "a in [100, 1e4], x in [50, 2e4]"))
    add(Spec("gammaincinv", gammaincinv, (SHAPE, PROB), "a in [0.1, 100], p in [0.001, 0.999]"))
    add(Spec("gammainccinv", gammainccinv, (SHAPE, PROB),
             "a in [0.1, 100], q in [0.001, 0.999]"))
    add(Spec("betainc", _I, (SHAPE, SHAPE, ("uniform", 0.001, 0.999)),
             "a, b in [0.1, 100], x in [0.001, 0.999]"))
    add(Spec("betaincc", _Ic, (SHAPE, SHAPE, ("uniform", 0.001, 0.999)),
             "a, b in [0.1, 100], x in [0.001, 0.999]"))
    add(Spec("betaincinv", betaincinv, (SHAPE, SHAPE, PROB),
             "a, b in [0.1, 100], p in [0.001, 0.999]"))
    kn = (("int", 0, 40), ("int", 41, 100))
    add(Spec("bdtr", bdtr, kn + (("uniform", 0.0, 1.0),), "k in [0, 40], n in [41, 100]"))
    add(Spec("bdtrc", bdtrc, kn + (("uniform", 0.0, 1.0),), "k in [0, 40], n in [41, 100]"))
    add(Spec("bdtri", bdtri, kn + (PROB,), "k in [0, 40], n in [41, 100], y in [0.001, 0.999]"))
    nb = (("int", 0, 60), ("int", 1, 50))
    add(Spec("nbdtr", nbdtr, nb + (("uniform", 0.01, 1.0),),
             "k in [0, 60], n in [1, 50], p in [0.01, 1]"))
    add(Spec("nbdtrc", nbdtrc, nb + (("uniform", 0.0, 0.99),),
             "k in [0, 60], n in [1, 50], p in [0, 0.99]"))
    add(Spec("nbdtri", nbdtri, nb + (PROB,), "k in [0, 60], n in [1, 50], y in [0.001, 0.999]"))
    add(Spec("pdtr", pdtr, (("int", 0, 100), ("log", 0.1, 150.0)), "k in [0, 100], m in [0.1, 150]"))
    add(Spec("pdtrc", pdtrc, (("int", 0, 100), ("log", 0.1, 150.0)),
             "k in [0, 100], m in [0.1, 150]"))
    add(Spec("pdtri", pdtri, (("int", 0, 100), PROB), "k in [0, 100], y in [0.001, 0.999]"))
    df = ("log", 0.2, 200.0)
    add(Spec("chdtr", chdtr, (df, ("log", 0.1, 300.0)), "v in [0.2, 200], x in [0.1, 300]"))
    add(Spec("chdtrc", chdtrc, (df, ("log", 0.1, 300.0)), "v in [0.2, 200], x in [0.1, 300]"))
    add(Spec("chdtri", chdtri, (df, PROB), "v in [0.2, 200], y in [0.001, 0.999]"))
    add(Spec("gdtr", gdtr, (("log", 0.1, 10.0), SHAPE, ("log", 0.1, 50.0)),
             "a in [0.1, 10], b in [0.1, 100], x in [0.1, 50]"))
    add(Spec("gdtrc", gdtrc, (("log", 0.1, 10.0), SHAPE, ("log", 0.1, 50.0)),
             "a in [0.1, 10], b in [0.1, 100], x in [0.1, 50]"))
    add(Spec("fdtr", fdtr, (df, df, ("log", 0.01, 100.0)),
             "m, n in [0.2, 200], x in [0.01, 100]"))
    add(Spec("fdtrc", fdtrc, (df, df, ("log", 0.01, 100.0)),
             "m, n in [0.2, 200], x in [0.01, 100]"))
    add(Spec("fdtri", fdtri, (df, df, PROB), "m, n in [0.2, 200], y in [0.001, 0.999]"))
    add(Spec("stdtr", stdtr, (df, ("symlog", 0.01, 100.0)), "v in [0.2, 200], |t| in [0.01, 100]"))
    add(Spec("stdtrit", stdtrit, (df, PROB), "v in [0.2, 200], p in [0.001, 0.999]"))

