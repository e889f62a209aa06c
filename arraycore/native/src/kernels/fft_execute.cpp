// FFT: the top-level executor (which algorithm a plan runs with), batch sizing, the
// per-thread scratch blocks and the vector-width switch.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <sys/mman.h>

#include "fft_exec.h"

namespace arraycore::native::fft {

// ---- vector-width switch ----

namespace {

Isa isa_from_env() {
  const char* v = std::getenv("ARRAYCORE_FFT_ISA");
  if (!v) return native_isa();
  const std::string s(v);
  if (s == "scalar") return Isa::Scalar;
  if (s == "avx2") return Isa::Avx2;
  if (s == "avx512") return Isa::Avx512;
  return native_isa();
}

std::atomic<int>& isa_state() {
  static std::atomic<int> state{static_cast<int>(isa_from_env())};
  return state;
}

}  // namespace

Isa current_isa() { return static_cast<Isa>(isa_state().load(std::memory_order_relaxed)); }
void set_isa(Isa isa) { isa_state().store(static_cast<int>(isa), std::memory_order_relaxed); }
const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::Avx512: return "avx512";
    case Isa::Avx2: return "avx2";
    default: return "scalar";
  }
}

// ---- scratch ----

namespace {

struct FreeList {
  std::vector<std::pair<void*, size_t>> blocks;
  ~FreeList() {
    for (auto& b : blocks) std::free(b.first);
  }
};
thread_local FreeList t_free;
constexpr size_t kKeptBlocks = 8;

}  // namespace

ScratchBlock::ScratchBlock(size_t bytes) {
  bytes = std::max<size_t>(64, (bytes + 63) & ~size_t(63));
  auto& list = t_free.blocks;
  size_t best = list.size();
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].second >= bytes && (best == list.size() || list[i].second < list[best].second))
      best = i;
  if (best != list.size()) {
    ptr_ = list[best].first;
    cap_ = list[best].second;
    list.erase(list.begin() + best);
    return;
  }
  constexpr size_t kHuge = size_t(2) << 20;
  if (bytes >= 2 * kHuge) {
    // Long lines walk their buffers with page-sized strides (four-step columns): huge pages
    // keep the TLB from thrashing.
    bytes = (bytes + kHuge - 1) & ~(kHuge - 1);
    ptr_ = std::aligned_alloc(kHuge, bytes);
    if (ptr_) madvise(ptr_, bytes, MADV_HUGEPAGE);
  } else {
    ptr_ = std::aligned_alloc(64, bytes);
  }
  if (!ptr_) throw std::bad_alloc();
  cap_ = bytes;
}

ScratchBlock::~ScratchBlock() {
  auto& list = t_free.blocks;
  list.emplace_back(ptr_, cap_);
  if (list.size() > kKeptBlocks) {  // drop the smallest: big ones are the costly ones to remake
    auto it = std::min_element(list.begin(), list.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
    std::free(it->first);
    list.erase(it);
  }
}

// ---- executor ----

template <class T>
void execute(const Plan<T>& plan, T* re, T* im, int64_t B) {
  if (plan.kind == Plan<T>::Kind::Bluestein) return run_bluestein(plan, re, im, B);
  if (B == 1 && plan.n1 > 0) return run_four_step(plan, re, im);
  if (plan.passes.empty()) return;
  const int64_t len = plan.n * B;
  Scratch<T> work(2 * len);
  if (run_passes(plan, re, im, work.data(), work.data() + len, B)) {
    std::memcpy(re, work.data(), len * sizeof(T));
    std::memcpy(im, work.data() + len, len * sizeof(T));
  }
}

template <class T>
std::pair<T*, T*> execute_to(const Plan<T>& plan, T* re, T* im, T* wre, T* wim, int64_t B) {
  if (plan.kind == Plan<T>::Kind::Bluestein || (B == 1 && plan.n1 > 0)) {
    execute(plan, re, im, B);
    return {re, im};
  }
  if (run_passes(plan, re, im, wre, wim, B)) return {wre, wim};
  return {re, im};
}

template <class T>
bool is_long_line(const Plan<T>& plan) {
  if (plan.kind == Plan<T>::Kind::Bluestein) return is_long_line(*plan.plan_conv);
  return plan.n1 > 0 && plan.n > kFourStepMin;
}

// Per batch the executor touches about 4 * work_len * B reals (data and ping-pong arrays,
// twice that for Bluestein); keep that within a share of L2.  Never fewer lines than the
// vector width (when there are that many): the passes vectorize over the batch, and a
// narrower batch runs its first pass in scalar code.  Lines that are neighbours in memory
// (columns) take at least kMinColumnRunBytes per row: the copies then read whole cache lines
// from each row instead of fractions of two, which matters more than staying in L2
// (measured, 2048 x 1025 complex64 along axis 0: B = 8 -> 32 lines, 19 -> 12 ms).
constexpr int64_t kMinColumnRunBytes = 256;

template <class T>
int64_t batch_lines(const Plan<T>& plan, int64_t lines, bool neighbours) {
  const int64_t work = plan.work_len();
  if (is_long_line(plan)) return 1;
  constexpr int64_t kBudgetBytes = 384 * 1024;
  const int64_t per_line = work * 4 * static_cast<int64_t>(sizeof(T)) *
                           (plan.kind == Plan<T>::Kind::Bluestein ? 2 : 1);
  int64_t b = std::clamp<int64_t>(kBudgetBytes / std::max<int64_t>(per_line, 1), 1, 1024);
  const int64_t lanes = lanes_for<T>(current_isa());
  if (neighbours) b = std::max<int64_t>(b, kMinColumnRunBytes / (2 * sizeof(T)));
  b = std::max(b, lanes);
  if (b > lanes) b -= b % lanes;
  return std::min(b, lines);
}

template void execute<float>(const Plan<float>&, float*, float*, int64_t);
template void execute<double>(const Plan<double>&, double*, double*, int64_t);
template std::pair<float*, float*> execute_to<float>(const Plan<float>&, float*, float*, float*, float*, int64_t);
template std::pair<double*, double*> execute_to<double>(const Plan<double>&, double*, double*, double*, double*, int64_t);
template bool is_long_line<float>(const Plan<float>&);
template bool is_long_line<double>(const Plan<double>&);
template int64_t batch_lines<float>(const Plan<float>&, int64_t, bool);
template int64_t batch_lines<double>(const Plan<double>&, int64_t, bool);

}  // namespace arraycore::native::fft
