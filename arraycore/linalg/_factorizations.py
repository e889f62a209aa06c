"""Matrix factorizations: cholesky, eigh/eigvalsh, eig/eigvals, svd/svdvals, qr, lu_factor,
lu.  Validation, promotion and empty shapes here; the factorizations run natively
(`_native.linalg_*`: LAPACK potrf, syevd/heevd, geev, gesdd, geqrf+orgqr/ungqr, getrf over
each matrix of the batch; see docs/linalg.md)."""

from __future__ import annotations

from ..native import _native
from ._common import (COMPLEX_OF, REAL_OF, EighResult, EigResult, LUFactorResult, LUResult,
                      QRResult, SVDResult, check_bool, float_matrix, identity_stack, is_empty,
                      xp, zeros)

__all__ = ["cholesky", "eigh", "eigvalsh", "eig", "eigvals", "svd", "svdvals", "qr",
           "lu_factor", "lu"]


def cholesky(x, /, *, upper=False):
    """Cholesky factor of a (stack of) Hermitian positive-definite matrix: L with
    x = L L^H (lower triangular), or U with x = U^H U when `upper` is True.  Only the lower
    (or upper) triangle of x is read.  Raises LinAlgError (naming the batch index) when a
    matrix is not positive definite."""
    x = float_matrix(x, "cholesky", square=True)
    check_bool(upper, "cholesky", "upper")
    if is_empty(x.shape):
        return zeros(x.shape, x.dtype)
    return _native.linalg_cholesky(x, upper, name="cholesky")


def _uplo(UPLO, name):
    if UPLO not in ("L", "U"):
        raise ValueError(f"{name}: UPLO must be 'L' or 'U', got {UPLO!r}")
    return UPLO == "U"


def eigh(x, /, *, UPLO="L"):
    """Eigenvalues (real, ascending) and eigenvectors (columns, orthonormal) of a (stack of)
    real symmetric or complex Hermitian matrix, as EighResult(eigenvalues, eigenvectors).
    Only the triangle named by UPLO ('L' default, as NumPy and PyTorch) is read.  LAPACK
    ?syevd/?heevd (divide and conquer)."""
    x = float_matrix(x, "eigh", square=True)
    upper = _uplo(UPLO, "eigh")
    if is_empty(x.shape):
        return EighResult(zeros(x.shape[:-1], REAL_OF[x.dtype]), zeros(x.shape, x.dtype))
    w, v = _native.linalg_eigh(x, upper, True, name="eigh")
    return EighResult(w, v)


def eigvalsh(x, /, *, UPLO="L"):
    """Eigenvalues (real, ascending) of a (stack of) real symmetric or complex Hermitian
    matrix; only the triangle named by UPLO is read."""
    x = float_matrix(x, "eigvalsh", square=True)
    upper = _uplo(UPLO, "eigvalsh")
    if is_empty(x.shape):
        return zeros(x.shape[:-1], REAL_OF[x.dtype])
    return _native.linalg_eigh(x, upper, False, name="eigvalsh")[0]


def eig(x, /):
    """Eigenvalues and right eigenvectors of a (stack of) general square matrix, as
    EigResult(eigenvalues, eigenvectors).  Both are complex (complex64 for float32/complex64
    input, complex128 otherwise), as the standard requires; eigenvector columns have unit
    2-norm.  The order of the eigenvalues is LAPACK ?geev's."""
    x = float_matrix(x, "eig", square=True)
    c = COMPLEX_OF[x.dtype]
    if is_empty(x.shape):
        return EigResult(zeros(x.shape[:-1], c), zeros(x.shape, c))
    w, v = _native.linalg_eig(x, True, name="eig")
    return EigResult(w, v)


def eigvals(x, /):
    """Eigenvalues (complex) of a (stack of) general square matrix."""
    x = float_matrix(x, "eigvals", square=True)
    if is_empty(x.shape):
        return zeros(x.shape[:-1], COMPLEX_OF[x.dtype])
    return _native.linalg_eig(x, False, name="eigvals")[0]


def svd(x, /, *, full_matrices=True):
    """Singular value decomposition x = U diag(S) Vh of a (stack of) matrix (..., M, N), as
    SVDResult(U, S, Vh): S real and descending, U (..., M, M) and Vh (..., N, N) when
    `full_matrices`, else (..., M, K) and (..., K, N) with K = min(M, N).  LAPACK ?gesdd."""
    x = float_matrix(x, "svd")
    check_bool(full_matrices, "svd", "full_matrices")
    m, n = x.shape[-2:]
    k = min(m, n)
    if is_empty(x.shape):
        batch = tuple(x.shape[:-2])
        s = zeros(batch + (k,), REAL_OF[x.dtype])
        if full_matrices:
            return SVDResult(identity_stack(batch, m, x.dtype), s,
                             identity_stack(batch, n, x.dtype))
        return SVDResult(zeros(batch + (m, k), x.dtype), s, zeros(batch + (k, n), x.dtype))
    u, s, vh = _native.linalg_svd(x, full_matrices, True, name="svd")
    return SVDResult(u, s, vh)


def svdvals(x, /):
    """Singular values (real, descending) of a (stack of) matrix, shape (..., min(M, N))."""
    x = float_matrix(x, "svdvals")
    if is_empty(x.shape):
        return zeros(tuple(x.shape[:-2]) + (min(x.shape[-2:]),), REAL_OF[x.dtype])
    return _native.linalg_svd(x, False, False, name="svdvals")[0]


_QR_MODES = ("reduced", "complete", "r")


def qr(x, /, *, mode="reduced"):
    """QR decomposition x = Q R of a (stack of) matrix (..., M, N), as QRResult(Q, R).
    mode "reduced": Q (..., M, K), R (..., K, N) with K = min(M, N); "complete": Q
    (..., M, M), R (..., M, N); "r" (NumPy's): R alone.  LAPACK ?geqrf + ?orgqr/?ungqr."""
    if mode not in _QR_MODES:
        raise ValueError(f"qr: mode must be one of {_QR_MODES}, got {mode!r}")
    x = float_matrix(x, "qr")
    m, n = x.shape[-2:]
    k = min(m, n)
    if is_empty(x.shape):
        batch = tuple(x.shape[:-2])
        if mode == "complete":
            return QRResult(identity_stack(batch, m, x.dtype), zeros(batch + (m, n), x.dtype))
        r = zeros(batch + (k, n), x.dtype)
        return r if mode == "r" else QRResult(zeros(batch + (m, k), x.dtype), r)
    if mode == "r":
        return _native.linalg_qr(x, "r", name="qr")[0]
    q, r = _native.linalg_qr(x, mode, name="qr")
    return QRResult(q, r)


def lu_factor(A, *, pivot=True):
    """LU factorization with partial pivoting of a (stack of) matrix (..., M, N), compact
    as PyTorch's: LUFactorResult(LU, pivots), L (unit diagonal, not stored) below the
    diagonal of LU and U on and above it, pivots (..., min(M, N)) int32, 1-based (row i was
    interchanged with row pivots[i] - 1).  LAPACK ?getrf.  `pivot=False` factors without
    row interchanges (pivots are then 1..K); it divides by zero on a zero leading minor."""
    A = float_matrix(A, "lu_factor")
    check_bool(pivot, "lu_factor", "pivot")
    m, n = A.shape[-2:]
    k = min(m, n)
    batch = tuple(A.shape[:-2])
    if is_empty(A.shape):
        return LUFactorResult(zeros(A.shape, A.dtype), zeros(batch + (k,), xp.int32))
    if not pivot:
        piv = xp.broadcast_to(xp.arange(1, k + 1, dtype=xp.int32), batch + (k,))
        return LUFactorResult(_lu_nopivot(A), xp.asarray(piv, copy=True))
    lu_, piv = _native.linalg_lu_factor(A, name="lu_factor")
    return LUFactorResult(lu_, piv)


def _lu_nopivot(A):
    """Doolittle elimination without interchanges, one column per step over the batch."""
    a = xp.asarray(A, copy=True)
    m, n = A.shape[-2:]
    for j in range(min(m, n)):
        if j + 1 >= m:
            break
        col = a[..., j + 1:, j] / a[..., j:j + 1, j]
        a[..., j + 1:, j] = col
        trailing = a[..., j + 1:, j + 1:] - col[..., :, None] * a[..., None, j, j + 1:]
        a[..., j + 1:, j + 1:] = trailing
    return a


def _permutation_from_pivots(pivots, m):
    """perm (..., m) int64 with (P^T A)[i] = A[perm[i]] for LAPACK's 1-based pivots."""
    batch = tuple(pivots.shape[:-1])
    rows = xp.arange(m, dtype=xp.int64)
    perm = xp.asarray(xp.broadcast_to(rows, batch + (m,)), copy=True)
    piv = xp.astype(pivots, xp.int64) - 1
    for i in range(pivots.shape[-1]):
        j = piv[..., i:i + 1]
        pi = perm[..., i:i + 1]
        pj = xp.take_along_axis(perm, j, axis=-1)
        perm = xp.where(rows == i, pj, xp.where(rows == j, pi, perm))
    return perm


def lu(A, *, pivot=True):
    """LU decomposition with partial pivoting A = P L U of a (stack of) matrix (..., M, N),
    as PyTorch's LUResult(P, L, U): P (..., M, M) a permutation matrix, L (..., M, K) unit
    lower triangular, U (..., K, N) upper triangular, K = min(M, N).  pivot=False: P = I."""
    A = float_matrix(A, "lu")
    check_bool(pivot, "lu", "pivot")
    m, n = A.shape[-2:]
    k = min(m, n)
    batch = tuple(A.shape[:-2])
    lu_, piv = lu_factor(A, pivot=pivot)
    L = xp.tril(lu_[..., :, :k], k=-1) + xp.eye(m, k, dtype=A.dtype)
    U = xp.triu(lu_[..., :k, :])
    if not pivot or is_empty(batch):
        P = identity_stack(batch, m, A.dtype)
    else:
        perm = _permutation_from_pivots(piv, m)
        # A = P L U with P[perm[c], c] = 1.
        P = xp.astype(xp.arange(m, dtype=xp.int64)[:, None] == perm[..., None, :], A.dtype)
    return LUResult(P, L, U)
