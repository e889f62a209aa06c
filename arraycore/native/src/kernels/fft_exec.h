// FFT executors (internal to the fft_*.cpp files): run a plan on split-complex data laid out
// as B interleaved lines (element t of line b at [t * B + b]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>

#include "fft_plan.h"
#include "fft_simd.h"

namespace arraycore::native::fft {

// Transforms the B lines in place (re, im hold plan.n * B reals each).  Chooses the Stockham
// passes, the four-step split (B == 1 and a long length) or Bluestein from the plan.
template <class T>
void execute(const Plan<T>& plan, T* re, T* im, int64_t B);

// The same with caller-provided work arrays (plan.n * B each): the result is left in place or
// in the work arrays, saving the copy back; returns where it is.
template <class T>
std::pair<T*, T*> execute_to(const Plan<T>& plan, T* re, T* im, T* work_re, T* work_im, int64_t B);

// True when lines of this plan are transformed one at a time (B == 1) by the four-step split
// or a Bluestein convolution that uses it: long lines (above kFourStepMin), whose batch would
// not fit in cache.  (Shorter plans may carry a split too, used when B == 1 anyway.)
template <class T>
bool is_long_line(const Plan<T>& plan);

// The Stockham passes of `plan` (a Stockham plan) on [n][B] data, ping-ponging with the work
// arrays; returns true when the result ended in the work arrays.  Passes [first, last) only,
// when given (the column route runs the first and the last pass itself, fft_columns.cpp).
template <class T>
bool run_passes(const Plan<T>& plan, T* re, T* im, T* work_re, T* work_im, int64_t B,
                size_t first = 0, size_t last = SIZE_MAX);
// The same at the vector width of `isa` instead of the one in use (the row kernel's batch is
// one 32-byte vector wide whatever the machine's widest, fft_real_rows.cpp).
template <class T>
bool run_passes_width(Isa isa, const Plan<T>& plan, T* re, T* im, T* work_re, T* work_im,
                      int64_t B, size_t first = 0, size_t last = SIZE_MAX);

// Four-step transform of one line of length plan.n (plan.n1 > 0), in place on split arrays,
// or from an interleaved complex line to another (element strides; in == out is fine), times
// scale.
template <class T>
void run_four_step(const Plan<T>& plan, T* re, T* im);
template <class T>
void run_four_step_interleaved(const Plan<T>& plan, const T* in, int64_t in_stride, T* out,
                               int64_t out_stride, T scale);

// Bluestein transform of B interleaved lines, in place.
template <class T>
void run_bluestein(const Plan<T>& plan, T* re, T* im, int64_t B);

// Bluestein transform of one interleaved complex line into another (element strides; in ==
// out is fine), times scale.
template <class T>
void run_bluestein_interleaved(const Plan<T>& plan, const T* in, int64_t in_stride, T* out,
                               int64_t out_stride, T scale);

// Whether a line of this plan can be transformed alone straight between interleaved complex
// lines (run_line_interleaved): Bluestein, or Stockham passes with a four-step split.
template <class T>
inline bool runs_interleaved(const Plan<T>& plan) {
  return plan.kind == Plan<T>::Kind::Bluestein || plan.n1 > 0;
}

template <class T>
inline void run_line_interleaved(const Plan<T>& plan, const T* in, int64_t in_stride, T* out,
                                 int64_t out_stride, T scale) {
  if (plan.kind == Plan<T>::Kind::Bluestein)
    run_bluestein_interleaved(plan, in, in_stride, out, out_stride, scale);
  else
    run_four_step_interleaved(plan, in, in_stride, out, out_stride, scale);
}

// Lines (columns or rows) per block of the four-step split for sub-transforms of length
// `len`: the block's four arrays (data and ping-pong) within ~256 KB, a multiple of the
// widest vector (64 bytes) so that every width vectorizes it whole.  Fixed per plan (step 1's
// twiddle table is stored block by block).
template <class T>
inline int64_t four_step_block_width(int64_t len) {
  constexpr int64_t kWidest = 64 / static_cast<int64_t>(sizeof(T));
  int64_t w = (256 * 1024) / (len * 4 * static_cast<int64_t>(sizeof(T)));
  w = w < 1 ? 1 : w > 64 ? 64 : w;
  if (w > kWidest) w -= w % kWidest;
  return w;
}

// Lines interleaved per batch so that a batch's working set stays in L2; `neighbours`: the
// lines are neighbours in memory (columns), which want wider batches (fft_execute.cpp).
template <class T>
int64_t batch_lines(const Plan<T>& plan, int64_t lines, bool neighbours = false);

// A reusable, 64-byte aligned scratch block of `count` elements, returned to a per-thread
// free list on destruction (no malloc per call in steady state; nesting is fine).
class ScratchBlock {
 public:
  explicit ScratchBlock(size_t bytes);
  ~ScratchBlock();
  ScratchBlock(const ScratchBlock&) = delete;
  ScratchBlock& operator=(const ScratchBlock&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_ = nullptr;
  size_t cap_ = 0;
};

template <class T>
struct Scratch {
  ScratchBlock block;
  explicit Scratch(size_t count) : block(count * sizeof(T)) {}
  T* data() const { return block.as<T>(); }
};

}  // namespace arraycore::native::fft
