"""matmul benchmarks: square float32/float64 products, a transposed operand, a batch of small
products and an integer product, arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_matmul.py --threads 1 --libs numpy,arraycore   # the targets
    python benchmarks/bench_matmul.py                  # 1 and 2 threads, every library
    python benchmarks/bench_matmul.py --quick          # smoke test

Both arraycore and NumPy call OpenBLAS (scipy-openblas32 and NumPy's bundled
scipy-openblas64), so the float ratios measure the call overhead and the layout handling.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _case(name, a, b, transpose_a=False, fast=False):
    def np_setup(np_):
        A = a.T if transpose_a else a
        return lambda: A @ b

    def ac_setup(ac):
        A, B = ac.asarray(a), ac.asarray(b)
        if transpose_a:
            A = A.mT
        return lambda: A @ B

    def torch_setup(torch):
        A, B = torch.from_numpy(a.copy()), torch.from_numpy(b.copy())
        if transpose_a:
            A = A.mT
        return lambda: A @ B

    def jax_setup(jnp):
        A, B = jnp.asarray(a), jnp.asarray(b)
        if transpose_a:
            A = A.mT
        return lambda: (A @ B).block_until_ready()

    flops = 2 * a.size * b.shape[-1]
    return Case(name, {"numpy": np_setup, "arraycore": ac_setup, "torch": torch_setup,
                       "jax": jax_setup}, fast=fast,
                note=f"{flops / 1e9:.3f} GFLOP per call")


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)

    def mat(*shape, dtype=np.float32):
        return rng.standard_normal(shape).astype(dtype)

    sizes = [256, 1024] if quick else [256, 1024, 2048]
    cases = [_case(f"matmul f32 {n}x{n}", mat(n, n), mat(n, n), fast=n <= 256) for n in sizes]
    cases.append(_case("matmul f64 1024x1024", mat(1024, 1024, dtype=np.float64),
                       mat(1024, 1024, dtype=np.float64)))
    cases.append(_case("matmul f32 1024 x1.T", mat(1024, 1024), mat(1024, 1024),
                       transpose_a=True))
    cases.append(_case("matmul f32 batch 64x128x128", mat(64, 128, 128), mat(64, 128, 128)))
    cases.append(_case("matmul f32 (64,128,128)@(128,128)", mat(64, 128, 128), mat(128, 128)))
    cases.append(_case("matmul f32 64x64 (per call)", mat(64, 64), mat(64, 64), fast=True))
    ints = rng.integers(-100, 100, size=(256, 256)).astype(np.int32)
    cases.append(_case("matmul i32 256x256", ints, ints.copy(), fast=True))
    return cases


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
