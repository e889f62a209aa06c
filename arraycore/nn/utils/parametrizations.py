"""L4: ready-made parametrizations (torch.nn.utils.parametrizations): `weight_norm`,
`spectral_norm`, `orthogonal`.  Each registers a small Module through
`parametrize.register_parametrization`, so the parametrized weight is recomputed from its
originals on access, recorded on the tape like any forward computation, and runs under
`ac.func` transforms through `functional_call`."""

from __future__ import annotations

from enum import Enum

from ...autodiff.grad_mode import no_grad
from .._inplace import assign_
from ..modules.module import Module
from . import parametrize

__all__ = ["weight_norm", "spectral_norm", "orthogonal"]


def _ac():
    import arraycore
    return arraycore


# --- weight norm ------------------------------------------------------------------------------

def _norm_except_dim(v, dim):
    """The 2-norm of v over every axis but `dim`, kept as size-1 axes (dim=-1: the norm of
    the whole array, PyTorch's convention for weight norm over all dimensions)."""
    ac = _ac()
    if dim == -1:
        return ac.linalg.vector_norm(v)
    axes = tuple(i for i in range(v.ndim) if i != dim)
    return ac.linalg.vector_norm(v, axis=axes, keepdims=True)


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return weight_v * (weight_g / _norm_except_dim(weight_v, self.dim))

    def right_inverse(self, weight):
        return _norm_except_dim(weight, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrizes `module.<name>` as g * v / ||v|| (Salimans & Kingma, 2016), the norm
    taken over every dimension but `dim` (`dim=None`: over the whole array).  The originals
    are `parametrizations.<name>.original0` (g, initialised to the norm of the current
    weight) and `original1` (v, the current weight).

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Holder(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.weight = nn.Parameter(ac.ones((4, 3), dtype=ac.float32))
    >>> m = nn.utils.parametrizations.weight_norm(Holder())
    >>> m.parametrizations.weight.original0.shape
    (4, 1)
    """
    if dim is not None and dim < -1:
        w = getattr(module, name)
        dim = dim + w.ndim  # PyTorch keeps -1 as "all dims"; other negatives count from end
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


# --- spectral norm ----------------------------------------------------------------------------

def _normalize(x, eps):
    ac = _ac()
    return x / ac.maximum(ac.linalg.vector_norm(x), eps)


class _SpectralNorm(Module):
    """W / sigma(W), sigma estimated by power iteration on the weight reshaped to a matrix
    (`dim` first), with the singular vector estimates `_u`, `_v` kept as buffers and refined
    by `n_power_iterations` steps on each access in training mode (Miyato et al., 2018)."""

    def __init__(self, weight, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12, generator=None):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            ac = _ac()
            with no_grad():
                mat = self._reshape_weight_to_matrix(weight)
                h, w = mat.shape
                from ..init import normal_
                u = normal_(ac.empty(h, dtype=weight.dtype), generator=generator)
                v = normal_(ac.empty(w, dtype=weight.dtype), generator=generator)
                self.register_buffer("_u", _normalize(u, eps))
                self.register_buffer("_v", _normalize(v, eps))
                # Start from good estimates: 15 iterations at registration, as PyTorch does.
                self._power_method(mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        ac = _ac()
        if self.dim != 0:
            order = (self.dim,) + tuple(i for i in range(weight.ndim) if i != self.dim)
            weight = ac.permute_dims(weight, order)
        return ac.reshape(weight, (weight.shape[0], -1))

    def _power_method(self, mat, n_power_iterations):
        ac = _ac()
        with no_grad():
            mat = mat.detach() if hasattr(mat, "detach") else mat
            u, v = self._u, self._v
            for _ in range(n_power_iterations):
                u_new = _normalize(ac.matmul(mat, v), self.eps)
                v_new = _normalize(ac.matmul(ac.conj(mat.mT) if mat.dtype.kind == "c"
                                             else mat.mT, u_new), self.eps)
                u, v = u_new, v_new
            assign_(self._u, u, "spectral_norm")
            assign_(self._v, v, "spectral_norm")

    def forward(self, weight):
        ac = _ac()
        if weight.ndim == 1:
            return _normalize(weight, self.eps)
        mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(mat, self.n_power_iterations)
        # copies, so later in-place power iterations do not touch values the tape saved
        u = ac.asarray(self._u, copy=True)
        v = ac.asarray(self._v, copy=True)
        sigma = ac.vecdot(u, ac.matmul(mat, v))
        return weight / sigma

    def right_inverse(self, value):
        # Any W' with W' / sigma(W') = value would do; value itself is one (sigma(value) is
        # 1 when value is already normalized).  u and v are left as they are.
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None, *, generator=None) -> Module:
    """Reparametrizes `module.<name>` as W / sigma(W), sigma the largest singular value of W
    reshaped to a matrix with `dim` first (default 0, 1 for transposed convolutions),
    estimated by power iteration.  The estimates `_u`, `_v` are buffers of
    `parametrizations.<name>[0]` (initialised from `generator`, or `ac.random`'s global
    generator) and advance on every access in training mode.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Holder(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.weight = nn.Parameter(ac.eye(3, dtype=ac.float32) * 4)
    >>> m = nn.utils.parametrizations.spectral_norm(Holder())
    >>> round(float(ac.linalg.matrix_norm(m.weight, ord=2)), 4)
    1.0
    """
    weight = getattr(module, name, None)
    if weight is None or not hasattr(weight, "ndim"):
        raise ValueError(f"Module '{type(module).__name__}' has no parameter or buffer with "
                         f"name '{name}'")
    if dim is None:
        dim = 1 if _is_conv_transpose(module) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps, generator))
    return module


def _is_conv_transpose(module) -> bool:
    from .. import modules as _modules
    classes = tuple(c for c in (getattr(_modules, n, None) for n in
                                ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d"))
                    if isinstance(c, type))
    return bool(classes) and isinstance(module, classes)


# --- orthogonal -------------------------------------------------------------------------------

class _NotInvertible(ValueError, NotImplementedError):
    """right_inverse has no answer for this map.  register_parametrization treats
    NotImplementedError from right_inverse as "keep the original as it is" (PyTorch's
    protocol, which PyTorch's own orthogonal relies on too); a later assignment to the weight
    raises it, and it is also a ValueError (a bad request, not missing code)."""


class _OrthMaps(Enum):
    matrix_exp = 1
    cayley = 2
    householder = 3


def _tril(x, k=0):
    """ac.tril that records on the tape and runs under transforms (ac.tril/triu are not
    differentiable yet): a constant mask selects the lower triangle."""
    ac = _ac()
    n, m = x.shape[-2], x.shape[-1]
    mask = ac.tril(ac.ones((n, m), dtype=ac.bool), k=k)
    return ac.where(mask, x, ac.zeros_like(x))


def _eye_like(x, n, k):
    ac = _ac()
    return ac.broadcast_to(ac.eye(n, k, dtype=x.dtype), x.shape[:-2] + (n, k))


def _householder_product(A, tau):
    """The first k columns of H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^H, v_i the i-th column
    of A below the diagonal with a unit diagonal entry (LAPACK's orgqr/ungqr convention,
    torch.linalg.householder_product), with array ops so that it is differentiable."""
    ac = _ac()
    n, k = A.shape[-2], A.shape[-1]
    V = _tril(A, k=-1) + _eye_like(A, n, k)
    Q = _eye_like(A, n, k)
    for i in range(k - 1, -1, -1):
        v = V[..., :, i:i + 1]                              # (..., n, 1)
        vh = ac.conj(v.mT) if v.dtype.kind == "c" else v.mT  # (..., 1, n)
        t = tau[..., i][..., None, None]
        Q = Q - (v * t) @ (vh @ Q)
    return Q


def _is_orthogonal(Q):
    ac = _ac()
    n, k = Q.shape[-2], Q.shape[-1]
    eps = 10.0 * n * ac.finfo(Q.dtype).eps
    QhQ = (ac.conj(Q.mT) if Q.dtype.kind == "c" else Q.mT) @ Q
    return bool(ac.all(ac.abs(QhQ - ac.eye(k, dtype=Q.dtype)) <= eps))


def _make_orthogonal(A):
    """The Q factor of A's QR decomposition with R's diagonal made positive (so Q is unique
    and continuous in A)."""
    ac = _ac()
    q, r = ac.linalg.qr(A)
    d = ac.linalg.diagonal(r)
    sgn = d / ac.abs(d) if d.dtype.kind == "c" else ac.sign(d)
    return q * sgn[..., None, :]


class _Orthogonal(Module):
    def __init__(self, weight, orthogonal_map: _OrthMaps, *, use_trivialization=True):
        super().__init__()
        if weight.dtype.kind == "c" and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex "
                             "tensors.")
        self.shape = tuple(weight.shape)
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X):
        ac = _ac()
        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = _tril(X)
            if n != k:
                X = ac.concat([X, ac.zeros(X.shape[:-2] + (n, n - k), dtype=X.dtype)], axis=-1)
            A = X - (ac.conj(X.mT) if X.dtype.kind == "c" else X.mT)
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = ac.linalg.matrix_exp(A)
            else:  # Cayley: (I - A/2)^{-1} (I + A/2)
                Id = ac.eye(n, dtype=A.dtype)
                Q = ac.linalg.solve(Id - 0.5 * A, Id + 0.5 * A)
            if n != k:
                Q = Q[..., :k]
        else:
            A = _tril(X, k=-1)
            tau = 2.0 / (1.0 + ac.sum(A * A, axis=-2))
            Q = _householder_product(A, tau)
            # the diagonal of X (+-1 after right_inverse) fixes each column's sign
            Q = Q * ac.astype(ac.trunc(ac.linalg.diagonal(X)), Q.dtype)[..., None, :]
        if getattr(self, "base", None) is not None:
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q):
        ac = _ac()
        if tuple(Q.shape) != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {tuple(Q.shape)}.")
        Q_init = Q
        n, k = Q.shape[-2], Q.shape[-1]
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if "base" not in self._buffers:
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise _NotInvertible("It is not possible to assign to the matrix exponential or "
                                 "the Cayley parametrizations when use_trivialization=False.")
            # Householder without trivialization: the reflectors of Q's QR decomposition,
            # with the diagonal holding the signs.
            A = _householder_inverse(Q)
            return A.mT if transpose else A
        if n == k:
            Q = ac.asarray(Q, copy=True) if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            # complete Q to an n x n orthogonal matrix with random columns
            from ..init import normal_
            N = normal_(ac.empty(Q.shape[:-2] + (n, n - k), dtype=Q.dtype))
            Q = _make_orthogonal(ac.concat([Q, N], axis=-1))
        self.base = Q
        # -Id: with it, forward gives base (matrix_exp(0) = I; householder(0) = -I, whose
        # signs the diagonal -1 flips back).
        return -_eye_like(Q_init, Q_init.shape[-2], Q_init.shape[-1])


def _householder_inverse(Q):
    """Householder vectors A (strictly below the diagonal) and signs (on the diagonal) with
    householder-map(A) = Q for an orthonormal-column Q (n >= k): v_i and tau_i of Q's
    QR decomposition computed column by column."""
    ac = _ac()
    n, k = Q.shape[-2], Q.shape[-1]
    R = ac.asarray(Q, copy=True)
    A = ac.zeros(Q.shape, dtype=Q.dtype)
    for i in range(k):
        x = R[..., i:, i]
        alpha = x[..., 0]
        sign = ac.where(alpha >= 0, ac.ones_like(alpha), -ac.ones_like(alpha))
        normx = ac.linalg.vector_norm(x, axis=-1)
        beta = -sign * normx
        denom = alpha - beta
        denom = ac.where(denom == 0, ac.ones_like(denom), denom)
        tail = x[..., 1:] / denom[..., None]
        v = ac.concat([ac.ones_like(alpha)[..., None], tail], axis=-1)
        tau = 2.0 / (1.0 + ac.sum(tail * tail, axis=-1))
        R_sub = R[..., i:, :]
        R[..., i:, :] = R_sub - (v[..., :, None] * tau[..., None, None]) * \
            (v[..., None, :] @ R_sub)
        A[..., i + 1:, i] = tail
        # Q's column i is (H_1...H_k)[:, i] times sign(R_ii): the map multiplies by the
        # diagonal's integer part, so store it there.
        A[..., i, i] = ac.sign(R[..., i, i])
    return A


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Constrains `module.<name>` (a matrix or batch of matrices) to have orthonormal
    columns (rows, when it is wide).

    `orthogonal_map`: "matrix_exp" (default for square or complex matrices), "cayley" or
    "householder" (default otherwise), as in PyTorch.  With `use_trivialization=True`
    (default) the map is applied around a base orthogonal matrix stored as the buffer
    `parametrizations.<name>[0].base`, initialised from the current weight (Lezcano-Casado,
    "Trivializations for gradient-based optimization on manifolds", 2019).

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Holder(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.weight = nn.Parameter(ac.ones((4, 3), dtype=ac.float64))
    >>> m = nn.utils.parametrizations.orthogonal(Holder())
    >>> bool(ac.all(ac.abs(m.weight.mT @ m.weight - ac.eye(3)) < 1e-12))
    True
    """
    weight = getattr(module, name, None)
    if weight is None or not hasattr(weight, "ndim"):
        raise ValueError(f"Module '{type(module).__name__}' has no parameter or buffer with "
                         f"name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.shape[-2] == weight.shape[-1]
                          or weight.dtype.kind == "c" else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
