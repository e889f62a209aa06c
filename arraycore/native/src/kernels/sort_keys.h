// L0: the total order the searching, sorting and set kernels share, as order-preserving
// unsigned integer keys (for the radix sort) and as a comparator (for small inputs, complex
// numbers and binary searches).
//
// Note [Sort keys]
// Integers: signed types flip the sign bit, so unsigned comparison of the keys equals signed
// comparison of the values.  Floats: a negative float's bits are inverted, a non-negative one
// gets its sign bit set; unsigned order of the results is then float order.  -0 is mapped to
// +0 first (they compare equal, so a stable sort keeps their input order) and every NaN to the
// all-ones key (NaNs last, in input order, as NumPy's sort).  Complex numbers follow NumPy:
// [R + Rj, R + nanj, nan + Rj, nan + nanj], lexicographic within each group.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../dtype.h"

namespace arraycore::native {

template <class T> struct SortKey;

template <class T, class UT, bool Signed>
struct IntSortKey {
  using U = UT;  // raw bits and key type
  static constexpr int BITS = 8 * sizeof(U);
  static U key(U r) {
    if constexpr (Signed) return static_cast<U>(r ^ (U(1) << (BITS - 1)));
    else return r;
  }
};
template <> struct SortKey<bool> : IntSortKey<bool, uint8_t, false> {};
template <> struct SortKey<int8_t> : IntSortKey<int8_t, uint8_t, true> {};
template <> struct SortKey<int16_t> : IntSortKey<int16_t, uint16_t, true> {};
template <> struct SortKey<int32_t> : IntSortKey<int32_t, uint32_t, true> {};
template <> struct SortKey<int64_t> : IntSortKey<int64_t, uint64_t, true> {};
template <> struct SortKey<uint8_t> : IntSortKey<uint8_t, uint8_t, false> {};
template <> struct SortKey<uint16_t> : IntSortKey<uint16_t, uint16_t, false> {};
template <> struct SortKey<uint32_t> : IntSortKey<uint32_t, uint32_t, false> {};
template <> struct SortKey<uint64_t> : IntSortKey<uint64_t, uint64_t, false> {};

template <class UT, UT ExpMask>
struct FloatSortKey {
  using U = UT;
  static constexpr int BITS = 8 * sizeof(U);
  static constexpr U SIGN = U(1) << (BITS - 1);
  // Branch-free: the radix passes recompute keys on random data, where branches mispredict.
  static U key(U r) {
    U mag = r & ~SIGN;
    r &= -static_cast<U>(mag != 0);                          // -0 -> +0
    U flip = static_cast<U>(-static_cast<U>(r >> (BITS - 1))) | SIGN;
    U k = r ^ flip;
    return k | -static_cast<U>(mag > ExpMask);               // NaN -> all ones
  }
};
template <> struct SortKey<float> : FloatSortKey<uint32_t, 0x7f800000u> {};
template <> struct SortKey<double> : FloatSortKey<uint64_t, 0x7ff0000000000000ull> {};

template <class T> inline bool is_nan_value(const T& v) {
  if constexpr (is_complex_v<T>) return std::isnan(v.real()) || std::isnan(v.imag());
  else if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

// a < b in the sort order (NaNs last).
template <class T> inline bool sort_less(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) {
    // NumPy's complex order (npysort's CLT), which keeps NaNs last as described above.
    auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else if constexpr (std::is_floating_point_v<T>) {
    return a < b || (b != b && a == a);
  } else {
    return a < b;
  }
}

template <class T> inline T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace arraycore::native
