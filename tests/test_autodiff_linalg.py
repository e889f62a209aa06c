"""Derivatives of the linalg primitives beyond the table (tests/test_autodiff_ops.py, which
compares every primitive with JAX and finite differences): PyTorch's conventions where the
derivative is not unique (gauge freedom of eigen/singular vectors, extra columns of full
SVD / complete QR, det at singular matrices, vector_norm at 0 and at ties), complex inputs,
Hermitian-input functions, second derivatives, and vmap being one native call.

PyTorch (CPU) is the reference for gauge-invariant losses: the gradient of a loss that does
not depend on the phases of the vectors is unique, and ours must equal PyTorch's.
"""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
from arraycore.native import _native

torch = pytest.importorskip("torch")

from autodiff_op_info_linalg import spectrum  # noqa: E402

RNG = np.random.default_rng(20261123)
HPD, SV, EIG = spectrum("hpd"), spectrum("sv"), spectrum("eig")


def draw(sampler, shape, dtype="float64"):
    return np.asarray(sampler(np.random.RandomState(RNG.integers(1 << 31)), shape,
                              np.dtype(dtype))).astype(dtype)


def randn(shape, dtype="float64"):
    v = RNG.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * RNG.standard_normal(shape)
    return v.astype(dtype)


def ac_grad(loss, *xs):
    """Gradients of a real loss of ac arrays (the tape)."""
    leaves = [ac.asarray(x) for x in xs]
    for x in leaves:
        x.requires_grad_()
    loss(*leaves).backward()
    return [np.asarray(x.grad) for x in leaves]


def torch_grad(loss, *xs):
    leaves = [torch.tensor(x, requires_grad=True) for x in xs]
    loss(*leaves).backward()
    return [x.grad.numpy() for x in leaves]


def assert_close(a, b, rtol=1e-9, what=""):
    scale = max(1.0, float(np.max(np.abs(b)))) if np.size(b) else 1.0
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale, err_msg=what)


# --- gauge-invariant losses of complex decompositions: PyTorch's gradients --------------------

def _weights(shape, real=True):
    return randn(shape, "float64" if real else "complex128")


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3)])
def test_svd_complex_gauge_invariant_loss_matches_torch(shape):
    a = draw(SV, shape, "complex128")
    k = min(shape)
    wu, ws, wv = _weights((shape[0], k)), _weights((k,)), _weights((k, shape[1]))
    # |U|^2, S and |Vh|^2 do not depend on the phases of the singular vectors; nor does
    # U diag(S) Vh (= a), whose gradient ties U's and Vh's phase terms together.
    wa = _weights(shape, real=False)

    def loss(xp, x):
        u, s, vh = xp.linalg.svd(x, full_matrices=False)
        rec = (u * xp.astype(s, u.dtype)[..., None, :]) @ vh
        return (xp.sum(xp.abs(u) ** 2 * xp.asarray(wu)) + xp.sum(s * xp.asarray(ws)) +
                xp.sum(xp.abs(vh) ** 2 * xp.asarray(wv)) + xp.sum(xp.real(rec * xp.asarray(wa))))

    ours = ac_grad(lambda x: loss(ac, x), a)[0]
    ref = torch_grad(lambda x: loss(_TorchNS, x), a)[0]
    assert_close(ours, ref, 1e-9, "svd gradient")


@pytest.mark.parametrize("n", [3, 4])
def test_eig_gauge_invariant_loss_matches_torch(n):
    a = draw(EIG, (n, n), "complex128")
    wv, ww = _weights((n, n)), _weights((n,), real=False)

    def loss(xp, x):
        w, v = xp.linalg.eig(x)
        return xp.sum(xp.abs(v) ** 2 * xp.asarray(wv)) + xp.sum(xp.real(w * xp.asarray(ww)))

    ours = ac_grad(lambda x: loss(ac, x), a)[0]
    ref = torch_grad(lambda x: loss(_TorchNS, x), a)[0]
    assert_close(ours, ref, 1e-8, "eig gradient")


def test_eig_of_real_matrix_gauge_invariant_loss_matches_torch():
    a = draw(EIG, (4, 4))
    wv = _weights((4, 4))

    def loss(xp, x):
        w, v = xp.linalg.eig(x)
        return xp.sum(xp.abs(v) ** 2 * xp.asarray(wv)) + xp.sum(xp.real(w) ** 2)

    assert_close(ac_grad(lambda x: loss(ac, x), a)[0],
                 torch_grad(lambda x: loss(_TorchNS, x), a)[0], 1e-8)


def test_eig_differentiates_lapack_normalization():
    """Eigenvectors come with unit norm and a real largest component (LAPACK); the tangent
    keeps both (so finite differences of any loss agree with the rules)."""
    a = ac.asarray(draw(EIG, (4, 4), "complex128"))
    t = ac.asarray(randn((4, 4), "complex128"))
    (w, v), (dw, dv) = ac.func.jvp(ac.linalg.eig, (a,), (t,))
    v, dv = np.asarray(v), np.asarray(dv)
    assert_close(np.real(np.sum(np.conj(v) * dv, axis=0)), np.zeros(4), 1e-10)
    k = np.argmax(np.abs(v), axis=0)
    assert_close(np.imag(dv[k, np.arange(4)]), np.zeros(4), 1e-10)
    h = 1e-6
    wp, vp = ac.linalg.eig(a + h * t)
    wm, vm = ac.linalg.eig(a - h * t)
    assert_close(dv, (np.asarray(vp) - np.asarray(vm)) / (2 * h), 1e-5, "eigenvectors")
    assert_close(np.asarray(dw), (np.asarray(wp) - np.asarray(wm)) / (2 * h), 1e-5)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eigh_gradient_matches_torch(dtype):
    a = draw(HPD, (4, 4), dtype)
    wv, ww = _weights((4, 4)), _weights((4,))

    def loss(xp, x):
        w, v = xp.linalg.eigh(x)
        return xp.sum(xp.abs(v) ** 2 * xp.asarray(wv)) + xp.sum(w * xp.asarray(ww))

    ours = ac_grad(lambda x: loss(ac, x), a)[0]
    ref = torch_grad(lambda x: loss(_TorchNS, x), a)[0]
    assert_close(ours, ref, 1e-9)
    assert_close(ours, np.conj(ours.T), 1e-12, "the gradient is Hermitian")


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_gradient_matches_torch_on_hermitian_part(dtype, upper):
    a = draw(HPD, (4, 4), dtype)
    w = _weights((4, 4), real=False)

    def loss(xp, x):
        return xp.sum(xp.real(xp.linalg.cholesky(x, upper=upper) * xp.asarray(w)))

    ours = ac_grad(lambda x: loss(ac, x), a)[0]
    # PyTorch's cholesky reads the Hermitian part only through its wrapper in its tests;
    # with x -> (x + x^H) / 2 the function is the one our rules differentiate.
    ref = torch_grad(lambda x: loss(_TorchNS, (x + x.mH) / 2), a)[0]
    assert_close(ours, ref, 1e-9)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "matrix_exp", "pinv", "qr", "lu"])
def test_matrix_functions_match_torch(dtype, name):
    a = draw(SV, (4, 4), dtype) if name != "matrix_exp" else 0.5 * randn((4, 4), dtype)
    ws = [_weights((4, 4), real=False), _weights((4, 4), real=False),
          _weights((4, 4), real=False)]

    def loss(xp, x):
        f = getattr(xp.linalg, name)
        out = f(x)
        outs = list(out) if isinstance(out, tuple) else [out]
        total = 0
        for o, w in zip(outs, ws):
            # (Q's column phases are fixed by R's real diagonal: comparable as they are)
            total = total + xp.sum(xp.real(o * xp.asarray(w if o.ndim == 2 else w[0])))
        return total

    ours = ac_grad(lambda x: loss(ac, x), a)[0]
    ref = torch_grad(lambda x: loss(_TorchNS, x), a)[0]
    assert_close(ours, ref, 1e-8, name)


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_single_precision_gauge_invariant_gradients(dtype):
    """eigh and svd in single precision: the gradient of a gauge-invariant loss agrees with
    the double-precision one (and stays single precision)."""
    a = draw(HPD, (4, 4), dtype)
    b = draw(SV, (4, 3), dtype)
    wv = _weights((4, 4))
    wu = _weights((4, 3))

    def loss(x, y):
        w, v = ac.linalg.eigh(x)
        u, s, vh = ac.linalg.svd(y, full_matrices=False)
        return (ac.sum(ac.abs(v) ** 2 * ac.asarray(wv, dtype=ac.real(v).dtype)) + ac.sum(w) +
                ac.sum(ac.abs(u) ** 2 * ac.asarray(wu, dtype=s.dtype)) + ac.sum(s ** 2))

    g32 = ac_grad(loss, a, b)
    g64 = ac_grad(loss, a.astype(np.complex128 if dtype == "complex64" else np.float64),
                  b.astype(np.complex128 if dtype == "complex64" else np.float64))
    for x, y in zip(g32, g64):
        assert x.dtype == np.dtype(dtype)
        assert_close(x, y, 2e-4)


# --- full SVD / complete QR of rectangular matrices ------------------------------------------

@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
def test_full_svd_gradient_of_reduced_part_is_pytorchs(shape):
    a = draw(SV, shape)
    k = min(shape)
    wu, wv = _weights((shape[0], k)), _weights((k, shape[1]))

    def loss(full):
        def f(x):
            u, s, vh = ac.linalg.svd(x, full_matrices=full)
            # (squares: invariant to the signs of the singular vectors)
            return ac.sum(u[:, :k] ** 2 * ac.asarray(wu)) + \
                ac.sum(vh[:k, :] ** 2 * ac.asarray(wv)) + ac.sum(s)
        return f

    g_full = ac.func.grad(loss(True))(ac.asarray(a))
    g_red = ac.func.grad(loss(False))(ac.asarray(a))
    assert_close(np.asarray(g_full), np.asarray(g_red), 1e-10)

    def tloss(x):
        u, s, vh = torch.linalg.svd(x, full_matrices=True)
        return (u[:, :k] ** 2 * torch.tensor(wu)).sum() + \
            (vh[:k, :] ** 2 * torch.tensor(wv)).sum() + s.sum()
    assert_close(np.asarray(g_full), torch_grad(tloss, a)[0], 1e-9)


@pytest.mark.parametrize("fn", ["svd", "qr"])
def test_extra_columns_stay_orthonormal(fn):
    """The tangent of a full U (svd) / complete Q (qr) keeps it unitary: U^H dU is
    skew-Hermitian, and the vjp is the adjoint of that jvp (gradcheck, forward and reverse)."""
    a = ac.asarray(draw(SV, (5, 3), "complex128"))
    t = ac.asarray(randn((5, 3), "complex128"))
    if fn == "svd":
        f = lambda x: ac.linalg.svd(x, full_matrices=True)  # noqa: E731
    else:
        f = lambda x: ac.linalg.qr(x, mode="complete")  # noqa: E731
    out, tan = ac.func.jvp(f, (a,), (t,))
    u, du = np.asarray(out[0]), np.asarray(tan[0])
    s = np.conj(u.T) @ du
    assert_close(s + np.conj(s.T), np.zeros_like(s), 1e-10)
    # the vjp is the adjoint of this jvp: Re<g, J t> == Re<J^H g, t>
    gs = [ac.asarray(randn(tuple(o.shape), o.dtype.name)) for o in out]
    _, vjp_fn = ac.func.vjp(f, a)
    ct, = vjp_fn(type(out)(*gs))
    lhs = sum(float(np.sum(np.real(np.conj(np.asarray(g)) * np.asarray(d))))
              for g, d in zip(gs, tan))
    rhs = float(np.sum(np.real(np.conj(np.asarray(ct)) * np.asarray(t))))
    assert abs(lhs - rhs) <= 1e-10 * (1 + abs(lhs))


# --- det at singular matrices, vector_norm at zero and ties -------------------------------------

@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("rank", [2, 1])
def test_det_gradient_at_singular_matrix_is_the_adjugate(dtype, rank):
    u, v = randn((3, 3), dtype), randn((3, 3), dtype)
    a = u[:, :rank] @ v[:rank, :]  # rank 2 (adjugate of rank 1) or 1 (adjugate 0)
    ours = ac_grad(lambda x: ac.real(ac.linalg.det(x)), a)[0]
    assert np.all(np.isfinite(ours))
    # d det(A) / dA_ij is the cofactor C_ij (our convention: conj for complex)
    assert_close(ours, np.conj(_cofactors(a)), 1e-9)
    # batched, singular and invertible matrices together
    b = np.stack([a, draw(SV, (3, 3), dtype)])
    ours_b = ac_grad(lambda x: ac.sum(ac.real(ac.linalg.det(x))), b)[0]
    assert_close(ours_b, np.conj(np.stack([_cofactors(m) for m in b])), 1e-9)


def _cofactors(a):
    n = a.shape[0]
    c = np.empty_like(a)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(a, i, axis=0), j, axis=1)
            c[i, j] = (-1) ** (i + j) * np.linalg.det(minor)
    return c


def test_det_second_derivative_at_identity_is_finite():
    """The SVD branch of det's rule never sees repeated singular values (the identity has
    them): d2 det / dA_ij dA_kl at I is d_ij d_kl - d_il d_jk (the 2x2 minors)."""
    h = ac.func.hessian(ac.linalg.det)(ac.eye(3))
    expect = np.einsum("ij,kl->ijkl", np.eye(3), np.eye(3)) - \
        np.einsum("il,jk->ijkl", np.eye(3), np.eye(3))
    assert_close(np.asarray(h), expect, 1e-12)


@pytest.mark.parametrize("ord", [2, 1, 3, 0.5, float("inf")])
def test_vector_norm_at_zero_has_zero_gradient(ord):
    x = np.zeros((2, 3))
    ours = ac_grad(lambda v: ac.sum(ac.linalg.vector_norm(v, axis=-1, ord=ord)), x)[0]
    np.testing.assert_array_equal(ours, np.zeros((2, 3)))
    ref = torch_grad(lambda v: torch.linalg.vector_norm(v, dim=-1, ord=ord).sum(), x)[0]
    np.testing.assert_array_equal(ours, ref)


def test_vector_norm_with_zeros_and_complex_matches_torch():
    x = randn((3, 4), "complex128")
    x[0, 1] = 0
    for ord in (2, 1, 3, 1.5, float("inf"), float("-inf")):
        ours = ac_grad(lambda v: ac.sum(ac.linalg.vector_norm(v, axis=1, ord=ord)), x)[0]
        ref = torch_grad(lambda v: torch.linalg.vector_norm(v, dim=1, ord=ord).sum(), x)[0]
        assert_close(ours, ref, 1e-12, f"ord={ord}")


def test_vector_norm_inf_splits_ties_evenly():
    x = np.array([1.0, -3.0, 3.0, 2.0])
    ours = ac_grad(lambda v: ac.linalg.vector_norm(v, ord=float("inf")), x)[0]
    np.testing.assert_array_equal(ours, [0.0, -0.5, 0.5, 0.0])


# --- second derivatives -----------------------------------------------------------------------

@pytest.mark.parametrize("name,sampler,shape", [
    ("eigh", HPD, (3, 3)), ("svd", SV, (4, 3)), ("cholesky", HPD, (3, 3)),
    ("qr", SV, (4, 3)), ("solve", SV, (3, 3)), ("eig", EIG, (3, 3)),
    ("lu_factor", SV, (3, 3)), ("matrix_exp", SV, (2, 2))])
def test_gradgradcheck(name, sampler, shape):
    a = ac.asarray(draw(sampler, shape))
    a.requires_grad_()
    w = [ac.asarray(randn((4, 4)))]

    def f(x):
        if name in ("eigh", "cholesky"):
            x = (x + ac.matrix_transpose(x)) / 2
        if name == "solve":
            return ac.linalg.solve(x, w[0][:3, :2])
        if name == "svd":
            return ac.linalg.svd(x, full_matrices=False)
        out = getattr(ac.linalg, name)(x)
        if name == "lu_factor":
            return out[0]
        return out

    assert ac.autograd.gradgradcheck(f, (a,))


# --- vmap: one native call ----------------------------------------------------------------------

class Calls:
    def __init__(self, fn):
        self.fn, self.n = fn, 0

    def __call__(self, *a, **k):
        self.n += 1
        return self.fn(*a, **k)


PIV = np.array([2, 3, 3], dtype=np.int32)


@pytest.mark.parametrize("native,fn,args,dims", [
    ("linalg_det", lambda x: ac.linalg.det(x), ((5, 3, 3),), (0,)),
    ("linalg_solve", lambda a, b: ac.linalg.solve(a, b), ((3, 3), (3, 5)), (None, 1)),
    ("linalg_solve", lambda a, b: ac.linalg.solve(a, b), ((5, 3, 3), (5, 3)), (0, 0)),
    ("linalg_eigh", lambda x: ac.linalg.eigh(x), ((2, 5, 3, 3),), (1,)),
    ("linalg_svd", lambda x: ac.linalg.svd(x, full_matrices=False), ((4, 3, 5),), (0,)),
    ("linalg_lu_solve", lambda lu, b: ac.linalg.lu_solve(lu, ac.asarray(PIV), b),
     ((5, 3, 3), (3, 2)), (0, None)),
])
def test_vmap_is_one_native_call(monkeypatch, native, fn, args, dims):
    if not hasattr(_native, native):
        pytest.skip(f"_native.{native} not available")
    xs = [draw(SV, s) if s[-1] == s[-2] else randn(s) for s in args]
    xs = [x + np.swapaxes(x, -1, -2) if native == "linalg_eigh" else x for x in xs]
    c = Calls(getattr(_native, native))
    monkeypatch.setattr(_native, native, c)
    out = ac.func.vmap(fn, in_dims=dims)(*[ac.asarray(x) for x in xs])
    assert c.n == 1, f"{c.n} calls of _native.{native}"
    # and the values are the stacked per-example results
    size = [x.shape[d] for x, d in zip(xs, dims) if d is not None][0]
    outs = list(out) if isinstance(out, tuple) else [out]
    for i in range(size):
        ex = [ac.asarray(x if d is None else np.take(x, i, axis=d)) for x, d in zip(xs, dims)]
        single = fn(*ex)
        singles = list(single) if isinstance(single, tuple) else [single]
        for o, s1 in zip(outs, singles):
            assert_close(np.asarray(o)[i], np.asarray(s1), 1e-12)


def test_vmap_of_grad_of_det_and_solve_vector_rhs():
    a = draw(SV, (4, 3, 3))
    b = randn((4, 3))
    g = ac.func.vmap(ac.func.grad(lambda x, y: ac.sum(ac.linalg.solve(x, y)) +
                                  ac.linalg.det(x), argnums=(0, 1)))(ac.asarray(a),
                                                                     ac.asarray(b))
    for i in range(4):
        ref = torch_grad(lambda x, y: torch.linalg.solve(x, y).sum() + torch.linalg.det(x),
                         a[i], b[i])
        assert_close(np.asarray(g[0])[i], ref[0], 1e-10)
        assert_close(np.asarray(g[1])[i], ref[1], 1e-10)


def test_jacfwd_equals_jacrev_for_lstsq_and_pinv():
    a = ac.asarray(draw(SV, (4, 3)))
    b = ac.asarray(randn((4,)))
    f = lambda x: ac.linalg.lstsq(x, b)[0]  # noqa: E731
    assert_close(np.asarray(ac.func.jacfwd(f)(a)), np.asarray(ac.func.jacrev(f)(a)), 1e-10)
    jf = ac.func.jacfwd(ac.linalg.pinv)(a)
    jr = ac.func.jacrev(ac.linalg.pinv)(a)
    assert_close(np.asarray(jf), np.asarray(jr), 1e-10)


# --- a tiny torch namespace for the shared losses ------------------------------------------------

class _TorchLinalg:
    def __getattr__(self, name):
        return getattr(torch.linalg, name)

    @staticmethod
    def svd(x, full_matrices=True):
        return torch.linalg.svd(x, full_matrices=full_matrices)

    @staticmethod
    def cholesky(x, upper=False):
        return torch.linalg.cholesky(x, upper=upper)

    @staticmethod
    def matrix_exp(x):
        return torch.linalg.matrix_exp(x)


class _TorchNS:
    linalg = _TorchLinalg()

    @staticmethod
    def sum(x):
        return x.sum()

    @staticmethod
    def asarray(x):
        return torch.tensor(x)

    @staticmethod
    def abs(x):
        return x.abs()

    @staticmethod
    def real(x):
        return x.real if x.is_complex() else x

    @staticmethod
    def astype(x, dtype):
        return x.to(dtype)


# --- the composites of ac.linalg differentiate through the primitives ----------------------------

@pytest.mark.parametrize("name,ac_fn,torch_fn", [
    ("matrix_norm fro", lambda x: ac.linalg.matrix_norm(x),
     lambda x: torch.linalg.matrix_norm(x)),
    ("matrix_norm nuc", lambda x: ac.linalg.matrix_norm(x, ord="nuc"),
     lambda x: torch.linalg.matrix_norm(x, ord="nuc")),
    ("matrix_norm 2", lambda x: ac.linalg.matrix_norm(x, ord=2),
     lambda x: torch.linalg.matrix_norm(x, ord=2)),
    ("matrix_norm -2", lambda x: ac.linalg.matrix_norm(x, ord=-2),
     lambda x: torch.linalg.matrix_norm(x, ord=-2)),
    ("matrix_norm 1", lambda x: ac.linalg.matrix_norm(x, ord=1),
     lambda x: torch.linalg.matrix_norm(x, ord=1)),
    ("matrix_norm -inf", lambda x: ac.linalg.matrix_norm(x, ord=-float("inf")),
     lambda x: torch.linalg.matrix_norm(x, ord=-float("inf"))),
    ("cond", lambda x: ac.linalg.cond(x), lambda x: torch.linalg.cond(x)),
    ("matrix_power -2", lambda x: ac.sum(ac.linalg.matrix_power(x, -2)),
     lambda x: torch.linalg.matrix_power(x, -2).sum()),
    ("matrix_power 5", lambda x: ac.sum(ac.linalg.matrix_power(x, 5)),
     lambda x: torch.linalg.matrix_power(x, 5).sum()),
    ("multi_dot", lambda x: ac.sum(ac.linalg.multi_dot([x, ac.matrix_transpose(x), x])),
     lambda x: torch.linalg.multi_dot([x, x.mT, x]).sum()),
    ("norm", lambda x: ac.linalg.norm(x), lambda x: torch.linalg.norm(x)),
    ("cross", lambda x: ac.sum(ac.linalg.cross(x, ac.flip(x, axis=0)) ** 2),
     lambda x: (torch.linalg.cross(x, x.flip(0)) ** 2).sum()),
])
def test_composites_match_torch(name, ac_fn, torch_fn):
    a = draw(SV, (3, 3))
    ours = ac_grad(lambda x: ac.sum(ac_fn(x)), a)[0]
    ref = torch_grad(lambda x: torch_fn(x).sum(), a)[0]
    assert_close(ours, ref, 1e-9, name)


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0)])
@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "eigh", "eigvalsh", "svd", "svdvals",
                                  "qr", "cholesky", "matrix_exp", "pinv", "eig", "eigvals",
                                  "lu", "lu_factor"])
def test_empty_matrices(name, shape):
    """Gradients and tangents of empty (stacks of) matrices: zeros of the input's shape."""
    f = getattr(ac.linalg, name)

    def loss(a):
        out = f(a)
        outs = list(out) if isinstance(out, tuple) else [out]
        return sum(ac.sum(ac.abs(o)) for o in outs if o.dtype.kind in "fc")

    g = ac.func.grad(loss)(ac.zeros(shape))
    assert g.shape == shape and not np.any(np.asarray(g))
    _, tan = ac.func.jvp(f, (ac.zeros(shape),), (ac.zeros(shape),))
    for t in (tan if isinstance(tan, tuple) else (tan,)):
        assert not np.any(np.asarray(t))
