"""nn.functional hot spots, forward + backward on the tape, arraycore vs PyTorch (float32).

    python benchmarks/bench_nn_layers.py --threads 1 --libs arraycore,torch

Cases: cross_entropy (128 x 10 as in the digits demo, and 1024 x 1000), layer_norm
(2048 x 256 with weight and bias), gelu (exact and tanh, 2^20 elements), batch_norm in
training mode (32 x 64 x 16 x 16), linear + relu (128 x 784 -> 512).  Each sample runs the
forward pass, a backward from the summed output and clears the gradients.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _fwd_bwd(make_inputs, ac_fn, torch_fn, fast=False, name=""):
    def ac_setup(ac):
        import arraycore.nn.functional as F
        arrays = [ac.asarray(a) for a in make_inputs()]
        for a in arrays:
            if a.dtype == ac.float32:
                a.requires_grad_()

        def run():
            out = ac_fn(F, *arrays)
            ac.sum(out).backward()
            for a in arrays:
                a.grad = None
        return run

    def torch_setup(torch):
        import torch.nn.functional as TF
        ts = [torch.from_numpy(a.copy()) for a in make_inputs()]
        for t in ts:
            if t.dtype == torch.float32:
                t.requires_grad_(True)

        def run():
            out = torch_fn(TF, *ts)
            out.sum().backward()
            for t in ts:
                t.grad = None
        return run

    return Case(name, {"arraycore": ac_setup, "torch": torch_setup}, fast=fast)


def build_cases(quick=False):
    rng = np.random.default_rng(0)
    f32 = np.float32

    def logits(n, c):
        return lambda: [rng.standard_normal((n, c)).astype(f32), rng.integers(0, c, n)]

    return [
        _fwd_bwd(logits(128, 10), lambda F, x, t: F.cross_entropy(x, t),
                 lambda F, x, t: F.cross_entropy(x, t), fast=True,
                 name="cross_entropy 128x10 fwd+bwd"),
        _fwd_bwd(logits(1024, 1000), lambda F, x, t: F.cross_entropy(x, t),
                 lambda F, x, t: F.cross_entropy(x, t), name="cross_entropy 1024x1000 fwd+bwd"),
        _fwd_bwd(lambda: [rng.standard_normal((2048, 256)).astype(f32),
                          rng.standard_normal(256).astype(f32),
                          rng.standard_normal(256).astype(f32)],
                 lambda F, x, w, b: F.layer_norm(x, (256,), w, b),
                 lambda F, x, w, b: F.layer_norm(x, (256,), w, b),
                 name="layer_norm 2048x256 fwd+bwd"),
        _fwd_bwd(lambda: [rng.standard_normal(1 << 20).astype(f32)],
                 lambda F, x: F.gelu(x), lambda F, x: F.gelu(x), name="gelu 2^20 fwd+bwd"),
        _fwd_bwd(lambda: [rng.standard_normal(1 << 20).astype(f32)],
                 lambda F, x: F.gelu(x, approximate="tanh"),
                 lambda F, x: F.gelu(x, approximate="tanh"), name="gelu tanh 2^20 fwd+bwd"),
        _fwd_bwd(lambda: [rng.standard_normal((32, 64, 16, 16)).astype(f32),
                          np.ones(64, f32), np.zeros(64, f32)],
                 lambda F, x, w, b: F.batch_norm(x, None, None, w, b, True),
                 lambda F, x, w, b: F.batch_norm(x, None, None, w, b, True),
                 name="batch_norm train 32x64x16x16 fwd+bwd"),
        _fwd_bwd(lambda: [rng.standard_normal((128, 784)).astype(f32),
                          (rng.standard_normal((512, 784)) * 0.03).astype(f32),
                          np.zeros(512, f32)],
                 lambda F, x, w, b: F.relu(F.linear(x, w, b)),
                 lambda F, x, w, b: F.relu(F.linear(x, w, b)),
                 name="linear+relu 128x784->512 fwd+bwd"),
    ]


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
