// Building blocks of the incomplete gamma and beta kernels (family incomplete): log1p(t) - t,
// the Stirling correction of log-gamma, lgamma(1 + a) near a = 0, and the normal quantile
// used for starting points.  Everything is double precision (float operands are promoted by
// the kernels: these functions are iterative, and float results are rounded from double).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace arraycore::native::special::incomplete {

inline constexpr double kEps = 2.220446049250313e-16;
inline constexpr double kHalfLog2Pi = 0.91893853320467274178;  // ln(2 pi) / 2
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr int kMaxIter = 20000;  // cap of every series / continued fraction

// Thread-safe log|Gamma(x)| (std::lgamma writes the global signgam).
inline double lgam(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}

// log1p(t) - t, accurate near t = 0 where the two terms cancel.  With r = t / (2 + t),
// log1p(t) = 2 atanh(r) = 2 (r + r^3/3 + r^5/5 + ...) and t - 2r = r t, so
// log1p(t) - t = -r t + 2 r^3 (1/3 + r^2/5 + ...)  (|r| <= 1/3 for |t| <= 1/2).
inline double log1pmx(double t) {
  if (!(std::fabs(t) <= 0.5)) return std::log1p(t) - t;
  const double r = t / (2.0 + t), r2 = r * r;
  double s = 0.0;
  for (int k = 39; k >= 3; k -= 2) s = std::fma(s, r2, 1.0 / k);
  return std::fma(-r, t, 2.0 * r * r2 * s);
}

// Stirling's correction delta(a) = lgamma(a) - [(a - 1/2) ln a - a + ln(2 pi)/2] for a >= 10:
// the asymptotic series sum B_2k / (2k (2k - 1) a^(2k-1)) (DLMF 5.11.1), 8 terms (< 1e-17).
inline double stirling_delta(double a) {
  static constexpr double c[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188,
                                 -691.0 / 360360, 1.0 / 156, -3617.0 / 122400};
  const double r = 1.0 / a, r2 = r * r;
  double s = 0.0;
  for (int k = 7; k >= 0; --k) s = std::fma(s, r2, c[k]);
  return s * r;
}

// lgamma(1 + a), accurate for small |a| (where lgamma(1 + a) ~ -gamma a): the Taylor series
// -gamma a + sum_k (-1)^k zeta(k)/k a^k (DLMF 5.7.3) for |a| < 0.2, lgamma elsewhere.
inline double lgam1p(double a) {
  if (!(std::fabs(a) < 0.2)) return lgam(1.0 + a);
  static constexpr double c[] = {  // (-1)^k zeta(k) / k, k = 2 .. 26
      0.8224670334241132182362,  -0.4006856343865314284666, 0.270580808427784547879,
      -0.2073855510286739852663, 0.1695571769974081899524,  -0.14404989676884611812,
      0.1255096695247430424223,  -0.1113342658695646904909, 0.1000994575127818085337,
      -0.09095401714582904223261, 0.08335384054610900402489, -0.07693251641135219147283,
      0.07143294629536133605923, -0.0666687058824204680329, 0.06250095514121304074198,
      -0.05882397865868458233896, 0.05555576762740361110221, -0.05263167937961666073363,
      0.05000004769810169363981, -0.04761907033014222799078, 0.04545455629320466944241,
      -0.04347826605304025936135, 0.04166666915034121046914, -0.04000000119214014058609,
      0.03846153903467518570635};
  constexpr double kEulerGamma = 0.57721566490153286061;
  double s = 0.0;
  for (int k = 24; k >= 0; --k) s = std::fma(s, a, c[k]);
  return a * std::fma(s, a, -kEulerGamma);
}

// Double-double arithmetic for the exponents of the prefactors x^a e^-x / Gamma(a) and
// x^a y^b / B(a, b) in their far tails.  There the exponent reaches several hundred, and
// rounding it to one double alone costs |exponent| * 2^-53 relative error in the result
// (5.7e-14 at -518); a ln(x) with a double logarithm adds a * 2^-53 * |ln x| more.  Carrying
// the exponent as hi + lo (Dekker's two-sum and an FMA two-product, Dekker 1971) and the
// logarithm with one Newton correction keeps the result near 1e-14.
struct DD {
  double hi, lo;
};

inline DD dd_sum(double a, double b) {  // a + b exactly as hi + lo (Knuth's two-sum)
  const double s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

inline DD dd_add(DD a, DD b) {
  const DD s = dd_sum(a.hi, b.hi);
  return dd_sum(s.hi, s.lo + a.lo + b.lo);
}

inline DD dd_neg(DD a) { return {-a.hi, -a.lo}; }

inline DD dd_scale(double a, DD b) {  // a * b, the product of the high parts exact by FMA
  const double p = a * b.hi;
  return dd_sum(p, std::fma(a, b.hi, -p) + a * b.lo);
}

inline DD dd_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

// ln x for x > 0 finite: h = log(x), then one Newton step on exp, ln x = h + (x - e^h) / e^h
// (x - e^h is exact: e^h is within an ulp of x).  The error is that of exp (< 1 ulp
// relative), i.e. ~1e-16 absolute, instead of half an ulp of ln x.
inline DD log_dd(double x) {
  const double h = std::log(x), e = std::exp(h);
  return dd_sum(h, (x - e) / e);
}

inline DD dd_mul(DD a, DD b) {  // a * b to ~2^-104 relative
  const double p = a.hi * b.hi;
  return dd_sum(p, std::fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi));
}

// ln x in double-double to ~1e-30 relative, x > 0 finite (subnormals included).  log_dd's
// Newton step inherits exp's rounding (~1e-16 absolute), which a large factor a multiplies:
// a ln(x/a) - (x - a), the exponent of the gamma prefactor, then carries a 1e-16 of error
// (1e-12 at a = 1e4).  Here x = 2^e m, m in [sqrt(1/2), sqrt(2)) (from the bits; frexp is
// a libm call), and ln m = 2 atanh(u) = 2u + 2u^3 (1/3 + u^2/5 + ...),
// u = (m - 1)/(m + 1), |u| <= 0.172 (DLMF 4.6.4): 2u and 2u^3/3 in double-double, the rest
// (< 2e-5 of ln m) in double; e ln 2 with ln 2 as a pair.
inline DD log_dd_exact(double x) {
  static constexpr double kLn2Hi = 0.6931471805599453094, kLn2Lo = 2.3190468138462996e-17;
  static constexpr double kThirdHi = 1.0 / 3, kThirdLo = 1.850371707708594e-17;
  static constexpr double c[] = {1.0 / 5, 1.0 / 7, 1.0 / 9, 1.0 / 11, 1.0 / 13,
                                 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23};
  int e = 0;
  double m = x;
  if (!(m >= M_SQRT1_2 && m < M_SQRT2)) {
    if (m < std::numeric_limits<double>::min()) {
      m = 2.0 * std::frexp(m, &e);  // subnormal: [1, 2)
      --e;
    } else {
      const uint64_t bits = std::bit_cast<uint64_t>(m);
      e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
      m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    }
    if (m >= M_SQRT2) {
      m *= 0.5;
      ++e;
    }
  }
  // u = (m - 1)/(m + 1) as a pair: m - 1 exact (Sterbenz), m + 1 = n + n_lo, one division
  // (the quotient need not be correctly rounded: the residual by FMA is exact either way)
  const DD n = dd_sum(m, 1.0);
  const double inv = 1.0 / n.hi, uh = (m - 1.0) * inv;
  const DD u = dd_sum(uh, (std::fma(-uh, n.hi, m - 1.0) - uh * n.lo) * inv);
  const DD u2 = dd_mul(u, u);
  double s1 = 0.0;
  for (int k = 9; k >= 0; --k) s1 = std::fma(s1, u2.hi, c[k]);
  const DD s = dd_add({kThirdHi, kThirdLo}, {u2.hi * s1, 0.0});  // 1/3 + u^2/5 + ...
  const DD ln_m = dd_add(dd_scale(2.0, u), dd_scale(2.0, dd_mul(dd_mul(u2, u), s)));
  if (e == 0) return ln_m;
  const double ed = static_cast<double>(e);
  const double p = ed * kLn2Hi;
  const DD e_ln2 = dd_sum(p, std::fma(ed, kLn2Hi, -p) + ed * kLn2Lo);
  return dd_add(e_ln2, ln_m);
}

// e^(y.hi + y.lo) for |y.lo| well below 1e-8.
inline double exp_dd(DD y) { return std::exp(y.hi) * (1.0 + y.lo); }

// Normal quantile to ~4.5e-4 absolute (Abramowitz & Stegun 26.2.23), for starting points of
// Newton iterations only.  p in (0, 1).
inline double rough_ndtri(double p) {
  const double pp = p < 0.5 ? p : 1.0 - p;
  const double t = std::sqrt(-2.0 * std::log(pp));
  const double z =
      t - (2.515517 + t * (0.802853 + t * 0.010328)) /
              (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
  return p < 0.5 ? -z : z;
}

}  // namespace arraycore::native::special::incomplete
