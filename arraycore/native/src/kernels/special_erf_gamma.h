// Shared cores of the erf_gamma special-function kernels (special_erf_gamma*.cpp): the
// error function family and the gamma family, in double precision (float kernels evaluate
// these in double and round once, except where a float-only fast path exists).
//
// Everything here lives in namespace special::erf_gamma (the other families define helpers of
// the same names).  Functions whose name ends in _v are branch-free (selects only, no libm
// calls) so that loops over them vectorize; the others are the scalar paths used for the rare
// blocks (and for the functions that are iterative by nature).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "../simd_math.h"
#include "special_common.h"
#include "special_erf_gamma_coeffs.h"

// Forced inlining of the vectorizable cores (the _v functions, poly, select_bits,
// lgamma_pos_t) and of the kernels' `apply`: a loop vectorizes only when its whole body is
// inlined, and GCC's inliner leaves calls in these large units (measured: gammaln's loop
// kept a call to lgamma_pos_t under `flatten` and ran scalar, ~10x slower).  Forcing each
// level inline (as simd_math's AC_SIMD_INLINE does) makes `flatten` unnecessary.
#define AC_EG_VEC AC_SIMD_INLINE
#define AC_EG_FAST [[gnu::always_inline]]

// Kernel structs for the op table (kernel_loops.h): float evaluates in double and rounds
// once, double directly.  AC_EG_UNARY/BINARY are for the scalar (iterative) paths, whose
// loops do not vectorize anyway; AC_EG_UNARY_FAST for branch-free ones.
#define AC_EG_UNARY(Name, fn)                                            \
  struct Name {                                                          \
    template <class T> static T apply(T x) {                             \
      return static_cast<T>(fn(static_cast<double>(x)));                 \
    }                                                                    \
  };
#define AC_EG_UNARY_FAST(Name, fn)                                       \
  struct Name {                                                          \
    template <class T> AC_EG_FAST static T apply(T x) {                  \
      return static_cast<T>(fn(static_cast<double>(x)));                 \
    }                                                                    \
  };
#define AC_EG_BINARY(Name, fn)                                           \
  struct Name {                                                          \
    template <class T> static T apply(T a, T b) {                        \
      return static_cast<T>(fn(static_cast<double>(a), static_cast<double>(b))); \
    }                                                                    \
  };

namespace arraycore::native::special::erf_gamma {

inline constexpr double kPi = 3.141592653589793;
inline constexpr double kLnPi = 1.1447298858494002;
inline constexpr double kLn2 = 0.6931471805599453;
inline constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;  // ln 2 = kLn2Hi + kLn2Lo
inline constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
inline constexpr double kSqrt2 = 1.4142135623730951;
inline constexpr double kInvSqrt2 = 0.7071067811865476;
inline constexpr double kTwoOverSqrtPi = 1.1283791670955126;
inline constexpr double kSqrtPiOver2 = 0.8862269254527580;
inline constexpr double kLnSqrt2PiMinusHalf = 0.41893853320467274;  // ln sqrt(2 pi) - 1/2
inline constexpr double kEulerGamma = 0.5772156649015329;
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// positive zero of psi, x0 = kPsiRootHi + kPsiRootLo (mpmath.findroot at 40 digits)
inline constexpr double kPsiRootHi = 0x1.762d86356be3fp+0;
inline constexpr double kPsiRootLo = 0x1.b86a722197829p-54;

// poly (Horner, fully unrolled) and select_bits (a bit blend) are special_common.h's; the
// kernels call them as eg::poly, eg::select_bits.
using special::poly;
using special::select_bits;

inline bool is_nonpos_int(double x) { return x <= 0 && x == std::floor(x); }
inline bool is_int(double x) { return x == std::floor(x); }

// ---------------------------------------------------------------------------------------
// Error function family
// ---------------------------------------------------------------------------------------

// erfcx(x) for x >= 0 (and +inf -> 0): (f(t)/2) / (x + 1/2) with f = (1 + 2x) erfcx(x) as a
// polynomial in t = (x - K)/(x + K) = 1 - 2K/(x + K).
AC_EG_VEC double erfcx_pos_v(double x) {
  const double t = 1.0 - 7.5 / (x + 3.75);
  return 0.5 * poly(t, kErfcxD) / (x + 0.5);
}

// Reciprocal and square root of a double without vdivpd/vsqrtpd (on Skylake-class cores a
// 512-bit double division or square root costs 2-4x its float counterpart and covers half
// the lanes): a float seed (24 bits), then Newton steps in double.  recip_fast: two steps
// (24 -> 48 -> full bits), within 1 ulp; sqrt_fast: one rsqrt step (48 bits) and one
// correction of the root, within 1 ulp.  The argument must convert to a normal float
// (2^-126 <= |d| < 2^128): the callers' arguments are bounded.
AC_EG_VEC double recip_fast(double d) {
  double y = 1.0f / static_cast<float>(d);
  y = simd_math::detail::fma(y, simd_math::detail::fma(-d, y, 1.0), y);
  return simd_math::detail::fma(y, simd_math::detail::fma(-d, y, 1.0), y);
}
AC_EG_VEC double sqrt_fast(double a) {  // a > 0
  const double y0 = 1.0f / std::sqrt(static_cast<float>(a));
  const double y = y0 * simd_math::detail::fma(-0.5 * a * y0, y0, 1.5);  // 1/sqrt(a)
  const double r = a * y;
  return simd_math::detail::fma(0.5 * y, simd_math::detail::fma(-r, r, a), r);
}

// erfcx_pos_v for the callers that multiply it by exp(-x^2) (erfc, ndtr, erf): x is clamped at
// 40 (the product is 0 from 27.3 on; a NaN passes), the two divisions become one float-seeded reciprocal of their product, and the
// expansion stops at degree 22 (kErfcxD22: 3.4e-16 against 3.1e-16 at degree 26).
AC_EG_VEC double erfcx_pos_clamped_v(double x) {
  const double xc = select_bits(x > 40.0, 40.0, x);  // (a ?: clamp here stops vectorization)
  const double a = xc + 3.75, b = xc + 0.5;
  const double inv = recip_fast(a * b);
  const double t = 1.0 - 7.5 * (b * inv);
  return 0.5 * poly(t, kErfcxD22) * (a * inv);
}

// exp(x^2) for x >= 0 with x^2 = hi + lo exactly (fma), so the large argument carries no
// rounding error: exp(hi) (1 + lo).  x is clamped at 27.5, beyond which it overflows.
// (The clamp is applied to the square and its error term, not to x: a clamp followed by
// arithmetic gets distributed into the select arms by GCC, which then does not vectorize.)
AC_EG_VEC double exp_x2_v(double x) {
  const double h0 = x * x;
  const double l0 = simd_math::detail::fma(x, x, -h0);
  const bool ok = h0 < 800.0;
  const double hi = ok ? h0 : 800.0;
  const double lo = select_bits(ok, l0, 0.0);
  return simd_math::exp(hi) * (1.0 + lo);
}

// erf(x)/x for |x| <= 1 as a polynomial in x^2.
AC_EG_VEC double erf_small_v(double x) {
  return x * poly(2.0 * (x * x) - 1.0, kErfSmallD);
}

// erfc(|x|) (relative accuracy for every x, underflowing to 0 beyond 27.3): erfcx(z) exp(-z^2)
// with z = min(|x|, 27.3) clamped once (erfc underflows from 27.23; NaN stays), z^2 = hi + lo
// exact (fma), exp(-hi - lo) with simd_math's reduction and polynomial but no clamps of its
// own (-hi >= -745.3), erfcx entering as e + e (e^r - 1) (one rounding) before the power of
// two, applied as 2^(k + 1000) 2^-1000 (so subnormal results are rounded once).  erfcx's two
// divisions are one vdivpd here, not recip_fast's float seed and two Newton steps: on Zen 5
// the division is cheaper at both widths (1e6 erfc float64, one thread: 256-bit 2.83 -> 2.34
// ms, 512-bit 1.51 -> 1.25).  Against exp_mx2_v(|x|) erfcx_pos_clamped_v(|x|) (three clamps,
// two more roundings, degree 26): 3.8 -> 2.34 ms on 256-bit vectors, 1.96 -> 1.25 on 512.
AC_EG_VEC double erfc_abs_v(double x) {
  using simd_math::detail::fma;
  using simd_math::detail::bit_cast;
  const double ax = std::fabs(x);
  const double z = select_bits(ax > 27.3, 27.3, ax);
  const double a = z + 3.75, b = z + 0.5;
  const double h = 0.5 / (a * b);  // (a division: below)
  const double t = 1.0 - 15.0 * (b * h);
  const double e = poly(t, kErfcxD22) * (a * h);  // erfcx(z), erfcx_pos_clamped_v's bits
  const double hi = z * z;
  const double lo = fma(z, z, -hi);
  constexpr double kLog2e = 0x1.71547652b82fep+0, kShift = 0x1.8p52;
  const double kf = fma(-hi, kLog2e, kShift);
  const uint64_t ku = bit_cast<uint64_t>(kf) - bit_cast<uint64_t>(kShift);  // k in [-1076, 0]
  const double k = kf - kShift;
  const double rh = fma(-k, simd_math::detail::kLn2HiD, -hi);
  const double rl = fma(-k, simd_math::detail::kLn2LoD, -lo);
  const double r = rh + rl;
  const double q = fma(r * r, simd_math::detail::exp_poly(r), rl);
  const double s = bit_cast<double>((ku + (1023 + 1000)) << 52);
  return (fma(e, rh + q, e) * s) * 0x1p-1000;
}

AC_EG_VEC double erf_v(double x) {
  const double ax = std::fabs(x);
  const double small = erf_small_v(x);
  const double large = std::copysign(1.0 - erfc_abs_v(ax), x);
  return select_bits(ax < 1.0, small, select_bits(x != x, x, large));
}

// erf for float results, in float (16 lanes), both pieces on every lane: |x| < 1.5:
// x P(x^2 - 1.125) (kErfF1, degree 8); 1.5 <= |x| < 3.92: 1 - Q(|x| - 2.71), Q ~ erfc to
// 7e-9 absolutely (kErfcF2, degree 12; erfc <= 0.034 there, so float rounding in Q stays far
// below the result's ulp); beyond, +-1 (erf rounds to 1 from 3.92).  Max 1.9 ulp measured
// (5e6 points; the double rational fit it replaced was 0.51 ulp at 1.8x the time, and float
// Horner in the centered variable x^2/4.5 - 1 on |x| < 3 was 2.9 ulp).  NaN passes through.
AC_EG_VEC float erf_f(float x) {
  const float ax = std::fabs(x);
  const float small = ax * poly(ax * ax - 1.125f, kErfF1);
  const float mid = 1.0f - poly(ax - 2.71f, kErfcF2);
  const float r = select_bits(ax < 1.5f, small, select_bits(ax >= 3.92f, 1.0f, mid));
  return std::copysign(r, x);
}

// Float results of erfc and ndtr (Note [Float erfc]): erfcx(z) for z in [0, 10.5] to 1.5e-8
// relative, without a double division (vdivpd is 2-4x the cost of vdivps and covers half the
// lanes): (z + 3) erfcx(z) = G(t), t = (z - 3)/(z + 3), a degree-9 polynomial (2.4e-9), and
// 1/(z + 3) from a float reciprocal refined by one Newton step in double (relative error
// squared: 1e-7 -> 1e-14).  G's terms of degree 3 and up run in float on all the float lanes
// (kErfcxGF, in tf, t to ~2e-7), the last three Horner steps in double (kErfcxGD): those
// terms make at most 0.3 of G (at t = -1), so the float part's rounding reaches G scaled
// down (1.5e-8 measured against 2.4e-9 all in double), and the double lanes carry 3 fmas
// instead of 10.  zf is z in float (rounded or exact), z in double (exact for erfc).
AC_EG_VEC double erfcx_g_v(double z, float zf) {  // 0 <= z <= 10.5
  const float inv0 = 1.0f / (zf + 3.0f);
  const float tf = (zf - 3.0f) * inv0;
  const float hf = poly(tf, kErfcxGF);
  const double inv = inv0 * (2.0 - (z + 3.0) * inv0);
  const double t = (z - 3.0) * inv;
  using simd_math::detail::fma;
  return fma(fma(fma(static_cast<double>(hf), t, kErfcxGD[0]), t, kErfcxGD[1]), t, kErfcxGD[2]) * inv;
}
// Note [Float erfc]: erfc(|x|) = exp(-x^2) erfcx(|x|) with x^2 = hi + lo split exactly in
// float (FMA), exp(-hi - lo) in float (16 lanes, lo folded into the reduced argument) and
// erfcx(|x|) from erfcx_g_v, their product in double and rounded once: max 1.7 ulp measured
// (4e6 points), at half the time of the all-double form.  A float erfcx instead (a rational
// in x, or G in float) measured 4.6-5 ulp: its roundings add up (rationals in x with positive
// coefficients too: 4.7 ulp in a float emulation).  Beyond |x| = 10.2 exp is 0 (erfc
// underflows in float from 10.06), so erfcx is only needed up to the clamp at 10.5.
// hi >= 200 (or inf) drops lo, which would be NaN at inf; NaN passes through exp.
// (erfc's float kernel on builds without AVX2; the others run special_erf_gamma_pieces.h.)
AC_EG_VEC float erfc_f(float x) {
  const float ax = std::fabs(x);
  const float hi = ax * ax;
  const float lo = select_bits(hi < 200.0f, simd_math::detail::fma(ax, ax, -hi), 0.0f);
  const float e = simd_math::exp(-hi, -lo);
  const float z = select_bits(ax < 10.5f, ax, 10.5f);
  const float r = static_cast<float>(e * erfcx_g_v(z, z));
  return select_bits(x < 0, 2.0f - r, r);
}
// ndtr for float results: h = erfc(|x|/sqrt 2)/2 as erfc_f, with x^2/2 = hi/2 + lo/2 (exact
// halves) and z = |x|/sqrt 2 in double; 1 - h above 0.
AC_EG_VEC float ndtr_f(float x) {
  const float ax = std::fabs(x);
  const float hi = ax * ax;
  const float lo = select_bits(hi < 400.0f, simd_math::detail::fma(ax, ax, -hi), 0.0f);
  const float e = simd_math::exp(-0.5f * hi, -0.5f * lo);
  const float a = select_bits(ax < 14.8f, ax, 14.8f);
  const double z = static_cast<double>(a) * kInvSqrt2;
  const float h = static_cast<float>(0.5 * e * erfcx_g_v(z, a * static_cast<float>(kInvSqrt2)));
  return select_bits(x < 0, h, 1.0f - h);
}

AC_EG_VEC double erfc_v(double x) {
  const double e = erfc_abs_v(x);
  return select_bits(x < 0, 2.0 - e, e);  // NaN: e is NaN
}

AC_EG_VEC double erfcx_v(double x) {
  const double e = erfcx_pos_v(std::fabs(x));
  // x < 0: 2 exp(x^2) - erfcx(-x) (overflows to +inf below -26.6)
  return select_bits(x < 0, 2.0 * exp_x2_v(x) - e, e);
}

// ndtr(x) = erfc(-x/sqrt 2)/2: h = erfc(|x|/sqrt 2)/2 with exp(-x^2/2) from the exact square
// of x, then h or 1 - h.
AC_EG_VEC double ndtr_tail_v(double x) {  // erfc(|x|/sqrt 2)/2
  const double ax = std::fabs(x);
  const double h0 = x * x;
  const double l0 = simd_math::detail::fma(x, x, -h0);
  const bool ok = h0 < 3200.0;
  const double hi = select_bits(ok, h0, 3200.0);
  const double lo = select_bits(ok, l0, 0.0);
  const double e = simd_math::exp(-0.5 * hi) * (1.0 - 0.5 * lo);
  return 0.5 * e * erfcx_pos_clamped_v(ax * kInvSqrt2);
}
AC_EG_VEC double ndtr_v(double x) {
  const double h = ndtr_tail_v(x);
  return select_bits(x < 0, h, 1.0 - h);
}

// log_ndtr: x < 0: log(erfc(z)/2) = -x^2/2 - ln 2 + log(erfcx(z)), z = -x/sqrt 2 (no
// underflow for any x); x >= 0: log1p(-erfc(z)/2).
// One erfcx serves both sides (ndtr_tail_v's form, unclamped: the x < 0 side needs it for
// every x).
AC_EG_VEC double log_ndtr_v(double x) {
  const double ex = erfcx_pos_v(std::fabs(x) * kInvSqrt2);
  const double h0 = x * x;
  const double l0 = simd_math::detail::fma(x, x, -h0);
  const bool ok = h0 < 3200.0;
  const double e = simd_math::exp(-0.5 * select_bits(ok, h0, 3200.0)) *
                   (1.0 - 0.5 * select_bits(ok, l0, 0.0));
  const double pos = simd_math::log1p(-0.5 * e * ex);
  const double lo = select_bits(h0 < kInf, l0, 0.0);
  const double neg = (-0.5 * h0 - kLn2) + (-0.5 * lo + simd_math::log(ex));
  return select_bits(x < 0, neg, pos);  // NaN: pos is NaN
}

// Inverse of erf on |x| < 0.5 (|result| < 0.477): Halley's iteration on erf(z) - x from the
// series z0 = sqrt(pi)/2 (x + pi x^3/12); three steps take the error from 1e-2 to far below
// rounding.  erf(z) is the small-argument polynomial there.
inline double erfinv_central(double x) {
  double z = kSqrtPiOver2 * x * (1.0 + 0.2617993877991494 * x * x);
  for (int i = 0; i < 3; ++i) {
    const double u = (erf_small_v(z) - x) * kSqrtPiOver2 * std::exp(z * z);
    z -= u / (1.0 + z * u);
  }
  return z;
}

// The z >= 0.47 with log(erfc(z)) = L, for L <= log(1/2) (also L = -inf -> +inf): Halley's
// iteration on g(z) = log(erfcx(z)) - z^2 - L, which is concave and decreasing with
// g' = -w, w = (2/sqrt pi)/erfcx(z), g'' = w (2z - w).  The start is the asymptotic
// z^2 = -L - log(-L)/2 - log(pi)/2 (kept >= 0.2); four steps reach full precision from
// L = log(1/2) (start error 0.07) to L = -1e300.  Working in log space keeps it exact for
// erfc values down to the smallest subnormal and beyond (ndtri_exp).
inline double erfcinv_tail_log(double L) {
  if (L != L) return L;
  if (L == -kInf) return kInf;
  const double nl = -L;
  double z2 = nl - 0.5 * std::log(nl) - 0.5 * kLnPi;
  double z = std::sqrt(z2 > 0.2 ? z2 : 0.2);
  for (int i = 0; i < 4; ++i) {
    const double e = erfcx_pos_v(z);
    const double g = std::log(e) - z * z - L;
    const double w = kTwoOverSqrtPi / e;
    const double d = g / w;  // -g/g'
    z += d / (1.0 - 0.5 * d * (2.0 * z - w));
  }
  return z;
}

// Branch-free forms for loops over open domains; the callers pick the branch by a select and
// leave the endpoints and NaN to the scalar functions (needs_exact).
// ndtri on (0, 1) from three rational fits of degree 7/7 (kNdtriP; the pieces of Wichura's
// AS241), every lane through one Horner pass with its piece's coefficients selected: no
// iteration.  Max relative error of the fits 8e-17.  ndtri_ratio_v takes q = p - 1/2 and
// m = min(p, 1 - p), both exact for its callers, and returns the fit R: ndtri = q R on the
// central piece (|q| <= 0.425), +-R in the tails.  Every lane pays for the tails' log and
// square root, so for double results those and the division are float-seeded (sqrt_fast,
// recip_fast: erfinv 10.6 -> 8.9 ms per 1e6 on a Cascade Lake); float results (Seeded =
// false) keep vsqrtpd/vdivpd, which measured 20% faster there than the seeds' conversions
// on twice the registers.
template <std::size_t N>
AC_EG_VEC double poly_piece3(double u, bool one, bool two, const double (&c)[3][N]) {
  double r = select_bits(two, c[2][0], select_bits(one, c[1][0], c[0][0]));
#pragma GCC unroll 16
  for (std::size_t i = 1; i < N; ++i)
    r = simd_math::detail::fma(r, u, select_bits(two, c[2][i], select_bits(one, c[1][i], c[0][i])));
  return r;
}
template <bool Seeded>
AC_EG_VEC double ndtri_ratio_v(double q, double m, bool central) {
  const double tail = select_bits(central, 0.25, m);
  const double l = -simd_math::log(tail);  // in [0.69, 691]
  const double r = Seeded ? sqrt_fast(l) : std::sqrt(l);
  const bool one = !central & (r <= 5.0);
  const bool two = !central & (r > 5.0);
  const double u = select_bits(central, 1.0 - q * q * (1.0 / 0.180625),
                               select_bits(two, (r - 5.0) * (1.0 / 22.3), (r - 1.6) * (1.0 / 3.4)));
  const double num = poly_piece3(u, one, two, kNdtriP);
  const double den = poly_piece3(u, one, two, kNdtriQ);
  return Seeded ? num * recip_fast(den) : num / den;
}
// ndtri_ratio_v on its central piece alone (the same arithmetic, so the same bits): for the
// loops that run the central piece by itself on the lanes inside it.
template <bool Seeded>
AC_EG_VEC double ndtri_central_ratio_v(double q) {  // |q| <= 0.425
  const double u = 1.0 - q * q * (1.0 / 0.180625);
  const double num = poly(u, kNdtriP[0]), den = poly(u, kNdtriQ[0]);
  return Seeded ? num * recip_fast(den) : num / den;
}
template <bool Seeded = true>
AC_EG_VEC double ndtri_v(double p) {  // 0 < p < 1
  const double q = p - 0.5;
  const bool central = std::fabs(q) <= 0.425;
  const double ratio = ndtri_ratio_v<Seeded>(q, select_bits(q < 0, p, 1.0 - p), central);
  return select_bits(central, q * ratio, select_bits(q < 0, -ratio, ratio));
}
// erfinv(x) = ndtri((1 + x)/2)/sqrt 2 with q = x/2 and m = (1 - |x|)/2, both exact (1 + x
// is never formed); the central piece as x (R/(2 sqrt 2)), which keeps subnormal x exact.
AC_EG_VEC double erfinv_v(double x) {  // 0 < |x| < 1
  const double ax = std::fabs(x);
  const bool central = ax <= 0.85;
  const double ratio = ndtri_ratio_v<true>(0.5 * x, 0.5 * (1.0 - ax), central);
  return select_bits(central, x * (ratio * (0.5 * kInvSqrt2)),
                     std::copysign(ratio * kInvSqrt2, x));
}
// erfinv for float results, in float (16 lanes): x P_k(w - c_k), w = -ln(1 - x^2), two
// degree-10 polynomials selected per lane (kErfinvF: w < 5 about 0, w >= 5 about 11; the
// float domain ends at w = 16.6).  1 - x^2 is one FMA (relative error 2^-24, so w is off by
// at most 6e-8 absolutely, which moves erfinv by under 0.3 ulp: its sensitivity to w is
// below 1/(2w) in the tail and 0.3 near 0).  Max 2.1 ulp measured (3e6 points); the same
// polynomials in double gave 1.0 ulp at twice the time.  (Estrin's scheme instead of
// Horner's: 3.7 ulp and slower, the loop is bound by throughput, not latency.)
// Every input, so the float loop needs no fallback scan: |x| > 1, +-inf and NaN make
// 1 - x^2 negative or NaN and the log NaN; +-1 give +-inf by a select; +0 is added so that
// -0 gives +0 (SciPy).
AC_EG_VEC float erfinv_f(float x) {
  const float w = -simd_math::log(simd_math::detail::fma(-x, x, 1.0f));
  const bool hi = w >= 5.0f;
  const float t = w - (hi ? 11.0f : 0.0f);
  // (Plain selects of constants: select_bits would rebuild each constant in the loop.)
  float r = hi ? kErfinvF[1][0] : kErfinvF[0][0];
#pragma GCC unroll 16
  for (int i = 1; i < 11; ++i)
    r = simd_math::detail::fma(r, t, hi ? kErfinvF[1][i] : kErfinvF[0][i]);
  const float inf = std::numeric_limits<float>::infinity();
  return select_bits(std::fabs(x) == 1.0f, std::copysign(inf, x), x * r + 0.0f);
}
// erfcinv(y) = -ndtri(y/2)/sqrt 2 (y/2 exact).
template <bool Seeded = true>
AC_EG_VEC double erfcinv_v(double y) {  // 0 < y < 2
  return -kInvSqrt2 * ndtri_v<Seeded>(0.5 * y);
}

inline double erfinv(double x) {
  const double ax = std::fabs(x);
  if (!(ax <= 1.0)) return kNaN;  // also NaN
  if (x == 0) return 0.0;         // SciPy: +0 for both zeros
  if (ax < 0.5) return erfinv_central(x);
  // 1 - |x| is exact for |x| >= 1/2
  return std::copysign(erfcinv_tail_log(std::log(1.0 - ax)), x);
}

inline double erfcinv(double y) {
  if (!(y >= 0.0 && y <= 2.0)) return kNaN;
  if (y <= 0.5) return erfcinv_tail_log(std::log(y));
  if (y >= 1.5) return -erfcinv_tail_log(std::log(2.0 - y));  // 2 - y exact
  return -erfinv_central(y - 1.0);  // exact; y = 1 gives -0 (SciPy)
}

// ndtri(p) = -sqrt2 erfcinv(2p) = sqrt 2 erfinv(2p - 1).
inline double ndtri(double p) {
  if (!(p >= 0.0 && p <= 1.0)) return kNaN;
  if (p <= 0.25) return -kSqrt2 * erfcinv_tail_log(std::log(2.0 * p));
  if (p >= 0.75) return kSqrt2 * erfcinv_tail_log(std::log(2.0 * (1.0 - p)));  // exact
  return kSqrt2 * erfinv_central(2.0 * p - 1.0);                               // exact
}

// ndtri(exp(y)) for y <= 0 without forming exp(y) where it would lose information.
inline double ndtri_exp(double y) {
  if (!(y <= 0.0)) return kNaN;
  if (y < -1.3862943611198906) {  // p < 1/4: log(2p) = y + ln 2
    return -kSqrt2 * erfcinv_tail_log(y + kLn2);
  }
  if (y > -0.2876820724517809) {  // p > 3/4: 2(1 - p) = -2 expm1(y)
    return kSqrt2 * erfcinv_tail_log(std::log(-2.0 * std::expm1(y)));
  }
  // 2p - 1 = expm1(y + ln 2), y + ln2 to double-double accuracy (exact near -ln 2)
  const double t = (y + kLn2Hi) + kLn2Lo;
  return kSqrt2 * erfinv_central(std::expm1(t));
}

// ---------------------------------------------------------------------------------------
// Gamma family
// ---------------------------------------------------------------------------------------

// Stirling's correction lgamma(x) - ((x - 1/2) log x - x + log sqrt(2 pi)) =
// sum_k B_2k / (2k (2k - 1) x^(2k-1)) (DLMF 5.11.1), 9 terms: < 1e-17 relative for x >= 8.
inline constexpr double kStirlingD[] = {
    0.17964437236883057,  -2.955065359477124e-2, 6.41025641025641e-3,
    -1.9175269175269176e-3, 8.417508417508418e-4, -5.952380952380952e-4,
    7.936507936507937e-4, -2.777777777777778e-3, 8.333333333333333e-2};
// 4 terms: < 1e-11 relative for x >= 8 (float results)
inline constexpr double kStirlingF[] = {-5.952380952380952e-4, 7.936507936507937e-4,
                                        -2.777777777777778e-3, 8.333333333333333e-2};

inline double stirling_corr(double x) {
  const double r = 1.0 / x;
  return r * poly(r * r, kStirlingD);
}

// The reduction of x < 8 to p in [-0.5, 1] shared by lgamma_pos_t and gamma_parts: the
// region flags (x < 0.5, < 1.5, < 3), p, and prod = (x - 1) ... (x - k) for x in [3, 8)
// (1 below 4).  big (x >= 8) replaces x by 3 so the small-x arithmetic stays finite.
struct SmallGammaArg {
  bool big, r0, r1, r2;
  double xs, p, prod;
};
AC_EG_VEC SmallGammaArg small_gamma_arg(double x) {
  const bool big = x >= 8.0;
  const double xs = select_bits(big, 3.0, x);
  const bool r0 = xs < 0.5, r1 = xs < 1.5, r2 = xs < 3.0;
  // floor(xs) for xs in [3, 8) by comparisons (floor itself does not vectorize under
  // -ftrapping-math)
  const bool g4 = xs >= 4.0, g5 = xs >= 5.0, g6 = xs >= 6.0, g7 = xs >= 7.0;
  const double fl = 3.0 + select_bits(g4, 1.0, 0.0) + select_bits(g5, 1.0, 0.0) +
                    select_bits(g6, 1.0, 0.0) + select_bits(g7, 1.0, 0.0);
  double prod = xs - 1.0;
  prod *= select_bits(g4, xs - 2.0, 1.0);
  prod *= select_bits(g5, xs - 3.0, 1.0);
  prod *= select_bits(g6, xs - 4.0, 1.0);
  prod *= select_bits(g7, xs - 5.0, 1.0);
  const double p = select_bits(
      r0, xs, select_bits(r1, xs - 1.0, select_bits(r2, xs - 2.0, xs - fl)));
  return {big, r0, r1, r2, xs, p, prod};
}

// lgamma(x) for x > 0 (finite or +inf), branch-free (selects only, so loops vectorize).
// x >= 8: Stirling, written (x - 1/2)(log x - 1) + (log sqrt(2 pi) - 1/2) + S(x) so nothing
// overflows before the result does.  x < 8: lgamma(2 + p) = p Q(p), p in [-0.5, 1], plus
// the log of the recurrence factors:
//   x in (0, 0.5):   p = x,          - log(x (1 + x))
//   x in [0.5, 1.5): p = x - 1,      - log(x)      (p exact: relative accuracy at x = 1)
//   x in [1.5, 3):   p = x - 2                     (relative accuracy at x = 2)
//   x in [3, 8):     p = x - k - 2,  + log((x - 1) ... (x - k)),  k = floor(x) - 2
// and one log serves both regions.  Q and S pick the precision (float results: lower
// degrees).
template <const auto& Q, const auto& S>
AC_EG_VEC double lgamma_pos_t(double x) {
  const auto [big, r0, r1, r2, xs, p, prod] = small_gamma_arg(x);
  const double arg =
      select_bits(r0, xs * (1.0 + xs), select_bits(r1, xs, select_bits(r2, 1.0, prod)));
  const double sgn = select_bits(r1, -1.0, select_bits(r2, 0.0, 1.0));
  const double L = simd_math::log(select_bits(big, x, arg));
  const double small = p * poly(p * (4.0 / 3.0) - (1.0 / 3.0), Q) + sgn * L;
  const double r = 1.0 / x;
  const double large = (x - 0.5) * (L - 1.0) + (kLnSqrt2PiMinusHalf + r * poly(r * r, S));
  return select_bits(big, large, small);
}

inline double lgamma_pos(double x) { return lgamma_pos_t<kLgamma23D, kStirlingD>(x); }

// sin(pi x) and cos(pi x) with exact argument reduction (scalar paths).
inline double sinpi(double x) {
  double r = std::fmod(x, 2.0);  // exact, (-2, 2)
  if (r > 1.0) r -= 2.0;
  else if (r < -1.0) r += 2.0;  // [-1, 1], exact
  if (r > 0.5) r = 1.0 - r;
  else if (r < -0.5) r = -1.0 - r;
  return std::sin(kPi * r);
}
inline double cospi(double x) {
  double r = std::fmod(std::fabs(x), 2.0);
  if (r > 1.0) r = 2.0 - r;  // [0, 1]
  if (r == 0.5) return 0.0;
  return r < 0.25 ? std::cos(kPi * r) : std::sin(kPi * (0.5 - r));
}

// log|Gamma(x)| with SciPy's special values: +inf at the poles (non-positive integers, both
// zeros), -inf at -inf, reflection log(pi/|sin(pi x)|) - lgamma(1 - x) below zero.
inline double gammaln(double x) {
  if (x > 0) return lgamma_pos(x);
  if (x != x) return x;
  if (x == -kInf) return -kInf;
  if (is_int(x)) return kInf;
  return kLnPi - std::log(std::fabs(sinpi(x))) - lgamma_pos(1.0 - x);
}

// Gamma(x) for x > 0: Gamma(t) = exp(lgamma(t)) on t in [1.5, 2.5) (|lgamma| < 0.3, so the
// exponential adds no error) times the recurrence factors; at most 170 exact factors
// (<= 1e-14 relative).
inline double gamma_pos(double x) {
  if (x > 171.65) return kInf;
  if (x < 1.5) {
    // Gamma(x) = Gamma(x + k) / (x (x + 1) ... ), k = 1 or 2 up to [1.5, 2.5)
    if (x < 0.5) {
      return std::exp(x * poly(x * (4.0 / 3.0) - (1.0 / 3.0), kLgamma23D)) / (x * (x + 1.0));
    }
    const double p = x - 1.0;
    return std::exp(p * poly(p * (4.0 / 3.0) - (1.0 / 3.0), kLgamma23D)) / x;
  }
  const double k = std::floor(x + 0.5) - 2.0;  // steps down to t = x - k in [1.5, 2.5)
  const double p = x - k - 2.0;                // exact
  double g = std::exp(p * poly(p * (4.0 / 3.0) - (1.0 / 3.0), kLgamma23D));
  for (double j = 1.0; j <= k; j += 1.0) g *= (x - j);
  return g;
}

inline double gamma(double x) {
  if (x > 0) return gamma_pos(x);
  if (x != x) return x;
  if (x == 0) return std::signbit(x) ? -kInf : kInf;
  if (x == -kInf || is_int(x)) return kNaN;
  // reflection: pi / (sin(pi x) Gamma(1 - x)); Gamma(1 - x) = inf gives a signed zero
  const double s = sinpi(x);
  const double g = gamma_pos(1.0 - x);
  return kPi / (s * g);
}

inline double rgamma(double x) {
  if (x > 0) {
    if (x < 171.6) return 1.0 / gamma_pos(x);
    return std::exp(-lgamma_pos(x));  // Gamma(x) overflows, 1/Gamma(x) is still > 0
  }
  if (x != x) return x;
  if (x == 0) return x;  // +0 / -0 (SciPy)
  if (x == -kInf || is_int(x)) return 0.0;
  // 1/Gamma(x) = sin(pi x) Gamma(1 - x) / pi
  return sinpi(x) * gamma_pos(1.0 - x) / kPi;
}

inline double gammasgn(double x) {
  if (x != x) return x;
  if (x > 0) return 1.0;
  if (x == 0) return std::signbit(x) ? -1.0 : 1.0;
  if (x == -kInf || is_int(x)) return kNaN;
  return std::fmod(std::floor(x), 2.0) == 0.0 ? 1.0 : -1.0;
}

// psi(x) = log x - 1/(2x) - sum B_2k / (2k x^2k) (DLMF 5.11.2), 8 terms, x >= 10.
inline constexpr double kDigammaAsym[] = {
    -0.4432598039215686, 0.08333333333333333, -0.021092796092796094, 0.007575757575757576,
    -0.004166666666666667, 0.003968253968253968, -0.008333333333333333, 0.08333333333333333};

inline double psi_pos(double x) {
  // near the positive zero x0: (x - x0) Q(x - x0), |x - x0| <= 0.3
  const double d = x - kPsiRootHi;
  if (std::fabs(d) <= 0.3) return (d - kPsiRootLo) * poly(d * (1.0 / 0.3), kPsiRootD);
  double acc = 0.0;
  while (x < 10.0) {  // psi(x) = psi(x + 1) - 1/x
    acc -= 1.0 / x;
    x += 1.0;
  }
  const double r = 1.0 / x;
  const double r2 = r * r;
  return acc + (std::log(x) - 0.5 * r - r2 * poly(r2, kDigammaAsym));
}

// psi for x > 0, branch-free (blocks with x <= 0 or NaN take psi()): near the zero the
// polynomial; below 10 the recurrence psi(x) = psi(x + n) - sum_k 1/(x + k), n = ceil(10 - x),
// its masked terms added in pairs (1/a + 1/b = (a + b)/(ab): five divisions), then the
// asymptotic series at x + n in [10, 11).
AC_EG_VEC double psi_pos_v(double x) {
  const double d = x - kPsiRootHi;
  const double root = (d - kPsiRootLo) * poly(d * (1.0 / 0.3), kPsiRootD);
  const bool small = x < 10.0;
  const double xs = select_bits(small, x, 10.0);
  double acc = 0.0, shift = 0.0;
#pragma GCC unroll 5
  for (int k = 0; k < 10; k += 2) {
    const double a = xs + k, b = xs + (k + 1);
    const double ma = select_bits(a < 10.0, 1.0, 0.0), mb = select_bits(b < 10.0, 1.0, 0.0);
    acc += (ma * b + mb * a) / (a * b);
    shift += ma + mb;
  }
  const double y = select_bits(small, x + shift, x);
  const double r = 1.0 / y;
  const double r2 = r * r;
  const double asym = (simd_math::log(y) - 0.5 * r) - r2 * poly(r2, kDigammaAsym);
  const double far = asym - select_bits(small, acc, 0.0);
  return select_bits(std::fabs(d) <= 0.3, root, far);
}

inline double psi(double x) {
  if (x > 0) return x == kInf ? x : psi_pos(x);
  if (x != x) return x;
  if (x == 0) return std::signbit(x) ? kInf : -kInf;  // SciPy's signs
  if (x == -kInf || is_int(x)) return kNaN;
  // reflection: psi(1 - x) - pi cos(pi x)/sin(pi x)
  return psi_pos(1.0 - x) - kPi * cospi(x) / sinpi(x);
}

// Hurwitz zeta sum_{k>=0} (q + k)^-s by Euler-Maclaurin summation (DLMF 25.11.5 with the
// remainder expanded in Bernoulli numbers, 2.10.1): the terms k < N are summed directly
// (stopping early once they no longer change the sum), then
//   a^(1-s)/(s-1) + a^-s/2 + sum_j B_2j/(2j)! s (s+1) ... (s+2j-2) a^(-s-2j+1),  a = q + N,
// with a >= 10 and at most 12 Bernoulli terms.  Valid for any s != 1 and q where the direct
// terms are defined (q > 0, or q < 0 with integer s).
inline constexpr double kB2jOverFact[] = {  // B_2j / (2j)!, j = 1..12 (exact fractions, rounded)
    0.08333333333333333,    -0.001388888888888889,   3.306878306878307e-05,
    -8.267195767195768e-07, 2.08767569878681e-08,    -5.284190138687493e-10,
    1.3382536530684679e-11, -3.3896802963225827e-13, 8.586062056277845e-15,
    -2.174868698558062e-16, 5.5090028283602295e-18,  -1.3954464685812522e-19};

inline double hurwitz_em(double s, double q) {
  double sum = 0.0;
  double a = q;
  int n = 0;
  // cap: q far below zero (integer s only) would need |q| terms
  for (; n < 100000 && (n < 9 || a < 10.0); ++n, a += 1.0) {
    const double t = std::pow(a, -s);
    sum += t;
    if (n >= 9 && std::fabs(t) <= 1e-17 * std::fabs(sum) && sum != 0.0) return sum;
  }
  if (n >= 100000) return kNaN;
  // every term underflowed: SciPy's convergence test divides by the zero sum and ends in
  // NaN when s is so large that the Bernoulli factors overflow, else in 0
  if (sum == 0.0) return s > 1e12 ? kNaN : 0.0;
  const double as = std::pow(a, -s);
  if (as == 0.0) return sum;  // the remainder underflows
  sum += a * as / (s - 1.0) + 0.5 * as;
  double fac = s * as / a;  // s a^(-s-1)
  const double ia2 = 1.0 / (a * a);
  for (int j = 0; j < 12; ++j) {
    const double t = kB2jOverFact[j] * fac;
    sum += t;
    if (std::fabs(t) <= 1e-17 * std::fabs(sum)) break;
    fac *= (s + 2 * j + 1) * (s + 2 * j + 2) * ia2;
  }
  return sum;
}

// scipy.special.zeta(x, q) semantics: x = 1 -> inf, x < 1 -> NaN, q a non-positive integer
// -> inf, q < 0 with x not an integer -> NaN.
// (The order of the checks is SciPy's: a pole q wins over a NaN x.)
inline double zeta(double x, double q) {
  if (x == 1.0) return kInf;
  if (x < 1.0) return kNaN;
  if (q <= 0) {
    if (is_int(q)) return kInf;
    if (!is_int(x)) return kNaN;
  }
  if (x != x || q != q) return kNaN;
  // q > 1e8: the leading terms of the expansion in 1/q (DLMF 25.11.43), relative error
  // ~ x^2 / q^2
  if (q > 1e8) return (1.0 / (x - 1.0) + 0.5 / q) * std::pow(q, 1.0 - x);
  return hurwitz_em(x, q);
}

// Riemann zeta(x) - 1.
inline double zetac(double x) {
  if (x != x) return x;
  if (x == kInf) return 0.0;
  if (x == -kInf) return kNaN;
  if (x == 1.0) return kInf;
  if (x >= 60.0)  // 2^-x + ... + 5^-x: 6^-x is below 1e-17 of it
    return std::pow(2.0, -x) + std::pow(3.0, -x) + std::pow(4.0, -x) + std::pow(5.0, -x);
  if (x > 1.0) return hurwitz_em(x, 2.0);  // sum_{k>=2} k^-x: no cancellation
  // near 0 directly (the reflection would need zeta near its pole at 1 - x, where 1 - x
  // has lost x's low bits)
  if (x >= -1.0) return hurwitz_em(x, 1.0) - 1.0;
  // reflection (DLMF 25.4.2): zeta(x) = 2 (2 pi)^(x-1) sin(pi x/2) Gamma(1 - x) zeta(1 - x)
  const double h = 0.5 * x;
  if (is_int(h)) return -1.0;  // trivial zeros
  const double s = sinpi(h);
  const double z1 = 1.0 + hurwitz_em(1.0 - x, 2.0);
  if (x > -170.0) {
    return 2.0 * std::pow(2.0 * kPi, x - 1.0) * s * gamma_pos(1.0 - x) * z1 - 1.0;
  }
  const double lm = kLn2 + (x - 1.0) * (kLn2 + kLnPi) + lgamma_pos(1.0 - x) + std::log(z1);
  return std::copysign(std::exp(lm + std::log(std::fabs(s))), s) - 1.0;
}

// lgamma(a + m) - lgamma(a) for a, a + m >= 8 without cancellation (Stirling differences):
// (a - 1/2) log1p(m/a) + m log(a + m) - m + S(a + m) - S(a).
inline double lgamma_diff_large(double a, double m) {
  return (a - 0.5) * std::log1p(m / a) + m * (std::log(a + m) - 1.0) +
         (stirling_corr(a + m) - stirling_corr(a));
}

// lgamma(a + m) - lgamma(a), a > 0, a + m > 0.
inline double lgamma_diff(double a, double m) {
  if (a >= 8.0 && a + m >= 8.0) return lgamma_diff_large(a, m);
  return lgamma_pos(a + m) - lgamma_pos(a);
}

// Pochhammer (z)_m = Gamma(z + m)/Gamma(z) with SciPy's conventions: the recurrence
// (z)_m = (z)_(m-1) (z + m - 1) brings |m| below 1 (stopping early on overflow, underflow
// or a zero factor), then the gamma ratio, from the lgamma difference (with signs), a
// zero where z is a pole and z + m is not, inf the other way round.
inline double poch(double z, double m) {
  // (a pole here is a non-positive integer of moderate size: -inf and -1e30 are not)
  auto pole = [](double v) { return v <= 0 && v == std::ceil(v) && std::fabs(v) < 1e13; };
  double r = 1.0;
  while (m >= 1.0) {
    if (z + m == 1.0) break;
    m -= 1.0;
    r *= z + m;
    if (!std::isfinite(r) || r == 0.0) break;
  }
  while (m <= -1.0) {
    if (z + m == 0.0) break;
    r /= z + m;
    m += 1.0;
    if (!std::isfinite(r) || r == 0.0) break;
  }
  if (m == 0.0) return r;
  if (z > 1e4 && std::fabs(m) <= 1.0) {
    if (z == kInf) return r * (m > 0 ? kInf : 0.0);
    return r * std::exp(lgamma_diff_large(z, m));
  }
  const double zm = z + m;
  if (pole(zm) && !pole(z) && zm != m) return kInf;
  if (!pole(zm) && pole(z)) return 0.0;
  if (z > 0 && zm > 0) return r * std::exp(lgamma_diff(z, m));
  return r * std::exp(gammaln(zm) - gammaln(z)) * gammasgn(zm) * gammasgn(z);
}

// log|B(a, b)| and B(a, b), with the limits at non-positive integer a (or b) where a + b is
// also one: B(-n, k) = (-1)^k B(n - k + 1, k) for integers 1 <= k <= n.
inline double betaln_pos(double a, double b) {  // a, b > 0
  if (a > b) std::swap(a, b);                   // a <= b
  if (b == kInf) return a == kInf ? kNaN : -kInf;
  if (b >= 8.0) return gammaln(a) - lgamma_diff(b, a);  // lgamma(b) - lgamma(a + b) exact
  return lgamma_pos(a) + lgamma_pos(b) - lgamma_pos(a + b);
}

// (SciPy's order: a pole in either argument is checked before NaN; a pole that is not a
// 32-bit integer, such as -inf or -1e30, is an overflow.)
inline bool int32_pole(double v) { return v <= 0 && v == std::floor(v) && v > -2147483648.0; }
inline double betaln(double a, double b) {
  for (int i = 0; i < 2; ++i, std::swap(a, b)) {
    if (a <= 0 && a == std::floor(a)) {
      if (int32_pole(a) && b == std::floor(b) && b > 0 && 1.0 - a - b > 0)
        return betaln_pos(1.0 - a - b, b);
      return kInf;
    }
  }
  if (a != a || b != b) return kNaN;
  if (a > 0 && b > 0) return betaln_pos(a, b);
  return gammaln(a) + gammaln(b) - gammaln(a + b);
}

inline double beta(double a, double b) {
  if (a != a || b != b) return kNaN;
  if (is_nonpos_int(a) || is_nonpos_int(b)) {
    if (is_nonpos_int(b)) std::swap(a, b);
    if (is_int(b) && b > 0 && 1.0 - a - b > 0 && std::isfinite(a)) {
      const double v = std::exp(betaln_pos(1.0 - a - b, b));
      return std::fmod(b, 2.0) == 0.0 ? v : -v;
    }
    return kInf;
  }
  if (a > 0 && b > 0 && a + b < 171.0) return gamma_pos(a) * gamma_pos(b) / gamma_pos(a + b);
  const double sg = gammasgn(a) * gammasgn(b) * gammasgn(a + b);
  return sg * std::exp(betaln(a, b));
}

// binom(n, k) = 1 / ((n + 1) B(n - k + 1, k + 1)), with SciPy's conventions: NaN for
// negative integer n, the multiplicative formula for integer k (< 20 after symmetry) so
// integer results are exact, asymptotic forms for k >> n and n >> k.
inline double binom(double n, double k) {
  if (n != n || k != k) return kNaN;
  if (n < 0 && is_int(n)) return kNaN;
  double kx = std::floor(k);
  if (k == kx && (std::fabs(n) > 1e-8 || n == 0)) {
    const double nx = std::floor(n);
    if (nx == n && kx > nx / 2 && nx > 0) kx = nx - kx;  // symmetry
    if (kx >= 0 && kx < 20) {
      double num = 1.0, den = 1.0;
      for (int i = 1; i <= static_cast<int>(kx); ++i) {
        num *= i + n - kx;
        den *= i;
        if (std::fabs(num) > 1e50) {
          num /= den;
          den = 1.0;
        }
      }
      return num / den;
    }
  }
  if (n >= 1e10 * k && k > 0) return std::exp(-betaln(1.0 + n - k, 1.0 + k) - std::log(n + 1.0));
  if (k > 1e8 * std::fabs(n)) {
    // k >> |n|: Gamma(1 + n) / (pi k^(n+1)) sin(pi (k - n)) ... (reflection + Stirling)
    double num = gamma(1.0 + n) / std::fabs(k) + gamma(1.0 + n) * n / (2.0 * k * k);
    num /= kPi * std::pow(std::fabs(k), n);
    // (as SciPy: the reduction of k to its fractional part happens only where floor(k)
    // is a 32-bit integer; beyond, sin((k - n) pi) of the rounded product)
    double dk = k, sgn = 1.0;
    if (k > 0) {
      const double fk = std::floor(k);
      if (fk < 2147483648.0) {
        dk = k - fk;
        sgn = std::fmod(fk, 2.0) == 0.0 ? 1.0 : -1.0;
      }
    }
    return num * std::sin((dk - n) * kPi) * sgn;
  }
  return 1.0 / (n + 1.0) / beta(1.0 + n - k, 1.0 + k);
}

}  // namespace arraycore::native::special::erf_gamma
