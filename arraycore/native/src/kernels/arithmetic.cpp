// Arithmetic kernels: abs, negative, positive, square, sign, reciprocal, add, subtract,
// multiply, divide, floor_divide, remainder, pow, maximum, minimum, clip.
//
// Integer arithmetic wraps (computed in an unsigned type, no signed-overflow UB), as NumPy.
#include <cmath>
#include <limits>
#include <type_traits>

#include "../simd_pow.h"
#include "complex_math.h"
#include "int_divide_scalar.h"
#include "int_math.h"
#include "kernel_loops.h"

namespace arraycore::native {
namespace {

template <class T> constexpr bool is_int_v = std::is_integral_v<T>;

struct Abs {
  template <class T> static real_t<T> apply(T x) {
    if constexpr (is_complex_v<T>) return std::hypot(x.real(), x.imag());
    else if constexpr (std::is_floating_point_v<T>) return std::fabs(x);
    else if constexpr (std::is_signed_v<T>) return x < 0 ? wrap_neg(x) : x;  // abs(MIN) == MIN
    else return x;
  }
};
struct Negative {
  template <class T> static T apply(T x) {
    if constexpr (is_int_v<T>) return wrap_neg(x);
    else return -x;
  }
};
struct Positive { template <class T> static T apply(T x) { return x; } };
struct Square {
  template <class T> static T apply(T x) {
    if constexpr (is_complex_v<T>) return csquare(x);
    else if constexpr (is_int_v<T>) return wrap_mul(x, x);
    else return x * x;
  }
};
// Complex sign deviates from NumPy on purpose: the standard makes any NaN component give
// nan + nan j, where NumPy returns e.g. sign(inf + nan j) = 1 + 0j.
struct Sign {
  template <class T> static T apply(T x) {
    if constexpr (is_complex_v<T>) return csign(x);
    else if constexpr (std::is_unsigned_v<T>) return T(x != 0);
    else if constexpr (is_int_v<T>) return T((x > 0) - (x < 0));
    // sign(+-0) = +0 (standard: "0"; NumPy agrees), sign(nan) = nan.
    else return x > 0 ? T(1) : x < 0 ? T(-1) : x == 0 ? T(0) : x;
  }
};
struct Reciprocal {
  template <class T> static T apply(T x) {
    // Standard: special cases as for 1.0 / x (a real numerator, so no 0 * inf from an
    // imaginary part of 1).
    if constexpr (is_complex_v<T>) return creciprocal(x);
    else return T(1) / x;
  }
};
struct Add {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int_v<T>) return wrap_add(a, b);
    else return a + b;
  }
};
struct Subtract {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_int_v<T>) return wrap_sub(a, b);
    else return a - b;
  }
};
// Complex multiply/divide are NumPy's plain formula / Smith's algorithm, not the C99 Annex G
// versions that recover infinities from inf * nan (e.g. (inf + 0j) * (1 + 0j) gives inf + nan j
// here and in NumPy; the standard's "special rules" would give inf + 0j).
struct Multiply {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_complex_v<T>) return cmul(a, b);
    else if constexpr (is_int_v<T>) return wrap_mul(a, b);
    else return a * b;
  }
};
struct Divide {
  template <class T> static T apply(T a, T b) {
    if constexpr (is_complex_v<T>) return cdiv(a, b);
    else return a / b;
  }
};

// NumPy's float divmod: fmod, then move the remainder to the divisor's sign; floor_divide
// follows the standard's special cases for infinite operands (see below), remainder NumPy's.
template <class T> inline T float_floor_div(T a, T b) {
  if (b == 0) return a / b;  // +-inf, or nan for 0/0 and nan/0
  // The standard's special cases where fmod-based floor division (NumPy's) gives nan or -1:
  // inf // finite is a signed inf, and finite // inf is a signed zero (-0 for opposite signs).
  if (std::isinf(a) && std::isfinite(b)) return std::signbit(a) != std::signbit(b)
                                                     ? -std::numeric_limits<T>::infinity()
                                                     : std::numeric_limits<T>::infinity();
  if (std::isfinite(a) && std::isinf(b) && a != 0) return std::signbit(a) != std::signbit(b)
                                                              ? T(-0.0) : T(0.0);
  T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) div -= T(1);
  }
  if (div != 0) {
    T fl = std::floor(div);
    if (div - fl > T(0.5)) fl += T(1);
    return fl;
  }
  return std::copysign(T(0), a / b);
}
template <class T> inline T float_remainder(T a, T b) {
  T mod = std::fmod(a, b);
  if (b == 0) return mod;  // nan
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = std::copysign(T(0), b);
  }
  return mod;
}

// 64-bit integers (where kInt64DivViaDouble) divide through double in blocks whose operands
// are all within 2^53, and exactly (int_floor_div) in the blocks with one beyond.
template <class T>
inline constexpr bool kWideIntViaDouble = is_int_v<T> && sizeof(T) == 8 && kInt64DivViaDouble;

// a // b or a % b for 32- and 64-bit integers and one divisor b: by its reciprocal
// (divide_run_by_scalar: int32 // 7 127 -> 89 us per 1e6 on AVX-512, 290 -> 165 on AVX2,
// NumPy 108 / 159), for 64 bits where kWideIntViaDouble through Op::apply's double division
// in the blocks of 256 whose values are all within 2^53.
template <class Op, class T, bool Rem>
void divide_by_scalar_blocks(const T* a, T b, T* o, int64_t n) {
  if constexpr (sizeof(T) == 4 || !kWideIntViaDouble<T>) {
    divide_run_by_scalar<T, Rem>(a, b, o, n);
  } else {
    constexpr int64_t kBlock = 256;
    for (int64_t s = 0; s < n; s += kBlock) {
      const int64_t m = n - s < kBlock ? n - s : kBlock;
      int wide = 0;
      for (int64_t i = 0; i < m; ++i) wide |= int64_div_needs_exact(a[s + i], b) ? 1 : 0;
      if (wide)
        divide_run_by_scalar<T, Rem>(a + s, b, o + s, m);
      else
        for (int64_t i = 0; i < m; ++i) o[s + i] = Op::apply(a[s + i], b);
    }
  }
}

struct FloorDivide {
  template <class T> static T apply(T a, T b) {
    if constexpr (kWideIntViaDouble<T>) return floor_div_via_double(a, b);
    else if constexpr (is_int_v<T>) return int_floor_div(a, b);
    else return float_floor_div(a, b);
  }
  template <class T> requires kWideIntViaDouble<T>
  static bool needs_exact(T a, T b) { return int64_div_needs_exact(a, b); }
  template <class T> requires kWideIntViaDouble<T>
  static T exact(T a, T b) { return int_floor_div(a, b); }
  // 64-bit integers by one divisor: a multiplication by its reciprocal (int_divide_scalar.h;
  // x // 7 on int64, AVX2: 2.7 -> 0.57 ms per 1e6, NumPy 0.61); where the division through
  // double vectorizes (AVX-512DQ: 0.21 ms, the reciprocal 0.58) only in blocks with a value
  // beyond 2^53.
  template <class T> requires(is_int_v<T> && sizeof(T) >= 4)
  static bool rhs_scalar_run(const T* a, T b, T* o, int64_t n) {
    divide_by_scalar_blocks<FloorDivide, T, false>(a, b, o, n);
    return true;
  }
};
struct Remainder {
  template <class T> static T apply(T a, T b) {
    if constexpr (kWideIntViaDouble<T>) return remainder_via_double(a, b);
    else if constexpr (is_int_v<T>) return int_remainder(a, b);
    else return float_remainder(a, b);
  }
  template <class T> requires kWideIntViaDouble<T>
  static bool needs_exact(T a, T b) { return int64_div_needs_exact(a, b); }
  template <class T> requires kWideIntViaDouble<T>
  static T exact(T a, T b) { return int_remainder(a, b); }
  template <class T> requires(is_int_v<T> && sizeof(T) >= 4)
  static bool rhs_scalar_run(const T* a, T b, T* o, int64_t n) {
    divide_by_scalar_blocks<Remainder, T, true>(a, b, o, n);
    return true;
  }
};
struct Pow {
  // Inlined by force: GCC's size heuristics otherwise keep the real pow (simd_pow.h) a call,
  // and the loop stays scalar.
  template <class T> [[gnu::always_inline]] static T apply(T a, T b) {
    if constexpr (is_complex_v<T>) return cpow(a, b);
    else if constexpr (is_int_v<T>) return int_pow(a, b);
    else return simd_math::pow(a, b);
  }
  // Exponents with an exact elementwise form, as NumPy's fast scalar powers: each is one
  // correctly rounded operation, so it equals the correctly rounded pow (0.5: sqrt, with
  // pow's +0 at -0 and +inf at -inf).
  template <class T>
  static bool rhs_scalar_run(const T* a, T b, T* o, int64_t n) {
    if constexpr (std::is_floating_point_v<T>) {
      if (b == T(2)) {
        for (int64_t i = 0; i < n; ++i) o[i] = a[i] * a[i];
        return true;
      }
      if (b == T(-1)) {
        for (int64_t i = 0; i < n; ++i) o[i] = T(1) / a[i];
        return true;
      }
      if (b == T(1)) {
        for (int64_t i = 0; i < n; ++i) o[i] = a[i];
        return true;
      }
      if (b == T(0.5)) {
        constexpr T kInf = std::numeric_limits<T>::infinity();
        for (int64_t i = 0; i < n; ++i) o[i] = a[i] == -kInf ? kInf : std::sqrt(a[i]) + T(0);
        return true;
      }
    }
    if constexpr (std::is_same_v<T, float>) {
      // A finite exponent: blocks of 256 bases all in (0, inf) skip pow's special cases
      // (simd_math::pow_positive, the same bits): x ** 1.7 1.17 -> 0.99 ms per 1e6 float32
      if (std::isfinite(b)) {
        constexpr int64_t kBlock = 256;
        constexpr T kInf = std::numeric_limits<T>::infinity();
        for (int64_t s = 0; s < n; s += kBlock) {
          const int64_t m = n - s < kBlock ? n - s : kBlock;
          int plain = 1;
          for (int64_t i = 0; i < m; ++i) plain &= (a[s + i] > T(0)) & (a[s + i] < kInf) ? 1 : 0;
          if (plain)
            for (int64_t i = 0; i < m; ++i) o[s + i] = simd_math::pow_positive(a[s + i], b);
          else
            for (int64_t i = 0; i < m; ++i) o[s + i] = simd_math::pow(a[s + i], b);
        }
        return true;
      }
    }
    return false;
  }
};

// NaN-propagating maximum/minimum (NumPy's): when equal (including +-0) the second operand.
// Floats select through a bit mask: GCC turned `(a > b || a != a) ? a : b` (and the `|`
// form) into branches inside clip's nested min(max()), so clip ran scalar with mispredicted
// branches (3.1 ms per 1e6 floats, NumPy 0.08 ms).
template <class T> AC_SIMD_INLINE T select_mask(bool c, T a, T b) {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const U m = U(0) - static_cast<U>(c);
  return simd_math::detail::bit_cast<T>((simd_math::detail::bit_cast<U>(a) & m) |
                                        (simd_math::detail::bit_cast<U>(b) & ~m));
}
template <class T> inline T nan_max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return select_mask((a > b) | (a != a), a, b);
  else return a > b ? a : b;
}
template <class T> inline T nan_min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return select_mask((a < b) | (a != a), a, b);
  else return a < b ? a : b;
}
struct Maximum { template <class T> static T apply(T a, T b) { return nan_max(a, b); } };
struct Minimum { template <class T> static T apply(T a, T b) { return nan_min(a, b); } };
struct Clip {
  // minimum(maximum(x, lo), hi): a NaN in any operand gives NaN (standard and NumPy).
  template <class T> static T apply(T x, T lo, T hi) { return nan_min(nan_max(x, lo), hi); }
};

}  // namespace

AC_REGISTER_KERNELS(arithmetic) {
  register_unary<Abs>("abs", NumericTypes{});
  register_unary<Negative>("negative", NumericTypes{});
  register_unary<Positive>("positive", NumericTypes{});
  register_unary<Square>("square", NumericTypes{});
  register_unary<Sign>("sign", NumericTypes{}, 2.0);
  register_unary<Reciprocal>("reciprocal", FloatTypes{}, 2.0);
  register_binary<Add>("add", NumericTypes{});
  register_binary<Subtract>("subtract", NumericTypes{});
  register_binary<Multiply>("multiply", NumericTypes{});
  register_binary<Divide>("divide", FloatTypes{}, 2.0);
  register_binary<FloorDivide>("floor_divide", RealTypes{}, 8.0);
  register_binary<Remainder>("remainder", RealTypes{}, 8.0);
  register_binary<Pow>("pow", NumericTypes{}, 16.0);
  register_binary<Maximum>("maximum", RealTypes{});
  register_binary<Minimum>("minimum", RealTypes{});
  register_ternary<Clip>("clip", RealTypes{});
}

}  // namespace arraycore::native
