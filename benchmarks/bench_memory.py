"""Peak memory of one MLP training step (issue 7: "peak memory of the MLP step at most
PyTorch's"), arraycore vs PyTorch (and NumPy's hand-written step as the floor, JAX if asked).

    python benchmarks/bench_memory.py                       # numpy, arraycore, torch
    python benchmarks/bench_memory.py --libs numpy,arraycore,torch,jax --steps 20
    python benchmarks/bench_memory.py --arraycore-cache 0   # arraycore without its block cache

The step is bench_autodiff.py's (MLP 784-512-512-10, batch 128, float32): "tape" (loss,
backward, SGD update under no_grad) and "func.grad" (grad of the loss, new parameters).
Each library and mode runs in its own subprocess (1 thread, as the timing benchmarks), which
measures resident memory from /proc/self/status:

- base: VmRSS after the library is imported and the parameters and data exist;
- the peak (VmHWM) over the first `--warmup` steps, then, after resetting VmHWM (writing 5
  to /proc/self/clear_refs), the peak over `--steps` more steps (steady state);
- reported, in MiB: `peak` = steady peak - base (what a step needs at its peak, including
  what the library keeps between steps: allocator caches, retained graphs), `first` = peak of
  the first steps - base, `transient` = steady peak - RSS before the steady steps (what
  one step adds on top of what is already held), `kept` = RSS after the steps - base.

Where /proc/self/clear_refs cannot be written, ru_maxrss (never reset) stands in for the
steady peak and the report says so.  Ratios are to PyTorch (the target) and to NumPy.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MODES = ("tape", "func.grad")
CASE_NAMES = {"tape": "MLP step, tape", "func.grad": "MLP step, func.grad"}
MIB = 1 << 20


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def child(lib: str, mode: str, warmup: int, steps: int, ac_cache) -> dict:
    import harness
    from bench_autodiff import mlp_cases

    mod = harness.load_library(lib, 1)
    if lib == "arraycore" and ac_cache is not None:
        mod._native.set_cache_limit(int(ac_cache))
    cases = {c.name: c for c in mlp_cases(False)}
    setups = cases[CASE_NAMES[mode]].setups
    if lib not in setups:
        return {"skipped": f"no {mode} step for {lib}"}
    step = setups[lib](mod)
    gc.collect()
    resettable = _reset_peak()
    base = _status_kib("VmRSS")
    for _ in range(warmup):
        step()
    first = _status_kib("VmHWM")
    gc.collect()
    resettable = _reset_peak() and resettable
    before = _status_kib("VmRSS")
    gc_before = sum(s["collections"] for s in gc.get_stats())
    for _ in range(steps):
        step()
    peak = _status_kib("VmHWM")
    if not resettable:
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    after = _status_kib("VmRSS")
    return {"base": base * 1024, "first": (first - base) * 1024, "peak": (peak - base) * 1024,
            "transient": (peak - before) * 1024, "kept": (after - base) * 1024,
            "resettable": resettable,
            "gc_collections": sum(s["collections"] for s in gc.get_stats()) - gc_before}


def run_child(lib: str, mode: str, args) -> dict:
    import harness
    env = dict(os.environ)
    env.update(harness.thread_env(1))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")  # the source tree
    cmd = [sys.executable, os.path.abspath(__file__), "--child", lib, mode,
           "--warmup", str(args.warmup), "--steps", str(args.steps)]
    if args.arraycore_cache is not None:
        cmd += ["--arraycore-cache", str(args.arraycore_cache)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        return {"skipped": f"failed: {r.stderr.strip().splitlines()[-1:] or r.returncode}"}
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--libs", default="numpy,arraycore,torch")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--arraycore-cache", type=int, default=None,
                    help="arraycore's large-block cache limit in bytes (default: unchanged)")
    ap.add_argument("--json", metavar="PATH", help="write the results as JSON")
    ap.add_argument("--child", nargs=2, metavar=("LIB", "MODE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        lib, mode = args.child
        print(json.dumps(child(lib, mode, args.warmup, args.steps, args.arraycore_cache)))
        return 0

    libs = [s for s in args.libs.split(",") if s]
    modes = [s for s in args.modes.split(",") if s]
    results = {m: {lib: run_child(lib, m, args) for lib in libs} for m in modes}
    print(f"MLP 784-512-512-10, batch 128, float32, 1 thread; warmup {args.warmup} steps, "
          f"then {args.steps} steps; MiB over the RSS after setup")
    for m in modes:
        print(f"\n{CASE_NAMES[m]}")
        print(f"  {'library':10s} {'base':>8s} {'first':>8s} {'peak':>8s} {'transient':>10s} "
              f"{'kept':>8s} {'/torch':>7s} {'/numpy':>7s}  gc")
        res = results[m]
        for lib in libs:
            r = res[lib]
            if "skipped" in r:
                print(f"  {lib:10s} skipped: {r['skipped']}")
                continue
            ratios = []
            for ref in ("torch", "numpy"):
                rr = res.get(ref, {})
                ok = "peak" in rr and rr["peak"] > 0
                ratios.append(f"{r['peak'] / rr['peak']:7.2f}" if ok else f"{'-':>7s}")
            note = "" if r["resettable"] else "  (ru_maxrss: peak not reset)"
            print(f"  {lib:10s} {r['base'] / MIB:8.1f} {r['first'] / MIB:8.1f} "
                  f"{r['peak'] / MIB:8.1f} {r['transient'] / MIB:10.1f} {r['kept'] / MIB:8.1f} "
                  f"{ratios[0]} {ratios[1]}  {r['gc_collections']}{note}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
