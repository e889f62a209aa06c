"""The linalg extension's native functions (`_native.linalg_*`) against NumPy / SciPy.

Direct tests of the LAPACK layer (kernels/linalg*.cpp), below the `ac.linalg` namespace:
values for the four floating dtypes (single precision stays single), batches (including
broadcast stride-0 batches of two-operand functions), layouts (transposed, negative strides,
row-strided), the n <= 4 kernels against the LAPACK path, errors naming the function and the
batch index, NaN/inf input (never hangs), empty shapes, and the thread pool (results equal
at 1 and 2 threads).
"""

import numpy as np
import pytest
import scipy.linalg as sla

import arraycore as ac
from arraycore.native import _native

FLOATING = ["float32", "float64", "complex64", "complex128"]
REAL_OF = {"float32": "float32", "float64": "float64", "complex64": "float32",
           "complex128": "float64"}
COMPLEX_OF = {"float32": "complex64", "float64": "complex128", "complex64": "complex64",
              "complex128": "complex128"}
LinAlgError = _native.LinAlgError


def tol(dtype, n=1):
    """Relative tolerance for a well-conditioned n x n problem in `dtype`."""
    single = np.dtype(dtype) in (np.float32, np.complex64)
    return (2e-4 if single else 1e-11) * max(n, 1)


def rand(shape, dtype, rng):
    dt = np.dtype(dtype)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def well_conditioned(shape, dtype, rng):
    """Random matrices with a dominant diagonal (condition number O(1))."""
    a = rand(shape, dtype, rng)
    n = shape[-1]
    return (a + 2 * np.sqrt(n) * np.eye(n)).astype(dtype)


def hpd(shape, dtype, rng):
    """Random Hermitian positive-definite matrices."""
    a = rand(shape, dtype, rng)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def to_ac(x):
    return ac.asarray(np.ascontiguousarray(x))


def npy(x):
    return np.asarray(x)


def close(actual, expected, rtol, atol=None):
    actual = npy(actual)
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=(atol if atol is not None
                                                                  else rtol * scale))


def layouts(x):
    """The same matrices as arraycore arrays in several memory layouts: C-contiguous,
    transposed view (column-major items), negative strides on both axes, row-strided."""
    c = to_ac(x)
    yield "contiguous", c
    yield "transposed", ac.matrix_transpose(to_ac(np.swapaxes(x, -1, -2)))
    yield "reversed", to_ac(x[..., ::-1, ::-1])[..., ::-1, ::-1]
    wide = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    wide[..., ::2] = x
    yield "strided", to_ac(wide)[..., ::2]


# ---------------------------------------------------------------- cholesky

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", [1, 3, 4, 5, 33])
def test_cholesky_values(dtype, n, rng):
    a = hpd((3, n, n), dtype, rng)
    L = _native.linalg_cholesky(to_ac(a), False)
    assert L.dtype.name == dtype
    close(L, np.linalg.cholesky(a), tol(dtype, n))
    U = _native.linalg_cholesky(to_ac(a), True)
    close(U, np.conj(np.swapaxes(np.linalg.cholesky(a), -1, -2)), tol(dtype, n))


def test_cholesky_reads_its_triangle(rng):
    a = hpd((6, 6), "float64", rng)
    lower_only = np.tril(a) + np.triu(np.full_like(a, 1e300), 1)
    close(_native.linalg_cholesky(to_ac(lower_only), False), np.linalg.cholesky(a), 1e-12)
    upper_only = np.triu(a) + np.tril(np.full_like(a, 1e300), -1)
    close(_native.linalg_cholesky(to_ac(upper_only), True), np.linalg.cholesky(a).T, 1e-12)


def test_cholesky_layouts(rng):
    a = hpd((2, 5, 5), "complex128", rng)
    for label, x in layouts(a):
        close(_native.linalg_cholesky(x, False), np.linalg.cholesky(a), 1e-12)


def test_cholesky_not_pd_names_batch_index(rng):
    a = hpd((4, 3, 3), "float64", rng)
    a[2, 1, 1] = -100.0
    with pytest.raises(LinAlgError, match=r"^cholesky: .*not positive definite.*\(batch index 2\)"):
        _native.linalg_cholesky(to_ac(a), False)
    with pytest.raises(LinAlgError, match=r"^mycall: .*positive definite"):
        _native.linalg_cholesky(to_ac(a[2]), False, name="mycall")
    with pytest.raises(LinAlgError) as info:
        _native.linalg_cholesky(to_ac(a[2]), False)
    assert "batch" not in str(info.value)
    assert issubclass(LinAlgError, ValueError)


# ---------------------------------------------------------------- LU family

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 3, 6), (7, 7), (1, 1)])
def test_lu_factor_matches_scipy(dtype, shape, rng):
    a = rand(shape, dtype, rng)
    lu, piv = _native.linalg_lu_factor(to_ac(a))
    assert lu.dtype.name == dtype and piv.dtype.name == "int32"
    flat = a.reshape((-1,) + shape[-2:])
    lus, pivs = npy(lu).reshape(flat.shape), npy(piv).reshape(flat.shape[0], -1)
    for i, m in enumerate(flat):
        lu_ref, piv_ref = sla.lu_factor(m) if m.shape[0] == m.shape[1] else (None, None)
        if lu_ref is not None:
            close(lus[i], lu_ref, tol(dtype, m.shape[0]))
            np.testing.assert_array_equal(pivs[i], piv_ref + 1)
        # P A = L U holds for rectangular matrices too.
        k = min(m.shape)
        L = np.tril(lus[i][:, :k], -1) + np.eye(m.shape[0], k)
        U = np.triu(lus[i][:k, :])
        pa = m.copy()
        for j, p in enumerate(pivs[i]):
            pa[[j, p - 1]] = pa[[p - 1, j]]
        close(L @ U, pa, tol(dtype, max(m.shape)))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve(dtype, adjoint, rng):
    a = well_conditioned((3, 6, 6), dtype, rng)
    b = rand((3, 6, 2), dtype, rng)
    lu, piv = _native.linalg_lu_factor(to_ac(a))
    x = _native.linalg_lu_solve(lu, piv, to_ac(b), adjoint)
    op = np.conj(np.swapaxes(a, -1, -2)) if adjoint else a
    close(x, np.linalg.solve(op, b), tol(dtype, 6))
    # broadcast: one factorization, several right-hand sides
    lu0, piv0 = _native.linalg_lu_factor(to_ac(a[0]))
    x = _native.linalg_lu_solve(lu0, piv0, to_ac(b))
    close(x, np.linalg.solve(a[0], b), tol(dtype, 6))


def test_lu_solve_rejects_bad_pivots(rng):
    a = well_conditioned((4, 4), "float64", rng)
    lu, piv = _native.linalg_lu_factor(to_ac(a))
    bad = ac.asarray(np.array([1, 9, 3, 4], dtype=np.int32))
    with pytest.raises(ValueError, match="lu_solve: pivots"):
        _native.linalg_lu_solve(lu, bad, to_ac(np.ones((4, 1))))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n,k", [(1, 1), (2, 3), (3, 1), (4, 4), (5, 1), (9, 3), (40, 7)])
def test_solve(dtype, n, k, rng):
    a = well_conditioned((2, 3, n, n), dtype, rng)
    b = rand((2, 3, n, k), dtype, rng)
    x = _native.linalg_solve(to_ac(a), to_ac(b))
    assert x.dtype.name == dtype
    close(x, np.linalg.solve(a, b), tol(dtype, n))


@pytest.mark.parametrize("n", [3, 4, 8])
def test_solve_layouts_and_broadcast(n, rng):
    a = well_conditioned((3, n, n), "float64", rng)
    b = rand((3, n, 2), "float64", rng)
    for _, x in layouts(a):
        for _, y in layouts(b):
            close(_native.linalg_solve(x, y), np.linalg.solve(a, b), 1e-11)
    # stride-0 batch of A (broadcast_to), and batch broadcasting between A and B
    a1 = a[:1]
    ab = ac.broadcast_to(to_ac(a1), (3, n, n))
    close(_native.linalg_solve(ab, to_ac(b)), np.linalg.solve(a1, b), 1e-11)
    close(_native.linalg_solve(to_ac(a1), to_ac(b)), np.linalg.solve(a1, b), 1e-11)
    b4 = rand((2, 1, n, 2), "float64", rng)
    close(_native.linalg_solve(to_ac(a), to_ac(b4)), np.linalg.solve(a, b4), 1e-11)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6])
def test_solve_singular_names_batch_index(n, rng):
    a = well_conditioned((5, n, n), "float64", rng)
    a[3] = 0.0
    with pytest.raises(LinAlgError, match=r"^solve: singular matrix \(batch index 3\)"):
        _native.linalg_solve(to_ac(a), to_ac(np.ones((5, n, 1))))
    with pytest.raises(LinAlgError, match=r"^inv: singular matrix \(batch index 3\)"):
        _native.linalg_inv(to_ac(a))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 17, 64])
def test_inv(dtype, n, rng):
    a = well_conditioned((3, n, n), dtype, rng)
    r = _native.linalg_inv(to_ac(a))
    assert r.dtype.name == dtype
    close(r, np.linalg.inv(a), tol(dtype, n))
    for _, x in layouts(a):
        close(_native.linalg_inv(x), np.linalg.inv(a), tol(dtype, n))


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 12])
def test_det_slogdet(dtype, n, rng):
    a = rand((4, n, n), dtype, rng)
    d = _native.linalg_det(to_ac(a))
    assert d.dtype.name == dtype and d.shape == (4,)
    close(d, np.linalg.det(a), tol(dtype, n) * 10)
    sign, logabs = _native.linalg_slogdet(to_ac(a))
    ref = np.linalg.slogdet(a)
    assert sign.dtype.name == dtype and logabs.dtype.name == REAL_OF[dtype]
    close(sign, ref.sign, tol(dtype, n) * 10)
    close(logabs, ref.logabsdet, tol(dtype, n) * 10)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7])
def test_det_singular_and_special(n):
    z = np.zeros((2, n, n))
    close(_native.linalg_det(to_ac(z)), np.zeros(2), 0)
    sign, logabs = _native.linalg_slogdet(to_ac(z))
    np.testing.assert_array_equal(npy(sign), 0.0)
    np.testing.assert_array_equal(npy(logabs), -np.inf)
    nan = np.eye(n)
    nan[0, 0] = np.nan
    assert np.isnan(npy(_native.linalg_det(to_ac(nan))))
    assert np.isnan(npy(_native.linalg_slogdet(to_ac(nan))[1]))


# ---------------------------------------------------------------- triangular solve

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("left", [False, True])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular(dtype, upper, left, unit, rng):
    n, k = 6, 3
    a = well_conditioned((2, n, n), dtype, rng)
    b = rand((2, n, k) if left else (2, k, n), dtype, rng)
    x = _native.linalg_solve_triangular(to_ac(a), to_ac(b), upper, left, unit)
    t = np.triu(a) if upper else np.tril(a)
    if unit:
        t = t - np.diagonal(t, axis1=-2, axis2=-1)[..., None] * np.eye(n) + np.eye(n)
    if left:
        ref = np.linalg.solve(t, b)
    else:
        ref = np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    close(x, ref, tol(dtype, n))


def test_solve_triangular_zero_diagonal_gives_inf():
    a = np.triu(np.ones((3, 3)))
    a[1, 1] = 0.0
    x = npy(_native.linalg_solve_triangular(to_ac(a), to_ac(np.ones((3, 1))), True))
    assert not np.all(np.isfinite(x))


# ---------------------------------------------------------------- eigh / eig

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", [1, 2, 4, 9, 40])
def test_eigh(dtype, n, rng):
    a = rand((3, n, n), dtype, rng)
    a = a + np.conj(np.swapaxes(a, -1, -2))
    w, v = _native.linalg_eigh(to_ac(a))
    assert w.dtype.name == REAL_OF[dtype] and v.dtype.name == dtype
    close(w, np.linalg.eigvalsh(a), tol(dtype, n))
    # A V = V diag(w), V unitary (eigenvectors are defined up to phase)
    w, v = npy(w), npy(v)
    close(a @ v, v * w[..., None, :], tol(dtype, n) * 4)
    close(np.conj(np.swapaxes(v, -1, -2)) @ v, np.broadcast_to(np.eye(n), a.shape), tol(dtype, n))
    (w2,) = _native.linalg_eigh(to_ac(a), compute_v=False)
    close(w2, np.linalg.eigvalsh(a), tol(dtype, n))


def test_eigh_triangle_and_layouts(rng):
    a = rand((2, 7, 7), "complex128", rng)
    h = a + np.conj(np.swapaxes(a, -1, -2))
    junk = np.tril(h) + np.triu(np.full_like(h, 1e3), 1)
    close(_native.linalg_eigh(to_ac(junk), False, False)[0], np.linalg.eigvalsh(h), 1e-11)
    junk = np.triu(h) + np.tril(np.full_like(h, 1e3), -1)
    close(_native.linalg_eigh(to_ac(junk), True, False)[0], np.linalg.eigvalsh(h), 1e-11)
    for _, x in layouts(h):
        close(_native.linalg_eigh(x, False, False)[0], np.linalg.eigvalsh(h), 1e-11)


def test_eigh_nonfinite():
    a = np.eye(4)
    a[2, 1] = np.nan
    w, v = _native.linalg_eigh(to_ac(a))
    assert np.all(np.isnan(npy(w)))
    with pytest.raises(LinAlgError, match="eigvalsh: eigenvalues did not converge"):
        _native.linalg_eigh(to_ac(a), compute_v=False, name="eigvalsh")


@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("n", [1, 2, 3, 6, 20])
def test_eig(dtype, n, rng):
    a = rand((3, n, n), dtype, rng)
    w, v = _native.linalg_eig(to_ac(a))
    assert w.dtype.name == COMPLEX_OF[dtype] and v.dtype.name == COMPLEX_OF[dtype]
    w, v = npy(w), npy(v)
    close(a @ v, v * w[..., None, :], tol(dtype, n) * 10)
    close(np.linalg.norm(v, axis=-2), np.ones((3, n)), tol(dtype, n))
    ref = np.linalg.eigvals(a)
    for i in range(3):  # same multiset of eigenvalues
        close(np.sort_complex(w[i]), np.sort_complex(ref[i].astype(w.dtype)), tol(dtype, n) * 10)
    (w2,) = _native.linalg_eig(to_ac(a), compute_v=False)
    close(np.sort_complex(npy(w2)), np.sort_complex(w), tol(dtype, n) * 10)


def test_eig_real_complex_pairs():
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    w, v = _native.linalg_eig(to_ac(rot))
    close(np.sort_complex(npy(w)), np.array([-1j, 1j]), 1e-14)
    close(rot @ npy(v), npy(v) * npy(w)[None, :], 1e-14)


def test_eig_nonfinite_raises():
    a = np.ones((2, 3, 3))
    a[1, 0, 0] = np.inf
    with pytest.raises(LinAlgError, match=r"eig: .*infs or NaNs \(batch index 1\)"):
        _native.linalg_eig(to_ac(a))


# ---------------------------------------------------------------- svd

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 1, 4), (2, 30, 20), (1, 1)])
@pytest.mark.parametrize("full", [False, True])
def test_svd(dtype, shape, full, rng):
    a = rand(shape, dtype, rng)
    u, s, vh = (npy(t) for t in _native.linalg_svd(to_ac(a), full, True))
    uref, sref, vhref = np.linalg.svd(a, full_matrices=full)
    assert u.shape == uref.shape and s.shape == sref.shape and vh.shape == vhref.shape
    assert s.dtype.name == REAL_OF[dtype] and u.dtype.name == dtype
    close(s, sref, tol(dtype, max(shape)))
    k = min(shape[-2:])
    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, tol(dtype, max(shape)))
    eye_u = np.broadcast_to(np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2)
    close(np.conj(np.swapaxes(u, -1, -2)) @ u, eye_u, tol(dtype, max(shape)))
    (s2,) = _native.linalg_svd(to_ac(a), full, False)
    close(s2, sref, tol(dtype, max(shape)))


def test_svd_layouts_and_empty(rng):
    a = rand((2, 6, 4), "float64", rng)
    for _, x in layouts(a):
        close(_native.linalg_svd(x, False, False)[0], np.linalg.svd(a, compute_uv=False), 1e-12)
    for shape in [(0, 3), (2, 0), (2, 0, 0)]:
        got = _native.linalg_svd(to_ac(np.zeros(shape)), True, True)
        ref = np.linalg.svd(np.zeros(shape))
        for g, r in zip(got, ref):
            close(g, r, 0)


def test_svd_nonfinite_raises():
    a = np.ones((3, 4))
    a[1, 2] = np.nan
    with pytest.raises(LinAlgError, match="svd: SVD did not converge"):
        _native.linalg_svd(to_ac(a), False, False)


# ---------------------------------------------------------------- qr

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("shape", [(4, 4), (6, 3), (3, 6), (2, 5, 2), (1, 1), (0, 3), (3, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(dtype, shape, mode, rng):
    a = rand(shape, dtype, rng)
    got = _native.linalg_qr(to_ac(a), mode)
    if mode == "r":
        (r,) = got
        rref = np.linalg.qr(a, mode="r")
        close(np.abs(npy(r)), np.abs(rref), tol(dtype, max(shape)))
        return
    q, r = (npy(t) for t in got)
    qref, rref = np.linalg.qr(a, mode=mode)
    assert q.shape == qref.shape and r.shape == rref.shape and q.dtype.name == dtype
    close(q @ r, a, tol(dtype, max(shape)))
    close(q, qref, tol(dtype, max(shape)) * 10)  # same driver: same signs
    close(r, rref, tol(dtype, max(shape)) * 10)


# ---------------------------------------------------------------- lstsq

@pytest.mark.parametrize("dtype", FLOATING)
@pytest.mark.parametrize("m,n", [(6, 3), (3, 6), (4, 4), (5, 1)])
def test_lstsq(dtype, m, n, rng):
    a = rand((m, n), dtype, rng)
    b = rand((m, 2), dtype, rng)
    x, res, rank, s = _native.linalg_lstsq(to_ac(a), to_ac(b))
    xr, resr, rankr, sr = np.linalg.lstsq(a, b)
    close(x, xr, tol(dtype, max(m, n)) * 10)
    close(res, resr, tol(dtype, max(m, n)) * 10)
    assert int(npy(rank)) == rankr and rank.dtype.name == "int64"
    close(s, sr, tol(dtype, max(m, n)))


def test_lstsq_batched_rank_deficient_and_nan(rng):
    a = rand((3, 6, 3), "float64", rng)
    a[1, :, 2] = a[1, :, 0]  # rank 2
    b = rand((3, 6, 2), "float64", rng)
    x, res, rank, s = _native.linalg_lstsq(to_ac(a), to_ac(b))
    np.testing.assert_array_equal(npy(rank), [3, 2, 3])
    assert npy(res).shape == (0,)
    for i in range(3):
        close(npy(x)[i], np.linalg.lstsq(a[i], b[i])[0], 1e-10)
    a[2, 0, 0] = np.nan
    with pytest.raises(LinAlgError, match=r"lstsq: .*did not converge.*\(batch index 2\)"):
        _native.linalg_lstsq(to_ac(a), to_ac(b))


# ---------------------------------------------------------------- errors

def test_errors_name_the_function():
    with pytest.raises(TypeError, match="^inv: "):
        _native.linalg_inv(ac.asarray(np.eye(3, dtype=np.int64)))
    with pytest.raises(ValueError, match="^matrix_power: .*square"):
        _native.linalg_inv(to_ac(np.ones((2, 3))), name="matrix_power")
    with pytest.raises(ValueError, match="^solve: "):
        _native.linalg_solve(to_ac(np.eye(3)), to_ac(np.ones((4, 1))))
    with pytest.raises(TypeError, match="^solve: "):
        _native.linalg_solve(to_ac(np.eye(3)), to_ac(np.ones((3, 1), np.float32)))
    with pytest.raises(ValueError, match="^qr: mode"):
        _native.linalg_qr(to_ac(np.eye(3)), "bogus")


# ---------------------------------------------------------------- threads

def test_batches_agree_across_thread_counts(rng):
    a = well_conditioned((300, 6, 6), "float64", rng)
    b = rand((300, 6, 2), "float64", rng)
    old = ac.get_num_threads() if hasattr(ac, "get_num_threads") else _native.get_num_threads()
    try:
        results = []
        for t in (1, 2):
            _native.set_num_threads(t)
            results.append([npy(_native.linalg_inv(to_ac(a))),
                            npy(_native.linalg_solve(to_ac(a), to_ac(b))),
                            npy(_native.linalg_eigh(to_ac(a + np.swapaxes(a, -1, -2)))[0])])
            a_bad = a.copy()
            a_bad[[17, 250]] = 0
            with pytest.raises(LinAlgError, match=r"batch index 17\)"):
                _native.linalg_inv(to_ac(a_bad))
        for x, y in zip(*results):
            np.testing.assert_array_equal(x, y)
    finally:
        _native.set_num_threads(old)
