// FFT: the row kernel's spectrum passes in double precision (fft_real_rows.cpp runs the rest).
//
// They are split_bins / join_bins in double-double arithmetic (fft_real_bins.h), which needs
// the sums it corrects to be the rounded ones: this file is compiled with -ffp-contract=off,
// the row kernel's own file with contraction.  Bins k and m - k of one line go through in
// blocks: the partner bins m - k, which run backwards in memory, are copied into small arrays
// in reverse (four at a time, reversed in registers), the block's pairs computed vectorized
// over bins, and the results stored interleaved, the partners' back to front.
#include <algorithm>
#include <utility>

#include "fft_real_bins.h"
#include "fft_real_rows.h"
#include "fft_simd.h"

namespace arraycore::native::fft {
namespace {

using D = Vec<double, 4>;

constexpr int64_t kBinBlock = 64;  // bins per block: the eight small arrays stay in L1

inline D rev(D v) { return __builtin_shufflevector(v, v, 3, 2, 1, 0); }

// n values of p[0], p[-1], ..., p[-(n-1)] into out[0..n).
inline void copy_reversed(const double* p, int64_t n, double* out) {
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) vstore(out + j, rev(vload<D>(p - j - 3)));
  for (; j < n; ++j) out[j] = p[-j];
}

// Complex j (re[j], im[j]), j < n, stored interleaved from p forwards (Step = 1) or from p
// backwards (Step = -1: complex j at p - 2j).
template <int Step>
inline void store_interleaved(const double* re, const double* im, int64_t n, double* p) {
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    D r = vload<D>(re + j), i = vload<D>(im + j);
    double* q = p + 2 * j;
    if constexpr (Step < 0) {
      r = rev(r), i = rev(i);
      q = p - 2 * (j + 3);
    }
    vstore(q, D(__builtin_shufflevector(r, i, 0, 4, 1, 5)));
    vstore(q + 4, D(__builtin_shufflevector(r, i, 2, 6, 3, 7)));
  }
  for (; j < n; ++j) p[2 * Step * j] = re[j], p[2 * Step * j + 1] = im[j];
}

// Complex j stored interleaved from p forwards (Step = 1) or backwards (Step = -1) into
// re[j], im[j], j < n.
template <int Step>
inline void load_interleaved(const double* p, int64_t n, double* re, double* im) {
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const double* q = Step > 0 ? p + 2 * j : p - 2 * (j + 3);
    const D a = vload<D>(q), b = vload<D>(q + 4);
    D r = __builtin_shufflevector(a, b, 0, 2, 4, 6), i = __builtin_shufflevector(a, b, 1, 3, 5, 7);
    if constexpr (Step < 0) r = rev(r), i = rev(i);
    vstore(re + j, r);
    vstore(im + j, i);
  }
  for (; j < n; ++j) re[j] = p[2 * Step * j], im[j] = p[2 * Step * j + 1];
}

struct Block {
  alignas(64) double ar[kBinBlock], ai[kBinBlock], cr[kBinBlock], ci[kBinBlock];
  alignas(64) double o1r[kBinBlock], o1i[kBinBlock], o2r[kBinBlock], o2i[kBinBlock];
};

}  // namespace

void rows_split_double(const double* zr, const double* zi, int64_t m,
                       const RealPlan<double>& rp, double factor, double* out) {
  const double *tc = rp.tw_re.data(), *ts = rp.tw_im.data();
  const double *tcl = rp.tw_re_lo.data(), *tsl = rp.tw_im_lo.data();
  Block b;
  // Bin 0 and its partner bin m, both from Z_0.
  split_bins<double, true, 0>(zr, zi, zr, zi, b.o1r, b.o1i, b.o2r, b.o2i, 1, tc, ts, tcl, tsl,
                              factor);
  out[0] = b.o1r[0], out[1] = b.o1i[0], out[2 * m] = b.o2r[0], out[2 * m + 1] = b.o2i[0];
  const int64_t kend = (m + 1) / 2;
  for (int64_t k0 = 1; k0 < kend; k0 += kBinBlock) {
    const int64_t w = std::min(kBinBlock, kend - k0);
    copy_reversed(zr + (m - k0), w, b.cr);
    copy_reversed(zi + (m - k0), w, b.ci);
    split_bins<double, true, 1>(zr + k0, zi + k0, b.cr, b.ci, b.o1r, b.o1i, b.o2r, b.o2i, w,
                                tc + k0, ts + k0, tcl + k0, tsl + k0, factor);
    store_interleaved<1>(b.o1r, b.o1i, w, out + 2 * k0);
    store_interleaved<-1>(b.o2r, b.o2i, w, out + 2 * (m - k0));
  }
  if (m % 2 == 0) {  // bin m/2 is its own partner
    const int64_t h = m / 2;
    split_bins<double, false, 0>(zr + h, zi + h, zr + h, zi + h, b.o1r, b.o1i, nullptr, nullptr,
                                 1, tc + h, ts + h, tcl + h, tsl + h, factor);
    out[2 * h] = b.o1r[0], out[2 * h + 1] = b.o1i[0];
  }
}

void rows_join_double(const double* x, int64_t m, const RealPlan<double>& rp, double* z) {
  const double *tc = rp.tw_re.data(), *ts = rp.tw_im.data();
  const double *tcl = rp.tw_re_lo.data(), *tsl = rp.tw_im_lo.data();
  Block b;
  {  // Z_0 from the real parts of X_0 and X_m
    const double ar = x[0], cr = x[2 * m], zero = 0.0;
    join_bins<double, false, 0>(&ar, &zero, &cr, &zero, b.o1r, b.o1i, nullptr, nullptr, 1, tc,
                                ts, tcl, tsl);
    z[0] = b.o1r[0], z[1] = b.o1i[0];
  }
  const int64_t kend = (m + 1) / 2;
  for (int64_t k0 = 1; k0 < kend; k0 += kBinBlock) {
    const int64_t w = std::min(kBinBlock, kend - k0);
    load_interleaved<1>(x + 2 * k0, w, b.ar, b.ai);
    load_interleaved<-1>(x + 2 * (m - k0), w, b.cr, b.ci);
    join_bins<double, true, 1>(b.ar, b.ai, b.cr, b.ci, b.o1r, b.o1i, b.o2r, b.o2i, w, tc + k0,
                               ts + k0, tcl + k0, tsl + k0);
    store_interleaved<1>(b.o1r, b.o1i, w, z + 2 * k0);
    store_interleaved<-1>(b.o2r, b.o2i, w, z + 2 * (m - k0));
  }
  if (m % 2 == 0) {  // Z_(m/2) from X_(m/2) alone
    const int64_t h = m / 2;
    const double ar = x[2 * h], ai = x[2 * h + 1];
    join_bins<double, false, 0>(&ar, &ai, &ar, &ai, b.o1r, b.o1i, nullptr, nullptr, 1, tc + h,
                                ts + h, tcl + h, tsl + h);
    z[2 * h] = b.o1r[0], z[2 * h + 1] = b.o1i[0];
  }
}

}  // namespace arraycore::native::fft
