// Special functions, family integrals_polynomials: the complete elliptic integral of the
// first kind (ellipk, ellipkm1) and Spence's function (dilogarithm, spence).
//
// All evaluated in double (float32 widened, rounded once); branch-free so the contiguous
// loops vectorize (sqrt is an instruction, log is simd_math::log).
//
// K(m) = pi / (2 AGM(1, sqrt(1 - m)))  (DLMF 19.8.5, the arithmetic-geometric mean).
// ellipkm1(p) = K(1 - p) takes p = 1 - m exactly, so it keeps full accuracy near m = 1
// (K ~ ln(4/sqrt(p))).  Twelve AGM steps suffice for every p in [2^-1074, 2^1024):
// convergence is quadratic once a/b is within a factor 2, and each step at most halves
// |log(a/b)| before that; a step after convergence changes nothing.
//
// spence(x) = Li2(1 - x) = int_1^x ln t / (1 - t) dt (SciPy's definition), for x >= 0.  The
// dilogarithm is summed as the Bernoulli series Li2(z) = sum_k B_k u^(k+1) / (k+1)!,
// u = -ln(1 - z) (valid for |u| < 2 pi; here |u| <= ln 2, so ten terms give 2^-53), after
// mapping every x to such a u with the reflection and inversion formulas (DLMF 25.12.6,
// 25.12.4):
//   1/2 <= x <= 2:  Li2(1 - x) = B(-ln x)
//   0 <= x < 1/2:   Li2(1 - x) = pi^2/6 - ln(x) ln(1 - x) - B(-ln(1 - x))
//   x > 2:          Li2(1 - x) = -pi^2/6 - ln^2(x - 1)/2 - B(ln(1 - 1/x))
// Coefficients: B_2j / (2j+1)! (exact rationals rounded to double).
#include <cmath>

#include "../simd_math.h"
#include "kernel_loops.h"
#include "special_common.h"

namespace arraycore::native::special::integrals_polynomials {

inline constexpr double kPi = 3.14159265358979323846264338327950288;
inline constexpr double kPi2Over6 = 1.64493406684822643647241516664602519;

// pi / (2 AGM(1, sqrt(p))), p > 0 finite.
inline double k_from_p(double p) {
  double a = 1.0, b = std::sqrt(p);
  for (int i = 0; i < 12; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return kPi / (a + b);  // pi / (2 AGM), AGM = (a + b)/2 at convergence
}

inline double ellipkm1_d(double p) {
  const double r = k_from_p(p > 0.0 && p < kInf<double> ? p : 1.0);
  double out = r;
  out = p == 0.0 ? kInf<double> : out;
  out = p == kInf<double> ? 0.0 : out;
  out = (p < 0.0 || p != p) ? kNaN<double> : out;
  return out;
}

inline double ellipk_d(double m) { return ellipkm1_d(1.0 - m); }

// B(u) = sum_k B_k u^(k+1)/(k+1)! = u - u^2/4 + u^3 sum_j c_j u^(2j-2), |u| <= ln 2
inline double dilog_bernoulli(double u) {
  static constexpr double c[] = {
      -1.0356517612181247014e-17,  // B_20/21!
      4.5189800296199181917e-16,   // B_18/19!
      -1.9939295860721075687e-14,  // B_16/17!
      8.9216910204564525552e-13,   // B_14/15!
      -4.0647616451442255268e-11,  // B_12/13!
      1.8978869988970999072e-9,    // B_10/11!
      -9.1857730746619635509e-8,   // B_8/9!
      4.7241118669690098262e-6,    // B_6/7!
      -2.7777777777777777778e-4,   // B_4/5!
      2.7777777777777777778e-2,    // B_2/3!
  };
  const double u2 = u * u;
  return std::fma(u2 * u, polevl(u2, c), std::fma(-0.25, u2, u));
}

inline double spence_d(double x) {
  // Lane-wise: every branch's u from one log1p/log, one Bernoulli sum, the logs of the
  // reflection/inversion terms; the special inputs are patched at the end.
  const bool mid = x >= 0.5 && x <= 2.0;
  const bool low = x < 0.5;
  const double xs = (x >= 0.0 && x < kInf<double>) ? x : 1.0;  // keeps every log finite
  // u: -ln x (mid), -ln(1 - x) (low), ln(1 - 1/x) (high)
  const double arg = mid ? xs - 1.0 : (low ? -xs : -1.0 / xs);
  const double l1p = simd_math::log1p(arg);
  const double u = mid ? -l1p : (low ? -l1p : l1p);
  const double b = dilog_bernoulli(u);
  const double lx = simd_math::log(low ? (xs > 0.0 ? xs : 1.0) : xs - 1.0);
  double out = mid ? b
                   : (low ? kPi2Over6 - l1p * lx - b : -kPi2Over6 - 0.5 * lx * lx - b);
  out = x == 0.0 ? kPi2Over6 : out;
  out = x == 1.0 ? 0.0 : out;  // +0 (the Bernoulli sum of u = -0 is -0)
  out = (x < 0.0 || x != x || x == kInf<double>) ? kNaN<double> : out;
  return out;
}

}  // namespace arraycore::native::special::integrals_polynomials

namespace arraycore::native {
namespace {

namespace ip = special::integrals_polynomials;

struct Ellipk {
  template <class T>
  static T apply(T m) { return static_cast<T>(ip::ellipk_d(static_cast<double>(m))); }
};
struct Ellipkm1 {
  template <class T>
  static T apply(T p) { return static_cast<T>(ip::ellipkm1_d(static_cast<double>(p))); }
};
struct Spence {
  template <class T>
  static T apply(T x) { return static_cast<T>(ip::spence_d(static_cast<double>(x))); }
};

}  // namespace

AC_REGISTER_KERNELS(special_integrals_polynomials_elliptic) {
  register_unary<Ellipk>("ellipk", RealFloatTypes{}, 30.0);
  register_unary<Ellipkm1>("ellipkm1", RealFloatTypes{}, 30.0);
  register_unary<Spence>("spence", RealFloatTypes{}, 20.0);
}

}  // namespace arraycore::native
