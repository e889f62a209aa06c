// Exponential, logarithm and power kernels: exp, expm1, log, log1p, log2, log10, sqrt,
// logaddexp, hypot.
//
// Exp and Log stay one-line structs so they can later switch to the vectorized
// simd_math::exp/log for float/double.
#include <cmath>
#include <numbers>
#include <type_traits>

#include "complex_math.h"
#include "../simd_math.h"
#include "../simd_pow.h"
#include "kernel_loops.h"

namespace arraycore::native {
namespace {

// Real exp/log/expm1/log1p use simd_math: branch-free versions (<= 1 ulp for float, 1.5 ulp for
// double, exact on IEEE special values) that vectorize, unlike libm calls.
// Real exp declares a common branch too (kernel_loops.h, HasCommonBranch): chunks whose
// arguments all have |x| <= 87 (float) or 708 (double), where exp is a normal number, run
// simd_math::exp_in_range, the same reduction and polynomial without the clamps and the
// two-factor scaling that gradual underflow needs (the same bits there).  Those took 40% of
// exp's time: 1e6 float64 in (-20, 20), 1 thread, 1.03 -> 0.75 ms on the AVX2 build,
// 0.55 -> 0.38 ms on AVX-512; float32 0.38 -> 0.24 and 0.23 -> 0.14 ms (docs/special.md,
// eighth pass).
template <class T> concept RealFloat = std::is_floating_point_v<T>;
struct Exp {
  template <class T> static T apply(T x) {
    if constexpr (is_complex_v<T>) return std::exp(x);
    else return simd_math::exp(x);
  }
  template <RealFloat T> static bool in_common(T x) {
    return std::fabs(x) <= (sizeof(T) == 4 ? T(87) : T(708));
  }
  template <RealFloat T> static T common(T x) { return simd_math::exp_in_range(x); }
};
struct Log {
  template <class T> static T apply(T x) {
    if constexpr (is_complex_v<T>) return std::log(x);
    else return simd_math::log(x);
  }
};
struct Sqrt { template <class T> static T apply(T x) { return std::sqrt(x); } };

// float expm1/log1p/log2/log10 also declare a common branch (kernel_loops.h,
// HasCommonBranch): chunks whose inputs are all in the plain domain (2^-90 <= |x| < 16 for
// expm1, -1 < x < inf for log1p, positive normal finite for log2/log10) run the same
// computation without clamps, subnormal scaling and special-value fixups (the same bits
// there; log2 0.28 -> 0.19 ms per 1e6 on AVX-512).
template <class T> concept Float32 = std::is_same_v<T, float>;
struct Expm1 {
  template <class T> static T apply(T x) {
    if constexpr (is_complex_v<T>) return cexpm1(x);
    else return simd_math::expm1(x);
  }
  template <Float32 T> static bool in_common(T x) { return simd_math::expm1_in_common(x); }
  template <Float32 T> static T common(T x) { return simd_math::expm1_common(x); }
};
struct Log1p {
  template <class T> static T apply(T x) {
    if constexpr (is_complex_v<T>) return clog1p(x);
    else return simd_math::log1p(x);
  }
  template <Float32 T> static bool in_common(T x) { return simd_math::log1p_in_common(x); }
  template <Float32 T> static T common(T x) { return simd_math::log1p_common(x); }
};
// Real log2/log10: simd_pow.h (vectorized; exact at powers of 2 and 10).  Complex: clog scaled
// componentwise by log2(e) / log10(e) (as NumPy).
struct Log2 {
  template <class T> [[gnu::always_inline]] static T apply(T x) {
    if constexpr (is_complex_v<T>) {
      using R = real_t<T>;
      const T l = std::log(x);
      return {l.real() * std::numbers::log2e_v<R>, l.imag() * std::numbers::log2e_v<R>};
    } else {
      return simd_math::log2(x);
    }
  }
  template <Float32 T> static bool in_common(T x) { return simd_math::detail::log_in_common(x); }
  template <Float32 T> static T common(T x) { return simd_math::log2_common(x); }
};
struct Log10 {
  template <class T> [[gnu::always_inline]] static T apply(T x) {
    if constexpr (is_complex_v<T>) {
      using R = real_t<T>;
      const T l = std::log(x);
      return {l.real() * std::numbers::log10e_v<R>, l.imag() * std::numbers::log10e_v<R>};
    } else {
      return simd_math::log10(x);
    }
  }
  template <Float32 T> static bool in_common(T x) { return simd_math::detail::log_in_common(x); }
  template <Float32 T> static T common(T x) { return simd_math::log10_common(x); }
};

// log(exp(a) + exp(b)) = max + log1p(exp(-|a - b|)); equal arguments (including equal
// infinities) give a + log(2), a NaN difference propagates.
struct LogAddExp {
  template <class T> static T apply(T a, T b) {
    if (a == b) return a + std::numbers::ln2_v<T>;
    const T d = a - b;
    if (d > 0) return a + std::log1p(std::exp(-d));
    if (d <= 0) return b + std::log1p(std::exp(d));
    return d;  // NaN
  }
};
struct Hypot { template <class T> static T apply(T a, T b) { return std::hypot(a, b); } };

}  // namespace

AC_REGISTER_KERNELS(exp_log) {
  register_unary<Exp>("exp", FloatTypes{}, 8.0);
  register_unary<Expm1>("expm1", FloatTypes{}, 10.0);
  register_unary<Log>("log", FloatTypes{}, 8.0);
  register_unary<Log1p>("log1p", FloatTypes{}, 10.0);
  register_unary<Log2>("log2", FloatTypes{}, 8.0);
  register_unary<Log10>("log10", FloatTypes{}, 8.0);
  register_unary<Sqrt>("sqrt", FloatTypes{}, 4.0);
  register_binary<LogAddExp>("logaddexp", RealFloatTypes{}, 16.0);
  register_binary<Hypot>("hypot", RealFloatTypes{}, 8.0);
}

}  // namespace arraycore::native
