#!/usr/bin/env python3
"""Check that the kernel loops still vectorize inside their real translation units.

The elementwise and special-function kernels rely on GCC auto-vectorizing plain loops
(kernels/kernel_loops.h) after inlining each op's `apply`.  Whether that happens depends on
the translation unit as a whole: when a file grows past GCC's inline budget, a helper stays a
call and its loop runs scalar, 5-10x slower, while every test still passes (stop 24: zeta's
Hurwitz loop, 19.7 -> 167 ms per 1e6).  `tests/native/test_simd_math.py` checks the vector
math headers in a small file of its own; this tool checks the files the engine is built from.

For every kernel file it reruns the build's own compile command (from `ninja -t commands`)
with `-fdump-tree-vect-optimized`, counts the loops GCC reports as vectorized in each
function, and compares the counts with a baseline recorded for the same compiler version and
vector ISA (`tools/vectorization_baseline/`).  A function with fewer vectorized loops than
its baseline fails the check.  Function clones (`.part.N`, `.constprop.N`, ...) count toward
the function they were split from, because GCC's cloning decisions move with the code.

    python tools/check_vectorization.py                  # check (build/dev, all kernel files)
    python tools/check_vectorization.py --files special  # only files whose path matches
    python tools/check_vectorization.py --update         # record the baseline after a review

A pre-release check (several minutes on 2 cores: every kernel file is compiled once more).
A drop is a prompt to look, not always a bug: a restructured kernel may legitimately have
fewer loops; then review the diff of the baseline and commit it with `--update`.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE_DIR = ROOT / "tools" / "vectorization_baseline"
FUNCTION_HEADER = re.compile(r"^;; Function .* \(([^,\s]+),")
VECTORIZED = "optimized: loop vectorized"
CLONE_SUFFIX = re.compile(r"\.(part|constprop|isra|cold|lto_priv)\.\d+")


def kernel_commands(build_dir: Path, pattern: str):
    """(source path, compile command) of every kernels/*.cpp the build compiles."""
    out = subprocess.run(["ninja", "-C", str(build_dir), "-t", "commands"],
                         capture_output=True, text=True, check=True).stdout
    commands = {}
    for line in out.splitlines():
        m = re.search(r" -c (\S+/kernels/[^/\s]+\.cpp)$", line)
        if m and re.search(pattern, m.group(1)):
            commands[m.group(1)] = line
    return sorted(commands.items())


def vector_isa(command: str) -> str:
    """The widest vector ISA the command compiles for (names the baseline)."""
    probe = [a for a in shlex.split(command) if a.startswith(("-march=", "-mavx", "-mno-avx"))]
    macros = subprocess.run(["c++", *probe, "-dM", "-E", "-x", "c++", "/dev/null"],
                            capture_output=True, text=True, check=True).stdout
    if "__AVX512F__" in macros:
        return "avx512"
    return "avx2" if "__AVX2__" in macros else "sse"


def compiler_version() -> str:
    return subprocess.run(["c++", "-dumpversion"], capture_output=True, text=True,
                          check=True).stdout.strip()


def vectorized_loops(source: str, command: str, workdir: Path) -> dict:
    """{mangled function name: number of loops GCC vectorized in it} for one file."""
    stem = Path(source).stem
    obj = workdir / f"{stem}.o"
    args = shlex.split(command)
    args[args.index("-o") + 1] = str(obj)
    if "-MD" in args:  # no dependency file: the build's own would be overwritten
        i = args.index("-MD")
        del args[i:i + 5]  # -MD -MT target -MF depfile
    args += ["-fdump-tree-vect-optimized", "-dumpdir", str(workdir) + "/"]
    build = subprocess.run(args, capture_output=True, text=True)
    dumps = list(workdir.glob(f"{stem}.*.vect"))
    if build.returncode != 0:
        raise RuntimeError(f"{source}: compile failed\n{build.stderr[-2000:]}")
    if not dumps:  # nothing for the vectorizer (a file whose code is for another ISA)
        obj.unlink()
        return {}
    counts, function = {}, None
    with open(dumps[0]) as f:
        for line in f:
            m = FUNCTION_HEADER.match(line)
            if m:
                function = CLONE_SUFFIX.sub("", m.group(1))
                counts.setdefault(function, 0)
            elif VECTORIZED in line and function is not None:
                counts[function] += 1
    for p in dumps + [obj]:
        p.unlink()
    return counts  # functions without vectorized loops too: present with 0 is a failure


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return out.stdout.splitlines() if out.returncode == 0 else list(names)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=str(ROOT / "build" / "dev"))
    ap.add_argument("--files", default=".", help="regex on the kernel file paths")
    ap.add_argument("--update", action="store_true", help="record these counts as the baseline")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()

    commands = kernel_commands(Path(args.build_dir), args.files)
    if not commands:
        print(f"no kernel files matching {args.files!r} in {args.build_dir}", file=sys.stderr)
        return 2
    baseline_path = BASELINE_DIR / f"gcc{compiler_version().split('.')[0]}-{vector_isa(commands[0][1])}.json"
    baseline = json.loads(baseline_path.read_text()) if baseline_path.exists() else {}

    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {}
        for source, command in commands:
            workdir = Path(tmp) / Path(source).stem
            workdir.mkdir()
            futures[Path(source).name] = pool.submit(vectorized_loops, source, command, workdir)
        current = {name: fut.result() for name, fut in futures.items()}

    if args.update:
        BASELINE_DIR.mkdir(exist_ok=True)
        merged = {**baseline, **{name: {f: c for f, c in counts.items() if c}
                                 for name, counts in current.items()}}
        baseline_path.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n")
        total = sum(sum(v.values()) for v in current.values())
        print(f"recorded {total} vectorized loops in {len(current)} files -> {baseline_path}")
        return 0
    if not baseline:
        print(f"no baseline {baseline_path.name}: record one with --update", file=sys.stderr)
        return 2

    # A function that is still compiled on its own must keep its count.  One that is gone
    # was inlined into its caller (GCC moves such decisions with the code around): its loops
    # are then counted in the caller, so only the file's total must not drop.
    failures = []
    for name, counts in current.items():
        expected_counts = baseline.get(name, {})
        for function, expected in expected_counts.items():
            got = counts.get(function)
            if got is not None and got < expected:
                failures.append((name, function, expected, got))
        before, after = sum(expected_counts.values()), sum(counts.values())
        if after < before:
            failures.append((name, "(the whole file)", before, after))
    pretty = demangle([f[1] for f in failures])
    for (name, _, expected, got), function in zip(failures, pretty):
        print(f"{name}: {function}: {got} vectorized loops, baseline {expected}")
    checked = sum(len(baseline.get(n, {})) for n in current)
    print(f"{len(current)} files, {checked} kernel functions checked against {baseline_path.name}: "
          f"{len(failures)} with fewer vectorized loops")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
