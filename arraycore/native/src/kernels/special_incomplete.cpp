// Special functions, family incomplete (arraycore/_core/ops/special_incomplete.py): the
// incomplete gamma and beta ratios, their inverses, and the distribution functions SciPy
// builds on them.  Every function computes in double (float operands are promoted and the
// result rounded once): the algorithms are iterative (series, continued fractions, Halley),
// see special_incomplete_gamma.h / _beta.h / _inverse.h; the domain conventions at the
// edges (NaN outside the domain, 0/1/inf at the end points) follow SciPy 1.17.
#include <algorithm>
#include <cmath>

#include "kernel_loops.h"
#include "special_incomplete_beta.h"
#include "special_incomplete_dist.h"
#include "special_incomplete_gamma.h"
#include "special_incomplete_gamma_lanes.h"
#include "special_incomplete_inverse.h"

namespace arraycore::native {
namespace {

namespace inc = special::incomplete;

template <class T>
T cast(double v) { return static_cast<T>(v); }

#define AC_INC_BINARY(Name, fn)                                              \
  struct Name {                                                              \
    template <class T>                                                       \
    static T apply(T a, T b) { return cast<T>(inc::fn(double(a), double(b))); } \
  };
#define AC_INC_TERNARY(Name, fn)                                               \
  struct Name {                                                                \
    template <class T>                                                         \
    static T apply(T a, T b, T c) {                                            \
      return cast<T>(inc::fn(double(a), double(b), double(c)));                \
    }                                                                          \
  };

// Truncation tolerance of the series: full double precision for double results; float
// results need ~1e-8 relative, so 1e-10 keeps a margin and halves the terms.
template <class T>
constexpr double series_tol() { return sizeof(T) == 4 ? 1e-10 : inc::kEps; }

// gammainc / gammaincc: any strides; the operands are run by gammainc_chunk in chunks of
// doubles, several elements in lockstep (special_incomplete_gamma_lanes.h).
template <class T, bool Upper>
void gammainc_loop(char** p, const int64_t* s, int64_t n) {
  run_in_double_chunks<T, 2>(p, s, n, [](const double (*in)[256], double* out, int m) {
    inc::gammainc_chunk(in[0], in[1], out, m, Upper, series_tol<T>(), sizeof(T) == 4);
  });
}

// betainc / betaincc: any strides; float operands are run by betainc_float_chunk in chunks
// of doubles (the prefactors vectorized), double ones one by one.
template <class T, bool Upper>
void betainc_loop(char** p, const int64_t* s, int64_t n) {
  if constexpr (sizeof(T) == 8) {
    for (int64_t i = 0; i < n; ++i) {
      const double a = *reinterpret_cast<const T*>(p[1] + i * s[1]);
      const double b = *reinterpret_cast<const T*>(p[2] + i * s[2]);
      const double x = *reinterpret_cast<const T*>(p[3] + i * s[3]);
      *reinterpret_cast<T*>(p[0] + i * s[0]) = inc::betainc_d(a, b, x, Upper);
    }
  } else {
    run_in_double_chunks<T, 3>(p, s, n, [](const double (*in)[256], double* out, int m) {
      inc::betainc_float_chunk(in[0], in[1], in[2], out, m, Upper, series_tol<T>());
    });
  }
}

AC_INC_BINARY(Gammaincinv, gammaincinv)
AC_INC_BINARY(Gammainccinv, gammainccinv)
AC_INC_TERNARY(Betaincinv, betaincinv)
AC_INC_TERNARY(Bdtr, bdtr)
AC_INC_TERNARY(Bdtrc, bdtrc)
AC_INC_TERNARY(Bdtri, bdtri)
AC_INC_BINARY(Chdtr, chdtr)
AC_INC_BINARY(Chdtrc, chdtrc)
AC_INC_BINARY(Chdtri, chdtri)
AC_INC_TERNARY(Fdtr, fdtr)
AC_INC_TERNARY(Fdtrc, fdtrc)
AC_INC_TERNARY(Fdtri, fdtri)
AC_INC_TERNARY(Gdtr, gdtr)
AC_INC_TERNARY(Gdtrc, gdtrc)
AC_INC_TERNARY(Nbdtr, nbdtr)
AC_INC_TERNARY(Nbdtrc, nbdtrc)
AC_INC_TERNARY(Nbdtri, nbdtri)
AC_INC_BINARY(Pdtr, pdtr)
AC_INC_BINARY(Pdtrc, pdtrc)
AC_INC_BINARY(Pdtri, pdtri)
AC_INC_BINARY(Stdtr, stdtr)
AC_INC_BINARY(Stdtrit, stdtrit)

#undef AC_INC_BINARY
#undef AC_INC_TERNARY

}  // namespace

AC_REGISTER_KERNELS(special_incomplete) {
  // cost: relative to an add, for the parallel grain (tens of iterations per element)
  constexpr double kCost = 400.0, kInvCost = 4000.0;
  register_real_float_loops("gammainc", 2, kCost, &gammainc_loop<float, false>,
                            &gammainc_loop<double, false>);
  register_real_float_loops("gammaincc", 2, kCost, &gammainc_loop<float, true>,
                            &gammainc_loop<double, true>);
  register_binary<Gammaincinv>("gammaincinv", RealFloatTypes{}, kInvCost);
  register_binary<Gammainccinv>("gammainccinv", RealFloatTypes{}, kInvCost);
  register_real_float_loops("betainc", 3, kCost, &betainc_loop<float, false>,
                            &betainc_loop<double, false>);
  register_real_float_loops("betaincc", 3, kCost, &betainc_loop<float, true>,
                            &betainc_loop<double, true>);
  register_ternary<Betaincinv>("betaincinv", RealFloatTypes{}, kInvCost);
  register_ternary<Bdtr>("bdtr", RealFloatTypes{}, kCost);
  register_ternary<Bdtrc>("bdtrc", RealFloatTypes{}, kCost);
  register_ternary<Bdtri>("bdtri", RealFloatTypes{}, kInvCost);
  register_binary<Chdtr>("chdtr", RealFloatTypes{}, kCost);
  register_binary<Chdtrc>("chdtrc", RealFloatTypes{}, kCost);
  register_binary<Chdtri>("chdtri", RealFloatTypes{}, kInvCost);
  register_ternary<Fdtr>("fdtr", RealFloatTypes{}, kCost);
  register_ternary<Fdtrc>("fdtrc", RealFloatTypes{}, kCost);
  register_ternary<Fdtri>("fdtri", RealFloatTypes{}, kInvCost);
  register_ternary<Gdtr>("gdtr", RealFloatTypes{}, kCost);
  register_ternary<Gdtrc>("gdtrc", RealFloatTypes{}, kCost);
  register_ternary<Nbdtr>("nbdtr", RealFloatTypes{}, kCost);
  register_ternary<Nbdtrc>("nbdtrc", RealFloatTypes{}, kCost);
  register_ternary<Nbdtri>("nbdtri", RealFloatTypes{}, kInvCost);
  register_binary<Pdtr>("pdtr", RealFloatTypes{}, kCost);
  register_binary<Pdtrc>("pdtrc", RealFloatTypes{}, kCost);
  register_binary<Pdtri>("pdtri", RealFloatTypes{}, kInvCost);
  register_binary<Stdtr>("stdtr", RealFloatTypes{}, kCost);
  register_binary<Stdtrit>("stdtrit", RealFloatTypes{}, kInvCost);
}

}  // namespace arraycore::native
