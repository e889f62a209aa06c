"""The native fast paths of indexing and of a few small calls (bind_fast_getitem.cpp,
bind_fast_advanced.cpp, bind_fast_setitem.cpp, bind_fast_attributes.cpp, bind_fast_join.cpp)
against the general Python path and NumPy: random keys, edge cases, errors, version counters
and autodiff through them."""

from __future__ import annotations

import numpy as np
import pytest

import arraycore as ac
from arraycore._core import indexing as _indexing
from arraycore.autodiff import install as _install

Array = type(ac.asarray(0))


def general_getitem(x, key):
    """x[key] through the Python path (no native fast path)."""
    return _indexing.getitem(x, key)


def general_setitem(x, key, value):
    """x[key] = value through the Python path (array_methods._setitem)."""
    _install._ORIG_SETITEM(x, key, value)


def _ac_key(k):
    if isinstance(k, np.ndarray):
        return ac.asarray(k)
    if isinstance(k, tuple):
        return tuple(_ac_key(e) for e in k)
    return k


def _outcome(f):
    try:
        return "ok", np.asarray(f())
    except Exception as e:  # the type and message must agree
        return type(e), str(e)


def _same(a, b):
    assert a[0] == b[0], (a, b)
    if a[0] == "ok":
        assert a[1].shape == b[1].shape and a[1].dtype == b[1].dtype
        np.testing.assert_array_equal(a[1], b[1])
    else:
        assert a[1] == b[1]


def _layouts(a):
    """NumPy array a in several memory layouts (as arraycore arrays), with NumPy twins."""
    x = ac.asarray(a)
    yield a, x
    big = np.zeros(tuple(2 * n for n in a.shape), a.dtype)
    sl = tuple(slice(None, None, 2) for _ in a.shape)
    big[sl] = a
    yield big[sl], ac.asarray(big)[sl]                          # strided
    flipped = ac.asarray(np.ascontiguousarray(a[::-1]))[::-1]   # negative stride
    yield a, flipped
    if a.ndim >= 2:
        t = ac.asarray(np.ascontiguousarray(np.swapaxes(a, 0, 1)))
        yield a, ac.permute_dims(t, (1, 0) + tuple(range(2, a.ndim)))


def _random_key(rng, shape):
    """One advanced part (int array of some dtype, or a list of ints) among slices, None and
    Ellipsis; indices sometimes out of range."""
    ndim = len(shape)
    parts = []
    axis = rng.integers(0, ndim)
    for d in range(ndim):
        if d == axis:
            n = shape[d]
            lo, hi = (-n, n) if rng.random() < 0.9 else (-n - 2, n + 2)
            size = tuple(rng.integers(0, 4, size=rng.integers(1, 3)))
            idx = rng.integers(lo, hi, size=size) if n or hi > lo else np.zeros(size, int)
            kind = rng.integers(0, 4)
            if kind == 0 and idx.ndim == 1 and idx.size:
                parts.append([int(i) for i in idx])
            else:
                dt = ["int64", "int32", "int8", "int16"][kind]
                parts.append(idx.astype(dt))
        else:
            c = rng.integers(0, 4)
            parts.append([slice(None), slice(None, None, -1), slice(1, None, 2),
                          slice(-2, None)][c])
        if rng.random() < 0.15:
            parts.append(None)
    if rng.random() < 0.3:  # trailing axes by an ellipsis
        cut = rng.integers(1, len(parts) + 1)
        if not any(type(p) in (list, np.ndarray) for p in parts[cut:]):
            parts = parts[:cut] + [Ellipsis]
    return parts[0] if len(parts) == 1 and rng.random() < 0.5 else tuple(parts)


@pytest.mark.parametrize("seed", range(4))
def test_getitem_random_keys_match_general_path_and_numpy(seed):
    rng = np.random.default_rng(seed)
    for shape in [(6,), (5, 4), (4, 3, 5), (3, 0, 2)]:
        a = rng.standard_normal(shape).astype(np.float32)
        for npa, x in _layouts(a):
            for _ in range(25):
                key = _random_key(rng, shape)
                akey = _ac_key(key)
                fast = _outcome(lambda: x[akey])
                _same(fast, _outcome(lambda: general_getitem(x, akey)))
                try:
                    ref = npa[key]
                except IndexError:
                    assert fast[0] is IndexError
                else:
                    assert fast[0] == "ok", (key, fast)
                    np.testing.assert_array_equal(fast[1], ref)
                    assert fast[1].shape == ref.shape


def test_getitem_index_dtypes_and_layouts():
    a = np.arange(60, dtype=np.float64).reshape(10, 6)
    x = ac.asarray(a)
    idx = np.array([3, -1, 0, 9, 3])
    for dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
        i = np.abs(idx).astype(dt) if dt.startswith("u") else idx.astype(dt)
        np.testing.assert_array_equal(np.asarray(x[ac.asarray(i)]), a[i])
        np.testing.assert_array_equal(np.asarray(x[:, ac.asarray(i % 6)]), a[:, i % 6])
        np.testing.assert_array_equal(np.asarray(ac.take(x, ac.asarray(i), axis=0)),
                                      np.take(a, i, axis=0))
    # non-contiguous and 2-d index arrays, an index array with negative strides
    i2 = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    ai2 = ac.asarray(i2)
    np.testing.assert_array_equal(np.asarray(x[ai2[:, 1]]), a[i2[:, 1]])
    np.testing.assert_array_equal(np.asarray(x[ai2[::-1]]), a[i2[::-1]])
    np.testing.assert_array_equal(np.asarray(x[..., ai2 % 6]), a[..., i2 % 6])
    np.testing.assert_array_equal(np.asarray(x[None, [1, 2], None]), a[None, [1, 2], None])
    # results are fresh arrays, not views
    r = x[[1, 2]]
    r[0, 0] = -5.0
    assert float(x[1, 0]) == 6.0


def test_getitem_edge_cases():
    x = ac.asarray(np.arange(12.0).reshape(3, 4))
    for key in ([5], [-4], ac.asarray([3]), (slice(None), [4]), (Ellipsis, ac.asarray([-5]))):
        with pytest.raises(IndexError) as fast:
            x[key]
        with pytest.raises(IndexError) as general:
            general_getitem(x, key)
        assert str(fast.value) == str(general.value)
    z = ac.asarray(3.0)  # 0-d
    with pytest.raises(IndexError):
        z[[0]]
    with pytest.raises(IndexError):
        z[ac.asarray([0])]
    assert np.asarray(z[ac.asarray(True)]).shape == (1,)
    with pytest.raises(IndexError):
        x[ac.asarray([1.0])]  # float index arrays
    with pytest.raises(IndexError):
        x[[1.0]]
    # empty index arrays and lists, an empty axis
    assert x[ac.asarray(np.zeros(0, np.int64))].shape == (0, 4)
    assert x[[]].shape == (0, 4)
    e = ac.zeros((0, 3))
    assert e[:, [0, 2]].shape == (0, 2)
    with pytest.raises(IndexError):
        e[[0]]
    # lists of bools are masks, nested lists and ints next to arrays keep NumPy's rules
    a = np.arange(12.0).reshape(3, 4)
    for key in ([True, False, True], [[0, 1], [2, 0]], (1, [0, 2]), ([0, 2], 1),
                ([0, 1], slice(None), ), (slice(None), 1, ), ([0, 1], [1, 2])):
        np.testing.assert_array_equal(np.asarray(x[key]), a[key])
    # huge Python ints go to the general path's error
    with pytest.raises((IndexError, OverflowError)):
        x[[2 ** 70]]


def test_masks():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((5, 4)).astype(np.float32)
    m = rng.random((5, 4)) < 0.5
    for npa, x in _layouts(a):
        for key in (m, m[:, 0], (m[:, 0], ...), (m, ...)):
            akey = _ac_key(key)
            np.testing.assert_array_equal(np.asarray(x[akey]), npa[key])
            _same(_outcome(lambda: x[akey]), _outcome(lambda: general_getitem(x, akey)))
    x = ac.asarray(a)
    for bad in (m[:4, 0], m[:, :3], np.ones((5, 4, 2), bool)):
        with pytest.raises(IndexError) as fast:
            x[ac.asarray(bad)]
        with pytest.raises(IndexError) as general:
            general_getitem(x, ac.asarray(bad))
        assert str(fast.value) == str(general.value)
    v = ac.asarray(a[:, 0])
    assert v[ac.asarray(np.zeros(5, bool))].shape == (0,)


SCALARS = [True, 0, 3, -1, 2.5, -0.0, 300, 1e300, 2 ** 65, 1j]
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "float32", "float64", "complex64"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_setitem_scalars_match_general_path(dtype):
    rng = np.random.default_rng(3)
    base = (rng.standard_normal((4, 5)) * 4).astype(dtype)
    keys = [0, -1, (1, 2), (-4, -5), slice(1, 3), (slice(None), 2), (Ellipsis, -1), (None, 1),
            (slice(None, None, -2), slice(1, None, 3)), (), Ellipsis, 4, (0, 5), (0, 0, 0),
            (0, ..., ...)]
    masks = [base.real > 0 if dtype != "bool" else base, (base.real > 0)[:, 0],
             np.ones(4, bool)[:3]]
    for key in keys + [ac.asarray(m) for m in masks] + [(ac.asarray(masks[1]), ...)]:
        for value in SCALARS:
            x1, x2 = ac.asarray(base.copy()), ac.asarray(base.copy())

            def fast():
                x1[key] = value
                return x1

            def general():
                general_setitem(x2, key, value)
                return x2
            _same(_outcome(fast), _outcome(general))


def test_setitem_arrays_broadcast_and_casts():
    a = np.arange(20.0).reshape(4, 5)
    for value, key in [(np.arange(5.0), 1), (np.arange(5.0), slice(None)),
                       (np.arange(4.0)[:, None], slice(None)), (np.float64(7.0).reshape(()), 2),
                       (np.arange(3.0), (slice(None), 1)), (np.arange(2.0), 0),
                       (np.arange(5, dtype=np.int32), 1), (np.arange(5, dtype=np.float32), 1),
                       (np.arange(5, dtype=np.int64), 1)]:
        for key2 in (key, ac.asarray(a[:, 0] > 5)):
            x1, x2 = ac.asarray(a.copy()), ac.asarray(a.copy())
            v = ac.asarray(value)

            def fast():
                x1[key2] = v
                return x1

            def general():
                general_setitem(x2, key2, v)
                return x2
            _same(_outcome(fast), _outcome(general))
    # dtypes the array cannot hold are TypeErrors
    xi = ac.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError):
        xi[0] = 1.5
    with pytest.raises(TypeError):
        xi[1:] = ac.asarray([1.0, 2.0, 3.0])
    # a value sharing the buffer is read first
    x = ac.asarray(np.arange(6.0))
    x[1:] = x[:-1]
    np.testing.assert_array_equal(np.asarray(x), [0, 0, 1, 2, 3, 4])
    y = ac.asarray(np.arange(6.0))
    y[ac.asarray(np.array([0, 1, 1, 0, 1, 1], bool))] = y[:4][::-1]
    np.testing.assert_array_equal(np.asarray(y), [0, 3, 2, 3, 1, 0])


def test_setitem_views_readonly_and_delete():
    base = ac.zeros((3, 4))
    view = base[1]
    view[3] = 5.0
    view[ac.asarray([True, False, True, False])] = 1.0
    col = base.T[:, 0]  # row 0 of base, through a transposed view
    col[...] = 9.0
    base.T[1:, 2] = 7.0
    np.testing.assert_array_equal(np.asarray(base), [[9, 9, 9, 9], [1, 0, 1, 5], [0, 7, 7, 7]])
    ro = np.arange(4.0)
    ro.flags.writeable = False
    r = ac.asarray(ro)
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        r[ac.asarray(ro > 1)] = 1.0
    with pytest.raises(AttributeError):
        del base[0]
    x = ac.zeros(3)
    x.__setitem__(1, 2.0)  # the attribute form takes the same path
    assert x.__getitem__(1).shape == () and float(x.__getitem__(1)) == 2.0
    with pytest.raises(TypeError):
        x.__setitem__(1)


def test_setitem_bumps_versions():
    x = ac.zeros(5)
    v0 = x._version
    x[1] = 1.0
    x[ac.asarray([True, False, True, False, True])] = 2.0
    x[2:] = ac.ones(3)
    x[1:3][0] = 4.0  # a view shares the counter
    assert x._version == v0 + 4
    # the tape sees a plain saved array modified by the native write
    w = ac.asarray([1.0, 2.0, 3.0])
    p = ac.asarray([0.5, 1.5, 2.5])
    p.requires_grad_()
    loss = ac.sum(p * w)
    w[0] = 10.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_autodiff_through_indexing_and_setitem():
    x = ac.asarray([1.0, 2.0, 3.0, 4.0])
    x.requires_grad_()
    y = ac.sum(x[[0, 2]] * 2.0) + ac.sum(x[ac.asarray([1, 1])]) + ac.sum(x[x > 3.5])
    y = y + ac.sum(ac.take(x, ac.asarray([3]))) + ac.sum(ac.concat([x, x]))
    y.backward()
    np.testing.assert_array_equal(np.asarray(x.grad), [4.0, 4.0, 4.0, 4.0])
    # setitem on a recorded array goes to the tape
    x2 = ac.asarray([1.0, 2.0, 3.0])
    x2.requires_grad_()
    h = x2 * 3.0
    h[1] = 0.0
    h[ac.asarray([True, False, False])] = 1.0
    ac.sum(h * h).backward()
    np.testing.assert_array_equal(np.asarray(x2.grad), [0.0, 0.0, 54.0])
    # transforms see these ops
    A = ac.asarray(np.arange(12.0).reshape(4, 3))
    g = ac.func.grad(lambda a: ac.sum(a[[0, 3]] ** 2) + ac.sum(a.T[1]))(A)
    ref = np.zeros((4, 3))
    ref[[0, 3]] = 2 * np.arange(12.0).reshape(4, 3)[[0, 3]]
    ref[:, 1] += 1
    np.testing.assert_array_equal(np.asarray(g), ref)
    out = ac.func.vmap(lambda row: row[ac.asarray([2, 0])])(A)
    np.testing.assert_array_equal(np.asarray(out), np.arange(12.0).reshape(4, 3)[:, [2, 0]])
    out = ac.func.vmap(lambda row: ac.stack([row, row]))(A)
    assert out.shape == (4, 2, 3)

    def f(a):
        b = a * 1.0
        b[0] = 0.0
        return ac.sum(b * b)
    np.testing.assert_array_equal(np.asarray(ac.func.grad(f)(ac.asarray([1.0, 2.0]))), [0, 4])
    # forward mode
    from arraycore.autograd import forward_ad as fwd
    with fwd.dual_level():
        d = fwd.make_dual(ac.asarray([1.0, 2.0, 3.0]), ac.asarray([1.0, 10.0, 100.0]))
        t = fwd.unpack_dual(d[[2, 0]]).tangent
        np.testing.assert_array_equal(np.asarray(t), [100.0, 1.0])


def test_transpose_and_float():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = ac.asarray(a)
    np.testing.assert_array_equal(np.asarray(x[0].T), a[0].T)
    np.testing.assert_array_equal(np.asarray(x.mT), np.swapaxes(a, -1, -2))
    np.testing.assert_array_equal(np.asarray(x[:, ::-1, 1:].mT), np.swapaxes(a[:, ::-1, 1:], -1, -2))
    with pytest.raises(ValueError):
        x.T
    with pytest.raises(ValueError):
        ac.zeros(3).mT
    t = x[0].T
    t[0, 1] = -1.0  # a view
    assert float(x[0, 1, 0]) == -1.0
    assert Array.T.__doc__ and Array.mT.__doc__
    p = ac.asarray(np.arange(6.0).reshape(2, 3))
    p.requires_grad_()
    ac.sum(p.T * ac.asarray(np.arange(6.0).reshape(3, 2))).backward()
    np.testing.assert_array_equal(np.asarray(p.grad), np.arange(6.0).reshape(3, 2).T)

    assert float(ac.asarray([2.5])) == 2.5 and type(float(ac.asarray(2))) is float
    assert float(ac.asarray(True)) == 1.0
    assert float(ac.asarray(np.uint64(2 ** 63))) == 2.0 ** 63
    assert float(ac.asarray(np.float32(0.1))) == float(np.float32(0.1))
    assert float(p[1, 2]) == 5.0  # arrays with tape state too
    with pytest.raises(TypeError):
        float(ac.asarray([1.0, 2.0]))
    with pytest.raises(TypeError):
        float(ac.asarray(1 + 2j))


def test_concat_stack_expand_dims_take_match_numpy():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal((2, 4)).astype(np.float32)
    xa, xb = ac.asarray(a), ac.asarray(b)
    np.testing.assert_array_equal(np.asarray(ac.concat([xa, xb])), np.concatenate([a, b]))
    np.testing.assert_array_equal(np.asarray(ac.concat((xa.T, xb.T), axis=-1)),
                                  np.concatenate([a.T, b.T], axis=-1))
    np.testing.assert_array_equal(np.asarray(ac.concat([xa[:, ::-1], xa], axis=1)),
                                  np.concatenate([a[:, ::-1], a], axis=1))
    np.testing.assert_array_equal(np.asarray(ac.concat([xa[:0], xb])), b)
    for axis in (0, 1, 2, -1, -3):
        np.testing.assert_array_equal(np.asarray(ac.stack([xa, xa[::-1]], axis=axis)),
                                      np.stack([a, a[::-1]], axis=axis))
        np.testing.assert_array_equal(np.asarray(ac.expand_dims(xa, axis=axis)),
                                      np.expand_dims(a, axis))
    np.testing.assert_array_equal(np.asarray(ac.expand_dims(xa, 1)), np.expand_dims(a, 1))
    np.testing.assert_array_equal(np.asarray(ac.stack([ac.asarray(1.0), ac.asarray(2.0)])),
                                  [1.0, 2.0])
    # mixed dtypes promote (test_indexing_fast_paths_multi.py), errors are the Python path's
    mixed = ac.concat([xa, ac.asarray(b.astype(np.float64))])
    assert mixed.dtype == ac.float64
    assert ac.stack([ac.asarray([1], dtype=ac.int8), ac.asarray([1.5])]).dtype == ac.float64
    for bad in (lambda: ac.concat([xa, xb], axis=1), lambda: ac.concat([xa], axis=2),
                lambda: ac.concat([ac.asarray(1.0)]), lambda: ac.concat([]),
                lambda: ac.stack([xa, xb]), lambda: ac.stack([xa], axis=3),
                lambda: ac.expand_dims(xa, axis=3), lambda: ac.expand_dims(xa, axis=-4),
                lambda: ac.take(xa, ac.asarray([0])), lambda: ac.take(xa, ac.asarray([5]), axis=0),
                lambda: ac.take(xa, ac.asarray([0]), axis=2),
                lambda: ac.take(xa, ac.asarray([0.0]), axis=0)):
        with pytest.raises((ValueError, IndexError, TypeError)):
            bad()
    assert ac.concat([xa, xb], axis=None).shape == (20,)
    assert ac.expand_dims(xa, axis=(0, -1)).shape == (1, 3, 4, 1)
    i = np.array([[2, -1], [0, 0]])
    for axis in (0, 1, -1):
        np.testing.assert_array_equal(np.asarray(ac.take(xa, ac.asarray(i), axis=axis)),
                                      np.take(a, i, axis=axis))
    np.testing.assert_array_equal(np.asarray(ac.take(xa[0], ac.asarray(np.int64(2)))),
                                  np.take(a[0], 2))
    # the fast results are fresh arrays
    c = ac.concat([xa])
    c[0, 0] = 100.0
    assert float(xa[0, 0]) == a[0, 0]


def test_native_methods_have_signatures():
    # The native __getitem__/__setitem__ carry text signatures, so inspect.signature() reads
    # them as the standard writes them (array-api-tests' signature checks skip without).
    import inspect
    A = type(ac.asarray([1.0]))
    assert str(inspect.signature(A.__getitem__)) == "(self, key, /)"
    assert str(inspect.signature(A.__setitem__)) == "(self, key, value, /)"
