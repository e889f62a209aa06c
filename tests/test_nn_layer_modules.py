"""nn layer and loss modules against torch.nn (PyTorch 2.13) with identical weights: forward
values, parameter and input gradients, running statistics, train/eval, reprs; default
initialisations; edge shapes; errors that name the function; double backward."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import torch

import arraycore as ac
import arraycore.nn as nn
import arraycore.nn.functional as F


def load_from_torch(m, tm):
    sd = {k: ac.asarray(v.detach().numpy().copy()) for k, v in tm.state_dict().items()}
    m.load_state_dict(sd)


def np_(x):
    return x.detach().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def close(a, b, dtype="float32", what=""):
    tol = (3e-5, 3e-6) if dtype == "float32" else (1e-10, 1e-12)
    np.testing.assert_allclose(np_(a), np_(b), rtol=tol[0], atol=tol[1], err_msg=what)


def run_pair(m, tm, inputs, dtype="float32", grads=True):
    """Forward both modules on the same inputs, backward a random cotangent, compare."""
    a_in = [ac.asarray(x) for x in inputs]
    t_in = [torch.from_numpy(x.copy()) for x in inputs]
    for a, t in zip(a_in, t_in):
        if x_is_float(t) and grads:
            a.requires_grad_()
            t.requires_grad_(True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = m(*a_in)
        tout = tm(*t_in)
    close(out, tout, dtype, f"{type(m).__name__} forward")
    if not grads or not tout.requires_grad:
        return out
    g = np.random.default_rng(3).standard_normal(tuple(tout.shape)).astype(dtype)
    ac.sum(out * ac.asarray(g)).backward()
    tout.backward(torch.from_numpy(g))
    for a, t in zip(a_in, t_in):
        if t.grad is not None:
            close(a.grad, t.grad, dtype, f"{type(m).__name__} input grad")
    tp = dict(tm.named_parameters())
    for name, p in m.named_parameters():
        if tp[name].grad is None:
            assert p.grad is None or not np.any(np_(p.grad)), name
        else:
            close(p.grad, tp[name].grad, dtype, f"{type(m).__name__}.{name} grad")
    return out


def x_is_float(t):
    return t.dtype in (torch.float32, torch.float64)


def rnd(*shape, dtype="float32", seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


MODULE_CASES = [
    ("Linear", lambda: (nn.Linear(4, 3), torch.nn.Linear(4, 3)), [rnd(5, 4)]),
    ("Linear_nobias_3d", lambda: (nn.Linear(4, 3, bias=False),
                                  torch.nn.Linear(4, 3, bias=False)), [rnd(2, 5, 4)]),
    ("Linear_empty_batch", lambda: (nn.Linear(4, 3), torch.nn.Linear(4, 3)), [rnd(0, 4)]),
    ("Bilinear", lambda: (nn.Bilinear(3, 2, 4), torch.nn.Bilinear(3, 2, 4)),
     [rnd(5, 3), rnd(5, 2, seed=1)]),
    ("Identity", lambda: (nn.Identity(3), torch.nn.Identity(3)), [rnd(2, 3)]),
    ("Flatten", lambda: (nn.Flatten(), torch.nn.Flatten()), [rnd(2, 3, 4)]),
    ("Flatten_mid", lambda: (nn.Flatten(0, 1), torch.nn.Flatten(0, 1)), [rnd(2, 3, 4)]),
    ("Unflatten", lambda: (nn.Unflatten(1, (2, -1)), torch.nn.Unflatten(1, (2, -1))),
     [rnd(3, 8)]),
    ("PReLU", lambda: (nn.PReLU(3, 0.1), torch.nn.PReLU(3, 0.1)), [rnd(4, 3, 2)]),
    ("LeakyReLU", lambda: (nn.LeakyReLU(0.2), torch.nn.LeakyReLU(0.2)), [rnd(4, 3)]),
    ("GELU_tanh", lambda: (nn.GELU("tanh"), torch.nn.GELU("tanh")), [rnd(4, 3)]),
    ("Softplus", lambda: (nn.Softplus(2.0, 1.0), torch.nn.Softplus(2.0, 1.0)), [rnd(4, 3)]),
    ("Hardtanh", lambda: (nn.Hardtanh(-0.5, 0.5), torch.nn.Hardtanh(-0.5, 0.5)), [rnd(4, 3)]),
    ("Softmax", lambda: (nn.Softmax(dim=1), torch.nn.Softmax(dim=1)), [rnd(4, 3)]),
    ("LogSoftmax", lambda: (nn.LogSoftmax(dim=-1), torch.nn.LogSoftmax(dim=-1)), [rnd(4, 3)]),
    ("LayerNorm", lambda: (nn.LayerNorm((3, 4)), torch.nn.LayerNorm((3, 4))), [rnd(2, 3, 4)]),
    ("LayerNorm_nobias", lambda: (nn.LayerNorm(4, bias=False), torch.nn.LayerNorm(4, bias=False)),
     [rnd(2, 4)]),
    ("LayerNorm_empty", lambda: (nn.LayerNorm(4), torch.nn.LayerNorm(4)), [rnd(0, 4)]),
    ("GroupNorm", lambda: (nn.GroupNorm(2, 4), torch.nn.GroupNorm(2, 4)), [rnd(3, 4, 5)]),
    ("RMSNorm", lambda: (nn.RMSNorm(4), torch.nn.RMSNorm(4)), [rnd(3, 4)]),
    ("InstanceNorm2d_affine", lambda: (nn.InstanceNorm2d(3, affine=True),
                                       torch.nn.InstanceNorm2d(3, affine=True)),
     [rnd(2, 3, 4, 4)]),
    ("InstanceNorm2d_unbatched", lambda: (nn.InstanceNorm2d(3), torch.nn.InstanceNorm2d(3)),
     [rnd(3, 4, 4)]),
    ("BatchNorm1d_3d", lambda: (nn.BatchNorm1d(3), torch.nn.BatchNorm1d(3)), [rnd(4, 3, 5)]),
    ("BatchNorm2d_noaffine", lambda: (nn.BatchNorm2d(3, affine=False),
                                      torch.nn.BatchNorm2d(3, affine=False)),
     [rnd(2, 3, 4, 4)]),
    ("ZeroPad2d", lambda: (nn.ZeroPad2d((1, 0, 2, 1)), torch.nn.ZeroPad2d((1, 0, 2, 1))),
     [rnd(1, 2, 3, 3)]),
    ("ReflectionPad1d", lambda: (nn.ReflectionPad1d(2), torch.nn.ReflectionPad1d(2)),
     [rnd(2, 3, 5)]),
    ("ReplicationPad2d", lambda: (nn.ReplicationPad2d(1), torch.nn.ReplicationPad2d(1)),
     [rnd(1, 2, 3, 3)]),
    ("Upsample", lambda: (nn.Upsample(scale_factor=2, mode="bilinear"),
                          torch.nn.Upsample(scale_factor=2, mode="bilinear")), [rnd(1, 2, 3, 3)]),
]


@pytest.mark.parametrize("name,make,inputs", MODULE_CASES, ids=[c[0] for c in MODULE_CASES])
def test_module_matches_torch(name, make, inputs):
    m, tm = make()
    load_from_torch(m, tm)
    run_pair(m, tm, inputs)
    assert repr(m) == repr(tm)


def test_module_float64():
    m, tm = nn.Linear(3, 2, dtype=ac.float64), torch.nn.Linear(3, 2).double()
    assert m.weight.dtype == ac.float64
    load_from_torch(m, tm)
    run_pair(m, tm, [rnd(4, 3, dtype="float64")], dtype="float64")
    m, tm = nn.LayerNorm(3).double(), torch.nn.LayerNorm(3).double()
    run_pair(m, tm, [rnd(4, 3, dtype="float64")], dtype="float64")


@pytest.mark.parametrize("momentum", [0.1, None])
@pytest.mark.parametrize("kind", ["1d", "2d"])
def test_batchnorm_running_stats(kind, momentum):
    shape = (6, 3) if kind == "1d" else (4, 3, 2, 3)
    cls, tcls = (nn.BatchNorm1d, torch.nn.BatchNorm1d) if kind == "1d" else \
        (nn.BatchNorm2d, torch.nn.BatchNorm2d)
    m, tm = cls(3, momentum=momentum), tcls(3, momentum=momentum)
    with torch.no_grad():
        tm.weight.uniform_(0.5, 1.5)
        tm.bias.uniform_(-1, 1)
    load_from_torch(m, tm)
    assert m._mixes_examples_in_training
    for step in range(3):
        run_pair(m, tm, [rnd(*shape, seed=step) * 2 + step])
    close(m.running_mean, tm.running_mean)
    close(m.running_var, tm.running_var)
    assert int(m.num_batches_tracked) == int(tm.num_batches_tracked) == 3
    m.eval()
    tm.eval()
    run_pair(m, tm, [rnd(*shape, seed=9)])
    assert int(m.num_batches_tracked) == 3
    assert set(m.state_dict()) == set(tm.state_dict())


def test_batchnorm_no_running_stats():
    m = nn.BatchNorm1d(3, track_running_stats=False)
    tm = torch.nn.BatchNorm1d(3, track_running_stats=False)
    assert m.running_mean is None and "running_mean" not in m.state_dict()
    m.eval()
    tm.eval()
    run_pair(m, tm, [rnd(5, 3)])  # eval without running stats uses batch statistics


def test_instancenorm_running_stats():
    m = nn.InstanceNorm2d(3, track_running_stats=True, affine=True)
    tm = torch.nn.InstanceNorm2d(3, track_running_stats=True, affine=True)
    for s in range(2):
        run_pair(m, tm, [rnd(2, 3, 4, 5, seed=s) + s])
    close(m.running_mean, tm.running_mean)
    close(m.running_var, tm.running_var)
    m.eval()
    tm.eval()
    run_pair(m, tm, [rnd(2, 3, 4, 5, seed=5)])


def test_embedding():
    m, tm = nn.Embedding(6, 3, padding_idx=-2), torch.nn.Embedding(6, 3, padding_idx=-2)
    assert m.padding_idx == 4
    assert not np.any(np.asarray(m.weight)[4])
    load_from_torch(m, tm)
    idx = np.asarray([[4, 1, 4], [0, 5, 1]])
    out = m(ac.asarray(idx))
    tout = tm(torch.from_numpy(idx))
    close(out, tout)
    g = rnd(2, 3, 3, seed=1)
    ac.sum(out * ac.asarray(g)).backward()
    tout.backward(torch.from_numpy(g))
    close(m.weight.grad, tm.weight.grad)
    assert not np.any(np.asarray(m.weight.grad)[4])
    assert repr(m) == repr(tm)


def test_embedding_max_norm():
    m, tm = nn.Embedding(5, 4, max_norm=1.0), torch.nn.Embedding(5, 4, max_norm=1.0)
    load_from_torch(m, tm)
    idx = np.asarray([0, 2, 2, 4])
    close(m(ac.asarray(idx)), tm(torch.from_numpy(idx)))
    close(m.weight, tm.weight.detach())  # the referenced rows were renormalized in place


def test_embedding_from_pretrained():
    w = rnd(4, 3)
    m = nn.Embedding.from_pretrained(ac.asarray(w))
    tm = torch.nn.Embedding.from_pretrained(torch.from_numpy(w.copy()))
    assert m.weight.requires_grad is False
    idx = np.asarray([3, 0])
    close(m(ac.asarray(idx)), tm(torch.from_numpy(idx)))
    m2 = nn.Embedding.from_pretrained(ac.asarray(w), freeze=False, padding_idx=1)
    assert m2.weight.requires_grad and m2.padding_idx == 1


LOSS_MODULES = [
    ("MSELoss", lambda: (nn.MSELoss(), torch.nn.MSELoss()), [rnd(3, 4), rnd(3, 4, seed=1)]),
    ("L1Loss_sum", lambda: (nn.L1Loss(reduction="sum"), torch.nn.L1Loss(reduction="sum")),
     [rnd(3, 4), rnd(3, 4, seed=1)]),
    ("SmoothL1Loss", lambda: (nn.SmoothL1Loss(beta=0.5), torch.nn.SmoothL1Loss(beta=0.5)),
     [rnd(3, 4), rnd(3, 4, seed=1)]),
    ("HuberLoss", lambda: (nn.HuberLoss(delta=0.5), torch.nn.HuberLoss(delta=0.5)),
     [rnd(3, 4), rnd(3, 4, seed=1)]),
    ("CrossEntropyLoss", lambda: (
        nn.CrossEntropyLoss(ac.asarray([1.0, 2.0, 0.5], dtype=ac.float32), ignore_index=0,
                            label_smoothing=0.1),
        torch.nn.CrossEntropyLoss(torch.tensor([1.0, 2.0, 0.5]), ignore_index=0,
                                  label_smoothing=0.1)),
     [rnd(5, 3), np.asarray([0, 1, 2, 2, 1])]),
    ("NLLLoss_legacy", lambda: (nn.NLLLoss(size_average=False), torch.nn.NLLLoss(
        size_average=False)), [rnd(4, 3), np.asarray([0, 1, 2, 2])]),
    ("BCELoss", lambda: (nn.BCELoss(), torch.nn.BCELoss()),
     [np.linspace(0.1, 0.9, 6, dtype="float32"), np.linspace(1, 0, 6, dtype="float32")]),
    ("BCEWithLogitsLoss", lambda: (
        nn.BCEWithLogitsLoss(pos_weight=ac.asarray([2.0, 0.5], dtype=ac.float32)),
        torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 0.5]))),
     [rnd(3, 2), np.abs(rnd(3, 2, seed=1)) % 1]),
    ("KLDivLoss", lambda: (nn.KLDivLoss(reduction="batchmean", log_target=True),
                           torch.nn.KLDivLoss(reduction="batchmean", log_target=True)),
     [rnd(3, 4), rnd(3, 4, seed=1)]),
    ("CosineEmbeddingLoss", lambda: (nn.CosineEmbeddingLoss(0.1),
                                     torch.nn.CosineEmbeddingLoss(0.1)),
     [rnd(3, 4), rnd(3, 4, seed=1), np.asarray([1, -1, -1])]),
    ("MarginRankingLoss", lambda: (nn.MarginRankingLoss(0.5), torch.nn.MarginRankingLoss(0.5)),
     [rnd(4), rnd(4, seed=1), np.asarray([1.0, -1.0, 1.0, -1.0], dtype="float32")]),
    ("TripletMarginLoss", lambda: (nn.TripletMarginLoss(swap=True),
                                   torch.nn.TripletMarginLoss(swap=True)),
     [rnd(3, 4), rnd(3, 4, seed=1), rnd(3, 4, seed=2)]),
]


@pytest.mark.parametrize("name,make,inputs", LOSS_MODULES, ids=[c[0] for c in LOSS_MODULES])
def test_loss_module_matches_torch(name, make, inputs):
    m, tm = make()
    out = run_pair(m, tm, inputs)
    assert out.dtype == ac.float32
    assert set(m.state_dict()) == set(tm.state_dict())


def test_default_dtype_and_init_bounds():
    lin = nn.Linear(50, 40)
    assert lin.weight.dtype == ac.float32 and lin.bias.dtype == ac.float32
    w, b = np.asarray(lin.weight), np.asarray(lin.bias)
    bound = 1 / math.sqrt(50)
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    # roughly uniform on the interval: variance bound^2 / 3
    assert abs(w.var() - bound ** 2 / 3) < 0.2 * bound ** 2 / 3
    bil = nn.Bilinear(9, 4, 3)
    assert np.abs(np.asarray(bil.weight)).max() <= 1 / 3
    emb = nn.Embedding(100, 20)
    e = np.asarray(emb.weight)
    assert abs(e.mean()) < 0.1 and abs(e.std() - 1) < 0.1
    bn = nn.BatchNorm2d(4)
    assert np.all(np.asarray(bn.weight) == 1) and np.all(np.asarray(bn.bias) == 0)
    assert np.all(np.asarray(bn.running_var) == 1) and bn.num_batches_tracked.dtype == ac.int64
    assert np.all(np.asarray(nn.PReLU(2).weight) == np.float32(0.25))


def test_dropout_modules():
    ac.random.seed(0)
    x = ac.ones((200, 50), dtype=ac.float32)
    d = nn.Dropout(0.3)
    y = np.asarray(d(x))
    kept = y != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(y[kept], np.float32(1) / np.float32(0.7), rtol=1e-6)
    d.eval()
    assert np.all(np.asarray(d(x)) == 1)
    x4 = ac.ones((8, 30, 3, 3), dtype=ac.float32)
    y4 = np.asarray(nn.Dropout2d(0.5)(x4))
    per_channel = y4.reshape(8, 30, 9)
    assert np.all((per_channel == 0).all(-1) | (per_channel != 0).all(-1))
    assert 0.3 < (per_channel[..., 0] == 0).mean() < 0.7
    z = np.asarray(F.alpha_dropout(ac.asarray(rnd(200, 200)), 0.2, training=True))
    assert abs(z.mean()) < 0.05 and abs(z.std() - 1) < 0.05  # SELU-preserving
    xg = ac.ones((10, 10), dtype=ac.float32)
    xg.requires_grad_()
    out = F.dropout(xg, 0.5)
    ac.sum(out).backward()
    np.testing.assert_array_equal(np.asarray(xg.grad), np.asarray(out.detach()))


def test_dropout_eval_and_p_edges():
    x = ac.asarray(rnd(3, 4))
    assert F.dropout(x, 0.5, training=False) is x
    assert np.all(np.asarray(F.dropout(x, 1.0)) == 0)
    with pytest.raises(ValueError, match="dropout"):
        F.dropout(x, 1.5)
    with pytest.raises(ValueError, match="Dropout"):
        nn.Dropout(-0.1)


def test_one_hot():
    t = np.asarray([[0, 3], [2, 1]])
    np.testing.assert_array_equal(np.asarray(F.one_hot(ac.asarray(t))),
                                  torch.nn.functional.one_hot(torch.from_numpy(t)).numpy())
    np.testing.assert_array_equal(np.asarray(F.one_hot(ac.asarray(t), 6)),
                                  torch.nn.functional.one_hot(torch.from_numpy(t), 6).numpy())
    assert F.one_hot(ac.asarray(t)).dtype == ac.int64
    with pytest.raises(ValueError, match="one_hot"):
        F.one_hot(ac.asarray(t), 3)
    with pytest.raises(ValueError, match="one_hot"):
        F.one_hot(ac.asarray([-1]))
    with pytest.raises(ValueError, match="one_hot"):
        F.one_hot(ac.zeros((0,), dtype=ac.int64))
    with pytest.raises(TypeError, match="one_hot"):
        F.one_hot(ac.asarray([1.0]))


def test_edge_shapes():
    # empty batches where torch allows them
    for fn, tfn in ((lambda x: F.softmax(x, 1), lambda x: torch.softmax(x, 1)),
                    (lambda x: F.layer_norm(x, (3,)), lambda x: torch.nn.functional.layer_norm(
                        x, (3,))),
                    (F.gelu, torch.nn.functional.gelu)):
        x = rnd(0, 3)
        assert tuple(fn(ac.asarray(x)).shape) == tuple(tfn(torch.from_numpy(x)).shape)
    e = F.cross_entropy(ac.asarray(rnd(0, 3)), ac.zeros((0,), dtype=ac.int64))
    assert math.isnan(float(e))
    s = F.cross_entropy(ac.asarray(rnd(0, 3)), ac.zeros((0,), dtype=ac.int64), reduction="sum")
    assert float(s) == 0.0
    # all targets ignored: nan mean, as torch
    t = torch.nn.functional.cross_entropy(torch.zeros(2, 3), torch.tensor([-100, -100]))
    a = F.cross_entropy(ac.zeros((2, 3)), ac.asarray([-100, -100]))
    assert math.isnan(float(a)) and math.isnan(float(t))


ERRORS = [
    (lambda: F.linear(ac.ones((2, 3)), ac.ones((4, 5))), ValueError, "linear"),
    (lambda: F.linear(ac.ones((2, 3), dtype=ac.float32), ac.ones((4, 3))), TypeError, "linear"),
    (lambda: F.linear(ac.ones((2, 3), dtype=ac.int64), ac.ones((4, 3))), TypeError, "linear"),
    (lambda: F.bilinear(ac.ones((2, 3)), ac.ones((3, 3)), ac.ones((1, 3, 3))), ValueError,
     "bilinear"),
    (lambda: F.gelu(ac.ones(2), approximate="fast"), ValueError, "gelu"),
    (lambda: F.softmax(ac.ones((2, 3)), dim=2), IndexError, "softmax"),
    (lambda: F.relu(ac.ones(2, dtype=ac.complex128)), TypeError, "relu"),
    (lambda: F.prelu(ac.ones((2, 3)), ac.ones(2)), ValueError, "prelu"),
    (lambda: F.layer_norm(ac.ones((2, 3)), (4,)), ValueError, "layer_norm"),
    (lambda: F.group_norm(ac.ones((2, 3, 4)), 2), ValueError, "group_norm"),
    (lambda: F.batch_norm(ac.ones((1, 3)), None, None, training=True), ValueError,
     "batch_norm"),
    (lambda: F.instance_norm(ac.ones((2, 3, 1))), ValueError, "instance_norm"),
    (lambda: nn.BatchNorm1d(3)(ac.ones((2, 3, 4, 5), dtype=ac.float32)), ValueError,
     "BatchNorm1d"),
    (lambda: nn.GroupNorm(3, 4), ValueError, "GroupNorm"),
    (lambda: F.embedding(ac.asarray([5]), ac.ones((3, 2))), IndexError, "embedding"),
    (lambda: F.embedding(ac.asarray([0.0]), ac.ones((3, 2))), TypeError, "embedding"),
    (lambda: F.pad(ac.ones((2, 3)), (1,)), ValueError, "pad"),
    (lambda: F.pad(ac.ones((2, 3)), (3, 3), mode="reflect"), ValueError, "pad"),
    (lambda: F.pad(ac.ones(3), (1, 1), mode="reflect"), ValueError, "pad"),
    (lambda: F.pad(ac.ones((2, 3)), (1, 1), mode="reflect", value=1.0), ValueError, "pad"),
    (lambda: F.pad(ac.ones((2, 3)), (1, 1), mode="wrap"), ValueError, "pad"),
    (lambda: F.interpolate(ac.ones((1, 1, 3)), size=4, mode="bilinear"), ValueError,
     "interpolate"),
    (lambda: F.interpolate(ac.ones((1, 1, 3)), size=4, scale_factor=2), ValueError,
     "interpolate"),
    (lambda: F.interpolate(ac.ones((1, 1, 3)), size=4, align_corners=True), ValueError,
     "interpolate"),
    (lambda: F.mse_loss(ac.ones(2), ac.ones(2), reduction="avg"), ValueError, "mse_loss"),
    (lambda: F.cross_entropy(ac.ones((2, 3)), ac.asarray([0, 3])), IndexError,
     "cross_entropy"),
    (lambda: F.cross_entropy(ac.ones((2, 3)), ac.asarray([0, 1, 2])), ValueError,
     "cross_entropy"),
    (lambda: F.cross_entropy(ac.ones((2, 3)), ac.asarray([0, 1]), label_smoothing=1.5),
     ValueError, "cross_entropy"),
    (lambda: F.cross_entropy(ac.ones((2, 3)), ac.ones((2, 3)), ignore_index=1), ValueError,
     "cross_entropy"),
    (lambda: F.nll_loss(ac.ones((2, 3)), ac.asarray([0, 1]), weight=ac.ones(2)), ValueError,
     "nll_loss"),
    (lambda: F.binary_cross_entropy(ac.asarray([1.5]), ac.asarray([1.0])), ValueError,
     "binary_cross_entropy"),
    (lambda: F.binary_cross_entropy_with_logits(ac.ones(3), ac.ones(2)), ValueError,
     "binary_cross_entropy_with_logits"),
    (lambda: F.kl_div(ac.ones(2), ac.ones(2), reduction="batch"), ValueError, "kl_div"),
    (lambda: F.triplet_margin_loss(ac.ones((2, 3)), ac.ones((2, 3)), ac.ones((2, 3)),
                                   margin=0), ValueError, "triplet_margin_loss"),
    (lambda: F.cosine_embedding_loss(ac.ones((2, 3)), ac.ones((2, 3)), ac.ones((2, 2))),
     ValueError, "cosine_embedding_loss"),
    (lambda: F.smooth_l1_loss(ac.ones(2), ac.ones(2), beta=-1), ValueError, "smooth_l1_loss"),
]


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_errors_name_the_function(k):
    fn, exc, who = ERRORS[k]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=who):
            fn()


@pytest.mark.parametrize("name", ["gelu", "log_softmax", "softmax", "layer_norm",
                                  "cross_entropy", "cross_entropy_smooth", "batch_norm",
                                  "bce_logits", "softplus"])
def test_double_backward(name):
    rng = np.random.default_rng(0)
    x = ac.asarray(rng.standard_normal((3, 4)))
    t = ac.asarray(rng.integers(0, 4, 3))
    p = ac.asarray(rng.random((3, 4)))
    fns = {
        "gelu": lambda x: F.gelu(x),
        "log_softmax": lambda x: F.log_softmax(x, 1),
        "layer_norm": lambda x: F.layer_norm(x, (4,)),
        "softmax": lambda x: F.softmax(x, 0),
        "cross_entropy": lambda x: F.cross_entropy(x, t),
        "cross_entropy_smooth": lambda x: F.cross_entropy(x, t, label_smoothing=0.1),
        "batch_norm": lambda x: F.batch_norm(x, None, None, training=True),
        "bce_logits": lambda x: F.binary_cross_entropy_with_logits(x, p),
        "softplus": lambda x: F.softplus(x, beta=2.0),
    }
    assert ac.autograd.gradgradcheck(fns[name], (x.requires_grad_(),))


def test_inplace_activation():
    x = ac.asarray(rnd(3, 4))
    y = F.relu(x, inplace=True)
    assert y is x and np.all(np.asarray(x) >= 0)
    m = nn.ReLU(inplace=True)
    z = ac.asarray(rnd(2, 2))
    assert m(z) is z
    # in-place on a non-leaf keeps the tape right
    a = ac.asarray(rnd(3, 4))
    a.requires_grad_()
    b = a * 2.0
    c = F.leaky_relu(b, 0.1, inplace=True)
    ac.sum(c).backward()
    ta = torch.from_numpy(np.asarray(a.detach()).copy()).requires_grad_()
    torch.nn.functional.leaky_relu(ta * 2.0, 0.1, inplace=True).sum().backward()
    close(a.grad, ta.grad)


def test_functional_vmap_over_module_weights():
    """A layer's functional form under vmap over stacked weights (model ensembles)."""
    rng = np.random.default_rng(0)
    w = ac.asarray(rng.standard_normal((4, 3, 5)).astype("float32"))
    b = ac.asarray(rng.standard_normal((4, 3)).astype("float32"))
    x = ac.asarray(rng.standard_normal((2, 5)).astype("float32"))
    out = ac.func.vmap(lambda w, b: F.gelu(F.linear(x, w, b)))(w, b)
    want = np.stack([np.asarray(F.gelu(F.linear(x, w[i], b[i]))) for i in range(4)])
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6, atol=1e-6)


def test_batch_norm_running_stats_under_transforms():
    """Under func.grad / func.jvp the buffers take the primal statistics (as torch.func);
    under vmap a plain buffer cannot hold per-example values: ValueError naming batch_norm."""
    x = rnd(5, 3, dtype="float64")
    tm, tv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    torch.nn.functional.batch_norm(torch.from_numpy(x), tm, tv, training=True)
    rm, rv = ac.zeros(3), ac.ones(3)
    g = ac.func.grad(lambda v: ac.sum(F.batch_norm(v, rm, rv, training=True) ** 3))(
        ac.asarray(x))
    assert g.shape == (5, 3)
    close(rm, tm, "float64")
    close(rv, tv, "float64")
    rm2, rv2 = ac.zeros(3), ac.ones(3)
    ac.func.jvp(lambda v: F.batch_norm(v, rm2, rv2, training=True), (ac.asarray(x),),
                (ac.ones((5, 3)),))
    close(rm2, tm, "float64")
    with pytest.raises(ValueError, match="batch_norm"):
        ac.func.vmap(lambda v: F.batch_norm(v, rm, rv, training=True))(
            ac.asarray(np.stack([x, x])))


def _mlp(norm):
    return nn.Sequential(nn.Linear(6, 8), norm, nn.GELU(), nn.Linear(8, 4), nn.LogSoftmax(1))


def test_per_sample_grads_through_layers():
    """vmap(grad) through Linear, LayerNorm, GELU, LogSoftmax and cross_entropy equals a
    loop of tape gradients; BatchNorm in training mode is refused, in eval mode accepted."""
    rng = np.random.default_rng(0)
    x = ac.asarray(rng.standard_normal((5, 6)).astype("float32"))
    y = ac.asarray(rng.integers(0, 4, 5))
    model = _mlp(nn.LayerNorm(8))
    loss = lambda out, t: F.nll_loss(out, t)  # noqa: E731
    g = nn.utils.per_sample_grads(model, loss, x, y)
    for i in range(5):
        model.zero_grad()
        loss(model(x[i:i + 1]), y[i:i + 1]).backward()
        for name, p in model.named_parameters():
            np.testing.assert_allclose(np.asarray(g[name][i]), np.asarray(p.grad), rtol=2e-5,
                                       atol=2e-6, err_msg=name)
    bn_model = _mlp(nn.BatchNorm1d(8))
    with pytest.raises(ValueError):
        nn.utils.per_sample_grads(bn_model, loss, x, y)
    bn_model.eval()
    nn.utils.per_sample_grads(bn_model, loss, x, y)


def test_module_under_func_grad_equals_tape():
    rng = np.random.default_rng(1)
    model = _mlp(nn.GroupNorm(2, 8))
    x = ac.asarray(rng.standard_normal((3, 6)).astype("float32"))
    y = ac.asarray(rng.integers(0, 4, 3))
    params = {k: v.detach() for k, v in model.named_parameters()}
    g = ac.func.grad(lambda p: F.nll_loss(ac.func.functional_call(model, p, (x,)), y))(params)
    F.nll_loss(model(x), y).backward()
    for name, p in model.named_parameters():
        np.testing.assert_allclose(np.asarray(g[name]), np.asarray(p.grad), rtol=2e-5,
                                   atol=2e-6, err_msg=name)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_cross_entropy_nested_transforms(reduction):
    """hessian (jacfwd of jacrev) and vmap with an unbatched target, against torch."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 4))
    t = rng.integers(0, 4, 3)
    f = lambda v: ac.sum(F.cross_entropy(v, ac.asarray(t), reduction=reduction) ** 2)  # noqa
    tf = lambda v: (torch.nn.functional.cross_entropy(  # noqa: E731
        v, torch.from_numpy(t), reduction=reduction) ** 2).sum()
    h = ac.func.hessian(f)(ac.asarray(x))
    th = torch.autograd.functional.hessian(tf, torch.from_numpy(x))
    close(h, th, "float64")
    xb = rng.standard_normal((2, 3, 4))
    vb = ac.func.vmap(lambda v: F.cross_entropy(v, ac.asarray(t), reduction=reduction))(
        ac.asarray(xb))
    tb = torch.stack([torch.nn.functional.cross_entropy(
        torch.from_numpy(v), torch.from_numpy(t), reduction=reduction) for v in xb])
    close(vb, tb, "float64")


def test_dropout_under_vmap_randomness():
    x = ac.ones((4, 64), dtype=ac.float32)
    f = lambda v: F.dropout(v, 0.5)  # noqa: E731
    with pytest.raises(Exception):
        ac.func.vmap(f)(x)  # randomness="error" (the default) refuses random draws
    same = np.asarray(ac.func.vmap(f, randomness="same")(x))
    assert np.all(same == same[0])
    diff = np.asarray(ac.func.vmap(f, randomness="different")(x))
    assert not np.all(diff == diff[0])
    assert set(np.unique(diff)) <= {0.0, 2.0}
    ac.manual_seed(3)
    a = np.asarray(F.dropout(x, 0.5))
    ac.manual_seed(3)
    np.testing.assert_array_equal(a, np.asarray(F.dropout(x, 0.5)))  # reseeding repeats
