// Inverses of the incomplete gamma and beta ratios: x with P(a, x) = p (Q = q), and x with
// I_x(a, b) = p (1 - I_x = q).  Both targets are passed (p + q = 1) so that the smaller,
// accurate one is the equation solved: f(x) = P(a, x) - p when p <= q, else q - Q(a, x).
//
// Starting points from the literature: Wilson-Hilferty's cube (DLMF 8.11 / DiDonato & Morris
// 1986 sec. 5) or the small-x series inverse (p Gamma(a+1))^(1/a) for gamma; Abramowitz &
// Stegun 26.5.22 (normal approximation) or the two end-point power laws for beta.  Then
// Halley's iteration, f''/f' = (a-1)/x - 1 (gamma) or (a-1)/x - (b-1)/(1-x) (beta), inside
// a bracket that every step narrows: a step leaving the bracket is replaced by bisection
// (geometric when the bracket spans decades), so the iteration always converges; at most
// kInvIter steps, and a NaN never enters (domains are checked by the callers).
#pragma once

#include <cmath>

#include "special_incomplete_beta.h"
#include "special_incomplete_common.h"
#include "special_incomplete_gamma.h"

namespace arraycore::native::special::incomplete {

inline constexpr int kInvIter = 200;

// Next iterate inside (lo, hi) (hi may be +inf): the Halley/Newton proposal if inside, else
// a bisection.
inline double bracketed(double prop, double x, double lo, double hi) {
  if (prop > lo && prop < hi && std::isfinite(prop)) return prop;
  if (std::isinf(hi)) return x * 4.0 + 1.0;
  if (lo > 0.0 && hi / lo > 16.0) return std::sqrt(lo * hi);
  return 0.5 * (lo + hi);
}

// x > 0 with P(a, x) = p, Q(a, x) = q; a > 0 finite, 0 < p, q < 1.
inline double igam_inv(double a, double p, double q) {
  const bool lower = p <= q;
  // starting point
  double x;
  const double lg1 = lgam1p(a);
  const double small = std::exp((std::log(p) + lg1) / a);  // (p Gamma(a+1))^(1/a)
  if (lower && small == 0.0) return 0.0;  // below the smallest double (tiny a)
  if (a < 1.0 && lower && small < 0.5 * (a + 1.0)) {
    x = small;
  } else {
    const double z = lower ? rough_ndtri(p) : -rough_ndtri(q);
    const double s = 1.0 / (9.0 * a);
    const double w = 1.0 - s + z * std::sqrt(s);
    x = a * w * w * w;
    if (!(x > 0.0)) x = small > 0.0 ? small : a * 1e-3;
    if (lower && small < x && small < 0.2 * a) x = small;
    if (!lower && a < 1.0 && q < 0.1) x = -std::log(q) + (a - 1.0) * std::log(-std::log(q));
    if (!(x > 0.0)) x = 1.0;
  }
  double lo = 0.0, hi = kInf;
  for (int it = 0; it < kInvIter; ++it) {
    const double f = lower ? igam_core(a, x, false) - p : q - igam_core(a, x, true);
    if (f == 0.0) return x;
    if (f > 0.0) hi = x; else lo = x;
    const double fp = igam_fac(a, x) / x;  // dP/dx
    double prop;
    if (fp > 0.0 && std::isfinite(fp)) {
      const double r = f / fp;
      const double h = (a - 1.0) / x - 1.0;  // f'' / f'
      const double den = 1.0 - 0.5 * r * h;
      prop = x - (den > 0.5 && den < 2.0 ? r / den : r);
    } else {
      prop = kNaN;
    }
    const double next = bracketed(prop, x, lo, hi);
    if (std::fabs(next - x) <= 2.0 * kEps * x) return next;
    if (std::isfinite(hi) && hi - lo <= 2.0 * kEps * hi) return next;
    x = next;
  }
  return x;
}

// A&S 26.5.22 / the end-point power laws: a starting x for I_x(a, b) = p (p <= 1/2 side
// chosen by the caller through p, q).
inline double ibeta_inv_start(double a, double b, double p, double q) {
  if (a >= 1.0 && b >= 1.0) {
    const double z = p <= q ? -rough_ndtri(p) : rough_ndtri(q);  // upper normal quantile
    const double lam = (z * z - 3.0) / 6.0;
    const double h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0));
    const double w = z * std::sqrt(h + lam) / h -
                     (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) *
                         (lam + 5.0 / 6.0 - 2.0 / (3.0 * h));
    return a / (a + b * std::exp(2.0 * w));
  }
  const double lna = std::log(a / (a + b)), lnb = std::log(b / (a + b));
  const double t = std::exp(a * lna) / a, u = std::exp(b * lnb) / b, w = t + u;
  if (p < t / w) return std::pow(a * w * p, 1.0 / a);
  return 1.0 - std::pow(b * w * q, 1.0 / b);
}

// Halley's iteration for I_x(a, b) = p (1 - I_x = q) from x0, bracketed in (0, 1).
inline double ibeta_inv_halley(double a, double b, double p, double q, double x0) {
  const bool lower = p <= q;
  // A root below the smallest normal double: SciPy (Boost) answers DBL_MIN there.
  constexpr double kMinNormal = 2.2250738585072014e-308;
  if (lower && !(x0 > kMinNormal) && ibeta_core(a, b, kMinNormal, 1.0, false) >= p)
    return kMinNormal;
  double x = x0 > 0.0 && x0 < 1.0 ? x0 : 0.25, lo = 0.0, hi = 1.0;
  for (int it = 0; it < kInvIter; ++it) {
    const double y = 1.0 - x;
    const double f = lower ? ibeta_core(a, b, x, y, false) - p : q - ibeta_core(a, b, x, y, true);
    if (f == 0.0) break;
    if (f > 0.0) hi = x; else lo = x;
    const double fp = beta_prefix(a, b, x, y) / (x * y);  // dI/dx
    double prop = kNaN;
    if (fp > 0.0 && std::isfinite(fp)) {
      const double r = f / fp;
      const double h = (a - 1.0) / x - (b - 1.0) / y;
      const double den = 1.0 - 0.5 * r * h;
      prop = x - (den > 0.5 && den < 2.0 ? r / den : r);
    }
    const double next = bracketed(prop, x, lo, hi);
    const bool done = std::fabs(next - x) <= 2.0 * kEps * x || hi - lo <= 2.0 * kEps * hi;
    x = next;
    if (done) break;
  }
  return x;
}

// x in (0, 1) with I_x(a, b) = p, 1 - I_x(a, b) = q; returns x and y = 1 - x (accurate
// when x is near 1).  a, b > 0 finite, 0 < p, q < 1.
inline void ibeta_inv(double a, double b, double p, double q, double& x_out, double& y_out) {
  // closed forms: I_x(a, 1) = x^a, I_x(1, b) = 1 - (1-x)^b; the symmetric median
  if (b == 1.0) {  // x = p^(1/a), with ln p from whichever of p, q is accurate
    const double lp = p <= q ? std::log(p) : std::log1p(-q);
    x_out = std::exp(lp / a);
    y_out = -std::expm1(lp / a);
    return;
  }
  if (a == 1.0) {  // y = q^(1/b), with q = 1 - p from whichever is accurate
    const double lq = q <= p ? std::log(q) : std::log1p(-p);
    y_out = std::exp(lq / b);
    x_out = -std::expm1(lq / b);
    return;
  }
  if (a == b && p == q) {
    x_out = y_out = 0.5;
    return;
  }
  double x0 = ibeta_inv_start(a, b, p, q);
  if (x0 == 0.0 || x0 == -kInf) {
    // The start formula under- or overflowed.  With extreme shapes (a = 5e29, b = 5e-31 in
    // fdtri(1e30, 1e-30, 1e-30)) the root can be within 1e-16 of 1 all the same: take the
    // side from I at 1/2, so such a root is solved for as y = 1 - x near 0.  (A root below
    // the smallest normal keeps x0 = 0 and its rule in ibeta_inv_halley.)
    const double at_half = ibeta_core(a, b, 0.5, 0.5, p > q);  // I or 1 - I at 1/2
    if (p <= q ? at_half < p : at_half > q) x0 = 1.0;
    else x0 = 0.0;
  }
  // Solve on the side where the root is below 1/2 (there x carries full precision):
  // I_x(a, b) = p  <=>  I_y(b, a) = q.
  bool swapped = false;
  if (!(x0 <= 0.5)) {
    swapped = true;
    std::swap(a, b);
    std::swap(p, q);
    x0 = 1.0 - x0;
  }
  const double x = ibeta_inv_halley(a, b, p, q, x0);
  if (swapped) {
    y_out = x;
    x_out = 1.0 - x;
  } else {
    x_out = x;
    y_out = 1.0 - x;
  }
}

}  // namespace arraycore::native::special::incomplete
