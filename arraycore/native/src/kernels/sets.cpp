// L0: isin and unique.
//
// isin collects x2's non-NaN values (NaN is never equal to anything; -0 equals +0) into a
// lookup table over their range (integers spanning a range comparable to the data), a hash
// set of their bits (other reals) or a sorted array it binary-searches (complex).  unique flattens x in C order, sorts it with the stable argsort
// (or the plain sort when only the values are wanted) and walks runs of equal values: the
// stable order makes the first index of a run the first occurrence, and since NaN != NaN every
// NaN is a run of its own, as the standard asks.
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "../thread_pool.h"
#include "search_sort.h"
#include "sort_keys.h"

namespace arraycore::native {
namespace {

template <class T> inline bool equal_value(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) return a.real() == b.real() && a.imag() == b.imag();
  else return a == b;
}

// The bits of a real value as a 64-bit key, with -0 made +0 (they are equal; NaN never gets
// here), so that equal values have equal keys.
template <class T> inline uint64_t value_key(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    v = v == T(0) ? T(0) : v;
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    U u;
    std::memcpy(&u, &v, sizeof u);
    return u;
  } else {
    return static_cast<uint64_t>(v);
  }
}

// A set of 64-bit keys by open addressing (linear probing, at most a quarter full), for isin
// of floats and of integers spread too wide for a table: a binary search over the sorted
// values mispredicted half its steps (10x NumPy's time).  A lookup stops at the first slot
// that is empty or holds the key; at a quarter full most lookups stop at the first, so the
// one branch is mostly predicted whether the key is there or not.
class KeySet {
 public:
  explicit KeySet(int64_t count) {
    int bits = 4;
    while ((int64_t(1) << bits) < 4 * count) ++bits;
    shift_ = 64 - bits;
    mask_ = (uint64_t(1) << bits) - 1;
    keys_.assign(mask_ + 1, 0);
    used_.assign(mask_ + 1, 0);
  }
  void insert(uint64_t k) {
    for (uint64_t h = slot(k);; h = (h + 1) & mask_) {
      if (!used_[h]) {
        used_[h] = 1;
        keys_[h] = k;
        return;
      }
      if (keys_[h] == k) return;
    }
  }
  bool contains(uint64_t k) const {
    for (uint64_t h = slot(k);; h = (h + 1) & mask_) {
      const bool used = used_[h], match = keys_[h] == k;
      if (!used | match) return used & match;
    }
  }

 private:
  uint64_t slot(uint64_t k) const { return (k * 0x9e3779b97f4a7c15ULL) >> shift_; }
  int shift_;
  uint64_t mask_;
  std::vector<uint64_t> keys_;
  std::vector<uint8_t> used_;
};

}  // namespace

NdArray isin(const NdArray& x1, const NdArray& x2, bool invert) {
  if (x1.dtype != x2.dtype) throw TypeError("isin: x1 and x2 must share a dtype");
  const NdArray a = contiguous(x1);
  const NdArray b = contiguous(x2);
  NdArray out = empty(x1.shape, DType::Bool);
  const int64_t n = a.numel(), m = b.numel();
  uint8_t* o = reinterpret_cast<uint8_t*>(out.data());
  visit_dtype(x1.dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* bv = reinterpret_cast<const T*>(b.data());
    std::unique_ptr<T[]> set(new T[static_cast<size_t>(std::max<int64_t>(m, 1))]);
    int64_t ns = 0;
    for (int64_t i = 0; i < m; ++i)
      if (!is_nan_value(bv[i])) set[ns++] = bv[i];
    auto less = [](const T& p, const T& q) { return sort_less(p, q); };
    std::sort(set.get(), set.get() + ns, less);
    const T* av = reinterpret_cast<const T*>(a.data());
    const T* s0 = set.get();
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Integers whose x2 spans a range not much larger than the data: a lookup table of the
      // range (NumPy's kind='table'), one load per element instead of a search.
      if (ns > 0) {
        const uint64_t lo = static_cast<uint64_t>(s0[0]);
        const uint64_t range = static_cast<uint64_t>(s0[ns - 1]) - lo;  // exact: hi >= lo
        if (range < std::max<uint64_t>(uint64_t(1) << 20, 4 * static_cast<uint64_t>(n + m))) {
          std::vector<uint8_t> table(range + 1, 0);
          for (int64_t k = 0; k < ns; ++k) table[static_cast<uint64_t>(s0[k]) - lo] = 1;
          const uint8_t* t = table.data();
          parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) {
              const uint64_t d = static_cast<uint64_t>(av[i]) - lo;  // wraps below lo
              o[i] = static_cast<uint8_t>((d <= range && t[d]) != invert);
            }
          });
          return;
        }
      }
    }
    if constexpr (!is_complex_v<T>) {
      KeySet keys(ns);
      for (int64_t k = 0; k < ns; ++k) keys.insert(value_key(s0[k]));
      parallel_for(n, 4096, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
          const T v = av[i];
          const bool found = !is_nan_value(v) && keys.contains(value_key(v));
          o[i] = static_cast<uint8_t>(found != invert);
        }
      });
      return;
    }
    const T* s1 = s0 + ns;
    parallel_for(n, 4096, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        const T v = av[i];
        bool found = false;
        if (!is_nan_value(v)) {
          const T* r = std::lower_bound(s0, s1, v, less);
          found = r != s1 && equal_value(*r, v);
        }
        o[i] = static_cast<uint8_t>(found != invert);
      }
    });
  });
  return out;
}

UniqueResult unique(const NdArray& x, bool want_indices, bool want_inverse, bool want_counts) {
  const NdArray flat0 = contiguous(x);
  const int64_t n = flat0.numel();
  NdArray flat = flat0;
  flat.shape = Shape{n};
  flat.strides = Shape{1};
  const size_t isz = x.itemsize();
  UniqueResult res;
  if (!want_indices && !want_inverse) {
    // Values (and counts) only: sort the values themselves and find where runs start.  (No
    // per-element counter update: incrementing a count in memory for every element chains each
    // iteration to the previous store.)
    const NdArray s = sort(flat, 0, false);
    std::vector<int64_t> starts;
    if (n > 0) starts.push_back(0);
    visit_dtype(x.dtype, [&](auto tag) {
      using T = decltype(tag);
      const T* v = reinterpret_cast<const T*>(s.data());
      for (int64_t i = 1; i < n; ++i)
        if (!equal_value(v[i], v[i - 1])) starts.push_back(i);
    });
    const int64_t k = static_cast<int64_t>(starts.size());
    NdArray vals = empty(Shape{k}, x.dtype);
    for (int64_t g = 0; g < k; ++g)
      std::memcpy(vals.data() + g * isz, s.data() + starts[g] * isz, isz);
    res.values = vals;
    if (want_counts) {
      NdArray cnt = empty(Shape{k}, DType::Int64);
      int64_t* cp = reinterpret_cast<int64_t*>(cnt.data());
      for (int64_t g = 0; g < k; ++g) cp[g] = (g + 1 < k ? starts[g + 1] : n) - starts[g];
      res.counts = cnt;
    }
    return res;
  }
  const NdArray perm_arr = argsort(flat, 0, false);
  const int64_t* perm = reinterpret_cast<const int64_t*>(perm_arr.data());
  NdArray inverse = empty(x.shape, DType::Int64);
  int64_t* inv = reinterpret_cast<int64_t*>(inverse.data());
  std::vector<int64_t> starts;  // position in sorted order where each run starts
  visit_dtype(x.dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* v = reinterpret_cast<const T*>(flat.data());
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || !equal_value(v[perm[i]], v[perm[i - 1]])) starts.push_back(i);
      inv[perm[i]] = static_cast<int64_t>(starts.size()) - 1;
    }
  });
  const int64_t k = static_cast<int64_t>(starts.size());
  NdArray vals = empty(Shape{k}, x.dtype);
  NdArray idx = empty(Shape{k}, DType::Int64);
  NdArray cnt = empty(Shape{k}, DType::Int64);
  int64_t* ip = reinterpret_cast<int64_t*>(idx.data());
  int64_t* cp = reinterpret_cast<int64_t*>(cnt.data());
  for (int64_t g = 0; g < k; ++g) {
    const int64_t s = starts[g];
    const int64_t e = g + 1 < k ? starts[g + 1] : n;
    std::memcpy(vals.data() + g * isz, flat.data() + perm[s] * isz, isz);
    ip[g] = perm[s];
    cp[g] = e - s;
  }
  res.values = vals;
  if (want_indices) res.indices = idx;
  if (want_inverse) res.inverse = inverse;
  if (want_counts) res.counts = cnt;
  return res;
}

}  // namespace arraycore::native
