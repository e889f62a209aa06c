// L0: the linalg extension's native functions (LAPACK from the scipy-openblas32 wheel).
//
// Inputs: float32/float64/complex64/complex128 stacks (..., rows, cols) of any strides (the
// Python layer promotes integers and mixed dtypes first).  Two- and three-operand functions
// broadcast their batch dimensions here.  Outputs are fresh row-major arrays of the input
// dtype unless stated.  `name` is the public function's name for messages.  Failures of a
// matrix raise LinAlgError (linalg_batch.h) "<name>: <what> (batch index i)".
// Files: linalg_factor.cpp (cholesky, LU family, solve, inv, det, slogdet, triangular
// solve), linalg_spectral.cpp (eigh, eig, svd), linalg_qr_lstsq.cpp (qr, lstsq),
// linalg_small.h/.cpp (n <= 4 kernels), linalg_batch.h/.cpp (the batched driver).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "../ndarray.h"
#include "linalg_batch.h"

namespace arraycore::native::linalg {

// Cholesky factor L (A = L L^H) or, with upper, U (A = U^H U).  Reads the triangle of A
// that holds the result (lower for L, upper for U); zeros in the other triangle.
NdArray cholesky(const NdArray& a, bool upper, const std::string& name);

// LU with partial pivoting of (..., m, n): (LU packed, 1-based int32 pivots (..., min(m,n))).
std::vector<NdArray> lu_factor(const NdArray& a, const std::string& name);
// X with A X = B (A^H X = B when adjoint) from lu_factor's output; b is (..., n, k).
NdArray lu_solve(const NdArray& lu, const NdArray& piv, const NdArray& b, bool adjoint,
                 const std::string& name);

// X with A X = B; a (..., n, n), b (..., n, k).  Raises when A is exactly singular.
NdArray solve(const NdArray& a, const NdArray& b, const std::string& name);
NdArray inv(const NdArray& a, const std::string& name);
NdArray det(const NdArray& a, const std::string& name);
// (sign (input dtype), log|det| (real dtype)); singular: (0, -inf).
std::vector<NdArray> slogdet(const NdArray& a, const std::string& name);

// X with op(A) X = B (left) or X op(A) = B (right), A triangular.  Never raises.
NdArray solve_triangular(const NdArray& a, const NdArray& b, bool upper, bool left,
                         bool unitriangular, const std::string& name);

// (w real ascending, V) or {w}: syevd/heevd on the lower (or upper) triangle.
std::vector<NdArray> eigh(const NdArray& a, bool upper, bool compute_v, const std::string& name);
// (w complex, V complex, unit-norm columns) or {w}: geev.
std::vector<NdArray> eig(const NdArray& a, bool compute_v, const std::string& name);
// (U, S real descending, Vh) or {S}: gesdd, gesvd if gesdd does not converge.
std::vector<NdArray> svd(const NdArray& a, bool full_matrices, bool compute_uv,
                         const std::string& name);

// mode "reduced" / "complete": (Q, R); "r": {R}.
std::vector<NdArray> qr(const NdArray& a, const std::string& mode, const std::string& name);
// (x, residuals, rank int64, s) with NumPy's semantics; b is (..., m, k).  rcond < 0 or
// absent: machine epsilon * max(m, n).
std::vector<NdArray> lstsq(const NdArray& a, const NdArray& b, std::optional<double> rcond,
                           const std::string& name);

}  // namespace arraycore::native::linalg
