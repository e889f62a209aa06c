// Special functions, family erf_gamma (arraycore/_core/ops/special_erf_gamma.py).
#include <cmath>

#include "kernel_loops.h"
#include "special_common.h"

namespace arraycore::native {
namespace {

struct Erf { template <class T> static T apply(T x) { return std::erf(x); } };
struct Erfc { template <class T> static T apply(T x) { return std::erfc(x); } };

}  // namespace

AC_REGISTER_KERNELS(special_erf_gamma) {
  register_unary<Erf>("erf", RealFloatTypes{}, 10.0);
  register_unary<Erfc>("erfc", RealFloatTypes{}, 10.0);
}

}  // namespace arraycore::native
