// L0: an unstable AVX2 sort of 32- and 64-bit keys, and the stable `sort` of 4- and 8-byte
// values built on it.
//
// See Note [Vectorized quicksort] in vector_sort.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

namespace arraycore::native {

// True when this build has the vector sort (compiled with AVX2); otherwise the callers use the
// radix sort.
bool vector_sort_available();

// The order-preserving map from a value's bits (U = uint32_t or uint64_t) to a signed key:
//   key = flip_negative(bits) ^ xor_const, flip_negative(x) = x ^ ((x >>arith 63|31) >>logical 1)
// applied only where float_mask is set (floats: negative values get their magnitude bits
// inverted).  xor_const with the top bit turns unsigned into signed order; ~0 reverses the
// order (descending).  It is a bijection, so decoding gives the input bits back.
template <class U>
struct KeyCodec {
  U float_mask = 0, xor_const = 0;
  static constexpr int kTop = 8 * sizeof(U) - 1;
  U flip_negative(U x) const {
    using S = std::make_signed_t<U>;
    return x ^ ((static_cast<U>(static_cast<S>(x) >> kTop) >> 1) & float_mask);
  }
  U encode(U bits) const { return flip_negative(bits) ^ xor_const; }
  U decode(U key) const { return flip_negative(key ^ xor_const); }
};

// How the sort runs tasks in parallel (the kernel itself knows no thread pool): run(count,
// task) calls task(0) ... task(count - 1), spread over `threads` workers, and returns when all
// are done.  Tests pass a serial runner that claims several workers.
struct SortRunner {
  int threads = 1;
  std::function<void(int64_t, const std::function<void(int64_t)>&)> run;
};

// A SortRunner on the engine's thread pool (sort_values_vectorized.cpp).
SortRunner engine_sort_runner();

// Sorts the n values src[0, n) by their keys into out[0, n).  out is src (in place) or does
// not overlap it.  Unstable: the callers use it where values with equal keys are identical
// bits, or repair the few runs where they are not.  runner: nullptr sorts on this thread.
template <class U>
void vector_sort(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                 const SortRunner* runner = nullptr);

// Sorts one line of n values (T = float, double, or a 4- or 8-byte integer; read at byte
// stride `st`) into the contiguous `out`, with the result of a stable sort
// (sort_values_vectorized.cpp).
template <class T>
void sort_line_vectorized(const char* in, int64_t st, int64_t n, T* out, bool desc);

}  // namespace arraycore::native
