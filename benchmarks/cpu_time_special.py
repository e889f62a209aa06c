"""Process CPU time of a few special-function cases: arraycore, PyTorch and JAX, one thread.

    python benchmarks/cpu_time_special.py                       # this machine's ISA
    python benchmarks/cpu_time_special.py --emulate-avx2 --arraycore-root DIR

Wall times (bench_special.py) are what the issue's targets are stated in, but on a shared,
overloaded machine they are inflated for every library alike and by different factors.
Process CPU time (all threads of the process, so JAX's work counts on whichever of its
threads runs it) is not inflated by waiting.  Each library runs in its own subprocess with
harness.py's one-thread environment (and its AVX2 limits with --emulate-avx2), pinned to
one CPU; medians of 25 calls after 5 warm-up calls.  Used for docs/special.md's eighth pass.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

CASES = [("exp", "float32"), ("exp", "float64"), ("log_softmax", "float32"),
         ("log_softmax", "float64"), ("i0e", "float32"), ("i1e", "float32")]


def data(name, dt):
    import numpy as np
    rng = np.random.default_rng(0)
    if name == "log_softmax":
        return (rng.standard_normal((1000, 1000)) * 4).astype(dt)
    lo = 20 if name == "exp" else 50
    return rng.uniform(-lo, lo, 10 ** 6).astype(dt)


def call(lib, name, x):
    if lib == "arraycore":
        import arraycore as ac
        ac.set_num_threads(1)
        a = ac.asarray(x)
        f = ac.exp if name == "exp" else getattr(ac.special, name)
        return (lambda: f(a, axis=-1)) if name == "log_softmax" else (lambda: f(a))
    if lib == "torch":
        import torch
        torch.set_num_threads(1)
        a = torch.from_numpy(x.copy())
        f = getattr(torch, name) if name in ("exp", "log_softmax") else getattr(torch.special, name)
        return (lambda: f(a, -1)) if name == "log_softmax" else (lambda: f(a))
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    a = jnp.asarray(x).block_until_ready()
    if name == "log_softmax":
        return lambda: jax.nn.log_softmax(a, axis=-1).block_until_ready()
    f = jnp.exp if name == "exp" else getattr(jax.scipy.special, name)
    return lambda: f(a).block_until_ready()


def child(lib):
    for name, dt in CASES:
        f = call(lib, name, data(name, dt))
        for _ in range(5):
            f()
        ts = []
        for _ in range(25):
            t0 = time.process_time()
            f()
            ts.append(time.process_time() - t0)
        print(f"{name} {dt} {lib} {sorted(ts)[12] * 1e3:.3f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--emulate-avx2", action="store_true")
    ap.add_argument("--arraycore-root", default=None)
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return
    env = dict(os.environ, **harness.thread_env(1))
    if args.emulate_avx2:
        env.update(harness.AVX2_ENV)
        env["XLA_FLAGS"] += " " + harness.AVX2_XLA_FLAG
    rows = {}
    for lib in ("arraycore", "torch", "jax"):
        e = dict(env)
        if lib == "arraycore" and args.arraycore_root:
            e["PYTHONPATH"] = args.arraycore_root + os.pathsep + e.get("PYTHONPATH", "")
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", lib],
                             env=e, capture_output=True, text=True, check=True,
                             preexec_fn=lambda: os.sched_setaffinity(0, {1})).stdout
        for line in out.splitlines():
            name, dt, lib_, ms = line.split()
            rows.setdefault((name, dt), {})[lib_] = float(ms)
    print(f"{'case':22s} {'arraycore':>10s} {'torch':>10s} {'jax':>10s}   ms of process CPU time")
    for (name, dt), r in rows.items():
        print(f"{name + ' ' + dt:22s} " + " ".join(f"{r.get(k, float('nan')):10.3f}"
                                                   for k in ("arraycore", "torch", "jax")))


if __name__ == "__main__":
    main()
