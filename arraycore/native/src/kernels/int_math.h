// L0: integer helpers shared by the kernel files: wrapping arithmetic without signed-overflow
// UB, and NumPy's integer semantics for division, remainder, power and shifts.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace arraycore::native {

// Unsigned type at least as wide as `unsigned int`, so arithmetic on it never promotes to a
// signed int (uint16 * uint16 would otherwise overflow `int`).  Casting back to T wraps.
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                  std::make_unsigned_t<T>>;

template <class T> inline T wrap_add(T a, T b) { return T(wrap_t<T>(a) + wrap_t<T>(b)); }
template <class T> inline T wrap_sub(T a, T b) { return T(wrap_t<T>(a) - wrap_t<T>(b)); }
template <class T> inline T wrap_mul(T a, T b) { return T(wrap_t<T>(a) * wrap_t<T>(b)); }
template <class T> inline T wrap_neg(T a) { return T(wrap_t<T>(0) - wrap_t<T>(a)); }

// Whether 64-bit integers take floor_div_via_double where |a|, |b| <= 2^53: only where their
// conversions to and from double are vector instructions (AVX-512DQ); elsewhere the block
// check and scalar conversions cost what the division saves.
#if defined(__AVX512DQ__)
inline constexpr bool kInt64DivViaDouble = true;
#else
inline constexpr bool kInt64DivViaDouble = false;
#endif

// floor(a / b) through one double division, branch-free so that loops vectorize (the integer
// division is 20-40 cycles and scalar: 2 ms per 1e6 int32, NumPy's array divisor 5 ms).
// Exact whenever |a|, |b| <= 2^53 (every integer up to 32 bits): the quotient is then exact
// when b divides a, and otherwise at least 1/|b| from the next integer while its rounding
// error is at most |a/b| 2^-53 < 1/|b|.  b = 0 gives 0 and MIN // -1 wraps to MIN, as
// int_floor_div.  The double converts back through int32 where that suffices (AVX2 has no
// double <-> int64 vector conversion): uint32 shifted by 2^31, int32's one out-of-range
// quotient (MIN // -1 = 2^31) replaced by its wrapped value first.
template <class T> inline T floor_div_via_double(T a, T b) {
  double q = std::floor(static_cast<double>(a) / static_cast<double>(b));
  q = b == 0 ? 0.0 : q;
  if constexpr (sizeof(T) == 8 || kInt64DivViaDouble) {
    return static_cast<T>(static_cast<int64_t>(q));
  } else if constexpr (std::is_same_v<T, uint32_t>) {
    return static_cast<uint32_t>(static_cast<int32_t>(q - 2147483648.0)) + 2147483648u;
  } else {
    if constexpr (std::is_same_v<T, int32_t>) q = q == 2147483648.0 ? -2147483648.0 : q;
    return static_cast<T>(static_cast<int32_t>(q));
  }
}

// Whether floor_div_via_double is exact for a 64-bit pair: |a|, |b| <= 2^53.
template <class T> inline bool int64_div_needs_exact(T a, T b) {
  constexpr uint64_t kLim = uint64_t(1) << 53;
  if constexpr (std::is_signed_v<T>)
    return (static_cast<uint64_t>(a) + kLim > 2 * kLim) | (static_cast<uint64_t>(b) + kLim > 2 * kLim);
  else
    return (static_cast<uint64_t>(a) > kLim) | (static_cast<uint64_t>(b) > kLim);
}

// Python/NumPy floor division.  x // 0 == 0 (NumPy warns and returns 0); MIN // -1 wraps to
// MIN, as NumPy does.  Up to 32 bits through floor_div_via_double.
template <class T> inline T int_floor_div(T a, T b) {
  if constexpr (sizeof(T) <= 4) {
    return floor_div_via_double(a, b);
  } else {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return wrap_neg(a);
      T q = T(a / b);
      T r = T(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) --q;
      return q;
    } else {
      return T(a / b);
    }
  }
}

// a - floor(a / b) b with floor_div_via_double's quotient (wrapping: the true remainder is
// in range, so the product's and difference's wrap-around cancels); b = 0 gives 0.
template <class T> inline T remainder_via_double(T a, T b) {
  const T r = wrap_sub(a, wrap_mul(floor_div_via_double(a, b), b));
  return b == 0 ? T(0) : r;
}

// Python/NumPy remainder: the result takes the sign of the divisor; x % 0 == 0.  Up to 32
// bits through remainder_via_double.
template <class T> inline T int_remainder(T a, T b) {
  if constexpr (sizeof(T) <= 4) {
    return remainder_via_double(a, b);
  } else {
    if (b == 0) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
      T r = T(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = T(r + b);
      return r;
    } else {
      return T(a % b);
    }
  }
}

// Integer power by repeated squaring, wrapping on overflow.  NumPy raises for a negative
// exponent; we cannot raise inside a kernel, so we return the value truncated toward zero
// instead: 1 for base 1, +-1 for base -1 (by parity), and 0 for every other base (including
// 0, where the true value would be infinite).
template <class T> inline T int_pow(T base, T e) {
  if constexpr (std::is_signed_v<T>) {
    if (e < 0) {
      if (base == T(1)) return T(1);
      if (base == T(-1)) return (e & 1) ? T(-1) : T(1);
      return T(0);
    }
  }
  using W = wrap_t<T>;
  W r = 1, b = W(base);
  auto n = std::make_unsigned_t<T>(e);
  while (n) {
    if (n & 1u) r = W(r * b);
    b = W(b * b);
    n >>= 1;
  }
  return T(r);
}

// Shifts with NumPy's results for counts outside [0, bits): left gives 0, right gives 0 or -1
// (sign fill).  Left shifts are done in the unsigned type (shifting negatives is UB pre-C++20
// and overflow-prone).
template <class T> inline bool shift_out_of_range(T b) {
  constexpr int bits = int(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) return b < 0 || int64_t(b) >= bits;
  else return uint64_t(b) >= uint64_t(bits);
}
// Written as selects (no early returns) so the contiguous loops vectorize (vpsllv/vpsrav).
template <class T> inline T shift_left(T a, T b) {
  constexpr int bits = int(sizeof(T) * 8);
  const T r = T(wrap_t<T>(a) << (int(b) & (bits - 1)));
  return shift_out_of_range(b) ? T(0) : r;
}
template <class T> inline T shift_right(T a, T b) {
  constexpr int bits = int(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) {
    // Out of range: shifting by bits - 1 fills with the sign (0 or -1), NumPy's result.
    const int s = shift_out_of_range(b) ? bits - 1 : int(b);
    return T(a >> s);  // arithmetic shift (defined since C++20)
  } else {
    const T r = T(a >> (int(b) & (bits - 1)));
    return shift_out_of_range(b) ? T(0) : r;
  }
}

}  // namespace arraycore::native
