// simd_hyperbolic.h -- branch-free, vectorizable sinh, cosh, asinh, acosh, atanh (float and
// double) for loops such as
//
//     for (int64_t i = 0; i < n; ++i) out[i] = simd_math::asinh(in[i]);
//
// in the style of simd_math.h (whose helpers they use; see its header comment for the
// conventions: no calls, no table lookups, no data-dependent branches, special values by
// selects and corrections, IEEE semantics without -ffast-math, accurate with and without FMA
// contraction). tanh is in simd_math.h. Float functions compute in float (16 lanes per
// AVX-512 vector) with double-float steps where a rounding would cost accuracy; computing
// them in double, as the float expm1/log1p do, measured 10-60% slower (conversions, half the
// lanes, and sqrt/division far dearer in double).
//
// Accuracy (tests/native/simd_hyperbolic_check.cpp; float: max error vs the exact value and
// distance to the correctly rounded result over all floats; double: random and targeted
// samples against long double libm):
//   sinh   float 0.78 ulp (<= 1 from CR)   double 0.94 ulp
//   cosh   float 0.75 ulp (<= 1 from CR)   double 0.83 ulp
//   asinh  float 0.58 ulp (<= 1 from CR)   double 0.57 ulp
//   acosh  float 0.56 ulp (<= 1 from CR)   double 0.56 ulp
//   atanh  float 0.86 ulp (<= 1 from CR)   double 0.56 ulp
// (float: exhaustive, with and without FMA; without FMA sinh reaches 0.84 ulp.)
// Special values are those of the C library: NaN -> NaN, sinh/asinh/atanh(+-0) = +-0 (and
// f(x) = x for tiny and subnormal x), cosh(+-0) = 1, sinh(+-inf) = +-inf, cosh(+-inf) = +inf,
// sinh/cosh overflow to inf exactly where the rounded result does, asinh(+-inf) = +-inf,
// acosh(1) = +0, acosh(x < 1) = NaN, acosh(+inf) = +inf, atanh(+-1) = +-inf, |x| > 1 -> NaN.
// Coefficients (and the rsqrt step constants): tools/gen_simd_hyperbolic_coeffs.py.
#pragma once

#include "simd_math.h"

namespace arraycore::native::simd_math {

namespace detail {

// Error-free sum a + b = hi + lo, valid when a == 0 or exponent(a) >= exponent(b)
// (Dekker's Fast2Sum; three additions, vectorizes).
template <class T>
AC_SIMD_INLINE void hyp_fast2sum(T a, T b, T& hi, T& lo) noexcept {
    hi = a + b;
    lo = b - (hi - a);
}
// The rounding error a*b - p of the product p = fl(a*b), exactly (barring underflow): one
// FMA where the target has it. Without FMA: float goes through double (the product of two
// floats is exact there); double uses Dekker's product with Veltkamp's splitting, on a copy
// of a scaled down by 2^-256 when |a| > 2^512 so that the splitting cannot overflow (here b
// is a reduced argument, |b| < 1).
AC_SIMD_INLINE float hyp_prod_err(float a, float b, float p) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return __builtin_fmaf(a, b, -p);
#else
    return static_cast<float>(static_cast<double>(a) * b - p);
#endif
}
AC_SIMD_INLINE double hyp_prod_err(double a, double b, double p) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return __builtin_fma(a, b, -p);
#else
    const bool big = __builtin_fabs(a) > 0x1p512;
    const double sa = big ? 0x1p-256 : 1.0;
    const double as = a * sa, ps = p * sa;
    constexpr double kSplit = 134217729.0;  // 2^27 + 1
    const double ca = kSplit * as, cb = kSplit * b;
    const double ah = ca - (ca - as), al = as - ah;
    const double bh = cb - (cb - b), bl = b - bh;
    const double e = ((ah * bh - ps) + ah * bl + al * bh) + al * bl;
    return e * (big ? 0x1p256 : 1.0);
#endif
}
// a*b + c with a single rounding also without FMA (float: through double, where the product
// is exact; double rounding of the sum is harmless here), where a cancellation in the sum
// would expose the product's rounding.
AC_SIMD_INLINE float hyp_fma1(float a, float b, float c) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return __builtin_fmaf(a, b, c);
#else
    return static_cast<float>(static_cast<double>(a) * b + c);
#endif
}
// Error-free sum for any a, b (Knuth's TwoSum).
template <class T>
AC_SIMD_INLINE void hyp_twosum(T a, T b, T& hi, T& lo) noexcept {
    hi = a + b;
    const T bb = hi - a;
    lo = (a - (hi - bb)) + (b - bb);
}

// ---- sinh / cosh, double ----------------------------------------------------------------
// cosh r - 1 = z Pe(z), sinh r - r = r z Po(z), z = r^2, |r| <= ln2/2 (+2^-20), degree 4
// each (relative errors 2.2e-16, 1.1e-16): tools/gen_simd_hyperbolic_coeffs.py
AC_SIMD_INLINE double hyp_pe_d(double z) noexcept {
    constexpr double c0 = 0x1.0000000000001p-1, c1 = 0x1.5555555553d7ap-5,
                     c2 = 0x1.6c16c1788408cp-10, c3 = 0x1.a019b9283a523p-16,
                     c4 = 0x1.2891682384dc5p-22;
    const double z2 = z * z;
    return fma(z2, fma(fma(c4, z, c3), z, c2), fma(c1, z, c0));
}
AC_SIMD_INLINE double hyp_po_d(double z) noexcept {
    constexpr double c0 = 0x1.5555555555556p-3, c1 = 0x1.11111111109b8p-7,
                     c2 = 0x1.a01a01a7c0d6bp-13, c3 = 0x1.71de0db9ef711p-19,
                     c4 = 0x1.af389055f63fcp-26;
    const double z2 = z * z;
    return fma(z2, fma(fma(c4, z, c3), z, c2), fma(c1, z, c0));
}

// Shared by sinh and cosh (double): with a = |x| clamped, k = round(a/ln2), r = a - k ln2,
// P = 2^(k-2), Q = 2^(-k-2):
//   sinh(a)/2 = P e^r - Q e^-r,   cosh(a)/2 = P e^r + Q e^-r.
// sgn = -1 for sinh, +1 for cosh. Returns sinh(a)/2 or cosh(a)/2 (the caller doubles it:
// P = 2^(k-2) keeps every intermediate finite up to the overflow threshold 710.48).
template <int sgn>
AC_SIMD_INLINE double hyp_sinhcosh_half(double a) noexcept {
    constexpr double kLog2e = 0x1.71547652b82fep+0;
    constexpr double kShift = 0x1.8p52;
    const double xc = a > 710.5 ? 710.5 : a;  // sinh, cosh(710.5) overflow; NaN passes
    const double kf = fma(xc, kLog2e, kShift);
    const uint64_t ku = bit_cast<uint64_t>(kf) - bit_cast<uint64_t>(kShift);  // k in [0, 1025]
    const double k = kf - kShift;
    const double rh = fma(-k, kLn2HiD, xc);  // exact
    const double rl = -k * kLn2LoD;
    const double r = rh + rl;
    const double z = r * r;
    const double e1 = z * hyp_pe_d(z);        // cosh r - 1
    const double o3 = (r * z) * hyp_po_d(z);  // sinh r - r
    const double P = bit_cast<double>((ku + 1021u) << 52);
    // Q enters the exact part (S, C below) only while P +- Q is exact (k <= 26); beyond, it
    // is below 2^-54 P and joins the small terms (clamped at 2^-62, its size is immaterial).
    const uint64_t kq = ku < 60u ? ku : 60u;
    const uint64_t qbits = (1021u - kq) << 52;
    const double Qm = bit_cast<double>(ku <= 26u ? qbits : uint64_t(0));
    const double Qr = bit_cast<double>(ku <= 26u ? uint64_t(0) : qbits);
    const double S = P - Qm, C = P + Qm;  // exact
    // sinh: S cosh r + C sinh r = S + C rh + (C rl + S e1 + C o3)
    // cosh: C cosh r + S sinh r = C + S rh + (S rl + C e1 + S o3)
    const double A = sgn < 0 ? S : C;  // multiplies cosh r
    const double B = sgn < 0 ? C : S;  // multiplies sinh r
    const double t = B * rh;
    const double te = hyp_prod_err(B, rh, t);  // exact error of the product
    double hi, lo;
    hyp_fast2sum(A, t, hi, lo);        // |A| >= |t| (or A == 0)
    double small = fma(B, o3, fma(A, e1, fma(B, rl, lo + te)));
    small = fma(double(sgn) * Qr, 1.0 - r, small);  // +- Q e^-r for k > 26 (to first order)
    return hi + small;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// sinh, cosh (double)
//
// a = |x| = k ln2 + r, |r| <= ln2/2 (Cody-Waite, the shifter trick as in exp), and
//   sinh a = sinh(k ln2) cosh r + cosh(k ln2) sinh r,  cosh a = cosh(k ln2) cosh r + ...
// with sinh(k ln2), cosh(k ln2) = 2^(k-1) -+ 2^(-k-1) built from bits (exact for k <= 26; for
// larger k the 2^(-k-1) part is carried separately as a tiny term). cosh r = 1 + z Pe(z),
// sinh r = r + r z Po(z) (z = r^2, near-minimax, relative errors 2e-16 / 1e-16). The leading
// part S + C rh is summed exactly (product error by FMA, Fast2Sum) and everything else is a
// small correction, so the result has one main rounding: measured max error 0.94 ulp, where
// sinh cancels most (k = 1, r < 0: |x| just above ln2/2; elsewhere below 0.85 ulp).
// One formula covers all |x|: k = 0 gives sinh = r + r z Po(z) exactly as an odd polynomial
// would (no cancellation for small |x|), and computing with 2^(k-2) and doubling at the end
// keeps sinh and cosh finite up to their overflow threshold 710.4758600739439 (exp itself
// overflows at 709.78). sinh(x) = x below 2^-28 (where it rounds to x; the halving would lose
// subnormal bits); the test is on the result so that its computation stays unconditional.
// ---------------------------------------------------------------------------
AC_SIMD_INLINE double sinh(double x) noexcept {
    const double a = __builtin_fabs(x);
    const double y = 2.0 * detail::hyp_sinhcosh_half<-1>(a);
    const double res = y < 0x1p-28 ? a : y;  // y < 2^-28 iff a < 2^-28 (up to rounding)
    return __builtin_copysign(res, x);
}

AC_SIMD_INLINE double cosh(double x) noexcept {
    return 2.0 * detail::hyp_sinhcosh_half<1>(__builtin_fabs(x));
}

namespace detail {
// float: cosh r - 1 = z Pe(z), sinh r - r = r z Po(z) on |r| <= ln2/2 (relative errors 5e-9
// and 3e-8 with the float coefficients, in terms below 0.06 and 0.007 of the result).
AC_SIMD_INLINE float hyp_pe_f(float z) noexcept {
    constexpr float c0 = 0x1p-1f, c1 = 0x1.5554eap-5f, c2 = 0x1.6d42dep-10f;
    return fma(fma(c2, z, c1), z, c0);
}
AC_SIMD_INLINE float hyp_po_f(float z) noexcept {
    constexpr float c0 = 0x1.555556p-3f, c1 = 0x1.1110e2p-7f, c2 = 0x1.a124c8p-13f;
    return fma(fma(c2, z, c1), z, c0);
}
// sinh(|x|)/2 (sgn < 0) or cosh(x)/2 (sgn > 0), float; the double algorithm with float
// pieces: P = 2^(k-2), Q = 2^(-k-2), exact in the leading part while P -+ Q is (k <= 11).
template <int sgn>
AC_SIMD_INLINE float hyp_sinhcosh_half(float x) noexcept {
    constexpr float kLog2e = 0x1.715476p+0f;
    constexpr float kShift = 0x1.8p23f;
    const float a = __builtin_fabsf(x);
    const float xc = a > 89.5f ? 89.5f : a;  // sinh, cosh(89.5) overflow; NaN passes
    const float kf = fma(xc, kLog2e, kShift);
    const uint32_t ku = bit_cast<uint32_t>(kf) - bit_cast<uint32_t>(kShift);  // k in [0, 129]
    const float k = kf - kShift;
    const float rh = fma(-k, kLn2HiF, xc);  // exact
    const float rl = -k * kLn2LoF;
    const float r = rh + rl;
    const float z = r * r;
    const float e1 = z * hyp_pe_f(z);        // cosh r - 1
    const float o3 = (r * z) * hyp_po_f(z);  // sinh r - r
    const float P = bit_cast<float>((ku + 125u) << 23);
    const uint32_t kq = ku < 16u ? ku : 16u;  // beyond, Q < 2^-32 P: its size is immaterial
    const uint32_t qbits = (125u - kq) << 23;
    const float Qm = bit_cast<float>(ku <= 11u ? qbits : 0u);
    const float Qr = bit_cast<float>(ku <= 11u ? 0u : qbits);
    const float S = P - Qm, C = P + Qm;  // exact
    const float A = sgn < 0 ? S : C;
    const float B = sgn < 0 ? C : S;
    const float t = B * rh;
    const float te = hyp_prod_err(B, rh, t);
    float hi, lo;
    hyp_fast2sum(A, t, hi, lo);
    float small = fma(B, o3, fma(A, e1, fma(B, rl, lo + te)));
    small = fma(float(sgn) * Qr, 1.0f - r, small);
    return hi + small;
}
}  // namespace detail

// ---------------------------------------------------------------------------
// sinh, cosh (float)
//
// The double algorithm above in float arithmetic (16 lanes per AVX-512 vector): k <= 129,
// P = 2^(k-2) (doubled at the end, so sinh and cosh stay finite up to 89.415985); the
// exactly summed leading part S + C rh and Cody-Waite pieces keep the error at one final
// rounding plus small terms: measured max error 0.78 ulp (sinh) and 0.75 ulp (cosh) over all
// floats, within 1 ulp of the correctly rounded result. (Computing in double, as the float
// expm1 does, is correctly rounded but measured 25-60% slower: conversions, 8 lanes.)
// ---------------------------------------------------------------------------
AC_SIMD_INLINE float sinh(float x) noexcept {
    const float a = __builtin_fabsf(x);
    const float y = 2.0f * detail::hyp_sinhcosh_half<-1>(x);
    // below 2^-12 sinh(x) rounds to x (and the halving would lose subnormal bits); the test
    // is on the result so that its computation stays unconditional
    const float res = y < 0x1p-12f ? a : y;
    return __builtin_copysignf(res, x);
}
AC_SIMD_INLINE float cosh(float x) noexcept {
    return 2.0f * detail::hyp_sinhcosh_half<1>(x);
}

// ===========================================================================================
// asinh, acosh, atanh
// ===========================================================================================
namespace detail {

template <class T> struct HypTraits;
template <> struct HypTraits<float> {
    using U = uint32_t;
    static constexpr int kMant = 23;
    static constexpr U kBias = 127;
    static constexpr U kOne = 0x3f800000u, kSqrtHalf = 0x3f3504f3u, kMantMask = 0x007fffffu;
    static constexpr U kRsqrtMagic = 0x5f375a86u;
    static constexpr int kNewton = 2;  // rsqrt steps: 3.4% -> 8.8e-4 -> 1.2e-6
    static constexpr float kLn2Hi = kLn2HiF, kLn2Lo = kLn2LoF;
    static constexpr float kBig = 0x1p12f;    // asinh/acosh(x) = log(2x) beyond (error 2^-29)
    static constexpr float kTiny = 0x1p-12f;  // asinh(x) = x - x^3/6 below (rounds to x)
};
template <> struct HypTraits<double> {
    using U = uint64_t;
    static constexpr int kMant = 52;
    static constexpr U kBias = 1023;
    static constexpr U kOne = 0x3ff0000000000000ull, kSqrtHalf = 0x3fe6a09e667f3bcdull,
                       kMantMask = 0x000fffffffffffffull;
    static constexpr U kRsqrtMagic = 0x5fe6eb50c7b537a9ull;
    static constexpr int kNewton = 3;  // 3.4% -> 8.8e-4 -> 1.2e-6 -> 2.0e-12
    static constexpr double kLn2Hi = kLn2HiD, kLn2Lo = kLn2LoD;
    static constexpr double kBig = 0x1p28;    // asinh/acosh(x) = log(2x) beyond (error 2^-58)
    static constexpr double kTiny = 0x1p-20;  // asinh(x) = x - x^3/6 below (error 2^-83)
};

// n - q*d exactly, for a quotient q = fl(n/d) (the remainder of a correctly rounded or
// faithful division is representable): one FMA, or without FMA n - fl(q*d) (exact, Sterbenz)
// minus the product's rounding error.
template <class T>
AC_SIMD_INLINE T hyp_residual(T q, T d, T n) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return fma(-q, d, n);
#else
    const T p = q * d;
    return (n - p) - hyp_prod_err(q, d, p);
#endif
}

// atanh(s) - s = s z Ra(z), z = s^2, |s| <= 0.1716 (the log core's range)
AC_SIMD_INLINE float hyp_ra(float z) noexcept {
    constexpr float c0 = 0x1.55555cp-2f, c1 = 0x1.997c24p-3f, c2 = 0x1.2ee79cp-3f;
    return fma(fma(c2, z, c1), z, c0);
}
AC_SIMD_INLINE double hyp_ra(double z) noexcept {
    constexpr double c0 = 0x1.5555555555558p-2, c1 = 0x1.99999999952a4p-3,
                     c2 = 0x1.2492492df74f4p-3, c3 = 0x1.c71c62de9d82ep-4,
                     c4 = 0x1.7462b6722f1c4p-4, c5 = 0x1.39fe2a45d34cbp-4,
                     c6 = 0x1.2b5ab497d8575p-4;
    const double z2 = z * z;
    double ph = fma(c6, z, c5);
    ph = fma(ph, z, c4);
    ph = fma(ph, z, c3);
    double pl = fma(c2, z, c1);
    pl = fma(pl, z, c0);
    return fma(ph, z2 * z, pl);
}

// 1/sqrt(v) for v >= 0 to 2.0e-12 (double) / 1.2e-6 (float) relative: the bit-pattern
// estimate ("magic constant", max relative error 3.4%) and Newton steps y (3 - v y^2)/2.
// Callers correct sqrt(v) = v y with one residual step, which leaves the square of this
// error (2^-78 double, 2^-40 float; relative to sqrt(1 + a^2) ~ 1 that bounds how small an
// asinh argument this path may serve: 2^-20 double, 2^-12 float).
template <class T>
AC_SIMD_INLINE T hyp_rsqrt(T v) noexcept {
    using Tr = HypTraits<T>;
    using U = typename Tr::U;
    // v = 0 (acosh(1)): the estimate is taken from the smallest normal number instead (an
    // integer max, so that GCC cannot fold a constant arm through the Newton steps); the
    // steps then stay finite and sqrt = v y = 0.
    constexpr U kMinBits = U(1) << Tr::kMant;
    const U vb = bit_cast<U>(v);
    T y = bit_cast<T>(U(Tr::kRsqrtMagic - ((vb > kMinBits ? vb : kMinBits) >> 1)));
    // first step y (alpha - beta v y^2), minimax for the estimate's error range
    // [-3.44%, +3.40%]: 8.8e-4 (plain Newton, alpha = 3/2, beta = 1/2: 1.75e-3)
    constexpr T kAlpha = T(1.5013145605), kBeta = T(0.50043820172);
    y = y * fma(T(-kBeta) * v * y, y, kAlpha);
    const T hv = T(-0.5) * v;
    y = y * fma(hv * y, y, T(1.5));                         // 1.2e-6
    if constexpr (Tr::kNewton > 2) y = y * fma(hv * y, y, T(1.5));  // 2.0e-12
    return y;
}

// sqrt(vh + vl) as sh + sl (|vl| <~ ulp(vh), vh >= 0): sh = vh y with y = hyp_rsqrt, and
// one Newton (Heron) correction from the exact residual vh - sh^2, which leaves half the
// square of rsqrt's relative error. vh = 0 gives exactly 0.
template <class T>
AC_SIMD_INLINE void hyp_sqrt_dd(T vh, T vl, T& sh, T& sl) noexcept {
    const T y = hyp_rsqrt(vh);
    const T s = vh * y;
    const T c = (hyp_residual(s, s, vh) + vl) * (T(0.5) * y);
    hyp_fast2sum(s, c, sh, sl);
}

// log(wh + wl) + extra ln2, for finite wh >= 1 (|wl| <~ ulp(wh); extra = 0 or 2), with one
// final rounding plus small terms (measured < 0.6 ulp in double). fdlibm's decomposition in
// double-double pieces:
//   w = 2^e m, m in [sqrt(1/2), sqrt(2)) (bits, exact; wl scaled by 2^-e with it),
//   log w = e ln2 + 2 atanh(s),  s = (m - 1)/(m + 1),  |s| <= 0.1716,
// where m - 1 is exact (Sterbenz) and m + 1 is exact with its Fast2Sum error, s = s_h + s_l
// from one division and its exact residual (1/(m + 1) = (1 - s)/2 scales the residual, no
// second division), 2 atanh(s) = 2 s + 2 s z Ra(z), z = s^2, and e ln2_hi + 2 s_h summed
// exactly (Fast2Sum): cancellation between e ln2 and 2 atanh(s) < 0 (e >= 1) then costs
// nothing. The core of asinh, acosh (and atanh in double).
template <class T>
AC_SIMD_INLINE T hyp_log_dd(T wh, T wl, T extra) noexcept {
    using Tr = HypTraits<T>;
    using U = typename Tr::U;
    constexpr int M = Tr::kMant;
    const U ix = bit_cast<U>(wh) + (Tr::kOne - Tr::kSqrtHalf);
    const U ef = ix >> M;  // e + bias, e >= 0
    // e as T without an int->float conversion: OR the field into the mantissa of 2^M
    const T e = bit_cast<T>(ef | (U(Tr::kBias + M) << M)) - (T(U(1) << M) + T(Tr::kBias)) +
                extra;
    const T mh = bit_cast<T>((ix & Tr::kMantMask) + Tr::kSqrtHalf);
    // wl 2^-e (the field of 2^-e clamped at 0, i.e. 2^-e -> 0, for the infinite or NaN wh of
    // an infinite or NaN argument: the result is then fixed up or NaN through wl)
    const U efc = ef < U(2 * Tr::kBias) ? ef : U(2 * Tr::kBias);
    const T ml = wl * bit_cast<T>(U(2 * Tr::kBias - efc) << M);
    T nh, nl;
    hyp_fast2sum(mh - T(1), ml, nh, nl);  // m - 1 (mh - 1 exact)
    const T dh = T(1) + mh;               // m + 1 = dh + dl
    const T dl = (mh - (dh - T(1))) + ml;
    const T sh = nh / dh;
    const T sl = (hyp_residual(sh, dh, nh) + fma(-sh, dl, nl)) * fma(T(-0.5), sh, T(0.5));
    const T z = sh * sh;
    const T s2 = T(2) * sh;
    T hi, lo;
    hyp_fast2sum(e * Tr::kLn2Hi, s2, hi, lo);  // e ln2_hi exact; |e ln2| >= |2 s| or e = 0
    const T small = fma(s2 * z, hyp_ra(z), fma(e, Tr::kLn2Lo, fma(T(2), sl, lo)));
    return hi + small;
}

// res + correction for the special inputs of asinh/acosh/atanh (the main computation runs on
// clamped inputs and is finite): inf_if -> +inf, nan_if -> NaN, x NaN -> x. As in
// log_fixup, a correction added rather than selects on res keeps GCC from sinking the main
// computation into a branch.
template <class T>
AC_SIMD_INLINE T hyp_fixup(T x, T res, bool inf_if, bool nan_if) noexcept {
    constexpr T kInf = std::numeric_limits<T>::infinity();
    T corr = inf_if ? kInf : T(0);
    corr = nan_if ? std::numeric_limits<T>::quiet_NaN() : corr;
    corr = x != x ? x : corr;
    return res + corr;
}

// atanh's fixup: res for a = |x| < 1, +inf for a = 1, NaN for a > 1 and NaN.
template <class T>
AC_SIMD_INLINE T hyp_atanh_fixup(T a, T res) noexcept {
    T corr = a == T(1) ? std::numeric_limits<T>::infinity()
                       : std::numeric_limits<T>::quiet_NaN();
    corr = a < T(1) ? T(0) : corr;
    return res + corr;
}

template <class T>
AC_SIMD_INLINE T hyp_asinh(T x) noexcept {
    using Tr = HypTraits<T>;
    const T a = __builtin_fabs(x);
    const bool big = a > Tr::kBig;
    // w = a + sqrt(1 + a^2) in double-double (used for a <= kBig; beyond, a^2 may overflow
    // and w is replaced below)
    const T a2h = a * a;
    const T a2l = hyp_prod_err(a, a, a2h);
    T vh, vl;  // 1 + a^2: Fast2Sum with the operands ordered (both are >= 0)
    hyp_fast2sum(a2h > T(1) ? a2h : T(1), a2h > T(1) ? T(1) : a2h, vh, vl);
    T sh, sl;
    hyp_sqrt_dd(vh, vl + a2l, sh, sl);
    T wh, wl;
    hyp_fast2sum(sh, a, wh, wl);  // sqrt(1 + a^2) >= a
    wl += sl;
    // beyond kBig: log(2a) = log(a/2) + 2 ln2 (halved so that 2^-e stays a normal number in
    // hyp_log_dd; +inf comes out finite and is restored by the fixup); selected on the bit
    // patterns
    using U = typename Tr::U;
    wh = bit_cast<T>(big ? bit_cast<U>(T(0.5) * a) : bit_cast<U>(wh));
    wl = bit_cast<T>(big ? U(0) : bit_cast<U>(wl));
    const T res = hyp_fixup(a, hyp_log_dd(wh, wl, big ? T(2) : T(0)),
                            a == std::numeric_limits<T>::infinity(), false);
    // below kTiny: a - a^3/6 (subnormal a: a); selected on the bit patterns, and tested on
    // res (which is close enough to a there) so that its computation stays unconditional
    const T tiny = fma(a * a, T(-1.0 / 6.0) * a, a);
    const T r = bit_cast<T>(res < Tr::kTiny ? bit_cast<U>(tiny) : bit_cast<U>(res));
    return __builtin_copysign(r, x);
}

template <class T>
AC_SIMD_INLINE T hyp_acosh(T x) noexcept {
    using Tr = HypTraits<T>;
    using U = typename Tr::U;
    const bool big = x > Tr::kBig;
    // w = x + sqrt(x^2 - 1) in double-double (used for 1 <= x <= kBig; x < 1 gives garbage
    // or NaN here and NaN through the fixup); x^2 - 1 exact for x^2 <= 2, else one Fast2Sum
    const T xc = x;
    const T x2h = xc * xc;
    const T x2l = hyp_prod_err(xc, xc, x2h);
    T vh, e0;
    hyp_fast2sum(x2h, T(-1), vh, e0);  // e0 = 0 for x^2 <= 2
    T sh, sl;
    hyp_sqrt_dd(vh, e0 + x2l, sh, sl);
    T wh, wl;
    hyp_fast2sum(xc, sh, wh, wl);  // x >= sqrt(x^2 - 1)
    wl += sl;
    wh = bit_cast<T>(big ? bit_cast<U>(T(0.5) * x) : bit_cast<U>(wh));
    wl = bit_cast<T>(big ? U(0) : bit_cast<U>(wl));
    const T res = hyp_log_dd(wh, wl, big ? T(2) : T(0));
    return hyp_fixup(x, res, x == std::numeric_limits<T>::infinity(), x < T(1));
}


// atanh(s) - s = s z Rb(z), z = s^2, 0 <= s <= 1/3 (+2^-20): the float atanh's range
AC_SIMD_INLINE float hyp_rb(float z) noexcept {
    constexpr float c0 = 0x1.555556p-2f, c1 = 0x1.9998d2p-3f, c2 = 0x1.24c986p-3f,
                    c3 = 0x1.bc8244p-4f, c4 = 0x1.dbd2c2p-4f;
    return fma(fma(fma(fma(c4, z, c3), z, c2), z, c1), z, c0);
}

}  // namespace detail

// ---------------------------------------------------------------------------
// asinh, acosh (float, double)
//
// asinh(x) = sign(x) log(a + sqrt(1 + a^2)), a = |x|;  acosh(x) = log(x + sqrt(x^2 - 1)).
// The argument w of the log is formed in double-double: a^2 (x^2) exactly (FMA, or Dekker's
// product), 1 + a^2 (x^2 - 1) by Fast2Sum, the square root as v y from a bit-pattern 1/sqrt
// estimate and three (double) / two (float) Newton steps, corrected by one Heron step from
// the exact residual, and w by Fast2Sum. detail::hyp_log_dd then takes the log of the pair
// with one final rounding: measured max errors 0.56-0.58 ulp (float: within 1 ulp of the
// correctly rounded result for every float). Near 0 (asinh) and 1 (acosh) nothing cancels:
// w - 1 = m - 1 is exact in the log core and the low parts carry a^2/2 and sqrt(2(x - 1)).
// Beyond 2^28 (double) / 2^12 (float) the result is log(x/2) + 2 ln2 (dropped terms below
// 2^-58 / 2^-29 relative), which also avoids overflow of x^2. Below 2^-20 (double) / 2^-12
// (float) asinh(x) = x - x^3/6 (the Heron-corrected square root is accurate to 2^-78 only,
// too little next to a^2/2 there). The sqrt path runs unclamped (x^2 may overflow, x < 1
// gives garbage for acosh): its lanes are replaced, or turned to NaN by the fixup.
// ---------------------------------------------------------------------------
AC_SIMD_INLINE double asinh(double x) noexcept { return detail::hyp_asinh(x); }
AC_SIMD_INLINE float asinh(float x) noexcept { return detail::hyp_asinh(x); }
AC_SIMD_INLINE double acosh(double x) noexcept { return detail::hyp_acosh(x); }
AC_SIMD_INLINE float acosh(float x) noexcept { return detail::hyp_acosh(x); }

// ---------------------------------------------------------------------------
// atanh (float)
//
// atanh(a) = log(w)/2, w = (1 + a)/(1 - a), a = |x| < 1, with w = 2^e m, m in [1, 2) (e from
// the bits of a float quotient, which is only used for that) and
//   atanh(a) = e ln2/2 + atanh(s),  s = (m - 1)/(m + 1) = N/D in [0, 1/3],
//   N = 1 + a - 2^e (1 - a) = a + g,  g = 2^e a + (1 - 2^e)   (g exact: the sum is
//   representable; N by Fast2Sum, exact as a pair),  D = 1 + a + 2^e (1 - a) (one rounding).
// e = 0 (a < 1/3) gives N = 2a, D = 2, s = a exactly, so small arguments (subnormals
// included) lose nothing; for e >= 1 atanh(s) <= ln2/2 <= e ln2/2 and the two add without
// cancellation (Fast2Sum). s is corrected by its exact division residual, atanh(s) =
// s + s z Rb(z). Measured max error 0.86 ulp, within 1 ulp of the correctly rounded result
// for every float (the rounding of D, weighted by atanh(s)/result <= 1/2, is what is left).
// (Floats are cheap to divide: three divisions.) atanh(+-1) = +-inf, |x| > 1 -> NaN.
// ---------------------------------------------------------------------------
AC_SIMD_INLINE float atanh(float x) noexcept {
    const float a = __builtin_fabsf(x);
    // |x| >= 1 and NaN: computed with a = 0 and fixed up at the end (clamped on the bit
    // pattern, as in the double atanh)
    const float ac = detail::bit_cast<float>(detail::bit_cast<uint32_t>(a) &
                                             (a < 1.0f ? ~uint32_t(0) : uint32_t(0)));
    const float w = (1.0f + ac) / (1.0f - ac);
    // e = floor(log2 w) from the exponent field, at most 24: the true w is below 2^25
    // (a <= 1 - 2^-24), the rounded quotient may reach it, and 1 - 2^e must stay exact
    const uint32_t wf = detail::bit_cast<uint32_t>(w) >> 23;
    const uint32_t ef = wf < 151u ? wf : 151u;  // e + 127
    const float E = detail::bit_cast<float>(ef << 23);
    const float e = detail::bit_cast<float>(ef | 0x4b000000u) - (0x1p23f + 127.0f);
    const float g = E * ac + (1.0f - E);  // exact
    float nh, nl;
    detail::hyp_fast2sum(ac, g, nh, nl);  // |g| <= a
    // D = (1 - 2^e) a + (1 + 2^e), one rounding; 1 + 2^e is inexact for e = 24 only (a =
    // 1 - 2^-24), where the lost 1 is added back
    const float ep1 = 1.0f + E;
    const float d = detail::hyp_fma1(1.0f - E, ac, ep1) + (1.0f - (ep1 - E));
    const float sh = nh / d;
    const float sl = (detail::hyp_residual(sh, d, nh) + nl) / d;
    const float z = sh * sh;
    float hi, lo;
    detail::hyp_fast2sum(e * (0.5f * detail::kLn2HiF), sh, hi, lo);  // e ln2/2 >= s or e = 0
    const float small = detail::fma(sh * z, detail::hyp_rb(z),
                                    detail::fma(e, 0.5f * detail::kLn2LoF, lo + sl));
    const float res = detail::hyp_atanh_fixup(a, hi + small);
    return __builtin_copysignf(res, x);
}

// ---------------------------------------------------------------------------
// atanh (double)
//
// The same N/D formulation with the log core's round-to-nearest e (m in [sqrt(1/2),
// sqrt(2)), |s| <= 0.1716, so the degree-6 Ra serves and no long polynomial is needed) and
// double-double pieces throughout, since the e ln2/2 + atanh(s) sum may now cancel (s < 0):
//   P = 1 + a, M = 1 - a as exact pairs (Fast2Sum), E = 2^e from M's exponent and one
//   comparison (no division), N = P - E M (P_h - E M_h exact by Sterbenz, TwoSum with the
//   low parts), D = P + E M (TwoSum), s = N/D with its exact division residual scaled by
//   1/D = (1 + s)/(2P) (1/P from a linear minimax fit: the correction needs only a few bits),
//   atanh(a) = e ln2/2 + s + (s z Ra(z) + low parts), e ln2_hi/2 + s_h by Fast2Sum.
// One double division. e = 0 (a < 0.1716) gives N = 2a, D = 2, s = a exactly (tiny and
// subnormal a included). Measured max error 0.56 ulp.
// ---------------------------------------------------------------------------
AC_SIMD_INLINE double atanh(double x) noexcept {
    using U = uint64_t;
    const double a = __builtin_fabs(x);
    // |x| >= 1 and NaN: computed with a = 0 and fixed up at the end (clamped on the bit
    // pattern: with a floating-point select GCC threads the constant arm through the whole
    // computation and then cannot if-convert it)
    const double ac = detail::bit_cast<double>(detail::bit_cast<U>(a) & (a < 1.0 ? ~U(0) : U(0)));
    double ph, pl, mh, ml;
    detail::hyp_fast2sum(1.0, ac, ph, pl);
    detail::hyp_fast2sum(1.0, -ac, mh, ml);
    // e = round(log2(P/M)): M = 2^eM mM with mM in [sqrt(1/2), sqrt(2)) (the log's bit
    // trick), so q = P/mM is in (sqrt(1/2), 2 sqrt(2)) (P in [1, 2)), and e = -eM, or
    // -eM + 1 when q >= sqrt(2). (Rounding in the comparison can only put m = 2^-e P/M a few
    // ulps outside [sqrt(1/2), sqrt(2)), which the polynomial's margin covers.)
    const U mb = detail::bit_cast<U>(mh) + (0x3ff0000000000000ull - 0x3fe6a09e667f3bcdull);
    const double mm = detail::bit_cast<double>((mb & 0x000fffffffffffffull) + 0x3fe6a09e667f3bcdull);
    const U up = ph >= 0x1.6a09e667f3bcdp+0 * mm ? U(1) : U(0);
    const U ef = 2046u - (mb >> 52) + up;  // e + 1023, e = up - eM >= 0
    const double E = detail::bit_cast<double>(ef << 52);
    const double e = detail::bit_cast<double>(ef | 0x4330000000000000ull) - (0x1p52 + 1023.0);
    const double emh = E * mh, eml = E * ml;
    double nh, nl, dh, dl;
    detail::hyp_twosum(ph - emh, pl - eml, nh, nl);  // ph - emh exact (Sterbenz)
    detail::hyp_twosum(ph, emh, dh, dl);
    dl += pl + eml;
    const double sh = nh / dh;
    // 1/D = (1 + s)/(2P), 1/(2P) ~ (12 - 4P)/17 on [1, 2] (linear minimax, 5.9%)
    const double invd = (1.0 + sh) * detail::fma(-4.0 / 17.0, ph, 12.0 / 17.0);
    const double sl = (detail::hyp_residual(sh, dh, nh) + detail::fma(-sh, dl, nl)) * invd;
    const double z = sh * sh;
    double hi, lo;
    detail::hyp_fast2sum(e * (0.5 * detail::kLn2HiD), sh, hi, lo);
    const double small = detail::fma(sh * z, detail::hyp_ra(z),
                                     detail::fma(e, 0.5 * detail::kLn2LoD, lo + sl));
    const double res = detail::hyp_atanh_fixup(a, hi + small);
    return __builtin_copysign(res, x);
}

}  // namespace arraycore::native::simd_math
