// Special functions, family erf_gamma: the gamma family (gamma, gammaln, loggamma, rgamma,
// gammasgn, psi, polygamma, zeta, zetac, poch, betaln, binom).  Cores and algorithms in
// special_erf_gamma.h; float evaluates in double and rounds once.
#include <cmath>

#include "kernel_loops.h"
#include "special_erf_gamma.h"

namespace arraycore::native {
namespace {

namespace eg = special::erf_gamma;

// See special_erf_gamma.cpp: the vectorizable kernels inline everything (LTO would leave
// simd_math's log as a call and the loop scalar).
#define AC_EG_FAST [[gnu::always_inline, gnu::flatten]]

#define AC_EG_UNARY(Name, fn)                                            \
  struct Name {                                                          \
    template <class T> static T apply(T x) {                             \
      return static_cast<T>(fn(static_cast<double>(x)));                 \
    }                                                                    \
  };
#define AC_EG_BINARY(Name, fn)                                           \
  struct Name {                                                          \
    template <class T> static T apply(T a, T b) {                        \
      return static_cast<T>(fn(static_cast<double>(a), static_cast<double>(b))); \
    }                                                                    \
  };

inline double loggamma_real(double x) { return x < 0 ? eg::kNaN : eg::gammaln(x); }

// polygamma(n, x) = psi(x) for n = 0, else (-1)^(n+1) n! zeta(n + 1, x) (NaN for n not a
// non-negative integer, through pow(-1, n + 1) and the gamma/zeta conventions, as SciPy).
inline double polygamma(double n, double x) {
  if (n == 0.0) return eg::psi(x);
  return std::pow(-1.0, n + 1.0) * eg::gamma(n + 1.0) * eg::zeta(n + 1.0, x);
}

// gammaln: the branch-free lgamma for x > 0 (float: lower-degree expansions, in double);
// blocks holding x <= 0 or NaN take the scalar path (reflection, poles).
struct Gammaln {
  AC_EG_FAST static float apply(float x) {
    return static_cast<float>(eg::lgamma_pos_t<eg::kLgamma23F, eg::kStirlingF>(x));
  }
  AC_EG_FAST static double apply(double x) {
    return eg::lgamma_pos_t<eg::kLgamma23D, eg::kStirlingD>(x);
  }
  template <class T> AC_EG_FAST static bool needs_exact(T x) { return !(x > T(0)); }
  template <class T> static T exact(T x) {  // same bits as apply for x > 0 (layouts)
    return needs_exact(x) ? static_cast<T>(eg::gammaln(x)) : apply(x);
  }
};
AC_EG_UNARY(Gamma, eg::gamma)
struct Loggamma : Gammaln {  // real loggamma: gammaln for x >= 0, NaN below
  template <class T> static T exact(T x) {
    return needs_exact(x) ? static_cast<T>(loggamma_real(x)) : apply(x);
  }
};
AC_EG_UNARY(Rgamma, eg::rgamma)
AC_EG_UNARY(Gammasgn, eg::gammasgn)
struct Psi {
  template <class T> AC_EG_FAST static T apply(T x) { return static_cast<T>(eg::psi_pos_v(x)); }
  template <class T> AC_EG_FAST static bool needs_exact(T x) { return !(x > T(0)); }
  template <class T> static T exact(T x) {
    return needs_exact(x) ? static_cast<T>(eg::psi(x)) : apply(x);
  }
};
AC_EG_UNARY(Zetac, eg::zetac)
AC_EG_BINARY(Polygamma, polygamma)
AC_EG_BINARY(Zeta, eg::zeta)
AC_EG_BINARY(Poch, eg::poch)
AC_EG_BINARY(Betaln, eg::betaln)
AC_EG_BINARY(Binom, eg::binom)

#undef AC_EG_UNARY
#undef AC_EG_BINARY

}  // namespace

AC_REGISTER_KERNELS(special_erf_gamma_gamma) {
  register_unary<Gamma>("gamma", RealFloatTypes{}, 30.0);
  register_unary<Gammaln>("gammaln", RealFloatTypes{}, 20.0);
  register_unary<Loggamma>("loggamma", RealFloatTypes{}, 20.0);
  register_unary<Rgamma>("rgamma", RealFloatTypes{}, 30.0);
  register_unary<Gammasgn>("gammasgn", RealFloatTypes{}, 4.0);
  register_unary<Psi>("psi", RealFloatTypes{}, 30.0);
  register_unary<Zetac>("zetac", RealFloatTypes{}, 100.0);
  register_binary<Polygamma>("polygamma", RealFloatTypes{}, 100.0);
  register_binary<Zeta>("zeta", RealFloatTypes{}, 100.0);
  register_binary<Poch>("poch", RealFloatTypes{}, 60.0);
  register_binary<Betaln>("betaln", RealFloatTypes{}, 60.0);
  register_binary<Binom>("binom", RealFloatTypes{}, 60.0);
}

}  // namespace arraycore::native
