"""Random-number benchmarks: arraycore's Philox4x32-10 generator vs NumPy's Generator (PCG64),
PyTorch (torch.rand / torch.randn, mt19937) and JAX (threefry, eager).

    python benchmarks/bench_random.py --threads 1            # the targets
    python benchmarks/bench_random.py --threads 1 --quick    # smoke test

Cases: uniform [0, 1) and standard normal draws of 1e7 values in float32 and float64, plus
bounded integers and a permutation (the data loader's shuffle).  Target: arraycore faster
than both NumPy and PyTorch on the uniform and normal cases at 1 thread.  Each library draws
from its own generator, created once per case (the draw, not the seeding, is timed).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _draw_case(name, n, dtype, kind, note=""):
    """kind: 'uniform' or 'normal'."""

    def np_setup(np_):
        g = np_.random.default_rng(0)
        dt = getattr(np_, dtype)
        f = g.random if kind == "uniform" else g.standard_normal
        return lambda: f(n, dtype=dt)

    def ac_setup(ac):
        g = ac.random.Generator(0)
        dt = getattr(ac, dtype)
        f = g.random if kind == "uniform" else g.standard_normal
        return lambda: f(n, dtype=dt)

    def torch_setup(torch):
        g = torch.Generator().manual_seed(0)
        dt = getattr(torch, dtype)
        f = torch.rand if kind == "uniform" else torch.randn
        return lambda: f(n, dtype=dt, generator=g)

    def jax_setup(jnp):
        import jax
        key = jax.random.PRNGKey(0)
        dt = getattr(jnp, dtype)
        f = jax.random.uniform if kind == "uniform" else jax.random.normal
        return lambda: f(key, (n,), dtype=dt).block_until_ready()

    item = 4 if dtype == "float32" else 8
    return Case(name, {"numpy": np_setup, "arraycore": ac_setup, "torch": torch_setup,
                       "jax": jax_setup}, bytes_moved=n * item, note=note)


def _integers_case(n):
    def np_setup(np_):
        g = np_.random.default_rng(0)
        return lambda: g.integers(0, 1000, size=n)

    def ac_setup(ac):
        g = ac.random.Generator(0)
        return lambda: g.integers(0, 1000, size=n)

    def torch_setup(torch):
        g = torch.Generator().manual_seed(0)
        return lambda: torch.randint(0, 1000, (n,), generator=g)

    return Case(f"integers [0, 1000) int64 {n:.0e}",
                {"numpy": np_setup, "arraycore": ac_setup, "torch": torch_setup},
                bytes_moved=8 * n)


def _permutation_case(n):
    def np_setup(np_):
        g = np_.random.default_rng(0)
        return lambda: g.permutation(n)

    def ac_setup(ac):
        g = ac.random.Generator(0)
        return lambda: g.permutation(n)

    def torch_setup(torch):
        g = torch.Generator().manual_seed(0)
        return lambda: torch.randperm(n, generator=g)

    return Case(f"permutation {n}", {"numpy": np_setup, "arraycore": ac_setup,
                                     "torch": torch_setup}, bytes_moved=8 * n)


def build_cases(quick: bool = False):
    n = 10 ** 6 if quick else 10 ** 7
    target = "target: faster than numpy and torch"
    return [
        _draw_case(f"uniform f32 {n:.0e}", n, "float32", "uniform", target),
        _draw_case(f"uniform f64 {n:.0e}", n, "float64", "uniform", target),
        _draw_case(f"normal f32 {n:.0e}", n, "float32", "normal", target),
        _draw_case(f"normal f64 {n:.0e}", n, "float64", "normal", target),
        _integers_case(n),
        _permutation_case(60_000 if quick else 1_000_000),
    ]


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__))
