"""Generic interleaved benchmark harness: arraycore vs NumPy, PyTorch, JAX.

A benchmark file defines a function returning a list of ``Case`` objects and
calls ``harness.main(build_cases)``. A case is a name plus, per library, a
setup function ``setup(mod) -> fn`` where ``mod`` is the imported library
module and ``fn`` a zero-argument callable performing one operation (for JAX
the callable must block on its result, e.g. ``.block_until_ready()``).

Method (the project's benchmarking rules):

* All libraries are measured in ONE run, interleaved: every repetition times
  one sample of each library in turn (the starting library rotates between
  repetitions), so machine noise hits all libraries alike.
* Reported: median sample time per library, and the ratio of medians relative
  to NumPy (< 1 means faster than NumPy). For bandwidth-bound cases also the
  achieved bandwidth (logical bytes read + written / median time).
* Each thread count runs in its own subprocess with OMP_NUM_THREADS,
  OPENBLAS_NUM_THREADS, MKL_NUM_THREADS, XLA_FLAGS and ARRAYCORE_NUM_THREADS set
  before any library is imported; torch.set_num_threads(N) is also called.
* Very fast operations are timed as a loop of many calls per sample
  (calibrated per library so that a sample lasts >= --sample-ms); the
  reported time is per call.
* A library that cannot be imported is skipped with a note, as is a library
  whose setup fails for a particular case.
* JAX is measured in eager mode (``jnp`` calls as users write them, no
  ``jax.jit``); every JAX callable blocks until its result is ready.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

LIBRARIES = ("numpy", "arraycore", "torch", "jax")
BASELINE = "numpy"


@dataclass
class Case:
    name: str
    setups: Dict[str, Callable]  # library name -> setup(mod) -> zero-arg callable
    bytes_moved: Optional[int] = None  # logical bytes read + written per call
    note: str = ""
    fast: bool = False  # per-call time is tiny: loop many calls per sample
    tags: List[str] = field(default_factory=list)


# --------------------------------------------------------------------------
# environment / library loading
# --------------------------------------------------------------------------

def thread_env(n: int) -> Dict[str, str]:
    multi = "true" if n > 1 else "false"
    return {
        "OMP_NUM_THREADS": str(n),
        "OPENBLAS_NUM_THREADS": str(n),
        "MKL_NUM_THREADS": str(n),
        "XLA_FLAGS": f"--xla_cpu_multi_thread_eigen={multi} intra_op_parallelism_threads={n}",
        "ARRAYCORE_NUM_THREADS": str(n),
        "JAX_PLATFORMS": "cpu",
        "JAX_ENABLE_X64": "1",  # float64 cases must really be float64 in JAX
    }


# What NumPy, PyTorch (and its MKL) and JAX need to pick their AVX2 kernels on an AVX-512
# machine, so that a session on one kind of machine can measure the other kind's ratios
# (`--emulate-avx2`; arraycore's ISA is fixed when it is compiled, so that run also needs
# `--arraycore-root` pointing at a build made without AVX-512, e.g. -march=znver3).
AVX2_ENV = {
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
    "ATEN_CPU_CAPABILITY": "avx2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
    # OpenBLAS (NumPy's, SciPy's and so JAX's LAPACK, and arraycore's scipy-openblas32)
    # picks its kernels at run time too: Haswell is its AVX2 kernel set
    "OPENBLAS_CORETYPE": "Haswell",
}
AVX2_XLA_FLAG = "--xla_cpu_max_isa=AVX2"


def load_library(name: str, threads: int):
    if name == "numpy":
        import numpy as mod
    elif name == "arraycore":
        import arraycore as mod
    elif name == "torch":
        import torch as mod
        mod.set_num_threads(threads)
        try:
            mod.set_num_interop_threads(threads)
        except RuntimeError:
            pass
    elif name == "jax":
        import jax
        jax.config.update("jax_enable_x64", True)
        jax.config.update("jax_platforms", "cpu")
        import jax.numpy as mod
        # first call initializes the backend: keep that out of the timings
        mod.zeros(1).block_until_ready()
    else:
        raise ValueError(name)
    return mod


def library_version(name: str, mod) -> str:
    if name == "jax":
        import jax
        return jax.__version__
    if name == "arraycore":  # which copy: a source tree or an installed package
        return f"{getattr(mod, '__version__', '?')} ({os.path.dirname(mod.__file__)})"
    return str(getattr(mod, "__version__", "?"))


# --------------------------------------------------------------------------
# measurement
# --------------------------------------------------------------------------

def _time_once(fn: Callable, inner: int) -> float:
    """Seconds per call, for one sample of `inner` calls."""
    pc = time.perf_counter_ns
    if inner == 1:
        t0 = pc()
        fn()
        return (pc() - t0) * 1e-9
    rng = range(inner)
    t0 = pc()
    for _ in rng:
        fn()
    return (pc() - t0) * 1e-9 / inner


def _calibrate(fn: Callable, fast: bool, sample_s: float) -> int:
    if not fast:
        return 1
    inner = 1
    while True:
        t = _time_once(fn, inner) * inner
        if t >= sample_s or inner >= 1 << 22:
            return inner
        inner *= max(2, min(10, int(sample_s / max(t, 1e-9)) + 1))


def run_case(case: Case, mods: Dict[str, object], reps: int, warmup: int,
             sample_s: float, notes: List[str], max_case_s: float = float("inf"),
             min_reps: int = 7) -> Dict[str, dict]:
    fns, inners = {}, {}
    for lib, mod in mods.items():
        setup = case.setups.get(lib)
        if setup is None:
            continue
        try:
            fn = setup(mod)
            fn()  # smoke run (also first-call compilation/caching)
        except Exception as exc:  # noqa: BLE001 - report and skip
            notes.append(f"{case.name}: {lib} skipped ({type(exc).__name__}: {exc})"[:300])
            continue
        fns[lib] = fn
    for lib, fn in fns.items():
        for _ in range(warmup):
            fn()
        inners[lib] = _calibrate(fn, case.fast, sample_s)
    samples = {lib: [] for lib in fns}
    order = list(fns)
    t_case = time.perf_counter()
    for rep in range(reps):
        # time budget: stop early (but never before min_reps) on a slow/loaded machine
        if rep >= min(reps, min_reps) and time.perf_counter() - t_case > max_case_s:
            notes.append(f"{case.name}: stopped after {rep} repetitions (time budget {max_case_s:g}s)")
            break
        k = rep % len(order) if order else 0
        for lib in order[k:] + order[:k]:  # rotate the starting library
            samples[lib].append(_time_once(fns[lib], inners[lib]))
    out = {}
    for lib, s in samples.items():
        med = statistics.median(s)
        out[lib] = {
            "median_s": med,
            "min_s": min(s),
            "samples_s": s,
            "n_samples": len(s),
            "calls_per_sample": inners[lib],
            "gbps": (case.bytes_moved / med / 1e9) if case.bytes_moved else None,
        }
    base = out.get(BASELINE)
    for lib, r in out.items():
        r["ratio_vs_numpy"] = (r["median_s"] / base["median_s"]) if base else None
    del fns
    gc.collect()
    return out


def run_child(build_cases, threads: int, libs: List[str], reps: int, warmup: int,
              sample_s: float, quick: bool, max_case_s: float = float("inf"),
              case_pattern: str = "") -> dict:
    notes: List[str] = []
    mods, versions = {}, {}
    for lib in libs:
        try:
            mods[lib] = load_library(lib, threads)
            versions[lib] = library_version(lib, mods[lib])
        except Exception as exc:  # noqa: BLE001
            notes.append(f"{lib} not available, skipped ({type(exc).__name__}: {exc})"[:300])
    cases = build_cases(quick=quick)
    if case_pattern:
        cases = [c for c in cases if re.search(case_pattern, c.name)]
    results = []
    for case in cases:
        t0 = time.perf_counter()
        res = run_case(case, mods, reps, warmup, sample_s, notes, max_case_s)
        results.append({
            "case": case.name,
            "note": case.note,
            "bytes_moved": case.bytes_moved,
            "fast": case.fast,
            "results": res,
            "wall_s": time.perf_counter() - t0,
        })
        print(f"  [threads={threads}] {case.name}: done in {time.perf_counter() - t0:.1f}s",
              file=sys.stderr, flush=True)
    return {"threads": threads, "versions": versions, "notes": notes, "cases": results,
            "reps": reps, "warmup": warmup}


# --------------------------------------------------------------------------
# reporting
# --------------------------------------------------------------------------

def _fmt_time(s: float) -> str:
    if s < 1e-6:
        return f"{s * 1e9:.0f} ns"
    if s < 1e-3:
        return f"{s * 1e6:.2f} us"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.3f} s"


def format_report(run: dict, libs: List[str]) -> str:
    lines = []
    th = run["threads"]
    present = [lib for lib in libs if lib in run["versions"]]
    vers = ", ".join(f"{lib} {run['versions'][lib]}" for lib in present)
    lines.append(f"=== threads={th}  (median of up to {run['reps']} interleaved samples; "
                 f"ratio = median(lib)/median(numpy), < 1 is faster)  [{vers}]")
    w0 = max([len("case")] + [len(c["case"]) for c in run["cases"]]) + 2
    w = 24
    header = "case".ljust(w0) + "".join(lib.rjust(w) for lib in libs)
    lines.append(header)
    lines.append("-" * len(header))
    for c in run["cases"]:
        row = c["case"].ljust(w0)
        for lib in libs:
            r = c["results"].get(lib)
            if r is None:
                cell = "n/a"
            elif lib == BASELINE or r["ratio_vs_numpy"] is None:
                cell = _fmt_time(r["median_s"])
            else:
                cell = f"{_fmt_time(r['median_s'])} ({r['ratio_vs_numpy']:.2f}x)"
            row += cell.rjust(w)
        lines.append(row)
    # Targets are also stated against PyTorch and JAX (autodiff, training steps).
    vs = [c for c in run["cases"] if "arraycore" in c["results"]
          and any(o in c["results"] for o in ("torch", "jax"))]
    if vs:
        lines.append("")
        lines.append("ratio of medians arraycore / other library (< 1: arraycore faster)")
        for c in vs:
            a = c["results"]["arraycore"]["median_s"]
            cells = [f"vs {o}: {a / c['results'][o]['median_s']:.2f}x"
                     for o in ("torch", "jax") if o in c["results"]]
            lines.append(c["case"].ljust(w0) + "   ".join(cells))
    bw = [c for c in run["cases"] if c["bytes_moved"]]
    if bw:
        lines.append("")
        lines.append("achieved bandwidth, GB/s (logical bytes read + written / median time)")
        for c in bw:
            row = c["case"].ljust(w0)
            for lib in libs:
                r = c["results"].get(lib)
                row += ("n/a" if r is None else f"{r['gbps']:.1f}").rjust(w)
            lines.append(row)
    notes = [f"{c['case']}: {c['note']}" for c in run["cases"] if c["note"]] + run["notes"]
    if notes:
        lines.append("")
        lines.append("notes:")
        lines.extend(f"  - {n}" for n in notes)
    return "\n".join(lines)


# --------------------------------------------------------------------------
# entry point
# --------------------------------------------------------------------------

def main(build_cases, argv=None, description: str = "") -> int:
    ap = argparse.ArgumentParser(description=description or __doc__.splitlines()[0])
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    ap.add_argument("--libs", default=",".join(LIBRARIES), help="libraries to compare")
    ap.add_argument("--reps", type=int, default=None, help="samples per library (default 21, quick 5)")
    ap.add_argument("--warmup", type=int, default=None, help="warmup calls (default 3, quick 1)")
    ap.add_argument("--sample-ms", type=float, default=None,
                    help="min sample duration for fast cases (default 20, quick 5)")
    ap.add_argument("--max-case-s", type=float, default=None,
                    help="per case and thread count time budget; repetitions stop early "
                         "(after at least 7) when exceeded (default 15, quick 5)")
    ap.add_argument("--quick", action="store_true", help="few repetitions (smoke test)")
    ap.add_argument("--json", metavar="PATH", help="write all results as JSON")
    ap.add_argument("--cases", metavar="REGEX", default="",
                    help="run only the cases whose name matches REGEX (re.search)")
    ap.add_argument("--emulate-avx2", action="store_true",
                    help="make NumPy, PyTorch and JAX use their AVX2 kernels (see AVX2_ENV)")
    ap.add_argument("--arraycore-root", metavar="DIR", default=None,
                    help="measure the arraycore package under DIR (default: this source tree's "
                         "developer build when it has one)")
    ap.add_argument("--no-pin", dest="pin", action="store_false",
                    help="do not pin each thread count's run to that many CPUs")
    ap.add_argument("--child-out", help=argparse.SUPPRESS)  # internal: child mode
    args = ap.parse_args(argv)

    libs = [s.strip() for s in args.libs.split(",") if s.strip()]
    reps = args.reps or (5 if args.quick else 21)
    warmup = args.warmup if args.warmup is not None else (1 if args.quick else 3)
    sample_s = (args.sample_ms or (5.0 if args.quick else 20.0)) * 1e-3
    max_case_s = args.max_case_s or (5.0 if args.quick else 15.0)

    if args.child_out:
        threads = int(args.threads)
        run = run_child(build_cases, threads, libs, reps, warmup, sample_s, args.quick, max_case_s,
                        args.cases)
        with open(args.child_out, "w") as f:
            json.dump(run, f)
        return 0

    thread_counts = [int(t) for t in args.threads.split(",")]
    script = os.path.abspath(sys.argv[0])
    # A source tree with a developer build (tools/dev_build.sh) is what gets measured, not
    # an installed copy that may be older; the report names the copy.
    import glob
    repo = os.path.dirname(os.path.dirname(script))
    ac_root = repo if glob.glob(os.path.join(repo, "arraycore", "native", "_native*")) \
        else None
    if args.arraycore_root:
        ac_root = os.path.abspath(args.arraycore_root)
    runs = []
    t_start = time.perf_counter()
    for n in thread_counts:
        env = dict(os.environ)
        env.update(thread_env(n))
        if args.emulate_avx2:
            env.update(AVX2_ENV)
            env["XLA_FLAGS"] += " " + AVX2_XLA_FLAG
        if ac_root:
            env["PYTHONPATH"] = os.pathsep.join([ac_root] + [p for p in (
                env.get("PYTHONPATH", ""),) if p])
        with tempfile.TemporaryDirectory() as td:
            out = os.path.join(td, "run.json")
            cmd = [sys.executable, script, "--threads", str(n), "--libs", ",".join(libs),
                   "--reps", str(reps), "--warmup", str(warmup),
                   "--sample-ms", str(sample_s * 1e3), "--max-case-s", str(max_case_s),
                   "--cases", args.cases, "--child-out", out]
            if args.quick:
                cmd.append("--quick")
            # Pinned to n CPUs: a library that spawns helper threads despite its thread
            # settings (JAX's eager CPU runtime used ~1.8 cores for erf and log_softmax with
            # intra_op_parallelism_threads=1) would otherwise be timed on an idle machine as
            # if it had more than n threads.
            cpus = sorted(os.sched_getaffinity(0))
            pin = cpus[:n] if args.pin and n <= len(cpus) else None
            proc = subprocess.run(
                cmd, env=env,
                preexec_fn=(lambda: os.sched_setaffinity(0, pin)) if pin else None)
            if proc.returncode != 0 or not os.path.exists(out):
                print(f"threads={n}: benchmark subprocess failed (rc={proc.returncode})",
                      file=sys.stderr)
                continue
            with open(out) as f:
                runs.append(json.load(f))
        print(format_report(runs[-1], libs), flush=True)
        print(flush=True)
    print(f"total wall time {time.perf_counter() - t_start:.1f}s; JAX measured eager "
          f"(jnp ops, no jax.jit), every JAX call blocks until ready; "
          f"{'each run pinned to as many CPUs as threads' if args.pin else 'not pinned'}.")
    print(f"arraycore from {ac_root or 'the installed package'}"
          + ("; NumPy, PyTorch and JAX limited to AVX2 (--emulate-avx2)"
             if args.emulate_avx2 else ""))
    if args.json:
        meta = {
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpu_count": os.cpu_count(),
            "script": os.path.relpath(script),
            "argv": sys.argv[1:],
            "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "runs": runs}, f, indent=1)
        print(f"wrote {args.json}")
    return 0 if runs else 1
