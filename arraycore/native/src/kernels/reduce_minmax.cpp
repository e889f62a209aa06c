// max/min (real numeric dtypes, NaN-propagating) and all/any (any dtype -> bool) loops.
#include "kernel_loops.h"
#include "reduce_loops.h"

namespace arraycore::native {
namespace {
using namespace reduce_detail;

template <class Op, class... Ts>
void same(ReduceOp op, TypeList<Ts...>) {
  (set_reduce<Op, Ts, Ts>(op), ...);
}
template <class Op, class... Ts>
void truth(ReduceOp op, TypeList<Ts...>) {
  (set_reduce<Op, Ts, bool>(op), ...);
}

}  // namespace

AC_REGISTER_KERNELS(reduce_minmax) {
  same<MaxOp>(ReduceOp::Max, RealTypes{});
  same<MinOp>(ReduceOp::Min, RealTypes{});
  truth<AllOp>(ReduceOp::All, AllTypes{});
  truth<AnyOp>(ReduceOp::Any, AllTypes{});
}

}  // namespace arraycore::native
