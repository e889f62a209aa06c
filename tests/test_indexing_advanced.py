"""Advanced indexing (integer arrays, lists, boolean masks, mixtures with basic indices),
__setitem__ with the same keys, take and take_along_axis: vs NumPy on every layout."""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
from conftest import DTYPE_NAMES, assert_matches_numpy, random_numpy
from _layouts import pair

LAYOUTS3 = ["contiguous", "transposed", "negative", "strided", "stride0"]


def _to_ac(k):
    if isinstance(k, np.ndarray):
        return ac.asarray(k.copy())
    if isinstance(k, tuple):
        return tuple(_to_ac(e) for e in k)
    return k


def _keys_3d(rng):
    i4 = rng.integers(-4, 4, size=6)
    i3 = rng.integers(-3, 3, size=6)
    i5 = rng.integers(-5, 5, size=(2, 3))
    m = rng.random((4, 3, 5)) < 0.5
    return [
        i4, [0, 2, -1], (i4, i3), (i4, slice(None), i3[:1]), (slice(1, 3), i3),
        (Ellipsis, i5), (i4[:, None], i3), (0, slice(None), i5), (i4, 1),
        (None, i4, None, i3), (slice(None), None, i3, Ellipsis),
        (i5 % 4, Ellipsis, None), (1, i3[:2], i5[:1, :2]),
        m, m[:, :, 0], (0, m[0]), (m[:, :, 0], ...), (slice(None), m[0]),
        (slice(None), m[0, :, 0]), (m[:, :, 0], i5[0, :1]), (m[:, 0, 0], slice(None), 2),
        True, False, (True, 0), (0, False), (Ellipsis, True),
        np.zeros((4, 3, 5), bool), np.zeros((4,), bool),
        np.array([], dtype=np.int64), (np.array([], dtype=np.int64), 0),
        np.array([1, 1, 1]), np.array(2), (np.array([[0], [3]]), np.array([[1, 2]])),
    ]


@pytest.mark.parametrize("layout", LAYOUTS3)
def test_getitem_3d(layout):
    a, x = pair(layout, seed=2)
    for key in _keys_3d(np.random.default_rng(5)):
        want = a[key]
        got = x[_to_ac(key)]
        assert_matches_numpy(got, np.asarray(want))


@pytest.mark.parametrize("layout", ["zero_d", "empty", "size1", "one_d"])
def test_getitem_edge_layouts(layout):
    a, x = pair(layout)
    keys = [True, False, (Ellipsis, True), (None, False)]
    if a.ndim >= 1:
        n = a.shape[0]
        keys += [np.array([], dtype=np.int64), np.zeros(n, bool), np.ones(n, bool)]
        if n:
            keys += [np.array([0, -1, 0]), [n - 1], np.array([[0], [-n]])]
        keys += [np.ones(a.shape, bool)]
    if a.ndim == 0:
        keys += [np.array(True), np.array(False)]
    for key in keys:
        assert_matches_numpy(x[_to_ac(key)], np.asarray(a[key]))


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_all_dtypes(dtype):
    rng = np.random.default_rng(1)
    a = random_numpy((6, 7), dtype, rng)
    x = ac.asarray(a.copy())
    i = rng.integers(-6, 6, size=10)
    m = rng.random((6, 7)) < 0.4
    for key in [i, (i, i % 7), m, m[:, 0], (slice(None), m[0])]:
        assert_matches_numpy(x[_to_ac(key)], a[key])
    for idt in ["int8", "int16", "int32", "uint8", "uint16", "uint32", "uint64", "int64"]:
        k = np.array([5, 0, 3], dtype=idt)
        assert_matches_numpy(x[ac.asarray(k)], a[k])
    # setitem with a 0-d array of the same dtype and with an array value
    b, y = a.copy(), ac.asarray(a.copy())
    b[m] = a[0, 0]
    y[ac.asarray(m)] = ac.asarray(a[0, 0])
    assert_matches_numpy(y, b)
    b[i] = a[1]
    y[ac.asarray(i)] = ac.asarray(a[1].copy())
    assert_matches_numpy(y, b)


def test_index_errors():
    x = ac.ones((4, 3))
    with pytest.raises(IndexError, match="^__getitem__"):
        x[ac.asarray([4])]
    with pytest.raises(IndexError, match="^__getitem__"):
        x[ac.asarray([-5])]
    with pytest.raises(IndexError):
        x[[0], [3]]
    with pytest.raises(IndexError):
        x[ac.asarray([0, 1]), ac.asarray([0, 1, 2])]
    with pytest.raises(IndexError):
        x[ac.asarray([True, False])]
    with pytest.raises(IndexError):
        x[ac.ones((4, 3, 1), dtype=ac.bool)]
    with pytest.raises(IndexError):
        x[ac.asarray([1.0])]
    with pytest.raises(IndexError):
        x[ac.asarray([0]), ..., ...]
    with pytest.raises(IndexError):
        x[[0], 0, 0]
    with pytest.raises(IndexError):
        x[ac.asarray([4]), 5:] = 1.0
    x0 = ac.ones((0, 3))
    with pytest.raises(IndexError):
        x0[[0]]


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative", "strided"])
def test_setitem(layout):
    rng = np.random.default_rng(9)
    keys = [k for k in _keys_3d(rng)]
    for key in keys:
        a, x = pair(layout, seed=4)
        a, x = a, x  # views of their own bases: writeable
        sub_shape = a[key].shape
        val = random_numpy(sub_shape, "float64", rng)
        a[key] = val
        x[_to_ac(key)] = ac.asarray(val.copy())
        assert_matches_numpy(x, a)
        # scalar and broadcast values
        a[key] = 7.5
        x[_to_ac(key)] = 7.5
        assert_matches_numpy(x, a)
        if len(sub_shape) >= 1:
            row = random_numpy(sub_shape[-1:], "float64", rng)
            a[key] = row
            x[_to_ac(key)] = ac.asarray(row.copy())
            assert_matches_numpy(x, a)


def test_setitem_repeated_and_empty():
    a = np.zeros(5)
    x = ac.zeros(5)
    idx = np.array([1, 3, 1, 1, -1, 3])
    vals = np.arange(6.0)
    a[idx] = vals
    x[ac.asarray(idx)] = ac.asarray(vals)
    assert_matches_numpy(x, a)
    x[ac.asarray([], dtype=ac.int64)] = 3.0
    x[ac.zeros(5, dtype=ac.bool)] = 3.0
    x[False] = 3.0
    assert_matches_numpy(x, a)
    x[True] = 2.0
    a[True] = 2.0
    assert_matches_numpy(x, a)


def test_setitem_dtype_rules_and_errors():
    x = ac.zeros((3, 4), dtype=ac.int32)
    with pytest.raises(TypeError, match="^__setitem__"):
        x[[0, 1]] = 1.5
    with pytest.raises(TypeError, match="^__setitem__"):
        x[ac.ones((3, 4), dtype=ac.bool)] = ac.ones(12, dtype=ac.float32)
    with pytest.raises(ValueError, match="^__setitem__"):
        x[[0, 1]] = ac.ones(3, dtype=ac.int32)
    with pytest.raises(ValueError, match="^__setitem__"):
        x[ac.ones((3, 4), dtype=ac.bool)] = ac.ones(5, dtype=ac.int32)
    with pytest.raises(IndexError):
        x[[3]] = 1
    x[[0, 2]] = ac.asarray([1, 2, 3, 4], dtype=ac.int8)  # int8 fits int32
    assert x[2, 3] == 4
    x[ac.asarray([True, False, True])] = True
    assert x[0, 0] == 1


def test_setitem_overlapping_value():
    a = np.arange(10.0)
    x = ac.asarray(a.copy())
    a[[0, 1, 2, 3]] = a[::-1][:4]
    x[[0, 1, 2, 3]] = x[::-1][:4]
    assert_matches_numpy(x, a)
    m = a > 3
    a[m] = a[::-1][: m.sum()].copy()  # NumPy reads the values as they are written here
    x[ac.asarray(m)] = x[::-1][: int(m.sum())]
    assert_matches_numpy(x, a)


def test_large_gather_and_mask():
    rng = np.random.default_rng(0)
    a = rng.random(300_000).astype(np.float32)
    x = ac.asarray(a)
    i = rng.integers(-300_000, 300_000, size=100_000)
    m = rng.random(300_000) < 0.5
    assert_matches_numpy(x[ac.asarray(i)], a[i])
    assert_matches_numpy(x[ac.asarray(m)], a[m])
    assert_matches_numpy(ac.take(x, ac.asarray(i)), np.take(a, i))
    b = rng.random((600, 500))
    y = ac.asarray(b)
    mm = rng.random((600, 500)) < 0.3
    assert_matches_numpy(y[ac.asarray(mm)], b[mm])
    assert_matches_numpy(y[ac.asarray(mm[:, 0])], b[mm[:, 0]])
    assert_matches_numpy(y[:, ac.asarray(i[:50] % 500)], b[:, i[:50] % 500])
    c, z = b.copy(), ac.asarray(b.copy())
    c[mm] = -1.0
    z[ac.asarray(mm)] = -1.0
    assert_matches_numpy(z, c)


@pytest.mark.parametrize("layout", LAYOUTS3 + ["one_d", "empty", "size1"])
def test_take(layout):
    a, x = pair(layout, seed=3)
    rng = np.random.default_rng(0)
    for ax in range(-a.ndim, a.ndim):
        n = a.shape[ax]
        for ishape in [(5,), (2, 3), (0,), ()]:
            if n == 0 and ishape != (0,):
                continue
            idx = rng.integers(-n, max(n, 1), size=ishape) if n else np.zeros(ishape, int)
            assert_matches_numpy(ac.take(x, ac.asarray(idx), axis=ax), np.take(a, idx, axis=ax))
    if a.ndim == 1:
        idx = np.array([0, -1, 2])
        assert_matches_numpy(ac.take(x, ac.asarray(idx)), np.take(a, idx))


def test_take_errors():
    x = ac.ones((3, 4))
    with pytest.raises(ValueError, match="^take"):
        ac.take(x, ac.asarray([0]))
    with pytest.raises(IndexError, match="^take"):
        ac.take(x, ac.asarray([4]), axis=1)
    with pytest.raises(TypeError, match="^take"):
        ac.take(x, ac.asarray([0.0]), axis=0)
    with pytest.raises((ValueError, IndexError)):
        ac.take(x, ac.asarray([0]), axis=2)


@pytest.mark.parametrize("layout", LAYOUTS3 + ["one_d", "size1"])
def test_take_along_axis(layout):
    a, x = pair(layout, seed=6)
    rng = np.random.default_rng(1)
    for ax in range(-a.ndim, a.ndim):
        n = a.shape[ax]
        for k in [1, 3]:
            shape = list(a.shape)
            shape[ax] = k
            idx = rng.integers(-n, n, size=shape)
            assert_matches_numpy(ac.take_along_axis(x, ac.asarray(idx), axis=ax),
                                 np.take_along_axis(a, idx, axis=ax))
            if a.ndim >= 2:  # broadcasting on the other axes
                shape2 = [1] * a.ndim
                shape2[ax] = k
                idx2 = rng.integers(-n, n, size=shape2)
                assert_matches_numpy(ac.take_along_axis(x, ac.asarray(idx2), axis=ax),
                                     np.take_along_axis(a, idx2, axis=ax))
    srt = np.argsort(a, axis=-1)
    assert_matches_numpy(ac.take_along_axis(x, ac.asarray(srt), axis=-1), np.sort(a, axis=-1))


def test_take_along_axis_errors():
    x = ac.ones((3, 4))
    with pytest.raises(ValueError, match="^take_along_axis"):
        ac.take_along_axis(x, ac.asarray([0]))
    with pytest.raises(IndexError):
        ac.take_along_axis(x, ac.asarray([[4]]), axis=1)
    with pytest.raises(ValueError):
        ac.take_along_axis(x, ac.zeros((2, 1), dtype=ac.int64), axis=1)


def test_info_capability():
    assert ac.__array_namespace_info__().capabilities()["boolean indexing"] is True


def test_integer_index_into_empty_axis_raises_index_error():
    """Every index into an empty axis is out of range (the gather once read element 0 of the
    empty source before reporting it; found by AddressSanitizer)."""
    for dtype in (ac.float64, ac.uint64, ac.int8):
        x = ac.empty((0,), dtype=dtype)
        with pytest.raises(IndexError):
            x[ac.asarray([0])]
        with pytest.raises(IndexError):
            ac.take(x, ac.asarray([0, -1]), axis=0)
        y = ac.empty((2, 0), dtype=dtype)
        with pytest.raises(IndexError):
            y[:, ac.asarray([0])]


def test_empty_mask_dimension_selects_nothing():
    """NumPy and array-api-strict accept a zero-length mask dimension against any axis
    (array-api-tests checks it); other length mismatches raise IndexError."""
    for x in (np.array([[1.0, 2.0, 3.0]]), np.ones((3, 4)), np.array([False, False])):
        got = ac.asarray(x)[ac.asarray([], dtype=ac.bool)]
        assert got.shape == x[np.array([], dtype=bool)].shape
    assert ac.ones((3, 4))[ac.ones((0, 4), dtype=ac.bool)].shape == (0,)
    with pytest.raises(IndexError):
        ac.asarray(np.ones(3))[ac.asarray([True, True])]


def test_take_blocks_with_negative_and_out_of_range_indices():
    """The contiguous take loop checks blocks of 256 indices and loads unchecked only where
    all are in [0, n): a negative index in a later block must still count from the end, and
    an out-of-range one anywhere must raise, at every position around the block edges."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(1000).astype(np.float32)
    idx = rng.integers(0, 1000, 2000)
    for pos in (0, 255, 256, 700, 1999):
        neg = idx.copy()
        neg[pos] = -3
        np.testing.assert_array_equal(np.asarray(ac.take(ac.asarray(x), ac.asarray(neg))),
                                      np.take(x, neg))
        np.testing.assert_array_equal(np.asarray(ac.asarray(x)[ac.asarray(neg)]), x[neg])
        for bad in (1000, -1001):
            out = idx.copy()
            out[pos] = bad
            with pytest.raises(IndexError):
                ac.take(ac.asarray(x), ac.asarray(out))
            with pytest.raises(IndexError):
                ac.asarray(x)[ac.asarray(out)]
