// Special functions, family elementary (arraycore/_core/ops/special_elementary.py): degree-based
// trigonometry, cube root, exp2/exp10, exprel, cosm1, sinc, entropies, Huber losses, xlogy,
// Box-Cox.  Special values follow SciPy (Cephes' conventions for the degree functions).
//
// Every kernel evaluates in double (float32 inputs too, then rounds once) except entr, xlogy,
// xlog1py and exp2, whose float32 loops use simd_math's float functions (<= 1 ulp each) so
// they run 8 lanes wide.  All `apply`s are branch-free except tandg/cotdg (not vectorized:
// Cephes' exact octant tests) and the boxcox family (libm expm1/log1p: the exact-lambda cases).
#include <cmath>
#include <limits>

#include "../simd_math.h"
#include "../simd_trig.h"
#include "kernel_loops.h"
#include "special_elementary.h"

namespace arraycore::native {
namespace {

namespace el = special::elementary;
using special::kInf;
using special::kNaN;
using el::sel;

// The binary kernels' `apply` (and log_ratio) are forced inline: binary_loop calls `apply`
// from four layouts, so GCC's inliner left it out of line and every binary loop here ran
// scalar, one call per element (measured: xlogy f32 1e6 at 20 ms, 14x its vector time).
#define AC_EL_INLINE [[gnu::always_inline]]

constexpr double kLossDeg = 1e14;   // Cephes' "lossth": beyond it the degree functions give 0
constexpr double kDblMin = 2.2250738585072014e-308;

// ---- degree-based trigonometry ----------------------------------------------------------
// The argument is reduced in degrees, exactly: |x| - 360 round(|x|/360) and the quarter-turn
// split r - 90 q are exact subtractions (Sterbenz), so sindg(180 k) is exactly zero with
// Cephes' sign, and only the final s/180 rounds.  Odd symmetry as Cephes (sign applied last).
struct DegReduced { double sin_s, cos_s, q; };
inline DegReduced reduce_deg(double a) {
  const double r = a - 360.0 * el::rint(a * (1.0 / 360.0));
  const double q = el::rint(r * (1.0 / 90.0));
  const double t = (r - 90.0 * q) * (1.0 / 180.0);
  return {el::sinpi_reduced(t), el::cospi_reduced(t), q};
}

struct Sindg {
  template <class T> static T apply(T xt) {
    const double x = xt, a = std::fabs(x);
    const DegReduced d = reduce_deg(a);
    double r = el::sin_quarter(d.sin_s, d.cos_s, d.q);
    r = sel(x < 0, -r, r);
    return T(sel(a > kLossDeg, 0.0, r));
  }
};
struct Cosdg {
  template <class T> static T apply(T xt) {
    const double a = std::fabs(double(xt));
    const DegReduced d = reduce_deg(a);
    const double r = el::cos_quarter(d.sin_s, d.cos_s, d.q);
    return T(sel(a > kLossDeg, 0.0, r));
  }
};

// tan/cot of x degrees for x in (0, 90), from the reduced sin/cos (cot near 90 degrees through
// the exact complement 90 - x, so no cancellation).
inline double tan_deg(double x) {
  if (x <= 45) return el::sinpi_reduced(x / 180) / el::cospi_reduced(x / 180);
  const double y = 90 - x;
  return el::cospi_reduced(y / 180) / el::sinpi_reduced(y / 180);
}
inline double cot_deg(double x) {
  if (x <= 45) return el::cospi_reduced(x / 180) / el::sinpi_reduced(x / 180);
  const double y = 90 - x;
  return el::sinpi_reduced(y / 180) / el::cospi_reduced(y / 180);
}

// Cephes' tandg/cotdg conventions: odd, 0 beyond 1e14 degrees (and at +-inf), exact 0, +-1
// and +inf (either sign of x) at multiples of 45 degrees.  Unlike Cephes, cotdg of a small
// angle is not computed as tan(90 - x) (which rounds to tan(90) = inf for x < 1e-14).
struct Tandg {
  template <class T> static T apply(T xt) {
    double x = xt, sign = 1;
    if (x < 0) { x = -x; sign = -1; }
    if (x > kLossDeg) return T(0);
    if (std::isnan(x)) return xt;
    x = std::fmod(x, 180.0);
    if (x > 90) { x = 180 - x; sign = -sign; }
    if (x == 0) return T(0);
    if (x == 45) return T(sign);
    if (x == 90) return kInf<T>;
    return T(sign * tan_deg(x));
  }
};
struct Cotdg {
  template <class T> static T apply(T xt) {
    double x = xt, sign = 1;
    if (x < 0) { x = -x; sign = -1; }
    if (x > kLossDeg) return T(0);
    if (std::isnan(x)) return xt;
    x = std::fmod(x, 180.0);
    if (x <= 90) {
      if (x == 0) return kInf<T>;
      if (x == 90) return T(0);
      if (x == 45) return T(sign);
      return T(sign * cot_deg(x));
    }
    x -= 90;  // cot(90 + t) = -tan(t)
    sign = -sign;
    if (x == 45) return T(sign);
    return T(sign * tan_deg(x));
  }
};

// ((d 60 + m) 60 + s) pi / 648000 (Cephes' radian).
struct Radian {
  template <class T> static T apply(T d, T m, T s) {
    return T(((double(d) * 60.0 + double(m)) * 60.0 + double(s)) * 0x1.455a5b2ff8f9dp-18);
  }
};

// ---- cosm1, exprel, sinc, cbrt, exp2, exp10 ----------------------------------------------
// cos(x) - 1: Taylor series for |x| <= pi/4 (no cancellation), cos(x) - 1 beyond (|result| >
// 0.29 there); simd_math::cos covers |x| <= 2^20, libm the rest (and NaN).
struct Cosm1 {
  template <class T> static T apply(T xt) {
    const double x = xt, xx = x * x;
    const double small = el::horner(xx, el::kCosM1OverX2) * xx + 0.0;  // +0 at x = -0
    return T(sel(std::fabs(x) <= 0x1.921fb54442d18p-1, small, simd_math::cos(x) - 1.0));
  }
  template <class T> static bool needs_exact(T x) {
    return !(std::fabs(x) <= T(simd_math::kTrigFastLimit));
  }
  // A block with one large or NaN element comes here whole: the others keep the series.
  template <class T> static T exact(T x) {
    return std::fabs(x) <= T(simd_math::kTrigFastLimit) ? apply(x)
                                                         : T(std::cos(double(x)) - 1.0);
  }
};

// (e^x - 1)/x: expm1(x)/x; 1 for |x| < 1e-16 (SciPy); above 700 as e^(x/2) (e^(x/2) / x),
// finite up to the true overflow near 716.4 (SciPy's expm1(x)/x overflows from 709.8).
struct Exprel {
  template <class T> static T apply(T xt) {
    const double x = xt;
    // one expm1 call for both branches (e^(x/2) = expm1(x/2) + 1 above 700)
    const bool big = x > 700.0;
    const double xc = sel(x > 1500.0, 1500.0, x);
    const double em = simd_math::expm1(sel(big, 0.5 * xc, x));
    const double h = em + 1.0;
    double r = sel(big, h * (h / xc), em / x);
    r = sel(std::fabs(x) < 1e-16, 1.0, r);
    return T(r);
  }
};

// Normalized sinc, sin(pi x)/(pi x), with the exact reduction of el::sinpi: exactly +0 at
// nonzero integers, the series for |x| <= 1/4 (no division), NaN at +-inf.
struct Sinc {
  template <class T> static T apply(T xt) {
    const double x = xt;
    const double s = el::sinpi(x);
    double r = s / (el::kPi * x);
    r = sel(s == 0, 0.0, r);
    r = sel(std::fabs(x) <= 0.25, el::sinpi_over_pit(x), r);
    return T(r);
  }
};

struct Cbrt {
  template <class T> static T apply(T x) { return T(el::cbrt(double(x))); }
};

struct Exp2 {
  template <class T> static T apply(T x) { return el::exp2(x); }
};

// 10^x = 2^k 10^r, k = round(x log2 10), r = x - k log10(2) (two-part constant, FMA: r is
// exact to ~1e-17), 10^r = exp(r ln 10) with ln 10 in two parts.
struct Exp10 {
  template <class T> static T apply(T xt) {
    double x = xt;
    x = sel(x > 600.0, 600.0, sel(x < -600.0, -600.0, x));   // beyond: 0 or inf; NaN passes
    const double k = el::rint(x * 0x1.a934f0979a371p+1);
    double r = std::fma(-k, 0x1.34413509f79ffp-2, x);
    r = std::fma(-k, -0x1.9dc1da994fd21p-59, r);
    const double e = simd_math::exp(std::fma(r, 0x1.26bb1bbb55516p+1, r * -0x1.f48ad494ea3e9p-53));
    const double k1 = el::rint(k * 0.5 - 0.25), k2 = k - k1;   // floor(k/2)
    const auto pw = [](double kk) {
      return el::bit_cast<double>(el::bit_cast<uint64_t>(kk + 1023.0 + 0x1p52) << 52);
    };
    return T(e * pw(k1) * pw(k2));
  }
};

// ---- entropies and xlogy ----------------------------------------------------------------
// -x log x; 0 at x = 0, -inf for x < 0 (SciPy).
struct Entr {
  template <class T> static T apply(T x) {
    T r = -x * simd_math::log(x);
    r = sel(x == 0, T(0), r);
    return sel(x < 0, -kInf<T>, r);
  }
};

// x log(y) and x log1p(y), 0 where x == 0 and y is not NaN (SciPy).
struct Xlogy {
  template <class T> AC_EL_INLINE static T apply(T x, T y) {
    const T r = x * simd_math::log(y);
    return sel((x == 0) & (y == y), T(0), r);
  }
};
struct Xlog1py {
  template <class T> AC_EL_INLINE static T apply(T x, T y) {
    const T r = x * simd_math::log1p(y);
    return sel((x == 0) & (y == y), T(0), r);
  }
};

// log(x/y) for x, y > 0 without cancellation or overflow: log1p((x - y)/y) when x/y is in
// (1/2, 2) (x - y exact), else log(x/y), with x or y scaled by 2^1000 first when x/y would
// overflow or underflow (the scaling is exact there; it can overflow only for an infinite
// operand, handled last).  Also returns d = (x - y)/y.  One simd_math::log call serves both
// cases, log1p(d) being log(w) - ((w - 1) - d)/w with w = 1 + d (Goldberg's correction,
// exact to rounding): two different simd_math calls in one loop make GCC give up on
// vectorizing it.
AC_SIMD_INLINE double log_ratio(double x, double y, double& d) {
  const double q0 = x / y;
  const bool ov = q0 > std::numeric_limits<double>::max(), un = q0 < kDblMin;
  const double xs = sel(un, x * 0x1p1000, x), ys = sel(ov, y * 0x1p1000, y);
  const double q = xs / ys;
  const double corr = sel(ov, 0x1.5a92d6d005c94p+9, sel(un, -0x1.5a92d6d005c94p+9, 0.0));
  d = (x - y) / y;
  const bool near = (q0 > 0.5) & (q0 < 2.0);
  const double w = 1.0 + d;
  const double l = simd_math::log(sel(near, w, q)) + sel(near, -((w - 1.0) - d) / w, corr);
  // an infinite operand (the scaling above would overflow): +-inf, NaN for both
  const double inf = kInf<double>;
  return sel(x == inf, sel(y == inf, kNaN<double>, inf), sel(y == inf, -inf, l));
}

// x log(x/y) for x, y > 0; 0 for x == 0, y >= 0; +inf otherwise; NaN in, NaN out.
struct RelEntr {
  template <class T> AC_EL_INLINE static T apply(T xt, T yt) {
    const double x = xt, y = yt;
    double d;
    double r = x * log_ratio(x, y, d);
    r = sel((x > 0) & (y > 0), r, sel((x == 0) & (y >= 0), 0.0, kInf<double>));
    return T(sel((x != x) | (y != y), kNaN<double>, r));
  }
};

// x log(x/y) - x + y: for |x/y - 1| < 1/8 as y d^2 S(d), d = (x - y)/y (series in the
// header), which keeps full relative accuracy as x -> y; otherwise term by term.
// y for x == 0, y >= 0; +inf otherwise.
struct KlDiv {
  template <class T> AC_EL_INLINE static T apply(T xt, T yt) {
    const double x = xt, y = yt;
    double d;
    const double l = log_ratio(x, y, d);
    const double far = x * l - x + y;
    const double near = y * (d * d) * el::horner(d, el::kKlSeries);
    double r = sel(std::fabs(d) < 0.125, near, far);
    r = sel((x > 0) & (y > 0), r, sel((x == 0) & (y >= 0), y, kInf<double>));
    return T(sel((x != x) | (y != y), kNaN<double>, r));
  }
};

// ---- Huber losses ---------------------------------------------------------------------
struct Huber {
  template <class T> AC_EL_INLINE static T apply(T dt, T rt) {
    const double delta = dt, r = rt, a = std::fabs(r);
    const double v = sel(a <= delta, 0.5 * r * r, delta * (a - 0.5 * delta));
    return T(sel(delta < 0, kInf<double>, v));
  }
};

// delta^2 (sqrt(1 + (r/delta)^2) - 1) without cancellation or overflow:
//   |r| <= delta:  r^2 / (sqrt(1 + v^2) + 1),           v = r/delta
//   |r| >  delta:  delta |r| / (sqrt(1 + w^2) + w),     w = delta/|r|
// SciPy's cases: inf for delta < 0, 0 for delta == 0 or r == 0, NaN for delta = inf.
struct PseudoHuber {
  template <class T> AC_EL_INLINE static T apply(T dt, T rt) {
    const double delta = dt, r = rt, a = std::fabs(r);
    const double v = r / delta, w = delta / a;
    const double inner = r * r / (std::sqrt(1.0 + v * v) + 1.0);
    const double outer = delta * a / (std::sqrt(1.0 + w * w) + w);
    double res = sel(a <= delta, inner, outer);
    res = sel(delta == kInf<double>, kNaN<double>, res);
    res = sel((delta == 0) | (r == 0), 0.0, res);
    return T(sel(delta < 0, kInf<double>, res));
  }
};

// ---- Box-Cox ----------------------------------------------------------------------------
// boxcox(x, l) = (x^l - 1)/l = expm1(l log x)/l, log x for |l| < 1e-19 (SciPy's threshold);
// boxcox1p with log1p(x).  Inverses: exp(log1p(l y)/l) and expm1(log1p(l y)/l), exp(y) and
// expm1(y) for l == 0.
constexpr double kBoxCoxTiny = 1e-19;
struct Boxcox {
  template <class T> AC_EL_INLINE static T apply(T xt, T lt) {
    const double x = xt, l = lt, lg = simd_math::log(x);
    const double r = simd_math::expm1(l * lg) / l;
    return T(sel(std::fabs(l) < kBoxCoxTiny, lg, r));
  }
};
struct Boxcox1p {
  template <class T> AC_EL_INLINE static T apply(T xt, T lt) {
    const double x = xt, l = lt, lg = simd_math::log1p(x);
    const double r = simd_math::expm1(l * lg) / l;
    return T(sel(std::fabs(l) < kBoxCoxTiny, lg, r));
  }
};
struct InvBoxcox {
  template <class T> AC_EL_INLINE static T apply(T yt, T lt) {
    const double y = yt, l = lt;
    const double r = simd_math::exp(simd_math::log1p(l * y) / l);
    return T(sel(l == 0, simd_math::exp(y), r));
  }
};
struct InvBoxcox1p {
  template <class T> AC_EL_INLINE static T apply(T yt, T lt) {
    const double y = yt, l = lt;
    const double r = simd_math::expm1(simd_math::log1p(l * y) / l);
    return T(sel(l == 0, simd_math::expm1(y), r));
  }
};

}  // namespace

AC_REGISTER_KERNELS(special_elementary) {
  register_unary<Cbrt>("cbrt", RealFloatTypes{}, 8.0);
  register_unary<Sindg>("sindg", RealFloatTypes{}, 10.0);
  register_unary<Cosdg>("cosdg", RealFloatTypes{}, 10.0);
  register_unary<Tandg>("tandg", RealFloatTypes{}, 20.0);
  register_unary<Cotdg>("cotdg", RealFloatTypes{}, 20.0);
  register_unary<Cosm1>("cosm1", RealFloatTypes{}, 10.0);
  register_ternary<Radian>("radian", RealFloatTypes{}, 2.0);
  register_unary<Exp2>("exp2", RealFloatTypes{}, 6.0);
  register_unary<Exp10>("exp10", RealFloatTypes{}, 8.0);
  register_unary<Exprel>("exprel", RealFloatTypes{}, 12.0);
  register_unary<Sinc>("sinc", RealFloatTypes{}, 10.0);
  register_unary<Entr>("entr", RealFloatTypes{}, 8.0);
  register_binary<RelEntr>("rel_entr", RealFloatTypes{}, 20.0);
  register_binary<KlDiv>("kl_div", RealFloatTypes{}, 24.0);
  register_binary<Huber>("huber", RealFloatTypes{}, 2.0);
  register_binary<PseudoHuber>("pseudo_huber", RealFloatTypes{}, 12.0);
  register_binary<Xlogy>("xlogy", RealFloatTypes{}, 8.0);
  register_binary<Xlog1py>("xlog1py", RealFloatTypes{}, 10.0);
  register_binary<Boxcox>("boxcox", RealFloatTypes{}, 16.0);
  register_binary<Boxcox1p>("boxcox1p", RealFloatTypes{}, 16.0);
  register_binary<InvBoxcox>("inv_boxcox", RealFloatTypes{}, 16.0);
  register_binary<InvBoxcox1p>("inv_boxcox1p", RealFloatTypes{}, 16.0);
}

}  // namespace arraycore::native
