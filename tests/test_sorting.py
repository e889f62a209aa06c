"""sort and argsort against NumPy (stable sorts), for every dtype and layout."""

import os

import numpy as np
import pytest

import arraycore as ac

from _search_sort_util import ALL, make, values

SHAPES = [(0,), (1,), (7,), (300,), (5000,), (3, 0), (4, 300), (40, 17)]


def np_argsort(a, axis=-1, descending=False):
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    # The reverse order, equal elements in input order: flip, stable sort, flip back.
    f = np.flip(a, axis=axis)
    r = np.flip(np.argsort(f, axis=axis, kind="stable"), axis=axis)
    return a.shape[axis] - 1 - r


def np_sort(a, axis=-1, descending=False):
    return np.take_along_axis(a, np_argsort(a, axis, descending), axis=axis)


def check_sort(a, x, axis, descending):
    got_i = np.asarray(ac.argsort(x, axis=axis, descending=descending))
    want_i = np_argsort(a, axis, descending)
    assert got_i.dtype == np.int64
    np.testing.assert_array_equal(got_i, want_i)
    got = np.asarray(ac.sort(x, axis=axis, descending=descending))
    want = np_sort(a, axis, descending)
    assert got.dtype == a.dtype and got.shape == a.shape
    # Bitwise (NaN payloads, sign of zero): a stable sort moves exactly these elements.
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_last_axis(dtype, shape, descending, rng):
    a, x = make(shape, dtype, rng)
    check_sort(a, x, -1, descending)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "int64", "uint64",
                                   "float32", "float64", "complex64"])
@pytest.mark.parametrize("layout", ["strided", "reversed", "transposed"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_sort_layouts_and_axes(dtype, layout, axis, rng):
    a, x = make((33, 300), dtype, rng, layout=layout)
    check_sort(a, x, axis, False)
    check_sort(a, x, axis, True)


@pytest.mark.parametrize("dtype", ["int16", "uint32", "int64", "float32", "float64"])
def test_sort_wide_ranges(dtype, rng):
    """Keys spanning all digits (no radix pass skipped), extremes included."""
    a = values((20000,), dtype, rng, dups=False)
    x = ac.asarray(a)
    check_sort(a, x, -1, False)
    check_sort(a, x, -1, True)


def test_sort_3d_middle_axis(rng):
    a, x = make((5, 400, 3), "float32", rng)
    check_sort(a, x, 1, False)
    check_sort(a, x, 1, True)


def test_float_order_and_stability():
    a = np.array([np.nan, 1.0, -0.0, np.inf, 0.0, -np.inf, np.nan, -1.0] * 40, dtype=np.float64)
    x = ac.asarray(a)
    got = np.asarray(ac.sort(x))
    assert np.isnan(got[-80:]).all()
    # -0 and +0 are equal: stable sort keeps their input order (-0 first in each pair).
    zeros = got[(got == 0)]
    assert np.array_equal(np.signbit(zeros), np.tile([True, False], 40))
    check_sort(a, x, -1, False)
    check_sort(a, x, -1, True)
    got_d = np.asarray(ac.sort(x, descending=True))
    assert np.isnan(got_d[:80]).all()


# Lengths around the vector sort's boundaries: leaf networks of 64 and 128 keys, partitions
# that hold 2 x 8 vectors, whole vectors plus a partial tail.
VECTOR_SORT_LENGTHS = [15, 16, 17, 63, 64, 65, 127, 128, 129, 130, 191, 192, 200, 257, 1000, 4099]


def _patterns(n, rng):
    """Inputs that stress a quicksort: runs of equal keys, presorted and adversarial orders."""
    r = rng.standard_normal(n)
    return {
        "random": r,
        "all_equal": np.full(n, 3.0),
        "two_values": rng.integers(0, 2, n).astype(float),
        "few_values": rng.integers(0, 5, n).astype(float),
        "max_repeated": np.where(rng.random(n) < 0.5, 9.0, r),
        "sorted": np.sort(r),
        "reversed": np.sort(r)[::-1].copy(),
        "organ_pipe": np.concatenate([np.arange(n // 2), np.arange(n - n // 2)[::-1]]).astype(float),
        "sawtooth": (np.arange(n) % 7).astype(float),
    }


@pytest.mark.parametrize("n", VECTOR_SORT_LENGTHS)
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint32", "float64", "int64", "uint64"])
def test_vector_sort_boundaries_and_patterns(n, dtype, rng):
    for name, p in _patterns(n, rng).items():
        if dtype.startswith("float"):
            a = p.astype(dtype)
        else:
            info = np.iinfo(dtype)
            scaled = p * 1e8 if info.min < 0 else np.abs(p) * 1e9
            # Clip inside the range (float64 rounds the int64 limits outwards).
            a = scaled.clip(max(info.min, -2.0**62), min(info.max, 2.0**62)).astype(dtype)
        x = ac.asarray(a)
        for desc in (False, True):
            got = np.asarray(ac.sort(x, descending=desc))
            np.testing.assert_array_equal(got, np_sort(a, -1, desc), err_msg=f"{name} desc={desc}")


NAN_BITS = {
    "float32": (np.uint32, [0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345], 0x80000000),
    "float64": (np.uint64, [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001,
                            0xfff0000012345678], 0x8000000000000000),
}


@pytest.mark.parametrize("n", [40, 129, 5000, 100_000])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_vector_sort_nan_payloads_and_zeros(n, dtype, rng):
    """The unstable vector sort must still give the stable answer bit for bit: NaNs with and
    without the sign bit (and different payloads) last in input order, -0/+0 in input order."""
    ubits, nans, minus_zero = NAN_BITS[dtype]
    a = rng.standard_normal(n).astype(dtype)
    bits = a.view(ubits)
    k = max(n // 10, 4)
    pos = rng.choice(n, size=3 * k, replace=False)
    bits[pos[:k]] = np.array(nans, dtype=ubits)[rng.integers(0, 4, k)]
    bits[pos[k:2 * k]] = minus_zero
    bits[pos[2 * k:]] = 0             # +0
    for a_ in (a, a[::-1].copy(), a[::3]):
        x = ac.asarray(a_)
        for desc in (False, True):
            got = np.asarray(ac.sort(x, descending=desc))
            want = np_sort(a_, -1, desc)
            np.testing.assert_array_equal(got.view(ubits), want.view(ubits))


def test_vector_sort_integer_extremes(rng):
    for dt in (np.int32, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, 3000, endpoint=True, dtype=dt)
        a[::17] = info.max
        a[5::19] = info.min
        for desc in (False, True):
            np.testing.assert_array_equal(np.asarray(ac.sort(ac.asarray(a), descending=desc)),
                                          np_sort(a, -1, desc))


def test_complex_order_matches_numpy():
    v = [complex(r, i) for r in (np.nan, 1.0, -1.0, 0.0) for i in (np.nan, 2.0, -2.0)]
    a = np.array(v * 30, dtype=np.complex128)
    x = ac.asarray(a)
    np.testing.assert_array_equal(np.asarray(ac.argsort(x)), np.argsort(a, kind="stable"))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [300, 5000])
def test_complex_radix_order_all_nan_groups(dtype, n, rng):
    """Complex lines from 256 elements on are ordered by three stable radix passes (imag, real,
    NaN group): every NaN group, +-0 in both parts, infinities, duplicates and random values,
    against NumPy's stable order, ascending and descending, bit for bit."""
    special = np.array([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan])
    re = np.where(rng.random(n) < 0.5, rng.choice(special, n), rng.standard_normal(n))
    im = np.where(rng.random(n) < 0.5, rng.choice(special, n), rng.standard_normal(n))
    a = np.empty(n, dtype=dtype)
    a.real = re  # assigning the parts keeps -0 and NaN exactly
    a.imag = im
    x = ac.asarray(a)
    check_sort(a, x, -1, False)
    check_sort(a, x, -1, True)


def test_large_lines_use_radix(rng):
    a = rng.standard_normal(300_000).astype(np.float32)
    a[::1000] = np.nan
    x = ac.asarray(a)
    np.testing.assert_array_equal(np.asarray(ac.argsort(x)), np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(np.asarray(ac.sort(x)), np.sort(a))


def test_stable_flag_and_keywords(rng):
    a, x = make((50,), "int32", rng)
    np.testing.assert_array_equal(np.asarray(ac.sort(x, stable=False)), np.sort(a))
    np.testing.assert_array_equal(np.asarray(ac.argsort(x, stable=False)),
                                  np.argsort(a, kind="stable"))


def test_errors():
    with pytest.raises(ValueError, match="^sort"):
        ac.sort(ac.asarray(1.0))
    with pytest.raises(ValueError, match="^argsort"):
        ac.argsort(ac.asarray([1, 2]), axis=1)
    with pytest.raises(ValueError, match="^sort"):
        ac.sort(ac.asarray([[1, 2]]), axis=-3)
    with pytest.raises(TypeError, match="^sort"):
        ac.sort([1, 2])
    with pytest.raises(TypeError, match="^argsort"):
        ac.argsort(ac.asarray([1, 2]), axis=1.0)


# ---- every instruction set of the vector sort (Note [Sort ISA] in vector_sort.h) ----
# ARRAYCORE_SORT_ISA is read on every sort/argsort call: the tests below run the value checks
# under each instruction set this build has.  "avx512-emulated" is the AVX-512 code on
# emulated intrinsics (slow, built wherever AVX2 is), so machines without AVX-512 still test it.
SORT_ISAS = ["avx512", "avx2", "avx512-emulated", "scalar"]  # the default is the widest built
VECTOR_DTYPES = ["float32", "float64", "int32", "uint32", "int64", "uint64"]


def _isa_built(isa):
    old = os.environ.get("ARRAYCORE_SORT_ISA")
    os.environ["ARRAYCORE_SORT_ISA"] = isa
    try:
        ac.sort(ac.asarray([2.0, 1.0]))
        return True
    except ValueError:
        return False
    finally:
        if old is None:
            del os.environ["ARRAYCORE_SORT_ISA"]
        else:
            os.environ["ARRAYCORE_SORT_ISA"] = old


@pytest.fixture(params=SORT_ISAS)
def sort_isa(request, monkeypatch):
    if not _isa_built(request.param):
        pytest.skip(f"this build has no {request.param} sort")
    monkeypatch.setenv("ARRAYCORE_SORT_ISA", request.param)
    return request.param


def _random_keys(n, dtype, rng, spread=True):
    """Values of dtype with duplicates; floats with NaNs of both signs and several payloads,
    -0/+0, infinities and subnormals."""
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        if spread:
            a = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
        else:
            a = rng.integers(max(info.min, -20), 20, n, endpoint=True).astype(dt)
        if n:
            a[rng.integers(0, n, max(1, n // 16))] = info.max
            a[rng.integers(0, n, max(1, n // 16))] = info.min
        return a
    a = (rng.standard_normal(n) * (1e3 if spread else 1)).astype(dt)
    if not spread:
        a = np.round(a)
    if n:
        ubits, nans, minus_zero = NAN_BITS[dtype]
        tiny = np.finfo(dt).smallest_subnormal
        special = np.array([np.inf, -np.inf, 0.0, tiny, -tiny, np.finfo(dt).max], dtype=dt)
        k = max(1, n // 8)
        a[rng.integers(0, n, k)] = rng.choice(special, k)
        bits = a.view(ubits)
        bits[rng.integers(0, n, k)] = minus_zero
        bits[rng.integers(0, n, k)] = np.array(nans, dtype=ubits)[rng.integers(0, 4, k)]
    return a


def _check_values(a, isa_msg=""):
    x = ac.asarray(a)
    ubits = np.dtype(f"u{a.dtype.itemsize}")
    for desc in (False, True):
        got = np.asarray(ac.sort(x, descending=desc))
        want = np_sort(a, -1, desc)
        np.testing.assert_array_equal(got.view(ubits), want.view(ubits),
                                      err_msg=f"{isa_msg} n={a.size} desc={desc}")


@pytest.mark.parametrize("dtype", VECTOR_DTYPES)
def test_sort_isa_every_length_to_530(sort_isa, dtype, rng):
    """Every length 0..530 (the vector widths, the leaf networks of 64/128/256 keys, the leaf
    pairs up to 512 keys and the partitions of 2 x 8 vectors), spread and duplicate-heavy
    keys, bit for bit."""
    for n in range(531):
        _check_values(_random_keys(n, dtype, rng, spread=n % 2 == 0), sort_isa)


@pytest.mark.parametrize("n", [255, 256, 257, 384, 511, 512, 513, 1000, 4099, 33_000])
@pytest.mark.parametrize("dtype", VECTOR_DTYPES)
def test_sort_isa_patterns(sort_isa, n, dtype, rng):
    """Presorted, reversed, organ-pipe, all-equal and few-valued inputs (the pivot and
    equal-key paths of the quicksort) under each instruction set."""
    for name, p in _patterns(n, rng).items():
        if dtype.startswith("float"):
            a = p.astype(dtype)
        else:
            info = np.iinfo(dtype)
            scaled = p * 1e8 if info.min < 0 else np.abs(p) * 1e9
            a = scaled.clip(max(info.min, -2.0**62), min(info.max, 2.0**62)).astype(dtype)
        _check_values(a, f"{sort_isa} {name}")


@pytest.mark.parametrize("dtype", VECTOR_DTYPES)
def test_sort_isa_large_random(sort_isa, dtype, rng):
    """Long lines (the parallel split from 2^17 keys on), specials included, and a strided
    view (the copy-then-sort path)."""
    n = 200_000 if sort_isa == "avx512-emulated" else 1_000_000
    a = _random_keys(n, dtype, rng)
    _check_values(a, sort_isa)
    _check_values(a[::3], sort_isa)


@pytest.mark.parametrize("dtype", ["float32", "int32", "uint32", "float64", "int64"])
def test_argsort_isa_stability(sort_isa, dtype, rng):
    """argsort of 32-bit keys sorts (key, index) words with the vector sort: the order must be
    the stable one, ascending and descending, under each instruction set."""
    for n in (0, 1, 17, 100, 129, 257, 5000, 150_000):
        a = _random_keys(n, dtype, rng, spread=False)
        x = ac.asarray(a)
        for desc in (False, True):
            np.testing.assert_array_equal(np.asarray(ac.argsort(x, descending=desc)),
                                          np_argsort(a, -1, desc),
                                          err_msg=f"{sort_isa} n={n} desc={desc}")


def test_sort_isa_batched_rows(sort_isa, rng):
    """Many short lines (the leaves alone) along both axes."""
    a = _random_keys(64 * 200, "float32", rng).reshape(64, 200)
    x = ac.asarray(a)
    for axis in (0, 1):
        for desc in (False, True):
            got = np.asarray(ac.sort(x, axis=axis, descending=desc))
            np.testing.assert_array_equal(got.view(np.uint32),
                                          np_sort(a, axis, desc).view(np.uint32))


def test_sort_isa_bad_value(monkeypatch):
    monkeypatch.setenv("ARRAYCORE_SORT_ISA", "avx1024")
    with pytest.raises(ValueError, match="^sort: ARRAYCORE_SORT_ISA"):
        ac.sort(ac.asarray([2.0, 1.0]))
    with pytest.raises(ValueError, match="^argsort: ARRAYCORE_SORT_ISA"):
        ac.argsort(ac.asarray([2.0, 1.0]))
