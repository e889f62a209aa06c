// L0: reductions (sum, prod, max, min, all, any) and cumulative scans.
//
// Note [The reduction driver]
// `reduce` drops size-1 dimensions, orders the input's dimensions by stride (largest outermost),
// and coalesces neighbours of the same kind (both reduced or both kept) that step through
// memory as one.  Then one of two walks runs:
//   * inner reduction (the smallest-stride dimension is reduced): every output element is the
//     reduction of lines along that dimension, each reduced by a `line` loop with many
//     independent accumulators (pairwise-combined blocks for float sums, like NumPy);
//   * outer reduction (the smallest-stride dimension is kept, e.g. axis=0 of a row-major
//     matrix): whole input rows are accumulated into an output row tile (`row` loop, a
//     vectorized elementwise op; `rows4` takes four rows per pass where the innermost reduced
//     dim has them, which saves 3/4 of the tile's loads and stores: axis=0 of 4096^2 float32
//     went from 1.0x to 0.8x NumPy); float sums accumulate 128-row blocks separately and add
//     the blocks, which bounds the rounding error far below a naive running sum.
// Work is split over the pool by output elements / output tiles, and long single lines are
// cut into fixed-size segments whose partial results are combined in a fixed tree, so results
// never depend on the number of threads.
#pragma once

#include <cstdint>
#include <vector>

#include "ndarray.h"

namespace arraycore::native {

enum class ReduceOp : int { Sum = 0, Prod = 1, Max = 2, Min = 3, All = 4, Any = 5 };
constexpr int kNumReduceOps = 6;

// Type-erased loops of one (op, input dtype, accumulator dtype).  Accumulators are contiguous.
struct ReduceLoops {
  // *acc = op(*acc, reduction of n elements at `in` with byte stride s)
  void (*line)(char* acc, const char* in, int64_t s, int64_t n) = nullptr;
  // acc[j] = op(acc[j], in[j * s]) for j < n
  void (*row)(char* acc, const char* in, int64_t s, int64_t n) = nullptr;
  // Four `row` calls, for the rows at in, in + rs, in + 2 rs, in + 3 rs, in one pass (same
  // order of operations, so the same bits; a quarter of the accumulator loads and stores).
  void (*rows4)(char* acc, const char* in, int64_t s, int64_t n, int64_t rs) = nullptr;
  // acc[j] = identity
  void (*fill)(char* acc, int64_t n) = nullptr;
  // acc[j] = op(acc[j], other[j])
  void (*combine)(char* acc, const char* other, int64_t n) = nullptr;
  // out[j * s] = acc[j]  (same type)
  void (*store)(char* out, int64_t s, const char* acc, int64_t n) = nullptr;
  bool block_rows = false;  // float sums: accumulate rows in blocks (see the note)
};

class ReduceRegistry {
 public:
  static ReduceRegistry& instance();
  void set(ReduceOp op, DType in, DType acc, const ReduceLoops& loops);
  const ReduceLoops* find(ReduceOp op, DType in, DType acc) const;

 private:
  ReduceLoops table_[kNumReduceOps][kNumDTypes][kNumDTypes];
};

// Reduces `a` over `axes` (non-negative, unique; checked by the caller) into a fresh array of
// dtype `out` (sum/prod: any dtype, accumulating in 64 bits for integers; max/min: a's dtype;
// all/any: bool).  Throws ValueError naming `who` for max/min over an empty axis.
NdArray reduce(ReduceOp op, const NdArray& a, const std::vector<int>& axes, bool keepdims,
               DType out, const char* who);

// Cumulative sum/prod along `axis` (checked by the caller) with result dtype `out`.
NdArray cumulative(ReduceOp op, const NdArray& a, int axis, bool include_initial, DType out,
                   const char* who);

// The dtype sum/prod accumulate in for a result dtype (int64/uint64 for integers and bool).
DType accumulator_dtype(DType out);

// sum((x - mean[r])^2) over the rows of a C-contiguous float32/float64 array x seen as
// (mean.numel(), rest), mean contiguous of x's dtype; the result has mean's shape
// (var/std's second pass over trailing axes in one read; kernels/reduce_moments.cpp).
NdArray sum_squared_deviations(const NdArray& x, const NdArray& mean, const char* who);

// sum((x[:, c] - mean[c])^2) over the rows of a C-contiguous float32/float64 array x seen as
// (rest, mean.numel()): var/std's second pass over leading axes in one read; the result has
// mean's shape.
NdArray sum_squared_deviations_leading(const NdArray& x, const NdArray& mean, const char* who);

}  // namespace arraycore::native
