// Regularized incomplete beta function I_x(a, b) and its complement, double precision.
//
// Method: the continued fraction of DLMF 8.17.22 (evaluated by the modified Lentz method),
// which converges fast for x < (a + 1) / (a + b + 2); above that point the symmetry
// I_x(a, b) = 1 - I_{1-x}(b, a) (DLMF 8.17.4) puts the computed tail on the small side, so
// the complement is never formed from a value near 1 (DiDonato & Morris, ACM TOMS 18
// (1992) 360-373, BRATIO, use the same split).  Both x and y = 1 - x are carried, so the
// side near 1 is never computed as 1 - x after the fact.
//
// The prefactor x^a y^b / B(a, b) is the delicate part for large a, b (Cephes' lgamma
// difference loses ~|exponent| ulps).  It is computed in Temme's / DiDonato-Morris's form
//   x^a y^b / B(a, b) = sqrt(ab / (2 pi (a+b))) exp(a log1pmx(e1) + b log1pmx(e2)
//                       + delta(a+b) - delta(a) - delta(b)),
// e1 = (x (a+b) - a) / a, e2 = -(x (a+b) - a) / b (a e1 + b e2 = 0 makes the linear terms
// cancel exactly), delta the Stirling correction (series for z >= 10, lgamma below).
#pragma once

#include <cmath>

#include "../simd_math.h"
#include "special_erf_gamma.h"
#include "special_incomplete_common.h"
#include "special_incomplete_gamma.h"

namespace arraycore::native::special::incomplete {

// lgamma(z) - [(z - 1/2) ln z - z + ln(2 pi)/2], z > 0.
inline double delta_any(double z) {
  if (z >= 10.0) return stirling_delta(z);
  return lgam(z) - ((z - 0.5) * std::log(z) - z + kHalfLog2Pi);
}

// a ln(z / z0) - a e with z0 = a / (a+b), e = (z - z0) / z0 = u / a, u = z (a+b) - a, and
// lz = ln z, as double-double.  Near z0 (|e| <= 1/2) it is a log1pmx(e) (small); in the far
// tails it is a ln(z (a+b) / a) - u, whose terms reach hundreds: each logarithm is taken to
// ~1e-16 absolute (log_dd; ln z directly where z < 1/2, else lz from log1p is as good) and
// the sum carried in double-double (see DD).
inline DD beta_log_term(double a, double b, double z, double lz, DD u) {
  const double e = u.hi / a;
  if (e >= -0.5 && e <= 0.5) return {a * log1pmx(e), 0.0};
  const DD s = dd_sum(a, b);
  DD l = z < 0.5 ? log_dd(z) : DD{lz, 0.0};
  l = dd_add(l, dd_add(log_dd(s.hi), {s.lo / s.hi, 0.0}));
  l = dd_add(l, dd_neg(log_dd(a)));
  return dd_add(dd_scale(a, l), dd_neg(u));
}

// x^a y^b / B(a, b) when a <= b and a is tiny (< 1e-5), where the Stirling form below
// would lose digits to ln Gamma(a) ~ -ln a: 1/B(a,b) = a Gamma(a+b) / (Gamma(1+a) Gamma(b)),
// Gamma(a+b)/Gamma(b) from the Stirling difference (b >= 10), from lgamma(1+.) (b tiny too,
// Gamma(z) = Gamma(1+z)/z), or from lgamma directly.
inline double beta_prefix_tiny(double a, double b, double lx, double ly) {
  double r;  // ln Gamma(a+b) - ln Gamma(b)
  if (b >= 10.0)
    r = (b - 0.5) * std::log1p(a / b) + a * std::log(a + b) - a + stirling_delta(a + b) -
        stirling_delta(b);
  else if (b < 1e-5)
    r = std::log(b / (a + b)) + lgam1p(a + b) - lgam1p(b);
  else
    r = lgam(a + b) - lgam(b);
  return a * std::exp(a * lx + b * ly + r - lgam1p(a));
}

// x^a y^b / B(a, b) for float results: exp(a ln x + b ln y - ln B(a, b)) with the inline,
// branch-free log/exp/lgamma of simd_math and special_erf_gamma.h, so that a loop over
// elements vectorizes (betainc_float_chunk).  Valid for a + b < kFloatPrefixMaxShape: the
// exponent's terms then stay below ~1e6 and its rounding ~1e-10 absolute, far below float's
// precision.  x and y = 1 - x must both be exact (y is for float operands promoted to
// double), so ln x and ln y need no log1p.  The Temme form below (double-double logarithms,
// libm's lgamma) costs ~115 ns per element, 70% of a whole float betainc.
constexpr double kFloatPrefixMaxShape = 1e5;
AC_SIMD_INLINE double beta_prefix_float(double a, double b, double x, double y) {
  using erf_gamma::lgamma_pos_t, erf_gamma::kLgamma23D, erf_gamma::kStirlingD;
  return simd_math::exp(a * simd_math::log(x) + b * simd_math::log(y) +
                        lgamma_pos_t<kLgamma23D, kStirlingD>(a + b) -
                        lgamma_pos_t<kLgamma23D, kStirlingD>(a) -
                        lgamma_pos_t<kLgamma23D, kStirlingD>(b));
}

// x^a y^b / B(a, b) for a, b > 0 finite, x in (0, 1), y = 1 - x.
inline double beta_prefix(double a, double b, double x, double y) {
  if (std::fmin(a, b) < 1e-5) {
    const double lx = x < 0.5 ? std::log(x) : std::log1p(-y);
    const double ly = y < 0.5 ? std::log(y) : std::log1p(-x);
    return a <= b ? beta_prefix_tiny(a, b, lx, ly) : beta_prefix_tiny(b, a, ly, lx);
  }
  // u = x (a + b) - a = x b - y a, exactly as hi + lo
  const DD u = dd_add(dd_prod(x, b), dd_neg(dd_prod(y, a)));
  // ln x and ln y from whichever of x, y is accurate (the one below 1/2)
  const double lx = x < 0.5 ? std::log(x) : std::log1p(-y);
  const double ly = y < 0.5 ? std::log(y) : std::log1p(-x);
  const DD l = dd_add(dd_add(beta_log_term(a, b, x, lx, u), beta_log_term(b, a, y, ly, dd_neg(u))),
                      {delta_any(a + b) - delta_any(a) - delta_any(b), 0.0});
  // sqrt(ab / (a+b)) without overflow for huge a, b
  const double s = a >= b ? std::sqrt(b / (1.0 + b / a)) : std::sqrt(a / (1.0 + a / b));
  return s * exp_dd(l) / std::sqrt(2.0 * M_PI);
}

// I_x(a, b) by the continued fraction, x < (a + 1) / (a + b + 2):
//   I = pre / a * 1 / (1 + d1 / (1 + d2 / (1 + ...))),
//   d_{2m+1} = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),  d_{2m} = m (b-m) x / ((a+2m-1)(a+2m)),
// by the forward recurrences of the convergents (A_n = A_{n-1} + d_n A_{n-2}, likewise B),
// two terms per step, one division per step, rescaled when large.  `pre` >= 0: the
// prefactor x^a y^b / B(a, b), computed by the caller.
inline double ibeta_cf(double a, double b, double x, double y, double tol = kEps,
                       double pre = -1.0) {
  if (pre < 0.0) pre = beta_prefix(a, b, x, y);
  if (pre == 0.0) return 0.0;
  constexpr double big = 0x1p300, rbig = 0x1p-300;
  double a2 = 1.0, b2 = 1.0;  // A_0 = 1, B_0 = 1   (K = 1 + d1/(1 + ...))
  const double d1 = -(a + b) * x / (a + 1.0);
  double a1 = 1.0, b1 = 1.0 + d1;  // A_1 = 1, B_1 = 1 + d1  (value A/B)
  double r = a1 / b1;
  for (int m = 1; m < kMaxIter; ++m) {
    const double m2 = 2.0 * m;
    const double de = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    const double dodd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    double a0 = a1 + de * a2, b0 = b1 + de * b2;
    a2 = a1; b2 = b1; a1 = a0; b1 = b0;
    a0 = a1 + dodd * a2; b0 = b1 + dodd * b2;
    a2 = a1; b2 = b1; a1 = a0; b1 = b0;
    if (std::fabs(b1) > big) { a1 *= rbig; b1 *= rbig; a2 *= rbig; b2 *= rbig; }
    if (std::fabs(b1) < rbig) { a1 *= big; b1 *= big; a2 *= big; b2 *= big; }
    if (b1 != 0.0) {
      const double rn = a1 / b1;
      const bool done = std::fabs(rn - r) <= tol * std::fabs(rn);
      r = rn;
      if (done) break;
    }
  }
  return pre * r / a;
}

// digamma(b), b > 0: recurrence up to b >= 10, then the asymptotic series (DLMF 5.15.8,
// 7 terms: below 1e-16 relative there).
inline double digamma_pos(double b) {
  double acc = 0.0;
  while (b < 10.0) {
    acc -= 1.0 / b;
    b += 1.0;
  }
  static constexpr double c[] = {1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132,
                                 -691.0 / 32760, 1.0 / 12};  // B_2k / (2k)
  const double r2 = 1.0 / (b * b);
  double tail = 0.0;
  for (int k = 6; k >= 0; --k) tail = std::fma(tail, r2, c[k]);
  return acc + std::log(b) - 0.5 / b - tail * r2;
}

// 1 - I_x(a, b) for a so small (< 1e-13) that I_x(a, b) = 1 - a c + O(a^2): from the power
// series I_x(a,b) = x^a / (a B(a,b)) [1 + a sum_n (1-b)_n x^n / (n! (a+n))] (DLMF 8.17.7
// with 8.17.8's hypergeometric expanded) and 1/(a B(a,b)) = 1 + a (psi(b) + gamma) + O(a^2),
// c = -(ln x + psi(b) + gamma + sum_{n>=1} (1-b)_n x^n / (n! n)).  (Where 1 - I is formed
// by subtraction it would be pure rounding noise.)
inline double ibeta_small_a_complement(double a, double b, double x, double lx) {
  constexpr double kEulerGamma = 0.57721566490153286061;
  double term = 1.0, sum = 0.0;
  for (int n = 1; n < kMaxIter; ++n) {
    term *= (n - b) * x / n;
    const double t = term / n;
    sum += t;
    if (std::fabs(t) <= kEps * std::fabs(sum) || term == 0.0) break;
  }
  return -a * (lx + digamma_pos(b) + kEulerGamma + sum);
}

// Whether ibeta_core evaluates I_x(a, b) as 1 - I_y(b, a): the continued fraction converges
// fast only below x = (a + 1) / (a + b + 2).
inline bool ibeta_swaps(double a, double b, double x) { return x * (a + b + 2.0) > a + 1.0; }

// I_x(a, b) (upper = false) or 1 - I_x(a, b) (upper = true); a, b > 0 finite, 0 < x < 1,
// y = 1 - x (passed so that the side near 1 keeps its accuracy).  `pre` >= 0: the prefactor
// of the continued fraction ibeta_core takes (beta_prefix(b, a, y, x) where ibeta_swaps),
// computed by the caller.
inline double ibeta_core(double a, double b, double x, double y, bool upper,
                         double tol = kEps, double pre = -1.0) {
  constexpr double kTinyShape = 1e-13;
  if (a == b && x == 0.5) return 0.5;  // symmetry, exact (any a, however large)
  // One shape beyond 1e15 times the other: I_x(a, b) = P(a, -(b + (a-1)/2) ln(1-x)) up to
  // O(1/b^2) (the large-b limit, Abramowitz & Stegun 26.5.? / Temme 1992 leading term).
  if (b > 1e15 * std::fmax(a, 1.0)) {
    const double ly = y < 0.5 ? std::log(y) : std::log1p(-x);
    return igam_core(a, -(b + 0.5 * (a - 1.0)) * ly, upper, tol);
  }
  if (a > 1e15 * std::fmax(b, 1.0)) {
    const double lx = x < 0.5 ? std::log(x) : std::log1p(-y);
    return igam_core(b, -(a + 0.5 * (b - 1.0)) * lx, !upper, tol);
  }
  if (ibeta_swaps(a, b, x)) {
    if (!upper && b < kTinyShape * std::fmin(a, 1.0))
      return ibeta_small_a_complement(b, a, y, x < 0.5 ? std::log1p(-x) : std::log(y));
    const double v = ibeta_cf(b, a, y, x, tol, pre);  // = 1 - I_x(a, b)
    return upper ? v : 1.0 - v;
  }
  if (upper && a < kTinyShape * std::fmin(b, 1.0))
    return ibeta_small_a_complement(a, b, x, x < 0.5 ? std::log(x) : std::log1p(-y));
  const double v = ibeta_cf(a, b, x, y, tol, pre);
  return upper ? 1.0 - v : v;
}

// I_x(a, b) or its complement with y = 1 - x given, and SciPy's conventions at the edges
// (a, b >= 0: a = 0 or b = inf put all the mass at 0, b = 0 or a = inf at 1).
inline double betainc_pair(double a, double b, double x, double y, bool upper,
                           double tol = kEps, double pre = -1.0) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(x) || std::isnan(y)) return kNaN;
  if (a < 0.0 || b < 0.0) return kNaN;
  if ((a == 0.0 && b == 0.0) || (std::isinf(a) && std::isinf(b))) return kNaN;
  double lower;  // I_x(a, b) at the edges
  if (x == 0.0) {
    lower = 0.0;
  } else if (y == 0.0) {
    lower = 1.0;
  } else if (a == 0.0 || std::isinf(b)) {
    lower = 1.0;
  } else if (b == 0.0 || std::isinf(a)) {
    lower = 0.0;
  } else {
    return ibeta_core(a, b, x, y, upper, tol, pre);
  }
  return upper ? 1.0 - lower : lower;
}

inline double betainc_d(double a, double b, double x, bool upper, double tol = kEps,
                        double pre = -1.0) {
  if (std::isnan(x) || x < 0.0 || x > 1.0) return kNaN;
  return betainc_pair(a, b, x, 1.0 - x, upper, tol, pre);
}

// betainc (or betaincc) of m <= 256 elements to float precision (tol): the continued
// fractions' prefactors first, in one vectorized pass (beta_prefix_float, where the shapes
// allow it), then each element's continued fraction.
inline void betainc_float_chunk(const double* a, const double* b, const double* x, double* out,
                                int m, bool upper, double tol) {
  double pre[256];
  for (int i = 0; i < m; ++i) {
    // the operands of the fraction ibeta_core will take, chosen before the one evaluation
    const bool swap = ibeta_swaps(a[i], b[i], x[i]);
    const double y = 1.0 - x[i];
    const double p = beta_prefix_float(swap ? b[i] : a[i], swap ? a[i] : b[i],
                                       swap ? y : x[i], swap ? x[i] : y);
    pre[i] = a[i] + b[i] < kFloatPrefixMaxShape ? p : -1.0;  // NaN shapes: -1 as well
  }
  for (int i = 0; i < m; ++i) out[i] = betainc_d(a[i], b[i], x[i], upper, tol, pre[i]);
}

}  // namespace arraycore::native::special::incomplete
