"""scikit-learn's own array API tests on arraycore (issue 8, "drop-in").

tests/sklearn_arraycore_plugin.py makes scikit-learn's test parametrizations yield
"arraycore"; these tests run scikit-learn's suite with it in a child process (SCIPY_ARRAY_API
must be set before SciPy and scikit-learn are imported) and read pytest's counts:

- `test_sklearn_array_api_subset` (default run): the arraycore cases of a few modules that
  exercise most of the namespace (array API utilities, preprocessing, metrics, pairwise).
- `test_sklearn_array_api_full` (slow, `--runslow`, several minutes on 2 cores): every
  arraycore case of `pytest --pyargs sklearn -k "array_api or array_namespace"`.

Every arraycore case must pass.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import child_process_options

pytest.importorskip("sklearn")
pytest.importorskip("scipy")

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
SELECT = "(array_api or array_namespace) and arraycore"
SUBSET_MODULES = ["utils/tests/test_array_api.py", "preprocessing/tests/test_data.py",
                  "metrics/tests/test_pairwise.py", "utils/tests/test_validation.py"]


def run_sklearn(targets, timeout):
    """Runs scikit-learn's tests `targets` (pytest arguments) with the plugin; returns
    (counts by outcome, failure lines, output)."""
    opts = child_process_options()
    env = opts["env"]
    env["PYTHONPATH"] = os.pathsep.join([TESTS_DIR, env["PYTHONPATH"]])
    env["SCIPY_ARRAY_API"] = "1"
    cmd = [sys.executable, "-m", "pytest", *targets, "-p", "sklearn_arraycore_plugin",
           "-k", SELECT, "-q", "-p", "no:cacheprovider", "-rf", "--tb=line",
           "-W", "ignore::DeprecationWarning"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **opts)
    out = proc.stdout + proc.stderr
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|failed|error|errors|skipped|"
                                                 r"xfailed|xpassed)", summary)}
    assert counts.get("passed", 0) > 0, f"scikit-learn's tests did not run:\n{out[-3000:]}"
    failures = [line for line in out.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return counts, failures, out


def check_outcome(counts, failures, out):
    # --tb=line: one "path:line: SomeError: message" line per failure
    errors = [line for line in out.splitlines() if re.match(r"^/.*:\d+: \w*(Error|Exception)",
                                                             line)]
    print(f"\nscikit-learn array API tests on arraycore: {counts}")
    assert not failures, "\n".join(failures[:50]) + "\n" + "\n".join(errors[:50])


def test_sklearn_array_api_subset():
    import sklearn
    root = os.path.dirname(sklearn.__file__)
    targets = [os.path.join(root, m) for m in SUBSET_MODULES
               if os.path.exists(os.path.join(root, m))]
    counts, failures, out = run_sklearn(targets, timeout=600)
    check_outcome(counts, failures, out)


@pytest.mark.slow
def test_sklearn_array_api_full():
    counts, failures, out = run_sklearn(["--pyargs", "sklearn"], timeout=3600)
    check_outcome(counts, failures, out)
