// L0: softmax / log_softmax / cross-entropy pieces (see nn_softmax.h).
//
// Why native: the namespace composite of log_softmax is eight ops (max, isfinite, where,
// subtract, exp, sum, log, subtract) and cross_entropy adds a masked pick and a mean, each a
// Python dispatch and a pass over memory; on a training batch of (32, 10) logits the
// dispatches alone cost ~15x PyTorch's fused kernel.  Here each is one pass per row.
//
// Layout: x is viewed as (outer, n, inner) around the axis.  inner == 1 (the class axis
// last, the common (N, C) case) runs row by row with the row contiguous; inner > 1 ((N, C, H,
// W) with axis 1) keeps inner-length accumulators so the loops over inner stay contiguous.
#include "nn_softmax.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "../errors.h"
#include "../simd_math.h"
#include "../thread_pool.h"
#include "nn_float.h"
#include "nn_softmax_exp.h"

namespace arraycore::native::nn_softmax {
namespace {

using nn_float::dispatch_float;
using nn_float::require_float;

struct Dims {
  int64_t outer = 1, n = 1, inner = 1;
};

Dims dims_around(const Shape& shape, int64_t axis, const char* who) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (axis < 0 || axis >= nd)
    throw ValueError(std::string(who) + ": axis " + std::to_string(axis) +
                     " is out of bounds for an array of dimension " + std::to_string(nd));
  Dims d;
  for (int64_t i = 0; i < axis; ++i) d.outer *= shape[i];
  d.n = shape[axis];
  for (int64_t i = axis + 1; i < nd; ++i) d.inner *= shape[i];
  return d;
}

// a as a C-contiguous array of dtype dt, copying only when needed.
NdArray as_contiguous(const NdArray& a, DType dt) {
  return a.dtype == dt ? contiguous(a) : astype(a, dt);
}

// The shift of a row: its maximum, or 0 when that is not finite (see nn_softmax.h).
template <class T>
T finite_shift(T m) {
  return std::isfinite(m) ? m : T(0);
}

// Rows are reduced with GCC vector types (the widest vectors, several accumulators): GCC does not
// vectorize a floating-point sum or a max with a select without reassociation flags, and
// eight scalar accumulators per element vectorized only 8 lanes wide (softmax of (1000,
// 1000) float32: 690 us, torch 420).
// The vectors are the widest the build has: a 64-byte vector type on an AVX2 build is
// lowered through the stack (softmax 2.7x slower than on AVX-512 instead of 2x).  (Each
// function declares its vector type itself: a vector_size attribute on an alias template
// is dropped.)
#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
#else
constexpr int kVecBytes = 32;
#endif
template <class T>
constexpr int kVecLanes = static_cast<int>(kVecBytes / sizeof(T));

// The maximum (and, with WithMin, the minimum) of a contiguous row in one pass; NaN entries
// are passed over (they reach the result through the exp and the sum).  softmax takes both:
// with the minimum, a row whose exps are all normal numbers is seen before they are taken.
template <class T, bool WithMin>
void row_extremes(const T* x, int64_t n, T& lo, T& hi) {
  typedef T V __attribute__((vector_size(kVecBytes)));
  constexpr int W = kVecLanes<T>;
  const T inf = std::numeric_limits<T>::infinity();
  V a0 = V{} - inf, a1 = a0, b0 = V{} + inf, b1 = b0;
  int64_t j = 0;
  for (; j + 2 * W <= n; j += 2 * W) {
    V v0, v1;
    std::memcpy(&v0, x + j, sizeof(V));
    std::memcpy(&v1, x + j + W, sizeof(V));
    a0 = v0 > a0 ? v0 : a0;
    a1 = v1 > a1 ? v1 : a1;
    if constexpr (WithMin) {
      b0 = v0 < b0 ? v0 : b0;
      b1 = v1 < b1 ? v1 : b1;
    }
  }
  a0 = a1 > a0 ? a1 : a0;
  hi = -inf;
  for (int l = 0; l < W; ++l) hi = a0[l] > hi ? a0[l] : hi;
  for (int64_t t = j; t < n; ++t) hi = x[t] > hi ? x[t] : hi;
  if constexpr (WithMin) {
    b0 = b1 < b0 ? b1 : b0;
    lo = inf;
    for (int l = 0; l < W; ++l) lo = b0[l] < lo ? b0[l] : lo;
    for (int64_t t = j; t < n; ++t) lo = x[t] < lo ? x[t] : lo;
  }
}

template <class T>
T row_max(const T* x, int64_t n) {
  T lo = T(0), hi;
  row_extremes<T, false>(x, n, lo, hi);
  return hi;
}

// Sum of a contiguous row: blocks of kSumBlock with 8 vector accumulators, the blocks added
// pairwise in double (float32 rows of 1e6 keep ~1e-7 relative error).
constexpr int64_t kSumBlock = 4096;

template <class T>
double sum_block(const T* y, int64_t n) {
  typedef T V __attribute__((vector_size(kVecBytes)));
  constexpr int W = kVecLanes<T>;
  V acc[8] = {};
  int64_t j = 0;
  for (; j + 8 * W <= n; j += 8 * W)
    for (int u = 0; u < 8; ++u) {
      V v;
      std::memcpy(&v, y + j + u * W, sizeof(V));
      acc[u] += v;
    }
  for (int w = 4; w >= 1; w /= 2)
    for (int u = 0; u < w; ++u) acc[u] += acc[u + w];
  double s = 0;
  for (int l = 0; l < W; ++l) s += static_cast<double>(acc[0][l]);
  for (; j < n; ++j) s += static_cast<double>(y[j]);
  return s;
}

template <class T>
double row_sum(const T* y, int64_t n) {
  if (n <= kSumBlock) return sum_block(y, n);
  const int64_t h = (n / 2 + kSumBlock - 1) / kSumBlock * kSumBlock;
  return row_sum(y, h) + row_sum(y + h, n - h);
}

// Writes exp(x - shift) to y and returns its sum.
template <class T>
T exp_shifted_sum(const T* x, T shift, T* y, int64_t n) {
  for (int64_t j = 0; j < n; ++j) y[j] = simd_math::exp(x[j] - shift);
  return static_cast<T>(row_sum(y, n));
}

// The same for a row whose every x - m lies in (kInRange, 0], where exp is a normal number:
// simd_math::exp_in_range, exp's values without its clamps and its two-factor scaling of
// gradual underflow (40% of exp's time on the AVX2 build; docs/special.md, eighth pass).
template <class T>
constexpr T kInRange = sizeof(T) == 4 ? T(-87) : T(-708);
template <class T>
T exp_in_range_sum(const T* x, T m, T* y, int64_t n) {
  for (int64_t j = 0; j < n; ++j) y[j] = simd_math::exp_in_range(x[j] - m);
  return static_cast<T>(row_sum(y, n));
}

// The sum of exp(x - m) over a row whose maximum m is finite, for log_softmax: the exps go
// to a block buffer, not to the output (which the last pass overwrites), and are added as
// row_sum adds blocks; exp_term (nn_softmax_exp.h) instead of simd_math::exp.  log_softmax
// of (1000, 1000) float64, 1 thread: AVX2 build 1.60 -> 1.01 ms, AVX-512 1.16 -> 0.90 ms;
// float32 0.64 -> 0.41 and 0.44 -> 0.34 ms (docs/special.md, eighth pass).  (An earlier
// attempt that summed the exps without storing them was 1.5x slower on AVX-512; here the exp
// loop stays a plain vectorized store loop into an L1 buffer, then summed as before.)
template <class T>
double exp_term_sum(const T* x, T m, int64_t n) {
  if (n > kSumBlock) {
    const int64_t h = (n / 2 + kSumBlock - 1) / kSumBlock * kSumBlock;
    return exp_term_sum(x, m, h) + exp_term_sum(x + h, m, n - h);
  }
  alignas(64) T e[kSumBlock];
  for (int64_t j = 0; j < n; ++j) e[j] = exp_term(x[j] - m);
  return sum_block(e, n);
}

template <class T>
void softmax_rows(const T* x, T* y, int64_t rows, int64_t n, bool log, bool safe,
                  bool nonfinite_nan) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    T lo = T(0), m;
    if (log) {
      m = row_max(xr, n);
    } else {
      row_extremes<T, true>(xr, n, lo, m);
    }
    if (safe && m == -std::numeric_limits<T>::infinity()) {
      for (int64_t j = 0; j < n; ++j) yr[j] = T(0);
      continue;
    }
    if (nonfinite_nan && !std::isfinite(m)) {
      for (int64_t j = 0; j < n; ++j) yr[j] = std::numeric_limits<T>::quiet_NaN();
      continue;
    }
    const T shift = finite_shift(m);
    if (log && std::isfinite(m)) {  // (x - m) - log(s), in that order: m + log(s) can round
      const T c = std::log(static_cast<T>(exp_term_sum(xr, m, n)));  // away log(s)
      for (int64_t j = 0; j < n; ++j) yr[j] = (xr[j] - m) - c;
      continue;
    }
    // (x - m >= lo - m for every entry, both rounded; NaN entries, which the minimum passes
    // over, give NaN through exp_in_range as through exp)
    const T s = !log && std::isfinite(m) && lo - m > kInRange<T>
                    ? exp_in_range_sum(xr, m, yr, n)
                    : exp_shifted_sum(xr, shift, yr, n);
    if (log) {  // (an infinite maximum: shift 0)
      const T c = std::log(s);
      for (int64_t j = 0; j < n; ++j) yr[j] = (xr[j] - shift) - c;
    } else {
      const T inv = T(1) / s;
      for (int64_t j = 0; j < n; ++j) yr[j] *= inv;
    }
  }
}

// One (n, inner) block: the axis is the slow index, inner the fast one.
template <class T>
void softmax_block(const T* x, T* y, int64_t n, int64_t inner, bool log, bool safe,
                   bool nonfinite_nan, T* shift, T* sum) {
  for (int64_t k = 0; k < inner; ++k) shift[k] = -std::numeric_limits<T>::infinity();
  for (int64_t c = 0; c < n; ++c)
    for (int64_t k = 0; k < inner; ++k) {
      const T v = x[c * inner + k];
      shift[k] = v > shift[k] ? v : shift[k];
    }
  for (int64_t k = 0; k < inner; ++k) {
    // (nonfinite_nan: a NaN shift makes the column NaN through exp and the sum)
    shift[k] = nonfinite_nan && !std::isfinite(shift[k]) ? std::numeric_limits<T>::quiet_NaN()
                                                         : finite_shift(shift[k]);
    sum[k] = 0;
  }
  for (int64_t c = 0; c < n; ++c)
    for (int64_t k = 0; k < inner; ++k) {
      const T e = simd_math::exp(x[c * inner + k] - shift[k]);
      y[c * inner + k] = e;
      sum[k] += e;
    }
  if (safe)  // all -inf: every exp above was 0, sum 0; 1/sum would make 0 * inf = NaN
    for (int64_t k = 0; k < inner; ++k) sum[k] = sum[k] == T(0) ? T(1) : sum[k];
  if (log) {
    for (int64_t k = 0; k < inner; ++k) sum[k] = std::log(sum[k]);
    for (int64_t c = 0; c < n; ++c)
      for (int64_t k = 0; k < inner; ++k)
        y[c * inner + k] = (x[c * inner + k] - shift[k]) - sum[k];
  } else {
    for (int64_t k = 0; k < inner; ++k) sum[k] = T(1) / sum[k];
    for (int64_t c = 0; c < n; ++c)
      for (int64_t k = 0; k < inner; ++k) y[c * inner + k] *= sum[k];
  }
}

// logsumexp of one row (see nn_softmax.h).  The max pass also flags NaN; the sum pass writes
// exp(x - m) of the entries below the maximum into a block buffer (0 at the maximum, whose
// entries are counted) and sums it as row_sum does.
template <class T>
double lse_pairwise(const T* x, int64_t n, T m, int64_t& at_max) {
  if (n > kSumBlock) {
    const int64_t h = (n / 2 + kSumBlock - 1) / kSumBlock * kSumBlock;
    int64_t c1, c2;
    const double s = lse_pairwise(x, h, m, c1) + lse_pairwise(x + h, n - h, m, c2);
    at_max = c1 + c2;
    return s;
  }
  alignas(64) T e[kSumBlock];
  int64_t cnt = 0;
  for (int64_t j = 0; j < n; ++j) {
    const bool at = x[j] == m;
    const T v = simd_math::exp(x[j] - m);
    e[j] = at ? T(0) : v;
    cnt += at ? 1 : 0;
  }
  at_max = cnt;
  return sum_block(e, n);
}

template <class T>
T logsumexp_row(const T* x, int64_t n) {
  int nan = 0;
  for (int64_t j = 0; j < n; ++j) nan |= x[j] != x[j] ? 1 : 0;
  if (nan) return std::numeric_limits<T>::quiet_NaN();
  const T m = row_max(x, n);
  if (!std::isfinite(m)) return m;  // +inf: +inf; every entry -inf: -inf
  int64_t c;
  const double s = lse_pairwise(x, n, m, c);
  const double cd = static_cast<double>(c);
  return static_cast<T>(std::log1p(s / cd) + std::log(cd) + static_cast<double>(m));
}

// logsumexp along the slow index of one (n, inner) block: the same arithmetic per column
// (max and NaN flag, then the count at the maximum and the sum of the others' exp, in double).
template <class T>
void logsumexp_block(const T* x, int64_t n, int64_t inner, T* out, T* mx, double* sum,
                     int64_t* cnt, int* nan) {
  for (int64_t k = 0; k < inner; ++k) {
    mx[k] = -std::numeric_limits<T>::infinity();
    nan[k] = 0;
    sum[k] = 0;
    cnt[k] = 0;
  }
  for (int64_t c = 0; c < n; ++c)
    for (int64_t k = 0; k < inner; ++k) {
      const T v = x[c * inner + k];
      mx[k] = v > mx[k] ? v : mx[k];
      nan[k] |= v != v ? 1 : 0;
    }
  for (int64_t c = 0; c < n; ++c)
    for (int64_t k = 0; k < inner; ++k) {
      const T v = x[c * inner + k];
      const bool at = v == mx[k];
      const T e = simd_math::exp(v - mx[k]);
      sum[k] += at ? 0.0 : static_cast<double>(e);
      cnt[k] += at ? 1 : 0;
    }
  for (int64_t k = 0; k < inner; ++k) {
    const double cd = static_cast<double>(cnt[k]);
    const T r = static_cast<T>(std::log1p(sum[k] / cd) + std::log(cd) +
                               static_cast<double>(mx[k]));
    out[k] = nan[k] ? std::numeric_limits<T>::quiet_NaN() : std::isfinite(mx[k]) ? r : mx[k];
  }
}

// Grain of the parallel loops in elements: below ~32k elements one thread is faster.
constexpr int64_t kGrainElements = 1 << 15;

int64_t grain_rows(int64_t row_elements) {
  return std::max<int64_t>(1, kGrainElements / std::max<int64_t>(1, row_elements));
}

}  // namespace

NdArray softmax(const NdArray& x_in, int64_t axis, bool log, bool safe, bool nonfinite_nan) {
  const char* who = log ? "log_softmax" : "softmax";
  require_float(x_in, who);
  const Dims d = dims_around(x_in.shape, axis, who);
  const NdArray x = contiguous(x_in);
  NdArray y = empty(x.shape, x.dtype);
  if (x.numel() == 0) return y;
  dispatch_float(x.dtype, [&]<class T>() {
    const T* xp = reinterpret_cast<const T*>(x.data());
    T* yp = reinterpret_cast<T*>(y.data());
    const int64_t block = d.n * d.inner;
    parallel_for(d.outer, grain_rows(block), [&](int64_t b, int64_t e) {
      if (d.inner == 1) {
        softmax_rows(xp + b * block, yp + b * block, e - b, d.n, log, safe, nonfinite_nan);
        return;
      }
      std::vector<T> shift(d.inner), sum(d.inner);
      for (int64_t o = b; o < e; ++o)
        softmax_block(xp + o * block, yp + o * block, d.n, d.inner, log, safe, nonfinite_nan,
                      shift.data(), sum.data());
    });
  });
  return y;
}

NdArray logsumexp(const NdArray& x_in, int64_t axis, const Shape& out_shape) {
  require_float(x_in, "logsumexp");
  const Dims d = dims_around(x_in.shape, axis, "logsumexp");
  if (d.n == 0) throw ValueError("logsumexp: the reduced axis is empty");
  const NdArray x = contiguous(x_in);
  NdArray y = empty(out_shape, x.dtype);
  if (y.numel() != d.outer * d.inner)
    throw ValueError("logsumexp: the output shape does not hold " +
                     std::to_string(d.outer * d.inner) + " values");
  dispatch_float(x.dtype, [&]<class T>() {
    const T* xp = reinterpret_cast<const T*>(x.data());
    T* yp = reinterpret_cast<T*>(y.data());
    const int64_t block = d.n * d.inner;
    parallel_for(d.outer, grain_rows(block), [&](int64_t b, int64_t e) {
      if (d.inner == 1) {
        for (int64_t r = b; r < e; ++r) yp[r] = logsumexp_row(xp + r * d.n, d.n);
        return;
      }
      std::vector<T> mx(d.inner);
      std::vector<double> sum(d.inner);
      std::vector<int64_t> cnt(d.inner);
      std::vector<int> nan(d.inner);
      for (int64_t o = b; o < e; ++o)
        logsumexp_block(xp + o * block, d.n, d.inner, yp + o * d.inner, mx.data(), sum.data(),
                        cnt.data(), nan.data());
    });
  });
  return y;
}

int64_t check_class_targets(const NdArray& target_in, int64_t n_classes, int64_t ignore_index,
                            const std::string& who) {
  const NdArray t = as_contiguous(target_in, DType::Int64);
  const int64_t* tp = reinterpret_cast<const int64_t*>(t.data());
  int64_t ignored = 0;
  for (int64_t i = 0, m = t.numel(); i < m; ++i) {
    const int64_t v = tp[i];
    if (v == ignore_index) {
      ++ignored;
    } else if (v < 0 || v >= n_classes) {
      throw IndexError(who + ": Target " + std::to_string(v) +
                       " is out of bounds (expected a class index in [0, " +
                       std::to_string(n_classes) + ") or ignore_index=" +
                       std::to_string(ignore_index) + ")");
    }
  }
  return ignored;
}

NdArray nll_pick(const NdArray& logp_in, const NdArray& target_in, int64_t axis) {
  require_float(logp_in, "nll_pick");
  const Dims d = dims_around(logp_in.shape, axis, "nll_pick");
  const NdArray logp = contiguous(logp_in);
  const NdArray t = as_contiguous(target_in, DType::Int64);
  if (t.numel() != d.outer * d.inner)
    throw ValueError("nll_pick: target has " + std::to_string(t.numel()) +
                     " elements, expected one per position (" +
                     std::to_string(d.outer * d.inner) + ")");
  Shape out_shape;
  for (int64_t i = 0; i < static_cast<int64_t>(logp.shape.size()); ++i)
    if (i != axis) out_shape.push_back(logp.shape[i]);
  NdArray out = empty(out_shape, logp.dtype);
  const int64_t* tp = reinterpret_cast<const int64_t*>(t.data());
  dispatch_float(logp.dtype, [&]<class T>() {
    const T* lp = reinterpret_cast<const T*>(logp.data());
    T* o = reinterpret_cast<T*>(out.data());
    for (int64_t p = 0, m = d.outer * d.inner; p < m; ++p) {
      const int64_t c = tp[p];
      if (c < 0 || c >= d.n) throw IndexError("nll_pick: target out of range");
      const int64_t outer = p / d.inner, k = p % d.inner;
      o[p] = -lp[(outer * d.n + c) * d.inner + k];
    }
  });
  return out;
}

NdArray cross_entropy_backward(const NdArray& logp_in, const NdArray& target_in, int64_t axis,
                               const NdArray& g_in, double scale) {
  const char* who = "cross_entropy_backward";
  require_float(logp_in, who);
  const Dims d = dims_around(logp_in.shape, axis, who);
  const int64_t positions = d.outer * d.inner;
  const NdArray logp = contiguous(logp_in);
  const NdArray t = as_contiguous(target_in, DType::Int64);
  const NdArray g = as_contiguous(g_in, logp.dtype);
  if (t.numel() != positions || (g.numel() != 1 && g.numel() != positions))
    throw ValueError(std::string(who) + ": target or gradient does not match the positions");
  NdArray dx = empty(logp.shape, logp.dtype);
  if (logp.numel() == 0) return dx;
  const int64_t* tp = reinterpret_cast<const int64_t*>(t.data());
  const bool g_scalar = g.numel() == 1;
  dispatch_float(logp.dtype, [&]<class T>() {
    const T* lp = reinterpret_cast<const T*>(logp.data());
    const T* gp = reinterpret_cast<const T*>(g.data());
    T* o = reinterpret_cast<T*>(dx.data());
    const int64_t block = d.n * d.inner;
    parallel_for(d.outer, grain_rows(block), [&](int64_t b, int64_t e) {
      for (int64_t outer = b; outer < e; ++outer) {
        const T* l = lp + outer * block;
        T* r = o + outer * block;
        for (int64_t j = 0; j < block; ++j) r[j] = simd_math::exp(l[j]);
        for (int64_t k = 0; k < d.inner; ++k) {
          const int64_t p = outer * d.inner + k;
          const T gk = T((g_scalar ? gp[0] : gp[p]) * scale);
          const int64_t c = tp[p];
          if (c >= 0 && c < d.n) r[c * d.inner + k] -= T(1);
          for (int64_t cc = 0; cc < d.n; ++cc) r[cc * d.inner + k] *= gk;
        }
      }
    });
  });
  return dx;
}

}  // namespace arraycore::native::nn_softmax
