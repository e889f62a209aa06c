"""Basic indexing (integers, slices, Ellipsis, None) vs NumPy, views, and __setitem__."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import arraycore as ac
from conftest import ac_from_numpy, assert_matches_numpy, random_numpy, requires_ns

SHAPE = (4, 5, 6)


@pytest.fixture(scope="module")
def pair():
    a = random_numpy(SHAPE, "float64", np.random.default_rng(7))
    return a, ac_from_numpy(a)


def _check(pair, key):
    a, x = pair
    expected = a[key]
    got = x[key]
    assert isinstance(got, ac.Array), f"x[{key!r}] is not an Array"
    assert_matches_numpy(got, np.asarray(expected))


_INTS = [0, 1, 3, -1, -4]


@pytest.mark.parametrize("i", _INTS)
def test_single_int(pair, i):
    _check(pair, i)


@pytest.mark.parametrize("key", [(1, 2), (-1, -5), (3, 4, 5), (0, -1, -6), (-4, 0, 0)])
def test_int_tuples(pair, key):
    _check(pair, key)


_SLICE_PARTS = [None, 0, 1, -1, 3, -3, 10, -10]
_STEPS = [None, 1, 2, 3, -1, -2, 7]
_SLICES = [slice(b, e, s) for b in _SLICE_PARTS for e in _SLICE_PARTS for s in _STEPS]


def test_every_slice_on_each_axis(pair):
    a, x = pair
    for s in _SLICES:
        for axis in range(3):
            key = (slice(None),) * axis + (s,)
            assert_matches_numpy(x[key], a[key])


@pytest.mark.parametrize("key", [slice(5, 2), slice(2, 2), slice(0, 0, -1), slice(-1, -10, 1),
                                 slice(100, 200), slice(-200, -100), slice(None, None, 100),
                                 slice(None, None, -100)])
def test_empty_and_out_of_range_slices(pair, key):
    _check(pair, key)
    _check(pair, (Ellipsis, key))


@pytest.mark.parametrize("key", [
    Ellipsis, (Ellipsis,), (Ellipsis, 0), (0, Ellipsis), (0, Ellipsis, 1), (Ellipsis, 1, 2),
    (1, 2, Ellipsis), (1, 2, 3, Ellipsis), (Ellipsis, 1, 2, 3), (0, Ellipsis, 1, 2),
    (Ellipsis, slice(None, None, -1)), (slice(1, 3), Ellipsis, slice(None, 2)),
])
def test_ellipsis_positions(pair, key):
    _check(pair, key)


@pytest.mark.parametrize("key", [
    None, (None,), (None, 0), (0, None), (0, None, 1), (None, None), (0, 1, 2, None),
    (None, 0, 1, 2), (Ellipsis, None), (None, Ellipsis), (None, Ellipsis, None),
    (slice(None), None, slice(None), None), (1, None, Ellipsis, None, -1),
    (None, slice(None, None, -2), None, 3, None),
])
def test_none_positions(pair, key):
    _check(pair, key)


def test_none_in_every_position_exhaustive(pair):
    a, x = pair
    base = [1, slice(None, None, -2), Ellipsis]
    for perm in itertools.permutations(base):
        for pos in range(len(perm) + 1):
            key = tuple(perm[:pos]) + (None,) + tuple(perm[pos:])
            assert_matches_numpy(x[key], a[key])


def test_random_mixed_keys(pair):
    a, x = pair
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = rng.integers(0, 5)
        key = []
        used_ellipsis = False
        consumed = 0
        for _ in range(n):
            r = rng.integers(0, 10)
            if r < 3 and consumed < 3:
                key.append(int(rng.integers(-4, 4)))
                consumed += 1
            elif r < 7 and consumed < 3:
                key.append(slice(*[None if rng.random() < 0.3 else int(v)
                                   for v in rng.integers(-7, 7, size=2)],
                                 None if rng.random() < 0.3 else
                                 int(rng.choice([-3, -2, -1, 1, 2, 3]))))
                consumed += 1
            elif r < 8 and not used_ellipsis:
                key.append(Ellipsis)
                used_ellipsis = True
            else:
                key.append(None)
        key = tuple(key)
        assert_matches_numpy(x[key], a[key])


def test_native_fast_path_equals_the_python_path():
    """Basic keys on plain arrays take the native view (bind_fast_getitem.cpp); it must give
    the Python path's view (indexing.basic_view: shape, strides, offset, values) for every
    key it takes, and hand every other key to the Python path, whose errors then name
    __getitem__ (out of range, too many indices, two ellipses, a zero step, huge ints)."""
    from arraycore._core import indexing
    rng = np.random.default_rng(8)
    a = np.arange(4 * 5 * 6, dtype=np.float32).reshape(4, 5, 6)
    for x, v in ((ac.asarray(a), a), (ac.asarray(a)[::-1, 1:, ::2], a[::-1, 1:, ::2])):
        for _ in range(400):
            parts = []
            for _ in range(rng.integers(0, 5)):
                r = rng.integers(0, 6)
                if r == 0:
                    parts.append(int(rng.integers(-7, 7)))
                elif r <= 2:
                    parts.append(slice(*[None if rng.random() < 0.3 else int(w)
                                         for w in rng.integers(-9, 9, 2)],
                                       None if rng.random() < 0.3 else
                                       int(rng.choice([-3, -1, 1, 2, 5]))))
                elif r == 3:
                    parts.append(None)
                else:
                    parts.append(Ellipsis)
            key = tuple(parts) if rng.random() < 0.8 else (parts[0] if parts else ())
            try:
                want = v[key]
            except IndexError:
                with pytest.raises(IndexError, match="__getitem__"):
                    x[key]
                continue
            got = x[key]
            slow = indexing.basic_view(x, key)
            assert got.shape == slow.shape and got._strides == slow._strides, key
            np.testing.assert_array_equal(np.asarray(got), want)
            np.testing.assert_array_equal(np.asarray(slow), want)
    x = ac.asarray(a)
    for key in ((slice(None, None, 0),), (2 ** 70,), (1, 2, 3, 4), (Ellipsis, 0, Ellipsis)):
        with pytest.raises((IndexError, ValueError), match="__getitem__"):
            x[key]


def test_zero_d_arrays():
    a = np.array(2.5)
    x = ac.asarray(2.5)
    assert_matches_numpy(x[()], a[()] * np.ones(()))
    assert_matches_numpy(x[...], a[...])
    assert_matches_numpy(x[None], a[None])
    assert_matches_numpy(x[None, ..., None], a[None, ..., None])
    with pytest.raises(IndexError):
        x[0]


def test_zero_d_integer_array_as_index(pair):
    a, x = pair
    assert_matches_numpy(x[ac.asarray(2)], a[2])
    assert_matches_numpy(x[ac.asarray(-1, dtype=ac.int8), 1], a[-1, 1])


def test_empty_dimension():
    x = ac.zeros((0, 3))
    assert x[:, 1].shape == (0,)
    assert x[1:].shape == (0, 3)
    with pytest.raises(IndexError):
        x[0]


# ----------------------------------------------------------------------------- views

def test_views_share_memory():
    a = np.arange(24.0).reshape(4, 6)
    x = ac_from_numpy(a)
    v = x[1:3, ::2]
    v[0, 1] = -1.0
    a[1:3, ::2][0, 1] = -1.0
    assert_matches_numpy(x, a)
    w = x[::-1, None, 2]
    w[0, 0] = 77.0
    a[::-1, None, 2][0, 0] = 77.0
    assert_matches_numpy(x, a)
    r = x[2]
    r[...] = 5.0
    a[2] = 5.0
    assert_matches_numpy(x, a)
    assert np.shares_memory(np.asarray(v), np.asarray(x))


def test_view_of_view():
    a = np.arange(60).reshape(3, 4, 5)
    x = ac_from_numpy(a)
    v = x[::-1][1:, ::2][..., ::-2][0]
    assert_matches_numpy(v, a[::-1][1:, ::2][..., ::-2][0])
    v[1, 0] = 1000
    a[::-1][1:, ::2][..., ::-2][0][1, 0] = 1000
    assert_matches_numpy(x, a)


# ----------------------------------------------------------------------------- __setitem__

def test_setitem_scalars():
    a = np.zeros((3, 4))
    x = ac.zeros((3, 4))
    for key, v in [((0, 0), 1.5), (1, 2.0), ((slice(None), -1), -3), ((Ellipsis, 1), True),
                   ((slice(None, None, -2), slice(1, 3)), 7.25), ((), 0.5)]:
        x[key] = v
        a[key] = v
        assert_matches_numpy(x, a)


def test_setitem_arrays_broadcast():
    a = np.zeros((3, 4), dtype=np.int32)
    x = ac.zeros((3, 4), dtype=ac.int32)
    row = np.array([1, 2, 3, 4], dtype=np.int32)
    x[...] = ac_from_numpy(row)
    a[...] = row
    assert_matches_numpy(x, a)
    col = np.array([[10], [20], [30]], dtype=np.int16)
    x[:, 1:3] = ac_from_numpy(col)
    a[:, 1:3] = col
    assert_matches_numpy(x, a)
    x[1] = ac.asarray(-5, dtype=ac.int8)
    a[1] = -5
    assert_matches_numpy(x, a)
    x[::-1, ::-1] = ac_from_numpy(a.copy())
    a[::-1, ::-1] = a.copy()
    assert_matches_numpy(x, a)


def test_setitem_self_overlap():
    a = np.arange(10)
    x = ac_from_numpy(a)
    x[1:] = x[:-1]
    a[1:] = a[:-1].copy()
    assert_matches_numpy(x, a)
    x[::-1] = x
    a[::-1] = a.copy()
    assert_matches_numpy(x, a)


def test_setitem_shape_mismatch():
    x = ac.zeros((3, 4))
    with pytest.raises(ValueError):
        x[0] = ac.ones(3)
    with pytest.raises(ValueError):
        x[:, 0] = ac.ones((3, 3))


@pytest.mark.parametrize("target,value", [
    ("int32", 1.5), ("int64", 2.0), ("uint8", 1j), ("float32", 1j), ("bool", 1), ("bool", 0.0),
])
def test_setitem_python_scalar_dtype_rules(target, value):
    x = ac.zeros(3, dtype=getattr(ac, target))
    with pytest.raises(TypeError):
        x[0] = value


@pytest.mark.parametrize("target,source", [
    ("int32", "float64"), ("int64", "float32"), ("float32", "float64"), ("float64", "complex64"),
    ("int8", "int16"), ("uint8", "int8"), ("bool", "int8"), ("int64", "uint64"),
])
def test_setitem_array_dtype_rules(target, source):
    x = ac.zeros(3, dtype=getattr(ac, target))
    with pytest.raises(TypeError):
        x[...] = ac.ones(3, dtype=getattr(ac, source))


@pytest.mark.parametrize("target,source", [
    ("float64", "int32"), ("float32", "int8"), ("float64", "float32"), ("int64", "int8"),
    ("int16", "uint8"), ("complex64", "float32"), ("int32", "bool"), ("complex128", "int64"),
])
def test_setitem_array_allowed_promotions(target, source):
    x = ac.zeros(3, dtype=getattr(ac, target))
    x[...] = ac.ones(3, dtype=getattr(ac, source))
    assert_matches_numpy(x, np.ones(3, dtype=target))


def test_setitem_int_into_float_ok():
    x = ac.zeros(3)
    x[1] = 7
    x[2] = True
    assert_matches_numpy(x, np.array([0.0, 7.0, 1.0]))
    c = ac.zeros(2, dtype=ac.complex64)
    c[0] = 1.5
    c[1] = 2j
    assert_matches_numpy(c, np.array([1.5, 2j], dtype=np.complex64))


def test_setitem_out_of_range_python_int():
    x = ac.zeros(2, dtype=ac.int8)
    with pytest.raises((OverflowError, ValueError)):
        x[0] = 1000


def test_setitem_wrong_value_type():
    x = ac.zeros(3)
    with pytest.raises(TypeError):
        x[0] = "a"
    with pytest.raises(TypeError):
        x[0] = object()


# ----------------------------------------------------------------------------- errors

@pytest.mark.parametrize("key", [4, -5, (0, 5), (0, 0, 6), (0, -6), (0, 0, -7)])
def test_out_of_bounds(pair, key):
    _, x = pair
    with pytest.raises(IndexError):
        x[key]
    with pytest.raises(IndexError):
        x[key] = 1.0


@pytest.mark.parametrize("key", [(0, 0, 0, 0), (0, 0, 0, Ellipsis, 0), (0, slice(None), 0, 1)])
def test_too_many_indices(pair, key):
    _, x = pair
    with pytest.raises(IndexError):
        x[key]


def test_two_ellipses(pair):
    _, x = pair
    with pytest.raises(IndexError):
        x[..., ...]
    with pytest.raises(IndexError):
        x[0, ..., 1, ...]


@pytest.mark.parametrize("key", [1.0, "a", (0, 1.5), [0.5]])
def test_invalid_index_types(pair, key):
    _, x = pair
    with pytest.raises(IndexError):
        x[key]


def test_integer_array_index(pair):
    a, x = pair
    assert_matches_numpy(x[ac.asarray([0, 1])], a[[0, 1]])
    assert_matches_numpy(x[[0, -1, 0]], a[[0, -1, 0]])
    assert_matches_numpy(x[0, ac.asarray([1, 2])], a[0, [1, 2]])
    assert_matches_numpy(x[:, [1, 2], [0, -1]], a[:, [1, 2], [0, -1]])
    assert_matches_numpy(x[[1, 2], :, [0, -1]], a[[1, 2], :, [0, -1]])
    with pytest.raises(IndexError):
        x[[4]]


def test_boolean_mask_index(pair):
    a, x = pair
    m = np.array([True, False, True, True])
    assert_matches_numpy(x[ac.asarray(m)], a[m])
    assert_matches_numpy(x[ac.ones(4, dtype=ac.bool)], a[np.ones(4, bool)])
    assert_matches_numpy(x[ac.asarray(True)], a[np.asarray(True)])
    assert_matches_numpy(x[True], a[True])
    assert_matches_numpy(x[False], a[False])
    with pytest.raises(IndexError):
        x[ac.ones(3, dtype=ac.bool)]
