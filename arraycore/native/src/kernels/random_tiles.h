// The driver every Philox draw runs on (private to the random_*.cpp kernels): the draw's
// elements are cut into tiles of kTileBlocks blocks, tiles are spread over the thread pool,
// and a distribution's `emit` turns one tile of stream words into output elements.  Tiles
// start at fixed element offsets, so the result does not depend on how tiles are grouped
// into threads' chunks.
#pragma once

#include <algorithm>
#include <cstring>

#include "../thread_pool.h"
#include "random_philox.h"

namespace arraycore::native::random {

// Elements per parallel chunk at least (below this the draw runs on the calling thread).
inline constexpr int64_t kRandomGrainElements = 1 << 15;

// emit(const uint32_t* words, int64_t first, T* out) writes the kTileBlocks * per_block
// elements of the tile that starts at element `first` of the draw; `words` are that tile's
// stream words.  The last, partial tile is emitted into a scratch buffer and copied.
template <class T, class Emit>
void for_each_tile(Key key, Counter ctr, int64_t n, int per_block, T* out, Emit&& emit) {
  if (n <= 0) return;
  const int64_t tile_elems = static_cast<int64_t>(kTileBlocks) * per_block;
  const int64_t ntiles = (n + tile_elems - 1) / tile_elems;
  const int64_t grain = std::max<int64_t>(1, kRandomGrainElements / tile_elems);
  parallel_for(ntiles, grain, [&](int64_t t0, int64_t t1) {
    alignas(64) uint32_t words[kTileWords];
    alignas(64) T scratch[kTileWords];  // tile_elems <= kTileWords
    for (int64_t t = t0; t < t1; ++t) {
      philox_tile(key, counter_add(ctr, static_cast<uint64_t>(t) * kTileBlocks), words);
      const int64_t first = t * tile_elems;
      const int64_t count = std::min(tile_elems, n - first);
      if (count == tile_elems) {
        emit(static_cast<const uint32_t*>(words), first, out + first);
      } else {
        emit(static_cast<const uint32_t*>(words), first, static_cast<T*>(scratch));
        std::memcpy(out + first, scratch, static_cast<size_t>(count) * sizeof(T));
      }
    }
  });
}

inline uint64_t blocks_for(int64_t n, int per_block) {
  return n <= 0 ? 0 : static_cast<uint64_t>((n + per_block - 1) / per_block);
}

// 64-bit word k of a tile (words 2k, 2k + 1: low, high).
inline uint64_t word64(const uint32_t* words, int64_t k) {
  return static_cast<uint64_t>(words[2 * k]) | (static_cast<uint64_t>(words[2 * k + 1]) << 32);
}

// Exact conversions that vectorize on AVX2 (which has no int64 -> double instruction):
// k * 2^-52 for k < 2^52 through the exponent bits of 1.0.
inline double unit52(uint64_t k) {
  double d;
  const uint64_t bits = 0x3FF0000000000000ull | k;
  std::memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}
// The 53-bit uniform of a 64-bit word: (w >> 11) * 2^-53 in [0, 1).
inline double uniform53(uint64_t w) {
  return unit52(w >> 12) + static_cast<double>(static_cast<int32_t>((w >> 11) & 1u)) * 0x1p-53;
}
// The 24-bit uniform of a 32-bit word: (w >> 8) * 2^-24 in [0, 1).
inline float uniform24(uint32_t w) {
  return static_cast<float>(static_cast<int32_t>(w >> 8)) * 0x1p-24f;
}

}  // namespace arraycore::native::random
