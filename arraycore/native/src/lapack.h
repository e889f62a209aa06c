// L0: the LAPACK (and Fortran BLAS) entry points the linalg kernels call, from the
// scipy-openblas32 wheel (see blas.h for the `scipy_` prefix and the 32-bit integers).
//
// The symbols are the Fortran ones (`scipy_dgetrf_`): every argument by pointer, column-major
// matrices, and one hidden `size_t` length per CHARACTER argument appended at the end
// (gfortran's ABI; passing them is harmless where LAPACK was translated to C).  Below the raw
// declarations, overloads named after the operation (`lapack::getrf(...)`) pick the s/d/c/z
// routine from the element type so the kernels are written once as templates.
#pragma once

#include <complex>
#include <cstddef>

#include "blas.h"

namespace arraycore::native::lapack {

using blas::blas_int;
using c64 = std::complex<float>;
using c128 = std::complex<double>;
using fstrlen = size_t;  // hidden Fortran string length

extern "C" {
// ---- Cholesky ----
#define AC_POTRF(p, T) \
  void scipy_##p##potrf_(const char* uplo, const blas_int* n, T* a, const blas_int* lda, \
                         blas_int* info, fstrlen);
AC_POTRF(s, float) AC_POTRF(d, double) AC_POTRF(c, c64) AC_POTRF(z, c128)
#undef AC_POTRF

// ---- LU ----
#define AC_GETRF(p, T)                                                                  \
  void scipy_##p##getrf_(const blas_int* m, const blas_int* n, T* a, const blas_int* lda, \
                         blas_int* ipiv, blas_int* info);                                 \
  void scipy_##p##getrs_(const char* trans, const blas_int* n, const blas_int* nrhs,      \
                         const T* a, const blas_int* lda, const blas_int* ipiv, T* b,     \
                         const blas_int* ldb, blas_int* info, fstrlen);                   \
  void scipy_##p##getri_(const blas_int* n, T* a, const blas_int* lda,                    \
                         const blas_int* ipiv, T* work, const blas_int* lwork,            \
                         blas_int* info);                                                 \
  void scipy_##p##laswp_(const blas_int* n, T* a, const blas_int* lda, const blas_int* k1, \
                         const blas_int* k2, const blas_int* ipiv, const blas_int* incx);
AC_GETRF(s, float) AC_GETRF(d, double) AC_GETRF(c, c64) AC_GETRF(z, c128)
#undef AC_GETRF

// ---- QR ----
#define AC_GEQRF(p, T, orq)                                                             \
  void scipy_##p##geqrf_(const blas_int* m, const blas_int* n, T* a, const blas_int* lda, \
                         T* tau, T* work, const blas_int* lwork, blas_int* info);         \
  void scipy_##p##orq##_(const blas_int* m, const blas_int* n, const blas_int* k, T* a,   \
                         const blas_int* lda, const T* tau, T* work, const blas_int* lwork, \
                         blas_int* info);
AC_GEQRF(s, float, orgqr) AC_GEQRF(d, double, orgqr)
AC_GEQRF(c, c64, ungqr) AC_GEQRF(z, c128, ungqr)
#undef AC_GEQRF

// ---- symmetric / Hermitian eigensolvers (divide and conquer) ----
#define AC_SYEVD(p, T, name)                                                             \
  void scipy_##p##name##_(const char* jobz, const char* uplo, const blas_int* n, T* a,     \
                          const blas_int* lda, T* w, T* work, const blas_int* lwork,       \
                          blas_int* iwork, const blas_int* liwork, blas_int* info,         \
                          fstrlen, fstrlen);
AC_SYEVD(s, float, syevd) AC_SYEVD(d, double, syevd)
AC_SYEVD(s, float, syevd_2stage) AC_SYEVD(d, double, syevd_2stage)
#undef AC_SYEVD
#define AC_HEEVD(p, T, R, name)                                                          \
  void scipy_##p##name##_(const char* jobz, const char* uplo, const blas_int* n, T* a,     \
                          const blas_int* lda, R* w, T* work, const blas_int* lwork,       \
                          R* rwork, const blas_int* lrwork, blas_int* iwork,               \
                          const blas_int* liwork, blas_int* info, fstrlen, fstrlen);
AC_HEEVD(c, c64, float, heevd) AC_HEEVD(z, c128, double, heevd)
AC_HEEVD(c, c64, float, heevd_2stage) AC_HEEVD(z, c128, double, heevd_2stage)
#undef AC_HEEVD

// ---- general eigensolver ----
#define AC_GEEV_REAL(p, T)                                                               \
  void scipy_##p##geev_(const char* jobvl, const char* jobvr, const blas_int* n, T* a,    \
                        const blas_int* lda, T* wr, T* wi, T* vl, const blas_int* ldvl,   \
                        T* vr, const blas_int* ldvr, T* work, const blas_int* lwork,      \
                        blas_int* info, fstrlen, fstrlen);
AC_GEEV_REAL(s, float) AC_GEEV_REAL(d, double)
#undef AC_GEEV_REAL
#define AC_GEEV_CPLX(p, T, R)                                                            \
  void scipy_##p##geev_(const char* jobvl, const char* jobvr, const blas_int* n, T* a,    \
                        const blas_int* lda, T* w, T* vl, const blas_int* ldvl, T* vr,    \
                        const blas_int* ldvr, T* work, const blas_int* lwork, R* rwork,   \
                        blas_int* info, fstrlen, fstrlen);
AC_GEEV_CPLX(c, c64, float) AC_GEEV_CPLX(z, c128, double)
#undef AC_GEEV_CPLX

// ---- SVD: divide and conquer, and the QR-iteration fallback ----
#define AC_SVD_REAL(p, T)                                                                \
  void scipy_##p##gesdd_(const char* jobz, const blas_int* m, const blas_int* n, T* a,    \
                         const blas_int* lda, T* s, T* u, const blas_int* ldu, T* vt,     \
                         const blas_int* ldvt, T* work, const blas_int* lwork,            \
                         blas_int* iwork, blas_int* info, fstrlen);                       \
  void scipy_##p##gesvd_(const char* jobu, const char* jobvt, const blas_int* m,          \
                         const blas_int* n, T* a, const blas_int* lda, T* s, T* u,        \
                         const blas_int* ldu, T* vt, const blas_int* ldvt, T* work,       \
                         const blas_int* lwork, blas_int* info, fstrlen, fstrlen);
AC_SVD_REAL(s, float) AC_SVD_REAL(d, double)
#undef AC_SVD_REAL
#define AC_SVD_CPLX(p, T, R)                                                             \
  void scipy_##p##gesdd_(const char* jobz, const blas_int* m, const blas_int* n, T* a,    \
                         const blas_int* lda, R* s, T* u, const blas_int* ldu, T* vt,     \
                         const blas_int* ldvt, T* work, const blas_int* lwork, R* rwork,  \
                         blas_int* iwork, blas_int* info, fstrlen);                       \
  void scipy_##p##gesvd_(const char* jobu, const char* jobvt, const blas_int* m,          \
                         const blas_int* n, T* a, const blas_int* lda, R* s, T* u,        \
                         const blas_int* ldu, T* vt, const blas_int* ldvt, T* work,       \
                         const blas_int* lwork, R* rwork, blas_int* info, fstrlen,        \
                         fstrlen);
AC_SVD_CPLX(c, c64, float) AC_SVD_CPLX(z, c128, double)
#undef AC_SVD_CPLX

// ---- least squares (SVD based, divide and conquer) ----
#define AC_GELSD_REAL(p, T)                                                              \
  void scipy_##p##gelsd_(const blas_int* m, const blas_int* n, const blas_int* nrhs, T* a, \
                         const blas_int* lda, T* b, const blas_int* ldb, T* s,            \
                         const T* rcond, blas_int* rank, T* work, const blas_int* lwork,  \
                         blas_int* iwork, blas_int* info);
AC_GELSD_REAL(s, float) AC_GELSD_REAL(d, double)
#undef AC_GELSD_REAL
#define AC_GELSD_CPLX(p, T, R)                                                           \
  void scipy_##p##gelsd_(const blas_int* m, const blas_int* n, const blas_int* nrhs, T* a, \
                         const blas_int* lda, T* b, const blas_int* ldb, R* s,            \
                         const R* rcond, blas_int* rank, T* work, const blas_int* lwork,  \
                         R* rwork, blas_int* iwork, blas_int* info);
AC_GELSD_CPLX(c, c64, float) AC_GELSD_CPLX(z, c128, double)
#undef AC_GELSD_CPLX

// ---- Fortran BLAS-3 used by the factorizations ----
#define AC_BLAS3(p, T)                                                                   \
  void scipy_##p##trsm_(const char* side, const char* uplo, const char* transa,           \
                        const char* diag, const blas_int* m, const blas_int* n,           \
                        const T* alpha, const T* a, const blas_int* lda, T* b,            \
                        const blas_int* ldb, fstrlen, fstrlen, fstrlen, fstrlen);         \
  void scipy_##p##gemm_(const char* ta, const char* tb, const blas_int* m,                \
                        const blas_int* n, const blas_int* k, const T* alpha, const T* a, \
                        const blas_int* lda, const T* b, const blas_int* ldb,             \
                        const T* beta, T* c, const blas_int* ldc, fstrlen, fstrlen);
AC_BLAS3(s, float) AC_BLAS3(d, double) AC_BLAS3(c, c64) AC_BLAS3(z, c128)
#undef AC_BLAS3
}

// ---- type-generic overloads (the kernels call these) ----
#define AC_ALL4(X) X(s, float) X(d, double) X(c, c64) X(z, c128)

#define AC_OVERLOADS(p, T)                                                                \
  inline void potrf(char uplo, blas_int n, T* a, blas_int lda, blas_int* info) {          \
    scipy_##p##potrf_(&uplo, &n, a, &lda, info, 1);                                       \
  }                                                                                       \
  inline void getrf(blas_int m, blas_int n, T* a, blas_int lda, blas_int* ipiv,           \
                    blas_int* info) {                                                     \
    scipy_##p##getrf_(&m, &n, a, &lda, ipiv, info);                                       \
  }                                                                                       \
  inline void getrs(char trans, blas_int n, blas_int nrhs, const T* a, blas_int lda,      \
                    const blas_int* ipiv, T* b, blas_int ldb, blas_int* info) {           \
    scipy_##p##getrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);                \
  }                                                                                       \
  inline void getri(blas_int n, T* a, blas_int lda, const blas_int* ipiv, T* work,        \
                    blas_int lwork, blas_int* info) {                                     \
    scipy_##p##getri_(&n, a, &lda, ipiv, work, &lwork, info);                             \
  }                                                                                       \
  inline void laswp(blas_int n, T* a, blas_int lda, blas_int k1, blas_int k2,             \
                    const blas_int* ipiv, blas_int incx) {                                \
    scipy_##p##laswp_(&n, a, &lda, &k1, &k2, ipiv, &incx);                                \
  }                                                                                       \
  inline void geqrf(blas_int m, blas_int n, T* a, blas_int lda, T* tau, T* work,          \
                    blas_int lwork, blas_int* info) {                                     \
    scipy_##p##geqrf_(&m, &n, a, &lda, tau, work, &lwork, info);                          \
  }                                                                                       \
  inline void trsm(char side, char uplo, char transa, char diag, blas_int m, blas_int n,  \
                   T alpha, const T* a, blas_int lda, T* b, blas_int ldb) {               \
    scipy_##p##trsm_(&side, &uplo, &transa, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, \
                     1, 1);                                                               \
  }                                                                                       \
  inline void gemm(char ta, char tb, blas_int m, blas_int n, blas_int k, T alpha,         \
                   const T* a, blas_int lda, const T* b, blas_int ldb, T beta, T* c,      \
                   blas_int ldc) {                                                        \
    scipy_##p##gemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1); \
  }
AC_ALL4(AC_OVERLOADS)
#undef AC_OVERLOADS

// Q from geqrf's reflectors: orgqr (real) / ungqr (complex).
inline void orgqr(blas_int m, blas_int n, blas_int k, float* a, blas_int lda, const float* tau,
                  float* work, blas_int lwork, blas_int* info) {
  scipy_sorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
inline void orgqr(blas_int m, blas_int n, blas_int k, double* a, blas_int lda,
                  const double* tau, double* work, blas_int lwork, blas_int* info) {
  scipy_dorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
inline void orgqr(blas_int m, blas_int n, blas_int k, c64* a, blas_int lda, const c64* tau,
                  c64* work, blas_int lwork, blas_int* info) {
  scipy_cungqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
inline void orgqr(blas_int m, blas_int n, blas_int k, c128* a, blas_int lda, const c128* tau,
                  c128* work, blas_int lwork, blas_int* info) {
  scipy_zungqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}

#undef AC_ALL4

}  // namespace arraycore::native::lapack
