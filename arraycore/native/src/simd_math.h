// simd_math.h -- header-only, branch-free elementary functions written so that
// GCC/Clang auto-vectorize loops such as
//
//     for (int64_t i = 0; i < n; ++i) out[i] = simd_math::exp(in[i]);
//
// when compiled with -O3 -march=native (AVX2/FMA: 8 floats or 4 doubles per
// instruction). glibc's scalar expf/exp/logf/log are opaque calls and block
// vectorization; these functions contain no calls, no branches that depend on
// the argument, and no table lookups -- only arithmetic, comparisons turned
// into selects (ternaries on values), and integer operations on the bit
// patterns obtained through bit casts.
//
// IEEE semantics are kept (no -ffast-math needed or assumed): NaN propagates,
// infinities, signed zeros, overflow to +inf, gradual underflow to subnormals
// and then to +0 are all produced exactly as the C library does. The code is
// accurate both when the compiler contracts a*b+c into FMA
// (-ffp-contract=fast, the GNU default) and when it does not (-std=c++20 sets
// -ffp-contract=off); where an FMA is useful it is requested explicitly via
// detail::fma, which is a hardware FMA when the target has one.
//
// Functions: exp, log, expm1, log1p, tanh (float and double); sin and cos are in
// simd_trig.h, built on this header.
// Accuracy (measured by tests/native/simd_math_check.cpp, see that file):
//   float  exp/log: <= 1 ulp from the correctly rounded result (< 0.95 ulp
//                   from the exact value)
//   float  expm1/log1p: computed in float, < 1 ulp (measured 0.72 / 0.66 ulp over
//                   every float)
//   float  tanh: computed in float, <= 1 ulp from the correctly rounded result
//                   (max error 1.37 ulp from the exact value; ac.tanh's float loop on
//                   AVX2/AVX-512 builds is kernels/tanh_pieces.h instead, 1.03 ulp)
//   float  sin/cos (simd_trig.h): computed in double, <= 1 ulp (|x| <= 2^20)
//   double exp/log: <= 2 ulp (measured < 0.97 ulp)
//   double expm1/log1p: <= 2 ulp (measured < 1.45 ulp)
//   double tanh: <= 2 ulp (measured < 1.29 ulp, with or without FMA)
//   double sin/cos (simd_trig.h): <= 1 ulp (measured < 0.8 ulp)
//
// Coefficient derivation: every polynomial below approximates only a
// *remainder* of the Taylor series (the leading terms are kept exact), and is
// a near-minimax fit obtained by Chebyshev interpolation in 60-digit
// arithmetic (mpmath.chebyfit) on the reduced interval, then rounded to the
// working precision. The script that regenerates them is
// tools/gen_simd_math_coeffs.py.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#if __has_include(<bit>)
#include <bit>
#endif

// Every function here is forced inline: the loops that call them vectorize only when the
// body is inlined into the loop, and GCC's inliner gives up in large translation units and
// under LTO (measured: the special-function kernels ran scalar, ~15x slower, until forced).
#ifndef AC_SIMD_INLINE
#if defined(__GNUC__)
#define AC_SIMD_INLINE inline __attribute__((always_inline))
#else
#define AC_SIMD_INLINE inline
#endif
#endif

namespace arraycore::native::simd_math {

namespace detail {

template <class To, class From>
AC_SIMD_INLINE To bit_cast(const From& from) noexcept {
    static_assert(sizeof(To) == sizeof(From));
#if defined(__cpp_lib_bit_cast) && __cpp_lib_bit_cast >= 201806L
    return std::bit_cast<To>(from);
#else
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
#endif
}

// Fused multiply-add when the hardware has it (one rounding; vectorizes to
// vfmadd), otherwise a plain multiply-add. All algorithms below are accurate
// with either form; FMA only improves them slightly -- except the float log2, log10, log1p
// and expm1, whose compensated sums need the exact products only an FMA gives: without one
// (x86-64 before Haswell) they evaluate in double and round, as they did before.
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
#define AC_SIMD_HAS_FMA 1
#else
#define AC_SIMD_HAS_FMA 0
#endif
AC_SIMD_INLINE float fma(float a, float b, float c) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return __builtin_fmaf(a, b, c);
#else
    return a * b + c;
#endif
}
AC_SIMD_INLINE double fma(double a, double b, double c) noexcept {
#if defined(__FMA__) || defined(__FMA4__) || defined(__aarch64__)
    return __builtin_fma(a, b, c);
#else
    return a * b + c;
#endif
}

// ln(2) split for Cody-Waite range reduction: LN2_HI has enough trailing zero
// bits that k*LN2_HI is exact for every k that can occur, LN2_LO = ln2-LN2_HI.
inline constexpr float kLn2HiF = 0x1.62e400p-1f;   // 15 significant bits
inline constexpr float kLn2LoF = 0x1.7f7d1cp-20f;
inline constexpr double kLn2HiD = 0x1.62e42fee00000p-1;  // 32 significant bits
inline constexpr double kLn2LoD = 0x1.a39ef35793c76p-33;

// P(r) ~ (e^r - 1 - r) / r^2 on [-ln2/2, ln2/2], degree 4 (float exp)
AC_SIMD_INLINE float exp_poly(float r) noexcept {
    constexpr float c0 = 0x1.000000p-1f, c1 = 0x1.5554dep-3f, c2 = 0x1.55551ap-5f,
                    c3 = 0x1.120b62p-7f, c4 = 0x1.6d10fcp-10f;
    float p = detail::fma(c4, r, c3);
    p = detail::fma(p, r, c2);
    p = detail::fma(p, r, c1);
    return detail::fma(p, r, c0);
}

// P(r) ~ (e^r - 1 - r) / r^2 on [-ln2/2, ln2/2], degree 9 (double exp/expm1)
AC_SIMD_INLINE double exp_poly(double r) noexcept {
    constexpr double c0 = 0x1.0000000000001p-1, c1 = 0x1.5555555555556p-3,
                     c2 = 0x1.5555555553d68p-5, c3 = 0x1.11111111109b5p-7,
                     c4 = 0x1.6c16c17889ef1p-10, c5 = 0x1.a01a01a7c2efep-13,
                     c6 = 0x1.a019b9149a41cp-16, c7 = 0x1.71de0db2f6b19p-19,
                     c8 = 0x1.28917c89a43a7p-22, c9 = 0x1.af389ecfc4b9cp-26;
    // Estrin-like split into two Horner chains for more instruction-level
    // parallelism.
    const double r2 = r * r;
    double ph = detail::fma(c9, r, c8);
    ph = detail::fma(ph, r, c7);
    ph = detail::fma(ph, r, c6);
    ph = detail::fma(ph, r, c5);
    double pl = detail::fma(c4, r, c3);
    pl = detail::fma(pl, r, c2);
    pl = detail::fma(pl, r, c1);
    pl = detail::fma(pl, r, c0);
    const double r4 = r2 * r2;
    const double r5 = r4 * r;
    const double p = detail::fma(ph, r5, pl);
    return p;
}

// The reduction shared by exp, exp_in_range, expm1 and the double tanh (Cody-Waite):
// x + x_lo = k ln2 + r, r = rh + rl with rh exact (k LN2_HI is exact and the subtraction is
// exact by Sterbenz's lemma) and rl tiny; e^r - 1 = rh + lo, lo = rl + r^2 P(r), so the
// linear term keeps rh and rl apart and rounding r costs no accuracy.  ku = k mod 2^32 (2^64),
// for building powers of two.  x must be clamped by the caller.
AC_SIMD_INLINE void exp_reduce(float x, float x_lo, float& rh, float& lo, uint32_t& ku) noexcept {
    constexpr float kLog2e = 0x1.715476p+0f;
    constexpr float kShift = 0x1.8p23f;  // 1.5 * 2^23
    const float kf = fma(x, kLog2e, kShift);
    ku = bit_cast<uint32_t>(kf) - bit_cast<uint32_t>(kShift);
    const float k = kf - kShift;  // exact
    rh = fma(-k, kLn2HiF, x);
    const float rl = fma(-k, kLn2LoF, x_lo);
    const float r = rh + rl;
    lo = fma(r * r, exp_poly(r), rl);
}
AC_SIMD_INLINE void exp_reduce(double x, double x_lo, double& rh, double& lo,
                               uint64_t& ku) noexcept {
    constexpr double kLog2e = 0x1.71547652b82fep+0;
    constexpr double kShift = 0x1.8p52;  // 1.5 * 2^52
    const double kf = fma(x, kLog2e, kShift);
    ku = bit_cast<uint64_t>(kf) - bit_cast<uint64_t>(kShift);
    const double k = kf - kShift;  // exact
    rh = fma(-k, kLn2HiD, x);
    const double rl = fma(-k, kLn2LoD, x_lo);
    const double r = rh + rl;
    lo = fma(r * r, exp_poly(r), rl);
}

// Q(z) of the double log below (log(1+f) = 2s + s z Q(z), z = s^2 in [0, 0.0295]), shared
// with simd_pow.h's double-double log.
AC_SIMD_INLINE double log_q(double z) noexcept {
    constexpr double c0 = 0x1.5555555555558p-1, c1 = 0x1.99999999952e2p-2,
                     c2 = 0x1.2492492df148dp-2, c3 = 0x1.c71c62e5800a1p-3,
                     c4 = 0x1.7462b4ab2ef6bp-3, c5 = 0x1.39fe606542ddep-3,
                     c6 = 0x1.2b584aae78a57p-3;
    const double z2 = z * z;
    double qh = fma(c6, z, c5);
    qh = fma(qh, z, c4);
    qh = fma(qh, z, c3);
    double ql = fma(c2, z, c1);
    ql = fma(ql, z, c0);
    return fma(qh, z2 * z, ql);
}

// Special values of log: +inf -> +inf, +-0 -> -inf, x < 0 -> NaN, NaN -> NaN
// (same payload), everything else -> res (which is finite for every input).
// Written as res + correction, with the correction selected from x alone,
// rather than as selects on res: with selects GCC sinks the whole main
// computation into the "not special" branch, and since floating-point
// arithmetic may trap (-ftrapping-math) it then refuses to if-convert it, so
// the loop would not vectorize. res + (+0) == res since res is never -0.
template <class T>
AC_SIMD_INLINE T log_fixup(T x, T res) noexcept {
    constexpr T kInf = std::numeric_limits<T>::infinity();
    T corr = x == kInf ? kInf : T(0);
    corr = x == T(0) ? -kInf : corr;
    corr = x < T(0) ? std::numeric_limits<T>::quiet_NaN() : corr;
    corr = x != x ? x : corr;
    return res + corr;
}

}  // namespace detail

// ---------------------------------------------------------------------------
// exp
//
// Algorithm:
//  1. Clamp x into [lo, hi] where exp(lo) rounds to +0 and exp(hi) overflows
//     to +inf; NaN passes through the clamps (comparisons with NaN are false)
//     and propagates through the arithmetic, +-inf are clamped and produce
//     +inf / +0 naturally.
//  2. k = round(x / ln2) using the "shifter" trick: adding 1.5*2^23 (float)
//     or 1.5*2^52 (double) rounds x*log2(e) to an integer that appears in the
//     low mantissa bits, so k is read from the bit pattern without any
//     float->int conversion (no UB for NaN, vectorizes trivially).
//  3. r = x - k*ln2 (Cody-Waite, two constants), |r| <= ln2/2 (+ tiny),
//     kept as rh + rl with rh exact.
//  4. e^r = 1 + (rh + (rl + r^2 * P(r))), P near-minimax of (e^r - 1 - r)/r^2
//     (degree 4 for float, rel. error of P 1.3e-7, which enters the result
//     scaled by r^2/2 <= 0.06; degree 9 for double, rel. error 2.2e-16).
//  5. result = (e^r * 2^k1) * 2^k2 with k1 = floor((k)/2), k2 = k - k1. Both
//     powers of two are normal numbers built directly from bits; the first
//     product is exact, so the only rounding happens in the second one, which
//     is what yields correctly rounded gradual underflow (subnormal results)
//     and overflow to +inf.
// ---------------------------------------------------------------------------

// exp(x + x_lo) for a small correction |x_lo| <= ulp(x) (for example the rounding error of
// x = -a*a, from an FMA): x_lo joins the small part rl of the reduced argument, so it costs
// one addition and no rounding of its own.  exp(x) is exp(x, 0).
AC_SIMD_INLINE float exp(float x, float x_lo) noexcept {
    // exp(89) > FLT_MAX; exp(-104) < 2^-150 (half the smallest subnormal).
    float xc = x > 89.0f ? 89.0f : x;
    xc = xc < -104.0f ? -104.0f : xc;

    float rh, lo;
    uint32_t ku;
    detail::exp_reduce(xc, x_lo, rh, lo, ku);
    const float er = 1.0f + (rh + lo);

    // Scale by 2^k in two exact powers of two. kb = k + 256 >= 106 so that a
    // logical shift gives floor(k/2) without signed shifts.
    const uint32_t kb = ku + 256u;
    const uint32_t k1b = kb >> 1;                            // k1 + 128
    const float s1 = detail::bit_cast<float>((k1b - 1u) << 23);          // 2^k1
    const float s2 = detail::bit_cast<float>((ku - k1b + 255u) << 23);   // 2^(k-k1)
    return (er * s1) * s2;
}

AC_SIMD_INLINE float exp(float x) noexcept { return exp(x, 0.0f); }

// exp(x + x_lo) for a small correction |x_lo| <= ulp(x), as for float (pow passes the low
// part of y*log(x) this way).  exp(x) is exp(x, 0).
AC_SIMD_INLINE double exp(double x, double x_lo) noexcept {
    // exp(710) > DBL_MAX; exp(-746) < 2^-1075 (half the smallest subnormal).
    double xc = x > 710.0 ? 710.0 : x;
    xc = xc < -746.0 ? -746.0 : xc;

    double rh, lo;
    uint64_t ku;  // k in [-1077, 1025]
    detail::exp_reduce(xc, x_lo, rh, lo, ku);
    const double er = 1.0 + (rh + lo);

    const uint64_t kb = ku + 2048u;  // >= 971
    const uint64_t k1b = kb >> 1;    // k1 + 1024
    const double s1 = detail::bit_cast<double>((k1b - 1u) << 52);
    const double s2 = detail::bit_cast<double>((ku - k1b + 2047u) << 52);
    return (er * s1) * s2;
}

AC_SIMD_INLINE double exp(double x) noexcept { return exp(x, 0.0); }

// exp(x) for arguments whose result is a normal number, |x| < 87 (float) or < 708 (double),
// with exp's reduction and polynomial (so the same values there) but no clamps and one
// power-of-two factor: for callers that send the other arguments elsewhere (expit's
// common-branch loop, kernel_loops.h HasCommonBranch).
AC_SIMD_INLINE float exp_in_range(float x) noexcept {
    float rh, lo;
    uint32_t ku;
    detail::exp_reduce(x, 0.0f, rh, lo, ku);
    return (1.0f + (rh + lo)) * detail::bit_cast<float>((ku + 127u) << 23);
}
AC_SIMD_INLINE double exp_in_range(double x) noexcept {
    double rh, lo;
    uint64_t ku;
    detail::exp_reduce(x, 0.0, rh, lo, ku);
    return (1.0 + (rh + lo)) * detail::bit_cast<double>((ku + 1023u) << 52);
}

// ---------------------------------------------------------------------------
// log
//
// Algorithm (the classic fdlibm decomposition, own coefficients):
//  1. Subnormal inputs are multiplied by 2^23 / 2^52 (exact) and the exponent
//     is corrected afterwards.
//  2. Write x = 2^e * m with m in [sqrt(1/2), sqrt(2)): adding
//     (bits(1.0) - bits(sqrt(1/2))) to the bit pattern carries into the
//     exponent exactly when the mantissa is >= sqrt(2), the exponent field then
//     is e, and the mantissa bits re-based on bits(sqrt(1/2)) give m.
//  3. f = m - 1 (exact), s = f / (2 + f), z = s^2. Then
//        log(1+f) = log((1+s)/(1-s)) = 2s + s*R(z),  R(z) = z*Q(z),
//     and using 2s = f - hfsq + s*hfsq with hfsq = f^2/2:
//        log(1+f) = f - (hfsq - s*(hfsq + R)).
//     The leading term f is exact; the correction is small, so its rounding
//     errors are damped. Q is a near-minimax fit of
//        (log((1+s)/(1-s)) - 2s) / (s z)
//     on z in [0, 0.0295] (degree 3 for float, 6 for double).
//  4. log(x) = e*LN2_HI + (log(1+f) + e*LN2_LO), e*LN2_HI exact.
//  5. Special values by final selects: +inf -> +inf, +-0 -> -inf,
//     x < 0 -> NaN, NaN -> NaN (same payload).
// ---------------------------------------------------------------------------

AC_SIMD_INLINE float log(float x) noexcept {
    // Subnormal inputs (also zero/negative, fixed at the end) are scaled by
    // 2^23. The test is done on the *scaled* value (equivalent, the scaling is
    // exact in that range) so that the multiplication is needed
    // unconditionally: otherwise GCC sinks it into a branch, refuses to
    // if-convert it (it may trap under -ftrapping-math) and the loop is not
    // vectorized.
    const float xscaled = x * 0x1p23f;
    const bool tiny = xscaled < 0x1p-103f;  // x < 2^-126
    const float xs = tiny ? xscaled : x;
    // exponent correction kept in the integer domain (integer ops never trap,
    // so GCC if-converts them freely)
    const uint32_t eadd = tiny ? 0u : 23u;

    uint32_t ix = detail::bit_cast<uint32_t>(xs);
    ix += 0x3f800000u - 0x3f3504f3u;
    // exponent field (+23 for normal inputs, keeping it positive) -> float by
    // OR-ing it into the mantissa of 2^23. This avoids an int->float
    // conversion and float selects, which GCC treats as possibly trapping
    // and may sink into branches, blocking if-conversion / vectorization.
    const float e =
        detail::bit_cast<float>(((ix >> 23) + eadd) | 0x4b000000u) - (0x1p23f + 150.0f);
    const float m = detail::bit_cast<float>((ix & 0x007fffffu) + 0x3f3504f3u);

    const float f = m - 1.0f;
    const float s = f / (2.0f + f);
    const float z = s * s;
    constexpr float c0 = 0x1.555556p-1f, c1 = 0x1.9999ecp-2f, c2 = 0x1.245c44p-2f,
                    c3 = 0x1.ddced8p-3f;
    float q = detail::fma(c3, z, c2);
    q = detail::fma(q, z, c1);
    q = detail::fma(q, z, c0);
    const float R = z * q;
    const float hfsq = 0.5f * f * f;
    const float lo = detail::fma(s, hfsq + R, e * detail::kLn2LoF);
    float res = e * detail::kLn2HiF - ((hfsq - lo) - f);

    return detail::log_fixup(x, res);
}

namespace detail {
// x = 2^e * m, m in [sqrt(1/2), sqrt(2)) (steps 1-2 above; also simd_pow.h's log_dd).
AC_SIMD_INLINE void log_decompose(double x, double& e, double& m) noexcept {
    const double xscaled = x * 0x1p52;
    const bool tiny = xscaled < 0x1p-970;  // x < 2^-1022, see log(float)
    const double xs = tiny ? xscaled : x;
    const uint64_t eadd = tiny ? 0u : 52u;

    uint64_t ix = bit_cast<uint64_t>(xs);
    ix += 0x3ff0000000000000ull - 0x3fe6a09e667f3bcdull;
    // exponent field -> double without int64->double conversion (not in AVX2):
    // OR it into the mantissa of 2^52 and subtract 2^52 + bias.
    e = bit_cast<double>(((ix >> 52) + eadd) | 0x4330000000000000ull) - (0x1p52 + 1075.0);
    m = bit_cast<double>((ix & 0x000fffffffffffffull) + 0x3fe6a09e667f3bcdull);
}
}  // namespace detail

namespace detail {
// ---------------------------------------------------------------------------
// The float log kernel with extra bits, for log2, log10, log1p (float) and pow's checks.
//
// log(1+f) = hi + lo for f = m - 1, m in [sqrt(1/2), sqrt(2)) (f exact), to about 2^-30
// relative (lo is not rounded into hi).  Same identity as log(float):
//     log(1+f) = f - f^2/2 + s (f^2/2 + R),  s = f/(2+f), R = z Q(z), z = s^2,
// with log(float)'s Q.  The leading part f - f^2/2 is formed with one rounding by an FMA,
// hi = fma(-f/2, f, f), and its rounding error recovered by a second FMA on f - hi (exact by
// Sterbenz: hi/f is in [0.79, 1.15]); the correction c = s (f^2/2 + R) is at most 5.5% of the
// result, so its own few ulps (s, Q, the products) enter the result below 0.2 ulp.  Callers
// add e*log(2) (or multiply by log2(e) / log10(e)) in the same compensated way, so the only
// large error left is the final rounding: measured max 0.70 ulp (log2), 0.69 (log10), 0.66
// (log1p) over every float.
AC_SIMD_INLINE void log1p_ff(float f, float& hi, float& lo) noexcept {
    const float s = f / (2.0f + f);
    const float z = s * s;
    constexpr float c0 = 0x1.555556p-1f, c1 = 0x1.9999ecp-2f, c2 = 0x1.245c44p-2f,
                    c3 = 0x1.ddced8p-3f;
    float q = fma(c3, z, c2);
    q = fma(q, z, c1);
    q = fma(q, z, c0);
    const float R = z * q;
    const float hf = 0.5f * f;
    hi = fma(-hf, f, f);                  // f - f^2/2, rounded once
    const float err = fma(-hf, f, f - hi);  // (f - f^2/2) - hi
    lo = fma(s, fma(hf, f, R), err);
}

// x = 2^e m, m in [sqrt(1/2), sqrt(2)), f = m - 1, for any x (subnormals scaled as in
// log(float); zero, negative, inf and NaN give some finite e, f: callers fix them up).
AC_SIMD_INLINE void log_reduce(float x, float& e, float& f) noexcept {
    const float xscaled = x * 0x1p23f;
    const bool tiny = xscaled < 0x1p-103f;  // x < 2^-126 (see log(float))
    const float xs = tiny ? xscaled : x;
    const uint32_t eadd = tiny ? 0u : 23u;
    uint32_t ix = bit_cast<uint32_t>(xs);
    ix += 0x3f800000u - 0x3f3504f3u;
    e = bit_cast<float>(((ix >> 23) + eadd) | 0x4b000000u) - (0x1p23f + 150.0f);
    f = bit_cast<float>((ix & 0x007fffffu) + 0x3f3504f3u) - 1.0f;
}
// The same for a positive normal finite x (log_in_common): 5 integer operations and a
// conversion, no scaling.  e and f are the same values as log_reduce's.
AC_SIMD_INLINE void log_reduce_normal(float x, float& e, float& f) noexcept {
    const uint32_t bits = bit_cast<uint32_t>(x);
    const int32_t ix = static_cast<int32_t>(bits - 0x3f3504f3u);
    e = static_cast<float>(ix >> 23);  // (arithmetic shift: floor)
    f = bit_cast<float>(bits - (static_cast<uint32_t>(ix) & 0xff800000u)) - 1.0f;
}
// x is a positive normal finite float: the domain where the log family's kernels run without
// the subnormal scaling and the special-value fixups (kernel_loops.h, HasCommonBranch).
AC_SIMD_INLINE bool log_in_common(float x) noexcept {
    return bit_cast<uint32_t>(x) - 0x00800000u < 0x7f000000u;
}
}  // namespace detail

AC_SIMD_INLINE double log(double x) noexcept {
    double e, m;
    detail::log_decompose(x, e, m);

    const double f = m - 1.0;
    const double s = f / (2.0 + f);
    const double z = s * s;
    const double R = z * detail::log_q(z);
    const double hfsq = 0.5 * f * f;
    const double lo = detail::fma(s, hfsq + R, e * detail::kLn2LoD);
    double res = e * detail::kLn2HiD - ((hfsq - lo) - f);

    return detail::log_fixup(x, res);
}


// ---------------------------------------------------------------------------
// expm1, log1p, tanh (float, double)
//
// double versions are built on the exp/log machinery above; the float
// versions are float arithmetic with compensated sums (16 lanes on AVX-512), < 1 ulp.
// All use copysign(result, x) to get
// the sign of zero right: expm1, log1p (on its domain) and tanh have the sign
// of x. (copysign is a bit operation and vectorizes.)
// ---------------------------------------------------------------------------

// expm1(x) = 2^k * (e^r - 1) + (2^k - 1), x = k ln2 + r, where
// e^r - 1 = rh + lo, lo = rl + r^2 P(r), with the same P as exp (no
// cancellation: the leading term rh is exact). To keep 2^k representable for k = 1024 the
// result is formed as 2 * (2^(k-1) * em1 + (2^(k-1) - 1/2)); that halving
// loses a bit only when |result| < 2^-1021, where expm1(x) == x anyway, so
// the result is replaced by x there (the test is on y itself so that GCC
// does not sink y's computation into a branch).
AC_SIMD_INLINE double expm1(double x) noexcept {
    double xc = x > 710.0 ? 710.0 : x;   // overflow -> +inf
    xc = xc < -40.0 ? -40.0 : xc;        // expm1(-40) rounds to -1
    double rh, lo;  // em1 = rh + lo
    uint64_t ku;    // k in [-58, 1024]
    detail::exp_reduce(xc, 0.0, rh, lo, ku);
    const double sh = detail::bit_cast<double>((ku + 1022u) << 52);  // 2^(k-1)
    // sh*rh is exact and, for small k, so is t (rh has no bits below ulp(x)),
    // leaving a single rounding in the final fma.
    const double t = detail::fma(sh, rh, sh - 0.5);
    const double y = 2.0 * detail::fma(sh, lo, t);
    const double res = __builtin_fabs(y) < 0x1p-1000 ? x : y;
    return __builtin_copysign(res, x);  // expm1(-0) = -0; NaN keeps its payload
}

// expm1 (float), in float arithmetic (evaluating the double expm1 and rounding took 2.5x
// NumPy's time: half the lanes and two conversions).  x = k ln2 + r as in exp (r = rh + rl,
// rh exact), and
//     expm1(x) = 2^k (e^r - 1) + (2^k - 1),   e^r - 1 = rh + lo,
//     lo = rl + rh^2/2 + rl (rh + rl/2) + r^3 Q(r)
// (rh^2/2 by one FMA on the exact rh: with the rounded r, or with exp's r^2 P(r), the
// error of lo reached 1.29 ulp at k = 1, r = -ln2/2, where 2^k doubles it against a result of
// 0.41; rl^2/2 matters for k near 128, where rl = -k LN2_LO is 2^-12).  Q (degree 4, relative
// error 7.8e-8 with float coefficients) only feeds r^3 Q < 0.007.  The sum keeps its leading
// part exact: with sh = 2^(k-1) (2^k overflows at k = 128; the final doubling is exact),
// A = sh - 1/2 (its rounding error Alo, nonzero for |k| > 24, recovered exactly by the two
// bracketed differences), B = sh rh (exact), S + err = A + B by Fast2Sum (|A| >= |B| for
// every k), then 2 (S + (sh lo + err + Alo)): one significant rounding.  x is clamped to
// [-17.5, 88.8] (expm1 rounds to -1 below -17.33, overflows above 88.73; -inf -> -1,
// +inf -> +inf); below 2^-100 in magnitude the halving could lose bits, and expm1(x) = x
// there.  Measured max error 0.72 ulp over every float.  Q: tools/gen_simd_math_coeffs.py.
namespace detail {
// 2 expm1(x)/2 before the tiny-argument and sign fixups (x already clamped); kFull = false
// drops the rounding error of 2^(k-1) - 1/2, zero for |k| <= 24.
template <bool kFull>
AC_SIMD_INLINE float expm1_core(float xc) noexcept {
    constexpr float kLog2e = 0x1.715476p+0f;
    constexpr float kShift = 0x1.8p23f;
    const float kf = fma(xc, kLog2e, kShift);
    const uint32_t ku = bit_cast<uint32_t>(kf) - bit_cast<uint32_t>(kShift);
    const float k = kf - kShift;  // [-25, 128]
    const float rh = fma(-k, kLn2HiF, xc);  // exact
    const float rl = -k * kLn2LoF;
    const float r = rh + rl;
    constexpr float q0 = 0x1.555556p-3f, q1 = 0x1.55551ap-5f, q2 = 0x1.1110f6p-7f,
                    q3 = 0x1.6d10fcp-10f, q4 = 0x1.a0f862p-13f;
    float q = fma(q4, r, q3);
    q = fma(q, r, q2);
    q = fma(q, r, q1);
    q = fma(q, r, q0);
    const float r2 = r * r;
    const float t = fma(r2 * r, q, fma(fma(0.5f, rl, rh), rl, rl));
    const float lo = fma(rh, 0.5f * rh, t);  // e^r - 1 = rh + lo
    const float sh = bit_cast<float>((ku + 126u) << 23);  // 2^(k-1)
    const float A = sh - 0.5f;
    const float B = sh * rh;
    const float S = A + B;
    const float err = (A - S) + B;
    if constexpr (kFull) {
        const float Alo = (sh - (A + 0.5f)) + ((sh - A) - 0.5f);  // (sh - 1/2) - A, exactly
        return 2.0f * (S + (fma(sh, lo, err) + Alo));
    } else {
        return 2.0f * (S + fma(sh, lo, err));
    }
}
}  // namespace detail
AC_SIMD_INLINE float expm1(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA) return static_cast<float>(expm1(static_cast<double>(x)));
    float xc = x > 88.8f ? 88.8f : x;
    xc = xc < -17.5f ? -17.5f : xc;
    const float y = detail::expm1_core<true>(xc);
    const float res = __builtin_fabsf(y) < 0x1p-100f ? x : y;
    return __builtin_copysignf(res, x);  // expm1(-0) = -0; NaN stays NaN
}
// The same values for 2^-90 <= |x| < 16 (kernel_loops.h HasCommonBranch): no clamps, no
// fixups, and 2^(k-1) - 1/2 is exact (|k| <= 24).
AC_SIMD_INLINE bool expm1_in_common(float x) noexcept {
    const float a = __builtin_fabsf(x);
    return (a >= 0x1p-90f) & (a < 16.0f);
}
AC_SIMD_INLINE float expm1_common(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA) return expm1(x);
    return detail::expm1_core<false>(x);
}

// log1p(x) = log(u) + c with u = 1 + x rounded and the first-order
// correction c = (x - (u - 1)) / u for the rounding error of u. The
// correction is dropped where it is NaN (x = -1, +-inf, NaN), so every
// special value comes out of log(u): x = -1 -> -inf,
// x < -1 -> NaN, +inf -> +inf, NaN -> NaN.
AC_SIMD_INLINE double log1p(double x) noexcept {
    const double u = 1.0 + x;
    const double c = (x - (u - 1.0)) / u;
    // c is NaN for x = -1 (0/0), x = +-inf and NaN; drop it there (the test
    // uses c itself so that GCC cannot sink its computation into a branch)
    const double cc = c == c ? c : 0.0;
    return __builtin_copysign(log(u) + cc, x);  // log1p(-0) = -0
}

// log1p (float), in float arithmetic (the double evaluation took 3x NumPy's time):
// u = 1 + x rounded, d = (1 + x) - u exactly (TwoSum), log1p(x) = log(u) + d/u (the next
// term, (d/u)^2/2 < 2^-49, is far below an ulp), log(u) = e ln2 + log1p_ff(f) with e LN2_HI
// exact and added by Fast2Sum, so the error is the final rounding plus log1p_ff's ~0.16 ulp:
// measured max 0.66 ulp over every float.  Special values come from log(u) (log_fixup):
// x = -1 -> -inf, x < -1 -> NaN, +inf -> +inf, NaN -> NaN; d/u is dropped where it is NaN
// (x = -1, +-inf, NaN); copysign gives log1p(-0) = -0.  log1p_common: the same for
// -1 < x < inf (where u is a positive normal float), without those fixups.
namespace detail {
// d/u, d = (1 + x) - u exactly (TwoSum)
AC_SIMD_INLINE float log1p_corr(float x, float u) noexcept {
    const float bb = u - 1.0f;
    return ((1.0f - (u - bb)) + (x - bb)) / u;
}
// e ln2 + log(1 + f) + c, one significant rounding
AC_SIMD_INLINE float log1p_sum(float e, float f, float c) noexcept {
    float hi, lo;
    log1p_ff(f, hi, lo);
    const float a0 = e * kLn2HiF;  // exact
    const float a = a0 + hi;       // Fast2Sum: |a0| >= |hi| or a0 = 0
    return a + ((((a0 - a) + hi) + lo) + fma(e, kLn2LoF, c));
}
}  // namespace detail
AC_SIMD_INLINE float log1p(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA) return static_cast<float>(log1p(static_cast<double>(x)));
    const float u = 1.0f + x;
    float e, f;
    detail::log_reduce(u, e, f);
    const float c = detail::log1p_corr(x, u);
    const float res = detail::log1p_sum(e, f, c == c ? c : 0.0f);
    return __builtin_copysignf(detail::log_fixup(u, res), x);
}
AC_SIMD_INLINE bool log1p_in_common(float x) noexcept {
    return (x > -1.0f) & (x < std::numeric_limits<float>::infinity());
}
AC_SIMD_INLINE float log1p_common(float x) noexcept {
    if constexpr (!AC_SIMD_HAS_FMA) return log1p(x);
    const float u = 1.0f + x;
    float e, f;
    detail::log_reduce_normal(u, e, f);
    return __builtin_copysignf(detail::log1p_sum(e, f, detail::log1p_corr(x, u)), x);
}

// tanh (double), the float design below in double precision (the earlier t/(t + 2) with
// t = expm1(2|x|) and a second-order corrected quotient took 1.5x NumPy's AVX-512 time and
// measured 1.52 ulp):
//   |x| < 0.55:  tanh(a) = a + a z Th(z), z = a^2, Th near-minimax of degree 10 (relative
//                error 5.6e-17, the coefficients' rounding, in a term below 0.1 a);
//   |x| >= 0.55: tanh(a) = 1 - 2/(e^(2a) + 1), e^(2a) = 2^k (1 + rh + lo) from exp's
//                reduction and polynomial, e^(2a) + 1 = fma(2^k, rh, fma(2^k, lo, 2^k + 1));
//                2/(...) <= 1/2 there, so its ~1.5 ulp become at most 0.75 ulp of the result.
// a is clamped at 20 (2a at 40), where tanh rounds to 1 (so +-inf -> +-1); the branches are
// selected on the bit patterns and the sign restored by copysign, so -0 -> -0 and NaN
// passes.  Measured max error 1.28 ulp (4e6 points against quad precision, just above the
// switch); 1.7x faster than the expm1 form on AVX-512, 1.4x on AVX2.  Coefficients:
// tools/gen_simd_hyperbolic_coeffs.py.
namespace detail {
inline constexpr double kTanhThD[] = {
    -0x1.5555555555555p-2, 0x1.1111111111032p-3,  -0x1.ba1ba1b9fecbep-5, 0x1.664f4877146a6p-6,
    -0x1.226e32f040555p-7, 0x1.d6d3393d20a34p-9,  -0x1.7d97d0654df1cp-10, 0x1.34c5ae0798f67p-11,
    -0x1.ec10cd77e9ce3p-13, 0x1.64fe43e59e685p-14, -0x1.59aa21d0acb69p-16};
}  // namespace detail

AC_SIMD_INLINE double tanh(double x) noexcept {
    const double a = __builtin_fabs(x);
    // small: tanh(a) - a = a z Th(z)
    const double z = a * a;
    double th = detail::kTanhThD[10];
#pragma GCC unroll 16  // fully unrolled: an inner loop would keep the caller's loop scalar
    for (int i = 9; i >= 0; --i) th = detail::fma(th, z, detail::kTanhThD[i]);
    const double small = detail::fma(a * z, th, a);
    // large: 1 - 2/(e^(2a) + 1), 2a = k ln2 + r
    double u = 2.0 * a;
    u = u > 40.0 ? 40.0 : u;  // clamp after scaling (a select on a scaled clamp blocks
                              // if-conversion); NaN passes
    double rh, lo;  // e^r - 1 = rh + lo
    uint64_t ku;    // k in [0, 58]
    detail::exp_reduce(u, 0.0, rh, lo, ku);
    const double twok = detail::bit_cast<double>((ku + 1023u) << 52);
    const double den = detail::fma(twok, rh, detail::fma(twok, lo, twok + 1.0));
    const double large = 1.0 - 2.0 / den;
    // (a mask, not a select on the compare: GCC if-converts the latter only with AVX-512)
    const uint64_t ms = 0u - static_cast<uint64_t>(a < 0.55);
    const uint64_t rb = (detail::bit_cast<uint64_t>(small) & ms) |
                        (detail::bit_cast<uint64_t>(large) & ~ms);
    return __builtin_copysign(detail::bit_cast<double>(rb), x);
}
// tanh (float), in float arithmetic (16 lanes per AVX-512 vector; evaluating the double
// tanh's earlier t/(t + 2) form and rounding took 3x NumPy's time):
//   |x| < 0.55:  tanh(a) = a + a z Th(z), z = a^2, Th near-minimax (relative error 6e-8 in a
//                term below 0.1 a): about half an ulp;
//   |x| >= 0.55: tanh(a) = 1 - 2/(e^(2a) + 1), e^(2a) = 2^k (1 + p) as in exp (Cody-Waite
//                reduction, p = r + r^2 Em(r) with the exp remainder polynomial), so
//                e^(2a) + 1 = fma(2^k, p, 2^k + 1) with one rounding; 2/(...) <= 1/2 there,
//                its relative error (about 1.5 ulp of it) is at most 0.75 ulp of the result.
// a is clamped at 9.1, where tanh(a) rounds to 1 (so +-inf -> +-1); the two branches are
// selected on the bit patterns and the sign restored by copysign. Measured max error 1.37 ulp
// (just above the switch), and within 1 ulp of the correctly rounded result for every float
// (exhaustive test). Coefficients: tools/gen_simd_hyperbolic_coeffs.py.
// Used where tanh is part of a larger auto-vectorized loop (nn_gelu.cpp, nn_rnn.cpp) and by
// ac.tanh on builds without AVX2; ac.tanh's float loop on AVX2 and AVX-512 builds runs
// kernels/tanh_pieces.h (one polynomial piece per lane, its coefficients permuted from
// registers: 0.13 ms per 1e6 floats on AVX-512, where this form takes 0.21 and NumPy 0.16).
AC_SIMD_INLINE float tanh(float x) noexcept {
    constexpr float kLog2e = 0x1.715476p+0f;
    constexpr float kShift = 0x1.8p23f;
    const float a = __builtin_fabsf(x);
    // small: tanh(a) - a = a z Th(z)
    const float z = a * a;
    float th = detail::fma(-0x1.b137a4p-8f, z, 0x1.5d226cp-6f);
    th = detail::fma(th, z, -0x1.b9a04ep-5f);
    th = detail::fma(th, z, 0x1.110feap-3f);
    th = detail::fma(th, z, -0x1.555554p-2f);
    const float small = detail::fma(a * z, th, a);
    // large: 1 - 2/(e^(2a) + 1), 2a = k ln2 + r
    float u = 2.0f * a;
    u = u > 18.2f ? 18.2f : u;  // clamp after scaling (as the double tanh); NaN passes
    const float kf = detail::fma(u, kLog2e, kShift);
    const uint32_t ku = detail::bit_cast<uint32_t>(kf) - detail::bit_cast<uint32_t>(kShift);
    const float k = kf - kShift;  // [0, 26]
    const float rh = detail::fma(-k, detail::kLn2HiF, u);  // exact
    const float r = detail::fma(-k, detail::kLn2LoF, rh);
    // Em(r) = (e^r - 1 - r)/r^2 on |r| <= ln2/2
    float em = detail::fma(0x1.6c69dep-10f, r, 0x1.120b1cp-7f);
    em = detail::fma(em, r, 0x1.5555bap-5f);
    em = detail::fma(em, r, 0x1.5554dep-3f);
    em = detail::fma(em, r, 0.5f);
    const float p = detail::fma(r * r, em, r);  // e^r - 1
    const float twok = detail::bit_cast<float>((ku + 127u) << 23);
    const float large = 1.0f - 2.0f / detail::fma(twok, p, twok + 1.0f);
    // (a mask, not a select on the compare: GCC if-converts the latter only with AVX-512)
    const uint32_t ms = 0u - static_cast<uint32_t>(a < 0.55f);
    const uint32_t rb = (detail::bit_cast<uint32_t>(small) & ms) |
                        (detail::bit_cast<uint32_t>(large) & ~ms);
    return __builtin_copysignf(detail::bit_cast<float>(rb), x);
}

}  // namespace arraycore::native::simd_math
