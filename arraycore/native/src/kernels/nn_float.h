// L0: the float32/float64 dispatch and dtype check shared by the nn kernels (nn_softmax,
// nn_normalize, nn_gelu, nn_rnn, nn_encoder).
#pragma once

#include <string>

#include "../errors.h"
#include "../ndarray.h"

namespace arraycore::native::nn_float {

// TypeError naming `who` unless a is float32 or float64.
inline void require_float(const NdArray& a, const std::string& who) {
  if (a.dtype != DType::Float32 && a.dtype != DType::Float64)
    throw TypeError(who + ": expected float32 or float64");
}

// Calls f.template operator()<T>() with T = float or double from dt.
template <class F>
auto dispatch_float(DType dt, F&& f) {
  if (dt == DType::Float64) return f.template operator()<double>();
  return f.template operator()<float>();
}

}  // namespace arraycore::native::nn_float
