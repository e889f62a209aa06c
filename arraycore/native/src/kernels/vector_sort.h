// L0: an unstable in-place sort of 32-bit signed integers with AVX2 vector instructions, and
// the stable `sort` of 4-byte values built on it.
//
// `sort` of 4-byte values maps them to signed keys (sort.cpp), sorts the keys here and maps
// them back; see Note [Vectorized quicksort] in vector_sort.cpp.
#pragma once

#include <cstdint>

namespace arraycore::native {

// True when this build has the vector sort (compiled with AVX2); otherwise the callers use the
// radix sort.
bool vector_sort_available();

// The order-preserving map from a 4-byte value's bits to a signed 32-bit key:
//   key = flip_negative(bits) ^ xor_const, flip_negative(x) = x ^ ((x >>arith 31) >>logical 1)
// applied only where float_mask is set (floats: negative values get their magnitude bits
// inverted).  xor_const 0x80000000 turns unsigned into signed order; ~0 reverses the order
// (descending).  It is a bijection, so decoding gives the input bits back.
struct KeyCodec {
  uint32_t float_mask = 0, xor_const = 0;
  uint32_t flip_negative(uint32_t x) const {
    return x ^ ((static_cast<uint32_t>(static_cast<int32_t>(x) >> 31) >> 1) & float_mask);
  }
  uint32_t encode(uint32_t bits) const { return flip_negative(bits) ^ xor_const; }
  uint32_t decode(uint32_t key) const { return flip_negative(key ^ xor_const); }
};

// Sorts the n values src[0, n) by their keys into out[0, n).  out is src (in place) or does
// not overlap it.  Unstable: the
// callers use it where values with equal keys are identical bits, or repair the few runs where
// they are not.
void vector_sort_32(const uint32_t* src, int64_t n, uint32_t* out, const KeyCodec& codec);

// Sorts one line of n 4-byte values (T = float, int32_t or uint32_t, read at byte stride `st`)
// into the contiguous `out`, with the result of a stable sort (sort_values32.cpp).
template <class T>
void sort_line_vectorized(const char* in, int64_t st, int64_t n, T* out, bool desc);

}  // namespace arraycore::native
