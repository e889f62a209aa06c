"""Derive the polynomial coefficients used in arraycore/native/src/simd_math.h.

Method: near-minimax polynomials via Chebyshev fitting in high precision
(mpmath.chebyfit, 60 decimal digits) of the *remainder* functions below, so
that the leading terms of each series stay exact and only a small correction
is approximated:

  exp:  e^r = 1 + r + r^2 * P(r),      P(r) = (e^r - 1 - r) / r^2,
        r in [-ln2/2, ln2/2]
  log:  log(1+f) = 2s + s*R(z),  s = f/(2+f), z = s^2,
        R(z) = z * Q(z),  Q(z) = (log((1+s)/(1-s)) - 2s) / (s*z),
        z in [0, ((sqrt2-1)/(sqrt2+1))^2]
        (Q(z) = 2/3 + 2z/5 + 2z^2/7 + ...)

Also: the float expm1's cubic remainder (e^r - 1 - r - r^2/2)/r^3, and the float pow's
log2(1+f) = s P(s^2) and 2^r = 1 + r Q(r), both evaluated in double (simd_pow.h).

Coefficients are printed as C++ hex-float literals rounded to the target
precision, together with the relative approximation error of the fit.
Run:  python tools/gen_simd_math_coeffs.py
"""
import mpmath as mp

mp.mp.dps = 60


def fit(name, f, a, b, deg, prec):
    coeffs, err = mp.chebyfit(f, [a, b], deg + 1, error=True)
    coeffs = coeffs[::-1]  # mpmath gives highest degree first
    # relative error of the fitted remainder
    xs = mp.linspace(a, b, 2001)
    rel = max(abs((mp.polyval(coeffs[::-1], x) - f(x)) / f(x)) for x in xs)
    print(f"// {name}: degree {deg}, max rel err of remainder fit = {mp.nstr(rel, 3)}")
    for i, c in enumerate(coeffs):
        v = float(c)
        if prec == "f":
            import numpy as np
            v = float(np.float32(v))
            print(f"  c{i} = {v.hex()}f;  // {mp.nstr(c, 10)}")
        else:
            print(f"  c{i} = {v.hex()};  // {mp.nstr(c, 18)}")


def P_exp(r):
    if abs(r) < mp.mpf("1e-20"):
        return mp.mpf(1) / 2
    return (mp.exp(r) - 1 - r) / r**2


def Q_log(z):
    if z < mp.mpf("1e-30"):
        return mp.mpf(2) / 3
    s = mp.sqrt(z)
    return (mp.log((1 + s) / (1 - s)) - 2 * s) / (s * z)


h = mp.log(2) / 2
zmax = ((mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)) ** 2
fit("exp float P", P_exp, -h, h, 4, "f")
fit("exp double P", P_exp, -h, h, 9, "d")
fit("log float Q", Q_log, 0, zmax, 3, "f")
fit("log double Q", Q_log, 0, zmax, 6, "d")


# --- float expm1 and float pow (simd_math.h expm1(float), simd_pow.h pow(float)) ---------
def Q_expm1(r):
    if abs(r) < mp.mpf("1e-20"):
        return mp.mpf(1) / 6
    return (mp.exp(r) - 1 - r - r**2 / 2) / r**3


def P_log2_s(z):
    # log2(1+f) = s P(z), s = f/(2+f), z = s^2: P(z) = (2/ln2)(1 + z/3 + z^2/5 + ...)
    if z < mp.mpf("1e-40"):
        return 2 / mp.log(2)
    s = mp.sqrt(z)
    return mp.log((1 + s) / (1 - s)) / mp.log(2) / s


def Q_exp2(r):
    # 2^r = 1 + r Q(r)
    if abs(r) < mp.mpf("1e-40"):
        return mp.log(2)
    return (mp.mpf(2)**r - 1) / r


fit("expm1 float Q (cubic remainder)", Q_expm1, -h, h, 4, "f")
fit("pow float: log2 P(z) (double)", P_log2_s, 0, zmax, 4, "d")
fit("pow float: exp2 Q(r) (double)", Q_exp2, mp.mpf(-0.5), mp.mpf(0.5), 5, "d")
