"""Native interop: DLPack export/import, PEP 3118 buffer import, computed factories.

Tests go through arraycore.native._native directly (the public package may not be usable yet).
"""
import array
import ctypes
import gc
import os
import sys
import weakref

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import arraycore as ac  # noqa: E402
from arraycore.native import _native as N  # noqa: E402

CODES = {
    "bool": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "uint8": 5, "uint16": 6,
    "uint32": 7, "uint64": 8, "float32": 9, "float64": 10, "complex64": 11, "complex128": 12,
}
ALL = list(CODES)


def npa(a):
    """NumPy view of an arraycore array (through our buffer export)."""
    return np.asarray(a)


def sample(name, shape=(2, 3)):
    n = int(np.prod(shape))
    if name == "bool":
        x = (np.arange(n) % 3 == 0)
    elif name.startswith("complex"):
        x = np.arange(n) + 1j * np.arange(n)[::-1]
    else:
        x = np.arange(n) + 1
    return x.astype(name).reshape(shape)


def ours(x):
    """An arraycore array holding a fresh copy of a NumPy array."""
    return N.from_buffer(np.ascontiguousarray(x), True)


class Holder:
    """Minimal DLPack producer object around a capsule (NumPy/PyTorch consume objects)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


# --------------------------------------------------------------------------------------------
# DLPack export to NumPy


@pytest.mark.parametrize("versioned", [True, False])
@pytest.mark.parametrize("name", ALL)
def test_export_numpy_all_dtypes(name, versioned):
    a = ours(sample(name))
    cap = N.to_dlpack(a, versioned, False)
    assert type(cap).__name__ == "PyCapsule"
    assert ("dltensor_versioned" if versioned else "dltensor") in repr(cap)
    x = np.from_dlpack(Holder(cap))
    assert x.dtype == np.dtype(name)
    np.testing.assert_array_equal(x, sample(name))
    assert x.ctypes.data == a._data_ptr  # zero copy


def test_export_numpy_zero_copy_write_through():
    a = ours(np.zeros(6))
    x = np.from_dlpack(Holder(N.to_dlpack(a, True, False)))
    assert x.flags.writeable
    x[2] = 7.0
    assert a._tolist()[2] == 7.0
    a._fill(3.0)
    assert x.tolist() == [3.0] * 6


def test_export_consumed_capsule_renamed():
    a = ours(np.arange(3.0))
    cap = N.to_dlpack(a, True, False)
    np.from_dlpack(Holder(cap))
    assert "used_dltensor_versioned" in repr(cap)
    with pytest.raises(ValueError):
        N.from_dlpack_capsule(cap)


def test_export_noncontiguous_strides():
    a = ours(np.arange(12, dtype=np.int64).reshape(3, 4))
    v = a._view((3, 2), (4, 2), 1)  # columns 1 and 3
    x = np.from_dlpack(Holder(N.to_dlpack(v, True, False)))
    np.testing.assert_array_equal(x, np.arange(12).reshape(3, 4)[:, 1::2])
    assert x.strides == (32, 16)
    assert x.ctypes.data == v._data_ptr


def test_export_negative_strides():
    a = ours(np.arange(5, dtype=np.int32))
    r = a._view((5,), (-1,), 4)
    with pytest.raises(BufferError):
        N.to_dlpack(r, True, False)
    x = np.from_dlpack(Holder(N.to_dlpack(r, True, None)))  # copies when needed
    assert x.tolist() == [4, 3, 2, 1, 0]
    assert x.ctypes.data != a._buffer_ptr


def test_export_0d_and_empty():
    s = N.from_scalar(2.5, CODES["float64"])
    x = np.from_dlpack(Holder(N.to_dlpack(s, True, False)))
    assert x.shape == () and x[()] == 2.5
    e = N.empty((0, 3), CODES["float32"])
    y = np.from_dlpack(Holder(N.to_dlpack(e, True, False)))
    assert y.shape == (0, 3) and y.dtype == np.float32
    e2 = N.empty((4, 0), CODES["complex128"])
    y2 = np.from_dlpack(Holder(N.to_dlpack(e2, False, False)))
    assert y2.shape == (4, 0)


def test_export_copy_flag():
    a = ours(np.arange(4.0))
    x = np.from_dlpack(Holder(N.to_dlpack(a, True, True)))
    assert x.ctypes.data != a._data_ptr
    x[0] = 100.0
    assert a._tolist()[0] == 0.0


def test_export_readonly():
    ro = np.arange(4.0)
    ro.flags.writeable = False
    a = N.from_buffer(ro, False)
    assert not a._writeable
    x = np.from_dlpack(Holder(N.to_dlpack(a, True, False)))
    assert not x.flags.writeable  # READ_ONLY flag honoured by NumPy
    assert x.ctypes.data == ro.ctypes.data
    with pytest.raises(BufferError):  # legacy capsules cannot say read-only
        N.to_dlpack(a, False, False)
    y = np.from_dlpack(Holder(N.to_dlpack(a, False, None)))  # copy instead
    assert y.ctypes.data != ro.ctypes.data and y.tolist() == [0, 1, 2, 3]


def test_export_lifetime_keeps_memory():
    a = ours(np.arange(1000.0))
    cap = N.to_dlpack(a, True, False)
    del a
    gc.collect()
    x = np.from_dlpack(Holder(cap))
    del cap
    gc.collect()
    assert x.sum() == sum(range(1000))


def test_export_unconsumed_capsule_releases_memory():
    base = np.arange(10.0)
    ref = weakref.ref(base)
    a = N.from_buffer(base, False)
    del base
    cap = N.to_dlpack(a, True, False)
    del a
    gc.collect()
    assert ref() is not None  # the capsule's tensor holds the array
    del cap
    gc.collect()
    assert ref() is None  # the capsule destructor called the deleter


# --------------------------------------------------------------------------------------------
# DLPack export to PyTorch

torch = pytest.importorskip("torch")
TORCH_OK = ["bool", "int8", "int16", "int32", "int64", "uint8", "float32", "float64",
            "complex64", "complex128"]


@pytest.mark.parametrize("name", TORCH_OK)
def test_export_torch_legacy(name):
    a = ours(sample(name))
    t = torch.utils.dlpack.from_dlpack(N.to_dlpack(a, False, False))
    assert t.data_ptr() == a._data_ptr
    np.testing.assert_array_equal(t.numpy(), sample(name))


@pytest.mark.parametrize("name", TORCH_OK)
def test_export_torch_versioned(name):
    a = ours(sample(name))
    t = torch.from_dlpack(Holder(N.to_dlpack(a, True, False)))
    assert t.data_ptr() == a._data_ptr
    np.testing.assert_array_equal(t.numpy(), sample(name))


def test_export_torch_write_through_and_lifetime():
    a = ours(np.zeros((3, 4), dtype=np.float32))
    v = a._view((4, 3), (1, 4), 0)  # transpose
    t = torch.from_dlpack(Holder(N.to_dlpack(v, True, False)))
    assert t.stride() == (1, 4)
    t[1, 2] = 5.0
    assert npa(a)[2, 1] == 5.0
    del a, v
    gc.collect()
    assert float(t.sum()) == 5.0


# --------------------------------------------------------------------------------------------
# DLPack import


@pytest.mark.parametrize("name", ALL)
def test_import_numpy_all_dtypes(name):
    x = sample(name, (3, 4))
    a = N.from_dlpack_capsule(x.__dlpack__(max_version=(1, 0)))
    assert a._dtype_code == CODES[name]
    assert a._data_ptr == x.ctypes.data
    np.testing.assert_array_equal(npa(a), x)


def test_import_numpy_legacy_and_zero_copy():
    x = np.arange(6.0).reshape(2, 3)
    a = N.from_dlpack_capsule(x.__dlpack__())
    x[1, 1] = 42.0
    assert npa(a)[1, 1] == 42.0
    a._fill(1.0)
    assert x.sum() == 6.0


def test_import_numpy_strided_0d_empty():
    x = np.arange(24, dtype=np.int16).reshape(4, 6)[1:, ::2]
    a = N.from_dlpack_capsule(x.__dlpack__(max_version=(1, 0)))
    assert a._strides == (6, 2)
    assert a._data_ptr == x.ctypes.data
    np.testing.assert_array_equal(npa(a), x)
    s = np.array(3.5)
    a0 = N.from_dlpack_capsule(s.__dlpack__(max_version=(1, 0)))
    assert a0.shape == () and a0._item() == 3.5
    e = np.zeros((0, 5), dtype=np.complex64)
    ae = N.from_dlpack_capsule(e.__dlpack__(max_version=(1, 0)))
    assert ae.shape == (0, 5) and ae.size == 0


def test_import_readonly_flag():
    x = np.arange(5.0)
    x.flags.writeable = False
    a = N.from_dlpack_capsule(x.__dlpack__(max_version=(1, 0)))
    assert not a._writeable
    with pytest.raises(ValueError):
        a._fill(0.0)


def test_import_renames_capsule_and_rejects_reuse():
    cap = np.arange(3.0).__dlpack__(max_version=(1, 0))
    N.from_dlpack_capsule(cap)
    assert "used_dltensor_versioned" in repr(cap)
    with pytest.raises(ValueError):
        N.from_dlpack_capsule(cap)
    cap2 = np.arange(3.0).__dlpack__()
    N.from_dlpack_capsule(cap2)
    assert "used_dltensor" in repr(cap2)


def test_import_lifetime_and_deleter():
    x = np.arange(100.0)
    ref = weakref.ref(x)
    a = N.from_dlpack_capsule(x.__dlpack__(max_version=(1, 0)))
    del x
    gc.collect()
    assert ref() is not None
    assert npa(a).sum() == 4950.0
    v = a._view((10,), (10,), 0)  # views keep the producer alive too
    del a
    gc.collect()
    assert v._tolist()[9] == 90.0
    del v
    gc.collect()
    assert ref() is None  # the producer's deleter ran


@pytest.mark.parametrize("name", TORCH_OK)
def test_import_torch(name):
    x = torch.from_numpy(sample(name, (2, 5)))
    for cap in (x.__dlpack__(max_version=(1, 0)), torch.utils.dlpack.to_dlpack(x)):
        a = N.from_dlpack_capsule(cap)
        assert a._data_ptr == x.data_ptr()
        np.testing.assert_array_equal(npa(a), x.numpy())


def test_import_torch_zero_copy_noncontiguous_lifetime():
    t = torch.arange(20, dtype=torch.float64).reshape(4, 5).t()
    a = N.from_dlpack_capsule(t.__dlpack__(max_version=(1, 0)))
    assert a._strides == (1, 5)
    t[2, 3] = -1.0
    assert npa(a)[2, 3] == -1.0
    expected = t.numpy().copy()
    del t
    gc.collect()
    np.testing.assert_array_equal(npa(a), expected)


def test_import_torch_unsupported_dtypes():
    for dt, word in ((torch.bfloat16, "bfloat16"), (torch.float16, "float16")):
        cap = torch.zeros(3, dtype=dt).__dlpack__(max_version=(1, 0))
        with pytest.raises(TypeError, match=word):
            N.from_dlpack_capsule(cap)
        assert "used" not in repr(cap)  # not consumed: the capsule frees the tensor
    with pytest.raises(TypeError, match="float16"):
        N.from_dlpack_capsule(np.zeros(2, np.float16).__dlpack__(max_version=(1, 0)))


def test_import_jax():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    x = jnp.arange(12, dtype=jnp.float32).reshape(3, 4)
    a = N.from_dlpack_capsule(x.__dlpack__(max_version=(1, 0)))
    np.testing.assert_array_equal(npa(a), np.asarray(x))
    b = N.from_dlpack_capsule(jnp.array([True, False]).__dlpack__(max_version=(1, 0)))
    assert b._tolist() == [True, False]
    c = N.from_dlpack_capsule(jnp.array([1 + 2j], dtype=jnp.complex64).__dlpack__())
    assert c._tolist() == [1 + 2j]
    del x
    gc.collect()
    assert npa(a).sum() == 66.0


@pytest.mark.parametrize("name", ["float32", "float64", "int8", "int32", "uint16", "bool",
                                  "complex64"])
def test_jnp_asarray_of_arraycore(name):
    # jnp.asarray / jnp.array take arraycore arrays (through __jax_array__) with JAX's own
    # dtype rules: the result equals jnp.asarray of the same NumPy array.
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    base = np.arange(24).reshape(4, 6).astype(name)
    for a in (ac.asarray(base), ac.asarray(base)[::-1, 1::2], ac.asarray(base)[0, 0]):
        want = jnp.asarray(np.asarray(a))
        for conv in (jnp.asarray, jnp.array):
            got = conv(a)
            assert isinstance(got, jax.Array)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


# Hand-made capsules for the error paths no real producer takes.

class _Version(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Versioned(ctypes.Structure):
    _fields_ = [("version", _Version), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64),
                ("dl_tensor", _DLTensor)]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class FakeTensor:
    """A DLManagedTensorVersioned built with ctypes; `deleted` counts deleter calls."""

    NAME = b"dltensor_versioned"

    def __init__(self, data, shape, strides=None, code=2, bits=64, device=1, major=1,
                 flags=0, byte_offset=0):
        self.data = data  # a NumPy array that owns the memory
        self.shape = (ctypes.c_int64 * len(shape))(*shape)
        self.strides = None if strides is None else (ctypes.c_int64 * len(strides))(*strides)
        self.deleted = 0

        def deleter(ptr):
            self.deleted += 1

        self._deleter = _DELETER(deleter)
        m = _Versioned()
        m.version = _Version(major, 0)
        m.deleter = ctypes.cast(self._deleter, ctypes.c_void_p).value
        m.flags = flags
        t = m.dl_tensor
        t.data = data.ctypes.data
        t.device_type, t.device_id, t.ndim = device, 0, len(shape)
        t.code, t.bits, t.lanes = code, bits, 1
        t.shape = self.shape
        t.strides = self.strides
        t.byte_offset = byte_offset
        self.m = m
        self.capsule = _new_capsule(ctypes.addressof(m), self.NAME, None)


def test_import_fake_null_strides_and_byte_offset():
    buf = np.arange(10.0)
    f = FakeTensor(buf, (2, 4), None, byte_offset=16)
    a = N.from_dlpack_capsule(f.capsule)
    np.testing.assert_array_equal(npa(a), np.arange(2.0, 10.0).reshape(2, 4))
    assert a._data_ptr == buf.ctypes.data + 16
    assert f.deleted == 0
    del a
    gc.collect()
    assert f.deleted == 1


def test_import_fake_readonly_and_negative_strides():
    buf = np.arange(6.0)
    f = FakeTensor(buf[5:], (6,), (-1,), flags=1)
    a = N.from_dlpack_capsule(f.capsule)
    assert a._tolist() == [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
    assert not a._writeable
    del a
    gc.collect()
    assert f.deleted == 1


def test_import_fake_errors():
    buf = np.zeros(4)
    f = FakeTensor(buf, (4,), (1,), device=2)
    with pytest.raises(ValueError, match="CPU device only, got device type 2"):
        N.from_dlpack_capsule(f.capsule)
    f = FakeTensor(buf, (4,), (1,), major=2)
    with pytest.raises(BufferError):
        N.from_dlpack_capsule(f.capsule)
    f = FakeTensor(buf, (4,), (1,), code=4, bits=16)
    with pytest.raises(TypeError, match="bfloat16"):
        N.from_dlpack_capsule(f.capsule)
    assert f.deleted == 0
    with pytest.raises(TypeError):
        N.from_dlpack_capsule(object())
    with pytest.raises(TypeError):
        N.from_dlpack_capsule(_new_capsule(buf.ctypes.data, b"something", None))


# --------------------------------------------------------------------------------------------
# PEP 3118 buffer import


@pytest.mark.parametrize("name", ALL)
def test_from_buffer_numpy_all_dtypes(name):
    x = sample(name, (3, 4))
    a = N.from_buffer(x, False)
    assert a._dtype_code == CODES[name]
    assert a._data_ptr == x.ctypes.data and a._writeable
    np.testing.assert_array_equal(npa(a), x)
    c = N.from_buffer(x, True)
    assert c._data_ptr != x.ctypes.data and c._c_contiguous
    np.testing.assert_array_equal(npa(c), x)


def test_from_buffer_strided_and_negative():
    x = np.arange(60, dtype=np.int32).reshape(6, 10)
    for v in (x[::2, 1::3], x.T, x[::-1, ::-2], x[3]):
        a = N.from_buffer(v, False)
        np.testing.assert_array_equal(npa(a), v)
        assert a._data_ptr == v.ctypes.data
        assert a._strides == tuple(s // 4 for s in v.strides)
        c = N.from_buffer(v, True)
        assert c._c_contiguous
        np.testing.assert_array_equal(npa(c), v)


def test_from_buffer_zero_copy_and_lifetime():
    x = np.zeros(8)
    ref = weakref.ref(x)
    a = N.from_buffer(x, False)
    x[3] = 9.0
    assert a._tolist()[3] == 9.0
    a._fill(2.0)
    assert x.sum() == 16.0
    del x
    gc.collect()
    assert ref() is not None and a._tolist() == [2.0] * 8
    del a
    gc.collect()
    assert ref() is None  # the Py_buffer was released


def test_from_buffer_readonly():
    x = np.arange(4.0)
    x.flags.writeable = False
    a = N.from_buffer(x, False)
    assert not a._writeable
    assert N.from_buffer(x, True)._writeable
    b = N.from_buffer(b"\x01\x02\x03", False)
    assert not b._writeable and b._dtype_code == CODES["uint8"] and b._tolist() == [1, 2, 3]


def test_from_buffer_python_objects():
    ba = bytearray(b"\x00\x01\x02\x03")
    a = N.from_buffer(ba, False)
    assert a._writeable
    ba[0] = 200
    assert a._tolist()[0] == 200
    m = memoryview(bytearray(16)).cast("i")
    b = N.from_buffer(m, False)
    assert b._dtype_code == CODES["int32"] and b.shape == (4,)
    m[2] = -5
    assert b._tolist() == [0, 0, -5, 0]
    for code, name in (("d", "float64"), ("f", "float32"), ("l", "int64"), ("L", "uint64"),
                       ("q", "int64"), ("h", "int16"), ("B", "uint8"), ("b", "int8"),
                       ("I", "uint32")):
        arr = array.array(code, [1, 2, 3])
        c = N.from_buffer(arr, False)
        assert c._dtype_code == CODES[name], code
        assert c._tolist() == [1, 2, 3]
    mv = memoryview(bytes(range(12))).cast("B", (3, 4))[::2]
    d = N.from_buffer(mv, False)
    assert d._tolist() == [[0, 1, 2, 3], [8, 9, 10, 11]]
    e = N.from_buffer(memoryview(b""), False)
    assert e.shape == (0,)


def test_from_buffer_bool_and_complex():
    x = np.array([[True, False], [False, True]])
    assert N.from_buffer(x.T, False)._tolist() == [[True, False], [False, True]]
    z = np.array([1 + 2j, 3 - 4j], dtype=np.complex64)
    assert N.from_buffer(z[::-1], False)._tolist() == [3 - 4j, 1 + 2j]


def test_from_buffer_errors():
    with pytest.raises(TypeError, match="format"):
        N.from_buffer(np.zeros(3, dtype=">i4"), False)
    with pytest.raises(TypeError, match="format"):
        N.from_buffer(np.zeros(3, dtype=np.float16), False)
    with pytest.raises(TypeError):
        N.from_buffer(np.zeros(3, dtype=[("a", "i4"), ("b", "f8")]), False)
    with pytest.raises(TypeError):
        N.from_buffer(object(), False)
    with pytest.raises(TypeError):
        N.from_buffer([1, 2, 3], False)
    odd = np.ndarray(buffer=bytearray(20), dtype=np.int32, shape=(3,), strides=(5,))
    with pytest.raises(ValueError, match="multiple"):
        N.from_buffer(odd, False)
    c = N.from_buffer(odd, True)
    np.testing.assert_array_equal(npa(c), odd)


def test_from_buffer_little_endian_prefix():
    x = np.arange(3, dtype="<i4")
    a = N.from_buffer(memoryview(x.tobytes()).cast("B").cast("i"), False)
    assert a._tolist() == [0, 1, 2]
    # '<' and '=' prefixes (NumPy writes them for explicit-endian dtypes).
    y = np.zeros(2, dtype=np.dtype("<f8"))
    assert N.from_buffer(y, False)._dtype_code == CODES["float64"]
    st = np.zeros(2, dtype=np.dtype("=u2"))
    assert N.from_buffer(st, False)._dtype_code == CODES["uint16"]


# --------------------------------------------------------------------------------------------
# arange / linspace / eye / tri

ARANGE_CASES = [(0, 10, 1), (0, 10, 3), (5, -5, -2), (3, 3, 1), (0, 1, 5), (10, 0, 1),
                (-7, 8, 4), (0, 0, -1), (2, 3, 1)]


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint32",
                                  "uint64", "float32", "float64"])
def test_arange_int_args(name):
    for start, stop, step in ARANGE_CASES:
        exp = np.arange(start, stop, step, dtype=name if "int" not in name else "int64")
        exp = exp.astype(name)
        got = npa(N.arange(start, stop, step, CODES[name]))
        assert got.dtype == np.dtype(name)
        np.testing.assert_array_equal(got, exp, err_msg=str((start, stop, step)))


@pytest.mark.parametrize("args", [(0.0, 1.0, 0.1), (1.5, -2.0, -0.25), (0, 5.5, 1.5),
                                  (0.1, 0.3, 0.1), (-1e3, 1e3, 7.7), (0.0, 1.0, 2.0)])
def test_arange_float(args):
    got = npa(N.arange(*args, CODES["float64"]))
    np.testing.assert_array_equal(got, np.arange(*args, dtype=np.float64))
    got32 = npa(N.arange(*args, CODES["float32"]))
    exp32 = np.arange(*args, dtype=np.float32)
    assert got32.shape == exp32.shape
    np.testing.assert_allclose(got32, exp32, rtol=1e-6, atol=1e-6)


def test_arange_big_exact_and_parallel():
    n = 1 << 20
    got = npa(N.arange(2**40, 2**40 + 3 * n, 3, CODES["int64"]))
    np.testing.assert_array_equal(got, np.arange(2**40, 2**40 + 3 * n, 3))
    np.testing.assert_array_equal(npa(N.arange(0.0, n / 4, 0.25, CODES["float64"])),
                                  np.arange(0.0, n / 4, 0.25))
    assert npa(N.arange(5, None, 1, CODES["int32"])).tolist() == [0, 1, 2, 3, 4]


def test_arange_errors():
    with pytest.raises(ValueError, match="arange"):
        N.arange(0, 10, 0, CODES["int64"])
    with pytest.raises(ValueError, match="arange"):
        N.arange(0.0, 1.0, 0.0, CODES["float64"])
    with pytest.raises(ValueError):
        N.arange(0.0, float("inf"), 1.0, CODES["float64"])
    with pytest.raises(ValueError):
        N.arange(0.0, float("nan"), 1.0, CODES["float64"])
    with pytest.raises(TypeError):
        N.arange(0, 3, 1, CODES["complex128"])
    with pytest.raises(TypeError):
        N.arange(0, 3j, 1, CODES["float64"])
    with pytest.raises(TypeError):
        N.arange(0, 3, 1, 99)


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("num", [0, 1, 2, 5, 50, 100003])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace(name, num, endpoint):
    for start, stop in ((0, 1), (-3.5, 10.25), (2.0, 2.0), (1e-300, 2e-300), (5, -5)):
        if name.startswith("complex"):
            start, stop = complex(start, stop), complex(stop, -start)
        got = npa(N.linspace(start, stop, num, endpoint, CODES[name]))
        exp = np.linspace(start, stop, num, endpoint=endpoint, dtype=name)
        assert got.dtype == np.dtype(name) and got.shape == exp.shape
        np.testing.assert_array_equal(got, exp)


def test_linspace_integer_and_errors():
    np.testing.assert_array_equal(npa(N.linspace(0, 10, 7, True, CODES["int64"])),
                                  np.linspace(0, 10, 7, dtype=np.int64))
    np.testing.assert_array_equal(npa(N.linspace(-5, 5, 6, False, CODES["int32"])),
                                  np.linspace(-5, 5, 6, endpoint=False, dtype=np.int32))
    with pytest.raises(ValueError, match="linspace"):
        N.linspace(0, 1, -1, True, CODES["float64"])
    with pytest.raises(TypeError):
        N.linspace(0, 1j, 3, True, CODES["float64"])
    with pytest.raises(TypeError):
        N.linspace("a", 1, 3, True, CODES["float64"])


@pytest.mark.parametrize("name", ALL)
def test_eye(name):
    for n, m, k in ((0, 0, 0), (1, 1, 0), (3, 3, 0), (3, 5, 1), (5, 3, -2), (4, 4, 4),
                    (4, 4, -4), (4, 6, -10), (2, 7, 6), (3, None, 1), (0, 3, 0)):
        got = npa(N.eye(n, m, k, CODES[name]))
        np.testing.assert_array_equal(got, np.eye(n, m, k, dtype=name))
        assert got.dtype == np.dtype(name)


def test_eye_errors():
    with pytest.raises(ValueError, match="eye"):
        N.eye(-1, None, 0, CODES["float64"])
    with pytest.raises(ValueError, match="eye"):
        N.eye(2, -3, 0, CODES["float64"])


@pytest.mark.parametrize("name", ["bool", "int8", "int64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (2, 1, 3, 3), (0, 3),
                                   (3, 0), (2, 0, 2), (1, 1)])
def test_tri(name, shape):
    x = sample(name, shape) if np.prod(shape) else np.zeros(shape, dtype=name)
    a = ours(x)
    for k in range(-6, 7):
        np.testing.assert_array_equal(npa(N.tri(a, k, False)), np.tril(x, k))
        np.testing.assert_array_equal(npa(N.tri(a, k, True)), np.triu(x, k))


def test_tri_noncontiguous_large_k_and_big():
    x = np.arange(30.0).reshape(5, 6)
    a = N.from_buffer(x.T, False)  # strided input
    np.testing.assert_array_equal(npa(N.tri(a, 1, False)), np.tril(x.T, 1))
    np.testing.assert_array_equal(npa(N.tri(a, -1, True)), np.triu(x.T, -1))
    for k in (2**62, -(2**62)):
        np.testing.assert_array_equal(npa(N.tri(a, k, False)), np.tril(x.T, k))
        np.testing.assert_array_equal(npa(N.tri(a, k, True)), np.triu(x.T, k))
    big = np.random.default_rng(0).standard_normal((3, 300, 400))
    b = ours(big)
    np.testing.assert_array_equal(npa(N.tri(b, 3, False)), np.tril(big, 3))
    np.testing.assert_array_equal(npa(N.tri(b, -7, True)), np.triu(big, -7))
    assert a._tolist() == x.T.tolist()  # input untouched


def test_tri_errors():
    with pytest.raises(ValueError, match="tril"):
        N.tri(ours(np.arange(3.0)), 0, False)
    with pytest.raises(ValueError, match="triu"):
        N.tri(N.from_scalar(1.0, CODES["float64"]), 0, True)


def test_release_from_other_thread():
    import threading

    objs = [N.from_dlpack_capsule(np.arange(10.0).__dlpack__(max_version=(1, 0)))
            for _ in range(50)]
    objs += [N.from_buffer(np.arange(10.0), False) for _ in range(50)]
    ts = [torch.from_dlpack(Holder(N.to_dlpack(N.from_buffer(np.arange(5.0), False), True, False)))
          for _ in range(50)]
    th = threading.Thread(target=lambda: (objs.clear(), ts.clear()))
    th.start()
    th.join()
    gc.collect()
    assert not objs and not ts


def test_torch_0d_and_empty():
    t0 = torch.from_dlpack(Holder(N.to_dlpack(N.from_scalar(1.5, CODES["float64"]), True, False)))
    assert t0.shape == () and float(t0) == 1.5
    te = torch.utils.dlpack.from_dlpack(N.to_dlpack(N.empty((2, 0), CODES["int32"]), False, False))
    assert te.shape == (2, 0)
    a = N.from_dlpack_capsule(torch.tensor(7, dtype=torch.int64).__dlpack__(max_version=(1, 0)))
    assert a.shape == () and a._item() == 7
