// FFT: blocks of columns transformed straight between the user's arrays.
//
// A batch of lines that are neighbours in memory (W adjacent columns of interleaved complex
// rows) used to be copied into the executor's split layout row by row, transformed by the
// Stockham passes and copied back: with the usual three passes for n = 2048 that is eight
// trips of the batch through L2 (copy in, three passes each read and write, copy out).  Here
// the first pass reads its butterfly inputs from the user's rows and the last pass writes its
// outputs to the user's rows, separating and joining the real and imaginary parts in
// registers, so the batch makes four trips through the same two split arrays (2048 x 1025
// complex64 along axis 0, Zen 5, 1 thread: AVX2 build 6.2 -> 3.45 ms, AVX-512 4.1 -> 2.6).
// A block reads W complex from each row; the first pass visits the rows in the order q,
// q + m, ..., q + (p-1)m, q + 1, ... (m = n/p), so it prefetches the rows of the butterflies
// a few q ahead (each run is in its own page: no hardware prefetcher follows them).
//
// Lane order: the parts are separated within each 128-bit segment of a vector (one shufps
// per part on x86), so a vector's lanes hold the block's columns in a permuted order; the
// butterflies are vertical (lanes independent) and the last pass joins the parts with the
// inverse shuffle, which restores the order.
#include <algorithm>
#include <utility>

#include "fft_butterflies.h"
#include "fft_columns.h"
#include "fft_copy.h"
#include "fft_exec.h"

namespace arraycore::native::fft {
namespace {

// Rows of butterflies prefetched ahead by the first pass (and written ahead by the last).
constexpr int64_t kColumnAhead = 2;

// Lanes of T per 128-bit segment (4 float, 2 double).
template <class T>
constexpr int kSeg = int(16 / sizeof(T));

// Real parts (odd = 0) or imaginary parts (odd = 1) of the L/2 + L/2 complex in a, b:
// segment by segment, the first half of each segment's lanes from a, the second from b.
template <class V, int Seg, int Odd, size_t... I>
inline V take_parts(V a, V b, std::index_sequence<I...>) {
  constexpr int N = sizeof...(I);
  return __builtin_shufflevector(
      a, b,
      ((I % Seg) < Seg / 2 ? int((I / Seg) * Seg + 2 * (I % Seg) + Odd)
                           : int(N + (I / Seg) * Seg + 2 * (I % Seg - Seg / 2) + Odd))...);
}
// The inverse: the complex of segment halves Half (0: first, 1: second) of re, im, as
// interleaved (re, im) pairs.
template <class V, int Seg, int Half, size_t... I>
inline V join_parts(V re, V im, std::index_sequence<I...>) {
  constexpr int N = sizeof...(I);
  return __builtin_shufflevector(
      re, im, ((I % 2) ? int(N + (I / Seg) * Seg + Half * Seg / 2 + (I % Seg) / 2)
                       : int((I / Seg) * Seg + Half * Seg / 2 + (I % Seg) / 2))...);
}

// L complex from p (interleaved) into the parts r, i (lanes permuted, see above).
template <class T, int L, class U>
inline void load_complex(const T* p, U& r, U& i) {
  if constexpr (L == 1) {
    r = p[0];
    i = p[1];
  } else {
    constexpr auto seq = std::make_index_sequence<L>{};
    const U a = vload<U>(p), b = vload<U>(p + L);
    r = take_parts<U, kSeg<T>, 0>(a, b, seq);
    i = take_parts<U, kSeg<T>, 1>(a, b, seq);
  }
}
template <class T, int L, class U>
inline void store_complex(T* p, const U& r, const U& i) {
  if constexpr (L == 1) {
    p[0] = r;
    p[1] = i;
  } else {
    constexpr auto seq = std::make_index_sequence<L>{};
    vstore(p, join_parts<U, kSeg<T>, 0>(r, i, seq));
    vstore(p + L, join_parts<U, kSeg<T>, 1>(r, i, seq));
  }
}

// The first pass (radix P, m = n/P, s = W) from the user's rows: a_k of columns j.. is row
// q + k*m; results into the split arrays y (rows of W), as run_passes' first pass would.
template <class T, int L, int Sign, int P>
void first_pass(const Pass<T>& ps, const T* src, int64_t row, int64_t W, T* yr, T* yi) {
  using U = Vec<T, L>;
  const int64_t m = ps.m;
  const int64_t run_bytes = 2 * W * static_cast<int64_t>(sizeof(T));
  for (int64_t q = 0; q < m; ++q) {
    if (q + kColumnAhead < m)
      for (int k = 0; k < P; ++k) prefetch_run<0>(src + 2 * (q + kColumnAhead + k * m) * row, run_bytes);
    const T* wr = ps.tw_re.data() + q * (P - 1);
    const T* wi = ps.tw_im.data() + q * (P - 1);
    T* yr0 = yr + W * P * q;
    T* yi0 = yi + W * P * q;
    for (int64_t j = 0; j < W; j += L) {
      U ar[P], ai[P];
      for (int k = 0; k < P; ++k) load_complex<T, L>(src + 2 * ((q + k * m) * row + j), ar[k], ai[k]);
      bfly_fixed<T, Sign, P>(ar, ai);
      if (q != 0)
        for (int k = 1; k < P; ++k) {
          const U r = ar[k];
          ar[k] = r * wr[k - 1] - ai[k] * wi[k - 1];
          ai[k] = r * wi[k - 1] + ai[k] * wr[k - 1];
        }
      for (int k = 0; k < P; ++k) {
        vstore(yr0 + k * W + j, ar[k]);
        vstore(yi0 + k * W + j, ai[k]);
      }
    }
  }
}

// The last pass (radix P, m = 1, s = W * n/P) into the user's rows, times scale: the
// butterfly at j = t*W + b writes element t + k*(n/P) of columns b.. to that row.
template <class T, int L, int Sign, int P>
void last_pass(int64_t n, const T* xr, const T* xi, int64_t W, T* dst, int64_t row, T scale) {
  using U = Vec<T, L>;
  const int64_t r = n / P, s = W * r;
  const int64_t run_bytes = 2 * W * static_cast<int64_t>(sizeof(T));
  for (int64_t t = 0; t < r; ++t) {
    if (t + kColumnAhead < r)
      for (int k = 0; k < P; ++k) prefetch_run<1>(dst + 2 * (t + kColumnAhead + k * r) * row, run_bytes);
    for (int64_t b = 0; b < W; b += L) {
      const int64_t j = t * W + b;
      U ar[P], ai[P];
      for (int k = 0; k < P; ++k) {
        ar[k] = vload<U>(xr + j + s * k);
        ai[k] = vload<U>(xi + j + s * k);
      }
      bfly_fixed<T, Sign, P>(ar, ai);
      if (scale != T(1))
        for (int k = 0; k < P; ++k) { ar[k] *= scale; ai[k] *= scale; }
      for (int k = 0; k < P; ++k) store_complex<T, L>(dst + 2 * ((t + k * r) * row + b), ar[k], ai[k]);
    }
  }
}

inline bool fixed_radix(int p) { return p == 2 || p == 3 || p == 4 || p == 5 || p == 8 || p == 16; }

template <class T, int L, int Sign>
void first_pass_any(const Pass<T>& ps, const T* src, int64_t row, int64_t W, T* yr, T* yi) {
  switch (ps.radix) {
    case 2: return first_pass<T, L, Sign, 2>(ps, src, row, W, yr, yi);
    case 3: return first_pass<T, L, Sign, 3>(ps, src, row, W, yr, yi);
    case 4: return first_pass<T, L, Sign, 4>(ps, src, row, W, yr, yi);
    case 5: return first_pass<T, L, Sign, 5>(ps, src, row, W, yr, yi);
    case 8: return first_pass<T, L, Sign, 8>(ps, src, row, W, yr, yi);
    default: return first_pass<T, L, Sign, 16>(ps, src, row, W, yr, yi);
  }
}

template <class T, int L, int Sign>
void last_pass_any(int p, int64_t n, const T* xr, const T* xi, int64_t W, T* dst, int64_t row,
                   T scale) {
  switch (p) {
    case 2: return last_pass<T, L, Sign, 2>(n, xr, xi, W, dst, row, scale);
    case 3: return last_pass<T, L, Sign, 3>(n, xr, xi, W, dst, row, scale);
    case 4: return last_pass<T, L, Sign, 4>(n, xr, xi, W, dst, row, scale);
    case 5: return last_pass<T, L, Sign, 5>(n, xr, xi, W, dst, row, scale);
    case 8: return last_pass<T, L, Sign, 8>(n, xr, xi, W, dst, row, scale);
    default: return last_pass<T, L, Sign, 16>(n, xr, xi, W, dst, row, scale);
  }
}

template <class T, int L, int Sign>
void column_block_at(const Plan<T>& plan, const T* in, int64_t in_row, T* out, int64_t out_row,
                     int64_t W, T scale) {
  const int64_t n = plan.n;
  const size_t np = plan.passes.size();
  Scratch<T> buf(4 * n * W);
  T* ar = buf.data();
  T* ai = ar + n * W;
  T* br = ai + n * W;
  T* bi = br + n * W;
  first_pass_any<T, L, Sign>(plan.passes[0], in, in_row, W, ar, ai);
  const bool in_b = run_passes(plan, ar, ai, br, bi, W, 1, np - 1);
  last_pass_any<T, L, Sign>(plan.passes[np - 1].radix, n, in_b ? br : ar, in_b ? bi : ai, W, out,
                            out_row, scale);
}

}  // namespace

template <class T>
bool column_route(const Plan<T>& plan) {
  return plan.kind == Plan<T>::Kind::Stockham && !is_long_line(plan) && plan.passes.size() >= 2 &&
         fixed_radix(plan.passes.front().radix) && fixed_radix(plan.passes.back().radix);
}

template <class T>
int64_t column_block_width(const Plan<T>& plan) {
  const int64_t unit = kColumnBlockBytes / (2 * static_cast<int64_t>(sizeof(T)));  // columns
  const int64_t fit = kColumnScratchBytes / (4 * plan.n * static_cast<int64_t>(sizeof(T)));
  return std::clamp<int64_t>(fit - fit % unit, unit, kColumnMaxBlocks * unit);
}

template <class T>
void run_column_block(const Plan<T>& plan, const T* in, int64_t in_row, T* out, int64_t out_row,
                      int64_t W, T scale) {
  constexpr int L512 = lanes_for<T>(Isa::Avx512), L256 = lanes_for<T>(Isa::Avx2);
  const Isa isa = current_isa();
  if (isa == Isa::Avx512 && W % L512 == 0) {
    if (plan.sign < 0) return column_block_at<T, L512, -1>(plan, in, in_row, out, out_row, W, scale);
    return column_block_at<T, L512, 1>(plan, in, in_row, out, out_row, W, scale);
  }
  if (isa != Isa::Scalar && W % L256 == 0) {
    if (plan.sign < 0) return column_block_at<T, L256, -1>(plan, in, in_row, out, out_row, W, scale);
    return column_block_at<T, L256, 1>(plan, in, in_row, out, out_row, W, scale);
  }
  if (plan.sign < 0) return column_block_at<T, 1, -1>(plan, in, in_row, out, out_row, W, scale);
  return column_block_at<T, 1, 1>(plan, in, in_row, out, out_row, W, scale);
}

template bool column_route<float>(const Plan<float>&);
template bool column_route<double>(const Plan<double>&);
template int64_t column_block_width<float>(const Plan<float>&);
template int64_t column_block_width<double>(const Plan<double>&);
template void run_column_block<float>(const Plan<float>&, const float*, int64_t, float*, int64_t,
                                      int64_t, float);
template void run_column_block<double>(const Plan<double>&, const double*, int64_t, double*,
                                       int64_t, int64_t, double);

}  // namespace arraycore::native::fft
