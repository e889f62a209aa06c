"""Autodiff rules of the reductions, searching, sorting and sets families
(arraycore/autodiff/rules/{reductions,searching}.py).

- jvp and vjp of each differentiable op against JAX (x64) for float64, float32 and (where
  the op takes complex numbers) complex128 inputs, over axis / keepdims / correction /
  include_initial / n / prepend / append combinations.  Complex vjps follow PyTorch's
  convention: ours == conj(jax_vjp(conj(g))).
- the non-unique derivatives follow PyTorch: max/min ties share the gradient evenly
  (torch.amax), std has gradient 0 where it is 0; prod and cumulative_prod are exact with
  zeros, to second order (hessians against JAX).
- vmap of every op (differentiable or not) against a stack of per-example results; nonzero
  and unique_* raise ValueError under vmap.
"""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy
torch = pytest.importorskip("torch")
# torch.func imports emit torch's own deprecation notice (torch.jit.script).
pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated")

F = ac.func
RTOL, ATOL = 1e-10, 1e-12


def _rng(seed=0):
    return np.random.default_rng(seed)


def rand(rng, shape, dtype="float64"):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def close(a, b, rtol=RTOL, atol=ATOL, what=""):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{what}: shape {a.shape} != {b.shape}"
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=what)


def _np_of(xp, v):
    return xp.asarray(np.array(v))


# --- the functions ------------------------------------------------------------------------
# (id, f(xp, *arrays), input shapes, takes complex).  Written once against the namespace:
# run with xp = ac and xp = jnp.

def _diff_pre_app(xp, x, p, a):
    return xp.diff(x, axis=0, n=2, prepend=p, append=a)


CASES = [
    ("sum_all", lambda xp, x: xp.sum(x), [(3, 4)], True),
    ("sum_axis", lambda xp, x: xp.sum(x, axis=1), [(3, 4)], True),
    ("sum_axes_keep", lambda xp, x: xp.sum(x, axis=(0, 2), keepdims=True), [(2, 3, 4)], True),
    ("sum_neg_axis", lambda xp, x: xp.sum(x, axis=-1), [(2, 3, 4)], True),
    ("sum_0d", lambda xp, x: xp.sum(x), [()], True),
    ("sum_empty_axes", lambda xp, x: xp.sum(x, axis=()), [(2, 3)], True),
    ("prod_all", lambda xp, x: xp.prod(x), [(3, 4)], True),
    ("prod_axis", lambda xp, x: xp.prod(x, axis=0), [(3, 4)], True),
    ("prod_axes", lambda xp, x: xp.prod(x, axis=(0, 2)), [(2, 3, 4)], True),
    ("prod_axes_keep", lambda xp, x: xp.prod(x, axis=(-1, 0), keepdims=True), [(2, 3, 4)],
     True),
    ("prod_0d", lambda xp, x: xp.prod(x), [()], True),
    ("max_all", lambda xp, x: xp.max(x), [(3, 4)], False),
    ("max_axis", lambda xp, x: xp.max(x, axis=1), [(3, 4)], False),
    ("max_axes_keep", lambda xp, x: xp.max(x, axis=(0, 2), keepdims=True), [(2, 3, 4)],
     False),
    ("min_all", lambda xp, x: xp.min(x), [(3, 4)], False),
    ("min_axis_keep", lambda xp, x: xp.min(x, axis=0, keepdims=True), [(3, 4)], False),
    ("mean_all", lambda xp, x: xp.mean(x), [(3, 4)], True),
    ("mean_axes", lambda xp, x: xp.mean(x, axis=(0, 2)), [(2, 3, 4)], True),
    ("mean_keep", lambda xp, x: xp.mean(x, axis=1, keepdims=True), [(3, 4)], True),
    ("var_all", lambda xp, x: xp.var(x), [(3, 4)], True),
    ("var_axis_c1", lambda xp, x: xp.var(x, axis=1, correction=1), [(3, 4)], True),
    ("var_axes_keep", lambda xp, x: xp.var(x, axis=(0, 2), keepdims=True, correction=0.5),
     [(2, 3, 4)], True),
    ("std_all", lambda xp, x: xp.std(x), [(3, 4)], True),
    ("std_axis_c1", lambda xp, x: xp.std(x, axis=0, correction=1), [(3, 4)], True),
    ("std_axes_keep", lambda xp, x: xp.std(x, axis=(1, 2), keepdims=True, correction=2),
     [(2, 3, 4)], True),
    ("cumsum_1d", lambda xp, x: xp.cumulative_sum(x), [(5,)], True),
    ("cumsum_axis0", lambda xp, x: xp.cumulative_sum(x, axis=0), [(4, 3)], True),
    ("cumsum_initial", lambda xp, x: xp.cumulative_sum(x, axis=-1, include_initial=True),
     [(3, 4)], True),
    ("cumprod_1d", lambda xp, x: xp.cumulative_prod(x), [(7,)], True),
    ("cumprod_axis0", lambda xp, x: xp.cumulative_prod(x, axis=0), [(5, 3)], True),
    ("cumprod_initial", lambda xp, x: xp.cumulative_prod(x, axis=1, include_initial=True),
     [(3, 6)], True),
    ("diff", lambda xp, x: xp.diff(x), [(3, 5)], True),
    ("diff_n3_axis0", lambda xp, x: xp.diff(x, axis=0, n=3), [(5, 3)], True),
    ("diff_n0", lambda xp, x: xp.diff(x, n=0), [(3, 4)], True),
    ("diff_too_many", lambda xp, x: xp.diff(x, n=5), [(2, 3)], True),
    ("diff_prepend_append", _diff_pre_app, [(3, 2), (1, 2), (2, 2)], True),
    ("diff_scalar_prepend", lambda xp, x: xp.diff(x, prepend=1.5, append=-2.0), [(2, 4)],
     False),
    ("sort", lambda xp, x: xp.sort(x), [(3, 5)], True),
    ("sort_axis0_desc", lambda xp, x: xp.sort(x, axis=0, descending=True), [(4, 3)], True),
    ("where", lambda xp, x, y: xp.where(x > 0, x, y), [(3, 4), (3, 4)], False),
    ("where_broadcast", lambda xp, x, y: xp.where(_np_of(xp, [True, False, True]), x, y),
     [(2, 3), (2, 1)], True),
    ("where_scalar", lambda xp, x: xp.where(x > 0.2, x, 0.5), [(3, 4)], False),
    ("where_scalar_first", lambda xp, x: xp.where(x > 0.2, -1.0, x), [(3, 4)], False),
]
IDS = [c[0] for c in CASES]
COMPLEX_CASES = [c for c in CASES if c[3]]


def _jax_f(f):
    return lambda *xs: f(jnp, *xs)


def _ac_f(f):
    return lambda *xs: f(ac, *xs)


def check_jvp_vjp(f, arrays, rtol=RTOL, atol=ATOL, seed=1):
    rng = _rng(seed)
    acx = tuple(ac.asarray(a) for a in arrays)
    jx = tuple(jnp.asarray(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
               for a in arrays)
    ts = [rand(rng, a.shape, a.dtype) for a in arrays]
    out, tout = F.jvp(_ac_f(f), acx, tuple(ac.asarray(t) for t in ts))
    jout, jtout = jax.jvp(_jax_f(f), jx, tuple(jnp.asarray(t.astype(j.dtype))
                                               for t, j in zip(ts, jx)))
    close(out, jout, rtol, atol, what="value")
    assert tout.dtype == out.dtype, f"jvp dtype {tout.dtype} != output dtype {out.dtype}"
    close(tout, jtout, rtol, atol, what="jvp")
    g = rand(rng, jout.shape, np.asarray(out).dtype)
    _, vjp_fn = F.vjp(_ac_f(f), *acx)
    cts = vjp_fn(ac.asarray(g))
    _, jvjp = jax.vjp(_jax_f(f), *jx)
    jcts = jvjp(jnp.asarray(np.conj(g)).astype(jout.dtype))
    assert len(cts) == len(jcts)
    for i, (c, jc) in enumerate(zip(cts, jcts)):
        assert c.dtype == acx[i].dtype, f"cotangent dtype {c.dtype} != {acx[i].dtype}"
        close(c, np.conj(np.asarray(jc)), rtol, atol, what=f"vjp of input {i}")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jvp_vjp_vs_jax_float64(case):
    _, f, shapes, _ = case
    rng = _rng(0)
    check_jvp_vjp(f, [rand(rng, s) for s in shapes])


@pytest.mark.parametrize("case", COMPLEX_CASES, ids=[c[0] for c in COMPLEX_CASES])
def test_jvp_vjp_vs_jax_complex128(case):
    _, f, shapes, _ = case
    rng = _rng(0)
    check_jvp_vjp(f, [rand(rng, s, "complex128") for s in shapes])


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jvp_vjp_vs_jax_float32(case):
    _, f, shapes, _ = case
    rng = _rng(0)
    check_jvp_vjp(f, [rand(rng, s, "float32") for s in shapes], rtol=2e-5, atol=2e-5)


# --- PyTorch's choices at ties, zeros and degenerate spreads ------------------------------


def _tape_grad(f, x, g=None):
    a = ac.asarray(x)
    a.requires_grad_()
    y = f(ac, a)
    y.backward(None if g is None else ac.asarray(g))
    return np.asarray(a.grad)


def _torch_grad(f, x, g=None):
    t = torch.tensor(x, requires_grad=True)
    y = f(t)
    y.backward(None if g is None else torch.tensor(g))
    return t.grad.numpy()


TIES = np.array([[1.0, 3.0, 3.0, -2.0], [2.0, 2.0, 0.5, 2.0], [-1.0, -1.0, -1.0, -1.0]])


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True),
                                           ((0, 1), False)])
def test_max_min_ties_vs_torch(name, axis, keepdims):
    g = _rng(3).standard_normal(np.asarray(getattr(np, name)(TIES, axis=axis,
                                                             keepdims=keepdims)).shape)
    ours = _tape_grad(lambda xp, x: getattr(xp, name)(x, axis=axis, keepdims=keepdims),
                      TIES, g)
    tfn = torch.amax if name == "max" else torch.amin
    dim = () if axis is None else axis
    ref = _torch_grad(lambda t: tfn(t, dim=dim, keepdim=keepdims), TIES, g)
    close(ours, ref, what="grad")
    # forward mode: the average of the tied tangents, as torch.func.jvp
    t = _rng(4).standard_normal(TIES.shape)
    _, ours_t = F.jvp(lambda x: getattr(ac, name)(x, axis=axis, keepdims=keepdims),
                      (ac.asarray(TIES),), (ac.asarray(t),))
    _, ref_t = torch.func.jvp(lambda x: tfn(x, dim=dim, keepdim=keepdims),
                              (torch.tensor(TIES),), (torch.tensor(t),))
    close(ours_t, ref_t.numpy(), what="jvp")


ZEROS = [np.array([1.5, 0.0, -2.0, 3.0]), np.array([0.0, 2.0, 0.0, 3.0]),
         np.array([[0.0, 2.0, 1.5], [1.0, -3.0, 2.0], [0.0, 0.0, 4.0]])]


@pytest.mark.parametrize("x", ZEROS, ids=["one_zero", "two_zeros", "matrix"])
def test_prod_with_zeros_vs_torch(x):
    close(_tape_grad(lambda xp, v: xp.prod(v), x), _torch_grad(torch.prod, x))
    if x.ndim == 2:
        g = np.array([0.5, -1.0, 2.0])
        close(_tape_grad(lambda xp, v: xp.prod(v, axis=1), x, g),
              _torch_grad(lambda t: torch.prod(t, dim=1), x, g))
        close(_tape_grad(lambda xp, v: xp.prod(v, axis=0), x, g),
              _torch_grad(lambda t: torch.prod(t, dim=0), x, g))


CUMPROD_ZEROS = [np.array([1.5, 0.0, -2.0, 3.0, 0.5]), np.array([0.0, 2.0, 0.0, 3.0, 1.0]),
                 np.array([2.0, 3.0, 0.5, -1.0, 0.0]), np.array([0.0, 0.0, 0.0])]


@pytest.mark.parametrize("x", CUMPROD_ZEROS, ids=["one", "two", "last", "all"])
def test_cumulative_prod_with_zeros_vs_jax_and_torch(x):
    f = lambda xp, v: xp.cumulative_prod(v)  # noqa: E731
    check_jvp_vjp(f, [x])
    g = _rng(5).standard_normal(x.shape)
    close(_tape_grad(f, x, g), _torch_grad(lambda t: torch.cumprod(t, 0), x, g))
    m = np.stack([x, x[::-1], np.roll(x, 2)], axis=1)
    check_jvp_vjp(lambda xp, v: xp.cumulative_prod(v, axis=0, include_initial=True), [m])


@pytest.mark.parametrize("fn", ["prod", "prod_axis", "cumprod"])
@pytest.mark.parametrize("x", [np.array([1.5, 0.0, -2.0, 3.0]),
                               np.array([0.0, 2.0, 0.0, 3.0]),
                               np.array([0.7, 2.0, -1.2, 3.0])],
                         ids=["one_zero", "two_zeros", "no_zero"])
def test_prod_hessian_with_zeros_vs_jax(fn, x):
    # Second derivatives at zeros: the product of all factors but two.
    w = np.array([0.3, -1.0, 2.0, 0.5])
    fs = {"prod": lambda xp, v: xp.prod(v),
          "prod_axis": lambda xp, v: xp.sum(xp.prod(xp.reshape(v, (2, 2)), axis=0)),
          "cumprod": lambda xp, v: xp.sum(xp.cumulative_prod(v) * _np_of(xp, w))}
    f = fs[fn]
    ours = F.hessian(_ac_f(f))(ac.asarray(x))
    ref = jax.hessian(_jax_f(f))(jnp.asarray(x))
    close(ours, ref, what="hessian")
    # the same through the tape (create_graph)
    a = ac.asarray(x)
    a.requires_grad_()
    (g,) = ac.autograd.grad(f(ac, a), [a], create_graph=True)
    rows = [np.asarray(ac.autograd.grad(g[i], [a], retain_graph=True)[0])
            for i in range(x.shape[0])]
    close(np.stack(rows), ref, what="tape hessian")


@pytest.mark.parametrize("descending", [False, True])
def test_sort_ties_vs_torch(descending):
    # Equal elements keep their order (stable), so each tie's gradient goes where torch's
    # stable sort sends it.
    x = np.array([[2.0, 1.0, 2.0, 0.5, 1.0, 2.0], [3.0, 3.0, 3.0, -1.0, -1.0, 0.0]])
    g = _rng(12).standard_normal(x.shape)
    ours = _tape_grad(lambda xp, v: xp.sort(v, axis=1, descending=descending), x, g)
    ref = _torch_grad(lambda t: torch.sort(t, dim=1, descending=descending, stable=True)[0],
                      x, g)
    close(ours, ref)


def test_std_zero_spread_has_zero_gradient_like_torch():
    x = np.array([[2.0, 2.0, 2.0], [1.0, 2.0, 4.0]])
    f = lambda xp, v: xp.sum(xp.std(v, axis=1))  # noqa: E731
    close(_tape_grad(f, x), _torch_grad(lambda t: torch.std(t, dim=1, correction=0).sum(), x))
    _, t = F.jvp(lambda v: ac.std(v, axis=1), (ac.asarray(x),),
                 (ac.asarray(np.ones_like(x) * [1.0, 0.0, 0.0]),))
    assert np.asarray(t)[0] == 0.0


def test_var_std_hessian_vs_jax():
    x = _rng(6).standard_normal((3, 4))
    for f in (lambda xp, v: xp.sum(xp.var(v, axis=1, correction=1) ** 2),
              lambda xp, v: xp.sum(xp.std(v, axis=0))):
        close(F.hessian(_ac_f(f))(ac.asarray(x)), jax.hessian(_jax_f(f))(jnp.asarray(x)),
              what="hessian")


@pytest.mark.parametrize("f", [
    lambda xp, v: xp.sum(xp.sort(v, axis=0) * _np_of(xp, [[1.0], [-2.0], [3.0]]) ** 2),
    lambda xp, v: xp.sum(xp.max(v * v, axis=1) * xp.min(v, axis=0)[:3]),
    lambda xp, v: xp.sum(xp.cumulative_sum(v * v, axis=1) * v),
    lambda xp, v: xp.sum(xp.diff(v * v, n=2) * xp.mean(v)),
    lambda xp, v: xp.sum(xp.where(v > 0, v * v, xp.exp(v))),
], ids=["sort", "max_min", "cumsum", "diff_mean", "where"])
def test_second_order_vs_jax(f):
    x = _rng(7).standard_normal((3, 4))
    close(F.hessian(_ac_f(f))(ac.asarray(x)), jax.hessian(_jax_f(f))(jnp.asarray(x)),
          what="hessian")


# --- dtypes, empty and 0-d inputs ---------------------------------------------------------

def test_reduction_dtype_keyword():
    x = _rng(8).standard_normal((3, 4)).astype(np.float32)
    for name in ("sum", "prod"):
        f = lambda v: getattr(ac, name)(v, axis=1, dtype=ac.float64)  # noqa: E731
        out, t = F.jvp(f, (ac.asarray(x),), (ac.asarray(np.ones_like(x)),))
        assert out.dtype == ac.float64 and t.dtype == ac.float64
        g = F.grad(lambda v: ac.sum(f(v)))(ac.asarray(x))
        assert g.dtype == ac.float32
        ref = jax.grad(lambda v: jnp.sum(getattr(jnp, name)(v.astype(jnp.float64), axis=1)))(
            jnp.asarray(x.astype(np.float64)))
        close(g, ref, rtol=1e-6, atol=1e-6)
    f = lambda v: ac.cumulative_prod(v, axis=0, dtype=ac.float64)  # noqa: E731
    out, t = F.jvp(f, (ac.asarray(x),), (ac.asarray(np.ones_like(x)),))
    assert t.dtype == ac.float64
    assert F.grad(lambda v: ac.sum(f(v)))(ac.asarray(x)).dtype == ac.float32


@pytest.mark.parametrize("name,kw", [
    ("sum", {"axis": 0}), ("prod", {"axis": 0}), ("mean", {"axis": 1}),
    ("cumulative_sum", {"axis": 0}), ("cumulative_prod", {"axis": 0}),
    ("cumulative_prod", {"axis": 0, "include_initial": True}), ("sort", {"axis": 0}),
    ("diff", {"axis": 0}),
])
def test_empty_inputs(name, kw):
    x = ac.zeros((0, 3), dtype=ac.float64)
    f = lambda v: ac.sum(getattr(ac, name)(v, **kw))  # noqa: E731
    g = F.grad(f)(x)
    assert g.shape == (0, 3) and g.dtype == ac.float64
    _, t = F.jvp(lambda v: getattr(ac, name)(v, **kw), (x,), (ac.ones_like(x),))
    assert t.shape == getattr(ac, name)(x, **kw).shape


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "cumulative_sum",
                                  "cumulative_prod", "max", "min"])
def test_0d_inputs(name):
    x = np.array(1.7)

    def f(xp, v):
        if xp is jnp and name.startswith("cumulative"):
            v = xp.reshape(v, (1,))  # JAX refuses 0-d scans; ours scan a length-1 vector
        return getattr(xp, name)(v)

    g = F.grad(lambda v: ac.sum(f(ac, v) * 2.5))(ac.asarray(x))
    assert g.shape == () and g.dtype == ac.float64
    if name == "std":  # std is 0 there: PyTorch's gradient 0, not JAX's nan
        close(g, _torch_grad(lambda t: torch.std(t, correction=0), x))
        return
    close(g, jax.grad(lambda v: jnp.sum(f(jnp, v) * 2.5))(jnp.asarray(x)))
    check_jvp_vjp(f, [x])


def test_nondiff_outputs_never_require_grad():
    x = ac.asarray(_rng(9).standard_normal((3, 4)))
    x.requires_grad_()
    outs = [ac.argmax(x), ac.argmin(x, axis=1), ac.count_nonzero(x), ac.argsort(x),
            ac.searchsorted(ac.sort(ac.reshape(x, (-1,))), x), ac.isin(x, x), ac.all(x),
            ac.any(x, axis=0), ac.unique_values(x), *ac.nonzero(x), *ac.unique_all(x)]
    assert not any(o.requires_grad for o in outs)
    assert ac.sort(x).requires_grad and ac.where(x > 0, x, 0.0).requires_grad


# --- vmap ---------------------------------------------------------------------------------

def _stack_per_example(f, arrays, in_dims):
    """f applied to each example, stacked (the reference of vmap)."""
    size = next(np.asarray(a).shape[d] for a, d in zip(arrays, in_dims) if d is not None)
    outs = []
    for i in range(size):
        ex = [ac.asarray(np.take(np.asarray(a), i, axis=d)) if d is not None else a
              for a, d in zip(arrays, in_dims)]
        outs.append(np.asarray(f(*ex)))
    return np.stack(outs)


def check_vmap(f, arrays, in_dims):
    ours = F.vmap(f, in_dims=tuple(in_dims))(*arrays)
    ref = _stack_per_example(f, arrays, in_dims)
    assert np.asarray(ours).dtype == ref.dtype
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(np.asarray(ours), ref)
    else:
        close(ours, ref)


def _batched(shape, d, size=3, seed=10, dtype="float64"):
    full = list(shape)
    full.insert(d, size)
    return ac.asarray(rand(_rng(seed), tuple(full), dtype))


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("bdim", [0, -1])
def test_vmap_vs_stack(case, bdim):
    _, f, shapes, _ = case
    arrays = [_batched(s, bdim % (len(s) + 1), seed=10 + i) for i, s in enumerate(shapes)]
    check_vmap(_ac_f(f), arrays, [bdim % (len(s) + 1) for s in shapes])


@pytest.mark.parametrize("case", [c for c in CASES if len(c[2]) > 1],
                         ids=[c[0] for c in CASES if len(c[2]) > 1])
def test_vmap_one_operand_batched(case):
    _, f, shapes, _ = case
    for k in range(len(shapes)):
        arrays = [_batched(s, 0, seed=20 + i) if i == k else
                  ac.asarray(rand(_rng(20 + i), s)) for i, s in enumerate(shapes)]
        check_vmap(_ac_f(f), arrays, [0 if i == k else None for i in range(len(shapes))])


NONDIFF = [
    ("argmax", lambda x: ac.argmax(x), (3, 4)),
    ("argmax_keep", lambda x: ac.argmax(x, keepdims=True), (3, 4)),
    ("argmax_axis", lambda x: ac.argmax(x, axis=-1, keepdims=True), (3, 4)),
    ("argmin_axis0", lambda x: ac.argmin(x, axis=0), (3, 4)),
    ("argmin_0d", lambda x: ac.argmin(x), ()),
    ("count_nonzero", lambda x: ac.count_nonzero(x > 0), (3, 4)),
    ("count_nonzero_axes", lambda x: ac.count_nonzero(x > 0, axis=(0, -1), keepdims=True),
     (2, 3, 4)),
    ("argsort", lambda x: ac.argsort(x, axis=0), (3, 4)),
    ("argsort_desc", lambda x: ac.argsort(x, descending=True), (3, 4)),
    ("all", lambda x: ac.all(x > -0.5, axis=1), (3, 4)),
    ("any", lambda x: ac.any(x > 0.5), (3, 4)),
    ("isin_self", lambda x: ac.isin(x, ac.reshape(x, (-1,))[:3]), (3, 4)),
]


@pytest.mark.parametrize("case", NONDIFF, ids=[c[0] for c in NONDIFF])
@pytest.mark.parametrize("bdim", [0, -1])
def test_vmap_nondiff_ops(case, bdim):
    _, f, shape = case
    d = bdim % (len(shape) + 1)
    check_vmap(f, [_batched(shape, d)], [d])


def _rounded(shape, d=0, seed=30):
    """Small integers as floats: ties and repeats between x1 and x2."""
    full = list(shape)
    full.insert(d, 3)
    return ac.asarray(np.round(_rng(seed).standard_normal(tuple(full)) * 2))


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dims", [(0, None), (None, 0), (0, 0), (1, 1)])
def test_vmap_searchsorted(side, dims):
    s1 = ac.sort(_rounded((6,), seed=31), axis=-1)
    x1 = s1 if dims[0] is not None else s1[0]
    x2 = _rounded((2, 5), seed=32) if dims[1] is not None else _rounded((2, 5), seed=32)[0]
    if dims == (1, 1):
        x1 = ac.permute_dims(s1, (1, 0))
        x2 = ac.moveaxis(_rounded((2, 5), seed=32), 0, 1)
    check_vmap(lambda a, v: ac.searchsorted(a, v, side=side), [x1, x2], dims)
    # with a sorter and a scalar value
    u = _rounded((6,), seed=33)
    order = ac.argsort(u, axis=-1)
    check_vmap(lambda a, srt: ac.searchsorted(a, 0.0, side=side, sorter=srt), [u, order],
               [0, 0])


@pytest.mark.parametrize("dims", [(0, None), (None, 0), (0, 0)])
@pytest.mark.parametrize("invert", [False, True])
def test_vmap_isin(dims, invert):
    x1 = _rounded((2, 4), seed=40)
    x2 = _rounded((5,), seed=41)
    args = [x1 if dims[0] is not None else x1[0], x2 if dims[1] is not None else x2[0]]
    check_vmap(lambda a, b: ac.isin(a, b, invert=invert), args, dims)
    check_vmap(lambda b: ac.isin(1.0, b), [x2], [0])


@pytest.mark.parametrize("f", [ac.nonzero, ac.unique_values, ac.unique_all,
                               ac.unique_counts, ac.unique_inverse])
def test_vmap_data_dependent_shapes_raise(f):
    with pytest.raises(ValueError, match="cannot be batched"):
        F.vmap(f)(ac.asarray(np.eye(3)))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("include_initial", [False, True])
def test_vmap_cumulative_0d_examples(name, include_initial):
    f = lambda v: getattr(ac, name)(v * v, include_initial=include_initial)  # noqa: E731
    check_vmap(f, [_batched((), 0)], [0])
    check_vmap(F.grad(lambda v: ac.sum(f(v))), [_batched((), 0)], [0])


def test_vmap_axis_out_of_range_raises():
    with pytest.raises(ValueError, match="out of bounds"):
        F.vmap(lambda v: ac.sum(v, axis=2))(ac.ones((3, 2, 2)))


def test_per_example_gradients_and_grad_of_vmap():
    x = rand(_rng(11), (4, 3, 5))
    x[0, 1, 2] = 0.0
    f = lambda xp, v: xp.sum(xp.prod(v, axis=1) * xp.max(v, axis=0)[:3]) + \
        xp.std(v) * xp.sum(xp.sort(v, axis=-1)[:, -1])  # noqa: E731
    ours = F.vmap(F.grad(_ac_f(f)))(ac.asarray(x))
    ref = jax.vmap(jax.grad(_jax_f(f)))(jnp.asarray(x))
    close(ours, ref)
    h = lambda xp, v: xp.sum(xp.cumulative_prod(v, axis=-1) * xp.var(v, axis=0))  # noqa
    ours = F.grad(lambda v: ac.sum(F.vmap(_ac_f(h))(v)))(ac.asarray(x))
    ref = jax.grad(lambda v: jnp.sum(jax.vmap(_jax_f(h))(v)))(jnp.asarray(x))
    close(ours, ref)
