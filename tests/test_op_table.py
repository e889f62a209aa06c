"""Completeness: the native kernels, the op table, the namespace and the tests agree.

A new op is one table entry plus one native kernel; these tests fail until both exist, the
kernel covers exactly the dtypes the entry accepts, the public function is exported, and the
entry carries test metadata (which then drives tests/test_elementwise.py).
"""

import numpy as np
import pytest

import arraycore as ac
from arraycore._core import dtypes as D
from arraycore._core.op_table import OPS, home_module
from arraycore.native import _native

from op_info import ELEMENTWISE, reference

# The 67 elementwise functions of the Array API 2025.12 (clip included).
STANDARD_ELEMENTWISE = """
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert
bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp
expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal
log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum
multiply negative nextafter not_equal positive pow real reciprocal remainder round sign signbit
sin sinh square sqrt subtract tan tanh trunc
""".split()

STANDARD_CREATION = """arange asarray empty empty_like eye from_dlpack full full_like linspace
meshgrid ones ones_like tril triu zeros zeros_like""".split()
STANDARD_DATA_TYPES = "astype can_cast finfo iinfo isdtype result_type".split()
STANDARD_DTYPES = """bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64
complex64 complex128""".split()
STANDARD_CONSTANTS = "e inf nan newaxis pi".split()

# Kernels the engine registers for its own use, not as public ops.
INTERNAL_KERNELS: set = set()


def test_standard_elementwise_names_are_all_in_the_table():
    assert len(STANDARD_ELEMENTWISE) == 67
    assert sorted(op.name for op in ELEMENTWISE) == sorted(STANDARD_ELEMENTWISE)


@pytest.mark.parametrize("name", STANDARD_ELEMENTWISE + STANDARD_CREATION + STANDARD_DATA_TYPES
                         + STANDARD_DTYPES + STANDARD_CONSTANTS + ["__array_namespace_info__"])
def test_namespace_exports_standard_name(name):
    assert hasattr(ac, name), f"arraycore.{name} is missing"
    assert name in ac.__all__


# Entries run by one native kernel: the elementwise ops and the special functions.
ELEMENTWISE_OPS = [op for op in OPS.values() if op.family in ("elementwise", "special")]


def test_every_elementwise_op_has_a_native_kernel():
    names = set(_native.kernel_names())
    missing = [op.name for op in ELEMENTWISE_OPS if op.kernel not in names]
    assert not missing, f"ops without native kernels: {missing}"


def test_every_native_kernel_belongs_to_an_op():
    used = {op.kernel for op in ELEMENTWISE_OPS} | INTERNAL_KERNELS
    orphans = sorted(set(_native.kernel_names()) - used)
    assert not orphans, f"native kernels not registered in the op table: {orphans}"


@pytest.mark.parametrize("op", ELEMENTWISE_OPS, ids=[op.name for op in ELEMENTWISE_OPS])
def test_kernel_dtypes_match_the_table(op):
    kinds = D.KIND_CATEGORIES[op.accepts]
    want = sorted(d.code for d in D.ALL_DTYPES if d.kind in kinds)
    got = sorted(_native.kernel(op.kernel).dtype_codes())
    assert got == want, (f"{op.name}: kernel has loops for "
                         f"{[D.BY_CODE[c].name for c in got]}, table accepts {op.accepts}")


@pytest.mark.parametrize("op", ELEMENTWISE_OPS, ids=[op.name for op in ELEMENTWISE_OPS])
def test_kernel_output_dtype_matches_result_rule(op):
    k = _native.kernel(op.kernel)
    for code in k.dtype_codes():
        d = D.BY_CODE[code]
        want = {"same": d, "bool": D.bool_,
                "real": {"complex64": D.float32, "complex128": D.float64}.get(d.name, d)}[
            op.result]
        assert k.out_dtype_code(code) == want.code, f"{op.name}({d})"


@pytest.mark.parametrize("op", list(OPS.values()), ids=list(OPS))
def test_every_op_has_test_metadata(op):
    assert op.test is not None, f"{op.name} is registered without test metadata"
    assert callable(reference(op)), f"{op.name}: reference {op.test.ref!r} not found"


@pytest.mark.parametrize("op", list(OPS.values()), ids=list(OPS))
def test_every_op_is_public_and_documented(op):
    """Every table entry, of any family, is a documented public function (array methods:
    `getitem`/`setitem` are x[key] and x[key] = value)."""
    if op.family == "array_method":
        assert hasattr(ac.Array, f"__{op.name}__"), op.name
        return
    home = home_module(ac, op)
    assert op.name in home.__all__, f"{op.name} is in the op table but not exported"
    assert getattr(home, op.name).__doc__, op.name


def test_reference_module_is_numpy_2():
    assert int(np.__version__.split(".")[0]) >= 2
