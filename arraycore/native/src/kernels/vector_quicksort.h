// L0: the vector quicksort of 32- and 64-bit keys, generic over the instruction set: every
// function here is a template over a Lanes type (vector_sort_lanes.h for AVX2,
// vector_sort_lanes_avx512.h for AVX-512) that supplies the vector type and its primitives.
// Included by the file of each instruction set (vector_sort.cpp, vector_sort_avx512.cpp,
// vector_sort_avx512_emulated.cpp), which instantiate it for their Lanes.
//
// Note [Vectorized quicksort]
// A radix sort moves every element to one of 256 places per pass; on the machines we measure
// (virtualised, 4 KiB pages) those scattered writes cost ~2-3 ns per element and pass, which
// put a 1e6-element float32 sort at 1.8x NumPy's.  NumPy itself sorts 4-byte values with a
// vectorized quicksort (x86-simd-sort), whose passes stream through memory.  This file is our
// own implementation of the same family of algorithms (Gueron & Krasnov, "Fast quicksort
// implementation using AVX instructions", 2016; Bramas, "A novel hybrid quicksort algorithm
// vectorized using AVX-512 on Intel Skylake", 2017):
//
// * Partition: a vector of keys (AVX2: 8 of 32 bits, 4 of 64; AVX-512: 16 and 8) is compared
//   with the pivot, and the keys staying left are written at the left write position, the keys
//   going right before the right one, each of which then advances by its count (how, is the
//   Lanes type's business: AVX2 moves them with a permutation from a table indexed by the
//   mask and stores the whole vector at both ends; AVX-512 compresses each side, see
//   vector_sort_lanes_avx512.h).  The partition is in place: it first holds kUnroll vectors
//   from each end in registers, which frees room to write, and then reads from whichever end
//   has less room left, so a write never lands on unread keys.  Reading kUnroll vectors per
//   choice of end amortises the choice; the loop is then bound by instruction throughput
//   (about 11 instructions per vector with AVX2, 17 with AVX-512).
// * Leaves of at most 16 vectors (AVX2: 128 32-bit keys, 64 64-bit keys; AVX-512: 256 and 128)
//   are sorted in 8 or 16 registers (AVX-512 32-bit: 16, smaller leaves use the AVX2 ones):
//   Batcher's odd-even merge network sorts the lanes across the vectors (19 or 63
//   comparators), square transposes turn the sorted columns into sorted runs of vectors, and
//   bitonic merges join the runs.  Padding is the largest key.
// * Pivot: Tukey's ninther of 9 keys spread over the range.  A partition that sends nothing right
//   means the pivot is the maximum; the range is then split into (< pivot, == pivot) instead,
//   which finishes all keys equal to the maximum at once, so runs of equal keys cost one pass.
// * Depth limit: after 2 log2(n) levels (adversarial input) the range goes to std::sort.
// * Threads: given a SortRunner with several workers, the top levels partition their ranges in
//   parallel until there are ~4 ranges per worker, which are then sorted as whole tasks,
//   assigned largest first to the least loaded worker (vector_sort.h).
// * Keys: the callers' values are mapped to signed keys by a KeyCodec (vector_sort.h); the
//   first partition encodes as it reads, and leaves decode as they store, so the mapping
//   costs no pass of its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "vector_sort.h"

namespace arraycore::native::vsort {
// Internal linkage, one copy per including file: GCC then inlines the register-resident
// network and merge steps (sort_vectors and the like) into their single callers, which it
// does not do for functions that other files could share.
namespace {

// What a Lanes type L provides (K = L::Key, int32_t or int64_t; V = L::V, a vector of
// L::kCount keys; "bits": bit i for lane i):
//   set1(K), load(const K*), store(K*, V)
//   load_first(p, k, pad): lanes [0, k) from p[0, k), the others from pad (reads nothing else)
//   store_first(p, k, x): writes lanes [0, k) to p[0, k) only
//   min, max, reverse (lane order), sort_bitonic (one vector holding a bitonic sequence)
//   transpose(V* r): the kCount x kCount block of keys in r[0, kCount)
//   greater_bits(a, b): bits of a > b (signed)
//   bit_xor, bit_and, sign_mask (all ones where negative), shift_right_1 (logical)
//   put(left, right_end, x, right_bits, nr): the keys of x whose bit is clear to left[0, ..),
//     the nr others to right_end[-nr, 0); may also write garbage to the rest of
//     left[0, kCount) and right_end[-kCount, 0)
//   put_exact(left, right_end, x, right_bits, valid_bits): the same for the lanes of the
//     prefix mask valid_bits, writing nothing else
//   kLeafVectors: leaf size in vectors (the sorting network's width)
//   optionally SmallLeafLanes: a Lanes type whose leaves sort short leaves instead

constexpr int kUnroll = 8;  // vectors read per partition step

template <class L, class V = typename L::V>
inline void compare_exchange(V& a, V& b) {
  const V lo = L::min(a, b);
  b = L::max(a, b);
  a = lo;
}

// r[0, N) holds a bitonic sequence (vector i = keys i*lanes ...): sort it ascending.
// (The loops over registers are unrolled fully so that r stays in registers.)
template <class L, int N, class V = typename L::V>
inline void sort_bitonic_vectors(V* r) {
#pragma GCC unroll 8
  for (int d = N / 2; d >= 1; d /= 2)
#pragma GCC unroll 32
    for (int i = 0; i < N; ++i)
      if ((i & d) == 0) compare_exchange<L>(r[i], r[i + d]);
#pragma GCC unroll 32
  for (int i = 0; i < N; ++i) r[i] = L::sort_bitonic(r[i]);
}

// r[0, N/2) and r[N/2, N) are each sorted: merge them (reversing the second half makes the
// whole a bitonic sequence).
template <class L, int N, class V = typename L::V>
inline void merge_sorted_halves(V* r) {
  constexpr int H = N / 2;
  for (int i = 0; i < H / 2; ++i) std::swap(r[H + i], r[N - 1 - i]);
  for (int i = H; i < N; ++i) r[i] = L::reverse(r[i]);
  sort_bitonic_vectors<L, N>(r);
}

// r[0, N) holds sorted runs of W/2 vectors: merge them pairwise until one run remains.
template <class L, int W, int N, class V = typename L::V>
inline void merge_runs(V* r) {
  if constexpr (W <= N) {
    for (int i = 0; i < N; i += W) merge_sorted_halves<L, W>(r + i);
    merge_runs<L, 2 * W, N>(r);
  }
}

// Batcher's odd-even merge sorting network for N inputs (N a power of two), as a list of
// comparator pairs generated at compile time.  N = 8: 19 comparators, N = 16: 63.
template <int N>
struct OddEvenMergeNetwork {
  template <class Visit>
  static constexpr void visit(Visit&& f) {
    for (int p = 1; p < N; p *= 2)
      for (int k = p; k >= 1; k /= 2)
        for (int j = k % p; j + k < N; j += 2 * k)
          for (int i = 0; i < k && i + j + k < N; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) f(i + j, i + j + k);
  }
  static constexpr int count() {
    int c = 0;
    visit([&c](int, int) { ++c; });
    return c;
  }
  int pairs[count()][2];
  constexpr OddEvenMergeNetwork() : pairs{} {
    int c = 0;
    visit([&](int a, int b) {
      pairs[c][0] = a;
      pairs[c][1] = b;
      ++c;
    });
  }
};

// Sorts the N * lanes keys held in r.  A sorting network on the lanes sorts each column (N
// keys); transposing the square blocks turns column c into the vectors (block0[c], block1[c],
// ...), which are gathered into runs; bitonic merges join the runs.
template <class L, int N, class V, size_t... I>
inline void apply_network(V* r, std::index_sequence<I...>) {
  static constexpr OddEvenMergeNetwork<N> kNet{};
  // Every register index a compile-time constant: r stays in registers.
  (compare_exchange<L>(r[kNet.pairs[I][0]], r[kNet.pairs[I][1]]), ...);
}

template <class L, int N, class V = typename L::V>
inline void sort_vectors(V* r) {
  constexpr int kL = L::kCount;
  static_assert(N % kL == 0, "the transposes need whole square blocks");
  apply_network<L, N>(r, std::make_index_sequence<OddEvenMergeNetwork<N>::count()>{});
  for (int b = 0; b < N; b += kL) L::transpose(r + b);
  constexpr int kRun = N / kL;  // vectors per sorted run
  if constexpr (kRun > 1) {
    V t[N];
    for (int c = 0; c < kL; ++c)
      for (int b = 0; b < kRun; ++b) t[c * kRun + b] = r[b * kL + c];
    for (int i = 0; i < N; ++i) r[i] = t[i];
  }
  merge_runs<L, 2 * kRun, N>(r);
}

// The order-preserving map between raw bits and signed keys (KeyCodec) on vectors.
template <class L>
struct Codec {
  using K = typename L::Key;
  using V = typename L::V;
  using U = std::make_unsigned_t<K>;
  KeyCodec<U> scalar;  // kept so that another Lanes type (a small leaf) can make its own
  V float_mask, xor_const;
  explicit Codec(const KeyCodec<U>& c)
      : scalar(c),
        float_mask(L::set1(static_cast<K>(c.float_mask))),
        xor_const(L::set1(static_cast<K>(c.xor_const))) {}
  // Negative floats have their magnitude bits inverted: x ^ (sign(x) >>logical 1).
  V flip_negative(V x) const {
    return L::bit_xor(x, L::bit_and(L::shift_right_1(L::sign_mask(x)), float_mask));
  }
  V encode(V bits) const { return L::bit_xor(flip_negative(bits), xor_const); }
  V decode(V key) const { return flip_negative(L::bit_xor(key, xor_const)); }
};

// Loads the n <= N * lanes keys of a into r, padded with the largest key, and sorts them.
template <class L, int N>
inline void load_sorted(const typename L::Key* a, int64_t n, typename L::V* r) {
  using V = typename L::V;
  constexpr int kL = L::kCount;
  const V pad = L::set1(std::numeric_limits<typename L::Key>::max());
  for (int i = 0; i < N; ++i) {
    const int64_t lo = int64_t(i) * kL;
    if (lo + kL <= n) r[i] = L::load(a + lo);
    else if (lo < n) r[i] = L::load_first(a + lo, n - lo, pad);
    else r[i] = pad;
  }
  sort_vectors<L, N>(r);
}

// Decodes the first n keys of r[0, N) into a.
template <class L, int N>
inline void store_decoded(typename L::Key* a, int64_t n, const typename L::V* r,
                          const Codec<L>& codec) {
  constexpr int kL = L::kCount;
  for (int i = 0; i < N; ++i) {
    const int64_t lo = int64_t(i) * kL;
    if (lo + kL <= n) L::store(a + lo, codec.decode(r[i]));
    else if (lo < n) L::store_first(a + lo, n - lo, codec.decode(r[i]));
  }
}

// Sorts the n <= N * lanes keys of a and decodes them.
template <class L, int N>
void sort_leaf_n(typename L::Key* a, int64_t n, const Codec<L>& codec) {
  typename L::V r[N];
  load_sorted<L, N>(a, n, r);
  store_decoded<L, N>(a, n, r, codec);
}

template <class L>
constexpr int64_t kLeaf = int64_t(L::kLeafVectors) * L::kCount;

template <class L>
void sort_leaf(typename L::Key* a, int64_t n, const Codec<L>& codec) {
  if constexpr (requires { typename L::SmallLeafLanes; }) {
    // The network needs whole square blocks of kCount vectors: shorter leaves go to the
    // narrower vectors' networks rather than pay for the padding.
    using S = typename L::SmallLeafLanes;
    static_assert(std::is_same_v<typename S::Key, typename L::Key>);
    if (n <= kLeaf<S>) sort_leaf<S>(a, n, Codec<S>(codec.scalar));
    else sort_leaf_n<L, L::kLeafVectors>(a, n, codec);
  } else {
    if (n <= kLeaf<L> / 2) sort_leaf_n<L, L::kLeafVectors / 2>(a, n, codec);
    else sort_leaf_n<L, L::kLeafVectors>(a, n, codec);
  }
}

// Loads the n <= kLeaf keys of a into r[0, kLeafVectors) sorted and padded with the largest
// key, with the narrowest network that holds them (as sort_leaf chooses).
template <class L>
inline void load_sorted_leaf(const typename L::Key* a, int64_t n, typename L::V* r) {
  using K = typename L::Key;
  constexpr int N = L::kLeafVectors;
  constexpr int kL = L::kCount;
  if constexpr (requires { typename L::SmallLeafLanes; }) {
    using S = typename L::SmallLeafLanes;
    if (n <= kLeaf<S>) {
      static_assert(kLeaf<S> <= kLeaf<L>);
      alignas(64) K buf[kLeaf<L>];
      typename S::V rs[S::kLeafVectors];
      load_sorted_leaf<S>(a, n, rs);
      for (int i = 0; i < S::kLeafVectors; ++i) S::store(buf + i * S::kCount, rs[i]);
      for (int64_t i = kLeaf<S>; i < kLeaf<L>; ++i) buf[i] = std::numeric_limits<K>::max();
      for (int i = 0; i < N; ++i) r[i] = L::load(buf + i * kL);
      return;
    }
  } else if (n <= kLeaf<L> / 2) {
    load_sorted<L, N / 2>(a, n, r);
    for (int i = N / 2; i < N; ++i) r[i] = L::set1(std::numeric_limits<K>::max());
    return;
  }
  load_sorted<L, N>(a, n, r);
}

// Sorts kLeaf < n <= 2 kLeaf keys and decodes them (Note [Pair leaves]).
//
// Note [Pair leaves]
// A quicksort that stops at one network's width (kLeaf keys) ends with leaves of kLeaf/2 to
// kLeaf keys, a ninther pivot rarely splits a range of a little over 2 kLeaf into two that
// fit, and every leaf costs a whole network however full it is.  Stopping at 2 kLeaf instead
// and finishing with two networks and one bitonic merge saves a partition level and about a
// third of the leaves (rows of 512 float32 on AVX-512: 3.4 -> 1.3 us).  The first kLeaf keys
// are sorted and parked in an L1 buffer, the rest (padded with the largest key) are sorted in
// the registers; the half-cleaner between the first run and the reversed second makes two
// bitonic sequences of kLeaf keys, each below the next, which the in-register bitonic sorter
// finishes.
template <class L>
void sort_leaf_pair(typename L::Key* a, int64_t n, const Codec<L>& codec) {
  using V = typename L::V;
  constexpr int N = L::kLeafVectors;
  constexpr int kL = L::kCount;
  alignas(64) typename L::Key first[kLeaf<L>];
  V r[N];
  load_sorted<L, N>(a, kLeaf<L>, r);
  for (int i = 0; i < N; ++i) L::store(first + i * kL, r[i]);
  // The second run is often short (a range of 300 keys leaves 44): a narrower network.
  load_sorted_leaf<L>(a + kLeaf<L>, n - kLeaf<L>, r);
  // Half-cleaner of (first ascending, second descending): lo stays in registers, hi goes to
  // the buffer slot just read.
  V lo[N];
#pragma GCC unroll 32
  for (int j = 0; j < N; ++j) {
    const V x = L::load(first + j * kL);
    const V y = L::reverse(r[N - 1 - j]);
    lo[j] = L::min(x, y);
    L::store(first + j * kL, L::max(x, y));
  }
  sort_bitonic_vectors<L, N>(lo);
  store_decoded<L, N>(a, kLeaf<L>, lo, codec);
  for (int i = 0; i < N; ++i) r[i] = L::load(first + i * kL);
  sort_bitonic_vectors<L, N>(r);
  store_decoded<L, N>(a + kLeaf<L>, n - kLeaf<L>, r, codec);
}

// Any leaf the quicksort ends with: n <= 2 kLeaf.
template <class L>
void sort_small(typename L::Key* a, int64_t n, const Codec<L>& codec) {
  if (n <= kLeaf<L>) sort_leaf(a, n, codec);
  else sort_leaf_pair(a, n, codec);
}

// Decodes keys that are already in their final place.
template <class L>
void decode_range(typename L::Key* a, int64_t n, const Codec<L>& codec) {
  constexpr int kL = L::kCount;
  int64_t i = 0;
  for (; i + kL <= n; i += kL) L::store(a + i, codec.decode(L::load(a + i)));
  if (i < n) L::store_first(a + i, n - i, codec.decode(L::load_first(a + i, n - i, codec.xor_const)));
}

// Writes partitioned vectors into out[lw, rw): keys that stay left at lw upwards, keys that go
// right (Strict: key >= pivot, else key > pivot) at rw downwards.  A put stores a whole vector
// at both ends, so it needs a vector's worth of free slots at each (the caller's job).
template <class L, bool Strict>
struct PartitionWriter {
  using V = typename L::V;
  static constexpr int kL = L::kCount;
  static constexpr uint64_t kAll = (uint64_t(1) << kL) - 1;
  typename L::Key* out;
  int64_t lw, rw;
  V pivot;

  // 64-bit masks and counts: no sign extensions in the loop.
  uint64_t right_mask(V x) const {
    if constexpr (Strict) return ~L::greater_bits(pivot, x) & kAll;
    else return L::greater_bits(x, pivot);
  }
  void put(V x) {
    const uint64_t m = right_mask(x);
    const int64_t nr = __builtin_popcountll(m);
    L::put(out + lw, out + rw, x, m, nr);
    lw += kL - nr;
    rw -= nr;
  }
  // The last two writes, when exactly kL + rest (< 2 * kL) slots remain: a whole vector x,
  // then the first `rest` lanes of `tail`.  (Whole-vector puts could write their garbage
  // over keys already placed here, so both are exact.)
  void put_last(V x, V tail, int64_t rest) {
    uint64_t m = right_mask(x);
    L::put_exact(out + lw, out + rw, x, m, kAll);
    lw += kL - __builtin_popcountll(m);
    rw -= __builtin_popcountll(m);
    // rw - lw == rest: the valid lanes of the tail, left-going then right-going, fill it.
    const uint64_t valid = kAll >> (kL - rest);
    m = right_mask(tail) & valid;
    L::put_exact(out + lw, out + rw, tail, m, valid);
    lw += rest - __builtin_popcountll(m);
    rw = lw;
  }
};

// Partitions a[0, n) in place (see PartitionWriter for which keys go right) and returns how
// many stay left.  Needs n >= 2 * kUnroll * lanes.
template <class L, bool Strict>
int64_t partition(typename L::Key* a, int64_t n, typename L::Key pivot) {
  using V = typename L::V;
  constexpr int kL = L::kCount;
  constexpr int64_t kStep = kUnroll * kL;
  static_assert(2 * kStep <= 2 * kLeaf<L> + 1, "quicksort partitions ranges longer than a leaf pair");
  PartitionWriter<L, Strict> w{a, 0, n, L::set1(pivot)};
  V held_left[kUnroll], held_right[kUnroll];
  for (int i = 0; i < kUnroll; ++i) {
    held_left[i] = L::load(a + i * kL);
    held_right[i] = L::load(a + n - kStep + i * kL);
  }
  int64_t rl = kStep, rr = n - kStep;  // unread keys are a[rl, rr)
  // Invariant: (rl - lw) + (rw - rr) == 2 * kStep free slots.  Reading from the end with less
  // room gives both ends at least kStep, enough for kUnroll puts.
  while (rr - rl >= kStep) {
    const bool from_left = (rl - w.lw) <= (w.rw - rr);
    const typename L::Key* src = a + (from_left ? rl : rr - kStep);
    rl += from_left ? kStep : 0;
    rr -= from_left ? 0 : kStep;
    V x[kUnroll];
    for (int i = 0; i < kUnroll; ++i) x[i] = L::load(src + i * kL);
    for (int i = 0; i < kUnroll; ++i) w.put(x[i]);
  }
  // Single vectors while whole ones remain: the 2 * kStep free slots still leave a vector's
  // worth at both ends after each read.
  while (rr - rl >= kL) {
    const bool from_left = (rl - w.lw) <= (w.rw - rr);
    const typename L::Key* src = a + (from_left ? rl : rr - kL);
    rl += from_left ? kL : 0;
    rr -= from_left ? 0 : kL;
    w.put(L::load(src));
  }
  // Less than a vector unread: once it is in a register the free slots are the contiguous
  // a[lw, rw), 2 * kStep + rest of them, and whole puts are safe while rw - lw >= 2 vectors.
  const int64_t rest = rr - rl;
  const V tail = L::load_first(a + rl, rest, w.pivot);
  for (int i = 0; i < kUnroll; ++i) w.put(held_left[i]);
  for (int i = 0; i < kUnroll - 1; ++i) w.put(held_right[i]);
  w.put_last(held_right[kUnroll - 1], tail, rest);
  return w.lw;
}

// Encodes the n >= 2 * lanes raw values of src into keys and partitions them into out in one
// pass; returns how many stay left (key <= pivot).
template <class L>
int64_t partition_encoded(const typename L::Key* src, int64_t n, typename L::Key* out,
                          typename L::Key pivot, const Codec<L>& codec) {
  constexpr int kL = L::kCount;
  PartitionWriter<L, false> w{out, 0, n, L::set1(pivot)};
  // The unwritten slots out[lw, rw) number n - i: whole puts are safe while that is >= 2 kL.
  int64_t i = 0;
  for (; n - i >= 2 * kL; i += kL) w.put(codec.encode(L::load(src + i)));
  const int64_t rest = n - i - kL;
  const auto tail = codec.encode(L::load_first(src + i + kL, rest, w.pivot));
  w.put_last(codec.encode(L::load(src + i)), tail, rest);
  return w.lw;
}

// The median of three keys, branch-free.
template <class K>
inline K median3(K a, K b, K c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

// Tukey's ninther: the median of the medians of three groups of three spread over the range.
template <class K, class KeyAt>
K choose_pivot(int64_t n, KeyAt key) {
  const int64_t s = n / 9, o = s / 2;
  return median3(median3(key(o), key(o + s), key(o + 2 * s)),
                 median3(key(o + 3 * s), key(o + 4 * s), key(o + 5 * s)),
                 median3(key(o + 6 * s), key(o + 7 * s), key(o + 8 * s)));
}

// Sorts the keys a[0, n) and decodes them.
template <class L>
void quicksort(typename L::Key* a, int64_t n, int depth, const Codec<L>& codec) {
  using K = typename L::Key;
  while (n > 2 * kLeaf<L>) {
    if (depth-- == 0) {
      std::sort(a, a + n);
      decode_range(a, n, codec);
      return;
    }
    const K pivot = choose_pivot<K>(n, [a](int64_t i) { return a[i]; });
    const int64_t m = partition<L, false>(a, n, pivot);
    if (m == n) {
      // Nothing above the pivot: it is the maximum.  The keys equal to it are final.
      n = partition<L, true>(a, n, pivot);
      decode_range(a + n, m - n, codec);
      continue;
    }
    // Recurse into the smaller side, loop on the larger (stack depth <= log2 n).
    if (m < n - m) {
      quicksort(a, m, depth, codec);
      a += m;
      n -= m;
    } else {
      quicksort(a + m, n - m, depth, codec);
      n = m;
    }
  }
  sort_small(a, n, codec);
}

inline int initial_depth(int64_t n) {
  int depth = 0;
  for (int64_t k = n; k > 1; k >>= 1) depth += 2;
  return depth;
}

// A range of keys still to sort, with its remaining depth budget.
template <class K>
struct Range {
  K* a;
  int64_t n;
  int depth;
};

// Ranges at least this long are worth a task of their own.
constexpr int64_t kParallelMin = int64_t(1) << 15;

// One partition step of r into at most two ranges appended to out (keys equal to a maximum
// pivot are finished and decoded on the spot).
template <class L>
void split_range(const Range<typename L::Key>& r, const Codec<L>& codec,
                 Range<typename L::Key>* out, int* count) {
  using K = typename L::Key;
  *count = 0;
  if (r.n < 2 * kParallelMin || r.depth == 0) {
    out[(*count)++] = r;
    return;
  }
  const K pivot = choose_pivot<K>(r.n, [a = r.a](int64_t i) { return a[i]; });
  const int64_t m = partition<L, false>(r.a, r.n, pivot);
  if (m == r.n) {
    const int64_t lt = partition<L, true>(r.a, r.n, pivot);
    decode_range(r.a + lt, r.n - lt, codec);
    out[(*count)++] = {r.a, lt, r.depth - 1};
    return;
  }
  out[(*count)++] = {r.a, m, r.depth - 1};
  out[(*count)++] = {r.a + m, r.n - m, r.depth - 1};
}

// Sorts the ranges, split further and spread over runner.threads workers: a few levels of
// partitions (each level's ranges partitioned in parallel) until there are about 4 ranges per
// worker, then whole ranges as tasks, assigned largest first to the least loaded worker.
template <class L>
void sort_ranges(std::vector<Range<typename L::Key>> ranges, const Codec<L>& codec,
                 const SortRunner& runner) {
  using R = Range<typename L::Key>;
  const int threads = std::max(runner.threads, 1);
  for (int level = 0; level < 8 && static_cast<int>(ranges.size()) < 4 * threads; ++level) {
    std::vector<R> next(2 * ranges.size());
    std::vector<int> counts(ranges.size());
    runner.run(static_cast<int64_t>(ranges.size()), [&](int64_t i) {
      split_range<L>(ranges[i], codec, &next[2 * i], &counts[i]);
    });
    std::vector<R> kept;
    for (size_t i = 0; i < ranges.size(); ++i)
      for (int j = 0; j < counts[i]; ++j) kept.push_back(next[2 * i + j]);
    const bool split_any = kept.size() != ranges.size();
    ranges = std::move(kept);
    if (!split_any) break;
  }
  std::sort(ranges.begin(), ranges.end(), [](const R& x, const R& y) { return x.n > y.n; });
  std::vector<std::vector<R>> work(static_cast<size_t>(threads));
  std::vector<int64_t> load(static_cast<size_t>(threads), 0);
  for (const R& r : ranges) {
    const size_t w = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    work[w].push_back(r);
    load[w] += r.n;
  }
  runner.run(threads, [&](int64_t w) {
    for (const R& r : work[static_cast<size_t>(w)]) quicksort(r.a, r.n, r.depth, codec);
  });
}

template <class L, class U>
void sort_encoded(const U* src_bits, int64_t n, U* out_bits, const KeyCodec<U>& key_codec,
                  const SortRunner* runner) {
  using K = typename L::Key;
  static_assert(sizeof(K) == sizeof(U));
  const Codec<L> codec(key_codec);
  const K* src = reinterpret_cast<const K*>(src_bits);
  K* a = reinterpret_cast<K*>(out_bits);
  auto key_at = [&](int64_t i) { return static_cast<K>(key_codec.encode(src_bits[i])); };
  const int depth = initial_depth(n);
  std::vector<Range<K>> ranges;
  if (n <= 2 * kLeaf<L> || src_bits == out_bits) {
    // Encode in place, then sort.  (A leaf loads whole vectors, which `src` may not have.)
    for (int64_t i = 0; i < n; ++i) a[i] = key_at(i);
    if (n <= 2 * kLeaf<L>) {
      sort_small(a, n, codec);
      return;
    }
    ranges.push_back({a, n, depth});
  } else {
    // The first partition reads the raw values and writes keys: the encoding costs no pass.
    const K pivot = choose_pivot<K>(n, key_at);
    const int64_t m = partition_encoded<L>(src, n, a, pivot, codec);
    if (m == n) {
      const int64_t lt = partition<L, true>(a, n, pivot);
      decode_range(a + lt, n - lt, codec);
      ranges.push_back({a, lt, depth});
    } else {
      ranges.push_back({a, m, depth});
      ranges.push_back({a + m, n - m, depth});
    }
  }
  if (runner && runner->threads > 1 && n >= 4 * kParallelMin) {
    sort_ranges<L>(std::move(ranges), codec, *runner);
  } else {
    for (const auto& r : ranges) quicksort(r.a, r.n, r.depth, codec);
  }
}

}  // namespace
}  // namespace arraycore::native::vsort
