"""einsum benchmarks: attention scores, matrix and batched products, a dot product, operand
chains and a bilinear form, arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_einsum.py --threads 1                 # every case, 1 thread
    python benchmarks/bench_einsum.py --threads 1 --cases 'attn'  # one case
    python benchmarks/bench_einsum.py --quick                     # smoke test
    python benchmarks/bench_einsum.py --cpu-time                  # see below

The NumPy baseline is `np.einsum(..., optimize=True)` (BLAS through tensordot, a planned
order); the cases named '[np default]' repeat a case with NumPy's default (`optimize=False`,
one nditer loop over every index) as the baseline, for arraycore and NumPy only.  JAX runs
`jnp.einsum` eagerly (its default optimize='auto').

`--cpu-time [--reps N]`: one thread, no subprocess, each call timed by the calling thread's
CPU time (`time.thread_time`), medians of N (default 15) interleaved samples after warm-up,
for NumPy (optimize=True and default), arraycore and PyTorch (JAX computes on other threads,
so its caller's CPU time means nothing).  Other jobs on the machine inflate wall-clock
medians, not these.
"""
import os
import sys

if "--cpu-time" in sys.argv:  # one thread: before NumPy loads OpenBLAS
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                 "ARRAYCORE_NUM_THREADS"):
        os.environ[_var] = "1"

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _case(name, subscripts, arrays, fast=False, np_optimize=True, others=True, note=""):
    def np_setup(np_):
        xs = [a.copy() for a in arrays]
        return lambda: np_.einsum(subscripts, *xs, optimize=np_optimize)

    def ac_setup(ac):
        xs = [ac.asarray(a) for a in arrays]
        return lambda: ac.einsum(subscripts, *xs)

    def torch_setup(torch):
        xs = [torch.from_numpy(a.copy()) for a in arrays]
        return lambda: torch.einsum(subscripts, *xs)

    def jax_setup(jnp):
        xs = [jnp.asarray(a) for a in arrays]
        return lambda: jnp.einsum(subscripts, *xs).block_until_ready()

    setups = {"numpy": np_setup, "arraycore": ac_setup}
    if others:
        setups.update(torch=torch_setup, jax=jax_setup)
    return Case(name, setups, fast=fast, note=note)


_SPECS = {}  # case name -> (subscripts, arrays), for --cpu-time's NumPy default column


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)

    def mat(*shape, dtype=np.float32):
        return rng.standard_normal(shape).astype(dtype)

    specs = [
        # (name, subscripts, arrays, fast)
        ("attn scores bhqd,bhkd->bhqk 8x8x128x64 f32", "bhqd,bhkd->bhqk",
         [mat(8, 8, 128, 64), mat(8, 8, 128, 64)], False),
        ("attn out bhqk,bhkd->bhqd 8x8x128x64 f32", "bhqk,bhkd->bhqd",
         [mat(8, 8, 128, 128), mat(8, 8, 128, 64)], False),
        ("ij,jk->ik 512 f32", "ij,jk->ik", [mat(512, 512), mat(512, 512)], False),
        ("ij,jk->ik 512 f64", "ij,jk->ik",
         [mat(512, 512, dtype=np.float64), mat(512, 512, dtype=np.float64)], False),
        ("bij,bjk->bik 64x128x128 f32", "bij,bjk->bik",
         [mat(64, 128, 128), mat(64, 128, 128)], False),
        ("bij,bjk->bik 4096x4x4 f32", "bij,bjk->bik", [mat(4096, 4, 4), mat(4096, 4, 4)],
         False),
        ("i,i-> 1e6 f64", "i,i->", [mat(10 ** 6, dtype=np.float64),
                                    mat(10 ** 6, dtype=np.float64)], False),
        ("i,i-> 100 f64 (per call)", "i,i->", [mat(100, dtype=np.float64),
                                                mat(100, dtype=np.float64)], True),
        ("ij,jk,kl->il chain 256x1024x1024x16 f32", "ij,jk,kl->il",
         [mat(256, 1024), mat(1024, 1024), mat(1024, 16)], False),
        ("ij,jk,kl->il chain 64 f64 (per call)", "ij,jk,kl->il",
         [mat(64, 64, dtype=np.float64) for _ in range(3)], True),
        ("bn,anm,bm->ba bilinear 64x32x128x128 f32", "bn,anm,bm->ba",
         [mat(64, 128), mat(32, 128, 128), mat(64, 128)], False),
        ("ii->i diagonal 1000 f64 (per call)", "ii->i", [mat(1000, 1000, dtype=np.float64)],
         True),
        ("bij->b sum 64x256x256 f32", "bij->b", [mat(64, 256, 256)], False),
        ("bi,bi->b batched dots 10000x16 f32", "bi,bi->b", [mat(10000, 16), mat(10000, 16)],
         False),
    ]
    if quick:
        specs = specs[:3] + specs[6:8]
    _SPECS.update({s[0]: (s[1], s[2]) for s in specs})
    cases = [_case(*s[:3], fast=s[3]) for s in specs]
    # NumPy's default (optimize=False) as the baseline, where it is not hopelessly slow
    for name, sub, arrays, fast in specs:
        if "chain 256" in name or "bilinear" in name:
            continue  # the unplanned nditer loop runs every index combination (seconds)
        cases.append(_case(name + " [np default]", sub, arrays, fast=fast, np_optimize=False,
                           others=False))
    return cases


def cpu_time_main(argv):
    """Thread CPU-time medians (ms) of each case's calls, libraries interleaved."""
    import statistics
    import time

    import glob
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = argv[argv.index("--arraycore-root") + 1] if "--arraycore-root" in argv else (
        repo if glob.glob(os.path.join(repo, "arraycore", "native", "_native*")) else None)
    if root:  # as the harness: this tree's developer build, not an installed copy
        sys.path.insert(0, os.path.abspath(root))
    import arraycore as ac
    import torch
    print(f"arraycore from {os.path.dirname(ac.__file__)}")
    reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else 15
    pattern = argv[argv.index("--cases") + 1] if "--cases" in argv else ""
    torch.set_num_threads(1)
    mods = {"numpy": np, "arraycore": ac, "torch": torch}
    print(f"{'case':48s}{'numpy opt':>12s}{'np default':>12s}{'arraycore':>12s}"
          f"{'torch':>12s}   (ms, thread CPU time, median of {reps})")
    for case in build_cases():
        if "[np default]" in case.name or (pattern and not __import__("re").search(
                pattern, case.name)):
            continue
        fns = {lib: case.setups[lib](mods[lib]) for lib in ("numpy", "arraycore", "torch")}
        default = _case(case.name, *_SPECS[case.name], np_optimize=False).setups["numpy"](np)
        if "chain 256" not in case.name and "bilinear" not in case.name:
            fns["np default"] = default
        inner = 200 if case.fast else 1
        samples = {lib: [] for lib in fns}
        for fn in fns.values():
            for _ in range(3 * inner):
                fn()
        order = list(fns)
        for rep in range(reps):
            k = rep % len(order)
            for lib in order[k:] + order[:k]:
                fn = fns[lib]
                t0 = time.thread_time()
                for _ in range(inner):
                    fn()
                samples[lib].append((time.thread_time() - t0) / inner * 1e3)
        med = {lib: statistics.median(v) for lib, v in samples.items()}
        cells = [f"{med[lib]:12.4f}" if lib in med else f"{'-':>12s}"
                 for lib in ("numpy", "np default", "arraycore", "torch")]
        print(f"{case.name:48s}" + "".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    if "--cpu-time" in sys.argv:
        sys.exit(cpu_time_main(sys.argv))
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
