// arange, linspace, eye, tril/triu: fill kernels over fresh C-contiguous arrays.
#include "../creation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "../errors.h"
#include "../thread_pool.h"

// NumPy computes x0 + i*delta as a rounded product then a rounded sum; with -march=native the
// compiler would fuse them into an FMA and the results would differ in the last bit.
#pragma GCC optimize("fp-contract=off")

namespace arraycore::native {
namespace {

constexpr int64_t kFillGrain = int64_t(1) << 15;

// Calls body(begin, end) over [0, n) on the pool.
template <class F>
void parallel_fill(int64_t n, F&& body) {
  if (n <= kFillGrain) {
    if (n > 0) body(int64_t(0), n);
    return;
  }
  parallel_for(n, kFillGrain, [&](int64_t b, int64_t e) { body(b, e); });
}

void check_length(int64_t n, const char* who) {
  if (n < 0)
    throw ValueError(std::string(who) + ": negative number of elements " + std::to_string(n));
}

template <class T>
T from_double(double x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x != 0.0;
  } else if constexpr (is_complex_v<T>) {
    return T(static_cast<real_t<T>>(x), 0);
  } else {
    return static_cast<T>(x);
  }
}

}  // namespace

int64_t arange_length(int64_t start, int64_t stop, int64_t step) {
  if (step == 0) throw ValueError("arange: step must not be zero");
  __int128 delta = static_cast<__int128>(stop) - start;
  __int128 n;
  if (step > 0) n = delta <= 0 ? 0 : (delta + step - 1) / step;
  else n = delta >= 0 ? 0 : (delta + step + 1) / step;
  if (n > std::numeric_limits<int64_t>::max())
    throw ValueError("arange: maximum allowed size exceeded");
  return static_cast<int64_t>(n);
}

int64_t arange_length(double start, double stop, double step) {
  if (step == 0.0) throw ValueError("arange: step must not be zero");
  double len = std::ceil((stop - start) / step);
  if (std::isnan(len)) throw ValueError("arange: cannot compute the length (NaN in the arguments)");
  if (len <= 0) return 0;
  if (!(len < 9.2e18)) throw ValueError("arange: maximum allowed size exceeded");
  return static_cast<int64_t>(len);
}

NdArray arange_int(int64_t start, int64_t step, int64_t n, DType dtype) {
  check_length(n, "arange");
  NdArray out = empty({n}, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool> || is_complex_v<T>) {
      throw TypeError(std::string("arange: unsupported dtype ") + dtype_name(dtype));
    } else {
      T* o = reinterpret_cast<T*>(out.data());
      const uint64_t s0 = static_cast<uint64_t>(start), d = static_cast<uint64_t>(step);
      parallel_fill(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
          o[i] = static_cast<T>(static_cast<int64_t>(s0 + static_cast<uint64_t>(i) * d));
      });
    }
  });
  return out;
}

NdArray arange_float(double start, double step, int64_t n, DType dtype) {
  check_length(n, "arange");
  NdArray out = empty({n}, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool> || is_complex_v<T>) {
      throw TypeError(std::string("arange: unsupported dtype ") + dtype_name(dtype));
    } else if constexpr (std::is_integral_v<T>) {
      // NumPy: the first two elements are converted, the rest follow their difference.
      const int64_t x0 = static_cast<int64_t>(start);
      const int64_t delta = static_cast<int64_t>(start + step) - x0;
      T* o = reinterpret_cast<T*>(out.data());
      parallel_fill(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) o[i] = static_cast<T>(x0 + i * delta);
      });
    } else {
      const T x0 = static_cast<T>(start);
      const T x1 = static_cast<T>(start + step);
      const T delta = x1 - x0;
      T* o = reinterpret_cast<T*>(out.data());
      parallel_fill(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) o[i] = x0 + static_cast<T>(i) * delta;
      });
      if (n > 1) o[1] = x1;
    }
  });
  return out;
}

NdArray linspace(c128 start, c128 stop, int64_t num, bool endpoint, DType dtype) {
  if (num < 0)
    throw ValueError("linspace: number of samples must be non-negative, got " +
                     std::to_string(num));
  NdArray out = empty({num}, dtype);
  const int64_t div = endpoint ? num - 1 : num;
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = reinterpret_cast<T*>(out.data());
    if constexpr (is_complex_v<T>) {
      using R = real_t<T>;
      const double sr = start.real(), si = start.imag();
      const double dr = stop.real() - sr, di = stop.imag() - si;
      const double ddiv = static_cast<double>(div);
      // NumPy divides complex by real through Smith's algorithm: a multiply by 1/div.
      const double scl = div > 0 ? 1.0 / ddiv : 0.0;
      const double pr = dr * scl, pi = di * scl;
      const bool step_zero = div > 0 && pr == 0.0 && pi == 0.0;
      parallel_fill(num, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          const double x = static_cast<double>(i);
          double re, im;
          if (div <= 0) { re = x * dr + sr; im = x * di + si; }
          else if (step_zero) { re = (x * scl) * dr + sr; im = (x * scl) * di + si; }
          else { re = x * pr + sr; im = x * pi + si; }
          o[i] = T(static_cast<R>(re), static_cast<R>(im));
        }
      });
      if (endpoint && num > 1) o[num - 1] = T(static_cast<R>(stop.real()), static_cast<R>(stop.imag()));
    } else {
      const double s = start.real();
      const double delta = stop.real() - s;
      const double ddiv = static_cast<double>(div);
      const double step = div > 0 ? delta / ddiv : 0.0;
      const bool step_zero = div > 0 && step == 0.0;
      auto store = [](double v) -> T {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) v = std::floor(v);
        return from_double<T>(v);
      };
      parallel_fill(num, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) {
          const double x = static_cast<double>(i);
          double v;
          if (div <= 0) v = x * delta + s;
          else if (step_zero) v = (x / ddiv) * delta + s;
          else v = x * step + s;
          o[i] = store(v);
        }
      });
      if (endpoint && num > 1) o[num - 1] = store(stop.real());
    }
  });
  return out;
}

NdArray eye(int64_t n_rows, int64_t n_cols, int64_t k, DType dtype) {
  if (n_rows < 0 || n_cols < 0)
    throw ValueError("eye: negative dimension (n_rows=" + std::to_string(n_rows) +
                     ", n_cols=" + std::to_string(n_cols) + ")");
  NdArray out = empty({n_rows, n_cols}, dtype);
  const size_t isz = out.itemsize();
  const int64_t total = out.numel();
  char* base = out.data();
  parallel_fill(total, [&](int64_t b, int64_t e) {
    std::memset(base + b * isz, 0, static_cast<size_t>(e - b) * isz);
  });
  // Diagonal k: elements (i, i + k) for max(0, -k) <= i < min(n_rows, n_cols - k).
  if (k >= n_cols || -k >= n_rows) return out;
  const int64_t i0 = std::max<int64_t>(0, -k);
  const int64_t i1 = std::min<int64_t>(n_rows, n_cols - k);
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = reinterpret_cast<T*>(base);
    for (int64_t i = i0; i < i1; ++i) o[i * n_cols + i + k] = T(1);
  });
  return out;
}

NdArray tri(const NdArray& a, int64_t k, bool upper) {
  const char* who = upper ? "triu" : "tril";
  if (a.ndim() < 2)
    throw ValueError(std::string(who) + ": expected an array with at least 2 dimensions, got " +
                     std::to_string(a.ndim()));
  NdArray out = empty(a.shape, a.dtype);
  if (out.numel() == 0) return out;
  const NdArray src = contiguous(a);
  const int64_t m = a.shape[a.ndim() - 2], n = a.shape[a.ndim() - 1];
  const int64_t rows = out.numel() / n;
  const size_t isz = out.itemsize();
  // Clamp k so that i + k cannot overflow; beyond +-(m + n) every k behaves the same.
  const int64_t kk = std::clamp<int64_t>(k, -(m + n + 1), m + n + 1);
  const char* s = src.data();
  char* d = out.data();
  const int64_t grain = std::max<int64_t>(1, kFillGrain / n);
  auto body = [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t i = r % m;
      int64_t lo, hi;  // kept columns [lo, hi)
      if (upper) { lo = std::clamp<int64_t>(i + kk, 0, n); hi = n; }
      else { lo = 0; hi = std::clamp<int64_t>(i + kk + 1, 0, n); }
      const char* sr = s + r * n * isz;
      char* dr = d + r * n * isz;
      if (lo > 0) std::memset(dr, 0, static_cast<size_t>(lo) * isz);
      if (hi > lo) std::memcpy(dr + lo * isz, sr + lo * isz, static_cast<size_t>(hi - lo) * isz);
      if (hi < n) std::memset(dr + hi * isz, 0, static_cast<size_t>(n - hi) * isz);
    }
  };
  if (rows <= grain) body(0, rows);
  else parallel_for(rows, grain, body);
  return out;
}

}  // namespace arraycore::native
