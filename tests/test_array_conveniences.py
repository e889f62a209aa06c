"""The array methods training code uses (arraycore/_core/array_conveniences.py), against
NumPy's methods of the same name, on the tape and under ac.func transforms."""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4))


@pytest.mark.parametrize("name", ["sum", "mean", "prod", "max", "min", "std", "var",
                                  "argmax", "argmin", "all", "any"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(name, axis, keepdims):
    if name in ("argmax", "argmin") and isinstance(axis, tuple):
        pytest.skip("NumPy's argmax takes one axis")
    a = A > 0 if name in ("all", "any") else A
    want = getattr(a, name)(axis=axis, keepdims=keepdims)
    got = getattr(ac.asarray(a), name)(axis=axis, keepdims=keepdims)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13)


def test_std_var_ddof_and_correction():
    x = ac.asarray(A)
    np.testing.assert_allclose(np.asarray(x.std(ddof=1)), A.std(ddof=1), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(x.var(axis=0, correction=1)), A.var(axis=0, ddof=1),
                               rtol=1e-13)
    with pytest.raises(TypeError, match="ddof or correction"):
        x.var(ddof=1, correction=1)


@pytest.mark.parametrize("values", [[[1.5, -2.0], [3.0, 4.25]], [1, 2, 3], [True, False],
                                    [[1 + 2j, -3j]], 7.5, [], [[[]]]])
def test_tolist_matches_numpy(values):
    a = np.asarray(values)
    if a.dtype == np.int64 or a.dtype.kind in "fbc":
        got = ac.asarray(a).tolist()
        assert got == a.tolist()
        assert type(got) is type(a.tolist())


def test_tolist_of_views():
    x = ac.asarray(A)
    assert x.T.tolist() == A.T.tolist()
    assert x[:, ::-2].tolist() == A[:, ::-2].tolist()
    assert ac.broadcast_to(ac.asarray([1.0, 2.0]), (2, 2)).tolist() == [[1.0, 2.0]] * 2


@pytest.mark.parametrize("value,kind", [(2.5, float), (3, int), (True, bool), (1 - 2j, complex)])
def test_item_returns_the_python_scalar(value, kind):
    for x in (ac.asarray(value), ac.asarray([value]), ac.asarray([[value]])):
        v = x.item()
        assert type(v) is kind and v == value
    with pytest.raises(ValueError, match="item: only arrays of exactly one element"):
        ac.asarray([value, value]).item()


def test_format_of_0d_arrays_and_others():
    loss = ac.asarray(0.123456, dtype=ac.float32)
    assert f"{loss:.4f}" == f"{np.float32(0.123456):.4f}"
    assert f"{ac.asarray(42):>5d}" == "   42"
    assert f"{ac.asarray([1.0, 2.0])}" == str(ac.asarray([1.0, 2.0]))
    with pytest.raises(TypeError, match="only 0-d arrays"):
        f"{ac.asarray([1.0, 2.0]):.2f}"


def test_shape_and_copy_methods():
    x = ac.asarray(A)
    np.testing.assert_array_equal(np.asarray(x.reshape(4, 3)), A.reshape(4, 3))
    np.testing.assert_array_equal(np.asarray(x.reshape((2, -1))), A.reshape(2, -1))
    f = x.T.flatten()
    np.testing.assert_array_equal(np.asarray(f), A.T.flatten())
    c = x.copy()
    c[0, 0] = 100.0
    assert float(x[0, 0]) == A[0, 0]
    assert x.astype(ac.float32).dtype == ac.float32
    n = x.numpy()
    assert isinstance(n, np.ndarray)
    np.testing.assert_array_equal(n, A)


def test_methods_on_the_tape_and_under_transforms():
    x = ac.asarray(A)
    g = ac.func.grad(lambda v: (v * v).sum() + v.mean())(x)
    np.testing.assert_allclose(np.asarray(g), 2 * A + 1 / A.size, rtol=1e-13)
    out = ac.func.vmap(lambda r: r.reshape(2, 2).sum(axis=0))(x)
    np.testing.assert_allclose(np.asarray(out), A.reshape(3, 2, 2).sum(axis=1), rtol=1e-13)
    w = ac.asarray(A)
    w.requires_grad_(True)
    w.std(ddof=1).backward()
    ref = (A - A.mean()) / (A.size - 1) / A.std(ddof=1)
    np.testing.assert_allclose(np.asarray(w.grad), ref, rtol=1e-12)
    with pytest.raises(ValueError, match="detach"):
        w.numpy()
    with pytest.raises(TypeError, match="concrete array"):
        ac.func.grad(lambda v: v.sum().item())(x)
