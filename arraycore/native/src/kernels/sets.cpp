// L0: isin and unique.
//
// isin sorts x2's non-NaN values and binary-searches each element of x1 (NaN is never equal
// to anything; -0 equals +0).  unique flattens x in C order, sorts it with the stable argsort
// (or the plain sort when only the values are wanted) and walks runs of equal values: the
// stable order makes the first index of a run the first occurrence, and since NaN != NaN every
// NaN is a run of its own, as the standard asks.
#include <algorithm>
#include <cstring>
#include <memory>

#include "../thread_pool.h"
#include "search_sort.h"
#include "sort_keys.h"

namespace arraycore::native {
namespace {

template <class T> inline bool equal_value(const T& a, const T& b) {
  if constexpr (is_complex_v<T>) return a.real() == b.real() && a.imag() == b.imag();
  else return a == b;
}

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
