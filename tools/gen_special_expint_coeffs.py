"""Coefficients of the exp1 kernels (special_integrals_polynomials_expint.cpp).

    python tools/gen_special_expint_coeffs.py            # the float32 tables
    python tools/gen_special_expint_coeffs.py --double   # the float64 exp1 tables
    python tools/gen_special_expint_coeffs.py --expi     # the float64 expi tables

x > 1:  x e^x E1(x) = G(t), t = (x - 2)/(x + 2), x in [1, 100] (E1 underflows in float32
        beyond 98.8): one polynomial of degree 12, relative minimax (fit_poly: Lawson's
        reweighting of least squares in double) against mpmath (40 digits).
x <= 1: E1(x) = -gamma - ln x + x S(x), S the Taylor series sum_{k>=1} (-1)^(k+1) x^(k-1) /
        (k k!) (A&S 5.1.11) truncated after k = 13 (next term < 1e-11 at x = 1): exact
        rational coefficients, rounded.
"""
import os
import sys

import mpmath as mp
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_special_rational_coeffs import fit_poly  # noqa: E402

mp.mp.dps = 40


def g_table():
    K, X0, X1, deg, M = 2.0, 1.0, 100.0, 12, 1500
    t0, t1 = (X0 - K) / (X0 + K), (X1 - K) / (X1 + K)
    k = np.arange(M)
    ts = (t0 + t1) / 2 - (t1 - t0) / 2 * np.cos(np.pi * (k + 0.5) / M)

    def g(t):
        x = K * (1 + mp.mpf(t)) / (1 - mp.mpf(t))
        return x * mp.exp(x) * mp.e1(x)
    f = np.array([float(g(t)) for t in ts])
    err, c = fit_poly(ts, f, deg, iters=80)
    vals = ", ".join(float(v).hex() for v in reversed(c))
    return (f"// x e^x E1(x) = G(t), t = (x - 2)/(x + 2), x in [1, 100]: degree {deg}, max rel. "
            f"error {err:.1e}\ninline constexpr double kE1G[] = {{{vals}}};\n")


def s_table():
    c = [mp.mpf(-1) ** (k + 1) / (k * mp.factorial(k)) for k in range(1, 14)]
    vals = ", ".join(float(v).hex() for v in reversed(c))
    return ("// S(x) = sum_{k=1}^{13} (-1)^(k+1) x^(k-1)/(k k!), E1(x) = -gamma - ln x + x S(x)\n"
            f"inline constexpr double kE1S[] = {{{vals}}};\n")


def double_tables():
    """The double exp1 kernel: S through k = 19, G on [1, 4] (t = (x - 2)/(x + 2)) and on
    [4, 16] (t = (x - 8)/(x + 8)), degree 20 Chebyshev interpolants in mpmath (monomial
    coefficients; |t| <= 1/3 keeps Horner stable)."""
    out = []
    c = [mp.mpf(-1) ** (k + 1) / (k * mp.factorial(k)) for k in range(1, 20)]
    out.append("// S(x) = sum_{k=1}^{19} (-1)^(k+1) x^(k-1)/(k k!) (next term < 4e-19 at x = 1)\n"
               f"inline constexpr double kE1SD[] = {{{', '.join(float(v).hex() for v in reversed(c))}}};")
    for name, (x0, x1, k) in (("kE1G1", (1, 4, 2)), ("kE1G2", (4, 16, 8))):
        def f(t, k=k):
            x = k * (1 + t) / (1 - t)
            return x * mp.exp(x) * mp.e1(x)
        t0, t1 = mp.mpf(x0 - k) / (x0 + k), mp.mpf(x1 - k) / (x1 + k)
        coef, err = mp.chebyfit(f, [t0, t1], 21, error=True)
        out.append(f"// x e^x E1(x) on [{x0}, {x1}], t = (x - {k})/(x + {k}): degree 20, max abs. "
                   f"error {float(err):.1e}\n"
                   f"inline constexpr double {name}[] = {{{', '.join(float(v).hex() for v in coef)}}};")
    return "\n".join(out)


def expi_tables():
    """The double expi kernel for x > 0: the series sum_{k=1}^{24} x^(k-1)/(k k!) for x <= 2
    (A&S 5.1.10), fits of x e^-x Ei(x) in t = (x - K)/(x + K) on [2, 8], [8, 32] (degree 24)
    and [32, 128] (degree 22), and the asymptotic sum_{k=0}^{12} k!/x^k beyond 128 (A&S 5.1.51,
    3e-18 at 128)."""
    out = []
    c = [1 / (k * mp.factorial(k)) for k in range(1, 25)]
    out.append("// P(x) = sum_{k=1}^{24} x^(k-1)/(k k!), Ei(x) = gamma + ln x + x P(x) (x <= 2)\n"
               f"inline constexpr double kEiSD[] = {{{', '.join(float(v).hex() for v in reversed(c))}}};")
    for name, (x0, x1, k, deg) in (("kEiF1", (2, 8, 4, 24)), ("kEiF2", (8, 32, 16, 24)),
                                   ("kEiF3", (32, 128, 64, 22))):
        def f(t, k=k):
            x = k * (1 + t) / (1 - t)
            return x * mp.exp(-x) * mp.ei(x)
        t0, t1 = mp.mpf(x0 - k) / (x0 + k), mp.mpf(x1 - k) / (x1 + k)
        coef, err = mp.chebyfit(f, [t0, t1], deg + 1, error=True)
        out.append(f"// x e^-x Ei(x) on [{x0}, {x1}], t = (x - {k})/(x + {k}): degree {deg}, max "
                   f"abs. error {float(err):.1e}\n"
                   f"inline constexpr double {name}[] = {{{', '.join(float(v).hex() for v in coef)}}};")
    a = [mp.factorial(j) for j in range(13)]
    out.append("// x e^-x Ei(x) ~ sum_{k=0}^{12} k!/x^k, as a polynomial in 1/x (x > 128)\n"
               f"inline constexpr double kEiA[] = {{{', '.join(float(v).hex() for v in reversed(a))}}};")
    return "\n".join(out)


if __name__ == "__main__":
    if "--expi" in sys.argv:
        print(expi_tables())
        sys.exit()
    if "--double" in sys.argv:
        print(double_tables())
    else:
        print(g_table())
        print(s_table())
