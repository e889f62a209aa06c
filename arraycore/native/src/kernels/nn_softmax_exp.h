// exp of the terms of log_softmax's row sums (nn_softmax.cpp).
//
// log_softmax(x) = (x - M) - log(sum_j exp(x_j - M)) with M the row's finite maximum, so
// every argument v = x_j - M is <= 0 (or NaN, which must reach the sum) and the sum is at
// least 1 (the term exp(0) of the maximum).  That allows an exp cheaper than simd_math's:
//  - no upper clamp and one power-of-two factor: v is clamped below at -708 (float: -87), where
//    exp is still a normal number; below that the true term is < 3.4e-308 (float 1.7e-38)
//    and what replaces it changes a sum >= 1 by nothing (simd_math::exp pays two clamps
//    and a two-factor scaling for gradual underflow: 40% of its time on the AVX2 build);
//  - double on AVX2 builds: Tang's table-driven reduction, v = (128 k + j) ln2/128 + r,
//    |r| <= ln2/256, exp(v) = 2^k T_j (1 + p(r)), T_j = 2^(j/128) correctly rounded
//    (nn_softmax_exp_table.h), p the Taylor polynomial r + r^2 (1/2 + r/6 + r^2/24 + r^3/120)
//    (truncation 5e-19).  At most 0.5 ulp (T_j) + 0.5 ulp (the final rounding) + 0.01;
//    measured 0.998 ulp on 1e7 random points of [-708, 0], [-1, 0] and [-1e-3, 0] (the
//    polynomial path: 0.93; float: 0.95), where the sum's own rounding is of the same order.
//    GCC loads T_j with four scalar loads per AVX2 vector (its tuning avoids the gather
//    instruction), and still the exp-and-sum pass of a (1000, 1000) float64 array takes
//    0.63 ms (the polynomial with the same clamp: 0.79 ms, simd_math::exp: 1.06 ms); on
//    AVX-512 the 8-lane gather made the table slower than the polynomial (log_softmax
//    float64 (1000, 1000) in a standalone loop: 0.89 vs 0.77 ms), so AVX-512 builds keep
//    simd_math's reduction and polynomial (simd_math::exp's values on [-708, 0]).
#pragma once

#include <cstdint>

#include "../simd_math.h"
#include "nn_softmax_exp_table.h"

namespace arraycore::native::nn_softmax {

AC_SIMD_INLINE float exp_term(float v) noexcept {
  v = v < -87.0f ? -87.0f : v;  // NaN passes
  return simd_math::exp_in_range(v);
}

AC_SIMD_INLINE double exp_term(double v) noexcept {
  v = v < -708.0 ? -708.0 : v;  // NaN passes
#if defined(__AVX512F__)
  return simd_math::exp_in_range(v);
#else
  namespace d = simd_math::detail;
  constexpr double kShift = 0x1.8p52;             // 1.5 * 2^52: rounds to an integer
  constexpr double kInvStep = 0x1.71547652b82fep+7;  // 128 / ln2
  constexpr double kStepHi = 0x1.62e42fee00000p-8;   // ln2/128 in two parts: m * kStepHi
  constexpr double kStepLo = 0x1.a39ef35793c76p-40;  // is exact for |m| < 2^21
  const double mf = d::fma(v, kInvStep, kShift);
  const uint64_t m = d::bit_cast<uint64_t>(mf) - d::bit_cast<uint64_t>(kShift);  // 128 k + j
  const double md = mf - kShift;
  const double r = d::fma(-md, kStepLo, d::fma(-md, kStepHi, v));
  double q = d::fma(0x1.1111111111111p-7, r, 0x1.5555555555555p-5);  // 1/120, 1/24
  q = d::fma(q, r, 0x1.5555555555555p-3);                              // 1/6
  q = d::fma(q, r, 0.5);
  const double p = d::fma(r * r, q, r);
  // 2^k T_j: k added to T_j's exponent field (k >= -1022 here, so the sum stays normal);
  // a NaN v gives some index in range and a NaN p.
  const uint64_t t = d::bit_cast<uint64_t>(kExp2Table[m & 127]) + ((m & ~uint64_t{127}) << 45);
  const double s = d::bit_cast<double>(t);
  return d::fma(s, p, s);
#endif
}

}  // namespace arraycore::native::nn_softmax
