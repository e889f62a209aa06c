"""The native tape (Note [The native tape], arraycore/native/src/bindings/bind_autodiff.cpp):
elementwise ops with a native derivative program are recorded and differentiated natively.

Every case is run twice: through the native path (`ac.<op>`, backward() without
create_graph) and through the Python path (the dispatcher's Python function, which records
with tape.record, and graph.run_backward's Python loop).  Gradients must be the same bits,
the recorded nodes the same, and errors the same.
"""
import numpy as np
import pytest

import arraycore as ac
from arraycore._core.op_table import OPS
from arraycore.autodiff import graph
from arraycore.autodiff.rules import elementwise as ew
from arraycore.native import _native

NATIVE = sorted(ew.NATIVE)
UNARY = sorted(n for n, p in ew.NATIVE.items() if len(p) == 1 and n not in ("positive",
                                                                           "negative"))
DTYPES = ["float32", "float64", "complex128"]


def python_fn(name):
    """The op's Python dispatcher (bind + tape.record), behind the native recorder."""
    taped = OPS[name].public.fallback
    assert type(taped) is _native.TapedFunction
    return taped.fallback


@pytest.fixture
def python_engine(monkeypatch):
    def use(flag):
        monkeypatch.setattr(graph, "_NATIVE_ENGINE", not flag)
    return use


def domain(name, shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    v = rng.uniform(0.2, 0.8, shape)
    if name == "acosh":
        v = v + 1.5
    if dtype.startswith("complex"):
        v = v + 1j * rng.uniform(0.1, 0.4, shape)
    return v.astype(dtype)


def leaf(v):
    x = ac.asarray(v.copy())
    x.requires_grad_()
    return x


def grads(f, values, python, python_engine):
    python_engine(python)
    xs = [leaf(v) for v in values]
    y = f(python, *xs)
    ac.sum(ac.real(y) if y.dtype.kind == "c" else y).backward()
    return [np.asarray(x.grad) for x in xs], y


def same_bits(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(a, b, equal_nan=True), (a, b)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("shape", [(5,), (), (2, 3)])
def test_unary_native_equals_python(name, dtype, shape, python_engine):
    v = domain(name, shape, dtype)

    def f(python, x):
        fn = python_fn(name) if python else getattr(ac, name)
        return fn(fn(x * 0.5) * 1.5 if name not in ("acosh",) else fn(x) + 1.0)

    (gn,), yn = grads(f, [v], False, python_engine)
    (gp,), yp = grads(f, [v], True, python_engine)
    same_bits(gn, gp)
    same_bits(np.asarray(yn), np.asarray(yp))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["multiply", "divide", "add", "subtract"])
@pytest.mark.parametrize("shapes", [((4,), (4,)), ((2, 3), (3,)), ((3, 1), (1, 4)), ((), (3,)),
                                    ((2, 3), ())])
def test_binary_native_equals_python_with_broadcasting(name, dtype, shapes, python_engine):
    a, b = domain(name, shapes[0], dtype, 1), domain(name, shapes[1], dtype, 2)

    def f(python, x1, x2):
        fn = python_fn(name) if python else getattr(ac, name)
        neg = python_fn("negative") if python else ac.negative
        return fn(neg(fn(x1, x2)), x2)

    gn, _ = grads(f, [a, b], False, python_engine)
    gp, _ = grads(f, [a, b], True, python_engine)
    for u, w in zip(gn, gp):
        same_bits(u, w)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("scalar", [0.9, 2, True, -3.5])
@pytest.mark.parametrize("name", ["multiply", "divide", "add", "subtract"])
def test_scalar_operands(name, dtype, scalar, python_engine):
    v = domain(name, (6,), dtype)

    def f(python, x):
        fn = python_fn(name) if python else getattr(ac, name)
        return fn(scalar, fn(x, scalar)) if name != "divide" else fn(fn(x, scalar), scalar)

    (gn,), _ = grads(f, [v], False, python_engine)
    (gp,), _ = grads(f, [v], True, python_engine)
    same_bits(gn, gp)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_non_contiguous_inputs(dtype, python_engine):
    base = domain("tanh", (4, 6), dtype)

    def f(python, x):
        t = ac.permute_dims(x[:, ::2], (1, 0))  # a strided, transposed view
        tanh = python_fn("tanh") if python else ac.tanh
        mul = python_fn("multiply") if python else ac.multiply
        return mul(tanh(t), ac.sin(t))

    (gn,), _ = grads(f, [base], False, python_engine)
    (gp,), _ = grads(f, [base], True, python_engine)
    same_bits(gn, gp)


def test_nodes_match_the_python_recording():
    x = leaf(np.linspace(-1, 1, 5))
    for name, args in [("tanh", (x,)), ("multiply", (x, 0.5)), ("multiply", (0.5, x)),
                       ("add", (x, x)), ("divide", (x, x + 3.0)), ("sqrt", (x * x,))]:
        yn = getattr(ac, name)(*args)
        yp = python_fn(name)(*args)
        n, p = yn.grad_fn, yp.grad_fn
        assert type(n) is type(p) is graph.Node
        for attr in ("op", "kwargs", "n_outputs", "multi", "out_metas", "released",
                     "creation_trace", "pre_hooks", "tape"):
            assert getattr(n, attr) == getattr(p, attr), (name, attr)
        assert n.args == p.args or all(a is b for a, b in zip(n.args, p.args))
        assert [e[:2] + e[3:] for e in n.edges] == [e[:2] + e[3:] for e in p.edges]
        assert [e[2] for e in n.edges] == [e[2] for e in p.edges]
        assert (n.out is None) == (p.out is None)
        assert type(n.saved) is type(p.saved) and len(n.saved) == len(p.saved)
        assert [v for _, v in n.saved] == [v for _, v in p.saved]
        assert yn._ad.requires_grad and yn._ad.output_nr == 0 and not yn.is_leaf
        same_bits(np.asarray(yn), np.asarray(yp))


def test_pure_elementwise_chain_runs_natively(monkeypatch):
    calls = []
    step = graph._native_step
    monkeypatch.setattr(graph, "_native_step", lambda n, c: calls.append(n.name()) or step(n, c))
    graph.install_native()  # (the engine holds the helpers it was given at setup)
    try:
        x = leaf(np.linspace(-1, 1, 16))
        y = x
        for _ in range(5):
            y = ac.sin(ac.tanh(y * 0.9 + 0.1))
        ac.sum(y).backward()
    finally:
        monkeypatch.undo()
        graph.install_native()
    assert calls == ["SumBackward"]  # every elementwise node ran natively
    np.testing.assert_allclose(np.asarray(x.grad), _chain_grad(np.linspace(-1, 1, 16)))


def _chain_grad(v):
    g = np.ones_like(v)
    vals = [v]
    for _ in range(5):
        vals.append(np.sin(np.tanh(vals[-1] * 0.9 + 0.1)))
    for a in reversed(vals[:-1]):
        t = np.tanh(a * 0.9 + 0.1)
        g = g * np.cos(t) * (1 - t * t) * 0.9
    return g


def test_hooks_retain_grad_and_mixed_graphs_match(python_engine):
    def run(python):
        python_engine(python)
        w = leaf(np.linspace(0.1, 0.9, 12).reshape(3, 4))
        x = leaf(np.linspace(-1, 1, 4))
        seen = []
        h = ac.tanh(w @ x) * 2.0
        h.register_hook(lambda g: seen.append(np.asarray(g)) or g * 3.0)
        h2 = ac.sin(h) + h
        h2.retain_grad()
        loss = ac.sum(ac.exp(h2) * x[:3])
        loss.backward()
        return [np.asarray(w.grad), np.asarray(x.grad), np.asarray(h2.grad)] + seen

    for u, w in zip(run(False), run(True)):
        same_bits(u, w)


def test_function_nodes_in_a_native_chain(python_engine):
    class Cube(ac.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3.0 * x * x

    def run(python):
        python_engine(python)
        x = leaf(np.linspace(-1, 1, 6))
        y = ac.tanh(Cube.apply(ac.sin(x) * 0.5)) + x
        ac.sum(y).backward()
        return np.asarray(x.grad)

    same_bits(run(False), run(True))


@pytest.mark.parametrize("variant", ["out", "input", "scalar_saved_twice"])
def test_version_counter_errors_through_native_nodes(variant):
    x = leaf(np.linspace(0.1, 0.9, 5))
    if variant == "out":
        y = ac.exp(x * 1.0)   # exp saves its output
        y.detach().__iadd__(1.0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            ac.sum(y).backward()
    elif variant == "input":
        a = x * 1.0
        y = ac.sin(a)         # sin saves its input
        a.detach().__imul__(2.0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation.*Sin"):
            ac.sum(y).backward()
    else:
        y = ac.tanh(x * 2.0)
        ac.sum(y).backward()
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            ac.sum(y).backward()


def test_retain_graph_and_release(python_engine):
    def run(python):
        python_engine(python)
        x = leaf(np.linspace(0.1, 0.9, 5))
        y = ac.tanh(x + 1.0) - x
        ac.sum(y).backward(retain_graph=True)
        first = np.asarray(x.grad).copy()
        ac.sum(y).backward()
        node = y.grad_fn
        # `x + 1.0` saves nothing: released keeping shapes; tanh saves its output.
        return first, np.asarray(x.grad), node.released, node.edges[0][2].released

    n, p = run(False), run(True)
    same_bits(n[0], p[0])
    same_bits(n[1], p[1])
    assert n[2:] == p[2:]


def test_double_backward_uses_the_python_rules():
    x = leaf(np.linspace(0.1, 0.9, 5))
    y = ac.sum(ac.tanh(x) * x)
    (g,) = ac.autograd.grad(y, x, create_graph=True)
    ac.sum(g).backward()
    t = np.tanh(np.asarray(x.detach()))
    xv = np.asarray(x.detach())
    # d/dx [ (1 - t^2) x + t ] summed: -2 t (1 - t^2) x + 2 (1 - t^2)
    np.testing.assert_allclose(np.asarray(x.grad), -2 * t * (1 - t * t) * xv + 2 * (1 - t * t))


def test_no_grad_transforms_and_anomaly_take_the_python_path():
    x = leaf(np.linspace(0.1, 0.9, 5))
    with ac.no_grad():
        assert ac.tanh(x).grad_fn is None
    g = ac.func.grad(lambda v: ac.sum(ac.tanh(v) * 2.0))(ac.asarray(np.linspace(0.1, 0.9, 5)))
    np.testing.assert_allclose(np.asarray(g), 2 * (1 - np.tanh(np.linspace(0.1, 0.9, 5)) ** 2))
    with ac.autograd.detect_anomaly():
        y = ac.tanh(x)
        assert y.grad_fn.creation_trace is not None
        ac.sum(y).backward()


def test_mixed_dtypes_record_through_python():
    x = leaf(np.linspace(0.1, 0.9, 5).astype("float32"))
    c = ac.asarray(np.linspace(1, 2, 5))  # float64: promotion, the Python path
    y = x * c
    assert y.dtype == ac.float64
    ac.sum(y).backward()
    assert x.grad.dtype == ac.float32
    np.testing.assert_allclose(np.asarray(x.grad), np.linspace(1, 2, 5), rtol=1e-6)


def test_redefined_rule_is_not_run_natively():
    from arraycore.autodiff.rules import base
    op = OPS["sin"]
    old = op.vjp, op.jvp, op.batch, dict(op.extra)
    try:
        base.define(op, vjp=lambda g, a, k, o, n: {0: g * 7.0})
        x = leaf(np.linspace(0.1, 0.9, 3))
        ac.sum(ac.sin(x)).backward()
        np.testing.assert_array_equal(np.asarray(x.grad), [7.0, 7.0, 7.0])
    finally:
        op.vjp, op.jvp, op.batch = old[:3]
        op.extra.clear()
        op.extra.update(old[3])
