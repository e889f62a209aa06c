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

namespace arraycore::native {
namespace fft {
namespace {

// The spectrum passes below work on bins k and m - k together: both read A = Z_k and
// C = Z_(m-k) (X for c2r) and share the sums and differences of their parts and the twiddle
// products; the twiddle of m - k is w^(m-k) = -conj(w^k), i.e. (c, s) -> (-c, s) (the same
// holds for the twiddles' low parts).  Each result is a sum of three terms t0 + t1 + t2 (a
// sum of two inputs and two twiddle products).
// In double precision that runs in double-double arithmetic: the input sums by TwoSum, the
// products' errors by FMA, the two additions by TwoSum, all error terms added at the end, so
// the pass adds about one rounding per result.  Plainly evaluated, its roundings measured up
// to 1.2x pocketfft's whole error at short lengths (n = 12: 1.19x, 16: 1.15x; 256: 1.04x),
// and compensating only the input sums did not help (1.18x at n = 12).  Single-precision
// inputs are summed and multiplied in double, which is already as good.

// s = a + b exactly as s + err (Knuth's TwoSum).
inline double two_sum_err(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

// x = hi + lo exactly: a sum or difference of two doubles, or a product (lo by FMA).
struct DD {
  double hi, lo;
};
inline DD dd_sum(double a, double b) {
  const double s = a + b;
  return {s, two_sum_err(a, b, s)};
}
// (c + clo) * x for a twiddle c + clo: c*x.hi exactly (its error by FMA) plus the small rest.
inline DD dd_twiddle_mul(double c, double clo, DD x) {
  const double p = c * x.hi;
  return {p, std::fma(c, x.hi, -p) + (c * x.lo + clo * x.hi)};
}
inline DD dd_neg(DD x) { return {-x.hi, -x.lo}; }
// t0 + t1 + t2 with one final rounding (up to terms of order eps^2).
inline double dd_sum3(DD t0, DD t1, DD t2) {
  const double s1 = t0.hi + t1.hi, e1 = two_sum_err(t0.hi, t1.hi, s1);
  const double s2 = s1 + t2.hi, e2 = two_sum_err(s1, t2.hi, s2);
  return s2 + (((t0.lo + t1.lo) + t2.lo) + (e1 + e2));
}

// r2c, even n = 2m: with A = Z_(k mod m), C = Z_((m-k) mod m), w^k = c + i*s and
// p = Ar + Cr, q = Ai - Ci, u = Ai + Ci, v = Ar - Cr,
//   2 Re X_k = p + c*u + s*v,       2 Im X_k = q - c*v + s*u
//   2 Re X_(m-k) = p - c*u - s*v,   2 Im X_(m-k) = -q - c*v + s*u,
// for B lines (one row of each array), times `factor`.  Partner = false: bin k alone (2k = m).
// (Separate restrict-qualified rows: with the pointers of the caller's loop GCC did not
// vectorize it.)
template <class T, bool Partner>
void split_bins(const T* __restrict ar, const T* __restrict ai, const T* __restrict cr,
                const T* __restrict ci, T* __restrict o1r, T* __restrict o1i,
                T* __restrict o2r, T* __restrict o2i, int64_t B, double c, double s,
                double clo, double slo, double factor) {
  for (int64_t b = 0; b < B; ++b) {
    if constexpr (std::is_same_v<T, double>) {
      const DD p = dd_sum(ar[b], cr[b]), q = dd_sum(ai[b], -ci[b]);
      const DD u = dd_sum(ai[b], ci[b]), v = dd_sum(ar[b], -cr[b]);
      const DD cu = dd_twiddle_mul(c, clo, u), sv = dd_twiddle_mul(s, slo, v);
      const DD cv = dd_twiddle_mul(c, clo, v), su = dd_twiddle_mul(s, slo, u);
      if constexpr (Partner) {
        o2r[b] = factor * dd_sum3(p, dd_neg(cu), dd_neg(sv));
        o2i[b] = factor * dd_sum3(dd_neg(q), dd_neg(cv), su);
      }
      o1r[b] = factor * dd_sum3(p, cu, sv);
      o1i[b] = factor * dd_sum3(q, dd_neg(cv), su);
    } else {
      const double Ar = ar[b], Ai = ai[b], Cr = cr[b], Ci = ci[b];
      const double p = Ar + Cr, q = Ai - Ci, u = Ai + Ci, v = Ar - Cr;
      const double cu = c * u, sv = s * v, cv = c * v, su = s * u;
      if constexpr (Partner) {
        o2r[b] = static_cast<T>(factor * (p - cu - sv));
        o2i[b] = static_cast<T>(factor * (-q - cv + su));
      }
      o1r[b] = static_cast<T>(factor * (p + cu + sv));
      o1i[b] = static_cast<T>(factor * (q - cv + su));
    }
  }
}

// r2c, even n = 2m: X_k, k <= m (m+1 rows of B, split) from Z (m rows), times `factor`
// (scale / 2).
template <class T>
void split_spectrum(const T* zr, const T* zi, int64_t m, int64_t B, const RealPlan<T>& rp,
                    double factor, T* xr, T* xi) {
  for (int64_t k = 0; 2 * k <= m; ++k) {
    const int64_t kc = m - k;  // the partner bin (bin m for k = 0)
    const int64_t a = k * B, c = (kc % m) * B;
    const double tc = rp.tw_re[k], ts = rp.tw_im[k], tcl = rp.tw_re_lo[k], tsl = rp.tw_im_lo[k];
    if (2 * k == m)
      split_bins<T, false>(zr + a, zi + a, zr + c, zi + c, xr + a, xi + a, nullptr, nullptr, B,
                           tc, ts, tcl, tsl, factor);
    else
      split_bins<T, true>(zr + a, zi + a, zr + c, zi + c, xr + a, xi + a, xr + kc * B,
                          xi + kc * B, B, tc, ts, tcl, tsl, factor);
  }
}

// c2r, even n = 2m: with A = X_k, C = X_(m-k), w^-k = c + i*s, P = Ar + Cr, Q = Ai - Ci,
// Dr = Ar - Cr, Di = Ai + Ci,
//   Re Z_k = P - c*Di - s*Dr,       Im Z_k = Q + c*Dr - s*Di
//   Re Z_(m-k) = P + c*Di + s*Dr,   Im Z_(m-k) = -Q + c*Dr - s*Di,
// for B lines.  Partner = false: Z_k alone (k = 0, whose partner X_m is no row of Z, and 2k = m).
template <class T, bool Partner>
void join_bins(const T* __restrict ar, const T* __restrict ai, const T* __restrict cr,
               const T* __restrict ci, T* __restrict o1r, T* __restrict o1i, T* __restrict o2r,
               T* __restrict o2i, int64_t B, double c, double s, double clo, double slo) {
  for (int64_t b = 0; b < B; ++b) {
    if constexpr (std::is_same_v<T, double>) {
      const DD P = dd_sum(ar[b], cr[b]), Q = dd_sum(ai[b], -ci[b]);
      const DD Dr = dd_sum(ar[b], -cr[b]), Di = dd_sum(ai[b], ci[b]);
      const DD cDi = dd_twiddle_mul(c, clo, Di), sDr = dd_twiddle_mul(s, slo, Dr);
      const DD cDr = dd_twiddle_mul(c, clo, Dr), sDi = dd_twiddle_mul(s, slo, Di);
      if constexpr (Partner) {
        o2r[b] = dd_sum3(P, cDi, sDr);
        o2i[b] = dd_sum3(dd_neg(Q), cDr, dd_neg(sDi));
      }
      o1r[b] = dd_sum3(P, dd_neg(cDi), dd_neg(sDr));
      o1i[b] = dd_sum3(Q, cDr, dd_neg(sDi));
    } else {
      const double Ar = ar[b], Ai = ai[b], Cr = cr[b], Ci = ci[b];
      const double P = Ar + Cr, Q = Ai - Ci, Dr = Ar - Cr, Di = Ai + Ci;
      const double cDi = c * Di, sDr = s * Dr, cDr = c * Dr, sDi = s * Di;
      if constexpr (Partner) {
        o2r[b] = static_cast<T>(P + cDi + sDr);
        o2i[b] = static_cast<T>(-Q + cDr - sDi);
      }
      o1r[b] = static_cast<T>(P - cDi - sDr);
      o1i[b] = static_cast<T>(Q + cDr - sDi);
    }
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
    const double tc = rp.tw_re[k], ts = rp.tw_im[k], tcl = rp.tw_re_lo[k], tsl = rp.tw_im_lo[k];
    if (k == 0 || 2 * k == m)
      join_bins<T, false>(hr + a, hi + a, hr + c, hi + c, zr + a, zi + a, nullptr, nullptr, B,
                          tc, ts, tcl, tsl);
    else
      join_bins<T, true>(hr + a, hi + a, hr + c, hi + c, zr + a, zi + a, zr + c, zi + c, B, tc,
                         ts, tcl, tsl);
  }
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
    split_spectrum(zr, zi, m, B, rp, 0.5 * scale_d, xr, xi);
    scatter_complex(d, L.out_off.data() + l0, B, B, h, L.out_stride, xr, xi, T(1));
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
