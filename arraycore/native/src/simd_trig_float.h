// simd_trig_float.h -- float sin and cos evaluated in float arithmetic, for |x| <= 512
// (kTrigFloatShortLimit). simd_trig.h's float sin/cos evaluate in double (valid to 2^20): 4
// lanes per AVX2 vector, 8 per AVX-512 one. These use twice the lanes: 1e6 float32 sin,
// one thread, 0.82 -> 0.50 ms on an AVX2 build (NumPy 0.65), 0.42 -> 0.28 ms on AVX-512
// (NumPy 0.46). The elementwise kernel (kernels/trig.cpp) runs them on blocks whose inputs
// all lie within the limit, simd_trig.h's double versions on blocks within 2^20, libm on
// the rest.
//
// Reduction (Cody-Waite, with FMA): x = k pi/2 + rh + rl, k = round(x 2/pi), q = k mod 4,
// pi/2 = P1 + P2 + P3 (+ 2.5e-20), for |k| < 2^9:
//   r1 = x - k P1 by one FMA: exact (P1 is float(pi/2); x and k P1 are multiples of 2^-24
//        and |r1| < 1);
//   k P2 exact (P2 has 14 significant bits, k 9);
//   rh + t = r1 - k P2 by Fast2Sum: exact where |r1| >= |k P2|, and where not, the
//        difference is below 2^-15 and a multiple of 2^-38, so representable and t = 0;
//   rl = t - k P3 by one FMA (|k P3| < 2^-31: its rounding is below 2^-54, against a
//        smallest |r| of 2^-27.8 over the floats up to 512).
// Then Taylor polynomials on |rh| <= pi/4 (truncation < 3e-9 relative), the rl term to
// first order:
//   sin(rh + rl) = rh + (rh z S(z) + rl (1 - z/2)),      z = rh^2
//   cos(rh + rl) = w + (z^2 C(z) + tail - ze/2 - rl rh),  w + tail = 1 - z/2 exactly,
//                                                          ze = rh^2 - z (FMA)
// cos's 1 - z/2 is compensated: rounded plainly it cost 1.15 ulp (0.73 with it).
// The quadrant picks +-sin or +-cos by bit selects (as simd_trig.h); sin(+-0) = +-0.
// Accuracy, every float with |x| <= 512 (2.3e9 inputs, exhaustive): within 1 ulp of the
// correctly rounded result, max error 0.725 ulp (sin) and 0.727 ulp (cos) against the
// double result. Infinities and NaN give NaN (the kernel sends them to libm anyway).
//
// Without FMA (x86-64 before Haswell) the exact reductions do not hold: these call the
// double versions instead, and the limit is theirs (2^20).
#pragma once

#include "simd_trig.h"

namespace arraycore::native::simd_math {

#if AC_SIMD_HAS_FMA
inline constexpr float kTrigFloatShortLimit = 512.0f;
#else
inline constexpr float kTrigFloatShortLimit = static_cast<float>(kTrigFastLimit);
#endif

namespace detail {
// pi/2 = kPio2F1 + kPio2F2 + kPio2F3 + 2.5e-20: kPio2F1 = float(pi/2), kPio2F2 the rest
// rounded to 14 bits (so k kPio2F2 is exact for |k| < 2^9), kPio2F3 the next 24 bits.
inline constexpr float kPio2F1 = 0x1.921fb6p+0f;
inline constexpr float kPio2F2 = -0x1.7778p-25f;
inline constexpr float kPio2F3 = -0x1.2e7b96p-40f;

template <unsigned Shift>
AC_SIMD_INLINE float sincos_short_f(float x) noexcept {
    constexpr float kShift = 0x1.8p23f;
    const float kf = fma(x, 0x1.45f306p-1f, kShift);  // k + 1.5 2^23, 2/pi rounded
    const uint32_t q = bit_cast<uint32_t>(kf) + Shift;  // k (+ 1 for cos) mod 4 in the low bits
    const float k = kf - kShift;
    const float r1 = fma(-k, kPio2F1, x);
    const float kp = k * kPio2F2;
    const float rh = r1 - kp;
    const float t = (r1 - rh) - kp;
    const float rl = fma(-k, kPio2F3, t);
    const float z = rh * rh;
    // S(z) = (sin r - r)/r^3 and C(z) = (cos r - 1 + r^2/2)/r^4: Taylor coefficients to r^9
    // and r^10, rounded to float
    float s = fma(0x1.71de3ap-19f, z, -0x1.a01a02p-13f);
    s = fma(s, z, 0x1.111112p-7f);
    s = fma(s, z, -0x1.555556p-3f);
    const float sin_r = rh + fma(rh * z, s, fma(-0.5f * z, rl, rl));
    float c = fma(-0x1.27e4fcp-22f, z, 0x1.a01a02p-16f);
    c = fma(c, z, -0x1.6c16c2p-10f);
    c = fma(c, z, 0x1.555556p-5f);
    const float h = 0.5f * z;
    const float w = 1.0f - h;
    const float tail = (1.0f - w) - h;  // exact: w is in [0.69, 1]
    const float ze = fma(rh, rh, -z);
    const float cos_r = w + fma(z * z, c, fma(-rl, rh, fma(-0.5f, ze, tail)));
    // q + Shift selects sin(r), cos(r), -sin(r), -cos(r); bit operations, not ternaries
    // (those become branches and block vectorization)
    const uint32_t use_cos = 0u - (q & 1u);
    uint32_t v = ((bit_cast<uint32_t>(cos_r) & use_cos) | (bit_cast<uint32_t>(sin_r) & ~use_cos)) ^
                 ((q & 2u) << 30);
    if constexpr (Shift == 0) {  // sin(+-0) = +-0 (rh + ... loses the sign of -0)
        const uint32_t xb = bit_cast<uint32_t>(x);
        const uint32_t is_zero = 0u - static_cast<uint32_t>((xb << 1) == 0);
        v = (xb & is_zero) | (v & ~is_zero);
    }
    return bit_cast<float>(v);
}
}  // namespace detail

// sin and cos for |x| <= kTrigFloatShortLimit (and NaN/inf -> NaN).
AC_SIMD_INLINE float sin_short(float x) noexcept {
#if AC_SIMD_HAS_FMA
    return detail::sincos_short_f<0>(x);
#else
    return sin(x);
#endif
}
AC_SIMD_INLINE float cos_short(float x) noexcept {
#if AC_SIMD_HAS_FMA
    return detail::sincos_short_f<1>(x);
#else
    return cos(x);
#endif
}

}  // namespace arraycore::native::simd_math
