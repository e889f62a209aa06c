// Shared building blocks of the special-function kernels (special_*.cpp).
//
// Polynomials are evaluated by Horner's rule with explicit FMAs, on coefficient arrays
// ordered from the highest degree down (the order of Cephes-style tables and of the fits
// in the literature); all are branch-free so loops over them vectorize.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

namespace arraycore::native::special {

template <class T>
inline constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
template <class T>
inline constexpr T kInf = std::numeric_limits<T>::infinity();

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
