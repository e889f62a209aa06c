// Arithmetic kernels used by the first end-to-end path (more families live beside this file).
#include <cmath>

#include "kernel_loops.h"

namespace arraycore::native {
namespace {

struct Add { template <class T> static T apply(T a, T b) { return a + b; } };
struct Multiply { template <class T> static T apply(T a, T b) { return a * b; } };
struct Exp { template <class T> static T apply(T x) { return std::exp(x); } };

}  // namespace

AC_REGISTER_KERNELS(arithmetic) {
  register_binary<Add>("add", NumericTypes{});
  register_binary<Multiply>("multiply", NumericTypes{});
  register_unary<Exp>("exp", FloatTypes{}, 8.0);
}

}  // namespace arraycore::native
