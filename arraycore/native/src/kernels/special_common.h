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

// Horner's rule, highest degree first (polevl order), fully unrolled so that loops over it
// vectorize (GCC leaves a long inner loop rolled, and then the outer loop cannot vectorize).
template <class T, class C, std::size_t N>
AC_SIMD_INLINE T poly(T x, const C (&c)[N]) {
  T r = static_cast<T>(c[0]);
#pragma GCC unroll 64
  for (std::size_t i = 1; i < N; ++i) r = simd_math::detail::fma(r, x, static_cast<T>(c[i]));
  return r;
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
