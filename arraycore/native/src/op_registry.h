// L0: the native half of the op table: kernel name -> one inner loop per input dtype.
//
// Kernel files register themselves at load time with register_kernel<Op>(name, types); the
// Python op table (arraycore/_core/op_table.py) refers to kernels by these names, and a
// completeness test checks that both sides agree.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "dtype.h"
#include "elementwise.h"

namespace arraycore::native {

struct Kernel {
  std::string name;
  int arity = 0;                                   // number of inputs
  double cost = 1.0;                               // relative cost per element (parallel grain)
  std::array<LoopFn, kNumDTypes> loops{};          // indexed by the (common) input dtype
  std::array<int8_t, kNumDTypes> out_dtype{};      // output dtype code, -1 = unsupported

  Kernel() { out_dtype.fill(-1); }
  bool supports(DType in) const { return loops[dtype_index(in)] != nullptr; }
};

class KernelRegistry {
 public:
  static KernelRegistry& instance();
  Kernel& define(const std::string& name, int arity, double cost);
  const Kernel* find(const std::string& name) const;
  std::vector<const Kernel*> all() const;

 private:
  std::vector<std::unique_ptr<Kernel>> kernels_;
};

// Applies a kernel: every input has the same dtype (promotion happened in Python), inputs are
// broadcast together, and the result is a fresh array.  Throws TypeError when the kernel has
// no loop for the dtype and ValueError when shapes do not broadcast.
NdArray apply_kernel(const Kernel& k, const std::vector<NdArray>& inputs);
// Same, for inputs passed by pointer (the bindings' hot path: no NdArray copies).
NdArray apply_kernel(const Kernel& k, const NdArray* const* inputs, int n);
// Same, writing into `out` (an existing view of the broadcast shape and of the kernel's
// output dtype, e.g. for `x += y`).  Handles overlapping operands like NumPy.
void apply_kernel_into(const Kernel& k, const NdArray& out, const std::vector<NdArray>& inputs);

// The cast kernel: the only N x N one.  cast_loop(from, to) is never null.
LoopFn cast_loop(DType from, DType to);

}  // namespace arraycore::native
