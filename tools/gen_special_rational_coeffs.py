"""Rational and polynomial minimax fits of the erf-family kernels
(arraycore/native/src/kernels/special_erf_gamma_coeffs.h).

    python tools/gen_special_rational_coeffs.py            # prints the C++ tables

Rational fits are f(x) ~ g(x) P(u) / Q(u) with u a simple function of x, P and Q
polynomials (Q(0) = 1), minimizing the maximum relative error on a Chebyshev-distributed
grid: linearized least squares (minimize |P - f Q| / |f Q_prev|, Loeb's iteration) with
Lawson's reweighting toward the minimax solution; references from mpmath at 40 digits.
Fits for double results (ndtri) run the same iteration in mpmath at 50 digits
(fit_rational_mp), since double-precision least squares stalls near 1e-11.  The float32
tables (erf, erfinv: evaluated in float; erfcx's G: partly in float) print the fit's error and a
check of the kernel's arithmetic on a dense grid of float32 arguments.
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 40


def fit_rational(xs, f, u, p_deg, q_deg, iters=80):
    """Coefficients (lowest degree first) of P (p_deg) and Q (q_deg, Q(0) = 1) with
    f ~ P(u)/Q(u) on the points xs (f, u: arrays of the target and the variable)."""
    A = np.vander(u, p_deg + 1, increasing=True)
    B = np.vander(u, q_deg + 1, increasing=True)
    w = np.ones(len(xs))
    q_prev = np.ones(len(xs))
    best = None
    for _ in range(iters):
        scale = 1.0 / (f * q_prev)
        M = np.hstack([A, -(f[:, None] * B[:, 1:])]) * scale[:, None]
        rhs = f * scale
        sw = np.sqrt(w)
        sol = np.linalg.lstsq(M * sw[:, None], rhs * sw, rcond=None)[0]
        p = sol[:p_deg + 1]
        q = np.concatenate([[1.0], sol[p_deg + 1:]])
        Q = B @ q
        err = np.abs((A @ p) / Q / f - 1)
        if best is None or err.max() < best[0]:
            best = (err.max(), p.copy(), q.copy())
        q_prev = Q
        w = np.maximum(w * err / err.mean(), 1e-300)
    return best


def fit_rational_mp(u, f, p_deg, q_deg, iters=15):
    """fit_rational in mpmath (u, f: lists of mpf); returns (max rel. error, p, q)."""
    n, k = len(u), p_deg + 1 + q_deg
    w = [mp.mpf(1)] * n
    q_prev = [mp.mpf(1)] * n
    powers = [[ui ** j for j in range(max(p_deg, q_deg) + 1)] for ui in u]
    best = None
    for _ in range(iters):
        ata, atb = mp.zeros(k, k), mp.zeros(k, 1)  # weighted normal equations
        for i in range(n):
            s = 1 / (f[i] * q_prev[i])
            row = ([powers[i][j] * s for j in range(p_deg + 1)] +
                   [-f[i] * powers[i][j] * s for j in range(1, q_deg + 1)])
            for a in range(k):
                ra = row[a] * w[i]
                atb[a] += ra * f[i] * s
                for c in range(a, k):
                    ata[a, c] += ra * row[c]
        for a in range(k):
            for c in range(a):
                ata[a, c] = ata[c, a]
        sol = mp.lu_solve(ata, atb)
        p = [sol[j] for j in range(p_deg + 1)]
        q = [mp.mpf(1)] + [sol[p_deg + 1 + j] for j in range(q_deg)]
        q_prev = [sum(q[j] * powers[i][j] for j in range(q_deg + 1)) for i in range(n)]
        errs = [abs(sum(p[j] * powers[i][j] for j in range(p_deg + 1)) / q_prev[i] / f[i] - 1)
                for i in range(n)]
        if best is None or max(errs) < best[0]:
            best = (max(errs), p, q)
        mean = sum(errs) / n
        w = [max(w[i] * errs[i] / mean, mp.mpf(10) ** -300) for i in range(n)]
    return best


def fit_poly(t, f, deg, relative=True, iters=60):
    """Polynomial minimax fit by Lawson's reweighting of least squares in double: returns
    (max error, coefficients lowest degree first); the error is relative to f, or absolute
    with relative=False."""
    A = np.vander(t, deg + 1, increasing=True)
    w, best = np.ones(len(t)), None
    scale = np.abs(f) if relative else np.ones(len(t))
    for _ in range(iters):
        sw = np.sqrt(w) / scale
        c = np.linalg.lstsq(A * sw[:, None], f * sw, rcond=None)[0]
        err = np.abs(A @ c / f - 1) if relative else np.abs(A @ c - f)
        if best is None or err.max() < best[0]:
            best = (err.max(), c)
        w = w * err / err.mean()
    return best


def fma32(a, b, c):
    """float32 FMA, as the kernels' float arithmetic: exact product and sum in double, one
    rounding."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


def table(name, coeffs, comment):
    vals = ", ".join(float(v).hex() for v in reversed(coeffs))  # highest degree first
    return f"// {comment}\ninline constexpr double {name}[] = {{{vals}}};\n"


def erfinv_f32():
    """erfinv(x) = x P_k(w - c_k) for float32 results, w = -ln(1 - x^2) (Giles' variable,
    "Approximating the erfinv function", GPU Computing Gems (2011)), on w in [0, 5] (c = 0)
    and [5, 17] (c = 11; the largest float32 below 1 has w = 16.6): two polynomials of
    degree 10 fitted here (weighted least squares in double), evaluated by the kernel in
    float.  The check emulates the kernel's float arithmetic (1 - x^2 by one FMA, float log,
    float Horner with FMAs)."""
    def g(w):
        x = mp.sqrt(-mp.expm1(-mp.mpf(w)))
        return mp.erfinv(x) / x if x != 0 else mp.sqrt(mp.pi) / 2
    rows, errs = [], []
    for (lo, hi), c in (((0.0, 5.0), 0.0), ((5.0, 17.0), 11.0)):
        w = np.linspace(lo, hi, 2000)
        f = np.array([float(g(v)) for v in w])
        coef = np.polyfit(w - c, f, 10, w=1 / f).astype(np.float32)  # highest degree first
        errs.append(np.max(np.abs(np.polyval(coef.astype(np.float64), w - c) / f - 1)))
        rows.append(coef)

    x = np.concatenate([np.linspace(0, 1, 400001)[1:-1], 1 - 2.0 ** -np.arange(2, 24.5, 0.001),
                        2.0 ** -np.arange(1, 60, 0.01)]).astype(np.float32)
    x = np.unique(x[(x > 0) & (x < 1)])
    w = -np.log(fma32(-x, x, np.float32(1)))
    hi = w >= 5
    t = (w - np.where(hi, np.float32(11), np.float32(0))).astype(np.float32)
    r = np.where(hi, rows[1][0], rows[0][0])
    for i in range(1, 11):
        r = fma32(r, t, np.where(hi, rows[1][i], rows[0][i]))
    got = (x * r).astype(np.float64)
    ref = np.array([float(mp.erfinv(mp.mpf(float(v)))) for v in x[::50]])
    ulp = np.spacing(ref.astype(np.float32)).astype(np.float64)
    max_ulp = np.max(np.abs(got[::50] - ref) / ulp)
    body = ",\n    ".join("{" + ", ".join(float(v).hex() + "f" for v in r_) + "}" for r_ in rows)
    return (f"// erfinv(x)/x = P_k(w - c_k), w = -ln(1 - x^2), pieces w < 5 (c = 0) and "
            f"w >= 5 (c = 11): max rel. errors {errs[0]:.1e}, {errs[1]:.1e}; evaluated in float: "
            f"{max_ulp:.2f} ulp\ninline constexpr float kErfinvF[2][11] = {{\n    {body}}};\n")


def ndtri_mp(p):
    """The standard normal quantile in mpmath (Newton on log ncdf in the lower tail)."""
    if p > 0.5:
        return -ndtri_mp(1 - p)
    if p > 1e-3:
        return mp.sqrt(2) * mp.erfinv(2 * p - 1)
    z, lp = -mp.sqrt(-2 * mp.log(p)), mp.log(p)
    for _ in range(200):
        c = mp.ncdf(z)
        dz = (mp.log(c) - lp) * c / mp.npdf(z)
        z -= dz
        if abs(dz) < mp.mpf(10) ** -45 * abs(z):
            break
    return z


def ndtri_pieces():
    """ndtri on three pieces, each P(u)/Q(u) of degrees 7/7 with u in [0, 1] (the split of
    Wichura's AS241, Appl. Statist. 37 (1988) 477-484; the coefficients are fitted here):
      0: |q| <= 0.425, q = p - 1/2:  ndtri = q R(u),  u = 1 - q^2/0.180625
      1: r = sqrt(-ln min(p, 1 - p)) in [1.6, 5]:   |ndtri| = R(u),  u = (r - 1.6)/3.4
      2: r in [5, 27.3] (p down to 5e-324):          |ndtri| = R(u),  u = (r - 5)/22.3"""
    mp.mp.dps = 50
    M = 400

    def nodes(a, b):
        return sorted((a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * (k + mp.mpf(1) / 2) / M)
                      for k in range(M))
    pieces = []
    qs = nodes(mp.mpf("1e-8"), mp.mpf("0.425"))
    pieces.append(([1 - v * v / mp.mpf("0.180625") for v in qs],
                   [ndtri_mp(mp.mpf(0.5) + v) / v for v in qs]))
    for lo, hi in ((mp.mpf("1.6"), mp.mpf(5)), (mp.mpf(5), mp.mpf("27.3"))):
        rs = nodes(lo, hi)
        pieces.append(([(v - lo) / (hi - lo) for v in rs],
                       [-ndtri_mp(mp.exp(-v * v)) for v in rs]))
    ps, qs_, errs = [], [], []
    for u, f in pieces:
        err, p, q = fit_rational_mp(u, f, 7, 7)
        ps.append(p)
        qs_.append(q)
        errs.append(float(err))
    mp.mp.dps = 40

    def table3(name, cs, comment):
        rows = ",\n    ".join("{" + ", ".join(float(v).hex() for v in reversed(c)) + "}"
                              for c in cs)
        return f"// {comment}\ninline constexpr double {name}[3][8] = {{\n    {rows}}};\n"
    errs_s = ", ".join(f"{e:.1e}" for e in errs)
    return (table3("kNdtriP", ps, "ndtri's three pieces (P; see ndtri_v): max rel. errors "
                   + errs_s) + table3("kNdtriQ", qs_, "Q of the same"))


def erfcx_g_f32():
    """(z + 3) erfcx(z) = G(t), t = (z - 3)/(z + 3), z in [0, 10.5], for the float32 erfc
    and ndtr kernels (erfc_f, ndtr_f, Note [Float erfc]): one polynomial of degree 9
    (relative minimax by Lawson's reweighting).  The kernel evaluates its terms of degree 3
    and up in float (kErfcxGF, Horner in a float t), and the last three Horner steps
    (kErfcxGD) and 1/(z + 3) in double: those terms are at most 0.3 of G, so the float part's
    rounding enters G scaled down, and the double lanes carry 3 fmas instead of 10.  K = 3
    reaches 2.4e-9 at degree 9 where K = 4 needed degree 10.  Beyond z = 10.5 the float
    results are 0 (erfc) or 1 (ndtr), so the clamp costs nothing.  The check emulates the
    kernel's arithmetic for erfc on float32 arguments (exp(-x^2) rounded correctly: the
    kernel's float exp adds up to ~0.5 ulp)."""
    K, Z, deg, M, nd = 3.0, 10.5, 9, 1500, 3
    tmax = (Z - K) / (Z + K)
    k = np.arange(M)
    ts = (tmax - 1) / 2 - (tmax + 1) / 2 * np.cos(np.pi * (k + 0.5) / M)

    def G(t):
        z = K * (1 + mp.mpf(t)) / (1 - mp.mpf(t))
        return (z + K) * mp.erfc(z) * mp.exp(z * z)
    f = np.array([float(G(t)) for t in ts])
    err, p, _ = fit_rational(ts, f, ts, deg, 0)
    pf = np.asarray(p[nd:], dtype=np.float32)

    x = np.unique(np.concatenate([np.linspace(0, Z, 400001), 2.0 ** -np.arange(1, 40, 0.01)])
                  .astype(np.float32))
    z = x.astype(np.float64)
    inv0 = (np.float32(1) / (x + np.float32(K))).astype(np.float32)
    inv = inv0 * (2.0 - (z + K) * inv0)
    tf = ((x - np.float32(K)) * inv0).astype(np.float32)
    t = (z - K) * inv
    h = np.full_like(tf, pf[-1])
    for c in pf[-2::-1]:
        h = fma32(h, tf, c)
    r = h.astype(np.float64)
    for c in p[nd - 1::-1]:
        r = r * t + c
    sel = slice(None, None, 40)
    ref = np.array([float(mp.erfc(mp.mpf(float(v)))) for v in x[sel]])
    got = (np.exp(-z[sel] ** 2).astype(np.float32) * (r * inv)[sel]).astype(np.float32)
    keep = ref > 2.0 ** -126
    ulp = np.spacing(ref[keep].astype(np.float32)).astype(np.float64)
    max_ulp = np.max(np.abs(got[keep] - ref[keep]) / ulp)
    vals = ", ".join(float(v).hex() + "f" for v in reversed(pf))
    return (f"// (z + 3) erfcx(z) = G(t), t = (z - 3)/(z + 3), z in [0, {Z}]: degree {deg}, max "
            f"rel. error {err:.1e}; erfc_f with exp rounded correctly: {max_ulp:.2f} ulp.\n"
            f"// G's terms of degree {nd} and up, divided by t^{nd}, in float (kErfcxGF), the rest "
            f"in double (kErfcxGD)\ninline constexpr float kErfcxGF[] = {{{vals}}};\n"
            + table("kErfcxGD", p[:nd], "the terms of G below degree 3"))


def erf_f32_pieces():
    """Float32 erf in float arithmetic (erf_f): |x| < 1.5: x P(x^2 - 1.125), P of degree 8
    (relative minimax); 1.5 <= |x| < 3.92: 1 - Q(|x| - 2.71), Q ~ erfc of degree 12
    (absolute minimax: erfc <= 0.034 there, so its error enters 1 - Q scaled down).  Both
    by Lawson's reweighting in double, coefficients rounded to float; the check emulates
    the kernel's float arithmetic (FMAs, one rounding each)."""
    M = 1500
    k = np.arange(M)

    def cheb(a, b):
        return (a + b) / 2 - (b - a) / 2 * np.cos(np.pi * (k + 0.5) / M)

    ss = cheb(0.0, 2.25)
    f1 = np.array([float(mp.erf(mp.sqrt(v)) / mp.sqrt(v)) for v in ss])
    e1, p = fit_poly(ss - 1.125, f1, 8)
    xs = cheb(1.5, 3.92)
    e2, q = fit_poly(xs - 2.71, np.array([float(mp.erfc(v)) for v in xs]), 12, relative=False)
    p, q = p.astype(np.float32), q.astype(np.float32)

    x = np.concatenate([np.linspace(0, 3.92, 400001), 2.0 ** -np.arange(1, 60, 0.01)])
    x = np.unique(x.astype(np.float32))
    r1 = np.full_like(x, p[-1])
    t1 = (x * x - np.float32(1.125)).astype(np.float32)
    for c in p[-2::-1]:
        r1 = fma32(r1, t1, c)
    r2 = np.full_like(x, q[-1])
    t2 = (x - np.float32(2.71)).astype(np.float32)
    for c in q[-2::-1]:
        r2 = fma32(r2, t2, c)
    got = np.where(x < 1.5, x * r1, np.float32(1) - r2).astype(np.float64)
    sel = slice(None, None, 40)
    ref = np.array([float(mp.erf(mp.mpf(float(v)))) for v in x[sel]])
    ulp = np.spacing(ref.astype(np.float32)).astype(np.float64)
    max_ulp = np.max(np.abs(got[sel] - ref) / ulp)

    def ftable(name, c, comment):
        vals = ", ".join(float(v).hex() + "f" for v in reversed(c))
        return f"// {comment}\ninline constexpr float {name}[] = {{{vals}}};\n"
    return (ftable("kErfF1", p, f"erf(x)/x = P(x^2 - 1.125), |x| < 1.5: degree 8, max rel. error "
                   f"{e1:.1e}; erf_f in float: {max_ulp:.2f} ulp on [0, 3.92]")
            + ftable("kErfcF2", q, f"erfc(x) = Q(x - 2.71), x in [1.5, 3.92]: degree 12, max "
                     f"abs. error {e2:.1e}"))


def fit_poly_fixed(u, f, deg, fixed, iters=60):
    """fit_poly (relative) with the coefficients in `fixed` (degree -> value) held."""
    free = [j for j in range(deg + 1) if j not in fixed]
    base = sum(fixed[j] * u ** j for j in fixed) if fixed else np.zeros_like(u)
    A = np.stack([u ** j for j in free], 1)
    w, best = np.ones(len(u)), None
    for _ in range(iters):
        sw = np.sqrt(w) / np.abs(f)
        c = np.linalg.lstsq(A * sw[:, None], (f - base) * sw, rcond=None)[0]
        err = np.abs((A @ c + base) / f - 1)
        if best is None or err.max() < best[0]:
            best = (err.max(), c)
        w = w * err / err.mean()
    full = dict(fixed)
    full.update(zip(free, best[1]))
    return best[0], [full[j] for j in range(deg + 1)]


def rounded_fit(u, f, deg, order):
    """Float coefficients: rounded one at a time in `order`, each rounding compensated by
    refitting the ones not yet rounded."""
    fixed = {}
    for j in order:
        fixed[j] = float(np.float32(fit_poly_fixed(u, f, deg, fixed)[1][j]))
    return fixed


def piece_table(name, coeffs, comment):
    rows = ",\n    ".join("{" + ", ".join(float(np.float32(v)).hex() + "f" for v in row) + "}"
                          for row in coeffs)
    return f"// {comment}\ninline constexpr float {name}[{len(coeffs)}][8] = {{\n    {rows}}};\n"


def erf_f32_table():
    """Float32 erf on vector lanes (special_erf_gamma_pieces.h): pieces k = floor(2|x|) of
    width 1/2 on [0, 4), u = 2|x| - k - 1/2; P_k of degree 6 ~ erf(x)/x on piece 0, erf(x) on
    the others; coefficients rounded from the constant term up."""
    M, k = 800, np.arange(800)
    u = 0.5 * np.cos(np.pi * (k + 0.5) / M)
    cols, errs = [], []
    for piece in range(8):
        x = (u + piece + 0.5) / 2
        f = np.array([float(mp.erf(v) / v) if piece == 0 else float(mp.erf(v)) for v in x])
        c = rounded_fit(u, f, 6, range(7))
        errs.append(np.abs(sum(c[j] * u ** j for j in range(7)) / f - 1).max())
        cols.append([c[j] for j in range(6, -1, -1)])
    rows = [[cols[p][j] for p in range(8)] for j in range(7)]
    return piece_table("kErfTableF", rows, "erf pieces: max rel. errors " +
                       ", ".join(f"{e:.1e}" for e in errs))


def erfcx_f32_table():
    """erfcx(z) for the float32 erfc on vector lanes (special_erf_gamma_pieces.h), z in
    [0, 10.19]: eight pieces cut at the half octaves of z + 3/4, a polynomial of degree 8 in
    u = z - mid_k; coefficients of degree 1 and up rounded from the lowest up, the constant
    term refitted last and kept as two floats (a low and a high row)."""
    starts = [0.0, 0.25, 0.75, 1.25, 2.25, 3.25, 5.25, 7.25]
    ends = starts[1:] + [10.2]
    mids = [0.0, 0.5, 1.0, 1.75, 2.75, 4.25, 6.25, 8.75]
    M, k, deg = 800, np.arange(800), 8
    cols, errs = [], []
    for a, b, m in zip(starts, ends, mids):
        lo, hi = a - 1e-6 * max(a, 1), b + 1e-6 * b  # (the index rounds near the edges)
        x = (lo + hi) / 2 - (hi - lo) / 2 * np.cos(np.pi * (k + 0.5) / M)
        u = x - m
        f = np.array([float(mp.erfc(v) * mp.exp(mp.mpf(v) ** 2)) for v in x])
        c = rounded_fit(u, f, deg, range(1, deg + 1))
        c0 = fit_poly_fixed(u, f, deg, c)[1][0]
        c0h = float(np.float32(c0))
        c0l = float(np.float32(c0 - c0h))
        errs.append(np.abs((sum(c[j] * u ** j for j in range(1, deg + 1)) + c0h + c0l) / f - 1).max())
        cols.append([c[j] for j in range(deg, 0, -1)] + [c0l, c0h])
    rows = [[cols[p][j] for p in range(8)] for j in range(deg + 2)]
    return piece_table("kErfcxTableF", rows, "erfcx pieces: max rel. errors " +
                       ", ".join(f"{e:.1e}" for e in errs))


if __name__ == "__main__":
    print(erfinv_f32())
    print(ndtri_pieces())
    print(erfcx_g_f32())
    print(erf_f32_pieces())
    print(erf_f32_table())
    print(erfcx_f32_table())
