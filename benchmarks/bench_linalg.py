"""linalg benchmarks: the issue-8 targets (cholesky/svd/eigh/solve/inv/qr/det, float32 and
float64), batches of 4x4 matrices (the n <= 4 kernels) and batches of small matrices (the
pool), arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_linalg.py --threads 1               # the 1-thread targets
    python benchmarks/bench_linalg.py --threads 1,2 --only batch # batched scaling 1 -> 2
    python benchmarks/bench_linalg.py --quick                    # smoke test

Every library computes the same thing: full SVD (U, S, Vh), eigh with eigenvectors, solve
with one right-hand-side vector, qr in "reduced" mode.  arraycore is measured through its
public `ac.linalg` functions.  `--only WORD` keeps the cases whose name contains WORD.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _block(out):
    import jax
    return jax.block_until_ready(out)


def _case(name, fn_name, args, fast=False, kw=None, torch_name=None):
    """One function applied to `args` (NumPy arrays) in every library."""
    kw = kw or {}

    def np_setup(np_):
        f = getattr(np_.linalg, fn_name)
        xs = [a.copy() for a in args]
        return lambda: f(*xs, **kw)

    def ac_setup(ac):
        f = getattr(ac.linalg, fn_name)
        xs = [ac.asarray(a) for a in args]
        return lambda: f(*xs, **kw)

    def torch_setup(torch):
        f = getattr(torch.linalg, torch_name or fn_name)
        xs = [torch.from_numpy(a.copy()) for a in args]
        tkw = dict(kw)
        if fn_name == "qr":
            tkw = {"mode": kw.get("mode", "reduced")}
        return lambda: f(*xs, **tkw)

    def jax_setup(jnp):
        f = getattr(jnp.linalg, fn_name)
        xs = [jnp.asarray(a) for a in args]
        return lambda: _block(f(*xs, **kw))

    return Case(name, {"numpy": np_setup, "arraycore": ac_setup, "torch": torch_setup,
                       "jax": jax_setup}, fast=fast)


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)
    only = os.environ.get("BENCH_LINALG_ONLY", "")

    def mat(*shape, dtype=np.float64):
        return rng.standard_normal(shape).astype(dtype)

    def spd(n, dtype):
        a = rng.standard_normal((n, n))
        return (a @ a.T + n * np.eye(n)).astype(dtype)

    def sym(n, dtype):
        a = rng.standard_normal((n, n))
        return (a + a.T).astype(dtype)

    big = 256 if quick else 1024
    mid = 128 if quick else 512
    cases = []
    for dt, tag in ((np.float64, "f64"), (np.float32, "f32")):
        cases += [
            _case(f"cholesky {tag} {big}", "cholesky", [spd(big, dt)]),
            _case(f"svd {tag} {mid}", "svd", [mat(mid, mid, dtype=dt)]),
            _case(f"eigh {tag} {mid}", "eigh", [sym(mid, dt)]),
            _case(f"solve {tag} {big}", "solve",
                  [mat(big, big, dtype=dt) + big ** 0.5 * np.eye(big, dtype=dt),
                   mat(big, dtype=dt)]),
            _case(f"inv {tag} {big}", "inv",
                  [mat(big, big, dtype=dt) + big ** 0.5 * np.eye(big, dtype=dt)]),
            _case(f"qr {tag} {big}", "qr", [mat(big, big, dtype=dt)]),
            _case(f"det {tag} {mid}", "det", [mat(mid, mid, dtype=dt)]),
        ]
    nb = 1000 if quick else 10000
    a4 = mat(nb, 4, 4) + 2 * np.eye(4)
    cases += [
        _case(f"batch inv f64 {nb}x4x4", "inv", [a4]),
        _case(f"batch solve f64 {nb}x4x4", "solve", [a4, mat(nb, 4, 1)]),
        _case(f"batch det f64 {nb}x4x4", "det", [a4]),
    ]
    a16 = mat(nb // 4, 16, 16) + 4 * np.eye(16)
    cases += [
        _case(f"batch inv f64 {nb // 4}x16x16", "inv", [a16]),
        _case(f"batch eigh f64 {nb // 10}x16x16", "eigh",
              [a16[: nb // 10] + np.swapaxes(a16[: nb // 10], -1, -2)]),
        _case(f"batch svd f32 {nb // 10}x16x16", "svd",
              [a16[: nb // 10].astype(np.float32)]),
        _case(f"batch cholesky f64 {nb // 4}x32x32", "cholesky",
              [np.array([spd(32, np.float64) for _ in range(nb // 20)] * 5)]),
    ]
    if only:
        cases = [c for c in cases if any(w in c.name for w in only.split(","))]
    return cases


if __name__ == "__main__":
    argv = list(sys.argv[1:])
    if "--only" in argv:  # (a filter of this file, not of the harness)
        i = argv.index("--only")
        os.environ["BENCH_LINALG_ONLY"] = argv[i + 1]
        del argv[i:i + 2]
    sys.exit(harness.main(build_cases, argv=argv, description=__doc__.splitlines()[0]))
