"""nn.functional layers (linear, activations, normalization, embedding, pad, interpolate)
against PyTorch 2.13: forward values and tape gradients in float32 and float64, and each
case under ac.func.grad / jvp / vmap against the tape (tests/nn_case_harness.py)."""

from __future__ import annotations

import numpy as np
import pytest
import torch.nn.functional as TF

import arraycore.nn.functional as F
from nn_case_harness import Case, check_forward_backward, check_transforms


def normal(*shape, scale=1.0):
    return lambda rng, dt: rng.standard_normal(shape).astype(dt) * dt.type(scale)


def with_kinks(shape, kinks, scale=3.0):
    """Normal values with the activation's kinks written in, so PyTorch's subgradient
    choices there are compared too."""
    def make(rng, dt):
        x = (rng.standard_normal(shape) * scale).astype(dt)
        flat = x.reshape(-1)
        flat[:len(kinks)] = np.asarray(kinks, dtype=dt)
        return [x]
    return make


def one(make):
    return lambda rng, dt: [make(rng, dt)]


def unary(name, ac_f, t_f, kinks=(0.0,), shape=(4, 7), **kw):
    return Case(name, ac_f, t_f, with_kinks(shape, kinks), **kw)


ACTIVATIONS = [
    unary("relu", F.relu, TF.relu),
    unary("relu6", F.relu6, TF.relu6, kinks=(0.0, 6.0, 3.0)),
    unary("leaky_relu", lambda x: F.leaky_relu(x, 0.2), lambda x: TF.leaky_relu(x, 0.2)),
    unary("elu", lambda x: F.elu(x, 0.7), lambda x: TF.elu(x, 0.7)),
    unary("selu", F.selu, TF.selu),
    # torch's celu backward uses 1 / float(alpha) (derivatives.yaml: alpha.toFloat()).
    unary("celu", lambda x: F.celu(x, 1.3), lambda x: TF.celu(x, 1.3),
          tol={"float64": (1e-6, 1e-9)}),
    unary("gelu", F.gelu, TF.gelu),
    unary("gelu_tanh", lambda x: F.gelu(x, approximate="tanh"),
          lambda x: TF.gelu(x, approximate="tanh")),
    unary("silu", F.silu, TF.silu),
    unary("mish", F.mish, TF.mish),
    unary("softplus", F.softplus, TF.softplus, kinks=(0.0, 20.0, 25.0, -30.0)),
    unary("softplus_beta", lambda x: F.softplus(x, beta=2.0, threshold=3.0),
          lambda x: TF.softplus(x, beta=2.0, threshold=3.0), kinks=(1.5, 2.0)),
    unary("sigmoid", F.sigmoid, TF.sigmoid),
    unary("tanh", F.tanh, TF.tanh),
    unary("hardtanh", lambda x: F.hardtanh(x, -2.0, 1.5),
          lambda x: TF.hardtanh(x, -2.0, 1.5), kinks=(-2.0, 1.5)),
    unary("hardswish", F.hardswish, TF.hardswish, kinks=(-3.0, 3.0, 0.0)),
    # torch's float64 hardsigmoid backward multiplies by the float constant 1.0f / 6.0f.
    unary("hardsigmoid", F.hardsigmoid, TF.hardsigmoid, kinks=(-3.0, 3.0),
          tol={"float64": (1e-7, 1e-9)}),
    unary("logsigmoid", F.logsigmoid, TF.logsigmoid, kinks=(0.0, -40.0, 40.0)),
    unary("tanhshrink", F.tanhshrink, TF.tanhshrink),
    unary("softsign", F.softsign, TF.softsign),
    unary("threshold", lambda x: F.threshold(x, 0.5, -2.0),
          lambda x: TF.threshold(x, 0.5, -2.0), kinks=(0.5,)),
    unary("hardshrink", F.hardshrink, TF.hardshrink, kinks=(0.5, -0.5)),
    unary("softshrink", F.softshrink, TF.softshrink, kinks=(0.5, -0.5)),
    Case("glu", lambda x: F.glu(x, 1), lambda x: TF.glu(x, 1), one(normal(3, 8))),
    Case("prelu_channels", F.prelu, TF.prelu,
         lambda rng, dt: [normal(4, 3, 5)(rng, dt), (rng.random(3) * 0.5).astype(dt)]),
    Case("prelu_single", F.prelu, TF.prelu,
         lambda rng, dt: [normal(4, 3)(rng, dt), np.asarray([0.25], dtype=dt)]),
    Case("prelu_1d", F.prelu, TF.prelu,
         lambda rng, dt: [normal(3)(rng, dt), np.asarray([0.3], dtype=dt)]),
]

SOFTMAXES = []
for _name in ("softmax", "log_softmax", "softmin"):
    for _dim, _shape in ((1, (4, 6)), (-1, (2, 3, 5)), (0, (5,)), (2, (2, 3, 4, 2))):
        SOFTMAXES.append(Case(f"{_name}_dim{_dim}_{len(_shape)}d",
                              (lambda n, d: lambda x: getattr(F, n)(x, dim=d))(_name, _dim),
                              (lambda n, d: lambda x: getattr(TF, n)(x, dim=d))(_name, _dim),
                              one(normal(*_shape, scale=4.0))))
SOFTMAXES.append(Case("log_softmax_large", lambda x: F.log_softmax(x, 1),
                      lambda x: TF.log_softmax(x, 1),
                      lambda rng, dt: [np.asarray([[1000.0, 0.0, -1000.0], [-5.0, 1e4, 3.0]],
                                                  dtype=dt)]))


def linear_make(batch_shape, fin, fout, bias=True):
    def make(rng, dt):
        out = [rng.standard_normal(batch_shape + (fin,)).astype(dt),
               rng.standard_normal((fout, fin)).astype(dt)]
        if bias:
            out.append(rng.standard_normal((fout,)).astype(dt))
        return out
    return make


LINEAR = [
    Case("linear", F.linear, TF.linear, linear_make((5,), 4, 3)),
    Case("linear_nobias", F.linear, TF.linear, linear_make((2, 5), 4, 3, bias=False)),
    Case("linear_unbatched", F.linear, TF.linear, linear_make((), 4, 3)),
    Case("linear_batch1", F.linear, TF.linear, linear_make((1,), 4, 3)),
    Case("bilinear", F.bilinear, TF.bilinear,
         lambda rng, dt: [normal(5, 3)(rng, dt), normal(5, 4)(rng, dt), normal(2, 3, 4)(rng, dt),
                          normal(2)(rng, dt)]),
    Case("bilinear_nobias", F.bilinear, TF.bilinear,
         lambda rng, dt: [normal(2, 5, 3)(rng, dt), normal(2, 5, 4)(rng, dt),
                          normal(2, 3, 4)(rng, dt)]),
]


def _bn_make(shape, affine=True):
    def make(rng, dt):
        c = shape[1]
        out = [rng.standard_normal(shape).astype(dt) * 2 + 1]
        if affine:
            out += [rng.standard_normal(c).astype(dt), rng.standard_normal(c).astype(dt)]
        return out
    return make


def _eval_bn_make(shape):
    def make(rng, dt):
        c = shape[1]
        return [rng.standard_normal(shape).astype(dt), rng.standard_normal(c).astype(dt),
                (rng.random(c) + 0.5).astype(dt), rng.standard_normal(c).astype(dt),
                rng.standard_normal(c).astype(dt)]
    return make


NORMS = [
    Case("batch_norm_train_2d", lambda x, w, b: F.batch_norm(x, None, None, w, b, True),
         lambda x, w, b: TF.batch_norm(x, None, None, w, b, True), _bn_make((6, 3)),
         vmap=False),
    Case("batch_norm_train_4d", lambda x, w, b: F.batch_norm(x, None, None, w, b, True, eps=1e-3),
         lambda x, w, b: TF.batch_norm(x, None, None, w, b, True, eps=1e-3),
         _bn_make((2, 3, 4, 5)), vmap=False),
    Case("batch_norm_eval", lambda x, rm, rv, w, b: F.batch_norm(x, rm, rv, w, b, False),
         lambda x, rm, rv, w, b: TF.batch_norm(x, rm, rv, w, b, False),
         _eval_bn_make((4, 3, 5)), diff=(0, 3, 4), vmap_dims=(0, None, None, None, None)),
    Case("layer_norm", lambda x, w, b: F.layer_norm(x, (4, 5), w, b),
         lambda x, w, b: TF.layer_norm(x, (4, 5), w, b),
         lambda rng, dt: [normal(3, 4, 5, scale=3)(rng, dt), normal(4, 5)(rng, dt),
                          normal(4, 5)(rng, dt)]),
    Case("layer_norm_noaffine", lambda x: F.layer_norm(x, 6, eps=1e-2),
         lambda x: TF.layer_norm(x, (6,), eps=1e-2), one(normal(2, 3, 6))),
    Case("layer_norm_1d", lambda x, w: F.layer_norm(x, (6,), w),
         lambda x, w: TF.layer_norm(x, (6,), w),
         lambda rng, dt: [normal(6)(rng, dt), normal(6)(rng, dt)]),
    Case("group_norm", lambda x, w, b: F.group_norm(x, 2, w, b),
         lambda x, w, b: TF.group_norm(x, 2, w, b), _bn_make((3, 4, 5))),
    Case("group_norm_4d", lambda x: F.group_norm(x, 3, eps=1e-3),
         lambda x: TF.group_norm(x, 3, eps=1e-3), _bn_make((2, 6, 3, 2), affine=False)),
    Case("rms_norm", lambda x, w: F.rms_norm(x, (5,), w), lambda x, w: TF.rms_norm(x, (5,), w),
         lambda rng, dt: [normal(3, 5)(rng, dt), normal(5)(rng, dt)]),
    Case("rms_norm_eps", lambda x: F.rms_norm(x, (2, 5), eps=1e-3),
         lambda x: TF.rms_norm(x, (2, 5), eps=1e-3), one(normal(3, 2, 5))),
    Case("instance_norm", lambda x, w, b: F.instance_norm(x, weight=w, bias=b),
         lambda x, w, b: TF.instance_norm(x, weight=w, bias=b), _bn_make((2, 3, 4, 5))),
    Case("instance_norm_eval",
         lambda x, rm, rv: F.instance_norm(x, rm, rv, use_input_stats=False),
         lambda x, rm, rv: TF.instance_norm(x, rm, rv, use_input_stats=False),
         lambda rng, dt: _eval_bn_make((2, 3, 4))(rng, dt)[:3], diff=(0,),
         vmap_dims=(0, None, None)),
]


def _emb_make(idx_shape, n=7, d=3):
    def make(rng, dt):
        return [rng.integers(0, n, size=idx_shape), rng.standard_normal((n, d)).astype(dt)]
    return make


LOOKUPS = [
    Case("embedding", F.embedding, TF.embedding, _emb_make((4, 5))),
    Case("embedding_1d", F.embedding, TF.embedding, _emb_make((6,))),
    Case("embedding_padding", lambda i, w: F.embedding(i, w, padding_idx=2),
         lambda i, w: TF.embedding(i, w, padding_idx=2),
         lambda rng, dt: [np.asarray([[2, 1, 2], [0, 2, 1]]), normal(4, 3)(rng, dt)],
         jvp_is_adjoint=False),
    Case("embedding_scale_grad", lambda i, w: F.embedding(i, w, scale_grad_by_freq=True),
         lambda i, w: TF.embedding(i, w, scale_grad_by_freq=True),
         lambda rng, dt: [np.asarray([[3, 1, 3], [3, 0, 1]]), normal(4, 3)(rng, dt)],
         jvp_is_adjoint=False),
]

PADS = []
for _mode, _shape, _pad in (("constant", (2, 3, 4), (1, 2)),
                            ("constant", (2, 3, 4), (1, -1, 2, 0, 0, 1)),
                            ("constant", (3,), (2, 1)),
                            ("reflect", (2, 3, 5), (2, 1)),
                            ("reflect", (2, 5), (-1, 3)),
                            ("reflect", (1, 2, 4, 5), (1, 2, 3, 0)),
                            ("replicate", (2, 3, 4), (3, 1)),
                            ("replicate", (2, 3, 4, 2), (1, 2, 2, 1)),
                            ("replicate", (1, 2, 2, 3, 2), (1, 1, 0, 2, 1, 0)),
                            ("circular", (2, 3, 4), (2, 1)),
                            ("circular", (1, 2, 3, 4), (-1, 2, 1, 3)),
                            ("circular", (2, 2, 3, 4), (1, 2, 2, 1))):
    PADS.append(Case(f"pad_{_mode}_{len(_shape)}d_{len(_pad)}",
                     (lambda p, m: lambda x: F.pad(x, p, mode=m))(_pad, _mode),
                     (lambda p, m: lambda x: TF.pad(x, p, mode=m))(_pad, _mode),
                     one(normal(*_shape))))
PADS.append(Case("pad_constant_value", lambda x: F.pad(x, (1, 1, 1, 1), value=2.5),
                 lambda x: TF.pad(x, (1, 1, 1, 1), value=2.5), one(normal(2, 3))))

INTERP = []
for _mode, _shape, _kw in (("nearest", (2, 3, 5), dict(size=8)),
                           ("nearest", (2, 3, 5), dict(scale_factor=0.6)),
                           ("nearest", (1, 2, 3, 4), dict(scale_factor=2)),
                           ("nearest", (1, 2, 3, 4), dict(size=(5, 7))),
                           ("nearest-exact", (1, 2, 3, 4), dict(size=(5, 3))),
                           ("linear", (2, 3, 5), dict(size=9)),
                           ("linear", (2, 3, 5), dict(size=9, align_corners=True)),
                           ("linear", (2, 3, 6), dict(scale_factor=0.5)),
                           ("bilinear", (1, 2, 3, 4), dict(size=(5, 7))),
                           ("bilinear", (1, 2, 3, 4), dict(size=(5, 7), align_corners=True)),
                           ("bilinear", (2, 1, 5, 4), dict(scale_factor=(1.5, 0.75))),
                           ("bilinear", (2, 1, 4, 4), dict(scale_factor=2.5,
                                                           recompute_scale_factor=True)),
                           ("trilinear", (1, 1, 2, 3, 2), dict(size=(3, 4, 5)))):
    INTERP.append(Case(f"interpolate_{_mode}_{len(_shape)}d_{'_'.join(map(str, _kw))}",
                       (lambda m, k: lambda x: F.interpolate(x, mode=m, **k))(_mode, _kw),
                       (lambda m, k: lambda x: TF.interpolate(x, mode=m, **k))(_mode, _kw),
                       one(normal(*_shape))))

ALL = ACTIVATIONS + SOFTMAXES + LINEAR + NORMS + LOOKUPS + PADS + INTERP


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", ALL, ids=str)
def test_forward_backward(case, dtype):
    check_forward_backward(case, dtype)


def _lean(case):
    """The default run transforms one variant of the softmax family and of each pad /
    interpolate mode; --runslow all of them."""
    slow = (case in SOFTMAXES and "dim1_2d" not in case.name) or \
        (case in PADS + INTERP and case is not _first_of_kind(case))
    return pytest.param(case, marks=pytest.mark.slow) if slow else case


def _first_of_kind(case):
    kind = case.name.split("_")[1]
    return next(c for c in PADS + INTERP if c.name.split("_")[1] == kind)


@pytest.mark.parametrize("case", [_lean(c) for c in ALL if c.transforms], ids=str)
def test_transforms(case):
    check_transforms(case)


def test_relu_propagates_nan_and_has_torchs_subgradient():
    """relu(NaN) is NaN and relu'(0) = 0, relu'(NaN) = 1, as torch's clamp_min and
    threshold_backward give."""
    import torch

    import arraycore as ac
    x = np.array([np.nan, 0.0, -1.0, 2.0, -0.0])
    xa = ac.asarray(x)
    xa.requires_grad_(True)
    y = F.relu(xa)
    ac.sum(y).backward()
    xt = torch.from_numpy(x).requires_grad_(True)
    yt = torch.relu(xt)
    yt.sum().backward()
    np.testing.assert_array_equal(np.asarray(y.detach()), yt.detach().numpy())
    np.testing.assert_array_equal(np.asarray(xa.grad), xt.grad.numpy())
