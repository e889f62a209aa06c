"""Accuracy specs of arraycore.special, family bessel (see tests/special_accuracy.py).

Domains: the main domain a user expects (where float32 does not overflow), plus tails.
j0/j1/y0/y1/yn/airy_ai (x < 0) oscillate: their specs with a `scale` measure the absolute
error in units of the envelope's size on the domain (the issue's "near zeros of the
function, absolute error relative to the scale"); j0/j1 on |x| <= 8 are also checked
purely relatively (the first two zeros are factored out there).
"""

from __future__ import annotations

import mpmath

from special_accuracy import Spec

F64 = ("float64",)


def _yn(n, x):
    return mpmath.bessely(int(n), x)


def _sph(x):
    return mpmath.sin(x) / x if x != 0 else mpmath.mpf(1)


def build(add):
    bi = mpmath.besseli
    bk = mpmath.besselk
    add(Spec("i0", lambda x: bi(0, x), (("symlog", 1e-3, 85.0),), "|x| in [1e-3, 85]"))
    add(Spec("i0", lambda x: bi(0, x), (("symlog", 85.0, 700.0),), "|x| in [85, 700]",
             dtypes=F64))
    add(Spec("i1", lambda x: bi(1, x), (("symlog", 1e-3, 85.0),), "|x| in [1e-3, 85]"))
    add(Spec("i1", lambda x: bi(1, x), (("symlog", 85.0, 700.0),), "|x| in [85, 700]",
             dtypes=F64))
    add(Spec("i0e", lambda x: bi(0, x) * mpmath.exp(-abs(x)), (("symlog", 1e-3, 1e4),),
             "|x| in [1e-3, 1e4]"))
    add(Spec("i1e", lambda x: bi(1, x) * mpmath.exp(-abs(x)), (("symlog", 1e-3, 1e4),),
             "|x| in [1e-3, 1e4]"))
    add(Spec("k0", lambda x: bk(0, x), (("log", 1e-4, 85.0),), "x in [1e-4, 85]"))
    add(Spec("k1", lambda x: bk(1, x), (("log", 1e-4, 85.0),), "x in [1e-4, 85]"))
    add(Spec("k0", lambda x: bk(0, x), (("log", 85.0, 700.0),), "x in [85, 700]", dtypes=F64))
    add(Spec("k1", lambda x: bk(1, x), (("log", 85.0, 700.0),), "x in [85, 700]", dtypes=F64))
    add(Spec("k0e", lambda x: bk(0, x) * mpmath.exp(x), (("log", 1e-4, 1e4),),
             "x in [1e-4, 1e4]"))
    add(Spec("k1e", lambda x: bk(1, x) * mpmath.exp(x), (("log", 1e-4, 1e4),),
             "x in [1e-4, 1e4]"))

    bj = mpmath.besselj
    by = mpmath.bessely
    add(Spec("j0", lambda x: bj(0, x), (("uniform", -8.0, 8.0),), "|x| <= 8 (relative)"))
    add(Spec("j1", lambda x: bj(1, x), (("uniform", -8.0, 8.0),), "|x| <= 8 (relative)"))
    add(Spec("j0", lambda x: bj(0, x), (("uniform", -50.0, 50.0),), "|x| <= 50", scale=0.1))
    add(Spec("j1", lambda x: bj(1, x), (("uniform", -50.0, 50.0),), "|x| <= 50", scale=0.1))
    add(Spec("j0", lambda x: bj(0, x), (("symlog", 50.0, 1e5),), "|x| in [50, 1e5]",
             scale=2e-3))
    add(Spec("j1", lambda x: bj(1, x), (("symlog", 50.0, 1e5),), "|x| in [50, 1e5]",
             scale=2e-3))
    add(Spec("y0", lambda x: by(0, x), (("log", 1e-6, 0.7),), "x in [1e-6, 0.7] (relative)"))
    add(Spec("y1", lambda x: by(1, x), (("log", 1e-6, 2.0),), "x in [1e-6, 2] (relative)"))
    add(Spec("y0", lambda x: by(0, x), (("uniform", 0.0, 50.0),), "x in (0, 50]", scale=0.1))
    add(Spec("y1", lambda x: by(1, x), (("uniform", 0.0, 50.0),), "x in (0, 50]", scale=0.1))
    add(Spec("y0", lambda x: by(0, x), (("log", 50.0, 1e5),), "x in [50, 1e5]", scale=2e-3))
    add(Spec("y1", lambda x: by(1, x), (("log", 50.0, 1e5),), "x in [50, 1e5]", scale=2e-3))
    add(Spec("yn", _yn, (("int", 0, 20), ("uniform", 0.5, 30.0)), "n in [0, 20], x in [0.5, 30]",
             scale=0.1))
    add(Spec("yn", _yn, (("int", -20, 0), ("uniform", 0.5, 30.0)),
             "n in [-20, 0], x in [0.5, 30]", scale=0.1))

    ai = mpmath.airyai
    add(Spec("airy_ai", ai, (("uniform", -1.0, 20.0),), "x in [-1, 20] (relative)"))
    add(Spec("airy_ai", ai, (("uniform", 20.0, 100.0),), "x in [20, 100] (relative)",
             dtypes=F64))
    add(Spec("airy_ai", ai, (("uniform", -10.0, -1.0),), "x in [-10, -1]", scale=0.3))
    add(Spec("airy_ai", ai, (("uniform", -1000.0, -10.0),), "x in [-1000, -10]", scale=0.1))
    aip = lambda x: ai(x, 1)  # noqa: E731
    add(Spec("airy_ai_prime", aip, (("uniform", -1.0, 20.0),), "x in [-1, 20] (relative)"))
    add(Spec("airy_ai_prime", aip, (("uniform", -10.0, -1.0),), "x in [-10, -1]", scale=0.5))
    add(Spec("spherical_bessel_j0", _sph, (("symlog", 1e-4, 1e5),), "|x| in [1e-4, 1e5]"))
