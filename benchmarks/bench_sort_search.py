"""Searching/sorting benchmarks: argmax, sort, argsort, unique, searchsorted, where,
arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_sort_search.py                # full run, 1 and 2 threads
    python benchmarks/bench_sort_search.py --threads 1    # the targets are single-threaded
    python benchmarks/bench_sort_search.py --quick        # smoke test
    python benchmarks/bench_sort_search.py --threads 1 --cases '^(arg)?sort [fi]'
                                                          # cases whose name matches a regex

The sort's instruction set is the widest the build has; ARRAYCORE_SORT_ISA=avx2 (or scalar,
avx512) in the environment measures a narrower one (Note [Sort ISA] in vector_sort.h).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _case(name, data, np_fn, ac_fn, torch_fn=None, jax_fn=None, bytes_moved=None, note=""):
    """One case over the NumPy arrays `data` (converted in setup, not timed)."""
    def np_setup(np_):
        return lambda: np_fn(np, *data)

    def ac_setup(ac):
        args = [ac.asarray(v) for v in data]
        return lambda: ac_fn(ac, *args)

    impls = {"numpy": np_setup, "arraycore": ac_setup}
    if torch_fn is not None:
        def torch_setup(torch):
            args = [torch.from_numpy(v.copy()) for v in data]
            return lambda: torch_fn(torch, *args)
        impls["torch"] = torch_setup
    if jax_fn is not None:
        def jax_setup(jnp):
            args = [jnp.asarray(v).block_until_ready() for v in data]
            return lambda: jax_fn(jnp, *args).block_until_ready()
        impls["jax"] = jax_setup
    return Case(name, impls, bytes_moved=bytes_moved, note=note)


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)
    n_big = 1_000_000 if quick else 10_000_000
    n_sort = 100_000 if quick else 1_000_000
    big = rng.standard_normal(n_big, dtype=np.float32)
    s32 = rng.standard_normal(n_sort, dtype=np.float32)
    s64 = rng.standard_normal(n_sort)
    i64 = rng.integers(-10**9, 10**9, size=n_sort)
    i32 = rng.integers(-2**31, 2**31, size=n_sort).astype(np.int32)
    small_ints = rng.integers(0, 1000, size=n_sort).astype(np.int32)
    c64 = (rng.standard_normal(n_sort) + 1j * rng.standard_normal(n_sort)).astype(np.complex64)
    hay = np.sort(s64)
    cond = rng.random(n_big) < 0.5
    other = rng.standard_normal(n_big, dtype=np.float32)
    m = rng.standard_normal((1000, 1000), dtype=np.float32)

    cases = [
        _case(f"argmax f32 {n_big:.0e}", [big], lambda np_, a: np_.argmax(a),
              lambda ac, a: ac.argmax(a), lambda t, a: t.argmax(a),
              lambda j, a: j.argmax(a), bytes_moved=4 * n_big),
        _case("argmax f32 1000x1000 axis=1", [m], lambda np_, a: np_.argmax(a, axis=1),
              lambda ac, a: ac.argmax(a, axis=1), lambda t, a: t.argmax(a, dim=1),
              lambda j, a: j.argmax(a, axis=1)),
        _case(f"sort f32 {n_sort:.0e}", [s32], lambda np_, a: np_.sort(a),
              lambda ac, a: ac.sort(a), lambda t, a: t.sort(a)[0], lambda j, a: j.sort(a)),
        _case(f"sort f64 {n_sort:.0e}", [s64], lambda np_, a: np_.sort(a),
              lambda ac, a: ac.sort(a), lambda t, a: t.sort(a)[0], lambda j, a: j.sort(a)),
        _case(f"sort i64 {n_sort:.0e}", [i64], lambda np_, a: np_.sort(a),
              lambda ac, a: ac.sort(a), lambda t, a: t.sort(a)[0], lambda j, a: j.sort(a)),
        _case(f"sort i32 {n_sort:.0e}", [i32], lambda np_, a: np_.sort(a),
              lambda ac, a: ac.sort(a), lambda t, a: t.sort(a)[0], lambda j, a: j.sort(a)),
        _case(f"argsort i32 {n_sort:.0e}", [i32], lambda np_, a: np_.argsort(a),
              lambda ac, a: ac.argsort(a), lambda t, a: t.argsort(a),
              lambda j, a: j.argsort(a)),
        _case(f"argsort f32 {n_sort:.0e}", [s32], lambda np_, a: np_.argsort(a),
              lambda ac, a: ac.argsort(a), lambda t, a: t.argsort(a),
              lambda j, a: j.argsort(a)),
        _case(f"argsort f32 stable {n_sort:.0e}", [s32],
              lambda np_, a: np_.argsort(a, kind="stable"), lambda ac, a: ac.argsort(a),
              lambda t, a: t.argsort(a, stable=True), lambda j, a: j.argsort(a, stable=True)),
        _case(f"argsort f64 {n_sort:.0e}", [s64], lambda np_, a: np_.argsort(a),
              lambda ac, a: ac.argsort(a), lambda t, a: t.argsort(a),
              lambda j, a: j.argsort(a)),
        _case(f"sort c64 {n_sort:.0e}", [c64], lambda np_, a: np_.sort(a),
              lambda ac, a: ac.sort(a)),
        _case(f"argsort c64 {n_sort:.0e}", [c64], lambda np_, a: np_.argsort(a),
              lambda ac, a: ac.argsort(a)),
        _case("sort f32 1000x1000 axis=-1", [m], lambda np_, a: np_.sort(a, axis=-1),
              lambda ac, a: ac.sort(a, axis=-1), lambda t, a: t.sort(a, dim=-1)[0],
              lambda j, a: j.sort(a, axis=-1)),
        _case(f"unique_counts i32 {n_sort:.0e} (1000 values)", [small_ints],
              lambda np_, a: np_.unique_counts(a), lambda ac, a: ac.unique_counts(a),
              lambda t, a: t.unique(a, return_counts=True)),
        _case(f"searchsorted f64 {n_sort:.0e} in {n_sort:.0e}", [hay, s64],
              lambda np_, h, q: np_.searchsorted(h, q), lambda ac, h, q: ac.searchsorted(h, q),
              lambda t, h, q: t.searchsorted(h, q), lambda j, h, q: j.searchsorted(h, q)),
        _case(f"where f32 {n_big:.0e}", [cond, big, other],
              lambda np_, c, a, b: np_.where(c, a, b), lambda ac, c, a, b: ac.where(c, a, b),
              lambda t, c, a, b: t.where(c, a, b), lambda j, c, a, b: j.where(c, a, b),
              bytes_moved=13 * n_big),
    ]
    isa = os.environ.get("ARRAYCORE_SORT_ISA")
    if isa:
        for c in cases:
            if "sort" in c.name:
                c.note = (c.note + "; " if c.note else "") + f"arraycore: ARRAYCORE_SORT_ISA={isa}"
    return cases


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
