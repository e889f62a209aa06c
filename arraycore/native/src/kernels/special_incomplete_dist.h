// The scalar functions of family incomplete with SciPy 1.17's argument orders and edge
// conventions: the incomplete gamma/beta ratios and inverses, and the distribution
// functions defined through them (DLMF 8.2, 8.17; Abramowitz & Stegun 26.4-26.7):
//   binomial      bdtr(k, n, p)  = I_{1-p}(n-k, k+1),    bdtrc = I_p(k+1, n-k)
//   neg. binomial nbdtr(k, n, p) = I_p(n, k+1),          nbdtrc = I_{1-p}(k+1, n)
//   Poisson       pdtr(k, m)     = Q(k+1, m),            pdtrc = P(k+1, m)
//   chi-square    chdtr(v, x)    = P(v/2, x/2),          chdtrc = Q(v/2, x/2)
//   gamma         gdtr(a, b, x)  = P(b, a x)   (a: rate, b: shape)
//   F             fdtr(m, n, x)  = I_{mx/(n+mx)}(m/2, n/2)
//   Student t     stdtr(v, t)    = 1 - I_{v/(v+t^2)}(v/2, 1/2) / 2 for t > 0
// The integer arguments (k, n) are floored as SciPy does (bdtr's k, pdtr's k) or truncated
// toward zero where SciPy's loop passes them as C longs (nbdtr's k and n, bdtr's n, pdtri's
// k); a value no long can hold is then out of the domain (NaN), as in SciPy.
#pragma once

#include <cmath>

#include "special_incomplete_beta.h"
#include "special_incomplete_common.h"
#include "special_incomplete_gamma.h"
#include "special_incomplete_inverse.h"

namespace arraycore::native::special::incomplete {

// The C int conversion SciPy applies to the integer arguments of these functions (its
// kernels take `int n`): truncation toward zero; NaN stays NaN (SciPy returns NaN for it);
// a value no int holds becomes INT_MIN (x86 conversion), hence out of the domain.
inline double as_int(double v) {
  if (std::isnan(v)) return v;
  if (!(std::fabs(v) < 2147483648.0)) return -2147483648.0;
  return std::trunc(v);
}

inline bool bad_prob(double p) { return std::isnan(p) || p < 0.0 || p > 1.0; }

// ---- incomplete gamma -------------------------------------------------------------------

inline double gammainc(double a, double x) { return gammainc_d(a, x, false); }
inline double gammaincc(double a, double x) { return gammainc_d(a, x, true); }

// x with P(a, x) = p (lower) or Q(a, x) = p (upper).
inline double gammaincinv_d(double a, double p, bool upper) {
  if (std::isnan(a) || std::isnan(p) || a < 0.0) return kNaN;
  // SciPy's quirk at a = -0: the out-of-range side of the probability returns 0
  if (a == 0.0 && std::signbit(a) && (upper ? p < 0.0 : p > 1.0)) return 0.0;
  if (bad_prob(p)) return kNaN;
  const double lo_end = upper ? 1.0 : 0.0;  // the target value that maps to x = 0
  if (p == lo_end) return 0.0;
  if (p == 1.0 - lo_end) return kInf;
  // SciPy's answer at a = 0 for upper-tail targets up to 1e-5 (its small-q branch)
  if (a == 0.0 && !std::signbit(a) && upper && p <= 1e-5) return 0.0;
  if (a == 0.0 || std::isinf(a)) return kNaN;
  const double q = 1.0 - p;
  return upper ? igam_inv(a, q, p) : igam_inv(a, p, q);
}
inline double gammaincinv(double a, double p) { return gammaincinv_d(a, p, false); }
inline double gammainccinv(double a, double q) { return gammaincinv_d(a, q, true); }

// ---- incomplete beta --------------------------------------------------------------------

inline double betainc(double a, double b, double x) { return betainc_d(a, b, x, false); }
inline double betaincc(double a, double b, double x) { return betainc_d(a, b, x, true); }

// x with I_x(a, b) = p, q = 1 - p (both given: the smaller is the accurate one); returns
// y = 1 - x too.  Edge cases of SciPy's betaincinv.
inline double betaincinv_pair(double a, double b, double p, double q, double* y) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(p) || std::isnan(q) || a <= 0.0 ||
      b <= 0.0 || p < 0.0 || p > 1.0 || q < 0.0 || q > 1.0) {
    *y = kNaN;
    return kNaN;
  }
  if (p == 0.0) { *y = 1.0; return 0.0; }
  if (q == 0.0) { *y = 0.0; return 1.0; }
  // infinite shapes: SciPy's (Boost's) answers, a point mass only where the other shape is 1
  if (std::isinf(a) && std::isinf(b)) { *y = kNaN; return kNaN; }
  if (std::isinf(a)) { *y = b == 1.0 ? 0.0 : kNaN; return b == 1.0 ? 1.0 : kNaN; }
  if (std::isinf(b)) { *y = a == 1.0 ? 1.0 : kNaN; return a == 1.0 ? 0.0 : kNaN; }
  double x;
  ibeta_inv(a, b, p, q, x, *y);
  return x;
}
inline double betaincinv(double a, double b, double p) {
  double y;
  return betaincinv_pair(a, b, p, 1.0 - p, &y);
}

// ---- binomial ---------------------------------------------------------------------------

inline double bdtr(double k, double n, double p) {
  if (std::isnan(k) || !std::isfinite(n) || bad_prob(p)) return kNaN;
  k = std::floor(k);
  n = as_int(n);
  if (k < 0.0 || n < k) return kNaN;
  if (k == n) return 1.0;
  const double dn = n - k;
  if (k == 0.0) return std::pow(1.0 - p, dn);
  if (p == 0.0) return 1.0;
  if (p == 1.0) return 0.0;
  return ibeta_core(dn, k + 1.0, 1.0 - p, p, false);
}

inline double bdtrc(double k, double n, double p) {
  if (std::isnan(k) || !std::isfinite(n) || bad_prob(p)) return kNaN;
  const bool k_zero = k == 0.0;  // SciPy's closed form applies to k == 0 before flooring
  k = std::floor(k);
  n = as_int(n);
  if (n < k) return kNaN;
  if (k < 0.0) return 1.0;
  if (k == n) return 0.0;
  const double dn = n - k;
  if (k_zero) return -std::expm1(dn * std::log1p(-p));
  if (p == 0.0) return 0.0;
  if (p == 1.0) return 1.0;
  return ibeta_core(k + 1.0, dn, p, 1.0 - p, false);
}

// p with bdtr(k, n, p) = y.
inline double bdtri(double k, double n, double y) {
  if (std::isnan(k) || !std::isfinite(n) || bad_prob(y)) return kNaN;
  k = std::floor(k);
  n = as_int(n);
  if (k < 0.0 || n <= k) return kNaN;
  const double dn = n - k;
  if (k == 0.0) {  // (1 - p)^dn = y
    if (y > 0.8) return -std::expm1(std::log1p(y - 1.0) / dn);
    return 1.0 - std::pow(y, 1.0 / dn);
  }
  // I_{1-p}(dn, k+1) = y  <=>  I_p(k+1, dn) = 1 - y
  double rest;
  return betaincinv_pair(k + 1.0, dn, 1.0 - y, y, &rest);
}

// ---- negative binomial ------------------------------------------------------------------

inline double nbdtr(double k, double n, double p) {
  if (bad_prob(p)) return kNaN;
  k = as_int(k);
  n = as_int(n);
  if (std::isnan(k) || std::isnan(n) || k < 0.0 || n <= 0.0) return kNaN;
  if (p == 0.0) return 0.0;
  if (p == 1.0) return 1.0;
  return ibeta_core(n, k + 1.0, p, 1.0 - p, false);
}

inline double nbdtrc(double k, double n, double p) {
  if (bad_prob(p)) return kNaN;
  k = as_int(k);
  n = as_int(n);
  if (std::isnan(k) || std::isnan(n) || k < 0.0 || n <= 0.0) return kNaN;
  if (p == 0.0) return 1.0;
  if (p == 1.0) return 0.0;
  return ibeta_core(n, k + 1.0, p, 1.0 - p, true);
}

inline double nbdtri(double k, double n, double y) {
  if (bad_prob(y)) return kNaN;
  k = as_int(k);
  n = as_int(n);
  if (std::isnan(k) || std::isnan(n) || k < 0.0) return kNaN;
  if (y == 0.0) return 0.0;
  if (y == 1.0) return 1.0;
  if (n <= 0.0) return kNaN;
  double rest;
  return betaincinv_pair(n, k + 1.0, y, 1.0 - y, &rest);
}

// ---- Poisson ----------------------------------------------------------------------------

inline double pdtr(double k, double m) {
  if (std::isnan(m) || m < 0.0 || k < 0.0) return kNaN;
  if (m == 0.0) return 1.0;
  if (std::isnan(k)) return kNaN;
  return gammaincc(std::floor(k) + 1.0, m);
}

inline double pdtrc(double k, double m) {
  if (std::isnan(m) || m < 0.0 || k < 0.0) return kNaN;
  if (m == 0.0) return 0.0;
  if (std::isnan(k)) return kNaN;
  return gammainc(std::floor(k) + 1.0, m);
}

inline double pdtri(double k, double y) {
  k = as_int(k);
  if (k < 0.0 || bad_prob(y) || y == 1.0) return kNaN;
  return gammainccinv(k + 1.0, y);
}

// ---- chi-square and gamma ---------------------------------------------------------------

inline double chdtr(double v, double x) {
  if (x < 0.0) return kNaN;
  return gammainc(0.5 * v, 0.5 * x);
}
inline double chdtrc(double v, double x) {
  if (x < 0.0) return kNaN;
  return gammaincc(0.5 * v, 0.5 * x);
}
inline double chdtri(double v, double y) {
  if (bad_prob(y)) return kNaN;
  return 2.0 * gammainccinv(0.5 * v, y);
}

inline double gdtr(double a, double b, double x) {
  if (x < 0.0) return kNaN;
  return gammainc(b, a * x);
}
inline double gdtrc(double a, double b, double x) {
  if (x < 0.0) return kNaN;
  return gammaincc(b, a * x);
}

// ---- F ----------------------------------------------------------------------------------

inline bool bad_dfs(double m, double n) {
  return std::isnan(m) || std::isnan(n) || !(m > 0.0) || !(n > 0.0) || std::isinf(m) ||
         std::isinf(n);
}

inline double fdtr_d(double m, double n, double x, bool upper) {
  if (std::isnan(m) || std::isnan(n) || std::isnan(x) || x < 0.0) return kNaN;
  if (std::isinf(x) && m > 0.0 && n > 0.0) return upper ? 0.0 : 1.0;  // before the df checks
  if (bad_dfs(m, n)) return kNaN;
  // w = m x / (n + m x), 1 - w = n / (n + m x), both without cancellation
  const double mx = m * x, s = n + mx;
  return betainc_pair(0.5 * m, 0.5 * n, mx / s, n / s, upper);
}
inline double fdtr(double m, double n, double x) { return fdtr_d(m, n, x, false); }
inline double fdtrc(double m, double n, double x) { return fdtr_d(m, n, x, true); }

inline double fdtri(double m, double n, double y) {
  if (bad_dfs(m, n) || bad_prob(y)) return kNaN;
  double v;  // 1 - w
  const double w = betaincinv_pair(0.5 * m, 0.5 * n, y, 1.0 - y, &v);
  return n * w / (m * v);
}

// ---- Student t --------------------------------------------------------------------------

inline double stdtr(double v, double t) {
  if (std::isnan(v) || std::isnan(t) || !(v > 0.0)) return kNaN;
  if (t == 0.0) return 0.5;
  if (std::isinf(t)) return t > 0.0 ? 1.0 : 0.0;
  // beyond 1e20 degrees of freedom the t and normal distributions agree to double precision
  if (v > 1e20) return 0.5 * std::erfc(-t / std::sqrt(2.0));
  // x = v / (v + t^2), 1 - x = t^2 / (v + t^2); the lower tail is I_x(v/2, 1/2) / 2
  const double t2 = t * t, s = v + t2;
  const double tail = 0.5 * betainc_pair(0.5 * v, 0.5, v / s, t2 / s, false);
  return t < 0.0 ? tail : 1.0 - tail;
}

inline double stdtrit(double v, double p) {
  if (std::isnan(v) || bad_prob(p) || !(v > 0.0)) return kNaN;
  if (p == 0.0) return kInf;  // sic: SciPy 1.17 returns +inf at p = 0
  if (p == 1.0) return kInf;
  if (p == 0.5) return 0.0;
  const bool neg = p < 0.5;
  const double tail = neg ? p : 1.0 - p;  // exact for p >= 1/2
  if (v > 1e20) {  // the normal quantile by Newton on erfc (as stdtr: v > 1e20)
    double z = -rough_ndtri(tail);
    for (int i = 0; i < 50; ++i) {
      const double f = 0.5 * std::erfc(z / std::sqrt(2.0)) - tail;
      const double d = f / (std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI));
      z += d;
      if (std::fabs(d) <= 2.0 * kEps * std::fabs(z)) break;
    }
    return neg ? -z : z;
  }
  // I_x(v/2, 1/2) = 2 tail, x = v / (v + t^2): t^2 = v (1 - x) / x
  double y;
  const double x = betaincinv_pair(0.5 * v, 0.5, 2.0 * tail, 1.0 - 2.0 * tail, &y);
  const double t = std::sqrt(v * y / x);
  return neg ? -t : t;
}

}  // namespace arraycore::native::special::incomplete
