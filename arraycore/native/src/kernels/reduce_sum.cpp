// sum and prod loops: integer and bool inputs accumulate in int64/uint64 (the standard's
// default result dtypes, and the accumulator for any narrower requested integer dtype);
// floating inputs accumulate in their own dtype (the caller casts for other `dtype=`).
#include "kernel_loops.h"
#include "reduce_loops.h"

namespace arraycore::native {
namespace {
using namespace reduce_detail;

template <class Op, class... Ts>
void ints_into(ReduceOp op, TypeList<Ts...>) {
  (set_reduce<Op, Ts, int64_t>(op), ...);
  (set_reduce<Op, Ts, uint64_t>(op), ...);
}
template <class Op, class... Ts>
void same(ReduceOp op, TypeList<Ts...>) {
  (set_reduce<Op, Ts, Ts>(op), ...);
}

}  // namespace

AC_REGISTER_KERNELS(reduce_sum) {
  ints_into<SumOp>(ReduceOp::Sum, IntOrBoolTypes{});
  same<SumOp>(ReduceOp::Sum, FloatTypes{});
  ints_into<ProdOp>(ReduceOp::Prod, IntOrBoolTypes{});
  same<ProdOp>(ReduceOp::Prod, FloatTypes{});
}

}  // namespace arraycore::native
