"""nn.functional losses against PyTorch 2.13 (values, tape gradients in float32/float64,
every reduction and option), and each case under ac.func.grad / jvp / vmap
(tests/nn_case_harness.py)."""

from __future__ import annotations

import numpy as np
import pytest
import torch.nn.functional as TF

import arraycore.nn.functional as F
from nn_case_harness import Case, check_forward_backward, check_transforms

REDUCTIONS = ("none", "mean", "sum")


def _pair(shape):
    return lambda rng, dt: [rng.standard_normal(shape).astype(dt),
                            rng.standard_normal(shape).astype(dt)]


def _logits_idx(n, c, extra=(), ignore=None, weight=False):
    def make(rng, dt):
        x = (rng.standard_normal((n, c) + extra) * 2).astype(dt)
        t = rng.integers(0, c, size=(n,) + extra)
        if ignore is not None:
            t.reshape(-1)[::3] = ignore
        out = [x, t]
        if weight:
            out.append((rng.random(c) + 0.2).astype(dt))
        return out
    return make


def _logits_probs(shape, cls_axis=1, weight=False):
    def make(rng, dt):
        x = (rng.standard_normal(shape) * 2).astype(dt)
        p = rng.random(shape)
        p = (p / p.sum(axis=cls_axis, keepdims=True)).astype(dt)
        out = [x, p]
        if weight:
            out.append((rng.random(shape[cls_axis]) + 0.2).astype(dt))
        return out
    return make


def _probs_target(shape, weight=False):
    def make(rng, dt):
        out = [rng.uniform(0.02, 0.98, shape).astype(dt), rng.random(shape).astype(dt)]
        if weight:
            out.append(rng.random(shape).astype(dt))
        return out
    return make


def _rw(name, fa, ft, make, **kw):
    """One case per reduction."""
    return [Case(f"{name}_{r}", (lambda r: lambda *a: fa(*a, r))(r),
                 (lambda r: lambda *a: ft(*a, r))(r), make, **kw) for r in REDUCTIONS]


CASES = []
CASES += _rw("mse", lambda x, y, r: F.mse_loss(x, y, reduction=r),
             lambda x, y, r: TF.mse_loss(x, y, reduction=r), _pair((4, 5)))
CASES += _rw("mse_weight", lambda x, y, w, r: F.mse_loss(x, y, reduction=r, weight=w),
             lambda x, y, w, r: TF.mse_loss(x, y, reduction=r, weight=w),
             lambda rng, dt: _pair((3, 4))(rng, dt) + [rng.random((3, 4)).astype(dt)])
CASES += _rw("l1", lambda x, y, r: F.l1_loss(x, y, reduction=r),
             lambda x, y, r: TF.l1_loss(x, y, reduction=r), _pair((4, 5)))
CASES += _rw("smooth_l1", lambda x, y, r: F.smooth_l1_loss(x, y, reduction=r, beta=0.7),
             lambda x, y, r: TF.smooth_l1_loss(x, y, reduction=r, beta=0.7), _pair((4, 5)))
CASES += _rw("huber", lambda x, y, r: F.huber_loss(x, y, reduction=r, delta=0.8),
             lambda x, y, r: TF.huber_loss(x, y, reduction=r, delta=0.8), _pair((4, 5)))
CASES.append(Case("smooth_l1_beta0", lambda x, y: F.smooth_l1_loss(x, y, beta=0.0),
                  lambda x, y: TF.smooth_l1_loss(x, y, beta=0.0), _pair((6,))))
CASES.append(Case("huber_weight", lambda x, y, w: F.huber_loss(x, y, weight=w),
                  lambda x, y, w: TF.huber_loss(x, y, weight=w),
                  lambda rng, dt: _pair((3, 4))(rng, dt) + [rng.random((3, 4)).astype(dt)]))
CASES.append(Case("mse_broadcast", F.mse_loss, TF.mse_loss,
                  lambda rng, dt: [rng.standard_normal((3, 4)).astype(dt),
                                   rng.standard_normal((4,)).astype(dt)]))
CASES += _rw("cross_entropy", lambda x, t, r: F.cross_entropy(x, t, reduction=r),
             lambda x, t, r: TF.cross_entropy(x, t, reduction=r), _logits_idx(5, 4))
CASES += _rw("cross_entropy_all_options",
             lambda x, t, w, r: F.cross_entropy(x, t, w, ignore_index=1, reduction=r,
                                                label_smoothing=0.2),
             lambda x, t, w, r: TF.cross_entropy(x, t, w, ignore_index=1, reduction=r,
                                                 label_smoothing=0.2),
             _logits_idx(6, 4, ignore=1, weight=True), diff=(0,))
CASES += _rw("cross_entropy_kdim",
             lambda x, t, r: F.cross_entropy(x, t, reduction=r, ignore_index=0,
                                             label_smoothing=0.1),
             lambda x, t, r: TF.cross_entropy(x, t, reduction=r, ignore_index=0,
                                              label_smoothing=0.1),
             _logits_idx(2, 3, extra=(4, 2)))
CASES += _rw("cross_entropy_probs", lambda x, p, w, r: F.cross_entropy(
                 x, p, w, reduction=r, label_smoothing=0.3),
             lambda x, p, w, r: TF.cross_entropy(x, p, w, reduction=r, label_smoothing=0.3),
             _logits_probs((5, 4), weight=True))
CASES.append(Case("cross_entropy_probs_kdim", F.cross_entropy, TF.cross_entropy,
                  _logits_probs((2, 3, 4))))
CASES.append(Case("cross_entropy_unbatched", F.cross_entropy, TF.cross_entropy,
                  lambda rng, dt: [rng.standard_normal(5).astype(dt), np.asarray(2)]))
CASES.append(Case("cross_entropy_batch1", F.cross_entropy, TF.cross_entropy,
                  _logits_idx(1, 3)))
CASES += _rw("nll", lambda x, t, w, r: F.nll_loss(x, t, w, ignore_index=2, reduction=r),
             lambda x, t, w, r: TF.nll_loss(x, t, w, ignore_index=2, reduction=r),
             _logits_idx(6, 4, ignore=2, weight=True), diff=(0,))
CASES.append(Case("nll_kdim", F.nll_loss, TF.nll_loss, _logits_idx(2, 3, extra=(2, 3))))
CASES += _rw("bce", lambda x, y, w, r: F.binary_cross_entropy(x, y, w, reduction=r),
             lambda x, y, w, r: TF.binary_cross_entropy(x, y, w, reduction=r),
             _probs_target((4, 3), weight=True), diff=(0, 1))
CASES.append(Case("bce_edges", F.binary_cross_entropy, TF.binary_cross_entropy,
                  lambda rng, dt: [np.asarray([0.0, 1.0, 0.5, 1e-30], dtype=dt),
                                   np.asarray([0.0, 1.0, 0.25, 0.0], dtype=dt)], grad=False))


def _bcel_make(rng, dt):
    x = (rng.standard_normal((4, 3)) * 5).astype(dt)
    x[0, :] = [0.0, 60.0, -60.0]
    return [x, rng.random((4, 3)).astype(dt), rng.random((4, 3)).astype(dt),
            (rng.random(3) * 3).astype(dt)]


CASES += _rw("bce_logits", lambda x, y, w, pw, r: F.binary_cross_entropy_with_logits(
                 x, y, w, reduction=r, pos_weight=pw),
             lambda x, y, w, pw, r: TF.binary_cross_entropy_with_logits(
                 x, y, w, reduction=r, pos_weight=pw), _bcel_make, diff=(0, 1))
CASES.append(Case("bce_logits_plain", F.binary_cross_entropy_with_logits,
                  TF.binary_cross_entropy_with_logits, lambda rng, dt: _bcel_make(rng, dt)[:2]))


def _kl_make(log_target):
    def make(rng, dt):
        x = np.log(rng.dirichlet(np.ones(4), size=3)).astype(dt)
        t = rng.dirichlet(np.ones(4), size=3)
        t[0, 1] = 0.0
        t = np.log(t) if log_target else t
        return [x, t.astype(dt)]
    return make


for _r in REDUCTIONS + ("batchmean",):
    CASES.append(Case(f"kl_div_{_r}", (lambda r: lambda x, t: F.kl_div(x, t, reduction=r))(_r),
                      (lambda r: lambda x, t: TF.kl_div(x, t, reduction=r))(_r),
                      _kl_make(False)))
    CASES.append(Case(f"kl_div_log_target_{_r}",
                      (lambda r: lambda x, t: F.kl_div(x, t, reduction=r, log_target=True))(_r),
                      (lambda r: lambda x, t: TF.kl_div(x, t, reduction=r,
                                                        log_target=True))(_r),
                      lambda rng, dt: [v.astype(dt) for v in (
                          np.log(rng.dirichlet(np.ones(4), size=3)),
                          np.log(rng.dirichlet(np.ones(4), size=3)))]))


def _cos_make(rng, dt):
    return [rng.standard_normal((6, 4)).astype(dt), rng.standard_normal((6, 4)).astype(dt),
            np.asarray([1, -1, 1, -1, -1, 1])]


CASES += _rw("cosine_embedding", lambda a, b, y, r: F.cosine_embedding_loss(
                 a, b, y, margin=-0.2, reduction=r),
             lambda a, b, y, r: TF.cosine_embedding_loss(a, b, y, margin=-0.2, reduction=r),
             _cos_make)
CASES.append(Case("cosine_embedding_unbatched", F.cosine_embedding_loss,
                  TF.cosine_embedding_loss,
                  lambda rng, dt: [rng.standard_normal(4).astype(dt),
                                   rng.standard_normal(4).astype(dt), np.asarray(-1)],
                  vmap_dims=(0, 0, None)))
CASES += _rw("margin_ranking", lambda a, b, y, r: F.margin_ranking_loss(
                 a, b, y, margin=0.3, reduction=r),
             lambda a, b, y, r: TF.margin_ranking_loss(a, b, y, margin=0.3, reduction=r),
             lambda rng, dt: [rng.standard_normal(7).astype(dt),
                              rng.standard_normal(7).astype(dt),
                              np.sign(rng.standard_normal(7)).astype(dt)], diff=(0, 1))
CASES += _rw("triplet", lambda a, p, n, r: F.triplet_margin_loss(a, p, n, reduction=r),
             lambda a, p, n, r: TF.triplet_margin_loss(a, p, n, reduction=r),
             lambda rng, dt: [rng.standard_normal((5, 3)).astype(dt) for _ in range(3)])
CASES.append(Case("triplet_swap_p1",
                  lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=2.0, p=1, swap=True),
                  lambda a, p, n: TF.triplet_margin_loss(a, p, n, margin=2.0, p=1, swap=True),
                  lambda rng, dt: [rng.standard_normal((5, 3)).astype(dt) for _ in range(3)]))
CASES.append(Case("soft_margin", F.soft_margin_loss, TF.soft_margin_loss,
                  lambda rng, dt: [rng.standard_normal(6).astype(dt),
                                   np.sign(rng.standard_normal(6)).astype(dt)], diff=(0,)))
CASES.append(Case("hinge_embedding", F.hinge_embedding_loss, TF.hinge_embedding_loss,
                  lambda rng, dt: [rng.standard_normal(6).astype(dt),
                                   np.sign(rng.standard_normal(6)).astype(dt)], diff=(0,)))
CASES.append(Case("poisson_nll", lambda x, t: F.poisson_nll_loss(x, t, full=True),
                  lambda x, t: TF.poisson_nll_loss(x, t, full=True),
                  lambda rng, dt: [rng.standard_normal(6).astype(dt),
                                   rng.integers(0, 5, 6).astype(dt)], diff=(0,)))
CASES.append(Case("gaussian_nll", lambda x, t, v: F.gaussian_nll_loss(x, t, v, full=True),
                  lambda x, t, v: TF.gaussian_nll_loss(x, t, v, full=True),
                  lambda rng, dt: [rng.standard_normal((4, 2)).astype(dt),
                                   rng.standard_normal((4, 2)).astype(dt),
                                   np.abs(rng.standard_normal((4, 2))).astype(dt) + 0.1]))
CASES.append(Case("cosine_similarity", F.cosine_similarity, TF.cosine_similarity,
                  _pair((3, 5))))
CASES.append(Case("pairwise_distance", F.pairwise_distance, TF.pairwise_distance,
                  _pair((3, 5))))


def _fb_params():
    """Every case in float64; in float32 one reduction per loss by default (all of them with
    --runslow)."""
    out = []
    for c in CASES:
        out.append(pytest.param(c, "float64", id=f"{c}-float64"))
        marks = (pytest.mark.slow,) if c.name.endswith(("_none", "_sum")) else ()
        out.append(pytest.param(c, "float32", id=f"{c}-float32", marks=marks))
    return out


@pytest.mark.parametrize("case,dtype", _fb_params())
def test_forward_backward(case, dtype):
    check_forward_backward(case, dtype)


def _lean(case):
    """The default run transforms one reduction of each loss; --runslow all of them."""
    slow = case.name.endswith(("_none", "_sum"))
    return pytest.param(case, marks=pytest.mark.slow) if slow else case


@pytest.mark.parametrize("case", [_lean(c) for c in CASES if c.transforms], ids=str)
def test_transforms(case):
    check_transforms(case)
