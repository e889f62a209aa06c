// simd_atrig.h -- branch-free, vectorizable tan, atan, asin, acos and atan2 (float and
// double) in the style of simd_math.h and simd_trig.h (whose helpers and reductions they
// use; see simd_math.h's header comment for the conventions). The engine calls them in
// plain loops, out[i] = f(in[i]) (atan2: out[i] = f(y[i], x[i])), which GCC
// auto-vectorizes: no calls, no table lookups, no branches on the argument; special
// values come from selects -- on bit patterns where an arm is a computed value or
// several conditions combine (detail::bsel, detail::msel) -- and "result + correction"
// terms.
//
// float atan, asin, acos and atan2 compute in float (twice the lanes of double), with
// error-free transformations (Fast2Sum, exact FMA residuals) where a plain float formula
// would lose the 1-ulp bound; float tan computes in double (its reduction and its
// quotient need more than float precision, and the float formulations measured slower).
//
// Accuracy (tests/native/simd_atrig_check.cpp against libm one precision up, largest
// error seen, with FMA / without FMA; float: also exhaustive runs over all inputs):
//   float  tan, atan, asin, acos, atan2: within 1 ulp of the correctly rounded result
//          (integer distance); error < 0.52 (tan), 1.32 (atan, all 2^32 inputs), 0.72
//          (asin, all inputs), 0.69 (acos, all inputs), 1.19 (atan2) ulp
//   double tan   <= 2 ulp (measured 1.20 / 1.29 ulp)     (|x| <= kTrigFastLimit)
//   double atan  <= 2 ulp (measured 0.80 / 0.81 ulp)
//   double atan2 <= 2 ulp (measured 0.82 / 0.84 ulp)
//   double asin  <= 2 ulp (measured 0.76 / 0.79 ulp)
//   double acos  <= 2 ulp (measured 0.71 / 0.73 ulp)
// Special values are those of C99 Annex F / glibc, bit for bit: NaN -> NaN, signed zeros
// kept (tan(-0) = atan(-0) = asin(-0) = -0), |x| > 1 -> NaN for asin/acos, atan(+-inf) =
// +-pi/2 rounded, and every atan2 case (signed zeros, infinities, NaN); atan(+-1),
// atan2(y, +-y), asin(+-1) and acos(+-1) are exact too.
//
// No sqrt: with -fmath-errno (GCC's default, and the accuracy tests' flags) a sqrt call
// keeps its libm fallback for negative arguments and the loop does not vectorize. asin and
// acos take 1/sqrt(w) from the classic bit-pattern seed and Newton steps instead, which
// need no divider at all (detail::rsqrt_newton).
//
// Coefficients: minimax (Remez) fits of the series remainders (for the float-evaluated
// polynomials: with float coefficients, of the whole function's error) and, for float
// tan, a rational minimax fit, all in 50-digit arithmetic; tools/gen_simd_atrig_coeffs.py
// regenerates every table below.
#pragma once

#include "simd_math.h"
#include "simd_trig.h"

namespace arraycore::native::simd_math {

namespace detail {

// pi/4, pi/2, 3pi/4 and pi as hi + lo: hi is the nearest double, lo the rest (rounded).
inline constexpr double kPio4Hi = 0x1.921fb54442d18p-1;
inline constexpr double kPio4Lo = 0x1.1a62633145c07p-55;
inline constexpr double kPio2Hi = 0x1.921fb54442d18p+0;
inline constexpr double kPio2Lo = 0x1.1a62633145c07p-54;
inline constexpr double k3Pio4Hi = 0x1.2d97c7f3321d2p+1;
inline constexpr double k3Pio4Lo = 0x1.a79394c9e8a0ap-54;
inline constexpr double kPiHi = 0x1.921fb54442d18p+1;
inline constexpr double kPiLo = 0x1.1a62633145c07p-53;

// c ? a : b on the bit patterns. With a ternary on two computed doubles GCC may sink the
// computation of one arm into a branch and then refuse to if-convert it (the arithmetic
// might trap under -ftrapping-math); integer selects are always if-converted.
AC_SIMD_INLINE double bsel(bool c, double a, double b) noexcept {
    const uint64_t m = 0 - static_cast<uint64_t>(c);
    return bit_cast<double>((bit_cast<uint64_t>(a) & m) | (bit_cast<uint64_t>(b) & ~m));
}
// m ? u : v for an all-ones / all-zeros mask m (mask64(c)). Case analyses of several
// conditions are cheaper on integer masks than on bools: those GCC shuffles through mask
// and general registers, several times the work.
AC_SIMD_INLINE double msel(uint64_t m, double u, double v) noexcept {
    return bit_cast<double>((bit_cast<uint64_t>(u) & m) | (bit_cast<uint64_t>(v) & ~m));
}
AC_SIMD_INLINE uint64_t mask64(bool c) noexcept { return 0 - static_cast<uint64_t>(c); }
// x with its sign flipped where c holds (an integer xor).
AC_SIMD_INLINE double flip_sign(bool c, double x) noexcept {
    return bit_cast<double>(bit_cast<uint64_t>(x) ^ (static_cast<uint64_t>(c) << 63));
}

// c - a*b, exact whenever it is representable (it is in every use below: a*b is within a
// few ulps of c). One FMA where the hardware has it, else Dekker's exact product (the
// operands are far from overflow).
AC_SIMD_INLINE double fms_exact(double a, double b, double c) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return __builtin_fma(-a, b, c);
#else
    constexpr double kSplit = 134217729.0;  // 2^27 + 1 (Veltkamp)
    const double p = a * b;
    const double ta = kSplit * a, tb = kSplit * b;
    const double ah = ta - (ta - a), al = a - ah;
    const double bh = tb - (tb - b), bl = b - bh;
    const double err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;  // a*b == p + err
    return (c - p) - err;
#endif
}

// Horner's scheme, coefficients lowest degree first.
AC_SIMD_INLINE double horner(double, double c0) noexcept { return c0; }
template <class... C>
AC_SIMD_INLINE double horner(double z, double c0, C... cs) noexcept {
    return fma(horner(z, cs...), z, c0);
}

// float versions of the helpers above
inline constexpr float kPio2HiF = 0x1.921fb6p+0f;   // pi/2 = hi + lo in float
inline constexpr float kPio2LoF = -0x1.777a5cp-25f;
inline constexpr float kPiHiF = 0x1.921fb6p+1f;
inline constexpr float kPiLoF = -0x1.777a5cp-24f;
inline constexpr float kPio4HiF = 0x1.921fb6p-1f;
inline constexpr float kPio4LoF = -0x1.777a5cp-26f;
inline constexpr float k3Pio4HiF = 0x1.2d97c8p+1f;
inline constexpr float k3Pio4LoF = -0x1.99bc5cp-28f;

AC_SIMD_INLINE float bsel(bool c, float a, float b) noexcept {
    const uint32_t m = 0u - static_cast<uint32_t>(c);
    return bit_cast<float>((bit_cast<uint32_t>(a) & m) | (bit_cast<uint32_t>(b) & ~m));
}
AC_SIMD_INLINE float msel(uint32_t m, float u, float v) noexcept {
    return bit_cast<float>((bit_cast<uint32_t>(u) & m) | (bit_cast<uint32_t>(v) & ~m));
}
AC_SIMD_INLINE uint32_t mask32(bool c) noexcept { return 0u - static_cast<uint32_t>(c); }

// (without FMA: in double, where a*b is exact and c - a*b too; no overflow either)
AC_SIMD_INLINE float fms_exact(float a, float b, float c) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return __builtin_fmaf(-a, b, c);
#else
    return static_cast<float>(static_cast<double>(c) -
                              static_cast<double>(a) * static_cast<double>(b));
#endif
}
AC_SIMD_INLINE float horner(float, float c0) noexcept { return c0; }
template <class... C>
AC_SIMD_INLINE float horner(float z, float c0, C... cs) noexcept {
    return fma(horner(z, cs...), z, c0);
}

// 1/sqrt(w) for w > 0 (normal): the bit-pattern seed (relative error < 5%) and Iters
// Newton steps y <- y (3/2 - w y^2 / 2), each squaring the relative error (x 3/2): 2 steps
// give 2^-15.8, 3 steps 2^-31, 4 steps the double rounding level. Division- and sqrt-free,
// so it vectorizes under -fmath-errno and leaves the divider to the rest of the loop.
template <int Iters>
AC_SIMD_INLINE double rsqrt_newton(double w) noexcept {
    double y = bit_cast<double>(0x5fe6eb50c7b537a9ull - (bit_cast<uint64_t>(w) >> 1));
    const double hw = 0.5 * w;
    for (int i = 0; i < Iters; ++i) y = y * fma(-hw, y * y, 1.5);
    return y;
}
template <int Iters>
AC_SIMD_INLINE float rsqrt_newton(float w) noexcept {
    float y = bit_cast<float>(0x5f375a86u - (bit_cast<uint32_t>(w) >> 1));
    const float hw = 0.5f * w;
    for (int i = 0; i < Iters; ++i) y = y * fma(-hw, y * y, 1.5f);
    return y;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// tan (float)
//
// Computed in double: x = k pi/2 + r by simd_trig.h's reduce_pio2_f (|r| <= pi/4), then
// tan(r) = r P(z) / Q(z), z = r^2, a degree-(5,4) rational minimax fit (relative error
// 2^-35.4). The odd quadrants need -cot(r) = -Q(z) / (r P(z)): the same two values with
// numerator and denominator swapped (a bit select) and the sign flipped, so both cases
// share one division. All in double, one rounding to float at the end: within 1 ulp of the
// correctly rounded result (the double result is within ~2^-34 relative of tan(x)).
// Valid for |x| <= kTrigFastLimit (callers send larger |x| and NaN to libm); tan(-0) = -0,
// +-inf and NaN give NaN.
// ---------------------------------------------------------------------------

AC_SIMD_INLINE float tan(float xf) noexcept {
    constexpr double kP0 = 0x1.000000001848fp+0, kP1 = -0x1.c822eec1e3db6p-4,
                     kP2 = 0x1.19d86896c52b1p-10, kQ1 = -0x1.c75e10e94168ap-2,
                     kQ2 = 0x1.05b542c702b19p-6;
    const double x = static_cast<double>(xf);
    uint64_t q;
    const double r = detail::reduce_pio2_f(x, q);
    const double z = r * r;
    const double n = r * detail::horner(z, kP0, kP1, kP2);  // -0 stays -0
    const double d = detail::horner(z, 1.0, kQ1, kQ2);
    using detail::bit_cast;
    const uint64_t odd = 0 - (q & 1u);  // mask
    const double num = bit_cast<double>(bit_cast<uint64_t>(detail::msel(odd, d, n)) ^
                                        (odd & 0x8000000000000000ull));
    const double den = detail::msel(odd, n, d);
    return static_cast<float>(num / den);
}

// ---------------------------------------------------------------------------
// tan (double)
//
// x = k pi/2 + (r + rr) by a four-part Cody-Waite reduction (detail::reduce_pio2_4, below:
// simd_trig.h's reduce_pio2_dd is not enough here, since tan(x) ~ r near even multiples of
// pi/2 and ~ -1/r near odd ones, so r needs full *relative* accuracy even for x next to a
// multiple of pi/2), then
//   tan(r + rr) = r + c,  c = r z T(z) + rr (1 + tan^2 r),  z = r^2,
// T a degree-14 minimax fit of (tan(r) - r)/r^3 on |r| <= pi/4 (total relative error
// 2^-56). c is at most 0.22 of the result, so its rounding errors are damped; th + tl =
// r + c exactly (Fast2Sum). Odd quadrants need -1/(th + tl): y = -1/th and one Newton
// correction y + y (1 + y th + y tl) with the exact residual 1 + y th (an FMA, or Dekker's
// product without FMA). One division for both cases; the quadrant picks by bit select,
// and x = +-0 returns x (c loses the sign of -0). Measured < 1.2 ulp (1.3 without FMA).
// Valid for |x| <= kTrigFastLimit like sin/cos; +-inf and NaN give NaN.
// ---------------------------------------------------------------------------

namespace detail {
// pi/2 = kPio2_1 + kPio2_2 + kPio2C3 + kPio2C4 (+ 7e-49): the first three have 33
// significant bits (kPio2C3 is kPio2_3 cut to 33 bits), so k times each is exact for
// |k| < 2^20 with or without FMA.
inline constexpr double kPio2C3 = 0x1.3198a2e000000p-69;
inline constexpr double kPio2C4 = 0x1.b839a252049c1p-104;

// r + rr = x - k pi/2 with |rr| <= ulp(r)/2 and a relative error ~2^-70 even where r
// cancels to ~2^-62 (the closest doubles below 2^20 come to a multiple of pi/2); q = k mod
// 4. Exact products, two TwoSums for the subtractions that may round, and a final
// Fast2Sum (|s| > |rr0| there: rr0 is below ulp(t) + ulp(s) + |k C4|).
AC_SIMD_INLINE double reduce_pio2_4(double x, uint64_t& q, double& rr) noexcept {
    constexpr double kShift = 0x1.8p52;
    const double kf = fma(x, k2OverPi, kShift);
    q = bit_cast<uint64_t>(kf) & 3u;
    const double k = kf - kShift;
    const double a = fma(-k, kPio2_1, x);  // exact (as in reduce_pio2_dd)
    const double b = k * kPio2_2;          // exact
    const double c = k * kPio2C3;          // exact
    const double d = k * kPio2C4;          // rounded, error < 2^-130
    const double t = a - b;                // TwoSum: t + te == a - b
    const double tb = t - a;
    const double te = (a - (t - tb)) - (b + tb);
    const double s = t - c;                // TwoSum: s + se == t - c
    const double sb = s - t;
    const double se = (t - (s - sb)) - (c + sb);
    const double rr0 = (te + se) - d;
    const double r = s + rr0;              // Fast2Sum
    rr = (s - r) + rr0;
    return r;
}
}  // namespace detail

AC_SIMD_INLINE double tan(double x) noexcept {
    uint64_t q;
    double rr;
    const double r = detail::reduce_pio2_4(x, q, rr);
    const double z = r * r;
    const double z2 = z * z, z4 = z2 * z2;
    const double tlo = detail::horner(z, 0x1.5555555555555p-2, 0x1.1111111111099p-3,
                                      0x1.ba1ba1ba29c73p-5, 0x1.664f487d80b24p-6,
                                      0x1.226e366310120p-7, 0x1.d6d394361d8cdp-9,
                                      0x1.7da7fb95f76b1p-10, 0x1.351b74484389fp-11);
    const double thi = detail::horner(z, 0x1.f9e41e0c2d982p-13, 0x1.7968e9178dd1dp-14,
                                      0x1.d25da2d6ec515p-15, -0x1.71e2ef9364844p-17,
                                      0x1.3264a5fddd56dp-15, -0x1.335b547052872p-16,
                                      0x1.1cb07b3d085cfp-17);
    const double p = detail::fma(thi, z4 * z4, tlo);
    const double rz = r * z;
    const double t0 = detail::fma(rz, p, r);                          // tan r, roughly
    const double c = detail::fma(rz, p, rr * detail::fma(t0, t0, 1.0));
    const double th = r + c;                                          // |r| > |c|
    const double tl = (r - th) + c;
    // -1/(th + tl)
    const double y = -1.0 / th;
    const double e = -detail::fms_exact(y, th, -1.0) + y * tl;        // 1 + y (th + tl)
    const double cot = detail::fma(y, e, y);
    const double res = detail::msel(0 - (q & 1u), cot, th);
    return detail::bsel(x == 0.0, x, res);
}

// ---------------------------------------------------------------------------
// atan (float)
//
// In float arithmetic (16 lanes per AVX-512 vector instead of 8). t = min(|x|, 1/|x|)
// (one float division), atan|x| = atan t (|x| <= 1) or pi/2 - atan t (|x| > 1), with
// atan t = t + t z A(z), z = t^2, A a degree-8 polynomial with float coefficients fitted
// (minimax, sequentially rounded) to atan's total relative error on [0, 1]: 2^-28.5.
// pi/2 - t is formed exactly by Fast2Sum and the small terms are added last, so the only
// roundings that matter are the final one, 1/|x|'s (its effect on the result is at most
// t/(1 + t^2) half-ulps of t) and the polynomial term's (at most 0.22 of the result).
// Exhaustively measured (all 2^32 inputs): < 1.24 ulp (1.32 without FMA), so within 1 ulp
// of the correctly rounded result (which needs < 1.5); a correction for 1/|x|'s rounding
// error (as atan2 has) would bring that to 1.05 but cost about a tenth of the time.
// atan(+-1) = +-pi/4 and atan(+-inf) = +-pi/2 exactly rounded, atan(+-0) = +-0, NaN -> NaN.
// ---------------------------------------------------------------------------

namespace detail {
// A(z) of atan(t) = t + t z A(z), |t| <= 1 (float)
AC_SIMD_INLINE float atan_poly_f(float z) noexcept {
    return horner(z, -0x1.55553ep-2f, 0x1.9991e4p-3f, -0x1.2420aap-3f, 0x1.c08f84p-4f,
                  -0x1.581780p-4f, 0x1.da6b84p-5f, -0x1.fe1eb0p-6f, 0x1.64ef86p-7f,
                  -0x1.d4f74ap-10f);
}
// khi + klo + m atan(t + tl), m = +-1, for t in [0, 1] and a small correction tl of t
// (the angle assembly shared by atan and atan2): atan(t + tl) = t + t z A(z) + tl/(1 + z)
// with 1/(1 + z) ~ 1 - z/2 (10% is plenty for tl); khi + m t by Fast2Sum (|khi| >= 1 or
// khi = 0, or t = 0), the small terms added last.
template <bool WithTl>
AC_SIMD_INLINE float atan_assemble_f(float t, float tl, float khi, float klo,
                                     float m) noexcept {
    const float z = t * t;
    const float mt = m * t;                    // exact, as m (t z) below
    const float s = khi + mt;
    const float se = (khi - s) + mt;
    float small = se + klo;
    if constexpr (WithTl) small = fma(m, tl * fma(-0.5f, z, 1.0f), small);
    return s + fma(m * (t * z), atan_poly_f(z), small);
}
}  // namespace detail

AC_SIMD_INLINE float atan(float x) noexcept {
    const float a = __builtin_fabsf(x);
    const float r = 1.0f / a;                  // inf for 0, 0 for inf
    const bool big = a > 1.0f;
    const bool one = a == 1.0f;                // atan(+-1) = +-pi/4 exactly rounded
    const float t = detail::bsel(one, 0.0f, a < r ? a : r);  // min(a, 1/a); NaN stays NaN
    const float khi = big ? detail::kPio2HiF : (one ? detail::kPio4HiF : 0.0f);
    const float klo = big ? detail::kPio2LoF : (one ? detail::kPio4LoF : 0.0f);
    const float res = detail::atan_assemble_f<false>(t, 0.0f, khi, klo, big ? -1.0f : 1.0f);
    return __builtin_copysignf(res, x);
}

// ---------------------------------------------------------------------------
// atan (double)
//
// Reduction to |t| <= 1/2 on three intervals of a = |x| (own choice of breakpoints, in the
// spirit of Cephes / fdlibm):
//   a <= 1/2:      atan a = atan t,          t = a
//   1/2 < a <= 2:  atan a = pi/4 + atan t,   t = (a - 1) / (a + 1)   (|t| <= 1/3)
//   a > 2:         atan a = pi/2 + atan t,   t = -1 / a
// written as one quotient t = n / d with n = a A - B exact (a - 1 is exact by Sterbenz's
// lemma on (1/2, 2]) and d = a C + E carried as dh + dl (TwoSum), the selectors A..E being
// constant selects. The quotient is formed as q = n (1/dh) and corrected with the exact
// residual n - q (dh + dl) (an FMA, or Dekker's product), so q + corr is n/d to ~2^-100
// with one division; atan(q + corr) = q + (corr (1 - z) + q z A(z)), A a degree-11 minimax
// fit on |t| <= 1/2 (total relative error 2^-55.6). The offset's hi part joins q by
// Fast2Sum (|offset| >= |q|), so the result has essentially one rounding: measured
// < 0.82 ulp. a is clamped to 2^60 (inf -> pi/2 exactly rounded); sign from x.
// ---------------------------------------------------------------------------

namespace detail {
// (khi + klo + atan(n / (dh + dl) * down)) / down for |n / dh| * down <= 1/2 (+ rounding),
// |khi| >= 1/2 or 0. down is 1, or a tiny power of two (khi = 0, |n / dh| * down < 2^-500)
// where atan(t) = t would underflow: the quotient is then formed at n / down and rounded
// into the subnormal range only once, by the final scaling.
AC_SIMD_INLINE double atan_core_d(double n, double dh, double dl, double khi, double klo,
                                  double down = 1.0) noexcept {
    const double rd = 1.0 / dh;
    const double q = n * rd;
    const double rho = fms_exact(q, dh, n) - q * dl;  // n - q (dh + dl)
    const double corr = rho * rd;                       // n / (dh + dl) = q + corr
    const double qd = q * down;
    const double z = qd * qd;
    const double z2 = z * z, z4 = z2 * z2;
    const double lo = horner(z, -0x1.5555555555554p-2, 0x1.9999999998e1ep-3,
                             -0x1.24924924082edp-3, 0x1.c71c7175980d5p-4,
                             -0x1.745d0acd1fe33p-4, 0x1.3b128fb479f74p-4);
    const double hi = horner(z, -0x1.1100500968089p-4, 0x1.e097da521d221p-5,
                             -0x1.a68ce62ec97f9p-5, 0x1.5f0c9f4f1907dp-5,
                             -0x1.dad6ee4ff0672p-6, 0x1.6e220682d37fep-7);
    const double p = fma(hi, z4 * z2, lo);
    const double tail = fma(q * z, p, fma(-corr, z, corr));  // atan(q + corr) - q
    const double s = khi + q;                                  // Fast2Sum
    const double se = (khi - s) + q;
    return (s + (se + (tail + klo))) * down;
}
}  // namespace detail

AC_SIMD_INLINE double atan(double x) noexcept {
    // |x| clamped to 2^60 (atan(2^60) rounds to pi/2, so inf needs no special case) as an
    // integer min on the bit pattern: a float select would let GCC thread its constant arm
    // through the reduction and leave the arithmetic in branches. NaN is clamped too and
    // restored at the end.
    uint64_t ab = detail::bit_cast<uint64_t>(__builtin_fabs(x));
    ab = ab > 0x43b0000000000000ull ? 0x43b0000000000000ull : ab;
    const double a = detail::bit_cast<double>(ab);
    const bool big = a > 2.0;
    const bool mid = a > 0.5;     // (mid includes big)
    const uint64_t mb = detail::mask64(big), mm = detail::mask64(mid);
    const double n = detail::fma(a, detail::msel(mb, 0.0, 1.0), detail::msel(mm, -1.0, 0.0));
    const double u = detail::msel(mm, a, 0.0);
    const double v = detail::msel(mb, 0.0, 1.0);
    const double dh = u + v;                                            // 1, a + 1, a
    const double bb = dh - u;
    const double dl = (u - (dh - bb)) + (v - bb);
    const double khi = detail::msel(mb, detail::kPio2Hi, detail::msel(mm, detail::kPio4Hi, 0.0));
    const double klo = detail::msel(mb, detail::kPio2Lo, detail::msel(mm, detail::kPio4Lo, 0.0));
    double res = detail::atan_core_d(n, dh, dl, khi, klo);
    res += x != x ? x : 0.0;  // NaN; res is never -0
    return __builtin_copysign(res, x);
}

// ---------------------------------------------------------------------------
// asin, acos (float)
//
// In float arithmetic. With a = |x|:
//   a <= 1/2: asin a = a + a z S(z), z = a^2
//   a > 1/2:  asin a = pi/2 - 2 asin s, s = sqrt(w), w = (1 - a)/2 (exact)
// and acos x = pi/2 - asin x (a <= 1/2), 2 asin s (x > 1/2), pi - 2 asin s (x < -1/2):
// every case is K + m asin(g) with g = a or s and constant selects for K and m (the
// pi/2 - 2 asin(s) form keeps acos accurate near +-1). S: degree 4, float coefficients
// fitted to asin's total relative error on [0, 1/2] (2^-27.6). sqrt(w) = w rsqrt(w) by
// rsqrt_newton (2 steps, 2^-15.8) plus the exact-residual correction (w - s^2)/(2 s),
// which squares the error; s + s_lo is split exactly (Fast2Sum), and K + m g again by
// Fast2Sum, so the result is rounded essentially once. Exhaustively measured (all floats
// in [-1, 1]): < 0.69 ulp (0.72 without FMA). |x| > 1 and NaN give NaN (a correction term), asin(-0) = -0,
// asin(+-1) = +-pi/2 and acos(1) = +0 exactly.
// ---------------------------------------------------------------------------

namespace detail {
template <bool Acos>
AC_SIMD_INLINE float asin_acos_f(float x) noexcept {
    const float a = __builtin_fabsf(x);
    const bool small = a <= 0.5f;                  // NaN: false
    const float w = fma(-0.5f, a, 0.5f);           // exact for 1/2 <= a <= 1
    // w = 0 (and w < 0) out of the seed: integer max with 2^-40, not a float select
    uint32_t wb = bit_cast<uint32_t>(w);
    wb = wb < 0x2b800000u ? 0x2b800000u : wb;
    const float y = rsqrt_newton<2>(bit_cast<float>(wb));
    const float s0 = w * y;                        // sqrt(w) to 2^-15.8; 0 for w = 0
    const float s1 = fms_exact(s0, s0, w) * (0.5f * y);
    const float s = s0 + s1;                       // sqrt(w) = s + slo to ~2^-31
    const float slo = (s0 - s) + s1;
    const uint32_t sm = mask32(small);             // case analysis in masks (see msel)
    const float g = msel(sm, a, s);
    const float zz = msel(sm, a * a, w);
    const float glo = msel(sm, 0.0f, slo);
    const float p = horner(zz, 0x1.5555c8p-3f, 0x1.330204p-4f, 0x1.747bbap-5f,
                           0x1.8c3e28p-6f, 0x1.595c92p-5f);
    const float tail = fma(g * zz, p, glo);        // asin(g + glo) - g
    float khi, klo, m;
    if constexpr (Acos) {
        // small: pi/2 - sign(x) asin; x > 1/2: 2 asin; x < -1/2: pi - 2 asin
        const uint32_t ng = 0u - (bit_cast<uint32_t>(x) >> 31);
        khi = msel(sm, kPio2HiF, msel(ng, kPiHiF, 0.0f));
        klo = msel(sm, kPio2LoF, msel(ng, kPiLoF, 0.0f));
        m = bit_cast<float>(bit_cast<uint32_t>(msel(sm, 1.0f, 2.0f)) |
                            ((sm ^ ng) & 0x80000000u));
    } else {
        khi = msel(sm, 0.0f, kPio2HiF);
        klo = msel(sm, 0.0f, kPio2LoF);
        m = msel(sm, 1.0f, -2.0f);
    }
    const float mg = m * g;                        // exact
    const float sum = khi + mg;                    // Fast2Sum
    const float se = (khi - sum) + mg;
    float res = sum + fma(m, tail, se + klo);
    res += a > 1.0f ? __builtin_nanf("") : 0.0f;   // res is never -0 here
    if constexpr (!Acos) res = __builtin_copysignf(res, x);
    return res;
}
}  // namespace detail

AC_SIMD_INLINE float asin(float x) noexcept { return detail::asin_acos_f<false>(x); }
AC_SIMD_INLINE float acos(float x) noexcept { return detail::asin_acos_f<true>(x); }

// ---------------------------------------------------------------------------
// asin, acos (double)
//
// The float algorithm with double-precision care:
//  * S is a degree-12 minimax fit on [0, 1/4] (total relative error 2^-57.6);
//  * s = sqrt(w) from rsqrt_newton with 4 steps, plus its exact correction
//    s_lo = (w - s^2) / (2 s) (w - s^2 exact: an FMA, or Dekker's product), so s + s_lo is
//    sqrt(w) to ~2^-100 whatever the rounding of s; s_lo enters asin through
//    asin(g + g_lo) = asin g + g_lo (1 + z/2);
//  * K + m asin(g) is summed as Fast2Sum(K_hi, m g) (exact: m g is exact, |K_hi| >= |m g|
//    or K = 0) plus the small terms and K_lo, one rounding in the end.
// Measured < 0.8 ulp (asin and acos). The pi/2 - 2 asin(s) form keeps acos
// accurate near +-1 (no cancellation: acos(x) ~ 2 s near 1) and asin near +-1.
// ---------------------------------------------------------------------------

namespace detail {
template <bool Acos>
AC_SIMD_INLINE double asin_acos_d(double x) noexcept {
    const double a = __builtin_fabs(x);
    const bool small = a <= 0.5;
    const double w = fma(-0.5, a, 0.5);           // exact for 1/2 <= a <= 1
    const double wc = bsel(w < 0x1p-60, 0x1p-60, w);
    const double y = rsqrt_newton<4>(wc);
    const double s = w * y;
    const double slo = fms_exact(s, s, w) * (0.5 * y);  // (w - s^2) / (2 s)
    const double g = bsel(small, a, s);
    const double zz = bsel(small, a * a, w);
    const double glo = bsel(small, 0.0, slo);
    const double z2 = zz * zz, z4 = z2 * z2;
    const double lo = horner(zz, 0x1.5555555555556p-3, 0x1.3333333332e84p-4,
                             0x1.6db6db6e38804p-5, 0x1.f1c71c19d5417p-6,
                             0x1.6e8bb25de0138p-6, 0x1.1c4d286b7692dp-6,
                             0x1.c9d08bc786d79p-7);
    const double hi = horner(zz, 0x1.7817d8c5688e1p-7, 0x1.529e18a503877p-7,
                             0x1.62a4ac0663548p-8, 0x1.1f1b102c0048dp-6,
                             -0x1.eccfa125b691fp-7, 0x1.d93907b400ce8p-6);
    const double p = fma(hi, z4 * z2 * zz, lo);
    const double tail = fma(g * zz, p, fma(glo, 0.5 * zz, glo));  // asin(g + glo) - g
    double khi, klo, m;
    if constexpr (Acos) {
        const uint64_t sm = mask64(small);
        const uint64_t ng = 0 - (bit_cast<uint64_t>(x) >> 63);
        khi = msel(sm, kPio2Hi, msel(ng, kPiHi, 0.0));
        klo = msel(sm, kPio2Lo, msel(ng, kPiLo, 0.0));
        m = bit_cast<double>(bit_cast<uint64_t>(msel(sm, 1.0, 2.0)) |
                             ((sm ^ ng) & 0x8000000000000000ull));
    } else {
        const uint64_t sm = mask64(small);
        khi = msel(sm, 0.0, kPio2Hi);
        klo = msel(sm, 0.0, kPio2Lo);
        m = msel(sm, 1.0, -2.0);
    }
    const double mg = m * g;                 // exact
    const double sum = khi + mg;             // Fast2Sum
    const double se = (khi - sum) + mg;
    double res = sum + (se + fma(m, tail, klo));
    res += bsel(a > 1.0, __builtin_nan(""), 0.0);  // res is never -0 here
    if constexpr (!Acos) res = __builtin_copysign(res, x);
    return res;
}
}  // namespace detail

AC_SIMD_INLINE double asin(double x) noexcept { return detail::asin_acos_d<false>(x); }
AC_SIMD_INLINE double acos(double x) noexcept { return detail::asin_acos_d<true>(x); }

// ---------------------------------------------------------------------------
// atan2 (float)
//
// In float arithmetic, as atan(float): t = min(|y|, |x|) / max(|y|, |x|) in [0, 1] as
// t + tl (t = num (1/den), tl = (num - t den) (1/den) from the exact residual: the
// quotient to ~2^-40 with one division), and the angle
//   |y| <= |x|: atan t (x >= +0) or pi - atan t (x <= -0)
//   |y| >  |x|: pi/2 - atan t (x >= +0) or pi/2 + atan t (x <= -0)
// assembled by atan_assemble_f, with the sign of y. The sign bit of x (not x < 0)
// decides, which gives atan2(+-0, -0) = +-pi. Special values by constant selects before
// the arithmetic: 0/0 -> 0/1 (+-0 or +-pi), one infinite argument -> 0/1 (+-0, +-pi,
// +-pi/2), |y| = |x| (inf/inf included) -> 0/1 with the offset pi/4 or 3pi/4 (exactly
// rounded +-pi/4, +-3pi/4); NaN by a correction term. Tiny numerators (below
// 2^-100, with a denominator below 2^63) scale both arguments by 2^64 so that 1/den
// stays finite and the residual exact; the quotient of subnormal results is then still
// rounded correctly. Measured (2.7 10^8 random pairs of every kind): < 1.01 ulp (1.19
// without FMA), within 1 ulp of the correctly rounded result.
// ---------------------------------------------------------------------------

AC_SIMD_INLINE float atan2(float y, float x) noexcept {
    using detail::bit_cast;
    using detail::mask32;
    using detail::msel;
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const float ay = __builtin_fabsf(y), ax = __builtin_fabsf(x);
    const uint32_t sw = mask32(ay > ax);                        // case analysis in masks
    const uint32_t ng = 0u - (bit_cast<uint32_t>(x) >> 31);    // x <= -0
    // |y| = |x| (not 0, inf included): t = 0 and the offset pi/4 or 3pi/4 (exact results);
    // one infinite argument: t = 0/1; 0/0: t = 0/1
    const uint32_t eq = mask32((ay == ax) & (ax != 0.0f));
    const uint32_t zt = eq | mask32((ax == kInf) | (ay == kInf));
    float num = msel(zt, 0.0f, msel(sw, ax, ay));
    float den = msel(sw, ay, ax);
    den = msel(zt | mask32(den == 0.0f), 1.0f, den);
    const float sc = detail::bsel((num < 0x1p-100f) & (den < 0x1p63f), 0x1p64f, 1.0f);
    num *= sc;
    den *= sc;
    const float rc = 1.0f / den;
    const float t = num * rc;
    const float tl = detail::fms_exact(t, den, num) * rc;
    // offset: swap -> pi/2, else x <= -0 -> pi, else 0; |y| = |x| -> pi/4 or 3pi/4
    const float khi = msel(eq, msel(ng, detail::k3Pio4HiF, detail::kPio4HiF),
                           msel(sw, detail::kPio2HiF, msel(ng, detail::kPiHiF, 0.0f)));
    const float klo = msel(eq, msel(ng, detail::k3Pio4LoF, detail::kPio4LoF),
                           msel(sw, detail::kPio2LoF, msel(ng, detail::kPiLoF, 0.0f)));
    const float m = bit_cast<float>(bit_cast<uint32_t>(1.0f) | ((sw ^ ng) & 0x80000000u));
    float res = detail::atan_assemble_f<true>(t, tl, khi, klo, m);
    res += (x != x) | (y != y) ? __builtin_nanf("") : 0.0f;  // NaN with an infinity
    return __builtin_copysignf(res, y);                        // (res is never -0)
}

// atan2 on its common inputs, with the same bits: both |y| and |x| in [2^-100, inf) and
// |y| != |x| (atan2_in_common), where none of the special cases above applies (no zero, no
// infinity, no NaN, no exact pi/4 multiple, no scaling). The selects and tests of those
// cases cost nearly half of the time: 1e6 float32 pairs 0.53 -> 0.28 ms on AVX-512 (the
// kernel runs blocks whose pairs are all common through this, others through atan2).
// (The test on the magnitudes' bit patterns: one subtraction and one unsigned compare puts
// each in [2^-100, inf), NaN above; fewer operations than the float compares.)
AC_SIMD_INLINE bool atan2_in_common(float y, float x) noexcept {
    using detail::bit_cast;
    const uint32_t uy = bit_cast<uint32_t>(y) & 0x7fffffffu, ux = bit_cast<uint32_t>(x) & 0x7fffffffu;
    constexpr uint32_t kLo = 0x0d800000u, kSpan = 0x7f800000u - kLo;  // bits of 2^-100, inf
    return ((uy - kLo) < kSpan) & ((ux - kLo) < kSpan) & (uy != ux);
}
AC_SIMD_INLINE float atan2_common(float y, float x) noexcept {
    using detail::bit_cast;
    using detail::mask32;
    using detail::msel;
    const float ay = __builtin_fabsf(y), ax = __builtin_fabsf(x);
    const uint32_t sw = mask32(ay > ax);
    const uint32_t ng = 0u - (bit_cast<uint32_t>(x) >> 31);
    const float num = msel(sw, ax, ay);
    const float den = msel(sw, ay, ax);
    const float rc = 1.0f / den;
    const float t = num * rc;
    const float tl = detail::fms_exact(t, den, num) * rc;
    const float khi = msel(sw, detail::kPio2HiF, msel(ng, detail::kPiHiF, 0.0f));
    const float klo = msel(sw, detail::kPio2LoF, msel(ng, detail::kPiLoF, 0.0f));
    const float m = bit_cast<float>(bit_cast<uint32_t>(1.0f) | ((sw ^ ng) & 0x80000000u));
    return __builtin_copysignf(detail::atan_assemble_f<true>(t, tl, khi, klo, m), y);
}

// ---------------------------------------------------------------------------
// atan2 (double)
//
// atan(double)'s reduction applied to Y = |y| and X = |x| directly (never forming Y/X,
// which may overflow or underflow):
//   Y <= X/2:       t = Y / X,               offset 0
//   X/2 < Y <= 2X:  t = (Y - X) / (Y + X),   offset pi/4    (Y - X exact, Sterbenz)
//   Y > 2X:         t = -X / Y,              offset pi/2
// and, for x with the sign bit set, angle = pi - that: the numerator's sign flips and the
// offsets become pi, 3pi/4, pi/2. The same compensated quotient and polynomial as
// atan(double) (detail::atan_core_d) follow; the sign is y's.
// Full range: X and Y are first scaled by the same power of two (2^(1023 - e), e the
// biased exponent of the larger, from integer operations), so the larger lands in [1, 4)
// (subnormal: [2^-51, 2)): no overflow in Y + X, no subnormal denominator; a smaller
// argument that underflows in the scaling only matters where the result underflows too.
// Special values by constant selects before the arithmetic: inf,inf -> 1,1 (pi/4
// family), inf in one argument -> 1 there and 0 in the other, 0,0 -> x = 1 (keeps
// +-0 / +-pi by the sign bit of x); NaN by a correction term. Measured < 0.84 ulp.
// ---------------------------------------------------------------------------

AC_SIMD_INLINE double atan2(double y, double x) noexcept {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    const double ay = __builtin_fabs(y), ax = __builtin_fabs(x);
    const uint64_t bx = detail::bit_cast<uint64_t>(ax), by = detail::bit_cast<uint64_t>(ay);
    uint64_t eb = (bx > by ? bx : by) >> 52;
    eb = eb > 2045u ? 2045u : eb;
    const double sc = detail::bit_cast<double>((2046u - eb) << 52);  // 2^(1023 - eb)
    const bool xinf = ax == kInf, yinf = ay == kInf;
    // the selects that feed arithmetic are bit selects (see bsel): as ternaries GCC
    // threads them into the TwoSum and the scaling, which then stay in branches
    double Y = ay * sc, X = ax * sc;
    Y = detail::bsel(xinf, 0.0, Y);
    Y = detail::bsel(yinf, 1.0, Y);
    X = detail::bsel(yinf, 0.0, X);
    X = detail::bsel(xinf, 1.0, X);
    X = detail::bsel((X == 0.0) & (Y == 0.0), 1.0, X);
    const bool big = Y > 2.0 * X;
    const bool mid = 2.0 * Y > X;  // (mid includes big)
    const double n0 = detail::fma(Y, big ? 0.0 : 1.0, detail::bsel(mid, -X, 0.0));  // Y, Y-X, -X
    const double u = detail::bsel(mid, Y, 0.0);
    const double v = detail::bsel(big, 0.0, X);
    const double dh = u + v;                                            // X, Y + X, Y
    const double bb = dh - u;
    const double dl = (u - (dh - bb)) + (v - bb);
    const bool neg = (detail::bit_cast<uint64_t>(x) >> 63) != 0;
    // Results below 2^-500 (t = Y / X, x >= +0): the numerator enters the core scaled by a
    // further 2^600 and the result is scaled back at the end, so tiny and subnormal results
    // are rounded once (n (1/dh) would round twice, the residual would underflow, and Y
    // itself may have underflowed in the scaling above). Yup = |y| 2^(1623 - eb) in two
    // exact factors (each a normal power of two; the first can only lose bits where the
    // result is below 2^-1600).
    const bool tiny = !mid & !neg & !xinf & (Y < 0x1p-500 * X);
    const uint64_t e_up = 2646u - eb;                       // biased 1623 - eb + 1023
    const uint64_t e1 = e_up > 2046u ? 2046u : e_up;
    const double Yup = (ay * detail::bit_cast<double>(e1 << 52)) *
                       detail::bit_cast<double>((e_up - e1 + 1023u) << 52);
    const double n = detail::bsel(tiny, Yup, detail::flip_sign(neg, n0));
    // offsets in integer masks (see msel): big -> pi/2; mid -> pi/4 or 3pi/4; small -> 0 or pi
    const uint64_t bg = detail::mask64(big), md = detail::mask64(mid);
    const uint64_t ng = 0 - (detail::bit_cast<uint64_t>(x) >> 63);
    using detail::msel;
    const double khi = msel(bg, detail::kPio2Hi,
                            msel(md, msel(ng, detail::k3Pio4Hi, detail::kPio4Hi),
                                 msel(ng, detail::kPiHi, 0.0)));
    const double klo = msel(bg, detail::kPio2Lo,
                            msel(md, msel(ng, detail::k3Pio4Lo, detail::kPio4Lo),
                                 msel(ng, detail::kPiLo, 0.0)));
    const double nan_corr = (x != x) | (y != y) ? __builtin_nan("") : 0.0;
    const double res = detail::atan_core_d(n, dh, dl, khi, klo, tiny ? 0x1p-600 : 1.0);
    return __builtin_copysign(res + nan_corr, y);
}

}  // namespace arraycore::native::simd_math
