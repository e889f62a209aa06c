// L0: `sort` of one line of 4-byte values (float32, int32, uint32) with the vector quicksort.
//
// Note [Stable results from an unstable sort]
// vector_sort_32 sorts the values by signed int32 keys whose order is the sort order
// (descending: the complement) and maps them back; the map is a bijection, so the bits come
// back unchanged.  An unstable sort gives the stable answer whenever elements that
// compare equal are identical bits, which holds for every integer and every float except two
// classes, which are repaired afterwards:
// * NaNs: the key map puts NaNs with the sign bit set before -inf and the others after +inf.
//   The stable answer has all NaNs last (first when descending), in input order: the sorted
//   non-NaN block is moved, and the NaNs are copied from the input in order.
// * Zeros: -0 sorts before +0 (after, descending); the stable answer keeps their input order.
//   When the zero run holds both signs, it is rewritten from the input in order.
// Both repairs scan the input only when their case occurs.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "search_sort.h"
#include "sort_keys.h"
#include "vector_sort.h"

namespace arraycore::native {

namespace {

inline bool is_nan_bits(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }
inline bool is_zero_bits(uint32_t b) { return (b & 0x7fffffffu) == 0; }

// Copies, in input order, the elements of the line for which keep(bits) holds into out.
template <class Keep>
void copy_matching(const char* in, int64_t st, int64_t n, uint32_t* out, Keep keep) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = load<uint32_t>(in + i * st);
    if (keep(b)) *out++ = b;
  }
}

// See Note [Stable results from an unstable sort].
void repair_float_ties(const char* in, int64_t st, int64_t n, uint32_t* o, bool desc) {
  int64_t lead = 0, trail = 0;
  while (lead < n && is_nan_bits(o[lead])) ++lead;
  while (trail < n - lead && is_nan_bits(o[n - 1 - trail])) ++trail;
  const int64_t nans = lead + trail;
  // The non-NaN values end up in o[first, first + m).
  const int64_t m = n - nans;
  const int64_t first = desc ? nans : 0;
  if (nans > 0) {
    std::memmove(o + first, o + lead, static_cast<size_t>(m) * sizeof(uint32_t));
    copy_matching(in, st, n, o + (desc ? 0 : m), is_nan_bits);
  }
  // The zero run: ascending [-0.., +0..]; descending [+0.., -0..].
  auto as_float = [](uint32_t b) {
    float f;
    std::memcpy(&f, &b, sizeof f);
    return f;
  };
  uint32_t* v = o + first;
  uint32_t* lo = std::partition_point(v, v + m, [&](uint32_t b) {
    return desc ? as_float(b) > 0.0f : as_float(b) < 0.0f;
  });
  uint32_t* hi = std::partition_point(lo, v + m, [&](uint32_t b) { return is_zero_bits(b); });
  if (hi - lo >= 2 && (lo[0] >> 31) != (hi[-1] >> 31))
    copy_matching(in, st, n, lo, is_zero_bits);
}

}  // namespace

template <class T>
void sort_line_vectorized(const char* in, int64_t st, int64_t n, T* out, bool desc) {
  static_assert(sizeof(T) == 4);
  KeyCodec codec;
  if constexpr (std::is_same_v<T, float>) codec.float_mask = 0xffffffffu;
  if constexpr (std::is_same_v<T, uint32_t>) codec.xor_const = 0x80000000u;
  if (desc) codec.xor_const = ~codec.xor_const;
  uint32_t* o = reinterpret_cast<uint32_t*>(out);
  if (st == static_cast<int64_t>(sizeof(T))) {
    vector_sort_32(reinterpret_cast<const uint32_t*>(in), n, o, codec);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = load<uint32_t>(in + i * st);
    vector_sort_32(o, n, o, codec);
  }
  if constexpr (std::is_same_v<T, float>) repair_float_ties(in, st, n, o, desc);
}

template void sort_line_vectorized<float>(const char*, int64_t, int64_t, float*, bool);
template void sort_line_vectorized<int32_t>(const char*, int64_t, int64_t, int32_t*, bool);
template void sort_line_vectorized<uint32_t>(const char*, int64_t, int64_t, uint32_t*, bool);

}  // namespace arraycore::native
