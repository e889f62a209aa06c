// The second pass of var/std over the trailing axes of a contiguous array: sum((x - m)^2) per
// row (the whole array is one row) for the rows' means, in one pass over x, with no
// temporaries.  Composed from elementwise ops, x - m and the
// square each wrote a full-size array (6 array passes in all, 2.45x JAX's time for 1e7
// float32); this reads x once.  Arithmetic as NumPy's var: d = x - m and d*d in the input's
// precision, summed pairwise (blocks of kPairBlock, 8 vector accumulators inside a block).
// Fixed chunks of kChunk elements of a row (or whole rows) run on the pool and their sums are
// added in order, so the result does not depend on the thread count.
//
// Leading axes (var(x, axis=0) of a matrix: column statistics) have their own pass,
// sum_squared_deviations_leading: x seen as (R, C) and one mean per column, each row's
// squares added into a column accumulator, no temporaries.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "../errors.h"
#include "../reductions.h"
#include "../thread_pool.h"

namespace arraycore::native {
namespace {

constexpr int64_t kPairBlock = 8192;
constexpr int64_t kChunk = int64_t(1) << 20;

template <class T>
T squared_deviations_block(const T* p, int64_t n, T m) {
  typedef T V __attribute__((vector_size(32)));
  constexpr int W = static_cast<int>(32 / sizeof(T));
  constexpr int U = 8;
  V acc[U];
  for (int u = 0; u < U; ++u) acc[u] = V{};
  const V mv = V{} + m;
  int64_t i = 0;
  for (; i + U * W <= n; i += U * W)
    for (int u = 0; u < U; ++u) {
      V x;
      std::memcpy(&x, p + i + u * W, sizeof(V));
      const V d = x - mv;
      acc[u] += d * d;
    }
  for (int w = U / 2; w >= 1; w /= 2)
    for (int u = 0; u < w; ++u) acc[u] += acc[u + w];
  T l[W];
  std::memcpy(l, &acc[0], sizeof(V));
  for (int w = W / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) l[k] += l[k + w];
  T r = l[0];
  for (; i < n; ++i) {
    const T d = p[i] - m;
    r += d * d;
  }
  return r;
}

template <class T>
T squared_deviations_pairwise(const T* p, int64_t n, T m) {
  if (n <= kPairBlock) return squared_deviations_block(p, n, m);
  const int64_t h = (n / 2 + kPairBlock - 1) / kPairBlock * kPairBlock;
  return squared_deviations_pairwise(p, h, m) + squared_deviations_pairwise(p + h, n - h, m);
}

template <class T>
T squared_deviations(const T* p, int64_t n, T m) {
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  if (chunks <= 1) return squared_deviations_pairwise(p, n, m);
  std::vector<T> part(static_cast<size_t>(chunks));
  parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t b = c * kChunk;
      part[c] = squared_deviations_pairwise(p + b, std::min(kChunk, n - b), m);
    }
  });
  T r = part[0];
  for (int64_t c = 1; c < chunks; ++c) r += part[c];
  return r;
}

// Rows of length C: out[r] = sum((x[r, :] - mean[r])^2); rows split across the pool, a long
// row chunked inside squared_deviations.
template <class T>
void squared_deviations_rows(const T* x, const T* mean, T* out, int64_t rows, int64_t C) {
  if (rows == 1) {
    out[0] = squared_deviations(x, C, mean[0]);
    return;
  }
  const int64_t grain = std::max<int64_t>(1, kChunk / std::max<int64_t>(C, 1));
  parallel_for(rows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) out[r] = squared_deviations_pairwise(x + r * C, C, mean[r]);
  });
}

// (R, C) rows against one mean per column: out[c] = sum_r (x[r, c] - mean[c])^2.  Each
// block of kLeadRows rows is summed into a block accumulator, then added to the total (a
// two-level sum: the error grows with R / kLeadRows + kLeadRows, not with R, at the cost of
// one C-length add per block).  Columns split across the pool in fixed ranges, each summing
// every row in order, so the result does not depend on the thread count.
constexpr int64_t kLeadRows = 128;
constexpr int64_t kLeadCols = 2048;  // columns per task: the accumulators stay in L1

template <class T>
void squared_deviations_leading(const T* x, const T* mean, T* out, int64_t R, int64_t C) {
  const int64_t tasks = (C + kLeadCols - 1) / kLeadCols;
  const int64_t grain = std::max<int64_t>(1, kChunk / std::max<int64_t>(R * kLeadCols, 1));
  parallel_for(tasks, grain, [&](int64_t t0, int64_t t1) {
    T block[kLeadCols];
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t c0 = t * kLeadCols, w = std::min(kLeadCols, C - c0);
      T* total = out + c0;
      const T* m = mean + c0;
      for (int64_t c = 0; c < w; ++c) total[c] = T(0);
      for (int64_t r0 = 0; r0 < R; r0 += kLeadRows) {
        const int64_t r1 = std::min(R, r0 + kLeadRows);
        for (int64_t c = 0; c < w; ++c) block[c] = T(0);
        for (int64_t r = r0; r < r1; ++r) {
          const T* row = x + r * C + c0;
          for (int64_t c = 0; c < w; ++c) {
            const T d = row[c] - m[c];
            block[c] += d * d;
          }
        }
        for (int64_t c = 0; c < w; ++c) total[c] += block[c];
      }
    }
  });
}

// x, mean and out as T; the means are per row (x seen as (mean.numel(), rest)) or, leading,
// per column (x seen as (rest, mean.numel())).
template <class T>
void run_squared_deviations(const NdArray& x, const NdArray& mean, NdArray& out, bool leading) {
  const T* xp = reinterpret_cast<const T*>(x.data());
  const T* mp = reinterpret_cast<const T*>(mean.data());
  T* op = reinterpret_cast<T*>(out.data());
  const int64_t k = mean.numel(), rest = x.numel() / k;
  if (leading)
    squared_deviations_leading(xp, mp, op, rest, k);
  else
    squared_deviations_rows(xp, mp, op, k, rest);
}

// The checks and the dtype dispatch of the two entry points below (fn: the entry's name).
NdArray squared_deviations_entry(const NdArray& x, const NdArray& mean, const char* who,
                                 const char* fn, bool leading) {
  const std::string name = std::string(who) + ": " + fn;
  if (!x.is_c_contiguous() || !mean.is_c_contiguous())
    throw ValueError(name + " needs contiguous arrays");
  if (mean.dtype != x.dtype) throw TypeError(name + ": mean dtype differs from x's");
  const int64_t k = mean.numel();
  if (k < 1 || x.numel() % k != 0)
    throw ValueError(name + ": " + std::to_string(k) + " means do not divide " +
                     std::to_string(x.numel()) + " elements");
  NdArray out = empty(mean.shape, x.dtype);
  if (x.dtype == DType::Float32)
    run_squared_deviations<float>(x, mean, out, leading);
  else if (x.dtype == DType::Float64)
    run_squared_deviations<double>(x, mean, out, leading);
  else
    throw TypeError(name + " takes float32 or float64, got " + dtype_name(x.dtype));
  return out;
}

}  // namespace

NdArray sum_squared_deviations_leading(const NdArray& x, const NdArray& mean, const char* who) {
  return squared_deviations_entry(x, mean, who, "sum_squared_deviations_leading", true);
}

NdArray sum_squared_deviations(const NdArray& x, const NdArray& mean, const char* who) {
  return squared_deviations_entry(x, mean, who, "sum_squared_deviations", false);
}

}  // namespace arraycore::native
