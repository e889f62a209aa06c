// L0: normalization over trailing axes (see nn_normalize.h).
//
// Why native: the composite is mean, subtract, multiply, mean, add, sqrt, divide, multiply
// (eight Python dispatches and passes over memory) and its backward five more; layer_norm of
// a (2048, 256) activation took 2.2x PyTorch's fused kernel.  Here each row is read twice
// forward (mean, then the centred sum of squares: the two-pass variance of the composite, no
// cancellation) and written once; backward reads g and xhat twice.
#include "nn_normalize.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "../errors.h"
#include "../thread_pool.h"
#include "nn_float.h"

namespace arraycore::native::nn_normalize {
namespace {

struct Rows {
  int64_t rows = 1, n = 1;
};

Rows rows_of(const Shape& shape, int64_t k, const char* who) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (k < 1 || k > nd)
    throw ValueError(std::string(who) + ": cannot normalize over the last " + std::to_string(k) +
                     " axes of an array of dimension " + std::to_string(nd));
  Rows r;
  for (int64_t i = 0; i < nd - k; ++i) r.rows *= shape[i];
  for (int64_t i = nd - k; i < nd; ++i) r.n *= shape[i];
  return r;
}

Shape keepdims_shape(const Shape& shape, int64_t k) {
  Shape s = shape;
  for (int64_t i = static_cast<int64_t>(s.size()) - k; i < static_cast<int64_t>(s.size()); ++i)
    s[i] = 1;
  return s;
}

void check_float(const NdArray& a, DType dt, const char* who, const char* what) {
  nn_float::require_float(a, who);
  if (a.dtype != dt)
    throw TypeError(std::string(who) + ": " + what + " must have the input's dtype");
}

// Sums with eight independent accumulators, so GCC vectorizes them without reassociation.
template <class T>
double row_sum(const T* x, int64_t n) {
  double acc[8] = {};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) acc[l] += static_cast<double>(x[j + l]);
  double s = 0;
  for (; j < n; ++j) s += static_cast<double>(x[j]);
  for (int l = 0; l < 8; ++l) s += acc[l];
  return s;
}

template <class T>
double row_centred_squares(const T* x, double mean, int64_t n) {
  double acc[8] = {};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) {
      const double d = static_cast<double>(x[j + l]) - mean;
      acc[l] += d * d;
    }
  double s = 0;
  for (; j < n; ++j) {
    const double d = static_cast<double>(x[j]) - mean;
    s += d * d;
  }
  for (int l = 0; l < 8; ++l) s += acc[l];
  return s;
}

template <class T>
void dot2(const T* g, const T* xh, int64_t n, double& sg, double& sgx) {
  double a[8] = {}, b[8] = {};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) {
      a[l] += static_cast<double>(g[j + l]);
      b[l] += static_cast<double>(g[j + l]) * static_cast<double>(xh[j + l]);
    }
  sg = 0;
  sgx = 0;
  for (; j < n; ++j) {
    sg += static_cast<double>(g[j]);
    sgx += static_cast<double>(g[j]) * static_cast<double>(xh[j]);
  }
  for (int l = 0; l < 8; ++l) {
    sg += a[l];
    sgx += b[l];
  }
}

int64_t grain_rows(int64_t n) { return std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(1, n)); }

}  // namespace

std::vector<NdArray> normalize_trailing(const NdArray& x_in, int64_t k, double eps) {
  const char* who = "normalize";
  check_float(x_in, x_in.dtype, who, "input");
  const Rows r = rows_of(x_in.shape, k, who);
  const NdArray x = contiguous(x_in);
  NdArray xhat = empty(x.shape, x.dtype);
  const Shape ks = keepdims_shape(x.shape, k);
  NdArray mean = empty(ks, x.dtype), var = empty(ks, x.dtype);
  if (x.numel() == 0) {
    // empty rows: mean and var of nothing are NaN (as the composite's mean gives)
    auto fill_nan = [](NdArray& a) {
      if (a.dtype == DType::Float32) std::fill_n(reinterpret_cast<float*>(a.data()), a.numel(), NAN);
      else std::fill_n(reinterpret_cast<double*>(a.data()), a.numel(), NAN);
    };
    fill_nan(mean);
    fill_nan(var);
    return {xhat, mean, var};
  }
  auto run = [&]<class T>() {
    const T* xp = reinterpret_cast<const T*>(x.data());
    T* yp = reinterpret_cast<T*>(xhat.data());
    T* mp = reinterpret_cast<T*>(mean.data());
    T* vp = reinterpret_cast<T*>(var.data());
    const int64_t n = r.n;
    parallel_for(r.rows, grain_rows(n), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T* xr = xp + i * n;
        T* yr = yp + i * n;
        const double m = row_sum(xr, n) / static_cast<double>(n);
        const double v = row_centred_squares(xr, m, n) / static_cast<double>(n);
        // Rounded to T before use, as the composite computes mean, var and rstd in T.
        const T mt = static_cast<T>(m), vt = static_cast<T>(v);
        const T rstd = T(1) / std::sqrt(vt + static_cast<T>(eps));
        for (int64_t j = 0; j < n; ++j) yr[j] = (xr[j] - mt) * rstd;
        mp[i] = mt;
        vp[i] = vt;
      }
    });
  };
  nn_float::dispatch_float(x.dtype, run);
  return {xhat, mean, var};
}

NdArray normalize_trailing_backward(const NdArray& g_in, const NdArray& xhat_in,
                                    const NdArray& var_in, int64_t k, double eps) {
  const char* who = "normalize_backward";
  check_float(xhat_in, xhat_in.dtype, who, "xhat");
  check_float(g_in, xhat_in.dtype, who, "gradient");
  check_float(var_in, xhat_in.dtype, who, "var");
  const Rows r = rows_of(xhat_in.shape, k, who);
  if (g_in.shape != xhat_in.shape || var_in.numel() != r.rows)
    throw ValueError(std::string(who) + ": gradient, xhat and var shapes do not match");
  const NdArray g = contiguous(g_in), xhat = contiguous(xhat_in), var = contiguous(var_in);
  NdArray dx = empty(xhat.shape, xhat.dtype);
  if (dx.numel() == 0) return dx;
  auto run = [&]<class T>() {
    const T* gp = reinterpret_cast<const T*>(g.data());
    const T* xp = reinterpret_cast<const T*>(xhat.data());
    const T* vp = reinterpret_cast<const T*>(var.data());
    T* dp = reinterpret_cast<T*>(dx.data());
    const int64_t n = r.n;
    parallel_for(r.rows, grain_rows(n), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T* gr = gp + i * n;
        const T* xr = xp + i * n;
        T* dr = dp + i * n;
        double sg, sgx;
        dot2(gr, xr, n, sg, sgx);
        const T mg = static_cast<T>(sg / static_cast<double>(n));
        const T mgx = static_cast<T>(sgx / static_cast<double>(n));
        const T rstd = T(1) / std::sqrt(vp[i] + static_cast<T>(eps));
        for (int64_t j = 0; j < n; ++j) dr[j] = rstd * (gr[j] - mg - xr[j] * mgx);
      }
    });
  };
  nn_float::dispatch_float(xhat.dtype, run);
  return dx;
}

}  // namespace arraycore::native::nn_normalize
