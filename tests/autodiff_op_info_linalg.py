"""Autodiff test metadata of the linalg extension's primitives (loaded by
tests/autodiff_op_info.py, which calls `build(add)`).

Inputs are drawn where the derivatives are well defined and well conditioned: matrices with
a prescribed, well separated spectrum (`spectrum`: Hermitian positive definite for
cholesky/eigh, distinct singular values for svd/qr/pinv/lstsq, distinct eigenvalues for
eig), so that finite differences, JAX and the rules agree to tight tolerances.  The
functions of a Hermitian matrix (cholesky, eigh, eigvalsh, pinv(hermitian=True)) are
differentiated as functions of the input's Hermitian part (JAX's convention); their
finite-difference checks go through `input_map`, which symmetrizes the input.  LAPACK's
eigh/svd vectors are defined up to a sign (phase) its algorithm picks: they are compared
with JAX's, and differentiated by finite differences, with a fixed phase (`output_map`).
"""

from __future__ import annotations

import numpy as np

from arraycore._core.op_table import OPS

# --- samplers ---------------------------------------------------------------------------------
# Each takes (rng, shape, np_dtype) and works for any leading (batch) shape.


def _randn(rng, shape, dt):
    v = rng.standard_normal(shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v


def _unitary(rng, batch, n, dt):
    q, r = np.linalg.qr(_randn(rng, tuple(batch) + (n, n), dt))
    # (the sign/phase of R's diagonal makes Q's distribution uniform; any unitary will do)
    return q


def _levels(rng, batch, k, lo=1.0, step=1.0, jitter=0.2):
    """k well separated values lo, lo + step, ... each moved by at most `jitter`."""
    base = lo + step * np.arange(k)
    return base + rng.uniform(-jitter, jitter, size=tuple(batch) + (k,))


def spectrum(kind):
    """Matrices (..., m, n) with a prescribed spectrum.
    "hpd": Q diag(w) Q^H, w ~ 1, 2, ..., n (Hermitian positive definite, distinct);
    "sv": U diag(s) V^H, s ~ 1, 2, ..., k (distinct singular values, full rank);
    "eig": X diag(l) X^-1 with X = I + 0.25 * random (distinct eigenvalues ~ 1..n, complex
    parts for complex dtypes)."""
    def s(rng, shape, dt):
        batch, (m, n) = shape[:-2], shape[-2:]
        if kind == "hpd":
            q = _unitary(rng, batch, n, dt)
            w = _levels(rng, batch, n)
            return (q * w[..., None, :]) @ np.conj(np.swapaxes(q, -1, -2))
        if kind == "sv":
            k = min(m, n)
            u = _unitary(rng, batch, m, dt)[..., :, :k]
            v = _unitary(rng, batch, n, dt)[..., :, :k]
            sv = _levels(rng, batch, k)[..., ::-1]
            return (u * sv[..., None, :]) @ np.conj(np.swapaxes(v, -1, -2))
        if kind == "eig":
            x = np.eye(n) + 0.25 * _randn(rng, tuple(batch) + (n, n), dt)
            lam = _levels(rng, batch, n).astype(dt)
            if dt.kind == "c":
                lam = lam + 0.3j * rng.uniform(-1, 1, size=lam.shape)
            return (x * lam[..., None, :]) @ np.linalg.inv(x)
        raise ValueError(kind)
    return s


def diagonally_dominant(scale=0.5, diag=2.0):
    """scale * uniform(-1, 1) + diag * I: the stored factors of lu_solve, triangular
    systems (diagonal entries far from 0)."""
    def s(rng, shape, dt):
        v = scale * rng.uniform(-1, 1, size=shape)
        if dt.kind == "c":
            v = v + 1j * scale * rng.uniform(-1, 1, size=shape)
        return v + diag * np.eye(shape[-2], shape[-1])
    return s


def uniform(lo=-1.0, hi=1.0):
    def s(rng, shape, dt):
        v = rng.uniform(lo, hi, size=shape)
        if dt.kind == "c":
            v = v + 1j * rng.uniform(lo, hi, size=shape)
        return v
    return s


def away_from_zero(lo=0.3, hi=2.0):
    """Magnitudes in [lo, hi] with distinct magnitudes a.s. (no ties for ord=inf)."""
    def s(rng, shape, dt):
        mag = rng.uniform(lo, hi, size=shape)
        if dt.kind == "c":
            return mag * np.exp(1j * rng.uniform(-np.pi, np.pi, size=shape))
        return mag * rng.choice([-1.0, 1.0], size=shape)
    return s


# --- JAX references ---------------------------------------------------------------------------

def _jax():
    import jax
    jax.config.update("jax_enable_x64", True)
    return jax


def _jnp():
    return _jax().numpy


def _jsl():
    _jax()
    import jax.scipy.linalg as jsl
    return jsl


def _mH(x):
    jnp = _jnp()
    return jnp.conj(jnp.swapaxes(x, -1, -2))


def _jla(name):
    def ref(*args, **kwargs):
        return getattr(_jnp().linalg, name)(*args, **kwargs)
    ref.__name__ = f"jnp.linalg.{name}"
    return ref


def _eig_ref(x):
    # JAX differentiates eigenvectors through LAPACK's normalization when asked to.
    w, v = _jax().lax.linalg.eig(x, compute_left_eigenvectors=False, enable_eigvec_derivs=True)
    return w, v


def _eigvals_ref(x):
    # (jnp.linalg.eigvals' second derivative goes through eigenvector derivatives)
    return _jax().lax.linalg.eig(x, compute_left_eigenvectors=False,
                                 compute_right_eigenvectors=False,
                                 enable_eigvec_derivs=True)[0]


def _qr_ref(x, mode="reduced"):
    # JAX has no QR derivative for M < N; there Q R = [X | Y] with Q R_x = X square and
    # R_y = Q^H Y, which is what LAPACK computes.
    jnp = _jnp()
    m, n = x.shape[-2:]
    if m >= n:
        return jnp.linalg.qr(x, mode=mode)
    q, rx = jnp.linalg.qr(x[..., :, :m])
    r = jnp.concatenate([rx, _mH(q) @ x[..., :, m:]], axis=-1)
    return r if mode == "r" else (q, r)


def _lstsq_ref(a, b, rcond=None):
    # NumPy's residuals (empty unless M > N and full rank: the samples are full rank) and a
    # 1-D b's residuals of shape (1,).
    jnp = _jnp()
    m, n = a.shape[-2:]
    x, res, rank, s = jnp.linalg.lstsq(a, b, rcond=rcond)
    if m <= n:
        res = jnp.zeros((0,), res.dtype)
    elif b.ndim == 1:
        res = jnp.reshape(res, (1,))
    return x, res, rank.astype(np.int64), s


def _lu_factor_ref(A, pivot=True):
    lu, piv = _jsl().lu_factor(A)
    return lu, (piv + 1).astype(np.int32)


def _lu_ref(A, pivot=True):
    # (batched, and P in A's dtype as PyTorch's): A[perm] = L U, so P[perm[c], c] = 1
    jax, jnp = _jax(), _jnp()
    m, n = A.shape[-2:]
    k = min(m, n)
    lu, _, perm = jax.lax.linalg.lu(A)
    p = (jnp.arange(m)[:, None] == perm[..., None, :]).astype(A.dtype)
    lo = jnp.tril(lu[..., :, :k], -1) + jnp.eye(m, k, dtype=A.dtype)
    return p, lo, jnp.triu(lu[..., :k, :])


def _lu_solve_ref(LU, pivots, B, left=True, adjoint=False):
    jsl = _jsl()

    def f(b, trans):
        return jsl.lu_solve((LU, pivots - 1), b, trans=trans)
    if left:
        return f(B, 2 if adjoint else 0)
    # X A = B <=> A^H X^H = B^H;  X A^H = B <=> A X^H = B^H
    return _mH(f(_mH(B), 0 if adjoint else 2))


def _solve_triangular_ref(A, B, upper, left=True, unitriangular=False):
    jsl = _jsl()
    if left:
        return jsl.solve_triangular(A, B, lower=not upper, unit_diagonal=unitriangular)
    return _mH(jsl.solve_triangular(A, _mH(B), trans=2, lower=not upper,
                                    unit_diagonal=unitriangular))


def _matrix_exp_ref(A):
    return _jsl().expm(A)


def hermitian_part(xp, x):
    """(x + x^H) / 2: the input map of the functions of a Hermitian matrix."""
    return (x + xp.conj(xp.matrix_transpose(x))) / 2


def _phase(xp, row):
    """row / |row|: the sign (phase) of each column's first component."""
    return row / xp.astype(xp.abs(row), row.dtype)


def eigh_fixed_phase(xp, out):
    """(w, V diag(conj(phase of V's first row))).  Eigenvectors are defined up to a sign
    (a phase) that LAPACK's algorithm picks: two implementations may differ, and finite
    differences of complex ones are not the rules' gauge.  These are unique."""
    w, v = out
    return w, v * xp.conj(_phase(xp, v[..., :1, :]))


def svd_fixed_phase(xp, out):
    """(U conj(D), S, D Vh) with D the phases of U's first row: unique (U D^* and D Vh keep
    the product)."""
    u, s, vh = out
    k = s.shape[-1]
    p = _phase(xp, u[..., :1, :k])
    return (u[..., :, :k] * xp.conj(p), s, xp.matrix_transpose(p) * vh[..., :k, :])


# --- samples ----------------------------------------------------------------------------------

def _S(*a, **kw):
    from autodiff_op_info import Sample
    return Sample(*a, **kw)


def _A(shape, sampler=None, layout="contiguous", dtype=None):
    from autodiff_op_info import Arg
    return Arg(shape, sampler, layout, dtype)


HPD, SV, EIG = spectrum("hpd"), spectrum("sv"), spectrum("eig")
DD = diagonally_dominant()


def _square(s, n=3):
    def gen(rng, dtype):
        return [_S((_A((n, n), s),), name="square"),
                _S((_A((2, n, n), s, "transposed"),), name="batched_transposed"),
                _S((_A((1, 1), s),), name="1x1")]
    return gen


def _cholesky_samples(rng, dtype):
    return [_S((_A((3, 3), HPD),), name="lower"),
            _S((_A((2, 3, 3), HPD, "transposed"),), {"upper": True}, name="upper_batched")]


def _eigh_samples(rng, dtype):
    return [_S((_A((3, 3), HPD),), name="3x3"),
            _S((_A((2, 4, 4), HPD, "transposed"),), name="batched"),
            _S((_A((3, 3), HPD),), {"UPLO": "U"}, name="upper")]


def _svd_samples(rng, dtype):
    return [_S((_A((4, 3), SV),), {"full_matrices": False}, name="tall"),
            _S((_A((3, 5), SV, "transposed"),), {"full_matrices": False}, name="wide"),
            _S((_A((2, 3, 3), SV),), name="square_full_batched")]


def _svdvals_samples(rng, dtype):
    return [_S((_A((4, 3), SV),), name="tall"),
            _S((_A((2, 3, 4), SV, "transposed"),), name="wide_batched")]


def _qr_samples(rng, dtype):
    return [_S((_A((4, 3), SV),), name="tall"),
            _S((_A((2, 3, 3), SV, "transposed"),), {"mode": "complete"}, name="square_complete"),
            _S((_A((3, 5), SV),), name="wide"),
            _S((_A((4, 3), SV),), {"mode": "r"}, name="r")]


def _solve_samples(rng, dtype):
    return [_S((_A((3, 3), SV), _A((3, 2))), name="matrix"),
            _S((_A((2, 3, 3), SV, "transposed"), _A((3,))), name="vector_rhs_batched"),
            _S((_A((3, 3), SV), _A((2, 3, 1), layout="strided")), name="broadcast_rhs")]


def _lstsq_samples(rng, dtype):
    return [_S((_A((5, 3), SV), _A((5, 2))), name="tall"),
            _S((_A((4, 3), SV, "transposed"), _A((4,))), name="vector"),
            _S((_A((3, 4), SV), _A((3, 2))), name="wide")]


def _lu_samples(rng, dtype):
    return [_S((_A((3, 3), SV),), name="square"),
            _S((_A((2, 4, 3), SV, "transposed"),), name="tall_batched"),
            _S((_A((3, 5), SV),), name="wide")]


def _lu_solve_samples(rng, dtype):
    piv = np.array([2, 3, 3], dtype=np.int32)
    return [_S((_A((3, 3), DD), piv, _A((3, 2))), name="left"),
            _S((_A((3, 3), DD, "transposed"), piv, _A((2, 3))), {"left": False},
               name="right"),
            _S((_A((3, 3), DD), piv, _A((2, 3, 2))), {"adjoint": True},
               name="adjoint_broadcast"),
            _S((_A((3, 3), DD), piv, _A((2, 3))), {"left": False, "adjoint": True},
               name="right_adjoint")]


def _solve_triangular_samples(rng, dtype):
    return [_S((_A((3, 3), DD), _A((3, 2))), {"upper": True}, name="upper"),
            _S((_A((3, 3), DD, "transposed"), _A((2, 3))), {"upper": False, "left": False},
               name="lower_right"),
            _S((_A((2, 3, 3), DD), _A((3, 2))), {"upper": False, "unitriangular": True},
               name="unit_batched")]


def _matrix_exp_samples(rng, dtype):
    return [_S((_A((3, 3), uniform()),), name="3x3"),
            _S((_A((2, 2, 2), uniform(), "transposed"),), name="batched"),
            _S((_A((1, 1), uniform()),), name="1x1")]


def _pinv_samples(rng, dtype):
    return [_S((_A((4, 3), SV),), name="tall"),
            _S((_A((2, 3, 4), SV, "transposed"),), name="wide_batched")]


def _vector_norm_samples(rng, dtype):
    s = away_from_zero()
    inf = float("inf")
    return [_S((_A((3, 4), s),), name="2"),
            _S((_A((3, 4), s, "transposed"),), {"axis": 0, "keepdims": True}, name="axis0"),
            _S((_A((2, 3, 4), s),), {"axis": (0, 2), "ord": 3}, name="axes_ord3"),
            _S((_A((5,), s, "strided"),), {"ord": 1}, name="ord1"),
            _S((_A((3, 4), s),), {"axis": -1, "ord": inf}, name="inf"),
            _S((_A((3, 4), s),), {"axis": 1, "ord": -inf}, name="minus_inf"),
            _S((_A((3, 4), s),), {"ord": 0.5}, name="ord0.5"),
            _S((_A((), s),), name="0d")]


def _diagonal_samples(rng, dtype):
    return [_S((_A((3, 4)),), name="main"),
            _S((_A((2, 4, 3), layout="transposed"),), {"offset": 1}, name="offset1"),
            _S((_A((4, 3)),), {"offset": -2}, name="offset_minus2")]


def _trace_samples(rng, dtype):
    return [_S((_A((3, 3)),), name="square"),
            _S((_A((2, 3, 4), layout="strided"),), {"offset": 1}, name="offset1"),
            _S((_A((4, 3)),), {"offset": -1}, name="offset_minus1")]


# --- the entries --------------------------------------------------------------------------------

def build(add):
    from autodiff_op_info import OpInfo, diff_dtypes

    jnp_trace = _jla("trace")
    entries = [
        OpInfo("cholesky", _cholesky_samples, _jla("cholesky"), rtol=1e-9),
        OpInfo("det", _square(SV), _jla("det"), rtol=1e-9),
        OpInfo("slogdet", _square(SV), _jla("slogdet"), rtol=1e-9),
        OpInfo("eig", _square(EIG), _eig_ref, rtol=1e-8),
        OpInfo("eigvals", _square(EIG), _eigvals_ref, rtol=1e-8),
        OpInfo("eigh", _eigh_samples, _jla("eigh"), rtol=1e-9),
        OpInfo("eigvalsh", _eigh_samples, _jla("eigvalsh"), rtol=1e-9),
        OpInfo("inv", _square(SV), _jla("inv"), rtol=1e-9),
        OpInfo("solve", _solve_samples, _jla("solve"), rtol=1e-9),
        OpInfo("svd", _svd_samples, _jla("svd"), rtol=1e-8),
        OpInfo("svdvals", _svdvals_samples, _jla("svdvals"), rtol=1e-9),
        OpInfo("qr", _qr_samples, _qr_ref, rtol=1e-9),
        OpInfo("lstsq", _lstsq_samples, _lstsq_ref, rtol=1e-8),
        OpInfo("lu_factor", _lu_samples, _lu_factor_ref, rtol=1e-9),
        OpInfo("lu", _lu_samples, _lu_ref, rtol=1e-9),
        OpInfo("lu_solve", _lu_solve_samples, _lu_solve_ref, rtol=1e-9),
        OpInfo("solve_triangular", _solve_triangular_samples, _solve_triangular_ref,
               rtol=1e-9),
        OpInfo("matrix_exp", _matrix_exp_samples, _matrix_exp_ref, rtol=1e-9),
        OpInfo("pinv", _pinv_samples, _jla("pinv"), rtol=1e-8),
        OpInfo("vector_norm", _vector_norm_samples, _jla("vector_norm"), rtol=1e-9),
        OpInfo("diagonal", _diagonal_samples, _jla("diagonal")),
        OpInfo("trace", _trace_samples, jnp_trace),
    ]
    hermitian = {"cholesky", "eigh", "eigvalsh"}
    for info in entries:
        if info.name not in OPS:  # the forward function has not landed yet
            continue
        info.dtypes = diff_dtypes(OPS[info.name])

        if info.name in hermitian:
            info.input_map = hermitian_part
        if info.name == "eigh":
            info.output_map = eigh_fixed_phase
        if info.name == "svd":
            info.output_map = svd_fixed_phase
        add(info)


__all__ = ["build", "spectrum", "diagonally_dominant", "uniform", "away_from_zero",
           "hermitian_part"]
