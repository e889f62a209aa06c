// L0: factorization-based linalg functions: cholesky, the LU family (lu_factor, lu_solve,
// solve, inv, det, slogdet) and the triangular solve.
//
// Note [The row-major buffer is the transpose]
// The outputs are row-major; LAPACK is column-major.  A row-major copy of A, read by LAPACK,
// is A^T, and many answers follow from A^T as cheaply as from A: det(A^T) = det(A),
// inv(A^T) = inv(A)^T (so getri on the row-major copy leaves inv(A) row-major), A X = B is
// A^T's factorization solved with trans = 'T', and for Hermitian A the row-major copy is
// conj(A), whose upper Cholesky factor is L^T (so potrf('U') on it leaves L row-major).
// These functions therefore copy the input once into its row-major output/workspace (a plain
// copy, memcpy-like for a C-contiguous input) instead of transposing it; only lu_factor, whose
// pivots must be A's row interchanges, pays a transposing copy each way.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "../lapack.h"
#include "linalg.h"
#include "linalg_small.h"

namespace arraycore::native::linalg {
namespace {

double cube(int64_t n) { return static_cast<double>(n) * n * n; }

// inv's driver: getrf + getri (default) or getrf + getrs on the identity, chosen by
// ARRAYCORE_LINALG_INV=getrs (kept switchable to measure; docs/linalg.md has the figures).
bool inv_by_solve() {
  static const bool v = env_switch("ARRAYCORE_LINALG_INV", "getrs");
  return v;
}

// Zeros the strictly lower (lower_part) or strictly upper triangle of a row-major n x n.
template <class T>
void zero_triangle(T* a, int64_t n, bool lower_part) {
  for (int64_t i = 0; i < n; ++i) {
    if (lower_part) std::fill(a + i * n, a + i * n + i, T(0));
    else std::fill(a + i * n + i + 1, a + (i + 1) * n, T(0));
  }
}

}  // namespace

// ---------------------------------------------------------------- cholesky

NdArray cholesky(const NdArray& a, bool upper, const std::string& name) {
  const auto [n, batch, nbatch] = square_input(a, name);
  NdArray out = empty(a.shape, a.dtype);
  if (out.numel() == 0) return out;
  const MatrixStack st = stack_of(a, batch);
  FirstFailure fail;
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = reinterpret_cast<T*>(out.data());
    run_batch(nbatch, cube(n) / 3, [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1; ++i) {
        T* o = po + i * n * n;
        // Note [The row-major buffer is the transpose]: potrf('U') of the row-major copy
        // reads A's lower triangle and leaves L row-major; 'L' reads the upper one and
        // leaves U.
        load_rowmajor(o, st.item<T>(i), st.rs, st.cs, n, n);
        blas_int info = 0;
        lapack::potrf(upper ? 'L' : 'U', static_cast<blas_int>(n), o,
                      static_cast<blas_int>(n), &info);
        if (info > 0) {
          fail.record(i, "matrix is not positive definite (leading minor of order " +
                             std::to_string(info) + ")");
          continue;
        }
        zero_triangle(o, n, /*lower_part=*/upper);
      }
    });
  });
  fail.raise_if_failed(name, !batch.empty());
  return out;
}

// ---------------------------------------------------------------- LU

std::vector<NdArray> lu_factor(const NdArray& a, const std::string& name) {
  const auto [m, n, k, batch, nbatch] = matrix_input(a, name);
  NdArray lu = empty(a.shape, a.dtype);
  Shape pshape = batch;
  pshape.push_back(k);
  NdArray piv = empty(pshape, DType::Int32);
  if (lu.numel() == 0) return {lu, piv};
  const MatrixStack st = stack_of(a, batch);
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = reinterpret_cast<T*>(lu.data());
    blas_int* pp = reinterpret_cast<blas_int*>(piv.data());
    run_batch(nbatch, static_cast<double>(m) * n * k, [&](int64_t b0, int64_t b1) {
      Scratch<T> w(static_cast<size_t>(m * n));
      for (int64_t i = b0; i < b1; ++i) {
        load_colmajor(w.data(), m, st.item<T>(i), st.rs, st.cs, m, n);
        blas_int info = 0;
        lapack::getrf(static_cast<blas_int>(m), static_cast<blas_int>(n), w.data(),
                      static_cast<blas_int>(m), pp + i * k, &info);
        store_rowmajor(po + i * m * n, w.data(), m, m, n);
      }
    });
  });
  return {lu, piv};
}

NdArray lu_solve(const NdArray& lu, const NdArray& piv, const NdArray& b, bool adjoint,
                 const std::string& name) {
  check_float_dtype(lu, name);
  check_same_dtype(lu, b, name);
  check_square(lu, name, "LU");
  check_ndim(b, 2, name, "B");
  check_ndim(piv, 1, name, "pivots");
  if (piv.dtype != DType::Int32)
    throw TypeError(name + ": pivots must be int32, got " + std::string(dtype_name(piv.dtype)));
  const int64_t n = lu.shape[lu.ndim() - 1];
  check_blas_size(n, name);
  if (b.shape[b.ndim() - 2] != n || piv.shape[piv.ndim() - 1] != n)
    throw ValueError(name + ": LU " + shape_str(lu.shape) + ", pivots " +
                     shape_str(piv.shape) + " and B " + shape_str(b.shape) +
                     " do not match (B must be (..., n, k), pivots (..., n))");
  const int64_t k = b.shape[b.ndim() - 1];
  const Shape batch = broadcast_shapes({batch_of(lu, 2), batch_of(piv, 1), batch_of(b, 2)},
                                       name.c_str());
  const int64_t nbatch = shape_numel(batch);
  Shape oshape = batch;
  oshape.push_back(n);
  oshape.push_back(k);
  NdArray out = empty(oshape, b.dtype);
  if (out.numel() == 0) return out;
  const MatrixStack sl = stack_of(lu, batch), sb = stack_of(b, batch);
  const MatrixStack sp = vector_stack_of(piv, batch);
  FirstFailure bad;
  visit_float(lu.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = reinterpret_cast<T*>(out.data());
    run_batch(nbatch, cube(n) / 4 + static_cast<double>(n) * n * k, [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(n * n)), wb(static_cast<size_t>(n * k));
      Scratch<blas_int> ip(static_cast<size_t>(n));
      for (int64_t i = b0; i < b1; ++i) {
        const int32_t* p = sp.item<int32_t>(i);
        bool ok = true;
        for (int64_t j = 0; j < n; ++j) {
          ip[j] = p[j * sp.rs];
          // getrs swaps rows ip[j]: an out-of-range pivot would write out of bounds.
          if (ip[j] < 1 || ip[j] > n) ok = false;
        }
        if (!ok) {
          bad.record(i, "pivots must lie in [1, n]");
          continue;
        }
        load_colmajor(wa.data(), n, sl.item<T>(i), sl.rs, sl.cs, n, n);
        load_colmajor(wb.data(), n, sb.item<T>(i), sb.rs, sb.cs, n, k);
        blas_int info = 0;
        lapack::getrs(adjoint ? 'C' : 'N', static_cast<blas_int>(n), static_cast<blas_int>(k),
                      wa.data(), static_cast<blas_int>(n), ip.data(), wb.data(),
                      static_cast<blas_int>(n), &info);
        store_rowmajor(po + i * n * k, wb.data(), n, n, k);
      }
    });
  });
  if (bad.failed()) {
    try {
      bad.raise_if_failed(name, !batch.empty());
    } catch (const LinAlgError& e) {
      throw ValueError(e.what());  // bad input, not a numerical failure
    }
  }
  return out;
}

NdArray solve(const NdArray& a, const NdArray& b, const std::string& name) {
  check_float_dtype(a, name);
  check_same_dtype(a, b, name);
  check_square(a, name, "A");
  check_ndim(b, 2, name, "B");
  const int64_t n = a.shape[a.ndim() - 1];
  check_blas_size(n, name);
  if (b.shape[b.ndim() - 2] != n)
    throw ValueError(name + ": A " + shape_str(a.shape) + " and B " + shape_str(b.shape) +
                     " do not match (B must be (..., n, k))");
  const int64_t k = b.shape[b.ndim() - 1];
  check_blas_size(k, name);
  const Shape batch = broadcast_shapes({batch_of(a, 2), batch_of(b, 2)}, name.c_str());
  const int64_t nbatch = shape_numel(batch);
  Shape oshape = batch;
  oshape.push_back(n);
  oshape.push_back(k);
  NdArray out = empty(oshape, a.dtype);
  if (out.numel() == 0) return out;
  const MatrixStack sa = stack_of(a, batch), sb = stack_of(b, batch);
  FirstFailure fail;
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = reinterpret_cast<T*>(out.data());
    if (n <= kSmallN) {
      small_solve_batch<T>(sa, sb, n, k, nbatch, po, fail);
      return;
    }
    run_batch(nbatch, cube(n) / 3 + 2.0 * n * n * k, [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(n * n));
      Scratch<blas_int> ip(static_cast<size_t>(n));
      // B column-major unless k == 1 (then the row-major output is the column already).
      Scratch<T> wb(k == 1 ? 0 : static_cast<size_t>(n * k));
      for (int64_t i = b0; i < b1; ++i) {
        load_rowmajor(wa.data(), sa.item<T>(i), sa.rs, sa.cs, n, n);  // = A^T column-major
        blas_int info = 0;
        lapack::getrf(static_cast<blas_int>(n), static_cast<blas_int>(n), wa.data(),
                      static_cast<blas_int>(n), ip.data(), &info);
        if (info > 0) {
          fail.record(i, "singular matrix");
          continue;
        }
        T* o = po + i * n * k;
        T* x = k == 1 ? o : wb.data();
        load_colmajor(x, n, sb.item<T>(i), sb.rs, sb.cs, n, k);
        // A = (A^T)^T: solve with the transpose of the factored matrix.
        lapack::getrs('T', static_cast<blas_int>(n), static_cast<blas_int>(k), wa.data(),
                      static_cast<blas_int>(n), ip.data(), x, static_cast<blas_int>(n), &info);
        if (k != 1) store_rowmajor(o, x, n, n, k);
      }
    });
  });
  fail.raise_if_failed(name, !batch.empty());
  return out;
}

NdArray inv(const NdArray& a, const std::string& name) {
  const auto [n, batch, nbatch] = square_input(a, name);
  NdArray out = empty(a.shape, a.dtype);
  if (out.numel() == 0) return out;
  const MatrixStack st = stack_of(a, batch);
  FirstFailure fail;
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = reinterpret_cast<T*>(out.data());
    if (n <= kSmallN) {
      small_inv_batch<T>(st, n, nbatch, po, fail);
      return;
    }
    if (inv_by_solve()) {
      // getrf + getrs on the identity (what NumPy does): A^T = P L U is factored from the
      // row-major copy, and A^T X = I gives X = inv(A^T) = inv(A)^T column-major, which is
      // inv(A) row-major.
      run_batch(nbatch, cube(n) * 4.0 / 3.0, [&](int64_t b0, int64_t b1) {
        Scratch<T> w(static_cast<size_t>(n * n));
        Scratch<blas_int> ip(static_cast<size_t>(n));
        for (int64_t i = b0; i < b1; ++i) {
          T* o = po + i * n * n;
          load_rowmajor(w.data(), st.item<T>(i), st.rs, st.cs, n, n);
          blas_int inf = 0;
          lapack::getrf(static_cast<blas_int>(n), static_cast<blas_int>(n), w.data(),
                        static_cast<blas_int>(n), ip.data(), &inf);
          if (inf > 0) {
            fail.record(i, "singular matrix");
            continue;
          }
          fill(o, n * n, T(0));
          for (int64_t j = 0; j < n; ++j) o[j * n + j] = T(1);
          lapack::getrs('N', static_cast<blas_int>(n), static_cast<blas_int>(n), w.data(),
                        static_cast<blas_int>(n), ip.data(), o, static_cast<blas_int>(n), &inf);
        }
      });
      return;
    }
    // getri's workspace: asked once for all items (same n).
    T wq{};
    blas_int info = 0;
    {
      T dummy{};
      blas_int dp = 0;
      lapack::getri(static_cast<blas_int>(n), &dummy, static_cast<blas_int>(n), &dp, &wq, -1,
                    &info);
    }
    const blas_int lwork = std::max<blas_int>(lwork_from(wq), static_cast<blas_int>(n));
    run_batch(nbatch, cube(n), [&](int64_t b0, int64_t b1) {
      Scratch<T> work(static_cast<size_t>(lwork));
      Scratch<blas_int> ip(static_cast<size_t>(n));
      for (int64_t i = b0; i < b1; ++i) {
        T* o = po + i * n * n;
        // inv(A^T) = inv(A)^T: inverting the row-major copy leaves inv(A) row-major.
        load_rowmajor(o, st.item<T>(i), st.rs, st.cs, n, n);
        blas_int inf = 0;
        lapack::getrf(static_cast<blas_int>(n), static_cast<blas_int>(n), o,
                      static_cast<blas_int>(n), ip.data(), &inf);
        if (inf > 0) {
          fail.record(i, "singular matrix");
          continue;
        }
        lapack::getri(static_cast<blas_int>(n), o, static_cast<blas_int>(n), ip.data(),
                      work.data(), lwork, &inf);
      }
    });
  });
  fail.raise_if_failed(name, !batch.empty());
  return out;
}

namespace {

// LU of every matrix of a square stack (as A^T, which has the same determinant), handing
// each item's diagonal of U and its permutation parity to `use(i, diag, ld, odd)`.
template <class T, class Use>
void lu_diagonals(const MatrixStack& st, int64_t n, int64_t nbatch, Use&& use) {
  run_batch(nbatch, cube(n) / 3, [&](int64_t b0, int64_t b1) {
    Scratch<T> w(static_cast<size_t>(n * n));
    Scratch<blas_int> ip(static_cast<size_t>(n));
    for (int64_t i = b0; i < b1; ++i) {
      load_rowmajor(w.data(), st.item<T>(i), st.rs, st.cs, n, n);
      blas_int info = 0;
      lapack::getrf(static_cast<blas_int>(n), static_cast<blas_int>(n), w.data(),
                    static_cast<blas_int>(n), ip.data(), &info);
      bool odd = false;
      for (int64_t j = 0; j < n; ++j) odd ^= (ip[j] != j + 1);
      use(i, w.data(), n + 1, odd);
    }
  });
}

}  // namespace

NdArray det(const NdArray& a, const std::string& name) {
  const auto [n, batch, nbatch] = square_input(a, name);
  NdArray out = empty(batch, a.dtype);
  if (nbatch == 0) return out;
  const MatrixStack st = stack_of(a, batch);
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = reinterpret_cast<T*>(out.data());
    if (n == 0) {
      fill(po, nbatch, T(1));
      return;
    }
    if (n <= kSmallN) {
      small_det_batch<T>(st, n, nbatch, po);
      return;
    }
    lu_diagonals<T>(st, n, nbatch, [&](int64_t i, const T* d, int64_t step, bool odd) {
      T p(1);
      for (int64_t j = 0; j < n; ++j) p *= d[j * step];
      po[i] = odd ? -p : p;
    });
  });
  return out;
}

std::vector<NdArray> slogdet(const NdArray& a, const std::string& name) {
  const auto [n, batch, nbatch] = square_input(a, name);
  const bool single = a.dtype == DType::Float32 || a.dtype == DType::Complex64;
  NdArray sign = empty(batch, a.dtype);
  NdArray logabs = empty(batch, single ? DType::Float32 : DType::Float64);
  if (nbatch == 0) return {sign, logabs};
  const MatrixStack st = stack_of(a, batch);
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    using R = real_t<T>;
    T* ps = reinterpret_cast<T*>(sign.data());
    R* pl = reinterpret_cast<R*>(logabs.data());
    if (n == 0) {
      fill(ps, nbatch, T(1));
      fill(pl, nbatch, R(0));
      return;
    }
    if (n <= kSmallN) {
      small_slogdet_batch<T>(st, n, nbatch, ps, pl);
      return;
    }
    lu_diagonals<T>(st, n, nbatch, [&](int64_t i, const T* d, int64_t step, bool odd) {
      T s(odd ? -1 : 1);
      R l(0);
      for (int64_t j = 0; j < n; ++j) {
        const T v = d[j * step];
        const R av = std::abs(v);
        if (av == R(0)) {  // exactly singular: NumPy's (0, -inf)
          s = T(0);
          l = -std::numeric_limits<R>::infinity();
          break;
        }
        if constexpr (is_complex_v<T>) s *= v / av;
        else if (v < 0) s = -s;  // (NaN keeps the sign, as NumPy)
        l += std::log(av);
      }
      ps[i] = s;
      pl[i] = l;
    });
  });
  return {sign, logabs};
}

// ---------------------------------------------------------------- triangular solve

NdArray solve_triangular(const NdArray& a, const NdArray& b, bool upper, bool left,
                         bool unitriangular, const std::string& name) {
  check_float_dtype(a, name);
  check_same_dtype(a, b, name);
  check_square(a, name, "A");
  check_ndim(b, 2, name, "B");
  const int64_t n = a.shape[a.ndim() - 1];
  check_blas_size(n, name);
  const int64_t br = b.shape[b.ndim() - 2], bc = b.shape[b.ndim() - 1];
  if ((left ? br : bc) != n)
    throw ValueError(name + ": A " + shape_str(a.shape) + " and B " + shape_str(b.shape) +
                     " do not match (B must be " + (left ? "(..., n, k)" : "(..., k, n)") +
                     " when left=" + (left ? "True" : "False") + ")");
  check_blas_size(std::max(br, bc), name);
  const Shape batch = broadcast_shapes({batch_of(a, 2), batch_of(b, 2)}, name.c_str());
  const int64_t nbatch = shape_numel(batch);
  Shape oshape = batch;
  oshape.push_back(br);
  oshape.push_back(bc);
  NdArray out = empty(oshape, a.dtype);
  if (out.numel() == 0) return out;
  const MatrixStack sa = stack_of(a, batch), sb = stack_of(b, batch);
  const int64_t k = left ? bc : br;
  const char uplo_t = upper ? 'L' : 'U';  // the row-major copy holds A^T
  const char diag = unitriangular ? 'U' : 'N';
  visit_float(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = reinterpret_cast<T*>(out.data());
    run_batch(nbatch, static_cast<double>(n) * n * k, [&](int64_t b0, int64_t b1) {
      Scratch<T> wa(static_cast<size_t>(n * n));
      for (int64_t i = b0; i < b1; ++i) {
        load_rowmajor(wa.data(), sa.item<T>(i), sa.rs, sa.cs, n, n);
        T* o = po + i * br * bc;
        load_rowmajor(o, sb.item<T>(i), sb.rs, sb.cs, br, bc);  // = B^T column-major
        // Note [The row-major buffer is the transpose]: A X = B is X^T A^T = B^T (a
        // right-side solve on the copies) and X A = B is A^T X^T = B^T.
        if (left)
          lapack::trsm('R', uplo_t, 'N', diag, static_cast<blas_int>(k),
                       static_cast<blas_int>(n), T(1), wa.data(), static_cast<blas_int>(n), o,
                       static_cast<blas_int>(k));
        else
          lapack::trsm('L', uplo_t, 'N', diag, static_cast<blas_int>(n),
                       static_cast<blas_int>(k), T(1), wa.data(), static_cast<blas_int>(n), o,
                       static_cast<blas_int>(n));
      }
    });
  });
  return out;
}

}  // namespace arraycore::native::linalg
