"""L2: the 16 creation functions of the standard."""

from __future__ import annotations

from collections.abc import Mapping as _Mapping

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from .._core.device import as_device
from ..native import _native
from ._validation import check_array, check_dtype, check_int, check_shape, scalar_dtype

Array = _native.Array
_SCALARS = (bool, int, float, complex)
_DEFAULT_FOR_KIND = {1: _dt.bool_, 2: _dt.default_int, 3: _dt.default_float,
                     4: _dt.default_complex}

__all__ = ["arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full",
           "full_like", "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros",
           "zeros_like"]


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """Converts `obj` to an array: arrays, Python scalars, nested sequences, NumPy arrays and
    scalars, buffers, and any DLPack producer (PyTorch, JAX, CuPy on CPU...).

    copy=None copies only when needed, copy=True always, copy=False never (ValueError when a
    copy would be needed).

    >>> import arraycore as ac
    >>> ac.asarray([[1, 2], [3, 4]], dtype=ac.float32)
    """
    dtype = check_dtype(dtype, "asarray")
    as_device(device, "asarray")
    if copy not in (None, True, False):
        raise ValueError(f"asarray: copy must be True, False or None, got {copy!r}")
    if isinstance(obj, Array):
        return _finish(obj, dtype, copy, fresh=False)
    if type(obj) in _SCALARS:
        if copy is False:
            raise ValueError("asarray: converting a Python scalar needs a copy, but copy=False")
        return _native.from_scalar(obj, (dtype or scalar_dtype(obj)).code)
    if isinstance(obj, (list, tuple)):
        if copy is False:
            raise ValueError("asarray: converting a sequence needs a copy, but copy=False")
        return _from_sequence(obj, dtype)
    # Zero-copy imports: the buffer protocol first (NumPy arrays and scalars, memoryview,
    # array.array, bytes), then DLPack (PyTorch, JAX, ...).
    try:
        view = memoryview(obj)
    except TypeError:
        view = None
    if view is not None:
        a = _native.from_buffer(view, False) if view.format not in ("e",) else None
        if a is None:
            raise TypeError(f"asarray: unsupported element type {view.format!r} (float16 is "
                            "not an arraycore dtype yet)")
        return _finish(a, dtype, copy, fresh=False)
    if hasattr(obj, "__dlpack__"):
        return _finish(from_dlpack(obj), dtype, copy, fresh=False)
    if isinstance(obj, (bool, int, float, complex)):  # NumPy scalars without buffers, etc.
        return asarray(_py_scalar(obj), dtype=dtype, copy=copy)
    if hasattr(obj, "__array__"):
        return asarray(obj.__array__(), dtype=dtype, copy=copy)
    if (hasattr(obj, "__len__") and hasattr(obj, "__getitem__")
            and not isinstance(obj, (str, _Mapping))):  # a dict is not a sequence of values
        return _from_sequence(list(obj), dtype)
    for conv in ("__index__", "__float__", "__complex__"):
        if hasattr(obj, conv):
            return asarray(_py_scalar(obj), dtype=dtype, copy=copy)
    raise TypeError(f"asarray: cannot convert an object of type {type(obj).__name__} to an "
                    "array")


def _py_scalar(obj):
    if isinstance(obj, bool):
        return bool(obj)
    if hasattr(obj, "__index__"):
        return obj.__index__()
    if isinstance(obj, complex) or (hasattr(obj, "__complex__") and not hasattr(obj, "__float__")):
        return complex(obj)
    return float(obj)


def _finish(a, dtype, copy, fresh):
    if dtype is not None and a.dtype is not dtype:
        if copy is False:
            raise ValueError(f"asarray: converting {a.dtype} to {dtype} needs a copy, but "
                             "copy=False")
        return _native.astype(a, dtype.code)
    if copy and not fresh:
        return _native.copy(a)
    return a


def _from_sequence(seq, dtype):
    try:
        shape, kind, untyped_kind, typed = _native.scan_nested(seq)
    except ValueError as e:
        if "must be 0-d" not in str(e):
            raise
        return _from_sequence_of_arrays(seq, dtype)
    if dtype is None:
        dtype = _DEFAULT_FOR_KIND.get(kind, _dt.default_float)
        if typed:
            # Leaves with a dtype (NumPy scalars, 0-d arrays) keep it, as in NumPy:
            # [np.float32(1), np.float32(2)] is float32; Python scalars among them count as
            # their kind's default dtype ([np.float32(1), 2.0] is float64).
            dtypes = [d for d in _dt.ALL_DTYPES if typed >> d.code & 1]
            if untyped_kind:
                dtypes.append(_DEFAULT_FOR_KIND[untyped_kind])
            dtype = _dt.promote_sequence(dtypes)
    return _native.from_nested(seq, shape, dtype.code)


def _from_sequence_of_arrays(seq, dtype):
    """asarray([a, b, ...]) where elements are arrays (or nested sequences of them)."""
    parts = [asarray(e, dtype=dtype) for e in seq]
    shape = parts[0].shape if parts else ()
    if any(p.shape != shape for p in parts):
        raise ValueError("asarray: the nested sequence is ragged (elements have shapes "
                         f"{sorted({p.shape for p in parts})})")
    if dtype is None:
        dtype = _dt.promote_sequence(p.dtype for p in parts)
    out = _native.empty((len(parts),) + shape, dtype.code)
    for i, p in enumerate(parts):
        out[i]._copy_from(p)
    return out


def from_dlpack(x, /, *, device=None, copy=None):
    """Imports any DLPack producer zero-copy (copy=True forces a copy).

    >>> import arraycore as ac, numpy as np
    >>> ac.from_dlpack(np.arange(3.0))
    """
    as_device(device, "from_dlpack")
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: {type(x).__name__} does not implement __dlpack__")
    if hasattr(x, "__dlpack_device__"):
        dev_type, _ = x.__dlpack_device__()
        if int(dev_type) not in (1, 3):
            raise BufferError(f"from_dlpack: arraycore supports CPU memory only, the producer "
                              f"is on DLPack device type {int(dev_type)}")
    try:
        capsule = x.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=copy)
    except TypeError:  # producers from before DLPack 1.0 take no keywords
        if copy:
            return _native.copy(_native.from_dlpack_capsule(x.__dlpack__()))
        capsule = x.__dlpack__()
    a = _native.from_dlpack_capsule(capsule)
    return _native.copy(a) if copy else a


def ascontiguousarray(x, /, *, dtype=None):
    """A row-major (C-contiguous) array with x's values: x itself when it already is one.

    Not part of the standard: NumPy's function of the same name, for handing data to code
    that needs row-major memory.  `asarray(x, copy=True)` keeps x's axis order instead.

    >>> import arraycore as ac
    >>> ac.ascontiguousarray(ac.eye(3).mT)
    """
    x = asarray(x, dtype=dtype)
    return x if x._c_contiguous else _native.copy_c(x)


def empty(shape, *, dtype=None, device=None):
    """An uninitialized array.  >>> ac.empty((2, 3)).shape"""
    as_device(device, "empty")
    return _native.empty(check_shape(shape, "empty"),
                         (check_dtype(dtype, "empty") or _dt.default_float).code)


def zeros(shape, *, dtype=None, device=None):
    """An array of zeros.  >>> ac.zeros(3)"""
    as_device(device, "zeros")
    return _native.full(check_shape(shape, "zeros"), 0,
                        (check_dtype(dtype, "zeros") or _dt.default_float).code)


def ones(shape, *, dtype=None, device=None):
    """An array of ones.  >>> ac.ones((2, 2), dtype=ac.int32)"""
    as_device(device, "ones")
    return _native.full(check_shape(shape, "ones"), 1,
                        (check_dtype(dtype, "ones") or _dt.default_float).code)


def full(shape, fill_value, *, dtype=None, device=None):
    """An array filled with `fill_value`.  >>> ac.full((2,), 7)"""
    as_device(device, "full")
    if isinstance(fill_value, Array):
        fill_value = fill_value._item()
    # A NumPy scalar fills with its value; its dtype is the default (np.full's rule).
    scalar_type = _np_scalars.dtype_of(fill_value)
    fill_value = _np_value(fill_value)
    if type(fill_value) not in _SCALARS:
        raise TypeError(f"full: fill_value must be a Python scalar, got "
                        f"{type(fill_value).__name__}")
    dtype = check_dtype(dtype, "full") or scalar_type or scalar_dtype(fill_value)
    if dtype.kind in "biu" and type(fill_value) in (float, complex):
        raise TypeError(f"full: cannot fill an array of dtype {dtype} with {fill_value!r}")
    return _native.full(check_shape(shape, "full"), fill_value, dtype.code)


# Native fast paths (bind_fast_calls.cpp) for the simple calls: an int or a tuple/list of
# ints for shape, an arraycore dtype or None, device None or the CPU device, a bool/int/float
# fill value the dtype holds.  Every other call runs the Python function above.
empty, zeros, ones, full = (_native.fast_function(f.__name__, None, 0, f, wrapped=f)
                            for f in (empty, zeros, ones, full))


def _like(who, x, dtype, device):
    check_array(x, who)
    as_device(device, who)
    return x.shape, (check_dtype(dtype, who) or x.dtype)


def empty_like(x, /, *, dtype=None, device=None):
    """An uninitialized array with x's shape (and dtype unless given).  >>> ac.empty_like(ac.ones(3)).shape"""
    shape, dtype = _like("empty_like", x, dtype, device)
    return _native.empty(shape, dtype.code)


def zeros_like(x, /, *, dtype=None, device=None):
    """Zeros with x's shape (and dtype unless given).  >>> ac.zeros_like(ac.ones(3))"""
    shape, dtype = _like("zeros_like", x, dtype, device)
    return _native.full(shape, 0, dtype.code)


def ones_like(x, /, *, dtype=None, device=None):
    """Ones with x's shape (and dtype unless given).  >>> ac.ones_like(ac.zeros((2, 2)))"""
    shape, dtype = _like("ones_like", x, dtype, device)
    return _native.full(shape, 1, dtype.code)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    """`fill_value` with x's shape (and dtype unless given).  >>> ac.full_like(ac.zeros(3), 7.0)"""
    shape, dtype = _like("full_like", x, dtype, device)
    fill_value = _np_value(fill_value)
    if type(fill_value) not in _SCALARS:
        raise TypeError(f"full_like: fill_value must be a Python scalar, got "
                        f"{type(fill_value).__name__}")
    if dtype.kind in "biu" and type(fill_value) in (float, complex):
        raise TypeError(f"full_like: cannot fill an array of dtype {dtype} with {fill_value!r}")
    return _native.full(shape, fill_value, dtype.code)


# The same fast paths for x a plain array (no autodiff state); the result is row-major, as
# the Python functions above make it.
empty_like, zeros_like, ones_like, full_like = (
    _native.fast_function(f.__name__, None, 0, f, wrapped=f)
    for f in (empty_like, zeros_like, ones_like, full_like))


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Evenly spaced values in [start, stop).  >>> ac.arange(5)"""
    as_device(device, "arange")
    if stop is None:
        start, stop = 0, start
    start, stop, step = (_real_number(v, "arange", name)
                         for name, v in (("start", start), ("stop", stop), ("step", step)))
    if step == 0:
        raise ValueError("arange: step must not be zero")
    all_int = all(isinstance(v, int) for v in (start, stop, step))
    dtype = check_dtype(dtype, "arange") or (_dt.default_int if all_int else _dt.default_float)
    if dtype.kind in "bc":
        raise TypeError(f"arange: dtype {dtype} is not supported (use a real dtype)")
    return _native.arange(start, stop, step, dtype.code)


def _np_value(v):
    """A NumPy scalar's value as a Python scalar (numpy_scalars.py); `v` otherwise."""
    nv = _np_scalars.value(v)
    return v if nv is None else nv


def _real_number(v, who, name):
    """A Python int or float from a real number (NumPy scalars and 0-d arrays included)."""
    v = _np_value(v)
    if isinstance(v, bool) or isinstance(v, complex):
        raise TypeError(f"{who}: {name} must be a real number, got {type(v).__name__}")
    if isinstance(v, (int, float)):
        return v
    if hasattr(v, "__index__"):
        return v.__index__()
    if hasattr(v, "__float__") and not hasattr(v, "__complex__") or isinstance(v, Array):
        return float(v)
    raise TypeError(f"{who}: {name} must be a real number, got {type(v).__name__}")


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """`num` evenly spaced samples from start to stop.  >>> ac.linspace(0, 1, 5)"""
    as_device(device, "linspace")
    num = check_int(num, "linspace", "num")
    if num < 0:
        raise ValueError(f"linspace: num must be non-negative, got {num}")
    start, stop = _np_value(start), _np_value(stop)
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    dtype = check_dtype(dtype, "linspace") or (_dt.default_complex if is_complex
                                               else _dt.default_float)
    if dtype.kind not in "fc":
        raise TypeError(f"linspace: expected a floating-point dtype, got {dtype}")
    if is_complex and dtype.kind != "c":
        raise TypeError(f"linspace: complex endpoints need a complex dtype, got {dtype}")
    return _native.linspace(start, stop, num, bool(endpoint), dtype.code)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """Ones on the k-th diagonal.  >>> ac.eye(3, k=1)"""
    as_device(device, "eye")
    n_rows = check_int(n_rows, "eye", "n_rows")
    n_cols = n_rows if n_cols is None else check_int(n_cols, "eye", "n_cols")
    k = check_int(k, "eye", "k")
    if n_rows < 0 or n_cols < 0:
        raise ValueError(f"eye: sizes must be non-negative, got ({n_rows}, {n_cols})")
    k = _clamp_diagonal(k, n_rows, n_cols)
    return _native.eye(n_rows, n_cols, k, (check_dtype(dtype, "eye") or _dt.default_float).code)


def tril(x, /, *, k=0):
    """Lower triangle of the last two axes.  >>> ac.tril(ac.ones((3, 3)))"""
    check_array(x, "tril")
    if x.ndim < 2:
        raise ValueError(f"tril: needs at least 2 dimensions, got {x.ndim}")
    return _native.tri(x, _clamp_diagonal(check_int(k, "tril", "k"), *x.shape[-2:]), False)


def triu(x, /, *, k=0):
    """Upper triangle of the last two axes.  >>> ac.triu(ac.ones((3, 3)))"""
    check_array(x, "triu")
    if x.ndim < 2:
        raise ValueError(f"triu: needs at least 2 dimensions, got {x.ndim}")
    return _native.tri(x, _clamp_diagonal(check_int(k, "triu", "k"), *x.shape[-2:]), True)


def _clamp_diagonal(k: int, n_rows: int, n_cols: int) -> int:
    """A diagonal offset beyond the matrix means the same as the nearest one just outside it
    (and keeps arbitrarily large Python ints out of the engine's int64)."""
    return max(-n_rows - 1, min(k, n_cols + 1))


def meshgrid(*arrays, indexing="xy"):
    """Coordinate matrices from 1-D arrays (indexing 'xy' or 'ij').

    >>> x, y = ac.meshgrid(ac.arange(3), ac.arange(2))
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    for i, a in enumerate(arrays):
        check_array(a, "meshgrid", f"arrays[{i}]")
        if a.ndim != 1:
            raise ValueError(f"meshgrid: arrays must be 1-D, arrays[{i}] has shape {a.shape}")
        if a.dtype is not arrays[0].dtype:
            raise TypeError(f"meshgrid: arrays must share one dtype, got {arrays[0].dtype} "
                            f"and {a.dtype}")
    n = len(arrays)
    shape = [a.shape[0] for a in arrays]
    axis_of = list(range(n))
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
        axis_of[0], axis_of[1] = 1, 0
    out = []
    for a, ax in zip(arrays, axis_of):
        strides = [0] * n
        strides[ax] = a._strides[0]
        out.append(_native.copy_c(a._view(shape, strides, 0)))
    return tuple(out)
