// L0: GELU forward and backward (see nn_gelu.h).
//
// Why native: the exact form is five namespace ops (multiply, erf, add, multiply, multiply)
// and its tape backward about eight more, each a pass over memory; PyTorch runs one fused
// kernel each way and measured about 2x faster on 2^20 elements.  The erf is the special
// family's branch-free one (erf_f: a rational fit in double, 0.51 ulp; erf_v: double), so the loops
// vectorize.
#include "nn_gelu.h"

#include <algorithm>
#include <string>

#include "../errors.h"
#include "../simd_math.h"
#include "../thread_pool.h"
#include "nn_float.h"
#include "special_erf_gamma.h"

namespace arraycore::native::nn_gelu {
namespace {

namespace eg = special::erf_gamma;

constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1 / sqrt(2 pi)
constexpr double kTanhScale = 0.79788456080286535588;   // sqrt(2 / pi)
constexpr double kTanhCubic = 0.044715;

AC_SIMD_INLINE float erf_t(float x) { return eg::erf_f(x); }
AC_SIMD_INLINE double erf_t(double x) { return eg::erf_v(x); }

template <class T>
AC_SIMD_INLINE T gelu_exact(T x) {
  return T(0.5) * x * (T(1) + erf_t(x * T(kInvSqrt2)));
}

template <class T>
AC_SIMD_INLINE T gelu_exact_grad(T x) {
  const T cdf = T(0.5) * (T(1) + erf_t(x * T(kInvSqrt2)));
  const T pdf = simd_math::exp(T(-0.5) * x * x) * T(kInvSqrt2Pi);
  return cdf + x * pdf;
}

template <class T>
AC_SIMD_INLINE T gelu_tanh(T x) {
  const T t = simd_math::tanh(T(kTanhScale) * (x + T(kTanhCubic) * x * x * x));
  return T(0.5) * x * (T(1) + t);
}

template <class T>
AC_SIMD_INLINE T gelu_tanh_grad(T x) {
  const T t = simd_math::tanh(T(kTanhScale) * (x + T(kTanhCubic) * x * x * x));
  const T dinner = T(kTanhScale) * (T(1) + T(3 * kTanhCubic) * x * x);
  return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * dinner;
}

constexpr int64_t kGrain = int64_t(1) << 15;

template <class T, class F>
void map1(const NdArray& x, NdArray& y, F f) {
  const T* xp = reinterpret_cast<const T*>(x.data());
  T* yp = reinterpret_cast<T*>(y.data());
  parallel_for(x.numel(), kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) yp[i] = f(xp[i]);
  });
}

template <class T, class F>
void map2(const NdArray& g, const NdArray& x, NdArray& y, F f) {
  const T* gp = reinterpret_cast<const T*>(g.data());
  const T* xp = reinterpret_cast<const T*>(x.data());
  T* yp = reinterpret_cast<T*>(y.data());
  parallel_for(x.numel(), kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) yp[i] = gp[i] * f(xp[i]);
  });
}

}  // namespace

NdArray gelu(const NdArray& x_in, bool tanh_form) {
  nn_float::require_float(x_in, "gelu");
  const NdArray x = contiguous(x_in);
  NdArray y = empty(x.shape, x.dtype);
  nn_float::dispatch_float(x.dtype, [&]<class T>() {
    if (tanh_form) map1<T>(x, y, [](T v) { return gelu_tanh(v); });
    else map1<T>(x, y, [](T v) { return gelu_exact(v); });
  });
  return y;
}

NdArray gelu_backward(const NdArray& g_in, const NdArray& x_in, bool tanh_form) {
  nn_float::require_float(x_in, "gelu_backward");
  if (g_in.dtype != x_in.dtype || g_in.shape != x_in.shape)
    throw ValueError("gelu_backward: the gradient must have the input's shape and dtype");
  const NdArray x = contiguous(x_in), g = contiguous(g_in);
  NdArray dx = empty(x.shape, x.dtype);
  nn_float::dispatch_float(x.dtype, [&]<class T>() {
    if (tanh_form) map2<T>(g, x, dx, [](T v) { return gelu_tanh_grad(v); });
    else map2<T>(g, x, dx, [](T v) { return gelu_exact_grad(v); });
  });
  return dx;
}

}  // namespace arraycore::native::nn_gelu
