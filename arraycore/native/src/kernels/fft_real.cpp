// FFT: real-input forward (r2c) and real-output inverse (c2r) transforms.
//
// Two real lines ride in one complex transform: z = x1 + i*x2 has Z_k = X1_k + i*X2_k with
// X1, X2 Hermitian, so X1_k = (Z_k + conj Z_(n-k)) / 2 and X2_k = (Z_k - conj Z_(n-k)) / (2i).
// The inverse builds Z from two half-spectra the same way and reads x1, x2 off the real and
// imaginary parts.  A batch of 2B real lines thus costs B complex lines: half the complex
// cost, for every length.  (An odd line count pairs the last line with zeros.)
#include <algorithm>
#include <complex>
#include <string>

#include "../errors.h"
#include "fft.h"
#include "fft_copy.h"
#include "fft_exec.h"
#include "fft_lines.h"

namespace arraycore::native {
namespace fft {
namespace {

constexpr int64_t kPairMinLength = 256;

// X1 = (Z_k + conj Z_(n-k)) / 2 and X2 = (Z_k - conj Z_(n-k)) / (2i), k < h, times 2*half,
// into split arrays of rows of B (vector loops over the batch).
template <class T>
void unpack_pairs(const T* zr, const T* zi, int64_t n, int64_t B, T half, T* x1r, T* x1i,
                  T* x2r, T* x2i) {
  const int64_t h = n / 2 + 1;
  for (int64_t k = 0; k < h; ++k) {
    const int64_t kk = k == 0 ? 0 : n - k;
    const T* a = zr + k * B;
    const T* bb = zi + k * B;
    const T* c = zr + kk * B;
    const T* e = zi + kk * B;
    T* o1r = x1r + k * B;
    T* o1i = x1i + k * B;
    T* o2r = x2r + k * B;
    T* o2i = x2i + k * B;
    for (int64_t b = 0; b < B; ++b) {
      o1r[b] = (a[b] + c[b]) * half;
      o1i[b] = (bb[b] - e[b]) * half;
      o2r[b] = (bb[b] + e[b]) * half;
      o2i[b] = (c[b] - a[b]) * half;
    }
  }
}

// unpack_pairs fused with the scatter for rows (unit element stride, lines far apart), the
// layout of rfft along the last axis: the half-spectra X1 (lines offs1[b], b < B) and X2
// (lines offs2[b], b < count2 <= B) are computed from Z bins k and n-k for L bins of L lines
// at a time, transposed in registers and stored as interleaved complex rows.  Saves the
// round trip of four h x B arrays through L2 that unpack_pairs + scatter_complex make (the
// same operations in the same order: bit-identical results).
template <class T>
void unpack_scatter_rows(const T* zr, const T* zi, int64_t n, int64_t B, T half, T* base,
                         const int64_t* offs1, const int64_t* offs2, int64_t count2) {
  constexpr int L = kCopyLanes<T>;
  using V = Vec<T, L>;
  constexpr auto seq = std::make_index_sequence<L>{};
  const int64_t h = n / 2 + 1, hv = h - h % L;
  auto store_rows = [&](V* re, V* im, const int64_t* offs, int64_t b0, int64_t k0) {
    detail::transpose<T, L>(re);
    detail::transpose<T, L>(im);
    for (int i = 0; i < L; ++i) {
      T* p = base + 2 * (offs[b0 + i] + k0);
      vstore(p, detail::interleave_lo<V>(re[i], im[i], seq));
      vstore(p + L, detail::interleave_hi<V>(re[i], im[i], seq));
    }
  };
  auto scalar_bin = [&](int64_t k, int64_t b) {
    const int64_t kk = k == 0 ? 0 : n - k;
    const T a = zr[k * B + b], bb = zi[k * B + b], c = zr[kk * B + b], e = zi[kk * B + b];
    T* p1 = base + 2 * (offs1[b] + k);
    p1[0] = (a + c) * half;
    p1[1] = (bb - e) * half;
    if (b < count2) {
      T* p2 = base + 2 * (offs2[b] + k);
      p2[0] = (bb + e) * half;
      p2[1] = (c - a) * half;
    }
  };
  int64_t b0 = 0;
  for (; b0 + L <= count2; b0 += L) {
    for (int64_t k0 = 0; k0 < hv; k0 += L) {
      V x1r[L], x1i[L], x2r[L], x2i[L];
      for (int i = 0; i < L; ++i) {
        const int64_t k = k0 + i, kk = k == 0 ? 0 : n - k;
        const V a = vload<V>(zr + k * B + b0), bb = vload<V>(zi + k * B + b0);
        const V c = vload<V>(zr + kk * B + b0), e = vload<V>(zi + kk * B + b0);
        x1r[i] = (a + c) * half;
        x1i[i] = (bb - e) * half;
        x2r[i] = (bb + e) * half;
        x2i[i] = (c - a) * half;
      }
      store_rows(x1r, x1i, offs1, b0, k0);
      store_rows(x2r, x2i, offs2, b0, k0);
    }
    for (int64_t k = hv; k < h; ++k)
      for (int64_t b = b0; b < b0 + L; ++b) scalar_bin(k, b);
  }
  for (int64_t k = 0; k < h; ++k)
    for (int64_t b = b0; b < B; ++b) scalar_bin(k, b);
}

// Z = X1 + i*X2 over the full length from two half-spectra held as split rows of B (h rows
// each); bin k >= h is conj X_(n-k).  The imaginary parts of DC and Nyquist are dropped.
template <class T>
void pack_pairs(T* h1r, T* h1i, T* h2r, T* h2i, int64_t n, int64_t B, T* zr, T* zi) {
  const int64_t h = n / 2 + 1;
  std::fill(h1i, h1i + B, T(0));
  std::fill(h2i, h2i + B, T(0));
  if (n % 2 == 0) {
    std::fill(h1i + (n / 2) * B, h1i + (n / 2 + 1) * B, T(0));
    std::fill(h2i + (n / 2) * B, h2i + (n / 2 + 1) * B, T(0));
  }
  for (int64_t k = 0; k < n; ++k) {
    const bool mirror = k >= h;
    const int64_t src = mirror ? n - k : k;
    const T sg = mirror ? T(-1) : T(1);
    const T* ar = h1r + src * B;
    const T* ai = h1i + src * B;
    const T* br = h2r + src * B;
    const T* bi = h2i + src * B;
    T* orr = zr + k * B;
    T* oi = zi + k * B;
    for (int64_t b = 0; b < B; ++b) {
      orr[b] = ar[b] - sg * bi[b];
      oi[b] = sg * ai[b] + br[b];
    }
  }
}

// Whether two real lines share one complex transform.  Pairing halves the cost but adds
// the other line's rounding errors and one more rounding (the unpacking) to each result:
// below kPairMinLength, where a transform rounds only a few times, that is measurably less
// accurate than pocketfft's real transforms (up to ~1.2x its error; tests/
// test_fft_accuracy.py), so short lines go one per complex line (full complex cost, which at
// these lengths is mostly the copies anyway).  Above, paired lines stay within ~1.03x of
// pocketfft's error (docs/fft.md, "Accuracy").
inline bool pair_lines(int64_t n) { return n >= kPairMinLength; }

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
  const T* s = reinterpret_cast<const T*>(x.data());
  T* d = reinterpret_cast<T*>(out.data());
  if (!pair_lines(n)) {
    // One real line per complex line (zero imaginary parts): the butterflies then round
    // exactly as a real transform would.
    const int64_t per_line = batch_lines(plan, L.count, neighbour_lines(L));
    const T scale = static_cast<T>(scale_d);
    for_each_group(L.count, per_line, n, [&](int64_t l0, int64_t B) {
      Scratch<T> buf(4 * n * B);
      T* br = buf.data();
      T* bi = br + n * B;
      gather_real(s, L.in_off.data() + l0, B, B, n, L.in_stride, br);
      std::fill(bi, bi + n * B, T(0));
      auto [zr, zi] = execute_to(plan, br, bi, bi + n * B, bi + 2 * n * B, B);
      scatter_complex(d, L.out_off.data() + l0, B, B, n / 2 + 1, L.out_stride, zr, zi, scale);
    });
    return out;
  }
  const int64_t pairs = (L.count + 1) / 2;
  const int64_t per_group = 2 * batch_lines(plan, pairs, neighbour_lines(L));
  const T half = static_cast<T>(0.5 * scale_d);
  for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t cnt) {
    const int64_t B = (cnt + 1) / 2;  // line l0+b -> real part, line l0+B+b -> imaginary part
    const int64_t h = n / 2 + 1;
    Scratch<T> buf(4 * n * B + 4 * h * B);
    T* br = buf.data();
    T* bi = br + n * B;
    T* x1r = br + 4 * n * B;
    T* x1i = x1r + h * B;
    T* x2r = x1i + h * B;
    T* x2i = x2r + h * B;
    gather_real(s, L.in_off.data() + l0, B, B, n, L.in_stride, br);
    gather_real(s, L.in_off.data() + l0 + B, cnt - B, B, n, L.in_stride, bi);
    auto [zr, zi] = execute_to(plan, br, bi, bi + n * B, bi + 2 * n * B, B);
    if (L.out_stride == 1 && !unit_batch(L.out_off.data() + l0, B)) {
      unpack_scatter_rows(zr, zi, n, B, half, d, L.out_off.data() + l0,
                          L.out_off.data() + l0 + B, cnt - B);
      return;
    }
    unpack_pairs(zr, zi, n, B, half, x1r, x1i, x2r, x2i);
    const T one = T(1);
    scatter_complex(d, L.out_off.data() + l0, B, B, h, L.out_stride, x1r, x1i, one);
    scatter_complex(d, L.out_off.data() + l0 + B, cnt - B, B, h, L.out_stride, x2r, x2i, one);
  });
  return out;
}

template <class T>
NdArray c2r(const NdArray& x, int axis, int64_t n, double scale_d) {
  Shape shape = x.shape;
  shape[axis] = n;
  NdArray out = empty(shape, x.dtype == DType::Complex64 ? DType::Float32 : DType::Float64);
  const Lines L = lines_along(x, out, axis);
  if (L.count == 0) return out;
  auto plan_ptr = get_plan<T>(n, 1);
  const Plan<T>& plan = *plan_ptr;
  const int64_t pairs = pair_lines(n) ? (L.count + 1) / 2 : L.count;
  const int64_t per_group = (pair_lines(n) ? 2 : 1) * batch_lines(plan, pairs, neighbour_lines(L));
  const T* s = reinterpret_cast<const T*>(x.data());
  T* d = reinterpret_cast<T*>(out.data());
  const T scale = static_cast<T>(scale_d);
  for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t cnt) {
    // Paired: line l0+b -> real part, line l0+B+b -> imaginary part.  Unpaired: every line
    // with a zero partner.
    const int64_t B = pair_lines(n) ? (cnt + 1) / 2 : cnt;
    const int64_t h = n / 2 + 1;
    Scratch<T> buf(4 * n * B + 4 * h * B);
    T* br = buf.data();
    T* bi = br + n * B;
    T* h1r = br + 4 * n * B;
    T* h1i = h1r + h * B;
    T* h2r = h1i + h * B;
    T* h2i = h2r + h * B;
    gather_complex(s, L.in_off.data() + l0, B, B, h, L.in_stride, h1r, h1i);
    if (cnt - B < B) {  // the unpaired last line: a zero partner
      std::fill(h2r, h2r + 2 * h * B, T(0));
    }
    gather_complex(s, L.in_off.data() + l0 + B, cnt - B, B, h, L.in_stride, h2r, h2i);
    pack_pairs(h1r, h1i, h2r, h2i, n, B, br, bi);
    auto [zr, zi] = execute_to(plan, br, bi, bi + n * B, bi + 2 * n * B, B);
    scatter_real(d, L.out_off.data() + l0, B, B, n, L.out_stride, zr, scale);
    scatter_real(d, L.out_off.data() + l0 + B, cnt - B, B, n, L.out_stride, zi, scale);
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
