// Special functions, family bessel (arraycore/_core/ops/special_bessel.py): i0 i0e i1 i1e
// j0 j1 y0 y1 k0 k0e k1 k1e yn airy_ai airy_ai_prime spherical_bessel_j0.  The algorithms are in
// special_bessel_impl.h; this file adapts them to the kernel loops: float is computed in
// double with the short series, and the functions that need sin/cos of the argument send
// blocks with |x| > 2^20 (or NaN) to the libm variant (HasExactFallback, kernel_loops.h).
#include <cmath>
#include <type_traits>

#include "kernel_loops.h"
#include "special_bessel_impl.h"

namespace arraycore::native {
namespace {

namespace sb = special::bessel;

// Op from a core `Fn<Short>(double)` (no trig): float evaluates in double, short series.
#define AC_BESSEL_PLAIN(Name, fn)                                               \
  struct Name {                                                                 \
    template <class T> [[gnu::always_inline, gnu::flatten]] static T apply(T x) {                                  \
      return static_cast<T>(sb::fn<std::is_same_v<T, float>>(static_cast<double>(x))); \
    }                                                                           \
  };
// I0, I1 and the scaled forms: float results from their own short fits (i0_float ...).
#define AC_BESSEL_I(Name, fn)                                                              \
  struct Name {                                                                            \
    [[gnu::always_inline, gnu::flatten]] static float apply(float x) {                     \
      return static_cast<float>(sb::fn##_float(x));                                         \
    }                                                                                      \
    [[gnu::always_inline, gnu::flatten]] static double apply(double x) { return sb::fn(x); }       \
  };
AC_BESSEL_I(I0, i0)
AC_BESSEL_I(I0e, i0e)
AC_BESSEL_I(I1, i1)
AC_BESSEL_I(I1e, i1e)
#undef AC_BESSEL_I
AC_BESSEL_PLAIN(K0, k0)
AC_BESSEL_PLAIN(K0e, k0e)
AC_BESSEL_PLAIN(K1, k1)
AC_BESSEL_PLAIN(K1e, k1e)
#undef AC_BESSEL_PLAIN

// Op from a core `Fn<Short, Exact>(double)` that reduces `Arg(x)` modulo pi/2.
#define AC_BESSEL_TRIG(Name, fn, trig_arg)                                          \
  struct Name {                                                                     \
    template <class T> [[gnu::always_inline, gnu::flatten]] static T apply(T x) {                                      \
      return static_cast<T>(sb::fn<std::is_same_v<T, float>, false>(static_cast<double>(x))); \
    }                                                                               \
    template <class T> [[gnu::always_inline]] static bool needs_exact(T x) {                               \
      return !sb::trig_fast(trig_arg(static_cast<double>(x)));                      \
    }                                                                               \
    template <class T> static T exact(T x) {                                        \
      return static_cast<T>(sb::fn<std::is_same_v<T, float>, true>(static_cast<double>(x))); \
    }                                                                               \
  };
[[gnu::always_inline]] inline double identity(double x) { return x; }
// Ai reduces zeta = (2/3)|x|^(3/2) only for x < -3: |x| <= 10^4 keeps zeta below 2^20.
[[gnu::always_inline]] inline double airy_trig_arg(double x) { return x >= -1e4 ? 0.0 : x; }
AC_BESSEL_TRIG(J0, j0, identity)
AC_BESSEL_TRIG(J1, j1, identity)
AC_BESSEL_TRIG(Y0, y0, identity)
AC_BESSEL_TRIG(Y1, y1, identity)
AC_BESSEL_TRIG(AiryAi, airy_ai, airy_trig_arg)
AC_BESSEL_TRIG(AiryAiPrime, airy_ai_prime, airy_trig_arg)
AC_BESSEL_TRIG(SphericalJ0, spherical_j0, identity)
#undef AC_BESSEL_TRIG

// Y_n(x) for integer n, SciPy's yn: a non-integer n is truncated toward zero (|n| >= 2^31,
// outside C's int, counts as 2^31, as SciPy's conversion makes it); Y_{-n} = (-1)^n Y_n.
// Upward recurrence Y_{k+1} = (2k/x) Y_k - Y_{k-1} from Y0, Y1, stable for Y (A&S 9.1.27,
// Y_n grows with n); it stops at overflow (-inf).  When 2n/x < 2^-60 the products (2k/x) Y_k
// vanish below the rounding of every step and the recurrence is the exact period-4 sequence
// Y0, Y1, -Y0, -Y1, taken directly (SciPy loops up to 2^31 times there).
struct Yn {
  template <class T> static T apply(T nt, T xt) {
    double n = std::trunc(static_cast<double>(nt));
    const double x = static_cast<double>(xt);
    if (std::isnan(n) || std::isnan(x)) return static_cast<T>(n + x);
    if (!(std::fabs(n) < 2147483648.0)) n = 2147483648.0;
    const double sign = (n < 0 && std::fmod(-n, 2.0) == 1.0) ? -1.0 : 1.0;
    n = std::fabs(n);
    if (x < 0) return static_cast<T>(sb::kNaN);
    if (x == 0) return static_cast<T>(-sign * sb::kInf);
    const bool fast = sb::trig_fast(x);
    const double y0 = fast ? sb::y0<false, false>(x) : sb::y0<false, true>(x);
    if (n == 0) return static_cast<T>(y0);
    const double y1 = fast ? sb::y1<false, false>(x) : sb::y1<false, true>(x);
    if (2.0 * n / x < 0x1p-60) {
      const double m = std::fmod(n, 4.0);
      const double r = m == 0 ? y0 : (m == 1 ? y1 : (m == 2 ? -y0 : -y1));
      return static_cast<T>(sign * r);
    }
    double prev = y0, cur = y1;
    for (double k = 1; k < n; ++k) {  // at most 2^31 steps (n is capped above)
      const double next = (2.0 * k / x) * cur - prev;
      prev = cur;
      cur = next;
      if (std::isinf(cur)) break;  // stays -inf from here on
    }
    return static_cast<T>(sign * cur);
  }
};

}  // namespace

AC_REGISTER_KERNELS(special_bessel) {
  register_unary<I0>("i0", RealFloatTypes{}, 12.0);
  register_unary<I0e>("i0e", RealFloatTypes{}, 12.0);
  register_unary<I1>("i1", RealFloatTypes{}, 12.0);
  register_unary<I1e>("i1e", RealFloatTypes{}, 12.0);
  register_unary<K0>("k0", RealFloatTypes{}, 14.0);
  register_unary<K0e>("k0e", RealFloatTypes{}, 14.0);
  register_unary<K1>("k1", RealFloatTypes{}, 14.0);
  register_unary<K1e>("k1e", RealFloatTypes{}, 14.0);
  register_unary<J0>("j0", RealFloatTypes{}, 16.0);
  register_unary<J1>("j1", RealFloatTypes{}, 16.0);
  register_unary<Y0>("y0", RealFloatTypes{}, 18.0);
  register_unary<Y1>("y1", RealFloatTypes{}, 18.0);
  register_unary<AiryAi>("airy_ai", RealFloatTypes{}, 20.0);
  register_unary<AiryAiPrime>("airy_ai_prime", RealFloatTypes{}, 20.0);
  register_unary<SphericalJ0>("spherical_bessel_j0", RealFloatTypes{}, 10.0);
  register_binary<Yn>("yn", RealFloatTypes{}, 30.0);
}

}  // namespace arraycore::native
