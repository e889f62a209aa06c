"""arraycore.linalg, forward values: every public function against NumPy / SciPy / PyTorch.

For each function: the four floating dtypes (single precision stays single) and integer
promotion to float64; unbatched, batched and broadcast batch shapes; empty batches and 0x0
matrices where NumPy accepts them; transposed, negative-stride and stride-0 inputs; every
keyword; the errors (LinAlgError naming the function and the batch index, TypeError for bool
or non-arrays, ValueError for shapes); NaN input that must neither hang nor crash.
Decompositions that are unique only up to phases (eigenvectors, singular vectors, Q) are
checked by reconstruction and unitarity instead of entrywise.
"""

import math

import numpy as np
import pytest
import scipy.linalg
import torch

import arraycore as ac
from arraycore.native import _native

LA = ac.linalg
FLOATING = ["float32", "float64", "complex64", "complex128"]
INTS = ["int8", "int32", "int64", "uint8"]
REAL_OF = {"float32": "float32", "float64": "float64", "complex64": "float32",
           "complex128": "float64"}
COMPLEX_OF = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
              "complex128": "complex128"}
BATCHES = [(), (3,), (2, 1)]


# --------------------------------------------------------------------------- helpers

def rand(shape, dtype, rng):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    return rng.integers(-4 if dt.kind == "i" else 0, 5, size=shape).astype(dt)


def well_conditioned(shape, dtype, rng):
    """Random square matrices with a dominant diagonal (condition number ~ a few)."""
    a = rand(shape, dtype, rng)
    n = shape[-1]
    return (a + (2 * n + 2) * np.eye(n, dtype=a.dtype)).astype(a.dtype)


def hermitian_pd(shape, dtype, rng):
    a = rand(shape, dtype, rng)
    n = shape[-1]
    h = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)
    return h.astype(dtype)


def A(a):
    """arraycore copy of a NumPy array."""
    return ac.asarray(np.array(a, order="C"), copy=True)


def N(x):
    return np.asarray(x)


def tol(dtype, scale=1.0):
    single = np.dtype(dtype) in (np.float32, np.complex64)
    return (2e-4 if single else 1e-10) * scale


def close(actual, expected, dtype=None, scale=1.0, check_dtype=True):
    """Values (and dtype, shape) of an arraycore result against a reference."""
    expected = np.asarray(expected)
    got = N(actual)
    if check_dtype:
        want = np.dtype(dtype) if dtype is not None else expected.dtype
        assert got.dtype == want, f"dtype {got.dtype}, expected {want}"
    assert got.shape == expected.shape, f"shape {got.shape}, expected {expected.shape}"
    t = tol(got.dtype if got.dtype.kind in "fc" else np.float64, scale)
    np.testing.assert_allclose(got, expected.astype(got.dtype) if got.dtype.kind in "fc"
                               else expected, rtol=t, atol=t)


def ct(a):
    return np.conj(np.swapaxes(a, -1, -2))


# Layouts: (name, view) applied to a NumPy base array and its arraycore mirror alike.
LAYOUTS = [
    ("transposed", lambda a: a.mT if hasattr(a, "mT") else np.swapaxes(a, -1, -2)),
    ("negative_stride", lambda a: a[..., ::-1, :]),
    ("strided", lambda a: a[..., ::2, ::2]),
]


def layout_pair(name, base):
    view = dict(LAYOUTS)[name]
    return view(base), view(A(base))


def broadcast_pair(base, shape):
    return np.broadcast_to(base, shape), ac.broadcast_to(A(base), shape)


# --------------------------------------------------------------------------- namespace

STANDARD = """cholesky cross det diagonal eig eigh eigvals eigvalsh inv matmul matrix_norm
matrix_power matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot
trace vecdot vector_norm""".split()
EXTRA = """cond lstsq multi_dot norm tensorinv tensorsolve lu lu_factor lu_solve
solve_triangular matrix_exp vander""".split()


def test_namespace_has_every_function_documented():
    assert len(STANDARD) == 25
    assert ac.linalg is LA and "linalg" in ac.__all__
    for name in STANDARD + EXTRA:
        assert name in LA.__all__, name
        f = getattr(LA, name)
        assert callable(f) and f.__doc__, name


def test_shared_functions_are_the_main_namespace_ones():
    for name in ("matmul", "matrix_transpose", "tensordot", "vecdot"):
        assert getattr(LA, name) is getattr(ac, name)


def test_namespace_reaches_linalg_through_array_namespace():
    assert A(np.eye(2)).__array_namespace__().linalg is LA


def test_linalg_error_is_a_value_error():
    assert issubclass(LA.LinAlgError, ValueError)
    assert LA.LinAlgError is _native.LinAlgError


# --------------------------------------------------------------------------- cholesky

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dtype, batch, upper, rng):
    a = hermitian_pd(batch + (5, 5), dtype, rng)
    close(LA.cholesky(A(a), upper=upper), np.linalg.cholesky(a, upper=upper), dtype, 10)


def test_cholesky_reads_one_triangle(rng):
    a = hermitian_pd((4, 4), "float64", rng)
    junk = a + np.triu(np.full((4, 4), 7.0), 1)  # garbage above the diagonal
    close(LA.cholesky(A(junk)), np.linalg.cholesky(a))
    junk = a + np.tril(np.full((4, 4), 7.0), -1)
    close(LA.cholesky(A(junk), upper=True), np.linalg.cholesky(a, upper=True))


def test_cholesky_not_positive_definite_names_batch_index(rng):
    a = hermitian_pd((3, 4, 4), "float64", rng)
    a[2] = -a[2]
    with pytest.raises(LA.LinAlgError, match=r"cholesky.*batch index 2"):
        LA.cholesky(A(a))
    with pytest.raises(LA.LinAlgError, match="cholesky"):
        LA.cholesky(A(-np.eye(3)))


# --------------------------------------------------------------------------- det, slogdet, inv

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("batch", BATCHES + [(2, 3)])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 9])
def test_det_slogdet_inv(dtype, batch, n, rng):
    a = rand(batch + (n, n), dtype, rng) + 0.5 * np.eye(n, dtype=dtype)
    x = A(a)
    close(LA.det(x), np.linalg.det(a), dtype, 10 * n)
    s, l = LA.slogdet(x)
    rs, rl = np.linalg.slogdet(a)
    close(s, rs, dtype, 10 * n)
    close(l, rl, REAL_OF[dtype], 10 * n)
    b = well_conditioned(batch + (n, n), dtype, rng)
    close(LA.inv(A(b)), np.linalg.inv(b), dtype, 10)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_large_batches_of_small_matrices(n, dtype, rng):
    # Enough matrices to be split across the pool; n <= 4 takes the closed-form kernels.
    a = well_conditioned((517, n, n), dtype, rng)
    b = rand((517, n, 2), dtype, rng)
    h = hermitian_pd((517, n, n), dtype, rng)
    x = A(a)
    close(LA.det(x), np.linalg.det(a), dtype, 20)
    close(LA.slogdet(x).logabsdet, np.linalg.slogdet(a).logabsdet, REAL_OF[dtype], 20)
    close(LA.inv(x), np.linalg.inv(a), dtype, 20)
    close(LA.solve(x, A(b)), np.linalg.solve(a, b), dtype, 20)
    close(LA.cholesky(A(h)), np.linalg.cholesky(h), dtype, 20)
    close(LA.eigvalsh(A(h)), np.linalg.eigvalsh(h), REAL_OF[dtype], 20 * n)
    close(LA.svdvals(x), np.linalg.svdvals(a), REAL_OF[dtype], 20 * n)


def test_slogdet_and_det_of_singular_matrices():
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[2.0, 0], [0, -3]]])
    close(LA.det(A(a)), np.linalg.det(a))
    s, l = LA.slogdet(A(a))
    np.testing.assert_array_equal(N(s), [0.0, 0.0, -1.0])
    assert N(l)[0] == -np.inf and N(l)[1] == -np.inf
    close(l[2], np.log(6.0))


def test_slogdet_complex_sign_is_unit(rng):
    a = rand((3, 4, 4), "complex128", rng)
    s, l = LA.slogdet(A(a))
    close(ac.abs(s), np.ones(3))
    close(s * ac.exp(ac.astype(l, ac.complex128)), np.linalg.det(a))


@pytest.mark.parametrize("dtype", INTS)
def test_integer_input_is_promoted_to_float64(dtype, rng):
    a = np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]], dtype=dtype)
    f = a.astype(np.float64)
    close(LA.det(A(a)), np.linalg.det(f), "float64")
    close(LA.inv(A(a)), np.linalg.inv(f), "float64")
    close(LA.cholesky(A(a)), np.linalg.cholesky(f), "float64")
    close(LA.eigvalsh(A(a)), np.linalg.eigvalsh(f), "float64")
    close(LA.svdvals(A(a)), np.linalg.svdvals(f), "float64")
    close(LA.solve(A(a), A(a[0])), np.linalg.solve(f, f[0]), "float64")
    close(LA.vector_norm(A(a)), np.linalg.vector_norm(f), "float64")
    close(LA.matrix_norm(A(a), ord="nuc"), np.linalg.matrix_norm(f, ord="nuc"), "float64")
    close(LA.pinv(A(a)), np.linalg.pinv(f), "float64")
    close(LA.matrix_exp(A(a)), scipy.linalg.expm(f), "float64")
    w = LA.eigvals(A(a))
    assert w.dtype == ac.complex128


@pytest.mark.parametrize("fn", ["det", "inv", "slogdet", "cholesky"])
@pytest.mark.parametrize("layout", [name for name, _ in LAYOUTS if name != "strided"])
def test_square_functions_on_views(fn, layout, rng):
    base = hermitian_pd((2, 5, 5), "float64", rng)
    nv, av = layout_pair(layout, base)
    if fn == "cholesky":  # the same (positive-definite) values behind the layout
        nv = base
        av = A(base.mT).mT if layout == "transposed" else A(base[..., ::-1, :])[..., ::-1, :]
    ref = getattr(np.linalg, fn)(nv)
    got = getattr(LA, fn)(av)
    if fn == "slogdet":
        close(got[0], ref[0])
        close(got[1], ref[1])
    else:
        close(got, ref)


def test_inv_and_det_of_broadcast_stride0_input(rng):
    base = well_conditioned((1, 4, 4), "float64", rng)
    nb, ab = broadcast_pair(base, (3, 4, 4))
    close(LA.inv(ab), np.linalg.inv(nb))
    close(LA.det(ab), np.linalg.det(nb))


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 3, 3), (2, 0, 4, 4)])
def test_empty_square(shape):
    a = np.zeros(shape)
    close(LA.det(A(a)), np.linalg.det(a))
    s, l = LA.slogdet(A(a))
    rs, rl = np.linalg.slogdet(a)
    close(s, rs)
    close(l, rl)
    close(LA.inv(A(a)), np.linalg.inv(a))
    close(LA.cholesky(A(a)), np.linalg.cholesky(a))
    close(LA.eigvalsh(A(a)), np.linalg.eigvalsh(a))
    assert LA.eigh(A(a)).eigenvectors.shape == shape
    assert LA.eig(A(a)).eigenvalues.shape == shape[:-1]
    close(LA.matrix_exp(A(a)), np.zeros(shape))
    close(LA.solve(A(a), A(np.zeros(shape[:-1] + (2,)))), np.zeros(shape[:-1] + (2,)))


def test_inv_singular_names_batch_index():
    a = np.stack([np.eye(3), np.eye(3), np.ones((3, 3))])
    with pytest.raises(LA.LinAlgError, match=r"inv.*batch index 2"):
        LA.inv(A(a))
    with pytest.raises(LA.LinAlgError, match="inv") as e:
        LA.inv(A(np.zeros((2, 2))))
    assert "batch index" not in str(e.value)


def test_matrix_power_negative_uses_inverse_and_reports_its_name():
    with pytest.raises(LA.LinAlgError, match="inv|matrix_power"):
        LA.matrix_power(A(np.zeros((2, 2))), -1)


# --------------------------------------------------------------------------- eigh, eig

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_eigh(dtype, batch, n, rng):
    a = rand(batch + (n, n), dtype, rng)
    h = (a + ct(a)) / 2
    w, v = LA.eigh(A(h))
    rw = np.linalg.eigvalsh(h)
    close(w, rw, REAL_OF[dtype], 10 * n)
    wn, vn = N(w), N(v)
    assert vn.dtype == np.dtype(dtype)
    np.testing.assert_allclose(vn @ (wn[..., :, None] * ct(vn)), h, atol=tol(dtype, 10 * n))
    np.testing.assert_allclose(ct(vn) @ vn, np.broadcast_to(np.eye(n), h.shape),
                               atol=tol(dtype, 10 * n))
    close(LA.eigvalsh(A(h)), rw, REAL_OF[dtype], 10 * n)


@pytest.mark.parametrize("UPLO", ["L", "U"])
def test_eigh_reads_the_triangle_named_by_uplo(UPLO, rng):
    a = rand((5, 5), "complex128", rng)
    close(LA.eigvalsh(A(a), UPLO=UPLO), np.linalg.eigvalsh(a, UPLO=UPLO))
    close(LA.eigh(A(a), UPLO=UPLO).eigenvalues, np.linalg.eigh(a, UPLO=UPLO).eigenvalues)
    with pytest.raises(ValueError, match="eigh"):
        LA.eigh(A(a), UPLO="X")


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("n", [1, 3, 6])
def test_eig(dtype, batch, n, rng):
    a = rand(batch + (n, n), dtype, rng)
    w, v = LA.eig(A(a))
    c = COMPLEX_OF[dtype]
    assert w.dtype == getattr(ac, c) and v.dtype == getattr(ac, c)
    wn, vn = N(w), N(v)
    np.testing.assert_allclose(a @ vn, vn * wn[..., None, :], atol=tol(dtype, 50 * n))
    np.testing.assert_allclose(np.linalg.norm(vn, axis=-2), np.ones(batch + (n,)),
                               atol=tol(dtype, 10))
    ref = np.linalg.eigvals(a.astype(np.complex128))
    got = N(LA.eigvals(A(a)))
    assert got.dtype == np.dtype(c)
    key = lambda z: np.sort_complex(np.round(z, 3))  # noqa: E731
    np.testing.assert_allclose(key(got), key(ref), atol=tol(dtype, 1e3 * n) + 2e-3)


def test_eig_of_real_matrix_with_complex_eigenvalues():
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    w = N(LA.eigvals(A(rot)))
    np.testing.assert_allclose(np.sort_complex(w), [-1j, 1j], atol=1e-14)


# --------------------------------------------------------------------------- svd, qr

SVD_SHAPES = [(4, 4), (6, 3), (3, 6), (2, 5, 3), (2, 1, 3, 5)]


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", SVD_SHAPES)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd(dtype, shape, full_matrices, rng):
    a = rand(shape, dtype, rng)
    u, s, vh = (N(t) for t in LA.svd(A(a), full_matrices=full_matrices))
    ru, rs, rvh = np.linalg.svd(a, full_matrices=full_matrices)
    assert u.shape == ru.shape and vh.shape == rvh.shape and u.dtype == np.dtype(dtype)
    close(s, rs, REAL_OF[dtype], 10)
    k = min(shape[-2:])
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a,
                               atol=tol(dtype, 20))
    m, n = shape[-2:]
    np.testing.assert_allclose(ct(u) @ u, np.broadcast_to(np.eye(u.shape[-1]),
                                                          shape[:-2] + (u.shape[-1],) * 2),
                               atol=tol(dtype, 20))
    np.testing.assert_allclose(vh @ ct(vh), np.broadcast_to(np.eye(vh.shape[-2]),
                                                            shape[:-2] + (vh.shape[-2],) * 2),
                               atol=tol(dtype, 20))
    close(LA.svdvals(A(a)), rs, REAL_OF[dtype], 10)


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 0, 4)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_and_qr_of_empty_matrices(shape, full_matrices):
    a = np.zeros(shape)
    got = LA.svd(A(a), full_matrices=full_matrices)
    ref = np.linalg.svd(a, full_matrices=full_matrices)
    for g, r in zip(got, ref):
        close(g, r)
    close(LA.svdvals(A(a)), np.linalg.svdvals(a))
    for mode in ("reduced", "complete"):
        for g, r in zip(LA.qr(A(a), mode=mode), np.linalg.qr(a, mode=mode)):
            close(g, r)
    close(LA.pinv(A(a)), np.linalg.pinv(a))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", SVD_SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(dtype, shape, mode, rng):
    a = rand(shape, dtype, rng)
    ref = np.linalg.qr(a, mode=mode)
    if mode == "r":
        r = N(LA.qr(A(a), mode="r"))
        np.testing.assert_allclose(np.abs(r), np.abs(ref), atol=tol(dtype, 20))
        return
    q, r = (N(t) for t in LA.qr(A(a), mode=mode))
    assert q.shape == ref[0].shape and r.shape == ref[1].shape and q.dtype == np.dtype(dtype)
    np.testing.assert_allclose(q @ r, a, atol=tol(dtype, 20))
    np.testing.assert_allclose(ct(q) @ q, np.broadcast_to(np.eye(q.shape[-1]),
                                                          shape[:-2] + (q.shape[-1],) * 2),
                               atol=tol(dtype, 20))
    np.testing.assert_array_equal(np.tril(r, -1), 0)
    np.testing.assert_allclose(np.abs(r), np.abs(ref[1]), atol=tol(dtype, 20))


def test_qr_bad_mode():
    with pytest.raises(ValueError, match="qr"):
        LA.qr(A(np.eye(2)), mode="raw")


@pytest.mark.parametrize("layout", [name for name, _ in LAYOUTS])
def test_decompositions_on_views(layout, rng):
    base = rand((2, 6, 6), "complex128", rng)
    nv, av = layout_pair(layout, base)
    close(LA.svdvals(av), np.linalg.svdvals(nv))
    close(LA.eigvalsh(av, UPLO="U"), np.linalg.eigvalsh(nv, UPLO="U"))
    q, r = LA.qr(av)
    np.testing.assert_allclose(N(q) @ N(r), nv, atol=1e-12)
    np.testing.assert_allclose(np.sort_complex(N(LA.eigvals(av))),
                               np.sort_complex(np.linalg.eigvals(nv)), atol=1e-10)


# --------------------------------------------------------------------------- solve

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shapes", [((4, 4), (4,)), ((4, 4), (4, 2)), ((3, 4, 4), (4,)),
                                    ((3, 4, 4), (3, 4, 2)), ((2, 1, 4, 4), (3, 4, 1)),
                                    ((4, 4), (5, 4, 3)), ((1, 4, 4), (2, 4, 4))])
def test_solve(dtype, shapes, rng):
    sa, sb = shapes
    a = well_conditioned(sa, dtype, rng)
    b = rand(sb, dtype, rng)
    close(LA.solve(A(a), A(b)), np.linalg.solve(a, b), dtype, 10)


def test_solve_vector_rhs_follows_the_2025_rule(rng):
    # x2 of shape (M,) is one vector even when x1 is stacked: result x1.shape[:-2] + (M,).
    a = well_conditioned((2, 3, 3), "float64", rng)
    b = rand((3,), "float64", rng)
    out = LA.solve(A(a), A(b))
    assert out.shape == (2, 3)
    close(out, np.linalg.solve(a, b))


@pytest.mark.parametrize("d1,d2", [("float32", "float64"), ("int64", "float32"),
                                   ("float32", "complex64"), ("int32", "int8"),
                                   ("complex64", "float64")])
def test_solve_mixed_dtypes_promote(d1, d2, rng):
    a = well_conditioned((3, 3), "float64", rng).astype(d1) if np.dtype(d1).kind != "i" \
        else np.array([[3, 1, 0], [1, 4, 1], [0, 1, 5]], dtype=d1)
    b = rand((3, 2), d2, rng)
    want = np.result_type(np.float64 if a.dtype.kind in "iu" else a.dtype,
                          np.float64 if b.dtype.kind in "iu" else b.dtype)
    close(LA.solve(A(a), A(b)), np.linalg.solve(a.astype(want), b.astype(want)), want, 10)


def test_solve_on_views_and_stride0(rng):
    a = well_conditioned((2, 5, 5), "float64", rng)
    b = rand((2, 5, 3), "float64", rng)
    close(LA.solve(A(a).mT, A(b)[..., ::-1, :]), np.linalg.solve(a.mT, b[..., ::-1, :]))
    nb, ab = broadcast_pair(b[:1], (4, 2, 5, 3))
    close(LA.solve(A(a), ab), np.linalg.solve(a, nb))


def test_solve_singular_names_batch_index():
    a = np.stack([np.eye(2), np.array([[1.0, 2.0], [2.0, 4.0]])])
    with pytest.raises(LA.LinAlgError, match=r"solve.*batch index 1"):
        LA.solve(A(a), A(np.ones((2, 2, 1))))


def test_solve_shape_errors():
    with pytest.raises(ValueError, match="solve"):
        LA.solve(A(np.eye(3)), A(np.ones(4)))
    with pytest.raises(ValueError, match="solve"):
        LA.solve(A(np.ones((3, 4))), A(np.ones(3)))
    with pytest.raises(ValueError, match="solve"):
        LA.solve(A(np.ones((2, 3, 3))), A(np.ones((4, 3, 1))))


# --------------------------------------------------------------------------- lu & triangular

def T(a):
    return torch.from_numpy(np.array(a))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5), (5, 3), (3, 5), (2, 1, 4, 4)])
def test_lu_factor_and_lu(dtype, shape, rng):
    a = rand(shape, dtype, rng)
    lu_, piv = LA.lu_factor(A(a))
    rlu, rpiv = torch.linalg.lu_factor(T(a))
    assert piv.dtype == ac.int32
    np.testing.assert_array_equal(N(piv), rpiv.numpy())
    close(lu_, rlu.numpy(), dtype, 20)
    P, L, U = LA.lu(A(a))
    rP, rL, rU = torch.linalg.lu(T(a))
    close(P, rP.numpy(), dtype)
    close(L, rL.numpy(), dtype, 20)
    close(U, rU.numpy(), dtype, 20)


def test_lu_without_pivoting(rng):
    a = well_conditioned((2, 4, 4), "float64", rng)
    P, L, U = (N(t) for t in LA.lu(A(a), pivot=False))
    np.testing.assert_array_equal(P, np.broadcast_to(np.eye(4), (2, 4, 4)))
    np.testing.assert_allclose(L @ U, a, atol=1e-12)
    np.testing.assert_array_equal(np.triu(L, 1), 0)
    np.testing.assert_allclose(np.diagonal(L, axis1=-2, axis2=-1), 1)
    lu_, piv = LA.lu_factor(A(a), pivot=False)
    np.testing.assert_array_equal(N(piv), [[1, 2, 3, 4]] * 2)
    close(LA.lu_solve(lu_, piv, A(a)), np.broadcast_to(np.eye(4), (2, 4, 4)))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve(dtype, left, adjoint, rng):
    a = well_conditioned((3, 4, 4), dtype, rng)
    b = rand((3, 4, 2) if left else (3, 2, 4), dtype, rng)
    lu_, piv = LA.lu_factor(A(a))
    rlu, rpiv = torch.linalg.lu_factor(T(a))
    ref = torch.linalg.lu_solve(rlu, rpiv, T(b), left=left, adjoint=adjoint)
    ref = ref.resolve_conj().numpy()
    close(LA.lu_solve(lu_, piv, A(b), left=left, adjoint=adjoint), ref, dtype, 10)


def test_lu_solve_broadcasts_batches_and_pivots(rng):
    a = well_conditioned((2, 1, 4, 4), "float64", rng)
    b = rand((3, 4, 2), "float64", rng)
    lu_, piv = LA.lu_factor(A(a))
    close(LA.lu_solve(lu_, piv, A(b)), np.linalg.solve(a, b))
    # pivots with fewer batch dims than LU (one factorization shared by a batch of B)
    lu1, piv1 = LA.lu_factor(A(a[0, 0]))
    close(LA.lu_solve(lu1, piv1, A(b)), np.linalg.solve(a[0, 0], b))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_solve_triangular(dtype, upper, left, unitriangular, rng):
    a = well_conditioned((2, 5, 5), dtype, rng)
    b = rand((2, 5, 3) if left else (2, 3, 5), dtype, rng)
    ref = torch.linalg.solve_triangular(T(a), T(b), upper=upper, left=left,
                                        unitriangular=unitriangular).numpy()
    got = LA.solve_triangular(A(a), A(b), upper=upper, left=left, unitriangular=unitriangular)
    close(got, ref, dtype, 10)


def test_solve_triangular_broadcast_and_views(rng):
    a = well_conditioned((3, 1, 4, 4), "float64", rng)
    b = rand((2, 4, 5), "float64", rng)
    ref = torch.linalg.solve_triangular(T(a).mT, T(b[..., ::-1, :]), upper=True).numpy()
    close(LA.solve_triangular(A(a).mT, A(b)[..., ::-1, :], upper=True), ref)
    with pytest.raises(TypeError):
        LA.solve_triangular(A(a), A(b))  # upper is required


def test_solve_triangular_zero_diagonal_gives_inf_not_error():
    a = np.array([[0.0, 1.0], [0.0, 1.0]])
    out = N(LA.solve_triangular(A(a), A(np.ones((2, 1))), upper=True))
    assert not np.isfinite(out).all()


# --------------------------------------------------------------------------- lstsq, pinv, rank

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shapes", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3, 2)),
                                    ((4, 4), (4, 1))])
def test_lstsq(dtype, shapes, rng):
    a = rand(shapes[0], dtype, rng)
    b = rand(shapes[1], dtype, rng)
    x, res, rank, s = LA.lstsq(A(a), A(b))
    rx, rres, rrank, rs = np.linalg.lstsq(a, b)
    close(x, rx, dtype, 50)
    close(res, rres, REAL_OF[dtype], 50)
    assert int(rank) == rrank and rank.dtype == ac.int64
    close(s, rs, REAL_OF[dtype], 10)


def test_lstsq_rank_deficient_and_rcond(rng):
    a = rand((6, 2), "float64", rng)
    a = np.concatenate([a, a[:, :1] * 2], axis=1)  # rank 2
    b = rand((6, 2), "float64", rng)
    x, res, rank, s = LA.lstsq(A(a), A(b))
    rx, rres, rrank, rs = np.linalg.lstsq(a, b)
    close(x, rx, scale=100)
    assert int(rank) == 2 and res.shape == (0,)
    x, res, rank, s = LA.lstsq(A(a), A(b), rcond=0.9)
    rx, rres, rrank, rs = np.linalg.lstsq(a, b, rcond=0.9)
    close(x, rx, scale=100)
    assert int(rank) == rrank


@pytest.mark.parametrize("shapes", [((3, 0), (3, 2)), ((0, 3), (0, 2)), ((3, 2), (3, 0)),
                                    ((3, 0), (3,)), ((2, 3), (2, 0))])
def test_lstsq_empty(shapes, rng):
    a, b = rand(shapes[0], "float64", rng), rand(shapes[1], "float64", rng)
    got = LA.lstsq(A(a), A(b))
    ref = np.linalg.lstsq(a, b)
    for i, (g, r) in enumerate(zip(got, ref)):
        close(g, r, check_dtype=i != 2)  # rank: int64 here, NumPy's C int


def test_lstsq_batched_matches_a_loop(rng):
    a = rand((3, 6, 3), "float64", rng)
    b = rand((3, 6, 2), "float64", rng)
    x, res, rank, s = LA.lstsq(A(a), A(b))
    for i in range(3):
        rx, rres, rrank, rs = np.linalg.lstsq(a[i], b[i])
        close(x[i], rx, scale=50)
        close(res[i], rres, scale=50)
        assert int(rank[i]) == rrank
        close(s[i], rs, scale=10)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (2, 3, 5)])
def test_pinv(dtype, shape, rng):
    a = rand(shape, dtype, rng)
    close(LA.pinv(A(a)), np.linalg.pinv(a), dtype, 50)


def test_pinv_rtol_and_hermitian(rng):
    a = rand((3, 5, 5), "float64", rng)
    close(LA.pinv(A(a), rtol=0.3), np.linalg.pinv(a, rtol=0.3), scale=10)
    rt = np.array([0.0, 0.3, 0.9])
    close(LA.pinv(A(a), rtol=A(rt)), np.linalg.pinv(a, rtol=rt), scale=10)
    h = a + a.mT
    close(LA.pinv(A(h), hermitian=True), np.linalg.pinv(h, hermitian=True), scale=50)
    s = np.diag([3.0, 1.0, 1e-20])  # default rtol cuts the tiny value
    close(LA.pinv(A(s)), np.linalg.pinv(s))


def test_matrix_rank(rng):
    a = rand((4, 6, 2), "float64", rng) @ rand((4, 2, 5), "float64", rng)  # rank 2
    r = LA.matrix_rank(A(a))
    assert r.dtype == ac.int64
    np.testing.assert_array_equal(N(r), np.linalg.matrix_rank(a))
    np.testing.assert_array_equal(N(LA.matrix_rank(A(a), rtol=0.5)),
                                  np.linalg.matrix_rank(a, rtol=0.5))
    rt = np.array([0.0, 0.5, 1e-30, 0.99])
    np.testing.assert_array_equal(N(LA.matrix_rank(A(a), rtol=A(rt))),
                                  np.linalg.matrix_rank(a, rtol=rt))
    np.testing.assert_array_equal(N(LA.matrix_rank(A(a), tol=1e-3)),
                                  np.linalg.matrix_rank(a, tol=1e-3))
    h = a[..., :5, :] + np.swapaxes(a[..., :5, :], -1, -2)
    np.testing.assert_array_equal(N(LA.matrix_rank(A(h), hermitian=True)),
                                  np.linalg.matrix_rank(h, hermitian=True))
    assert int(LA.matrix_rank(A(np.zeros((3, 3))))) == 0
    for dt in ("float32", "complex64"):
        x = a.astype(dt)
        np.testing.assert_array_equal(N(LA.matrix_rank(A(x))), np.linalg.matrix_rank(x))


# --------------------------------------------------------------------------- norms, cond

VECTOR_ORDS = [2, 1, 0, math.inf, -math.inf, -1, -2, 0.5, 3, 2.5, -0.5]


@pytest.mark.parametrize("dtype", FLOATING + ["int64"])
@pytest.mark.parametrize("ord", VECTOR_ORDS)
def test_vector_norm_orders(dtype, ord, rng):
    a = rand((3, 4, 5), dtype, rng)
    a.flat[3] = 0
    ref_dtype = REAL_OF.get(dtype, "float64")
    for axis in (None, -1, 1, (0, 2), (2, 0, 1)):
        for keepdims in (False, True):
            got = LA.vector_norm(A(a), axis=axis, keepdims=keepdims, ord=ord)
            ref = np.linalg.vector_norm(a.astype(np.result_type(a, np.float64)
                                                 if dtype == "int64" else a.dtype),
                                        axis=axis, keepdims=keepdims, ord=ord)
            close(got, ref, ref_dtype, 10)


def test_vector_norm_on_views_and_empty(rng):
    a = rand((4, 6), "float32", rng)
    close(LA.vector_norm(A(a)[::-1, ::2], axis=0), np.linalg.vector_norm(a[::-1, ::2], axis=0))
    close(LA.vector_norm(A(a).mT), np.linalg.vector_norm(a.T))
    close(LA.vector_norm(A(np.zeros((0, 3))), axis=0), np.zeros(3))
    close(LA.vector_norm(A(np.zeros((2, 0))), axis=1, ord=1), np.zeros(2))


def test_vector_norm_special_values():
    x = np.array([np.inf, 1.0, -2.0])
    for ord in (2, 1, math.inf, 0.5, -1):
        close(LA.vector_norm(A(x), ord=ord), np.linalg.vector_norm(x, ord=ord))
    x = np.array([np.nan, 1.0])
    assert math.isnan(float(LA.vector_norm(A(x))))


MATRIX_ORDS = ["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf]


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("ord", MATRIX_ORDS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dtype, ord, keepdims, rng):
    a = rand((2, 3, 4, 5), dtype, rng)
    close(LA.matrix_norm(A(a), ord=ord, keepdims=keepdims),
          np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims), REAL_OF[dtype], 10)


@pytest.mark.parametrize("shape", [(0, 0), (2, 0), (0, 3), (2, 0, 0)])
@pytest.mark.parametrize("ord", MATRIX_ORDS)
def test_matrix_norm_of_empty_matrices(shape, ord):
    a = np.zeros(shape)
    try:
        ref = np.linalg.matrix_norm(a, ord=ord)
    except ValueError:
        with pytest.raises(ValueError, match="matrix_norm"):
            LA.matrix_norm(A(a), ord=ord)
        return
    close(LA.matrix_norm(A(a), ord=ord), ref)


@pytest.mark.parametrize("args", [
    dict(), dict(ord=2), dict(ord=1), dict(ord=-math.inf), dict(ord=0), dict(ord=0.5),
    dict(axis=0), dict(axis=-1, ord=3), dict(axis=(0, 1)), dict(axis=(1, 0), ord=1),
    dict(axis=(2, 0), ord="nuc", keepdims=True), dict(axis=(0, 2), ord=-2),
    dict(axis=(1, 2), ord=math.inf, keepdims=True), dict(keepdims=True)])
def test_norm_matches_numpy(args, rng):
    a = rand((3, 4, 5), "float64", rng)
    if "axis" not in args and args.get("ord") is not None:
        for x in (a[0], a[0, 0]):
            if isinstance(args["ord"], float) and x.ndim == 2 and args["ord"] not in (
                    math.inf, -math.inf):
                continue
            if x.ndim == 2 and args["ord"] in (0,):
                continue
            close(LA.norm(A(x), **args), np.linalg.norm(x, **args))
        return
    close(LA.norm(A(a), **args), np.linalg.norm(a, **args))


def test_norm_errors():
    with pytest.raises(ValueError):
        LA.norm(A(np.ones((2, 2, 2))), ord=2)
    with pytest.raises(ValueError):
        LA.norm(A(np.ones(3)), ord="fro")
    with pytest.raises(ValueError):
        LA.matrix_norm(A(np.ones((2, 2))), ord=3)
    with pytest.raises(ValueError):
        LA.vector_norm(A(np.ones(2)), ord="fro")


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc"])
@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_cond(p, dtype, rng):
    a = rand((3, 4, 4), dtype, rng)
    close(LA.cond(A(a), p), np.linalg.cond(a, p), REAL_OF[dtype], 100)


def test_cond_of_singular_and_rectangular():
    s = np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]]])
    got = N(LA.cond(A(s), 1))
    assert got[0] == np.inf and got[1] == pytest.approx(2.0)
    r = np.arange(6.0).reshape(2, 3) + 1
    close(LA.cond(A(r)), np.linalg.cond(r))


# --------------------------------------------------------------------------- matrix functions

@pytest.mark.parametrize("dtype", FLOATING + ["int64"])
@pytest.mark.parametrize("n", [-3, -1, 0, 1, 2, 3, 6])
def test_matrix_power(dtype, n, rng):
    a = well_conditioned((2, 4, 4), dtype, rng) if dtype != "int64" else \
        rng.integers(-2, 3, (2, 4, 4)) + 5 * np.eye(4, dtype=np.int64)
    got = LA.matrix_power(A(a), n)
    ref = np.linalg.matrix_power(a.astype(np.float64) if dtype == "int64" and n < 0 else a, n)
    if dtype == "int64" and n >= 0:
        np.testing.assert_array_equal(N(got), ref)
        assert got.dtype == ac.int64
    else:
        close(got, ref, ref.dtype, 50)


def test_matrix_power_errors():
    with pytest.raises(TypeError):
        LA.matrix_power(A(np.eye(2)), 1.5)
    with pytest.raises(ValueError):
        LA.matrix_power(A(np.ones((2, 3))), 2)


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("scale", [1e-3, 0.1, 0.8, 2.0, 4.5, 30.0, 400.0])
def test_matrix_exp(dtype, scale, rng):
    # The scales reach every Pade degree (3, 5, 7, 9, 13) and the squaring loop.
    a = rand((2, 5, 5), dtype, rng)
    a = a / np.abs(a).sum(axis=-2).max() * scale
    ref = scipy.linalg.expm(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    got = N(LA.matrix_exp(A(a)))
    assert got.dtype == np.dtype(dtype)
    mag = np.abs(ref).max()
    np.testing.assert_allclose(got, ref, atol=tol(dtype, 50) * mag * max(1.0, scale),
                               rtol=tol(dtype, 50) * max(1.0, scale))


def test_matrix_exp_batch_with_different_norms_and_known_values(rng):
    a = rand((3, 4, 4), "float64", rng)
    a[0] *= 1e-4
    a[2] *= 20
    close(LA.matrix_exp(A(a)), scipy.linalg.expm(a), scale=1e3)
    rot = np.array([[0.0, -1.0], [1.0, 0.0]]) * 0.7  # exp = rotation by 0.7
    close(LA.matrix_exp(A(rot)), [[math.cos(0.7), -math.sin(0.7)],
                                  [math.sin(0.7), math.cos(0.7)]])
    nil = np.array([[0.0, 1.0], [0.0, 0.0]])
    close(LA.matrix_exp(A(nil)), [[1.0, 1.0], [0.0, 1.0]])
    close(LA.matrix_exp(A(a[1]).mT), scipy.linalg.expm(a[1].T), scale=10)


def test_matrix_exp_of_non_normal_matrices_is_not_overscaled():
    # ||A||_1 is huge but ||A^k||^(1/k) small: the 2009 rule takes few squarings, which
    # keeps the result accurate (exp(A) = e^-1 [[1, 1e8], [0, 1]] + ...).
    a = np.array([[[-1.0, 1e8], [0.0, -1.0]], [[-0.5, 3e5], [0.0, -2.0]]])
    close(LA.matrix_exp(A(a)), scipy.linalg.expm(a), scale=100)
    b = np.triu(np.random.default_rng(3).standard_normal((6, 6)), 1) * 1e3 - 2 * np.eye(6)
    close(LA.matrix_exp(A(b)), scipy.linalg.expm(b), scale=1e3)


def test_matrix_exp_of_triangular_matrices_is_exact_elementwise():
    # Upper triangular input: the diagonal and first superdiagonal are recomputed exactly at
    # every squaring (Al-Mohy & Higham 2009), so the small entries next to huge ones keep
    # their digits: against mpmath, 1.1e-15 relative to max(|entry|, 1) (SciPy's expm:
    # 9.7e-8 on this matrix; before the fix e^-2 on the diagonal was 0.1353355).
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 60
    b = np.triu(np.random.default_rng(3).standard_normal((6, 6)), 1) * 1e3 - 2 * np.eye(6)
    m = mp.expm(mp.matrix(b.tolist()))
    exact = np.array([[float(m[i, j]) for j in range(6)] for i in range(6)])
    got = N(LA.matrix_exp(A(b)))
    assert np.max(np.abs(got - exact) / np.maximum(np.abs(exact), 1.0)) < 1e-13
    assert np.all(np.tril(got, -1) == 0)
    # In a batch with a full matrix, only the triangular one is fixed up.
    full = np.random.default_rng(4).standard_normal((6, 6))
    both = N(LA.matrix_exp(A(np.stack([b, full]))))
    np.testing.assert_allclose(both[0], got, rtol=1e-14, atol=0)
    np.testing.assert_allclose(both[1], scipy.linalg.expm(full), rtol=1e-12, atol=1e-13)
    # Lower triangular (the transpose) and complex upper triangular inputs.
    lo = N(LA.matrix_exp(A(np.ascontiguousarray(b.T))))
    np.testing.assert_allclose(lo, got.T, rtol=1e-12, atol=1e-12)
    c = b + 1j * np.triu(np.random.default_rng(5).standard_normal((6, 6)))
    mc = mp.expm(mp.matrix(c.tolist()))
    exact_c = np.array([[complex(mc[i, j]) for j in range(6)] for i in range(6)])
    got_c = N(LA.matrix_exp(A(c)))
    assert np.max(np.abs(got_c - exact_c) / np.maximum(np.abs(exact_c), 1.0)) < 1e-13


def test_matrix_exp_nan_and_inf_do_not_hang():
    for v in (np.nan, np.inf):
        out = N(LA.matrix_exp(A(np.array([[1.0, v], [0.0, 1.0]]))))
        assert np.isnan(out).all()
        a = np.stack([np.eye(2), np.array([[1.0, v], [0.0, 1.0]])])
        out = N(LA.matrix_exp(A(a)))
        assert np.isnan(out[1]).all()
        close(out[0], scipy.linalg.expm(np.eye(2)))


# --------------------------------------------------------------------------- trace, diagonal

@pytest.mark.parametrize("offset", [0, 1, -1, 2, -3, 5])
@pytest.mark.parametrize("dtype", FLOATING + ["int8", "uint16", "int64"])
def test_trace_and_diagonal(offset, dtype, rng):
    a = rand((2, 3, 4), dtype, rng)
    close(LA.diagonal(A(a), offset=offset), np.linalg.diagonal(a, offset=offset), dtype)
    close(LA.trace(A(a), offset=offset), np.linalg.trace(a, offset=offset))
    close(LA.trace(A(a), offset=offset, dtype=ac.float64),
          np.linalg.trace(a, offset=offset, dtype=np.float64))


def test_diagonal_is_a_view_of_any_layout(rng):
    a = rand((3, 5), "float64", rng)
    x = A(a)
    close(LA.diagonal(x[::-1, ::2], offset=-1), np.linalg.diagonal(a[::-1, ::2], offset=-1))
    close(LA.diagonal(x.mT, offset=1), np.linalg.diagonal(a.T, offset=1))
    d = LA.diagonal(x)
    x[1, 1] = 42.0
    assert float(d[1]) == 42.0
    close(LA.diagonal(A(np.zeros((2, 0, 3)))), np.zeros((2, 0)))
    close(LA.trace(A(np.zeros((2, 0, 0)))), np.zeros(2))
    with pytest.raises(ValueError):
        LA.diagonal(A(np.ones(3)))


def test_trace_of_bool_is_a_type_error():
    with pytest.raises(TypeError, match="trace"):
        LA.trace(A(np.ones((2, 2), bool)))


# --------------------------------------------------------------------------- cross, outer, ...

@pytest.mark.parametrize("dtype", FLOATING + ["int32", "int64"])
@pytest.mark.parametrize("shapes,axis", [(((3,), (3,)), -1), (((4, 3), (4, 3)), -1),
                                         (((2, 1, 3), (4, 3)), -1), (((3, 4), (3, 4)), -2),
                                         (((3, 2, 5), (1, 3, 2, 5)), -3)])
def test_cross(dtype, shapes, axis, rng):
    a, b = rand(shapes[0], dtype, rng), rand(shapes[1], dtype, rng)
    close(LA.cross(A(a), A(b), axis=axis), np.linalg.cross(a, b, axis=axis), dtype)


def test_cross_errors():
    with pytest.raises(ValueError, match="cross"):
        LA.cross(A(np.ones(4)), A(np.ones(4)))
    with pytest.raises(ValueError, match="cross"):
        LA.cross(A(np.ones((2, 3))), A(np.ones((3, 3))))
    with pytest.raises(TypeError, match="cross"):
        LA.cross(A(np.ones(3, bool)), A(np.ones(3, bool)))


@pytest.mark.parametrize("d1,d2", [("float32", "float32"), ("int8", "float64"),
                                   ("complex64", "float32"), ("int32", "int64")])
def test_outer(d1, d2, rng):
    a, b = rand((4,), d1, rng), rand((3,), d2, rng)
    close(LA.outer(A(a), A(b)), np.linalg.outer(a, b))
    with pytest.raises(ValueError, match="outer"):
        LA.outer(A(np.ones((2, 2))), A(np.ones(2)))


@pytest.mark.parametrize("shapes", [[(3, 4), (4, 5)], [(10, 30), (30, 5), (5, 60)],
                                    [(4,), (4, 7), (7, 2), (2, 9), (9,)],
                                    [(6, 2), (2, 8), (8, 3), (3, 3), (3,)],
                                    [(5,), (5, 3), (3, 1), (1, 4)]])
def test_multi_dot(shapes, rng):
    arrays = [rand(s, "float64", rng) for s in shapes]
    close(LA.multi_dot([A(x) for x in arrays]), np.linalg.multi_dot(arrays))


def test_multi_dot_out_and_errors(rng):
    arrays = [rand(s, "float64", rng) for s in [(3, 4), (4, 2), (2, 5)]]
    out = ac.zeros((3, 5), dtype=ac.float64)
    r = LA.multi_dot([A(x) for x in arrays], out=out)
    assert r is out
    close(out, np.linalg.multi_dot(arrays))
    with pytest.raises(ValueError, match="multi_dot"):
        LA.multi_dot([A(np.ones((2, 3))), A(np.ones((2, 3)))])
    with pytest.raises(ValueError, match="multi_dot"):
        LA.multi_dot([A(np.ones((2, 3)))])


@pytest.mark.parametrize("dtype", FLOATING + ["int64"])
@pytest.mark.parametrize("N_", [None, 0, 1, 2, 5])
def test_vander(dtype, N_, rng):
    x = rand((2, 4), dtype, rng)
    ref = torch.linalg.vander(T(x), N=N_).numpy() if N_ not in (0, 1) else \
        np.ones((2, 4, N_), dtype)
    close(LA.vander(A(x), N=N_), ref, dtype)


def test_tensorinv_and_tensorsolve(rng):
    a = well_conditioned((24, 24), "float64", rng).reshape(4, 6, 8, 3)
    close(LA.tensorinv(A(a), ind=2), np.linalg.tensorinv(a, ind=2))
    b = well_conditioned((6, 6), "float64", rng).reshape(6, 2, 3)
    close(LA.tensorinv(A(b), ind=1), np.linalg.tensorinv(b, ind=1))
    a = well_conditioned((24, 24), "float64", rng).reshape(2, 3, 4, 2, 3, 4)
    rhs = rand((2, 3, 4), "float64", rng)
    close(LA.tensorsolve(A(a), A(rhs)), np.linalg.tensorsolve(a, rhs))
    a = np.moveaxis(well_conditioned((6, 6), "float64", rng).reshape(6, 2, 3), 2, 0)  # (3, 6, 2)
    rhs = rand((6,), "float64", rng)
    close(LA.tensorsolve(A(a), A(rhs), axes=(0,)), np.linalg.tensorsolve(a, rhs, axes=(0,)))
    with pytest.raises(ValueError, match="tensorinv"):
        LA.tensorinv(A(np.ones((2, 3))), ind=1)


# --------------------------------------------------------------------------- errors, NaN

SQUARE_FNS = ["cholesky", "det", "slogdet", "eig", "eigvals", "eigh", "eigvalsh", "inv",
              "matrix_exp"]
ANY_MATRIX_FNS = ["svd", "svdvals", "qr", "pinv", "lu_factor", "lu", "matrix_rank", "cond"]


@pytest.mark.parametrize("fn", SQUARE_FNS + ANY_MATRIX_FNS + ["vector_norm", "matrix_norm"])
def test_bool_and_non_arrays_are_type_errors(fn):
    f = getattr(LA, fn)
    with pytest.raises(TypeError, match=fn):
        f(A(np.eye(2, dtype=bool)))
    with pytest.raises(TypeError, match=fn):
        f([[1.0, 0.0], [0.0, 1.0]])


@pytest.mark.parametrize("fn", SQUARE_FNS)
def test_non_square_is_a_value_error(fn):
    with pytest.raises(ValueError, match=fn):
        getattr(LA, fn)(A(np.ones((2, 3))))
    with pytest.raises(ValueError, match=fn):
        getattr(LA, fn)(A(np.ones(3)))


@pytest.mark.parametrize("fn", ANY_MATRIX_FNS)
def test_one_dimensional_input_is_a_value_error(fn):
    if fn == "matrix_rank":  # NumPy's extension: rank of a vector
        assert int(LA.matrix_rank(A(np.ones(3)))) == 1
        return
    with pytest.raises(ValueError, match=fn):
        getattr(LA, fn)(A(np.ones(3)))


def test_keyword_type_errors():
    x = A(np.eye(2))
    with pytest.raises(TypeError):
        LA.cholesky(x, upper=1)
    with pytest.raises(TypeError):
        LA.svd(x, full_matrices="yes")
    with pytest.raises(TypeError):
        LA.pinv(x, rtol="big")
    with pytest.raises(TypeError):
        LA.vector_norm(x, axis=1.0)
    with pytest.raises(ValueError):
        LA.vector_norm(x, axis=(0, 0))
    with pytest.raises(TypeError):
        LA.lu_solve(*LA.lu_factor(x), x, adjoint=None)


@pytest.mark.parametrize("fn", ["det", "slogdet", "inv", "eig", "eigvals", "eigh", "eigvalsh",
                                "svd", "svdvals", "qr", "pinv", "lu_factor", "matrix_rank",
                                "cholesky", "matrix_exp", "cond"])
@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_nan_and_inf_input_never_hang(fn, value):
    a = np.eye(4)
    a[1, 2] = value
    a[2, 1] = value
    x = A(np.stack([np.eye(4), a]))
    try:
        out = getattr(LA, fn)(x)
    except LA.LinAlgError as e:
        assert fn in str(e) or fn in ("pinv", "matrix_rank", "cond")
        return
    leaves = out if isinstance(out, tuple) else (out,)
    for leaf in leaves:
        assert leaf.shape[0] == 2
