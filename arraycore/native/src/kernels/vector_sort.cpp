// L0: AVX2 quicksort of int32 keys.
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
// * Partition: eight keys at a time are compared with the pivot; the 8-bit comparison mask
//   indexes a table of permutations that moves the keys staying left to the front of the
//   vector and the keys going right to its back, and the whole vector is stored twice, at the
//   left and at the right write position, each of which then advances by its count.  The
//   partition is in place: it first holds kUnroll vectors from each end in registers, which
//   frees room to write, and then reads from whichever end has less room left, so a write never
//   lands on unread keys.  Reading kUnroll vectors per step keeps the loop-carried chain
//   (load -> compare -> count -> next address) off the critical path.
// * Leaves of at most 128 keys are sorted in 8 or 16 vector registers: Batcher's odd-even
//   merge network sorts the lanes across the vectors (19 or 63 comparators), 8x8 transposes
//   turn the sorted columns into sorted runs of vectors, and bitonic merges join the runs.
//   Padding is INT32_MAX.
// * Pivot: Tukey's ninther of 9 keys spread over the range.  A partition that sends nothing right
//   means the pivot is the maximum; the range is then split into (< pivot, == pivot) instead,
//   which finishes all keys equal to the maximum at once, so runs of equal keys cost one pass.
// * Depth limit: after 2 log2(n) levels (adversarial input) the range goes to std::sort.
#include "vector_sort.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace arraycore::native {

#ifndef __AVX2__

bool vector_sort_available() { return false; }
void vector_sort_32(const uint32_t*, int64_t, uint32_t*, const KeyCodec&) {
  throw std::logic_error("vector_sort_32: this build has no AVX2");
}

#else

bool vector_sort_available() { return true; }

namespace {

using V = __m256i;

constexpr int kLanes = 8;
constexpr int kUnroll = 8;        // vectors read per partition step
constexpr int64_t kLeaf = 128;    // ranges up to this size go to the sorting network

// kPermutations.idx[m]: for the comparison mask m (bit i set: lane i goes right), lane indices
// that put the left-going lanes first and the right-going lanes last, each in lane order.
// Bytes, widened on load (vpmovzxbd): 2 KiB stays in L1, and the 8-byte entries are indexed
// by the mask without a shift.
struct PermutationTable {
  alignas(64) uint8_t idx[256][kLanes];
  constexpr PermutationTable() : idx{} {
    for (int m = 0; m < 256; ++m) {
      int k = 0;
      for (int i = 0; i < kLanes; ++i)
        if (!(m >> i & 1)) idx[m][k++] = static_cast<uint8_t>(i);
      for (int i = 0; i < kLanes; ++i)
        if (m >> i & 1) idx[m][k++] = static_cast<uint8_t>(i);
    }
  }
};
constexpr PermutationTable kPermutations;

inline V vmin(V a, V b) { return _mm256_min_epi32(a, b); }
inline V vmax(V a, V b) { return _mm256_max_epi32(a, b); }

inline void compare_exchange(V& a, V& b) {
  V lo = vmin(a, b);
  b = vmax(a, b);
  a = lo;
}

inline V reverse_lanes(V x) {
  return _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}

// Sorts one vector that holds a bitonic sequence: half-cleaners at lane distances 4, 2, 1.
inline V sort_bitonic_vector(V x) {
  V t = _mm256_permute2x128_si256(x, x, 1);
  x = _mm256_blend_epi32(vmin(x, t), vmax(x, t), 0xF0);
  t = _mm256_shuffle_epi32(x, _MM_SHUFFLE(1, 0, 3, 2));
  x = _mm256_blend_epi32(vmin(x, t), vmax(x, t), 0xCC);
  t = _mm256_shuffle_epi32(x, _MM_SHUFFLE(2, 3, 0, 1));
  return _mm256_blend_epi32(vmin(x, t), vmax(x, t), 0xAA);
}

// r[0, N) holds a bitonic sequence (vector i = keys 8i .. 8i+7): sort it ascending.
template <int N>
inline void sort_bitonic_vectors(V* r) {
  for (int d = N / 2; d >= 1; d /= 2)
    for (int i = 0; i < N; ++i)
      if ((i & d) == 0) compare_exchange(r[i], r[i + d]);
  for (int i = 0; i < N; ++i) r[i] = sort_bitonic_vector(r[i]);
}

// r[0, N/2) and r[N/2, N) are each sorted: merge them (reversing the second half makes the
// whole a bitonic sequence).
template <int N>
inline void merge_sorted_halves(V* r) {
  constexpr int H = N / 2;
  for (int i = 0; i < H / 2; ++i) std::swap(r[H + i], r[N - 1 - i]);
  for (int i = H; i < N; ++i) r[i] = reverse_lanes(r[i]);
  sort_bitonic_vectors<N>(r);
}

// Batcher's odd-even merge sorting network for N inputs (N a power of two), as a list of
// comparator pairs generated at compile time.  N = 8: 19 comparators, N = 16: 63.
template <int N>
struct OddEvenMergeNetwork {
  static constexpr int count() {
    int c = 0;
    for (int p = 1; p < N; p *= 2)
      for (int k = p; k >= 1; k /= 2)
        for (int j = k % p; j + k < N; j += 2 * k)
          for (int i = 0; i < k && i + j + k < N; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) ++c;
    return c;
  }
  static constexpr int kCount = count();
  int pairs[kCount][2];
  constexpr OddEvenMergeNetwork() : pairs{} {
    int c = 0;
    for (int p = 1; p < N; p *= 2)
      for (int k = p; k >= 1; k /= 2)
        for (int j = k % p; j + k < N; j += 2 * k)
          for (int i = 0; i < k && i + j + k < N; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
              pairs[c][0] = i + j;
              pairs[c][1] = i + j + k;
              ++c;
            }
  }
};

// Transposes the 8x8 block of keys in r[0, 8).
inline void transpose8(V* r) {
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

// r[0, N) holds sorted runs of W/2 vectors: merge them pairwise until one run remains.
template <int W, int N>
inline void merge_runs(V* r) {
  if constexpr (W <= N) {
    for (int i = 0; i < N; i += W) merge_sorted_halves<W>(r + i);
    merge_runs<2 * W, N>(r);
  }
}

// Sorts N*8 keys held in r (N = 8 or 16).  A sorting network on the lanes sorts each of the 8
// columns (N keys); transposing the 8x8 blocks turns column c into the vectors
// (block0[c], block1[c], ...), which are gathered into runs; bitonic merges join the runs.
template <int N>
inline void sort_vectors(V* r) {
  static constexpr OddEvenMergeNetwork<N> kNet{};
  for (const auto& c : kNet.pairs) compare_exchange(r[c[0]], r[c[1]]);
  for (int b = 0; b < N; b += 8) transpose8(r + b);
  constexpr int kRun = N / 8;  // vectors per sorted run
  if constexpr (kRun == 2) {
    V t[N];
    for (int c = 0; c < 8; ++c) {
      t[2 * c] = r[c];
      t[2 * c + 1] = r[8 + c];
    }
    for (int i = 0; i < N; ++i) r[i] = t[i];
  }
  merge_runs<2 * kRun, N>(r);
}

// Lanes [0, k) of a vector set, for masked loads and stores.
inline V first_lanes(int64_t k) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int32_t>(k)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// The order-preserving map between raw bits and signed keys (see KeyCodec in the header), on
// one vector or one value.
struct Codec {
  V float_mask, xor_const;
  explicit Codec(const KeyCodec& c)
      : float_mask(_mm256_set1_epi32(static_cast<int32_t>(c.float_mask))),
        xor_const(_mm256_set1_epi32(static_cast<int32_t>(c.xor_const))) {}
  // Negative floats have their magnitude bits inverted: x ^ ((x >>arith 31) >>logical 1).
  V flip_negative(V x) const {
    return _mm256_xor_si256(
        x, _mm256_and_si256(_mm256_srli_epi32(_mm256_srai_epi32(x, 31), 1), float_mask));
  }
  V encode(V bits) const { return _mm256_xor_si256(flip_negative(bits), xor_const); }
  V decode(V key) const { return flip_negative(_mm256_xor_si256(key, xor_const)); }
};

// Sorts the n <= N * 8 keys of a and decodes them.
template <int N>
void sort_leaf_n(int32_t* a, int64_t n, const Codec& codec) {
  const V pad = _mm256_set1_epi32(INT32_MAX);
  V r[N];
  for (int i = 0; i < N; ++i) {
    const int64_t lo = int64_t(i) * kLanes;
    if (lo + kLanes <= n) {
      r[i] = _mm256_loadu_si256(reinterpret_cast<const V*>(a + lo));
    } else if (lo < n) {
      const V m = first_lanes(n - lo);
      r[i] = _mm256_blendv_epi8(pad, _mm256_maskload_epi32(a + lo, m), m);
    } else {
      r[i] = pad;
    }
  }
  sort_vectors<N>(r);
  for (int i = 0; i < N; ++i) {
    const int64_t lo = int64_t(i) * kLanes;
    if (lo + kLanes <= n)
      _mm256_storeu_si256(reinterpret_cast<V*>(a + lo), codec.decode(r[i]));
    else if (lo < n)
      _mm256_maskstore_epi32(a + lo, first_lanes(n - lo), codec.decode(r[i]));
  }
}

void sort_leaf(int32_t* a, int64_t n, const Codec& codec) {
  if (n <= 64) sort_leaf_n<8>(a, n, codec);
  else sort_leaf_n<16>(a, n, codec);
}

// Decodes keys that are already in their final place.
void decode_range(int32_t* a, int64_t n, const Codec& codec) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    V* p = reinterpret_cast<V*>(a + i);
    _mm256_storeu_si256(p, codec.decode(_mm256_loadu_si256(p)));
  }
  if (i < n) {
    const V m = first_lanes(n - i);
    _mm256_maskstore_epi32(a + i, m, codec.decode(_mm256_maskload_epi32(a + i, m)));
  }
}

// Writes partitioned vectors into out[lw, rw): keys that stay left at lw upwards, keys that go
// right (Strict: key >= pivot, else key > pivot) at rw downwards.  A put stores a whole vector
// at both ends, so it needs kLanes free slots at each (the caller's job).
template <bool Strict>
struct PartitionWriter {
  int32_t* out;
  int64_t lw, rw;
  V pivot;

  // 64-bit masks and counts: no sign extensions in the loop.
  uint64_t right_mask(V x) const {
    if constexpr (Strict)
      return ~static_cast<uint64_t>(_mm256_movemask_ps(_mm256_castsi256_ps(
                 _mm256_cmpgt_epi32(pivot, x)))) & 0xFFu;
    else
      return static_cast<uint32_t>(
          _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(x, pivot))));
  }
  static V arrange(V x, uint64_t m) {
    return _mm256_permutevar8x32_epi32(
        x, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
               reinterpret_cast<const __m128i*>(kPermutations.idx[m]))));
  }
  void put(V x) {
    const uint64_t m = right_mask(x);
    const int64_t nr = __builtin_popcountll(m);
    const V y = arrange(x, m);
    _mm256_storeu_si256(reinterpret_cast<V*>(out + lw), y);
    _mm256_storeu_si256(reinterpret_cast<V*>(out + rw - kLanes), y);
    lw += kLanes - nr;
    rw -= nr;
  }
  // The last two writes, when exactly kLanes + rest (< 2 * kLanes) slots remain: a whole vector
  // x, then the first `rest` lanes of `tail`.
  void put_last(V x, V tail, int64_t rest) {
    // The left part is stored whole, the right part masked so it cannot overwrite it.
    uint64_t m = right_mask(x);
    const int64_t nr = __builtin_popcountll(m);
    V y = arrange(x, m);
    _mm256_storeu_si256(reinterpret_cast<V*>(out + lw), y);
    _mm256_maskstore_epi32(out + rw - kLanes,
                           _mm256_xor_si256(first_lanes(kLanes - nr), _mm256_set1_epi32(-1)), y);
    lw += kLanes - nr;
    rw -= nr;
    // rw - lw == rest: the valid lanes of the tail, left-going then right-going, fill it
    // exactly (invalid lanes are marked right-going, so the permutation puts them last).
    const uint64_t valid = 0xFFu >> (kLanes - rest);
    m = right_mask(tail) & valid;
    y = arrange(tail, m | (~valid & 0xFFu));
    _mm256_maskstore_epi32(out + lw, first_lanes(rest), y);
    lw += rest - __builtin_popcountll(m);
    rw = lw;
  }
};

// Partitions a[0, n) in place (see PartitionWriter for which keys go right) and returns how
// many stay left.  Needs n >= 2 * kUnroll * kLanes.
template <bool Strict>
int64_t partition(int32_t* a, int64_t n, int32_t pivot) {
  PartitionWriter<Strict> w{a, 0, n, _mm256_set1_epi32(pivot)};
  constexpr int64_t kStep = kUnroll * kLanes;
  V held_left[kUnroll], held_right[kUnroll];
  for (int i = 0; i < kUnroll; ++i) {
    held_left[i] = _mm256_loadu_si256(reinterpret_cast<const V*>(a + i * kLanes));
    held_right[i] = _mm256_loadu_si256(reinterpret_cast<const V*>(a + n - kStep + i * kLanes));
  }
  int64_t rl = kStep, rr = n - kStep;  // unread keys are a[rl, rr)
  // Invariant: (rl - lw) + (rw - rr) == 2 * kStep free slots.  Reading from the end with less
  // room gives both ends at least kStep, enough for kUnroll puts.
  while (rr - rl >= kStep) {
    const bool from_left = (rl - w.lw) <= (w.rw - rr);
    const int32_t* src = a + (from_left ? rl : rr - kStep);
    rl += from_left ? kStep : 0;
    rr -= from_left ? 0 : kStep;
    V x[kUnroll];
    for (int i = 0; i < kUnroll; ++i)
      x[i] = _mm256_loadu_si256(reinterpret_cast<const V*>(src + i * kLanes));
    for (int i = 0; i < kUnroll; ++i) w.put(x[i]);
  }
  // Single vectors while whole ones remain: the 2 * kStep free slots still leave >= kLanes at
  // both ends after each read.
  while (rr - rl >= kLanes) {
    const bool from_left = (rl - w.lw) <= (w.rw - rr);
    const int32_t* src = a + (from_left ? rl : rr - kLanes);
    rl += from_left ? kLanes : 0;
    rr -= from_left ? 0 : kLanes;
    w.put(_mm256_loadu_si256(reinterpret_cast<const V*>(src)));
  }
  // Fewer than kLanes unread keys: once they are in a register the free slots are the
  // contiguous a[lw, rw), 2 * kStep + rest of them, and whole puts are safe while
  // rw - lw >= 2 * kLanes.
  const int64_t rest = rr - rl;
  const V tail = _mm256_maskload_epi32(a + rl, first_lanes(rest));
  for (int i = 0; i < kUnroll; ++i) w.put(held_left[i]);
  for (int i = 0; i < kUnroll - 1; ++i) w.put(held_right[i]);
  w.put_last(held_right[kUnroll - 1], tail, rest);
  return w.lw;
}

// Encodes the n >= 2 * kLanes raw values of src into keys and partitions them into out in one
// pass; returns how many stay left (key <= pivot).
int64_t partition_encoded(const uint32_t* src, int64_t n, int32_t* out, int32_t pivot,
                          const Codec& codec) {
  PartitionWriter<false> w{out, 0, n, _mm256_set1_epi32(pivot)};
  auto load = [&](int64_t i) {
    return codec.encode(_mm256_loadu_si256(reinterpret_cast<const V*>(src + i)));
  };
  // The unwritten slots out[lw, rw) number n - i: whole puts are safe while that is >= 16.
  int64_t i = 0;
  for (; n - i >= 2 * kLanes; i += kLanes) w.put(load(i));
  const int64_t rest = n - i - kLanes;
  const V tail = codec.encode(_mm256_maskload_epi32(reinterpret_cast<const int32_t*>(src) + i +
                                                        kLanes, first_lanes(rest)));
  w.put_last(load(i), tail, rest);
  return w.lw;
}

// The median of three keys, branch-free.
inline int32_t median3(int32_t a, int32_t b, int32_t c) {
  return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

// Tukey's ninther: the median of the medians of three groups of three spread over the range.
template <class Key>
int32_t choose_pivot(int64_t n, Key key) {
  const int64_t s = n / 9, o = s / 2;
  return median3(median3(key(o), key(o + s), key(o + 2 * s)),
                 median3(key(o + 3 * s), key(o + 4 * s), key(o + 5 * s)),
                 median3(key(o + 6 * s), key(o + 7 * s), key(o + 8 * s)));
}

// Sorts the keys a[0, n) and decodes them.
void quicksort(int32_t* a, int64_t n, int depth, const Codec& codec) {
  while (n > kLeaf) {
    if (depth-- == 0) {
      std::sort(a, a + n);
      decode_range(a, n, codec);
      return;
    }
    const int32_t pivot = choose_pivot(n, [a](int64_t i) { return a[i]; });
    const int64_t m = partition<false>(a, n, pivot);
    if (m == n) {
      // Nothing above the pivot: it is the maximum.  The keys equal to it are final.
      n = partition<true>(a, n, pivot);
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
  sort_leaf(a, n, codec);
}

int initial_depth(int64_t n) {
  int depth = 0;
  for (int64_t k = n; k > 1; k >>= 1) depth += 2;
  return depth;
}

}  // namespace

void vector_sort_32(const uint32_t* src, int64_t n, uint32_t* out, const KeyCodec& key_codec) {
  const Codec codec(key_codec);
  int32_t* a = reinterpret_cast<int32_t*>(out);
  if (n <= kLeaf || src == out) {
    // Encode in place, then sort.  (A leaf loads whole vectors, which `src` may not have.)
    for (int64_t i = 0; i < n; ++i) a[i] = static_cast<int32_t>(key_codec.encode(src[i]));
    if (n <= kLeaf) sort_leaf(a, n, codec);
    else quicksort(a, n, initial_depth(n), codec);
    return;
  }
  // The first partition reads the raw values and writes keys: the encoding costs no pass.
  const int32_t pivot = choose_pivot(
      n, [&](int64_t i) { return static_cast<int32_t>(key_codec.encode(src[i])); });
  const int64_t m = partition_encoded(src, n, a, pivot, codec);
  const int depth = initial_depth(n);
  if (m == n) {
    const int64_t lt = partition<true>(a, n, pivot);
    decode_range(a + lt, n - lt, codec);
    quicksort(a, lt, depth, codec);
  } else {
    quicksort(a, m, depth, codec);
    quicksort(a + m, n - m, depth, codec);
  }
}

#endif  // __AVX2__

}  // namespace arraycore::native
