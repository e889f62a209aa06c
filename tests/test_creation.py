"""The 16 creation functions of the standard, against NumPy."""

from __future__ import annotations

import array
import math

import numpy as np
import pytest

import arraycore as ac
from conftest import (AC_DTYPES, DTYPE_NAMES, ac_from_numpy, assert_matches_numpy,
                      random_numpy, requires_native)

needs_buffer = requires_native("from_buffer")
needs_dlpack = requires_native("from_dlpack_capsule")

SHAPES = [0, 3, (), (0,), (4,), (0, 3), (2, 3), (2, 0, 4), (1, 1, 1, 2), [2, 3]]


# ----------------------------------------------------------------------------- empty/zeros/ones/full

@pytest.mark.parametrize("shape", SHAPES)
def test_zeros_ones_default_dtype(shape):
    assert_matches_numpy(ac.zeros(shape), np.zeros(shape))
    assert_matches_numpy(ac.ones(shape), np.ones(shape))
    e = ac.empty(shape)
    assert e.shape == np.empty(shape).shape and e.dtype == ac.float64


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_zeros_ones_empty_full_all_dtypes(name):
    d = getattr(ac, name)
    assert_matches_numpy(ac.zeros((2, 3), dtype=d), np.zeros((2, 3), dtype=name))
    assert_matches_numpy(ac.ones((2, 3), dtype=d), np.ones((2, 3), dtype=name))
    e = ac.empty((2, 3), dtype=d)
    assert e.dtype == d and e.shape == (2, 3)
    fill = True if name == "bool" else (3 if "int" in name else (1.5 if "float" in name
                                                                   else 1 - 2j))
    assert_matches_numpy(ac.full((2, 3), fill, dtype=d), np.full((2, 3), fill, dtype=name))


def test_dtype_by_name_string_is_accepted_or_rejected_cleanly():
    try:
        z = ac.zeros(2, dtype="float32")
    except TypeError:
        return
    assert z.dtype == ac.float32


@pytest.mark.parametrize("fill,expected", [(True, "bool"), (2, "int64"), (2.5, "float64"),
                                           (1j, "complex128")])
def test_full_default_dtypes(fill, expected):
    assert_matches_numpy(ac.full((2, 2), fill), np.full((2, 2), fill))
    assert ac.full(3, fill).dtype.name == expected


def test_full_special_values():
    assert_matches_numpy(ac.full(3, math.nan), np.full(3, np.nan))
    assert_matches_numpy(ac.full(3, -0.0), np.full(3, -0.0))
    assert_matches_numpy(ac.full(3, -math.inf, dtype=ac.float32),
                         np.full(3, -np.inf, dtype=np.float32))
    assert_matches_numpy(ac.full((), 2**64 - 1, dtype=ac.uint64),
                         np.full((), 2**64 - 1, dtype=np.uint64))
    assert_matches_numpy(ac.full(2, ac.asarray(4)), np.full(2, 4))


def test_full_errors():
    with pytest.raises(TypeError):
        ac.full(3, 1.5, dtype=ac.int32)
    with pytest.raises(TypeError):
        ac.full(3, "a")
    with pytest.raises(TypeError):
        ac.full(3, [1, 2, 3])
    with pytest.raises((OverflowError, ValueError)):
        ac.full(3, 300, dtype=ac.int8)


@pytest.mark.parametrize("fn", [ac.empty, ac.zeros, ac.ones])
def test_shape_errors(fn):
    with pytest.raises(ValueError):
        fn(-1)
    with pytest.raises(ValueError):
        fn((2, -3))
    with pytest.raises(TypeError):
        fn(2.0)
    with pytest.raises(TypeError):
        fn((2, 1.5))
    with pytest.raises(TypeError):
        fn("3")
    with pytest.raises(TypeError):
        fn((2, 2), dtype="float16")
    with pytest.raises(TypeError):
        fn((2, 2), dtype=int)
    with pytest.raises(ValueError):
        fn((2, 2), device="cuda")


def test_shape_from_numpy_int_and_0d_array():
    assert ac.zeros(np.int64(3)).shape == (3,)
    assert ac.zeros((np.int32(2), 3)).shape == (2, 3)
    assert ac.ones(ac.asarray(2)).shape == (2,)


def test_full_with_bad_shape():
    with pytest.raises(ValueError):
        ac.full((-1,), 1.0)
    with pytest.raises(ValueError):
        ac.full(3, 1.0, device="gpu")


def test_device_argument_accepted():
    assert ac.zeros(2, device="cpu").device == ac.Device("cpu")
    assert ac.ones(2, device=ac.Device("cpu")).device == ac.Device("cpu")
    info = ac.__array_namespace_info__()
    assert ac.empty(2, device=info.default_device()).shape == (2,)


# ----------------------------------------------------------------------------- *_like

@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_like_functions(name):
    d = getattr(ac, name)
    x = ac.zeros((2, 0, 3) if name == "int16" else (3, 2), dtype=d)
    shape = x.shape
    assert_matches_numpy(ac.zeros_like(x), np.zeros(shape, dtype=name))
    assert_matches_numpy(ac.ones_like(x), np.ones(shape, dtype=name))
    e = ac.empty_like(x)
    assert e.shape == shape and e.dtype == d
    fill = True if name == "bool" else 1
    assert_matches_numpy(ac.full_like(x, fill), np.full(shape, fill, dtype=name))


def test_like_with_dtype_and_views():
    x = ac.ones((4, 6), dtype=ac.int32)[::2, ::-3]
    assert_matches_numpy(ac.zeros_like(x, dtype=ac.float32), np.zeros((2, 2), np.float32))
    assert_matches_numpy(ac.ones_like(x.mT, dtype=ac.complex64), np.ones((2, 2), np.complex64))
    assert_matches_numpy(ac.full_like(x, 2.5, dtype=ac.float64), np.full((2, 2), 2.5))
    e = ac.empty_like(x, dtype=ac.bool)
    assert e.dtype == ac.bool and e.shape == (2, 2)
    assert ac.zeros_like(ac.asarray(1.0)).shape == ()


def test_like_errors():
    x = ac.zeros(3, dtype=ac.int8)
    for fn in (ac.empty_like, ac.zeros_like, ac.ones_like):
        with pytest.raises(TypeError):
            fn([1, 2, 3])
        with pytest.raises(TypeError):
            fn(x, dtype="nope")
        with pytest.raises(ValueError):
            fn(x, device="cuda")
    with pytest.raises(TypeError):
        ac.full_like(x, 1.5)
    with pytest.raises(TypeError):
        ac.full_like(np.zeros(3), 1.0)


# ----------------------------------------------------------------------------- asarray

@pytest.mark.parametrize("obj", [True, 0, -5, 2**62, 1.5, -0.0, math.inf, 1 + 2j])
def test_asarray_python_scalars(obj):
    assert_matches_numpy(ac.asarray(obj), np.asarray(obj))


@pytest.mark.parametrize("obj", [
    [1, 2, 3], [1.0, 2, 3], [True, False], [1, 2.5], [1, 1j], [True, 2], [[1, 2], [3, 4]],
    ((1, 2), (3, 4)), [(1.0, 2.0), [3.0, 4.0]], [[[1], [2]], [[3], [4]]], [], [[]], [[], []],
    [[1.0, 2.0]] * 3, [-0.0, math.nan],
])
def test_asarray_nested_sequences(obj):
    assert_matches_numpy(ac.asarray(obj), np.asarray(obj))


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_asarray_list_with_dtype(name):
    vals = [[0, 1, 1], [1, 0, 1]]
    assert_matches_numpy(ac.asarray(vals, dtype=getattr(ac, name)), np.asarray(vals, name))


def test_asarray_scalar_with_dtype():
    assert_matches_numpy(ac.asarray(3, dtype=ac.uint8), np.asarray(3, np.uint8))
    assert_matches_numpy(ac.asarray(2.5, dtype=ac.float32), np.asarray(2.5, np.float32))
    assert_matches_numpy(ac.asarray(1, dtype=ac.complex64), np.asarray(1, np.complex64))


@pytest.mark.parametrize("obj", [[[1, 2], [3]], [1, [2, 3]], [[1, 2], 3], [[[1]], [2]]])
def test_asarray_ragged(obj):
    with pytest.raises(ValueError):
        ac.asarray(obj)


def test_asarray_bad_elements():
    with pytest.raises(TypeError):
        ac.asarray(["a", "b"])
    with pytest.raises(TypeError):
        ac.asarray([object()])
    with pytest.raises(TypeError):
        ac.asarray(object())
    with pytest.raises(TypeError):
        ac.asarray({1: 2})


def test_asarray_list_of_arrays():
    a = ac.asarray([1.0, 2.0])
    b = ac.asarray([3.0, 4.0])
    assert_matches_numpy(ac.asarray([a, b]), np.array([[1.0, 2.0], [3.0, 4.0]]))
    i = ac.asarray([1, 2], dtype=ac.int8)
    f = ac.asarray([0.5, 1.5], dtype=ac.float32)
    assert_matches_numpy(ac.asarray([i, f]), np.array([[1, 2], [0.5, 1.5]], np.float32))
    s = [ac.asarray(1.0), ac.asarray(2.0)]
    assert_matches_numpy(ac.asarray(s), np.array([1.0, 2.0]))
    with pytest.raises(ValueError):
        ac.asarray([a, ac.asarray([1.0])])


def test_asarray_array_copy_semantics():
    x = ac.asarray([1.0, 2.0])
    assert ac.asarray(x) is x or np.shares_memory(np.asarray(ac.asarray(x)), np.asarray(x))
    y = ac.asarray(x, copy=False)
    y[0] = 5.0
    assert float(x[0]) == 5.0
    z = ac.asarray(x, copy=True)
    z[0] = -1.0
    assert float(x[0]) == 5.0
    c = ac.asarray(x, dtype=ac.float32)
    assert_matches_numpy(c, np.array([5.0, 2.0], np.float32))
    with pytest.raises(ValueError):
        ac.asarray(x, dtype=ac.float32, copy=False)
    with pytest.raises(ValueError):
        ac.asarray([1.0, 2.0], copy=False)
    with pytest.raises(ValueError):
        ac.asarray(1.0, copy=False)
    with pytest.raises(ValueError):
        ac.asarray(x, copy="yes")


def test_asarray_errors():
    with pytest.raises(ValueError):
        ac.asarray([1], device="cuda")
    with pytest.raises(TypeError):
        ac.asarray([1], dtype="float16")


@needs_buffer
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_asarray_numpy_zero_copy(name):
    a = random_numpy((3, 4), name)
    x = ac.asarray(a)
    assert_matches_numpy(x, a)
    assert np.shares_memory(np.asarray(x), a)
    y = ac.asarray(a, copy=False)
    assert np.shares_memory(np.asarray(y), a)
    z = ac.asarray(a, copy=True)
    assert_matches_numpy(z, a)
    assert not np.shares_memory(np.asarray(z), a)


@needs_buffer
@pytest.mark.parametrize("name", ["int32", "float64", "complex64", "bool"])
def test_asarray_numpy_non_contiguous(name):
    a = random_numpy((6, 8), name)
    for v in (a[::2, 1::3], a.T, a[::-1], a[:, ::-2], a[2], a[None, :, 3]):
        x = ac.asarray(v)
        assert_matches_numpy(x, v)
        assert np.shares_memory(np.asarray(x), a)


@needs_buffer
def test_asarray_numpy_writes_through():
    a = np.zeros(4)
    x = ac.asarray(a)
    x[1] = 3.0
    assert a[1] == 3.0


@needs_buffer
def test_asarray_numpy_with_dtype():
    a = np.arange(5, dtype=np.int16)
    assert_matches_numpy(ac.asarray(a, dtype=ac.float32), a.astype(np.float32))
    with pytest.raises(ValueError):
        ac.asarray(a, dtype=ac.float32, copy=False)


@needs_buffer
def test_asarray_numpy_readonly():
    a = np.arange(3.0)
    a.flags.writeable = False
    x = ac.asarray(a)
    assert_matches_numpy(x, a)
    with pytest.raises((ValueError, TypeError)):
        x[0] = 1.0


@needs_buffer
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_asarray_numpy_scalars(name):
    s = np.dtype(name).type(1)
    assert_matches_numpy(ac.asarray(s), np.asarray(s))


@needs_buffer
def test_asarray_numpy_0d_and_empty():
    assert_matches_numpy(ac.asarray(np.array(2.5)), np.array(2.5))
    assert_matches_numpy(ac.asarray(np.zeros((0, 3), np.int8)), np.zeros((0, 3), np.int8))


@pytest.mark.parametrize("a", [np.zeros(3, np.float16), np.float16(1.0)])
def test_asarray_float16_is_type_error(a):
    with pytest.raises(TypeError):
        ac.asarray(a)


@needs_buffer
def test_asarray_buffers():
    m = memoryview(bytearray(b"\x01\x02\x03"))
    assert_matches_numpy(ac.asarray(m), np.asarray(m))
    assert_matches_numpy(ac.asarray(bytearray(b"\x05\x06")), np.frombuffer(b"\x05\x06", np.uint8))
    for code in "bBhHiIlLqQfd":
        arr = array.array(code, [1, 2, 3])
        x = ac.asarray(arr)
        assert_matches_numpy(x, np.asarray(arr))
    ba = bytearray(8)
    x = ac.asarray(memoryview(ba).cast("d"))
    x[0] = 1.0
    assert np.frombuffer(ba, np.float64)[0] == 1.0


@needs_dlpack
@pytest.mark.parametrize("name", ["bool", "int8", "uint8", "int16", "int32", "int64",
                                  "float32", "float64", "complex64", "complex128", "uint16",
                                  "uint32", "uint64"])
def test_asarray_torch_tensors(name):
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(random_numpy((2, 3), name))
    x = ac.asarray(t)
    assert_matches_numpy(x, t.numpy())
    y = ac.from_dlpack(t)
    assert_matches_numpy(y, t.numpy())
    if name != "bool":
        y[0, 0] = ac.asarray(1, dtype=y.dtype)
        assert t[0, 0].item() == 1
    tv = t.T
    assert_matches_numpy(ac.from_dlpack(tv), tv.numpy())


@needs_dlpack
def test_from_dlpack_jax():
    jnp = pytest.importorskip("jax.numpy")
    j = jnp.arange(6.0, dtype=jnp.float32).reshape(2, 3)
    assert_matches_numpy(ac.from_dlpack(j), np.asarray(j))
    assert_matches_numpy(ac.asarray(j), np.asarray(j))


@needs_dlpack
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_from_dlpack_numpy(name):
    a = random_numpy((3, 2), name)
    x = ac.from_dlpack(a)
    assert_matches_numpy(x, a)
    assert np.shares_memory(np.asarray(x), a)
    c = ac.from_dlpack(a, copy=True)
    assert_matches_numpy(c, a)
    assert not np.shares_memory(np.asarray(c), a)


@needs_dlpack
def test_from_dlpack_arraycore_round_trip():
    x = ac.asarray([[1, 2], [3, 4]], dtype=ac.int16)
    y = ac.from_dlpack(x)
    assert_matches_numpy(y, np.array([[1, 2], [3, 4]], np.int16))
    y[0, 0] = 9
    assert int(x[0, 0]) == 9
    assert_matches_numpy(ac.from_dlpack(x.mT), np.array([[9, 3], [2, 4]], np.int16))


def test_from_dlpack_errors():
    with pytest.raises(TypeError):
        ac.from_dlpack([1, 2, 3])
    with pytest.raises(ValueError):
        ac.from_dlpack(ac.asarray([1.0]), device="cuda")


# ----------------------------------------------------------------------------- arange

needs_arange = requires_native("arange")


@needs_arange
@pytest.mark.parametrize("args", [(5,), (0,), (-3,), (2, 7), (7, 2), (7, 2, -1), (10, 0, -3),
                                  (-5, 5, 2), (1, 2, 5), (0, 10, 100), (5, 5), (3, -3, -2)])
def test_arange_int(args):
    assert_matches_numpy(ac.arange(*args), np.arange(*args))


@needs_arange
@pytest.mark.parametrize("args", [(2.5,), (0.0, 1.0, 0.1), (1, 2, 0.25), (-1.0, 1.0, 0.5),
                                  (1.0, 0.0, -0.3), (0, 1.0), (10.0, 0.0), (0.5, 3)])
def test_arange_float(args):
    assert_matches_numpy(ac.arange(*args), np.arange(*args), rtol=1e-12, atol=1e-12)


@needs_arange
@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                  "uint32", "uint64", "float32", "float64"])
def test_arange_dtypes(name):
    assert_matches_numpy(ac.arange(1, 10, 2, dtype=getattr(ac, name)),
                         np.arange(1, 10, 2, dtype=name))


def test_arange_errors():
    with pytest.raises(ValueError):
        ac.arange(0, 10, 0)
    with pytest.raises(ValueError):
        ac.arange(0.0, 1.0, 0.0)
    with pytest.raises(TypeError):
        ac.arange(5, dtype=ac.bool)
    with pytest.raises(TypeError):
        ac.arange(1j)
    with pytest.raises(TypeError):
        ac.arange("5")
    with pytest.raises(ValueError):
        ac.arange(5, device="cuda")


# ----------------------------------------------------------------------------- linspace

needs_linspace = requires_native("linspace")


@needs_linspace
@pytest.mark.parametrize("start,stop,num,endpoint", [
    (0, 1, 5, True), (0, 1, 5, False), (-2.5, 7.0, 11, True), (3, -3, 7, False), (0, 1, 0, True),
    (0, 1, 1, True), (0, 1, 1, False), (2, 2, 4, True), (0, 10, 2, True), (1e-3, 1e3, 50, True),
])
def test_linspace(start, stop, num, endpoint):
    assert_matches_numpy(ac.linspace(start, stop, num, endpoint=endpoint),
                         np.linspace(start, stop, num, endpoint=endpoint), rtol=1e-14,
                         atol=1e-14)


@needs_linspace
def test_linspace_dtypes_and_complex():
    assert_matches_numpy(ac.linspace(0, 1, 4, dtype=ac.float32),
                         np.linspace(0, 1, 4, dtype=np.float32))
    assert_matches_numpy(ac.linspace(0, 1 + 2j, 5), np.linspace(0, 1 + 2j, 5), atol=1e-15)
    assert_matches_numpy(ac.linspace(1j, 2, 3, endpoint=False),
                         np.linspace(1j, 2, 3, endpoint=False), atol=1e-15)
    assert_matches_numpy(ac.linspace(0, 1, 3, dtype=ac.complex64),
                         np.linspace(0, 1, 3, dtype=np.complex64))
    x = ac.linspace(0.0, 1.0, 5)
    assert float(x[-1]) == 1.0


def test_linspace_errors():
    with pytest.raises(ValueError):
        ac.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        ac.linspace(0, 1, 2.5)
    with pytest.raises(TypeError):
        ac.linspace(0, 1, 5, dtype=ac.int32)
    with pytest.raises(TypeError):
        ac.linspace(0, 1j, 5, dtype=ac.float64)
    with pytest.raises(ValueError):
        ac.linspace(0, 1, 5, device="cuda")


# ----------------------------------------------------------------------------- eye

needs_eye = requires_native("eye")


@needs_eye
@pytest.mark.parametrize("n,m,k", [(3, None, 0), (0, None, 0), (1, None, 0), (3, 5, 0),
                                   (5, 3, 0), (4, 4, 1), (4, 4, -2), (3, 5, 3), (3, 5, 10),
                                   (5, 3, -4), (5, 3, -10), (2, 0, 0), (4, None, -1)])
def test_eye(n, m, k):
    assert_matches_numpy(ac.eye(n, m, k=k), np.eye(n, m, k=k))


@needs_eye
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_eye_dtypes(name):
    assert_matches_numpy(ac.eye(3, 4, k=1, dtype=getattr(ac, name)),
                         np.eye(3, 4, k=1, dtype=name))


def test_eye_errors():
    with pytest.raises(ValueError):
        ac.eye(-1)
    with pytest.raises(ValueError):
        ac.eye(2, -2)
    with pytest.raises(TypeError):
        ac.eye(2.0)
    with pytest.raises(TypeError):
        ac.eye(2, k=0.5)
    with pytest.raises(ValueError):
        ac.eye(2, device="cuda")


# ----------------------------------------------------------------------------- tril / triu

needs_tri = requires_native("tri")


@needs_tri
@pytest.mark.parametrize("k", [0, 1, -1, 3, -3, 10, -10])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (2, 2, 3, 3), (0, 3),
                                   (3, 0)])
def test_tril_triu(shape, k):
    a = random_numpy(shape, "float64")
    x = ac_from_numpy(a)
    assert_matches_numpy(ac.tril(x, k=k), np.tril(a, k=k))
    assert_matches_numpy(ac.triu(x, k=k), np.triu(a, k=k))


@needs_tri
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_tril_triu_dtypes(name):
    a = random_numpy((3, 4), name)
    x = ac_from_numpy(a)
    assert_matches_numpy(ac.tril(x), np.tril(a))
    assert_matches_numpy(ac.triu(x, k=1), np.triu(a, k=1))


@needs_tri
def test_tril_triu_non_contiguous_and_not_in_place():
    a = random_numpy((6, 8, 5), "int32")
    x = ac_from_numpy(a)
    for v, av in [(x[::2, 1::2], a[::2, 1::2]), (x.mT, np.swapaxes(a, -1, -2)),
                  (x[..., ::-1], a[..., ::-1])]:
        assert_matches_numpy(ac.tril(v, k=-1), np.tril(av, k=-1))
        assert_matches_numpy(ac.triu(v, k=2), np.triu(av, k=2))
    assert_matches_numpy(x, a)  # input untouched


def test_tril_triu_errors():
    with pytest.raises(ValueError):
        ac.tril(ac.zeros(3))
    with pytest.raises(ValueError):
        ac.triu(ac.asarray(1.0))
    with pytest.raises(TypeError):
        ac.tril([[1, 2], [3, 4]])


@needs_tri
def test_tril_triu_k_must_be_int():
    with pytest.raises(TypeError):
        ac.triu(ac.zeros((2, 2)), k=1.5)
    with pytest.raises(TypeError):
        ac.tril(ac.zeros((2, 2)), k=None)


# ----------------------------------------------------------------------------- meshgrid

@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sizes", [(3,), (3, 4), (2, 3, 4), (0, 3), (1, 1)])
def test_meshgrid(indexing, sizes):
    rng = np.random.default_rng(1)
    arrs = [rng.standard_normal(n) for n in sizes]
    got = ac.meshgrid(*[ac_from_numpy(a) for a in arrs], indexing=indexing)
    expected = np.meshgrid(*arrs, indexing=indexing)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_matches_numpy(g, e)


def test_meshgrid_default_xy_and_views_input():
    a = ac_from_numpy(np.arange(6, dtype=np.int32))
    b = ac_from_numpy(np.arange(3, dtype=np.int32))
    got = ac.meshgrid(a[::2], b[::-1])
    expected = np.meshgrid(np.arange(6, dtype=np.int32)[::2], np.arange(3, dtype=np.int32)[::-1])
    for g, e in zip(got, expected):
        assert_matches_numpy(g, e)


def test_meshgrid_no_inputs():
    assert list(ac.meshgrid()) == []


def test_meshgrid_errors():
    with pytest.raises(TypeError):
        ac.meshgrid(ac.zeros(3), ac.zeros(3, dtype=ac.float32))
    with pytest.raises(ValueError):
        ac.meshgrid(ac.zeros(3), indexing="xx")
    with pytest.raises(ValueError):
        ac.meshgrid(ac.zeros((2, 2)))
    with pytest.raises(TypeError):
        ac.meshgrid([1, 2, 3])


def test_all_sixteen_present():
    names = ["arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full",
             "full_like", "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros",
             "zeros_like"]
    for n in names:
        assert callable(getattr(ac, n)), n
        assert n in ac.__all__


def test_eye_and_tri_accept_any_python_int_diagonal():
    """Offsets past the matrix (even beyond int64) give all-zero or full triangles."""
    import numpy as np
    assert np.asarray(ac.eye(3, k=2**63)).sum() == 0
    assert np.asarray(ac.eye(0, k=-2**70)).shape == (0, 0)
    x = ac.ones((3, 4))
    assert np.asarray(ac.tril(x, k=2**64)).sum() == 12
    assert np.asarray(ac.triu(x, k=2**64)).sum() == 0


def test_asarray_native_fast_path_equals_the_python_path():
    """asarray(list or tuple) without keywords runs natively outside transforms
    (bind_fast_calls.cpp, kind 'asarray'): the same dtype, shape and values as the Python
    function for nested sequences of bools, ints, floats and complex numbers, mixed kinds,
    empty and ragged sequences, big ints, and leaves that send it to the Python path (NumPy
    scalars, 0-d arrays); the same errors."""
    python_asarray = ac.asarray.__wrapped__
    while hasattr(python_asarray, "__wrapped__"):
        python_asarray = python_asarray.__wrapped__
    cases = [[1.0, 2.0], [1, 2], [True, False], [1, 2.5], [True, 2], [1j, 2], [], [[], []],
             (1, 2), [[1, 2], [3, 4]], [[[1.5]]], [np.float32(1), 2.0], [np.int8(3), 4],
             [ac.asarray(1.0), 2.0], [2 ** 63 - 1], [-(2 ** 63)], [2 ** 70], [[1, 2], [3]],
             [[1, 2], 3], [float("nan"), float("inf")], ([1, 2], (3, 4))]
    for seq in cases:
        try:
            want = python_asarray(seq)
        except (TypeError, ValueError, OverflowError) as e:
            with pytest.raises(type(e), match="^asarray"):
                ac.asarray(seq)
            continue
        got = ac.asarray(seq)
        assert got.dtype == want.dtype and got.shape == want.shape, seq
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
