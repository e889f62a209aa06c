"""SciPy (SCIPY_ARRAY_API=1) and scikit-learn (array_api_dispatch=True) run on arraycore arrays
unchanged and return arraycore arrays equal to their NumPy results (tests/dropin_calls.py)."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from dropin_calls import fft_calls, scipy_calls, sklearn_calls, stats_calls  # noqa: E402

pytest.importorskip("scipy")
pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def results():
    from conftest import child_process_options
    opts = child_process_options()
    opts["env"]["SCIPY_ARRAY_API"] = "1"
    out = subprocess.run([sys.executable, os.path.join(HERE, "dropin_calls.py"), "all"],
                         capture_output=True, text=True, timeout=600, **opts)
    assert out.returncode == 0, out.stderr[-3000:]
    return {r["name"]: r for r in map(json.loads, out.stdout.splitlines())}


NAMES = list(scipy_calls()) + list(stats_calls()) + list(fft_calls()) + list(sklearn_calls())


@pytest.mark.parametrize("name", NAMES)
def test_library_call_matches_numpy(results, name):
    r = results[name]
    assert r["error"] is None, r["error"]
    assert r["is_arraycore"], f"{name} returned {r['type']}, not an arraycore array"
    assert r["ok"], f"{name}: result differs from NumPy's"
