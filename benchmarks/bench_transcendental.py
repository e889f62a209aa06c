"""Transcendental elementwise benchmarks: sin, cos, tanh, exp, log for float32 and float64,
arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_transcendental.py --threads 1    # single-threaded comparison
    python benchmarks/bench_transcendental.py --quick        # smoke test
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402

FUNCTIONS = ["sin", "cos", "tanh", "exp", "log"]


def _case(fn, a):
    """`fn` applied to the NumPy array `a` (converted in setup, not timed)."""
    def np_setup(np_):
        f = getattr(np_, fn)
        return lambda: f(a)

    def ac_setup(ac):
        x, f = ac.asarray(a), getattr(ac, fn)
        return lambda: f(x)

    def torch_setup(torch):
        x, f = torch.from_numpy(a.copy()), getattr(torch, fn)
        return lambda: f(x)

    def jax_setup(jnp):
        x, f = jnp.asarray(a).block_until_ready(), getattr(jnp, fn)
        return lambda: f(x).block_until_ready()

    name = f"{fn} {a.dtype.name[0]}{a.dtype.itemsize * 8} {a.size:.0e}"
    return Case(name, {"numpy": np_setup, "arraycore": ac_setup, "torch": torch_setup,
                       "jax": jax_setup}, bytes_moved=2 * a.nbytes)


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)
    n = 100_000 if quick else 1_000_000
    cases = []
    for dtype in ("float32", "float64"):
        # |x| up to ~10: several periods for sin/cos, saturation for tanh; log on positives.
        a = (rng.standard_normal(n) * 3).astype(dtype)
        pos = np.abs(a) + dtype_tiny(dtype)
        for fn in FUNCTIONS:
            cases.append(_case(fn, pos if fn == "log" else a))
    return cases


def dtype_tiny(dtype):
    return np.finfo(dtype).tiny


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
