"""Derive the piecewise-polynomial tables of the float32 tanh kernel
(arraycore/native/src/kernels/tanh_pieces.h).

The argument a = |x| (clamped at 9.1, where tanh rounds to 1) is cut at the fractions of the
octaves of t = fma(a, 1.640625, 1), which lies in [1, 16): quarter octaves, 16 pieces
(AVX-512: a table row is one zmm register, read by vpermps with bits(t) >> 21 as the index,
of which the permutation reads the low 4 bits), or half octaves, 8 pieces (AVX2: one ymm
register per row, bits(t) >> 22).  Piece 0 is [0, 0.152) (AVX-512) or [0, 0.305) (AVX2).

On every piece, with u = a - mid_k:   tanh(a) = hi_k + u P_k(u)   (one FMA at the end), where
  mid_k  is a float in the middle half of the piece whose tanh lies within 2^-12 ulp of a
         float, hi_k (found by search), so that the constant needs no low part;
  P_k    ~ (tanh(a) - tanh(mid_k))/u, of degree DEG (6 for 16 pieces, 8 for 8);
  piece 0: mid = hi = 0 and P_0 ~ tanh(a)/a = 1 + a^2 Q(a) with the coefficients of degree 1
         and 0 exactly 0 and 1, so that a zero or subnormal a maps to itself.

Fit: least squares in mpmath (40 digits) on 4 DEG + 8 Chebyshev nodes of the piece, widened
by 1e-5 of its width (near-minimax; t's rounding may put a lane an ulp across an edge),
monomials in u, coefficients rounded to float32 one at a
time from the highest degree down, each rounding compensated by refitting the lower ones.
The script prints, per piece, the max error of the float evaluation (emulated in numpy with
float32 rounding after each step, as the kernel's FMAs) over a dense grid, in ulps of the
result; the exhaustive check over every float is tools/check_tanh_f32.py.

Run:  python tools/gen_tanh_f32_pieces.py      (a few seconds)
Output: the C++ tables pasted into tanh_pieces.h.
"""
import mpmath as mp
import numpy as np

mp.mp.dps = 40
CLAMP = 9.1
SCALE = 1.640625  # t = fma(a, SCALE, 1) < 16 for a <= CLAMP: 16 quarter or 8 half octaves


def cuts(per_octave, pieces):
    """The pieces [lo, hi) of a, in slot order (slot = piece index mod pieces, as the
    permutation reads it): t = fma(a, SCALE, 1) in [1, 16) is cut at fractions 1/per_octave
    of its octaves; the last piece runs to CLAMP."""
    out = []
    for j in range(pieces):
        e, q = divmod(j, per_octave)
        t_lo = 2.0 ** e * (1 + q / per_octave)
        t_hi = 2.0 ** e * (1 + (q + 1) / per_octave)
        out.append(((t_lo - 1) / SCALE, CLAMP if j == pieces - 1 else (t_hi - 1) / SCALE))
    return out


def cheb_nodes(lo, hi, n):
    return [mp.mpf(lo) + (mp.mpf(hi) - lo) * (1 + mp.cos(mp.pi * (i + mp.mpf(1) / 2) / n)) / 2
            for i in range(n)]


def lsq(xs, ys, powers):
    """Least squares (on Chebyshev nodes: near-minimax) of ys by sum c_p x^p, p in powers."""
    A = mp.matrix([[x ** p for p in powers] for x in xs])
    y = mp.matrix(ys)
    c = mp.lu_solve(A.T * A, A.T * y)
    return [c[i] for i in range(len(powers))]


def fit_rounded(xs, ys, powers):
    """Coefficients for `powers` (highest first) rounded to float32 one at a time, the others
    refitted to compensate."""
    fixed = {}
    rest = list(powers)
    while rest:
        resid = [y - sum(mp.mpf(c) * x ** p for p, c in fixed.items()) for x, y in zip(xs, ys)]
        c = lsq(xs, resid, rest)
        fixed[rest[0]] = float(np.float32(float(c[0])))
        rest = rest[1:]
    return [fixed[p] for p in powers]


def f32(v):
    return np.asarray(v, dtype=np.float64).astype(np.float32).astype(np.float64)


def horner32(coef, u):
    p = np.full_like(u, coef[0])
    for c in coef[1:]:
        p = f32(p * u + c)  # float64 product of floats is exact: one rounding, as an FMA
    return p


def good_mid(lo, hi):
    """A float in the middle half of [lo, hi] whose tanh lies within 2^-12 ulp of a float
    (found by a search), so that hi_k = that float is tanh(mid) to 36 bits."""
    cand = np.unique(f32(np.linspace(lo + (hi - lo) / 4, hi - (hi - lo) / 4, 400001)))
    t = np.tanh(cand)
    frac = np.abs(t - f32(t)) / np.spacing(f32(t))
    for i in np.argsort(frac)[:20]:  # confirm in 40 digits
        m = float(cand[i])
        tm = mp.tanh(m)
        h = float(np.float32(float(tm)))
        if abs(tm - h) < mp.mpf(2) ** -12 * float(np.spacing(np.float32(h))):
            return m, h
    raise RuntimeError("no mid found")


def table(per_octave, pieces, deg):
    rows = [[0.0] * pieces for _ in range(deg + 3)]  # mid, c_deg..c_0, hi
    errs = []
    slot0 = (0x3F800000 >> (23 - {4: 2, 2: 1}[per_octave])) % pieces  # t = 1: piece 0
    spans = cuts(per_octave, pieces)
    for j, (lo_e, hi_e) in enumerate(spans):
        k = (slot0 + j) % pieces
        mid, hi_c = good_mid(lo_e, hi_e) if j else (0.0, 0.0)
        # fitted a little beyond the ends: t's rounding may put a lane one ulp across
        w = (hi_e - lo_e) * 1e-5
        us = [x - mid for x in cheb_nodes(max(lo_e - w, 0), hi_e + w, 4 * deg + 8)]
        ys = [(mp.tanh(mid + u) - mp.tanh(mid)) / u for u in us]
        if j:
            c = fit_rounded(us, ys, list(range(deg, -1, -1)))
        else:  # tanh(a)/a = 1 + a^2 Q(a): c_1 = 0 and c_0 = 1 exactly
            ys = [(y - 1) / (u * u) for u, y in zip(us, ys)]
            c = fit_rounded(us, ys, list(range(deg - 2, -1, -1))) + [0.0, 1.0]
        rows[0][k] = mid
        for i, ci in enumerate(c):
            rows[1 + i][k] = ci
        rows[deg + 2][k] = hi_c
        a = f32(np.linspace(lo_e, hi_e, 200001)[1:])
        u = f32(a - mid)
        r = f32(horner32(c, u) * u + hi_c)  # one FMA
        errs.append(ulp_err(a, r))
    return spans, rows, errs


def ulp_err(a, r):
    ref_full = np.tanh(a)  # float64 tanh: far below float32's ulp
    ulp = np.spacing(np.abs(ref_full).astype(np.float32)).astype(np.float64)
    return float(np.max(np.abs(r - ref_full) / ulp))


def hexf(v):
    """A float32 value as a C++ hex-float literal, 0x1.xxxxxxp+e (6 hex digits)."""
    if v == 0:
        return "0.0f"
    m, e = float(np.float32(v)).hex().split("p")
    m = (m + "000000")[: m.index(".") + 7]
    return f"{m}p{e}f"


def emit(name, rows, pieces):
    print(f"inline constexpr float {name}[{len(rows)}][{pieces}] = {{")
    for j, row in enumerate(rows):
        cells = ", ".join(hexf(v) for v in row)
        print(f"    {{{cells}}}" + ("," if j + 1 < len(rows) else "};"))


def main():
    for name, per_oct, pieces, deg in (("kTanhPieces16", 4, 16, 6), ("kTanhPieces8", 2, 8, 8)):
        spans, rows, errs = table(per_oct, pieces, deg)
        print(f"// {name}: pieces (from t = 1 on) {[round(lo, 4) for lo, _ in spans]}, degree {deg}")
        print("// max error per piece (ulp of the result, float evaluation):",
              " ".join(f"{e:.3f}" for e in errs))
        emit(name, rows, pieces)


if __name__ == "__main__":
    main()
