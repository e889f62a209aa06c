// FFT: the four-step split for one long line (Van Loan 3.3; Bailey's "FFTs in external or
// hierarchical memory").  With n = n1 * n2 and the input read as a row-major n1 x n2 matrix:
//   1. DFT of length n1 down each column, times the twiddle w_n^(k1*i2),
//   2. DFT of length n2 along each row; element (k1, k2) is output k1 + n1*k2.
// Both steps work on blocks of a few columns / rows copied into an interleaved batch (the
// layout the Stockham passes vectorize over), sized to stay in L2 however long the line: this
// cache blocking, not the butterflies, is what large power-of-two sizes need.  Blocks are
// independent, so both steps split across the pool.
#include <algorithm>

#include "../thread_pool.h"
#include "fft_copy.h"
#include "fft_exec.h"

namespace arraycore::native::fft {
namespace {

// Runs the passes of `plan` on the block (width lines) and returns where the result is.
template <class T>
std::pair<T*, T*> run_block(const Plan<T>& plan, T* br, T* bi, T* wr, T* wi, int64_t width) {
  if (run_passes(plan, br, bi, wr, wi, width)) return {wr, wi};
  return {br, bi};
}

// Where the line comes from and goes to: runs of w consecutive elements starting at a
// linear index.  Split arrays (Bluestein's convolution buffers) or an interleaved complex
// line with an element stride (the user's array), the latter with the output scale folded in.
template <class T>
struct SplitIO {
  T* re;
  T* im;
  void read(int64_t idx, int64_t w, T* dr, T* di) const {
    for (int64_t b = 0; b < w; ++b) { dr[b] = re[idx + b]; di[b] = im[idx + b]; }
  }
  void write(int64_t idx, int64_t w, const T* sr, const T* si) const {
    for (int64_t b = 0; b < w; ++b) { re[idx + b] = sr[b]; im[idx + b] = si[b]; }
  }
  template <int Write>
  void prefetch(int64_t idx, int64_t w) const {
    prefetch_run<Write>(re + idx, w * sizeof(T));
    prefetch_run<Write>(im + idx, w * sizeof(T));
  }
};

template <class T>
struct InterleavedIO {
  const T* in;
  int64_t in_stride;
  T* out;
  int64_t out_stride;
  T scale;
  void read(int64_t idx, int64_t w, T* dr, T* di) const {
    const T* p = in + 2 * idx * in_stride;
    if (in_stride == 1) {
      for (int64_t b = 0; b < w; ++b) { dr[b] = p[2 * b]; di[b] = p[2 * b + 1]; }
    } else {
      for (int64_t b = 0; b < w; ++b) { dr[b] = p[2 * b * in_stride]; di[b] = p[2 * b * in_stride + 1]; }
    }
  }
  void write(int64_t idx, int64_t w, const T* sr, const T* si) const {
    T* p = out + 2 * idx * out_stride;
    if (out_stride == 1) {
      for (int64_t b = 0; b < w; ++b) { p[2 * b] = sr[b] * scale; p[2 * b + 1] = si[b] * scale; }
    } else {
      for (int64_t b = 0; b < w; ++b) {
        p[2 * b * out_stride] = sr[b] * scale;
        p[2 * b * out_stride + 1] = si[b] * scale;
      }
    }
  }
  template <int Write>
  void prefetch(int64_t idx, int64_t w) const {
    const int64_t stride = Write ? out_stride : in_stride;
    const T* p = (Write ? out : in) + 2 * idx * stride;
    if (stride == 1) prefetch_run<Write>(p, 2 * w * sizeof(T));
  }
};

// The columns of step 1 and the output rows of step 2 are short runs (one block wide) a
// whole row apart, each in its own page, which the hardware prefetchers do not follow: both
// loops prefetch kRowPrefetch rows ahead (fft_copy.h).  The intermediate y has a row pitch
// of n2 plus one cache line: with n2 a power of two, the block's n1 rows would otherwise
// share a handful of cache sets and evict each other.
template <class T, class IO>
void four_step(const Plan<T>& plan, const IO& io) {
  const int64_t n1 = plan.n1, n2 = plan.n2;
  const int64_t pitch = n2 + 64 / static_cast<int64_t>(sizeof(T));
  Scratch<T> ybuf(2 * n1 * pitch);
  T* yr = ybuf.data();
  T* yi = yr + n1 * pitch;

  // Step 1: columns i2 in [c0, c0 + w): element (i1, i2) is input i1*n2 + i2.
  const int64_t wc = plan.w1;
  const int64_t col_blocks = (n2 + wc - 1) / wc;
  parallel_for(col_blocks, 1, [&](int64_t b0, int64_t b1) {
    Scratch<T> buf(4 * n1 * wc);
    T* br = buf.data();
    T* bi = br + n1 * wc;
    T* wr = bi + n1 * wc;
    T* wi = wr + n1 * wc;
    for (int64_t blk = b0; blk < b1; ++blk) {
      const int64_t c0 = blk * wc, w = std::min(wc, n2 - c0);
      for (int64_t i1 = 0; i1 < n1; ++i1) {
        if (i1 + kRowPrefetch < n1) io.template prefetch<0>((i1 + kRowPrefetch) * n2 + c0, w);
        io.read(i1 * n2 + c0, w, br + i1 * w, bi + i1 * w);
      }
      auto [rr, ri] = run_block(*plan.plan1, br, bi, wr, wi, w);
      const T* tr = plan.tw4_re.data() + c0 * n1;
      const T* ti = plan.tw4_im.data() + c0 * n1;
      for (int64_t k1 = 0; k1 < n1; ++k1, tr += w, ti += w) {
        T* dr = yr + k1 * pitch + c0;
        T* di = yi + k1 * pitch + c0;
        const T* sr = rr + k1 * w;
        const T* si = ri + k1 * w;
        for (int64_t b = 0; b < w; ++b) {
          dr[b] = sr[b] * tr[b] - si[b] * ti[b];
          di[b] = sr[b] * ti[b] + si[b] * tr[b];
        }
      }
    }
  });

  // Step 2: rows k1 in [r0, r0 + w); element (k1, k2) is output k1 + n1*k2.
  const int64_t wrw = four_step_block_width<T>(n2);
  const int64_t row_blocks = (n1 + wrw - 1) / wrw;
  parallel_for(row_blocks, 1, [&](int64_t b0, int64_t b1) {
    Scratch<T> buf(4 * n2 * wrw);
    T* br = buf.data();
    T* bi = br + n2 * wrw;
    T* wr = bi + n2 * wrw;
    T* wi = wr + n2 * wrw;
    for (int64_t blk = b0; blk < b1; ++blk) {
      const int64_t r0 = blk * wrw, w = std::min(wrw, n1 - r0);
      // Transposing copy in tiles (fft_copy.h explains why).
      for (int64_t t0 = 0; t0 < n2; t0 += kTile) {
        const int64_t t1 = std::min(n2, t0 + kTile);
        for (int64_t b = 0; b < w; ++b) {
          const T* sr = yr + (r0 + b) * pitch;
          const T* si = yi + (r0 + b) * pitch;
          for (int64_t i2 = t0; i2 < t1; ++i2) { br[i2 * w + b] = sr[i2]; bi[i2 * w + b] = si[i2]; }
        }
      }
      auto [rr, ri] = run_block(*plan.plan2, br, bi, wr, wi, w);
      for (int64_t k2 = 0; k2 < n2; ++k2) {
        if (k2 + kRowPrefetch < n2) io.template prefetch<1>(r0 + n1 * (k2 + kRowPrefetch), w);
        io.write(r0 + n1 * k2, w, rr + k2 * w, ri + k2 * w);
      }
    }
  });
}

}  // namespace

template <class T>
void run_four_step(const Plan<T>& plan, T* re, T* im) {
  four_step(plan, SplitIO<T>{re, im});
}

template <class T>
void run_four_step_interleaved(const Plan<T>& plan, const T* in, int64_t in_stride, T* out,
                               int64_t out_stride, T scale) {
  four_step(plan, InterleavedIO<T>{in, in_stride, out, out_stride, scale});
}

template void run_four_step<float>(const Plan<float>&, float*, float*);
template void run_four_step<double>(const Plan<double>&, double*, double*);
template void run_four_step_interleaved<float>(const Plan<float>&, const float*, int64_t, float*, int64_t, float);
template void run_four_step_interleaved<double>(const Plan<double>&, const double*, int64_t, double*, int64_t, double);

}  // namespace arraycore::native::fft
