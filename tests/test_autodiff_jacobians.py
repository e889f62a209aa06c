"""Issue 7: batched ops are one batched kernel call, and the Jacobian transforms are one
forward pass plus one batched pass.

Kernel calls are counted by wrapping the engine entry points the namespace calls
(`_linear_algebra._matmul` = `_native.matmul`, `_statistics._reduce` = `_native.reduce`) and,
for elementwise ops, the op-table entry's `public` function, which every batching rule calls
with plain arrays.  A Python loop over the batch would show up as one call per example.
"""

import gc

import numpy as np
import pytest

import arraycore as ac
from arraycore._core.op_table import OPS
from arraycore.array_api import _linear_algebra, _statistics

F = ac.func
RNG = np.random.default_rng(7)


class Calls:
    """Records the calls (and the shapes of array arguments) of a wrapped function."""

    def __init__(self, fn):
        self.fn = fn
        self.shapes = []

    def __call__(self, *args, **kwargs):
        self.shapes.append(tuple(tuple(a.shape) for a in args if hasattr(a, "shape")))
        return self.fn(*args, **kwargs)

    @property
    def n(self):
        return len(self.shapes)


@pytest.fixture
def matmul_calls(monkeypatch):
    c = Calls(_linear_algebra._matmul)
    monkeypatch.setattr(_linear_algebra, "_matmul", c)
    return c


@pytest.fixture
def reduce_calls(monkeypatch):
    c = Calls(_statistics._reduce)
    monkeypatch.setattr(_statistics, "_reduce", c)
    return c


def _op_calls(monkeypatch, name):
    op = OPS[name]
    c = Calls(op.public)
    monkeypatch.setattr(op, "public", c)
    return c


def arr(*shape):
    return RNG.standard_normal(shape)


B = 7

MATMUL_CASES = {
    # name: (x1, x2, in_dims)
    "vectors @ matrix": (arr(B, 5), arr(5, 4), (0, None)),
    "matrix @ vectors": (arr(4, 5), arr(B, 5), (None, 0)),
    "matrices @ matrix": (arr(B, 3, 5), arr(5, 4), (0, None)),
    "matrix @ matrices": (arr(3, 5), arr(B, 5, 4), (None, 0)),
    "matrix @ columns": (arr(3, 5), arr(B, 5, 1), (None, 0)),
    "matrices @ matrices": (arr(B, 3, 5), arr(B, 5, 4), (0, 0)),
    "vectors @ vectors": (arr(B, 5), arr(B, 5), (0, 0)),
    "batch axis last": (arr(3, 5, B), arr(5, 4), (2, None)),
}


@pytest.mark.parametrize("case", list(MATMUL_CASES))
def test_vmap_of_matmul_is_one_matmul_call(case, matmul_calls):
    x1, x2, dims = MATMUL_CASES[case]
    got = F.vmap(ac.matmul, in_dims=dims)(ac.asarray(x1), ac.asarray(x2))
    assert matmul_calls.n == 1, matmul_calls.shapes
    a = x1 if dims[0] is None else np.moveaxis(x1, dims[0], 0)
    b = x2 if dims[1] is None else np.moveaxis(x2, dims[1], 0)
    want = np.stack([(a if dims[0] is None else a[i]) @ (b if dims[1] is None else b[i])
                     for i in range(B)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)])
@pytest.mark.parametrize("in_dim", [0, 1])
def test_vmap_of_sum_is_one_reduction(axis, in_dim, reduce_calls):
    x = arr(3, B, 4) if in_dim == 1 else arr(B, 3, 4)
    got = F.vmap(lambda v: ac.sum(v, axis=axis), in_dims=in_dim)(ac.asarray(x))
    assert reduce_calls.n == 1, reduce_calls.shapes
    # the whole batch in one call (a view with the batch axis moved to the front)
    assert sorted(reduce_calls.shapes[0][0]) == sorted(x.shape)
    xb = np.moveaxis(x, in_dim, 0)
    np.testing.assert_allclose(np.asarray(got), [np.sum(v, axis=axis) for v in xb],
                               rtol=1e-12)


def test_vmap_of_mean_and_max_are_one_reduction_each(reduce_calls):
    x = arr(B, 6)
    F.vmap(lambda v: ac.max(v) + ac.mean(v))(ac.asarray(x))
    assert reduce_calls.n == 2, reduce_calls.shapes
    assert all(s[0] == (B, 6) for s in reduce_calls.shapes)


@pytest.mark.parametrize("name,fn,args,dims", [
    ("sin", ac.sin, (arr(B, 3, 4),), 0),
    ("sin", ac.sin, (arr(3, B, 4),), 1),
    ("multiply", ac.multiply, (arr(B, 3, 4), arr(4)), (0, None)),
    ("multiply", ac.multiply, (arr(B, 3, 4), arr(3, 4)), (0, None)),
    ("multiply", ac.multiply, (arr(4), arr(B, 3, 4)), (None, 0)),
    ("multiply", ac.multiply, (arr(B, 3, 4), arr(4, B)), (0, 1)),
    ("add", ac.add, (arr(B, 4), arr(3, 4)), (0, None)),  # unbatched of higher rank
    ("add", ac.add, (arr(B), arr(B, 3)), (0, 0)),        # batched of lower rank
])
def test_vmap_of_elementwise_is_one_call(monkeypatch, name, fn, args, dims):
    calls = _op_calls(monkeypatch, name)
    got = F.vmap(fn, in_dims=dims)(*[ac.asarray(a) for a in args])
    assert calls.n == 1, calls.shapes
    assert any(B in s for s in calls.shapes[0])  # the batch is in the call, not looped
    dl = dims if isinstance(dims, tuple) else (dims,)
    per = [[a if d is None else np.moveaxis(a, d, 0)[i] for a, d in zip(args, dl)]
           for i in range(B)]
    want = np.stack([getattr(np, name)(*p) for p in per])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)


# --- Jacobians: one forward pass, the backward/forward of the whole basis batched -------

W = arr(30, 30) / 6
X = arr(30)


def _tanh_wx(v):
    return ac.tanh(ac.asarray(W) @ v)


def _jac_tanh_wx(x):
    y = np.tanh(W @ x)
    return (1 - y * y)[:, None] * W


@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
def test_jacobian_is_one_batched_product(jac, matmul_calls):
    got = getattr(F, jac)(_tanh_wx)(ac.asarray(X))
    # The forward matvec, then one gemm for the whole basis (not one product per row).
    assert matmul_calls.n == 2, matmul_calls.shapes
    assert any(len(s) == 2 and all(len(t) == 2 for t in s) for s in matmul_calls.shapes)
    np.testing.assert_allclose(np.asarray(got), _jac_tanh_wx(X), rtol=1e-12, atol=1e-14)


def test_jacrev_elementwise_ops_are_batched(monkeypatch):
    calls = _op_calls(monkeypatch, "multiply")
    F.jacrev(_tanh_wx)(ac.asarray(X))
    # tanh's vjp: g * (1 - y*y) once for the whole (30, 30) basis (y*y, on plain
    # arrays, runs natively without reaching the op's public function)
    assert calls.shapes == [((30, 30), (30,))]


def test_hessian_matches_and_uses_few_products(matmul_calls):
    def f(v):
        return ac.sum(ac.tanh(ac.asarray(W) @ v) ** 2)

    got = F.hessian(f)(ac.asarray(X))
    # jacfwd(jacrev(f)): primal and tangent forward products, the (batched) tangent's,
    # and the backward's: a fixed number, independent of the 30 basis vectors.
    assert matmul_calls.n <= 6, matmul_calls.shapes
    y = np.tanh(W @ X)
    d = 1 - y * y
    # f = sum(y^2): grad = W^T (2 y d); hessian = W^T diag(2 d^2 - 4 y^2 d) W
    want = W.T @ np.diag(2 * d * d - 4 * y * y * d) @ W
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)


def test_jacrev_of_scalar_output_is_one_backward_pass(monkeypatch):
    calls = _op_calls(monkeypatch, "multiply")
    x = arr(6)
    got = F.jacrev(lambda v: ac.sum(ac.sin(v) * v))(ac.asarray(x))
    np.testing.assert_allclose(np.asarray(got), np.cos(x) * x + np.sin(x), rtol=1e-12)
    # forward sin(v)*v, backward g*v, g*sin(v), g*cos(v): all unbatched
    assert all(B not in s for s in calls.shapes)
    assert all(len(t) <= 1 for s in calls.shapes for t in s)


@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
def test_jacobian_shapes_and_argnums(jac):
    a, b = arr(2, 3), arr(3)

    def f(x, y):
        return {"p": ac.sin(x) * y, "s": ac.sum(x * x)}

    got = getattr(F, jac)(f, argnums=(0, 1))(ac.asarray(a), ac.asarray(b))
    jp_x, jp_y = got["p"]
    js_x, js_y = got["s"]
    assert jp_x.shape == (2, 3, 2, 3) and jp_y.shape == (2, 3, 3)
    assert js_x.shape == (2, 3) and js_y.shape == (3,)
    want_px = np.zeros((2, 3, 2, 3))
    for i in range(2):
        for j in range(3):
            want_px[i, j, i, j] = np.cos(a[i, j]) * b[j]
    want_py = np.zeros((2, 3, 3))
    for i in range(2):
        for j in range(3):
            want_py[i, j, j] = np.sin(a[i, j])
    np.testing.assert_allclose(np.asarray(jp_x), want_px, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(np.asarray(jp_y), want_py, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(np.asarray(js_x), 2 * a, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(js_y), np.zeros(3), atol=0)


def test_transforms_leave_no_reference_cycles():
    """Transform calls free their arrays by reference counting (no cyclic garbage): a
    cycle would keep every intermediate buffer alive until the collector runs."""
    Wa, xa = ac.asarray(W), ac.asarray(X)
    calls = [
        lambda: F.jacrev(lambda v: ac.tanh(Wa @ v))(xa),
        lambda: F.jacfwd(lambda v: ac.tanh(Wa @ v))(xa),
        lambda: F.hessian(lambda v: ac.sum(ac.tanh(Wa @ v) ** 2))(xa),
        lambda: F.grad(lambda v: ac.sum(ac.tanh(Wa @ v)))(xa),
        lambda: F.vmap(F.grad(lambda v: ac.sum(ac.tanh(Wa @ v))))(ac.ones((4, 30))),
        lambda: F.vmap(lambda c: (c * 2, c + 1))(ac.ones((4, 30))),
    ]
    for call in calls:
        call()
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for call in calls:
            call()
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_vjp_of_several_outputs_of_one_op():
    """Several outputs of one node are roots of the same backward pass (unstack)."""
    x = np.arange(6.0).reshape(2, 3)
    out, vjp_fn = F.vjp(lambda v: ac.unstack(v * 2.0, axis=0), ac.asarray(x))
    g0, g1 = np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0, 30.0])
    (got,) = vjp_fn((ac.asarray(g0), ac.asarray(g1)))
    np.testing.assert_allclose(np.asarray(got), 2 * np.stack([g0, g1]))
    jac = F.jacrev(lambda v: ac.unstack(ac.sin(v), axis=0))(ac.asarray(x))
    for i in range(2):
        want = np.zeros((3, 2, 3))
        want[np.arange(3), i, np.arange(3)] = np.cos(x[i])
        np.testing.assert_allclose(np.asarray(jac[i]), want, rtol=1e-12, atol=1e-15)
