// Permutations and sampling without replacement on the Philox stream.  The sequential
// algorithms (Fisher-Yates; Floyd's "Programming pearls: a sample of brilliance", CACM 1987)
// take their random words from one draw generated in parallel first; step i uses word i,
// bounded by Lemire's method (random_uniform.cpp).
#include <unordered_set>
#include <vector>

#include "../errors.h"
#include "random_philox.h"
#include "random_tiles.h"

namespace arraycore::native::random {

namespace {

// The random words of a draw of n values: 32-bit words while every bound fits in 32 bits,
// 64-bit words beyond (2^32 elements and more).
struct Words {
  std::vector<uint32_t> w32;
  std::vector<uint64_t> w64;
  Key key;
  Counter ctr;
  bool wide;

  Words(Key k, Counter c, int64_t n, uint64_t max_bound) : key(k), ctr(c) {
    wide = max_bound > (uint64_t{1} << 32);
    if (wide) {
      w64.resize(static_cast<size_t>(n));
      for_each_tile<uint64_t>(key, ctr, n, 2, w64.data(),
                              [](const uint32_t* w, int64_t, uint64_t* o) {
        for (int i = 0; i < kTileWords / 2; ++i) o[i] = word64(w, i);
      });
    } else {
      w32.resize(static_cast<size_t>(n));
      bits32(key, ctr, n, w32.data());
    }
  }
  uint64_t blocks(int64_t n) const { return blocks_for(n, wide ? 2 : 4); }
  // A uniform value in [0, bound) from word i (bound >= 1).
  uint64_t bounded(int64_t i, uint64_t bound) const {
    if (wide) return bounded_from_word64(key, ctr, i, w64[i], bound);
    if (bound == (uint64_t{1} << 32)) return w32[i];
    return bounded_from_word32(key, ctr, i, w32[i], static_cast<uint32_t>(bound));
  }
};

void fisher_yates(int64_t* a, int64_t n, const Words& words, int64_t word_offset) {
  for (int64_t i = n - 1; i > 0; --i) {
    const int64_t j = static_cast<int64_t>(words.bounded(word_offset + i,
                                                         static_cast<uint64_t>(i) + 1));
    std::swap(a[i], a[j]);
  }
}

}  // namespace

NdArray permutation(int64_t n, Key key, Counter ctr, uint64_t* blocks) {
  if (n < 0) throw ValueError("permutation: n must be non-negative");
  NdArray out = empty(Shape{n}, DType::Int64);
  int64_t* a = reinterpret_cast<int64_t*>(out.data());
  for (int64_t i = 0; i < n; ++i) a[i] = i;
  const Words words(key, ctr, n, static_cast<uint64_t>(n));
  fisher_yates(a, n, words, 0);
  *blocks = words.blocks(n);
  return out;
}

NdArray choice_without_replacement(int64_t n, int64_t k, bool shuffle, Key key, Counter ctr,
                                   uint64_t* blocks) {
  if (n < 0 || k < 0 || k > n)
    throw ValueError("choice: cannot take a larger sample than the population when "
                     "replace=False");
  NdArray out = empty(Shape{k}, DType::Int64);
  int64_t* res = reinterpret_cast<int64_t*>(out.data());
  if (k * 50 < n) {
    // Floyd's algorithm: k steps and a set of k values, whatever n; then a shuffle, since
    // Floyd's order is not uniformly random.
    const Words words(key, ctr, 2 * k, static_cast<uint64_t>(n));
    std::unordered_set<int64_t> taken;
    taken.reserve(static_cast<size_t>(2 * k));
    for (int64_t t = 0; t < k; ++t) {
      const int64_t j = n - k + t;
      const int64_t v = static_cast<int64_t>(words.bounded(t, static_cast<uint64_t>(j) + 1));
      const int64_t pick = taken.insert(v).second ? v : j;
      if (pick == j) taken.insert(j);
      res[t] = pick;
    }
    if (shuffle) fisher_yates(res, k, words, k);
    *blocks = words.blocks(2 * k);
    return out;
  }
  // Partial Fisher-Yates: the first k steps of a shuffle of 0..n-1 (uniform in order too).
  std::vector<int64_t> a(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) a[i] = i;
  const Words words(key, ctr, k, static_cast<uint64_t>(n));
  for (int64_t s = 0; s < k; ++s) {
    const int64_t j = s + static_cast<int64_t>(words.bounded(s, static_cast<uint64_t>(n - s)));
    std::swap(a[s], a[j]);
    res[s] = a[s];
  }
  *blocks = words.blocks(k);
  return out;
}

}  // namespace arraycore::native::random
