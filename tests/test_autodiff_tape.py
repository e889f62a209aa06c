"""The torch-style tape (`arraycore.autograd`) against PyTorch 2.13.

Every behavioural test is a scenario written once against a "library" argument (the
`arraycore` module or the `torch` module: they share the names used here: `asarray`,
`ones`, `float64`, `no_grad`, `autograd.grad`, the tensor methods `requires_grad_`,
`backward`, `register_hook`, ...), run on both, and compared: values, flags, and whether it
raises.  PyTorch's behaviour is the oracle, so a deviation is visible without restating what
PyTorch does.  The user functions come from autodiff_functions.py (namespace-generic).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraycore as ac
from autodiff_functions import CASES, VECTOR_CASES, namespace, to_np

torch = pytest.importorskip("torch")

LIBS = {"ac": ac, "torch": torch}

# Known core bugs (reported to the lead; remove a mark once its bug is fixed).
STATIC_SAVES = ("rules/base.define_binary: saved slots are the union over both inputs, not "
                "only those the needed derivatives read (raises where torch does not)")
RELEASED_NO_SAVES = ("graph.Node.apply raises 'backward a second time' for nodes that saved "
                     "nothing (torch only raises when a freed saved value is needed)")
STALE_VIEW = ("a view taken before its base was written keeps its old history: silent wrong "
              "gradient (torch regenerates the view's grad_fn)")
HOOKS_AUTOGRAD_GRAD = ("graph.run_backward captures autograd.grad results before the "
                       "tensor hooks run")
COMPLEX_IMPLICIT = ("tape._root_edges creates the implicit gradient for complex scalars "
                    "(torch: real scalars only)")


def known_bug(reason):
    return pytest.mark.xfail(strict=True, reason=reason)


def with_known_bugs(values, bugs, name=str):
    """pytest.param for each value, xfail-marked where name(value) is in `bugs`."""
    return [pytest.param(v, marks=known_bug(bugs[name(v)])) if name(v) in bugs else v
            for v in values]


# --- helpers ------------------------------------------------------------------------------

def arr(lib, a, requires_grad=False):
    """A fresh array of `lib` from NumPy data (a copy: no buffer shared between tests)."""
    x = lib.asarray(np.array(a))
    if requires_grad:
        x.requires_grad_()
    return x


def xsum(y):
    return namespace(y).sum(y)


def _np_tree(v):
    if isinstance(v, dict):
        return {k: _np_tree(w) for k, w in v.items()}
    if isinstance(v, (list, tuple)):
        return [_np_tree(w) for w in v]
    if isinstance(v, (bool, int, float, complex, str)) or v is None:
        return v
    return to_np(v)


def assert_same(a, b, rtol=1e-12, atol=1e-14, path="result"):
    """a (arraycore side) equals b (torch side), recursively."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{path}: {a!r} vs {b!r}"
        for k in a:
            assert_same(a[k], b[k], rtol, atol, f"{path}[{k!r}]")
        return
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: {a!r} vs {b!r}"
        for i, (u, w) in enumerate(zip(a, b)):
            assert_same(u, w, rtol, atol, f"{path}[{i}]")
        return
    if a is None or b is None or isinstance(a, (bool, str)):
        assert a == b, f"{path}: arraycore {a!r}, torch {b!r}"
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{path}: shape {a.shape} vs torch {b.shape}"
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        assert a.dtype == b.dtype, f"{path}: dtype {a.dtype} vs torch {b.dtype}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=path)
    else:
        np.testing.assert_array_equal(a, b, err_msg=path)


def outcome(lib, scenario, *args):
    """("ok", numpy tree of the result) or (exception type name, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = scenario(lib, *args)
    except (RuntimeError, TypeError, ValueError) as e:
        return type(e).__name__, str(e)
    return "ok", _np_tree(res)


def check_like_torch(scenario, *args, rtol=1e-12, atol=1e-14, message=None):
    """Runs the scenario on arraycore and on torch: same outcome (result or exception type);
    `message`: a substring arraycore's error must contain."""
    kind_a, res_a = outcome(ac, scenario, *args)
    kind_t, res_t = outcome(torch, scenario, *args)
    assert kind_a == kind_t, (f"arraycore: {kind_a} ({res_a if kind_a != 'ok' else ''}); "
                              f"torch: {kind_t} ({res_t if kind_t != 'ok' else ''})")
    if kind_a == "ok":
        assert_same(res_a, res_t, rtol, atol)
    elif message is not None:
        assert message in res_a, f"arraycore's message {res_a!r} lacks {message!r}"
    return kind_a, res_a


X3 = np.array([0.5, -1.25, 2.0])
V3 = np.array([0.3, -0.7, 1.1])


# --- flags: requires_grad, is_leaf, grad_fn -----------------------------------------------

def _flags(lib):
    x = arr(lib, X3)
    r = [x.requires_grad, x.is_leaf, x.grad_fn is None, x.grad is None]
    same = x.requires_grad_() is x
    r += [same, x.requires_grad, x.is_leaf, x.grad_fn is None]
    y = x * 2
    r += [y.requires_grad, y.is_leaf, y.grad_fn is not None]
    z = namespace(x).sin(y) + y
    r += [z.requires_grad, z.is_leaf, z.grad_fn is not None]
    c = arr(lib, X3) * 2
    r += [c.requires_grad, c.is_leaf, c.grad_fn is None]
    x.requires_grad_(False)
    r += [x.requires_grad, x.is_leaf]
    x.requires_grad = True
    r += [x.requires_grad]
    return r


def test_flags():
    check_like_torch(_flags)


def _flags_int_result(lib):
    # Comparisons of a tracked array give bool arrays that never require grad.
    x = arr(lib, X3, True)
    m = x > 0
    return [m.requires_grad, m.grad_fn is None, m.is_leaf]


def test_int_results_do_not_require_grad():
    check_like_torch(_flags_int_result)


def _requires_grad_off_on_nonleaf(lib):
    x = arr(lib, X3, True)
    y = x * 2
    y.requires_grad_(False)


def test_requires_grad_false_on_nonleaf_raises():
    check_like_torch(_requires_grad_off_on_nonleaf)


@pytest.mark.parametrize("data", [np.arange(3), np.array([True, False])],
                         ids=["int64", "bool"])
def test_requires_grad_on_integer_raises(data):
    def scenario(lib):
        arr(lib, data).requires_grad_()
    kind, _ = check_like_torch(scenario)
    assert kind == "RuntimeError"

    def via_setter(lib):
        arr(lib, data).requires_grad = True
    check_like_torch(via_setter)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_grad_dtype_follows_input(dtype):
    def scenario(lib):
        x = arr(lib, (X3 + 1j * V3 if dtype == "complex128" else X3).astype(dtype), True)
        xp = namespace(x)
        y = xp.sum(xp.abs(x * x))
        y.backward()
        return x.grad
    check_like_torch(scenario, rtol=1e-6 if dtype == "float32" else 1e-12)


# --- detach ------------------------------------------------------------------------------

def _detach(lib):
    x = arr(lib, X3, True)
    y = namespace(x).exp(x)
    d = y.detach()
    r = [d.requires_grad, d.is_leaf, d.grad_fn is None, d]
    d[0] = 100.0  # shares memory with y (PyTorch: the same storage)
    r.append(y.detach())
    return r


def test_detach_shares_memory_and_drops_history():
    check_like_torch(_detach)


def _detach_write_then_backward(lib):
    # exp saves its output; writing through a detached alias changes the saved value.
    x = arr(lib, X3, True)
    y = namespace(x).exp(x)
    d = y.detach()
    d += 1.0
    xsum(y).backward()
    return x.grad


def test_write_through_detached_alias_is_detected():
    kind, _ = check_like_torch(_detach_write_then_backward,
                               message="modified by an inplace operation")
    assert kind == "RuntimeError"


# --- .grad --------------------------------------------------------------------------------

def _grad_settable(lib):
    x = arr(lib, X3, True)
    x.grad = arr(lib, np.ones(3))
    xsum(x * x).backward()  # accumulates onto the assigned gradient
    r = [x.grad]
    x.grad = None
    r.append(x.grad)
    xsum(x * x).backward()
    r.append(x.grad)
    return r


def test_grad_settable_and_none_clears():
    check_like_torch(_grad_settable)


def _grad_wrong_shape(lib):
    x = arr(lib, X3, True)
    x.grad = arr(lib, np.ones(4))


def test_grad_assign_wrong_shape_raises():
    kind, _ = check_like_torch(_grad_wrong_shape)
    assert kind == "RuntimeError"


def _grad_wrong_type(lib):
    x = arr(lib, X3, True)
    x.grad = [1.0, 2.0, 3.0]


def test_grad_assign_non_array_raises():
    kind, _ = check_like_torch(_grad_wrong_type)
    assert kind == "TypeError"


def test_nonleaf_grad_access_warns():
    for lib in LIBS.values():
        x = arr(lib, X3, True)
        y = x * 2
        with pytest.warns(UserWarning):
            assert y.grad is None


def _accumulate_two_graphs(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    xsum(x * x).backward()
    xsum(xp.sin(x)).backward()
    return x.grad


def test_accumulation_across_backward_calls():
    check_like_torch(_accumulate_two_graphs)


def _same_input_twice(lib):
    x = arr(lib, X3, True)
    y = arr(lib, V3, True)
    xp = namespace(x)
    z = xsum(xp.sin(x) * x * y + x / (y * y + 1.0))
    z.backward()
    return [x.grad, y.grad]


def test_input_used_several_times():
    check_like_torch(_same_input_twice)


def _broadcast(lib):
    x = arr(lib, X3, True)
    w = arr(lib, np.arange(6.0).reshape(2, 3) - 2.5, True)
    b = arr(lib, np.array([[0.5], [-1.5]]), True)
    xp = namespace(x)
    xsum(xp.tanh(x * w + b) * x).backward()
    return [x.grad, w.grad, b.grad]


def test_broadcast_gradients_sum_over_broadcast_axes():
    check_like_torch(_broadcast)


# --- retain_grad and hooks ----------------------------------------------------------------

def _retain_grad(lib):
    x = arr(lib, X3, True)
    y = x * 2
    y.retain_grad()
    z = namespace(x).sin(y) * y
    z.retain_grad()
    xsum(z * z).backward()
    return [y.retains_grad, z.retains_grad, x.retains_grad, y.grad, z.grad, x.grad]


def test_retain_grad_populates_nonleaf_grad():
    check_like_torch(_retain_grad)


def _retain_grad_on_leaf_noop(lib):
    x = arr(lib, X3, True)
    x.retain_grad()
    xsum(x * x).backward()
    return [x.grad, x.retains_grad]


def test_retain_grad_on_leaf_is_a_noop():
    check_like_torch(_retain_grad_on_leaf_noop)


def _retain_grad_no_requires(lib):
    x = arr(lib, X3)
    x.retain_grad()


def test_retain_grad_without_requires_grad_raises():
    check_like_torch(_retain_grad_no_requires)


def _leaf_hook(lib):
    x = arr(lib, X3, True)
    h = x.register_hook(lambda g: g * 2)
    xsum(x * x).backward()
    r = [x.grad]
    h.remove()
    x.grad = None
    xsum(x * x).backward()
    r.append(x.grad)
    return r


def test_leaf_hook_modifies_grad_and_remove():
    check_like_torch(_leaf_hook)


def _nonleaf_hook(lib):
    x = arr(lib, X3, True)
    y = x * 3
    seen = []
    y.register_hook(lambda g: g + 1)
    y.register_hook(lambda g: seen.append(g * 1) or None)  # observes, returns None
    xsum(y * y).backward()
    return [x.grad, seen[0]]


def test_nonleaf_hooks_compose_in_order():
    check_like_torch(_nonleaf_hook)


def _hook_remove_nonleaf(lib):
    x = arr(lib, X3, True)
    y = x * 3
    h = y.register_hook(lambda g: g * 10)
    h.remove()
    xsum(y * y).backward()
    return x.grad


def test_nonleaf_hook_remove():
    check_like_torch(_hook_remove_nonleaf)


def _hook_no_requires(lib):
    x = arr(lib, X3)
    x.register_hook(lambda g: g)


def test_hook_on_array_without_grad_raises():
    kind, _ = check_like_torch(_hook_no_requires)
    assert kind == "RuntimeError"


# --- backward -----------------------------------------------------------------------------

def _backward_gradient(lib):
    x = arr(lib, X3, True)
    y = namespace(x).sin(x) * x
    y.backward(gradient=arr(lib, V3))
    return x.grad


def test_backward_with_gradient():
    check_like_torch(_backward_gradient)


def _backward_nonscalar_no_gradient(lib):
    x = arr(lib, X3, True)
    (x * x).backward()


def test_backward_nonscalar_without_gradient_raises():
    kind, _ = check_like_torch(_backward_nonscalar_no_gradient)
    assert kind == "RuntimeError"


def _backward_gradient_wrong_shape(lib):
    x = arr(lib, X3, True)
    (x * x).backward(gradient=arr(lib, np.ones(4)))


def test_backward_gradient_shape_mismatch_raises():
    kind, _ = check_like_torch(_backward_gradient_wrong_shape)
    assert kind == "RuntimeError"


def _backward_no_grad_output(lib):
    x = arr(lib, X3)
    xsum(x * x).backward()


def test_backward_of_array_without_grad_raises():
    kind, _ = check_like_torch(_backward_no_grad_output)
    assert kind == "RuntimeError"


def _backward_one_element(lib):
    # A non-0-d array with one element counts as a scalar (torch: numel() == 1).
    x = arr(lib, X3, True)
    y = x[:1] * x[1:2]
    y.backward()
    return x.grad


def test_backward_of_one_element_array():
    check_like_torch(_backward_one_element)


@pytest.mark.parametrize("expr", with_known_bugs(["x*x", "x*2", "x+1", "exp", "x/y"],
                                                  {}))
def test_second_backward_without_retain_graph(expr):
    """Raises exactly when PyTorch raises: when a node needs a value it freed."""
    def scenario(lib):
        x = arr(lib, X3, True)
        xp = namespace(x)
        y = {"x*x": lambda: x * x, "x*2": lambda: x * 2, "x+1": lambda: x + 1,
             "exp": lambda: xp.exp(x), "x/y": lambda: x / arr(lib, V3)}[expr]()
        s = xsum(y)
        s.backward()
        s.backward()
        return x.grad
    kind, res = check_like_torch(scenario)
    if expr in ("x*x", "exp"):
        assert kind == "RuntimeError"
        assert "second time" in res


def _retain_graph_twice(lib):
    x = arr(lib, X3, True)
    s = xsum(namespace(x).sin(x) * x)
    s.backward(retain_graph=True)
    g1 = x.grad * 1
    s.backward()
    return [g1, x.grad]


def test_retain_graph_allows_second_backward_and_accumulates():
    check_like_torch(_retain_graph_twice)


def _autograd_backward(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    y1 = xp.sin(x) * x
    y2 = xsum(x * x)
    lib.autograd.backward([y1, y2], [arr(lib, V3), None])
    return x.grad


def test_autograd_backward_several_roots():
    check_like_torch(_autograd_backward)


def _backward_inputs(lib):
    x = arr(lib, X3, True)
    w = arr(lib, V3, True)
    xsum(x * w * w).backward(inputs=[x])
    return [x.grad, w.grad]


def test_backward_inputs_restricts_accumulation():
    check_like_torch(_backward_inputs)


# --- autograd.grad ------------------------------------------------------------------------

def _grad_single(lib):
    x = arr(lib, X3, True)
    r = lib.autograd.grad(xsum(namespace(x).sin(x) * x), x)
    return [type(r).__name__, len(r), r[0], x.grad]


def test_autograd_grad_single_input_returns_tuple_and_does_not_accumulate():
    check_like_torch(_grad_single)


def _grad_multi(lib):
    x = arr(lib, X3, True)
    y = arr(lib, V3, True)
    xp = namespace(x)
    out = xp.sin(x) * y + x * x
    gx, gy = lib.autograd.grad(out, [x, y], grad_outputs=arr(lib, [1.0, -2.0, 0.5]))
    return [gx, gy]


def test_autograd_grad_several_inputs_and_grad_outputs():
    check_like_torch(_grad_multi)


def _grad_several_outputs(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    (g,) = lib.autograd.grad([xsum(x * x), xsum(xp.exp(x))], [x])
    return g


def test_autograd_grad_several_outputs_sum():
    check_like_torch(_grad_several_outputs)


def _grad_unused(lib, allow, materialize=False):
    x = arr(lib, X3, True)
    z = arr(lib, V3, True)
    kw = {"allow_unused": allow}
    if materialize:
        kw["materialize_grads"] = True
    return list(lib.autograd.grad(xsum(x * x), [x, z], **kw))


def test_autograd_grad_unused_input_raises():
    kind, _ = check_like_torch(_grad_unused, False)
    assert kind == "RuntimeError"


def test_autograd_grad_allow_unused_gives_none():
    kind, res = check_like_torch(_grad_unused, True)
    assert res[1] is None


def test_autograd_grad_materialize_grads():
    check_like_torch(_grad_unused, True, True)


def _grad_input_without_grad(lib):
    x = arr(lib, X3, True)
    c = arr(lib, V3)
    lib.autograd.grad(xsum(x * c), [c])


def test_autograd_grad_input_not_requiring_grad_raises():
    kind, _ = check_like_torch(_grad_input_without_grad)
    assert kind == "RuntimeError"


def _grad_retain(lib, retain):
    x = arr(lib, X3, True)
    s = xsum(namespace(x).cos(x) * x)
    a = lib.autograd.grad(s, x, retain_graph=retain)[0]
    b = lib.autograd.grad(s, x)[0]
    return [a, b]


def test_autograd_grad_retain_graph():
    check_like_torch(_grad_retain, True)
    kind, _ = check_like_torch(_grad_retain, False)
    assert kind == "RuntimeError"


def _grad_create_graph_flags(lib):
    x = arr(lib, X3, True)
    s = xsum(namespace(x).sin(x) * x)
    (g,) = lib.autograd.grad(s, x, create_graph=True)
    (g0,) = lib.autograd.grad(xsum(namespace(x).sin(x) * x), x)
    return [g.requires_grad, g.grad_fn is not None, g0.requires_grad, g0.grad_fn is None]


def test_autograd_grad_create_graph_result_is_recorded():
    check_like_torch(_grad_create_graph_flags)


# --- the shared functions -----------------------------------------------------------------

def _case_grads(lib, case):
    xs = [arr(lib, a, True) for a in case.numpy_inputs(seed=3)]
    y = case.fn(*xs)
    y.backward()
    return [x.grad for x in xs]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_functions_backward(case):
    check_like_torch(_case_grads, case, rtol=1e-11)


def _case_vector_vjp(lib, case):
    ins = case.numpy_inputs(seed=4)
    xs = [arr(lib, a, True) for a in ins]
    y = case.fn(*xs)
    rng = np.random.default_rng(1)
    g = rng.normal(size=tuple(y.shape))
    if case.complex:
        g = g + 1j * rng.normal(size=tuple(y.shape))
    y.backward(gradient=arr(lib, g))
    return [x.grad for x in xs]


@pytest.mark.parametrize("case", VECTOR_CASES,
                         ids=str)
def test_functions_backward_with_gradient(case):
    check_like_torch(_case_vector_vjp, case, rtol=1e-11)


def _hvp(lib, case):
    """Double backward: the gradient recorded with create_graph=True, then differentiated
    along v (a Hessian-vector product)."""
    xs = [arr(lib, a, True) for a in case.numpy_inputs(seed=5)]
    rng = np.random.default_rng(2)
    vs = [arr(lib, rng.normal(size=x.shape) + (1j * rng.normal(size=x.shape)
                                                if case.complex else 0)) for x in xs]
    gs = lib.autograd.grad(case.fn(*xs), xs, create_graph=True)
    s = None
    for g, v in zip(gs, vs):
        xp = namespace(g)
        t = xsum(xp.real(g * v) if case.complex else g * v)
        s = t if s is None else s + t
    hv = lib.autograd.grad(s, xs, allow_unused=True)
    return list(hv)


@pytest.mark.parametrize("case", CASES,
                         ids=str)
def test_double_backward(case):
    check_like_torch(_hvp, case, rtol=1e-10, atol=1e-12)


def _backward_create_graph_then_again(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    xsum(xp.sin(x) * x * x).backward(create_graph=True)
    gx = x.grad
    r = [gx.requires_grad, gx.grad_fn is not None, gx * 1]
    x.grad = None
    xsum(gx * arr(lib, V3)).backward()
    r.append(x.grad)
    return r


def test_backward_create_graph_then_backward_through_grad():
    check_like_torch(_backward_create_graph_then_again)


def _third_derivative(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    (g1,) = lib.autograd.grad(xsum(xp.sin(x) * xp.exp(x)), x, create_graph=True)
    (g2,) = lib.autograd.grad(xsum(g1), x, create_graph=True)
    (g3,) = lib.autograd.grad(xsum(g2 * g2), x)
    return [g1, g2, g3]


def test_third_derivative():
    check_like_torch(_third_derivative, rtol=1e-10)


# --- complex ------------------------------------------------------------------------------

Z3 = np.array([0.5 - 0.25j, -1.0 + 0.75j, 0.3 + 1.2j])


def _complex_holomorphic_scalar_mult(lib):
    z = arr(lib, Z3, True)
    xp = namespace(z)
    y = xp.exp(z) * z + xp.sin(z) * 0.5 + (1 + 2j) * z
    y.backward(gradient=arr(lib, V3 + 0.5j))
    return z.grad


def test_complex_holomorphic_with_python_scalars():
    check_like_torch(_complex_holomorphic_scalar_mult)


def _complex_real_valued(lib):
    z = arr(lib, Z3, True)
    xp = namespace(z)
    s = xsum(xp.abs(z) ** 2 + xp.real(z) * xp.imag(z) + xp.real(xp.conj(z) * xp.log(z)))
    s.backward()
    return z.grad


def test_complex_real_valued_function():
    check_like_torch(_complex_real_valued)


def _real_to_complex(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    w = arr(lib, Z3)
    s = xsum(xp.abs(x * w + 1.0))
    s.backward()
    return x.grad


def test_real_input_complex_intermediate():
    check_like_torch(_real_to_complex)


# --- in-place operations ------------------------------------------------------------------

@pytest.mark.parametrize("op", ["+=", "*=", "setitem"])
def test_inplace_on_leaf_requiring_grad_raises(op):
    def scenario(lib):
        x = arr(lib, X3, True)
        if op == "+=":
            x += 1.0
        elif op == "*=":
            x *= arr(lib, V3)
        else:
            x[0] = 1.0
    kind, res = check_like_torch(scenario)
    assert kind == "RuntimeError"
    assert "leaf" in res


def _sgd_update(lib):
    x = arr(lib, X3, True)
    xsum(namespace(x).sin(x) * x).backward()
    with lib.no_grad():
        x -= 0.1 * x.grad
        x[0] = 2.0
    r = [x * 1, x.requires_grad, x.is_leaf]
    x.grad = None
    xsum(x * x).backward()
    r.append(x.grad)
    return r


def test_inplace_on_leaf_under_no_grad_is_allowed():
    check_like_torch(_sgd_update)


@pytest.mark.parametrize("op", ["+=x", "*=x", "-=2", "/=y", "**=2"])
def test_inplace_on_nonleaf_is_recorded(op):
    def scenario(lib):
        x = arr(lib, X3, True)
        y = x * 2
        fn0 = y.grad_fn
        if op == "+=x":
            y += x
        elif op == "*=x":
            y *= x
        elif op == "-=2":
            y -= 2.0
        elif op == "/=y":
            y /= namespace(x).exp(x)
        else:
            y **= 2
        changed = y.grad_fn is not fn0
        xsum(y * namespace(x).sin(y)).backward()
        return [changed, y.detach(), x.grad]
    check_like_torch(scenario)


@pytest.mark.parametrize("key", ["0", "1:", "::2", "neg", "ellipsis"])
def test_setitem_constant_on_nonleaf(key):
    k = {"0": 0, "1:": slice(1, None), "::2": slice(None, None, 2), "neg": -1,
         "ellipsis": (Ellipsis, 1)}[key]

    def scenario(lib):
        x = arr(lib, X3, True)
        y = x * 2
        y[k] = 0.0
        xsum(y * y * x).backward()
        return [y.detach(), x.grad]
    check_like_torch(scenario)


def _setitem_value_requires_grad(lib):
    x = arr(lib, X3, True)
    w = arr(lib, V3[:2], True)
    y = x * 2
    y[1:] = w * w
    xsum(namespace(y).sin(y) * x).backward()
    return [y.detach(), x.grad, w.grad]


def test_setitem_with_value_requiring_grad():
    check_like_torch(_setitem_value_requires_grad)


def _setitem_into_plain_array(lib):
    # A buffer that does not require grad receives a tracked value: it joins the graph.
    x = arr(lib, X3, True)
    buf = lib.zeros(5, dtype=lib.float64)
    buf[1:4] = x * x
    r = [buf.requires_grad, buf.is_leaf]
    xsum(buf * buf).backward()
    return r + [x.grad]


def test_setitem_tracked_value_into_plain_buffer():
    check_like_torch(_setitem_into_plain_array)


def _setitem_advanced(lib):
    x = arr(lib, np.arange(1.0, 6.0), True)
    y = x * 1.5
    y[lib.asarray(np.array([0, 3]))] = x[:2] * 4
    xsum(y * y).backward()
    return x.grad


def test_setitem_advanced_index():
    check_like_torch(_setitem_advanced)


def _setitem_mask(lib):
    x = arr(lib, np.array([0.5, -1.0, 2.0, -0.1]), True)
    y = x * 3
    y[y < 0] = 0.0
    xsum(y * y).backward()
    return x.grad


def test_setitem_boolean_mask():
    check_like_torch(_setitem_mask)


@pytest.mark.parametrize("variant", ["exp_out", "sin_in_mul", "pow_out"])
def test_modified_saved_value_raises(variant):
    def scenario(lib):
        x = arr(lib, X3, True)
        xp = namespace(x)
        if variant == "exp_out":        # exp saves its output
            y = xp.exp(x)
            y += 1.0
            xsum(y).backward()
        elif variant == "sin_in_mul":   # y * y saves y
            y = xp.sin(x)
            z = y * y
            y += 1.0
            xsum(z).backward()
        else:                           # x**3 saves its input
            y = x * 1.0
            z = y ** 3
            y[0] = 5.0
            xsum(z).backward()
        return x.grad
    kind, _ = check_like_torch(scenario, message="modified by an inplace operation")
    assert kind == "RuntimeError"


@pytest.mark.parametrize("variant", with_known_bugs(
    ["add", "mul_by_python_scalar", "mul_by_constant"],
    {}))
def test_modified_unsaved_value_is_fine(variant):
    """PyTorch raises only when the modified value is one a backward formula reads."""
    def scenario(lib):
        x = arr(lib, X3, True)
        y = x * 2
        if variant == "add":
            z = y + 1.0
        elif variant == "mul_by_python_scalar":
            z = y * 3.0
        else:
            z = y * arr(lib, V3)
        y += 1.0
        xsum(z).backward()
        return x.grad
    check_like_torch(scenario)


def _view_inplace_then_setitem(lib):
    # y[1:] += 1 is: tmp = y[1:]; tmp += 1 (an in-place op on a view); y[1:] = tmp.
    x = arr(lib, X3, True)
    y = x * 1
    y[1:] += 1
    y[:2] *= x[1:]
    xsum(y * y).backward()
    return [y.detach(), x.grad]


def test_view_inplace_then_setitem():
    check_like_torch(_view_inplace_then_setitem)


def _view_inplace_reaches_base(lib):
    x = arr(lib, X3, True)
    y = x * 2
    v = y[1:]
    v *= x[:2]
    xsum(y * y).backward()
    return [y.detach(), x.grad]


def test_inplace_on_view_updates_base_history():
    check_like_torch(_view_inplace_reaches_base)


def _views_written_with_unsaved_ops(lib):
    # Writes through two overlapping views with ops whose rules save nothing (+=, -=), then
    # an augmented setitem: every write lands in the base's history (PyTorch's CopySlices).
    x = arr(lib, X3, True)
    y = x * 2
    v = y[1:]
    v += x[:2] * x[:2]
    w = y[:2]
    w -= 1.0
    y[1:] += 1
    xsum(y * y).backward()
    return [y.detach(), x.grad]


def test_writes_through_views_reach_base():
    check_like_torch(_views_written_with_unsaved_ops)


def _base_written_after_view(lib):
    # The view v sees the write into its base (same memory); PyTorch rebases v's history.
    x = arr(lib, X3, True)
    y = x * 2
    v = y[:2]
    y[0] = 5.0
    xsum(v * v).backward()
    return [v.detach(), x.grad]


def test_write_into_base_after_taking_view():
    """PyTorch regenerates the view's history; arraycore must either match or raise (never
    return a wrong gradient)."""
    kind_a, res_a = outcome(ac, _base_written_after_view)
    kind_t, res_t = outcome(torch, _base_written_after_view)
    assert kind_t == "ok"
    if kind_a == "ok":
        assert_same(res_a, res_t)
    else:
        assert kind_a == "RuntimeError"


# --- grad modes ---------------------------------------------------------------------------

def _no_grad_context(lib):
    x = arr(lib, X3, True)
    r = [lib.is_grad_enabled()]
    with lib.no_grad():
        r.append(lib.is_grad_enabled())
        y = x * 2
        with lib.enable_grad():
            r.append(lib.is_grad_enabled())
            z = x * 3
    r.append(lib.is_grad_enabled())
    r += [y.requires_grad, y.grad_fn is None, z.requires_grad]
    with lib.set_grad_enabled(False):
        w = x * 4
    r += [w.requires_grad, lib.is_grad_enabled()]
    with lib.inference_mode():
        u = x * 5
        r.append(lib.is_grad_enabled())
    with lib.inference_mode(False):
        q = x * 6
    r += [u.requires_grad, q.requires_grad, lib.is_grad_enabled()]
    return r


def test_grad_mode_context_managers():
    check_like_torch(_no_grad_context)


def _grad_mode_decorators(lib):
    x = arr(lib, X3, True)

    @lib.no_grad()
    def f(a):
        return a * 2, lib.is_grad_enabled()

    @lib.enable_grad()
    def g(a):
        return a * 2

    @lib.inference_mode()
    def h(a):
        return a * 2

    y, mode = f(x)
    with lib.no_grad():
        z = g(x)
    w = h(x)
    return [y.requires_grad, mode, z.requires_grad, w.requires_grad, lib.is_grad_enabled()]


def test_grad_mode_decorators():
    check_like_torch(_grad_mode_decorators)


def _set_grad_enabled_call(lib):
    x = arr(lib, X3, True)
    lib.set_grad_enabled(False)
    try:
        y = x * 2
        r = [lib.is_grad_enabled(), y.requires_grad]
    finally:
        lib.set_grad_enabled(True)
    return r + [lib.is_grad_enabled(), (x * 2).requires_grad]


def test_set_grad_enabled_as_function():
    check_like_torch(_set_grad_enabled_call)


def _mode_restored_after_exception(lib):
    @lib.no_grad()
    def boom():
        raise ValueError("x")
    try:
        boom()
    except ValueError:
        pass
    try:
        with lib.no_grad():
            raise KeyError("y")
    except KeyError:
        pass
    return lib.is_grad_enabled()


def test_grad_mode_restored_after_exception():
    check_like_torch(_mode_restored_after_exception)


def test_grad_modes_exported_in_autograd():
    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
                 "is_grad_enabled"):
        assert getattr(ac, name) is getattr(ac.autograd, name), name
    x = arr(ac, X3, True)
    with ac.autograd.no_grad():
        assert not (x * 2).requires_grad


def _no_grad_then_backward(lib):
    # Values computed under no_grad are constants of the graph.
    x = arr(lib, X3, True)
    xp = namespace(x)
    with lib.no_grad():
        c = xp.exp(x)
    xsum(c * x * x).backward()
    return x.grad


def test_no_grad_values_are_constants():
    check_like_torch(_no_grad_then_backward)


# --- more tape behaviour ------------------------------------------------------------------

def _grad_wrt_intermediate(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    y = x * 2
    z = xsum(xp.sin(y) * y)
    (gy,) = lib.autograd.grad(z, y, retain_graph=True)
    (gx, gy2) = lib.autograd.grad(z, [x, y])
    return [gy, gx, gy2]


def test_autograd_grad_with_respect_to_intermediate():
    check_like_torch(_grad_wrt_intermediate)


def _hooks_and_autograd_grad(lib):
    x = arr(lib, X3, True)
    y = x * 2
    x.register_hook(lambda g: g * 10)
    y.register_hook(lambda g: g + 1)
    z = xsum(y * y)
    gx, gy = lib.autograd.grad(z, [x, y])
    return [gx, gy]


def test_hooks_apply_to_autograd_grad_results():
    check_like_torch(_hooks_and_autograd_grad)


def _grads_batched(lib):
    x = arr(lib, X3, True)
    y = namespace(x).sin(x) * x
    eye = arr(lib, np.eye(3))
    (jac,) = lib.autograd.grad(y, x, grad_outputs=eye, is_grads_batched=True)
    return jac


def test_autograd_grad_is_grads_batched():
    check_like_torch(_grads_batched)


def _mixed_precision(lib):
    x = arr(lib, X3.astype(np.float32), True)
    w = arr(lib, V3, True)
    c = arr(lib, np.array([1, 2, 3]))
    s = xsum(x * w * c)
    s.backward()
    return [s.detach(), x.grad, w.grad]


def test_mixed_dtypes_gradients_cast_to_inputs():
    check_like_torch(_mixed_precision, rtol=1e-6)


def _zero_d_leaves(lib):
    a = arr(lib, np.float64(1.5), True)
    x = arr(lib, X3, True)
    xp = namespace(x)
    s = xsum(xp.exp(a * x)) * a
    s.backward()
    return [a.grad, x.grad]


def test_zero_d_leaves():
    check_like_torch(_zero_d_leaves)


def _detach_inplace(lib):
    x = arr(lib, X3, True)
    y = x * 2
    y.detach_()
    r = [y.requires_grad, y.is_leaf, y.grad_fn is None]
    z = x * 3
    z.detach_()
    z.requires_grad_()
    xsum(z * z).backward()
    return r + [z.grad, x.grad]


def test_detach_inplace():
    check_like_torch(_detach_inplace)


def _leaf_from_no_grad(lib):
    x = arr(lib, X3, True)
    with lib.no_grad():
        y = x * 2
    r = [y.is_leaf, y.requires_grad]
    y.requires_grad_()
    xsum(y * x).backward()
    return r + [y.grad, x.grad]


def test_array_made_under_no_grad_can_become_leaf():
    check_like_torch(_leaf_from_no_grad)


def _shared_subgraph(lib):
    # A diamond: y feeds two branches that meet again; each node runs once.
    x = arr(lib, X3, True)
    xp = namespace(x)
    y = xp.exp(x)
    a = xp.sin(y)
    b = y * y
    (a * b + a).backward(gradient=arr(lib, V3))
    return x.grad


def test_diamond_graph():
    check_like_torch(_shared_subgraph)


def _grad_of_nonleaf_used_after_inplace(lib):
    # z = y * 2 saves nothing of y; writing y afterwards leaves z's gradient intact, and
    # the write itself is differentiated through y's new history.
    x = arr(lib, X3, True)
    y = x * 1.0
    z = y + 0.0
    y *= 3.0
    xsum(z * x + y).backward()
    return x.grad


def test_graph_before_and_after_inplace():
    check_like_torch(_grad_of_nonleaf_used_after_inplace)


def _double_backward_through_writes(lib):
    x = arr(lib, X3, True)
    xp = namespace(x)
    y = x * 2
    y[0] = x[1] * x[2]
    y += xp.sin(x)
    z = xsum(y * y * x)
    (g,) = lib.autograd.grad(z, x, create_graph=True)
    (h,) = lib.autograd.grad(xsum(g * arr(lib, V3)), x)
    return [g.detach(), h]


def test_double_backward_through_inplace_and_setitem():
    check_like_torch(_double_backward_through_writes)


def _complex_scalar_backward(lib):
    z = arr(lib, Z3, True)
    xsum(z * z).backward()
    return z.grad


def test_backward_of_complex_scalar_without_gradient_raises():
    """PyTorch creates the implicit gradient only for real scalars."""
    kind, _ = check_like_torch(_complex_scalar_backward)
    assert kind == "RuntimeError"


def _set_grad_enabled_decorator(lib):
    x = arr(lib, X3, True)
    try:
        @lib.set_grad_enabled(False)
        def f(a):
            return a * 2, lib.is_grad_enabled()
        after_decoration = lib.is_grad_enabled()
        y, inside = f(x)
        return [after_decoration, inside, y.requires_grad, lib.is_grad_enabled()]
    finally:
        lib.set_grad_enabled(True)


def test_set_grad_enabled_as_decorator():
    check_like_torch(_set_grad_enabled_decorator)


@pytest.mark.parametrize("name", ["no_grad", "enable_grad", "inference_mode"])
def test_grad_mode_bare_decorator(name):
    """`@torch.no_grad` (without parentheses) is accepted by PyTorch 2.x."""
    def scenario(lib):
        @getattr(lib, name)
        def f(a):
            return a * 2, lib.is_grad_enabled()
        y, mode = f(arr(lib, X3, True))
        return [y.requires_grad, mode, lib.is_grad_enabled()]
    check_like_torch(scenario)
