"""NumPy scalars (np.float64(2.0), np.int8(3), np.bool_(True), ...) and NumPy arrays as
operands of arraycore functions and operators.

NumPy scalars are not Python scalars to arraycore, even where they subclass one (np.float64
is a float, np.complex128 a complex; np.float32, np.int64 and np.bool_ are not).  They take
one of two roles (docs/architecture.md, "NumPy scalars"):

- **operands** (arithmetic and comparison operators, the binary elementwise functions,
  `where`, `result_type`): a NumPy scalar is a 0-d array of its dtype, as in NumPy 2 (NEP 50),
  not a weak Python scalar: float32 array + np.float64(1) is float64, int8 array + np.int64(1)
  is int64.  `operand()` makes that 0-d array.
- **stored values** (`x[i] = v`, `full`, `full_like`, `clip` bounds, the right operand of an
  in-place operator, creation bounds): only the value matters, as for a Python scalar of the
  same kind (np.float32 -> float, np.uint64 -> int, np.bool_ -> bool).  `value()` gives it.

NumPy is never imported here: a NumPy scalar exists only if NumPy was imported already.
"""

from __future__ import annotations

import sys

from ..native import _native
from . import dtypes as _dt

_VALUE_KINDS = "biufc"


def _numpy():
    return sys.modules.get("numpy")


def is_numpy_scalar(v) -> bool:
    np = _numpy()
    return np is not None and isinstance(v, np.generic)


def dtype_of(v):
    """The arraycore dtype of a NumPy scalar, or None (not a NumPy scalar, or a NumPy type
    arraycore has no dtype for: float16, longdouble, datetime64, str_, ...)."""
    np = _numpy()
    if np is None or not isinstance(v, np.generic):
        return None
    return _dt.BY_NAME.get(v.dtype.name)


def operand(v):
    """A NumPy scalar of an arraycore dtype as a 0-d array of that dtype; None otherwise."""
    d = dtype_of(v)
    if d is None:
        return None
    return _native.from_scalar(v.item(), d.code)


def as_operand(v):
    """`v`, or its 0-d array when it is a NumPy scalar of an arraycore dtype."""
    a = operand(v)
    return v if a is None else a


def value(v):
    """The Python scalar (bool, int, float, complex) holding a NumPy scalar's value; None
    when `v` is not a NumPy bool/integer/float/complex scalar.  (np.float32(0.1).item() is
    the float32 value exactly, as a float; np.uint64 values stay exact as ints.)"""
    np = _numpy()
    if np is None or not isinstance(v, np.generic) or v.dtype.kind not in _VALUE_KINDS:
        return None
    return v.item()


def operator_operand(v):
    """The right-hand side of `array <op> v` (or `v <op> array`) when `v` comes from NumPy: a
    NumPy scalar as its 0-d array, a NumPy array as an arraycore array (zero-copy, through
    the buffer protocol); None for anything else (or a dtype arraycore has no twin for), so
    the operator returns NotImplemented."""
    np = _numpy()
    if np is None:
        return None
    if isinstance(v, np.generic):
        return operand(v)
    if isinstance(v, np.ndarray):
        masked = sys.modules.get("numpy.ma")
        if v.dtype.name not in _dt.BY_NAME or (
                masked is not None and isinstance(v, masked.MaskedArray)):
            return None  # (a masked array would lose its mask)
        from ..array_api._creation import asarray
        return asarray(v)
    return None


__all__ = ["is_numpy_scalar", "dtype_of", "operand", "as_operand", "value", "operator_operand"]
