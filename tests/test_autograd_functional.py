"""`arraycore.autograd.functional`, `gradcheck` / `gradgradcheck` and `detect_anomaly`
against their PyTorch 2.13 counterparts.

The user functions are written once against a "library" (arraycore or torch: the names
used here are common to both), and arraycore's results (values and return structures:
single arrays, tuples, tuples of tuples) are compared with torch's, as are the `strict`
errors.  gradcheck must pass on correct functions (real and complex, backward and forward
mode, second order) and fail, with torch's message, on a Function with a wrong backward.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import arraycore as ac
from arraycore.autodiff.gradcheck import GradcheckError

torch = pytest.importorskip("torch")
TF = torch.autograd.functional
AF = ac.autograd.functional

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

X = np.array([[0.3, 1.2], [-0.7, 0.4]])
Y = np.array([0.5, -0.2])
VX = np.array([[1.0, 2.0], [0.5, -1.0]])
VY = np.array([0.3, 0.7])


def arr(lib, a, requires_grad=False):
    x = lib.asarray(np.array(a))
    if requires_grad:
        x.requires_grad_()
    return x


def to_np(a):
    if isinstance(a, torch.Tensor):
        return a.detach().resolve_conj().numpy()
    return np.asarray(a)


def assert_same(a, b, rtol=1e-12, atol=1e-13, path="result"):
    """a (arraycore) has b's (torch's) structure and values.  torch's forward-mode jacobian
    returns lists where the reverse mode returns tuples; arraycore returns tuples."""
    if isinstance(b, (tuple, list)):
        assert isinstance(a, tuple) and len(a) == len(b), f"{path}: {type(a)} vs {b!r}"
        for i, (u, w) in enumerate(zip(a, b)):
            assert_same(u, w, rtol, atol, f"{path}[{i}]")
        return
    assert isinstance(a, ac.Array), f"{path}: expected an Array, got {type(a).__name__}"
    a, b = to_np(a), to_np(b)
    assert a.shape == b.shape, f"{path}: shape {a.shape} vs torch {b.shape}"
    assert a.dtype == b.dtype, f"{path}: dtype {a.dtype} vs torch {b.dtype}"
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=path)


def both(scenario, **kw):
    res_a = scenario(ac, AF)
    res_t = scenario(torch, TF)
    assert_same(res_a, res_t, **kw)
    return res_a


# --- user functions -----------------------------------------------------------------------

def two_in_two_out(lib):
    return lambda a, b: (lib.sum(lib.exp(a), **_axis(lib, 1)) * b, lib.sin(a) * b)


def _axis(lib, k):
    return {"axis": k} if lib is ac else {"dim": k}


def scalar2(lib):
    return lambda a, b: lib.sum(lib.exp(a) * b) + lib.sum(b ** 3)


def one_in_one_out(lib):
    return lambda a: lib.sin(a) * a


# --- jacobian / hessian -------------------------------------------------------------------

@pytest.mark.parametrize("vectorize", [False, True])
def test_jacobian_structures(vectorize):
    both(lambda lib, M: M.jacobian(two_in_two_out(lib), (arr(lib, X), arr(lib, Y)),
                                   vectorize=vectorize))
    both(lambda lib, M: M.jacobian(one_in_one_out(lib), arr(lib, X), vectorize=vectorize))
    both(lambda lib, M: M.jacobian(lambda a: (lib.sin(a), lib.cos(a) * 2), arr(lib, Y),
                                   vectorize=vectorize))
    both(lambda lib, M: M.jacobian(lambda a, b: lib.sin(a) * b, (arr(lib, Y), arr(lib, Y)),
                                   vectorize=vectorize))


def test_jacobian_forward_mode():
    both(lambda lib, M: M.jacobian(two_in_two_out(lib), (arr(lib, X), arr(lib, Y)),
                                   vectorize=True, strategy="forward-mode"))
    both(lambda lib, M: M.jacobian(one_in_one_out(lib), arr(lib, X), vectorize=True,
                                   strategy="forward-mode"))
    for kw, exc in [({"strategy": "forward-mode"}, NotImplementedError),
                    ({"strategy": "forward-mode", "vectorize": True, "create_graph": True},
                     NotImplementedError),
                    ({"strategy": "forward-mode", "vectorize": True, "strict": True},
                     RuntimeError),
                    ({"strict": True, "vectorize": True}, RuntimeError)]:
        for lib, M in [(ac, AF), (torch, TF)]:
            with pytest.raises(exc):
                M.jacobian(one_in_one_out(lib), arr(lib, X), **kw)


def test_jacobian_independent_output_and_constant():
    # Output 0 ignores input 1: zeros, or torch's error under strict.
    f = {lib: (lambda a, b, lib=lib: lib.sin(a)) for lib in (ac, torch)}
    both(lambda lib, M: M.jacobian(f[lib], (arr(lib, Y), arr(lib, Y))))
    both(lambda lib, M: M.jacobian(f[lib], (arr(lib, Y), arr(lib, Y)), vectorize=True))
    both(lambda lib, M: M.jacobian(lambda a: arr(lib, Y), arr(lib, Y)))


@pytest.mark.parametrize("vectorize", [False, True])
def test_hessian(vectorize):
    both(lambda lib, M: M.hessian(scalar2(lib), (arr(lib, X), arr(lib, Y)),
                                  vectorize=vectorize))
    both(lambda lib, M: M.hessian(lambda a: lib.sum(lib.sin(a) ** 3), arr(lib, X),
                                  vectorize=vectorize))


def test_hessian_forward_over_reverse():
    both(lambda lib, M: M.hessian(scalar2(lib), (arr(lib, X), arr(lib, Y)), vectorize=True,
                                  outer_jacobian_strategy="forward-mode"), rtol=1e-11)


def test_create_graph_results_are_differentiable():
    def scenario(lib, M):
        x = arr(lib, Y, True)
        jac = M.jacobian(lambda a: lib.sin(a) * a, x, create_graph=True)
        h = M.hessian(lambda a: lib.sum(lib.sin(a) ** 3), x, create_graph=True)
        g = lib.autograd.grad(lib.sum(jac) + lib.sum(h), x)[0]
        return (jac, h, g)
    both(scenario, rtol=1e-11)

    def no_graph(lib, M):
        x = arr(lib, Y, True)
        j = M.jacobian(lambda a: lib.sin(a) * a, x)
        o, v = M.vjp(lambda a: lib.sin(a) * a, x, arr(lib, Y))
        return [j.requires_grad, o.requires_grad, v.requires_grad, x.grad is None]
    assert no_graph(ac, AF) == no_graph(torch, TF) == [False, False, False, True]


# --- vjp / jvp / hvp / vhp ----------------------------------------------------------------

def test_products_match_torch():
    ins = lambda lib: (arr(lib, X), arr(lib, Y))  # noqa: E731
    both(lambda lib, M: M.vjp(two_in_two_out(lib), ins(lib), (arr(lib, Y), arr(lib, VX))))
    both(lambda lib, M: M.jvp(two_in_two_out(lib), ins(lib), (arr(lib, VX), arr(lib, VY))))
    both(lambda lib, M: M.hvp(scalar2(lib), ins(lib), (arr(lib, VX), arr(lib, VY))))
    both(lambda lib, M: M.vhp(scalar2(lib), ins(lib), (arr(lib, VX), arr(lib, VY))))
    both(lambda lib, M: M.vjp(lambda a: lib.sum(a ** 2), arr(lib, X)))
    both(lambda lib, M: M.jvp(one_in_one_out(lib), arr(lib, X), arr(lib, VX)))
    both(lambda lib, M: M.hvp(lambda a: lib.sum(lib.exp(a)), arr(lib, Y), arr(lib, VY)))
    both(lambda lib, M: M.vhp(lambda a: lib.sum(lib.exp(a)), arr(lib, Y), arr(lib, VY)))
    both(lambda lib, M: M.vjp(two_in_two_out(lib), ins(lib), (arr(lib, Y), arr(lib, VX)),
                              create_graph=True))
    both(lambda lib, M: M.hvp(scalar2(lib), ins(lib), (arr(lib, VX), arr(lib, VY)),
                              create_graph=True))


def test_complex_vjp_and_jvp():
    z = np.array([0.3 + 0.2j, -1.0 + 0.5j])
    v = np.array([1.0 - 0.5j, 0.2 + 1.0j])
    both(lambda lib, M: M.vjp(lambda a: lib.exp(a) * a, arr(lib, z), arr(lib, v)))
    both(lambda lib, M: M.jvp(lambda a: lib.exp(a) * a, arr(lib, z), arr(lib, v)))
    # torch's jacobian refuses complex outputs (implicit complex grad): arraycore's equals
    # func.jacrev (the same convention: rows are vjps with real unit cotangents).
    j = AF.jacobian(lambda a: ac.exp(a) * a, arr(ac, z))
    ref = ac.func.jacrev(lambda a: ac.exp(a) * a)(arr(ac, z))
    np.testing.assert_allclose(np.asarray(j), np.asarray(ref), rtol=1e-14)


def test_with_a_function():
    class Exp(ac.autograd.Function):
        @staticmethod
        def forward(x):
            return ac.exp(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensors
            return g * y

    x = arr(ac, Y)
    for vec, strategy in [(False, "reverse-mode"), (True, "reverse-mode"),
                          (True, "forward-mode")]:
        j = AF.jacobian(Exp.apply, x, vectorize=vec, strategy=strategy)
        np.testing.assert_allclose(np.asarray(j), np.diag(np.exp(Y)), rtol=1e-14)
    h = AF.hessian(lambda t: ac.sum(Exp.apply(t)), x)
    np.testing.assert_allclose(np.asarray(h), np.diag(np.exp(Y)), rtol=1e-14)
    _, t = AF.jvp(Exp.apply, x, arr(ac, VY))
    np.testing.assert_allclose(np.asarray(t), np.exp(Y) * VY, rtol=1e-14)


# --- errors -------------------------------------------------------------------------------

def _message(lib, M, call):
    try:
        call(lib, M)
    except (RuntimeError, TypeError) as e:
        return type(e).__name__, str(e).replace("Tensor", "Array")
    return "ok", None


@pytest.mark.parametrize("call", [
    lambda lib, M: M.jacobian(lambda a, b: lib.sin(a), (arr(lib, Y), arr(lib, Y)),
                              strict=True),
    lambda lib, M: M.vjp(lambda a, b: lib.sin(a), (arr(lib, Y), arr(lib, Y)),
                         arr(lib, Y), strict=True),
    lambda lib, M: M.jvp(lambda a, b: lib.sin(a), (arr(lib, Y), arr(lib, Y)),
                         (arr(lib, Y), arr(lib, Y)), strict=True),
    lambda lib, M: M.jacobian(lambda a: arr(lib, Y), arr(lib, Y), strict=True),
    lambda lib, M: M.hessian(lambda a: lib.sum(a * 2), arr(lib, Y), strict=True),
    lambda lib, M: M.hvp(lambda a: lib.sum(a * 2), arr(lib, Y), arr(lib, Y), strict=True),
    lambda lib, M: M.vhp(lambda a: lib.sum(a * 2), arr(lib, Y), arr(lib, Y), strict=True),
    lambda lib, M: M.jacobian(lambda a: a * 2, arr(lib, Y), create_graph=True, strict=True),
    lambda lib, M: M.vjp(lambda a: lib.sin(a), arr(lib, Y)),
    lambda lib, M: M.jvp(lambda a: lib.sin(a), arr(lib, Y)),
    lambda lib, M: M.vjp(lambda a: lib.sin(a), arr(lib, Y), arr(lib, X)),
    lambda lib, M: M.jvp(lambda a, b: a * b, (arr(lib, Y), arr(lib, Y)), (arr(lib, Y),)),
    lambda lib, M: M.hessian(lambda a: lib.sin(a), arr(lib, Y)),
    lambda lib, M: M.hvp(lambda a: (lib.sum(a), lib.sum(a)), arr(lib, Y), arr(lib, Y)),
    lambda lib, M: M.vjp(lambda a: a, [arr(lib, Y)]),
    lambda lib, M: M.vjp(lambda a: a, (arr(lib, Y), 3.0)),
], ids=["strict-jacobian", "strict-vjp", "strict-jvp", "strict-constant", "strict-hessian",
        "strict-hvp", "strict-vhp", "strict-create-graph", "vjp-v-None", "jvp-v-None",
        "vjp-v-shape", "jvp-v-length", "hessian-vector-output", "hvp-tuple-output",
        "list-inputs", "non-array-input"])
def test_errors_match_torch(call):
    kind_a, msg_a = _message(ac, AF, call)
    kind_t, msg_t = _message(torch, TF, call)
    assert kind_t != "ok"
    assert kind_a == kind_t, (msg_a, msg_t)
    if kind_a == "RuntimeError":
        if "invalid size" in msg_t:  # torch prints torch.Size([2, 2]), arraycore (2, 2)
            assert msg_a.startswith(msg_t.split(":")[0])
        else:
            assert msg_a == msg_t


# --- gradcheck ----------------------------------------------------------------------------

class _Sin(ac.autograd.Function):
    @staticmethod
    def forward(x):
        return ac.sin(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ac.cos(x)


class _CExp(ac.autograd.Function):
    @staticmethod
    def forward(x):
        return ac.exp(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * ac.conj(y)


def _make_wrong(lib):
    class WrongSin(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return lib.sin(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * lib.cos(x) * 1.01
    return WrongSin


def _make_wrong_complex(lib):
    class NoConjExp(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return lib.exp(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensors
            return g * y  # PyTorch's convention needs conj(y)
    return NoConjExp


def test_gradcheck_passes_on_correct_functions():
    gc, ggc = ac.autograd.gradcheck, ac.autograd.gradgradcheck
    x, y = arr(ac, Y, True), arr(ac, VY, True)
    z = arr(ac, np.array([0.3 + 0.1j, -0.5 + 0.8j]), True)
    assert gc(lambda t: ac.sin(t) * t, (x,))
    assert gc(lambda a, b: (ac.sin(a) * b, ac.sum(a * b)), (x, y), check_forward_ad=True,
              check_batched_grad=True, check_batched_forward_grad=True)
    assert gc(lambda a, k: a * k, (x, 3.0))  # non-array inputs are passed through
    assert gc(_Sin.apply, (x,), check_forward_ad=True)
    assert gc(lambda t: ac.exp(t) * t, (z,), check_forward_ad=True)
    assert gc(lambda t: ac.abs(t) * ac.real(t), (z,), check_forward_ad=True)
    assert gc(_CExp.apply, (z,), check_forward_ad=True, check_batched_grad=True)
    assert ggc(lambda a, b: ac.sin(a) * b, (x, y))
    assert ggc(_Sin.apply, (x,), check_fwd_over_rev=True)
    assert ggc(lambda t: ac.exp(t) * t, (z,))
    assert ggc(_CExp.apply, (z,), check_fwd_over_rev=True)


def test_gradcheck_fails_like_torch_on_wrong_backward():
    for make, data in [(_make_wrong, Y), (_make_wrong_complex, np.array([0.3 + 0.1j,
                                                                          -0.5 + 0.8j]))]:
        msgs = {}
        for lib in (ac, torch):
            gc = lib.autograd.gradcheck
            F = make(lib)
            with pytest.raises(RuntimeError) as info:
                gc(F.apply, (arr(lib, data, True),))
            msgs[lib.__name__] = str(info.value)
            assert gc(F.apply, (arr(lib, data, True),), raise_exception=False) is False
        head_a = msgs["arraycore"].split("numerical:")[0]
        head_t = msgs["torch"].split("numerical:")[0]
        assert head_a == head_t
        assert "analytical:" in msgs["arraycore"]
    F = _make_wrong(ac)
    with pytest.raises(GradcheckError, match="computed with forward mode mismatch"):
        ac.autograd.gradcheck(F.apply, (arr(ac, Y, True),), check_forward_ad=True,
                              check_backward_ad=False)


def test_gradcheck_error_shows_both_jacobians():
    F = _make_wrong(ac)
    with pytest.raises(GradcheckError) as info:
        ac.autograd.gradcheck(F.apply, (arr(ac, Y, True),))
    msg = str(info.value)
    num = msg.split("numerical:")[1].split("analytical:")[0]
    ana = msg.split("analytical:")[1]
    assert f"{np.cos(Y[0]):.6f}"[:6] in num and f"{1.01 * np.cos(Y[0]):.6f}"[:6] in ana
    assert isinstance(info.value, RuntimeError)


def test_gradgradcheck_fails_on_wrong_second_derivative():
    def make(lib):
        class DetachedSave(lib.autograd.Function):
            """Correct first derivative; the backward's dependence on x is cut, so the
            second derivative is wrong."""
            @staticmethod
            def forward(x):
                return lib.sin(x)

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(inputs[0].detach())

            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return g * lib.cos(x)
        return DetachedSave
    for lib in (ac, torch):
        F = make(lib)
        assert lib.autograd.gradcheck(F.apply, (arr(lib, Y, True),))
        assert lib.autograd.gradgradcheck(F.apply, (arr(lib, Y, True),),
                                          raise_exception=False) is False


def test_gradcheck_argument_errors():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        ac.autograd.gradcheck(ac.sin, (arr(ac, Y),))
    with pytest.warns(UserWarning, match="not a double precision"):
        ac.autograd.gradcheck(lambda t: t * 2, (ac.asarray([1.0, 2.0], dtype=ac.float32)
                                                .requires_grad_(),), eps=1e-2, atol=1e-2, rtol=1e-2)


def test_gradcheck_no_differentiable_outputs():
    x = arr(ac, Y, True)
    assert ac.autograd.gradcheck(lambda t: ac.floor(t.detach()), (x,))
    with pytest.raises(GradcheckError, match="expected to be zero"):
        ac.autograd.gradcheck(lambda t: t.detach() * 2, (x,))


# --- anomaly detection --------------------------------------------------------------------

class _NanFn(ac.autograd.Function):
    @staticmethod
    def forward(x):
        return ac.sqrt(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g / (2 * y)


def _nan_backward_op():
    x = arr(ac, np.array([0.0, 1.0]), True)
    y = ac.sqrt(x) * 0.0  # backward: 0 * inf = nan  (the line anomaly mode reports)
    ac.sum(y).backward()
    return x


def _nan_backward_function():
    x = arr(ac, np.array([0.0, 1.0]), True)
    y = _NanFn.apply(x) * 0.0  # the line anomaly mode reports
    ac.sum(y).backward()
    return x


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_detect_anomaly_names_the_op_and_the_forward_line():
    x = _nan_backward_op()  # off: NaN gradients, no error (as torch)
    assert np.isnan(np.asarray(x.grad)[0])
    with ac.autograd.detect_anomaly():
        with pytest.raises(RuntimeError) as info:
            _nan_backward_op()
    msg = str(info.value)
    assert "SqrtBackward" in msg and "nan" in msg and "'sqrt'" in msg
    assert "y = ac.sqrt(x) * 0.0" in msg and "test_autograd_functional.py" in msg
    with ac.autograd.set_detect_anomaly(True):
        with pytest.raises(RuntimeError) as info:
            _nan_backward_function()
    msg = str(info.value)
    assert "_NanFnBackward" in msg and "'_NanFn'" in msg
    assert "y = _NanFn.apply(x) * 0.0" in msg
    assert not ac.autograd.detect_anomaly.__module__.endswith("state")
    from arraycore.autodiff.state import STATE
    assert STATE.anomaly is False


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_detect_anomaly_decorator_and_torch_parity():
    @ac.autograd.detect_anomaly()
    def run():
        return _nan_backward_op()

    with pytest.raises(RuntimeError, match="SqrtBackward"):
        run()

    def torch_run():
        x = arr(torch, np.array([0.0, 1.0]), True)
        (torch.sqrt(x) * 0.0).sum().backward()

    with torch.autograd.detect_anomaly(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="returned nan values"):
            torch_run()


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
def test_detect_anomaly_check_nan_false():
    with ac.autograd.detect_anomaly(check_nan=False):
        x = _nan_backward_op()
    assert np.isnan(np.asarray(x.grad)[0])
