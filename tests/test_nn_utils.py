"""ac.nn.utils against torch.nn.utils with identical weights: parametrize (register, cache,
assign, remove), weight_norm / spectral_norm / orthogonal values and gradients,
clip_grad_norm_ / clip_grad_value_, parameters_to_vector / vector_to_parameters."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import arraycore as ac
from arraycore import nn
from arraycore.nn.utils import parametrize

P = nn.utils.parametrizations
TP = torch.nn.utils.parametrizations
RNG = np.random.default_rng(0)


class AHolder(nn.Module):
    def __init__(self, w):
        super().__init__()
        self.weight = nn.Parameter(ac.asarray(np.array(w)))

    def forward(self, x):
        return x @ ac.reshape(self.weight, (self.weight.shape[0], -1)).mT


class THolder(torch.nn.Module):
    def __init__(self, w):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.from_numpy(np.array(w)))

    def forward(self, x):
        return x @ self.weight.reshape(self.weight.shape[0], -1).mT


def load_from_torch(a, t):
    a.load_state_dict({k: ac.asarray(v.detach().numpy()) for k, v in t.state_dict().items()})


def run_both(a, t, shape, steps=1):
    """Forward + backward `steps` times on the same inputs; returns max value and grad
    differences."""
    errs = []
    for _ in range(steps):
        x = RNG.standard_normal((3, int(np.prod(shape[1:])) if len(shape) > 1 else 1))
        ya, yt = a(ac.asarray(x)), t(torch.from_numpy(x))
        ac.sum(ya * ya).backward()
        (yt * yt).sum().backward()
        errs.append(np.abs(np.asarray(ya) - yt.detach().numpy()).max())
        for (na, pa), (nt, pt) in zip(a.named_parameters(), t.named_parameters()):
            assert na == nt
            errs.append(np.abs(np.asarray(pa.grad) - pt.grad.numpy()).max())
    return max(errs)


# --- parametrize -------------------------------------------------------------------------------

class ASym(nn.Module):
    def forward(self, X):
        return (X + X.mT) * 0.5


class TSym(torch.nn.Module):
    def forward(self, X):
        return (X + X.mT) * 0.5


class AScale(nn.Module):
    def forward(self, X):
        return X * 2.0

    def right_inverse(self, Y):
        return Y / 2.0


class TScale(torch.nn.Module):
    def forward(self, X):
        return X * 2.0

    def right_inverse(self, Y):
        return Y / 2.0


def test_register_parametrization_like_torch():
    w = RNG.standard_normal((4, 4))
    a, t = AHolder(w), THolder(w)
    orig_param = a.weight
    parametrize.register_parametrization(a, "weight", ASym())
    torch.nn.utils.parametrize.register_parametrization(t, "weight", TSym())
    parametrize.register_parametrization(a, "weight", AScale())
    torch.nn.utils.parametrize.register_parametrization(t, "weight", TScale())
    assert type(a).__name__ == "ParametrizedAHolder" and isinstance(a, AHolder)
    assert parametrize.is_parametrized(a) and parametrize.is_parametrized(a, "weight")
    assert not parametrize.is_parametrized(a, "bias")
    assert parametrize.type_before_parametrizations(a) is AHolder
    assert [n for n, _ in a.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert list(a.state_dict()) == list(t.state_dict())
    # the original parameter object is kept (optimizers holding it still work)
    assert a.parametrizations.weight.original is orig_param
    assert repr(a).replace("AHolder", "X").replace("ASym", "S").replace("AScale", "C") == \
        repr(t).replace("THolder", "X").replace("TSym", "S").replace("TScale", "C")
    np.testing.assert_allclose(np.asarray(a.weight), t.weight.detach().numpy(), rtol=1e-15)
    assert run_both(a, t, (4, 4)) < 1e-13
    # assignment goes through right_inverse into the original
    new = RNG.standard_normal((4, 4))
    new = new + new.T
    with pytest.raises(RuntimeError, match="right_inverse"):
        a.weight = ac.asarray(new)  # ASym has no right_inverse
    # other instances of the class are untouched
    assert type(AHolder(w)) is AHolder


def test_assign_through_right_inverse_and_remove():
    w = RNG.standard_normal((3, 2))
    a, t = AHolder(w), THolder(w)
    parametrize.register_parametrization(a, "weight", AScale())
    torch.nn.utils.parametrize.register_parametrization(t, "weight", TScale())
    v = RNG.standard_normal((3, 2))
    a.weight = ac.asarray(v)
    t.weight = torch.from_numpy(v)
    np.testing.assert_allclose(np.asarray(a.parametrizations.weight.original),
                               t.parametrizations.weight.original.detach().numpy())
    np.testing.assert_allclose(np.asarray(a.weight), v)
    orig = a.parametrizations.weight.original
    parametrize.remove_parametrizations(a, "weight")
    torch.nn.utils.parametrize.remove_parametrizations(t, "weight")
    assert type(a) is AHolder and not parametrize.is_parametrized(a)
    assert a.weight is orig and isinstance(a.weight, nn.Parameter)
    np.testing.assert_allclose(np.asarray(a.weight), t.weight.detach().numpy())
    assert list(a.state_dict()) == list(t.state_dict()) == ["weight"]
    # leave_parametrized=False restores the original's value
    parametrize.register_parametrization(a, "weight", AScale())
    parametrize.remove_parametrizations(a, "weight", leave_parametrized=False)
    np.testing.assert_allclose(np.asarray(a.weight), v / 2)
    with pytest.raises(ValueError, match="does not have a parametrization"):
        parametrize.remove_parametrizations(a, "weight")
    with pytest.raises(ValueError, match="does not have a parameter"):
        parametrize.register_parametrization(a, "nothing", AScale())


def test_parametrization_checks():
    class Shrink(nn.Module):
        def forward(self, X):
            return X[:1]

    class ToF32(nn.Module):
        def forward(self, X):
            return X.astype(ac.float32)

    a = AHolder(np.ones((3, 3)))
    with pytest.raises(ValueError, match="may not change the shape"):
        parametrize.register_parametrization(a, "weight", Shrink())
    with pytest.raises(ValueError, match="may not change the dtype"):
        parametrize.register_parametrization(a, "weight", ToF32())
    assert type(a) is AHolder and isinstance(a.weight, nn.Parameter)  # nothing registered
    parametrize.register_parametrization(a, "weight", Shrink(), unsafe=True)
    assert a.weight.shape == (1, 3)


def test_cached():
    calls = []

    class Counting(nn.Module):
        def forward(self, X):
            calls.append(1)
            return X * 1.0

    a = AHolder(np.ones((2, 2)))
    parametrize.register_parametrization(a, "weight", Counting())
    calls.clear()
    a.weight, a.weight
    assert len(calls) == 2
    with parametrize.cached():
        w1, w2 = a.weight, a.weight
        assert w1 is w2
    assert len(calls) == 3
    a.weight
    assert len(calls) == 4


def test_parametrized_buffer():
    class B(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("scale", ac.ones(3))

    b = B()
    parametrize.register_parametrization(b, "scale", AScale())
    assert list(b.state_dict()) == ["parametrizations.scale.original"]
    assert not list(b.parameters())
    np.testing.assert_allclose(np.asarray(b.scale), np.ones(3))  # right_inverse kept it
    np.testing.assert_allclose(np.asarray(b.parametrizations.scale.original), 0.5 * np.ones(3))


# --- ready-made parametrizations --------------------------------------------------------------

@pytest.mark.parametrize("shape,dim", [((5, 3), 0), ((3, 5), 1), ((4, 2, 3), None),
                                       ((4, 2, 3), 2), ((4, 2, 3), -1)])
def test_weight_norm_matches_torch(shape, dim):
    w = RNG.standard_normal(shape)
    a, t = AHolder(w), THolder(w)
    P.weight_norm(a, dim=dim)
    TP.weight_norm(t, dim=dim)
    assert list(a.state_dict()) == list(t.state_dict())
    for k, v in t.state_dict().items():
        np.testing.assert_allclose(np.asarray(a.state_dict()[k]), v.numpy(), rtol=1e-14)
    assert run_both(a, t, shape) < 1e-12


@pytest.mark.parametrize("shape,dim", [((5, 3), 0), ((3, 5), 1), ((4, 2, 3), 0),
                                       ((4, 2, 3), 1), ((6,), 0)])
def test_spectral_norm_matches_torch(shape, dim):
    w = RNG.standard_normal(shape)
    a, t = AHolder(w), THolder(w)
    TP.spectral_norm(t, dim=dim)
    P.spectral_norm(a, dim=dim, generator=np.random.default_rng(1))
    assert list(a.state_dict()) == list(t.state_dict())
    load_from_torch(a, t)  # the same random start vectors u, v
    if len(shape) == 1:
        np.testing.assert_allclose(np.asarray(a.weight), t.weight.detach().numpy())
        return
    assert run_both(a, t, shape, steps=3) < 1e-12  # training mode: u, v advance each access
    for k, v in t.state_dict().items():
        np.testing.assert_allclose(np.asarray(a.state_dict()[k]), v.numpy(), atol=1e-13)
    a.eval()
    t.eval()
    assert run_both(a, t, shape) < 1e-12


def test_spectral_norm_normalises():
    w = RNG.standard_normal((6, 4))
    a = P.spectral_norm(AHolder(w), n_power_iterations=5, generator=np.random.default_rng(2))
    for _ in range(5):
        a.weight
    np.testing.assert_allclose(np.linalg.norm(np.asarray(a.weight), 2), 1.0, rtol=1e-8)
    with pytest.raises(ValueError, match="n_power_iterations"):
        P.spectral_norm(AHolder(w), n_power_iterations=0)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 3, 4)])
@pytest.mark.parametrize("omap", ["matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("triv", [True, False])
def test_orthogonal_matches_torch(shape, omap, triv):
    w = RNG.standard_normal(shape)
    a, t = AHolder(w), THolder(w)
    TP.orthogonal(t, orthogonal_map=omap, use_trivialization=triv)
    square = shape[-1] == shape[-2]
    if triv and not square:
        # the base is completed with random columns: take torch's
        torch_sd = {k: ac.asarray(v.numpy()) for k, v in t.state_dict().items()}
        with _global_generator_stub():
            P.orthogonal(a, orthogonal_map=omap, use_trivialization=triv)
        a.load_state_dict(torch_sd)
    else:
        P.orthogonal(a, orthogonal_map=omap, use_trivialization=triv)
    assert list(a.state_dict()) == list(t.state_dict())
    Q = np.asarray(a.weight)
    M = Q if shape[-2] >= shape[-1] else np.swapaxes(Q, -1, -2)
    np.testing.assert_allclose(np.swapaxes(M, -1, -2) @ M, np.broadcast_to(
        np.eye(M.shape[-1]), M.shape[:-2] + (M.shape[-1],) * 2), atol=1e-12)
    np.testing.assert_allclose(Q, t.weight.detach().numpy(), atol=1e-12)
    assert run_both(a, t, shape) < 1e-11


class _global_generator_stub:
    """Until ac.random lands, the base completion draws from NumPy's generator."""

    def __enter__(self):
        from arraycore.nn import init
        self._orig = init._generator
        if not _has_ac_random():
            init._generator = lambda g: np.random.default_rng(0) if g is None else g

    def __exit__(self, *exc):
        from arraycore.nn import init
        init._generator = self._orig


def _has_ac_random():
    try:
        import arraycore.random  # noqa: F401
        return True
    except ImportError:
        return False


def test_orthogonal_assignment_and_errors():
    a = P.orthogonal(AHolder(RNG.standard_normal((4, 4))))
    Q = np.linalg.qr(RNG.standard_normal((4, 4)))[0]
    a.weight = ac.asarray(Q)
    np.testing.assert_allclose(np.asarray(a.weight), Q, atol=1e-12)
    b = P.orthogonal(AHolder(RNG.standard_normal((4, 4))), use_trivialization=False)
    with pytest.raises(ValueError, match="not possible to assign"):
        b.weight = ac.asarray(Q)
    with pytest.raises(ValueError, match="matrix or batch"):
        P.orthogonal(AHolder(np.ones(3)))
    with pytest.raises(ValueError, match="orthogonal_map"):
        P.orthogonal(AHolder(np.ones((3, 3))), orthogonal_map="qr")


def test_parametrized_module_under_transforms():
    # the parametrized weight is recomputed from the originals, so grad of a loss through
    # a weight-normed module w.r.t. an input works under ac.func
    a = P.weight_norm(AHolder(RNG.standard_normal((3, 4))))
    x = ac.asarray(RNG.standard_normal((5, 4)))
    g = ac.func.vmap(ac.func.grad(lambda xi: ac.sum(a(xi) ** 2)))(x)
    W = np.asarray(a.weight)
    np.testing.assert_allclose(np.asarray(g), 2 * (np.asarray(x) @ W.T) @ W, rtol=1e-12)


# --- clipping, vectors -------------------------------------------------------------------------

def _grads_pair(scale=1.0, dtype=np.float32):
    shapes = [(3, 4), (5,), (2, 2, 2)]
    ws = [RNG.standard_normal(s).astype(dtype) for s in shapes]
    gs = [scale * RNG.standard_normal(s).astype(dtype) for s in shapes]
    ap = [nn.Parameter(ac.asarray(w)) for w in ws]
    tp = [torch.nn.Parameter(torch.from_numpy(w)) for w in ws]
    for p, g in zip(ap, gs):
        p.grad = ac.asarray(g)
    for p, g in zip(tp, gs):
        p.grad = torch.from_numpy(g.copy())
    return ap, tp


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3, float("inf"), "inf"])
@pytest.mark.parametrize("max_norm", [0.5, 1e3])
def test_clip_grad_norm_matches_torch(norm_type, max_norm):
    ap, tp = _grads_pair()
    na = nn.utils.clip_grad_norm_(ap, max_norm, norm_type=norm_type)
    nt = torch.nn.utils.clip_grad_norm_(tp, max_norm, norm_type=norm_type)
    np.testing.assert_allclose(float(na), float(nt), rtol=1e-6)
    for p, q in zip(ap, tp):
        np.testing.assert_allclose(np.asarray(p.grad), q.grad.numpy(), rtol=1e-6, atol=1e-7)
        assert p.grad.dtype == ac.float32


def test_clip_grad_norm_edge_cases():
    ap, tp = _grads_pair()
    ap[1].grad = None
    tp[1].grad = None
    np.testing.assert_allclose(float(nn.utils.clip_grad_norm_(ap, 1.0)),
                               float(torch.nn.utils.clip_grad_norm_(tp, 1.0)), rtol=1e-6)
    single = nn.Parameter(ac.ones(4, dtype=ac.float32))
    single.grad = ac.full(4, 2.0, dtype=ac.float32)
    assert float(nn.utils.clip_grad_norm_(single, 1.0)) == 4.0  # one array, not a list
    assert float(nn.utils.clip_grad_norm_([nn.Parameter(ac.ones(2, dtype=ac.float32))], 1.0)) == 0
    bad = nn.Parameter(ac.ones(2, dtype=ac.float32))
    bad.grad = ac.asarray([1.0, float("nan")], dtype=ac.float32)
    with pytest.raises(RuntimeError, match="non-finite"):
        nn.utils.clip_grad_norm_([bad], 1.0, error_if_nonfinite=True)
    assert math.isnan(float(nn.utils.clip_grad_norm_([bad], 1.0)))
    ap, tp = _grads_pair()
    nn.utils.clip_grad_norm_(ap, 1.0, foreach=True)
    torch.nn.utils.clip_grad_norm_(tp, 1.0, foreach=True)
    np.testing.assert_allclose(np.asarray(ap[0].grad), tp[0].grad.numpy(), rtol=1e-6)


def test_clip_grad_value_and_total_norm():
    ap, tp = _grads_pair(scale=3.0)
    g0 = ap[0].grad
    nn.utils.clip_grad_value_(ap, 1.25)
    torch.nn.utils.clip_grad_value_(tp, 1.25)
    assert ap[0].grad is g0  # in place
    for p, q in zip(ap, tp):
        np.testing.assert_array_equal(np.asarray(p.grad), q.grad.numpy())
    grads = [p.grad for p in ap]
    np.testing.assert_allclose(float(nn.utils.get_total_norm(grads, 3.0)),
                               float(torch.nn.utils.get_total_norm([q.grad for q in tp], 3.0)),
                               rtol=1e-6)


def test_parameters_to_vector_and_back():
    ap, tp = _grads_pair()
    va = nn.utils.parameters_to_vector(ap)
    vt = torch.nn.utils.parameters_to_vector(tp)
    np.testing.assert_array_equal(np.asarray(va), vt.detach().numpy())
    for p in ap:
        p.grad = None
    ac.sum(va * va).backward()  # differentiable
    np.testing.assert_allclose(np.asarray(ap[0].grad), 2 * np.asarray(ap[0]), rtol=1e-6)
    new = RNG.standard_normal(va.shape[0]).astype(np.float32)
    ptrs = [p._buffer_ptr for p in ap]
    nn.utils.vector_to_parameters(ac.asarray(new), ap)
    torch.nn.utils.vector_to_parameters(torch.from_numpy(new), tp)
    for p, q, ptr in zip(ap, tp, ptrs):
        np.testing.assert_array_equal(np.asarray(p), q.detach().numpy())
        assert p._buffer_ptr == ptr and p.is_leaf and p.requires_grad
    with pytest.raises(ValueError, match="elements"):
        nn.utils.vector_to_parameters(ac.zeros(3, dtype=ac.float32), ap)
    with pytest.raises(TypeError, match="expected an array"):
        nn.utils.vector_to_parameters([1.0], ap)
