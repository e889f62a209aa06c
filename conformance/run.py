"""Runs the public Array API conformance suite (data-apis/array-api-tests) against arraycore.

    python conformance/run.py /path/to/array-api-tests [--array-api /path/to/array-api]
                              [--max-examples 200] [extra pytest arguments]

The suite needs its `array-api` submodule (the standard's stubs): pass a checkout of
data-apis/array-api with --array-api when the suite's checkout lacks it.  The run uses
ARRAY_API_TESTS_VERSION=2025.12 and skips the tests listed in conformance/skips.txt (each with its
reason).  The whole suite runs, the linalg and fft extensions included; `--disable-extension
linalg` (the suite's own option) leaves one out while working on it.  arraycore must be
importable (installed, or on PYTHONPATH for the in-place developer build).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIPS = os.path.join(HERE, "skips.txt")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", help="checkout of data-apis/array-api-tests")
    parser.add_argument("--array-api", help="checkout of data-apis/array-api (the submodule)")
    parser.add_argument("--max-examples", type=int, default=200)
    args, pytest_args = parser.parse_known_args(argv)
    pytest_args = [a for a in pytest_args if a != "--"]

    suite = os.path.abspath(args.suite)
    stubs = os.path.join(suite, "array-api")
    if not os.path.isdir(os.path.join(stubs, "src")):
        if not args.array_api:
            parser.error(f"{stubs} is empty: pass --array-api /path/to/array-api")
        if os.path.islink(stubs) or (os.path.isdir(stubs) and not os.listdir(stubs)):
            os.rmdir(stubs) if os.path.isdir(stubs) and not os.path.islink(stubs) else \
                os.unlink(stubs)
        os.symlink(os.path.abspath(args.array_api), stubs)

    env = dict(os.environ, ARRAY_API_TESTS_MODULE="arraycore",
               ARRAY_API_TESTS_VERSION="2025.12")
    targets = [] if any(a.startswith("array_api_tests") for a in pytest_args) \
        else ["array_api_tests"]
    # test_has_names does not honour --disable-extension: deselect its parameters for the
    # disabled extensions too (the ids look like test_has_names[linalg-cholesky]).
    disabled, taking = [], False
    for a in pytest_args:  # the option takes one or more names
        taking = (a == "--disable-extension") or (taking and not a.startswith("-"))
        if taking and a != "--disable-extension":
            disabled.append(a)
    select = ["-k", "not (test_has_names and (" + " or ".join(disabled) + "))"] \
        if disabled else []
    cmd = [sys.executable, "-m", "pytest", *targets, "-p", "no:cacheprovider",
           "--max-examples", str(args.max_examples), "--skips-file", SKIPS,
           *select, "-q", "-rfE", *pytest_args]
    print("+", " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=suite, env=env)


if __name__ == "__main__":
    sys.exit(main())
