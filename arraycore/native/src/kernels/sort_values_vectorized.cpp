// L0: `sort` of one line of 4- and 8-byte values (float32/64, [u]int32/64) with the vector
// quicksort.
//
// Note [Stable results from an unstable sort]
// vector_sort sorts the values by signed keys whose order is the sort order
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
#include <cstring>

#include "../thread_pool.h"
#include "sort_keys.h"
#include "vector_sort.h"

namespace arraycore::native {

namespace {

// The bit patterns of float (U = uint32_t) and double (U = uint64_t).
template <class U>
struct FloatBits {
  static constexpr U kSign = U(1) << (8 * sizeof(U) - 1);
  static constexpr U kInf = sizeof(U) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
  static bool is_nan(U b) { return (b & ~kSign) > kInf; }
  static bool is_zero(U b) { return (b & ~kSign) == 0; }
  static bool is_negative_nonzero(U b) { return (b & kSign) && !is_zero(b); }
  static bool is_positive_nonzero(U b) { return !(b & kSign) && !is_zero(b); }
};

// Copies, in input order, the elements of the line for which keep(bits) holds into out.
template <class U, class Keep>
void copy_matching(const char* in, int64_t st, int64_t n, U* out, Keep keep) {
  for (int64_t i = 0; i < n; ++i) {
    const U b = load<U>(in + i * st);
    if (keep(b)) *out++ = b;
  }
}

// See Note [Stable results from an unstable sort].  o: the sorted line (no NaN inside the
// non-NaN block, so plain bit tests find the runs).
template <class U>
void repair_float_ties(const char* in, int64_t st, int64_t n, U* o, bool desc) {
  using F = FloatBits<U>;
  int64_t lead = 0, trail = 0;
  while (lead < n && F::is_nan(o[lead])) ++lead;
  while (trail < n - lead && F::is_nan(o[n - 1 - trail])) ++trail;
  const int64_t nans = lead + trail;
  // The non-NaN values end up in o[first, first + m).
  const int64_t m = n - nans;
  const int64_t first = desc ? nans : 0;
  if (nans > 0) {
    std::memmove(o + first, o + lead, static_cast<size_t>(m) * sizeof(U));
    copy_matching(in, st, n, o + (desc ? 0 : m), F::is_nan);
  }
  // The zero run: ascending [-0.., +0..] after the negatives; descending [+0.., -0..] after
  // the positives.
  U* v = o + first;
  U* lo = std::partition_point(v, v + m, desc ? F::is_positive_nonzero : F::is_negative_nonzero);
  U* hi = std::partition_point(lo, v + m, F::is_zero);
  if (hi - lo >= 2 && (lo[0] & F::kSign) != (hi[-1] & F::kSign))
    copy_matching(in, st, n, lo, F::is_zero);
}

}  // namespace

// The engine's pool runs the sort's tasks (inside a worker, parallel_for runs serially).
SortRunner engine_sort_runner() {
  SortRunner runner;
  runner.threads = num_threads();
  runner.run = [](int64_t count, const std::function<void(int64_t)>& task) {
    parallel_for(count, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) task(i);
    });
  };
  return runner;
}

template <class T>
void sort_line_vectorized(const char* in, int64_t st, int64_t n, T* out, bool desc, SortIsa isa) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr U kTop = U(1) << (8 * sizeof(U) - 1);
  KeyCodec<U> codec;
  if constexpr (std::is_floating_point_v<T>) codec.float_mask = ~U(0);
  if constexpr (std::is_unsigned_v<T>) codec.xor_const = kTop;
  if (desc) codec.xor_const = static_cast<U>(~codec.xor_const);
  U* o = reinterpret_cast<U*>(out);
  const SortRunner runner = engine_sort_runner();
  if (st == static_cast<int64_t>(sizeof(T))) {
    vector_sort(reinterpret_cast<const U*>(in), n, o, codec, &runner, isa);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = load<U>(in + i * st);
    vector_sort(o, n, o, codec, &runner, isa);
  }
  if constexpr (std::is_floating_point_v<T>) repair_float_ties(in, st, n, o, desc);
}

template void sort_line_vectorized<float>(const char*, int64_t, int64_t, float*, bool,
                                              SortIsa);
template void sort_line_vectorized<double>(const char*, int64_t, int64_t, double*, bool,
                                              SortIsa);
template void sort_line_vectorized<int32_t>(const char*, int64_t, int64_t, int32_t*, bool,
                                              SortIsa);
template void sort_line_vectorized<uint32_t>(const char*, int64_t, int64_t, uint32_t*, bool,
                                              SortIsa);
template void sort_line_vectorized<int64_t>(const char*, int64_t, int64_t, int64_t*, bool,
                                              SortIsa);
template void sort_line_vectorized<uint64_t>(const char*, int64_t, int64_t, uint64_t*, bool,
                                              SortIsa);

}  // namespace arraycore::native
