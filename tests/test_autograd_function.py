"""`arraycore.autograd.Function` against `torch.autograd.Function` (PyTorch 2.13).

Each Function is written once, by `make_functions(lib)`, against a "library" (the arraycore
module or torch: same names for the ops used, the same Function / ctx API), and both
versions are compared: forward values, tape gradients, double backward, and every
transform (`func.grad/vjp/jacrev/vmap/jvp/jacfwd/hessian`, `forward_ad`).  Only the torch
versions get a `jvp` staticmethod (torch.func needs it): arraycore derives the forward
derivative by transposing the backward, which these comparisons check.  A straight-through
Function (backward deliberately not the forward's derivative) shows that every transform
uses the custom backward instead of differentiating the forward's primitives; finite
differences check the derived jvp independently of torch.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraycore as ac
from arraycore import func as acf

torch = pytest.importorskip("torch")
tfunc = torch.func

LIBS = {"ac": ac, "torch": torch}

# torch.func warns about torch.jit.script deprecation internally.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# --- the Functions, written once ------------------------------------------------------------

def make_functions(lib):
    Base = lib.autograd.Function
    is_torch = lib is torch

    class Exp(Base):
        """exp, saving its output (complex: PyTorch's convention, g * conj(y))."""
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return lib.exp(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)
            ctx.save_for_forward(output)

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensors
            return g * lib.conj(y)

    class MulAdd(Base):
        """(x * y + alpha * x, x - y): two inputs, a non-array argument, two outputs."""
        generate_vmap_rule = True

        @staticmethod
        def forward(x, y, alpha):
            return x * y + alpha * x, x - y

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, y, alpha = inputs
            ctx.save_for_backward(x, y)
            ctx.save_for_forward(x, y)
            ctx.alpha = alpha

        @staticmethod
        def backward(ctx, g1, g2):
            x, y = ctx.saved_tensors
            return g1 * (lib.conj(y) + ctx.alpha) + g2, g1 * lib.conj(x) - g2, None

    class SinCube(Base):
        """sin(x)**3, saving the input (second derivatives go through the saved input)."""
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return lib.sin(x) ** 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.save_for_forward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * lib.sin(x) ** 2 * lib.cos(x)

    class STE(Base):
        """Straight-through round: forward round(x), backward 3 * g (not the derivative of
        the forward, so a transform that differentiated the forward's ops would get 0)."""
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return lib.round(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 3.0

    class OldCube(Base):
        """Old style: forward(ctx, x)."""

        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 3 * g * x * x

    if is_torch:  # torch.func's forward mode needs hand-written jvps
        Exp.jvp = staticmethod(lambda ctx, t: t * ctx.saved_tensors[0])
        MulAdd.jvp = staticmethod(
            lambda ctx, tx, ty, ta: (tx * ctx.saved_tensors[1] + ty * ctx.saved_tensors[0]
                                     + ctx.alpha * tx, tx - ty))
        SinCube.jvp = staticmethod(
            lambda ctx, t: t * 3 * lib.sin(ctx.saved_tensors[0]) ** 2
            * lib.cos(ctx.saved_tensors[0]))
        STE.jvp = staticmethod(lambda ctx, t: t * 3.0)
    return {"Exp": Exp, "MulAdd": MulAdd, "SinCube": SinCube, "STE": STE,
            "OldCube": OldCube}


FNS = {"ac": make_functions(ac), "torch": make_functions(torch)}

X = np.array([0.5, -1.25, 2.0, 0.3])
Y = np.array([0.3, -0.7, 1.1, -0.2])
XC = np.array([0.5 + 0.2j, -1.25 + 0.7j, 0.8 - 1.0j, 0.3 + 0.1j])
YC = np.array([0.3 - 0.4j, -0.7 + 0.1j, 1.1 + 0.5j, -0.2 - 0.6j])
XB = np.array([[0.4, -1.6, 2.2, 0.9], [1.3, 0.25, -0.7, -2.4], [0.1, 0.6, -0.35, 1.7]])
V = np.array([0.7, -0.3, 1.2, 0.4])


def arr(lib, a, requires_grad=False):
    x = lib.asarray(np.array(a))
    if requires_grad:
        x.requires_grad_()
    return x


def to_np(a):
    if a is None:
        return None
    if isinstance(a, torch.Tensor):
        return a.detach().resolve_conj().numpy()
    return np.asarray(a)


def assert_same(a, b, rtol=1e-12, atol=1e-13, path="result"):
    """a (arraycore) equals b (torch), recursively over tuples/lists."""
    if isinstance(b, (tuple, list)):
        assert isinstance(a, (tuple, list)) and len(a) == len(b), f"{path}: {a!r} vs {b!r}"
        for i, (u, w) in enumerate(zip(a, b)):
            assert_same(u, w, rtol, atol, f"{path}[{i}]")
        return
    if b is None or isinstance(b, (bool, int, str)):
        assert a == b, f"{path}: arraycore {a!r} vs torch {b!r}"
        return
    a, b = to_np(a), to_np(b)
    assert a.shape == b.shape, f"{path}: shape {a.shape} vs torch {b.shape}"
    assert a.dtype == b.dtype, f"{path}: dtype {a.dtype} vs torch {b.dtype}"
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=path)


def both(scenario, *args, **kw):
    """Runs scenario(lib, fns, *args) on arraycore and torch and compares the results."""
    res = {}
    for name, lib in LIBS.items():
        res[name] = scenario(lib, FNS[name], *args)
    assert_same(res["ac"], res["torch"], **kw)
    return res["ac"]


def numeric_jvp(f, x, t, eps=1e-6):
    """Central difference of a NumPy-to-NumPy function along t (complex x: t complex)."""
    return (f(x + eps * t) - f(x - eps * t)) / (2 * eps)


def ac_np(fn):
    """An arraycore function as NumPy -> NumPy."""
    return lambda a: np.asarray(fn(ac.asarray(np.array(a))))


# --- values and the tape ------------------------------------------------------------------

def _outputs(lib, F, name, data):
    if name == "MulAdd":
        x, y = data
        return F["MulAdd"].apply(arr(lib, x), arr(lib, y), 0.5)
    return F[name].apply(arr(lib, data[0]))


CASES = [("Exp", (X,)), ("Exp", (XC,)), ("MulAdd", (X, Y)), ("MulAdd", (XC, YC)),
         ("SinCube", (X,)), ("STE", (X,)), ("OldCube", (X,))]


@pytest.mark.parametrize("name,data", CASES, ids=lambda v: v if isinstance(v, str) else
                         str(v[0].dtype))
def test_forward_values(name, data):
    both(lambda lib, F: _outputs(lib, F, name, data))


def _loss(lib, o, k=0):
    w = arr(lib, V * (k + 1))
    if (o.is_complex() if lib is torch else o.dtype.kind == "c"):
        return lib.sum(lib.abs(o * w) ** 2)
    return lib.sum(o * w)


def _apply_leaves(lib, F, name, leaves):
    if name == "MulAdd":
        return F["MulAdd"].apply(leaves[0], leaves[1], 0.5)
    return F[name].apply(leaves[0])


@pytest.mark.parametrize("name,data", CASES, ids=lambda v: v if isinstance(v, str) else
                         str(v[0].dtype))
def test_tape_gradients(name, data):
    def scenario(lib, F):
        leaves = [arr(lib, d, True) for d in data]
        outs = _apply_leaves(lib, F, name, leaves)
        outs = outs if isinstance(outs, tuple) else (outs,)
        sum(_loss(lib, o, k) for k, o in enumerate(outs)).backward()
        return [v.grad for v in leaves] + [outs[0].requires_grad]
    both(scenario)


@pytest.mark.parametrize("name,data", [c for c in CASES if c[0] != "STE"],
                         ids=lambda v: v if isinstance(v, str) else str(v[0].dtype))
def test_tape_double_backward(name, data):
    def scenario(lib, F):
        leaves = [arr(lib, d, True) for d in data]
        outs = _apply_leaves(lib, F, name, leaves)
        outs = outs if isinstance(outs, tuple) else (outs,)
        loss = sum(_loss(lib, o, k) for k, o in enumerate(outs))
        gs = lib.autograd.grad(loss, leaves, create_graph=True)
        second = lib.autograd.grad(sum(_loss(lib, g, 2) for g in gs), leaves)
        return list(gs) + list(second)
    both(scenario, rtol=1e-11)


def test_grad_fn_and_flags():
    def scenario(lib, F):
        x = arr(lib, X, True)
        y = F["Exp"].apply(x)
        z = F["Exp"].apply(arr(lib, X))
        return [y.requires_grad, y.is_leaf, type(y.grad_fn).__name__.startswith("Exp"),
                z.requires_grad, z.grad_fn is None]
    res = both(scenario)
    assert res == [True, False, True, False, True]
    y = FNS["ac"]["Exp"].apply(arr(ac, X, True))
    assert y.grad_fn.name() == "ExpBackward"


# --- transforms ---------------------------------------------------------------------------

def _func(lib):
    return acf if lib is ac else tfunc


def _second(lib, x):
    # x * 0.5 + 1 with an array 0.5: arraycore's multiply vjp cannot conj a Python float
    # against a complex array yet (reported; rules/base.py _conj_if_complex).
    return x * arr(lib, 0.5) + 1.0


def _scalar(lib, F, name):
    """A real scalar function of one array input through Function `name`."""
    if name == "MulAdd":
        def f(x):
            a, b = F["MulAdd"].apply(x, _second(lib, x), 0.5)
            return _loss(lib, a) + _loss(lib, b, 1)
        return f
    return lambda x: _loss(lib, F[name].apply(x))


def _vector(lib, F, name):
    if name == "MulAdd":
        return lambda x: F["MulAdd"].apply(x, _second(lib, x), 0.5)[0]
    return F[name].apply


NEW = [("Exp", X), ("Exp", XC), ("MulAdd", X), ("MulAdd", XC), ("SinCube", X), ("STE", X)]
IDS = [f"{n}-{d.dtype}" for n, d in NEW]


@pytest.mark.parametrize("name,data", NEW, ids=IDS)
def test_func_grad_and_vjp(name, data):
    def scenario(lib, F):
        fn = _func(lib)
        g = fn.grad(_scalar(lib, F, name))(arr(lib, data))
        out, vjp_fn = fn.vjp(_vector(lib, F, name), arr(lib, data))
        return [g, out, vjp_fn(arr(lib, V.astype(data.dtype)))[0]]
    both(scenario)


PLAIN = {  # the Functions' forwards with plain ops (the core rules differentiate them)
    "Exp": lambda x: ac.exp(x),
    "MulAdd": lambda x: x * _second(ac, x) + arr(ac, 0.5) * x,
    "SinCube": lambda x: ac.sin(x) ** 3,
}


@pytest.mark.parametrize("name,data", NEW, ids=IDS)
def test_func_jacrev_jacfwd(name, data):
    def scenario(lib, F):
        fn = _func(lib)
        f = _vector(lib, F, name)
        return [fn.jacrev(f)(arr(lib, data)), fn.jacfwd(f)(arr(lib, data))]
    if data.dtype.kind != "c":
        both(scenario)
        return
    # torch.func's jacrev/jacfwd refuse complex inputs: compare with the plain forward.
    got = scenario(ac, FNS["ac"])
    ref = [acf.jacrev(PLAIN[name])(arr(ac, data)), acf.jacfwd(PLAIN[name])(arr(ac, data))]
    assert_same(got, [torch.asarray(np.asarray(r)) for r in ref])


@pytest.mark.parametrize("name,data", NEW, ids=IDS)
def test_func_jvp(name, data):
    def scenario(lib, F):
        fn = _func(lib)
        return fn.jvp(_vector(lib, F, name), (arr(lib, data),),
                      (arr(lib, V.astype(data.dtype)),))
    both(scenario)


@pytest.mark.parametrize("name,data", NEW, ids=IDS)
def test_forward_ad(name, data):
    def scenario(lib, F):
        fwAD = lib.autograd.forward_ad
        with fwAD.dual_level():
            d = fwAD.make_dual(arr(lib, data), arr(lib, V.astype(data.dtype)))
            p, t = fwAD.unpack_dual(_vector(lib, F, name)(d))
        return [p, t]
    both(scenario)


@pytest.mark.parametrize("name", ["Exp", "MulAdd", "SinCube", "STE"])
def test_func_vmap(name):
    def scenario(lib, F):
        fn = _func(lib)
        f = _vector(lib, F, name)
        return [fn.vmap(f)(arr(lib, XB)), fn.vmap(f, in_dims=1)(arr(lib, XB.T.copy())),
                fn.vmap(fn.grad(_scalar(lib, F, name)))(arr(lib, XB)),
                fn.grad(lambda b: lib.sum(fn.vmap(f)(b) * arr(lib, XB)))(arr(lib, XB))]
    both(scenario)


@pytest.mark.parametrize("name", ["Exp", "MulAdd", "SinCube"])
def test_func_hessian_and_nesting(name):
    def scenario(lib, F):
        fn = _func(lib)
        s = _scalar(lib, F, name)
        x = arr(lib, X)
        return [fn.hessian(s)(x), fn.jacrev(fn.jacrev(s))(x),
                fn.grad(lambda t: lib.sum(fn.grad(s)(t) * arr(lib, V)))(x),
                fn.vmap(fn.jacrev(_vector(lib, F, name)))(arr(lib, XB)),
                fn.vmap(lambda t: fn.jvp(_vector(lib, F, name), (t,),
                                         (arr(lib, V),))[1])(arr(lib, XB))]
    both(scenario, rtol=1e-11)


def test_old_style_under_tape_and_one_transform():
    def scenario(lib, F):
        x = arr(lib, X, True)
        y = lib.sum(F["OldCube"].apply(x))
        y.backward()
        return [x.grad]
    both(scenario)
    # torch.func refuses old-style Functions; arraycore runs them under one level.
    F = FNS["ac"]["OldCube"]
    g = acf.grad(lambda t: ac.sum(F.apply(t)))(arr(ac, X))
    np.testing.assert_allclose(np.asarray(g), 3 * X ** 2, rtol=1e-13)
    np.testing.assert_allclose(np.asarray(acf.vmap(F.apply)(arr(ac, XB))), XB ** 3, rtol=1e-13)
    t = acf.jvp(F.apply, (arr(ac, X),), (arr(ac, V),))[1]
    np.testing.assert_allclose(np.asarray(t), 3 * X ** 2 * V, rtol=1e-13)
    with pytest.raises(RuntimeError, match="setup_context"):
        acf.grad(lambda u: ac.sum(acf.grad(lambda t: ac.sum(F.apply(t)))(u)))(arr(ac, X))


# --- beyond torch: custom backward everywhere, derived jvp, generated vmap ---------------

def test_custom_backward_used_by_every_transform():
    """STE's backward is 3 * g although round has derivative 0: every frontend must give 3
    (it would be 0 if a transform differentiated the forward's ops)."""
    F = FNS["ac"]["STE"]
    x = arr(ac, X)
    three = np.full(4, 3.0)
    s = lambda t: ac.sum(F.apply(t))  # noqa: E731
    xl = arr(ac, X, True)
    s(xl).backward()
    results = {
        "tape": xl.grad,
        "grad": acf.grad(s)(x),
        "vjp": acf.vjp(F.apply, x)[1](ac.ones(4, dtype=ac.float64))[0],
        "jvp": acf.jvp(F.apply, (x,), (ac.ones(4, dtype=ac.float64),))[1],
        "jacrev": ac.sum(acf.jacrev(F.apply)(x), axis=0),
        "jacfwd": ac.sum(acf.jacfwd(F.apply)(x), axis=1),
        "vmap(grad)": acf.vmap(acf.grad(s))(arr(ac, XB))[1],
        "grad(vmap)": acf.grad(lambda b: ac.sum(acf.vmap(F.apply)(b)))(arr(ac, XB))[2],
        "jvp(vmap)": acf.jvp(acf.vmap(F.apply), (arr(ac, XB),),
                             (ac.ones((3, 4), dtype=ac.float64),))[1][0],
        "vmap(jvp)": acf.vmap(lambda t: acf.jvp(F.apply, (t,),
                                                (ac.ones(4, dtype=ac.float64),))[1])(
            arr(ac, XB))[0],
    }
    fwAD = ac.autograd.forward_ad
    with fwAD.dual_level():
        results["forward_ad"] = fwAD.unpack_dual(
            F.apply(fwAD.make_dual(x, ac.ones(4, dtype=ac.float64)))).tangent
    for k, v in results.items():
        np.testing.assert_allclose(np.asarray(v), three, err_msg=k)


@pytest.mark.parametrize("name,data", NEW, ids=IDS)
def test_derived_jvp_matches_finite_differences(name, data):
    f = _vector(ac, FNS["ac"], name)
    t = V.astype(data.dtype) * (1 + 0.5j if data.dtype.kind == "c" else 1)
    _, tan = acf.jvp(f, (arr(ac, data),), (arr(ac, t),))
    if name == "STE":  # its derivative is the custom one: 3
        np.testing.assert_allclose(np.asarray(tan), 3 * t)
        return
    num = numeric_jvp(ac_np(f), data, t)
    np.testing.assert_allclose(np.asarray(tan), num, rtol=1e-7, atol=1e-8)


def test_derived_jvp_real_to_complex_and_back():
    """A real input with a complex output, and a complex input with a real output: the
    derived jvp keeps PyTorch's convention across the real/complex boundary."""
    c = arr(ac, np.array(1.0 + 2.0j))

    class R2C(ac.autograd.Function):
        @staticmethod
        def forward(x):
            return x * c

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * ac.conj(c)  # real part taken for the real input

    class AbsSq(ac.autograd.Function):
        @staticmethod
        def forward(z):
            return ac.real(z * ac.conj(z))

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            z, = ctx.saved_tensors
            return 2 * g * z

    _, t = acf.jvp(R2C.apply, (arr(ac, X),), (arr(ac, V),))
    np.testing.assert_allclose(np.asarray(t), V * (1 + 2j), rtol=1e-14)
    dz = V * (0.3 - 0.8j)
    _, t = acf.jvp(AbsSq.apply, (arr(ac, XC),), (arr(ac, dz),))
    num = numeric_jvp(lambda z: np.abs(z) ** 2, XC, dz)
    np.testing.assert_allclose(np.asarray(t), num, rtol=1e-8)
    g = acf.grad(lambda x: ac.sum(ac.imag(R2C.apply(x))))(arr(ac, X))
    np.testing.assert_allclose(np.asarray(g), np.full(4, 2.0), rtol=1e-14)


def test_generated_vmap_with_unbatched_argument():
    """vmap with in_dims=(0, None): the unbatched input's gradient sums over the batch."""
    def scenario(lib, F):
        fn = _func(lib)
        xb, w = arr(lib, XB), arr(lib, Y)
        f = lambda w: lib.sum(fn.vmap(lambda a, b: F["MulAdd"].apply(a, b, 0.5)[0],  # noqa
                                      in_dims=(0, None))(xb, w) ** 2)
        g = lambda xb: lib.sum(fn.vmap(lambda a, b: F["MulAdd"].apply(a, b, 0.5)[1],  # noqa
                                       in_dims=(1, None))(xb, arr(lib, X)) ** 2)
        return [fn.grad(f)(w), fn.grad(g)(arr(lib, XB.T.copy())), fn.jacrev(f)(w)]
    both(scenario)


def test_nested_vmap_and_tape_outside_vmap():
    F = FNS["ac"]["SinCube"]
    Z = arr(ac, np.arange(24.0).reshape(2, 3, 4) / 10)
    ref = np.sin(np.asarray(Z)) ** 3
    np.testing.assert_allclose(np.asarray(acf.vmap(acf.vmap(F.apply))(Z)), ref, rtol=1e-13)
    d = 3 * np.sin(np.asarray(Z)) ** 2 * np.cos(np.asarray(Z))
    g = acf.grad(lambda z: ac.sum(acf.vmap(acf.vmap(F.apply))(z)))(Z)
    np.testing.assert_allclose(np.asarray(g), d, rtol=1e-13)
    xl = arr(ac, XB, True)
    ac.sum(acf.vmap(F.apply)(xl)).backward()
    np.testing.assert_allclose(np.asarray(xl.grad), 3 * np.sin(XB) ** 2 * np.cos(XB),
                               rtol=1e-13)
    out = acf.vmap(F.apply, chunk_size=2)(arr(ac, XB))
    np.testing.assert_allclose(np.asarray(out), np.sin(XB) ** 3, rtol=1e-13)


def test_user_vmap_and_jvp_staticmethods_are_used():
    calls = []

    class Sq(ac.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.save_for_forward(inputs[0] * 10.0)  # jvp reads these (torch's rule)

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * g * x

        @staticmethod
        def jvp(ctx, t):
            x10, = ctx.saved_tensors
            return 2 * t * x10  # deliberately 10x: shows this jvp is the one used

        @staticmethod
        def vmap(info, in_dims, x):
            calls.append((info.batch_size, info.randomness, in_dims))
            return Sq.apply(ac.moveaxis(x, in_dims[0], 0)), 0

    xb = arr(ac, XB)
    np.testing.assert_allclose(np.asarray(acf.vmap(Sq.apply, in_dims=1)(xb)), XB.T ** 2)
    assert calls == [(4, "error", (1,))]
    t = acf.jvp(Sq.apply, (arr(ac, X),), (arr(ac, V),))[1]
    np.testing.assert_allclose(np.asarray(t), 20 * X * V, rtol=1e-13)
    g = acf.grad(lambda b: ac.sum(acf.vmap(Sq.apply)(b)))(xb)
    np.testing.assert_allclose(np.asarray(g), 2 * XB, rtol=1e-13)


# --- the ctx ------------------------------------------------------------------------------

def test_ctx_needs_input_grad_non_differentiable_and_kwargs():
    seen = {}

    def scenario(lib, F):
        class Two(lib.autograd.Function):
            @staticmethod
            def forward(x, y, scale=2.0):
                return x * scale * y, lib.sum(x > 0), x * 3

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, y, scale = inputs
                ctx.mark_non_differentiable(output[1])
                ctx.scale = scale
                ctx.save_for_backward(y)

            @staticmethod
            def backward(ctx, g0, g1, g2):
                y, = ctx.saved_tensors
                seen[lib.__name__] = (tuple(ctx.needs_input_grad), to_np(g1).tolist())
                return g0 * ctx.scale * y + 3 * g2, None, None

        x, y = arr(lib, X, True), arr(lib, Y)
        a, b, c = Two.apply(x, y, scale=5.0)
        (lib.sum(a) + lib.sum(c)).backward()
        return [x.grad, a.requires_grad, b.requires_grad, c.requires_grad]
    both(scenario)
    assert seen["arraycore"] == seen["torch"] == ((True, False, False), 0)


def test_ctx_set_materialize_grads():
    seen = {}

    def scenario(lib, F):
        class Pair(lib.autograd.Function):
            @staticmethod
            def forward(x):
                return x * 2, x * 3

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.set_materialize_grads(False)

            @staticmethod
            def backward(ctx, g0, g1):
                seen.setdefault(lib.__name__, []).append((g0 is None, g1 is None))
                return (0 if g0 is None else 2 * g0) + (0 if g1 is None else 3 * g1)

        x = arr(lib, X, True)
        _, q = Pair.apply(x)
        lib.sum(q).backward()
        return [x.grad]
    both(scenario)
    assert seen["arraycore"] == seen["torch"] == [(True, False)]


def test_saved_tensors_freed_and_version_checks():
    def freed(lib, F):
        x = arr(lib, X, True)
        y = lib.sum(F["Exp"].apply(x))
        y.backward()
        try:
            y.backward()
        except RuntimeError:
            return "raised"
        return "ok"
    assert both(freed) == "raised"

    def modified(lib, F):
        x = arr(lib, X, True)
        h = x * 1.0
        out = F["SinCube"].apply(h)
        h += 1
        try:
            lib.sum(out).backward()
        except RuntimeError as e:
            return "modified by an inplace operation" in str(e)
        return False
    assert both(modified) is True

    def retained(lib, F):
        x = arr(lib, X, True)
        y = lib.sum(F["Exp"].apply(x))
        y.backward(retain_graph=True)
        y.backward()
        return [x.grad]
    both(retained)


def test_errors_like_torch():
    def scenario(lib, kind):
        class Bad(lib.autograd.Function):
            @staticmethod
            def forward(x, k):
                return x * k

            @staticmethod
            def setup_context(ctx, inputs, output):
                pass

            @staticmethod
            def backward(ctx, g):
                if kind == "count":
                    return g, g, g
                if kind == "shape":
                    return lib.ones(7, dtype=lib.float64), None
                return g, g  # a gradient for the non-array input

        x = arr(lib, X, True)
        try:
            lib.sum(Bad.apply(x, 2.0)).backward()
        except RuntimeError as e:
            return str(e)
        return "ok"

    for kind, words in [("count", "incorrect number of gradients (expected 2, got 3)"),
                        ("shape", "returned an invalid gradient at index 0 - got [7] but "
                                  "expected shape compatible with [4]"),
                        ("non_array", "returned a gradient different than None at position 2")]:
        msg_ac, msg_t = scenario(ac, kind), scenario(torch, kind)
        assert msg_t != "ok" and words in msg_ac, (kind, msg_ac, msg_t)


def test_mark_dirty_not_supported():
    class Inplace(ac.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(NotImplementedError, match="in-place"):
        Inplace.apply(arr(ac, X, True))


def test_once_differentiable_like_torch():
    def scenario(lib, F):
        from_mod = (ac.autodiff.function if lib is ac else torch.autograd.function)

        class Once(lib.autograd.Function):
            @staticmethod
            def forward(x):
                return x * x

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(inputs[0])

            @staticmethod
            @from_mod.once_differentiable
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return 2 * g * x

        x = arr(lib, X, True)
        y = x * 2
        g, = lib.autograd.grad(lib.sum(Once.apply(y) * y), x, create_graph=True)
        try:
            lib.sum(g).backward()
            err = None
        except RuntimeError as e:
            err = "once_differentiable" in str(e)
        return [g, g.requires_grad, err]
    assert both(scenario)[1:] == [True, True]


def test_registry_and_coverage():
    F = FNS["ac"]["Exp"]
    from arraycore.autodiff.function import REGISTRY
    key = f"{F.__module__}.{F.__qualname__}"
    assert REGISTRY[key] is F._op
    assert F._op.family == "function" and F._op.public == F.apply
    row = ac.autodiff.coverage()[key]
    assert row["kind"] == "Function"
    assert row["jvp"] and row["vjp"] and row["batch"] and row["double_backward"]
    # The entry's rules follow the op-table API (slot dicts), so generic code can use them.
    x = arr(ac, X)
    y = F.apply(x)
    ct = F._op.vjp(ac.ones(4, dtype=ac.float64), (x,), {}, y, {(0, None)})
    np.testing.assert_allclose(np.asarray(ct[0]), np.exp(X), rtol=1e-14)
    t = F._op.jvp((x,), {}, {0: arr(ac, V)}, y)
    np.testing.assert_allclose(np.asarray(t), np.exp(X) * V, rtol=1e-13)
    out, d = F._op.batch((arr(ac, XB),), {}, {0: 0}, 3)
    np.testing.assert_allclose(np.asarray(out), np.exp(XB), rtol=1e-14)
    assert d == 0


def test_plain_call_does_not_record():
    F = FNS["ac"]["Exp"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = F.apply(arr(ac, X))
    assert not y.requires_grad and y.grad_fn is None
    x = arr(ac, X, True)
    with ac.no_grad():
        z = F.apply(x)
    assert not z.requires_grad
