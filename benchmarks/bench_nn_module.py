"""Module-system benchmarks (ac.nn's Module, functional_call, per_sample_grads) vs PyTorch.

    python benchmarks/bench_nn_module.py --threads 1 --libs arraycore,torch
    python benchmarks/bench_nn_module.py --threads 1 --libs arraycore,torch --quick

Cases, on the same model in both libraries (8 Linear(32) modules in a Sequential, each
`x @ w.mT + b`, so that only the module system and the tape are measured, not a layer's
kernel): forward + backward with `zero_grad`, batch 16; `named_parameters()`;
`state_dict()`; `load_state_dict` of that state; per-example gradients of an MLP 64-128-10
(batch 64) with `ac.nn.utils.per_sample_grads` vs `torch.vmap(torch.func.grad(...))` of
`torch.func.functional_call`.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _linear_class(lib, mod):
    nn = mod.nn

    class Lin(nn.Module):
        def __init__(self, i, o, seed):
            super().__init__()
            r = np.random.default_rng(seed)
            w = (r.standard_normal((o, i)) / np.sqrt(i)).astype(np.float32)
            b = np.zeros(o, dtype=np.float32)
            conv = mod.asarray if lib == "arraycore" else mod.from_numpy
            self.weight = nn.Parameter(conv(w))
            self.bias = nn.Parameter(conv(b))

        def forward(self, x):
            return x @ self.weight.mT + self.bias

    return Lin


def _seq(lib, mod):
    Lin = _linear_class(lib, mod)
    return mod.nn.Sequential(*[Lin(32, 32, s) for s in range(8)])


def _ones(lib, mod, shape):
    if lib == "arraycore":
        return mod.ones(shape, dtype=mod.float32)
    return mod.ones(*shape, dtype=mod.float32)


def module_cases():
    def fwd_bwd(lib):
        def setup(mod):
            m = _seq(lib, mod)
            x = _ones(lib, mod, (16, 32))
            total = mod.sum if lib == "arraycore" else (lambda t: t.sum())

            def step():
                m.zero_grad()
                total(m(x)).backward()
            return step
        return setup

    def named(lib):
        def setup(mod):
            m = _seq(lib, mod)
            return lambda: list(m.named_parameters())
        return setup

    def sdict(lib):
        def setup(mod):
            m = _seq(lib, mod)
            return lambda: m.state_dict()
        return setup

    def load(lib):
        def setup(mod):
            m = _seq(lib, mod)
            sd = {k: v.clone() if lib == "torch" else mod.asarray(v, copy=True)
                  for k, v in m.state_dict().items()}
            return lambda: m.load_state_dict(sd)
        return setup

    libs = ("arraycore", "torch")
    return [
        Case("Sequential(8 x Linear(32)) fwd+bwd, batch 16", {k: fwd_bwd(k) for k in libs},
             fast=True),
        Case("named_parameters() of it", {k: named(k) for k in libs}, fast=True),
        Case("state_dict() of it", {k: sdict(k) for k in libs}, fast=True),
        Case("load_state_dict() of it", {k: load(k) for k in libs}, fast=True),
    ]


def per_sample_cases():
    x = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    y = np.random.default_rng(1).integers(0, 10, 64)

    def ac_setup(ac):
        Lin = _linear_class("arraycore", ac)

        class MLP(ac.nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = Lin(64, 128, 0), Lin(128, 10, 1)

            def forward(self, v):
                return self.b(ac.tanh(self.a(v)))

        def xent(logits, t):
            lse = ac.special.logsumexp(logits, axis=-1)
            return ac.mean(lse - ac.take_along_axis(logits, t[:, None], axis=-1)[:, 0])

        m, X, Y = MLP(), ac.asarray(x), ac.asarray(y)
        return lambda: ac.nn.utils.per_sample_grads(m, xent, X, Y)

    def torch_setup(torch):
        import torch.func as tf
        Lin = _linear_class("torch", torch)

        class MLP(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = Lin(64, 128, 0), Lin(128, 10, 1)

            def forward(self, v):
                return self.b(torch.tanh(self.a(v)))

        m = MLP()
        params = {k: v.detach() for k, v in m.named_parameters()}

        def loss(p, xi, yi):
            out = tf.functional_call(m, p, (xi[None],))
            return torch.nn.functional.cross_entropy(out, yi[None])

        g = torch.vmap(tf.grad(loss), in_dims=(None, 0, 0))
        X, Y = torch.from_numpy(x), torch.from_numpy(y)
        return lambda: g(params, X, Y)

    return [Case("per-sample grads, MLP 64-128-10, batch 64",
                 {"arraycore": ac_setup, "torch": torch_setup})]


def build_cases(quick=False):
    return module_cases() + per_sample_cases()


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__))
