// FFT plans: how a transform of one length, precision and direction is computed, with every
// table it needs, built once and cached (fft_plan.cpp).  See docs/fft.md.
//
// Data layout of every executor: split complex, B interleaved lines ("batch-major"): element
// t of line b lives at re[t * B + b], im[t * B + b].  A Stockham pass then has an inner loop
// over at least B consecutive reals with one twiddle, which is what the vector butterflies
// want; a single line (B == 1) of a large length goes through the four-step split instead,
// whose two halves are again batches of interleaved lines.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace arraycore::native::fft {

// One Stockham pass of radix p (see fft_passes.cpp for the indexing).
template <class T>
struct Pass {
  int radix = 0;
  int64_t m = 0;             // n / (product of the radices up to and including this pass)
  std::vector<T> tw_re;      // twiddles w^(q*k), q < m, 1 <= k < radix: [q * (radix-1) + k-1]
  std::vector<T> tw_im;
  std::vector<T> root_re;    // generic odd radix: cos / sign*sin of 2*pi*t/radix, t < radix
  std::vector<T> root_im;
  // Single-precision plans, odd radix >= kWideOddRadix: the same roots and twiddles in double
  // (the butterfly then runs in double, see fft_passes.cpp); empty otherwise.
  std::vector<double> wide_tw_re, wide_tw_im, wide_root_re, wide_root_im;
};

template <class T>
struct Plan {
  enum class Kind { Stockham, Bluestein };
  int64_t n = 0;
  int sign = -1;  // exponent sign: -1 forward, +1 backward (unnormalized)
  Kind kind = Kind::Stockham;

  // Stockham: passes in execution order (their radices multiply to n).
  std::vector<Pass<T>> passes;

  // Four-step split for a single long line (n = n1 * n2; 0 when not used): column DFTs of
  // length n1, twiddles w_n^(k1*i2), row DFTs of length n2 (Van Loan, section 3.3).
  int64_t n1 = 0, n2 = 0;
  std::shared_ptr<const Plan<T>> plan1, plan2;
  // Step 1 runs on blocks of w1 columns (the last block may be narrower).  Its twiddles are
  // stored in the order step 1 reads them, block after block: w_n^(k1*i2) for column i2 =
  // c0 + b of the block starting at c0 (width w) sits at [c0 * n1 + k1 * w + b], so each
  // block streams one contiguous run instead of n1 short rows a power-of-two pitch apart.
  int64_t w1 = 0;
  std::vector<T> tw4_re, tw4_im;

  // Bluestein: a cyclic convolution of length m_conv computed with plan_conv (forward).
  int64_t m_conv = 0;
  std::shared_ptr<const Plan<T>> plan_conv;
  std::vector<T> chirp_re, chirp_im;  // c_t = exp(sign * i*pi * t^2 / n), t < n
  std::vector<T> kern_re, kern_im;    // FFT(conj chirp, wrapped) / m_conv, length m_conv

  // Elements of per-line working storage the executor runs on (n, or m_conv for Bluestein).
  int64_t work_len() const { return kind == Kind::Bluestein ? m_conv : n; }
};

// The cached plan for (n, precision, sign); thread-safe.  n >= 1.
template <class T>
std::shared_ptr<const Plan<T>> get_plan(int64_t n, int sign);

// A real transform of even length n (r2c: sign -1, c2r: sign +1) rides on the complex
// transform of length n/2 of z_j = x_2j + i*x_(2j+1), with a pass over the spectrum that
// separates the even and odd samples' transforms and joins them with the twiddles w_n^k
// (fft_real.cpp).  The twiddles are exp(sign * 2*pi*i * k / n), k <= n/2, computed in long
// double and kept as double hi + lo pairs (the double-precision pass uses both; the
// single-precision one runs in double on the hi parts).
template <class T>
struct RealPlan {
  int64_t n = 0;
  std::shared_ptr<const Plan<T>> half;
  std::vector<double> tw_re, tw_im, tw_re_lo, tw_im_lo;
  // The row kernel (fft_real_rows.cpp) splits the half length m = R * rows_n2, R the lanes
  // of its 32-byte vectors (kRowRadix): a radix-R step whose twiddles w_m^(t2*k1), 1 <= k1 <
  // R, t2 < rows_n2, sit at [(k1 - 1) * rows_n2 + t2], then transforms of length rows_n2
  // (rows_plan).  rows_n2 == 0 where it does not apply (see rows_kernel_fits).
  int64_t rows_n2 = 0;
  std::shared_ptr<const Plan<T>> rows_plan;
  std::vector<T> rows_tw_re, rows_tw_im;
};

// The cached real plan for (even n >= 2, precision, sign); thread-safe.
template <class T>
std::shared_ptr<const RealPlan<T>> get_real_plan(int64_t n, int sign);

// The prime factors of n >= 1, ascending with repetition (empty for n = 1).
std::vector<int> prime_factors(int64_t n);

// Number of cached plans (tests) and clearing the cache.
int64_t plan_cache_size();
void clear_plan_cache();

// Largest prime factor a direct (generic odd) radix pass may handle; above 16 the plan
// compares its cost with Bluestein's (fft_plan.cpp, prefer_direct), which takes the rest.
constexpr int kMaxDirectRadix = 4096;

// Single-precision generic odd-radix butterflies from this radix up run in double: their
// O(p) long cosine sums otherwise lose ~sqrt(p) ulps (docs/fft.md, "Accuracy").
constexpr int kWideOddRadix = 17;

// Lines longer than this are long lines (is_long_line): transformed one at a time, by the
// four-step split, even when there are many.
constexpr int64_t kFourStepMin = 4096;

// Plans of this length and up carry a four-step split (when n has a balanced factorization),
// also used for shorter lines when a line is transformed alone: the Stockham passes
// vectorize over a batch of lines and run a lone line in scalar code, the split's column and
// row steps are batches of their own.
constexpr int64_t kFourStepSplitMin = 256;

// Radix of the row kernel's first step (fft_real_rows.cpp): the lanes of a 32-byte vector,
// 8 float32 / 4 float64, so that its R x R register transposes are those of the copies.
template <class T>
constexpr int64_t kRowRadix = int64_t(32 / sizeof(T));

// Lane i of the row kernel's step-1 vectors holds t2 + row_lane<T>(i): its deinterleave of
// the row's (real, imaginary) pairs shuffles within 128-bit halves only (one instruction per
// vector, no lane-crossing permute), which leaves the pairs of the two halves in this order.
template <class T>
constexpr int row_lane(int i) {
  if constexpr (kRowRadix<T> == 8) {
    constexpr int order[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    return order[i];
  } else {
    constexpr int order[4] = {0, 2, 1, 3};
    return order[i];
  }
}

}  // namespace arraycore::native::fft
