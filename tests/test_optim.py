"""ac.optim against torch.optim (PyTorch 2.13 CPU): 20-step trajectories of every optimizer
with identical parameters and gradients (gradients of a fixed loss computed in torch, fed to
both), every option, float32 and float64; state_dict round trips; learning-rate schedulers'
sequences; LBFGS on Rosenbrock; DP-SGD's clipping/noise and its RDP accountant."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
import torch

import arraycore as ac
from arraycore.optim import lr_scheduler as ac_sched
from arraycore.optim.accountant import rdp_sampled_gaussian

torch.set_default_dtype(torch.float32)

# Parameter shapes: a small MLP (W1, b1, W2, b2), a vector under a quadratic, a 0-d scalar.
SHAPES = [(5, 4), (5,), (3, 5), (3,), (7,), ()]
TOL = {np.float32: dict(rtol=2e-5, atol=2e-6), np.float64: dict(rtol=1e-11, atol=1e-13)}


def _init_values(dtype, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=s).astype(dtype) for s in SHAPES]


class Problem:
    """A fixed loss: an MLP's squared error plus a quadratic, gradients from torch."""

    def __init__(self, dtype, seed=0):
        rng = np.random.default_rng(100 + seed)
        tdt = torch.float32 if dtype == np.float32 else torch.float64
        self.x = torch.tensor(rng.normal(size=(8, 4)), dtype=tdt)
        self.y = torch.tensor(rng.normal(size=(8, 3)), dtype=tdt)
        self.a = torch.tensor(rng.uniform(0.5, 2.0, size=7), dtype=tdt)

    def loss(self, ps):
        w1, b1, w2, b2, q, s = ps
        h = torch.tanh(self.x @ w1.T + b1)
        out = h @ w2.T + b2
        return ((out - self.y) ** 2).mean() + (self.a * q ** 2).sum() + torch.cos(s) * s ** 2


def _pair(dtype, seed=0, complex_=False):
    vals = _init_values(dtype, seed)
    tps = [torch.tensor(v, requires_grad=True) for v in vals]
    aps = [ac.asarray(v.copy()) for v in vals]
    for p in aps:
        p.requires_grad_()
    return tps, aps


def _feed_grads(prob, tps, aps, step):
    for p in tps:
        p.grad = None
    prob.loss(tps).backward()
    for i, (t, a) in enumerate(zip(tps, aps)):
        # Parameter 3 (b2) skips a gradient every fifth step: the optimizers must skip it.
        if i == 3 and step % 5 == 4:
            t.grad = None
            a.grad = None
        else:
            a.grad = ac.asarray(t.grad.detach().numpy().copy())


def _assert_close(aps, tps, dtype, what="", tol=None):
    """All parameters at once (one comparison of the concatenation)."""
    a = np.concatenate([np.asarray(p).ravel() for p in aps])
    t = np.concatenate([p.detach().numpy().ravel() for p in tps])
    _allclose(a, t, err_msg=what, **(tol or TOL[dtype]))


CONFIGS = [
    ("SGD", dict(lr=0.05)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.02)),
    ("SGD", dict(lr=0.05, momentum=0.5, maximize=True)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("Adam", dict(lr=0.01, weight_decay=0.1, betas=(0.3, 0.9))),
    ("Adam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, amsgrad=True)),
    ("Adam", dict(lr=0.01, maximize=True, eps=1e-3)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, weight_decay=0.1, amsgrad=True, maximize=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.9)),
    ("RMSprop", dict(lr=0.01, centered=True)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5, weight_decay=0.1, alpha=0.3)),
    ("RMSprop", dict(lr=0.01, maximize=True, eps=1e-4)),
    ("Adagrad", dict(lr=0.05)),
    ("Adagrad", dict(lr=0.05, lr_decay=0.1, initial_accumulator_value=0.1)),
    ("Adagrad", dict(lr=0.05, weight_decay=0.1, maximize=True)),
    ("Adamax", dict(lr=0.01)),
    ("Adamax", dict(lr=0.01, weight_decay=0.1, betas=(0.2, 0.99))),
    ("Adamax", dict(lr=0.01, maximize=True)),
    ("NAdam", dict(lr=0.01)),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    ("RAdam", dict(lr=0.01)),
    ("RAdam", dict(lr=0.01, weight_decay=0.1, betas=(0.4, 0.9))),
    ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
]


def _ids(c):
    return c[0] + "-" + ",".join(f"{k}={v}" for k, v in c[1].items())


def _trajectory_params():
    """Every configuration in float32; in float64 the default and the most loaded
    configuration of each optimizer (the rest behind --runslow)."""
    out = []
    for i, c in enumerate(CONFIGS):
        first = i == 0 or CONFIGS[i - 1][0] != c[0]
        last = i == len(CONFIGS) - 1 or CONFIGS[i + 1][0] != c[0]
        out.append(pytest.param(*c, np.float32, id=_ids(c) + "-f32"))
        marks = () if first or last else (pytest.mark.slow,)
        out.append(pytest.param(*c, np.float64, id=_ids(c) + "-f64", marks=marks))
    return out


# Centered RMSprop with alpha = 0.3 takes sqrt(E[g^2] - E[g]^2) of nearly equal averages:
# the cancellation turns float32 rounding differences (FMA contraction, vector widths: the
# AVX-512 kernels of PyTorch round differently) into ~1e-4 relative, and to 1.2e-3 in a small
# element of a momentum buffer (measured on a Cascade Lake).  Those states are compared
# normwise: the absolute tolerance scales with the largest element.
_LOOSE = {("RMSprop", 0.3, np.float32): dict(rtol=2e-5, atol=2e-5, normwise=True)}


def _allclose(actual, desired, err_msg="", rtol=0.0, atol=0.0, normwise=False):
    if normwise:
        atol = atol * max(1.0, float(np.max(np.abs(desired), initial=0.0)))
    np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol, err_msg=err_msg)


@pytest.mark.parametrize("name,opts,dtype", _trajectory_params())
def test_trajectory_matches_torch(name, opts, dtype):
    prob = Problem(dtype)
    tps, aps = _pair(dtype)
    topt = getattr(torch.optim, name)(tps, **opts)
    aopt = getattr(ac.optim, name)(aps, **opts)
    tol = _LOOSE.get((name, opts.get("alpha"), dtype))
    for step in range(20):
        _feed_grads(prob, tps, aps, step)
        topt.step()
        aopt.step()
        _assert_close(aps, tps, dtype, f"{name} step {step}", tol)
    # The state matches too (same names and values).
    for t, a in zip(tps, aps):
        tst, ast = topt.state[t], aopt.state[a]
        for k, v in tst.items():
            if isinstance(v, torch.Tensor) and v.ndim > 0:
                _allclose(np.asarray(ast[k]), v.numpy(), err_msg=k, **(tol or TOL[dtype]))
            elif k in ("step", "mu_product"):
                assert ast[k] == pytest.approx(float(v), rel=1e-6), k


def test_param_groups_and_lr_edits_match_torch():
    dtype = np.float64
    prob = Problem(dtype)
    tps, aps = _pair(dtype)
    topt = torch.optim.Adam([{"params": tps[:3]}, {"params": tps[3:], "lr": 0.05,
                                                    "amsgrad": True}], lr=0.01)
    aopt = ac.optim.Adam([{"params": aps[:3]}, {"params": aps[3:], "lr": 0.05,
                                                 "amsgrad": True}], lr=0.01)
    assert [g["lr"] for g in aopt.param_groups] == [0.01, 0.05]
    assert aopt.param_groups[1]["betas"] == (0.9, 0.999)
    for step in range(12):
        _feed_grads(prob, tps, aps, step)
        if step == 6:
            for go in (topt.param_groups, aopt.param_groups):
                go[0]["lr"] = 0.002
        topt.step()
        aopt.step()
    _assert_close(aps, tps, dtype)


def test_add_param_group_and_zero_grad():
    a = ac.ones((3,))
    b = ac.ones((2,))
    a.requires_grad_()
    b.requires_grad_()
    opt = ac.optim.SGD([a], lr=0.1)
    opt.add_param_group({"params": b, "lr": 1.0, "momentum": 0.5})
    assert opt.param_groups[1]["lr"] == 1.0 and opt.param_groups[1]["momentum"] == 0.5
    assert opt.param_groups[1]["dampening"] == 0.0
    a.grad = ac.ones((3,))
    b.grad = ac.ones((2,))
    opt.step()
    assert a.tolist() == pytest.approx([0.9] * 3) and b.tolist() == [0.0, 0.0]
    opt.zero_grad(set_to_none=False)
    assert a.grad.tolist() == [0.0] * 3
    opt.zero_grad()
    assert a.grad is None and b.grad is None
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [a]})


def test_closure_and_named_params():
    w = ac.asarray([1.0, 2.0])
    w.requires_grad_()
    opt = ac.optim.SGD([("w", w)], lr=0.5)
    assert opt.param_groups[0]["param_names"] == ["w"]

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert float(loss) == 5.0
    assert w.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("name,opts", [("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
                                       ("Adam", dict(lr=0.01, amsgrad=True)),
                                       ("NAdam", dict(lr=0.01)),
                                       ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5)),
                                       ("Adagrad", dict(lr=0.05, lr_decay=0.01)),
                                       ("RAdam", dict(lr=0.01)),
                                       ("Adamax", dict(lr=0.01))])
def test_state_dict_round_trip_mid_training(name, opts):
    dtype = np.float32
    prob = Problem(dtype)
    tps, aps = _pair(dtype)
    ref = getattr(ac.optim, name)(aps, **opts)
    for step in range(10):
        _feed_grads(prob, tps, aps, step)
        ref.step()
    sd = ref.state_dict()
    assert sorted(sd) == ["param_groups", "state"]
    assert sd["param_groups"][0]["params"] == list(range(len(SHAPES)))
    sd = copy.deepcopy(sd)  # state arrays are references, as in PyTorch
    clones = [ac.asarray(np.asarray(p).copy()) for p in aps]
    for c in clones:
        c.requires_grad_()
    resumed = getattr(ac.optim, name)(clones, **opts)
    resumed.load_state_dict(sd)
    for step in range(10, 20):
        _feed_grads(prob, tps, aps, step)
        for c, a in zip(clones, aps):
            c.grad = None if a.grad is None else ac.asarray(np.asarray(a.grad).copy())
        ref.step()
        resumed.step()
    for c, a in zip(clones, aps):
        np.testing.assert_array_equal(np.asarray(c), np.asarray(a))


def test_state_dict_loads_torch_layout_and_checks_sizes():
    dtype = np.float64
    prob = Problem(dtype)
    tps, aps = _pair(dtype)
    topt = torch.optim.Adam(tps, lr=0.01)
    for step in range(3):
        _feed_grads(prob, tps, aps, step)
        topt.step()
    # A torch state dict, its tensors moved through DLPack, loads into ac.optim.Adam.
    tsd = topt.state_dict()
    asd = {"state": {k: {n: (ac.from_dlpack(v.detach()) if v.ndim else v)
                         for n, v in s.items()} for k, s in tsd["state"].items()},
           "param_groups": tsd["param_groups"]}
    with ac.no_grad():
        for a, t in zip(aps, tps):
            a[...] = ac.asarray(t.detach().numpy().copy())
    aopt = ac.optim.Adam(aps, lr=0.01)
    aopt.load_state_dict(asd)
    assert aopt.state[aps[0]]["step"] == 3.0
    for step in range(3, 8):
        _feed_grads(prob, tps, aps, step)
        topt.step()
        aopt.step()
    _assert_close(aps, tps, dtype)
    # Mismatches raise ValueError before anything changes.
    bad = aopt.state_dict()
    bad = {"state": bad["state"], "param_groups": [dict(bad["param_groups"][0],
                                                        params=[0, 1])]}
    with pytest.raises(ValueError, match="doesn't match"):
        aopt.load_state_dict(bad)
    two = {"state": {}, "param_groups": [dict(aopt.state_dict()["param_groups"][0])] * 2}
    with pytest.raises(ValueError, match="2 parameter groups"):
        aopt.load_state_dict(two)
    wrong = copy.deepcopy(aopt.state_dict())
    wrong["state"][0]["exp_avg"] = ac.zeros((2, 2), dtype=ac.float64)
    with pytest.raises(ValueError, match="shape"):
        aopt.load_state_dict(wrong)


def test_float32_state_cast_on_load():
    p = ac.zeros((2,), dtype=ac.float32)
    p.requires_grad_()
    opt = ac.optim.Adam([p])
    sd = {"state": {0: {"step": 1.0, "exp_avg": ac.ones((2,), dtype=ac.float64),
                        "exp_avg_sq": ac.ones((2,), dtype=ac.float64)}},
          "param_groups": [dict(opt.state_dict()["param_groups"][0])]}
    opt.load_state_dict(sd)
    assert opt.state[p]["exp_avg"].dtype == ac.float32


def test_complex_params_match_torch_view_as_real():
    rng = np.random.default_rng(3)
    v = (rng.normal(size=(4, 3)) + 1j * rng.normal(size=(4, 3))).astype(np.complex128)
    t = torch.tensor(v, requires_grad=True)
    a = ac.asarray(v.copy())
    a.requires_grad_()
    topt = torch.optim.Adam([t], lr=0.05, amsgrad=True, weight_decay=0.1)
    aopt = ac.optim.Adam([a], lr=0.05, amsgrad=True, weight_decay=0.1)
    for _ in range(10):
        g = rng.normal(size=(4, 3)) + 1j * rng.normal(size=(4, 3))
        t.grad = torch.tensor(g)
        a.grad = ac.asarray(g)
        topt.step()
        aopt.step()
    np.testing.assert_allclose(np.asarray(a), t.detach().numpy(), rtol=1e-12)


def test_non_contiguous_parameter_is_updated_in_place():
    base = ac.asarray(np.arange(24, dtype=np.float64).reshape(4, 6))
    p = base[:, ::2]
    p.requires_grad_()
    opt = ac.optim.SGD([p], lr=0.5, momentum=0.9)
    ref = np.arange(24, dtype=np.float64).reshape(4, 6)
    tp = torch.tensor(ref[:, ::2].copy(), requires_grad=True)
    topt = torch.optim.SGD([tp], lr=0.5, momentum=0.9)
    for _ in range(3):
        p.grad = ac.ones((4, 3), dtype=ac.float64)
        tp.grad = torch.ones(4, 3, dtype=torch.float64)
        opt.step()
        topt.step()
    np.testing.assert_allclose(np.asarray(base)[:, ::2], tp.detach().numpy())
    np.testing.assert_array_equal(np.asarray(base)[:, 1::2], ref[:, 1::2])


def test_step_bumps_versions_and_is_not_recorded():
    w = ac.asarray([1.0, 2.0])
    w.requires_grad_()
    y = (w * w).sum()          # saves w
    opt = ac.optim.SGD([w], lr=0.1)
    w.grad = ac.ones((2,), dtype=ac.float64)
    opt.step()
    assert w.grad_fn is None and w.requires_grad  # still a leaf: the step was not recorded
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    # A fresh graph after the step differentiates at the new values.
    w.grad = None
    (w * w).sum().backward()
    assert w.grad.tolist() == pytest.approx([1.8, 3.8])


def test_errors():
    w = ac.ones((2,))
    w.requires_grad_()
    with pytest.raises(ValueError, match="Invalid learning rate"):
        ac.optim.SGD([w], lr=-1)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 1"):
        ac.optim.Adam([w], betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="Invalid epsilon"):
        ac.optim.Adam([w], eps=-1)
    with pytest.raises(ValueError, match="Nesterov"):
        ac.optim.SGD([w], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="empty parameter list"):
        ac.optim.Adam([])
    with pytest.raises(TypeError, match="single array"):
        ac.optim.Adam(w)
    with pytest.raises(ValueError, match="same parameter twice"):
        ac.optim.Adam([w, w])
    with pytest.raises(TypeError, match="floating point"):
        ac.optim.Adam([ac.ones((2,), dtype=ac.int32)])
    with pytest.raises(TypeError, match="can only optimize arrays"):
        ac.optim.Adam([[1.0, 2.0]])
    with pytest.raises(ValueError, match="non-leaf"):
        ac.optim.Adam([w * 2])
    with pytest.raises(ValueError, match="required optimization parameter"):
        from arraycore.optim.optimizer import Optimizer, required
        Optimizer([w], dict(lr=required))
    with pytest.raises(ValueError, match="per-parameter options"):
        ac.optim.LBFGS([{"params": [w]}, {"params": [ac.ones(1)]}])
    with pytest.raises(ValueError, match="line_search_fn"):
        ac.optim.LBFGS([w], line_search_fn="armijo")
    # Native checks: mismatched lists raise, never crash.
    from arraycore.native import _native
    with pytest.raises(ValueError, match="shape"):
        _native.optim_adam([ac.ones((2,))], [ac.ones((3,))], [ac.ones((2,))], [ac.ones((2,))],
                           [], 0.1, 0.9, 0.99, 1e-8, 0.0, False, False, False, 0.1, 1.0)
    with pytest.raises(TypeError, match="dtype"):
        _native.optim_sgd([ac.ones((2,))], [ac.ones((2,), dtype=ac.float32)], [], [], 0.1, 0.0,
                          0.0, 0.0, False, False)
    with pytest.raises(TypeError, match="float32, float64"):
        _native.optim_sgd([ac.ones((2,), dtype=ac.int64)], [ac.ones((2,), dtype=ac.int64)],
                          [], [], 0.1, 0.0, 0.0, 0.0, False, False)


def test_large_group_threaded_split_matches_serial():
    """Groups over the parallel threshold are split across the pool at element ranges
    crossing tensor boundaries; the result equals the single-threaded one."""
    rng = np.random.default_rng(7)
    shapes = [(300, 301), (17,), (1000, 150), (5, 7, 9)]
    vals = [rng.normal(size=s).astype(np.float32) for s in shapes]
    grads = [rng.normal(size=s).astype(np.float32) for s in shapes]
    outs = []
    old = ac.get_num_threads()
    try:
        for threads in (1, 2):
            ac.set_num_threads(threads)
            ps = [ac.asarray(v.copy()) for v in vals]
            for p in ps:
                p.requires_grad_()
            opt = ac.optim.Adam(ps, lr=0.01, weight_decay=0.1)
            for _ in range(2):
                for p, g in zip(ps, grads):
                    p.grad = ac.asarray(g)
                opt.step()
            outs.append([np.asarray(p) for p in ps])
    finally:
        ac.set_num_threads(old)
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)


# --- learning-rate schedulers -------------------------------------------------------------

def _sched_pair(make, opt_name="SGD", **opt_kw):
    tw = [torch.zeros(2, requires_grad=True), torch.zeros(1, requires_grad=True)]
    aw = [ac.zeros((2,)), ac.zeros((1,))]
    for w in aw:
        w.requires_grad_()
    kw = dict(lr=0.1, momentum=0.9) if opt_name == "SGD" else dict(lr=0.1)
    kw.update(opt_kw)
    topt = getattr(torch.optim, opt_name)([{"params": tw[:1]}, {"params": tw[1:], "lr": 0.05}],
                                          **kw)
    aopt = getattr(ac.optim, opt_name)([{"params": aw[:1]}, {"params": aw[1:], "lr": 0.05}],
                                       **kw)
    return topt, make(torch.optim.lr_scheduler, topt), aopt, make(ac_sched, aopt)


SCHEDULERS = {
    "StepLR": lambda m, o: m.StepLR(o, step_size=7, gamma=0.5),
    "MultiStepLR": lambda m, o: m.MultiStepLR(o, milestones=[3, 10, 10, 30], gamma=0.3),
    "ExponentialLR": lambda m, o: m.ExponentialLR(o, gamma=0.93),
    "CosineAnnealingLR": lambda m, o: m.CosineAnnealingLR(o, T_max=12, eta_min=0.001),
    "CosineAnnealingWarmRestarts": lambda m, o: m.CosineAnnealingWarmRestarts(
        o, T_0=5, T_mult=2, eta_min=0.002),
    "OneCycleLR": lambda m, o: m.OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=51),
    "OneCycleLR-3phase-linear": lambda m, o: m.OneCycleLR(
        o, max_lr=0.8, epochs=5, steps_per_epoch=11, three_phase=True,
        anneal_strategy="linear", pct_start=0.25),
    "LinearLR": lambda m, o: m.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=13),
    "LambdaLR": lambda m, o: m.LambdaLR(o, [lambda e: 0.95 ** e, lambda e: 1 / (1 + e)]),
    "SequentialLR": lambda m, o: m.SequentialLR(
        o, [m.LinearLR(o, start_factor=0.1, total_iters=5),
            m.CosineAnnealingLR(o, T_max=20), m.ExponentialLR(o, gamma=0.9)],
        milestones=[5, 25]),
}


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_scheduler_sequence_matches_torch(name):
    topt, ts, aopt, as_ = _sched_pair(SCHEDULERS[name])
    for epoch in range(50):
        assert as_.get_last_lr() == pytest.approx(ts.get_last_lr(), rel=1e-13, abs=1e-16), epoch
        for tg, ag in zip(topt.param_groups, aopt.param_groups):
            assert ag["lr"] == pytest.approx(tg["lr"], rel=1e-13, abs=1e-16)
            assert ag["momentum"] == pytest.approx(tg["momentum"], rel=1e-13)
        topt.step()
        aopt.step()
        ts.step()
        as_.step()


def test_onecycle_cycles_adam_beta1():
    make = lambda m, o: m.OneCycleLR(o, max_lr=0.3, total_steps=20)  # noqa: E731
    topt, ts, aopt, as_ = _sched_pair(make, "Adam")
    for _ in range(19):
        topt.step(), aopt.step(), ts.step(), as_.step()
        assert aopt.param_groups[0]["betas"][0] == pytest.approx(
            topt.param_groups[0]["betas"][0], rel=1e-13)
        assert as_.get_last_lr() == pytest.approx(ts.get_last_lr(), rel=1e-13)


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR",
                                  "LinearLR"])
def test_scheduler_closed_form_with_epoch(name):
    topt, ts, aopt, as_ = _sched_pair(SCHEDULERS[name])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch in [3, 9, 10, 17, 30, 4]:
            ts.step(epoch)
            as_.step(epoch)
            assert as_.get_last_lr() == pytest.approx(ts.get_last_lr(), rel=1e-13)


def test_warm_restarts_fractional_epochs():
    make = lambda m, o: m.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2)  # noqa: E731
    topt, ts, aopt, as_ = _sched_pair(make)
    for epoch in np.arange(0, 25, 0.35):
        ts.step(float(epoch))
        as_.step(float(epoch))
        assert as_.get_last_lr() == pytest.approx(ts.get_last_lr(), rel=1e-13)


@pytest.mark.parametrize("kw", [dict(), dict(mode="max", threshold_mode="abs", cooldown=2,
                                             patience=2, min_lr=[0.02, 0.001], factor=0.5)])
def test_reduce_lr_on_plateau_matches_torch(kw):
    make = lambda m, o: m.ReduceLROnPlateau(o, **kw)  # noqa: E731
    topt, ts, aopt, as_ = _sched_pair(make)
    rng = np.random.default_rng(0)
    metrics = np.concatenate([np.linspace(1, 0.5, 10), 0.5 + 0.01 * rng.normal(size=60)])
    for m in metrics:
        ts.step(float(m))
        as_.step(float(m))
        assert as_.get_last_lr() == ts.get_last_lr()


def test_scheduler_state_dict_round_trip():
    topt, ts, aopt, as_ = _sched_pair(SCHEDULERS["CosineAnnealingWarmRestarts"])
    for _ in range(8):
        aopt.step()
        as_.step()
    sd = copy.deepcopy(as_.state_dict())
    assert "optimizer" not in sd and sd["last_epoch"] == 8
    w = ac.zeros((1,))
    w.requires_grad_()
    opt2 = ac.optim.SGD([w], lr=0.1)
    s2 = ac_sched.CosineAnnealingWarmRestarts(opt2, T_0=5, T_mult=2, eta_min=0.002)
    s2.load_state_dict(sd)
    for _ in range(5):
        as_.step()
        s2.step()
    assert s2.get_last_lr()[0] == as_.get_last_lr()[0]


def test_scheduler_errors():
    with pytest.raises(TypeError, match="is not an Optimizer"):
        ac_sched.StepLR(object(), step_size=2)
    w = ac.zeros((1,))
    w.requires_grad_()
    opt = ac.optim.SGD([w], lr=0.1)
    with pytest.raises(ValueError, match="T_0"):
        ac_sched.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError, match="total_steps"):
        ac_sched.OneCycleLR(opt, max_lr=1.0)
    with pytest.raises(ValueError, match="ReduceLROnPlateau"):
        ac_sched.SequentialLR(opt, [ac_sched.ReduceLROnPlateau(opt),
                                    ac_sched.StepLR(opt, 2)], milestones=[2])
    s = ac_sched.OneCycleLR(opt, max_lr=1.0, total_steps=2)
    s.step()
    s.step()
    with pytest.raises(ValueError, match="Tried to step|tried to step"):
        s.step()


# --- LBFGS --------------------------------------------------------------------------------

def _rosenbrock_ac(x):
    return ac.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def _rosenbrock_torch(x):
    return torch.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
@pytest.mark.parametrize("history", [100, 3])
def test_lbfgs_rosenbrock_matches_torch(line_search, history):
    x0 = np.array([-1.2, 1.0, -0.5, 0.8, 1.5, -0.3])
    tx = torch.tensor(x0, requires_grad=True)
    ax = ac.asarray(x0.copy())
    ax.requires_grad_()
    lr = 1 if line_search else 0.02
    kw = dict(lr=lr, max_iter=7, history_size=history, line_search_fn=line_search)
    topt = torch.optim.LBFGS([tx], **kw)
    aopt = ac.optim.LBFGS([ax], **kw)

    def tclosure():
        topt.zero_grad()
        loss = _rosenbrock_torch(tx)
        loss.backward()
        return loss

    def aclosure():
        aopt.zero_grad()
        loss = _rosenbrock_ac(ax)
        loss.backward()
        return loss

    for outer in range(6):
        tl = topt.step(tclosure)
        al = aopt.step(aclosure)
        assert float(al) == pytest.approx(float(tl), rel=1e-9, abs=1e-12), outer
        np.testing.assert_allclose(np.asarray(ax), tx.detach().numpy(), rtol=1e-8, atol=1e-10,
                                   err_msg=f"outer step {outer}")
    tst = topt.state[tx]
    ast = aopt.state[ax]
    assert ast["func_evals"] == tst["func_evals"] and ast["n_iter"] == tst["n_iter"]


def test_lbfgs_converges_multi_param_float32():
    a = ac.asarray(np.array([-1.0, 0.5], dtype=np.float32))
    b = ac.asarray(np.array([[2.0]], dtype=np.float32))
    a.requires_grad_()
    b.requires_grad_()
    opt = ac.optim.LBFGS([a, b], lr=1, max_iter=100, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = ac.sum((a - 3.0) ** 2) + ac.sum((b + 1.0) ** 4) + ac.sum(a * b[0, 0]) * 0.1
        loss.backward()
        return loss

    for _ in range(3):
        opt.step(closure)
    ta = torch.tensor([-1.0, 0.5], requires_grad=True)
    tb = torch.tensor([[2.0]], requires_grad=True)
    topt = torch.optim.LBFGS([ta, tb], lr=1, max_iter=100, line_search_fn="strong_wolfe")

    def tclosure():
        topt.zero_grad()
        loss = ((ta - 3.0) ** 2).sum() + ((tb + 1.0) ** 4).sum() + (ta * tb[0, 0]).sum() * 0.1
        loss.backward()
        return loss

    for _ in range(3):
        topt.step(tclosure)
    np.testing.assert_allclose(np.asarray(a), ta.detach().numpy(), atol=2e-3)
    np.testing.assert_allclose(np.asarray(b), tb.detach().numpy(), atol=2e-2)


# --- DP-SGD -------------------------------------------------------------------------------

class NumpyNormal:
    """Stand-in noise source for the tests (the ac.random API's standard_normal)."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def standard_normal(self, size=None, dtype=None):
        return ac.asarray(self.rng.standard_normal(size).astype(
            np.float32 if dtype == ac.float32 else np.float64))


def _dp_reference(ps_grads, C):
    """Clipped sum of per-sample gradients, in NumPy."""
    B = ps_grads[0].shape[0]
    sq = sum((g.reshape(B, -1) ** 2).sum(1) for g in ps_grads)
    norms = np.sqrt(sq)
    f = np.minimum(1.0, C / norms)
    return [np.tensordot(f, g, axes=(0, 0)) for g in ps_grads], norms


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_dpsgd_clipping_exact_without_noise(dtype):
    rng = np.random.default_rng(1)
    shapes = [(3, 4), (4,)]
    B, C, lr = 9, 1.5, 0.3
    vals = [rng.normal(size=s).astype(dtype) for s in shapes]
    ps = [ac.asarray(v.copy()) for v in vals]
    for p in ps:
        p.requires_grad_()
    opt = ac.optim.DPSGD(ps, lr=lr, max_grad_norm=C, noise_multiplier=0.0,
                         expected_batch_size=12)
    # Per-sample gradients with norms on both sides of C (scaled rows).
    scale = np.geomspace(0.05, 5.0, B)
    psg = [(rng.normal(size=(B,) + s) * scale.reshape((B,) + (1,) * len(s)) / 3).astype(dtype)
           for s in shapes]
    opt.step([ac.asarray(g) for g in psg])
    sums, norms = _dp_reference([g.astype(np.float64) for g in psg], C)
    assert (norms > C).any() and (norms < C).any()
    np.testing.assert_allclose(opt.last_per_sample_norms, norms, rtol=1e-12 if dtype == np.float64
                               else 1e-6)
    tol = dict(rtol=1e-12) if dtype == np.float64 else dict(rtol=1e-5, atol=1e-6)
    for p, v, s in zip(ps, vals, sums):
        np.testing.assert_allclose(np.asarray(p), v - lr * s / 12, **tol)


def test_dpsgd_momentum_equals_sgd_on_private_grads_and_dict_input():
    rng = np.random.default_rng(2)
    w = ac.asarray(rng.normal(size=(2, 3)))
    b = ac.asarray(rng.normal(size=(3,)))
    w2, b2 = ac.asarray(np.asarray(w).copy()), ac.asarray(np.asarray(b).copy())
    for p in (w, b, w2, b2):
        p.requires_grad_()
    dp = ac.optim.DPSGD([("weight", w), ("bias", b)], lr=0.1, max_grad_norm=0.7,
                        noise_multiplier=0.0, momentum=0.9, nesterov=True, weight_decay=0.01)
    sgd = ac.optim.SGD([w2, b2], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
    for _ in range(4):
        gw, gb = rng.normal(size=(5, 2, 3)), rng.normal(size=(5, 3))
        dp.step({"bias": ac.asarray(gb), "weight": ac.asarray(gw)})
        (sw, sb), _ = _dp_reference([gw, gb], 0.7)
        w2.grad, b2.grad = ac.asarray(sw / 5), ac.asarray(sb / 5)
        sgd.step()
    np.testing.assert_allclose(np.asarray(w), np.asarray(w2), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(b), np.asarray(b2), rtol=1e-12)
    with pytest.raises(ValueError, match="names do not match"):
        dp.step({"weight": ac.asarray(gw), "bias2": ac.asarray(gb)})


def test_dpsgd_noise_statistics():
    n, B, C, sigma = 40000, 4, 0.5, 2.0
    p = ac.zeros((n,), dtype=ac.float64)
    p.requires_grad_()
    opt = ac.optim.DPSGD([p], lr=1.0, max_grad_norm=C, noise_multiplier=sigma,
                         expected_batch_size=B, generator=NumpyNormal(0))
    opt.step([ac.zeros((3, n), dtype=ac.float64)])
    upd = -np.asarray(p)
    std = sigma * C / B
    assert abs(upd.mean()) < 5 * std / math.sqrt(n)
    assert upd.std() == pytest.approx(std, rel=0.02)
    # Gaussianity: the fraction within one std is ~68.3%.
    assert np.mean(np.abs(upd) < std) == pytest.approx(0.6827, abs=0.01)


def test_dpsgd_errors_and_accounting():
    p = ac.zeros((3,))
    p.requires_grad_()
    with pytest.raises(ValueError, match="max_grad_norm"):
        ac.optim.DPSGD([p], lr=0.1, max_grad_norm=0.0, noise_multiplier=1.0)
    with pytest.raises(ValueError, match="noise_multiplier"):
        ac.optim.DPSGD([p], lr=0.1, max_grad_norm=1.0, noise_multiplier=-1.0)
    opt = ac.optim.DPSGD([p], lr=0.1, max_grad_norm=1.0, noise_multiplier=1.0,
                         generator=NumpyNormal(1))
    with pytest.raises(ValueError, match="shape"):
        opt.step([ac.zeros((4, 2))])
    with pytest.raises(ValueError, match="1 parameters"):
        opt.step([ac.zeros((4, 3)), ac.zeros((4, 3))])
    with pytest.raises(TypeError, match="dtype"):
        opt.step([ac.zeros((4, 3), dtype=ac.float32)])
    with pytest.raises(ValueError, match="sampling rate is unknown"):
        opt.get_epsilon(1e-5)
    opt = ac.optim.DPSGD([p], lr=0.1, max_grad_norm=1.0, noise_multiplier=1.1,
                         sample_rate=0.01, generator=NumpyNormal(1))
    for _ in range(3):
        opt.step([ac.ones((4, 3))])
    acc = ac.optim.RDPAccountant()
    acc.step(1.1, 0.01, steps=3)
    assert opt.get_epsilon(1e-5) == acc.get_epsilon(1e-5)
    assert opt.accountant.steps == 3


def _rdp_mpmath(q, sigma, alpha):
    import mpmath as mp
    mp.mp.dps = 50
    q, s = mp.mpf(q), mp.mpf(sigma)
    total = mp.fsum(mp.binomial(alpha, k) * (1 - q) ** (alpha - k) * q ** k
                    * mp.exp((k * k - k) / (2 * s * s)) for k in range(alpha + 1))
    return float(mp.log(total) / (alpha - 1))


@pytest.mark.parametrize("q,sigma", [(0.01, 1.1), (0.1, 0.8), (0.5, 3.0), (0.004, 0.6)])
def test_rdp_matches_mpmath(q, sigma):
    for alpha in [2, 3, 8, 17, 32, 64, 128]:
        assert rdp_sampled_gaussian(q, sigma, alpha) == pytest.approx(
            _rdp_mpmath(q, sigma, alpha), rel=1e-10), alpha


def test_rdp_epsilon_known_values():
    # q = 1: the Gaussian mechanism, RDP alpha / (2 sigma^2) (Mironov 2017, table 2).
    for a in (2, 10, 50):
        assert rdp_sampled_gaussian(1.0, 1.5, a) == pytest.approx(a / (2 * 1.5 ** 2))
    # Independent epsilon: min over the orders of T * RDP + log(1/delta) / (alpha - 1), with
    # the RDP sums in mpmath.
    q, sigma, T, delta = 256 / 60000, 1.1, 14063, 1e-5
    acc = ac.optim.RDPAccountant(orders=range(2, 41))
    acc.step(sigma, q, steps=T)
    ref = min(T * _rdp_mpmath(q, sigma, a) + math.log(1 / delta) / (a - 1) for a in range(2, 41))
    assert acc.get_epsilon(delta) == pytest.approx(ref, rel=1e-9)
    # Abadi et al.'s MNIST setting (the TF-Privacy tutorial reports eps ~ 3 at 60 epochs).
    assert 2.5 < acc.get_epsilon(delta) < 3.5
    # More steps or less noise never cost less privacy.
    acc2 = ac.optim.RDPAccountant()
    acc2.step(sigma, q, steps=2 * T)
    assert acc2.get_epsilon(delta) > ac.optim.RDPAccountant().get_privacy_spent(delta)[0]


def test_dpsgd_with_nn_per_sample_grads():
    """With nn-core merged: per_sample_grads' dict feeds DPSGD built from named_parameters."""
    nn = getattr(ac, "nn", None)
    if nn is None or not hasattr(getattr(nn, "utils", None), "per_sample_grads"):
        pytest.skip("ac.nn.utils.per_sample_grads not merged in this branch")

    class Affine(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(ac.asarray([[0.5, -1.0, 2.0]], dtype=ac.float64))
            self.b = nn.Parameter(ac.asarray([0.1], dtype=ac.float64))

        def forward(self, x):
            return x @ self.w.mT + self.b

    model = Affine()
    rng = np.random.default_rng(5)
    x = ac.asarray(rng.normal(size=(6, 3)))
    y = ac.asarray(rng.normal(size=6))
    mse = lambda out, t: ac.mean((out[:, 0] - t) ** 2)  # noqa: E731
    psg = nn.utils.per_sample_grads(model, mse, x, y)
    w0, b0 = np.asarray(model.w).copy(), np.asarray(model.b).copy()
    opt = ac.optim.DPSGD(model.named_parameters(), lr=0.1, max_grad_norm=0.5,
                         noise_multiplier=0.0)
    opt.step(psg)
    # Reference: each example's gradient with the tape, clipped and averaged in NumPy.
    gs_w, gs_b = [], []
    for i in range(6):
        model.zero_grad()
        tmp_w, tmp_b = ac.asarray(w0), ac.asarray(b0)
        tmp_w.requires_grad_()
        tmp_b.requires_grad_()
        out = x[i:i + 1] @ tmp_w.mT + tmp_b
        mse(out, y[i:i + 1]).backward()
        gs_w.append(np.asarray(tmp_w.grad))
        gs_b.append(np.asarray(tmp_b.grad))
    (sw, sb), _ = _dp_reference([np.stack(gs_w), np.stack(gs_b)], 0.5)
    np.testing.assert_allclose(np.asarray(model.w), w0 - 0.1 * sw / 6, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(model.b), b0 - 0.1 * sb / 6, rtol=1e-12)


@pytest.mark.parametrize("name,opts", [("Adam", dict(lr=0.1, amsgrad=True)),
                                       ("Adamax", dict(lr=0.1))])
def test_nan_gradient_propagates_like_torch(name, opts):
    """torch.maximum keeps NaN in AMSGrad's / Adamax's running maximum; so do the kernels."""
    v = np.array([1.0, -2.0, 0.5])
    t = torch.tensor(v, requires_grad=True)
    a = ac.asarray(v.copy()).requires_grad_()
    topt, aopt = getattr(torch.optim, name)([t], **opts), getattr(ac.optim, name)([a], **opts)
    for g in ([0.1, 0.2, 0.3], [np.nan, 0.2, 0.3], [0.1, 0.2, 0.3]):
        t.grad = torch.tensor(g, dtype=torch.float64)
        a.grad = ac.asarray(np.array(g))
        topt.step()
        aopt.step()
    np.testing.assert_allclose(np.asarray(a), t.detach().numpy(), rtol=1e-12, equal_nan=True)
    key = "max_exp_avg_sq" if name == "Adam" else "exp_inf"
    np.testing.assert_allclose(np.asarray(aopt.state[a][key]), topt.state[t][key].numpy(),
                               rtol=1e-12, equal_nan=True)
