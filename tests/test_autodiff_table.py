"""Completeness of the autodiff rule table: every op of arraycore._core.op_table.OPS is
either non-differentiable (with a batching rule) or has jvp, vjp and batching rules and
declares what its vjp saves, and every op has autodiff test metadata in
tests/autodiff_op_info.py.  Each check is parametrized by op name, so a failure names the op
that was registered without rules or without test metadata.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import arraycore as ac  # noqa: F401 - installs the rules on the table
from arraycore._core.op_table import OPS

from autodiff_op_info import OP_INFO, SMOKE, Case, cases, outputs

NAMES = sorted(OPS)

# Nondiff ops whose results are floating (their values, not derivatives, are what they
# return: unique values, broadcast shapes).  Any other nondiff op must return integers or
# bools, else a missing rule would hide behind a nondiff mark.
NONDIFF_FLOAT_OK = {"unique_all", "unique_counts", "unique_inverse", "unique_values",
                    # special functions whose derivative has no closed form (as in PyTorch
                    # and JAX): Riemann zeta - 1
                    "zetac"}


@pytest.mark.parametrize("name", NAMES)
def test_op_has_rules_or_nondiff_mark(name):
    op = OPS[name]
    if op.nondiff:
        assert callable(op.batch), f"{name}: nondiff but no batching rule"
        return
    missing = [k for k in ("jvp", "vjp", "batch") if not callable(getattr(op, k))]
    assert not missing, f"{name}: no {', '.join(missing)} rule and not marked nondiff " \
                        f"(family {op.family!r}: arraycore/autodiff/rules/)"


@pytest.mark.parametrize("name", [n for n in NAMES if not OPS[n].nondiff])
def test_differentiable_op_declares_saves(name):
    op = OPS[name]
    assert "saves" in op.extra, f"{name}: extra['saves'] (what its vjp reads) is missing"
    saves = op.extra["saves"]
    assert isinstance(saves, (tuple, list)), f"{name}: saves must be a tuple of slots"
    params = list(inspect.signature(op.impl).parameters.values()) if op.impl else []
    names = {p.name for p in params}
    variadic = any(p.kind is p.VAR_POSITIONAL for p in params)
    n_pos = len([p for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                p.POSITIONAL_OR_KEYWORD)])
    for s in saves:
        if s == "out":
            continue
        if type(s) is int:
            assert variadic or 0 <= s < n_pos, f"{name}: saved slot {s} is not a position"
        else:
            assert s in names, f"{name}: saved slot {s!r} is not a parameter of {name}"


@pytest.mark.parametrize("name", NAMES)
def test_op_has_autodiff_test_metadata(name):
    assert name in OP_INFO, (
        f"{name}: no autodiff test metadata; add an OpInfo entry (samples and a JAX "
        "reference) to tests/autodiff_op_info.py")
    info = OP_INFO[name]
    assert info.dtypes, f"{name}: no dtypes to test"
    if not OPS[name].nondiff:
        assert callable(info.ref), f"{name}: no JAX reference"
        assert "float64" in info.dtypes, f"{name}: float64 must be tested"


def test_no_metadata_for_unknown_ops():
    stale = sorted(set(OP_INFO) - set(OPS))
    assert not stale, f"autodiff_op_info has entries for ops not in the table: {stale}"
    assert not set(SMOKE) - set(OP_INFO), "SMOKE names ops without metadata"


@pytest.mark.parametrize("name", NAMES)
def test_samples_run(name):
    """Every sample is a valid call (so the derivative tests test the rules, not the
    samples), and a nondiff op returns integers or bools."""
    if name not in OP_INFO:
        pytest.skip("no metadata (reported by test_op_has_autodiff_test_metadata)")
    info = OP_INFO[name]
    for dtype in info.dtypes:
        cs = cases(name, dtype)
        assert cs, f"{name}: no samples for {dtype}"
        for case in cs:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                out = case.call_ac(case.ac_values())
            if OPS[name].nondiff and name not in NONDIFF_FLOAT_OK:
                for o in outputs(out):
                    kind = getattr(getattr(o, "dtype", None), "kind", "i")
                    assert kind in "biu", (f"{case!r}: nondiff op returns {o.dtype}; "
                                           "give it derivative rules")
            elif not OPS[name].nondiff:
                assert case.diff, f"{case!r}: no differentiated (floating) input"


def test_case_layouts_are_what_they_claim():
    """The non-contiguous layouts of the samples really are non-contiguous."""
    case = Case("sin", "float64", cases("sin", "float64")[0].sample)
    from autodiff_op_info import to_ac
    v = case.values[0]
    for layout in ("transposed", "strided", "negative"):
        a = to_ac(v, layout)
        np.testing.assert_array_equal(np.asarray(a), v)
        assert not np.asarray(a).flags["C_CONTIGUOUS"], layout


LINEAR = [n for n in NAMES if (OPS[n].linear or OPS[n].bilinear) and not OPS[n].nondiff]


@pytest.mark.parametrize("name", LINEAR)
def test_linear_flag_is_true(name):
    """An op flagged `linear` has jvp(op)(x; t) == op(t) - op(0) (its jvp is generated from
    the flag, rules/linear.py; op(0) is the offset of a Python-scalar operand), and one flagged `bilinear` op(t1, x2) + op(x1, t2): the flag is a claim
    about the math, checked on every sample in float64 (and complex128 where accepted)."""
    if name not in OP_INFO:
        pytest.skip("no metadata (reported by test_op_has_autodiff_test_metadata)")
    from autodiff_op_info import to_ac
    op = OPS[name]
    for dtype in [d for d in OP_INFO[name].dtypes if d in ("float64", "complex128")]:
        for case in cases(name, dtype, seed=3):
            f, xs = case.f_ac()
            ts = [to_ac(case.random_like(np.asarray(x))) for x in xs]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                _, tangent_out = ac.func.jvp(f, tuple(xs), tuple(ts))
                if op.linear:
                    # op(t) - op(0): a Python-scalar operand (x + 1.5) is a constant offset
                    want = [p - q for p, q in zip(outputs(f(*ts)),
                                                  outputs(f(*[ac.zeros_like(x) for x in xs])))]
                else:
                    assert len(xs) == 2, f"{case!r}: bilinear op with {len(xs)} inputs"
                    a, b = f(ts[0], xs[1]), f(xs[0], ts[1])
                    want = [p + q for p, q in zip(outputs(a), outputs(b))]
            for got, exp in zip(outputs(tangent_out), outputs(want)):
                np.testing.assert_allclose(np.asarray(got), np.asarray(exp), rtol=1e-12,
                                           atol=1e-12, err_msg=repr(case))
