"""The composable transforms (`arraycore.func`) and forward-mode duals
(`arraycore.autograd.forward_ad`) against JAX (x64) and torch.func.

Values are compared with JAX's transforms applied to the very same user functions
(autodiff_functions.py, written once against the array namespace).  Complex gradients follow
PyTorch's convention, so a reverse-mode result on complex inputs is compared with the
conjugate of JAX's (`torch_vjp(g) == conj(jax_vjp(conj(g)))`); forward mode agrees with JAX
as is.  Where the two oracles differ in semantics (grad modes inside transforms), torch.func
is the reference, run on the same scenario code (`lib.func.grad`, `lib.no_grad` exist in
both `torch` and `arraycore`).

The composition matrix applies every ordered pair of transforms (each seen as a map from a
function R^n -> R^m to another function of x) and compares with the same pair in JAX.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pytest

import arraycore as ac
import arraycore.autograd.forward_ad as fwAD
from autodiff_functions import (CASES, CORE_CASES, CORE_VECTOR_CASES, VECTOR_CASES,
                                namespace, to_np)

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy
torch = pytest.importorskip("torch")
# torch.func imports emit torch's own deprecation notice (torch.jit.script).
pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated")

F = ac.func
RTOL, ATOL = 1e-10, 1e-12

# Known core bugs (reported to the lead; remove a mark once its bug is fixed).
OUT_DIMS_NONE = ("func_api._out_dims_list flattens out_dims with the pytree helper, which "
                 "drops None entries")
CHUNK_UNBATCHED = ("func_api._concat_chunks concatenates (axis=None) outputs whose out_dim "
                   "is None instead of taking one")
NO_GRAD_RESET = ("graph._GradModeFor resets STATE.grad_disabled_at to None, so an inner "
                 "backward re-enables levels stopped by an enclosing no_grad")
COMPLEX_OUTPUT = "func_api.grad_and_value accepts a complex scalar output"


def known_bug(reason):
    return pytest.mark.xfail(strict=True, reason=reason)


def with_known_bugs(values, bugs, name=str):
    """pytest.param for each value, xfail-marked where name(value) is in `bugs`."""
    return [pytest.param(v, marks=known_bug(bugs[name(v)])) if name(v) in bugs else v
            for v in values]


# --- helpers ------------------------------------------------------------------------------

def flat(tree):
    """Leaves of nested tuples / lists / dicts (sorted keys) / namedtuples, in order."""
    if isinstance(tree, dict):
        return [v for k in sorted(tree, key=repr) for v in flat(tree[k])]
    if isinstance(tree, (tuple, list)):
        return [v for t in tree for v in flat(t)]
    return [tree]


def structure(tree):
    if isinstance(tree, dict):
        return ("dict", tuple(sorted(tree, key=repr)),
                tuple(structure(tree[k]) for k in sorted(tree, key=repr)))
    if isinstance(tree, tuple) and hasattr(type(tree), "_fields"):
        return (type(tree).__name__, tuple(structure(t) for t in tree))
    if isinstance(tree, (tuple, list)):
        return (type(tree).__name__, tuple(structure(t) for t in tree))
    return "*"


def assert_close(actual, expected, rtol=RTOL, atol=ATOL, conj=False, check_structure=True):
    """actual (arraycore tree) == expected (JAX / torch tree), leaf by leaf; conj=True
    compares with the complex conjugate of expected (reverse mode on complex inputs)."""
    if check_structure:
        assert structure(actual) == structure(expected), \
            f"structure {structure(actual)} vs {structure(expected)}"
    a_leaves, e_leaves = flat(actual), flat(expected)
    assert len(a_leaves) == len(e_leaves)
    for i, (a, e) in enumerate(zip(a_leaves, e_leaves)):
        if e is None or a is None:
            assert a is None and e is None, f"leaf {i}: {a!r} vs {e!r}"
            continue
        if isinstance(e, (int, float, complex, str)) and not hasattr(e, "shape"):
            assert a == e, f"leaf {i}: {a!r} vs {e!r}"
            continue
        assert isinstance(a, ac.Array), f"leaf {i}: expected an arraycore array, got " \
                                        f"{type(a).__name__}"
        a, e = to_np(a), to_np(e)
        if conj:
            e = np.conj(e)
        assert a.shape == e.shape, f"leaf {i}: shape {a.shape} vs {e.shape}"
        if e.dtype.kind in "fc":
            assert a.dtype == e.dtype, f"leaf {i}: dtype {a.dtype} vs {e.dtype}"
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, err_msg=f"leaf {i}")


def inputs(case, seed=0, dtype=None):
    ins = case.numpy_inputs(seed=seed, dtype=dtype)
    return [ac.asarray(a) for a in ins], [jnp.asarray(a) for a in ins]


def tangents_like(arrays, seed=7):
    rng = np.random.default_rng(seed)
    out = []
    for a in arrays:
        t = rng.normal(size=tuple(a.shape))
        if np.dtype(str(to_np(a).dtype)).kind == "c":
            t = t + 1j * rng.normal(size=tuple(a.shape))
        out.append(t.astype(to_np(a).dtype))
    return out


def argnums_all(case):
    n = len(case.shapes)
    return 0 if n == 1 else tuple(range(n))


SCALAR_REAL = [c for c in CASES if not c.complex]
VECTOR_REAL = [c for c in VECTOR_CASES if not c.complex]


# --- grad / grad_and_value ----------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=str)
def test_grad(case):
    xa, xj = inputs(case)
    nums = argnums_all(case)
    got = F.grad(case.fn, argnums=nums)(*xa)
    want = jax.grad(case.fn, argnums=nums)(*xj)
    assert_close(got, want, conj=case.complex)


@pytest.mark.parametrize("argnums", [0, 1, -1, (0, 1), (1, 0), (1,)])
def test_grad_argnums(argnums):
    case = [c for c in CASES if c.name == "two_args"][0]
    xa, xj = inputs(case, seed=1)
    assert_close(F.grad(case.fn, argnums=argnums)(*xa), jax.grad(case.fn, argnums)(*xj))


def _with_aux(x, y):
    xp = namespace(x)
    loss = xp.sum(xp.sin(x) * y)
    return loss, {"double": x * 2, "pair": (y * y, loss)}


def test_grad_has_aux():
    xa, xj = inputs(CASES[2], seed=2)
    g, aux = F.grad(_with_aux, argnums=(0, 1), has_aux=True)(*xa)
    gj, auxj = jax.grad(_with_aux, argnums=(0, 1), has_aux=True)(*xj)
    assert_close(g, gj)
    assert_close(aux, auxj)


def test_grad_and_value():
    xa, xj = inputs(CASES[2], seed=3)
    (g, (v, aux)) = F.grad_and_value(_with_aux, argnums=1, has_aux=True)(*xa)
    (vj, auxj), gj = jax.value_and_grad(_with_aux, argnums=1, has_aux=True)(*xj)
    assert_close([g, v, aux], [gj, vj, auxj])
    g2, v2 = F.grad_and_value(CASES[0].fn)(xa[0])
    vj2, gj2 = jax.value_and_grad(CASES[0].fn)(xj[0])
    assert_close([g2, v2], [gj2, vj2])


def test_grad_keyword_arguments_are_not_differentiated():
    def f(x, *, scale):
        return ac.sum(ac.sin(x) * scale)
    x = ac.asarray(np.array([0.1, 0.7]))
    got = F.grad(f)(x, scale=ac.asarray(np.array([2.0, 3.0])))
    assert_close(got, jnp.cos(jnp.asarray([0.1, 0.7])) * jnp.asarray([2.0, 3.0]))


def test_grad_of_nonscalar_raises():
    with pytest.raises(RuntimeError):
        F.grad(lambda x: ac.sin(x))(ac.asarray(np.ones(3)))
    with pytest.raises(RuntimeError):
        torch.func.grad(torch.sin)(torch.ones(3))


def test_grad_of_non_array_input_raises():
    with pytest.raises((TypeError, ValueError)):
        F.grad(lambda x: x * 2.0)(3.0)


def test_grad_of_constant_function_is_zero():
    x = ac.asarray(np.array([1.0, 2.0]))
    g = F.grad(lambda x: ac.sum(ac.asarray(np.array([3.0, 4.0]))) + 0.0 * ac.sum(x))(x)
    assert_close(g, jnp.zeros(2))
    g2 = F.grad(lambda x, y: ac.sum(x * x), argnums=1)(x, ac.asarray(np.array([5.0])))
    assert_close(g2, jnp.zeros(1))


def test_grad_float32_keeps_dtype():
    case = CASES[0]
    xa, xj = inputs(case, dtype="float32")
    got = F.grad(case.fn)(*xa)
    assert got.dtype == ac.float32
    assert_close(got, jax.grad(case.fn)(*xj), rtol=1e-5, atol=1e-6)


# --- pytrees ------------------------------------------------------------------------------

Params = namedtuple("Params", ["w", "b"])


def _tree_loss(params, x):
    """params: dict / list / namedtuple of arrays; x: array."""
    xp = namespace(x)
    if isinstance(params, dict):
        w, b = params["w"], params["b"]
        extra = params["extra"][0] * params["extra"][1]
    elif isinstance(params, list):
        w, b = params
        extra = None
    else:
        w, b = params.w, params.b
        extra = None
    loss = xp.sum(xp.tanh(w * x + b) ** 2)
    return loss if extra is None else loss + xp.sum(extra)


def _make_params(kind, lib):
    rng = np.random.default_rng(11)
    w, b = rng.normal(size=3), rng.normal(size=3)
    conv = ac.asarray if lib == "ac" else jnp.asarray
    if kind == "dict":
        return {"w": conv(w), "b": conv(b), "extra": (conv(w[:2] + 1), conv(b[:2]))}
    if kind == "list":
        return [conv(w), conv(b)]
    return Params(conv(w), conv(b))


@pytest.mark.parametrize("kind", ["dict", "list", "namedtuple"])
def test_grad_pytree_inputs(kind):
    x = np.array([0.3, -0.4, 1.2])
    got = F.grad(_tree_loss)(_make_params(kind, "ac"), ac.asarray(x))
    want = jax.grad(_tree_loss)(_make_params(kind, "jax"), jnp.asarray(x))
    assert_close(got, want)


def _tree_out(x):
    xp = namespace(x)
    return {"a": xp.sin(x), "b": (x * x, [xp.exp(x)])}


def test_vjp_pytree_output_and_cotangent():
    x = np.array([0.2, -0.6])
    out, fn = F.vjp(_tree_out, ac.asarray(x))
    outj, fnj = jax.vjp(_tree_out, jnp.asarray(x))
    assert_close(out, outj)
    ct = {"a": np.array([1.0, 2.0]), "b": (np.array([0.5, -1.0]), [np.array([3.0, 0.1])])}
    conv = lambda f: {"a": f(ct["a"]), "b": (f(ct["b"][0]), [f(ct["b"][1][0])])}  # noqa
    assert_close(fn(conv(ac.asarray)), fnj(conv(jnp.asarray)))


@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
def test_jacobian_pytree_in_and_out(jac):
    x = np.array([0.2, -0.6])
    p = _make_params("namedtuple", "ac")
    pj = _make_params("namedtuple", "jax")

    def f(params, x):
        xp = namespace(x)
        return {"y": xp.tanh(params.w[:2] * x), "z": xp.sum(params.b) * x}

    got = getattr(F, jac)(f, argnums=(0, 1))(p, ac.asarray(x))
    want = getattr(jax, jac)(f, argnums=(0, 1))(pj, jnp.asarray(x))
    assert_close(got, want)


def test_jvp_pytree_primals():
    p = _make_params("dict", "ac")
    pj = _make_params("dict", "jax")
    tp = {k: (v * 0.5 if not isinstance(v, tuple) else tuple(u * 0.5 for u in v))
          for k, v in p.items()}
    tpj = {k: (v * 0.5 if not isinstance(v, tuple) else tuple(u * 0.5 for u in v))
           for k, v in pj.items()}
    x = np.array([0.3, -0.4, 1.2])
    got = F.jvp(lambda q: _tree_loss(q, ac.asarray(x)), (p,), (tp,))
    want = jax.jvp(lambda q: _tree_loss(q, jnp.asarray(x)), (pj,), (tpj,))
    assert_close(tuple(got), tuple(want))


# --- vjp ----------------------------------------------------------------------------------

@pytest.mark.parametrize("case", VECTOR_CASES + CASES, ids=str)
def test_vjp(case):
    xa, xj = inputs(case, seed=4)
    out, fn = F.vjp(case.fn, *xa)
    outj, fnj = jax.vjp(case.fn, *xj)
    assert_close(out, outj)
    (ct,) = tangents_like([outj], seed=5)
    got = fn(ac.asarray(ct))
    want = fnj(jnp.asarray(np.conj(ct)))
    assert_close(got, want, conj=case.complex)
    assert_close(fn(ac.asarray(ct)), got)  # vjp_fn can be called again


def test_vjp_has_aux():
    x = np.array([0.4, 1.5])

    def f(x):
        return namespace(x).sin(x) * x, {"aux": x + 1}
    out, fn, aux = F.vjp(f, ac.asarray(x), has_aux=True)
    outj, fnj, auxj = jax.vjp(f, jnp.asarray(x), has_aux=True)
    assert_close([out, aux], [outj, auxj])
    assert_close(fn(ac.asarray(np.array([1.0, -2.0]))), fnj(jnp.asarray([1.0, -2.0])))


def test_vjp_cotangent_shape_mismatch_raises():
    _, fn = F.vjp(lambda x: x * 2.0, ac.asarray(np.ones(3)))
    with pytest.raises((RuntimeError, ValueError)):
        fn(ac.asarray(np.ones(4)))


# --- jvp / linearize ----------------------------------------------------------------------

@pytest.mark.parametrize("case", VECTOR_CASES + CASES, ids=str)
def test_jvp(case):
    xa, xj = inputs(case, seed=6)
    ts = tangents_like(xj, seed=8)
    got = F.jvp(case.fn, tuple(xa), tuple(ac.asarray(t) for t in ts))
    want = jax.jvp(case.fn, tuple(xj), tuple(jnp.asarray(t) for t in ts))
    assert_close(tuple(got), tuple(want))


def test_jvp_has_aux():
    def f(x):
        return namespace(x).exp(x) * x, (x * 3,)
    x, t = np.array([0.1, -0.3]), np.array([1.0, 2.0])
    got = F.jvp(f, (ac.asarray(x),), (ac.asarray(t),), has_aux=True)
    want = jax.jvp(f, (jnp.asarray(x),), (jnp.asarray(t),), has_aux=True)
    assert_close(tuple(got), tuple(want))


def test_jvp_requires_tuples_and_matching_shapes():
    x = ac.asarray(np.ones(3))
    with pytest.raises(RuntimeError):
        F.jvp(ac.sin, x, x)
    with pytest.raises(RuntimeError):
        F.jvp(ac.sin, (x,), (ac.asarray(np.ones(2)),))


@pytest.mark.parametrize("case", VECTOR_REAL[:2] + SCALAR_REAL[:2], ids=str)
def test_linearize(case):
    xa, xj = inputs(case, seed=9)
    ts = tangents_like(xj, seed=10)
    out, fn = F.linearize(case.fn, *xa)
    outj, fnj = jax.linearize(case.fn, *xj)
    assert_close(out, outj)
    assert_close(fn(*[ac.asarray(t) for t in ts]), fnj(*[jnp.asarray(t) for t in ts]))
    assert_close(fn(*[ac.asarray(2 * t) for t in ts]), fnj(*[jnp.asarray(2 * t) for t in ts]))


# --- vmap ---------------------------------------------------------------------------------

def _batched(case, batch=3, seed=12, axis=0):
    per = [case.numpy_inputs(seed=seed + i) for i in range(batch)]
    stacked = [np.stack([p[k] for p in per], axis=axis) for k in range(len(case.shapes))]
    return [ac.asarray(a) for a in stacked], [jnp.asarray(a) for a in stacked]


@pytest.mark.parametrize("case", VECTOR_CASES + CASES, ids=str)
def test_vmap(case):
    xa, xj = _batched(case)
    assert_close(F.vmap(case.fn)(*xa), jax.vmap(case.fn)(*xj))


@pytest.mark.parametrize("case", CORE_VECTOR_CASES + CORE_CASES, ids=str)
def test_vmap_in_dims_1(case):
    xa, xj = _batched(case, axis=1)
    assert_close(F.vmap(case.fn, in_dims=1)(*xa), jax.vmap(case.fn, in_axes=1)(*xj))
    assert_close(F.vmap(case.fn, in_dims=-1)(*[ac.asarray(np.moveaxis(to_np(a), 1, -1))
                                               for a in xa]),
                 jax.vmap(case.fn, in_axes=1)(*xj))


def test_vmap_in_dims_tuple_with_none():
    f = CORE_VECTOR_CASES[1].fn  # v_two(x, y)
    xs = np.random.default_rng(0).normal(size=(4, 3))
    y = np.array([0.5, -1.0, 2.0])
    got = F.vmap(f, in_dims=(0, None))(ac.asarray(xs), ac.asarray(y))
    want = jax.vmap(f, in_axes=(0, None))(jnp.asarray(xs), jnp.asarray(y))
    assert_close(got, want)
    got = F.vmap(f, in_dims=(None, 1))(ac.asarray(y), ac.asarray(xs.T))
    want = jax.vmap(f, in_axes=(None, 1))(jnp.asarray(y), jnp.asarray(xs.T))
    assert_close(got, want)


def _pair_fn(pair, d):
    xp = namespace(d["s"])
    a, b = pair
    return {"out": xp.sin(a) * b + d["s"], "t": (a * d["c"],)}


def test_vmap_nested_in_dims_and_tree_outputs():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(3, 2))
    s, c = rng.normal(size=(2, 3)), rng.normal(size=3)
    in_dims = ((0, 1), {"s": 0, "c": None})
    got = F.vmap(_pair_fn, in_dims=in_dims)((ac.asarray(a), ac.asarray(b)),
                                            {"s": ac.asarray(s), "c": ac.asarray(c)})
    want = jax.vmap(_pair_fn, in_axes=in_dims)((jnp.asarray(a), jnp.asarray(b)),
                                               {"s": jnp.asarray(s), "c": jnp.asarray(c)})
    assert_close(got, want)


def test_vmap_out_dims():
    def f(x):
        xp = namespace(x)
        return xp.sin(x), x * 2
    xs = np.random.default_rng(2).normal(size=(4, 3))
    got = F.vmap(f, out_dims=(1, 0))(ac.asarray(xs))
    want = jax.vmap(f, out_axes=(1, 0))(jnp.asarray(xs))
    assert_close(got, want)
    got = F.vmap(f, out_dims=1)(ac.asarray(xs))
    want = jax.vmap(f, out_axes=1)(jnp.asarray(xs))
    assert_close(got, want)


def test_vmap_unbatched_output_is_broadcast():
    c = ac.asarray(np.array([1.0, 2.0]))
    got = F.vmap(lambda x: (x * 2, c))(ac.asarray(np.ones((3, 2))))
    want = jax.vmap(lambda x: (x * 2, jnp.asarray([1.0, 2.0])))(jnp.ones((3, 2)))
    assert_close(got, want)
    got = F.vmap(lambda x: (x * 2, c), out_dims=(0, None))(ac.asarray(np.ones((3, 2))))
    assert_close(got[1], jnp.asarray([1.0, 2.0]))


@pytest.mark.parametrize("chunk", [1, 2, 5, "auto"])
def test_vmap_chunk_size(chunk):
    f = CORE_VECTOR_CASES[1].fn
    xs = np.random.default_rng(3).normal(size=(5, 3))
    ys = np.random.default_rng(4).normal(size=(5, 3))
    got = F.vmap(f, chunk_size=chunk)(ac.asarray(xs), ac.asarray(ys))
    assert_close(got, jax.vmap(f)(jnp.asarray(xs), jnp.asarray(ys)))


def test_vmap_of_vmap():
    f = CORE_VECTOR_CASES[1].fn
    rng = np.random.default_rng(5)
    xs, ys = rng.normal(size=(2, 4, 3)), rng.normal(size=(4, 3))
    got = F.vmap(F.vmap(f, in_dims=(0, 0)), in_dims=(0, None))(ac.asarray(xs), ac.asarray(ys))
    want = jax.vmap(jax.vmap(f), in_axes=(0, None))(jnp.asarray(xs), jnp.asarray(ys))
    assert_close(got, want)
    # Inner over axis 1, outer over axis 0 of a 3-d input.
    got = F.vmap(F.vmap(CORE_CASES[0].fn, in_dims=1))(ac.asarray(xs))
    want = jax.vmap(jax.vmap(CORE_CASES[0].fn, in_axes=1))(jnp.asarray(xs))
    assert_close(got, want)


def test_vmap_of_sum_with_axis():
    def f(x):
        xp = namespace(x)
        return xp.sum(x * x, axis=0) + xp.sum(xp.sin(x), axis=-1, keepdims=True)
    xs = np.random.default_rng(6).normal(size=(4, 3, 3))
    assert_close(F.vmap(f)(ac.asarray(xs)), jax.vmap(f)(jnp.asarray(xs)))
    assert_close(F.vmap(f, in_dims=2)(ac.asarray(xs)),
                 jax.vmap(f, in_axes=2)(jnp.asarray(xs)))


def test_vmap_errors():
    x3, x4 = ac.asarray(np.ones(3)), ac.asarray(np.ones(4))
    with pytest.raises(ValueError):
        F.vmap(lambda a, b: a + b)(x3, x4)
    with pytest.raises(ValueError):
        F.vmap(lambda a: a, in_dims=None)(x3)
    with pytest.raises(ValueError):
        F.vmap(lambda a: a, in_dims=1)(x3)


def test_vmap_data_dependent_control_flow_raises():
    def f(x):
        return x * 2 if float(ac.sum(x)) > 0 else x
    with pytest.raises(TypeError):
        F.vmap(f)(ac.asarray(np.ones((2, 3))))


# --- jacrev / jacfwd / hessian ------------------------------------------------------------

@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
@pytest.mark.parametrize("case", VECTOR_REAL + SCALAR_REAL, ids=str)
def test_jacobian(case, jac):
    xa, xj = inputs(case, seed=13)
    nums = argnums_all(case)
    got = getattr(F, jac)(case.fn, argnums=nums)(*xa)
    want = getattr(jax, jac)(case.fn, argnums=nums)(*xj)
    assert_close(got, want)


@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
def test_jacobian_argnums_and_has_aux(jac):
    def f(x, y):
        xp = namespace(x)
        return xp.sin(x) * y, {"n": x + y}
    x, y = np.array([0.1, 0.2, -0.5]), np.array([1.5, -0.5, 2.0])
    for nums in (1, (1, 0)):
        got = getattr(F, jac)(f, argnums=nums, has_aux=True)(ac.asarray(x), ac.asarray(y))
        want = getattr(jax, jac)(f, argnums=nums, has_aux=True)(jnp.asarray(x), jnp.asarray(y))
        assert_close(tuple(got), tuple(want))


@pytest.mark.parametrize("jac", ["jacrev", "jacfwd"])
@pytest.mark.parametrize("chunk", [1, 3, "auto"])
def test_jacobian_chunk_size(jac, chunk):
    f = CORE_VECTOR_CASES[0].fn
    x = np.random.default_rng(14).normal(size=4)
    got = getattr(F, jac)(f, chunk_size=chunk)(ac.asarray(x))
    assert_close(got, getattr(jax, jac)(f)(jnp.asarray(x)))


def test_jacobian_of_matrix_input_and_output():
    def f(a):
        xp = namespace(a)
        return xp.sin(a) * a[::-1]
    a = np.random.default_rng(15).normal(size=(2, 3))
    assert_close(F.jacrev(f)(ac.asarray(a)), jax.jacrev(f)(jnp.asarray(a)))
    assert_close(F.jacfwd(f)(ac.asarray(a)), jax.jacfwd(f)(jnp.asarray(a)))


def test_jacfwd_complex_holomorphic():
    case = [c for c in VECTOR_CASES if c.complex][0]
    xa, xj = inputs(case)
    assert_close(F.jacfwd(case.fn)(*xa), jax.jacfwd(case.fn, holomorphic=True)(*xj))


def test_jacrev_complex_follows_vjp_convention():
    """jacrev is vmap(vjp) over the output basis: with PyTorch's convention its rows are
    vjp(e_i) = conj(J)[i] (torch.func.jacrev refuses complex inputs)."""
    case = [c for c in VECTOR_CASES if c.complex][0]
    xa, xj = inputs(case)
    assert_close(F.jacrev(case.fn)(*xa), jax.jacrev(case.fn, holomorphic=True)(*xj),
                 conj=True)


@pytest.mark.parametrize("case", SCALAR_REAL, ids=str)
def test_hessian(case):
    xa, xj = inputs(case, seed=16)
    nums = argnums_all(case)
    assert_close(F.hessian(case.fn, argnums=nums)(*xa),
                 jax.hessian(case.fn, argnums=nums)(*xj), rtol=1e-9, atol=1e-11)


# --- the composition matrix ---------------------------------------------------------------
#
# A transform T maps a function F: x -> array to another function of x (x of shape (n,)):
#   grad:    x -> grad(sum o F)(x)
#   jacrev:  x -> jacrev(F)(x)             jacfwd: likewise
#   vmap:    x -> vmap(F)(S * x)           S: (3, 1) constant, so the batch is [x, x/2, -2x]
#   vmapc:   x -> vmap(s -> F(x * s))(s3)  the batched value is a closure over x
#   jvp:     x -> jvp(F, (x,), (v,))[1]
#   vjp:     x -> vjp(F, x)[1](ones/2)[0]
#   tape:    x -> w.grad after sum(F(x * w)).backward(inputs=[w]) at a leaf w = 1
#            (JAX: grad with respect to w at w = 1)
# and a pair (outer, inner) is outer(inner(F)).

_S2 = np.array([[1.0], [0.5], [-2.0]])
_S1 = np.array([1.0, 0.5, -2.0])


class _AC:
    grad, jacrev, jacfwd, vmap, jvp, vjp = F.grad, F.jacrev, F.jacfwd, F.vmap, F.jvp, F.vjp
    asarray, ones_like, sum = staticmethod(ac.asarray), staticmethod(ac.ones_like), \
        staticmethod(ac.sum)

    @staticmethod
    def tape(Fn):
        def h(x):
            w = ac.ones(tuple(x.shape), dtype=x.dtype)
            w.requires_grad_()
            s = ac.sum(Fn(x * w))
            s.backward(inputs=[w], create_graph=True)
            return w.grad
        return h


class _JX:
    grad, jacrev, jacfwd, vmap, jvp, vjp = jax.grad, jax.jacrev, jax.jacfwd, jax.vmap, \
        jax.jvp, jax.vjp
    asarray, ones_like, sum = staticmethod(jnp.asarray), staticmethod(jnp.ones_like), \
        staticmethod(jnp.sum)

    @staticmethod
    def tape(Fn):
        def h(x):
            return jax.grad(lambda w: jnp.sum(Fn(x * w)))(jnp.ones_like(x))
        return h


def _tangent_for(lib, x):
    v = np.linspace(-1.0, 1.5, int(np.prod(x.shape))).reshape(tuple(x.shape))
    return lib.asarray(v)


TRANSFORMS = {
    "grad": lambda L, Fn: (lambda x: L.grad(lambda y: L.sum(Fn(y)))(x)),
    "jacrev": lambda L, Fn: (lambda x: L.jacrev(Fn)(x)),
    "jacfwd": lambda L, Fn: (lambda x: L.jacfwd(Fn)(x)),
    "vmap": lambda L, Fn: (lambda x: L.vmap(Fn)(L.asarray(_S2) * x)),
    "vmapc": lambda L, Fn: (lambda x: L.vmap(lambda s: Fn(x * s))(L.asarray(_S1))),
    "jvp": lambda L, Fn: (lambda x: L.jvp(Fn, (x,), (_tangent_for(L, x),))[1]),
    "vjp": lambda L, Fn: (lambda x: (lambda r: r[1](L.ones_like(r[0]) * 0.5)[0])(
        L.vjp(Fn, x))),
    "tape": lambda L, Fn: L.tape(Fn),
}


def m_elem(x):
    xp = namespace(x)
    return xp.sin(x) * xp.exp(-x * x) + x * x * x


def m_scalar(x):
    xp = namespace(x)
    return xp.sum(xp.tanh(x) * xp.cos(x * 0.5))


def m_index(x):
    xp = namespace(x)
    return xp.sin(x[1:]) * x[:-1]


def m_reduce(x):
    xp = namespace(x)
    return xp.mean(x * x) * xp.cumulative_sum(xp.sin(x)) + xp.prod(x)


def m_matmul(x):
    xp = namespace(x)
    w = xp.asarray(np.linspace(-1.0, 1.0, 12).reshape(3, 4))
    return xp.tanh(w @ x)


MATRIX_FUNCTIONS = {"elem": m_elem}
MATRIX_FUNCTIONS_SLOW = {"scalar": m_scalar, "index": m_index, "reduce": m_reduce,
                         "matmul": m_matmul}
X_MATRIX = np.array([0.3, -0.8, 1.1, 0.45])


def _compose(pair, fname, fn):
    outer, inner = pair
    got = TRANSFORMS[outer](_AC, TRANSFORMS[inner](_AC, fn))(ac.asarray(X_MATRIX))
    want = TRANSFORMS[outer](_JX, TRANSFORMS[inner](_JX, fn))(jnp.asarray(X_MATRIX))
    assert_close(got, want, rtol=1e-9, atol=1e-11)


PAIRS = [(o, i) for o in TRANSFORMS for i in TRANSFORMS]


@pytest.mark.parametrize("fname", list(MATRIX_FUNCTIONS))
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}-of-{p[1]}")
def test_composition(pair, fname):
    _compose(pair, fname, MATRIX_FUNCTIONS[fname])


@pytest.mark.slow
@pytest.mark.parametrize("fname", list(MATRIX_FUNCTIONS_SLOW))
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}-of-{p[1]}")
def test_composition_more_functions(pair, fname):
    _compose(pair, fname, MATRIX_FUNCTIONS_SLOW[fname])


TRIPLES = [("grad", "grad", "grad"), ("jacfwd", "jacrev", "grad"), ("vmap", "grad", "grad"),
           ("vmap", "vmap", "jacrev"), ("jvp", "vjp", "jvp"), ("grad", "vmap", "tape"),
           ("vmapc", "jacfwd", "vjp"), ("tape", "jvp", "grad")]


@pytest.mark.slow
@pytest.mark.parametrize("fname", ["elem", "scalar"])
@pytest.mark.parametrize("triple", TRIPLES, ids=lambda t: "-of-".join(t))
def test_composition_triples(triple, fname):
    fn = {**MATRIX_FUNCTIONS, **MATRIX_FUNCTIONS_SLOW}[fname]
    a, b, c = triple
    got = TRANSFORMS[a](_AC, TRANSFORMS[b](_AC, TRANSFORMS[c](_AC, fn)))(ac.asarray(X_MATRIX))
    want = TRANSFORMS[a](_JX, TRANSFORMS[b](_JX, TRANSFORMS[c](_JX, fn)))(
        jnp.asarray(X_MATRIX))
    assert_close(got, want, rtol=1e-9, atol=1e-11)


def test_plain_backward_inside_grad():
    """`.backward()` (no create_graph, no inputs) inside func.grad: the gradient it leaves
    in w.grad is still a function of the transformed input."""
    def h(x):
        w = ac.ones(tuple(x.shape), dtype=x.dtype)
        w.requires_grad_()
        ac.sum(ac.sin(x * w) * w).backward()
        return ac.sum(w.grad * x)

    def hj(x):
        g = jax.grad(lambda w: jnp.sum(jnp.sin(x * w) * w))(jnp.ones_like(x))
        return jnp.sum(g * x)
    assert_close(F.grad(h)(ac.asarray(X_MATRIX)), jax.grad(hj)(jnp.asarray(X_MATRIX)))


def test_autograd_grad_inside_vmap():
    def h(x):
        w = ac.ones(tuple(x.shape), dtype=x.dtype)
        w.requires_grad_()
        (g,) = ac.autograd.grad(ac.sum(ac.exp(x * w)), w)
        return g

    def hj(x):
        return jax.grad(lambda w: jnp.sum(jnp.exp(x * w)))(jnp.ones_like(x))
    xs = np.random.default_rng(17).normal(size=(3, 4))
    assert_close(F.vmap(h)(ac.asarray(xs)), jax.vmap(hj)(jnp.asarray(xs)))


# --- perturbation confusion ---------------------------------------------------------------

def _s(v):
    return ac.asarray(v)


def test_no_perturbation_confusion_grad_of_grad():
    # d/dx [x * d/dy (x + y)] = 1 (confusing the two perturbations gives 2).
    f = lambda x: x * F.grad(lambda y: x + y)(_s(2.0))  # noqa: E731
    assert float(F.grad(f)(_s(3.0))) == 1.0
    # d/dx [d/dy (x * y)] at y = x: d/dx [x] = 1.
    g = lambda x: F.grad(lambda y: x * y)(x)  # noqa: E731
    assert float(F.grad(g)(_s(3.0))) == 1.0


def test_no_perturbation_confusion_jvp_of_jvp():
    def f(x):
        return x * F.jvp(lambda y: x + y, (_s(2.0),), (_s(1.0),))[1]
    assert float(F.jvp(f, (_s(3.0),), (_s(1.0),))[1]) == 1.0


def test_no_perturbation_confusion_mixed():
    inner_grad = lambda x: x * F.grad(lambda y: x + y)(_s(2.0))  # noqa: E731
    inner_jvp = lambda x: x * F.jvp(lambda y: x + y, (_s(2.0),), (_s(1.0),))[1]  # noqa
    assert float(F.jvp(inner_grad, (_s(3.0),), (_s(1.0),))[1]) == 1.0
    assert float(F.grad(inner_jvp)(_s(3.0))) == 1.0
    # Under vmap: the batched x must not leak into the inner derivative.
    xs = ac.asarray(np.array([1.0, 2.0, 3.0]))
    assert_close(F.vmap(F.grad(inner_grad))(xs), jnp.ones(3))
    assert_close(F.vmap(F.grad(inner_jvp))(xs), jnp.ones(3))


def test_no_perturbation_confusion_nonlinear():
    # d/dx [x * d/dy (x * y^2)]|_{y=x} = d/dx [2 x^3] = 6 x^2
    f = lambda x: x * F.grad(lambda y: x * y * y)(x)  # noqa: E731
    fj = lambda x: x * jax.grad(lambda y: x * y * y)(x)  # noqa: E731
    assert_close(F.grad(f)(_s(1.5)), jax.grad(fj)(jnp.asarray(1.5)))
    assert_close(F.jacfwd(F.jacrev(f))(_s(1.5)), jax.jacfwd(jax.jacrev(fj))(jnp.asarray(1.5)))


# --- forward_ad ---------------------------------------------------------------------------

def _dual_run(lib_fwad, case, ins, ts):
    with lib_fwad.dual_level():
        duals = [lib_fwad.make_dual(x, t) for x, t in zip(ins, ts)]
        y = case.fn(*duals)
        p, t = lib_fwad.unpack_dual(y)
    return p, t


@pytest.mark.parametrize("case", VECTOR_CASES + CASES, ids=str)
def test_forward_ad_vs_torch(case):
    ins = case.numpy_inputs(seed=18)
    ts = tangents_like(ins, seed=19)
    p, t = _dual_run(fwAD, case, [ac.asarray(a) for a in ins], [ac.asarray(a) for a in ts])
    pt_, tt = _dual_run(torch.autograd.forward_ad, case,
                        [torch.from_numpy(np.array(a)) for a in ins],
                        [torch.from_numpy(np.array(a)) for a in ts])
    assert_close([p, t], [pt_, tt])


def test_forward_ad_unpack_and_levels():
    x = ac.asarray(np.array([0.5, 1.0]))
    t = ac.asarray(np.array([1.0, -1.0]))
    with pytest.raises(RuntimeError):
        fwAD.make_dual(x, t)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        y = ac.sin(d) * d
        u = fwAD.unpack_dual(y)
        assert u.primal is not None and u.tangent is not None
        assert fwAD.unpack_dual(x).tangent is None
        assert fwAD.unpack_dual(ac.sin(x)).tangent is None
        assert_close([u.primal, u.tangent], [jnp.sin(jnp.asarray([0.5, 1.0])) *
                                             jnp.asarray([0.5, 1.0]),
                                             jax.jvp(lambda v: jnp.sin(v) * v,
                                                     (jnp.asarray([0.5, 1.0]),),
                                                     (jnp.asarray([1.0, -1.0]),))[1]])
    # After the level: the dual is its primal, with no tangent.
    after = fwAD.unpack_dual(y)
    assert after.tangent is None
    assert_close(y * 1.0, u.primal)


def test_forward_ad_make_dual_checks():
    x = ac.asarray(np.array([0.5, 1.0]))
    with fwAD.dual_level():
        with pytest.raises((RuntimeError, ValueError)):
            fwAD.make_dual(x, ac.asarray(np.ones(3)))
        with pytest.raises((RuntimeError, ValueError, TypeError)):
            fwAD.make_dual(ac.asarray(np.arange(2)), ac.asarray(np.arange(2)))


def _reverse_over_forward(lib, fw):
    """The tangent of a dual whose primal requires grad is recorded on the tape: its
    backward gives a Hessian-vector product."""
    x = lib.asarray(np.array([0.5, -1.0, 2.0]))
    x.requires_grad_()
    t = lib.asarray(np.array([1.0, 0.5, -0.25]))
    with fw.dual_level():
        d = fw.make_dual(x, t)
        xp = namespace(x)
        y = xp.sum(xp.sin(d) * d * d)
        tan = fw.unpack_dual(y).tangent
    tan.backward()
    return x.grad


def test_forward_ad_reverse_over_forward_vs_torch():
    got = _reverse_over_forward(ac, fwAD)
    want = _reverse_over_forward(torch, torch.autograd.forward_ad)
    assert_close(got, want)


def test_forward_ad_inside_transform_levels():
    # A dual level inside func.grad: d/dx of the forward-mode derivative.
    def h(x):
        with fwAD.dual_level():
            d = fwAD.make_dual(x, ac.ones_like(x))
            tan = fwAD.unpack_dual(ac.sum(ac.sin(d) * d)).tangent
        return tan

    def hj(x):
        return jax.jvp(lambda v: jnp.sum(jnp.sin(v) * v), (x,), (jnp.ones_like(x),))[1]
    x = np.array([0.5, -1.0, 2.0])
    assert_close(F.grad(h)(ac.asarray(x)), jax.grad(hj)(jnp.asarray(x)))


# --- vmap: buffers created inside, captured arrays ----------------------------------------

def _fill_inplace(x):
    buf = ac.zeros(tuple(x.shape), dtype=x.dtype)
    buf += ac.sin(x)
    buf *= x
    buf -= 1.0
    return buf


def _fill_setitem(x):
    buf = ac.zeros((x.shape[0] + 1,), dtype=x.dtype)
    buf[1:] = x * 2
    buf[0] = ac.sum(x)
    buf[1:] += x * x
    return buf


def _fill_loop(x):
    out = ac.empty((x.shape[0],), dtype=x.dtype)
    for i in range(x.shape[0]):
        out[i] = ac.sum(x[: i + 1])
    return out


@pytest.mark.parametrize("fill", [_fill_inplace, _fill_setitem, _fill_loop],
                         ids=["inplace_ops", "setitem", "setitem_loop"])
def test_vmap_writes_into_buffer_created_inside(fill):
    xs = np.random.default_rng(20).normal(size=(4, 3))
    got = F.vmap(fill)(ac.asarray(xs))
    want = np.stack([to_np(fill(ac.asarray(row))) for row in xs])
    assert_close(got, want)
    # and under vmap(vmap)
    xs2 = np.random.default_rng(21).normal(size=(2, 4, 3))
    got2 = F.vmap(F.vmap(fill))(ac.asarray(xs2))
    want2 = np.stack([[to_np(fill(ac.asarray(r))) for r in m] for m in xs2])
    assert_close(got2, want2)


@pytest.mark.parametrize("fill", [_fill_inplace, _fill_setitem],
                         ids=["inplace_ops", "setitem"])
def test_grad_through_buffer_created_inside(fill):
    def loss(x):
        return ac.sum(fill(x) ** 2)
    x = np.array([0.3, -0.7, 1.2])
    eps = 1e-6
    fd = np.array([(to_np(loss(ac.asarray(x + eps * e))) -
                    to_np(loss(ac.asarray(x - eps * e)))) / (2 * eps) for e in np.eye(3)])
    np.testing.assert_allclose(to_np(F.grad(loss)(ac.asarray(x))), fd, rtol=1e-6)
    got = F.vmap(F.grad(loss))(ac.asarray(np.stack([x, 2 * x])))
    want = np.stack([to_np(F.grad(loss)(ac.asarray(v))) for v in (x, 2 * x)])
    assert_close(got, want)


@pytest.mark.parametrize("how", ["iadd", "setitem", "imul_slice"])
def test_vmap_write_into_captured_array_raises(how):
    outside = ac.zeros((3,), dtype=ac.float64)

    def f(x):
        if how == "iadd":
            outside.__iadd__(x)
        elif how == "setitem":
            outside[0] = x[0]
        else:
            outside[1:] *= x[1:]
        return x
    with pytest.raises(ValueError, match="outside"):
        F.vmap(f)(ac.asarray(np.ones((2, 3))))
    np.testing.assert_array_equal(to_np(outside), np.zeros(3))  # left unchanged


def test_vmap_write_unbatched_value_into_captured_array_is_allowed():
    outside = ac.zeros((3,), dtype=ac.float64)

    def f(x):
        outside[0] = 7.0  # no traced value: an ordinary write
        return x * 2
    F.vmap(f)(ac.asarray(np.ones((2, 3))))
    assert to_np(outside)[0] == 7.0


def test_grad_write_into_captured_array_raises():
    outside = ac.zeros((3,), dtype=ac.float64)

    def f(x):
        outside[...] = x
        return ac.sum(outside)
    with pytest.raises(ValueError):
        F.grad(f)(ac.asarray(np.ones(3)))


# --- grad modes inside transforms (torch.func semantics) ----------------------------------

def _lib_arr(lib, a):
    return lib.asarray(np.array(a))


def _inner_no_grad(lib):
    def f(x):
        xp = namespace(x)
        with lib.no_grad():
            c = xp.exp(x)
        return xp.sum(c * x)
    return lib.func.grad(f)(_lib_arr(lib, [0.5, -1.0]))


def _outer_no_grad(lib):
    def f(x):
        xp = namespace(x)
        return xp.sum(xp.exp(x) * x)
    with lib.no_grad():
        g = lib.func.grad(f)(_lib_arr(lib, [0.5, -1.0]))
    return g


def _outer_no_grad_inner_enable(lib):
    def f(x):
        xp = namespace(x)
        with lib.enable_grad():
            y = xp.sin(x) * x
        return xp.sum(y)
    with lib.no_grad():
        g = lib.func.grad(f)(_lib_arr(lib, [0.5, -1.0]))
    return g


def _no_grad_between_levels(lib):
    # grad(no_grad-region containing grad(f)): the inner grad still works; the outer one
    # sees the inner result as a constant.
    def inner(x):
        xp = namespace(x)
        return xp.sum(xp.sin(x) * x)

    def outer(x):
        xp = namespace(x)
        with lib.no_grad():
            g = lib.func.grad(inner)(x)
        return xp.sum(g * x)
    return lib.func.grad(outer)(_lib_arr(lib, [0.5, -1.0]))


def _no_grad_inside_vjp_and_jacrev(lib):
    def f(x):
        xp = namespace(x)
        with lib.no_grad():
            c = xp.cos(x)
        return c * x * x
    x = _lib_arr(lib, [0.5, -1.0])
    _, fn = lib.func.vjp(f, x)
    return [fn(_lib_arr(lib, [1.0, 2.0]))[0], lib.func.jacrev(f)(x)]


def _no_grad_inside_jvp(lib):
    # no_grad does not stop forward mode (torch.func.jvp ignores grad mode).
    def f(x):
        xp = namespace(x)
        with lib.no_grad():
            c = xp.cos(x)
        return c * x
    x = _lib_arr(lib, [0.5, -1.0])
    return list(lib.func.jvp(f, (x,), (_lib_arr(lib, [1.0, 1.0]),)))


@pytest.mark.parametrize("scenario", with_known_bugs(
    [_inner_no_grad, _outer_no_grad, _outer_no_grad_inner_enable, _no_grad_between_levels,
     _no_grad_inside_vjp_and_jacrev, _no_grad_inside_jvp],
    {}, name=lambda s: s.__name__),
    ids=lambda s: s.__name__.strip("_"))
def test_grad_mode_semantics_match_torch_func(scenario):
    assert_close(scenario(ac), scenario(torch), check_structure=False)


def test_grad_mode_restored_after_transform():
    assert ac.is_grad_enabled()
    F.grad(lambda x: ac.sum(x * x))(ac.asarray(np.ones(2)))
    assert ac.is_grad_enabled()
    with ac.no_grad():
        F.grad(lambda x: ac.sum(x * x))(ac.asarray(np.ones(2)))
        assert not ac.is_grad_enabled()
    assert ac.is_grad_enabled()


# --- transforms and the tape together -----------------------------------------------------

def test_tape_through_transform_outputs():
    """func.grad of a function of a leaf that requires grad: the result is recorded on the
    tape (torch.func.grad's result can be backpropagated by the tape)."""
    def scenario(lib):
        x = lib.asarray(np.array([0.5, -1.0, 2.0]))
        x.requires_grad_()

        def f(y):
            xp = namespace(y)
            return xp.sum(xp.sin(y) * y * y)
        g = lib.func.grad(f)(x)
        s = namespace(g).sum(g * g)
        s.backward()
        return [g.detach(), x.grad]
    assert_close(scenario(ac), scenario(torch), check_structure=False)


def test_vmap_over_tape_tracked_input():
    def scenario(lib):
        w = lib.asarray(np.array([0.5, -1.0, 2.0]))
        w.requires_grad_()
        xs = lib.asarray(np.random.default_rng(22).normal(size=(4, 3)))
        ys = lib.func.vmap(lambda x: namespace(x).sum(namespace(x).tanh(x * w)))(xs)
        namespace(ys).sum(ys * ys).backward()
        return [ys.detach(), w.grad]
    assert_close(scenario(ac), scenario(torch), check_structure=False)


# --- more vmap / in-place / forward_ad behaviour ------------------------------------------

def test_vmap_chunked_unbatched_output():
    c = ac.asarray(np.array([1.0, 2.0]))
    xs = ac.asarray(np.arange(10.0).reshape(5, 2))
    got = F.vmap(lambda x: c * 1.0, out_dims=None, chunk_size=2)(xs)
    assert_close(got, jnp.asarray([1.0, 2.0]))
    got = F.vmap(lambda x: (x * 2, c * 1.0), out_dims=(1, None), chunk_size=2)(xs)
    assert_close(got, (jnp.arange(10.0).reshape(5, 2).T * 2, jnp.asarray([1.0, 2.0])))


def test_vmap_keyword_arguments_are_not_batched():
    def scenario(lib):
        xs = lib.asarray(np.arange(10.0).reshape(5, 2))
        return lib.func.vmap(lambda x, *, s: x * s)(xs, s=lib.asarray(np.array([1.0, -1.0])))
    assert_close(scenario(ac), scenario(torch))


def test_vmap_identity_moves_batch_axis():
    xs = np.arange(6.0).reshape(2, 3)
    assert_close(F.vmap(lambda x: x, in_dims=1)(ac.asarray(xs)), jnp.asarray(xs.T))
    assert_close(F.vmap(lambda x: x, in_dims=1, out_dims=1)(ac.asarray(xs)), jnp.asarray(xs))


def _inplace_user_code(x):
    y = x * 2
    y += x
    y[0] = x[1] * 5
    y *= x
    return y


def _inplace_user_code_jax(x):
    y = x * 3
    y = y.at[0].set(x[1] * 5)
    return y * x


def test_inplace_user_code_under_transforms():
    """In-place writes on traced values inside transformed functions are rebindings."""
    x = np.array([1.0, 2.0, -3.0])
    loss = lambda f: (lambda v: namespace(v).sum(f(v) ** 2))  # noqa: E731
    assert_close(F.grad(loss(_inplace_user_code))(ac.asarray(x)),
                 jax.grad(loss(_inplace_user_code_jax))(jnp.asarray(x)))
    assert_close(F.jacfwd(_inplace_user_code)(ac.asarray(x)),
                 jax.jacfwd(_inplace_user_code_jax)(jnp.asarray(x)))
    xs = np.random.default_rng(23).normal(size=(4, 3))
    assert_close(F.vmap(_inplace_user_code)(ac.asarray(xs)),
                 jax.vmap(_inplace_user_code_jax)(jnp.asarray(xs)))


def _fw_inplace(lib, fw):
    x = lib.asarray(np.array([0.5, 1.0]))
    t = lib.asarray(np.array([1.0, -2.0]))
    with fw.dual_level():
        d = fw.make_dual(x, t)
        y = d * 1.0
        y *= d
        y[0] = d[1] * 3
        u = fw.unpack_dual(y)
    return [u.primal, u.tangent]


def _fw_buffer(lib, fw):
    x = lib.asarray(np.array([0.5, 1.0]))
    t = lib.asarray(np.array([1.0, -2.0]))
    with fw.dual_level():
        d = fw.make_dual(x, t)
        buf = lib.zeros(2, dtype=lib.float64)
        buf[1] = d[0] * 3
        u = fw.unpack_dual(buf)
        s = fw.unpack_dual(namespace(x).sum(buf * buf))
    return [u.primal, u.tangent, s.primal, s.tangent, buf * 1.0]


@pytest.mark.parametrize("scenario", [_fw_inplace, _fw_buffer],
                         ids=["dual", "buffer"])
def test_forward_ad_inplace_vs_torch(scenario):
    got = scenario(ac, fwAD)
    want = scenario(torch, torch.autograd.forward_ad)
    assert_close(got, want, check_structure=False)


def test_nested_vmap_with_closure_is_an_outer_product():
    xs, ys = np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0, 30.0, 40.0])

    def f(lib_vmap, ysa):
        return lambda x: lib_vmap(lambda y: x * 2 + y * y)(ysa)
    got = F.vmap(f(F.vmap, ac.asarray(ys)))(ac.asarray(xs))
    want = jax.vmap(f(jax.vmap, jnp.asarray(ys)))(jnp.asarray(xs))
    assert_close(got, want)
    # The inner vmap maps over x's batch too: in_dims of a value from the outer level.
    got = F.vmap(lambda x: F.vmap(lambda a, b: a * b, in_dims=(None, 0))(x, ac.asarray(ys)))(
        ac.asarray(xs))
    assert_close(got, jnp.asarray(np.outer(xs, ys)))


def test_python_control_flow_on_concrete_values():
    """Reverse- and forward-mode tracers have concrete primals (as in eager torch.func), so
    Python branches on them work; JAX (which refuses) is asked for each branch instead."""
    def pos(x):
        return namespace(x).sum(namespace(x).sin(x)) * 2

    def neg(x):
        return namespace(x).sum(x * x)

    def f(x):
        return pos(x) if float(namespace(x).sum(x)) > 0 else neg(x)
    for v, branch in ((np.array([0.5, 1.0]), pos), (np.array([-0.5, -1.0]), neg)):
        assert_close(F.grad(f)(ac.asarray(v)), jax.grad(branch)(jnp.asarray(v)))
        assert_close(F.jacfwd(f)(ac.asarray(v)), jax.jacfwd(branch)(jnp.asarray(v)))


def test_vjp_of_output_independent_of_input():
    c = ac.asarray(np.array([1.0, 2.0]))
    out, fn = F.vjp(lambda x: c * 3.0, ac.asarray(np.array([5.0, 6.0, 7.0])))
    assert_close(out, jnp.asarray([3.0, 6.0]))
    assert_close(fn(ac.asarray(np.ones(2))), (jnp.zeros(3),))


def test_grad_of_complex_output_raises():
    """torch.func.grad and jax.grad (without holomorphic=True) refuse complex outputs."""
    z = np.array([1.0 + 1.0j, 0.5 - 2.0j])
    with pytest.raises(RuntimeError):
        torch.func.grad(lambda v: (v * v).sum())(torch.from_numpy(z))
    with pytest.raises(TypeError):
        jax.grad(lambda v: jnp.sum(v * v))(jnp.asarray(z))
    with pytest.raises((RuntimeError, TypeError)):
        F.grad(lambda v: ac.sum(v * v))(ac.asarray(z))
