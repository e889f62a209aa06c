// L0: the AVX2 primitives the vector quicksort (vector_quicksort.h, which lists what a Lanes
// type provides) is written in, for vectors of 8 int32 keys and of 4 int64 keys.
#pragma once

#include <cstdint>
#include <immintrin.h>

namespace arraycore::native::vsort {

using V = __m256i;

// The permutation for comparison mask m (bit i set: lane i goes right) that puts the
// left-going lanes first and the right-going lanes last, each in lane order, as the 8 int32
// lane indices of vpermd, stored as bytes (widened on load: the table stays small, and its
// 8-byte entries are indexed by the mask without a shift).  LaneWidth: 32-bit lanes per key.
template <int Keys, int LaneWidth>
struct PermutationTable {
  alignas(64) uint8_t idx[1 << Keys][8];
  constexpr PermutationTable() : idx{} {
    for (int m = 0; m < (1 << Keys); ++m) {
      int k = 0;
      for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < Keys; ++i)
          if ((m >> i & 1) == pass)
            for (int w = 0; w < LaneWidth; ++w) idx[m][k++] = static_cast<uint8_t>(i * LaneWidth + w);
    }
  }
};

// What the two key widths share: whole-vector memory access, bit operations, and the
// partition stores built on the permutation tables.  D: Lanes<int32_t> or Lanes<int64_t>.
template <class D>
struct LanesCommon {
  static V load(const void* p) { return _mm256_loadu_si256(static_cast<const V*>(p)); }
  static void store(void* p, V x) { _mm256_storeu_si256(static_cast<V*>(p), x); }
  static V bit_xor(V a, V b) { return _mm256_xor_si256(a, b); }
  static V bit_and(V a, V b) { return _mm256_and_si256(a, b); }
  template <class Key>
  static V load_first(const Key* p, int64_t k, V pad) {
    const V m = D::first(k);
    return _mm256_blendv_epi8(pad, D::maskload(p, m), m);
  }
  template <class Key>
  static void store_first(Key* p, int64_t k, V x) { D::maskstore(p, D::first(k), x); }
  static uint64_t greater_bits(V a, V b) { return D::mask_bits(D::greater(a, b)); }
  // The keys of x with bit m clear first, then the others, each in lane order.
  static V arrange(V x, uint64_t m) {
    return _mm256_permutevar8x32_epi32(
        x, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
               reinterpret_cast<const __m128i*>(D::kPermutations.idx[m]))));
  }
  // One arranged vector, stored whole at both ends (see vector_quicksort.h).
  template <class Key>
  static void put(Key* left, Key* right_end, V x, uint64_t right_bits, int64_t) {
    const V y = arrange(x, right_bits);
    store(left, y);
    store(right_end - D::kCount, y);
  }
  template <class Key>
  static void put_exact(Key* left, Key* right_end, V x, uint64_t right_bits,
                        uint64_t valid_bits) {
    constexpr uint64_t kAll = (uint64_t(1) << D::kCount) - 1;
    // Invalid lanes count as right-going: valid_bits is a prefix, so they come after the
    // valid right-going ones.
    const uint64_t m = right_bits & valid_bits;
    const int64_t nr = __builtin_popcountll(m);
    const int64_t nl = __builtin_popcountll(valid_bits) - nr;
    const V y = arrange(x, m | (~valid_bits & kAll));
    D::maskstore(left, D::first(nl), y);
    // Lanes [nl, nl + nr) of y to right_end[-nr, 0).
    D::maskstore(right_end - nr - nl, _mm256_andnot_si256(D::first(nl), D::first(nl + nr)), y);
  }
};

template <class K> struct Lanes;

template <>
struct Lanes<int32_t> : LanesCommon<Lanes<int32_t>> {
  using Key = int32_t;
  using V = vsort::V;
  static constexpr int kCount = 8;
  static constexpr int kLeafVectors = 16;  // leaves: up to 128 keys in 8 or 16 registers
  static constexpr PermutationTable<8, 1> kPermutations{};

  static V set1(Key k) { return _mm256_set1_epi32(k); }
  static V min(V a, V b) { return _mm256_min_epi32(a, b); }
  static V max(V a, V b) { return _mm256_max_epi32(a, b); }
  static V greater(V a, V b) { return _mm256_cmpgt_epi32(a, b); }
  static uint64_t mask_bits(V m) {
    return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(m)));
  }
  // Lanes [0, k) set.
  static V first(int64_t k) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int32_t>(k)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static V maskload(const Key* p, V m) { return _mm256_maskload_epi32(p, m); }
  static void maskstore(Key* p, V m, V x) { _mm256_maskstore_epi32(p, m, x); }
  static V sign_mask(V x) { return _mm256_srai_epi32(x, 31); }
  static V shift_right_1(V x) { return _mm256_srli_epi32(x, 1); }
  static V reverse(V x) {
    return _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
  }
  // Sorts a vector holding a bitonic sequence: half-cleaners at lane distances 4, 2, 1.
  static V sort_bitonic(V x) {
    V t = _mm256_permute2x128_si256(x, x, 1);
    x = _mm256_blend_epi32(min(x, t), max(x, t), 0xF0);
    t = _mm256_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2));
    x = _mm256_blend_epi32(min(x, t), max(x, t), 0xCC);
    t = _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
    return _mm256_blend_epi32(min(x, t), max(x, t), 0xAA);
  }
  // Transposes the 8x8 block of keys in r[0, 8).
  static void transpose(V* r) {
    V t[8], u[8];
    for (int i = 0; i < 8; i += 2) {
      t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
      t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
      u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
      u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
      u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
      u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int i = 0; i < 4; ++i) {
      r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
      r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
    }
  }
};

template <>
struct Lanes<int64_t> : LanesCommon<Lanes<int64_t>> {
  using Key = int64_t;
  using V = vsort::V;
  static constexpr int kCount = 4;
  static constexpr int kLeafVectors = 16;   // leaves: up to 64 keys in 8 or 16 registers
  static constexpr PermutationTable<4, 2> kPermutations{};

  static V set1(Key k) { return _mm256_set1_epi64x(k); }
  // AVX2 has no 64-bit min/max: compare and blend.  (blendv_pd, not blendv_epi8: GCC
  // rewrites the byte blend of a 64-bit mask with an extra byte compare.)
  static V select(V if_false, V if_true, V mask) {
    return _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(if_false),
                                                _mm256_castsi256_pd(if_true),
                                                _mm256_castsi256_pd(mask)));
  }
  static V min(V a, V b) { return select(a, b, _mm256_cmpgt_epi64(a, b)); }
  static V max(V a, V b) { return select(b, a, _mm256_cmpgt_epi64(a, b)); }
  static V greater(V a, V b) { return _mm256_cmpgt_epi64(a, b); }
  static uint64_t mask_bits(V m) {
    return static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(m)));
  }
  static V first(int64_t k) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(k), _mm256_setr_epi64x(0, 1, 2, 3));
  }
  static V maskload(const Key* p, V m) {
    return _mm256_maskload_epi64(reinterpret_cast<const long long*>(p), m);
  }
  static void maskstore(Key* p, V m, V x) {
    _mm256_maskstore_epi64(reinterpret_cast<long long*>(p), m, x);
  }
  static V sign_mask(V x) { return _mm256_cmpgt_epi64(_mm256_setzero_si256(), x); }
  static V shift_right_1(V x) { return _mm256_srli_epi64(x, 1); }
  static V reverse(V x) { return _mm256_permute4x64_epi64(x, _MM_SHUFFLE(0, 1, 2, 3)); }
  // Half-cleaners at lane distances 2, 1.
  static V sort_bitonic(V x) {
    V t = _mm256_permute4x64_epi64(x, _MM_SHUFFLE(1, 0, 3, 2));
    x = _mm256_blend_epi32(min(x, t), max(x, t), 0xF0);
    t = _mm256_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2));
    return _mm256_blend_epi32(min(x, t), max(x, t), 0xCC);
  }
  // Transposes the 4x4 block of keys in r[0, 4).
  static void transpose(V* r) {
    const V t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    const V t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
    r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
    r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
  }
};

}  // namespace arraycore::native::vsort
