// Branch-free (vectorizable) cores of the gamma family for the main domains: Gamma and
// 1/Gamma for x > 0, the Hurwitz zeta function for s > 1, q > 0 (zeta, polygamma), log B(a, b)
// for a, b > 0 and the Pochhammer symbol for z, z + m in (0, 171).  The kernels
// (special_erf_gamma_gamma.cpp) run them on blocks whose inputs are all inside those domains
// and the scalar functions of special_erf_gamma.h on the rare other blocks (poles, negative
// arguments, NaN, extreme sizes).
#pragma once

#include "special_erf_gamma.h"

namespace arraycore::native::special::erf_gamma {

// Gamma(x) = exp(hi) (1 + lo) num / den for x > 0 (NaN and x <= 0 are the callers').
// x < 8: the regions of lgamma_pos_t: hi = p Q(p) = lgamma(2 + p) (|hi| < 0.7, so exp adds no
// error), num/den the recurrence factors (den = x (1 + x) or x below 1.5, num = (x - 1) ... (x - k)
// from 3 up).  x >= 8: Stirling (DLMF 5.11.1), hi + lo = (x - 1/2)(log x - 1) + log sqrt(2 pi)
// - 1/2 + S(x), an exponent up to ~700 whose absolute error is the relative error of Gamma;
// with Precise (double results) it is formed in double-double: log x = h + (x - e^h)/x (one
// Newton step on exp; Sterbenz makes x - e^h exact) and (x - 1/2)(h - 1) split exactly by an
// FMA, which keeps Gamma within ~4e-14 up to its overflow at 171.6 (float results need none
// of it).  x is clamped at 200, where Gamma overflows and 1/Gamma underflows anyway.
struct GammaParts {
  double hi, lo, num, den;
};
template <const auto& Q, const auto& S, bool Precise>
AC_EG_VEC GammaParts gamma_parts(double x) {
  const auto [big, r0, r1, r2, xs, p, prod] = small_gamma_arg(x);
  const double small = p * poly(p * (4.0 / 3.0) - (1.0 / 3.0), Q);
  const double num = select_bits(r2, 1.0, prod);
  const double den = select_bits(r0, xs * (1.0 + xs), select_bits(r1, xs, 1.0));

  const double xb = select_bits(big, select_bits(x < 200.0, x, 200.0), 8.0);
  const double h = simd_math::log(xb);
  const double r = 1.0 / xb;
  const double y = xb - 0.5;  // exact
  const double hm1 = h - 1.0;  // exact (h in [2.07, 5.3])
  const double P = y * hm1;
  double s = kLnSqrt2PiMinusHalf + r * poly(r * r, S);
  if constexpr (Precise) {
    const double log_lo = (xb - simd_math::exp(h)) * r;  // log x - h
    s += simd_math::detail::fma(y, hm1, -P) + y * log_lo;
  }
  const double ehi = P + s;  // |P| > 7 > |s|: (P - ehi) + s is the exact remainder
  const double elo = (P - ehi) + s;
  return {select_bits(big, ehi, small), select_bits(big, elo, 0.0), select_bits(big, 1.0, num),
          select_bits(big, 1.0, den)};
}

template <const auto& Q, const auto& S, bool Precise>
AC_EG_VEC double gamma_pos_v(double x) {  // x > 0 (+inf beyond 171.6)
  const GammaParts g = gamma_parts<Q, S, Precise>(x);
  return simd_math::exp(g.hi) * (1.0 + g.lo) * g.num / g.den;
}
template <const auto& Q, const auto& S, bool Precise>
AC_EG_VEC double rgamma_pos_v(double x) {  // x > 0 (gradual underflow beyond 171.6)
  const GammaParts g = gamma_parts<Q, S, Precise>(x);
  return simd_math::exp(-g.hi) * (1.0 - g.lo) * g.den / g.num;
}
inline constexpr bool kPrecise = true, kPlain = false;

// w^n for an integer-valued 0 <= n < 64 by left-to-right binary powering over n's bits,
// found by comparisons on the double (no conversion, which AVX2 lacks for int64): <= 12
// roundings.
AC_EG_VEC double pow_small_int(double w, double n) {
  double r = 1.0, rest = n;
#pragma GCC unroll 6
  for (int b = 5; b >= 0; --b) {
    const double bit = static_cast<double>(1 << b);
    const bool set = rest >= bit;
    rest -= select_bits(set, bit, 0.0);
    r *= r;
    r *= select_bits(set, w, 1.0);
  }
  return r;
}

// Hurwitz zeta(s, q) = sum_{k>=0} (q + k)^-s for s > 1, q > 0: Euler-Maclaurin summation as
// hurwitz_em (DLMF 25.11.5 with the remainder in Bernoulli numbers, 2.10.1), branch-free:
// always the kDirect (10) direct terms k < kDirect, then at a = q + kDirect
//   a^(1-s)/(s-1) + a^-s/2 + sum_{j=1}^{kBernoulli} B_2j/(2j)! s (s+1) ... (s+2j-2) a^(-s-2j+1)
// (kBernoulli 12; float results need fewer of both, see Zeta in special_erf_gamma_gamma.cpp).
// IntS (s an integer below 64, as for polygamma): the powers by binary powering of 1/(q + k);
// else exp(-s log(q + k)), whose error s |log(q + k)| eps stays below 5e-14 for s <= 60,
// q >= 1e-3.  Inside s <= 100, q < 1e8 the remainder converges to full precision.
template <bool IntS, int kDirect = 10, int kBernoulli = 12>
AC_EG_VEC double hurwitz_zeta_v(double s, double q) {
  // (always_inline: a plain lambda this size is inlined or not by the translation unit's
  // growth budget, and once another kernel in the file grew (special::poly's two chains) it
  // stayed a call and the zeta loop ran scalar, 8x slower)
  auto negpow = [s](double v) __attribute__((always_inline)) {
    if constexpr (IntS) return pow_small_int(1.0 / v, s);
    else return simd_math::exp(-s * simd_math::log(v));
  };
  double sum = 0.0;
#pragma GCC unroll 10
  for (int k = 0; k < kDirect; ++k) sum += negpow(q + k);
  const double a = q + kDirect;
  const double as = negpow(a);  // a^-s
  const double ia2 = 1.0 / (a * a);
  double fac = s * as / a;  // s a^(-s-1)
  double tail = 0.0;
#pragma GCC unroll 12
  for (int j = 0; j < kBernoulli; ++j) {
    tail += kB2jOverFact[j] * fac;
    fac *= (s + (2 * j + 1)) * (s + (2 * j + 2)) * ia2;
  }
  return sum + (a * as / (s - 1.0) + (0.5 * as + tail));
}

// Main domain of hurwitz_zeta_v.
inline bool hurwitz_zeta_inside(double s, double q) {
  return (s > 1.0) & (s <= 100.0) & (q > 0.0) & (q < 1e8);
}

// trigamma psi_1(x) = polygamma(1, x) for 1e-100 <= x < 1e100, branch-free and without the
// general path's Hurwitz zeta (ten 1/(q + k) and eleven binary powerings): the recurrence
// psi_1(x) = 1/x^2 + psi_1(x + 1) (DLMF 5.15.5) lifts z = x + k to z >= 8 in at most eight
// masked steps, its terms summed as one fraction num/den (num/den + 1/z^2 = (num z^2 + den)/
// (den z^2); den stays within 1e-200..1e17 on the domain), then the asymptotic expansion
// psi_1(z) ~ 1/z + 1/(2 z^2) + sum_k B_2k / z^(2k+1) (DLMF 5.15.8) through B_20, whose first
// omitted term at z = 8 is 1e-17 of psi_1(8) = 0.13.  Two divisions in all.
inline constexpr double kTrigammaBernoulli[] = {  // B_20, B_18, ..., B_2 (Horner order)
    -0x1.088fe72cfe72dp+9, 0x1.b7c4f8f13e3c5p+5, -0x1.c5e5e5e5e5e5ep+2, 0x1.2aaaaaaaaaaabp+0,
    -0x1.0330330330330p-2,  0x1.364d9364d9365p-4, -0x1.1111111111111p-5, 0x1.8618618618618p-6,
    -0x1.1111111111111p-5,  0x1.5555555555555p-3};
AC_EG_VEC double trigamma_pos_v(double x) {
  double z = x, num = 0.0, den = 1.0;
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    const bool step = z < 8.0;
    const double z2 = z * z;
    num = select_bits(step, simd_math::detail::fma(num, z2, den), num);
    den = select_bits(step, den * z2, den);
    z += select_bits(step, 1.0, 0.0);
  }
  const double r = 1.0 / z, r2 = r * r;
  const double asym = r + r2 * (0.5 + r * poly(r2, kTrigammaBernoulli));
  return num / den + asym;
}
inline bool trigamma_inside(double x) { return (x >= 1e-100) & (x < 1e100); }

// polygamma(n, x) for n in 0..20 (integer) and x > 0: psi for n = 0, else
// (-1)^(n+1) n! zeta(n + 1, x) with n! and the sign by 20 masked products (exact).
AC_EG_VEC double polygamma_pos_v(double n, double x) {
  double fact = 1.0, sign = -1.0;  // (-1)^(n+1)
#pragma GCC unroll 20
  for (int k = 1; k <= 20; ++k) {
    const bool m = k <= n;
    fact *= select_bits(m, static_cast<double>(k), 1.0);
    sign = select_bits(m, -sign, sign);
  }
  const double z = hurwitz_zeta_v<true>(n + 1.0, x);
  return select_bits(n == 0.0, psi_pos_v(x), sign * fact * z);
}
inline bool polygamma_inside(double n, double x) {
  const double nc = select_bits((n >= 0.0) & (n <= 20.0), n, 0.5);  // (NaN: 0.5)
  return (nc == static_cast<double>(static_cast<int>(nc))) & (x > 0.0) & (x < 1e8);
}

// Stirling's correction S(x) = lgamma(x) - ((x - 1/2) log x - x + log sqrt(2 pi)), x >= 8.
AC_EG_VEC double stirling_corr_v(double x) {
  const double r = 1.0 / x;
  return r * poly(r * r, kStirlingD);
}

// log B(a, b) for a, b > 0 (both finite), as betaln_pos: with a <= b, b < 8: lgamma(a) +
// lgamma(b) - lgamma(a + b); b >= 8: lgamma(a) - (lgamma(a + b) - lgamma(b)), the difference
// by Stirling without cancellation: (b - 1/2) log1p(a/b) + a (log(a + b) - 1) + S(a + b) - S(b).
AC_EG_VEC double betaln_pos_v(double a0, double b0) {
  const double a = select_bits(a0 <= b0, a0, b0), b = select_bits(a0 <= b0, b0, a0);
  const bool large = b >= 8.0;
  const double la = lgamma_pos_t<kLgamma23D, kStirlingD>(a);
  // (small) the two other lgammas; (large) their Stirling difference at b >= 8
  const double lb = lgamma_pos_t<kLgamma23D, kStirlingD>(b);
  const double lab = lgamma_pos_t<kLgamma23D, kStirlingD>(a + b);
  const double bl = select_bits(large, b, 8.0);
  const double diff = (bl - 0.5) * simd_math::log1p(a / bl) +
                      a * (simd_math::log(a + bl) - 1.0) +
                      (stirling_corr_v(a + bl) - stirling_corr_v(bl));
  return select_bits(large, la - diff, (la + lb) - lab);
}
inline bool betaln_inside(double a, double b) {
  return (a > 0.0) & (b > 0.0) & (a < 1e300) & (b < 1e300);
}

// Pochhammer (z)_m = Gamma(z + m)/Gamma(z) for 0 < z < 170, -1 < m < 21, z + m > 0, as poch:
// the recurrence (z)_m = (z)_(m-1) (z + m - 1) brings m below 1 (so integer results are
// exact products), then the ratio of the two Gammas of gamma_parts (exactly 1 when m has
// become 0: numerator and denominator are the same products).  The k = floor(m) <= 20 factors
// z + (f + j), f = m - k, j < k (f + j exact), are masked independently and multiplied as a
// balanced tree: the serial form (m -= 1, r *= z + m, 20 masked steps) was one dependency
// chain of ~200 cycles per vector.  Float results take the float tables and the plain
// exponent of gamma_parts (as gamma's float kernel: their 1e-9 errors are far below a float
// ulp), which saves a log correction's exp per Gamma.
template <const auto& Q, const auto& S, bool Precise>
AC_EG_VEC double poch_pos_v(double z, double m) {
  const double k = std::floor(m);  // 0 <= k <= 20 on the masked lanes that matter (m < 21)
  const double f = m - k;
  const double kk = select_bits(m >= 1.0, k, 0.0);
  double t[20];
#pragma GCC unroll 20
  for (int j = 0; j < 20; ++j) t[j] = select_bits(static_cast<double>(j) < kk, z + (f + j), 1.0);
  const double q0 = t[0] * t[1], q1 = t[2] * t[3], q2 = t[4] * t[5], q3 = t[6] * t[7];
  const double q4 = t[8] * t[9], q5 = t[10] * t[11], q6 = t[12] * t[13], q7 = t[14] * t[15];
  const double q8 = t[16] * t[17], q9 = t[18] * t[19];
  const double r = ((q0 * q1) * (q2 * q3)) * (((q4 * q5) * (q6 * q7)) * (q8 * q9));
  m = select_bits(m >= 1.0, f, m);
  const GammaParts n = gamma_parts<Q, S, Precise>(z + m);
  const GammaParts d = gamma_parts<Q, S, Precise>(z);
  return r * ((simd_math::exp(n.hi) * (1.0 + n.lo) * n.num * d.den) /
              (simd_math::exp(d.hi) * (1.0 + d.lo) * d.num * n.den));
}
inline bool poch_inside(double z, double m) {
  return (z > 0.0) & (z < 170.0) & (m > -1.0) & (m < 21.0) & (z + m > 0.0);
}

}  // namespace arraycore::native::special::erf_gamma
