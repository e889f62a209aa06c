// Philox4x32-10 tiles (random_philox.h) and the raw 32-bit word stream.
#include "random_philox.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "random_tiles.h"

namespace arraycore::native::random {

namespace {

void philox_tile_scalar(Key key, Counter base, uint32_t* words) {
  for (int b = 0; b < kTileBlocks; ++b) philox_block(key, counter_add(base, b), words + 4 * b);
}

#if defined(__AVX2__)
// Sixteen blocks at a time, four per register in 64-bit lanes: the counter words sit in the
// low halves, so one vpmuludq is the 32x32->64 multiply of a round.  (GCC does not find
// vpmuludq in plain `(x & 0xffffffff) * M` over uint64 lanes: it emits the three-multiply
// 64-bit product; with uint32 lanes it shuffles between widths every round.  Measured 2.5x
// slower than this.)  The high halves collect garbage that vpmuludq ignores and the final
// pack drops.
void philox_tile_avx2(Key key, Counter base, uint32_t* words) {
  const __m256i m0 = _mm256_set1_epi64x(kPhiloxM0);
  const __m256i m1 = _mm256_set1_epi64x(kPhiloxM1);
  const __m256i hi = _mm256_set1_epi64x(static_cast<long long>(base.hi));
  const __m256i hi_shift = _mm256_srli_epi64(hi, 32);
  const __m256i low_mask = _mm256_set1_epi64x(0xffffffffll);
  constexpr int kGroup = 16, kVecs = kGroup / 4;
  for (int g = 0; g < kTileBlocks; g += kGroup) {
    __m256i c0[kVecs], c1[kVecs], c2[kVecs], c3[kVecs];
    for (int v = 0; v < kVecs; ++v) {
      const long long b = g + 4 * v;
      const __m256i lo = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(base.lo)),
                                          _mm256_setr_epi64x(b, b + 1, b + 2, b + 3));
      c0[v] = lo;
      c1[v] = _mm256_srli_epi64(lo, 32);
      c2[v] = hi;
      c3[v] = hi_shift;
    }
    uint32_t k0 = key.k0, k1 = key.k1;
    for (int r = 0; r < 10; ++r) {
      const __m256i kk0 = _mm256_set1_epi64x(k0), kk1 = _mm256_set1_epi64x(k1);
      for (int v = 0; v < kVecs; ++v) {
        const __m256i p0 = _mm256_mul_epu32(c0[v], m0);
        const __m256i p1 = _mm256_mul_epu32(c2[v], m1);
        c0[v] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), c1[v]), kk0);
        c2[v] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), c3[v]), kk1);
        c1[v] = p1;
        c3[v] = p0;
      }
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    // Pack to the stream order: (w0 | w1 << 32) and (w2 | w3 << 32) per block, then
    // interleave the blocks.
    for (int v = 0; v < kVecs; ++v) {
      const __m256i a = _mm256_or_si256(_mm256_and_si256(c0[v], low_mask),
                                        _mm256_slli_epi64(c1[v], 32));
      const __m256i b = _mm256_or_si256(_mm256_and_si256(c2[v], low_mask),
                                        _mm256_slli_epi64(c3[v], 32));
      const __m256i even = _mm256_unpacklo_epi64(a, b);  // blocks 0, 2
      const __m256i odd = _mm256_unpackhi_epi64(a, b);   // blocks 1, 3
      uint32_t* dst = words + 4 * (g + 4 * v);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst),
                          _mm256_permute2x128_si256(even, odd, 0x20));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 8),
                          _mm256_permute2x128_si256(even, odd, 0x31));
    }
  }
}
#endif

}  // namespace

void philox_tile(Key key, Counter base, uint32_t* words) {
#if defined(__AVX2__)
  // The vector path adds block offsets to the low counter word only: tiles whose counters
  // carry into the high word (once per 2^58 tiles) take the scalar path.
  if (base.lo <= ~uint64_t{0} - (kTileBlocks - 1)) {
    philox_tile_avx2(key, base, words);
    return;
  }
#endif
  philox_tile_scalar(key, base, words);
}

void bits32(Key key, Counter ctr, int64_t n, uint32_t* out) {
  for_each_tile<uint32_t>(key, ctr, n, 4, out, [](const uint32_t* w, int64_t, uint32_t* o) {
    std::memcpy(o, w, sizeof(uint32_t) * kTileWords);
  });
}

}  // namespace arraycore::native::random
