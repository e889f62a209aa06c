// Trigonometric and hyperbolic kernels: sin, cos, tan, asin, acos, atan, atan2, sinh, cosh,
// tanh, asinh, acosh, atanh.  Complex inputs use the C99 Annex G functions through
// std::complex (as NumPy), which implement the standard's special cases.
#include <cmath>
#include <complex>
#include <type_traits>
#include <utility>

#include "../simd_atrig.h"
#include "../simd_hyperbolic.h"
#include "../simd_trig.h"
#include "../simd_trig_float.h"
#include "kernel_loops.h"
#include "buffered_float_loop.h"
#include "tanh_pieces.h"

namespace arraycore::native {
namespace {

// Real sin/cos/tan: simd_math's vectorizable versions (float: computed in double; double: a
// double-double reduction; sin/cos within 1 ulp, tan within 2) for |x| <= 2^20; beyond that,
// and for NaN, libm (see HasExactFallback in kernel_loops.h).  Complex: libm.  float32 sin and
// cos have their own loop (sincos_f32_loop below) with a float-arithmetic tier in front.
enum class TrigFn { kSin, kCos, kTan };
template <TrigFn F>
struct SinCosTan {
  template <class T> static T apply(T x) {
    if constexpr (std::is_floating_point_v<T>) {
      if constexpr (F == TrigFn::kSin) return simd_math::sin(x);
      else if constexpr (F == TrigFn::kCos) return simd_math::cos(x);
      else return simd_math::tan(x);
    } else {
      return exact(x);
    }
  }
  template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
  static bool needs_exact(T x) {
    return !(std::fabs(x) <= T(simd_math::kTrigFastLimit));
  }
  template <class T> static T exact(T x) {
    if constexpr (F == TrigFn::kSin) return std::sin(x);
    else if constexpr (F == TrigFn::kCos) return std::cos(x);
    else return std::tan(x);
  }
};
using Sin = SinCosTan<TrigFn::kSin>;
using Cos = SinCosTan<TrigFn::kCos>;
using Tan = SinCosTan<TrigFn::kTan>;

// The float32 loop of sin and cos: contiguous blocks of 256 whose inputs all have |x| <= 512
// run the float-arithmetic versions (simd_trig_float.h, twice the lanes of the double
// evaluation), blocks within 2^20 the double-evaluated ones, other blocks (and NaN) libm.
// Each block is tested before it is written, so out may alias in. Strided: SinCosTan's loop.
template <TrigFn F> AC_SIMD_INLINE float sincos_short(float x) {
  if constexpr (F == TrigFn::kSin) return simd_math::sin_short(x);
  else return simd_math::cos_short(x);
}
template <TrigFn F> AC_SIMD_INLINE float sincos_wide(float x) {
  if constexpr (F == TrigFn::kSin) return simd_math::sin(x);
  else return simd_math::cos(x);
}
template <TrigFn F>
void sincos_f32_loop(char** p, const int64_t* s, int64_t n) {
  if (s[0] != sizeof(float) || s[1] != sizeof(float))
    return unary_loop<SinCosTan<F>, float>(p, s, n);
  float* o = reinterpret_cast<float*>(p[0]);
  const float* a = reinterpret_cast<const float*>(p[1]);
  constexpr int64_t kBlock = 256;
  constexpr float kShort = simd_math::kTrigFloatShortLimit;
  constexpr float kWide = static_cast<float>(simd_math::kTrigFastLimit);
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = n - b < kBlock ? n - b : kBlock;
    const float* x = a + b;
    float* y = o + b;
    int beyond_short = 0, beyond_wide = 0;  // (ints: GCC vectorizes an OR of ints, not of bools)
    for (int64_t i = 0; i < m; ++i) {
      beyond_short |= !(std::fabs(x[i]) <= kShort) ? 1 : 0;
      beyond_wide |= !(std::fabs(x[i]) <= kWide) ? 1 : 0;
    }
    if (!beyond_short) {
      for (int64_t i = 0; i < m; ++i) y[i] = sincos_short<F>(x[i]);
    } else if (!beyond_wide) {
      for (int64_t i = 0; i < m; ++i) y[i] = sincos_wide<F>(x[i]);
    } else {
      for (int64_t i = 0; i < m; ++i) y[i] = SinCosTan<F>::exact(x[i]);
    }
  }
}

// The inverse trigonometric and the hyperbolic functions: simd_math's branch-free versions
// for real input (simd_atrig.h, simd_hyperbolic.h: whole domain, special values as C99
// Annex F), the C99 Annex G functions for complex.
#define AC_SIMD_UNARY(Name, fn)                                              \
  struct Name {                                                              \
    template <class T> static T apply(T x) {                                 \
      if constexpr (std::is_floating_point_v<T>) return simd_math::fn(x);    \
      else return std::fn(x);                                                \
    }                                                                        \
  };
AC_SIMD_UNARY(Asin, asin)
AC_SIMD_UNARY(Acos, acos)
AC_SIMD_UNARY(Atan, atan)
AC_SIMD_UNARY(Sinh, sinh)
AC_SIMD_UNARY(Cosh, cosh)
AC_SIMD_UNARY(Asinh, asinh)
AC_SIMD_UNARY(Acosh, acosh)
AC_SIMD_UNARY(Atanh, atanh)
#undef AC_SIMD_UNARY

// Real tanh: simd_math::tanh (vectorizes; double: <= 2 ulp; float on builds without AVX2:
// computed in float, within 1 ulp of the correctly rounded result for every float).  float on
// AVX2 and AVX-512 builds: tanh_pieces.h through buffered_float_loop (polynomial pieces, also
// within 1 ulp).
// Complex tanh(+-inf + i y), y finite: C99 gives +-1 + i 0 sin(2y), whose zero takes the sign
// of sin(2y) (negative for y = pi); the standard gives +-1 + 0j with the sign of y.
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

// always_inline: in the LTO build for AVX2 GCC kept apply a call and binary_loop ran scalar
// (8.3 ms per 1e6 float32, 0.93 with the loop vectorized).
struct Atan2 {
  template <class T> [[gnu::always_inline]] static T apply(T y, T x) {
    return simd_math::atan2(y, x);
  }
};

// The float32 loop of atan2 for two contiguous operands: blocks of 1024 whose pairs are all
// common (simd_math::atan2_in_common: finite, not tiny, |y| != |x|) skip the special-case
// selects, with the same bits; other blocks and layouts run Atan2's loop.  Where the output
// is a separate buffer the block is computed and tested in one pass and redone if a pair was
// not common (a test pass first cost 0.13 ms per 1e6 pairs on AVX-512, the one pass 0.06:
// 0.49 -> 0.33 ms, NumPy 0.34-0.40 with SVML at up to 4 ulp); in place, the test comes first.
void atan2_f32_loop(char** p, const int64_t* s, int64_t n) {
  if (s[0] != sizeof(float) || s[1] != sizeof(float) || s[2] != sizeof(float))
    return binary_loop<Atan2, float>(p, s, n);
  float* o = reinterpret_cast<float*>(p[0]);
  const float* ys = reinterpret_cast<const float*>(p[1]);
  const float* xs = reinterpret_cast<const float*>(p[2]);
  const bool in_place = o == ys || o == xs;  // the only overlap apply_kernel lets through
  constexpr int64_t kBlock = 1024;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = n - b < kBlock ? n - b : kBlock;
    const float *y = ys + b, *x = xs + b;
    float* r = o + b;
    int rare = 0;  // (an int: GCC vectorizes an OR of ints, not of bools)
    if (!in_place) {
      for (int64_t i = 0; i < m; ++i) {
        r[i] = simd_math::atan2_common(y[i], x[i]);
        rare |= simd_math::atan2_in_common(y[i], x[i]) ? 0 : 1;
      }
      if (rare)
        for (int64_t i = 0; i < m; ++i) r[i] = simd_math::atan2(y[i], x[i]);
      continue;
    }
    for (int64_t i = 0; i < m; ++i) rare |= simd_math::atan2_in_common(y[i], x[i]) ? 0 : 1;
    if (rare)
      for (int64_t i = 0; i < m; ++i) r[i] = simd_math::atan2(y[i], x[i]);
    else
      for (int64_t i = 0; i < m; ++i) r[i] = simd_math::atan2_common(y[i], x[i]);
  }
}

}  // namespace

AC_REGISTER_KERNELS(trig) {
  register_unary<Sin>("sin", FloatTypes{}, 10.0);
  register_unary<Cos>("cos", FloatTypes{}, 10.0);
  for (auto [name, loop] : {std::pair{"sin", &sincos_f32_loop<TrigFn::kSin>},
                            std::pair{"cos", &sincos_f32_loop<TrigFn::kCos>}})
    KernelRegistry::instance().define(name, 1, 10.0).loops[dtype_index(DType::Float32)] = loop;
  register_unary<Tan>("tan", FloatTypes{}, 14.0);
  register_unary<Asin>("asin", FloatTypes{}, 12.0);
  register_unary<Acos>("acos", FloatTypes{}, 12.0);
  register_unary<Atan>("atan", FloatTypes{}, 12.0);
  register_binary<Atan2>("atan2", RealFloatTypes{}, 14.0);
  KernelRegistry::instance().define("atan2", 2, 14.0).loops[dtype_index(DType::Float32)] =
      &atan2_f32_loop;
  register_unary<Sinh>("sinh", FloatTypes{}, 12.0);
  register_unary<Cosh>("cosh", FloatTypes{}, 12.0);
  register_unary<Tanh>("tanh", FloatTypes{}, 12.0);
#if AC_TABLE_VECTORS
  KernelRegistry::instance().define("tanh", 1, 12.0).loops[dtype_index(DType::Float32)] =
      &buffered_float_loop<&tanh_pieces::tanh_table_run>;
#endif
  register_unary<Asinh>("asinh", FloatTypes{}, 14.0);
  register_unary<Acosh>("acosh", FloatTypes{}, 14.0);
  register_unary<Atanh>("atanh", FloatTypes{}, 14.0);
}

}  // namespace arraycore::native
