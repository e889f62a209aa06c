// Special functions, family erf_gamma: the logistic functions expit, logit and log_expit
// (branch-free on simd_math's exp/log/log1p, so their loops vectorize; expit and logit
// evaluate float in float, log_expit in double).
#include <cmath>
#include <type_traits>

#include "../simd_math.h"
#include "kernel_loops.h"
#include "special_erf_gamma.h"

namespace arraycore::native {
namespace {

namespace sm = simd_math;
using special::erf_gamma::select_bits;

// expit(x) = 1/(1 + e) for x >= 0, e/(1 + e) for x < 0, with e = exp(-|x|) <= 1: no
// overflow, and for x << 0 the result is e itself to rounding (subnormal float results
// included).  Each precision in its own arithmetic (float: simd_math's 8-lane float exp,
// <= 1 ulp; with the sum and the quotient <= 2.5 ulp in all).
template <class T>
AC_EG_VEC T expit(T x) {
  const T e = sm::exp(-std::fabs(x));   // NaN stays NaN
  return select_bits(x < T(0), e, T(1)) / (T(1) + e);
}

// logit(p) = log(p/(1 - p)) for p < 1/4; else log1p(d), d = (2p - 1)/(1 - p) (2p - 1 exact),
// which keeps the relative accuracy at the zero p = 1/2.  One log serves both: log1p(d) is
// log(w) - ((w - 1) - d)/w with w = 1 + d rounded (Goldberg's correction; w - 1 is exact),
// so the vector loop pays for one log, in each precision's own arithmetic (float: ~2 ulp).
// p = 0 -> -inf, 1 -> +inf, outside [0, 1] NaN.
// Double divides once instead of three times (a double division costs 2-4x a float one and
// covers half the lanes): d and p/q from 1/q (an extra rounding each: logit stays within
// 4e-16), and corr's 1/w from a float reciprocal (corr is a rounding error itself, so 1e-7
// relative on it is invisible).
template <class T>
AC_EG_VEC T logit(T p) {
  const T q = T(1) - p;
  T d, ratio;
  if constexpr (std::is_same_v<T, double>) {
    const double rq = 1.0 / q;
    d = (2.0 * p - 1.0) * rq;
    ratio = p * rq;
  } else {
    d = (T(2) * p - T(1)) / q;
    ratio = p / q;
  }
  const T w = T(1) + d;
  const bool low = p < T(0.25);
  T inv_w;
  if constexpr (std::is_same_v<T, double>) inv_w = 1.0f / static_cast<float>(w);
  else inv_w = T(1) / w;
  const T corr = select_bits(low, T(0), -((w - T(1)) - d) * inv_w);
  T r = sm::log(select_bits(low, ratio, w)) + corr;
  r = select_bits(p == T(1), std::numeric_limits<T>::infinity(), r);
  return select_bits((p >= T(0)) & (p <= T(1)), r, std::numeric_limits<T>::quiet_NaN());
}

// log(expit(x)) = -log1p(exp(-x)) for x >= 0, x - log1p(exp(x)) for x < 0.
AC_EG_VEC double log_expit(double x) {
  const double e = sm::exp(-std::fabs(x));  // exp(-|x|), NaN stays NaN
  const double l = sm::log1p(e);
  return select_bits(x < 0, x - l, -l);
}

// Typical arguments (|x| < 87 for float, 708 for double: e = exp(-|x|) is normal) take
// exp_in_range, without exp's clamps and two-factor scaling (the same values there): a
// quarter of expit's work, which took 1.25x PyTorch's sigmoid (kernel_loops.h
// HasCommonBranch runs the rest through `apply`).
struct Expit {
  template <class T> AC_EG_FAST static T apply(T x) { return expit(x); }
  template <class T> AC_EG_FAST static bool in_common(T x) {
    return std::fabs(x) < (sizeof(T) == 4 ? T(87) : T(708));  // (false for NaN)
  }
  template <class T> AC_EG_FAST static T common(T x) {
    const T e = sm::exp_in_range(-std::fabs(x));
    return select_bits(x < T(0), e, T(1)) / (T(1) + e);
  }
};
struct Logit {
  template <class T> AC_EG_FAST static T apply(T p) { return logit(p); }
};
AC_EG_UNARY_FAST(LogExpit, log_expit)

}  // namespace

AC_REGISTER_KERNELS(special_erf_gamma_logistic) {
  register_unary<Expit>("expit", RealFloatTypes{}, 10.0);
  register_unary<Logit>("logit", RealFloatTypes{}, 12.0);
  register_unary<LogExpit>("log_expit", RealFloatTypes{}, 14.0);
}

}  // namespace arraycore::native
