"""Indexing benchmarks: take, integer-array and boolean-mask selection, mask assignment,
and a few manipulation copies, arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_indexing.py --threads 1 --libs numpy,arraycore
    python benchmarks/bench_indexing.py --quick
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402

N = 10_000_000
K = 1_000_000


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(N, dtype=np.float32)
    idx = rng.integers(0, N, size=K)
    mask = rng.random(N) < 0.5
    m2 = rng.standard_normal((2000, 2000), dtype=np.float32)
    rows = rng.integers(0, 2000, size=1000)
    cases = []

    def torch_arr(torch, v):
        return torch.from_numpy(v.copy())

    def jax_arr(jnp, v):
        return jnp.asarray(v).block_until_ready()

    # take 1e6 of 1e7 -------------------------------------------------------------------
    def take_ac(ac):
        A, I = ac.asarray(a), ac.asarray(idx)
        return lambda: ac.take(A, I)

    def take_torch(torch):
        A, I = torch_arr(torch, a), torch_arr(torch, idx)
        return lambda: torch.take(A, I)

    def take_jax(jnp):
        A, I = jax_arr(jnp, a), jax_arr(jnp, idx)
        return lambda: jnp.take(A, I).block_until_ready()

    cases.append(Case("take 1e6 of 1e7 f32", {"numpy": lambda np_: (lambda: np.take(a, idx)),
                                              "arraycore": take_ac, "torch": take_torch,
                                              "jax": take_jax},
                      bytes_moved=K * (8 + 4 + 4)))

    # x[int array] ----------------------------------------------------------------------
    def fancy_ac(ac):
        A, I = ac.asarray(a), ac.asarray(idx)
        return lambda: A[I]

    def fancy_torch(torch):
        A, I = torch_arr(torch, a), torch_arr(torch, idx)
        return lambda: A[I]

    cases.append(Case("x[idx] 1e6 of 1e7 f32", {"numpy": lambda np_: (lambda: a[idx]),
                                                "arraycore": fancy_ac, "torch": fancy_torch},
                      bytes_moved=K * (8 + 4 + 4)))

    # x[mask] 50% -----------------------------------------------------------------------
    def mask_ac(ac):
        A, M = ac.asarray(a), ac.asarray(mask)
        return lambda: A[M]

    def mask_torch(torch):
        A, M = torch_arr(torch, a), torch_arr(torch, mask)
        return lambda: A[M]

    cases.append(Case("x[mask] 1e7 f32 50%", {"numpy": lambda np_: (lambda: a[mask]),
                                              "arraycore": mask_ac, "torch": mask_torch},
                      bytes_moved=N * (1 + 4) + N // 2 * 4))

    # x[mask] = 0 -----------------------------------------------------------------------
    def mset_np(np_):
        b = a.copy()

        def f():
            b[mask] = 0.0
        return f

    def mset_ac(ac):
        B, M = ac.asarray(a.copy()), ac.asarray(mask)

        def f():
            B[M] = 0.0
        return f

    cases.append(Case("x[mask] = 0 1e7 f32 50%", {"numpy": mset_np, "arraycore": mset_ac},
                      bytes_moved=N * (1 + 4)))

    # rows of a matrix ------------------------------------------------------------------
    def rows_ac(ac):
        A, I = ac.asarray(m2), ac.asarray(rows)
        return lambda: A[I]

    cases.append(Case("x[rows] 1000 of 2000x2000 f32", {"numpy": lambda np_: (lambda: m2[rows]),
                                                        "arraycore": rows_ac},
                      bytes_moved=2 * 1000 * 2000 * 4))

    # concat / roll ---------------------------------------------------------------------
    def concat_ac(ac):
        A = ac.asarray(a)
        return lambda: ac.concat((A, A))

    cases.append(Case("concat 2x1e7 f32", {"numpy": lambda np_: (lambda: np.concatenate((a, a))),
                                           "arraycore": concat_ac},
                      bytes_moved=4 * 4 * N))

    def roll_ac(ac):
        A = ac.asarray(m2)
        return lambda: ac.roll(A, (7, -3), axis=(0, 1))

    cases.append(Case("roll 2000x2000 f32", {
        "numpy": lambda np_: (lambda: np.roll(m2, (7, -3), axis=(0, 1))), "arraycore": roll_ac},
        bytes_moved=2 * 4 * m2.size))
    return cases


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
