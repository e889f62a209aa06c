"""Engine benchmarks: elementwise arithmetic, exp, astype, transposed copy and
per-call overhead, arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_engine.py            # full run, 1 and 2 threads
    python benchmarks/bench_engine.py --quick    # smoke test
    python benchmarks/bench_engine.py --json results.json
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402

N = 10_000_000
T = 4096
SMALL = 8


def _data(quick: bool):
    rng = np.random.default_rng(0)
    n = N
    a, b, c = (rng.standard_normal(n, dtype=np.float32) for _ in range(3))
    x = rng.standard_normal((T, T), dtype=np.float32)
    s1 = rng.standard_normal(SMALL)
    s2 = rng.standard_normal(SMALL)
    return a, b, c, x, s1, s2


def build_cases(quick: bool = False):
    a, b, c, x, s1, s2 = _data(quick)
    n = a.size

    # ---- converters: numpy -> library array (done in setup, not timed)
    def ac_arr(ac, v):
        return ac.asarray(v)

    def torch_arr(torch, v):
        return torch.from_numpy(v.copy())

    def jax_arr(jnp, v):
        return jnp.asarray(v).block_until_ready()

    cases = []

    # a*b+c ----------------------------------------------------------------
    def fma_np(np_):
        return lambda: a * b + c

    def fma_ac(ac):
        A, B, C = (ac_arr(ac, v) for v in (a, b, c))
        return lambda: A * B + C

    def fma_torch(torch):
        A, B, C = (torch_arr(torch, v) for v in (a, b, c))
        return lambda: A * B + C

    def fma_jax(jnp):
        A, B, C = (jax_arr(jnp, v) for v in (a, b, c))
        return lambda: (A * B + C).block_until_ready()

    cases.append(Case("a*b+c f32 1e7", {"numpy": fma_np, "arraycore": fma_ac,
                                         "torch": fma_torch, "jax": fma_jax},
                      bytes_moved=4 * 4 * n,
                      note="bytes = 3 inputs read + 1 output written (temporaries not counted)"))

    # exp(a) ---------------------------------------------------------------
    def exp_np(np_):
        return lambda: np.exp(a)

    def exp_ac(ac):
        A = ac_arr(ac, a)
        return lambda: ac.exp(A)

    def exp_torch(torch):
        A = torch_arr(torch, a)
        return lambda: torch.exp(A)

    def exp_jax(jnp):
        A = jax_arr(jnp, a)
        return lambda: jnp.exp(A).block_until_ready()

    cases.append(Case("exp(a) f32 1e7", {"numpy": exp_np, "arraycore": exp_ac,
                                          "torch": exp_torch, "jax": exp_jax},
                      bytes_moved=2 * 4 * n))

    # astype f32 -> f64 ----------------------------------------------------
    def cast_np(np_):
        return lambda: a.astype(np.float64)

    def cast_ac(ac):
        A = ac_arr(ac, a)
        return lambda: ac.astype(A, ac.float64)

    def cast_torch(torch):
        A = torch_arr(torch, a)
        return lambda: A.to(torch.float64)

    def cast_jax(jnp):
        A = jax_arr(jnp, a)
        return lambda: A.astype(jnp.float64).block_until_ready()

    cases.append(Case("astype f32->f64 1e7", {"numpy": cast_np, "arraycore": cast_ac,
                                               "torch": cast_torch, "jax": cast_jax},
                      bytes_moved=(4 + 8) * n))

    # transposed copy 4096x4096 ---------------------------------------------
    def tr_np(np_):
        return lambda: np.ascontiguousarray(x.T)

    def tr_ac(ac):
        X = ac_arr(ac, x)
        # A row-major copy of the transpose (asarray(copy=True) would keep the axis order).
        return lambda: ac.ascontiguousarray(X.T)

    def tr_torch(torch):
        X = torch_arr(torch, x)
        return lambda: X.T.contiguous()

    def tr_jax(jnp):
        X = jax_arr(jnp, x)
        return lambda: jnp.array(X.T, copy=True).block_until_ready()

    cases.append(Case(f"transpose copy f32 {T}x{T}", {"numpy": tr_np, "arraycore": tr_ac,
                                                       "torch": tr_torch, "jax": tr_jax},
                      bytes_moved=2 * 4 * T * T))

    # x + y, 8-element float64: per-call overhead ---------------------------
    def small_np(np_):
        return lambda: s1 + s2

    def small_ac(ac):
        A, B = ac_arr(ac, s1), ac_arr(ac, s2)
        return lambda: A + B

    def small_torch(torch):
        A, B = torch_arr(torch, s1), torch_arr(torch, s2)
        return lambda: A + B

    def small_jax(jnp):
        A, B = jax_arr(jnp, s1), jax_arr(jnp, s2)
        return lambda: (A + B).block_until_ready()

    cases.append(Case(f"x+y f64 n={SMALL} (per call)", {"numpy": small_np, "arraycore": small_ac,
                                                         "torch": small_torch, "jax": small_jax},
                      fast=True, note="time per call, many calls per sample"))
    return cases


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
