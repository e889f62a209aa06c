"""ac.func.functional_call / stack_module_state and ac.nn.utils.per_sample_grads against
torch.func (functional_call, stack_module_state, vmap(grad)) with identical weights."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import torch
import torch.func as tf

import arraycore as ac
from arraycore import nn

F32 = ac.float32
RNG = np.random.default_rng(0)


class ALin(nn.Module):
    def __init__(self, i, o, seed):
        super().__init__()
        r = np.random.default_rng(seed)
        self.weight = nn.Parameter(ac.asarray(r.standard_normal((o, i)).astype(np.float32) / i))
        self.bias = nn.Parameter(ac.asarray(r.standard_normal(o).astype(np.float32)))

    def forward(self, x):
        return x @ self.weight.mT + self.bias


class TLin(torch.nn.Module):
    def __init__(self, i, o, seed):
        super().__init__()
        r = np.random.default_rng(seed)
        self.weight = torch.nn.Parameter(torch.from_numpy(
            r.standard_normal((o, i)).astype(np.float32) / i))
        self.bias = torch.nn.Parameter(torch.from_numpy(r.standard_normal(o).astype(np.float32)))

    def forward(self, x):
        return x @ self.weight.mT + self.bias


class AMLP(nn.Module):
    def __init__(self, seed=0):
        super().__init__()
        self.fc1 = ALin(5, 8, seed)
        self.fc2 = ALin(8, 3, seed + 1)
        self.register_buffer("shift", ac.full(3, 0.5, dtype=F32))

    def forward(self, x):
        return self.fc2(ac.tanh(self.fc1(x))) + self.shift


class TMLP(torch.nn.Module):
    def __init__(self, seed=0):
        super().__init__()
        self.fc1 = TLin(5, 8, seed)
        self.fc2 = TLin(8, 3, seed + 1)
        self.register_buffer("shift", torch.full((3,), 0.5))

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x))) + self.shift


def a_xent(logits, y):
    """Mean cross entropy from logits and integer labels (test-local, ac ops only)."""
    lse = ac.special.logsumexp(logits, axis=-1)
    picked = ac.take_along_axis(logits, y[:, None], axis=-1)[:, 0]
    return ac.mean(lse - picked)


def t_xent(logits, y):
    return torch.nn.functional.cross_entropy(logits, y)


def close(a, t, rtol=2e-5, atol=2e-6):
    np.testing.assert_allclose(np.asarray(a), t.detach().numpy(), rtol=rtol, atol=atol)


def data(n=6):
    x = RNG.standard_normal((n, 5)).astype(np.float32)
    y = RNG.integers(0, 3, n)
    return x, y


# --- functional_call ------------------------------------------------------------------------

def test_functional_call_values_and_grads_match_torch():
    am, tm = AMLP(), TMLP()
    x, y = data()
    newp = {k: RNG.standard_normal(tuple(v.shape)).astype(np.float32) * 0.3
            for k, v in tm.named_parameters()}
    ya = ac.func.functional_call(am, {k: ac.asarray(v) for k, v in newp.items()},
                                 (ac.asarray(x),))
    yt = tf.functional_call(tm, {k: torch.from_numpy(v) for k, v in newp.items()},
                            (torch.from_numpy(x),))
    close(ya, yt)
    # the module's own parameters are back, and untouched
    close(am(ac.asarray(x)), tm(torch.from_numpy(x)))
    assert all(isinstance(p, nn.Parameter) for p in am.parameters())

    def a_loss(p):
        return a_xent(ac.func.functional_call(am, p, ac.asarray(x)), ac.asarray(y))

    def t_loss(p):
        return t_xent(tf.functional_call(tm, p, torch.from_numpy(x)), torch.from_numpy(y))

    ga = ac.func.grad(a_loss)({k: v.detach() for k, v in am.named_parameters()})
    gt = tf.grad(t_loss)({k: v.detach() for k, v in tm.named_parameters()})
    assert sorted(ga) == sorted(gt)  # (ac.func's pytrees order dict keys, as JAX's do)
    for k in gt:
        close(ga[k], gt[k])


def test_functional_call_on_tape_and_with_buffers():
    am, tm = AMLP(), TMLP()
    x, _ = data()
    pa = {k: ac.asarray(np.asarray(v)) for k, v in am.named_parameters()}
    for v in pa.values():
        v.requires_grad_()
    buf = {"shift": ac.full(3, -1.0, dtype=F32)}
    out = ac.func.functional_call(am, (pa, buf), (ac.asarray(x),))
    pt = {k: v.detach().clone().requires_grad_() for k, v in tm.named_parameters()}
    outt = tf.functional_call(tm, (pt, {"shift": torch.full((3,), -1.0)}), (torch.from_numpy(x),))
    close(out, outt)
    ac.sum(out ** 2).backward()
    (outt ** 2).sum().backward()
    for k in pt:
        close(pa[k].grad, pt[k].grad)
    assert am.fc1.weight.grad is None  # the module's own parameters were not used
    with pytest.raises(ValueError, match="multiple dictionaries"):
        ac.func.functional_call(am, (pa, {"fc1.weight": pa["fc1.weight"]}), (ac.asarray(x),))


def test_functional_call_restores_on_exception_and_strict():
    am = AMLP()
    before = {k: v for k, v in am.named_parameters()}

    class Boom(Exception):
        pass

    def hook(m, args, out):
        raise Boom

    h = am.register_forward_hook(hook)
    with pytest.raises(Boom):
        ac.func.functional_call(am, {"fc1.weight": ac.zeros((8, 5), dtype=F32),
                                     "extra_attr": ac.ones(1)}, (ac.ones((1, 5), dtype=F32),))
    h.remove()
    assert all(before[k] is v for k, v in am.named_parameters())
    assert "extra_attr" not in am.__dict__
    with pytest.raises(RuntimeError, match="Missing key.*fc2.bias"):
        ac.func.functional_call(am, {k: v for k, v in before.items() if k != "fc2.bias"},
                                (ac.ones((1, 5), dtype=F32),), strict=True)
    with pytest.raises(RuntimeError, match="Unexpected key.*bogus"):
        ac.func.functional_call(am, {**before, "shift": am.shift, "bogus": ac.ones(1)},
                                (ac.ones((1, 5), dtype=F32),), strict=True)
    assert all(before[k] is v for k, v in am.named_parameters())
    with pytest.raises(TypeError, match="Module"):
        ac.func.functional_call(lambda x: x, {}, (1,))


def test_functional_call_tied_weights():
    for lib in ("ac", "torch"):
        Lin = ALin if lib == "ac" else TLin
        Seq = nn.Sequential if lib == "ac" else torch.nn.Sequential
        m = Seq(Lin(3, 3, 0), Lin(3, 3, 1))
        m[1].weight = m[0].weight
        w = np.eye(3, dtype=np.float32) * 2
        x = np.ones((1, 3), dtype=np.float32)
        if lib == "ac":
            ya = ac.func.functional_call(m, {"0.weight": ac.asarray(w)}, (ac.asarray(x),))
            yu = ac.func.functional_call(m, {"0.weight": ac.asarray(w)}, (ac.asarray(x),),
                                         tie_weights=False)
            with pytest.raises(ValueError, match="tied"):
                ac.func.functional_call(m, {"0.weight": ac.asarray(w),
                                            "1.weight": ac.asarray(w)}, (ac.asarray(x),))
        else:
            close(ya, tf.functional_call(m, {"0.weight": torch.from_numpy(w)},
                                         (torch.from_numpy(x),)))
            close(yu, tf.functional_call(m, {"0.weight": torch.from_numpy(w)},
                                         (torch.from_numpy(x),), tie_weights=False))


def test_functional_call_kwargs_and_jvp():
    class Scaled(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(ac.ones(3, dtype=ac.float64))

        def forward(self, x, *, scale=1.0):
            return ac.sin(x * self.w) * scale

    m = Scaled()
    x = ac.asarray(RNG.standard_normal(3))
    w = ac.asarray(RNG.standard_normal(3))
    t = ac.asarray(RNG.standard_normal(3))
    _, jv = ac.func.jvp(lambda w_: ac.func.functional_call(m, {"w": w_}, (x,), {"scale": 2.0}),
                        (w,), (t,))
    np.testing.assert_allclose(np.asarray(jv), 2 * np.cos(np.asarray(x * w)) * np.asarray(x * t),
                               rtol=1e-13)


# --- stack_module_state / ensembles --------------------------------------------------------

def test_stack_module_state_and_ensemble_match_torch():
    ams = [AMLP(seed=s) for s in range(4)]
    tms = [TMLP(seed=s) for s in range(4)]
    pa, ba = ac.func.stack_module_state(ams)
    pt, bt = tf.stack_module_state(tms)
    assert list(pa) == list(pt) and list(ba) == list(bt)
    for k in pt:
        close(pa[k], pt[k])
        assert pa[k].requires_grad and pa[k].is_leaf
    x, y = data(7)
    base_a = copy.deepcopy(ams[0])
    base_t = copy.deepcopy(tms[0]).to("meta")

    def fa(p, b, xx):
        return ac.func.functional_call(base_a, (p, b), (xx,))

    def ft(p, b, xx):
        return tf.functional_call(base_t, (p, b), (xx,))

    ya = ac.func.vmap(fa, in_dims=(0, 0, None))(pa, ba, ac.asarray(x))
    yt = torch.vmap(ft, in_dims=(0, 0, None))(pt, bt, torch.from_numpy(x))
    close(ya, yt)
    # different minibatches per model
    xs = RNG.standard_normal((4, 7, 5)).astype(np.float32)
    close(ac.func.vmap(fa)(pa, ba, ac.asarray(xs)), torch.vmap(ft)(pt, bt, torch.from_numpy(xs)))
    # training an ensemble on the tape: gradients flow to the stacked leaves
    ac.sum(ya ** 2).backward()
    (yt ** 2).sum().backward()
    for k in pt:
        close(pa[k].grad, pt[k].grad, rtol=1e-4, atol=1e-5)


def test_stack_module_state_errors():
    with pytest.raises(RuntimeError, match="at least one model"):
        ac.func.stack_module_state([])
    a, b = AMLP(), AMLP()
    b.eval()
    with pytest.raises(RuntimeError, match="training/eval"):
        ac.func.stack_module_state([a, b])
    b.train()
    b.fc1.weight.requires_grad_(False)
    with pytest.raises(RuntimeError, match="requires_grad"):
        ac.func.stack_module_state([a, b])


# --- per-sample gradients ------------------------------------------------------------------

def test_per_sample_grads_match_torch_func():
    am, tm = AMLP(), TMLP()
    x, y = data(9)
    ga = nn.utils.per_sample_grads(am, a_xent, ac.asarray(x), ac.asarray(y))
    params = {k: v.detach() for k, v in tm.named_parameters()}
    buffers = {k: v for k, v in tm.named_buffers()}

    def t_loss(p, xi, yi):
        return t_xent(tf.functional_call(tm, (p, buffers), (xi[None],)), yi[None])

    gt = torch.vmap(tf.grad(t_loss), in_dims=(None, 0, 0))(params, torch.from_numpy(x),
                                                             torch.from_numpy(y))
    assert list(ga) == list(gt)
    for k in gt:
        assert ga[k].shape == tuple(gt[k].shape) == (9,) + tuple(params[k].shape)
        close(ga[k], gt[k])
    # the per-sample gradients average to the batch gradient of the mean loss
    loss = a_xent(am(ac.asarray(x)), ac.asarray(y))
    loss.backward()
    for k, p in am.named_parameters():
        np.testing.assert_allclose(np.asarray(ac.mean(ga[k], axis=0)), np.asarray(p.grad),
                                   rtol=1e-4, atol=1e-6)


def test_per_sample_grads_frozen_params_multiple_inputs_no_targets():
    class TwoIn(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = ALin(5, 2, 0)
            self.b = ALin(4, 2, 1)

        def forward(self, x1, x2):
            return self.a(x1) * self.b(x2)

    m = TwoIn()
    m.b.weight.requires_grad_(False)
    x1 = ac.asarray(RNG.standard_normal((6, 5)).astype(np.float32))
    x2 = ac.asarray(RNG.standard_normal((6, 4)).astype(np.float32))
    g = nn.utils.per_sample_grads(m, lambda out: ac.sum(out ** 2), (x1, x2))
    assert "b.weight" not in g and set(g) == {"a.weight", "a.bias", "b.bias"}
    for i in range(6):  # each row is that example's own gradient on the tape
        m.zero_grad()
        ac.sum(m(x1[i:i + 1], x2[i:i + 1]) ** 2).backward()
        for k in g:
            np.testing.assert_allclose(np.asarray(g[k][i]), np.asarray(m.get_parameter(k).grad),
                                       rtol=1e-5, atol=1e-6)


def test_per_sample_grads_refuses_modules_that_mix_examples():
    class BatchCentre(nn.Module):
        # a test-local BatchNorm-like module: subtracts the batch mean in training mode
        _mixes_examples_in_training = True

        def forward(self, x):
            return x - ac.mean(x, axis=0) if self.training else x

    m = nn.Sequential(ALin(5, 3, 0), BatchCentre())
    x, y = data(4)
    with pytest.raises(ValueError, match=r"BatchCentre \(at '1'\).*GroupNorm.*eval"):
        nn.utils.per_sample_grads(m, a_xent, ac.asarray(x), ac.asarray(y))
    m.eval()
    g = nn.utils.per_sample_grads(m, a_xent, ac.asarray(x), ac.asarray(y))
    assert g["0.weight"].shape == (4, 3, 5)
    assert nn.Module._mixes_examples_in_training is False
    with pytest.raises(ValueError, match="first axis"):
        nn.utils.per_sample_grads(m, a_xent, ac.asarray(x), ac.asarray(y[:2]))
