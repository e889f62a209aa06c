// L0: the one N-d elementwise driver every kernel goes through.
//
// Note [Broadcast is a view]
// Operands arrive already broadcast to the output shape as stride-0 views, so kernels and
// (later) derivative rules never deal with broadcasting themselves.  The driver reorders and
// coalesces dimensions, then calls a type-erased 1-D inner loop
//     void loop(char** ptrs, const int64_t* byte_strides, int64_t n)
// where ptrs[0]/byte_strides[0] are the output and the rest the inputs, in order.  Only that
// inner loop is templated per (op, dtype); it has a contiguous branch the compiler vectorizes.
#pragma once

#include <cstdint>
#include <vector>

#include "ndarray.h"

namespace arraycore::native {

using LoopFn = void (*)(char** ptrs, const int64_t* byte_strides, int64_t n);

// Runs `loop` over every element.  operands[0] is the output; every operand has exactly the
// iteration shape `operands[0].shape` (inputs broadcast beforehand).  Parallel over the pool
// when large.  `cost_per_element` scales the parallel grain (1 = a cheap op like add).
void run_elementwise(LoopFn loop, const NdArray* const* operands, int nops,
                     double cost_per_element = 1.0);
inline void run_elementwise(LoopFn loop, const std::vector<const NdArray*>& operands,
                            double cost_per_element = 1.0) {
  run_elementwise(loop, operands.data(), static_cast<int>(operands.size()), cost_per_element);
}

}  // namespace arraycore::native
