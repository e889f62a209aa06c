"""FFT benchmarks (issue 8 targets): arraycore vs NumPy (pocketfft) / PyTorch (MKL) / JAX
(ducc), see harness.py.

    python benchmarks/bench_fft.py --threads 1      # the single-thread targets
    python benchmarks/bench_fft.py --threads 1,2    # + the 2-thread scaling of batched FFTs
    python benchmarks/bench_fft.py --quick          # smoke test

arraycore is called through `ac.fft` when the namespace is present, else through the native
transforms it is built on (`_native.fft_c2c` / `fft_r2c`), which are what is measured either
way (the namespace adds the argument handling of one Python call).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Case  # noqa: E402


def _ac_fft_ns(ac):
    ns = getattr(ac, "fft", None)
    return ns if ns is not None and hasattr(ns, "rfft2") else None


def _ac_ops(ac):
    """fft / rfft / rfft2 callables of arraycore: the namespace or the native functions."""
    ns = _ac_fft_ns(ac)
    if ns is not None:
        return ns.fft, ns.rfft, ns.rfft2
    from arraycore.native import _native as N

    def fft(x):
        return N.fft_c2c(x, (x.ndim - 1,), True, 1.0)

    def rfft(x):
        return N.fft_r2c(x, x.ndim - 1, 1.0)

    def rfft2(x):
        return N.fft_c2c(N.fft_r2c(x, x.ndim - 1, 1.0), (x.ndim - 2,), True, 1.0)

    return fft, rfft, rfft2


def _case(name, data, op, fast=False, note=""):
    """op in ("fft", "rfft", "rfft2"), applied along the last axis (axes)."""
    def np_setup(np_):
        f = getattr(np_.fft, op)
        return lambda: f(data)

    def ac_setup(ac):
        fft, rfft, rfft2 = _ac_ops(ac)
        f = {"fft": fft, "rfft": rfft, "rfft2": rfft2}[op]
        x = ac.asarray(data)
        return lambda: f(x)

    def torch_setup(torch):
        f = getattr(torch.fft, op)
        x = torch.from_numpy(data.copy())
        return lambda: f(x)

    def jax_setup(jnp):
        f = getattr(jnp.fft, op)
        x = jnp.asarray(data).block_until_ready()
        return lambda: f(x).block_until_ready()

    impls = {"numpy": np_setup, "arraycore": ac_setup, "torch": torch_setup, "jax": jax_setup}
    return Case(name, impls, bytes_moved=2 * data.nbytes, note=note, fast=fast)


def build_cases(quick: bool = False):
    rng = np.random.default_rng(0)

    def cplx(shape, dt):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)

    big = 2 ** 18 if quick else 2 ** 20
    prime = 100003 if quick else 1000003
    side = 512 if quick else 2048
    cases = [
        _case(f"fft c64 {big}", cplx(big, np.complex64), "fft", note="target <= torch"),
        _case(f"fft c128 {big}", cplx(big, np.complex128), "fft"),
        _case(f"fft c64 {prime} (prime)", cplx(prime, np.complex64), "fft",
              note="target <= min(torch, jax)"),
        _case(f"fft c128 {prime} (prime)", cplx(prime, np.complex128), "fft",
              note="target <= min(torch, jax)"),
        _case(f"rfft2 f32 {side}x{side}", rng.standard_normal((side, side)).astype(np.float32),
              "rfft2", note="target <= min(torch, jax)"),
        _case("rfft f32 4096x1024 axis=-1", rng.standard_normal((4096, 1024)).astype(np.float32),
              "rfft", note="target <= torch"),
        _case("fft c64 4096x1024 axis=-1", cplx((4096, 1024), np.complex64), "fft",
              note="the complex twin of the rfft case"),
        _case(f"rfft f32 {big}", rng.standard_normal(big).astype(np.float32), "rfft"),
        _case("fft c128 64", cplx(64, np.complex128), "fft", fast=True,
              note="call overhead: target <= numpy"),
    ]
    return cases


if __name__ == "__main__":
    sys.exit(harness.main(build_cases, description=__doc__))
