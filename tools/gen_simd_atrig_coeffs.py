"""Derive the coefficient tables of arraycore/native/src/simd_atrig.h (tan, atan, asin,
acos, atan2; float and double).

    python tools/gen_simd_atrig_coeffs.py          # prints the tables (about a minute)

Every polynomial approximates only the *remainder* of a Taylor series (the leading term
stays exact) and is a minimax fit found by the Remez exchange algorithm in mpmath at 50
digits (own implementation below):

  double (evaluated in double; minimax of the remainder's relative error):
    tan:   tan(r)  = r + r z T(z),  z = r^2,  |r| <= pi/4 (1 + 2^-20),  deg 14
    atan:  atan(t) = t + t z A(z),  z = t^2,  |t| <= 1/2 (1 + 2^-20),   deg 11
    asin:  asin(s) = s + s z S(z),  z = s^2,  |s| <= 1/2,               deg 12
  float (evaluated in float; float32 coefficients, each rounded in turn and the higher
  ones refitted -- minimax of the whole function's relative error, see remez_float):
    atan:  as above on |t| <= 1,  deg 8
    asin:  as above on |s| <= 1/2, deg 4
  float tan (evaluated in double, so that tan and -cot share one division): a rational
    tan(r) = r P(z) / Q(z), P and Q of degree 2 in z, Q(0) = 1, fitted by Loeb's
    linearized least squares with Lawson's reweighting toward the minimax relative error.

The degrees are the smallest whose total relative error (printed as "total", measured
on a dense grid in mpmath with the coefficients as stored) is a small fraction of an ulp:
< 2^-55 for double, < 2^-27 for float.

Also printed: the double-double splits of the multiples of pi and the extra pi/2 parts
of tan(double)'s four-part reduction.
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 50


def remez(g, zmax, deg, iters=25, npts=4000, weight=None, zmin=0):
    """Minimax polynomial (coefficients lowest degree first) of g on [zmin, zmax] for the
    weighted error (p - g) * weight (default weight 1/g: the relative error p/g - 1).
    Returns (max weighted error, coefficients)."""
    w = weight or (lambda z: 1 / g(z))
    n = deg + 2
    span = zmax - zmin
    xs = [zmin + span * (1 - mp.cos(mp.pi * (i + mp.mpf(1) / 2) / n)) / 2 for i in range(n)]
    grid = [zmin + span * (1 - mp.cos(mp.pi * i / npts)) / 2 for i in range(npts + 1)]
    gg = [g(x) for x in grid]
    ww = [w(x) for x in grid]
    best = None
    for _ in range(iters):
        M, rhs = mp.matrix(n, n), mp.matrix(n, 1)
        for i, x in enumerate(xs):
            for j in range(deg + 1):
                M[i, j] = x ** j
            M[i, deg + 1] = (-1) ** i / w(x)
            rhs[i] = g(x)
        sol = mp.lu_solve(M, rhs)
        c = [sol[j] for j in range(deg + 1)]
        err = [(mp.polyval(c[::-1], x) - gv) * wv for x, gv, wv in zip(grid, gg, ww)]
        m = max(abs(e) for e in err)
        if best is None or m < best[0]:
            best = (m, c)
        # next reference: the local extrema of the error, one per sign alternation
        ext = [i for i in range(len(grid))
               if (i == 0 or abs(err[i]) >= abs(err[i - 1])) and
               (i == len(grid) - 1 or abs(err[i]) >= abs(err[i + 1]))]
        alt = []
        for i in ext:
            if err[i] == 0:
                continue
            if alt and mp.sign(err[alt[-1]]) == mp.sign(err[i]):
                if abs(err[i]) > abs(err[alt[-1]]):
                    alt[-1] = i
            else:
                alt.append(i)
        while len(alt) > n:
            alt.pop(0 if abs(err[alt[0]]) < abs(err[alt[-1]]) else -1)
        if len(alt) < n:
            break
        xs = [grid[i] for i in alt]
    return best


def f32(v):
    return mp.mpf(float(np.float32(float(v))))


def remez_float(fn, c0, tmax, deg):
    """Coefficients of P (lowest degree first), float32 values, for fn(t) ~ t + t z P(z),
    z = t^2, |t| <= tmax, evaluated in float: the usual sequential rounding -- round the
    lowest unrounded coefficient to float, refit the higher ones to the remaining error
    (minimax of fn's total relative error), repeat."""
    def tot_w(z):  # weight turning an error in P into fn's relative error
        t = mp.sqrt(z)
        return t * z / fn(t)
    g = rem(fn, c0)
    fixed = []
    zmin = tmax * tmax * mp.mpf(10) ** -6
    for j in range(deg + 1):
        def gj(z, j=j):
            return (g(z) - sum(c * z ** i for i, c in enumerate(fixed))) / z ** j
        _, c = remez(gj, tmax * tmax, deg - j, iters=12, npts=1500,
                     weight=lambda z, j=j: tot_w(z) * z ** j, zmin=zmin)
        fixed.append(f32(c[0]))
    return fixed


def fit_rational(rs, pd, qd, iters=30):
    """tan(r) ~ r P(z)/Q(z), z = r^2, Q(0) = 1: Loeb's iteration (least squares of
    (r P - tan(r) Q) / (tan(r) Q_prev)) with Lawson's reweighting; returns (max rel. error,
    p, q), coefficients lowest degree first."""
    u = [r * r for r in rs]
    f = [mp.tan(r) / r for r in rs]
    n, k = len(u), pd + 1 + qd
    w, qp, best = [mp.mpf(1)] * n, [mp.mpf(1)] * n, None
    for _ in range(iters):
        ata, atb = mp.zeros(k, k), mp.zeros(k, 1)
        for i in range(n):
            s = 1 / (f[i] * qp[i])
            row = ([u[i] ** j * s for j in range(pd + 1)] +
                   [-f[i] * u[i] ** j * s for j in range(1, qd + 1)])
            for a in range(k):
                ra = row[a] * w[i]
                atb[a] += ra * f[i] * s
                for c in range(k):
                    ata[a, c] += ra * row[c]
        sol = mp.lu_solve(ata, atb)
        p = [sol[j] for j in range(pd + 1)]
        q = [mp.mpf(1)] + [sol[pd + 1 + j] for j in range(qd)]
        qp = [mp.polyval(q[::-1], x) for x in u]
        errs = [abs(mp.polyval(p[::-1], x) / qv / fv - 1) for x, qv, fv in zip(u, qp, f)]
        if best is None or max(errs) < best[0]:
            best = (max(errs), p, q)
        mean = sum(errs) / n
        w = [max(wi * e / mean, mp.mpf(10) ** -300) for wi, e in zip(w, errs)]
    return best


def dbl(c):
    return mp.mpf(float(c))


def hexf(v):
    """float32 value as a C float hex literal"""
    return float(np.float32(float(v))).hex().replace("0000000p", "p") + "f"


def log2(e):
    return float(mp.log(e, 2)) if e > 0 else float("-inf")


def print_poly(name, coeffs, comment):
    print(f"    // {comment}")
    vals = [float(c).hex() for c in coeffs]
    print(f"    // {name}[0..{len(vals) - 1}], lowest degree first")
    for i, v in enumerate(vals):
        print(f"    constexpr double {name}{i} = {v};")
    print()


def total_error(f, coeffs, tmax, npts=3000):
    """max relative error of t + t z P(z) (P's coefficients as stored) vs f on (0, tmax]."""
    c = [dbl(x) for x in coeffs][::-1]
    worst = 0
    for i in range(1, npts + 1):
        t = tmax * mp.mpf(i) / npts
        z = t * t
        v = t + t * z * mp.polyval(c, z)
        worst = max(worst, abs(v / f(t) - 1))
    return worst


def rem(fn, c0):
    def g(z):
        if z == 0:
            return mp.mpf(c0)
        t = mp.sqrt(z)
        return (fn(t) - t) / (t * z)
    return g


def main():
    R = mp.pi / 4 * (1 + mp.mpf(2) ** -20)
    T_HALF = mp.mpf(1) / 2 * (1 + mp.mpf(2) ** -20)

    jobs = [
        ("kTanD", mp.tan, mp.mpf(1) / 3, R, 14, "tan(double): T(z), tan(r) = r + r z T(z)"),
        ("kAtanD", mp.atan, -mp.mpf(1) / 3, T_HALF, 11,
         "atan(double): A(z), atan(t) = t + t z A(z), |t| <= 1/2"),
        ("kAsinD", mp.asin, mp.mpf(1) / 6, mp.mpf(1) / 2, 12,
         "asin(double): S(z), asin(s) = s + s z S(z), |s| <= 1/2"),
    ]
    for name, fn, c0, tmax, deg, comment in jobs:
        err, coeffs = remez(rem(fn, c0), tmax * tmax, deg)
        tot = total_error(fn, coeffs, tmax)
        print_poly(name, coeffs,
                   f"{comment}; remainder rel. err 2^{log2(err):.1f}, total 2^{log2(tot):.1f}")

    for name, fn, c0, tmax, deg, comment in [
            ("kAtanF", mp.atan, -mp.mpf(1) / 3, mp.mpf(1), 8,
             "atan(float): A(z), atan(t) = t + t z A(z), |t| <= 1"),
            ("kAsinF", mp.asin, mp.mpf(1) / 6, mp.mpf(1) / 2, 4,
             "asin(float): S(z), asin(s) = s + s z S(z), |s| <= 1/2")]:
        coeffs = remez_float(fn, c0, tmax, deg)
        tot = total_error(fn, coeffs, tmax)
        print(f"    // {comment}; float coefficients, total rel. err 2^{log2(tot):.1f}")
        print("    " + ", ".join(hexf(c) for c in coeffs))
        print()

    # float tan: rational r P(z) / Q(z)
    N = 300
    rs = [R * mp.sin(mp.pi / 2 * (i + mp.mpf(1) / 2) / N) for i in range(N)]
    err, p, q = fit_rational(rs, 2, 2)
    pc, qc = [dbl(x) for x in p], [dbl(x) for x in q]
    worst = 0
    for i in range(1, 2001):
        r = R * i / 2000
        z = r * r
        v = r * mp.polyval(pc[::-1], z) / mp.polyval(qc[::-1], z)
        worst = max(worst, abs(v / mp.tan(r) - 1))
    print(f"    // tan(float, in double): tan(r) = r P(z) / Q(z), |r| <= pi/4; fit rel. err "
          f"2^{log2(err):.1f}, with double coefficients 2^{log2(worst):.1f}")
    for i, v in enumerate(pc):
        print(f"    constexpr double kTanFP{i} = {float(v).hex()};")
    for i, v in enumerate(qc[1:], start=1):
        print(f"    constexpr double kTanFQ{i} = {float(v).hex()};")
    print()

    print("    // multiples of pi as hi + lo (hi = the nearest double/float, lo = the rest)")
    for name, v in [("kPio4", mp.pi / 4), ("kPio2", mp.pi / 2), ("k3Pio4", 3 * mp.pi / 4),
                    ("kPi", mp.pi)]:
        hi = dbl(v)
        lo = dbl(v - hi)
        print(f"    inline constexpr double {name}Hi = {float(hi).hex()};")
        print(f"    inline constexpr double {name}Lo = {float(lo).hex()};")
    for name, v in [("kPio2", mp.pi / 2), ("kPi", mp.pi), ("kPio4", mp.pi / 4),
                    ("k3Pio4", 3 * mp.pi / 4)]:
        hi = f32(v)
        lo = f32(v - hi)
        print(f"    inline constexpr float {name}HiF = {hexf(hi)};")
        print(f"    inline constexpr float {name}LoF = {hexf(lo)};")

    # tan(double): pi/2 = kPio2_1 + kPio2_2 (simd_trig.h, 33 bits each) + C3 (33 bits) + C4
    c1 = mp.mpf(float.fromhex("0x1.921fb54400000p+0"))
    c2 = mp.mpf(float.fromhex("0x1.0b4611a600000p-34"))
    rest = mp.pi / 2 - c1 - c2
    e = mp.floor(mp.log(abs(rest), 2))
    c3 = mp.nint(rest * 2 ** (32 - e)) / 2 ** (32 - e)
    c4 = dbl(rest - c3)
    print(f"    inline constexpr double kPio2C3 = {float(c3).hex()};  // 33 significant bits")
    print(f"    inline constexpr double kPio2C4 = {float(c4).hex()};  "
          f"// pi/2 - all four: {mp.nstr(mp.pi / 2 - c1 - c2 - c3 - c4, 3)}")


if __name__ == "__main__":
    main()
