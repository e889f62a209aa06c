// Trigonometric and hyperbolic kernels: sin, cos, tan, asin, acos, atan, atan2, sinh, cosh,
// tanh, asinh, acosh, atanh.  Complex inputs use the C99 Annex G functions through
// std::complex (as NumPy), which implement the standard's special cases.
#include <cmath>
#include <complex>
#include <type_traits>

#include "../simd_trig.h"
#include "kernel_loops.h"

namespace arraycore::native {
namespace {

// Real sin/cos: simd_math's vectorizable versions (float: computed in double; double: a
// double-double reduction; both within 1 ulp) for |x| <= 2^20; beyond that, and for NaN,
// libm (see HasExactFallback in kernel_loops.h).  Complex: libm.
template <bool IsSin>
struct SinCos {
  template <class T> static T apply(T x) {
    if constexpr (std::is_floating_point_v<T>)
      return IsSin ? simd_math::sin(x) : simd_math::cos(x);
    else
      return IsSin ? std::sin(x) : std::cos(x);
  }
  template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
  static bool needs_exact(T x) {
    return !(std::fabs(x) <= T(simd_math::kTrigFastLimit));
  }
  template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
  static T exact(T x) { return IsSin ? std::sin(x) : std::cos(x); }
};
using Sin = SinCos<true>;
using Cos = SinCos<false>;

#define AC_STD_UNARY(Name, fn) \
  struct Name { template <class T> static T apply(T x) { return std::fn(x); } };
AC_STD_UNARY(Tan, tan)
AC_STD_UNARY(Asin, asin)
AC_STD_UNARY(Acos, acos)
AC_STD_UNARY(Atan, atan)
AC_STD_UNARY(Sinh, sinh)
AC_STD_UNARY(Cosh, cosh)
// Real tanh: simd_math::tanh (vectorizes; float: computed in double, correctly rounded on every
// sampled input; double: <= 2 ulp).  Complex tanh(+-inf + i y), y finite: C99 gives +-1 + i 0 sin(2y), whose zero
// takes the sign of sin(2y) (negative for y = pi); the standard gives +-1 + 0j with the sign of
// y.
struct Tanh {
  template <class T> static T apply(T x) {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      return simd_math::tanh(x);
    } else if constexpr (is_complex_v<T>) {
      using R = real_t<T>;
      if (std::isinf(x.real()) && std::isfinite(x.imag()))
        return T(std::copysign(R(1), x.real()), std::copysign(R(0), x.imag()));
    }
    return std::tanh(x);
  }
};
AC_STD_UNARY(Asinh, asinh)
AC_STD_UNARY(Acosh, acosh)
AC_STD_UNARY(Atanh, atanh)
#undef AC_STD_UNARY

struct Atan2 { template <class T> static T apply(T y, T x) { return std::atan2(y, x); } };

}  // namespace

AC_REGISTER_KERNELS(trig) {
  register_unary<Sin>("sin", FloatTypes{}, 10.0);
  register_unary<Cos>("cos", FloatTypes{}, 10.0);
  register_unary<Tan>("tan", FloatTypes{}, 14.0);
  register_unary<Asin>("asin", FloatTypes{}, 12.0);
  register_unary<Acos>("acos", FloatTypes{}, 12.0);
  register_unary<Atan>("atan", FloatTypes{}, 12.0);
  register_binary<Atan2>("atan2", RealFloatTypes{}, 14.0);
  register_unary<Sinh>("sinh", FloatTypes{}, 12.0);
  register_unary<Cosh>("cosh", FloatTypes{}, 12.0);
  register_unary<Tanh>("tanh", FloatTypes{}, 12.0);
  register_unary<Asinh>("asinh", FloatTypes{}, 14.0);
  register_unary<Acosh>("acosh", FloatTypes{}, 14.0);
  register_unary<Atanh>("atanh", FloatTypes{}, 14.0);
}

}  // namespace arraycore::native
