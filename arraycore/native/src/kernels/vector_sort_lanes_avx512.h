// L0: the AVX-512 primitives the vector quicksort (vector_quicksort.h, which lists what a Lanes
// type provides) is written in, for vectors of 16 int32 keys and of 8 int64 keys.
//
// Written over an intrinsics table X rather than the intrinsics themselves: X is either
// Avx512Intrinsics (vector_sort_avx512_intrinsics.h: each function is the _mm512_ intrinsic
// of the same name, built where __AVX512F__ is defined) or EmulatedAvx512Intrinsics
// (vector_sort_avx512_emulated.h: the same functions lane by lane in portable C++), so that
// this code, lane indices and shuffle immediates included, is tested on machines without
// AVX-512 too.  Only AVX512F instructions are used.
//
// Partition stores: a 16-lane permutation table would have 65536 entries, so the two sides
// are separated by compressing (vpcompressd/q) the lanes of each side to the front of a
// vector.  The left side is compressed into a register and stored whole at the left write
// position (the garbage lanes fall into free space); the right side is compressed straight
// to memory, ending at the right write position, where that is fast (Intel), else into a
// register and written with a masked store (X::kCompressStore).
//
// Leaves: the sorting network works on square blocks of 16 x 16 int32 keys (8 x 8 int64), so
// int32 leaves of at most 128 keys use the AVX2 leaves (SmallLeafLanes) instead of padding.
#pragma once

#include <cstdint>

#include "vector_sort_lanes.h"

namespace arraycore::native::vsort {

// _MM_SHUFFLE without <immintrin.h>: the 2-bit source index of each of 4 destination slots.
constexpr int shuffle_imm(int d, int c, int b, int a) { return (d << 6) | (c << 4) | (b << 2) | a; }

// The permutex2var indices of one transpose stage at lane distance B for lane count C: row i
// and row i + B exchange their off-diagonal B x B blocks (lo: the new row i; hi: the new row
// i + B; an index >= C selects from row i + B).  Applying the stages for every power of two
// B < C exchanges each bit of the row index with the same bit of the lane index: the
// transpose.
template <class Key, int C>
struct TransposeIndices {
  alignas(64) Key lo[C], hi[C];
  constexpr explicit TransposeIndices(int b) : lo{}, hi{} {
    for (int j = 0; j < C; ++j) {
      lo[j] = static_cast<Key>((j & b) == 0 ? j : C + j - b);
      hi[j] = static_cast<Key>((j & b) == 0 ? j + b : C + j);
    }
  }
};

template <class Key, int C>
struct ReverseIndices {
  alignas(64) Key idx[C];
  constexpr ReverseIndices() : idx{} {
    for (int j = 0; j < C; ++j) idx[j] = static_cast<Key>(C - 1 - j);
  }
};

template <class X, class K> struct Lanes512;

template <class X>
struct Lanes512<X, int32_t> {
  using Key = int32_t;
  using V = typename X::V;
  static constexpr int kCount = 16;
  static constexpr int kLeafVectors = 16;  // leaves: up to 256 keys in 16 registers
  using SmallLeafLanes = Lanes<int32_t>;   // leaves up to 128 keys: the AVX2 networks

  static uint16_t first_bits(int64_t k) { return static_cast<uint16_t>((1u << k) - 1); }
  static V set1(Key k) { return X::set1_epi32(k); }
  static V load(const Key* p) { return X::loadu_si512(p); }
  static void store(Key* p, V x) { X::storeu_si512(p, x); }
  static V load_first(const Key* p, int64_t k, V pad) {
    return X::mask_loadu_epi32(pad, first_bits(k), p);
  }
  static void store_first(Key* p, int64_t k, V x) { X::mask_storeu_epi32(p, first_bits(k), x); }
  static V min(V a, V b) { return X::min_epi32(a, b); }
  static V max(V a, V b) { return X::max_epi32(a, b); }
  static uint64_t greater_bits(V a, V b) { return X::cmpgt_epi32_mask(a, b); }
  static V bit_xor(V a, V b) { return X::xor_si512(a, b); }
  static V bit_and(V a, V b) { return X::and_si512(a, b); }
  static V sign_mask(V x) { return X::template srai_epi32<31>(x); }
  static V shift_right_1(V x) { return X::template srli_epi32<1>(x); }
  static V reverse(V x) {
    static constexpr ReverseIndices<Key, kCount> kIdx{};
    return X::permutexvar_epi32(X::loadu_si512(kIdx.idx), x);
  }
  // lo in the lanes of hi_bits clear, max(x, t) in the others.
  static V min_max(V x, V t, uint16_t hi_bits) {
    return X::mask_max_epi32(X::min_epi32(x, t), hi_bits, x, t);
  }
  // Sorts a vector holding a bitonic sequence: half-cleaners at lane distances 8, 4, 2, 1
  // (the partner lane j ^ d comes from a swap of 256-bit halves, of 128-bit quarters, or of
  // keys inside each 128-bit quarter).
  static V sort_bitonic(V x) {
    x = min_max(x, X::template shuffle_i32x4<shuffle_imm(1, 0, 3, 2)>(x, x), 0xFF00);
    x = min_max(x, X::template shuffle_i32x4<shuffle_imm(2, 3, 0, 1)>(x, x), 0xF0F0);
    x = min_max(x, X::template shuffle_epi32<shuffle_imm(1, 0, 3, 2)>(x), 0xCCCC);
    return min_max(x, X::template shuffle_epi32<shuffle_imm(2, 3, 0, 1)>(x), 0xAAAA);
  }
  template <int B>
  static void transpose_stage(V* r) {
    static constexpr TransposeIndices<Key, kCount> kIdx(B);
    const V lo = X::loadu_si512(kIdx.lo), hi = X::loadu_si512(kIdx.hi);
#pragma GCC unroll 16
    for (int i = 0; i < kCount; ++i) {
      if (i & B) continue;
      const V a = r[i], b = r[i + B];
      r[i] = X::permutex2var_epi32(a, lo, b);
      r[i + B] = X::permutex2var_epi32(a, hi, b);
    }
  }
  // Transposes the 16 x 16 block of keys in r[0, 16).
  static void transpose(V* r) {
    transpose_stage<8>(r);
    transpose_stage<4>(r);
    transpose_stage<2>(r);
    transpose_stage<1>(r);
  }
  static void put(Key* left, Key* right_end, V x, uint64_t right_bits, int64_t nr) {
    X::storeu_si512(left, X::maskz_compress_epi32(static_cast<uint16_t>(~right_bits), x));
    if constexpr (X::kCompressStore)
      X::mask_compressstoreu_epi32(right_end - nr, static_cast<uint16_t>(right_bits), x);
    else
      X::mask_storeu_epi32(right_end - nr, first_bits(nr),
                           X::maskz_compress_epi32(static_cast<uint16_t>(right_bits), x));
  }
  static void put_exact(Key* left, Key* right_end, V x, uint64_t right_bits,
                        uint64_t valid_bits) {
    const uint16_t lm = static_cast<uint16_t>(valid_bits & ~right_bits);
    const uint16_t rm = static_cast<uint16_t>(valid_bits & right_bits);
    const int64_t nl = __builtin_popcount(lm), nr = __builtin_popcount(rm);
    X::mask_storeu_epi32(left, first_bits(nl), X::maskz_compress_epi32(lm, x));
    X::mask_storeu_epi32(right_end - nr, first_bits(nr), X::maskz_compress_epi32(rm, x));
  }
};

template <class X>
struct Lanes512<X, int64_t> {
  using Key = int64_t;
  using V = typename X::V;
  static constexpr int kCount = 8;
  static constexpr int kLeafVectors = 16;  // leaves: up to 128 keys in 8 or 16 registers

  static uint8_t first_bits(int64_t k) { return static_cast<uint8_t>((1u << k) - 1); }
  static V set1(Key k) { return X::set1_epi64(k); }
  static V load(const Key* p) { return X::loadu_si512(p); }
  static void store(Key* p, V x) { X::storeu_si512(p, x); }
  static V load_first(const Key* p, int64_t k, V pad) {
    return X::mask_loadu_epi64(pad, first_bits(k), p);
  }
  static void store_first(Key* p, int64_t k, V x) { X::mask_storeu_epi64(p, first_bits(k), x); }
  static V min(V a, V b) { return X::min_epi64(a, b); }
  static V max(V a, V b) { return X::max_epi64(a, b); }
  static uint64_t greater_bits(V a, V b) { return X::cmpgt_epi64_mask(a, b); }
  static V bit_xor(V a, V b) { return X::xor_si512(a, b); }
  static V bit_and(V a, V b) { return X::and_si512(a, b); }
  static V sign_mask(V x) { return X::template srai_epi64<63>(x); }
  static V shift_right_1(V x) { return X::template srli_epi64<1>(x); }
  static V reverse(V x) {
    static constexpr ReverseIndices<Key, kCount> kIdx{};
    return X::permutexvar_epi64(X::loadu_si512(kIdx.idx), x);
  }
  static V min_max(V x, V t, uint8_t hi_bits) {
    return X::mask_max_epi64(X::min_epi64(x, t), hi_bits, x, t);
  }
  // Half-cleaners at lane distances 4, 2, 1 (swaps of 256-bit halves, of 128-bit quarters, of
  // the two keys inside each quarter).
  static V sort_bitonic(V x) {
    x = min_max(x, X::template shuffle_i64x2<shuffle_imm(1, 0, 3, 2)>(x, x), 0xF0);
    x = min_max(x, X::template shuffle_i64x2<shuffle_imm(2, 3, 0, 1)>(x, x), 0xCC);
    return min_max(x, X::template shuffle_epi32<shuffle_imm(1, 0, 3, 2)>(x), 0xAA);
  }
  template <int B>
  static void transpose_stage(V* r) {
    static constexpr TransposeIndices<Key, kCount> kIdx(B);
    const V lo = X::loadu_si512(kIdx.lo), hi = X::loadu_si512(kIdx.hi);
#pragma GCC unroll 8
    for (int i = 0; i < kCount; ++i) {
      if (i & B) continue;
      const V a = r[i], b = r[i + B];
      r[i] = X::permutex2var_epi64(a, lo, b);
      r[i + B] = X::permutex2var_epi64(a, hi, b);
    }
  }
  // Transposes the 8 x 8 block of keys in r[0, 8).
  static void transpose(V* r) {
    transpose_stage<4>(r);
    transpose_stage<2>(r);
    transpose_stage<1>(r);
  }
  static void put(Key* left, Key* right_end, V x, uint64_t right_bits, int64_t nr) {
    X::storeu_si512(left, X::maskz_compress_epi64(static_cast<uint8_t>(~right_bits), x));
    if constexpr (X::kCompressStore)
      X::mask_compressstoreu_epi64(right_end - nr, static_cast<uint8_t>(right_bits), x);
    else
      X::mask_storeu_epi64(right_end - nr, first_bits(nr),
                           X::maskz_compress_epi64(static_cast<uint8_t>(right_bits), x));
  }
  static void put_exact(Key* left, Key* right_end, V x, uint64_t right_bits,
                        uint64_t valid_bits) {
    const uint8_t lm = static_cast<uint8_t>(valid_bits & ~right_bits);
    const uint8_t rm = static_cast<uint8_t>(valid_bits & right_bits);
    const int64_t nl = __builtin_popcount(lm), nr = __builtin_popcount(rm);
    X::mask_storeu_epi64(left, first_bits(nl), X::maskz_compress_epi64(lm, x));
    X::mask_storeu_epi64(right_end - nr, first_bits(nr), X::maskz_compress_epi64(rm, x));
  }
};

}  // namespace arraycore::native::vsort
