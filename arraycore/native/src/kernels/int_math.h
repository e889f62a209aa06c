// L0: integer helpers shared by the kernel files: wrapping arithmetic without signed-overflow
// UB, and NumPy's integer semantics for division, remainder, power and shifts.
#pragma once

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

// Python/NumPy floor division.  x // 0 == 0 (NumPy warns and returns 0); MIN // -1 wraps to
// MIN, as NumPy does.
template <class T> inline T int_floor_div(T a, T b) {
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

// Python/NumPy remainder: the result takes the sign of the divisor; x % 0 == 0.
template <class T> inline T int_remainder(T a, T b) {
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
