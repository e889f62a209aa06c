// Shared building blocks of the special-function kernels (special_*.cpp).
//
// Polynomials are evaluated by Horner's rule with explicit FMAs, on coefficient arrays
// ordered from the highest degree down (the order of Cephes-style tables and of the fits
// in the literature); all are branch-free so loops over them vectorize.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../simd_math.h"

namespace arraycore::native::special {

template <class T>
inline constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
template <class T>
inline constexpr T kInf = std::numeric_limits<T>::infinity();

// One of K interleaved Horner chains of poly: the coefficients c[i] whose power N-1-i is
// R mod K, in y = x^K.
template <std::size_t K, std::size_t R, class T, class C, std::size_t N>
AC_SIMD_INLINE T poly_chain(T y, const C (&c)[N]) {
  static_assert(N > K, "each chain needs a coefficient");
  constexpr std::size_t first = (N - 1 - R) % K;
  T r = static_cast<T>(c[first]);
#pragma GCC unroll 64
  for (std::size_t i = first + K; i < N; i += K) r = simd_math::detail::fma(r, y, static_cast<T>(c[i]));
  return r;
}

// Polynomial with coefficients highest degree first (polevl order), fully unrolled so that
// loops over it vectorize (GCC leaves a long inner loop rolled, and then the outer loop cannot
// vectorize).  Note [Polynomial chains]: plain Horner is a chain of N dependent fmas, 4N
// cycles of latency per vector, which out-of-order execution hides only partly behind the
// neighbouring iterations once N is in the twenties.  From 12 coefficients on, the even and
// odd powers run as two Horner chains in x^2, joined by one last fma: erfcx float64 10%,
// erf float64 on |x| < 3 18% faster (AVX-512), max errors within 1-2e-16 of Horner's
// (docs/special_accuracy_table.md).  Four chains in x^4 measured no faster.
template <class T, class C, std::size_t N>
AC_SIMD_INLINE T poly(T x, const C (&c)[N]) {
  if constexpr (N < 12) {
    T r = static_cast<T>(c[0]);
#pragma GCC unroll 64
    for (std::size_t i = 1; i < N; ++i) r = simd_math::detail::fma(r, x, static_cast<T>(c[i]));
    return r;
  } else {
    const T x2 = x * x;
    return simd_math::detail::fma(poly_chain<2, 1>(x2, c), x, poly_chain<2, 0>(x2, c));
  }
}

// c ? a : b on the bit patterns.  A floating-point select whose operand is computed only for
// it gets that computation sunk into a branch by GCC (floating-point ops may trap), which then
// blocks vectorization; integer selects are if-converted freely.
AC_SIMD_INLINE double select_bits(bool c, double a, double b) {
  const uint64_t m = 0 - static_cast<uint64_t>(c);
  return simd_math::detail::bit_cast<double>(
      (simd_math::detail::bit_cast<uint64_t>(a) & m) |
      (simd_math::detail::bit_cast<uint64_t>(b) & ~m));
}
AC_SIMD_INLINE float select_bits(bool c, float a, float b) {
  const uint32_t m = 0 - static_cast<uint32_t>(c);
  return simd_math::detail::bit_cast<float>(
      (simd_math::detail::bit_cast<uint32_t>(a) & m) |
      (simd_math::detail::bit_cast<uint32_t>(b) & ~m));
}

// c[0] x^(N-1) + c[1] x^(N-2) + ... + c[N-1]
template <class T, class C, std::size_t N>
inline T polevl(T x, const C (&c)[N]) {
  T r = static_cast<T>(c[0]);
  for (std::size_t i = 1; i < N; ++i) r = std::fma(r, x, static_cast<T>(c[i]));
  return r;
}

// x^N + c[0] x^(N-1) + ... + c[N-1]  (leading coefficient 1, not stored)
template <class T, class C, std::size_t N>
inline T p1evl(T x, const C (&c)[N]) {
  T r = x + static_cast<T>(c[0]);
  for (std::size_t i = 1; i < N; ++i) r = std::fma(r, x, static_cast<T>(c[i]));
  return r;
}

}  // namespace arraycore::native::special
