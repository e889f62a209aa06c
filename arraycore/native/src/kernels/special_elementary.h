// Building blocks of the elementary special functions (special_elementary.cpp): sin(pi t) and
// cos(pi t) on the reduced interval, cube root, the Kullback-Leibler series.  All branch-free
// (selects only), in double, so loops over them vectorize; float32 callers evaluate in double.
//
// Coefficients (tools/gen_special_elementary_coeffs.py, mpmath at 50 digits):
//   sin(pi t)/(pi t), cos(pi t): Taylor series of sin/cos (DLMF 4.19.1, 4.19.2) in u = t^2,
//     10 terms each; on |t| <= 1/4 (|pi t| <= 0.79) the first omitted term is < 1e-18.
//   (cos x - 1)/x^2: Taylor series, 10 terms, |x| <= pi/4.
//   cbrt on [1, 2): Chebyshev fit of degree 5 (max relative error 1.7e-6), refined by two
//     Newton steps (the error squares each step: 3e-12, then below rounding).
//   (1 + d) log(1 + d) - d = d^2 sum_{n>=2} (-1)^n d^(n-2) / (n (n-1)) (the Taylor series of
//     log1p integrated), 20 terms, |d| <= 1/8.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "../simd_math.h"
#include "special_common.h"
#include <cmath>

namespace arraycore::native::special::elementary {

using simd_math::detail::bit_cast;

inline constexpr double kPi = 0x1.921fb54442d18p+1;

inline constexpr double kSinPiOverPiT[] = {
    -0x1.f5f9d970ca6dfp-28, 0x1.0fc992ff39e13p-22, -0x1.d42498d1ce099p-18,
    0x1.374719fab3915p-13,  -0x1.33816aa4607abp-9, 0x1.ac6805cf350a6p-6,
    -0x1.86a8e4720db67p-3,  0x1.9f9cb402bc46cp-1,  -0x1.a51a6625307d3p+0,
    0x1.0000000000000p+0};
inline constexpr double kCosPi[] = {
    -0x1.2a0c591af8314p-23, 0x1.20c62c2f2d7f5p-18, -0x1.b6e24f44b128fp-14,
    0x1.f9d38a3763cc3p-10,  -0x1.a6d1f2a204a8cp-6, 0x1.e1f506891babbp-3,
    -0x1.55d3c7e3cbffap+0,  0x1.03c1f081b5ac4p+2,  -0x1.3bd3cc9be45dep+2,
    0x1.0000000000000p+0};
inline constexpr double kCosM1OverX2[] = {
    0x1.e542ba4020225p-62,  -0x1.6827863b97d97p-53, 0x1.ae7f3e733b81fp-45,
    -0x1.93974a8c07c9dp-37, 0x1.1eed8eff8d898p-29,  -0x1.27e4fb7789f5cp-22,
    0x1.a01a01a01a01ap-16,  -0x1.6c16c16c16c17p-10, 0x1.5555555555555p-5,
    -0x1.0000000000000p-1};
inline constexpr double kCbrt12[] = {
    0x1.4c7608a04eba1p-8,  -0x1.8bd2dce403128p-5, 0x1.92bfc00e33108p-3,
    -0x1.d758498b983bcp-2, 0x1.a9da3cc66f245p-1,  0x1.e68ceb1fc3429p-2};
inline constexpr double kKlSeries[] = {
    -0x1.3813813813814p-9, 0x1.58ed2308158edp-9, -0x1.7f405fd017f40p-9, 0x1.ac5701ac5701bp-9,
    -0x1.e1e1e1e1e1e1ep-9, 0x1.1111111111111p-8, -0x1.3813813813814p-8, 0x1.6816816816817p-8,
    -0x1.a41a41a41a41ap-8, 0x1.f07c1f07c1f08p-8, -0x1.29e4129e4129ep-7, 0x1.6c16c16c16c17p-7,
    -0x1.c71c71c71c71cp-7, 0x1.2492492492492p-6, -0x1.8618618618618p-6, 0x1.1111111111111p-5,
    -0x1.999999999999ap-5, 0x1.5555555555555p-4, -0x1.5555555555555p-3, 0x1.0000000000000p-1};

// c ? a : b as a bit blend.  A plain ?: on values lets GCC turn the select back into a
// branch and sink the unselected computation into it; with -ftrapping-math it then refuses
// to if-convert, and the loop does not vectorize.  The blend has no control flow to sink
// into (it compiles to vblendvps/vblendvpd or and/andn/or).
template <class T>
inline T sel(bool c, T a, T b) {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const U m = U(0) - U(c);
  return bit_cast<T>(static_cast<U>((bit_cast<U>(a) & m) | (bit_cast<U>(b) & ~m)));
}

// c[0] x^(N-1) + ... + c[N-1] by Horner's rule with FMAs, unrolled at compile time
// (special_common.h's polevl is a loop, and GCC does not vectorize a loop around two of them).
template <std::size_t... I>
inline double horner_impl(double x, const double* c, std::index_sequence<I...>) {
  double r = c[0];
  ((r = std::fma(r, x, c[I + 1])), ...);
  return r;
}
template <std::size_t N>
inline double horner(double x, const double (&c)[N]) {
  return horner_impl(x, c, std::make_index_sequence<N - 1>{});
}

// Round to nearest integer (ties to even); vectorizes to vroundpd.
inline double rint(double x) { return __builtin_rint(x); }

// sin(pi t) / (pi t) and cos(pi t) for |t| <= 1/4.
inline double sinpi_over_pit(double t) { return horner(t * t, kSinPiOverPiT); }
inline double sinpi_reduced(double t) { return kPi * t * sinpi_over_pit(t); }
inline double cospi_reduced(double t) { return horner(t * t, kCosPi); }

// sin(pi v/w)-style quadrant evaluation: given the reduced value s (|s| <= 1/4 of the period
// unit) and the quarter-turn count q in {-2..2}, sin of (s + q quarter turns).
inline double sin_quarter(double sin_s, double cos_s, double q) {
  return sel(q == 0, sin_s, sel(q == 1, cos_s, sel(q == -1, -cos_s, -sin_s)));
}
inline double cos_quarter(double sin_s, double cos_s, double q) {
  return sel(q == 0, cos_s, sel(q == 1, -sin_s, sel(q == -1, sin_s, -cos_s)));
}

// sin(pi x) for finite x, exact reduction (x - 2 round(x/2) and the quarter split are exact).
inline double sinpi(double x) {
  const double r = x - 2.0 * rint(0.5 * x);   // [-1, 1]
  const double q = rint(2.0 * r);             // {-2..2}
  const double s = r - 0.5 * q;                     // [-1/4, 1/4], exact
  return sin_quarter(sinpi_reduced(s), cospi_reduced(s), q);
}

// Cube root of a double, branch-free: |x| = m 2^e, e = 3k + j, cbrt = cbrt(m 2^j) 2^k with
// cbrt(m) from the fit, times 2^(j/3), polished by Newton on t = m 2^j in [1, 8).
inline double cbrt(double x) {
  const double a = std::fabs(x);
  const bool tiny = a < 0x1p-1000;                  // subnormals: scale up by 2^120
  const double as = sel(tiny, a * 0x1p120, a);
  const uint64_t bits = bit_cast<uint64_t>(as);
  // exponent field as an exact double (magic-number conversion, vectorizes)
  const double ef = bit_cast<double>((bits >> 52) | 0x4330000000000000ULL) - 0x1p52;
  const double m = bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  const double eb = ef - 1023.0 + 1500.0;           // >= 0 for every finite nonzero input
  const double k = rint(eb / 3.0 - 1.0 / 3.0);     // floor(eb / 3) (floor does not vectorize)
  const double j = eb - 3.0 * k;                    // 0, 1, 2
  const double t = m * sel(j == 0, 1.0, sel(j == 1, 2.0, 4.0));
  double y = horner(m, kCbrt12) *
             sel(j == 0, 1.0, sel(j == 1, 0x1.428a2f98d728bp+0, 0x1.965fea53d6e3dp+0));
  y = y - (y * y * y - t) / (3.0 * y * y);
  y = y - (y * y * y - t) / (3.0 * y * y);
  // 2^(k - 500), built from its bits (k - 500 + 1023 in [1, 2046])
  const double kb = k - 500.0 + 1023.0;
  const double p2 = bit_cast<double>(bit_cast<uint64_t>(kb + 0x1p52) << 52);
  double r = y * p2;
  r = sel(tiny, r * 0x1p-40, r);
  r = std::copysign(r, x);
  return sel((a > 0) & (a < kInf<double>), r, x);      // +-0, +-inf, NaN pass through
}

// 2^f on [-1/2, 1/2]: Chebyshev fits (tools/gen_special_elementary_coeffs.py), degree 11 in
// double (max relative error 3e-18, 2e-17 with the coefficients rounded to double; degree 12
// cost 8% more for no visible gain) and degree 6 for float (2e-9).
inline constexpr double kExp2D[] = {
    0x1.e9ec1fcb69a7fp-32, 0x1.e6228acd1c6e5p-28, 0x1.b524ebd13a55fp-24, 0x1.62bfc2c86d700p-20,
    0x1.ffcbfc6da6ed1p-17, 0x1.430913112c61bp-13, 0x1.5d87fe78a3f9cp-10, 0x1.3b2ab6fb9f1a5p-7,
    0x1.c6b08d704a0c6p-5,  0x1.ebfbdff82c5aep-3,  0x1.62e42fefa39efp-1,  0x1.0000000000000p+0};
inline constexpr float kExp2F[] = {
    0x1.444p-13f, 0x1.5f48cp-10f, 0x1.3b2a1cp-7f, 0x1.c6aeccp-5f, 0x1.ebfbe0p-3f, 0x1.62e430p-1f,
    0x1.0p+0f};

template <class T, std::size_t... I>
inline T horner_t_impl(T x, const T* c, std::index_sequence<I...>) {
  T r = c[0];
  ((r = std::fma(r, x, c[I + 1])), ...);
  return r;
}

// 2^x = 2^f 2^k, k = round(x), f = x - k exact; 2^k as two power-of-two factors built from
// their bits (so every exponent from subnormal to overflow is reached with one rounding).
template <class T>
inline T exp2(T x) {
  // |k| <= lim keeps both factors 2^k1, 2^k2 normal; beyond, the result is 0 or inf anyway.
  constexpr T lim = sizeof(T) == 4 ? T(250) : T(2000);
  const T xc = sel(x > lim, lim, sel(x < -lim, -lim, x));   // NaN passes
  T k, k1, p;
  if constexpr (sizeof(T) == 4) {
    k = __builtin_rintf(xc);
    k1 = __builtin_rintf(k * 0.5f - 0.25f);   // floor(k/2) (floor does not vectorize)
    p = horner_t_impl<float>(xc - k, kExp2F, std::make_index_sequence<6>{});
  } else {
    k = __builtin_rint(xc);
    k1 = __builtin_rint(k * 0.5 - 0.25);
    p = horner_t_impl<double>(xc - k, kExp2D, std::make_index_sequence<11>{});
  }
  const T k2 = k - k1;
  // 2^kk from the bits of kk + (bias + 2^mantissa_bits): one add, the constant exact
  if constexpr (sizeof(T) == 4) {
    const auto pw = [](T kk) {
      return bit_cast<float>(static_cast<uint32_t>(bit_cast<uint32_t>(kk + (0x1p23f + 127.0f)))
                             << 23);
    };
    return p * pw(k1) * pw(k2);
  } else {
    const auto pw = [](T kk) {
      return bit_cast<double>(bit_cast<uint64_t>(kk + (1023.0 + 0x1p52)) << 52);
    };
    return p * pw(k1) * pw(k2);
  }
}

}  // namespace arraycore::native::special::elementary
