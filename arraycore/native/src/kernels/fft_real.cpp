// FFT: real-input forward (r2c) and real-output inverse (c2r) transforms.
//
// Two real lines ride in one complex transform: z = x1 + i*x2 has Z_k = X1_k + i*X2_k with
// X1, X2 Hermitian, so X1_k = (Z_k + conj Z_(n-k)) / 2 and X2_k = (Z_k - conj Z_(n-k)) / (2i).
// The inverse builds Z from two half-spectra the same way and reads x1, x2 off the real and
// imaginary parts.  A batch of 2B real lines thus costs B complex lines: half the complex
// cost, for every length.  (An odd line count pairs the last line with zeros.)
#include <complex>
#include <string>

#include "../errors.h"
#include "fft.h"
#include "fft_exec.h"
#include "fft_lines.h"

namespace arraycore::native {
namespace fft {
namespace {

template <class T>
NdArray r2c(const NdArray& x, int axis, double scale_d) {
  const int64_t n = x.shape[axis], h = n / 2 + 1;
  Shape shape = x.shape;
  shape[axis] = h;
  NdArray out = empty(shape, x.dtype == DType::Float32 ? DType::Complex64 : DType::Complex128);
  const Lines L = lines_along(x, out, axis);
  if (L.count == 0) return out;
  auto plan_ptr = get_plan<T>(n, -1);
  const Plan<T>& plan = *plan_ptr;
  const int64_t pairs = (L.count + 1) / 2;
  const int64_t per_group = 2 * batch_lines(plan, pairs);
  const T* s = reinterpret_cast<const T*>(x.data());
  T* d = reinterpret_cast<T*>(out.data());
  const int64_t ss = L.in_stride, ds = L.out_stride * 2;
  const T half = static_cast<T>(0.5 * scale_d);
  for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t cnt) {
    const int64_t B = (cnt + 1) / 2;  // line l0+b -> real part, line l0+B+b -> imaginary part
    Scratch<T> buf(2 * n * B);
    T* br = buf.data();
    T* bi = br + n * B;
    for (int64_t b = 0; b < B; ++b) {
      const T* l1 = s + L.in_off[l0 + b];
      for (int64_t t = 0; t < n; ++t) br[t * B + b] = l1[t * ss];
      if (B + b < cnt) {
        const T* l2 = s + L.in_off[l0 + B + b];
        for (int64_t t = 0; t < n; ++t) bi[t * B + b] = l2[t * ss];
      } else {
        for (int64_t t = 0; t < n; ++t) bi[t * B + b] = T(0);
      }
    }
    execute(plan, br, bi, B);
    for (int64_t b = 0; b < B; ++b) {
      T* o1 = d + 2 * L.out_off[l0 + b];
      T* o2 = B + b < cnt ? d + 2 * L.out_off[l0 + B + b] : nullptr;
      for (int64_t k = 0; k < h; ++k) {
        const int64_t kk = k == 0 ? 0 : n - k;
        const T a = br[k * B + b], bb = bi[k * B + b];
        const T c = br[kk * B + b], e = bi[kk * B + b];
        o1[k * ds] = (a + c) * half;
        o1[k * ds + 1] = (bb - e) * half;
        if (o2) {
          o2[k * ds] = (bb + e) * half;
          o2[k * ds + 1] = (c - a) * half;
        }
      }
    }
  });
  return out;
}

template <class T>
NdArray c2r(const NdArray& x, int axis, int64_t n, double scale_d) {
  const int64_t h = n / 2 + 1;
  Shape shape = x.shape;
  shape[axis] = n;
  NdArray out = empty(shape, x.dtype == DType::Complex64 ? DType::Float32 : DType::Float64);
  const Lines L = lines_along(x, out, axis);
  if (L.count == 0) return out;
  auto plan_ptr = get_plan<T>(n, 1);
  const Plan<T>& plan = *plan_ptr;
  const int64_t pairs = (L.count + 1) / 2;
  const int64_t per_group = 2 * batch_lines(plan, pairs);
  const T* s = reinterpret_cast<const T*>(x.data());
  T* d = reinterpret_cast<T*>(out.data());
  const int64_t ss = L.in_stride * 2, ds = L.out_stride;
  const T scale = static_cast<T>(scale_d);
  const bool even = n % 2 == 0;
  for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t cnt) {
    const int64_t B = (cnt + 1) / 2;
    Scratch<T> buf(2 * n * B);
    T* br = buf.data();
    T* bi = br + n * B;
    // Bin k of the full spectrum of a line: X_k for k < h, conj X_(n-k) above; the imaginary
    // parts of DC and Nyquist do not exist for a real signal and are dropped.
    auto bin = [&](const T* line, int64_t k, T& re, T& im) {
      if (k < h) {
        re = line[k * ss];
        im = (k == 0 || (even && k == n / 2)) ? T(0) : line[k * ss + 1];
      } else {
        re = line[(n - k) * ss];
        im = -line[(n - k) * ss + 1];
      }
    };
    for (int64_t b = 0; b < B; ++b) {
      const T* l1 = s + 2 * L.in_off[l0 + b];
      const T* l2 = B + b < cnt ? s + 2 * L.in_off[l0 + B + b] : nullptr;
      for (int64_t k = 0; k < n; ++k) {
        T r1, i1, r2 = 0, i2 = 0;
        bin(l1, k, r1, i1);
        if (l2) bin(l2, k, r2, i2);
        br[k * B + b] = r1 - i2;  // Z = X1 + i*X2
        bi[k * B + b] = i1 + r2;
      }
    }
    execute(plan, br, bi, B);
    for (int64_t b = 0; b < B; ++b) {
      T* o1 = d + L.out_off[l0 + b];
      for (int64_t t = 0; t < n; ++t) o1[t * ds] = br[t * B + b] * scale;
      if (B + b < cnt) {
        T* o2 = d + L.out_off[l0 + B + b];
        for (int64_t t = 0; t < n; ++t) o2[t * ds] = bi[t * B + b] * scale;
      }
    }
  });
  return out;
}

}  // namespace
}  // namespace fft

NdArray fft_r2c(const NdArray& x, int axis, double scale) {
  if (axis < 0 || axis >= x.ndim()) throw ValueError("fft_r2c: axis " + std::to_string(axis) + " out of range");
  if (x.shape[axis] < 1) throw ValueError("fft_r2c: invalid number of data points (0) along axis " + std::to_string(axis));
  if (x.dtype == DType::Float32) return fft::r2c<float>(x, axis, scale);
  if (x.dtype == DType::Float64) return fft::r2c<double>(x, axis, scale);
  throw TypeError(std::string("fft_r2c: expected float32 or float64, got ") + dtype_name(x.dtype));
}

NdArray fft_c2r(const NdArray& x, int axis, int64_t n, double scale) {
  if (axis < 0 || axis >= x.ndim()) throw ValueError("fft_c2r: axis " + std::to_string(axis) + " out of range");
  if (n < 1) throw ValueError("fft_c2r: invalid number of data points (" + std::to_string(n) + ")");
  if (x.shape[axis] != n / 2 + 1)
    throw ValueError("fft_c2r: expected length " + std::to_string(n / 2 + 1) + " along axis " +
                     std::to_string(axis) + " for n=" + std::to_string(n) + ", got " +
                     std::to_string(x.shape[axis]));
  if (x.dtype == DType::Complex64) return fft::c2r<float>(x, axis, n, scale);
  if (x.dtype == DType::Complex128) return fft::c2r<double>(x, axis, n, scale);
  throw TypeError(std::string("fft_c2r: expected complex64 or complex128, got ") + dtype_name(x.dtype));
}

}  // namespace arraycore::native
