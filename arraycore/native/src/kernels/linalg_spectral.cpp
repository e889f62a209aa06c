// L0: eigen- and singular value decompositions: eigh (syevd/heevd), eig (geev) and svd
// (gesdd, falling back to gesvd).  Drivers and why: docs/linalg.md.
//
// Non-finite input never reaches these drivers (they can iterate for a very long time on
// NaN): it is detected first and answered as NumPy does per function (eigh: NaN-filled
// results; eigvalsh, eig, eigvals, svd: LinAlgError).
#include <cmath>
#include <cstdlib>
#include <string>
#include <limits>

#include "../lapack.h"
#include "linalg.h"

namespace arraycore::native::linalg {
namespace {

double cube(int64_t n) { return static_cast<double>(n) * n * n; }

template <class T>
bool upper_triangle_finite(const T* a, int64_t n) {  // column-major, i <= j
  for (int64_t j = 0; j < n; ++j)
    if (!all_finite(a + j * n, n, j + 1, 1)) return false;
  return true;
}
template <class T>
bool lower_triangle_finite(const T* a, int64_t n) {  // column-major, i >= j
  for (int64_t j = 0; j < n; ++j)
    if (!all_finite(a + j * n + j, n, n - j, 1)) return false;
  return true;
}

Shape with_dims(const Shape& batch, std::initializer_list<int64_t> dims) {
  Shape s = batch;
  for (int64_t d : dims) s.push_back(d);
  return s;
}

bool is_single(DType dt) { return dt == DType::Float32 || dt == DType::Complex64; }

// ---- symmetric / Hermitian: syevd / heevd ----
// Eigenvalues only: the two-stage tridiagonal reduction (?syevd_2stage: dense -> band with
// BLAS-3, band -> tridiagonal) when ARRAYCORE_LINALG_EIGH=2stage (measured: docs/linalg.md).
bool eigvals_two_stage() {
  static const bool v = env_switch("ARRAYCORE_LINALG_EIGH", "2stage");
  return v;
}

template <class T>
struct EighDriver {
  using R = real_t<T>;
  char jobz, uplo;
  blas_int n;
  bool two_stage;
  blas_int lwork = 1, lrwork = 1, liwork = 1;

  EighDriver(char jobz_, char uplo_, blas_int n_)
      : jobz(jobz_), uplo(uplo_), n(n_), two_stage(jobz_ == 'N' && eigvals_two_stage()) {
    T wq{};
    R rq{}, wdummy{};
    T adummy{};
    blas_int iq = 0, info = 0, m1 = -1;
    call(&adummy, &wdummy, &wq, m1, &rq, m1, &iq, m1, &info);
    lwork = std::max<blas_int>(1, lwork_from(wq));
    liwork = std::max<blas_int>(1, iq);
    if constexpr (is_complex_v<T>) lrwork = std::max<blas_int>(1, lwork_from(rq));
  }
  void call(T* a, R* w, T* work, blas_int lw, R* rwork, blas_int lrw, blas_int* iwork,
            blas_int liw, blas_int* info) const {
    const blas_int lda = std::max<blas_int>(1, n);
    if (two_stage) {
      if constexpr (std::is_same_v<T, float>)
        lapack::scipy_ssyevd_2stage_(&jobz, &uplo, &n, a, &lda, w, work, &lw, iwork, &liw, info,
                                     1, 1);
      else if constexpr (std::is_same_v<T, double>)
        lapack::scipy_dsyevd_2stage_(&jobz, &uplo, &n, a, &lda, w, work, &lw, iwork, &liw, info,
                                     1, 1);
      else if constexpr (std::is_same_v<T, c64>)
        lapack::scipy_cheevd_2stage_(&jobz, &uplo, &n, a, &lda, w, work, &lw, rwork, &lrw, iwork,
                                     &liw, info, 1, 1);
      else
        lapack::scipy_zheevd_2stage_(&jobz, &uplo, &n, a, &lda, w, work, &lw, rwork, &lrw, iwork,
                                     &liw, info, 1, 1);
      return;
    }
    if constexpr (std::is_same_v<T, float>)
      lapack::scipy_ssyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lw, iwork, &liw, info, 1, 1);
    else if constexpr (std::is_same_v<T, double>)
      lapack::scipy_dsyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lw, iwork, &liw, info, 1, 1);
    else if constexpr (std::is_same_v<T, c64>)
      lapack::scipy_cheevd_(&jobz, &uplo, &n, a, &lda, w, work, &lw, rwork, &lrw, iwork, &liw,
                            info, 1, 1);
    else
      lapack::scipy_zheevd_(&jobz, &uplo, &n, a, &lda, w, work, &lw, rwork, &lrw, iwork, &liw,
                            info, 1, 1);
  }
};

}  // namespace

std::vector<NdArray> eigh(const NdArray& a, bool upper, bool compute_v, const std::string& name) {
  const auto [n, batch, nbatch] = square_input(a, name);
  NdArray w = empty(with_dims(batch, {n}), is_single(a.dtype) ? DType::Float32 : DType::Float64);
  NdArray v;
  if (compute_v) v = empty(a.shape, a.dtype);
  auto result = [&]() -> std::vector<NdArray> {
    if (compute_v) return {w, v};
    return {w};
  };
  if (nbatch == 0 || n == 0) return result();
  const MatrixStack st = stack_of(a, batch);
  FirstFailure fail;
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    R* pw = reinterpret_cast<R*>(w.data());
    T* pv = compute_v ? reinterpret_cast<T*>(v.data()) : nullptr;
    // The row-major copy is conj(A) column-major: its upper triangle is A's lower one, and
    // its eigenvectors are the conjugates of A's (same eigenvalues).
    const char uplo = upper ? 'L' : 'U';
    const EighDriver<T> drv(compute_v ? 'V' : 'N', uplo, static_cast<blas_int>(n));
    run_batch(nbatch, (compute_v ? 9.0 : 1.5) * cube(n), [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(n * n)), work(static_cast<size_t>(drv.lwork));
      Scratch<R> rwork(static_cast<size_t>(drv.lrwork));
      Scratch<blas_int> iwork(static_cast<size_t>(drv.liwork));
      for (int64_t i = b0; i < b1; ++i) {
        load_rowmajor(wa.data(), st.item<T>(i), st.rs, st.cs, n, n);
        R* wi = pw + i * n;
        const bool finite = uplo == 'U' ? upper_triangle_finite(wa.data(), n)
                                        : lower_triangle_finite(wa.data(), n);
        if (!finite) {
          if (!compute_v) {
            fail.record(i, "eigenvalues did not converge");
            continue;
          }
          fill(wi, n, std::numeric_limits<R>::quiet_NaN());
          fill(pv + i * n * n, n * n, T(std::numeric_limits<R>::quiet_NaN()));
          continue;
        }
        blas_int info = 0;
        drv.call(wa.data(), wi, work.data(), drv.lwork, rwork.data(), drv.lrwork, iwork.data(),
                 drv.liwork, &info);
        if (info > 0) {
          fail.record(i, "eigenvalues did not converge");
          continue;
        }
        if (compute_v) store_rowmajor(pv + i * n * n, wa.data(), n, n, n, /*conj=*/true);
      }
    });
  });
  fail.raise_if_failed(name, !batch.empty());
  return result();
}

// ---------------------------------------------------------------- eig (geev)

namespace {

template <class T>
struct GeevDriver {
  using R = real_t<T>;
  char jobvr;
  blas_int n, ldvr, lwork = 1;

  GeevDriver(bool compute_v, blas_int n_)
      : jobvr(compute_v ? 'V' : 'N'), n(n_), ldvr(compute_v ? std::max<blas_int>(1, n_) : 1) {
    T wq{}, d{};
    R rd{};
    T wd[2] = {};
    blas_int info = 0;
    call(&d, wd, wd, &d, &wq, -1, &rd, &info);
    lwork = std::max<blas_int>(1, lwork_from(wq));
  }
  // Real: w1 = wr, w2 = wi.  Complex: w1 = w (w2 unused).
  void call(T* a, T* w1, T* w2, T* vr, T* work, blas_int lw, R* rwork, blas_int* info) const {
    const char jobvl = 'N';
    const blas_int lda = std::max<blas_int>(1, n), one = 1;
    T vl{};
    if constexpr (std::is_same_v<T, float>)
      lapack::scipy_sgeev_(&jobvl, &jobvr, &n, a, &lda, w1, w2, &vl, &one, vr, &ldvr, work, &lw,
                           info, 1, 1);
    else if constexpr (std::is_same_v<T, double>)
      lapack::scipy_dgeev_(&jobvl, &jobvr, &n, a, &lda, w1, w2, &vl, &one, vr, &ldvr, work, &lw,
                           info, 1, 1);
    else if constexpr (std::is_same_v<T, c64>)
      lapack::scipy_cgeev_(&jobvl, &jobvr, &n, a, &lda, w1, &vl, &one, vr, &ldvr, work, &lw,
                           rwork, info, 1, 1);
    else
      lapack::scipy_zgeev_(&jobvl, &jobvr, &n, a, &lda, w1, &vl, &one, vr, &ldvr, work, &lw,
                           rwork, info, 1, 1);
    (void)w2;
  }
};

}  // namespace

std::vector<NdArray> eig(const NdArray& a, bool compute_v, const std::string& name) {
  const auto [n, batch, nbatch] = square_input(a, name);
  const DType cdt = is_single(a.dtype) ? DType::Complex64 : DType::Complex128;
  NdArray w = empty(with_dims(batch, {n}), cdt);
  NdArray v;
  if (compute_v) v = empty(a.shape, cdt);
  auto result = [&]() -> std::vector<NdArray> {
    if (compute_v) return {w, v};
    return {w};
  };
  if (nbatch == 0 || n == 0) return result();
  const MatrixStack st = stack_of(a, batch);
  FirstFailure fail;
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    using C = std::complex<R>;
    C* pw = reinterpret_cast<C*>(w.data());
    C* pv = compute_v ? reinterpret_cast<C*>(v.data()) : nullptr;
    const GeevDriver<T> drv(compute_v, static_cast<blas_int>(n));
    run_batch(nbatch, 25.0 * cube(n), [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(n * n)), work(static_cast<size_t>(drv.lwork));
      Scratch<T> vr(compute_v ? static_cast<size_t>(n * n) : 1);
      Scratch<T> wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n));
      Scratch<R> rwork(is_complex_v<T> ? static_cast<size_t>(2 * n) : 1);
      for (int64_t i = b0; i < b1; ++i) {
        load_colmajor(wa.data(), n, st.item<T>(i), st.rs, st.cs, n, n);
        if (!all_finite(wa.data(), n, n, n)) {
          fail.record(i, "array must not contain infs or NaNs");
          continue;
        }
        blas_int info = 0;
        C* wo = pw + i * n;
        if constexpr (is_complex_v<T>) {
          drv.call(wa.data(), wo, nullptr, vr.data(), work.data(), drv.lwork, rwork.data(), &info);
        } else {
          drv.call(wa.data(), wr.data(), wi.data(), vr.data(), work.data(), drv.lwork, nullptr,
                   &info);
        }
        if (info > 0) {
          fail.record(i, "eigenvalues did not converge");
          continue;
        }
        if constexpr (is_complex_v<T>) {
          if (compute_v) store_rowmajor(pv + i * n * n, vr.data(), n, n, n);
        } else {
          for (int64_t j = 0; j < n; ++j) wo[j] = C(wr[j], wi[j]);
          if (!compute_v) continue;
          // A complex pair (wi[j] > 0, wi[j+1] < 0) shares columns j (real part) and j+1
          // (imaginary part) of VR: v_j = re + i im, v_{j+1} = re - i im.
          C* vo = pv + i * n * n;
          for (int64_t j = 0; j < n; ++j) {
            const T* re = vr.data() + j * n;
            if (wi[j] == R(0) || j + 1 == n) {
              for (int64_t r = 0; r < n; ++r) vo[r * n + j] = C(re[r], 0);
            } else {
              const T* im = re + n;
              for (int64_t r = 0; r < n; ++r) {
                vo[r * n + j] = C(re[r], im[r]);
                vo[r * n + j + 1] = C(re[r], -im[r]);
              }
              ++j;
            }
          }
        }
      }
    });
  });
  fail.raise_if_failed(name, !batch.empty());
  return result();
}

// ---------------------------------------------------------------- svd (gesdd / gesvd)

namespace {

// Note [SVD of the row-major copy]
// The row-major copy of A (m x n) is A^T (n x m) column-major.  With A^T = U' S V'^H we have
// A = conj(V') S U'^T, so A's U is conj(V') and its Vh is U'^T; in memory, LAPACK's VT'
// (column-major) is exactly the row-major U, and LAPACK's U' is exactly the row-major Vh.
// So gesdd writes straight into the outputs and nothing is transposed.
template <class T>
struct SvdDriver {
  using R = real_t<T>;
  char job;                 // gesdd's jobz: 'A', 'S' or 'N'
  blas_int m, n, k;         // of the matrix LAPACK sees (A^T): m = A's cols, n = A's rows
  blas_int ldu, ldvt;
  blas_int lwork = 1, lrwork = 1, liwork = 1;

  SvdDriver(char job_, blas_int m_, blas_int n_) : job(job_), m(m_), n(n_), k(std::min(m_, n_)) {
    ldu = job == 'N' ? 1 : std::max<blas_int>(1, m);
    ldvt = job == 'A' ? std::max<blas_int>(1, n) : job == 'S' ? std::max<blas_int>(1, k) : 1;
    T wq{}, d{};
    R sd{}, rd{};
    blas_int id = 0, info = 0;
    gesdd(&d, &sd, &d, &d, &wq, -1, &rd, &id, &info);
    lwork = std::max<blas_int>(1, lwork_from(wq));
    liwork = std::max<blas_int>(1, 8 * k);
    if constexpr (is_complex_v<T>) {
      const int64_t mx = std::max(m, n), mn = k;
      const int64_t lr = job == 'N' ? 7 * mn
                                    : std::max(5 * mn * mn + 5 * mn, 2 * mx * mn + 2 * mn * mn + mn);
      lrwork = static_cast<blas_int>(std::max<int64_t>(1, lr));
    }
  }
  void gesdd(T* a, R* s, T* u, T* vt, T* work, blas_int lw, R* rwork, blas_int* iwork,
             blas_int* info) const {
    const blas_int lda = std::max<blas_int>(1, m);
    if constexpr (std::is_same_v<T, float>)
      lapack::scipy_sgesdd_(&job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw, iwork,
                            info, 1);
    else if constexpr (std::is_same_v<T, double>)
      lapack::scipy_dgesdd_(&job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw, iwork,
                            info, 1);
    else if constexpr (std::is_same_v<T, c64>)
      lapack::scipy_cgesdd_(&job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw, rwork,
                            iwork, info, 1);
    else
      lapack::scipy_zgesdd_(&job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw, rwork,
                            iwork, info, 1);
  }
  // The QR-iteration driver, used only when divide and conquer fails to converge.
  void gesvd(T* a, R* s, T* u, T* vt, blas_int* info) const {
    const blas_int lda = std::max<blas_int>(1, m);
    auto raw = [&](T* work, blas_int lw, R* rwork) {
      if constexpr (std::is_same_v<T, float>)
        lapack::scipy_sgesvd_(&job, &job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw,
                              info, 1, 1);
      else if constexpr (std::is_same_v<T, double>)
        lapack::scipy_dgesvd_(&job, &job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw,
                              info, 1, 1);
      else if constexpr (std::is_same_v<T, c64>)
        lapack::scipy_cgesvd_(&job, &job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw,
                              rwork, info, 1, 1);
      else
        lapack::scipy_zgesvd_(&job, &job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lw,
                              rwork, info, 1, 1);
    };
    T wq{};
    Scratch<R> rwork(static_cast<size_t>(std::max<blas_int>(1, 5 * k)));
    raw(&wq, -1, rwork.data());
    Scratch<T> work(static_cast<size_t>(std::max<blas_int>(1, lwork_from(wq))));
    raw(work.data(), static_cast<blas_int>(work.size()), rwork.data());
  }
};

template <class T>
void fill_identity_rowmajor(T* p, int64_t n) {
  fill(p, n * n, T(0));
  for (int64_t i = 0; i < n; ++i) p[i * n + i] = T(1);
}

}  // namespace

std::vector<NdArray> svd(const NdArray& a, bool full_matrices, bool compute_uv,
                         const std::string& name) {
  const auto [m, n, k, batch, nbatch] = matrix_input(a, name);
  NdArray s = empty(with_dims(batch, {k}), is_single(a.dtype) ? DType::Float32 : DType::Float64);
  NdArray u, vh;
  const int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  if (compute_uv) {
    u = empty(with_dims(batch, {m, ucols}), a.dtype);
    vh = empty(with_dims(batch, {vrows, n}), a.dtype);
  }
  auto result = [&]() -> std::vector<NdArray> {
    if (compute_uv) return {u, s, vh};
    return {s};
  };
  if (nbatch == 0) return result();
  const MatrixStack st = stack_of(a, batch);
  FirstFailure fail;
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    R* ps = reinterpret_cast<R*>(s.data());
    T* pu = compute_uv ? reinterpret_cast<T*>(u.data()) : nullptr;
    T* pvh = compute_uv ? reinterpret_cast<T*>(vh.data()) : nullptr;
    if (k == 0) {  // NumPy: identities for the full factors of an empty matrix
      if (compute_uv && full_matrices)
        for (int64_t i = 0; i < nbatch; ++i) {
          fill_identity_rowmajor(pu + i * m * m, m);
          fill_identity_rowmajor(pvh + i * n * n, n);
        }
      return;
    }
    const char job = compute_uv ? (full_matrices ? 'A' : 'S') : 'N';
    // Note [SVD of the row-major copy]: LAPACK factors A^T (n x m).
    const SvdDriver<T> drv(job, static_cast<blas_int>(n), static_cast<blas_int>(m));
    run_batch(nbatch, (compute_uv ? 12.0 : 3.0) * m * n * k, [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(m * n)), work(static_cast<size_t>(drv.lwork));
      Scratch<R> rwork(is_complex_v<T> ? static_cast<size_t>(drv.lrwork) : 1);
      Scratch<blas_int> iwork(static_cast<size_t>(drv.liwork));
      T dummy[1] = {};
      for (int64_t i = b0; i < b1; ++i) {
        load_rowmajor(wa.data(), st.item<T>(i), st.rs, st.cs, m, n);
        if (!all_finite(wa.data(), n, n, m)) {
          fail.record(i, "SVD did not converge");
          continue;
        }
        R* si = ps + i * k;
        T* lap_u = compute_uv ? pvh + i * vrows * n : dummy;  // LAPACK's U' = our Vh
        T* lap_vt = compute_uv ? pu + i * m * ucols : dummy;  // LAPACK's VT' = our U
        blas_int info = 0;
        drv.gesdd(wa.data(), si, lap_u, lap_vt, work.data(), drv.lwork, rwork.data(),
                  iwork.data(), &info);
        if (info > 0) {
          load_rowmajor(wa.data(), st.item<T>(i), st.rs, st.cs, m, n);
          drv.gesvd(wa.data(), si, lap_u, lap_vt, &info);
        }
        if (info != 0) fail.record(i, "SVD did not converge");
      }
    });
  });
  fail.raise_if_failed(name, !batch.empty());
  return result();
}

}  // namespace arraycore::native::linalg
