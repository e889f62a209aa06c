"""Every op of the table against JAX and finite differences, driven by
tests/autodiff_op_info.py (a new op is covered by adding its entry there).

For each differentiable op, dtype and sample call:
- jvp: `ac.func.jvp` == `jax.jvp`;
- vjp: `ac.func.vjp` == `jax.vjp`, with PyTorch's complex convention
  (ours == conj(jax_vjp(conj(g))));
- second derivatives: jvp of grad (a Hessian-vector product) == JAX's;
- vmap over a batch of 3 (batch axis first, batch axis second, only the first input
  batched) == the stack of per-example results;
- first and second derivatives of a random projection sum(op(x) * w) against central finite
  differences (float64);
- the tape: `backward()` gives the same gradients as `func.vjp`;
- `gradcheck` (and, in the slow run, `gradgradcheck`).
Nondiff ops: under `func.jvp` their results are plain arrays with zero tangents, on the tape
they do not require grad, and vmap matches stacking (or raises for data-dependent shapes).

The default run compares a representative subset (autodiff_op_info.SMOKE) with JAX in
float64 and complex128, and runs the checks that need no JAX on every op in float64;
--runslow sweeps every op, dtype and sample.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraycore as ac
from arraycore._core.op_table import OPS
from arraycore.native import _native

from autodiff_op_info import OP_INFO, SMOKE, Case, cases, outputs, to_ac

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy

Array = _native.Array

DIFF = [n for n in OP_INFO if not OPS[n].nondiff]
NONDIFF = [n for n in OP_INFO if OPS[n].nondiff]


def _params(names, default_dtypes, every_dtype=True):
    """(op, dtype) parameters; those outside the default run are marked slow."""
    out = []
    for n in names:
        dts = OP_INFO[n].dtypes if every_dtype else OP_INFO[n].dtypes[:1]
        for d in dts:
            fast = default_dtypes(n, d)
            out.append(pytest.param(n, d, id=f"{n}-{d}",
                                    marks=() if fast else pytest.mark.slow))
    return out


JAX_PARAMS = _params(DIFF, lambda n, d: n in SMOKE and d in ("float64", "complex128"))
LOCAL_PARAMS = _params(DIFF, lambda n, d: d == "float64")
FD_PARAMS = [pytest.param(n, "float64", id=n) for n in DIFF]
NONDIFF_PARAMS = [pytest.param(n, OP_INFO[n].dtypes[0], id=n) for n in NONDIFF]


# --- helpers --------------------------------------------------------------------------------

def _tol(dtype, rtol64):
    return rtol64 if dtype in ("float64", "complex128") else 2e-4


def close(ours, ref, rtol, what, check_dtype=True):
    a, b = np.asarray(ours), np.asarray(ref)
    assert a.shape == b.shape, f"{what}: shape {a.shape}, expected {b.shape}"
    if check_dtype:
        assert a.dtype == b.dtype, f"{what}: dtype {a.dtype}, expected {b.dtype}"
    if a.dtype.kind in "biu":
        np.testing.assert_array_equal(a, b, err_msg=what)
        return
    scale = float(np.max(np.abs(b))) if b.size else 0.0
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * max(1.0, scale), equal_nan=True,
                               err_msg=what)


def run_samples(name, dtype, check, seed=0):
    """Runs check(case) on every sample; one failure message listing all failing samples."""
    errors = []
    for case in cases(name, dtype, seed):
        try:
            with warnings.catch_warnings():
                # astype complex -> real: JAX and NumPy warn that the imaginary part goes.
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                warnings.simplefilter("ignore", DeprecationWarning)
                check(case)
        except pytest.skip.Exception:
            continue
        except Exception as e:  # noqa: BLE001 - collected and reported together
            errors.append(f"{case!r}: {type(e).__name__}: {str(e).strip()[:1500]}")
    if errors:
        pytest.fail(f"{len(errors)} sample(s) of {name} failed:\n" + "\n\n".join(errors),
                    pytrace=False)


def _restructure(like, items):
    """items in the container type of `like` (a list/tuple result) or the single item."""
    if isinstance(like, (list, tuple)):
        if hasattr(like, "_fields"):  # a namedtuple (SVDResult, EighResult, ...)
            return type(like)(*items)
        return type(like)(items) if type(like) in (list, tuple) else tuple(items)
    return items[0]


def _inexact(o) -> bool:
    return np.dtype(o.dtype.name if hasattr(o.dtype, "name") else o.dtype).kind in "fc"


def _mapped(case, f):
    """f composed with the op's input and output maps (OpInfo.input_map: e.g. the Hermitian
    part for functions of a Hermitian matrix; OpInfo.output_map: e.g. eigenvectors with
    their phase fixed, for the ops whose outputs LAPACK defines up to a phase): the function
    whose finite differences the rules describe."""
    mi = getattr(case.info, "input_map", None)
    mo = getattr(case.info, "output_map", None)
    if mi is None and mo is None:
        return f

    def g(*xs):
        out = f(*([mi(ac, x) for x in xs] if mi is not None else xs))
        return mo(ac, out) if mo is not None else out
    return g


def _gauge_fixed(case, f, xp):
    """f with the op's OpInfo.output_map applied (xp: ac or jnp): eigen/singular vectors are
    defined up to a sign or phase that two LAPACK calls may choose differently, so values,
    tangents and cotangents are compared for the vectors with a fixed phase."""
    mo = getattr(case.info, "output_map", None)
    return f if mo is None else (lambda *xs: mo(xp, f(*xs)))


def _low_precision(case, outs):
    return any(np.dtype(o.dtype.name) in (np.float32, np.complex64) for o in outs) or \
        case.dtype in ("float32", "complex64")


# --- jvp / vjp / second derivatives against JAX ---------------------------------------------

def check_jvp(case: Case):
    rtol = _tol(case.dtype, case.info.rtol)
    f, xs = case.f_ac()
    fj, xjs = case.f_jax()
    f, fj = _gauge_fixed(case, f, ac), _gauge_fixed(case, fj, jnp)
    ts = [case.random_like(case.values[i]) for i in case.diff]
    out, tan = ac.func.jvp(f, tuple(xs), tuple(to_ac(t) for t in ts))
    # (jit: one compilation instead of one per primitive, several times faster here)
    jout, jtan = jax.jit(lambda p, t: jax.jvp(fj, p, t))(
        tuple(xjs), tuple(jnp.asarray(t) for t in ts))
    for k, (o, jo) in enumerate(zip(outputs(out), outputs(jout))):
        close(o, jo, rtol, f"value {k}")
    for k, (o, t, jt) in enumerate(zip(outputs(out), outputs(tan), outputs(jtan))):
        if _inexact(o):  # (integer outputs, e.g. pivots, have no tangent)
            close(t, jt, rtol, f"tangent {k}")


def check_vjp(case: Case):
    rtol = _tol(case.dtype, case.info.rtol)
    f, xs = case.f_ac()
    fj, xjs = case.f_jax()
    f, fj = _gauge_fixed(case, f, ac), _gauge_fixed(case, fj, jnp)
    out, vjp_fn = ac.func.vjp(f, *xs)
    gs = [case.random_like(np.asarray(o)) for o in outputs(out)]
    ours = vjp_fn(_restructure(out, [to_ac(g) for g in gs]))

    @jax.jit
    def jax_vjp(p, cts):
        jout, jvjp_fn = jax.vjp(fj, *p)
        return jvjp_fn(_restructure(jout, list(cts)))
    ref = jax_vjp(tuple(xjs), tuple(jnp.conj(jnp.asarray(g)) if _inexact(o) else
                                    np.zeros(np.shape(g), jax.dtypes.float0)
                                    for g, o in zip(gs, outputs(out))))
    assert len(ours) == len(ref)
    for k, (c, jc) in enumerate(zip(ours, ref)):
        close(c, np.conj(np.asarray(jc)), rtol, f"cotangent of input {k}")


def _loss(case, f, ws, xp):
    """L(*xs) = sum_k sum(real(f(*xs)_k * w_k)): a random real projection of the outputs."""
    def L(*xs):
        total = None
        for o, w in zip(outputs(f(*xs)), ws):
            if not _inexact(o):
                continue
            prod = o * w
            if prod.dtype.kind == "c":
                prod = xp.real(prod)
            s = xp.sum(prod)
            total = s if total is None else total + s
        return total
    return L


def check_hvp(case: Case):
    """jvp of grad of the projection (a Hessian-vector product) against JAX's.  For complex
    inputs our gradient is the conjugate of JAX's, and so is the Hessian-vector product."""
    if not case.info.hvp:
        pytest.skip("no second derivative check")
    rtol = _tol(case.dtype, max(case.info.rtol, 1e-9))
    f, xs = case.f_ac()
    fj, xjs = case.f_jax()
    f, fj = _gauge_fixed(case, f, ac), _gauge_fixed(case, fj, jnp)
    ws = [case.random_like(np.asarray(o)) for o in outputs(f(*xs))]
    L = _loss(case, f, [to_ac(w) for w in ws], ac)
    Lj = _loss(case, fj, [jnp.asarray(w) for w in ws], jnp)
    argnums = tuple(range(len(xs)))
    vs = [case.random_like(case.values[i]) for i in case.diff]
    _, hv = ac.func.jvp(ac.func.grad(L, argnums=argnums), tuple(xs),
                        tuple(to_ac(v) for v in vs))
    _, jhv = jax.jit(lambda p, t: jax.jvp(jax.grad(Lj, argnums=argnums), p, t))(
        tuple(xjs), tuple(jnp.asarray(v) for v in vs))
    for k, (h, jh) in enumerate(zip(hv, jhv)):
        close(h, np.conj(np.asarray(jh)), rtol, f"Hessian-vector product, input {k}")


@pytest.mark.parametrize("name,dtype", JAX_PARAMS)
def test_jvp_matches_jax(name, dtype):
    run_samples(name, dtype, check_jvp)


@pytest.mark.parametrize("name,dtype", JAX_PARAMS)
def test_vjp_matches_jax(name, dtype):
    run_samples(name, dtype, check_vjp)


@pytest.mark.parametrize("name,dtype", JAX_PARAMS)
def test_hvp_matches_jax(name, dtype):
    run_samples(name, dtype, check_hvp)


# --- vmap ---------------------------------------------------------------------------------

B = 3


def _vmap_variants(case):
    """in_dims per Arg: all batched at axis 0; all at axis 1 (0 for 0-d Args), so the batch
    axis is a non-leading, strided one; only the first Arg batched."""
    n = len(case.args)
    out = [("axis0", [0] * n)]
    if any(len(a.shape) for a in case.args):
        out.append(("axis1", [1 if len(a.shape) else 0 for a in case.args]))
    if n > 1:
        out.append(("first_only", [0] + [None] * (n - 1)))
    return out


def check_vmap(case: Case, variants=None):
    if not case.args:
        pytest.skip("takes no arrays (nothing to batch)")
    rtol = 1e-12 if case.dtype in ("float64", "complex128") else 1e-5
    for vname, dims in _vmap_variants(case):
        if variants is not None and vname not in variants:
            continue
        per_example = []
        leaves = []
        for a, v, d in zip(case.args, case.values, dims):
            if d is None:
                leaves.append(to_ac(v, a.layout))
                per_example.append([v] * B)
                continue
            vb = case.draw(a, batch=B)
            x = to_ac(vb, a.layout)
            if d != 0:
                x = ac.moveaxis(x, 0, d)
            leaves.append(x)
            per_example.append([vb[b] for b in range(B)])
        g = case.call_ac
        vm = ac.func.vmap(lambda *xs: g(list(xs)), in_dims=tuple(dims))
        if case.info.vmap_raises:
            with pytest.raises(ValueError):
                vm(*leaves)
            return
        res = outputs(vm(*leaves))
        expected = []
        for b in range(B):
            xs_b = [to_ac(per_example[k][b], a.layout) for k, a in enumerate(case.args)]
            expected.append(outputs(g(xs_b)))
        assert len(res) == len(expected[0]), f"{vname}: number of outputs"
        for k, r in enumerate(res):
            exp = np.stack([np.asarray(e[k]) for e in expected])
            close(r, exp, rtol, f"vmap ({vname}), output {k}")


@pytest.mark.parametrize("name,dtype", LOCAL_PARAMS + NONDIFF_PARAMS)
def test_vmap_matches_stacking(name, dtype):
    run_samples(name, dtype, check_vmap)


# --- finite differences (float64) ---------------------------------------------------------

H1, H2 = 1e-6, 1e-5


def _shifted(xs, vs, h):
    return [ac.asarray(np.asarray(x) + h * v) for x, v in zip(xs, vs)]


def _fd_setup(case):
    f, xs = case.f_ac()
    f = _mapped(case, f)
    outs = [o for o in outputs(f(*xs)) if _inexact(o)]
    if not xs:
        pytest.skip("no differentiated input")
    if not outs or any(np.dtype(o.dtype.name) in (np.float32, np.complex64) for o in outs):
        pytest.skip("a single-precision or non-floating output: finite differences too "
                    "coarse (compared with JAX instead)")
    ws = [to_ac(case.random_like(np.asarray(o))) for o in outputs(f(*xs))]
    return f, xs, _loss(case, f, ws, ac)


def check_grad_fd(case: Case):
    """<grad L, v> == (L(x + h v) - L(x - h v)) / 2h for three random directions v."""
    f, xs, L = _fd_setup(case)
    grads = ac.func.grad(L, argnums=tuple(range(len(xs))))(*xs)
    for trial in range(3):
        vs = [case.random_like(np.asarray(x)) for x in xs]
        fd = (float(L(*_shifted(xs, vs, H1))) - float(L(*_shifted(xs, vs, -H1)))) / (2 * H1)
        an = sum(float(np.sum(np.asarray(g) * v)) for g, v in zip(grads, vs))
        scale = 1.0 + sum(float(np.sum(np.abs(np.asarray(g) * v))) for g, v in zip(grads, vs))
        assert abs(fd - an) <= 2e-6 * scale, \
            f"direction {trial}: <grad, v> = {an!r}, finite difference {fd!r}"


def check_hvp_fd(case: Case):
    """jvp of grad == (grad(x + h v) - grad(x - h v)) / 2h."""
    if not case.info.hvp:
        pytest.skip("no second derivative check")
    f, xs, L = _fd_setup(case)
    argnums = tuple(range(len(xs)))
    grad = ac.func.grad(L, argnums=argnums)
    vs = [case.random_like(np.asarray(x)) for x in xs]
    _, hv = ac.func.jvp(grad, tuple(xs), tuple(ac.asarray(v) for v in vs))
    gp, gm = grad(*_shifted(xs, vs, H2)), grad(*_shifted(xs, vs, -H2))
    for k, (h, p, m) in enumerate(zip(hv, gp, gm)):
        fd = (np.asarray(p) - np.asarray(m)) / (2 * H2)
        scale = 1.0 + float(np.max(np.abs(fd))) if fd.size else 1.0
        np.testing.assert_allclose(np.asarray(h), fd, rtol=1e-5, atol=1e-5 * scale,
                                   err_msg=f"Hessian-vector product, input {k}")


@pytest.mark.parametrize("name,dtype", FD_PARAMS)
def test_grad_matches_finite_differences(name, dtype):
    run_samples(name, dtype, check_grad_fd)


@pytest.mark.parametrize("name,dtype", FD_PARAMS)
def test_second_derivative_matches_finite_differences(name, dtype):
    run_samples(name, dtype, check_hvp_fd)


# --- the tape -----------------------------------------------------------------------------

def check_tape(case: Case):
    f, xs = case.f_ac()
    if not xs:
        pytest.skip("no differentiated input")
    out, vjp_fn = ac.func.vjp(f, *xs)
    outs = outputs(out)
    gs = [to_ac(case.random_like(np.asarray(o))) for o in outs]
    expected = vjp_fn(_restructure(out, gs))
    leaves = [x for x in xs]
    for x in leaves:
        x.requires_grad_()
    touts = outputs(f(*leaves))
    keep = [k for k, o in enumerate(touts) if _inexact(o)]
    for k, o in enumerate(touts):
        if k not in keep:
            assert not o.requires_grad, f"integer output {k} requires grad"
            continue
        assert o.requires_grad, f"output {k} of a differentiable op does not require grad"
        assert o.grad_fn is not None, f"output {k} has no grad_fn"
    ac.autograd.backward([touts[k] for k in keep], [gs[k] for k in keep])
    for k, (x, e) in enumerate(zip(leaves, expected)):
        got = x.grad if x.grad is not None else ac.zeros_like(x)
        close(got, e, 1e-12, f"x.grad of input {k} (tape) vs func.vjp")


@pytest.mark.parametrize("name,dtype", LOCAL_PARAMS)
def test_tape_matches_vjp(name, dtype):
    run_samples(name, dtype, check_tape)


# --- gradcheck ----------------------------------------------------------------------------

def _gradcheck_module():
    try:
        from arraycore.autodiff import gradcheck as gc
    except ImportError:
        return None
    return gc if hasattr(gc, "gradcheck") else None


GC = _gradcheck_module()
GC_PARAMS = _params(DIFF, lambda n, d: d == "float64")
GC_PARAMS = [p for p in GC_PARAMS if p.values[1] in ("float64", "complex128")]


def check_gradcheck(case: Case, second=False):
    f, xs = case.f_ac()
    f = _mapped(case, f)
    if not xs:
        pytest.skip("no differentiated input")
    outs = outputs(f(*xs))
    if _low_precision(case, outs):
        pytest.skip("single-precision output")
    for x in xs:
        x.requires_grad_()
    assert GC.gradcheck(f, tuple(xs), check_forward_ad=True, check_batched_grad=True)
    if second and case.info.hvp:
        assert GC.gradgradcheck(f, tuple(xs))


@pytest.mark.skipif(GC is None, reason="arraycore.autodiff.gradcheck not available yet")
@pytest.mark.parametrize("name,dtype", GC_PARAMS)
def test_gradcheck(name, dtype):
    run_samples(name, dtype, check_gradcheck)


@pytest.mark.slow
@pytest.mark.skipif(GC is None, reason="arraycore.autodiff.gradcheck not available yet")
@pytest.mark.parametrize("name,dtype", [p for p in GC_PARAMS])
def test_gradgradcheck(name, dtype):
    run_samples(name, dtype, lambda c: check_gradcheck(c, second=True))


# --- nondiff ops --------------------------------------------------------------------------

def check_nondiff_jvp(case: Case):
    """Under func.jvp the op sees tracers and returns plain arrays; the tangents are zero."""
    floating = [i for i, a in enumerate(case.args)
                if np.dtype(case.values[i].dtype).kind in "fc"]
    if not floating:
        pytest.skip("no floating input to carry a tangent")
    leaves = case.ac_values()
    seen = []

    def f(*xs):
        ls = list(leaves)
        for i, x in zip(floating, xs):
            ls[i] = x
        res = outputs(case.call_ac(ls))
        seen.extend(type(o) for o in res)
        return res

    ts = tuple(to_ac(case.random_like(case.values[i])) for i in floating)
    out, tan = ac.func.jvp(f, tuple(leaves[i] for i in floating), ts)
    assert all(t is Array for t in seen), f"results under jvp: {seen}"
    for k, t in enumerate(tan):
        assert not np.any(np.asarray(t)), f"tangent {k} is not zero"


def check_nondiff_tape(case: Case):
    floating = [i for i, a in enumerate(case.args)
                if np.dtype(case.values[i].dtype).kind in "fc"]
    if not floating:
        pytest.skip("no floating input")
    leaves = case.ac_values()
    for i in floating:
        leaves[i].requires_grad_()
    for k, o in enumerate(outputs(case.call_ac(leaves))):
        assert not o.requires_grad, f"output {k} of a nondiff op requires grad"


@pytest.mark.parametrize("name,dtype", NONDIFF_PARAMS)
def test_nondiff_under_jvp(name, dtype):
    run_samples(name, dtype, check_nondiff_jvp)


@pytest.mark.parametrize("name,dtype", NONDIFF_PARAMS)
def test_nondiff_on_tape(name, dtype):
    run_samples(name, dtype, check_nondiff_tape)
