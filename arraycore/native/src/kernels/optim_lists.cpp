// The tensor lists of the multi-tensor optimizer steps: checks, flat pointers, the split over
// the thread pool.
//
// Note [Multi-tensor optimizer steps]
// PyTorch's foreach optimizers run one kernel per *operation* over all tensors (lerp, mul,
// addcmul, sqrt, div, add, addcdiv: Adam reads and writes every buffer about seven times).
// Here one call per param group runs the whole update of one element before moving to the
// next: each buffer is read once and written once, so a step is bounded by one pass over
// memory.  The element loops (optim_*.cpp) are plain loops over restrict pointers, branch
// decisions (amsgrad, weight decay kind) hoisted into template parameters, so GCC vectorizes
// them (vsqrtps/vdivps/vfmadd).  The arithmetic follows PyTorch's single-tensor formulas
// operation by operation in the parameter dtype (scalars computed in double and rounded to it),
// so trajectories agree to a few ulps.
#include <algorithm>
#include <string>

#include "../errors.h"
#include "../thread_pool.h"
#include "optim.h"

namespace arraycore::native::optim {
namespace {

DType real_of(DType d) {
  if (d == DType::Complex64) return DType::Float32;
  if (d == DType::Complex128) return DType::Float64;
  return d;
}

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

int64_t TensorLists::total() const {
  int64_t t = 0;
  for (int64_t n : lengths) t += n;
  return t;
}

TensorLists gather(const char* who, const std::vector<Slot>& slots) {
  TensorLists L;
  const std::vector<NdArray>& params = *slots.at(0).arrays;
  L.ntensors = params.size();
  L.nslots = static_cast<int>(slots.size());
  L.ptrs.assign(slots.size() * L.ntensors, nullptr);
  L.lengths.resize(L.ntensors);
  if (L.ntensors == 0) return L;
  const DType dt = params[0].dtype;
  if (dt != DType::Float32 && dt != DType::Float64 && dt != DType::Complex64 &&
      dt != DType::Complex128)
    throw TypeError(std::string(who) + ": parameters must be float32, float64, complex64 or "
                    "complex128, got " + dtype_name(dt));
  L.real_dtype = real_of(dt);
  const int64_t factor = (dt == DType::Complex64 || dt == DType::Complex128) ? 2 : 1;
  for (size_t s = 0; s < slots.size(); ++s) {
    const Slot& slot = slots[s];
    const std::vector<NdArray>& arrs = *slot.arrays;
    if (arrs.empty() && s > 0) continue;
    if (arrs.size() != L.ntensors)
      throw ValueError(std::string(who) + ": " + std::to_string(arrs.size()) + " " + slot.name +
                       " for " + std::to_string(L.ntensors) + " parameters");
    for (size_t i = 0; i < L.ntensors; ++i) {
      const NdArray& a = arrs[i];
      if (a.dtype != dt)
        throw TypeError(std::string(who) + ": " + slot.name + "[" + std::to_string(i) +
                        "] has dtype " + dtype_name(a.dtype) + ", but the group's parameters "
                        "are " + dtype_name(dt) + " (one dtype per call)");
      if (a.shape != params[i].shape)
        throw ValueError(std::string(who) + ": " + slot.name + "[" + std::to_string(i) +
                         "] has shape " + shape_str(a.shape) + ", but its parameter has shape " +
                         shape_str(params[i].shape));
      if (slot.written && !a.writeable())
        throw ValueError(std::string(who) + ": " + slot.name + "[" + std::to_string(i) +
                         "] is read-only");
      if (s == 0) L.lengths[i] = a.numel() * factor;
      if (a.is_c_contiguous()) {
        L.ptrs[s * L.ntensors + i] = a.data();
      } else {
        NdArray tmp = contiguous(a);
        L.ptrs[s * L.ntensors + i] = tmp.data();
        if (slot.written) L.write_back.emplace_back(a, tmp);
        else L.write_back.emplace_back(NdArray{}, tmp);  // kept alive, not copied back
      }
    }
  }
  return L;
}

void finish(TensorLists& L) {
  for (auto& [dst, tmp] : L.write_back)
    if (dst.buffer) copy_into(dst, tmp);
  L.write_back.clear();
}

void for_each_span(const TensorLists& L,
                   const std::function<void(size_t, int64_t, int64_t)>& fn) {
  const int64_t total = L.total();
  // Below ~256K elements (a few hundred microseconds of memory traffic) waking the pool
  // costs more than it saves.
  constexpr int64_t kParallelTotal = 1 << 18;
  if (num_threads() <= 1 || total < kParallelTotal) {
    for (size_t i = 0; i < L.ntensors; ++i)
      if (L.lengths[i] > 0) fn(i, 0, L.lengths[i]);
    return;
  }
  // Element ranges of the concatenation of all tensors, mapped back to (tensor, range).
  std::vector<int64_t> starts(L.ntensors + 1, 0);
  for (size_t i = 0; i < L.ntensors; ++i) starts[i + 1] = starts[i] + L.lengths[i];
  const int64_t grain = std::max<int64_t>(1 << 15, total / (4 * num_threads()));
  parallel_for(total, grain, [&](int64_t b, int64_t e) {
    size_t i = std::upper_bound(starts.begin(), starts.end(), b) - starts.begin() - 1;
    for (; i < L.ntensors && starts[i] < e; ++i) {
      const int64_t lo = std::max(b, starts[i]) - starts[i];
      const int64_t hi = std::min(e, starts[i + 1]) - starts[i];
      if (hi > lo) fn(i, lo, hi);
    }
  });
}

}  // namespace arraycore::native::optim
