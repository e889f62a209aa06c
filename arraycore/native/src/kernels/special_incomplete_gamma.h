// Regularized incomplete gamma ratios P(a, x) and Q(a, x) = 1 - P(a, x), double precision.
//
// Method (DiDonato & Morris, ACM TOMS 12 (1986) 377-393, and Temme, "Special functions"
// ch. 11): compute the smaller of P and Q directly and the other as its complement.
//   - the power series P = x^a e^-x / Gamma(a+1) sum_n x^n / ((a+1)...(a+n)) (DLMF 8.7.1,
//     8.11.4) where x < a (all terms positive);
//   - the continued fraction of Q (DLMF 8.9.2, evaluated by the modified Lentz method) where
//     x > a and x > 1.1;
//   - for x <= 1.1 with a small, Q from the series of gamma*(a, x) (DLMF 8.7.3) written as
//     Q = -expm1(a ln x - lgamma(1+a)) - x^a/Gamma(a+1) a sum_{n>=1} (-x)^n / (n! (a+n)),
//     which keeps Q's relative accuracy where P ~ 1 (DiDonato & Morris's region choice);
//   - Temme's uniform expansion (DLMF 8.12.3-8.12.4, first two terms) where a is so large
//     (> 1e6) and x so close to a that the series would need too many terms.
// The prefactor x^a e^-x / Gamma(a) is evaluated as sqrt(a / 2pi) exp(a log1pmx((x-a)/a) -
// delta(a)) for a >= 10 (Temme's form; no cancellation between a ln x and x), with the
// exponent in double-double where it is large (the far tails, exponents down to -745:
// igam_fac_needs_dd), directly with pow/exp/lgamma below.
#pragma once

#include <cmath>

#include "../simd_math.h"
#include "special_erf_gamma.h"
#include "special_incomplete_common.h"

namespace arraycore::native::special::incomplete {

// Gamma(a) for 0 < a < 10 (glibc's tgamma costs ~1 us): Stirling's formula at z = a + n
// >= 10 with the correction series (DLMF 5.11.1), divided by a (a+1) ... (a+n-1)
// (DLMF 5.5.1).  Error a few ulps.
inline double tgamma_small(double a) {
  double prod = 1.0, z = a;
  while (z < 10.0) {
    prod *= z;
    z += 1.0;
  }
  const double g = std::sqrt(2.0 * M_PI) * std::pow(z, z - 0.5) * std::exp(stirling_delta(z) - z);
  return g / prod;
}

// Where Temme's form of the prefactor (a >= 10) is evaluated in double-double:
// t = (x - a)/a, and the exponent a log1pmx(t) ~ -a t^2/2 beyond ~-15, or the far lower tail.
// In double the exponent's rounding (the product, log1pmx's and t's errors) costs a few
// times |exponent| ulps relative in the result: 2.1e-13 at exponents near -700.
inline bool igam_fac_needs_dd(double a, double t) { return t < -0.5 || a * t * t > 30.0; }

// sqrt(a/2pi) exp(a ln(x/a) + a - x - delta(a)) (Temme's form, a >= 10) with the exponent in
// double-double: x/a = q + q_lo (the division's exact residual) and its logarithm to ~1e-30
// relative (log_dd_exact, plus q_lo/q), so a ln(x/a) and x - a (a two-sum) cancel without
// loss near x = a, and the exponent's absolute error stays ~1e-16 down to -745 (where the
// result underflows): ~4e-16 relative in the prefactor.
inline double igam_fac_dd(double a, double x) {
  const double q = x / a;
  if (q < std::numeric_limits<double>::min()) return 0.0;  // (x/a)^a, a >= 10, underflows
  // ln(x/a) = ln q + ln(1 + (x - q a)/(q a)), q a ~ x; the residual x - q a exact by FMA
  const DD l = dd_add(log_dd_exact(q), {std::fma(-q, a, x) / x, 0.0});
  const DD y = dd_add(dd_add(dd_scale(a, l), dd_sum(a, -x)), {-stirling_delta(a), 0.0});
  return std::sqrt(a / (2.0 * M_PI)) * exp_dd(y);
}

// x^a e^-x / Gamma(a), a > 0, x > 0.  Float results (fast) take it for a < 10 as
// exp(a log x - x - lgamma(a)) with the inline exp/log/lgamma of simd_math and
// special_erf_gamma.h (the exponent's rounding, ~|a log x - x| eps, is far below float's
// precision), instead of libm's pow, exp and Gamma, which cost more than the series.
inline double igam_fac(double a, double x, bool fast = false) {
  if (fast && a < 10.0) {
    return simd_math::exp(a * simd_math::log(x) - x - erf_gamma::lgamma_pos(a));
  }
  if (a >= 10.0) {
    const double t = (x - a) / a;
    if (!fast && igam_fac_needs_dd(a, t)) return igam_fac_dd(a, x);
    const double e = t < -0.5 ? std::log(x / a) - t : log1pmx(t);
    return std::sqrt(a / (2.0 * M_PI)) * std::exp(a * e - stirling_delta(a));
  }
  if (x < 700.0) {
    const double v = std::pow(x, a) * std::exp(-x);
    if (v > 1e-290) return v / tgamma_small(a);
  }
  return std::exp(a * std::log(x) - x - lgam(a));
}

// Power series of P (x < a + 1 or so); tol: the relative size of the last term kept.
inline double igam_series(double a, double x, double tol = kEps) {
  const double fac = igam_fac(a, x, tol > kEps);
  if (fac == 0.0) return 0.0;
  double term = 1.0, sum = 1.0, an = a;
  for (int n = 0; n < kMaxIter; ++n) {
    an += 1.0;
    term *= x / an;
    sum += term;
    if (term <= tol * sum) break;
  }
  return sum * fac / a;
}

// Continued fraction of Q (x > a, x > 1.1), DLMF 8.9.2 in its contracted form
//   Q = fac / (b0 + a1 / (b1 + a2 / (b2 + ...))),  b_n = x + 2n + 1 - a, a_n = -n (n - a),
// evaluated by the forward recurrences of the convergents A_n / B_n (one division per
// term, off the recurrence's critical path), rescaled when they grow large.
inline double igamc_cf(double a, double x, double tol = kEps) {
  const double fac = igam_fac(a, x, tol > kEps);
  if (fac == 0.0) return 0.0;
  constexpr double big = 0x1p300, rbig = 0x1p-300;
  double a2 = 1.0, b2 = 0.0;        // A_{n-2}, B_{n-2}
  double a1 = x + 1.0 - a, b1 = 1.0;  // A_{n-1}, B_{n-1}
  double r = b1 / a1;
  double bn = a1;
  for (int n = 1; n < kMaxIter; ++n) {
    bn += 2.0;
    const double an = -n * (n - a);
    const double a0 = bn * a1 + an * a2, b0 = bn * b1 + an * b2;
    a2 = a1; b2 = b1; a1 = a0; b1 = b0;
    if (std::fabs(a1) > big) { a1 *= rbig; b1 *= rbig; a2 *= rbig; b2 *= rbig; }
    if (a1 != 0.0) {
      const double rn = b1 / a1;
      const bool done = std::fabs(rn - r) <= tol * std::fabs(rn);
      r = rn;
      if (done) break;
    }
  }
  return fac * r;
}

// Q for x <= 1.1 and small a (see the header).
inline double igamc_series(double a, double x, double tol = kEps) {
  double fac = 1.0, sum = 0.0;
  for (int n = 1; n < kMaxIter; ++n) {
    fac *= -x / n;
    const double term = fac / (a + n);
    sum += term;
    if (std::fabs(term) <= tol * std::fabs(sum)) break;
  }
  const double l = a * std::log(x) - lgam1p(a);
  return -std::expm1(l) - a * sum * std::exp(l);
}

// Temme's uniform expansion, first two terms (DLMF 8.12.3-8.12.4, 8.12.8):
// Q = erfc(eta sqrt(a/2)) / 2 + exp(-a eta^2 / 2) / sqrt(2 pi a) (C0(eta) + C1(eta) / a),
// with eta = sign(x/a - 1) sqrt(2 (x/a - 1 - ln(x/a))).  Used only for a > 1e6 with
// |x/a - 1| < 0.3, where the neglected C2 / a^2 term is below 1e-14; C0 and C1 by their
// Taylor series in eta (coefficients of DLMF 8.12.8's c0, c1 computed with mpmath by
// Cauchy integrals, tools in docs/special_incomplete.md).
inline double igam_temme(double a, double x, bool upper) {
  const double t = (x - a) / a;
  const double eta = std::copysign(std::sqrt(-2.0 * log1pmx(t)), t);
  static constexpr double c0[] = {
      -0.33333333333333333333, 0.083333333333333333333, -0.014814814814814814815,
      0.0011574074074074074074, 0.00035273368606701940035, -0.00017875514403292181070,
      0.39192631785224377817e-4, -0.21854485106799921615e-5, -0.18540622107151599607e-5,
      0.8296711340953086005e-6, -0.17665952736826079304e-6, 0.67078535434014985804e-8,
      0.10261809784240308043e-7, -0.43820360184533531866e-8, 0.91476995822367902342e-9};
  static constexpr double c1[] = {
      -0.0018518518518518518519, -0.0034722222222222222222, 0.0026455026455026455026,
      -0.00099022633744855967078, 0.00020576131687242798354, -0.40187757201646090535e-6,
      -0.18098550334489977837e-4, 0.76491609160811100846e-5, -0.16120900894563446004e-5,
      0.46471278028074343423e-8, 0.13786334469157209593e-6, -0.5752545603517704964e-7,
      0.11951628599778147324e-7};
  double s0 = 0.0, s1 = 0.0;
  for (int k = 14; k >= 0; --k) s0 = std::fma(s0, eta, c0[k]);
  for (int k = 12; k >= 0; --k) s1 = std::fma(s1, eta, c1[k]);
  const double lead = 0.5 * std::erfc(eta * std::sqrt(0.5 * a));
  const double corr = std::exp(-0.5 * a * eta * eta) / std::sqrt(2.0 * M_PI * a) * (s0 + s1 / a);
  return upper ? lead + corr : 0.5 * std::erfc(-eta * std::sqrt(0.5 * a)) - corr;
}

// P(a, x) (upper = false) or Q(a, x) (upper = true) for a > 0, x > 0 finite.
inline double igam_core(double a, double x, bool upper, double tol = kEps) {
  if (a > 1e6 && std::fabs(x - a) < 0.3 * a) return igam_temme(a, x, upper);
  bool q_direct;  // which tail is computed directly
  double v;
  if (x > 1.1) {
    q_direct = x >= a;
    v = q_direct ? igamc_cf(a, x, tol) : igam_series(a, x, tol);
  } else if (x <= 0.5) {
    q_direct = !(-0.4 / std::log(x) < a);
    v = q_direct ? igamc_series(a, x, tol) : igam_series(a, x, tol);
  } else {
    q_direct = !(x * 1.1 < a);
    v = q_direct ? igamc_series(a, x, tol) : igam_series(a, x, tol);
  }
  return q_direct == upper ? v : 1.0 - v;
}

// SciPy's conventions at the edges of the domain (a >= 0, x >= 0).
// tol: the truncation tolerance of the series (kEps for double results; float results,
// rounded from double, stop at 1e-10).
inline double gammainc_d(double a, double x, bool upper, double tol = kEps) {
  if (std::isnan(a) || std::isnan(x) || a < 0.0 || x < 0.0) return kNaN;
  if (a == 0.0) {
    if (x > 0.0) return upper ? 0.0 : 1.0;
    return kNaN;
  }
  if (x == 0.0) return upper ? 1.0 : 0.0;
  if (std::isinf(a)) {
    if (std::isinf(x)) return kNaN;
    return upper ? 1.0 : 0.0;
  }
  if (std::isinf(x)) return upper ? 0.0 : 1.0;
  return igam_core(a, x, upper, tol);
}

}  // namespace arraycore::native::special::incomplete
