"""The native fast paths of indexing with several advanced parts: ints next to index arrays
(x[0, idx], x[idx, 0], x[:, 0, idx]), several index arrays (x[i, j], x[i[:, None], j]) and
advanced-index assignment (x[idx] = v, x[i, j] = v), plan_int_index in
bind_fast_advanced.cpp and bind_fast_setitem.cpp; and concat/stack of mixed dtypes
(bind_fast_join.cpp).  Each is compared with the general Python path (same result, or the
same error type and message) and with NumPy, over the layouts of _layouts.py."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import arraycore as ac
from arraycore.array_api import _manipulation  # its concat/stack: FastFunctions over Python ones
from _layouts import LAYOUTS, pair
from test_indexing_fast_paths import _ac_key, _outcome, _same, general_getitem, general_setitem

INDEX_DTYPES = ["int64", "int32", "int16", "int8", "uint8", "uint16", "uint32", "uint64"]


def _index_array(rng, n, shape, dtype):
    """Indices into an axis of length n: mostly in range, sometimes negative or outside."""
    lo, hi = (-n, n) if rng.random() < 0.85 else (-n - 3, n + 3)
    if np.dtype(dtype).kind == "u":
        lo = max(lo, 0)
    if hi <= lo:
        return np.zeros(shape, dtype)
    i = rng.integers(lo, hi, size=shape)
    return i.astype(dtype) if np.dtype(dtype).kind == "i" or (i >= 0).all() else np.abs(i).astype(dtype)


def _random_multi_key(rng, shape):
    """Two or three advanced parts (ints, integer arrays of broadcastable (sometimes not)
    shapes, lists of ints, 1-d bool masks) among slices, None and Ellipsis."""
    ndim = len(shape)
    n_adv = min(ndim, int(rng.integers(2, 4)))
    adv_axes = set(rng.choice(ndim, size=n_adv, replace=False).tolist())
    b = tuple(int(s) for s in rng.integers(0, 4, size=rng.integers(1, 3)))
    parts, has_array = [], False
    for d in range(ndim):
        if d in adv_axes:
            kind = rng.integers(0, 5)
            n = shape[d]
            if kind == 4:  # a mask (its true count broadcast with the others, or not)
                has_array = True
                parts.append(rng.random(n + (rng.random() < 0.05)) < 0.4)
                continue
            if kind == 0:  # an int
                lo, hi = (-n, n) if rng.random() < 0.9 else (-n - 2, n + 2)
                parts.append(int(rng.integers(lo, hi)) if hi > lo else 0)
                continue
            has_array = True
            # a shape that broadcasts to b (leading axes dropped, some set to 1), or not
            s = b[int(rng.integers(0, len(b) + 1)):]
            s = tuple(1 if rng.random() < 0.3 else k for k in s)
            if rng.random() < 0.05:
                s = s + (5,)
            if kind == 1 and len(s) == 1 and s[0] > 0:
                parts.append([int(v) for v in _index_array(rng, n, s, "int64")])
            else:
                parts.append(_index_array(rng, n, s, INDEX_DTYPES[int(rng.integers(0, 8))]))
        else:
            parts.append([slice(None), slice(None, None, -1), slice(1, None, 2),
                          slice(-2, None)][int(rng.integers(0, 4))])
        if rng.random() < 0.1:
            parts.append(None)
    if not has_array:  # at least one array, else the key is basic
        d = sorted(adv_axes)[0]
        parts[[i for i, p in enumerate(parts) if p is not None][d]] = _index_array(
            rng, shape[d], (2,), "int64")
    if rng.random() < 0.2:  # trailing basic parts by an ellipsis
        last_adv = max(i for i, p in enumerate(parts)
                       if type(p) in (int, list, np.ndarray))
        parts = parts[:last_adv + 1] + [Ellipsis]
    if rng.random() < 0.1:  # leading parts by an ellipsis
        first_adv = min(i for i, p in enumerate(parts) if type(p) in (int, list, np.ndarray))
        parts = [Ellipsis] + parts[first_adv:]
    return tuple(parts)


MULTI_LAYOUTS = [k for k in LAYOUTS if k != "zero_d"]


@pytest.mark.parametrize("layout", MULTI_LAYOUTS)
def test_getitem_multi_random_keys_match_general_path_and_numpy(layout):
    rng = np.random.default_rng(sum(map(ord, layout)))
    npa, x = pair(layout, "float32")
    for _ in range(120):
        key = _random_multi_key(rng, npa.shape)
        akey = _ac_key(key)
        fast = _outcome(lambda: x[akey])
        _same(fast, _outcome(lambda: general_getitem(x, akey)))
        try:
            ref = npa[key]
        except IndexError:
            # (NumPy also checks indices that select nothing: an int next to an empty array)
            assert fast[0] is IndexError or fast[1].size == 0, (key, fast)
        else:
            assert fast[0] == "ok", (key, fast)
            assert fast[1].shape == ref.shape, key
            np.testing.assert_array_equal(fast[1], ref)


def test_getitem_named_cases_and_zero_d():
    a = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5)
    x = ac.asarray(a)
    i, j = np.array([1, 0, -1]), np.array([[3], [0]])
    keys = [(0, i), (i, 0), (slice(None), 0, i), (i, i), (i[:, None], i), (0, i, 2),
            (slice(None), i, j), (i[:2], slice(None), j), (0, None, i), (Ellipsis, j, i),
            (1, Ellipsis, i), (i, 1, slice(None), j), (None, 0, slice(1, None), i),
            ([1, 0], 2), (1, [0, 2, 2]), ([0, 1], [2, 1])]
    for key in keys:
        akey = _ac_key(key)
        np.testing.assert_array_equal(np.asarray(x[akey]), a[key])
        _same(_outcome(lambda: x[akey]), _outcome(lambda: general_getitem(x, akey)))
    m1, m2 = np.array([True, False, True]), np.array([[True, False, True, False]] * 3)
    for key in [(slice(None), m1), (1, m2), (m1, 0, i[:2]), (Ellipsis, m2[0][:4], 3),
                (0, None, m2), (i[:1], m2), (slice(None), m1, [0, 4, 1][:2]), (m1[:2], 0)]:
        akey = _ac_key(key)
        fast = _outcome(lambda: x[akey])
        _same(fast, _outcome(lambda: general_getitem(x, akey)))
        ref = _outcome(lambda: a[key])
        assert fast[0] == ref[0] or (fast[0] is IndexError and ref[0] is IndexError), key
        if fast[0] == "ok":
            _same(fast, ref)
    z = ac.asarray(3.0)  # 0-d: any advanced part is one index too many
    for key in ((0, [0]), (ac.asarray([0]), ac.asarray([0]))):
        _same(_outcome(lambda: z[key]), _outcome(lambda: general_getitem(z, key)))
        assert _outcome(lambda: z[key])[0] is IndexError


@pytest.mark.parametrize("dtype", INDEX_DTYPES)
def test_getitem_every_index_dtype(dtype):
    a = np.arange(60.0).reshape(3, 4, 5)
    x = ac.asarray(a)
    i = np.array([2, 0, 1, 1], dtype)
    j = np.array([[3], [0]], dtype)
    for key in [(i, j), (1, i), (i, slice(None), 3), (slice(None), i[:3], j)]:
        np.testing.assert_array_equal(np.asarray(x[_ac_key(key)]), a[key])


def test_getitem_errors_match_general_path():
    x = ac.asarray(np.arange(12.0).reshape(3, 4))
    i = ac.asarray([0, 1])
    for key in [(3, i), (-4, i), (i, 4), (ac.asarray([0, 5]), i), (i, ac.asarray([0, 1, 2])),
                (i, i, i), (0, ac.asarray([-5])), (2 ** 70, i), (i, ac.asarray([0.0, 1.0])),
                (i, ac.asarray([True, False, True, True])), (i, Ellipsis, Ellipsis, 0),
                (ac.asarray(np.uint64([2 ** 63])), 0), (i, slice(0, 2, 0))]:
        fast = _outcome(lambda: x[key])
        assert fast[0] is not "ok", key  # noqa: F632
        _same(fast, _outcome(lambda: general_getitem(x, key)))


SETITEM_LAYOUTS = [k for k in LAYOUTS if k not in ("zero_d",)]


def _values(rng, npa, key, dtype):
    """Values for npa[key] = v: scalars, an array of the result's shape, one that broadcasts
    (its trailing axes), one that does not, one of another dtype."""
    out = [1, True, -2.5, 7]
    try:
        shape = npa[key].shape
    except IndexError:
        shape = (3,)
    full = (rng.standard_normal(shape) * 5).astype(dtype)
    out.append(full)
    out.append(full[(0,) * min(1, full.ndim)] if full.ndim and shape[0] else full)
    out.append(np.ones(tuple(s + 1 for s in shape) or (2,), dtype))
    out.append(full.astype(np.float32 if dtype == "float64" else np.int8))
    return out


def _setitem_pair(npa, x, key, value):
    """(fast, general, numpy) outcomes of x[key] = value on copies."""
    x1 = ac.asarray(np.array(npa))
    x2 = ac.asarray(np.array(npa))
    akey = _ac_key(key)
    avalue = ac.asarray(value) if isinstance(value, np.ndarray) else value

    def fast():
        x1[akey] = avalue
        return x1

    def general():
        general_setitem(x2, akey, avalue)
        return x2

    def ref():
        b = np.array(npa)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            b[key] = value
        return b
    return _outcome(fast), _outcome(general), _outcome(ref)


@pytest.mark.parametrize("layout", SETITEM_LAYOUTS)
@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_setitem_multi_random_keys_match_general_path_and_numpy(layout, dtype):
    rng = np.random.default_rng(sum(map(ord, layout + dtype)))
    npa, _ = pair(layout, dtype, writeable=True)
    npa = np.array(npa)
    keys = [_random_multi_key(rng, npa.shape) for _ in range(30)]
    # one advanced part too (x[idx] = v, x[:, idx] = v), a list, repeated indices
    keys += [(_ac_index(rng, npa.shape[0]),), ([0, 0, -1] if npa.shape[0] else [],),
             (slice(None), np.array([1, 1, 0]) % max(npa.shape[-1], 1))]
    for key in keys:
        for value in _values(rng, npa, key, dtype):
            fast, general, ref = _setitem_pair(npa, None, key, value)
            _same(fast, general)
            if fast[0] == "ok" and ref[0] is IndexError:
                # (NumPy also checks indices that select nothing)
                assert general_getitem(ac.asarray(npa), _ac_key(key)).size == 0, key
            elif fast[0] == "ok":
                assert ref[0] == "ok", (key, value)
                np.testing.assert_array_equal(fast[1], ref[1])
            elif fast[0] is IndexError:
                assert ref[0] is IndexError, (key, fast, ref)


def _ac_index(rng, n):
    return rng.integers(-n, n, size=4) if n else np.zeros(0, np.int64)


def test_setitem_repeated_indices_last_write_wins():
    x = ac.zeros((3, 4))
    x[ac.asarray([1, 1, 1]), ac.asarray([2, 2, 2])] = ac.asarray([1.0, 2.0, 3.0])
    assert float(x[1, 2]) == 3.0
    v = ac.zeros(5)
    v[[0, 3, 0, 3]] = ac.asarray([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(np.asarray(v), [3.0, 0, 0, 4.0, 0])
    x = ac.zeros((3, 4))
    x[ac.asarray([[0], [0]]), ac.asarray([1, 2])] = ac.asarray([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(x[0]), [0, 3.0, 4.0, 0])
    x[0, ac.asarray([3, 3])] = ac.asarray([5.0, 6.0])
    assert float(x[0, 3]) == 6.0


def test_setitem_named_cases():
    a = np.arange(60.0).reshape(3, 4, 5)
    i, j = np.array([2, 0]), np.array([[1], [3]])
    for key, value in [((i,), 1.0), ((i, slice(None)), np.arange(20.0).reshape(4, 5)),
                       ((i, j), np.arange(5.0)), ((0, i), -1.0), ((i, 0), np.arange(5.0)),
                       ((slice(None), 0, i), np.arange(6.0).reshape(3, 2)),
                       ((i[:, None], j[:, 0]), 7), ((1, slice(None), i), True),
                       ((slice(None), np.array([True, False, False, True])), 0.5),
                       ((np.array([True, False, True]), 1), np.arange(5.0)),
                       ((0, np.array([[True] * 5, [False] * 5, [True] * 5, [False] * 5])),
                        np.arange(10.0))]:
        fast, general, ref = _setitem_pair(a, None, key, value)
        _same(fast, general)
        _same(fast, ref)


def test_setitem_errors_match_general_path():
    a = np.arange(12.0).reshape(3, 4)
    i = np.array([0, 2])
    for key, value in [((i, 4), 1.0), ((3, i), 1.0), ((i, np.array([0, 1, 2])), 1.0),
                       ((i, i), np.ones(3)), ((i, slice(None)), np.ones((3, 4))),
                       ((i, i), 1j), ((i, i), "x"), ((i, i), np.array([1, 2], np.complex128)),
                       ((0, i, 1), 1.0), ((i, 2 ** 70), 1.0)]:
        fast, general, _ = _setitem_pair(a, None, key, value)
        assert fast[0] != "ok", key
        _same(fast, general)
    xi = ac.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    with pytest.raises(TypeError):
        xi[ac.asarray([0, 1]), 0] = 1.5


def test_errors_of_folded_ints_and_versions():
    # ints read as basic indices (x[0, idx]): an index error is still the Python path's,
    # naming the same axis, and a write that raises writes nothing
    x = ac.asarray(np.arange(24.0).reshape(2, 3, 4))
    for key in [(0, ac.asarray([1, 4])), (ac.asarray([0, 5]), 1), (slice(None), 2,
                                                                   ac.asarray([-5]))]:
        with pytest.raises(IndexError) as fast:
            x[key]
        with pytest.raises(IndexError) as general:
            general_getitem(x, key)
        assert str(fast.value) == str(general.value)
        with pytest.raises(IndexError) as fast:
            x[key] = 1.0
        assert str(fast.value) == str(general.value).replace("__getitem__", "__setitem__")
        np.testing.assert_array_equal(np.asarray(x), np.arange(24.0).reshape(2, 3, 4))


def test_setitem_readonly_and_aliasing():
    ro = np.arange(6.0).reshape(2, 3)
    ro.flags.writeable = False
    r = ac.asarray(ro)
    for key in [(ac.asarray([0, 1]), 0), (ac.asarray([1]),), (0, [0, 2])]:
        with pytest.raises(ValueError, match="read-only") as fast:
            r[key] = 1.0
        with pytest.raises(ValueError, match="read-only") as general:
            general_setitem(r, key, 1.0)
        assert str(fast.value) == str(general.value)
    # values and indices in the written buffer are read before anything is written
    x = ac.asarray(np.arange(6.0))
    x[ac.asarray([1, 2, 3])] = x[:3]
    np.testing.assert_array_equal(np.asarray(x), [0, 0, 1, 2, 4, 5])
    for setter in (lambda t, k, v: t.__setitem__(k, v), general_setitem):
        y = ac.asarray(np.array([1, 2, 0, 9], np.int64))
        setter(y, y[:3], ac.asarray(np.array([3, 0, 1], np.int64)))
        # NumPy: y[[1, 2, 0]] = [3, 0, 1]
        np.testing.assert_array_equal(np.asarray(y), [1, 3, 0, 9])


def test_setitem_multi_bumps_versions_and_tape_sees_it():
    x = ac.zeros((3, 4))
    v0 = x._version
    x[ac.asarray([0, 1]), ac.asarray([1, 2])] = 1.0
    x[0, ac.asarray([3])] = ac.asarray([2.0])
    x[[1, 2]] = 3.0
    assert x._version == v0 + 3
    w = ac.asarray(np.arange(6.0).reshape(2, 3))
    p = ac.ones((2, 3))
    p.requires_grad_()
    loss = ac.sum(p * w)
    w[ac.asarray([0, 1]), 0] = 10.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_autodiff_through_multi_indexing():
    a = np.arange(12.0).reshape(3, 4)
    x = ac.asarray(a)
    x.requires_grad_()
    i, j = ac.asarray([0, 2, 2]), ac.asarray([1, 3, 3])
    y = ac.sum(x[i, j] * 2.0) + ac.sum(x[1, ac.asarray([0, 0])]) + ac.sum(x[[2], 0])
    y.backward()
    ref = np.zeros((3, 4))
    np.add.at(ref, ([0, 2, 2], [1, 3, 3]), 2.0)
    ref[1, 0] += 2
    ref[2, 0] += 1
    np.testing.assert_array_equal(np.asarray(x.grad), ref)
    # setitem on a recorded array goes to the tape
    x2 = ac.asarray(a.copy())
    x2.requires_grad_()
    h = x2 * 3.0
    h[ac.asarray([0, 1]), ac.asarray([0, 1])] = 0.0
    h[2, [1, 2]] = ac.asarray([1.0, 1.0])
    ac.sum(h).backward()
    ref = np.full((3, 4), 3.0)
    ref[[0, 1], [0, 1]] = 0
    ref[2, [1, 2]] = 0
    np.testing.assert_array_equal(np.asarray(x2.grad), ref)
    # transforms see these ops
    g = ac.func.grad(lambda t: ac.sum(t[i, j] ** 2) + ac.sum(t[0, ac.asarray([1])]))(
        ac.asarray(a))
    ref = np.zeros((3, 4))
    np.add.at(ref, ([0, 2, 2], [1, 3, 3]), 2 * a[[0, 2, 2], [1, 3, 3]])
    ref[0, 1] += 1
    np.testing.assert_array_equal(np.asarray(g), ref)
    out = ac.func.vmap(lambda m: m[ac.asarray([1, 0]), ac.asarray([2, 2])])(
        ac.asarray(np.arange(24.0).reshape(2, 3, 4)))
    np.testing.assert_array_equal(np.asarray(out),
                                  np.arange(24.0).reshape(2, 3, 4)[:, [1, 0], [2, 2]])

    def f(t):
        b = t * 1.0
        b[ac.asarray([0]), ac.asarray([1])] = 0.0
        return ac.sum(b * b)
    g = ac.func.grad(f)(ac.asarray(a))
    ref = 2 * a
    ref[0, 1] = 0
    np.testing.assert_array_equal(np.asarray(g), ref)
    # a plain array written with a recorded value records the write
    z = ac.zeros((3, 4))
    p = ac.asarray([1.0, 2.0])
    p.requires_grad_()
    z[ac.asarray([0, 1]), ac.asarray([1, 2])] = p * 3.0
    ac.sum(z * z).backward()
    np.testing.assert_array_equal(np.asarray(p.grad), [18.0, 36.0])
    # batched index arrays (tracers) take the recorded path
    out = ac.func.vmap(lambda k: x.detach()[k, 0])(ac.asarray([[0, 1], [2, 2]]))
    np.testing.assert_array_equal(np.asarray(out), a[[[0, 1], [2, 2]], 0])
    out = ac.func.vmap(lambda k: x.detach()[1, k])(ac.asarray([[0, 1], [3, 2]]))
    np.testing.assert_array_equal(np.asarray(out), a[1, [[0, 1], [3, 2]]])
    from arraycore.autograd import forward_ad as fwd
    with fwd.dual_level():
        d = fwd.make_dual(ac.asarray(a), ac.asarray(a * 10))
        t = fwd.unpack_dual(d[ac.asarray([2, 0]), 1]).tangent
        np.testing.assert_array_equal(np.asarray(t), [90.0, 10.0])


JOIN_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
               "uint64", "float32", "float64", "complex64", "complex128"]


def test_concat_stack_mixed_dtypes_match_general_path_and_numpy():
    rng = np.random.default_rng(7)
    concat_py, stack_py = _manipulation.concat.__wrapped__, _manipulation.stack.__wrapped__
    for d1, d2 in itertools.product(JOIN_DTYPES, repeat=2):
        a = (rng.standard_normal((2, 3)) * 50).astype(d1)
        b = (rng.standard_normal((2, 3)) * 50).astype(d2)
        for arrays in ([a, b], [a, a, b], [b[:, ::-1], a.T.copy().T, b]):
            xs = [ac.asarray(t) for t in arrays]
            for fast_f, py_f, np_f, kw in [(ac.concat, concat_py, np.concatenate, {}),
                                           (ac.concat, concat_py, np.concatenate, {"axis": 1}),
                                           (ac.stack, stack_py, np.stack, {"axis": -1})]:
                fast = _outcome(lambda: fast_f(xs, **kw))
                _same(fast, _outcome(lambda: py_f(xs, **kw)))
                ref = np_f(arrays, **kw)
                assert fast[1].dtype == ref.dtype, (d1, d2)
                np.testing.assert_array_equal(fast[1], ref)


def test_concat_stack_three_kinds_and_layouts():
    # promote_sequence (not pairwise folding) decides three mixed kinds
    concat_py = _manipulation.concat.__wrapped__
    for dts in [("uint16", "int8", "complex64"), ("int8", "uint16", "complex64"),
                ("uint8", "int8", "float32", "bool"), ("uint64", "int64", "float32")]:
        xs = [ac.asarray(np.ones(2, d)) for d in dts]
        assert ac.concat(xs).dtype == concat_py(xs).dtype
        assert np.asarray(ac.concat(xs)).dtype == np.result_type(*dts)
    for layout in ("contiguous", "transposed", "negative", "strided", "stride0", "empty",
                   "size1"):
        a, x = pair(layout, "float32")
        b, y = pair(layout, "int16", seed=1)
        for axis in (0, 1, -1):
            np.testing.assert_array_equal(np.asarray(ac.concat([x, y], axis=axis)),
                                          np.concatenate([a, b], axis=axis))
            np.testing.assert_array_equal(np.asarray(ac.stack([y, x, y], axis=axis)),
                                          np.stack([b, a, b], axis=axis))
    # tape state still goes to the recorded path
    p = ac.asarray([1.0, 2.0])
    p.requires_grad_()
    ac.sum(ac.concat([p, ac.asarray(np.array([1, 2], np.int32))]) * 2.0).backward()
    np.testing.assert_array_equal(np.asarray(p.grad), [2.0, 2.0])
