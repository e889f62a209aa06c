"""Derive the polynomial coefficients of arraycore/native/src/simd_hyperbolic.h (sinh, cosh,
asinh, acosh, atanh) and of tanh (float and double) in arraycore/native/src/simd_math.h.

Every polynomial approximates only a *remainder* of a Taylor series (the leading terms stay
exact in the kernels), as a function of z = r^2 where the function is even or odd:

  Pe(z) = (cosh r - 1) / z                  cosh r = 1 + z Pe(z)            (sinh, cosh)
  Po(z) = (sinh r - r) / (r z)              sinh r = r + r z Po(z)          (sinh, cosh)
         on |r| <= ln2/2 (+ margin)
  Ra(z) = (atanh s - s) / (s z)             atanh s = s + s z Ra(z)         (asinh, acosh, atanh)
         on |s| <= (sqrt2 - 1)/(sqrt2 + 1) (+ margin): the log core
         log(w) = e ln2 + 2 atanh((m - 1)/(m + 1)),  w = 2^e m,  m in [sqrt(1/2), sqrt(2));
         the same function on 0 <= s <= 1/3 (Rb) for the float atanh, whose m is in [1, 2)
  Th(z) = (tanh x - x) / (x z)              tanh x = x + x z Th(z)          (tanh, |x| < 0.55)
  Em(r) = (e^r - 1 - r) / r^2               e^r = 1 + r + r^2 Em(r)         (float tanh, |r| <= ln2/2)

Fit: near-minimax in *relative* error by Lawson's iteratively reweighted least squares in
mpmath (50 digits) on 400 Chebyshev nodes, started from a Chebyshev interpolant; then the
coefficients are rounded to the working precision (double, or float for the float tanh) and
the relative error of the rounded polynomial is measured on a dense grid (that is the number
printed; it includes the coefficient rounding).

The first Newton step of the reciprocal square root (asinh, acosh) is fitted too:
y1 = y0 (alpha - beta v y0^2) minimax for the error range of the bit-pattern estimate y0.

Run:  python tools/gen_simd_hyperbolic_coeffs.py      (about half a minute)
Output: C++ hex-float literals, lowest degree first, as pasted into the headers.
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 50


def lawson(f, a, b, deg, iters=40, nodes=400):
    """Coefficients (lowest degree first, mpf) of a polynomial of degree deg on [a, b]
    minimizing max |p/f - 1| (Lawson's algorithm on Chebyshev nodes)."""
    xs = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (i + mp.mpf(1) / 2) / nodes)
          for i in range(nodes)]
    fs = [f(x) for x in xs]
    # basis scaled to [-1, 1] for conditioning, converted to monomials at the end
    ts = [(2 * x - (a + b)) / (b - a) for x in xs]
    A = mp.matrix(nodes, deg + 1)
    for i, t in enumerate(ts):
        for j in range(deg + 1):
            A[i, j] = mp.chebyt(j, t)
    w = [mp.mpf(1)] * nodes
    best = None
    for _ in range(iters):
        # weighted normal equations of the relative residual
        M = mp.matrix(deg + 1, deg + 1)
        v = mp.matrix(deg + 1, 1)
        for i in range(nodes):
            s = w[i] / fs[i] ** 2
            for j in range(deg + 1):
                aij = A[i, j] * s
                v[j] += aij * fs[i]
                for k in range(j, deg + 1):
                    M[j, k] += aij * A[i, k]
        for j in range(deg + 1):
            for k in range(j):
                M[j, k] = M[k, j]
        c = mp.lu_solve(M, v)
        err = [abs(sum(c[j] * A[i, j] for j in range(deg + 1)) / fs[i] - 1)
               for i in range(nodes)]
        e = max(err)
        if best is None or e < best[0]:
            best = (e, c)
        tot = sum(w[i] * err[i] for i in range(nodes))
        w = [w[i] * err[i] / tot for i in range(nodes)]
    # Chebyshev -> monomials in x
    c = best[1]
    poly_t = [mp.mpf(0)] * (deg + 1)  # in t
    for j in range(deg + 1):
        # coefficients of T_j(t) in t
        tj = chebyt_coeffs(j)
        for k, ck in enumerate(tj):
            poly_t[k] += c[j] * ck
    # t = alpha x + beta
    alpha = 2 / (b - a)
    beta = -(a + b) / (b - a)
    poly_x = [mp.mpf(0)] * (deg + 1)
    for k, ck in enumerate(poly_t):
        # (alpha x + beta)^k
        for i in range(k + 1):
            poly_x[i] += ck * mp.binomial(k, i) * alpha ** i * beta ** (k - i)
    return poly_x


def chebyt_coeffs(n):
    if n == 0:
        return [mp.mpf(1)]
    t0, t1 = [mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]
    for _ in range(n - 1):
        t2 = [mp.mpf(0)] + [2 * c for c in t1]
        for i, c in enumerate(t0):
            t2[i] -= c
        t0, t1 = t1, t2
    return t1


def rounded(coeffs, prec):
    if prec == "f":
        return [float(np.float32(float(c))) for c in coeffs]
    return [float(c) for c in coeffs]


def rel_err(coeffs, f, a, b, n=3000):
    e = mp.mpf(0)
    for i in range(n + 1):
        x = a + (b - a) * i / n
        p = mp.mpf(0)
        for c in reversed(coeffs):
            p = p * x + mp.mpf(c)
        e = max(e, abs(p / f(x) - 1))
    return e


def hexf(v, prec):
    """C hex literal: doubles as float.hex(); floats with their 6 hex digits and an f."""
    if prec != "f":
        return v.hex()
    m, e = v.hex().split("p")
    if "." in m:
        m = m.rstrip("0").rstrip(".")
    return f"{m}p{e}f"


def emit(name, f, a, b, deg, prec):
    c = rounded(lawson(f, mp.mpf(a), mp.mpf(b), deg), prec)
    err = rel_err(c, f, mp.mpf(a), mp.mpf(b))
    print(f"// {name}: degree {deg} on [{mp.nstr(a, 6)}, {mp.nstr(b, 6)}], "
          f"max rel err {mp.nstr(err, 3)} ({'float' if prec == 'f' else 'double'} coefficients)")
    print("   " + ", ".join(f"c{i} = {hexf(v, prec)}" for i, v in enumerate(c)))
    return c


def rsqrt_first_step():
    """The first Newton step of the rsqrt in simd_hyperbolic.h, y1 = y0 (alpha - beta v y0^2),
    with alpha, beta minimax for the relative error t = y0 sqrt(v) of the bit-pattern
    estimate y0 (magic constants 0x5f375a86 float, 0x5fe6eb50c7b537a9 double): t(alpha -
    beta t^2) - 1 equioscillates at the ends of [t_min, t_max] and at its interior maximum.
    t is sampled over the mantissas of v in [1, 4) (both exponent parities)."""
    for magic, bits in ((0x5f375a86, 32), (0x5fe6eb50c7b537a9, 64)):
        if bits == 32:
            b = np.arange(0x3F800000, 0x40800000, 16, dtype=np.uint32)
            v = b.view(np.float32).astype(np.float64)
            y0 = (np.uint32(magic) - (b >> np.uint32(1))).view(np.float32).astype(np.float64)
        else:
            b = np.arange(0x3FF0000000000000, 0x4010000000000000, 1 << 32, dtype=np.uint64)
            v = b.view(np.float64)
            y0 = (np.uint64(magic) - (b >> np.uint64(1))).view(np.float64)
        t = y0 * np.sqrt(v)
        lo, hi = mp.mpf(float(t.min())), mp.mpf(float(t.max()))
        g = lambda a, b_, x: a * x - b_ * x ** 3 - 1
        eqs = lambda a, b_, d: [g(a, b_, lo) + d, g(a, b_, mp.sqrt(a / (3 * b_))) - d,
                                g(a, b_, hi) + d]
        alpha, beta, d = mp.findroot(eqs, (1.5, 0.5, 1e-3))
        print(f"// rsqrt {bits}-bit: estimate error [{mp.nstr(lo - 1, 4)}, {mp.nstr(hi - 1, 4)}]"
              f"; first step alpha = {mp.nstr(alpha, 11)}, beta = {mp.nstr(beta, 11)}: "
              f"{mp.nstr(d, 3)} (plain Newton: {mp.nstr(max(abs(g(1.5, 0.5, lo)), abs(g(1.5, 0.5, hi))), 3)})")


# remainder functions (series limits at 0)
def Pe(z):
    if z < mp.mpf("1e-30"):
        return mp.mpf(1) / 2
    r = mp.sqrt(z)
    return (mp.cosh(r) - 1) / z


def Po(z):
    if z < mp.mpf("1e-30"):
        return mp.mpf(1) / 6
    r = mp.sqrt(z)
    return (mp.sinh(r) - r) / (r * z)


def Ra(z):
    if z < mp.mpf("1e-30"):
        return mp.mpf(1) / 3
    s = mp.sqrt(z)
    return (mp.atanh(s) - s) / (s * z)


def Th(z):
    if z < mp.mpf("1e-30"):
        return -mp.mpf(1) / 3
    x = mp.sqrt(z)
    return (mp.tanh(x) - x) / (x * z)


def Em(r):
    if abs(r) < mp.mpf("1e-30"):
        return mp.mpf(1) / 2
    return (mp.exp(r) - 1 - r) / r ** 2


if __name__ == "__main__":
    # |r| <= ln2/2 + 2^-20 covers the Cody-Waite reduction's rounding
    rmax = mp.log(2) / 2 + mp.mpf(2) ** -20
    # log core (round-to-nearest e): |s| <= (sqrt2 - 1)/(sqrt2 + 1); the double atanh picks e
    # from a comparison that may put m a few ulps outside [sqrt(1/2), sqrt(2)) (margin 2^-16)
    smax = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1) * (1 + mp.mpf(2) ** -16)
    # float atanh (floor e): 0 <= s <= 1/3 (+2^-20)
    s3 = mp.mpf(1) / 3 * (1 + mp.mpf(2) ** -20)
    print("// ---- sinh/cosh double (hyp_pe_d, hyp_po_d): cosh r - 1 = z Pe(z), sinh r - r = r z Po(z)")
    emit("Pe double", Pe, 0, rmax ** 2, 4, "d")
    emit("Po double", Po, 0, rmax ** 2, 4, "d")
    print("// ---- sinh/cosh float (hyp_pe_f, hyp_po_f)")
    emit("Pe float", Pe, 0, rmax ** 2, 2, "f")
    emit("Po float", Po, 0, rmax ** 2, 2, "f")
    print("// ---- log core (hyp_ra): atanh s = s + s z Ra(z)")
    emit("Ra double", Ra, 0, smax ** 2, 6, "d")
    emit("Ra float", Ra, 0, smax ** 2, 2, "f")
    print("// ---- float atanh (hyp_rb): atanh s = s + s z Rb(z), 0 <= s <= 1/3")
    emit("Rb float", Ra, 0, s3 ** 2, 4, "f")
    print("// ---- float tanh (simd_math.h): tanh x = x + x z Th(z), |x| < 0.55;"
          " e^r = 1 + r + r^2 Em(r)")
    emit("Th float", Th, 0, mp.mpf("0.55") ** 2, 4, "f")
    print("// ---- double tanh (simd_math.h, kTanhThD): tanh x = x + x z Th(z), |x| < 0.55")
    emit("Th double", Th, 0, mp.mpf("0.55") ** 2, 10, "d")
    emit("Em float", Em, -rmax, rmax, 4, "f")
    print("// ---- rsqrt first step (hyp_rsqrt)")
    rsqrt_first_step()
