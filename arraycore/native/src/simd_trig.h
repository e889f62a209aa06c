// simd_trig.h -- branch-free, vectorizable sin and cos (float and double) in the style of
// simd_math.h (whose helpers they use; see its header comment for the conventions and
// tests/native/simd_math_check.cpp for the measured accuracy). Both are valid for
// |x| <= 2^20 (kTrigFastLimit); the elementwise kernels send blocks with
// larger |x| or NaN to libm.
#pragma once

#include "simd_math.h"

namespace arraycore::native::simd_math {

// ---------------------------------------------------------------------------
// sin, cos (float)
//
// Computed in double: x = k pi/2 + r with k = round(x 2/pi) and r by a
// Cody-Waite reduction (pi/2 = P1 + P2 + P3; k P1 and k P2 are exact for
// |k| < 2^20, so the roundings are relative to the small remainder), then
// Taylor polynomials of sin and cos on |r| <= pi/4 (to float accuracy); the
// quadrant k mod 4 picks +-sin(r) or +-cos(r), and one rounding to float at
// the end keeps the result within 1 ulp. Callers send |x| > kTrigFastLimit
// (and may send NaN) to libm instead (the elementwise kernel does this per
// block). Infinities and NaN come out NaN here too.
// ---------------------------------------------------------------------------

// sin/cos here are valid for |x| <= kTrigFastLimit (float and double).
inline constexpr double kTrigFastLimit = 1048576.0;  // 2^20

namespace detail {
// pi/2 = kPio2_1 + kPio2_2 + kPio2_3 (+ 1e-37): the first two have 33
// significant bits, so k * kPio2_1 and k * kPio2_2 are exact for |k| < 2^20
// with or without FMA.
inline constexpr double kPio2_1 = 0x1.921fb54400000p+0;
inline constexpr double kPio2_2 = 0x1.0b4611a600000p-34;
inline constexpr double kPio2_3 = 0x1.3198a2e037073p-69;
inline constexpr double k2OverPi = 0x1.45f306dc9c883p-1;

// r and the quadrant q (0..3) with x = (4m + q) pi/2 + r, |r| <= pi/4, for a
// float x: two parts of pi/2 suffice (the dropped k P3 is below 2^-48 while
// float results need r to ~2^-30 relative).
AC_SIMD_INLINE double reduce_pio2_f(double x, uint64_t& q) noexcept {
    constexpr double kShift = 0x1.8p52;
    const double kf = fma(x, k2OverPi, kShift);
    q = bit_cast<uint64_t>(kf) & 3u;  // k mod 4 (two's complement low bits)
    const double k = kf - kShift;
    const double r = fma(-k, kPio2_1, x);
    return fma(-k, kPio2_2, r);
}
// Float-accuracy polynomials on |r| <= pi/4 (truncation < 3e-9 relative,
// a twentieth of a float ulp): sin(r) = r + r^3 (-1/3! + ... + r^6/9!),
// cos(r) = 1 - r^2/2 + r^4 (1/4! - ... + r^6/10!).
AC_SIMD_INLINE double sin_poly_f(double r) noexcept {
    const double z = r * r;
    double p = 1.0 / 362880.0;         // 1/9!
    p = fma(p, z, -1.0 / 5040.0);
    p = fma(p, z, 1.0 / 120.0);
    p = fma(p, z, -1.0 / 6.0);
    return fma(r * z, p, r);
}
AC_SIMD_INLINE double cos_poly_f(double r) noexcept {
    const double z = r * r;
    double p = -1.0 / 3628800.0;       // 1/10!
    p = fma(p, z, 1.0 / 40320.0);
    p = fma(p, z, -1.0 / 720.0);
    p = fma(p, z, 1.0 / 24.0);
    return fma(z * z, p, fma(-0.5, z, 1.0));
}
// sin (Shift = 0) or cos (Shift = 1) of x = k pi/2 + r, from sin(r), cos(r) and
// q = k mod 4: q + Shift selects sin(r), cos(r), -sin(r), -cos(r). The
// selections are bit operations: as ternaries GCC turns them into branches,
// which blocks vectorization. sin(+-0) is +-0 (the polynomials' r + r^3 p
// loses the sign of -0).
template <unsigned Shift>
AC_SIMD_INLINE double pick_quadrant(uint64_t q, double sin_r, double cos_r, double x) noexcept {
    q += Shift;
    const uint64_t s = bit_cast<uint64_t>(sin_r), c = bit_cast<uint64_t>(cos_r);
    const uint64_t use_cos = 0 - (q & 1u);
    uint64_t v = ((c & use_cos) | (s & ~use_cos)) ^ ((q & 2u) << 62);
    if constexpr (Shift == 0) {
        const uint64_t xb = bit_cast<uint64_t>(x);
        const uint64_t is_zero = 0 - static_cast<uint64_t>((xb << 1) == 0);
        v = (xb & is_zero) | (v & ~is_zero);
    }
    return bit_cast<double>(v);
}
template <unsigned Shift>
AC_SIMD_INLINE float sincos_f(float xf) noexcept {
    const double x = static_cast<double>(xf);
    uint64_t q;
    const double r = reduce_pio2_f(x, q);
    return static_cast<float>(pick_quadrant<Shift>(q, sin_poly_f(r), cos_poly_f(r), x));
}
}  // namespace detail

AC_SIMD_INLINE float sin(float x) noexcept { return detail::sincos_f<0>(x); }
AC_SIMD_INLINE float cos(float x) noexcept { return detail::sincos_f<1>(x); }

// ---------------------------------------------------------------------------
// sin, cos (double)
//
// The same reduction with the remainder kept as a double-double r + rr (the
// k P3 product and the subtractions' rounding errors go to rr), Taylor
// polynomials to r^19 (sin) and r^20 (cos), truncation < 1e-21, and the
// first-order effect of rr added: sin(r + rr) = sin r + rr cos r,
// cos(r + rr) = cos r - rr sin r. cos's leading 1 - r^2/2 is compensated (its
// rounding error is recovered exactly), so both stay within 1 ulp (measured
// < 0.8 ulp, with and without FMA). Valid for
// |x| <= kTrigFastLimit; callers send larger |x| and NaN to libm.
// ---------------------------------------------------------------------------

namespace detail {
// r + rr = x - k pi/2 (as reduce_pio2), quadrant q.
AC_SIMD_INLINE double reduce_pio2_dd(double x, uint64_t& q, double& rr) noexcept {
    constexpr double kShift = 0x1.8p52;
    const double kf = fma(x, k2OverPi, kShift);
    q = bit_cast<uint64_t>(kf) & 3u;
    const double k = kf - kShift;
    const double a = fma(-k, kPio2_1, x);  // exact: k P1 is exact and a is x's tail
    const double b = k * kPio2_2;          // exact (33 + 20 significant bits)
    const double w = k * kPio2_3;          // rounded; its error is below 2^-100
    const double t = a - b;                // TwoSum: t + te == a - b
    const double tb = t - a;
    const double te = (a - (t - tb)) - (b + tb);
    const double r = t - w;                // Fast2Sum (|t| >> |w|): r + re == t - w
    rr = ((t - r) - w) + te;
    return r;
}
// sin(r + rr), |r| <= pi/4, |rr| <= ulp(r).
AC_SIMD_INLINE double sin_dd(double r, double rr) noexcept {
    const double z = r * r;
    double p = -1.0 / 121645100408832000.0;  // -1/19!
    p = fma(p, z, 1.0 / 355687428096000.0);  // 1/17!
    p = fma(p, z, -1.0 / 1307674368000.0);
    p = fma(p, z, 1.0 / 6227020800.0);
    p = fma(p, z, -1.0 / 39916800.0);
    p = fma(p, z, 1.0 / 362880.0);
    p = fma(p, z, -1.0 / 5040.0);
    p = fma(p, z, 1.0 / 120.0);
    p = fma(p, z, -1.0 / 6.0);
    return r + fma(r * z, p, fma(-0.5 * z, rr, rr));
}
// cos(r + rr), |r| <= pi/4, |rr| <= ulp(r).
AC_SIMD_INLINE double cos_dd(double r, double rr) noexcept {
    const double z = r * r;
    double p = 1.0 / 2432902008176640000.0;   // 1/20!
    p = fma(p, z, -1.0 / 6402373705728000.0);  // 1/18!
    p = fma(p, z, 1.0 / 20922789888000.0);
    p = fma(p, z, -1.0 / 87178291200.0);
    p = fma(p, z, 1.0 / 479001600.0);
    p = fma(p, z, -1.0 / 3628800.0);
    p = fma(p, z, 1.0 / 40320.0);
    p = fma(p, z, -1.0 / 720.0);
    p = fma(p, z, 1.0 / 24.0);
    const double hz = 0.5 * z;
    const double w = 1.0 - hz;
    const double tail = (1.0 - w) - hz;  // 1 - hz == w + tail exactly
    return w + (fma(z * z, p, -r * rr) + tail);
}
template <unsigned Shift>
AC_SIMD_INLINE double sincos_d(double x) noexcept {
    uint64_t q;
    double rr;
    const double r = reduce_pio2_dd(x, q, rr);
    return pick_quadrant<Shift>(q, sin_dd(r, rr), cos_dd(r, rr), x);
}
}  // namespace detail

AC_SIMD_INLINE double sin(double x) noexcept { return detail::sincos_d<0>(x); }
AC_SIMD_INLINE double cos(double x) noexcept { return detail::sincos_d<1>(x); }

}  // namespace arraycore::native::simd_math
