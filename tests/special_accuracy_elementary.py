"""Accuracy specs of arraycore.special, family elementary (see tests/special_accuracy.py)."""

from __future__ import annotations

import math

import mpmath as mp

from special_accuracy import Spec

F32 = ("float32",)
F64 = ("float64",)


def _turns(x):
    """x degrees as a fraction of a half turn, x reduced mod 360 exactly first (math.fmod is
    exact), so that multiples of 90 degrees give exact zeros in sinpi/cospi (the float32
    points above 2^24 are integers, and many are such multiples)."""
    return mp.mpf(math.fmod(float(x), 360.0)) / 180


def _sindg(x):
    return mp.sinpi(_turns(x))


def _cosdg(x):
    return mp.cospi(_turns(x))


def _tandg(x):
    c = _cosdg(x)
    return mp.inf if c == 0 else _sindg(x) / c      # SciPy's +inf at the poles


def _cotdg(x):
    s = _sindg(x)
    return mp.inf if s == 0 else _cosdg(x) / s


def build(add):
    cbrt = lambda x: mp.sign(x) * mp.cbrt(abs(x))  # noqa: E731 (real cube root)
    add(Spec("cbrt", cbrt, (("symlog", 1e-30, 1e30),), "|x| in [1e-30, 1e30]"))
    add(Spec("cbrt", cbrt, (("symlog", 1e-320, 1e300),), "|x| in [1e-320, 1e300]", dtypes=F64))
    for name, fn in (("sindg", _sindg), ("cosdg", _cosdg), ("tandg", _tandg),
                     ("cotdg", _cotdg)):
        add(Spec(name, fn, (("uniform", -720.0, 720.0),), "x in [-720, 720]"))
        add(Spec(name, fn, (("symlog", 1e-6, 1e12),), "|x| in [1e-6, 1e12]"))
    add(Spec("cosm1", lambda x: mp.cos(x) - 1, (("symlog", 1e-10, 3.14),),
             "|x| in [1e-10, 3.14]", notes="no zeros but 0 inside (cos x - 1 at 2 pi k is "
             "computed as cos(x) - 1 beyond pi/4, as Cephes)"))
    add(Spec("radian", lambda d, m, s: (d + m / 60 + s / 3600) * mp.pi / 180,
             (("uniform", 0.0, 360.0), ("uniform", 0.0, 60.0), ("uniform", 0.0, 60.0)),
             "d in [0, 360], m, s in [0, 60]"))
    add(Spec("exp2", lambda x: mp.power(2, x), (("uniform", -149.0, 127.0),),
             "x in [-149, 127]", dtypes=F32))
    add(Spec("exp2", lambda x: mp.power(2, x), (("uniform", -1074.0, 1023.0),),
             "x in [-1074, 1023]", dtypes=F64))
    add(Spec("exp10", lambda x: mp.power(10, x), (("uniform", -44.0, 38.0),),
             "x in [-44, 38]", dtypes=F32))
    add(Spec("exp10", lambda x: mp.power(10, x), (("uniform", -323.0, 308.0),),
             "x in [-323, 308]", dtypes=F64))
    exprel = lambda x: mp.expm1(x) / x  # noqa: E731
    add(Spec("exprel", exprel, (("symlog", 1e-10, 88.0),), "|x| in [1e-10, 88]", dtypes=F32))
    add(Spec("exprel", exprel, (("symlog", 1e-15, 716.0),), "|x| in [1e-15, 716]",
             dtypes=F64))
    sinc = lambda x: mp.sinpi(x) / (mp.pi * x)  # noqa: E731
    add(Spec("sinc", sinc, (("uniform", -10.0, 10.0),), "x in [-10, 10]"))
    add(Spec("sinc", sinc, (("symlog", 1e-8, 1e6),), "|x| in [1e-8, 1e6]"))
    add(Spec("entr", lambda x: -x * mp.log(x), (("log", 1e-30, 1e30),), "x in [1e-30, 1e30]"))
    add(Spec("rel_entr", lambda x, y: x * mp.log(x / y),
             (("log", 1e-3, 1e3), ("log", 1e-3, 1e3)), "x, y in [1e-3, 1e3]"))
    add(Spec("rel_entr", lambda x, y: x * mp.log(x / y),
             (("log", 1e-300, 1e300), ("log", 1e-300, 1e300)), "x, y in [1e-300, 1e300]",
             dtypes=F64))
    add(Spec("kl_div", lambda x, y: x * mp.log(x / y) - x + y,
             (("log", 1e-3, 1e3), ("log", 1e-3, 1e3)), "x, y in [1e-3, 1e3]"))
    add(Spec("kl_div", lambda x, y: x * mp.log(x / y) - x + y,
             (("uniform", 0.9, 1.1), ("uniform", 0.9, 1.1)), "x, y in [0.9, 1.1]"))
    add(Spec("xlogy", lambda x, y: x * mp.log(y),
             (("uniform", -10.0, 10.0), ("log", 1e-10, 1e10)), "x in [-10, 10], y in [1e-10, 1e10]"))
    add(Spec("xlog1py", lambda x, y: x * mp.log(1 + y),
             (("uniform", -10.0, 10.0), ("uniform", -0.99, 10.0)),
             "x in [-10, 10], y in [-0.99, 10]"))
    add(Spec("xlog1py", lambda x, y: x * mp.log(1 + y),
             (("uniform", -10.0, 10.0), ("symlog", 1e-10, 1e-2)),
             "x in [-10, 10], |y| in [1e-10, 1e-2]"))
    add(Spec("huber", lambda d, r: r * r / 2 if abs(r) <= d else d * (abs(r) - d / 2),
             (("uniform", 0.0, 5.0), ("uniform", -10.0, 10.0)), "delta in [0, 5], r in [-10, 10]"))
    add(Spec("pseudo_huber", lambda d, r: d * d * (mp.sqrt(1 + (r / d) ** 2) - 1),
             (("log", 1e-3, 1e3), ("symlog", 1e-3, 1e3)), "delta, |r| in [1e-3, 1e3]"))
    add(Spec("boxcox", lambda x, l: mp.expm1(l * mp.log(x)) / l,
             (("log", 1e-3, 1e3), ("uniform", -3.0, 3.0)), "x in [1e-3, 1e3], lmbda in [-3, 3]"))
    add(Spec("boxcox1p", lambda x, l: mp.expm1(l * mp.log1p(x)) / l,
             (("uniform", -0.99, 100.0), ("uniform", -3.0, 3.0)),
             "x in [-0.99, 100], lmbda in [-3, 3]"))
    add(Spec("inv_boxcox", lambda y, l: mp.exp(mp.log1p(l * y) / l),
             (("uniform", 0.0, 5.0), ("uniform", 0.01, 2.0)), "y in [0, 5], lmbda in [0.01, 2]"))
    add(Spec("inv_boxcox1p", lambda y, l: mp.expm1(mp.log1p(l * y) / l),
             (("uniform", 0.0, 5.0), ("uniform", 0.01, 2.0)), "y in [0, 5], lmbda in [0.01, 2]"))
