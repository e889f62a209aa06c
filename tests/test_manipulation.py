"""Manipulation functions vs NumPy on every layout, views where the standard allows them,
dtype promotion in concat/stack, and errors."""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
from conftest import DTYPE_NAMES, assert_matches_numpy, random_numpy
from _layouts import LAYOUTS, pair

ALL = list(LAYOUTS)


def _same_buffer(x, y):
    return x._buffer_ptr == y._buffer_ptr


@pytest.mark.parametrize("layout", ALL)
def test_flip(layout):
    a, x = pair(layout)
    assert_matches_numpy(ac.flip(x), np.flip(a))
    for ax in range(a.ndim):
        assert_matches_numpy(ac.flip(x, axis=ax), np.flip(a, axis=ax))
        assert_matches_numpy(ac.flip(x, axis=-1 - ax), np.flip(a, axis=-1 - ax))
    if a.ndim >= 2:
        assert_matches_numpy(ac.flip(x, axis=(0, -1)), np.flip(a, axis=(0, -1)))
    assert _same_buffer(ac.flip(x), x)


@pytest.mark.parametrize("layout", ALL)
def test_permute_moveaxis(layout):
    a, x = pair(layout)
    n = a.ndim
    for perm in [tuple(range(n)), tuple(reversed(range(n))), tuple(range(1, n)) + (0,)[:n]]:
        if sorted(perm) != list(range(n)):
            continue
        assert_matches_numpy(ac.permute_dims(x, perm), np.transpose(a, perm))
    if n >= 2:
        assert_matches_numpy(ac.permute_dims(x, (-1,) + tuple(range(n - 1))),
                             np.transpose(a, (-1,) + tuple(range(n - 1))))
        for s, d in [(0, -1), (-1, 0), ((0, 1), (-1, -2)), (1, 0)]:
            assert_matches_numpy(ac.moveaxis(x, s, d), np.moveaxis(a, s, d))
        assert _same_buffer(ac.moveaxis(x, 0, -1), x)


@pytest.mark.parametrize("layout", ALL)
def test_expand_squeeze(layout):
    a, x = pair(layout)
    n = a.ndim
    for ax in [0, -1, (0, -1), (0, 1)] + ([(1, 3)] if n >= 2 else []):
        assert_matches_numpy(ac.expand_dims(x, axis=ax), np.expand_dims(a, ax))
    e = np.expand_dims(a, (0, -1))
    y = ac.expand_dims(x, axis=(0, -1))
    assert_matches_numpy(ac.squeeze(y, axis=0), np.squeeze(e, axis=0))
    assert_matches_numpy(ac.squeeze(y, axis=(0, -1)), np.squeeze(e, axis=(0, -1)))
    assert_matches_numpy(ac.squeeze(y, axis=-1), np.squeeze(e, axis=-1))


def test_squeeze_errors():
    x = ac.ones((2, 1))
    with pytest.raises(ValueError, match="^squeeze"):
        ac.squeeze(x, axis=0)
    with pytest.raises((ValueError, IndexError)):
        ac.squeeze(x, axis=2)
    with pytest.raises((ValueError, IndexError)):
        ac.expand_dims(x, axis=3)
    with pytest.raises(ValueError):
        ac.expand_dims(x, axis=(0, 0))


@pytest.mark.parametrize("layout", ALL)
def test_reshape(layout):
    a, x = pair(layout)
    n = a.size
    shapes = [(n,), (-1,), (1, n), (n, 1, 1)]
    if n == 60:
        shapes += [(12, 5), (4, 15), (2, 2, 3, 5), (-1, 5), (3, -1, 2), (60, 1)]
    if n == 0:
        shapes += [(0, 7), (5, 0, -1)[:2]]
    for s in shapes:
        for copy in (None, True):
            assert_matches_numpy(ac.reshape(x, s, copy=copy), np.reshape(a, s))
    r = ac.reshape(x, (-1,), copy=True)
    assert not _same_buffer(r, x)


def test_reshape_views_and_copy_false():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = ac.asarray(a.copy())
    for s in [(6, 4), (2, 12), (24,), (4, 3, 2), (2, 3, 2, 2), (1, 24, 1)]:
        y = ac.reshape(x, s, copy=False)
        assert _same_buffer(y, x)
        assert_matches_numpy(y, a.reshape(s))
    xt = ac.permute_dims(x, (2, 1, 0))   # (4, 3, 2)
    at = a.transpose(2, 1, 0)
    # Splitting and merging axes that stay contiguous relative to each other is a view.
    y = ac.reshape(xt, (4, 3, 2, 1), copy=False)
    assert_matches_numpy(y, at.reshape(4, 3, 2, 1))
    y = ac.reshape(xt, (2, 2, 3, 2), copy=False)
    assert_matches_numpy(y, at.reshape(2, 2, 3, 2))
    with pytest.raises(ValueError, match="^reshape"):
        ac.reshape(xt, (24,), copy=False)
    assert_matches_numpy(ac.reshape(xt, (24,)), at.reshape(24))
    s = x[:, ::2]
    with pytest.raises(ValueError):
        ac.reshape(s, (-1,), copy=False)
    assert_matches_numpy(ac.reshape(s, (2, 8)), a[:, ::2].reshape(2, 8))
    assert_matches_numpy(ac.reshape(s, (2, 2, 4), copy=False), a[:, ::2].reshape(2, 2, 4))


def test_reshape_errors():
    x = ac.ones((2, 3))
    for bad in [(4,), (-1, -1), (5, -1), (-2, 3)]:
        with pytest.raises(ValueError, match="^reshape"):
            ac.reshape(x, bad)
    with pytest.raises(TypeError):
        ac.reshape(x, (2.0, 3))
    with pytest.raises(ValueError):
        ac.reshape(ac.ones((0, 3)), (-1, 0))


@pytest.mark.parametrize("layout", ALL)
def test_roll(layout):
    a, x = pair(layout)
    for shift in [0, 1, -2, 7, -61]:
        assert_matches_numpy(ac.roll(x, shift), np.roll(a, shift))
        for ax in range(a.ndim):
            assert_matches_numpy(ac.roll(x, shift, axis=ax), np.roll(a, shift, axis=ax))
    if a.ndim >= 2:
        assert_matches_numpy(ac.roll(x, (1, -2), axis=(0, -1)), np.roll(a, (1, -2), axis=(0, -1)))
        assert_matches_numpy(ac.roll(x, 2, axis=(0, 1)), np.roll(a, 2, axis=(0, 1)))
        assert_matches_numpy(ac.roll(x, (1, 2), axis=0), np.roll(a, (1, 2), axis=0))


@pytest.mark.parametrize("layout", ALL)
def test_repeat(layout):
    a, x = pair(layout)
    for r in [0, 1, 3]:
        assert_matches_numpy(ac.repeat(x, r), np.repeat(a, r))
        for ax in range(a.ndim):
            assert_matches_numpy(ac.repeat(x, r, axis=ax), np.repeat(a, r, axis=ax))
    for ax in range(a.ndim):
        counts = np.arange(a.shape[ax]) % 3
        assert_matches_numpy(ac.repeat(x, ac.asarray(counts), axis=ax),
                             np.repeat(a, counts, axis=ax))
        assert_matches_numpy(ac.repeat(x, ac.asarray([2]), axis=ax), np.repeat(a, [2], axis=ax))
    counts = np.arange(a.size) % 4
    assert_matches_numpy(ac.repeat(x, ac.asarray(counts)), np.repeat(a, counts))


def test_repeat_errors():
    x = ac.ones((2, 3))
    with pytest.raises(ValueError, match="^repeat"):
        ac.repeat(x, -1)
    with pytest.raises(ValueError, match="^repeat"):
        ac.repeat(x, ac.asarray([1, 2]), axis=1)
    with pytest.raises(ValueError, match="^repeat"):
        ac.repeat(x, ac.asarray([1, -2]), axis=0)
    with pytest.raises(TypeError, match="^repeat"):
        ac.repeat(x, ac.asarray([1.0, 2.0]), axis=0)


@pytest.mark.parametrize("layout", ALL)
def test_tile(layout):
    a, x = pair(layout)
    for reps in [(2,), (1, 2), (2, 1, 3), (0, 2), (2, 1, 1, 2), ()]:
        assert_matches_numpy(ac.tile(x, reps), np.tile(a, reps))


@pytest.mark.parametrize("layout", ALL)
def test_unstack_stack_concat(layout):
    a, x = pair(layout)
    for ax in range(-a.ndim, a.ndim):
        parts = ac.unstack(x, axis=ax)
        ref = np.unstack(a, axis=ax)
        assert isinstance(parts, tuple) and len(parts) == len(ref)
        for p, r in zip(parts, ref):
            assert_matches_numpy(p, r)
    for ax in range(-a.ndim - 1, a.ndim + 1):
        assert_matches_numpy(ac.stack((x, x), axis=ax), np.stack((a, a), axis=ax))
    for ax in range(-a.ndim, a.ndim):
        assert_matches_numpy(ac.concat((x, x, x), axis=ax), np.concatenate((a, a, a), axis=ax))
    assert_matches_numpy(ac.concat([x, x], axis=None), np.concatenate([a, a], axis=None))


@pytest.mark.parametrize("d1", DTYPE_NAMES)
@pytest.mark.parametrize("d2", ["bool", "int8", "uint64", "float32", "complex64"])
def test_concat_stack_promotion(d1, d2):
    rng = np.random.default_rng(3)
    a = random_numpy((2, 3), d1, rng, 0, 20)
    b = random_numpy((2, 3), d2, rng, 0, 20)
    x, y = ac.asarray(a), ac.asarray(b)
    want = ac.result_type(x, y)
    assert want.name == np.result_type(a, b).name
    got = ac.concat((x, y), axis=1)
    assert got.dtype == want
    assert_matches_numpy(got, np.concatenate((a, b), axis=1))
    got = ac.stack((x, y))
    assert got.dtype == want
    assert_matches_numpy(got, np.stack((a, b)))


def test_concat_stack_errors():
    x, y = ac.ones((2, 3)), ac.ones((3, 3))
    with pytest.raises(ValueError, match="^concat"):
        ac.concat((x, y), axis=1)
    with pytest.raises(ValueError, match="^concat"):
        ac.concat((x, ac.ones(3)))
    with pytest.raises(ValueError, match="^concat"):
        ac.concat((ac.asarray(1.0), ac.asarray(2.0)))
    with pytest.raises(ValueError, match="^stack"):
        ac.stack((x, y))
    with pytest.raises(ValueError):
        ac.concat(())
    with pytest.raises(TypeError):
        ac.concat(x)
    with pytest.raises((ValueError, IndexError)):
        ac.concat((x, x), axis=2)
    with pytest.raises(ValueError):
        ac.unstack(ac.asarray(1.0))


@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_all_dtypes(dtype):
    a = random_numpy((3, 4), dtype, np.random.default_rng(1))
    x = ac.asarray(a.copy())
    assert_matches_numpy(ac.flip(x), np.flip(a))
    assert_matches_numpy(ac.roll(x, 5), np.roll(a, 5))
    assert_matches_numpy(ac.tile(x, (2, 1)), np.tile(a, (2, 1)))
    assert_matches_numpy(ac.repeat(x, 2, axis=1), np.repeat(a, 2, axis=1))
    assert_matches_numpy(ac.repeat(x, ac.asarray([1, 0, 2]), axis=0),
                         np.repeat(a, [1, 0, 2], axis=0))
    assert_matches_numpy(ac.reshape(ac.permute_dims(x, (1, 0)), (12,)), a.T.reshape(12))
    assert_matches_numpy(ac.concat((x, x)), np.concatenate((a, a)))


def test_broadcast():
    assert ac.broadcast_shapes((2, 1), (3,), ()) == (2, 3)
    assert ac.broadcast_shapes() == ()
    assert ac.broadcast_shapes((0, 1), (5,)) == (0, 5)
    with pytest.raises(ValueError, match="broadcast"):
        ac.broadcast_shapes((2,), (3,))
    a = np.arange(3.0)
    x = ac.asarray(a)
    assert_matches_numpy(ac.broadcast_to(x, (2, 3)), np.broadcast_to(a, (2, 3)))
    with pytest.raises(ValueError):
        ac.broadcast_to(x, (4,))
    b = np.ones((2, 1))
    r = ac.broadcast_arrays(x, ac.asarray(b), ac.asarray(5.0))
    ref = np.broadcast_arrays(a, b, np.asarray(5.0))
    assert len(r) == 3
    for got, want in zip(r, ref):
        assert_matches_numpy(got, want)
    assert ac.broadcast_arrays() == ()  # a tuple, as the standard says


def test_axis_errors():
    x = ac.ones((2, 3))
    for f in [lambda: ac.flip(x, axis=2), lambda: ac.roll(x, 1, axis=-3),
              lambda: ac.moveaxis(x, 0, 2), lambda: ac.unstack(x, axis=2),
              lambda: ac.stack((x,), axis=4), lambda: ac.repeat(x, 2, axis=2)]:
        with pytest.raises((ValueError, IndexError)):
            f()
    with pytest.raises(ValueError, match="^permute_dims"):
        ac.permute_dims(x, (0, 0))
    with pytest.raises(ValueError, match="^permute_dims"):
        ac.permute_dims(x, (0,))
    with pytest.raises(ValueError, match="^roll"):
        ac.roll(x, (1, 2), axis=(0, 1, 1))


def test_large_copies_match():
    a = np.random.default_rng(0).random((300, 400)).astype(np.float32)
    x = ac.asarray(a)
    assert_matches_numpy(ac.roll(x, (17, -5), axis=(0, 1)), np.roll(a, (17, -5), axis=(0, 1)))
    assert_matches_numpy(ac.reshape(ac.permute_dims(x, (1, 0)), (-1,)), a.T.reshape(-1))
    assert_matches_numpy(ac.tile(x, (2, 2)), np.tile(a, (2, 2)))


def test_reshape_native_fast_path_equals_the_python_path():
    """reshape(x, shape) of a plain array with an int or a tuple/list of ints runs natively
    when the result is a view (bind_fast_calls.cpp, try_fast_reshape); it must agree with the
    Python function (the FastFunction's __wrapped__) on views (shape, strides), on reshapes
    that need a copy (handed over), -1 entries, lists and ints, and on the errors."""
    python_reshape = ac.reshape.__wrapped__
    while hasattr(python_reshape, "__wrapped__"):
        python_reshape = python_reshape.__wrapped__
    base = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    arrays = [ac.asarray(base), ac.asarray(base)[:, ::-1], ac.asarray(base).mT,
              ac.asarray(base)[1], ac.asarray(np.zeros((0, 4), np.float32))]
    shapes = [(-1,), (6, 20), [6, -1], (2, 3, 20), (-1, 5), 120, (4, 5, -1), (1, -1, 1),
              (0, 4), (-1, 4), (7, -1), (-1, -1), (121,), (2, 3, -2)]
    for x in arrays:
        for shape in shapes:
            try:
                want = python_reshape(x, shape)
            except ValueError as e:
                with pytest.raises(ValueError, match="^reshape"):
                    ac.reshape(x, shape)
                continue
            got = ac.reshape(x, shape)
            assert got.shape == want.shape and got._strides == want._strides, (x.shape, shape)
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
