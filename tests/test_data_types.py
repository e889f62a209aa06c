"""Data type functions (astype, can_cast, finfo, iinfo, isdtype, result_type), the inspection
namespace and the constants, against NumPy 2 and the standard's promotion table."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import arraycore as ac
from conftest import AC_DTYPES, DTYPE_NAMES, ac_from_numpy, assert_matches_numpy, random_numpy

PAIRS = [(a, b) for a in DTYPE_NAMES for b in DTYPE_NAMES]
KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]
_KIND_LETTERS = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
                 "real floating": "f", "complex floating": "c", "numeric": "iufc"}


def _source_values(src: str, dst: str) -> np.ndarray:
    """Random values of dtype `src` whose conversion to `dst` NumPy and C define."""
    rng = np.random.default_rng(DTYPE_NAMES.index(src) * 13 + DTYPE_NAMES.index(dst))
    s, d = np.dtype(src), np.dtype(dst)
    if d.kind in "iu" and s.kind in "fc":
        # only in-range values: NaN/inf/out-of-range float -> int is undefined
        lo = 0 if d.kind == "u" else max(-100, np.iinfo(d).min)
        hi = min(100, np.iinfo(d).max)
        a = rng.uniform(lo, hi, size=(3, 7))
        a[0, :3] = [0.0, -0.0 if d.kind == "i" else 0.0, 0.999]
        return (a + 1j * rng.uniform(-5, 5, size=a.shape)).astype(s) if s.kind == "c" \
            else a.astype(s)
    if s.kind in "iu":
        info = np.iinfo(s)
        a = rng.integers(info.min, info.max, size=(3, 7), dtype=s, endpoint=True)
        a.flat[:2] = [info.min, info.max]
        return a
    if s.kind == "b":
        return rng.random((3, 7)) < 0.5
    vals = rng.standard_normal((3, 7)) * 1e3
    vals.flat[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30]
    if d.kind == "b":
        vals.flat[4] = 1.0  # NaN -> bool is True in NumPy; keep it out of the way anyway
    a = vals.astype(s) if s.kind == "f" else (vals + 1j * vals[::-1]).astype(s)
    return a


@pytest.mark.parametrize("src,dst", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_astype_all_pairs(src, dst):
    a = _source_values(src, dst)
    x = ac_from_numpy(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ComplexWarning on complex -> real
        expected = a.astype(dst)
    y = ac.astype(x, getattr(ac, dst))
    assert_matches_numpy(y, expected, rtol=0)
    # non-contiguous input
    assert_matches_numpy(ac.astype(x[::-1, ::2], getattr(ac, dst)), expected[::-1, ::2], rtol=0)


def test_astype_copy_semantics():
    x = ac.asarray([1.0, 2.0])
    y = ac.astype(x, ac.float64)
    assert y is not x
    y[0] = 9.0
    assert float(x[0]) == 1.0
    z = ac.astype(x, ac.float64, copy=False)
    assert z is x
    w = ac.astype(x, ac.float32, copy=False)  # a copy is needed anyway: allowed
    assert w.dtype == ac.float32
    assert ac.astype(x, ac.float64, device="cpu").dtype == ac.float64


def test_astype_errors():
    x = ac.asarray([1.0])
    with pytest.raises(TypeError):
        ac.astype([1.0], ac.float32)
    with pytest.raises(TypeError):
        ac.astype(x, "float16")
    with pytest.raises(TypeError):
        ac.astype(x, None)
    with pytest.raises(ValueError):
        ac.astype(x, ac.float32, device="cuda")


def test_astype_0d_and_empty():
    assert_matches_numpy(ac.astype(ac.asarray(2.7), ac.int32), np.asarray(2.7).astype(np.int32))
    assert_matches_numpy(ac.astype(ac.zeros((0, 3)), ac.uint8), np.zeros((0, 3), np.uint8))


# ----------------------------------------------------------------------------- result_type

@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
def test_result_type_all_pairs_vs_numpy(a, b):
    got = ac.result_type(getattr(ac, a), getattr(ac, b))
    assert got.name == np.result_type(a, b).name
    assert ac.result_type(ac.zeros(1, dtype=getattr(ac, a)), getattr(ac, b)) is got
    # can_cast(a, b) iff promoting a with b gives b
    assert ac.can_cast(getattr(ac, a), getattr(ac, b)) == (got is getattr(ac, b))
    assert ac.can_cast(ac.zeros(1, dtype=getattr(ac, a)), getattr(ac, b)) == \
        (got is getattr(ac, b))


# The standard's required promotions (its promotion table): within a kind only.
_STANDARD = {
    ("int8", "int16"): "int16", ("int8", "int32"): "int32", ("int8", "int64"): "int64",
    ("int16", "int32"): "int32", ("int32", "int64"): "int64",
    ("uint8", "uint16"): "uint16", ("uint8", "uint64"): "uint64", ("uint32", "uint64"): "uint64",
    ("uint8", "int8"): "int16", ("uint8", "int16"): "int16", ("uint16", "int8"): "int32",
    ("uint16", "int32"): "int32", ("uint32", "int8"): "int64", ("uint32", "int64"): "int64",
    ("float32", "float64"): "float64", ("float32", "complex64"): "complex64",
    ("float64", "complex64"): "complex128", ("complex64", "complex128"): "complex128",
    ("bool", "bool"): "bool",
}


@pytest.mark.parametrize("a,b", list(_STANDARD))
def test_result_type_standard_table(a, b):
    want = _STANDARD[a, b]
    assert ac.result_type(getattr(ac, a), getattr(ac, b)).name == want
    assert ac.result_type(getattr(ac, b), getattr(ac, a)).name == want


def test_result_type_many():
    assert ac.result_type(ac.int8, ac.uint8, ac.float32) == ac.float32
    assert ac.result_type(ac.int8) == ac.int8
    assert ac.result_type(ac.zeros(2, dtype=ac.uint16), ac.int8, ac.int64) == ac.int64
    assert ac.result_type(ac.float32, ac.complex64, ac.float64) == ac.complex128
    # within one kind the order does not matter
    import itertools
    for perm in itertools.permutations([ac.uint8, ac.int16, ac.uint16, ac.int8]):
        assert ac.result_type(*perm) == ac.int32
    assert ac.result_type(ac.bool, ac.bool, ac.bool) == ac.bool


def test_result_type_of_every_triple_matches_numpy_in_any_order():
    """Three or more dtypes promote as NumPy's result_type does, whatever their order (a
    pairwise fold would give complex128 for uint16, int8, complex64; NumPy gives complex64)."""
    import itertools
    names = [d.name for d in ac.__array_namespace_info__().dtypes().values()]
    for t in itertools.product(names, repeat=3):
        want = np.result_type(*t).name
        assert ac.result_type(*(getattr(ac, n) for n in t)).name == want, t
    assert ac.result_type(ac.uint16, ac.int8, ac.complex64) == ac.complex64
    assert ac.result_type(ac.int8, ac.uint16, ac.complex64, ac.bool) == ac.complex64
    # the same rule for functions that combine many arrays
    parts = [ac.zeros(2, dtype=ac.uint16), ac.zeros(2, dtype=ac.int8), ac.zeros(2, dtype=ac.complex64)]
    assert ac.concat(parts).dtype == ac.complex64
    assert ac.stack(parts).dtype == ac.complex64
    assert ac.asarray(parts).dtype == ac.complex64


@pytest.mark.parametrize("dtype,scalar,expected", [
    ("int8", 1, "int8"), ("uint8", 1, "uint8"), ("int32", 1.0, "float64"),
    ("float32", 1j, "complex64"), ("bool", 1, "int64"), ("bool", True, "bool"),
    ("bool", 1.0, "float64"), ("bool", 1j, "complex128"), ("float32", 1, "float32"),
    ("float32", 2.5, "float32"), ("float64", 1j, "complex128"), ("int64", True, "int64"),
    ("complex64", 1.0, "complex64"), ("uint64", 1j, "complex128"), ("int16", 1j, "complex128"),
    ("float64", True, "float64"), ("complex64", 3, "complex64"),
])
def test_result_type_with_python_scalars(dtype, scalar, expected):
    assert ac.result_type(getattr(ac, dtype), scalar).name == expected
    assert ac.result_type(scalar, getattr(ac, dtype)).name == expected
    # NumPy 2 agrees (NEP 50 weak scalars)
    assert np.result_type(np.dtype(dtype), scalar).name == expected


def test_result_type_errors():
    with pytest.raises((ValueError, TypeError)):
        ac.result_type()
    with pytest.raises((ValueError, TypeError)):
        ac.result_type(1, 2.0)
    with pytest.raises(TypeError):
        ac.result_type("int8", [1])


def test_can_cast_examples():
    assert ac.can_cast(ac.int8, ac.int16)
    assert not ac.can_cast(ac.int16, ac.int8)
    assert ac.can_cast(ac.uint8, ac.int16)
    assert not ac.can_cast(ac.int64, ac.uint64)
    assert ac.can_cast(ac.float32, ac.complex64)
    assert not ac.can_cast(ac.complex64, ac.float64)
    assert ac.can_cast(ac.bool, ac.int8)
    assert not ac.can_cast(ac.float64, ac.int64)
    with pytest.raises(TypeError):
        ac.can_cast(1, ac.int8)
    with pytest.raises(TypeError):
        ac.can_cast(ac.int8, None)


# ----------------------------------------------------------------------------- finfo / iinfo

@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_finfo(name):
    f = ac.finfo(getattr(ac, name))
    n = np.finfo(name)
    assert f.bits == n.bits
    assert f.eps == float(n.eps)
    assert f.max == float(n.max)
    assert f.min == float(n.min)
    assert f.smallest_normal == float(n.smallest_normal)
    real = {"float32": ac.float32, "float64": ac.float64, "complex64": ac.float32,
            "complex128": ac.float64}[name]
    assert f.dtype == real
    for attr in ("eps", "max", "min", "smallest_normal"):
        assert type(getattr(f, attr)) is float
    assert ac.finfo(ac.zeros(1, dtype=getattr(ac, name))).bits == n.bits


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64"])
def test_iinfo(name):
    i = ac.iinfo(getattr(ac, name))
    n = np.iinfo(name)
    assert (i.bits, i.max, i.min) == (n.bits, n.max, n.min)
    assert type(i.max) is int and type(i.min) is int
    assert i.dtype == getattr(ac, name)
    assert ac.iinfo(ac.zeros(1, dtype=getattr(ac, name))).max == n.max


def test_finfo_iinfo_errors():
    for d in ("bool", "int8", "uint64"):
        with pytest.raises((TypeError, ValueError)):
            ac.finfo(getattr(ac, d))
    for d in ("bool", "float32", "complex128"):
        with pytest.raises((TypeError, ValueError)):
            ac.iinfo(getattr(ac, d))
    with pytest.raises((TypeError, ValueError)):
        ac.finfo("float32x")
    with pytest.raises((TypeError, ValueError)):
        ac.iinfo(3)


# ----------------------------------------------------------------------------- isdtype

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_isdtype_kinds(name, kind):
    d = getattr(ac, name)
    assert ac.isdtype(d, kind) == (np.dtype(name).kind in _KIND_LETTERS[kind])
    assert ac.isdtype(d, kind) == np.isdtype(np.dtype(name), kind)


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_isdtype_dtype_and_tuples(name):
    d = getattr(ac, name)
    for other in AC_DTYPES:
        assert ac.isdtype(d, other) == (other == d)
    assert ac.isdtype(d, (d,))
    assert ac.isdtype(d, ("bool", "numeric"))
    assert ac.isdtype(d, ("real floating", "complex floating")) == (name.startswith(
        ("float", "complex")))
    assert ac.isdtype(d, ("signed integer", ac.uint8)) == (np.dtype(name).kind == "i"
                                                          or name == "uint8")
    assert not ac.isdtype(d, ())


def test_isdtype_errors():
    with pytest.raises(ValueError):
        ac.isdtype(ac.int8, "integer")
    with pytest.raises(ValueError):
        ac.isdtype(ac.int8, ("integral", "floating"))
    with pytest.raises(TypeError):
        ac.isdtype("int8", "integral")
    with pytest.raises(TypeError):
        ac.isdtype(np.int8, "integral")
    with pytest.raises(TypeError):
        ac.isdtype(ac.zeros(1), "numeric")
    with pytest.raises(TypeError):
        ac.isdtype(ac.int8, 3)


# ----------------------------------------------------------------------------- dtype objects

def test_dtype_objects():
    assert len(set(map(id, AC_DTYPES))) == 13
    for name, d in zip(DTYPE_NAMES, AC_DTYPES):
        assert d == d and d != (AC_DTYPES[0] if d is not AC_DTYPES[0] else AC_DTYPES[1])
        assert str(d) == name or name in repr(d)
        hash(d)
    assert ac.float32 != ac.float64
    assert ac.zeros(1, dtype=ac.int8).dtype == ac.int8


def test_dtype_pickle():
    import pickle
    for d in AC_DTYPES:
        assert pickle.loads(pickle.dumps(d)) is d


# ----------------------------------------------------------------------------- inspection

def test_info_capabilities():
    info = ac.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) >= {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert isinstance(caps["boolean indexing"], bool)
    assert isinstance(caps["data-dependent shapes"], bool)
    assert caps["max dimensions"] is None or isinstance(caps["max dimensions"], int)


def test_info_devices():
    info = ac.__array_namespace_info__()
    devs = info.devices()
    assert isinstance(devs, tuple) and len(devs) >= 1
    assert info.default_device() in devs
    assert info.default_device() == ac.zeros(1).device


def test_info_default_dtypes():
    info = ac.__array_namespace_info__()
    dd = info.default_dtypes()
    assert dd == {"real floating": ac.float64, "complex floating": ac.complex128,
                  "integral": ac.int64, "indexing": ac.int64}
    assert info.default_dtypes(device=info.default_device()) == dd
    with pytest.raises(ValueError):
        info.default_dtypes(device="cuda")


@pytest.mark.parametrize("kind", KINDS)
def test_info_dtypes_by_kind(kind):
    info = ac.__array_namespace_info__()
    got = info.dtypes(kind=kind)
    want = {n: getattr(ac, n) for n in DTYPE_NAMES if np.dtype(n).kind in _KIND_LETTERS[kind]}
    assert got == want


def test_info_dtypes_all_and_tuples():
    info = ac.__array_namespace_info__()
    assert info.dtypes() == dict(zip(DTYPE_NAMES, AC_DTYPES))
    assert list(info.dtypes()) == DTYPE_NAMES
    assert info.dtypes(kind=("bool", "complex floating")) == {
        "bool": ac.bool, "complex64": ac.complex64, "complex128": ac.complex128}
    assert info.dtypes(device=info.default_device(), kind="unsigned integer") == {
        n: getattr(ac, n) for n in ("uint8", "uint16", "uint32", "uint64")}
    with pytest.raises(ValueError):
        info.dtypes(kind="floating")
    with pytest.raises(ValueError):
        info.dtypes(kind=("bool", "nope"))
    with pytest.raises(ValueError):
        info.dtypes(device="cuda")


# ----------------------------------------------------------------------------- constants

def test_constants():
    assert ac.e == math.e and type(ac.e) is float
    assert ac.pi == math.pi and type(ac.pi) is float
    assert ac.inf == math.inf and type(ac.inf) is float
    assert math.isnan(ac.nan) and type(ac.nan) is float
    assert ac.newaxis is None
    x = ac.zeros((2, 3))
    assert x[ac.newaxis].shape == (1, 2, 3)


def test_namespace_exports():
    names = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type", "bool", "int8",
             "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
             "float64", "complex64", "complex128", "e", "inf", "nan", "pi", "newaxis",
             "__array_namespace_info__"]
    for n in names:
        assert hasattr(ac, n), n
        assert n in ac.__all__, n


@pytest.mark.parametrize("src", ["float32", "float64"])
@pytest.mark.parametrize("dst", ["int8", "uint8", "int16", "int32", "uint32", "int64", "uint64"])
def test_astype_float_to_int_nan_and_out_of_range(src, dst):
    """Float -> int of NaN is 0 and of +-inf or values beyond the range the nearest limit
    (C++ leaves these undefined; the conversion is branch-free so the loop vectorizes), in
    contiguous lines long enough for the vector loop, strided ones and 0-d arrays; in-range
    values truncate toward zero as NumPy."""
    info = np.iinfo(dst)
    rng = np.random.default_rng(2)
    inside = rng.uniform(max(info.min, -1e6), min(info.max, 1e6), 997)
    specials = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, float(info.max) * 4,
                         float(info.min) * 4 - 1, -0.0, 0.0, -0.75, 0.75])
    want_specials = np.array([0, info.max, info.min, info.max, info.min, info.max,
                              info.min, 0, 0, 0, 0], dtype=dst)
    a = np.concatenate([inside, specials, inside]).astype(src)
    want = np.concatenate([np.trunc(inside.astype(src)).astype(dst), want_specials,
                           np.trunc(inside.astype(src)).astype(dst)])
    np.testing.assert_array_equal(np.asarray(ac.astype(ac.asarray(a), getattr(ac, dst))), want)
    np.testing.assert_array_equal(np.asarray(ac.astype(ac.asarray(a)[::-3], getattr(ac, dst))),
                                  want[::-3])
    for v, w in zip(specials, want_specials):
        assert int(ac.astype(ac.asarray(np.asarray(v, dtype=src)), getattr(ac, dst))) == w, v
