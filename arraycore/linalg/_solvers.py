"""Inverses, determinants and linear systems: inv, det, slogdet, solve, lu_solve,
solve_triangular, lstsq, pinv.  Batch dims of two-operand functions broadcast here (stride-0
views); the native side (`_native.linalg_*`, LAPACK getrf/getrs/getri, trsm, gelsd) reads
any strides."""

from __future__ import annotations

from ..native import _native
from ._common import (REAL_OF, LstsqResult, SlogdetResult, broadcast_batch, cast, check_array,
                      check_bool, check_matrix, common_float_dtype, float_matrix, is_empty,
                      la, mH, rtol_value, singular_cutoff, xp, zeros)

__all__ = ["inv", "det", "slogdet", "solve", "lu_solve", "solve_triangular", "lstsq", "pinv"]


def inv(x, /):
    """Inverse of a (stack of) square matrix.  Raises LinAlgError (naming the batch index)
    when a matrix is exactly singular."""
    x = float_matrix(x, "inv", square=True)
    if is_empty(x.shape):
        return zeros(x.shape, x.dtype)
    return _native.linalg_inv(x, name="inv")


def det(x, /):
    """Determinant of a (stack of) square matrix, shape x.shape[:-2] (1 for 0x0 matrices)."""
    x = float_matrix(x, "det", square=True)
    if is_empty(x.shape):
        batch = tuple(x.shape[:-2])
        return xp.ones(batch, dtype=x.dtype) if x.shape[-1] == 0 else zeros(batch, x.dtype)
    return _native.linalg_det(x, name="det")


def slogdet(x, /):
    """Sign and natural log of the absolute value of the determinant, as
    SlogdetResult(sign, logabsdet): sign has x's dtype (a unit complex number for complex x,
    0 for a singular matrix), logabsdet the real dtype of x's precision (-inf when singular).
    """
    x = float_matrix(x, "slogdet", square=True)
    if is_empty(x.shape):
        batch = tuple(x.shape[:-2])
        if x.shape[-1] == 0:
            return SlogdetResult(xp.ones(batch, dtype=x.dtype), zeros(batch, REAL_OF[x.dtype]))
        return SlogdetResult(zeros(batch, x.dtype), zeros(batch, REAL_OF[x.dtype]))
    s, logabs = _native.linalg_slogdet(x, name="slogdet")
    return SlogdetResult(s, logabs)


def _system_operands(name, a, b, a_what, b_what):
    """(a, b, dtype) promoted to one floating dtype; a is checked to be square."""
    d = common_float_dtype(name, (a, a_what), (b, b_what))
    check_matrix(a, name, a_what, square=True)
    return cast(a, d), cast(b, d), d


def _rhs_matrix(name, a, b, b_what):
    """b as a stack of matrices (..., n, k) for a (..., n, n); a 1-D b is one column (the
    standard's rule for solve).  Returns (b_matrix, was_vector)."""
    n = a.shape[-1]
    if b.ndim == 1:
        if b.shape[0] != n:
            raise ValueError(f"{name}: {b_what} of shape {tuple(b.shape)} does not match the "
                             f"{n}x{n} matrices")
        return xp.reshape(b, (n, 1)), True
    if b.ndim < 1 or b.shape[-2] != n:
        raise ValueError(f"{name}: {b_what} of shape {tuple(b.shape)} does not match the "
                         f"{n}x{n} matrices (it needs shape (..., {n}, K) or ({n},))")
    return b, False


def solve(x1, x2, /):
    """Solution X of x1 X = x2 for a (stack of) square, nonsingular x1 (..., M, M).  x2 of
    shape (M,) is one right-hand side vector (result shape x1.shape[:-2] + (M,)); otherwise
    x2 is (..., M, K) and the batch dims of x1 and x2 broadcast.  Raises LinAlgError (naming
    the batch index) when a matrix is exactly singular.  LAPACK ?getrf + ?getrs."""
    a, b, d = _system_operands("solve", x1, x2, "x1", "x2")
    b, vector = _rhs_matrix("solve", a, b, "x2")
    a, b, batch = broadcast_batch("solve", a, b, 2, 2)
    if is_empty(a.shape) or is_empty(b.shape):
        out = zeros(batch + tuple(b.shape[-2:]), d)
    else:
        out = _native.linalg_solve(a, b, name="solve")
    return out[..., 0] if vector else out


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """Solution X of A X = B from A's factorization `lu_factor(A)` = (LU, pivots), as
    PyTorch's: `adjoint` solves A^H X = B, `left=False` solves X A = B (or X A^H = B).  B is
    (..., M, K); batch dims broadcast.  LAPACK ?getrs."""
    check_bool(left, "lu_solve", "left")
    check_bool(adjoint, "lu_solve", "adjoint")
    a, b, d = _system_operands("lu_solve", LU, B, "LU", "B")
    check_array(pivots, "lu_solve", "pivots")
    if pivots.dtype.kind not in "iu":
        raise TypeError(f"lu_solve: pivots must be an integer array, got {pivots.dtype}")
    n = a.shape[-1]
    if pivots.ndim < 1 or pivots.shape[-1] != n:
        raise ValueError(f"lu_solve: pivots of shape {tuple(pivots.shape)} do not match LU "
                         f"of shape {tuple(a.shape)}")
    check_matrix(b, "lu_solve", "B")
    if not left:  # X A = B  <=>  A^H X^H = B^H
        b = mH(b)
        adjoint = not adjoint
    if b.shape[-2] != n:
        raise ValueError(f"lu_solve: B of shape {tuple(B.shape)} does not match LU of shape "
                         f"{tuple(a.shape)}")
    piv = cast(pivots, xp.int32)
    a, b, batch = broadcast_batch("lu_solve", a, b, 2, 2)
    if tuple(piv.shape[:-1]) != batch:
        try:
            piv = xp.broadcast_to(piv, batch + (n,))
        except ValueError:
            raise ValueError(f"lu_solve: pivots of shape {tuple(pivots.shape)} do not "
                             f"broadcast with the batch shape {batch}") from None
    if is_empty(a.shape) or is_empty(b.shape):
        out = zeros(batch + tuple(b.shape[-2:]), d)
    else:
        out = _native.linalg_lu_solve(a, piv, b, adjoint, name="lu_solve")
    return out if left else mH(out)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False):
    """Solution X of A X = B (left) or X A = B (left=False) for a (stack of) triangular A,
    as PyTorch's: `upper` (required) says which triangle of A is read, `unitriangular`
    assumes ones on its diagonal.  Batch dims broadcast.  BLAS ?trsm; a zero on the diagonal
    gives inf/nan, as in PyTorch (no error)."""
    check_bool(upper, "solve_triangular", "upper")
    check_bool(left, "solve_triangular", "left")
    check_bool(unitriangular, "solve_triangular", "unitriangular")
    a, b, d = _system_operands("solve_triangular", A, B, "A", "B")
    check_matrix(b, "solve_triangular", "B")
    n = a.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        raise ValueError(f"solve_triangular: B of shape {tuple(b.shape)} does not match A of "
                         f"shape {tuple(a.shape)} (left={left})")
    a, b, batch = broadcast_batch("solve_triangular", a, b, 2, 2)
    if is_empty(a.shape) or is_empty(b.shape):
        return zeros(batch + tuple(b.shape[-2:]), d)
    return _native.linalg_solve_triangular(a, b, upper, left, unitriangular,
                                           name="solve_triangular")


def lstsq(a, b, rcond=None):
    """Least-squares solution of a x = b (NumPy's signature and results), as
    LstsqResult(x, residuals, rank, s): x minimizes ||b - a x||_2; residuals are the squared
    2-norms of the columns of b - a x, shape (..., K) (K = 1 for a 1-D b, NumPy's (1,)), when
    every matrix of a has full column rank and M > N, else shape (0,); rank (int64,
    shape (...)) and singular values s (..., min(M, N)) of a.  Singular values below
    rcond * s.max() count as zero; rcond=None means eps * max(M, N).  a is (..., M, N), b
    (M,) (one vector) or (..., M, K); batch dims broadcast (NumPy's lstsq is 2-D only; the
    batched form is PyTorch's).  LAPACK ?gelsd."""
    d = common_float_dtype("lstsq", (a, "a"), (b, "b"))
    check_matrix(a, "lstsq", "a")
    a, b = cast(a, d), cast(b, d)
    m, n = a.shape[-2:]
    vector = b.ndim == 1
    if vector:
        if b.shape[0] != m:
            raise ValueError(f"lstsq: b of shape {tuple(b.shape)} does not match a of shape "
                             f"{tuple(a.shape)}")
        b = xp.reshape(b, (m, 1))
    elif b.shape[-2] != m:
        raise ValueError(f"lstsq: b of shape {tuple(b.shape)} does not match a of shape "
                         f"{tuple(a.shape)}")
    if rcond is not None:
        if isinstance(rcond, bool) or not isinstance(rcond, (int, float)):
            raise TypeError(f"lstsq: rcond must be a float or None, got "
                            f"{type(rcond).__name__}")
        rcond = float(rcond)
    a, b, batch = broadcast_batch("lstsq", a, b, 2, 2)
    if is_empty(a.shape):
        x, res, rank, s = _lstsq_empty(a, b, batch, d)
    elif b.shape[-1] == 0:  # no right-hand sides: rank and s of a still count (NumPy)
        x, res, rank, s = _native.linalg_lstsq(a, zeros(batch + (m, 1), d), rcond, name="lstsq")
        x, res = x[..., :0], res[..., :0]
    else:
        x, res, rank, s = _native.linalg_lstsq(a, b, rcond, name="lstsq")
    if vector:
        x = x[..., 0]
    return LstsqResult(x, res, rank, s)


def _lstsq_empty(a, b, batch, d):
    m, n = a.shape[-2:]
    k = b.shape[-1]
    x = zeros(batch + (n, k), d)
    s = zeros(batch + (min(m, n),), REAL_OF[d])
    rank = zeros(batch, xp.int64)
    if m > n == 0:  # x = 0 is exact in rank 0 = N: the residuals are |b|^2
        res = xp.sum(xp.abs(b) ** 2, axis=-2)
    else:
        res = zeros((0,), REAL_OF[d])
    return x, res, rank, s


def pinv(x, /, *, rtol=None, hermitian=False):
    """Moore-Penrose pseudo-inverse of a (stack of) matrix (..., M, N) -> (..., N, M), from
    the SVD (from eigh when `hermitian`): singular values at most rtol * the largest are
    treated as zero; rtol (a float or an array broadcasting against the batch) defaults to
    max(M, N) * eps, as the standard says."""
    x = float_matrix(x, "pinv")
    check_bool(hermitian, "pinv", "hermitian")
    if hermitian:
        check_matrix(x, "pinv", square=True)
    r = rtol_value("pinv", rtol, x)
    m, n = x.shape[-2:]
    if is_empty(x.shape):
        return zeros(tuple(x.shape[:-2]) + (n, m), x.dtype)
    if hermitian:
        w, v = la.eigh(x)
        s = xp.abs(w)
        cutoff = singular_cutoff(r, xp.max(s, axis=-1, keepdims=True))
        winv = xp.where(s > cutoff, 1 / xp.where(s > cutoff, w, 1), 0)
        return xp.matmul(v * xp.astype(winv, x.dtype)[..., None, :], mH(v))
    u, s, vh = la.svd(x, full_matrices=False)
    cutoff = singular_cutoff(r, s[..., :1])
    sinv = xp.where(s > cutoff, 1 / xp.where(s > cutoff, s, 1), 0)
    return xp.matmul(mH(vh) * xp.astype(sinv, x.dtype)[..., None, :], mH(u))
