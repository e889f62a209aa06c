"""Maximum error of every arraycore.special function against mpmath (tests/special_accuracy.py):
at most 4 ulp in float32 and 1e-13 relative error in float64 on each stated domain.  The
default run checks 40 points per (spec, dtype); --runslow checks 2000."""

from __future__ import annotations

import pytest

import special_accuracy as sa
from arraycore._core.ops.special import special_ops

SPECS = sa.specs()


def _params():
    out = []
    for spec in SPECS:
        for dtype in spec.dtypes:
            out.append(pytest.param(spec, dtype, id=f"{spec.label}-{dtype}"))
    return out


@pytest.mark.parametrize("spec,dtype", _params())
def test_max_error(spec, dtype, request):
    n = 2000 if request.config.getoption("--runslow") else 40
    err, at, got, exact = sa.measure(spec, dtype, n)
    unit = "ulp" if dtype == "float32" else "relative"
    assert err <= sa.bound(spec, dtype), (
        f"{spec.label} {dtype}: max error {err:.3g} {unit} > {sa.bound(spec, dtype)} at "
        f"{at}: got {got!r}, exact {exact!r}")


def test_every_special_function_has_an_accuracy_spec():
    covered = {s.name for s in SPECS}
    missing = [op.name for op in special_ops() if op.name not in covered]
    assert not missing, f"special functions without an accuracy spec: {missing}"
