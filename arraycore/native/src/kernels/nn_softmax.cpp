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
#include <limits>
#include <vector>

#include "../errors.h"
#include "../simd_math.h"
#include "../thread_pool.h"
#include "nn_float.h"

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

// Max and sum of a contiguous row with eight independent lanes, so GCC vectorizes them
// without reassociation flags.
template <class T>
T row_max(const T* x, int64_t n) {
  T acc[8];
  for (auto& a : acc) a = -std::numeric_limits<T>::infinity();
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) acc[l] = x[j + l] > acc[l] ? x[j + l] : acc[l];
  T m = -std::numeric_limits<T>::infinity();
  for (; j < n; ++j) m = x[j] > m ? x[j] : m;
  for (int l = 0; l < 8; ++l) m = acc[l] > m ? acc[l] : m;
  return m;
}

// Writes exp(x - shift) to y and returns its sum.
template <class T>
T exp_shifted_sum(const T* x, T shift, T* y, int64_t n) {
  T acc[8] = {};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) {
      y[j + l] = simd_math::exp(x[j + l] - shift);
      acc[l] += y[j + l];
    }
  T s = 0;
  for (; j < n; ++j) {
    y[j] = simd_math::exp(x[j] - shift);
    s += y[j];
  }
  for (int l = 0; l < 8; ++l) s += acc[l];
  return s;
}

template <class T>
void softmax_rows(const T* x, T* y, int64_t rows, int64_t n, bool log, bool safe) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    const T m = row_max(xr, n);
    if (safe && m == -std::numeric_limits<T>::infinity()) {
      for (int64_t j = 0; j < n; ++j) yr[j] = T(0);
      continue;
    }
    const T shift = finite_shift(m);
    const T s = exp_shifted_sum(xr, shift, yr, n);
    if (log) {  // (x - shift) - log(s), in that order: shift + log(s) can round away log(s)
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
void softmax_block(const T* x, T* y, int64_t n, int64_t inner, bool log, bool safe, T* shift,
                   T* sum) {
  for (int64_t k = 0; k < inner; ++k) shift[k] = -std::numeric_limits<T>::infinity();
  for (int64_t c = 0; c < n; ++c)
    for (int64_t k = 0; k < inner; ++k) {
      const T v = x[c * inner + k];
      shift[k] = v > shift[k] ? v : shift[k];
    }
  for (int64_t k = 0; k < inner; ++k) {
    shift[k] = finite_shift(shift[k]);
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

// Grain of the parallel loops in elements: below ~32k elements one thread is faster.
constexpr int64_t kGrainElements = 1 << 15;

int64_t grain_rows(int64_t row_elements) {
  return std::max<int64_t>(1, kGrainElements / std::max<int64_t>(1, row_elements));
}

}  // namespace

NdArray softmax(const NdArray& x_in, int64_t axis, bool log, bool safe) {
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
        softmax_rows(xp + b * block, yp + b * block, e - b, d.n, log, safe);
        return;
      }
      std::vector<T> shift(d.inner), sum(d.inner);
      for (int64_t o = b; o < e; ++o)
        softmax_block(xp + o * block, yp + o * block, d.n, d.inner, log, safe, shift.data(),
                      sum.data());
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
