"""Functions of a matrix: matrix_power (repeated squaring) and matrix_exp (scaling and
squaring with Pade approximants, Higham 2005), both over the public matmul/solve/inv so they
run batched in the engine."""

from __future__ import annotations

import math

from ._common import (REAL_OF, check_array, check_int, check_matrix, float_matrix, is_empty,
                      la, xp, zeros)

__all__ = ["matrix_power", "matrix_exp"]


def matrix_power(x, n, /):
    """x raised to the integer power n for a (stack of) square matrix: repeated squaring
    (O(log |n|) products); n = 0 gives identity matrices of x's dtype, n < 0 powers of
    inv(x) (LinAlgError when x is singular).  Integer x keeps its dtype for n >= 0."""
    check_array(x, "matrix_power")
    if x.dtype.kind == "b":
        raise TypeError("matrix_power: expected a numeric array, got dtype bool")
    check_matrix(x, "matrix_power", square=True)
    n = check_int(n, "matrix_power", "n")
    if n == 0:
        return xp.asarray(xp.broadcast_to(xp.eye(x.shape[-1], dtype=x.dtype), tuple(x.shape)),
                          copy=True)
    if n < 0:
        x = la.inv(x)
        n = -n
    result = None
    base = x
    while True:
        if n & 1:
            result = base if result is None else xp.matmul(result, base)
        n >>= 1
        if not n:
            break
        base = xp.matmul(base, base)
    return result


# Higham, "The scaling and squaring method for the matrix exponential revisited" (SIAM J.
# Matrix Anal. Appl. 26(4), 2005): coefficients b_0..b_m of the [m/m] Pade approximant of
# exp and, per precision, the largest 1-norm theta_m for which it is accurate to unit
# roundoff (Table 2.3; single precision stops at m = 7).
_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
        3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
         40840800., 960960., 16380., 182., 1.),
}
_THETA_DOUBLE = ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1),
                 (7, 9.504178996162932e-1), (9, 2.097847961257068e0),
                 (13, 5.371920351148152e0))
_THETA_SINGLE = ((3, 4.258730016922831e-1), (5, 1.880152677804762e0),
                 (7, 3.925724783138660e0))


def _pade(A, m, eye):
    """(U, V): odd and even parts of the degree-m Pade numerator, p(A) = V + U,
    q(A) = V - U."""
    b = _PADE[m]
    A2 = xp.matmul(A, A)
    if m == 13:
        A4 = xp.matmul(A2, A2)
        A6 = xp.matmul(A4, A2)
        u_in = xp.matmul(A6, b[13] * A6 + b[11] * A4 + b[9] * A2) \
            + b[7] * A6 + b[5] * A4 + b[3] * A2 + b[1] * eye
        U = xp.matmul(A, u_in)
        V = xp.matmul(A6, b[12] * A6 + b[10] * A4 + b[8] * A2) \
            + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * eye
        return U, V
    powers = [eye, A2]
    for _ in range(2, (m + 1) // 2):
        powers.append(xp.matmul(powers[-1], A2))
    u_in = sum((b[2 * k + 1] * powers[k] for k in range(1, len(powers))), b[1] * eye)
    V = sum((b[2 * k] * powers[k] for k in range(1, len(powers))), b[0] * eye)
    return xp.matmul(A, u_in), V


def _norm1(X):
    """1-norm (largest column sum of |X|) of every matrix of the stack."""
    return xp.max(xp.sum(xp.abs(X), axis=-2), axis=-1)


def _squarings(A, norms, theta):
    """Squarings s per matrix for the degree-13 approximant: Al-Mohy & Higham (2009, SIAM J.
    Matrix Anal. Appl. 31(3), Algorithm 5.1) bound the error by eta = min(max(d6, d8),
    max(d8, d10)) with d_k = ||A^k||_1^(1/k) instead of ||A||_1 (2005), which avoids
    overscaling (and the rounding errors of needless squarings) for non-normal matrices.
    s = max(0, ceil(log2(eta / theta_13)))."""
    A2 = xp.matmul(A, A)
    A4 = xp.matmul(A2, A2)
    A6 = xp.matmul(A4, A2)
    A8 = xp.matmul(A4, A4)
    A10 = xp.matmul(A4, A6)
    d6, d8, d10 = (_norm1(P) ** (1.0 / k) for P, k in ((A6, 6), (A8, 8), (A10, 10)))
    eta = xp.minimum(xp.maximum(d6, d8), xp.maximum(d8, d10))
    # eta <= ||A||_1 in exact arithmetic; overflowing powers (inf/nan) fall back to the norm.
    eta = xp.where(xp.isfinite(eta), xp.minimum(eta, norms), norms)
    s = xp.ceil(xp.log2(xp.maximum(eta, theta) / theta))
    return xp.astype(xp.clip(s, 0, None), xp.int64)


def matrix_exp(A):
    """Matrix exponential of a (stack of) square matrix (PyTorch's `linalg.matrix_exp`):
    scaling and squaring with Pade approximants of degree 3, 5, 7, 9 or 13 chosen by the
    1-norm (Higham 2005; degrees up to 7 in single precision), each matrix of the batch
    scaled by its own power of two, the squarings of degree 13 chosen from norms of powers
    (Al-Mohy & Higham 2009).  Evaluated with batched matmul and one solve.  A matrix with a
    NaN or inf entry gives an all-NaN result (the others of the batch are unaffected)."""
    A = float_matrix(A, "matrix_exp", what="A", square=True)
    n = A.shape[-1]
    batch = tuple(A.shape[:-2])
    if is_empty(A.shape):
        return zeros(A.shape, A.dtype)
    real = REAL_OF[A.dtype]
    single = real == xp.float32
    thetas = _THETA_SINGLE if single else _THETA_DOUBLE
    norms = _norm1(A)
    finite = xp.isfinite(norms)
    all_finite = bool(xp.all(finite))
    if not all_finite:
        # Non-finite matrices are computed as zeros and replaced by NaN at the end, so that
        # neither their norms nor a loop of squarings depend on an infinite value.
        A = xp.where(finite[..., None, None], A, 0)
        norms = xp.where(finite, norms, 0)
    X = _expm_finite(A, norms, thetas, real, batch, n)
    if not all_finite:
        X = xp.where(finite[..., None, None], X, math.nan)
    return X


def _expm_finite(A, norms, thetas, real, batch, n):
    top = float(xp.max(norms))
    eye = xp.eye(n, dtype=A.dtype)
    for m, theta in thetas[:-1]:
        if top <= theta:
            U, V = _pade(A, m, eye)
            return la.solve(V - U, U + V)
    m, theta = thetas[-1]
    if m == 13:
        s = _squarings(A, norms, theta)
    else:  # single precision: degree 7 and the 2005 rule, s = ceil(log2(||A||_1 / theta_7))
        s = xp.astype(xp.clip(xp.ceil(xp.log2(xp.maximum(norms, theta) / theta)), 0, None),
                      xp.int64)
    scale = xp.astype(2.0 ** -xp.astype(s, real), A.dtype)
    U, V = _pade(A * scale[..., None, None], m, eye)
    X = la.solve(V - U, U + V)
    steps = int(xp.max(s))
    tri = _upper_triangular(A)
    if tri is not None:
        X = _fix_triangular(X, A, s, tri, real)
    for k in range(steps):
        XX = xp.matmul(X, X)
        X = XX if not batch else xp.where((s > k)[..., None, None], XX, X)
        if tri is not None:
            X = _fix_triangular(X, A, xp.clip(s - (k + 1), 0, None), tri, real)
    return X


def _upper_triangular(A):
    """Per matrix, whether it is upper triangular (None when none of the stack is)."""
    tri = xp.all(xp.tril(A, k=-1) == 0, axis=(-2, -1))
    return tri if bool(xp.any(tri)) else None


def _fix_triangular(X, A, e, tri, real):
    """For the upper triangular matrices (tri) of the stack, X ~ exp(2^-e A): replace the
    diagonal by exp(2^-e a_jj), the first superdiagonal by its exact value
    2^-e a_j,j+1 exp((l_j + l_j+1)/2) sinhc((l_j+1 - l_j)/2), l = 2^-e diag(A), and the
    lower triangle by zeros, at every squaring (Al-Mohy & Higham 2009, section 2, Code
    Fragment 2.1; what SciPy's expm does): the squarings then cannot spoil the entries that
    depend on the diagonal alone, which non-normal triangular matrices otherwise lose to
    cancellation (e^-2 came out as 0.1353355 for a 6x6 matrix with 1e3 above the diagonal)."""
    n = A.shape[-1]
    scale = xp.astype(2.0 ** -xp.astype(e, real), A.dtype)[..., None]
    lam = xp.linalg.diagonal(A) * scale
    eye = xp.eye(n, dtype=A.dtype)
    fixed = xp.triu(X, k=1) * (1 - eye) + xp.exp(lam)[..., None] * eye
    if n > 1:
        a, b = lam[..., :-1], lam[..., 1:]
        z = (b - a) / 2
        safe = xp.where(z == 0, xp.ones_like(z), z)
        sinhc = xp.where(z == 0, xp.ones_like(z), xp.sinh(safe) / safe)
        sup = xp.linalg.diagonal(A, offset=1) * scale * xp.exp((a + b) / 2) * sinhc
        sup = xp.concat([sup, xp.zeros_like(sup[..., :1])], axis=-1)
        upper1 = xp.eye(n, k=1, dtype=A.dtype)
        fixed = fixed * (1 - upper1) + sup[..., None] * upper1
    return xp.where(tri[..., None, None], fixed, X)
