// Special functions, family erf_gamma: the logistic functions expit, logit and log_expit
// (branch-free on simd_math's exp/log/log1p, so their loops vectorize; float in double).
#include <cmath>

#include "../simd_math.h"
#include "kernel_loops.h"
#include "special_erf_gamma.h"

namespace arraycore::native {
namespace {

namespace sm = simd_math;
using special::erf_gamma::select_bits;

// expit(x) = 1/(1 + exp(-x)): exp(-x) overflows to +inf for x < -709 and gives +0.
AC_EG_VEC double expit(double x) { return 1.0 / (1.0 + sm::exp(-x)); }

// logit(p) = log(p/(1 - p)); for p >= 1/4 as log1p((2p - 1)/(1 - p)) (2p - 1 exact), which
// keeps the relative accuracy at the zero p = 1/2.  p = 0 -> -inf, 1 -> +inf, outside NaN.
AC_EG_VEC double logit(double p) {
  const double q = 1.0 - p;
  const double lo = sm::log(p / q);
  const double hi = sm::log1p((2.0 * p - 1.0) / q);
  const double r = select_bits(p < 0.25, lo, hi);
  return select_bits((p >= 0.0) & (p <= 1.0), r, std::numeric_limits<double>::quiet_NaN());
}

// log(expit(x)) = -log1p(exp(-x)) for x >= 0, x - log1p(exp(x)) for x < 0.
AC_EG_VEC double log_expit(double x) {
  const double e = sm::exp(-std::fabs(x));  // exp(-|x|), NaN stays NaN
  const double l = sm::log1p(e);
  return select_bits(x < 0, x - l, -l);
}

// float: the argument clamped below at -110 (expit rounds to 0 in float32 there; NaN passes),
// without which GCC leaves control flow in the float loop and does not vectorize it.
struct Expit {
  AC_EG_FAST static float apply(float x) {
    const double xd = x;
    return static_cast<float>(expit(select_bits(xd < -110.0, -110.0, xd)));
  }
  AC_EG_FAST static double apply(double x) { return expit(x); }
};
AC_EG_UNARY_FAST(Logit, logit)
AC_EG_UNARY_FAST(LogExpit, log_expit)

}  // namespace

AC_REGISTER_KERNELS(special_erf_gamma_logistic) {
  register_unary<Expit>("expit", RealFloatTypes{}, 10.0);
  register_unary<Logit>("logit", RealFloatTypes{}, 12.0);
  register_unary<LogExpit>("log_expit", RealFloatTypes{}, 14.0);
}

}  // namespace arraycore::native
