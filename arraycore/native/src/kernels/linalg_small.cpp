// L0: the n <= 4 kernels (see linalg_small.h for why and what they guarantee).
#include "linalg_small.h"

#include <cmath>
#include <limits>

namespace arraycore::native::linalg {
namespace {

template <class T>
inline real_t<T> pivot_size(T v) {
  if constexpr (is_complex_v<T>) return std::abs(v.real()) + std::abs(v.imag());
  else return std::abs(v);
}

// An N x N matrix in registers (row-major), loaded from a strided item.
template <class T, int N>
struct Small {
  T a[N][N];
  int perm[N];   // row i of the factored matrix is row perm[i] of the input
  bool odd = false;

  void load(const T* src, int64_t rs, int64_t cs) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) a[i][j] = src[i * rs + j * cs];
  }

  // In-place LU with partial pivoting (getf2's algorithm).  Returns LAPACK's info: 0, or the
  // 1-based index of the first exactly-zero pivot (elimination continues past it, so the
  // diagonal of U still gives det = 0).
  int factor() {
    using R = real_t<T>;
    int info = 0;
    for (int i = 0; i < N; ++i) perm[i] = i;
    for (int k = 0; k < N; ++k) {
      int p = k;
      R best = pivot_size(a[k][k]);
      for (int i = k + 1; i < N; ++i) {
        const R v = pivot_size(a[i][k]);
        if (v > best) {
          best = v;
          p = i;
        }
      }
      if (p != k) {
        for (int j = 0; j < N; ++j) std::swap(a[p][j], a[k][j]);
        std::swap(perm[p], perm[k]);
        odd = !odd;
      }
      if (a[k][k] == T(0)) {
        if (info == 0) info = k + 1;
        continue;
      }
      for (int i = k + 1; i < N; ++i) {
        const T l = a[i][k] / a[k][k];
        a[i][k] = l;
        for (int j = k + 1; j < N; ++j) a[i][j] -= l * a[k][j];
      }
    }
    return info;
  }

  // x <- U^-1 L^-1 x (x already permuted), in place.
  void substitute(T (&x)[N]) const {
    for (int i = 1; i < N; ++i)
      for (int j = 0; j < i; ++j) x[i] -= a[i][j] * x[j];
    for (int i = N - 1; i >= 0; --i) {
      for (int j = i + 1; j < N; ++j) x[i] -= a[i][j] * x[j];
      x[i] /= a[i][i];
    }
  }
};

template <int N, class T>
void det_n(const MatrixStack& st, int64_t nbatch, T* out) {
  run_batch(nbatch, N * N * N, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) {
      Small<T, N> m;
      m.load(st.item<T>(i), st.rs, st.cs);
      m.factor();
      T d = m.a[0][0];
      for (int k = 1; k < N; ++k) d *= m.a[k][k];
      out[i] = m.odd ? -d : d;
    }
  }, /*uses_blas=*/false);
}

template <int N, class T>
void slogdet_n(const MatrixStack& st, int64_t nbatch, T* sign, real_t<T>* logabs) {
  using R = real_t<T>;
  run_batch(nbatch, N * N * N, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) {
      Small<T, N> m;
      m.load(st.item<T>(i), st.rs, st.cs);
      m.factor();
      // Same arithmetic as the LAPACK path (linalg_factor.cpp, slogdet).
      T s(m.odd ? -1 : 1);
      R l(0);
      for (int k = 0; k < N; ++k) {
        const T v = m.a[k][k];
        const R av = std::abs(v);
        if (av == R(0)) {
          s = T(0);
          l = -std::numeric_limits<R>::infinity();
          break;
        }
        if constexpr (is_complex_v<T>) s *= v / av;
        else if (v < 0) s = -s;
        l += std::log(av);
      }
      sign[i] = s;
      logabs[i] = l;
    }
  }, /*uses_blas=*/false);
}

template <int N, class T>
void inv_n(const MatrixStack& st, int64_t nbatch, T* out, FirstFailure& fail) {
  run_batch(nbatch, 2 * N * N * N, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) {
      Small<T, N> m;
      m.load(st.item<T>(i), st.rs, st.cs);
      if (m.factor() != 0) {
        fail.record(i, "singular matrix");
        continue;
      }
      T* o = out + i * N * N;
      // Column c of the inverse solves A x = e_c; P A = L U, so x = U^-1 L^-1 (P e_c).
      for (int c = 0; c < N; ++c) {
        T x[N];
        for (int r = 0; r < N; ++r) x[r] = m.perm[r] == c ? T(1) : T(0);
        m.substitute(x);
        for (int r = 0; r < N; ++r) o[r * N + c] = x[r];
      }
    }
  }, /*uses_blas=*/false);
}

template <int N, class T>
void solve_n(const MatrixStack& sa, const MatrixStack& sb, int64_t k, int64_t nbatch, T* out,
             FirstFailure& fail) {
  run_batch(nbatch, N * N * N + 2 * N * N * k, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0; i < b1; ++i) {
      Small<T, N> m;
      m.load(sa.item<T>(i), sa.rs, sa.cs);
      if (m.factor() != 0) {
        fail.record(i, "singular matrix");
        continue;
      }
      const T* b = sb.item<T>(i);
      T* o = out + i * N * k;
      for (int64_t c = 0; c < k; ++c) {
        T x[N];
        for (int r = 0; r < N; ++r) x[r] = b[m.perm[r] * sb.rs + c * sb.cs];
        m.substitute(x);
        for (int r = 0; r < N; ++r) o[r * k + c] = x[r];
      }
    }
  }, /*uses_blas=*/false);
}

// Calls f(std::integral_constant<int, N>) for the runtime n in [1, 4].
template <class F>
void with_small_n(int64_t n, F&& f) {
  switch (n) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    default: throw ValueError("linalg: small-matrix kernel called with n = " + std::to_string(n));
  }
}

}  // namespace

template <class T>
void small_det_batch(const MatrixStack& st, int64_t n, int64_t nbatch, T* out) {
  with_small_n(n, [&](auto N) { det_n<decltype(N)::value, T>(st, nbatch, out); });
}
template <class T>
void small_slogdet_batch(const MatrixStack& st, int64_t n, int64_t nbatch, T* sign,
                         real_t<T>* logabs) {
  with_small_n(n, [&](auto N) { slogdet_n<decltype(N)::value, T>(st, nbatch, sign, logabs); });
}
template <class T>
void small_inv_batch(const MatrixStack& st, int64_t n, int64_t nbatch, T* out,
                     FirstFailure& fail) {
  with_small_n(n, [&](auto N) { inv_n<decltype(N)::value, T>(st, nbatch, out, fail); });
}
template <class T>
void small_solve_batch(const MatrixStack& sa, const MatrixStack& sb, int64_t n, int64_t k,
                       int64_t nbatch, T* out, FirstFailure& fail) {
  with_small_n(n, [&](auto N) {
    solve_n<decltype(N)::value, T>(sa, sb, k, nbatch, out, fail);
  });
}

#define AC_SMALL_INSTANTIATE(T)                                                              \
  template void small_det_batch<T>(const MatrixStack&, int64_t, int64_t, T*);                \
  template void small_slogdet_batch<T>(const MatrixStack&, int64_t, int64_t, T*,             \
                                       real_t<T>*);                                          \
  template void small_inv_batch<T>(const MatrixStack&, int64_t, int64_t, T*, FirstFailure&); \
  template void small_solve_batch<T>(const MatrixStack&, const MatrixStack&, int64_t,        \
                                     int64_t, int64_t, T*, FirstFailure&);
AC_SMALL_INSTANTIATE(float)
AC_SMALL_INSTANTIATE(double)
AC_SMALL_INSTANTIATE(c64)
AC_SMALL_INSTANTIATE(c128)
#undef AC_SMALL_INSTANTIATE

}  // namespace arraycore::native::linalg
