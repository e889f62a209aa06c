// L0: an unstable vector sort of 32- and 64-bit keys (AVX2 or AVX-512), and the stable `sort`
// of 4- and 8-byte values built on it.
//
// See Note [Vectorized quicksort] in vector_quicksort.h and Note [Sort ISA] below.
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

namespace arraycore::native {

// Note [Sort ISA]
// The vector sort has one implementation per instruction set, each compiled only where the
// build machine has it (-march=native defines the macros):
//   kAvx512: 16 x 32-bit / 8 x 64-bit lanes, compress-based partitions (__AVX512F__);
//   kAvx2:   8 x 32-bit / 4 x 64-bit lanes, permutation-table partitions (__AVX2__);
//   kScalar: no vector sort: the callers use the radix sort and std::stable_sort.
// A call uses the widest one built, unless the environment variable ARRAYCORE_SORT_ISA (read
// on every sort/argsort call, so tests can switch it) names a narrower one: "avx2" or "scalar"
// ("native" or unset: the widest).  "avx512-emulated" runs the AVX-512 algorithm with every
// AVX-512 intrinsic it uses emulated lane by lane in portable C++ (built wherever AVX2 is): it
// is slow and exists so that machines without AVX-512 test that path's code.
enum class SortIsa { kScalar, kAvx2, kAvx512, kAvx512Emulated };

// Whether this build has the vector sort for isa (kScalar: always).
bool sort_isa_built(SortIsa isa);
// The widest vector sort this build has (kScalar when none).
SortIsa widest_sort_isa();

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
// isa: a vector ISA this build has (sort_isa_built); throws std::logic_error otherwise.
template <class U>
void vector_sort(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                 const SortRunner* runner = nullptr, SortIsa isa = widest_sort_isa());

// The per-ISA entry points vector_sort dispatches to (vector_sort.cpp,
// vector_sort_avx512.cpp, vector_sort_avx512_emulated.cpp).
template <class U>
void vector_sort_avx2(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                      const SortRunner* runner);
template <class U>
void vector_sort_avx512(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                        const SortRunner* runner);
template <class U>
void vector_sort_avx512_emulated(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                                 const SortRunner* runner);

// Sorts one line of n values (T = float, double, or a 4- or 8-byte integer; read at byte
// stride `st`) into the contiguous `out`, with the result of a stable sort
// (sort_values_vectorized.cpp).  isa: a vector ISA this build has.
template <class T>
void sort_line_vectorized(const char* in, int64_t st, int64_t n, T* out, bool desc, SortIsa isa);

}  // namespace arraycore::native
