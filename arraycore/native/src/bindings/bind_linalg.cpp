// Bindings of the linear algebra family: matmul/vecdot (kernels/matmul.cpp) and the linalg
// extension's LAPACK-backed functions (kernels/linalg*.cpp).  Inputs arrive promoted to one
// dtype by the Python layer (arraycore/array_api/_linear_algebra.py, arraycore/linalg/).
//
// The linalg_* functions take stacks (..., rows, cols) of float32/float64/complex64/complex128
// of any strides and broadcast the batch dimensions of their operands themselves (so callers
// need not).  Every one takes `name`, the public function named in error messages, and
// releases the GIL while it computes.  Numerical failures raise `_native.LinAlgError` (a
// ValueError subclass): "<name>: <what> (batch index i)", i the flat index of the first
// failing matrix (no batch part for a single matrix).
#include <optional>

#include "../blas.h"
#include "../kernels/linalg.h"
#include "../kernels/matmul.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

// Multiply-adds of a matmul, roughly: decides whether releasing the GIL pays.
int64_t matmul_work(const NdArray& a, const NdArray& b) {
  int64_t n = b.ndim() >= 2 ? b.shape[b.ndim() - 1] : 1;
  return a.numel() * std::max<int64_t>(n, 1) + b.numel();
}

// Runs a native linalg function without the GIL, returning its arrays as a Python tuple.
template <class F>
py::tuple nogil_tuple(F&& f) {
  std::vector<NdArray> r;
  {
    py::gil_scoped_release nogil;
    r = f();
  }
  py::tuple t(r.size());
  for (size_t i = 0; i < r.size(); ++i) t[i] = py::cast(std::move(r[i]));
  return t;
}

template <class F>
NdArray nogil_array(F&& f) {
  py::gil_scoped_release nogil;
  return f();
}

void bind_linalg_extension(py::module_& m) {
  namespace la = arraycore::native::linalg;
  // Registered translators are tried newest first, so this one sees LinAlgError before the
  // module's generic translator.
  py::register_exception<la::LinAlgError>(m, "LinAlgError", PyExc_ValueError);

  m.def("linalg_cholesky", [](const NdArray& a, bool upper, const std::string& name) {
    return nogil_array([&] { return la::cholesky(a, upper, name); });
  }, py::arg("a"), py::arg("upper") = false, py::kw_only(), py::arg("name") = "cholesky",
        "Cholesky factor (potrf) of Hermitian positive-definite (..., n, n): L (A = L L^H) or, "
        "with upper, U (A = U^H U), read from that triangle of A; zeros in the other one. "
        "LinAlgError when not positive definite.");
  m.def("linalg_lu_factor", [](const NdArray& a, const std::string& name) {
    return nogil_tuple([&] { return la::lu_factor(a, name); });
  }, py::arg("a"), py::kw_only(), py::arg("name") = "lu_factor",
        "(LU, pivots): getrf of (..., m, n); pivots int32 (..., min(m, n)), 1-based row "
        "interchanges as LAPACK and torch. Never raises for singular input.");
  m.def("linalg_lu_solve", [](const NdArray& lu, const NdArray& piv, const NdArray& b,
                              bool adjoint, const std::string& name) {
    return nogil_array([&] { return la::lu_solve(lu, piv, b, adjoint, name); });
  }, py::arg("lu"), py::arg("pivots"), py::arg("b"), py::arg("adjoint") = false, py::kw_only(),
        py::arg("name") = "lu_solve",
        "X with A X = B (A^H X = B if adjoint) from lu_factor's (LU, pivots) (getrs); B is "
        "(..., n, k); batch dims of the three broadcast.");
  m.def("linalg_solve", [](const NdArray& a, const NdArray& b, const std::string& name) {
    return nogil_array([&] { return la::solve(a, b, name); });
  }, py::arg("a"), py::arg("b"), py::kw_only(), py::arg("name") = "solve",
        "X with A X = B for A (..., n, n), B (..., n, k) (batch dims broadcast); getrf + "
        "getrs. LinAlgError for exactly singular A.");
  m.def("linalg_inv", [](const NdArray& a, const std::string& name) {
    return nogil_array([&] { return la::inv(a, name); });
  }, py::arg("a"), py::kw_only(), py::arg("name") = "inv",
        "Inverse of (..., n, n) (getrf + getri). LinAlgError for exactly singular input.");
  m.def("linalg_det", [](const NdArray& a, const std::string& name) {
    return nogil_array([&] { return la::det(a, name); });
  }, py::arg("a"), py::kw_only(), py::arg("name") = "det",
        "Determinant of (..., n, n) (getrf): shape (...). Never raises.");
  m.def("linalg_slogdet", [](const NdArray& a, const std::string& name) {
    return nogil_tuple([&] { return la::slogdet(a, name); });
  }, py::arg("a"), py::kw_only(), py::arg("name") = "slogdet",
        "(sign, logabsdet) of (..., n, n) (getrf); sign of the input dtype, logabsdet real. "
        "Singular: (0, -inf).");
  m.def("linalg_eigh", [](const NdArray& a, bool upper, bool compute_v, const std::string& name) {
    return nogil_tuple([&] { return la::eigh(a, upper, compute_v, name); });
  }, py::arg("a"), py::arg("upper") = false, py::arg("compute_v") = true, py::kw_only(),
        py::arg("name") = "eigh",
        "(w, V) or (w,) of Hermitian (..., n, n) from its lower (upper) triangle "
        "(syevd/heevd): w real ascending, V's columns the eigenvectors. Non-finite input: "
        "NaN results with compute_v, else LinAlgError (NumPy's eigh / eigvalsh).");
  m.def("linalg_eig", [](const NdArray& a, bool compute_v, const std::string& name) {
    return nogil_tuple([&] { return la::eig(a, compute_v, name); });
  }, py::arg("a"), py::arg("compute_v") = true, py::kw_only(), py::arg("name") = "eig",
        "(w, V) or (w,) of (..., n, n) (geev), complex always; V's columns have unit 2-norm. "
        "LinAlgError for non-finite input or no convergence.");
  m.def("linalg_svd", [](const NdArray& a, bool full_matrices, bool compute_uv,
                         const std::string& name) {
    return nogil_tuple([&] { return la::svd(a, full_matrices, compute_uv, name); });
  }, py::arg("a"), py::arg("full_matrices") = true, py::arg("compute_uv") = true, py::kw_only(),
        py::arg("name") = "svd",
        "(U, S, Vh) or (S,) of (..., m, n) (gesdd; gesvd if it fails): S real descending. "
        "LinAlgError for non-finite input or no convergence.");
  m.def("linalg_qr", [](const NdArray& a, const std::string& mode, const std::string& name) {
    return nogil_tuple([&] { return la::qr(a, mode, name); });
  }, py::arg("a"), py::arg("mode") = "reduced", py::kw_only(), py::arg("name") = "qr",
        "mode 'reduced' / 'complete': (Q, R); 'r': (R,) (geqrf + orgqr/ungqr).");
  m.def("linalg_lstsq", [](const NdArray& a, const NdArray& b, std::optional<double> rcond,
                           const std::string& name) {
    return nogil_tuple([&] { return la::lstsq(a, b, rcond, name); });
  }, py::arg("a"), py::arg("b"), py::arg("rcond") = py::none(), py::kw_only(),
        py::arg("name") = "lstsq",
        "(x, residuals, rank, s) for a (..., m, n), b (..., m, k) (gelsd), NumPy's semantics: "
        "rcond None -> eps * max(m, n), negative -> machine precision; residuals (..., k) "
        "when m > n and every matrix has full rank, else shape (0,); rank int64 (...); s real "
        "(..., min(m, n)). LinAlgError for non-finite input.");
  m.def("linalg_solve_triangular", [](const NdArray& a, const NdArray& b, bool upper, bool left,
                                      bool unitriangular, const std::string& name) {
    return nogil_array([&] { return la::solve_triangular(a, b, upper, left, unitriangular, name); });
  }, py::arg("a"), py::arg("b"), py::arg("upper"), py::arg("left") = true,
        py::arg("unitriangular") = false, py::kw_only(), py::arg("name") = "solve_triangular",
        "X with A X = B (left; B (..., n, k)) or X A = B (B (..., k, n)), A triangular (trsm); "
        "batch dims broadcast. Never raises (zero diagonal: inf/nan as torch).");
}

}  // namespace

AC_BINDINGS(linalg) {
  // OpenBLAS starts with one thread per core; align it with the engine's pool at import.
  sync_blas_threads();

  m.def("matmul", [](const NdArray& a, const NdArray& b) {
    return maybe_nogil(matmul_work(a, b), [&] { return matmul(a, b); });
  }, py::arg("a"), py::arg("b"),
        "The standard's matmul of two arrays of one numeric dtype (BLAS for floating dtypes).");
  m.def("vecdot_last", [](const NdArray& a, const NdArray& b) {
    return maybe_nogil(std::max(a.numel(), b.numel()), [&] { return vecdot_last(a, b); });
  }, py::arg("a"), py::arg("b"),
        "sum(conj(a) * b) over the last axis of two arrays of one numeric dtype; the other "
        "axes broadcast.");
  m.def("sync_blas_threads", &sync_blas_threads,
        "Sets OpenBLAS's thread count to the engine pool's (get_num_threads()).");
  m.def("blas_num_threads", [] { return blas::scipy_openblas_get_num_threads(); },
        "Threads OpenBLAS currently uses.");
  bind_linalg_extension(m);
}

}  // namespace arraycore::native::bindings
