// L0: the few BLAS entry points the engine calls, from the scipy-openblas32 wheel.
//
// The wheel's symbols carry a `scipy_` prefix (so they never clash with another OpenBLAS in
// the process, such as NumPy's scipy_openblas64).  Integers are 32-bit (`blas_int`): callers
// must keep dimensions and leading dimensions below 2^31 and use another path above that.
// arraycore/native/__init__.py loads the library (RTLD_GLOBAL) before the extension.
#pragma once

#include <cstdint>
#include <limits>

namespace arraycore::native::blas {

using blas_int = int32_t;
constexpr int64_t kMaxBlasInt = std::numeric_limits<blas_int>::max();

// CBLAS enumeration values (fixed by the CBLAS interface).
enum Order : int { RowMajor = 101, ColMajor = 102 };
enum Transpose : int { NoTrans = 111, Trans = 112, ConjTrans = 113 };

extern "C" {
void scipy_cblas_sgemm(Order order, Transpose ta, Transpose tb, blas_int m, blas_int n,
                       blas_int k, float alpha, const float* a, blas_int lda, const float* b,
                       blas_int ldb, float beta, float* c, blas_int ldc);
void scipy_cblas_dgemm(Order order, Transpose ta, Transpose tb, blas_int m, blas_int n,
                       blas_int k, double alpha, const double* a, blas_int lda,
                       const double* b, blas_int ldb, double beta, double* c, blas_int ldc);
// Complex variants take alpha/beta by pointer (std::complex<float/double> layout).
void scipy_cblas_cgemm(Order order, Transpose ta, Transpose tb, blas_int m, blas_int n,
                       blas_int k, const void* alpha, const void* a, blas_int lda,
                       const void* b, blas_int ldb, const void* beta, void* c, blas_int ldc);
void scipy_cblas_zgemm(Order order, Transpose ta, Transpose tb, blas_int m, blas_int n,
                       blas_int k, const void* alpha, const void* a, blas_int lda,
                       const void* b, blas_int ldb, const void* beta, void* c, blas_int ldc);

void scipy_cblas_sgemv(Order order, Transpose ta, blas_int m, blas_int n, float alpha,
                       const float* a, blas_int lda, const float* x, blas_int incx, float beta,
                       float* y, blas_int incy);
void scipy_cblas_dgemv(Order order, Transpose ta, blas_int m, blas_int n, double alpha,
                       const double* a, blas_int lda, const double* x, blas_int incx,
                       double beta, double* y, blas_int incy);

void scipy_openblas_set_num_threads(int num_threads);
int scipy_openblas_get_num_threads(void);
}

}  // namespace arraycore::native::blas
