"""Indexing benchmarks: take, integer-array and boolean-mask selection, mask assignment,
and a few manipulation copies, arraycore vs NumPy / PyTorch / JAX (see harness.py); then the
per-call cost of small indexing calls (the native fast paths, bind_fast_advanced.cpp,
bind_fast_setitem.cpp, bind_fast_join.cpp).

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
    return cases + small_cases()


def small_cases():
    """Per-call cost of indexing a 100x50 / 20x30x40 float64 array with 10 indices (and of
    joining two 1000-vectors): what the Python planning used to cost (~10 us a call)."""
    rng = np.random.default_rng(1)
    data = {"A": rng.standard_normal((100, 50)), "B": rng.standard_normal((20, 30, 40)),
            "v": rng.standard_normal(1000), "idx": rng.integers(0, 30, 10),
            "i": rng.integers(0, 100, 10), "j": rng.integers(0, 50, 10),
            "mask": rng.random(1000) < 0.5, "row": rng.standard_normal(50),
            "ij": rng.standard_normal(10), "f32": rng.standard_normal(1000).astype(np.float32)}
    data["ic"] = data["i"][:, None]
    data["cmask"] = rng.random(50) < 0.5
    data["vals"] = rng.standard_normal(int(data["mask"].sum()))

    def setitem(d, key, value):
        d["A"][key(d)] = value(d)

    calls = {
        "A[0, idx]": lambda m, d: d["A"][0, d["idx"]],
        "A[idx, 0]": lambda m, d: d["A"][d["idx"], 0],
        "B[:, 0, idx]": lambda m, d: d["B"][:, 0, d["idx"]],
        "A[i, j]": lambda m, d: d["A"][d["i"], d["j"]],
        "A[i[:, None], j]": lambda m, d: d["A"][d["ic"], d["j"]],
        "A[[1, 2]]": lambda m, d: d["A"][[1, 2]],
        "A[:, cmask]": lambda m, d: d["A"][:, d["cmask"]],
        "A[i] = 1.0": lambda m, d: setitem(d, lambda d: d["i"], lambda d: 1.0),
        "A[i, :] = row": lambda m, d: setitem(d, lambda d: (d["i"], slice(None)),
                                              lambda d: d["row"]),
        "A[i, j] = 1.0": lambda m, d: setitem(d, lambda d: (d["i"], d["j"]), lambda d: 1.0),
        "A[i, j] = vals": lambda m, d: setitem(d, lambda d: (d["i"], d["j"]),
                                               lambda d: d["ij"]),
        "v[mask] = vals": lambda m, d: d["v"].__setitem__(d["mask"], d["vals"]),
        "concat f32 + f64": lambda m, d: (np.concatenate if m is np else m.concat)(
            (d["f32"], d["v"])),
        "stack f32, f64": lambda m, d: (np.stack if m is np else m.stack)((d["f32"], d["v"])),
        "concat A[:, ::2], A[:, 1::2]": lambda m, d: (np.concatenate if m is np else m.concat)(
            (d["A"][:, ::2], d["A"][:, 1::2]), axis=1),
    }

    def setup_for(call):
        def setup(m):
            d = {k: (v.copy() if m is np else m.asarray(v.copy())) for k, v in data.items()}
            return lambda: call(m, d)
        return setup

    return [Case(name, {"numpy": setup_for(call), "arraycore": setup_for(call)}, fast=True)
            for name, call in calls.items()]


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
