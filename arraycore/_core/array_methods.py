"""L1: the array object's Python-level behaviour, attached to the engine's Array class.

The class itself (shape, dtype, buffer protocol, views) lives in C++
(arraycore/native/src/bindings/bind_array.cpp); operators are thin calls into the namespace
functions so that they share one implementation (and, later, one autodiff hook).
"""

from __future__ import annotations

import enum
import math

from ..native import _native
from . import dtypes as _dt
from . import numpy_scalars as _np_scalars
from .device import CPU, as_device
from .formatting import format_array
from .indexing import basic_view, getitem, setitem_advanced, _is_basic
from .op_table import OPS

Array = _native.Array
_SCALARS = (bool, int, float, complex)
SUPPORTED_API_VERSIONS = ("2023.12", "2024.12", "2025.12")


class DLDeviceType(enum.IntEnum):
    """Device types of the DLPack standard (the ones arraycore can name)."""

    CPU = 1
    CUDA = 2
    CPU_PINNED = 3


def install(ns) -> None:
    """Attaches operators and methods; `ns` is the arraycore namespace module."""
    A = Array

    def binop(fname):
        f = getattr(ns, fname)

        # NumPy scalars and NumPy arrays are arrays of their dtype here (NEP 50): NumPy's
        # own operators defer to these (__array_priority__ below), so `np.float64(2) * x`
        # and `np.ones(3) + x` are arraycore arrays too.
        def method(self, other):
            if type(other) in _SCALARS or isinstance(other, Array):
                return f(self, other)
            other = _np_scalars.operator_operand(other)
            return NotImplemented if other is None else f(self, other)

        def reflected(self, other):
            if type(other) in _SCALARS or isinstance(other, Array):
                return f(other, self)
            other = _np_scalars.operator_operand(other)
            return NotImplemented if other is None else f(other, self)

        return method, reflected

    def inplace(fname):
        op = OPS[fname]
        kernel = _native.kernel(op.kernel)
        kinds = _dt.KIND_CATEGORIES[op.accepts]

        def method(self, other):
            if not (type(other) in _SCALARS or isinstance(other, Array)):
                other = _in_place_operand(other)
                if other is None:
                    return NotImplemented
            if type(other) in _SCALARS:
                dtype = _dt.promote_with_scalar(self.dtype, other)
            else:
                dtype = _dt.promote_types(self.dtype, other.dtype)
            if dtype is not self.dtype or (op.int_to_float and dtype.kind in "biu"):
                raise TypeError(f"{op.name}: in-place result would have dtype "
                                f"{_dt.default_float if op.int_to_float and dtype.kind in 'biu' else dtype}, "
                                f"not the array's dtype {self.dtype}")
            if dtype.kind not in kinds:
                raise TypeError(f"{op.name}: expected input of {op.accepts} dtype, got {dtype}")
            rhs = _native.from_scalar(other, dtype.code) if type(other) in _SCALARS else (
                other if other.dtype is dtype else _native.astype(other, dtype.code))
            _native.apply_into(kernel, self, [self, rhs])
            return self

        return method

    for dunder, fname in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                          ("truediv", "divide"), ("floordiv", "floor_divide"),
                          ("mod", "remainder"), ("pow", "pow"), ("and", "bitwise_and"),
                          ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                          ("lshift", "bitwise_left_shift"), ("rshift", "bitwise_right_shift")]:
        if not hasattr(ns, fname):
            continue  # kernel absent from this build (see tests/test_op_table.py)
        m, r = binop(fname)
        setattr(A, f"__{dunder}__", m)
        setattr(A, f"__r{dunder}__", r)
        if dunder != "pow":  # (nb_power is ternary; it keeps the Python-level path)
            _install_slot(A, dunder, fname, m, r)
        setattr(A, f"__i{dunder}__", inplace(fname))

    for dunder, fname in [("eq", "equal"), ("ne", "not_equal"), ("lt", "less"),
                          ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")]:
        if hasattr(ns, fname):
            _install_fast(A, f"__{dunder}__", fname, binop(fname)[0])
    # NumPy's operators (ndarray and NumPy scalars: `np.float64(2) * x`, `np.ones(3) < x`)
    # return NotImplemented for an operand of higher priority, so Python calls the Array's
    # reflected operator (PyTorch's choice).  __array_ufunc__ stays undefined: NumPy
    # functions called explicitly (np.add(x, 1), np.exp(x)) read the array zero-copy through
    # __array__ and return NumPy arrays, as for JAX arrays (docs/architecture.md).
    A.__array_priority__ = 1000.0
    A.__hash__ = None  # == is elementwise, so arrays are unhashable (as in NumPy and JAX)

    if hasattr(ns, "matmul"):
        _install_matmul(A, ns)

    A.__neg__ = lambda self: ns.negative(self)  # looked up per call: defined in ns
    A.__pos__ = lambda self: ns.positive(self)
    A.__abs__ = lambda self: ns.abs(self)
    A.__invert__ = lambda self: ns.bitwise_invert(self)

    A.__getitem__ = getitem
    A.__setitem__ = _setitem
    A.__bool__ = _to_scalar(bool, "__bool__")
    A.__int__ = _to_scalar(int, "__int__")
    A.__float__ = _to_scalar(float, "__float__")
    A.__complex__ = _to_scalar(complex, "__complex__")
    A.__index__ = _index
    A.__len__ = _len
    A.__iter__ = _iter
    A.__repr__ = lambda self: format_array(self)
    A.__str__ = lambda self: format_array(self, with_dtype=False)
    A.__array_namespace__ = lambda self, /, *, api_version=None: _namespace(ns, api_version)
    A.__array__ = _array
    A.__jax_array__ = _jax_array
    A.__dlpack__ = _dlpack
    A.__dlpack_device__ = lambda self, /: (DLDeviceType.CPU, 0)
    A.to_device = _to_device
    A.mT = property(_mT, doc="The matrix transpose of the last two axes (a view).")
    A.T = property(_T, doc="The transpose of a 2-D array (a view).")
    # plain arrays natively, the functions above for the rest (bind_fast_attributes.cpp)
    _native.install_fast_transpose(A, _T, _mT)
    _native.install_fast_float(A, A.__float__)
    A.__copy__ = lambda self: _native.copy(self)
    A.__deepcopy__ = lambda self, memo: _native.copy(self)
    A.__reduce__ = lambda self: (_rebuild, (self._tolist(), self.dtype.name, self.shape))
    A.__module__ = "arraycore"


_SLOT_NAMES = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
               "floordiv": "floor_divide", "mod": "remainder", "and": "and", "or": "or",
               "xor": "xor", "lshift": "lshift", "rshift": "rshift"}


def _in_place_operand(other):
    """The right operand of `x op= other` when it comes from NumPy: a NumPy scalar by its
    value (a Python scalar: `x32 *= np.float64(0.5)` keeps float32, as NumPy's in-place
    operators do), a NumPy array as an arraycore array; None otherwise."""
    v = _np_scalars.value(other)
    if v is not None:
        return v
    return _np_scalars.operator_operand(other)


def _install_slot(cls, dunder, fname, forward, reflected):
    """C number slot (nb_add, ...) with a kernel fast path; see bind_number_slots.cpp.

    Installed after the Python-level methods: assigning `cls.__add__` later would make CPython
    replace the slot with its generic one.
    """
    op = OPS[fname]
    _native.install_number_slot(cls, _SLOT_NAMES[dunder], _native.kernel(op.kernel),
                                _dt.category_mask(op.accepts), forward, reflected)


def _install_fast(cls, dunder, fname, fallback):
    """Binary operator with a native fast path for same-dtype arrays (bind_ops.cpp)."""
    op = OPS[fname]
    _native.install_fast_binary(cls, dunder, _native.kernel(op.kernel),
                                _dt.category_mask(op.accepts), fallback)


def _matmul_operand(other):
    """A NumPy array operand of `@` as an arraycore array (NumPy's `@` defers to Array's, see
    __array_priority__); None for anything else, scalars included (matmul takes arrays)."""
    np_scalar = _np_scalars.is_numpy_scalar(other)
    return None if np_scalar else _np_scalars.operator_operand(other)


def _install_matmul(cls, ns):
    """`@`, reflected `@` and `@=` (matmul takes arrays only: anything else is NotImplemented,
    so Python raises TypeError).  `x @= y` needs the result to keep x's dtype (TypeError) and
    shape (ValueError), and writes it into x."""
    matmul = ns.matmul

    def forward(self, other):
        if not isinstance(other, Array):
            other = _matmul_operand(other)
            if other is None:
                return NotImplemented
        return matmul(self, other)

    def reflected(self, other):
        if not isinstance(other, Array):
            other = _matmul_operand(other)
            if other is None:
                return NotImplemented
        return matmul(other, self)

    def inplace(self, other):
        if not isinstance(other, Array):
            other = _matmul_operand(other)
            if other is None:
                return NotImplemented
        d1, d2 = self.dtype, other.dtype
        if d1.kind in "iufc" and d2.kind in "iufc" and _dt.promote_types(d1, d2) is not d1:
            raise TypeError(f"matmul: in-place result would have dtype "
                            f"{_dt.promote_types(d1, d2)}, not the array's dtype {d1}")
        result = matmul(self, other)
        if result.shape != self.shape:
            raise ValueError(f"matmul: in-place result would have shape {result.shape}, not "
                             f"the array's shape {self.shape}")
        self._copy_from(result)
        return self

    cls.__matmul__ = forward
    cls.__rmatmul__ = reflected
    cls.__imatmul__ = inplace


def _rebuild(values, dtype_name, shape):
    """Unpickles an array (pickle stores its values as nested lists, and the shape, which
    nested lists lose for empty arrays)."""
    dtype = _dt.BY_NAME[dtype_name]
    if 0 in shape:
        return _native.empty(list(shape), dtype.code)
    from .. import asarray
    return asarray(values, dtype=dtype)


def _namespace(ns, api_version):
    if api_version is not None and api_version not in SUPPORTED_API_VERSIONS:
        raise ValueError(f"__array_namespace__: unsupported api_version {api_version!r}; "
                         f"supported: {', '.join(SUPPORTED_API_VERSIONS)}")
    return ns


def _to_scalar(kind, who):
    def method(self):
        if self.size != 1:
            raise (ValueError if kind is bool else TypeError)(
                f"{who}: only an array with exactly one element converts to a Python "
                f"{kind.__name__}, got shape {self.shape}")
        v = self._item()
        k = self.dtype.kind
        if kind in (int, float) and k == "c":  # bool(z) is defined: real or imag nonzero
            raise TypeError(f"{who}: cannot convert a complex array to {kind.__name__}")
        if kind is int and k == "f" and not math.isfinite(v):
            raise (ValueError if v != v else OverflowError)(
                f"{who}: cannot convert {v} to an integer")
        return kind(v)
    method.__name__ = who
    return method


def _index(self):
    if self.dtype.kind not in "iu":
        raise TypeError(f"__index__: only integer arrays are valid indices, got {self.dtype}")
    if self.ndim != 0:
        raise TypeError(f"__index__: only 0-d integer arrays are valid indices, got shape "
                        f"{self.shape}")
    return self._item()


def _len(self):
    if self.ndim == 0:
        raise TypeError("len() of a 0-d array")
    return self.shape[0]


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (basic_view(self, i) for i in range(self.shape[0]))


def _setitem(self, key, value):
    if type(value) not in _SCALARS and type(value) is not Array:
        value = _stored_value(value)
    if not _is_basic(key):
        return _setitem_advanced(self, key, value)
    view = basic_view(self, key, "__setitem__")
    if _check_stored_value(self.dtype, value):
        view._fill(value)
    else:
        view._copy_from(value)


def _stored_value(value):
    """A NumPy scalar stored into an array counts as its value (a Python scalar of its kind,
    see numpy_scalars.py); anything else is returned as it is."""
    if type(value) in _SCALARS or isinstance(value, Array):
        return value
    v = _np_scalars.value(value)
    return value if v is None else v


def _check_stored_value(d, value):
    """TypeError unless `value` (an array or a Python scalar) can be stored in an array of
    dtype `d` without losing information; True when it is a Python scalar."""
    if type(value) in _SCALARS:
        if _dt.promote_with_scalar(d, value) is not d:
            raise TypeError(f"__setitem__: cannot store a Python {type(value).__name__} in an "
                            f"array of dtype {d}")
        return True
    if not isinstance(value, Array):
        raise TypeError(f"__setitem__: value must be an array or a Python scalar, got "
                        f"{type(value).__name__}")
    if _dt.promote_types(d, value.dtype) is not d:
        raise TypeError(f"__setitem__: cannot store values of dtype {value.dtype} in an array "
                        f"of dtype {d} without losing information")
    return False


def _setitem_advanced(self, key, value):
    """x[int arrays / masks] = value: the same dtype rules as basic assignment."""
    value = _stored_value(value)
    if _check_stored_value(self.dtype, value):
        value = _native.from_scalar(value, self.dtype.code)
    setitem_advanced(self, key, value)


def _array(self, dtype=None, copy=None):
    import numpy as np  # only reached when NumPy is asking for the data

    a = np.asarray(memoryview(self))
    if dtype is not None and a.dtype != dtype:
        if copy is False:
            raise ValueError("__array__: a dtype change needs a copy, but copy=False")
        return a.astype(dtype)
    return a.copy() if copy else a


def _jax_array(self):
    # JAX's conversion hook (jnp.asarray(x), jnp.array(x) call it).  Without it JAX asks
    # np.result_type(x) for the dtype, and NumPy cannot read arraycore's dtype objects through
    # an array's `.dtype`.  The data goes through the zero-copy NumPy view; JAX copies it into
    # its own buffer, with its usual dtype canonicalization (float64 -> float32 unless x64 is
    # enabled), as for a NumPy array.
    import jax.numpy as jnp  # only reached when JAX is asking

    return jnp.asarray(_array(self))


def _dlpack(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
    if stream is not None:
        raise ValueError("__dlpack__: stream must be None for CPU arrays")
    if dl_device is not None and tuple(dl_device) != (DLDeviceType.CPU, 0):
        raise BufferError(f"__dlpack__: cannot export to device {tuple(dl_device)}; "
                          "arraycore arrays live on the CPU")
    if copy not in (None, True, False):
        raise ValueError(f"__dlpack__: copy must be True, False or None, got {copy!r}")
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    # copy=None copies only when the consumer could not take the memory as it is (negative
    # strides, or a read-only array through a legacy capsule).
    return _native.to_dlpack(self, versioned, copy)


def _to_device(self, device, /, *, stream=None):
    as_device(device, "to_device")
    if stream is not None:
        raise ValueError("to_device: stream must be None for CPU arrays")
    return self


def _mT(self):
    if self.ndim < 2:
        raise ValueError(f"mT: needs an array of at least 2 dimensions, got {self.ndim}")
    if _native.any_traced(self):
        # Tape state (or a buffer standing for a transform's value): the recorded op, so the
        # history is kept (a bare view would silently drop it).
        return OPS["matrix_transpose"].public(self)
    shape, strides = list(self.shape), list(self._strides)
    shape[-1], shape[-2] = shape[-2], shape[-1]
    strides[-1], strides[-2] = strides[-2], strides[-1]
    return self._view(shape, strides, 0)


def _T(self):
    if self.ndim != 2:
        raise ValueError(f"T: defined for 2-D arrays only (use mT or permute_dims), got "
                         f"{self.ndim} dimensions")
    return _mT(self)


__all__ = ["install", "DLDeviceType", "CPU", "SUPPORTED_API_VERSIONS"]
