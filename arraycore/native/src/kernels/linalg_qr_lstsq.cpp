// L0: QR (geqrf + orgqr/ungqr) and least squares (gelsd, SVD-based divide and conquer, the
// driver NumPy uses, so ranks and minimum-norm solutions agree).
#include <cmath>
#include <limits>

#include "../lapack.h"
#include "linalg.h"

namespace arraycore::native::linalg {
namespace {

Shape with_dims(const Shape& batch, std::initializer_list<int64_t> dims) {
  Shape s = batch;
  for (int64_t d : dims) s.push_back(d);
  return s;
}

}  // namespace

std::vector<NdArray> qr(const NdArray& a, const std::string& mode, const std::string& name) {
  check_float_dtype(a, name);
  check_ndim(a, 2, name, "input");
  const bool complete = mode == "complete", r_only = mode == "r";
  if (!complete && !r_only && mode != "reduced")
    throw ValueError(name + ": mode must be 'reduced', 'complete' or 'r', got '" + mode + "'");
  const int64_t m = a.shape[a.ndim() - 2], n = a.shape[a.ndim() - 1];
  check_blas_size(std::max(m, n), name);
  const int64_t k = std::min(m, n);
  const Shape batch = batch_of(a, 2);
  const int64_t nbatch = shape_numel(batch);
  const int64_t rrows = complete ? m : k, qcols = complete ? m : k;
  NdArray r = empty(with_dims(batch, {rrows, n}), a.dtype);
  NdArray q;
  if (!r_only) q = empty(with_dims(batch, {m, qcols}), a.dtype);
  auto result = [&]() -> std::vector<NdArray> {
    if (r_only) return {r};
    return {q, r};
  };
  if (nbatch == 0 || m == 0) return result();
  const MatrixStack st = stack_of(a, batch);
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* pr = reinterpret_cast<T*>(r.data());
    T* pq = r_only ? nullptr : reinterpret_cast<T*>(q.data());
    const blas_int M = static_cast<blas_int>(m), N = static_cast<blas_int>(n),
                   K = static_cast<blas_int>(k), QC = static_cast<blas_int>(qcols);
    // Columns of the workspace: A's n, or m when the complete Q (m x m) is built in place.
    const int64_t wcols = std::max(n, r_only ? 0 : qcols);
    blas_int lwork = 1;
    {
      T wq{}, d{};
      blas_int info = 0;
      lapack::geqrf(M, N, &d, M, &d, &wq, -1, &info);
      lwork = std::max(lwork, lwork_from(wq));
      if (!r_only) {
        lapack::orgqr(M, QC, K, &d, M, &d, &wq, -1, &info);
        lwork = std::max(lwork, lwork_from(wq));
      }
    }
    run_batch(nbatch, 4.0 * m * n * k, [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(m * std::max<int64_t>(wcols, 1)));
      Scratch<T> tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
      Scratch<T> work(static_cast<size_t>(lwork));
      for (int64_t i = b0; i < b1; ++i) {
        load_colmajor(wa.data(), m, st.item<T>(i), st.rs, st.cs, m, n);
        blas_int info = 0;
        if (k > 0) lapack::geqrf(M, N, wa.data(), M, tau.data(), work.data(), lwork, &info);
        T* ri = pr + i * rrows * n;
        for (int64_t row = 0; row < rrows; ++row)
          for (int64_t c = 0; c < n; ++c) ri[row * n + c] = row <= c ? wa[row + c * m] : T(0);
        if (r_only) continue;
        lapack::orgqr(M, QC, K, wa.data(), M, tau.data(), work.data(), lwork, &info);
        store_rowmajor(pq + i * m * qcols, wa.data(), m, m, qcols);
      }
    });
  });
  return result();
}

namespace {

template <class T>
struct GelsdDriver {
  using R = real_t<T>;
  blas_int m, n, nrhs, lda, ldb;
  blas_int lwork = 1, lrwork = 1, liwork = 1;

  GelsdDriver(blas_int m_, blas_int n_, blas_int nrhs_)
      : m(m_), n(n_), nrhs(nrhs_), lda(std::max<blas_int>(1, m_)),
        ldb(std::max<blas_int>({1, m_, n_})) {
    T wq{}, d{};
    R sd{}, rq{}, rc = -1;
    blas_int iq = 0, rank = 0, info = 0;
    call(&d, &d, &sd, rc, &rank, &wq, -1, &rq, &iq, &info);
    lwork = std::max<blas_int>(1, lwork_from(wq));
    liwork = std::max<blas_int>(1, iq);
    if constexpr (is_complex_v<T>) lrwork = std::max<blas_int>(1, lwork_from(rq));
  }
  void call(T* a, T* b, R* s, R rcond, blas_int* rank, T* work, blas_int lw, R* rwork,
            blas_int* iwork, blas_int* info) const {
    if constexpr (std::is_same_v<T, float>)
      lapack::scipy_sgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lw, iwork,
                            info);
    else if constexpr (std::is_same_v<T, double>)
      lapack::scipy_dgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lw, iwork,
                            info);
    else if constexpr (std::is_same_v<T, c64>)
      lapack::scipy_cgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lw, rwork,
                            iwork, info);
    else
      lapack::scipy_zgelsd_(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lw, rwork,
                            iwork, info);
  }
};

}  // namespace

std::vector<NdArray> lstsq(const NdArray& a, const NdArray& b, std::optional<double> rcond,
                           const std::string& name) {
  check_float_dtype(a, name);
  check_same_dtype(a, b, name);
  check_ndim(a, 2, name, "a");
  check_ndim(b, 2, name, "b");
  const int64_t m = a.shape[a.ndim() - 2], n = a.shape[a.ndim() - 1];
  if (b.shape[b.ndim() - 2] != m)
    throw ValueError(name + ": a " + shape_str(a.shape) + " and b " + shape_str(b.shape) +
                     " do not match (b must be (..., m, k))");
  const int64_t nrhs = b.shape[b.ndim() - 1];
  check_blas_size(std::max({m, n, nrhs}), name);
  const int64_t k = std::min(m, n);
  const Shape batch = broadcast_shapes({batch_of(a, 2), batch_of(b, 2)}, name.c_str());
  const int64_t nbatch = shape_numel(batch);
  const bool single = a.dtype == DType::Float32 || a.dtype == DType::Complex64;
  const DType rdt = single ? DType::Float32 : DType::Float64;
  NdArray x = empty(with_dims(batch, {n, nrhs}), a.dtype);
  NdArray rank = empty(batch, DType::Int64);
  NdArray s = empty(with_dims(batch, {k}), rdt);
  NdArray res_all = empty(with_dims(batch, {nrhs}), rdt);
  bool all_full_rank = true;
  const MatrixStack sa = stack_of(a, batch), sb = stack_of(b, batch);
  FirstFailure fail;
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    if (nbatch == 0) return;
    T* px = reinterpret_cast<T*>(x.data());
    R* ps = reinterpret_cast<R*>(s.data());
    R* pres = reinterpret_cast<R*>(res_all.data());
    int64_t* prank = reinterpret_cast<int64_t*>(rank.data());
    const R rc = rcond.has_value() ? static_cast<R>(*rcond)
                                   : std::numeric_limits<R>::epsilon() * static_cast<R>(std::max(m, n));
    const GelsdDriver<T> drv(static_cast<blas_int>(m), static_cast<blas_int>(n),
                             static_cast<blas_int>(nrhs));
    const int64_t ldb = drv.ldb;
    std::vector<char> full(static_cast<size_t>(nbatch), 1);
    run_batch(nbatch, 12.0 * m * n * k + 2.0 * m * n * nrhs, [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(std::max<int64_t>(1, m * n)));
      Scratch<T> wb(static_cast<size_t>(std::max<int64_t>(1, ldb * nrhs)));
      Scratch<T> work(static_cast<size_t>(drv.lwork));
      Scratch<R> rwork(is_complex_v<T> ? static_cast<size_t>(drv.lrwork) : 1);
      Scratch<blas_int> iwork(static_cast<size_t>(drv.liwork));
      for (int64_t i = b0; i < b1; ++i) {
        load_colmajor(wa.data(), m, sa.item<T>(i), sa.rs, sa.cs, m, n);
        std::fill(wb.begin(), wb.end(), T(0));
        load_colmajor(wb.data(), ldb, sb.item<T>(i), sb.rs, sb.cs, m, nrhs);
        if (!all_finite(wa.data(), m, m, n) || !all_finite(wb.data(), ldb, m, nrhs)) {
          fail.record(i, "SVD did not converge in Linear Least Squares");
          continue;
        }
        blas_int rk = 0, info = 0;
        if (k > 0) {
          drv.call(wa.data(), wb.data(), ps + i * k, rc, &rk, work.data(), drv.lwork,
                   rwork.data(), iwork.data(), &info);
        } else {
          for (int64_t c = 0; c < nrhs; ++c) std::fill(wb.data() + c * ldb, wb.data() + c * ldb + n, T(0));
        }
        if (info > 0) {
          fail.record(i, "SVD did not converge in Linear Least Squares");
          continue;
        }
        prank[i] = rk;
        store_rowmajor(px + i * n * nrhs, wb.data(), ldb, n, nrhs);
        // Residual sums of squares: rows n..m-1 of the transformed b (full rank, m > n).
        full[i] = rk == n;
        if (m > n && rk == n)
          for (int64_t c = 0; c < nrhs; ++c) {
            R acc = 0;
            if (k == 0) {  // (n == 0): x = 0, residual = |b|^2
              for (int64_t r0 = 0; r0 < m; ++r0) acc += std::norm(wb[r0 + c * ldb]);
            } else {
              for (int64_t r0 = n; r0 < m; ++r0) acc += std::norm(wb[r0 + c * ldb]);
            }
            pres[i * nrhs + c] = acc;
          }
      }
    });
    for (char f : full) all_full_rank = all_full_rank && f;
  });
  fail.raise_if_failed(name, !batch.empty());
  NdArray residuals = (m > n && all_full_rank && nbatch > 0) ? res_all : empty(Shape{0}, rdt);
  return {x, residuals, rank, s};
}

}  // namespace arraycore::native::linalg
