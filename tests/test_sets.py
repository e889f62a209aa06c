"""isin and unique_* against NumPy (every NaN distinct, +0 == -0, sorted values)."""

import numpy as np
import pytest

import arraycore as ac

from _search_sort_util import ALL, make, values
from conftest import assert_matches_numpy

LAYOUTS = ["contiguous", "strided", "reversed", "transposed"]


def bits_equal(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_unique(dtype, layout, rng):
    for shape in [(6, 50), (1, 1), (2, 0)] + ([(0,), (1,), (333,)] if layout != "transposed"
                                              else []):
        a, x = make(shape, dtype, rng, layout=layout)
        ua, uc, ui, uv = (ac.unique_all(x), ac.unique_counts(x), ac.unique_inverse(x),
                          ac.unique_values(x))
        w = np.unique_all(a)
        assert ua._fields == ("values", "indices", "inverse_indices", "counts")
        assert uc._fields == ("values", "counts")
        assert ui._fields == ("values", "inverse_indices")
        for got in (ua.values, uc.values, ui.values, uv):
            bits_equal(got, w.values)
        assert_matches_numpy(ua.counts, w.counts.astype(np.int64))
        assert_matches_numpy(uc.counts, w.counts.astype(np.int64))
        assert_matches_numpy(ua.indices, w.indices.astype(np.int64))
        inv = w.inverse_indices.astype(np.int64).reshape(a.shape)
        assert_matches_numpy(ua.inverse_indices, inv)
        assert_matches_numpy(ui.inverse_indices, inv)


def test_unique_special_values():
    a = np.array([np.nan, 0.0, -0.0, np.nan, 1.0, 0.0, np.nan])
    x = ac.asarray(a)
    v = np.asarray(ac.unique_values(x))
    assert v.shape == (5,) and v[0] == 0 and v[1] == 1 and np.isnan(v[2:]).all()
    r = ac.unique_all(x)
    np.testing.assert_array_equal(np.asarray(r.counts), [3, 1, 1, 1, 1])
    np.testing.assert_array_equal(np.asarray(r.indices), [1, 4, 0, 3, 6])
    np.testing.assert_array_equal(np.asarray(r.inverse_indices), [2, 0, 0, 3, 1, 0, 4])
    s = ac.unique_all(ac.asarray(2.5))
    assert s.values.shape == (1,) and s.inverse_indices.shape == ()


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("invert", [False, True])
def test_isin(dtype, layout, invert, rng):
    a, x = make((7, 40), dtype, rng, layout=layout)
    b, y = make((3, 9), dtype, rng, layout=layout)
    assert_matches_numpy(ac.isin(x, y, invert=invert), np.isin(a, b, invert=invert))
    e, ye = make((0,), dtype, rng)
    assert_matches_numpy(ac.isin(x, ye, invert=invert), np.isin(a, e, invert=invert))


def test_isin_special_values_and_promotion():
    a = np.array([np.nan, -0.0, 1.0, np.inf, 2.0])
    b = np.array([0.0, np.nan, np.inf])
    assert_matches_numpy(ac.isin(ac.asarray(a), ac.asarray(b)), np.isin(a, b))
    i8 = np.array([1, 2, 3], np.int8)
    assert_matches_numpy(ac.isin(ac.asarray(i8), ac.asarray([2.0, 3.5])),
                         np.isin(i8, [2.0, 3.5]))
    assert_matches_numpy(ac.isin(ac.asarray(i8), 3), np.isin(i8, 3))
    assert_matches_numpy(ac.isin(2, ac.asarray(i8)), np.asarray(True))
    assert_matches_numpy(ac.isin(ac.asarray(i8), ac.asarray(np.array([200], np.uint8))),
                         np.isin(i8, np.array([200], np.uint8)))
    with pytest.raises(TypeError, match="^isin"):
        ac.isin(1, 2)
    with pytest.raises(TypeError, match="^isin"):
        ac.isin([1], ac.asarray([1]))


@pytest.mark.parametrize("invert", [False, True])
def test_isin_each_lookup_path(invert):
    """isin looks values up in a table over x2's range (integers spanning a range comparable
    to the data), a hash set of their bits (other reals) or a sorted array (complex):
    each path with values below, inside and above x2's range, the integer extremes, -0 / +0,
    NaN on either side, and x2 with repeated values, against NumPy."""
    rng = np.random.default_rng(4)
    for dtype in ("int8", "uint8", "int32", "int64", "uint64"):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, 5000, dtype=dtype, endpoint=True)
        narrow = rng.integers(max(info.min, -50), min(info.max, 50), 60).astype(dtype)
        x[:40] = np.concatenate([narrow[:20], [info.min, info.max, 0, 1] * 5])
        wide = np.concatenate([narrow, [info.min, info.max], x[100:140]]).astype(dtype)
        for y in (narrow, wide, np.repeat(narrow[:3], 4)):
            np.testing.assert_array_equal(
                np.asarray(ac.isin(ac.asarray(x), ac.asarray(y), invert=invert)),
                np.isin(x, y, invert=invert), err_msg=f"{dtype} {y.size}")
    for dtype in ("float32", "float64", "complex128"):
        v = rng.standard_normal(3000).astype(dtype)
        y = np.concatenate([v[::7], np.array([np.nan, -0.0, np.inf], dtype=dtype)])
        x = np.concatenate([v, np.array([0.0, -0.0, np.nan, np.inf, -np.inf], dtype=dtype)])
        np.testing.assert_array_equal(
            np.asarray(ac.isin(ac.asarray(x), ac.asarray(y), invert=invert)),
            np.isin(x, y, invert=invert), err_msg=dtype)


def test_unique_errors():
    for f in (ac.unique_all, ac.unique_counts, ac.unique_inverse, ac.unique_values):
        with pytest.raises(TypeError, match="^" + f.__name__):
            f([1, 2])
