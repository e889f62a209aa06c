"""Optimizer step benchmarks (issue 10's target), arraycore vs PyTorch.

    python benchmarks/bench_optim.py --threads 1 --libs arraycore,torch          # the target
    python benchmarks/bench_optim.py --threads 1 --libs arraycore,torch --quick  # smoke test

Cases: one `step()` of Adam, AdamW (weight decay 0.01) and SGD (momentum 0.9) over 10M
float32 parameters in 100 tensors (gradients set once; the step does not clear them), against
PyTorch's foreach implementation (`foreach=True`: the issue's target), and Adam against
PyTorch's single-tensor loop (its CPU default) and its fused CPU kernel (`fused=True`); Adam
over 100 tensors of 1000 elements (per-call overhead).  arraycore's step is one native
multi-tensor call per group (kernels/optim_*.cpp).  Samples interleave the libraries; the
report's "arraycore / other" block gives the ratios of medians.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _shapes(total, count):
    # 100 tensors of unequal sizes (as in a real model) summing to `total`.
    rng = np.random.default_rng(0)
    w = rng.uniform(0.2, 1.8, size=count)
    sizes = np.maximum(1, (w / w.sum() * total).astype(np.int64))
    sizes[-1] += total - sizes.sum()
    return [int(s) for s in sizes]


def _case(name, opt, kw, sizes, torch_kw, bytes_per_elem):
    rng = np.random.default_rng(1)
    vals = [rng.normal(size=n).astype(np.float32) for n in sizes]
    grads = [(rng.normal(size=n) * 0.01).astype(np.float32) for n in sizes]

    def ac_setup(ac):
        ps = [ac.asarray(v.copy()) for v in vals]
        for p, g in zip(ps, grads):
            p.requires_grad_()
            p.grad = ac.asarray(g.copy())
        o = getattr(ac.optim, opt)(ps, **kw)
        return o.step

    def torch_setup(torch):
        ps = [torch.from_numpy(v.copy()).requires_grad_() for v in vals]
        for p, g in zip(ps, grads):
            p.grad = torch.from_numpy(g.copy())
        o = getattr(torch.optim, opt)(ps, **kw, **torch_kw)
        return o.step

    total = sum(sizes)
    return Case(name, {"arraycore": ac_setup, "torch": torch_setup},
                bytes_moved=bytes_per_elem * total, fast=total < 1_000_000)


def build_cases(quick: bool = False):
    total = 1_000_000 if quick else 10_000_000
    big = _shapes(total, 100)
    small = [1000] * 100
    m = "10M" if not quick else "1M"
    # Logical bytes per element: Adam reads p, g, m, v and writes p, m, v (float32).
    return [
        _case(f"Adam {m} f32 / 100 tensors (torch foreach)", "Adam", dict(lr=1e-3), big,
              dict(foreach=True), 28),
        _case(f"AdamW {m} f32 / 100 tensors (torch foreach)", "AdamW",
              dict(lr=1e-3, weight_decay=0.01), big, dict(foreach=True), 28),
        _case(f"SGD momentum {m} f32 / 100 (torch foreach)", "SGD",
              dict(lr=1e-3, momentum=0.9), big, dict(foreach=True), 20),
        _case(f"Adam {m} f32 / 100 tensors (torch for-loop)", "Adam", dict(lr=1e-3), big,
              dict(foreach=False), 28),
        _case(f"Adam {m} f32 / 100 tensors (torch fused)", "Adam", dict(lr=1e-3), big,
              dict(fused=True), 28),
        _case("Adam 100 x 1000 f32 (torch foreach)", "Adam", dict(lr=1e-3), small,
              dict(foreach=True), 28),
    ]


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__))
