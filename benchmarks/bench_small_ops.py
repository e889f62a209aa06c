"""Small-array latency: the per-call cost of namespace functions and operators (issue 7's
"NumPy-class latency on small arrays"), arraycore vs NumPy (and PyTorch / JAX if asked).

    python benchmarks/bench_small_ops.py --threads 1 --libs numpy,arraycore
    python benchmarks/bench_small_ops.py --threads 1 --libs numpy,arraycore --quick

The first three cases are bench_autodiff.py's small cases (the targets: `x + y` on 8
float64 at most NumPy's time, the chain of 100 ops on 16 float32 at most NumPy's,
`zeros((8,))` at most 1.5x); the others split the chain into its parts (an array times a
Python scalar, a unary function) and cover the other creation functions (the *_like ones
included), so that a regression shows which path it is on.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from bench_autodiff import small_cases  # noqa: E402
from harness import Case  # noqa: E402

LIBS4 = ("numpy", "arraycore", "torch", "jax")


def _array(lib, m, v):
    if lib == "torch":
        return m.from_numpy(v.copy())
    return m.asarray(v)


def _case(name, body):
    """`body(m, x)` -> zero-argument callable; x is a 16-element float32 array."""
    x16 = np.linspace(-1, 1, 16).astype(np.float32)

    def setup_for(lib):
        def setup(m):
            fn = body(m, _array(lib, m, x16))
            if lib == "jax":
                return lambda: fn().block_until_ready()
            return fn
        return setup

    return Case(name, {k: setup_for(k) for k in LIBS4}, fast=True)


def _creation(name, call):
    def setup_for(lib):
        def setup(m):
            if lib == "jax":
                return lambda: call(m).block_until_ready()
            return lambda: call(m)
        return setup

    return Case(name, {k: setup_for(k) for k in LIBS4}, fast=True)


def build_cases(quick: bool = False):
    return small_cases() + [
        _case("y * 0.9, 16 float32", lambda m, y: lambda: y * 0.9),
        _case("0.1 + y, 16 float32", lambda m, y: lambda: 0.1 + y),
        _case("y * 2 (int scalar), 16 float32", lambda m, y: lambda: y * 2),
        _case("multiply(y, 0.9), 16 float32", lambda m, y: lambda: m.multiply(y, 0.9)),
        _case("add(y, y), 16 float32", lambda m, y: lambda: m.add(y, y)),
        _case("tanh(y), 16 float32", lambda m, y: lambda: m.tanh(y)),
        _case("sin(y), 16 float32", lambda m, y: lambda: m.sin(y)),
        _case("-y, 16 float32", lambda m, y: lambda: -y),
        _creation("ones((8,))", lambda m: m.ones((8,))),
        _creation("empty((8,))", lambda m: m.empty((8,))),
        _creation("full((8,), 2.0)", lambda m: m.full((8,), 2.0)),
        _creation("zeros((4, 4), float32)", lambda m: m.zeros((4, 4), dtype=m.float32)),
        _case("zeros_like(y), 16 float32", lambda m, y: lambda: m.zeros_like(y)),
        _case("full_like(y, 2.0), 16 float32", lambda m, y: lambda: m.full_like(y, 2.0)),
    ]


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
