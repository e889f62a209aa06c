"""einsum benchmarks: attention scores, matrix and batched products, a dot product, operand
chains and a bilinear form, arraycore vs NumPy / PyTorch / JAX (see harness.py).

    python benchmarks/bench_einsum.py --threads 1                 # every case, 1 thread
    python benchmarks/bench_einsum.py --threads 1 --cases 'attn'  # one case
    python benchmarks/bench_einsum.py --quick                     # smoke test

The NumPy baseline is `np.einsum(..., optimize=True)` (BLAS through tensordot, a planned
order); the cases named '[np default]' repeat a case with NumPy's default (`optimize=False`,
one nditer loop over every index) as the baseline, for arraycore and NumPy only.  JAX runs
`jnp.einsum` eagerly (its default optimize='auto').
"""
import os
import sys

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
        ("bij->bji + sum bij->b 64x256x256 f32", "bij->b", [mat(64, 256, 256)], False),
    ]
    if quick:
        specs = specs[:3] + specs[6:8]
    cases = [_case(*s[:3], fast=s[3]) for s in specs]
    # NumPy's default (optimize=False) as the baseline, where it is not hopelessly slow
    for name, sub, arrays, fast in specs:
        if "chain 256" in name or "bilinear" in name:
            continue  # the unplanned nditer loop runs every index combination (seconds)
        cases.append(_case(name + " [np default]", sub, arrays, fast=fast, np_optimize=False,
                           others=False))
    return cases


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__.splitlines()[0]))
