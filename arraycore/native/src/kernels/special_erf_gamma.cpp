// Special functions, family erf_gamma (arraycore/_core/ops/special_erf_gamma.py): the error
// function family and the normal distribution.  Cores in special_erf_gamma.h; the gamma
// family is in special_erf_gamma_gamma.cpp, the logistic functions in
// special_erf_gamma_logistic.cpp.
//
// erf, erfc, erfcx, ndtr and log_ndtr are branch-free (one expansion of erfcx for all
// x >= 0 and exp(-x^2) from the exact square), so their loops vectorize; float erf and erfc
// run eight polynomial pieces with per-lane coefficients in explicit vector code
// (special_erf_gamma_pieces.h), float ndtr a float/double mix (special_erf_gamma.h), the
// other float kernels evaluate in double and round once.  The inverses erfinv, erfcinv and
// ndtri are rational fits on three pieces (ndtri_v; float erfinv: two polynomials in
// -ln(1 - x^2)), also branch-free; the scalar functions (Halley iterations) take the
// endpoints, NaN and ndtri_exp.
#include <cmath>
#include <type_traits>

#include "buffered_float_loop.h"
#include "kernel_loops.h"
#include "special_erf_gamma.h"
#include "special_erf_gamma_pieces.h"

namespace arraycore::native {
namespace {

namespace eg = special::erf_gamma;

struct Erf {
  // float, AVX2 and AVX-512 builds: eight pieces whose coefficients are permuted into the
  // lanes (contiguous runs; erf_table_f elsewhere, the same bits): special_erf_gamma_pieces.h.
  // Other builds: erf_f, which GCC vectorizes by itself.
#if AC_TABLE_VECTORS
  AC_EG_FAST static float apply(float x) { return eg::erf_table_f(x); }
  static void run(const float* a, float* o, int64_t n) { eg::erf_table_run(a, o, n); }
#else
  AC_EG_FAST static float apply(float x) { return eg::erf_f(x); }
#endif
  // (common's bits where in_common: every layout agrees)
  AC_EG_FAST static double apply(double x) {
    return eg::select_bits(in_common(x), common(x), eg::erf_v(x));
  }
  // double, |x| < 3 (where typical arguments lie): erf(x)/x as one polynomial in x^2 of
  // degree 22 (kErfMidD, 2.6e-16), no exp or division; the loop runs it alone on chunks
  // mostly inside (kernel_loops.h, unary_loop_common_branch).  (float: the table is cheaper.)
  AC_EG_FAST static bool in_common(double x) { return std::fabs(x) < 3.0; }
  AC_EG_FAST static double common(double x) {
    return x * eg::poly(x * x * (1.0 / 4.5) - 1.0, eg::kErfMidD);
  }
  static void in_common(float) = delete;  // (no common branch for float)
};
struct Erfc {
  // float: as Erf (erfcx in eight pieces, exp in float), erfc_f on builds without AVX2
#if AC_TABLE_VECTORS
  AC_EG_FAST static float apply(float x) { return eg::erfc_table_f(x); }
  static void run(const float* a, float* o, int64_t n) { eg::erfc_table_run(a, o, n); }
#else
  AC_EG_FAST static float apply(float x) { return eg::erfc_f(x); }
#endif
  AC_EG_FAST static double apply(double x) { return eg::erfc_v(x); }
};
AC_EG_UNARY_FAST(Erfcx, eg::erfcx_v)
struct Ndtr {
  AC_EG_FAST static float apply(float x) { return eg::ndtr_f(x); }
  AC_EG_FAST static double apply(double x) { return eg::ndtr_v(x); }
};
AC_EG_UNARY_FAST(LogNdtr, eg::log_ndtr_v)
// The inverses: branch-free on the open domain; blocks holding an endpoint, a value outside
// or NaN take the scalar functions there (and the same branch-free code elsewhere, so every
// layout gives the same bits).
// The central piece (|p - 1/2| <= 0.425, 85% of p in (0, 1)) is one rational fit, without
// the tails' log and square root: the common branch (kernel_loops.h), `apply` selecting it
// there so that every layout gives the same bits (ndtri 1e6 float64 in (0.01, 0.99):
// 3.3 -> 1.2 ms).  `prob(x)` is ndtri's argument, `finish(x, v)` the result from ndtri's v.
// (`inside` joins its tests with `&`: `&&` makes a branch, and the block scan of
// unary_loop_with_fallback then stays scalar.)
#define AC_EG_INVERSE(Name, fast, slow, inside, prob, finish)                             \
  struct Name {                                                                          \
    template <class T> AC_EG_FAST static bool in_common(T x) {                           \
      return std::fabs(prob(static_cast<double>(x)) - 0.5) <= 0.425;                     \
    }                                                                                    \
    template <class T> AC_EG_FAST static T common(T x) {                                 \
      const double q = prob(static_cast<double>(x)) - 0.5;                               \
      return static_cast<T>(                                                             \
          finish(x, q * eg::ndtri_central_ratio_v<std::is_same_v<T, double>>(q)));       \
    }                                                                                    \
    template <class T> AC_EG_FAST static T apply(T x) {                                  \
      const T v = static_cast<T>(fast<std::is_same_v<T, double>>(static_cast<double>(x))); \
      return eg::select_bits(in_common(x), common(x), v);                                \
    }                                                                                    \
    template <class T> AC_EG_FAST static bool needs_exact(T x) { return !(inside); }     \
    template <class T> static T exact(T x) { /* same bits as apply inside */             \
      return needs_exact(x) ? static_cast<T>(slow(static_cast<double>(x))) : apply(x);   \
    }                                                                                    \
  };
[[gnu::always_inline]] inline double half(double y) { return 0.5 * y; }
[[gnu::always_inline]] inline double same(double p) { return p; }
[[gnu::always_inline]] inline double erfcinv_from_ndtri(double, double v) {
  return -eg::kInvSqrt2 * v;
}
[[gnu::always_inline]] inline double ndtri_value(double, double v) { return v; }
AC_EG_INVERSE(Erfcinv, eg::erfcinv_v, eg::erfcinv, (x > T(1e-300)) & (x < T(2)), half,
              erfcinv_from_ndtri)
AC_EG_INVERSE(Ndtri, eg::ndtri_v, eg::ndtri, (x > T(1e-300)) & (x < T(1)), same, ndtri_value)
#undef AC_EG_INVERSE
// erfinv has its own float kernel (the others' float results come from the double one).
// (float: erfinv_f takes every input, no fallback; double: the endpoints, 0 and NaN take the
// scalar function.)
// double: |x| <= 0.85 (85% of uniform arguments) is erfinv_v's central piece, a rational
// fit without the tails' log and square root; the loop runs it alone on chunks mostly
// inside, the rest through erfinv_v (erfinv 1e6 float64: 6.7 -> 3.6 ms on 256-bit vectors).
struct Erfinv {
  AC_EG_FAST static float apply(float x) { return eg::erfinv_f(x); }
  AC_EG_FAST static double apply(double x) {
    return eg::select_bits(in_common(x), common(x), eg::erfinv_v(x));
  }
  AC_EG_FAST static bool in_common(double x) { return (std::fabs(x) <= 0.85) & (x != 0.0); }
  AC_EG_FAST static double common(double x) {
    return x * (eg::ndtri_central_ratio_v<true>(0.5 * x) * (0.5 * eg::kInvSqrt2));
  }
  static void in_common(float) = delete;
  AC_EG_FAST static bool needs_exact(double x) { return !((x > -1.0) & (x < 1.0) & (x != 0.0)); }
  static void needs_exact(float) = delete;
  static double exact(double x) { return needs_exact(x) ? eg::erfinv(x) : apply(x); }
};
AC_EG_UNARY(NdtriExp, eg::ndtri_exp)

}  // namespace

AC_REGISTER_KERNELS(special_erf_gamma) {
#if AC_TABLE_VECTORS
  register_real_float_loops("erf", 1, 12.0, &buffered_float_loop<&Erf::run>, unary_loop_for<Erf, double>());
  register_real_float_loops("erfc", 1, 12.0, &buffered_float_loop<&Erfc::run>, unary_loop_for<Erfc, double>());
#else
  register_unary<Erf>("erf", RealFloatTypes{}, 12.0);
  register_unary<Erfc>("erfc", RealFloatTypes{}, 12.0);
#endif
  register_unary<Erfcx>("erfcx", RealFloatTypes{}, 12.0);
  register_unary<Ndtr>("ndtr", RealFloatTypes{}, 12.0);
  register_unary<LogNdtr>("log_ndtr", RealFloatTypes{}, 20.0);
  register_unary<Erfinv>("erfinv", RealFloatTypes{}, 60.0);
  register_unary<Erfcinv>("erfcinv", RealFloatTypes{}, 60.0);
  register_unary<Ndtri>("ndtri", RealFloatTypes{}, 60.0);
  register_unary<NdtriExp>("ndtri_exp", RealFloatTypes{}, 60.0);
}

}  // namespace arraycore::native
