// FFT: real-input forward (r2c) and real-output inverse (c2r) transforms.
//
// Even lengths n = 2m ride on a complex transform of half the length.  The even and odd
// samples of a line form one complex line z_j = x_2j + i*x_(2j+1), j < m, whose transform
// Z = E + i*O holds the transforms of the even samples, E_k = (Z_k + conj Z_(m-k)) / 2, and of
// the odd ones, O_k = (Z_k - conj Z_(m-k)) / (2i) (indices mod m); the spectrum is then
// X_k = E_k + w^k * O_k, w = exp(-2*pi*i/n), for k <= m.  The inverse builds
// 2(E_k + i*O_k) = (X_k + conj X_(m-k)) + i*(X_k - conj X_(m-k)) * conj(w^k) from the half
// spectrum, transforms it back, and reads x_2j, x_(2j+1) off the real and imaginary parts.
// Half the complex cost, and each line's result depends on that line alone: pairing two
// real lines in one complex transform (z = x1 + i*x2), which costs the same, adds the
// partner's rounding errors to each result (measured up to 1.3x pocketfft's error).  The
// pass over the spectrum runs in double for single precision too, so it adds one rounding.
//
// Odd lengths go one line per complex transform with zero imaginary parts (c2r: from the
// whole Hermitian spectrum, keeping the real part), at the full complex cost; so do c2r of
// even lengths whose half has a large prime factor, for accuracy (c2r_on_whole_length).
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "../errors.h"
#include "fft.h"
#include "fft_copy.h"
#include "fft_exec.h"
#include "fft_lines.h"
#include "fft_real_bins.h"
#include "fft_real_rows.h"

namespace arraycore::native {
namespace fft {
namespace {

// r2c, even n = 2m: X_k, k <= m (m+1 rows of W, split) from Z (m rows of `zpitch`: the W
// lines from column `col` on), times `factor` (scale / 2).
template <class T>
void split_spectrum(const T* zr, const T* zi, int64_t m, int64_t zpitch, int64_t col,
                    int64_t W, const RealPlan<T>& rp, double factor, T* xr, T* xi) {
  for (int64_t k = 0; 2 * k <= m; ++k) {
    const int64_t kc = m - k;  // the partner bin (bin m for k = 0)
    const int64_t a = k * zpitch + col, c = (kc % m) * zpitch + col;
    const double *tc = &rp.tw_re[k], *ts = &rp.tw_im[k];
    const double *tcl = &rp.tw_re_lo[k], *tsl = &rp.tw_im_lo[k];
    if (2 * k == m)
      split_bins<T, false, 0>(zr + a, zi + a, zr + c, zi + c, xr + k * W, xi + k * W, nullptr,
                              nullptr, W, tc, ts, tcl, tsl, factor);
    else
      split_bins<T, true, 0>(zr + a, zi + a, zr + c, zi + c, xr + k * W, xi + k * W,
                             xr + kc * W, xi + kc * W, W, tc, ts, tcl, tsl, factor);
  }
}

// c2r, even n = 2m: Z_k, k < m (m rows of B, split), from the half spectrum X (m+1 rows; the
// imaginary parts of X_0 and X_m are ignored, as NumPy does).
template <class T>
void join_spectrum(T* hr, T* hi, int64_t m, int64_t B, const RealPlan<T>& rp, T* zr, T* zi) {
  std::fill(hi, hi + B, T(0));
  std::fill(hi + m * B, hi + (m + 1) * B, T(0));
  for (int64_t k = 0; 2 * k <= m; ++k) {
    const int64_t kc = m - k;
    const int64_t a = k * B, c = kc * B;
    const double *tc = &rp.tw_re[k], *ts = &rp.tw_im[k];
    const double *tcl = &rp.tw_re_lo[k], *tsl = &rp.tw_im_lo[k];
    if (k == 0 || 2 * k == m)
      join_bins<T, false, 0>(hr + a, hi + a, hr + c, hi + c, zr + a, zi + a, nullptr, nullptr, B,
                             tc, ts, tcl, tsl);
    else
      join_bins<T, true, 0>(hr + a, hi + a, hr + c, hi + c, zr + a, zi + a, zr + c, zi + c, B,
                            tc, ts, tcl, tsl);
  }
}

// ---- one line on its own ----
//
// A long line (is_long_line: batch_lines gives B = 1) or a lone line is transformed on its
// own, and the row passes above would then handle one bin per call in scalar code: with the
// batch's gathers and scatters, 6 ns per bin, more than the complex transform itself (rfft of
// 2^20 float32 took 1.6x a complex FFT of the same length).  Where the half-length plan can
// run a line interleaved (runs_interleaved: a four-step split or Bluestein), the complex
// transform reads the real input straight from the user's array, since it already is the
// interleaved line z_j = x_2j + i*x_(2j+1) in memory, and writes into the output.  The
// spectrum pass vectorizes over bins instead of lines: blocks of bins k and their partners
// m - k (reversed) are copied into small split arrays and go through split_bins/join_bins
// with one twiddle per element: the same arithmetic, in the same order, as the batched route.

constexpr int64_t kLineBlock = 64;  // bins per block: eight small arrays stay in L1

template <class T>
struct LineBlock {
  alignas(64) T ar[kLineBlock], ai[kLineBlock], cr[kLineBlock], ci[kLineBlock];
  alignas(64) T o1r[kLineBlock], o1i[kLineBlock], o2r[kLineBlock], o2i[kLineBlock];
};

// Bins k0 + j (at lo + 2j) and their partners m - k0 - j (at hi - 2j) of an interleaved line
// into the block's A and C rows, and the block's results back.
template <class T>
void load_pairs(const T* lo, const T* hi, int64_t w, LineBlock<T>& k) {
  for (int64_t j = 0; j < w; ++j) {
    k.ar[j] = lo[2 * j], k.ai[j] = lo[2 * j + 1];
    k.cr[j] = hi[-2 * j], k.ci[j] = hi[-2 * j + 1];
  }
}
template <class T>
void store_pairs(const LineBlock<T>& k, int64_t w, T* lo, T* hi) {
  for (int64_t j = 0; j < w; ++j) {
    lo[2 * j] = k.o1r[j], lo[2 * j + 1] = k.o1i[j];
    hi[-2 * j] = k.o2r[j], hi[-2 * j + 1] = k.o2i[j];
  }
}

// Bins 1 <= k < (m + 1) / 2 pair with m - k > k; blocks of them split across the pool.
template <class F>
void for_each_bin_block(int64_t m, F&& fn) {
  const int64_t kend = (m + 1) / 2;
  const int64_t blocks = (kend - 1 + kLineBlock - 1) / kLineBlock;
  parallel_for(blocks, 256, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t k0 = 1 + b * kLineBlock;
      fn(k0, std::min(kLineBlock, kend - k0));
    }
  });
}

// r2c pass in place on one interleaved line: z holds Z_0..Z_(m-1) and receives X_0..X_m
// (room for m + 1 complex), times `factor`.
template <class T>
void split_line(T* z, int64_t m, const RealPlan<T>& rp, double factor) {
  const double *tc = rp.tw_re.data(), *ts = rp.tw_im.data();
  const double *tcl = rp.tw_re_lo.data(), *tsl = rp.tw_im_lo.data();
  {
    LineBlock<T> k;  // bin 0 with its partner bin m, both from Z_0
    k.ar[0] = k.cr[0] = z[0];
    k.ai[0] = k.ci[0] = z[1];
    split_bins<T, true, 0>(k.ar, k.ai, k.cr, k.ci, k.o1r, k.o1i, k.o2r, k.o2i, 1, tc, ts, tcl,
                           tsl, factor);
    z[0] = k.o1r[0], z[1] = k.o1i[0], z[2 * m] = k.o2r[0], z[2 * m + 1] = k.o2i[0];
  }
  for_each_bin_block(m, [&](int64_t k0, int64_t w) {
    LineBlock<T> k;
    load_pairs(z + 2 * k0, z + 2 * (m - k0), w, k);
    split_bins<T, true, 1>(k.ar, k.ai, k.cr, k.ci, k.o1r, k.o1i, k.o2r, k.o2i, w, tc + k0,
                           ts + k0, tcl + k0, tsl + k0, factor);
    store_pairs(k, w, z + 2 * k0, z + 2 * (m - k0));
  });
  if (m % 2 == 0) {  // bin m/2 is its own partner
    LineBlock<T> k;
    const int64_t h = m / 2;
    k.ar[0] = k.cr[0] = z[2 * h];
    k.ai[0] = k.ci[0] = z[2 * h + 1];
    split_bins<T, false, 0>(k.ar, k.ai, k.cr, k.ci, k.o1r, k.o1i, nullptr, nullptr, 1, tc + h,
                            ts + h, tcl + h, tsl + h, factor);
    z[2 * h] = k.o1r[0], z[2 * h + 1] = k.o1i[0];
  }
}

// c2r pass on one interleaved line: Z_0..Z_(m-1) into z from the half spectrum x (m + 1
// complex; the imaginary parts of X_0 and X_m are ignored).
template <class T>
void join_line(const T* x, T* z, int64_t m, const RealPlan<T>& rp) {
  const double *tc = rp.tw_re.data(), *ts = rp.tw_im.data();
  const double *tcl = rp.tw_re_lo.data(), *tsl = rp.tw_im_lo.data();
  {
    LineBlock<T> k;  // Z_0 from X_0 and X_m
    k.ar[0] = x[0], k.cr[0] = x[2 * m], k.ai[0] = k.ci[0] = T(0);
    join_bins<T, false, 0>(k.ar, k.ai, k.cr, k.ci, k.o1r, k.o1i, nullptr, nullptr, 1, tc, ts,
                           tcl, tsl);
    z[0] = k.o1r[0], z[1] = k.o1i[0];
  }
  for_each_bin_block(m, [&](int64_t k0, int64_t w) {
    LineBlock<T> k;
    load_pairs(x + 2 * k0, x + 2 * (m - k0), w, k);
    join_bins<T, true, 1>(k.ar, k.ai, k.cr, k.ci, k.o1r, k.o1i, k.o2r, k.o2i, w, tc + k0,
                          ts + k0, tcl + k0, tsl + k0);
    store_pairs(k, w, z + 2 * k0, z + 2 * (m - k0));
  });
  if (m % 2 == 0) {
    LineBlock<T> k;
    const int64_t h = m / 2;
    k.ar[0] = k.cr[0] = x[2 * h];
    k.ai[0] = k.ci[0] = x[2 * h + 1];
    join_bins<T, false, 0>(k.ar, k.ai, k.cr, k.ci, k.o1r, k.o1i, nullptr, nullptr, 1, tc + h,
                           ts + h, tcl + h, tsl + h);
    z[2 * h] = k.o1r[0], z[2 * h + 1] = k.o1i[0];
  }
}

// Whether `count` lines of length n = 2m take the single-line route below: long lines and
// lone lines, where the half-length plan runs a line interleaved.
template <class T>
bool real_line_route(const RealPlan<T>& rp, int64_t count) {
  const Plan<T>& half = *rp.half;
  return runs_interleaved(half) && (count == 1 || is_long_line(half));
}

// r2c of one line of even length (element strides), times `factor` (scale / 2).
template <class T>
void r2c_line(const RealPlan<T>& rp, const T* x, int64_t in_stride, T* out, int64_t out_stride,
              double factor) {
  const int64_t m = rp.n / 2;
  const bool unit_in = in_stride == 1, unit_out = out_stride == 1;
  Scratch<T> buf(unit_in && unit_out ? 0 : 2 * (m + 1));
  const T* src = x;
  if (!unit_in) {
    for (int64_t j = 0; j < 2 * m; ++j) buf.data()[j] = x[j * in_stride];
    src = buf.data();
  }
  T* z = unit_out ? out : buf.data();
  run_line_interleaved(*rp.half, src, 1, z, 1, T(1));
  split_line(z, m, rp, factor);
  if (!unit_out)
    for (int64_t k = 0; k <= m; ++k) {
      out[2 * k * out_stride] = z[2 * k];
      out[2 * k * out_stride + 1] = z[2 * k + 1];
    }
}

// c2r of one line to even length n = 2m (element strides), times scale.
template <class T>
void c2r_line(const RealPlan<T>& rp, const T* x, int64_t in_stride, T* out, int64_t out_stride,
              T scale) {
  const int64_t m = rp.n / 2;
  Scratch<T> buf(2 * m + (in_stride == 1 ? 0 : 2 * (m + 1)));
  T* z = buf.data();
  const T* spectrum = x;
  if (in_stride != 1) {
    T* h = z + 2 * m;
    for (int64_t k = 0; k <= m; ++k) {
      h[2 * k] = x[2 * k * in_stride];
      h[2 * k + 1] = x[2 * k * in_stride + 1];
    }
    spectrum = h;
  }
  join_line(spectrum, z, m, rp);
  if (out_stride == 1) {
    run_line_interleaved(*rp.half, z, 1, out, 1, scale);
    return;
  }
  run_line_interleaved(*rp.half, z, 1, z, 1, scale);
  for (int64_t j = 0; j < 2 * m; ++j) out[j * out_stride] = z[j];
}

// c2r on the whole length: the whole spectrum (n rows) from its first h = n/2 + 1 bins, bin
// k >= h being conj X_(n-k); the imaginary parts of X_0 (and X_(n/2) for even n) are ignored.
template <class T>
void mirror_spectrum(T* hr, T* hi, int64_t n, int64_t B, T* zr, T* zi) {
  const int64_t h = n / 2 + 1;
  std::fill(hi, hi + B, T(0));
  if (n % 2 == 0) std::fill(hi + (n / 2) * B, hi + (n / 2 + 1) * B, T(0));
  std::copy(hr, hr + h * B, zr);
  std::copy(hi, hi + h * B, zi);
  for (int64_t k = h; k < n; ++k) {
    const T* ar = hr + (n - k) * B;
    const T* ai = hi + (n - k) * B;
    T* orr = zr + k * B;
    T* oi = zi + k * B;
    for (int64_t b = 0; b < B; ++b) {
      orr[b] = ar[b];
      oi[b] = -ai[b];
    }
  }
}

// c2r of an even length whose half has a prime factor above this runs on the whole length
// (as odd lengths do; twice the work).  Through half the length, the errors of the complex
// transform land in both the real and the imaginary part of z, and both are results; on the
// whole length the imaginary part's half of them is dropped.  That is ~1.3x less error, which
// matters where the large-prime passes (or Bluestein) make the transform's error largest:
// there the half-length route measured up to 1.16x pocketfft's error in double (n = 1268 =
// 4 * 317, 2164, 2402 = 2 * 1201, 3606, 3858), the whole-length one 0.76-1.0x; with prime
// factors up to 100 the half-length route stays at or below pocketfft's error.
constexpr int64_t kC2rHalfMaxPrime = 100;

inline bool c2r_on_whole_length(int64_t n) {
  if (n % 2 != 0) return true;
  const std::vector<int> primes = prime_factors(n / 2);  // ascending; empty for n = 2
  return !primes.empty() && primes.back() > kC2rHalfMaxPrime;
}

// Whether r2c of rows splits the spectrum per group of 2 L lines (L = kCopyLanes: 16 float32
// / 8 float64), scattering each group's spectrum before the next is split, instead of
// splitting the whole batch (up to 48 lines at length 1024) into L2-sized arrays first.  On
// an AVX2 build (-march=znver3, Zen 5, rfft of 4096 x 1024 float32, 1 thread) that is 3-5%
// faster (4.38-4.50 -> 4.16-4.23 ms, 4.41-4.59 -> 4.26-4.43; groups of L lines: ~4%); on
// the AVX-512 build it was level to slightly slower (3.28-3.31 -> 3.31-3.39 ms; groups of L lines: 3.5 -> 4.1 ms, a
// 512-bit split loop with only 8 lines runs mostly in its scalar remainder), so the AVX-512
// build keeps the whole-batch order.  The results are the same either way.
#if defined(__AVX512F__)
constexpr bool kSplitByGroup = false;
#else
constexpr bool kSplitByGroup = true;
#endif

template <class T>
NdArray r2c(const NdArray& x, int axis, double scale_d) {
  const int64_t n = x.shape[axis], h = n / 2 + 1;
  Shape shape = x.shape;
  shape[axis] = h;
  NdArray out = empty(shape, x.dtype == DType::Float32 ? DType::Complex64 : DType::Complex128);
  const Lines L = lines_along(x, out, axis);
  if (L.count == 0) return out;
  const T* s = reinterpret_cast<const T*>(x.data());
  T* d = reinterpret_cast<T*>(out.data());
  if (n % 2 != 0) {
    auto plan_ptr = get_plan<T>(n, -1);
    const Plan<T>& plan = *plan_ptr;
    const int64_t per_group = batch_lines(plan, L.count, neighbour_lines(L));
    const T scale = static_cast<T>(scale_d);
    for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t B) {
      Scratch<T> buf(4 * n * B);
      T* br = buf.data();
      T* bi = br + n * B;
      gather_real(s, L.in_off.data() + l0, B, B, n, L.in_stride, br);
      std::fill(bi, bi + n * B, T(0));
      auto [zr, zi] = execute_to(plan, br, bi, bi + n * B, bi + 2 * n * B, B);
      scatter_complex(d, L.out_off.data() + l0, B, B, h, L.out_stride, zr, zi, scale);
    });
    return out;
  }
  const int64_t m = n / 2;
  auto rp_ptr = get_real_plan<T>(n, -1);
  const RealPlan<T>& rp = *rp_ptr;
  if (real_line_route(rp, L.count)) {
    for_each_group(L.count, 1, n, [&](int64_t l, int64_t) {
      r2c_line(rp, s + L.in_off[l], L.in_stride, d + 2 * L.out_off[l], L.out_stride,
               0.5 * scale_d);
    });
    return out;
  }
  if (L.in_stride == 1 && L.out_stride == 1 && !neighbour_lines(L) && rows_kernel_fits(rp)) {
    r2c_rows(rp, s, L.in_off.data(), d, L.out_off.data(), L.count, 0.5 * scale_d);
    return out;
  }
  const int64_t per_group = batch_lines(*rp.half, L.count, neighbour_lines(L));
  for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t B) {
    // Four arrays of h >= m rows: the data and the executor's ping-pong pair; the spectrum
    // pass writes into whichever pair does not hold Z (no fifth and sixth array: the
    // batch's working set stays the executor's, which batch_lines sized for L2).
    Scratch<T> buf(4 * h * B);
    T* br = buf.data();
    T* bi = br + h * B;
    T* wr = bi + h * B;
    T* wi = wr + h * B;
    gather_real_halves(s, L.in_off.data() + l0, B, B, m, L.in_stride, br, bi);
    auto [zr, zi] = execute_to(*rp.half, br, bi, wr, wi, B);
    T* xr = zr == br ? wr : br;
    T* xi = zr == br ? wi : bi;
    const int64_t* offs = L.out_off.data() + l0;
    if (!kSplitByGroup || L.out_stride != 1 || unit_batch(offs, B)) {
      split_spectrum(zr, zi, m, B, 0, B, rp, 0.5 * scale_d, xr, xi);
      scatter_complex(d, offs, B, B, h, L.out_stride, xr, xi, T(1));
      return;
    }
    // Rows (AVX2 builds, see kSplitByGroup): the spectrum of two transpose groups of lines
    // at a time, into the first rows of the free pair (h rows of G) and scattered right away.
    constexpr int64_t G = 2 * kCopyLanes<T>;
    for (int64_t g0 = 0; g0 < B; g0 += G) {
      const int64_t w = std::min(G, B - g0);
      split_spectrum(zr, zi, m, B, g0, w, rp, 0.5 * scale_d, xr, xi);
      scatter_complex(d, offs + g0, w, w, h, int64_t(1), xr, xi, T(1));
    }
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
  const int64_t h = n / 2 + 1;
  const T* s = reinterpret_cast<const T*>(x.data());
  T* d = reinterpret_cast<T*>(out.data());
  const T scale = static_cast<T>(scale_d);
  if (c2r_on_whole_length(n)) {
    auto plan_ptr = get_plan<T>(n, 1);
    const Plan<T>& plan = *plan_ptr;
    const int64_t per_group = batch_lines(plan, L.count, neighbour_lines(L));
    for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t B) {
      Scratch<T> buf(4 * n * B + 2 * h * B);
      T* zr = buf.data();
      T* zi = zr + n * B;
      T* hr = zi + 3 * n * B;
      T* hi = hr + h * B;
      gather_complex(s, L.in_off.data() + l0, B, B, h, L.in_stride, hr, hi);
      mirror_spectrum(hr, hi, n, B, zr, zi);
      auto [rr, ri] = execute_to(plan, zr, zi, zi + n * B, zi + 2 * n * B, B);
      (void)ri;
      scatter_real(d, L.out_off.data() + l0, B, B, n, L.out_stride, rr, scale);
    });
    return out;
  }
  const int64_t m = n / 2;
  auto rp_ptr = get_real_plan<T>(n, 1);
  const RealPlan<T>& rp = *rp_ptr;
  if (real_line_route(rp, L.count)) {
    for_each_group(L.count, 1, n, [&](int64_t l, int64_t) {
      c2r_line(rp, s + 2 * L.in_off[l], L.in_stride, d + L.out_off[l], L.out_stride, scale);
    });
    return out;
  }
  if (L.in_stride == 1 && L.out_stride == 1 && !neighbour_lines(L) && rows_kernel_fits(rp)) {
    c2r_rows(rp, s, L.in_off.data(), d, L.out_off.data(), L.count, scale);
    return out;
  }
  const int64_t per_group = batch_lines(*rp.half, L.count, neighbour_lines(L));
  for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t B) {
    // Four arrays of h >= m rows: the half spectrum, then Z, then the half spectrum's arrays
    // serve as the executor's ping-pong pair.
    Scratch<T> buf(4 * h * B);
    T* zr = buf.data();
    T* zi = zr + h * B;
    T* hr = zi + h * B;
    T* hi = hr + h * B;
    gather_complex(s, L.in_off.data() + l0, B, B, h, L.in_stride, hr, hi);
    join_spectrum(hr, hi, m, B, rp, zr, zi);
    auto [rr, ri] = execute_to(*rp.half, zr, zi, hr, hi, B);
    scatter_real_halves(d, L.out_off.data() + l0, B, B, m, L.out_stride, rr, ri, scale);
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
