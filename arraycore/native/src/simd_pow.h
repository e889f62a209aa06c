// Branch-free real pow(x, y), log2 and log10 for float and double, built on simd_math's exp
// and log so that the elementwise loops vectorize (std::pow, a libm call per element, took
// 3-8 ms per 1e6 elements where NumPy takes 0.4-1.3 ms).
//
// |x|^y = exp(y * log|x|).  The product's error is multiplied by |y * log|x||, up to ~745
// where the result is still finite, so log|x| must carry more than double precision:
//   - double: log|x| as a double-double hi + lo (log_dd below, ~2^-66 relative), the product
//     y * (hi + lo) as t_hi + t_lo (t_lo by FMA), and exp(t_hi, t_lo) takes the low part into
//     its reduced argument: the result is within exp's own error (measured <= 1.4 ulp
//     against a long double reference; glibc's pow, NumPy's, is correctly rounded), and
//     exactly representable results (pow(3, 2) = 9) come out exact;
//   - float: log2 and exp2 with short polynomials in double (see pow(float) below).
// The sign and the special values of C99 Annex F (F.10.4.4) are selected afterwards, from x
// and y alone: pow(x, +-0) = 1 and pow(1, y) = 1 for any x, y (NaN included); pow(-1, +-inf)
// = 1; a finite x < 0 with a finite non-integer y is NaN; a negative x (-0 and -inf included)
// with an odd integer y gives the negated magnitude.  Everything else (zeros, infinities, |x|
// on either side of 1 with y = +-inf, NaN) falls out of exp(y * log|x|) with log(0) = -inf,
// log(inf) = inf and exp(+-inf) = inf / 0.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "simd_math.h"

namespace arraycore::native::simd_math {

namespace detail {

// log(x) = hi + lo for x > 0 (zero, inf, NaN: hi = log's special value, lo = 0).  The
// decomposition is log()'s: x = 2^e * m, m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact),
// s = f / (2 + f), log(m) = 2s + s*R(s^2) with log()'s own polynomial R.  2s carries the
// result, so s is kept as s_hi + s_lo: 2 + f = m + 1 as a TwoSum pair (it may round for
// m >= 1), s_hi = f / (2 + f) by one reciprocal, s_lo from the FMA residual.  The small
// term s*R (< 1% of 2s) needs no extra precision, and e*ln2 is e*LN2_HI (exact) plus
// e*LN2_LO.
AC_SIMD_INLINE void log_dd(double x, double& hi, double& lo) noexcept {
    double e, m;
    log_decompose(x, e, m);

    const double f = m - 1.0;  // exact
    const double den = m + 1.0;
    const double den_bb = den - 1.0;
    const double den_lo = (1.0 - (den - den_bb)) + (m - den_bb);  // TwoSum's error
    const double inv = 1.0 / den;
    const double s_hi = f * inv;
    const double resid = fma(-s_hi, den, f);  // f - s_hi * den, exact
    const double s_lo = (resid - s_hi * den_lo) * inv;

    const double z = s_hi * s_hi;
    const double sR = s_hi * (z * log_q(z));

    // e*LN2_HI + 2*s_hi by TwoSum, then the small terms.
    const double a = e * kLn2HiD;  // exact
    const double b = 2.0 * s_hi;
    const double sum = a + b;
    const double bb = sum - a;
    const double err = (a - (sum - bb)) + (b - bb);
    const double small = err + (fma(e, kLn2LoD, 2.0 * s_lo) + sR);
    const double h = sum + small;
    const double l = small - (h - sum);  // Fast2Sum: |sum| >= |small|

    // Special values as log_fixup does (a correction added to h, selected from x alone).
    hi = log_fixup(x, h);
    lo = (x > 0.0) & (x < std::numeric_limits<double>::infinity()) ? l : 0.0;
}

// The sign and special values of Annex F on a magnitude mag = |x|^y (see the file comment).
template <class T>
AC_SIMD_INLINE T pow_finish(T x, T y, T mag) noexcept {
    constexpr T kInf = std::numeric_limits<T>::infinity();
    // Every float of magnitude >= 2^24 (double: 2^53) is an even integer.
    constexpr T kAllEven = sizeof(T) == 4 ? T(0x1p24) : T(0x1p53);
    const T ay = std::fabs(y);
    const T ry = std::rint(y);
    const bool integer = ry == y;                      // true for +-inf, false for NaN
    const T half = y * T(0.5);
    const bool odd = integer & (ay < kAllEven) & (std::rint(half) != half);
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    const bool neg_base = (bit_cast<U>(x) >> (8 * sizeof(T) - 1)) != 0;  // -0 and -inf too
    T r = neg_base & odd ? -mag : mag;
    // A finite negative base with a finite non-integer exponent: NaN.
    r = (x < T(0)) & (x > -kInf) & !integer & (ay < kInf)
            ? std::numeric_limits<T>::quiet_NaN() : r;
    const bool one = (y == T(0)) | (x == T(1)) | ((x == T(-1)) & (ay == kInf));
    return one ? T(1) : r;
}

}  // namespace detail

AC_SIMD_INLINE double pow(double x, double y) noexcept {
    double hi, lo;
    detail::log_dd(std::fabs(x), hi, lo);
    const double t = y * hi;
    // Past |t| = 1024 exp saturates (0 or inf) and the low part, up to ulp(t), would only
    // turn into NaN inside it.
    const bool in_range = std::fabs(t) < 1024.0;
    const double t_lo = in_range ? detail::fma(y, hi, -t) + y * lo : 0.0;
    return detail::pow_finish(x, y, exp(t, t_lo));
}

// pow (float): |x|^y = 2^(y log2|x|) with only the middle in double, and short polynomials:
// the float result needs the double value to ~2^-27 relative, not double's full precision
// (the earlier double log and exp, each to ~1 ulp of double, took 4.9x NumPy's time).
//   - |x| = 2^e (1 + f) is reduced in float (log_reduce; subnormals scaled), then in double
//     s = f/(2 + f) (from a float reciprocal and one Newton step: relative error 2^-46),
//     log2(1 + f) = s P(s^2), P of degree 4 (relative error 2^-37.8), l = e + s P;
//   - t = y l (|t| <= 200 after the clamp: 2^-200 and 2^200 are 0 and inf in float), so
//     l's relative error enters the result multiplied by |t| ln2 <= 104 for finite results:
//     2^-31;
//   - 2^t = 2^k (1 + r Q(r)), k = round(t), r in [-1/2, 1/2], Q of degree 5 (relative error
//     2^-27.6), the scaling exact in double (subnormal and overflowing float results are
//     normal doubles), and one rounding to float.
// Measured max error 0.56 ulp (2e7 points: |x| in [0, 4], [0.999, 1.001] with |y| <= 1e5,
// the whole float range with |t| <= 150, large x); 98.6% correctly rounded.  Special values:
// log2(0) = -inf, log2(inf) = inf and NaN through log_fixup, NaN inputs by a final select
// (the clamps send NaN to a bound), the rest pow_finish.  Coefficients:
// tools/gen_simd_math_coeffs.py.
namespace detail {
AC_SIMD_INLINE double pow_mag_f(float e, float f, float y) noexcept {
    const float inv = 1.0f / (2.0f + f);
    const double fd = f, invd = inv;
    const double s0 = fd * invd;
    const double s = fma(invd, fma(-s0, 2.0 + fd, fd), s0);
    const double z = s * s;
    const double pa = fma(0x1.ec709d13c0821p-1, z, 0x1.71547652bed13p+1);
    const double pb = fma(fma(0x1.5ce39e0f72792p-2, z, 0x1.a58dceca72ce8p-2), z,
                          0x1.27777f461993ep-1);
    const double l = fma(s, fma(pb, z * z, pa), static_cast<double>(e));
    double t = static_cast<double>(y) * l;
    t = t < 200.0 ? t : 200.0;  // (NaN goes to a bound: callers fix NaN inputs up)
    t = t > -200.0 ? t : -200.0;
    constexpr double kShift = 0x1.8p52;
    const double kf = t + kShift;
    const uint64_t ku = bit_cast<uint64_t>(kf) - bit_cast<uint64_t>(kShift);
    const double r = t - (kf - kShift);  // exact
    const double r2 = r * r;
    const double qa = fma(0x1.ebfbe00e63baep-3, r, 0x1.62e4302fc626ep-1);
    const double qb = fma(0x1.3b2a53045179ap-7, r, 0x1.c6af6cdbbdcc7p-5);
    const double qc = fma(0x1.4413896e1ad27p-13, r, 0x1.5f0890162a90ap-10);
    const double er = fma(r, fma(fma(qc, r2, qb), r2, qa), 1.0);
    return er * bit_cast<double>((ku + 1023u) << 52);
}
}  // namespace detail

// pow for 0 < x < inf and a finite y, where every special case of pow is out of the way: the
// magnitude alone (the same bits as pow there).  For loops that check a block first.
AC_SIMD_INLINE float pow_positive(float x, float y) noexcept {
    float e, f;
    detail::log_reduce(x, e, f);
    return static_cast<float>(detail::pow_mag_f(e, f, y));
}

AC_SIMD_INLINE float pow(float x, float y) noexcept {
    const float ax = std::fabs(x);
    float e, f;
    detail::log_reduce(ax, e, f);
    e = detail::log_fixup(ax, e);  // -inf at 0, +inf at inf, NaN at NaN
    float mag = static_cast<float>(detail::pow_mag_f(e, f, y));
    mag = (ax != ax) | (y != y) ? std::numeric_limits<float>::quiet_NaN() : mag;
    return detail::pow_finish(x, y, mag);
}

// ---------------------------------------------------------------------------
// log2, log10: log(x) times log2(e) / log10(e).  In double the product is taken in
// double-double (log_dd times the constant's hi + lo), so exact results come out exact
// (log2(2^k) = k, log10(1000) = 3) and the error is one final rounding; float: see below.
// Special values are log's (the low parts are 0 there).
// ---------------------------------------------------------------------------

namespace detail {
AC_SIMD_INLINE double log_scaled(double x, double c_hi, double c_lo) noexcept {
    double hi, lo;
    log_dd(x, hi, lo);
    const double p = hi * c_hi;
    const bool finite = std::fabs(p) < std::numeric_limits<double>::infinity();
    const double tail = finite ? fma(hi, c_hi, -p) + (fma(hi, c_lo, lo * c_hi)) : 0.0;
    return p + tail;
}
inline constexpr double kLog2eHi = 0x1.71547652b82fep+0, kLog2eLo = 0x1.777d0ffda0d24p-56;
inline constexpr double kLog10eHi = 0x1.bcb7b1526e50ep-2, kLog10eLo = 0x1.95355baaafad3p-57;
}  // namespace detail

AC_SIMD_INLINE double log2(double x) noexcept {
    return detail::log_scaled(x, detail::kLog2eHi, detail::kLog2eLo);
}
AC_SIMD_INLINE double log10(double x) noexcept {
    return detail::log_scaled(x, detail::kLog10eHi, detail::kLog10eLo);
}
// float log2/log10 in float arithmetic (16 lanes per AVX-512 vector; the double evaluation,
// correctly rounded, took 3.7x NumPy's time): log(m) = hi + lo from log1p_ff (simd_math.h),
// times log2(e) or log10(e) split as float hi + lo, plus e (log2) or e log10(2) (log10, with
// log10(2)'s high part of 11 bits so e times it is exact).  The leading product and the
// addition are formed together by one FMA, a = fma(hi, C_HI, E), and its rounding error is
// recovered by a second, fma(hi, C_HI, E - a) (E - a is exact: Sterbenz, or E = 0), so the
// only large error is the final rounding.  Measured max error 0.70 ulp (log2) and 0.69 ulp
// (log10) over every float, and exact results stay exact: log2(2^k) = k (f = 0 makes every
// term but E zero), log10(10^k) = k for the float nearest 10^k, k = -37..38.
// *_common: positive normal finite x only (detail::log_in_common), the same values without
// the subnormal scaling and the special-value fixup (kernel_loops.h, HasCommonBranch).
namespace detail {
inline constexpr float kLog2eHiF = 0x1.715476p+0f, kLog2eLoF = 0x1.4ae0c0p-26f;
inline constexpr float kLog10eHiF = 0x1.bcb7b2p-2f, kLog10eLoF = -0x1.5b235ep-27f;
inline constexpr float kLog10_2HiF = 0x1.344p-2f, kLog10_2LoF = 0x1.3509f8p-18f;
AC_SIMD_INLINE float log2_sum(float e, float f) noexcept {
    float hi, lo;
    log1p_ff(f, hi, lo);
    const float a = fma(hi, kLog2eHiF, e);
    const float r1 = fma(hi, kLog2eHiF, e - a);
    return a + (r1 + fma(lo, kLog2eHiF, hi * kLog2eLoF));
}
AC_SIMD_INLINE float log10_sum(float e, float f) noexcept {
    float hi, lo;
    log1p_ff(f, hi, lo);
    const float a0 = e * kLog10_2HiF;  // exact
    const float a = fma(hi, kLog10eHiF, a0);
    const float r1 = fma(hi, kLog10eHiF, a0 - a);
    return a + (r1 + fma(lo, kLog10eHiF, fma(hi, kLog10eLoF, e * kLog10_2LoF)));
}
}  // namespace detail

AC_SIMD_INLINE float log2(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA)  // (see detail::fma)
        return static_cast<float>(log(static_cast<double>(x)) * detail::kLog2eHi);
    float e, f;
    detail::log_reduce(x, e, f);
    return detail::log_fixup(x, detail::log2_sum(e, f));
}
AC_SIMD_INLINE float log10(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA)  // (see detail::fma)
        return static_cast<float>(log(static_cast<double>(x)) * detail::kLog10eHi);
    float e, f;
    detail::log_reduce(x, e, f);
    return detail::log_fixup(x, detail::log10_sum(e, f));
}
AC_SIMD_INLINE float log2_common(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA) return log2(x);
    float e, f;
    detail::log_reduce_normal(x, e, f);
    return detail::log2_sum(e, f);
}
AC_SIMD_INLINE float log10_common(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA) return log10(x);
    float e, f;
    detail::log_reduce_normal(x, e, f);
    return detail::log10_sum(e, f);
}

}  // namespace arraycore::native::simd_math
