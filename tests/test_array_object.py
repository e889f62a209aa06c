"""The array object of the Array API 2025.12: attributes, operators, conversions, interop."""

from __future__ import annotations

import copy
import operator
import pickle

import numpy as np
import pytest

import arraycore as ac
from conftest import (DTYPE_NAMES, ac_from_numpy, assert_matches_numpy, random_numpy,
                      requires_native, requires_ns, to_numpy)


def A(values, dtype=None):
    return ac.asarray(values, dtype=dtype)


# ----------------------------------------------------------------------------- attributes

def test_api_version():
    assert ac.__array_api_version__ == "2025.12"


def test_attributes_2d():
    x = A([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.dtype == ac.float64
    assert x.shape == (2, 3) and isinstance(x.shape, tuple)
    assert x.ndim == 2
    assert x.size == 6
    assert x.device == ac.Device("cpu")
    assert x.device == ac.__array_namespace_info__().default_device()
    assert_matches_numpy(x.T, np.array([[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]))
    assert_matches_numpy(x.mT, np.array([[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]))


@pytest.mark.parametrize("shape", [(), (0,), (3,), (0, 4), (2, 3, 4)])
def test_shape_ndim_size(shape):
    x = ac.zeros(shape)
    assert x.shape == shape
    assert x.ndim == len(shape)
    assert x.size == int(np.prod(shape))


def test_mT_batched_and_views_share_memory():
    a = random_numpy((2, 3, 4), "float64")
    x = ac_from_numpy(a)
    m = x.mT
    assert_matches_numpy(m, np.swapaxes(a, -1, -2))
    m[1, 2, 0] = 99.0
    assert float(x[1, 0, 2]) == 99.0
    t = x[0].T
    t[3, 1] = -7.0
    assert float(x[0, 1, 3]) == -7.0


def test_T_needs_2d_and_mT_needs_at_least_2d():
    with pytest.raises(ValueError):
        ac.zeros((2, 3, 4)).T
    with pytest.raises(ValueError):
        ac.zeros(3).mT


def test_unhashable():
    with pytest.raises(TypeError):
        hash(A([1, 2]))
    with pytest.raises(TypeError):
        {A(1.0): 1}


def test_len_and_iteration():
    a = random_numpy((4, 3), "int32")
    x = ac_from_numpy(a)
    assert len(x) == 4
    rows = list(x)
    assert len(rows) == 4
    for r, e in zip(rows, a):
        assert_matches_numpy(r, e)
    with pytest.raises(TypeError):
        len(A(1.0))
    with pytest.raises(TypeError):
        iter(A(1.0)).__next__()


# ----------------------------------------------------------------------------- operators

# (dunder, namespace function, numpy reference, dtypes to try, rhs kind)
_ARITH = [
    ("add", "add", np.add, ["int8", "uint16", "int64", "float32", "float64", "complex128"]),
    ("sub", "subtract", np.subtract, ["int16", "uint8", "float64", "complex64"]),
    ("mul", "multiply", np.multiply, ["int32", "uint32", "float32", "complex128"]),
    ("truediv", "divide", np.divide, ["float32", "float64", "complex128"]),
    ("floordiv", "floor_divide", np.floor_divide, ["int32", "uint8", "float64"]),
    ("mod", "remainder", np.remainder, ["int16", "uint64", "float32", "float64"]),
    ("pow", "pow", np.power, ["float64", "complex128"]),
    ("and", "bitwise_and", np.bitwise_and, ["bool", "int8", "uint32", "int64"]),
    ("or", "bitwise_or", np.bitwise_or, ["bool", "int16", "uint8"]),
    ("xor", "bitwise_xor", np.bitwise_xor, ["bool", "int32", "uint64"]),
    ("lshift", "bitwise_left_shift", np.left_shift, ["int32", "uint8", "int64"]),
    ("rshift", "bitwise_right_shift", np.right_shift, ["int8", "uint16", "int64"]),
]
_COMPARE = [
    ("eq", "equal", np.equal), ("ne", "not_equal", np.not_equal), ("lt", "less", np.less),
    ("le", "less_equal", np.less_equal), ("gt", "greater", np.greater),
    ("ge", "greater_equal", np.greater_equal),
]


def _operands(fname, dtype, rng):
    a = random_numpy((3, 4), dtype, rng)
    b = random_numpy((4,), dtype, rng)
    if fname in ("bitwise_left_shift", "bitwise_right_shift"):
        b = rng.integers(0, 5, size=4).astype(dtype)
        a = np.abs(a) if np.dtype(dtype).kind == "i" else a
    if fname in ("floor_divide", "remainder", "divide"):
        b = np.where(b == 0, np.ones_like(b), b)
    if fname == "pow":
        a = random_numpy((3, 4), dtype, rng, low=0.5, high=2)
        b = random_numpy((4,), dtype, rng, low=-2, high=2)
    return a, b


def _tol(dtype):
    return 1e-5 if dtype in ("float32", "complex64") else 1e-12


_ARITH_CASES = [pytest.param(d, f, ref, dt, id=f"{d}-{dt}", marks=requires_ns(f))
                for d, f, ref, dts in _ARITH for dt in dts]


@pytest.mark.parametrize("dunder,fname,ref,dtype", _ARITH_CASES)
def test_binary_operator_array_array(dunder, fname, ref, dtype, rng):
    a, b = _operands(fname, dtype, rng)
    x, y = ac_from_numpy(a), ac_from_numpy(b)
    op = getattr(operator, dunder if dunder not in ("and", "or") else dunder + "_")
    assert_matches_numpy(op(x, y), ref(a, b), rtol=_tol(dtype))
    if fname not in ("bitwise_left_shift", "bitwise_right_shift", "pow", "floor_divide",
                     "remainder", "divide"):  # (3, 4) op (4,) reversed: any zeros / shifts
        assert_matches_numpy(op(y, x), ref(b, a), rtol=_tol(dtype))


@pytest.mark.parametrize("dunder,fname,ref,dtype", _ARITH_CASES)
def test_binary_operator_with_python_scalar_and_reflected(dunder, fname, ref, dtype, rng):
    a, _ = _operands(fname, dtype, rng)
    x = ac_from_numpy(a)
    s = True if dtype == "bool" else 2
    if np.dtype(dtype).kind in "fc" and fname != "pow":
        s = 2.5
    op = getattr(operator, dunder if dunder not in ("and", "or") else dunder + "_")
    assert_matches_numpy(op(x, s), ref(a, s), rtol=_tol(dtype))
    if fname not in ("bitwise_left_shift", "bitwise_right_shift"):
        # reflected: 2 - x calls x.__rsub__(2)
        expected = ref(s, a)
        assert_matches_numpy(op(s, x), expected, rtol=_tol(dtype))


@pytest.mark.parametrize("dunder,fname,ref,dtype", _ARITH_CASES)
def test_inplace_operator_keeps_identity_and_dtype(dunder, fname, ref, dtype, rng):
    a, b = _operands(fname, dtype, rng)
    x, y = ac_from_numpy(a), ac_from_numpy(b)
    before = x
    iop = getattr(operator, f"i{dunder}")
    res = iop(x, y)
    assert res is before
    assert res.dtype == getattr(ac, dtype)
    expected = a.copy()
    iop(expected, b)
    assert_matches_numpy(res, expected, rtol=_tol(dtype))


@requires_ns("add")
def test_scalar_reflected_subtraction_matches_numpy():
    if not hasattr(ac, "subtract"):
        pytest.skip("subtract kernel not built yet")
    a = np.array([1.0, 2.0, 3.0])
    assert_matches_numpy(2 - ac_from_numpy(a), 2 - a)


@pytest.mark.parametrize("dunder,fname,ref", [pytest.param(*c, id=c[0], marks=requires_ns(c[1]))
                                              for c in _COMPARE])
@pytest.mark.parametrize("dtype", ["int8", "uint32", "float32", "float64"])
def test_comparison_operators(dunder, fname, ref, dtype, rng):
    a = random_numpy((3, 4), dtype, rng, low=0, high=4)
    b = random_numpy((4,), dtype, rng, low=0, high=4)
    x, y = ac_from_numpy(a), ac_from_numpy(b)
    op = getattr(operator, dunder)
    assert_matches_numpy(op(x, y), ref(a, b))
    assert_matches_numpy(op(x, 2), ref(a, 2))
    assert_matches_numpy(op(2, x), ref(2, a))  # reflected through the swapped comparison


@pytest.mark.parametrize("opname,fname,ref,dtype", [
    pytest.param("neg", "negative", np.negative, "int16", marks=requires_ns("negative")),
    pytest.param("neg", "negative", np.negative, "float64", marks=requires_ns("negative")),
    pytest.param("pos", "positive", np.positive, "complex64", marks=requires_ns("positive")),
    pytest.param("abs", "abs", np.abs, "float32", marks=requires_ns("abs")),
    pytest.param("invert", "bitwise_invert", np.invert, "uint8",
                 marks=requires_ns("bitwise_invert")),
    pytest.param("invert", "bitwise_invert", np.invert, "bool",
                 marks=requires_ns("bitwise_invert")),
])
def test_unary_operators(opname, fname, ref, dtype, rng):
    a = random_numpy((5,), dtype, rng)
    assert_matches_numpy(getattr(operator, opname)(ac_from_numpy(a)), ref(a))


def test_matmul_operator():
    a = random_numpy((2, 3), "float64")
    b = random_numpy((3, 2), "float64")
    assert_matches_numpy(ac_from_numpy(a) @ ac_from_numpy(b), a @ b)


def test_operator_with_unsupported_type_raises_type_error():
    x = A([1.0, 2.0])
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x * [1.0, 2.0]
    with pytest.raises(TypeError):
        object() + x


@requires_ns("add")
def test_inplace_int_array_plus_float_raises_type_error():
    x = A([1, 2, 3])
    with pytest.raises(TypeError):
        x += 1.5
    assert_matches_numpy(x, np.array([1, 2, 3]))
    y = A([1, 2], dtype=ac.int8)
    with pytest.raises(TypeError):
        y += A([1, 2], dtype=ac.int16)


@requires_ns("add")
def test_inplace_scalar_keeps_identity_and_dtype():
    x = A([1, 2, 3], dtype=ac.int8)
    y = x
    x += 1
    assert x is y and x.dtype == ac.int8
    assert_matches_numpy(x, np.array([2, 3, 4], dtype=np.int8))
    f = A([1.0, 2.0], dtype=ac.float32)
    g = f
    f += 1.5
    assert f is g and f.dtype == ac.float32
    assert_matches_numpy(f, np.array([2.5, 3.5], dtype=np.float32))


@requires_ns("add")
def test_inplace_broadcasting_to_bigger_shape_raises_value_error():
    x = A([1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        x += ac.ones((2, 3))
    assert_matches_numpy(x, np.array([1.0, 2.0, 3.0]))
    # broadcasting the right operand is fine
    m = ac.zeros((2, 3))
    m += x
    assert_matches_numpy(m, np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]))


@requires_ns("add")
def test_inplace_overlapping_reversed():
    a = np.arange(10.0)
    x = ac_from_numpy(a)
    x += x[::-1]
    a += a[::-1]
    assert_matches_numpy(x, a)


@requires_ns("add")
def test_inplace_overlapping_shifted_slice():
    a = np.arange(8, dtype=np.int64)
    x = ac_from_numpy(a)
    x[1:] += x[:-1]
    a[1:] += a[:-1]
    assert_matches_numpy(x, a)
    b = np.arange(8, dtype=np.int64)
    y = ac_from_numpy(b)
    y[:-1] += y[1:]
    b[:-1] += b[1:]
    assert_matches_numpy(y, b)


@requires_ns("multiply")
def test_inplace_on_view_writes_base():
    x = ac.zeros((3, 4), dtype=ac.int32)
    x[1] += 5
    v = x[:, 2]
    v *= 0
    x[::2, 1:3] += 1
    a = np.zeros((3, 4), dtype=np.int32)
    a[1] += 5
    a[:, 2] *= 0
    a[::2, 1:3] += 1
    assert_matches_numpy(x, a)


# ----------------------------------------------------------------------------- namespace

@pytest.mark.parametrize("version", [None, "2023.12", "2024.12", "2025.12"])
def test_array_namespace(version):
    x = A([1.0])
    ns = x.__array_namespace__() if version is None else x.__array_namespace__(
        api_version=version)
    assert ns is ac


@pytest.mark.parametrize("version", ["2021.12", "2022.12", "2026.12", "latest"])
def test_array_namespace_unsupported_version(version):
    with pytest.raises(ValueError):
        A([1.0]).__array_namespace__(api_version=version)


def test_array_api_compat_finds_namespace():
    array_api_compat = pytest.importorskip("array_api_compat")
    assert array_api_compat.array_namespace(A([1.0])) is ac
    assert array_api_compat.is_array_api_obj(A([1.0]))


# ----------------------------------------------------------------------------- conversions

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_python_scalar_conversions(dtype):
    d = getattr(ac, dtype)
    one = ac.ones((), dtype=d)
    zero = ac.zeros((), dtype=d)
    assert bool(one) is True and bool(zero) is False
    assert complex(one) == 1 + 0j and type(complex(one)) is complex
    if dtype.startswith("complex"):
        with pytest.raises(TypeError):
            int(one)
        with pytest.raises(TypeError):
            float(one)
    else:
        assert int(one) == 1 and type(int(one)) is int
        assert float(one) == 1.0 and type(float(one)) is float
    if "int" in dtype:
        assert operator.index(one) == 1 and type(operator.index(one)) is int
    else:
        with pytest.raises(TypeError):
            operator.index(one)


def test_bool_of_complex_follows_the_standard():
    # bool(z) is bool(real) or bool(imag) (Array API 2022.12+), as for Python complex
    assert bool(A(0j)) is False
    assert bool(A(1j)) is True
    assert bool(A(2 + 0j, dtype=ac.complex64)) is True


def test_float_conversion_values():
    assert float(A(-2.5)) == -2.5
    assert int(A(-2.7)) == -2
    assert int(A(3.9, dtype=ac.float32)) == 3
    assert int(A(2**63 - 1)) == 2**63 - 1
    assert int(A(2**64 - 1, dtype=ac.uint64)) == 2**64 - 1
    assert float(A(True)) == 1.0
    assert complex(A(1.5)) == 1.5 + 0j
    assert complex(A(1 - 2j, dtype=ac.complex64)) == 1 - 2j
    assert np.isnan(float(A(float("nan"))))
    assert bool(A(float("nan"))) is True
    assert bool(A(-0.0)) is False


def test_nan_and_inf_to_int():
    with pytest.raises(ValueError):
        int(A(float("nan")))
    with pytest.raises(OverflowError):
        int(A(float("inf")))


@pytest.mark.parametrize("conv", [bool, int, float, complex])
@pytest.mark.parametrize("shape", [(2,), (0,), (2, 2)])
def test_scalar_conversion_needs_one_element(conv, shape):
    with pytest.raises((TypeError, ValueError)):
        conv(ac.zeros(shape))


def test_index_errors():
    with pytest.raises(TypeError):
        operator.index(A(1.0))
    with pytest.raises(TypeError):
        operator.index(A(True))
    with pytest.raises(TypeError):
        operator.index(A([1, 2]))
    assert [10, 20, 30][A(2)] == 30
    assert list(range(10))[A(1, dtype=ac.uint8):A(3, dtype=ac.int16)] == [1, 2]


# ----------------------------------------------------------------------------- devices

def test_to_device():
    x = A([1.0, 2.0])
    assert x.to_device("cpu") is x or np.array_equal(to_numpy(x.to_device("cpu")), [1.0, 2.0])
    y = x.to_device(ac.Device("cpu"))
    assert y.device == x.device
    assert_matches_numpy(y, np.array([1.0, 2.0]))
    y2 = x.to_device(x.device)
    assert_matches_numpy(y2, np.array([1.0, 2.0]))


@pytest.mark.parametrize("device", ["cuda", "gpu", "cpu:1", "meta"])
def test_to_device_unknown(device):
    with pytest.raises(ValueError):
        A([1.0]).to_device(device)


def test_device_object():
    with pytest.raises(ValueError):
        ac.Device("cuda")
    assert ac.Device("cpu") == ac.Device("cpu")
    assert hash(ac.Device("cpu")) == hash(ac.Device("cpu"))
    assert "cpu" in repr(ac.Device("cpu"))


# ----------------------------------------------------------------------------- DLPack

def test_dlpack_device():
    dev = A([1.0]).__dlpack_device__()
    assert tuple(dev) == (1, 0)
    assert int(dev[0]) == 1


def _capsule_name(cap) -> bytes:
    import ctypes
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    return get_name(cap)


@requires_native("to_dlpack")
def test_dlpack_capsule_names():
    x = A([1.0, 2.0])
    assert _capsule_name(x.__dlpack__(max_version=(1, 0))) == b"dltensor_versioned"
    assert _capsule_name(x.__dlpack__()) == b"dltensor"
    assert _capsule_name(x.__dlpack__(max_version=(0, 8))) == b"dltensor"


@requires_native("to_dlpack")
@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_numpy_from_dlpack_zero_copy(dtype):
    a = random_numpy((3, 4), dtype)
    x = ac_from_numpy(a)
    n = np.from_dlpack(x)
    np.testing.assert_array_equal(n, a)
    assert n.dtype == a.dtype
    if dtype != "bool":
        x[0, 0] = ac.ones((), dtype=x.dtype)
        assert n[0, 0] == 1


@requires_native("to_dlpack")
def test_torch_from_dlpack():
    torch = pytest.importorskip("torch")
    x = ac_from_numpy(np.arange(6.0).reshape(2, 3))
    t = torch.from_dlpack(x)
    assert t.shape == (2, 3)
    np.testing.assert_array_equal(t.numpy(), np.arange(6.0).reshape(2, 3))


@requires_native("to_dlpack")
def test_dlpack_negative_strides_copy_when_needed():
    a = np.arange(12.0).reshape(3, 4)
    x = ac_from_numpy(a)
    np.testing.assert_array_equal(np.from_dlpack(x[::-1]), a[::-1])
    np.testing.assert_array_equal(np.from_dlpack(x[:, ::-2]), a[:, ::-2])
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(torch.from_dlpack(x[::-1, 1:]).numpy(), a[::-1, 1:])
    # copy=None may copy; copy=False must not
    with pytest.raises(BufferError):
        x[::-1].__dlpack__(max_version=(1, 0), copy=False)


@requires_native("to_dlpack")
def test_dlpack_copy_true_is_independent():
    x = ac.asarray([1.0, 2.0])
    y = ac.from_dlpack(x, copy=True)
    y[0] = 100.0
    assert float(x[0]) == 1.0
    n = np.from_dlpack(x, copy=True)
    n[1] = 50.0
    assert float(x[1]) == 2.0


def test_dlpack_errors():
    x = A([1.0])
    with pytest.raises(ValueError):
        x.__dlpack__(stream=1)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))


# ----------------------------------------------------------------------------- NumPy interop

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_np_asarray_is_zero_copy(dtype):
    a = random_numpy((4, 5), dtype)
    x = ac_from_numpy(a)
    n = np.asarray(x)
    assert n.dtype == a.dtype and n.shape == a.shape
    np.testing.assert_array_equal(n, a)
    # write through NumPy, read through arraycore
    n[2, 3] = 1
    assert_matches_numpy(x[2, 3], np.asarray(n[2, 3]))
    assert n.__array_interface__["data"][0] == x._data_ptr


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64"])
def test_np_asarray_non_contiguous_view_shares_memory(dtype):
    a = random_numpy((6, 8), dtype)
    x = ac_from_numpy(a)
    v = x[1::2, ::-3]
    n = np.asarray(v)
    assert_matches_numpy(v, a[1::2, ::-3])
    np.testing.assert_array_equal(n, a[1::2, ::-3])
    base = np.asarray(x)
    assert np.shares_memory(n, base)
    n[0, 0] = 0
    assert x[1, 7] == 0 if hasattr(ac, "equal") else complex(x[1, 7]) == 0
    tn = np.asarray(x.mT)
    assert np.shares_memory(tn, base)
    np.testing.assert_array_equal(tn, np.asarray(x).T)


def test_np_asarray_with_dtype_converts():
    x = A([1.5, 2.5, -3.25])
    n = np.asarray(x, dtype=np.float32)
    assert n.dtype == np.float32
    np.testing.assert_array_equal(n, np.array([1.5, 2.5, -3.25], dtype=np.float32))
    i = np.asarray(A([1, 2]), dtype=np.int8)
    assert i.dtype == np.int8
    c = np.array(x, copy=True)
    c[0] = 100
    assert float(x[0]) == 1.5


def test_np_array_copy_false_same_dtype_ok():
    x = A([1.0, 2.0])
    n = np.asarray(x, copy=False)
    n[0] = 5
    assert float(x[0]) == 5.0


@pytest.mark.parametrize("dtype,fmt", [("bool", "?"), ("int8", "b"), ("int16", "h"),
                                       ("int32", "i"), ("int64", "q"), ("uint8", "B"),
                                       ("uint16", "H"), ("uint32", "I"), ("uint64", "Q"),
                                       ("float32", "f"), ("float64", "d"),
                                       ("complex64", "Zf"), ("complex128", "Zd")])
def test_memoryview(dtype, fmt):
    x = ac.zeros((3, 4), dtype=getattr(ac, dtype))
    m = memoryview(x)
    item = np.dtype(dtype).itemsize
    assert m.format.lstrip("<=@") == fmt
    assert m.shape == (3, 4)
    assert m.strides == (4 * item, item)
    assert m.itemsize == item
    assert not m.readonly
    v = memoryview(x[:, ::2])
    assert v.shape == (3, 2) and v.strides == (4 * item, 2 * item)
    t = memoryview(x.mT)
    assert t.shape == (4, 3) and t.strides == (item, 4 * item)


# ----------------------------------------------------------------------------- repr / str

def _np_repr_body(a):
    return np.array2string(a, separator=", ", prefix="Array(")


@pytest.mark.parametrize("values,dtype", [
    ([0.0, 0.25, 1.5], "float64"),
    ([[1.0, -2.0], [3.5, 4.0]], "float64"),
    ([1.0, 2.5, 3.0], "float32"),
    ([1, -2, 300], "int64"),
    ([[1, 2], [3, 4]], "uint8"),
    ([True, False, True], "bool"),
    ([1 + 2j, 3 - 4j], "complex128"),
    ([1e-5, 1.0], "float64"),
    ([1.0, 2000.0], "float64"),
    ([float("nan"), float("inf"), -1.0], "float64"),
])
def test_repr_and_str_like_numpy(values, dtype):
    a = np.array(values, dtype=dtype)
    x = ac_from_numpy(a)
    assert str(x) == str(a)
    assert repr(x) == f"Array({_np_repr_body(a)}, dtype={dtype})"


def test_repr_0d():
    assert repr(A(1.5)) == "Array(1.5, dtype=float64)"
    assert str(A(1.5)) == "1.5"
    assert str(A(7, dtype=ac.int8)) == "7"
    assert str(A(True)) == "True"
    assert repr(A(-3)) == "Array(-3, dtype=int64)"


def test_repr_empty():
    r = repr(ac.zeros(0))
    assert r.startswith("Array([]") and "float64" in r
    r2 = repr(ac.zeros((0, 3), dtype=ac.int32))
    assert "[]" in r2 and "int32" in r2 and "(0, 3)" in r2
    assert str(ac.zeros(0)) == "[]"


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_repr_large_is_summarized(dtype):
    a = np.arange(2000).astype(dtype)
    x = ac_from_numpy(a)
    r = repr(x)
    assert "..." in r and len(r) < 200
    assert str(x) == str(a)


def test_repr_large_2d_summarized():
    a = np.arange(3000).reshape(100, 30)
    x = ac_from_numpy(a)
    assert str(x) == str(a)


# ----------------------------------------------------------------------------- pickling, copy

@pytest.mark.parametrize("dtype", DTYPE_NAMES)
def test_pickle_round_trip(dtype):
    a = random_numpy((2, 3), dtype)
    x = ac_from_numpy(a)
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, ac.Array)
    assert_matches_numpy(y, a)
    z = pickle.loads(pickle.dumps(x[:, ::-2]))
    assert_matches_numpy(z, a[:, ::-2])


def test_pickle_0d_and_empty():
    assert_matches_numpy(pickle.loads(pickle.dumps(A(2.5, dtype=ac.float32))),
                         np.array(2.5, dtype=np.float32))
    e = pickle.loads(pickle.dumps(ac.zeros((0, 3), dtype=ac.int16)))
    assert e.shape == (0, 3) and e.dtype == ac.int16


def test_copy_and_deepcopy_are_independent():
    x = A([1.0, 2.0])
    for y in (copy.copy(x), copy.deepcopy(x)):
        y[0] = 9.0
        assert float(x[0]) == 1.0
