"""Reduction benchmarks: sum (full, axis=1, axis=0), max, mean, var, all and cumulative_sum,
arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_reductions.py --threads 1 --libs numpy,arraycore,torch
    python benchmarks/bench_reductions.py --quick    # smoke test
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402

N = 10_000_000
T = 4096


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(N, dtype=np.float32)
    x = rng.standard_normal((T, T), dtype=np.float32)
    a64 = rng.standard_normal(N)
    bools = rng.random(N) < 2.0  # all True: `all` must read everything

    def case(name, data, ac_f, np_f, torch_f, jax_f=None, nbytes=None):
        def s_np(np_):
            return lambda: np_f(np_, data)

        def s_ac(ac):
            A = ac.asarray(data)
            return lambda: ac_f(ac, A)

        def s_torch(torch):
            A = torch.from_numpy(data.copy())
            return lambda: torch_f(torch, A)

        setups = {"numpy": s_np, "arraycore": s_ac, "torch": s_torch}
        if jax_f is not None:
            def s_jax(jnp):
                A = jnp.asarray(data).block_until_ready()
                return lambda: jax_f(jnp, A).block_until_ready()
            setups["jax"] = s_jax
        return Case(name, setups, bytes_moved=nbytes or data.nbytes)

    return [
        case("sum f32 1e7", a, lambda ac, A: ac.sum(A), lambda np_, A: np_.sum(A),
             lambda t, A: t.sum(A), lambda j, A: j.sum(A)),
        case("sum(axis=1) f32 4096^2", x, lambda ac, A: ac.sum(A, axis=1),
             lambda np_, A: np_.sum(A, axis=1), lambda t, A: t.sum(A, dim=1),
             lambda j, A: j.sum(A, axis=1)),
        case("sum(axis=0) f32 4096^2", x, lambda ac, A: ac.sum(A, axis=0),
             lambda np_, A: np_.sum(A, axis=0), lambda t, A: t.sum(A, dim=0),
             lambda j, A: j.sum(A, axis=0)),
        case("sum f64 1e7", a64, lambda ac, A: ac.sum(A), lambda np_, A: np_.sum(A),
             lambda t, A: t.sum(A), lambda j, A: j.sum(A)),
        case("max f32 1e7", a, lambda ac, A: ac.max(A), lambda np_, A: np_.max(A),
             lambda t, A: t.max(A), lambda j, A: j.max(A)),
        case("mean(axis=0) f32 4096^2", x, lambda ac, A: ac.mean(A, axis=0),
             lambda np_, A: np_.mean(A, axis=0), lambda t, A: t.mean(A, dim=0),
             lambda j, A: j.mean(A, axis=0)),
        case("var f32 1e7", a, lambda ac, A: ac.var(A), lambda np_, A: np_.var(A),
             lambda t, A: t.var(A, correction=0), lambda j, A: j.var(A)),
        case("all bool 1e7", bools, lambda ac, A: ac.all(A), lambda np_, A: np_.all(A),
             lambda t, A: t.all(A), lambda j, A: j.all(A)),
        case("cumulative_sum f32 1e7", a, lambda ac, A: ac.cumulative_sum(A),
             lambda np_, A: np_.cumulative_sum(A), lambda t, A: t.cumsum(A, dim=0),
             lambda j, A: j.cumsum(A), nbytes=2 * a.nbytes),
        case("cumulative_sum f64 1e7", a64, lambda ac, A: ac.cumulative_sum(A),
             lambda np_, A: np_.cumulative_sum(A), lambda t, A: t.cumsum(A, dim=0),
             lambda j, A: j.cumsum(A), nbytes=2 * a64.nbytes),
    ]


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
