// L0: helpers shared by the sequence-layer kernels (nn_rnn.cpp, nn_encoder.cpp): a typed
// row-major gemm over the prefixed CBLAS symbols, shape checks, and the dtype switch.
#pragma once

#include <cstdint>
#include <string>

#include "../blas.h"
#include "../errors.h"
#include "../ndarray.h"
#include "../simd_math.h"
#include "nn_float.h"

namespace arraycore::native::nn_seq::detail {

// C[m,n] = alpha * op(A) op(B) + beta * C, row-major, leading dimensions in elements.
inline void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                 int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  using namespace blas;
  scipy_cblas_sgemm(RowMajor, ta ? Trans : NoTrans, tb ? Trans : NoTrans, (blas_int)m,
                    (blas_int)n, (blas_int)k, alpha, a, (blas_int)lda, b, (blas_int)ldb, beta, c,
                    (blas_int)ldc);
}
inline void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha,
                 const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                 double* c, int64_t ldc) {
  using namespace blas;
  scipy_cblas_dgemm(RowMajor, ta ? Trans : NoTrans, tb ? Trans : NoTrans, (blas_int)m,
                    (blas_int)n, (blas_int)k, alpha, a, (blas_int)lda, b, (blas_int)ldb, beta, c,
                    (blas_int)ldc);
}

template <class T>
AC_SIMD_INLINE T sigmoid(T x) {
  return T(1) / (T(1) + simd_math::exp(-x));
}

inline std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

inline void check_shape(const NdArray& a, std::initializer_list<int64_t> want, const char* name,
                        const std::string& who) {
  Shape w;
  for (int64_t v : want) w.push_back(v);
  if (a.shape != w)
    throw ValueError(who + ": " + name + " has shape " + shape_str(a.shape) + ", expected " +
                     shape_str(w));
}

inline void check_float(const NdArray& a, DType dt, const char* name, const std::string& who) {
  if (a.dtype != dt || (dt != DType::Float32 && dt != DType::Float64))
    throw TypeError(who + ": " + name + " must be float32 or float64 like the others");
  if (!a.is_c_contiguous())
    throw ValueError(who + ": " + name + " must be C-contiguous");
}

template <class T>
T* ptr(const NdArray& a) {
  return reinterpret_cast<T*>(a.data());
}

using nn_float::dispatch_float;

}  // namespace arraycore::native::nn_seq::detail
