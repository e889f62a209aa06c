"""L3: derivative and batching rules of the `linalg` extension's primitives (cholesky, det,
slogdet, eig, eigvals, eigh, eigvalsh, inv, solve, svd, svdvals, qr, lstsq, lu_factor, lu,
lu_solve, solve_triangular, matrix_exp, pinv, vector_norm, diagonal, trace).

Every rule is written with namespace functions (matmul, linalg.solve, linalg.solve_triangular,
the decompositions themselves), so double backward, jacfwd(jacrev) and vmap of a gradient
need nothing else.  Complex numbers follow PyTorch's conjugate-Wirtinger convention (see
docs/autodiff.md): each vjp is the adjoint of its jvp for the real inner product
<X, Y> = Re tr(X^H Y), so forward and reverse mode always agree.

Conventions where the derivative is not unique (documented in docs/autodiff.md):
- Hermitian inputs (cholesky, eigh, eigvalsh, pinv(hermitian=True)) are functions of the
  Hermitian part of the input, as JAX's: the tangent is symmetrized, (dA + dA^H) / 2, and
  the cotangent is Hermitian.
- Gauge (the phase of eigen/singular vectors): the jvp follows a fixed smooth gauge, and the
  vjp is its exact adjoint.  eig differentiates LAPACK's normalization (unit 2-norm, largest
  component real, as JAX's eig with enable_eigvec_derivs); eigh and svd put the tangent of
  each vector orthogonal to it (JAX's choice; for complex svd the phase tangent goes to U).
  For a loss invariant to the phases (PyTorch's condition) the gradient is the same as
  PyTorch's and JAX's.
- svd(full_matrices=True) and qr(mode="complete") with m != n: the extra columns are not
  unique; their tangent is the one that keeps the matrix unitary with no rotation among the
  extra columns (dU_perp = -U_k dU_k^H U_perp).  A loss that does not read them gets
  PyTorch's gradient (which ignores their cotangent).
- det at singular matrices: the gradient is the adjugate, computed through the SVD for the
  singular ones (finite for rank n-1, 0 below), as PyTorch; the others use det * inv.
- eigh / eig / svd with repeated eigen/singular values: 1/(lambda_j - lambda_i) is inf, as
  in PyTorch and JAX (only a loss invariant to the rotations inside the eigenspace is
  differentiable there).
- vector_norm: ord=2 has gradient 0 at the zero vector (PyTorch), ord=+-inf splits the
  gradient evenly among ties (as max/min do), ord=0 has zero gradient.

Batching: a batch axis moved to the front is one more batch dimension of these stacked
matrix functions, so a vmap is one call; arguments whose trailing axes are vectors (solve's
1-D right-hand side, pivots, vector_norm's axes) are aligned accordingly.
"""

from __future__ import annotations

import math
import operator

from ..._core.op_table import OPS
from ...native import _native
from .. import batching as _b
from .base import define

xp = None  # the arraycore namespace (set by install)

_Array = _native.Array


# --- small helpers ----------------------------------------------------------------------------

def _cplx(x):
    return x.dtype.kind == "c"


def _conj(x):
    return xp.conj(x) if _cplx(x) else x


def _mT(x):
    return xp.matrix_transpose(x)


def _H(x):
    return _conj(xp.matrix_transpose(x))


def _real(x):
    return xp.real(x) if _cplx(x) else x


def _imag(x):
    return xp.imag(x)


def _mm(a, b):
    return xp.matmul(a, b)


def _la():
    return xp.linalg


def _sym(x):
    return (x + _H(x)) * 0.5


def _eye_like(x, n=None, m=None, k=0, dtype=None):
    n = x.shape[-1] if n is None else n
    return xp.eye(n, m, k=k, dtype=dtype or x.dtype)


def _band_mask(x, k, lower):
    """The (plain, constant) bool mask of tril(x, k) (lower) or triu(x, k) for x's last two
    axes: tril/triu are not ops of the table, so on tracers they are a `where` with it."""
    ones = xp.ones(tuple(x.shape[-2:]), dtype=xp.bool)
    return xp.tril(ones, k=k) if lower else xp.triu(ones, k=k)


def _tril(x, k=0):
    return xp.where(_band_mask(x, k, True), x, xp.zeros((), dtype=x.dtype))


def _triu(x, k=0):
    return xp.where(_band_mask(x, k, False), x, xp.zeros((), dtype=x.dtype))


def _diag(x):
    return xp.linalg.diagonal(x)


def _diag_embed(v, dtype=None):
    """A stack of diagonal matrices with v (..., n) on their diagonals."""
    n = v.shape[-1]
    if dtype is not None and v.dtype != dtype:
        v = xp.astype(v, dtype)
    return xp.expand_dims(v, axis=-1) * xp.eye(n, dtype=v.dtype)


def _tri_solve(a, b, upper, left=True, unit=False):
    return xp.linalg.solve_triangular(a, b, upper=upper, left=left, unitriangular=unit)


def _as(x, dtype):
    return x if x.dtype == dtype else xp.astype(x, dtype)


def _cast_to_complex(t, like):
    """t in like's (complex) dtype."""
    return _as(t, like.dtype)


def _inv_gaps(w):
    """F[..., i, j] = 1 / (w_j - w_i) off the diagonal, 0 on it (inf for ties, as in PyTorch
    and JAX)."""
    n = w.shape[-1]
    eye = xp.eye(n, dtype=w.dtype)
    d = xp.expand_dims(w, axis=-2) - xp.expand_dims(w, axis=-1)
    return 1.0 / (d + eye) - eye


def _zero_safe_reciprocal(s):
    zero = s == 0
    return xp.where(zero, 0.0, 1.0 / xp.where(zero, 1.0, s))


def _arg(args, kwargs, i, name, default=None):
    if i < len(args):
        return args[i]
    return kwargs.get(name, default)


def _slot(args, i, name):
    return i if i < len(args) else name


def _tangent(t, args, i, name):
    return t.get(_slot(args, i, name))


def _wants(needs, args, i, name):
    return (_slot(args, i, name), None) in needs


# --- batching -------------------------------------------------------------------------------

def _front_batch(op):
    """One stacked-matrix argument (first), the rest unbatched: the batch axis in front is
    one more stack dimension."""
    def batch(args, kwargs, dims, size):
        if set(dims) != {0}:
            raise ValueError(f"{op.name}: only the matrix argument can be batched")
        return op.public(_b.to_front(args[0], dims[0]), *args[1:], **kwargs), 0
    return batch


def _align(args, dims, cores):
    """Positional array args with their batch axes in front and the per-example stack
    dimensions aligned (cores[i]: the number of trailing core axes of argument i, 2 for a
    matrix, 1 for a vector), so the stacks broadcast per example as before."""
    rank = 0
    for i, a in enumerate(args):
        if cores[i] is None or not hasattr(a, "ndim"):
            continue
        rank = max(rank, a.ndim - (1 if i in dims else 0) - cores[i])
    out = list(args)
    for i, d in dims.items():
        a = _b.to_front(args[i], d)
        extra = rank - (a.ndim - 1 - cores[i])
        if extra > 0:
            a = xp.reshape(a, (a.shape[0],) + (1,) * extra + tuple(a.shape[1:]))
        out[i] = a
    return out


def _check_positional(op, dims, n):
    for s in dims:
        if type(s) is not int or s >= n:
            raise ValueError(f"{op.name}: pass the arrays positionally to batch it")


# --- cholesky -------------------------------------------------------------------------------

def _phi(x):
    """The lower triangle of x with half its diagonal."""
    return _tril(x) - 0.5 * (x * _eye_like(x))


def _cholesky_rules(op):
    def lower(out, kwargs):
        return _H(out) if kwargs.get("upper", False) else out

    def jvp(args, kwargs, t, out):
        L = lower(out, kwargs)
        S = _sym(t[0])
        X = _tri_solve(L, S, upper=False)                       # L^-1 S
        X = _tri_solve(_H(L), X, upper=True, left=False)         # L^-1 S L^-H
        dL = _mm(L, _phi(X))
        return _H(dL) if kwargs.get("upper", False) else dL

    def vjp(g, args, kwargs, out, needs):
        L = lower(out, kwargs)
        gL = _H(g) if kwargs.get("upper", False) else g
        P = _phi(_mm(_H(L), gL))
        P = _sym(P)
        gA = _tri_solve(_H(L), P, upper=True)                    # L^-H P
        gA = _tri_solve(L, gA, upper=False, left=False)          # L^-H P L^-1
        return {0: gA}

    define(op, jvp, vjp, _front_batch(op), saves=["out"])


# --- inverse, solve ---------------------------------------------------------------------------

def _inv_rules(op):
    def jvp(args, kwargs, t, out):
        return -_mm(_mm(out, t[0]), out)

    def vjp(g, args, kwargs, out, needs):
        yh = _H(out)
        return {0: -_mm(_mm(yh, g), yh)}

    define(op, jvp, vjp, _front_batch(op), saves=["out"])


def _solve_rules(op):
    # X = A^-1 B: dX = A^-1 (dB - dA X); gB = A^-H g, gA = -gB X^H.  A 1-D B is a vector.
    def parts(args, kwargs):
        return _arg(args, kwargs, 0, "x1"), _arg(args, kwargs, 1, "x2")

    def jvp(args, kwargs, t, out):
        a, b = parts(args, kwargs)
        ta, tb = _tangent(t, args, 0, "x1"), _tangent(t, args, 1, "x2")
        vec = b.ndim == 1
        rhs = None
        if ta is not None:
            rhs = -(_mm(ta, xp.expand_dims(out, axis=-1))[..., 0] if vec else _mm(ta, out))
        if tb is not None:
            rhs = tb if rhs is None else rhs + tb
        if vec:
            return xp.linalg.solve(a, xp.expand_dims(rhs, axis=-1))[..., 0]
        return xp.linalg.solve(a, rhs)

    def vjp(g, args, kwargs, out, needs):
        a, b = parts(args, kwargs)
        vec = b.ndim == 1
        if vec:
            gb = xp.linalg.solve(_H(a), xp.expand_dims(g, axis=-1))
            x = xp.expand_dims(out, axis=-1)
        else:
            gb = xp.linalg.solve(_H(a), g)
            x = out
        res = {}
        if _wants(needs, args, 1, "x2"):
            res[_slot(args, 1, "x2")] = gb[..., 0] if vec else gb
        if _wants(needs, args, 0, "x1"):
            res[_slot(args, 0, "x1")] = -_mm(gb, _H(x))
        return res

    def batch(args, kwargs, dims, size):
        _check_positional(op, dims, 2)
        a, b = args
        if b.ndim - (1 in dims) == 1:  # per-example vectors
            if 1 not in dims:
                return xp.linalg.solve(_b.to_front(a, dims[0]), b), 0
            bb = xp.expand_dims(_b.to_front(b, dims[1]), axis=-1)
            a2, b2 = _align((a, bb), {i: (0 if i == 1 else d) for i, d in dims.items()},
                            (2, 2))
            return xp.linalg.solve(a2, b2)[..., 0], 0
        a2, b2 = _align(args, dims, (2, 2))
        return xp.linalg.solve(a2, b2), 0

    define(op, jvp, vjp, batch, saves=[0, "out"])


# --- det, slogdet -----------------------------------------------------------------------------

def _exclusive_prod(s):
    """prod of the other entries along the last axis (no division: exact with zeros)."""
    n = s.shape[-1]
    left = xp.cumulative_prod(s, axis=-1, include_initial=True)[..., :n]
    fl = xp.flip(s, axis=-1)
    right = xp.flip(xp.cumulative_prod(fl, axis=-1, include_initial=True)[..., :n], axis=-1)
    return left * right


def _adjugate(x, d):
    """adj(x) (x @ adj(x) = det(x) I) given d = det(x): det * inv(x) where x is invertible,
    through the SVD where it is singular (finite there, as PyTorch's det backward).  Each
    branch gets a harmless matrix where the other is used, so neither produces NaN, even
    in its derivatives."""
    n = x.shape[-1]
    # "Singular" means numerically: det * inv(x) loses all accuracy once |det| is at rounding
    # level, since det and inv no longer share their errors (a rank-2 3x3 complex matrix with
    # det 3e-15 gave a gradient 10% off).  |det| <= prod of column norms <= ||x||_F^n
    # (Hadamard), so |det| <= n eps ||x||_F^n flags every matrix within rounding of singular;
    # the SVD formula is exact for all matrices, so a flagged regular one loses nothing.
    scale = xp.astype(xp.linalg.vector_norm(x, axis=(-2, -1)), xp.abs(d).dtype) ** n
    tiny = xp.abs(d) <= (n * xp.finfo(x.dtype).eps) * scale
    if type(x) is _Array and type(d) is _Array and not bool(xp.any(tiny)):
        return xp.expand_dims(xp.expand_dims(d, axis=-1), axis=-1) * xp.linalg.inv(x)
    eye = _eye_like(x)
    singular = xp.expand_dims(xp.expand_dims(tiny, axis=-1), axis=-1)
    dd = xp.expand_dims(xp.expand_dims(d, axis=-1), axis=-1)
    adj_inv = dd * xp.linalg.inv(xp.where(singular, eye, x))
    distinct = _diag_embed(xp.astype(xp.arange(1, n + 1), x.dtype))
    u, s, vh = xp.linalg.svd(xp.where(singular, x, distinct), full_matrices=False)
    phase = xp.linalg.det(u) * xp.linalg.det(vh)
    cof = xp.astype(_exclusive_prod(s), x.dtype)
    adj_svd = xp.expand_dims(xp.expand_dims(phase, axis=-1), axis=-1) * \
        _mm(_H(vh) * xp.expand_dims(cof, axis=-2), _H(u))
    return xp.where(singular, adj_svd, adj_inv)


def _det_rules(op):
    # d det = tr(adj(A) dA): holomorphic, so the vjp is g * adj(A)^H.
    def jvp(args, kwargs, t, out):
        adj = _adjugate(args[0], out)
        return xp.sum(_mT(adj) * t[0], axis=(-2, -1))

    def vjp(g, args, kwargs, out, needs):
        adj = _adjugate(args[0], out)
        return {0: xp.expand_dims(xp.expand_dims(g, axis=-1), axis=-1) * _H(adj)}

    define(op, jvp, vjp, _front_batch(op), saves=[0, "out"])


def _slogdet_rules(op):
    # t = tr(A^-1 dA): d logabsdet = Re t, d sign = sign * i Im t (0 for real input).
    def jvp(args, kwargs, t, out):
        sign, _ = out
        tr = xp.linalg.trace(xp.linalg.solve(args[0], t[0]))
        if _cplx(sign) or _cplx(tr):
            return (sign * (1j * _imag(tr)), _real(tr))
        return (xp.zeros_like(sign), tr)

    def vjp(g, args, kwargs, out, needs):
        sign, _ = out
        gs, gl = g
        c = gl
        if _cplx(sign):
            c = _as(gl, sign.dtype) + 1j * _imag(_conj(sign) * gs)
        inv_h = _H(xp.linalg.inv(args[0]))
        return {0: xp.expand_dims(xp.expand_dims(c, axis=-1), axis=-1) * inv_h}

    define(op, jvp, vjp, _front_batch(op), saves=[0, "out"])


# --- eigh, eigvalsh ---------------------------------------------------------------------------

def _eigh_rules(op):
    def jvp(args, kwargs, t, out):
        w, v = out
        p = _mm(_mm(_H(v), _sym(t[0])), v)
        dv = _mm(v, _inv_gaps(w) * p)
        return (_real(_diag(p)), dv)

    def vjp(g, args, kwargs, out, needs):
        w, v = out
        gw, gv = g
        gp = _inv_gaps(w) * _mm(_H(v), gv) + _diag_embed(gw, v.dtype)
        return {0: _sym(_mm(_mm(v, gp), _H(v)))}

    define(op, jvp, vjp, _front_batch(op), saves=["out"])


def _eigvalsh_rules(op):
    def jvp(args, kwargs, t, out):
        _, v = xp.linalg.eigh(args[0], **kwargs)
        return _real(xp.sum(_conj(v) * _mm(t[0], v), axis=-2))

    def vjp(g, args, kwargs, out, needs):
        _, v = xp.linalg.eigh(args[0], **kwargs)
        return {0: _mm(v * xp.expand_dims(_as(g, v.dtype), axis=-2), _H(v))}

    define(op, jvp, vjp, _front_batch(op), saves=[0])


# --- eig, eigvals -----------------------------------------------------------------------------

def _largest_mask(v):
    """One-hot (per column) of each eigenvector's largest-magnitude component, the one
    LAPACK makes real."""
    n = v.shape[-2]
    if n == 0:
        return xp.zeros_like(v)
    k = xp.argmax(xp.abs(v), axis=-2, keepdims=True)
    rows = xp.reshape(xp.arange(n, dtype=k.dtype), (n, 1))
    return xp.astype(rows == k, v.dtype)


def _eig_rules(op):
    # P = V^-1 dA V, dw = diag(P), U = V (F o P); dV = U + V diag(c) with c fixing LAPACK's
    # normalization: Re(v_j^H dv_j) = 0 (unit norm) and Im(dv_kj) = 0 at the largest
    # component k (kept real).
    def jvp(args, kwargs, t, out):
        w, v = out
        da = _cast_to_complex(t[0], v)
        p = xp.linalg.solve(v, _mm(da, v))
        u = _mm(v, _inv_gaps(w) * p)
        mask = _largest_mask(v)
        vk = xp.real(xp.sum(mask * v, axis=-2))
        c = -xp.real(xp.sum(xp.conj(v) * u, axis=-2)) + \
            (-1j) * (xp.imag(xp.sum(mask * u, axis=-2)) / vk)
        return (_diag(p), u + v * xp.expand_dims(c, axis=-2))

    def vjp(g, args, kwargs, out, needs):
        w, v = out
        gw, gv = g
        gv = _as(gv, v.dtype)
        h = xp.sum(xp.conj(gv) * v, axis=-2)
        mask = _largest_mask(v)
        vk = xp.real(xp.sum(mask * v, axis=-2))
        gu = gv - v * xp.expand_dims(xp.real(h), axis=-2) + \
            1j * (mask * xp.expand_dims(xp.imag(h) / vk, axis=-2))
        gp = xp.conj(_inv_gaps(w)) * _mm(_H(v), gu) + _diag_embed(_as(gw, v.dtype))
        return {0: xp.linalg.solve(_H(v), _mm(gp, _H(v)))}

    define(op, jvp, vjp, _front_batch(op), saves=["out"])


def _eigvals_rules(op):
    def jvp(args, kwargs, t, out):
        _, v = xp.linalg.eig(args[0])
        da = _cast_to_complex(t[0], v)
        return xp.sum(xp.linalg.solve(v, da) * _mT(v), axis=-1)

    def vjp(g, args, kwargs, out, needs):
        _, v = xp.linalg.eig(args[0])
        vh = _H(v)
        return {0: xp.linalg.solve(vh, xp.expand_dims(_as(g, v.dtype), axis=-1) * vh)}

    define(op, jvp, vjp, _front_batch(op), saves=[0])


# --- svd, svdvals -----------------------------------------------------------------------------

def _sv_gaps(s):
    """F[..., i, j] = 1 / (s_j^2 - s_i^2) off the diagonal, 0 on it."""
    return _inv_gaps(s * s)


def _svd_reduced_jvp(u, s, vh, da):
    """(dU, ds, dVh) of the reduced SVD (JAX's gauge: V^H dV has a zero diagonal, the phase
    term i Im(U^H dA V)_jj / s_j goes to U)."""
    m, n = da.shape[-2], da.shape[-1]
    v = _H(vh)
    cd = u.dtype
    da = _as(da, cd) if _cplx(u) else da
    ds_mat = _mm(_mm(_H(u), da), v)
    ds = _real(_diag(ds_mat))
    f = _as(_sv_gaps(s), cd)
    sr = _as(xp.expand_dims(s, axis=-2), cd)
    sc = _as(xp.expand_dims(s, axis=-1), cd)
    dss = ds_mat * sr
    sds = sc * ds_mat
    inner_u = f * (dss + _H(dss))
    if _cplx(u):
        inner_u = inner_u + _diag_embed(1j * _imag(_diag(ds_mat)) * _zero_safe_reciprocal(s),
                                        cd)
    du = _mm(u, inner_u)
    dv = _mm(v, f * (sds + _H(sds)))
    if m > n:
        dav = _mm(da, v)
        du = du + (dav - _mm(u, _mm(_H(u), dav))) / sr
    if n > m:
        dahu = _mm(_H(da), u)
        dv = dv + (dahu - _mm(v, _mm(vh, dahu))) / sr
    return du, ds, _H(dv)


def _svd_reduced_vjp(u, s, vh, gu, gs, gvh):
    """The adjoint of _svd_reduced_jvp."""
    m, n = u.shape[-2], vh.shape[-1]
    v = _H(vh)
    gv = _H(gvh)
    cd = u.dtype
    f = _as(_sv_gaps(s), cd)
    sr = _as(xp.expand_dims(s, axis=-2), cd)
    sc = _as(xp.expand_dims(s, axis=-1), cd)
    gu_ = _mm(_H(u), gu)
    gv_ = _mm(vh, gv)
    j = f * gu_
    k = f * gv_
    g_ds = _diag_embed(_as(gs, cd)) + (j + _H(j)) * sr + sc * (k + _H(k))
    if _cplx(u):
        g_ds = g_ds + _diag_embed(1j * _imag(_diag(gu_)) * _zero_safe_reciprocal(s), cd)
    ga = _mm(_mm(u, g_ds), vh)
    if m > n:
        ga = ga + _mm((gu - _mm(u, gu_)) / sr, vh)
    if n > m:
        ga = ga + _mm(u, _H((gv - _mm(v, gv_)) / sr))
    return ga


def _complete_jvp(q, dq):
    """The tangent of the extra columns q_perp of a completed unitary [q | q_perp] that keeps
    it unitary without rotating them among themselves: -q (dq^H q_perp)."""
    return lambda qp: -_mm(q, _mm(_H(dq), qp))


def _svd_rules(op):
    def split(out, full):
        u, s, vh = out
        k = s.shape[-1]
        m, n = u.shape[-2], vh.shape[-1]
        if not full:
            return u, s, vh, None, None
        up = u[..., :, k:] if m > k else None
        vhp = vh[..., k:, :] if n > k else None
        return u[..., :, :k], s, vh[..., :k, :], up, vhp

    def jvp(args, kwargs, t, out):
        full = kwargs.get("full_matrices", True)
        u, s, vh, up, vhp = split(out, full)
        du, ds, dvh = _svd_reduced_jvp(u, s, vh, t[0])
        if up is not None:
            du = xp.concat([du, _complete_jvp(u, du)(up)], axis=-1)
        if vhp is not None:
            v, dv = _H(vh), _H(dvh)
            dvh = xp.concat([dvh, _H(_complete_jvp(v, dv)(_H(vhp)))], axis=-2)
        return (du, ds, dvh)

    def vjp(g, args, kwargs, out, needs):
        full = kwargs.get("full_matrices", True)
        u, s, vh, up, vhp = split(out, full)
        gu, gs, gvh = g
        k = s.shape[-1]
        if full:
            gu_k = gu[..., :, :k]
            gvh_k = gvh[..., :k, :]
            if up is not None:
                gup = gu[..., :, k:]
                gu_k = gu_k - _mm(up, _mm(_H(gup), u))
            if vhp is not None:
                v, vp, gvp = _H(vh), _H(vhp), _H(gvh[..., k:, :])
                gvh_k = _H(_H(gvh_k) - _mm(vp, _mm(_H(gvp), v)))
            gu, gvh = gu_k, gvh_k
        return {0: _svd_reduced_vjp(u, s, vh, gu, gs, gvh)}

    define(op, jvp, vjp, _front_batch(op), saves=["out"])


def _svdvals_rules(op):
    def jvp(args, kwargs, t, out):
        u, _, vh = xp.linalg.svd(args[0], full_matrices=False)
        return _real(xp.sum(_conj(u) * _mm(t[0], _H(vh)), axis=-2))

    def vjp(g, args, kwargs, out, needs):
        u, _, vh = xp.linalg.svd(args[0], full_matrices=False)
        return {0: _mm(u * xp.expand_dims(_as(g, u.dtype), axis=-2), vh)}

    define(op, jvp, vjp, _front_batch(op), saves=[0])


# --- qr ---------------------------------------------------------------------------------------

def _qr_square_jvp(q, r, da):
    """m >= n, reduced: B = Q^H dA R^-1, Omega = skew part (lower - lower^H + i Im diag B)."""
    da_rinv = _tri_solve(r, da, upper=True, left=False)
    b = _mm(_H(q), da_rinv)
    lo = _tril(b, k=-1)
    om = lo - _H(lo)
    if _cplx(b):
        om = om + _diag_embed(1j * _imag(_diag(b)), b.dtype)
    return _mm(q, om - b) + da_rinv, _mm(b - om, r)


def _qr_square_vjp(q, r, gq, gr):
    k = _mm(_H(q), gq) - _mm(gr, _H(r))
    om = _tril(k, k=-1) - _tril(_H(k), k=-1)
    if _cplx(k):
        om = om + _diag_embed(1j * _imag(_diag(k)), k.dtype)
    gb = om - k
    return _tri_solve(_H(r), gq + _mm(q, gb), upper=False, left=False)


def _qr_rules(op):
    def mode(kwargs):
        return kwargs.get("mode", "reduced")

    def factors(args, kwargs, out):
        if mode(kwargs) == "r":
            return xp.linalg.qr(args[0], mode="reduced")
        return out

    def jvp(args, kwargs, t, out):
        q, r = factors(args, kwargs, out)
        da = t[0]
        m, n = q.shape[-2], r.shape[-1]
        if m >= n:
            k = n
            dq, dr = _qr_square_jvp(q[..., :, :k], r[..., :k, :], da)
            if q.shape[-1] > k:  # complete, m > n
                dq = xp.concat([dq, _complete_jvp(q[..., :, :k], dq)(q[..., :, k:])], axis=-1)
                dr = xp.concat([dr, xp.zeros_like(r[..., k:, :])], axis=-2)
        else:
            rx, ry = r[..., :, :m], r[..., :, m:]
            dq, drx = _qr_square_jvp(q, rx, da[..., :, :m])
            dry = _mm(_H(q), da[..., :, m:] - _mm(dq, ry))
            dr = xp.concat([drx, dry], axis=-1)
        if mode(kwargs) == "r":
            return dr
        return (dq, dr)

    def vjp(g, args, kwargs, out, needs):
        q, r = factors(args, kwargs, out)
        if mode(kwargs) == "r":
            gq, gr = xp.zeros_like(q), g
        else:
            gq, gr = g
        m, n = q.shape[-2], r.shape[-1]
        if m >= n:
            k = n
            qk = q[..., :, :k]
            gqk = gq[..., :, :k]
            if q.shape[-1] > k:
                qp, gqp = q[..., :, k:], gq[..., :, k:]
                gqk = gqk - _mm(qp, _mm(_H(gqp), qk))
            return {0: _qr_square_vjp(qk, r[..., :k, :], gqk, gr[..., :k, :])}
        rx, ry = r[..., :, :m], r[..., :, m:]
        grx, gry = gr[..., :, :m], gr[..., :, m:]
        gy = _mm(q, gry)
        gx = _qr_square_vjp(q, rx, gq - _mm(gy, _H(ry)), grx)
        return {0: xp.concat([gx, gy], axis=-1)}

    define(op, jvp, vjp, _front_batch(op), saves=[0, "out"])


# --- lu_factor, lu ----------------------------------------------------------------------------

def _unit_lower(x, k):
    """The unit lower trapezoid (m, k) stored below the diagonal of x."""
    lo = _tril(x[..., :, :k], k=-1)
    return lo + xp.eye(x.shape[-2], k, dtype=x.dtype)


def _lu_jvp(p, lo, up, da):
    """(dL, dU) of A = P L U for a tangent dA (any m, n)."""
    m, n = lo.shape[-2], up.shape[-1]
    pda = _mm(_mT(p), da)
    if m >= n:
        lo1, lo2 = lo[..., :n, :], lo[..., n:, :]
        x = _tri_solve(lo1, pda[..., :n, :], upper=False, unit=True)
        x = _tri_solve(up, x, upper=True, left=False)
        dl1 = _mm(lo1, _tril(x, k=-1))
        du = _mm(_triu(x), up)
        if m == n:
            return dl1, du
        dl2 = _tri_solve(up, pda[..., n:, :] - _mm(lo2, du), upper=True, left=False)
        return xp.concat([dl1, dl2], axis=-2), du
    u1, u2 = up[..., :, :m], up[..., :, m:]
    x = _tri_solve(lo, pda[..., :, :m], upper=False, unit=True)
    x = _tri_solve(u1, x, upper=True, left=False)
    dl = _mm(lo, _tril(x, k=-1))
    du1 = _mm(_triu(x), u1)
    du2 = _tri_solve(lo, pda[..., :, m:] - _mm(dl, u2), upper=False, unit=True)
    return dl, xp.concat([du1, du2], axis=-1)


def _lu_square_vjp(lo, up, gl, gu):
    gx = _tril(_mm(_H(lo), gl), k=-1) + _triu(_mm(gu, _H(up)))
    ga = _tri_solve(_H(lo), gx, upper=True, unit=True)
    return _tri_solve(_H(up), ga, upper=False, left=False)


def _lu_vjp(p, lo, up, gl, gu):
    m, n = lo.shape[-2], up.shape[-1]
    if m >= n:
        if m == n:
            ga = _lu_square_vjp(lo, up, gl, gu)
        else:
            lo1, lo2 = lo[..., :n, :], lo[..., n:, :]
            ga2 = _tri_solve(_H(up), gl[..., n:, :], upper=False, left=False)
            ga1 = _lu_square_vjp(lo1, up, gl[..., :n, :], gu - _mm(_H(lo2), ga2))
            ga = xp.concat([ga1, ga2], axis=-2)
    else:
        u1, u2 = up[..., :, :m], up[..., :, m:]
        ga2 = _tri_solve(_H(lo), gu[..., :, m:], upper=True, unit=True)
        ga1 = _lu_square_vjp(lo, u1, gl - _mm(ga2, _H(u2)), gu[..., :, :m])
        ga = xp.concat([ga1, ga2], axis=-1)
    return _mm(p, ga)


def _lu_rules(op):
    def jvp(args, kwargs, t, out):
        p, lo, up = out
        dl, du = _lu_jvp(p, lo, up, t[0])
        return (xp.zeros_like(p), dl, du)

    def vjp(g, args, kwargs, out, needs):
        p, lo, up = out
        _, gl, gu = g
        return {0: _lu_vjp(p, lo, up, gl, gu)}

    define(op, jvp, vjp, _front_batch(op), saves=["out"])


def _lu_factor_rules(op):
    def unpack(args, kwargs, out):
        p, lo, up = xp.linalg.lu(args[0], **kwargs)
        return p, lo, up

    def jvp(args, kwargs, t, out):
        p, lo, up = unpack(args, kwargs, out)
        dl, du = _lu_jvp(p, lo, up, t[0])
        m, n = lo.shape[-2], up.shape[-1]
        if m > n:
            du = xp.concat([du, xp.zeros_like(dl[..., n:, :])], axis=-2)
        elif n > m:
            dl = xp.concat([dl, xp.zeros_like(du[..., :, m:])], axis=-1)
        return (dl + du, None)

    def vjp(g, args, kwargs, out, needs):
        p, lo, up = unpack(args, kwargs, out)
        glu = g[0]
        k = min(lo.shape[-2], up.shape[-1])
        gl = _tril(glu[..., :, :k], k=-1)
        gu = _triu(glu[..., :k, :])
        return {0: _lu_vjp(p, lo, up, gl, gu)}

    define(op, jvp, vjp, _front_batch(op), saves=[0])


# --- lu_solve, solve_triangular ----------------------------------------------------------------

def _lu_solve_rules(op):
    # A = P L U.  With M = L^-1 dL + dU U^-1 (dL = tril(dLU, -1), dU = triu(dLU)):
    # A^-1 dA = U^-1 M U and dA A^-1 = P L M L^-1 P^T, which give every case without P.
    names = ("LU", "pivots", "B")

    def parts(args, kwargs):
        lu_, piv, b = (_arg(args, kwargs, i, nm) for i, nm in enumerate(names))
        n = lu_.shape[-1]
        lo = _unit_lower(lu_, n)
        up = _triu(lu_)
        return lu_, piv, b, lo, up, kwargs.get("left", True), kwargs.get("adjoint", False)

    def solve(lu_, piv, b, left, adjoint):
        return xp.linalg.lu_solve(lu_, piv, b, left=left, adjoint=adjoint)

    def jvp(args, kwargs, t, out):
        lu_, piv, b, lo, up, left, adjoint = parts(args, kwargs)
        x = out
        res = None
        tb = _tangent(t, args, 2, "B")
        if tb is not None:
            res = solve(lu_, piv, tb, left, adjoint)
        tlu = _tangent(t, args, 0, "LU")
        if tlu is not None:
            dm = _tri_solve(lo, _tril(tlu, k=-1), upper=False, unit=True) + \
                _tri_solve(up, _triu(tlu), upper=True, left=False)
            if left and not adjoint:
                d = -_tri_solve(up, _mm(dm, _mm(up, x)), upper=True)
            elif left:
                y = _tri_solve(_H(up), b, upper=False)
                d = -solve(lu_, piv, _mm(_H(up), _mm(_H(dm), y)), True, True)
            elif not adjoint:
                c = _tri_solve(up, b, upper=True, left=False)
                d = -solve(lu_, piv, _mm(_mm(c, dm), up), False, False)
            else:
                d = -_tri_solve(_H(up), _mm(_mm(x, _H(up)), _H(dm)), upper=False, left=False)
            res = d if res is None else res + d
        return res

    def vjp(g, args, kwargs, out, needs):
        lu_, piv, b, lo, up, left, adjoint = parts(args, kwargs)
        x = out
        res = {}
        if _wants(needs, args, 2, "B"):
            res[_slot(args, 2, "B")] = solve(lu_, piv, g, left, not adjoint)
        if _wants(needs, args, 0, "LU"):
            if left and not adjoint:
                gm = -_mm(_mm(_tri_solve(_H(up), g, upper=False), _H(x)), _H(up))
            elif left:
                y = _tri_solve(_H(up), b, upper=False)
                gm = -_mm(_mm(y, _H(solve(lu_, piv, g, True, False))), _H(up))
            elif not adjoint:
                c = _tri_solve(up, b, upper=True, left=False)
                gm = -_mm(_mm(_H(c), solve(lu_, piv, g, False, True)), _H(up))
            else:
                gm = -_mm(_mm(_tri_solve(_H(up), _H(g), upper=False), x), _H(up))
            glu = _tril(_tri_solve(_H(lo), gm, upper=True, unit=True), k=-1) + \
                _triu(_tri_solve(_H(up), gm, upper=False, left=False))
            res[_slot(args, 0, "LU")] = glu
        return res

    def batch(args, kwargs, dims, size):
        _check_positional(op, dims, 3)
        lu_, piv, b = _align(args, dims, (2, 1, 2))
        stack = tuple(lu_.shape[:-2])
        pst = tuple(piv.shape[:-1])
        if stack != pst:
            shape = tuple(xp.broadcast_shapes(stack, pst))
            lu_ = xp.broadcast_to(lu_, shape + tuple(lu_.shape[-2:]))
            piv = xp.broadcast_to(piv, shape + tuple(piv.shape[-1:]))
        return op.public(lu_, piv, b, **kwargs), 0

    define(op, jvp, vjp, batch, saves=[0, 1, 2, "out"])


def _solve_triangular_rules(op):
    names = ("A", "B")

    def tri(x, upper, unit):
        if upper:
            return _triu(x, k=1 if unit else 0)
        return _tril(x, k=-1 if unit else 0)

    def opts(kwargs):
        return kwargs["upper"], kwargs.get("left", True), kwargs.get("unitriangular", False)

    def jvp(args, kwargs, t, out):
        a = _arg(args, kwargs, 0, "A")
        upper, left, unit = opts(kwargs)
        ta, tb = _tangent(t, args, 0, "A"), _tangent(t, args, 1, "B")
        rhs = None
        if ta is not None:
            dt = tri(ta, upper, unit)
            rhs = -_mm(dt, out) if left else -_mm(out, dt)
        if tb is not None:
            rhs = tb if rhs is None else rhs + tb
        return _tri_solve(a, rhs, upper, left, unit)

    def vjp(g, args, kwargs, out, needs):
        a = _arg(args, kwargs, 0, "A")
        upper, left, unit = opts(kwargs)
        gb = _tri_solve(_H(a), g, not upper, left, unit)
        res = {}
        if _wants(needs, args, 1, "B"):
            res[_slot(args, 1, "B")] = gb
        if _wants(needs, args, 0, "A"):
            ga = -_mm(gb, _H(out)) if left else -_mm(_H(out), gb)
            res[_slot(args, 0, "A")] = tri(ga, upper, unit)
        return res

    def batch(args, kwargs, dims, size):
        _check_positional(op, dims, 2)
        a, b = _align(args, dims, (2, 2))
        return op.public(a, b, **kwargs), 0

    define(op, jvp, vjp, batch, saves=[0, "out"])


# --- matrix_exp -------------------------------------------------------------------------------

def _exp_block(a, e):
    """The upper-right block of exp([[a, e], [0, a]]): the derivative of exp at a along e."""
    n = a.shape[-1]
    a, e = xp.broadcast_arrays(a, e)
    top = xp.concat([a, e], axis=-1)
    bottom = xp.concat([xp.zeros_like(a), a], axis=-1)
    return xp.linalg.matrix_exp(xp.concat([top, bottom], axis=-2))[..., :n, n:]


def _matrix_exp_rules(op):
    def jvp(args, kwargs, t, out):
        a = args[0]
        return _exp_block(a, _as(t[0], a.dtype) if _cplx(a) else t[0])

    def vjp(g, args, kwargs, out, needs):
        return {0: _exp_block(_H(args[0]), g)}

    define(op, jvp, vjp, _front_batch(op), saves=[0])


# --- pinv -------------------------------------------------------------------------------------

def _pinv_jvp(a, p, da):
    """Golub & Pereyra (1973): dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P."""
    dah = _H(da)
    t1 = -_mm(_mm(p, da), p)
    t2 = _mm(_mm(p, _H(p)), dah - _mm(_mm(dah, a), p))
    t3 = _mm(dah - _mm(p, _mm(a, dah)), _mm(_H(p), p))
    return t1 + t2 + t3


def _pinv_vjp(a, p, g):
    """The adjoint of _pinv_jvp."""
    ph = _H(p)
    gh = _H(g)
    t1 = -_mm(_mm(ph, g), ph)
    t2 = _mm(gh - _mm(a, _mm(p, gh)), _mm(p, ph))
    t3 = _mm(_mm(ph, p), gh - _mm(_mm(gh, p), a))
    return t1 + t2 + t3


def _pinv_rules(op):
    def jvp(args, kwargs, t, out):
        da = _sym(t[0]) if kwargs.get("hermitian", False) else t[0]
        return _pinv_jvp(args[0], out, da)

    def vjp(g, args, kwargs, out, needs):
        ga = _pinv_vjp(args[0], out, g)
        return {0: _sym(ga) if kwargs.get("hermitian", False) else ga}

    def batch(args, kwargs, dims, size):
        # x (..., m, n) and an array rtol broadcasting against its stack dimensions: the
        # batch axis in front of both.
        kw = dict(kwargs)
        x = _b.materialize(args[0], dims.get(0), size)
        if "rtol" in dims:
            r = _b.to_front(kwargs["rtol"], dims["rtol"])
            extra = (x.ndim - 2) - r.ndim
            kw["rtol"] = xp.reshape(r, (size,) + (1,) * extra + tuple(r.shape[1:])) \
                if extra > 0 else r
        elif hasattr(kwargs.get("rtol"), "ndim") and kwargs["rtol"].ndim:
            kw["rtol"] = kwargs["rtol"]
        return op.public(x, *args[1:], **kw), 0

    define(op, jvp, vjp, batch, saves=[0, "out"])


# --- lstsq ------------------------------------------------------------------------------------

def _lstsq_rules(op):
    # x = pinv(A) b with the rank (rcond) held fixed; residuals = ||b - A x||^2 per column
    # (only present for full column rank with m > n, where A^H r = 0); s = svdvals(A).
    def parts(args, kwargs):
        a = _arg(args, kwargs, 0, "a")
        b = _arg(args, kwargs, 1, "b")
        rcond = _arg(args, kwargs, 2, "rcond")
        if rcond is None:
            rcond = xp.finfo(a.dtype).eps * max(a.shape[-2], a.shape[-1])
        return a, b, rcond

    def jvp(args, kwargs, t, out):
        a, b, rcond = parts(args, kwargs)
        x, res, rank, s = out
        vec = b.ndim == 1
        p = xp.linalg.pinv(a, rtol=rcond)
        ta, tb = _tangent(t, args, 0, "a"), _tangent(t, args, 1, "b")
        bm = xp.expand_dims(b, axis=-1) if vec else b
        xm = xp.expand_dims(x, axis=-1) if vec else x
        dx = None
        dres = None
        ds = None
        r = bm - _mm(a, xm)
        drhs = None
        if ta is not None:
            dx = _mm(_pinv_jvp(a, p, ta), bm)
            drhs = -_mm(ta, xm)
            u, _, vh = xp.linalg.svd(a, full_matrices=False)
            ds = _real(xp.sum(_conj(u) * _mm(ta, _H(vh)), axis=-2))
        if tb is not None:
            tbm = xp.expand_dims(tb, axis=-1) if vec else tb
            dxb = _mm(p, tbm)
            dx = dxb if dx is None else dx + dxb
            drhs = tbm if drhs is None else drhs + tbm
        if res.shape[-1] != 0:
            dres = 2 * xp.sum(_real(_conj(r) * drhs), axis=-2)
            if vec:
                dres = xp.reshape(dres, tuple(res.shape))
        else:
            dres = xp.zeros_like(res)
        if ds is None:
            ds = xp.zeros_like(s)
        return (dx[..., 0] if vec else dx, dres, None, ds)

    def vjp(g, args, kwargs, out, needs):
        a, b, rcond = parts(args, kwargs)
        x, res, rank, s = out
        gx, gres, _, gs = g
        vec = b.ndim == 1
        p = xp.linalg.pinv(a, rtol=rcond)
        bm = xp.expand_dims(b, axis=-1) if vec else b
        xm = xp.expand_dims(x, axis=-1) if vec else x
        gxm = xp.expand_dims(gx, axis=-1) if vec else gx
        ga = _pinv_vjp(a, p, _mm(gxm, _H(bm)))
        gb = _mm(_H(p), gxm)
        if res.shape[-1] != 0:
            r = bm - _mm(a, xm)
            gr = 2 * r * xp.expand_dims(_as(xp.reshape(gres, tuple(res.shape[:-1]) +
                                                       ((res.shape[-1],) if not vec else (1,))),
                                            r.dtype), axis=-2)
            gb = gb + gr
            ga = ga - _mm(gr, _H(xm))
        u, _, vh = xp.linalg.svd(a, full_matrices=False)
        ga = ga + _mm(u * xp.expand_dims(_as(gs, u.dtype), axis=-2), vh)
        out_ = {}
        if _wants(needs, args, 0, "a"):
            out_[_slot(args, 0, "a")] = ga
        if _wants(needs, args, 1, "b"):
            out_[_slot(args, 1, "b")] = gb[..., 0] if vec else gb
        return out_

    def batch(args, kwargs, dims, size):
        _check_positional(op, dims, 2)
        a, b = args[0], args[1]
        rest = args[2:]
        if b.ndim - (1 in dims) == 1:  # per-example vector right-hand sides
            if 1 in dims:
                bb = xp.expand_dims(_b.to_front(b, dims[1]), axis=-1)
            else:
                bb = xp.expand_dims(b, axis=-1)
            d2 = dict(dims)
            d2[1] = 0
            if 1 not in dims:
                d2.pop(1)
            a2, b2 = _align((a, bb), d2, (2, 2))
            x, res, rank, s = op.public(a2, b2, *rest, **kwargs)
            return _batched_residuals((x[..., 0], res, rank, s)), 0
        a2, b2 = _align((a, b), dims, (2, 2))
        return _batched_residuals(op.public(a2, b2, *rest, **kwargs)), 0

    define(op, jvp, vjp, batch, saves=[0, 1, "out"])


def _batched_residuals(out):
    """Empty residuals with the batch dimensions (shape (..., 0)), so that they stack."""
    x, res, rank, s = out
    if res.ndim != rank.ndim + 1:
        res = xp.zeros(tuple(rank.shape) + (0,), dtype=res.dtype)
        return type(out)(x, res, rank, s) if hasattr(out, "_fields") else (x, res, rank, s)
    return out


# --- vector_norm ------------------------------------------------------------------------------

def _norm_axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(sorted(operator.index(a) % ndim for a in items)) if ndim else ()


def _norm_weights(x, y, ord, axes):
    """d with d vector_norm = Re sum(conj(d) * dx) over the reduced axes (y: the norm with
    those axes kept)."""
    ax = xp.abs(x)
    if ord == 2:
        zero = y == 0
        return xp.where(zero, 0.0, x / xp.where(zero, 1.0, y))
    sg = xp.sign(x)
    if ord == 1:
        return sg
    if ord == 0:
        return xp.zeros_like(x)
    if ord in (math.inf, -math.inf):
        mask = xp.astype(ax == y, ax.dtype)
        return sg * (mask / xp.sum(mask, axis=axes, keepdims=True))
    p = float(ord)
    zero_y = y == 0
    sy = xp.where(zero_y, 1.0, y)
    if p < 1:
        zero_x = ax == 0
        sax = xp.where(zero_x, 1.0, ax)
        w = xp.where(zero_x, 0.0, sg * (sax / sy) ** (p - 1))
    else:
        w = sg * (ax / sy) ** (p - 1)
    return xp.where(zero_y, 0.0, w)


def _vector_norm_rules(op):
    def prepared(args, kwargs, out):
        x = args[0]
        ord = kwargs.get("ord", 2)
        axes = _norm_axes(kwargs.get("axis"), x.ndim)
        keep = kwargs.get("keepdims", False)
        y = out if keep or not axes else xp.expand_dims(out, axis=axes)
        if y.ndim != x.ndim:  # axis=None with keepdims: already all ones
            y = xp.reshape(y, (1,) * x.ndim)
        return x, ord, axes, keep, y

    def jvp(args, kwargs, t, out):
        x, ord, axes, keep, y = prepared(args, kwargs, out)
        d = _norm_weights(x, y, ord, axes)
        s = xp.sum(_real(_conj(d) * t[0]), axis=axes, keepdims=keep)
        return xp.reshape(s, tuple(out.shape))

    def vjp(g, args, kwargs, out, needs):
        x, ord, axes, keep, y = prepared(args, kwargs, out)
        d = _norm_weights(x, y, ord, axes)
        ge = g if keep or not axes else xp.expand_dims(g, axis=axes)
        if ge.ndim != x.ndim:
            ge = xp.reshape(ge, (1,) * x.ndim)
        return {0: ge * d}

    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        nd = xb.ndim - 1
        kw = dict(kwargs)
        axis = kwargs.get("axis")
        if axis is None:
            kw["axis"] = tuple(range(1, nd + 1))
        elif isinstance(axis, (tuple, list)):
            kw["axis"] = tuple(operator.index(a) % nd + 1 for a in axis)
        else:
            kw["axis"] = operator.index(axis) % nd + 1
        return op.public(xb, **kw), 0

    define(op, jvp, vjp, batch, saves=[0, "out"])


# --- diagonal, trace (linear; their jvps come from the `linear` flag) -----------------------------

def _diagonal_rules(op):
    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        rows, cols = x.shape[-2], x.shape[-1]
        k = kwargs.get("offset", 0)
        e = xp.eye(rows, cols, k=k, dtype=g.dtype)
        length = g.shape[-1]
        if k >= 0:  # element i sits in row i
            pad = rows - length
            if pad:
                g = xp.concat([g, xp.zeros(tuple(g.shape[:-1]) + (pad,), dtype=g.dtype)],
                              axis=-1)
            return {0: xp.expand_dims(g, axis=-1) * e}
        pad = cols - length  # element i sits in column i
        if pad:
            g = xp.concat([g, xp.zeros(tuple(g.shape[:-1]) + (pad,), dtype=g.dtype)], axis=-1)
        return {0: xp.expand_dims(g, axis=-2) * e}

    define(op, None, vjp, _front_batch(op), saves=[])


def _trace_rules(op):
    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        e = xp.eye(x.shape[-2], x.shape[-1], k=kwargs.get("offset", 0), dtype=g.dtype)
        return {0: xp.expand_dims(xp.expand_dims(g, axis=-1), axis=-1) * e}

    define(op, None, vjp, _front_batch(op), saves=[])


# --- install ----------------------------------------------------------------------------------

_RULES = {
    "cholesky": _cholesky_rules, "inv": _inv_rules, "solve": _solve_rules,
    "det": _det_rules, "slogdet": _slogdet_rules, "eigh": _eigh_rules,
    "eigvalsh": _eigvalsh_rules, "eig": _eig_rules, "eigvals": _eigvals_rules,
    "svd": _svd_rules, "svdvals": _svdvals_rules, "qr": _qr_rules, "lu": _lu_rules,
    "lu_factor": _lu_factor_rules, "lu_solve": _lu_solve_rules,
    "solve_triangular": _solve_triangular_rules, "matrix_exp": _matrix_exp_rules,
    "pinv": _pinv_rules, "lstsq": _lstsq_rules, "vector_norm": _vector_norm_rules,
    "diagonal": _diagonal_rules, "trace": _trace_rules,
}


def install():
    # The primitives are registered by arraycore/_core/ops/linalg.py; an op not (yet) in the
    # table is skipped, so the rules can land before or after their forward functions.
    for name, rules in _RULES.items():
        op = OPS.get(name)
        if op is not None and op.namespace == "linalg":
            rules(op)


__all__ = ["install"]
