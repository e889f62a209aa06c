// Counter-based random numbers: Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC'11) and the distributions arraycore.random draws with it.
//
// A Philox block is a bijection of a 128-bit counter keyed by a 64-bit key: ten rounds of two
// 32x32->64 multiplies, xors with the key (bumped by Weyl constants each round).  A draw of n
// values from the generator state (key, counter) uses blocks counter, counter + 1, ...; value
// i depends only on (key, counter + i / values_per_block), so a draw split over any number of
// threads gives the same array, and the blocks are computed many at a time in SoA tiles that
// GCC vectorizes (the multiplies are plain uint64 arithmetic).
//
// Words of the stream: a draw in 32-bit words takes word i % 4 of block i / 4; a draw in
// 64-bit words takes the pair (word 2k, word 2k + 1) (low, high) of block i / 2, k = i % 2.
//
// Bounded integers use Lemire's multiply-and-reject ("Fast random integer generation in an
// interval", ACM TOMACS 2019).  A rejected value i is redrawn from the block at counter
// base + i under the key retry_key(key, attempt): a pure function of (key, counter, i), so
// the result stays independent of the thread count.
#pragma once

#include <cstdint>

#include "../ndarray.h"

namespace arraycore::native::random {

inline constexpr uint32_t kPhiloxM0 = 0xD2511F53u;  // round multipliers (Salmon et al.)
inline constexpr uint32_t kPhiloxM1 = 0xCD9E8D57u;
inline constexpr uint32_t kPhiloxW0 = 0x9E3779B9u;  // key schedule: golden ratio
inline constexpr uint32_t kPhiloxW1 = 0xBB67AE85u;  // and sqrt(3) - 1

struct Key {
  uint32_t k0, k1;
};
struct Counter {
  uint64_t lo, hi;  // 128-bit counter: words (c0, c1) = lo, (c2, c3) = hi
};

inline Counter counter_add(Counter c, uint64_t n) {
  const uint64_t lo = c.lo + n;
  return {lo, c.hi + (lo < c.lo ? 1u : 0u)};
}

// One Philox4x32-10 block (scalar; the tiles below are the vectorized form).
inline void philox_block(Key key, Counter ctr, uint32_t out[4]) {
  uint32_t c0 = static_cast<uint32_t>(ctr.lo), c1 = static_cast<uint32_t>(ctr.lo >> 32);
  uint32_t c2 = static_cast<uint32_t>(ctr.hi), c3 = static_cast<uint32_t>(ctr.hi >> 32);
  uint32_t k0 = key.k0, k1 = key.k1;
  for (int r = 0; r < 10; ++r) {
    const uint64_t p0 = static_cast<uint64_t>(kPhiloxM0) * c0;
    const uint64_t p1 = static_cast<uint64_t>(kPhiloxM1) * c2;
    const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c0 = n0;
    c1 = static_cast<uint32_t>(p1);
    c2 = n2;
    c3 = static_cast<uint32_t>(p0);
    k0 += kPhiloxW0;
    k1 += kPhiloxW1;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

// The key a rejected bounded draw retries under (attempt >= 1).
inline Key retry_key(Key key, uint32_t attempt) {
  return {key.k0 ^ 0x5851F42Du, key.k1 + attempt * 0x2545F491u};
}

// Blocks per tile: 4 * kTileBlocks 32-bit words, computed together.
inline constexpr int kTileBlocks = 64;
inline constexpr int kTileWords = 4 * kTileBlocks;

// words[4 b + j] = word j of block `base + b`, b < kTileBlocks (the stream order).
void philox_tile(Key key, Counter base, uint32_t* words);

// --- Draws.  Each fills a fresh C-contiguous array of `shape` and returns through `blocks`
// the number of blocks it used (the generator advances its counter by that). ---------------

// Uniform on [low, high): low + (high - low) * u, u with 24 (float32) or 53 (float64) random
// mantissa bits.  (low, high) = (0, 1) returns u itself, so [0, 1) exactly.
NdArray uniform(const Shape& shape, DType dtype, Key key, Counter ctr, double low, double high,
                uint64_t* blocks);
// Normal(loc, scale) by Box-Muller on pairs of uniforms.
NdArray normal(const Shape& shape, DType dtype, Key key, Counter ctr, double loc, double scale,
               uint64_t* blocks);
// low + U{0, ..., range - 1} in any integer dtype (range 0 means 2^64), values computed modulo
// 2^64 and cast (low given by its two's complement bits).
NdArray integers(const Shape& shape, DType dtype, Key key, Counter ctr, uint64_t low,
                 uint64_t range, uint64_t* blocks);
// The same with per-element bounds: element j uses low[j % m], range[j % m] (64-bit words).
NdArray integers_varying(const Shape& shape, DType dtype, Key key, Counter ctr,
                         const uint64_t* low, const uint64_t* range, int64_t m,
                         uint64_t* blocks);
// 1 with probability p (to 2^-32), else 0, in any real dtype or bool.
NdArray bernoulli(const Shape& shape, DType dtype, Key key, Counter ctr, double p,
                  uint64_t* blocks);
// A uniformly random permutation of 0..n-1 (int64), by Fisher-Yates.
NdArray permutation(int64_t n, Key key, Counter ctr, uint64_t* blocks);
// k distinct values of 0..n-1 (int64), uniformly: partial Fisher-Yates, or Floyd's algorithm
// when k is small against n; `shuffle` makes their order uniformly random too.
NdArray choice_without_replacement(int64_t n, int64_t k, bool shuffle, Key key, Counter ctr,
                                   uint64_t* blocks);

// A uniform value in [0, range) from a stream word (Lemire), element `index` of the draw at
// `ctr` (its redraws when rejected); range >= 1.
uint64_t bounded_from_word32(Key key, Counter ctr, int64_t index, uint32_t word, uint32_t range);
uint64_t bounded_from_word64(Key key, Counter ctr, int64_t index, uint64_t word, uint64_t range);

// Writes the 32-bit words of a draw of n words into out (the stream as defined above).
void bits32(Key key, Counter ctr, int64_t n, uint32_t* out);

}  // namespace arraycore::native::random
