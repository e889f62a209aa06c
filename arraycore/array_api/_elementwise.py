"""L2: the elementwise functions of the standard, generated from the op table.

Each public function validates its inputs, applies type promotion (Python scalars included),
and calls the op's native kernel with inputs of one dtype (see design notes, "kernels never see
mixed dtypes").  Broadcasting happens in the engine as stride-0 views.
"""

from __future__ import annotations

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from .._core.op_table import OPS, OpDef
from .._core.ops import elementwise as _ops  # noqa: F401  (fills the table)
from ..native import _native

Array = _native.Array
_apply1 = _native.apply1
_apply2 = _native.apply2
_apply3 = _native.apply3
_astype = _native.astype
_from_scalar = _native.from_scalar
_SCALARS = (bool, int, float, complex)

__all__ = []


def _accepted(op: OpDef) -> frozenset:
    kinds = _dt.KIND_CATEGORIES[op.accepts]
    return frozenset(d for d in _dt.ALL_DTYPES if d.kind in kinds)


def _type_error(op: OpDef, dtype) -> TypeError:
    return TypeError(f"{op.name}: expected input of {op.accepts} dtype, got {dtype}")


def _check_array(op: OpDef, x, pos: str = "x"):
    if type(x) is not Array and not isinstance(x, Array):
        raise TypeError(f"{op.name}: expected an array for {pos}, got {type(x).__name__}")


def _compute_dtype(op: OpDef, dtype, accepted):
    """The dtype the kernel runs in for a promoted input dtype."""
    if op.int_to_float and dtype.kind in "biu":
        return _dt.default_float
    if dtype not in accepted:
        raise _type_error(op, dtype)
    return dtype


def _make_unary(op: OpDef):
    kernel = _native.kernel(op.kernel)
    accepted = _accepted(op)

    def fn(x, /):
        if type(x) is not Array:
            _check_array(op, x)
        d = x.dtype
        if d in accepted:
            return _apply1(kernel, x)
        c = _compute_dtype(op, d, accepted)
        return _apply1(kernel, _astype(x, c.code))

    return fn


def _numpy_operand(x):
    """A NumPy scalar as the 0-d array of its dtype (NEP 50: not a weak Python scalar)."""
    if type(x) in _SCALARS or isinstance(x, Array):
        return x
    return _np_scalars.as_operand(x)


def _operand_dtypes(op: OpDef, x1, x2):
    """Promoted dtype of two operands, at most one of them a Python scalar."""
    s1 = type(x1) in _SCALARS
    s2 = type(x2) in _SCALARS
    if s1 and s2:
        raise TypeError(f"{op.name}: at least one argument must be an array, got two scalars")
    if not s1:
        _check_array(op, x1, "x1")
    if not s2:
        _check_array(op, x2, "x2")
    return _dt.promote_operands(x1, x2, s1, s2)


def _as_operand(x, dtype):
    if type(x) in _SCALARS:
        return _from_scalar(x, dtype.code)
    if x.dtype is dtype:
        return x
    return _astype(x, dtype.code)


def _make_binary(op: OpDef):
    kernel = _native.kernel(op.kernel)
    accepted = _accepted(op)

    def fn(x1, x2, /):
        # Fast path: two arrays of one accepted dtype (the common case, and the one the
        # small-array benchmark measures).
        if type(x1) is Array and type(x2) is Array:
            d = x1.dtype
            if d is x2.dtype and d in accepted:
                return _apply2(kernel, x1, x2)
        x1, x2 = _numpy_operand(x1), _numpy_operand(x2)
        c = _compute_dtype(op, _operand_dtypes(op, x1, x2), accepted)
        return _apply2(kernel, _as_operand(x1, c), _as_operand(x2, c))

    return fn


def _make_logical_unary(op: OpDef):
    kernel = _native.kernel(op.kernel)

    def fn(x, /):
        _check_array(op, x)
        return _apply1(kernel, x if x.dtype is _dt.bool_ else _astype(x, _dt.bool_.code))

    return fn


def _make_logical_binary(op: OpDef):
    kernel = _native.kernel(op.kernel)

    def fn(x1, x2, /):
        x1, x2 = _numpy_operand(x1), _numpy_operand(x2)
        _operand_dtypes(op, x1, x2)  # validates
        return _apply2(kernel, _as_operand(x1, _dt.bool_), _as_operand(x2, _dt.bool_))

    return fn


def _make(op: OpDef):
    if op.name.startswith("logical_"):
        fn = (_make_logical_unary if op.arity == 1 else _make_logical_binary)(op)
    elif op.arity == 1:
        fn = _make_unary(op)
    else:
        fn = _make_binary(op)
    fn.__name__ = fn.__qualname__ = op.name
    fn.__module__ = "arraycore"
    fn.__doc__ = _docstring(op)
    if op.name.startswith("logical_"):
        return fn
    return _fast(op, fn)


def _fast(op: OpDef, fn):
    """`fn` behind a native fast path (bind_fast_calls.cpp): arrays of a dtype in the mask,
    and arrays with a weak Python scalar, run the kernel without Python frames; every other
    call (promotion, int_to_float, errors) goes to `fn`.  The mask holds the dtypes `fn` would
    hand to the kernel unchanged."""
    mask = sum(1 << d.code for d in _accepted(op)
               if not (op.int_to_float and d.kind in "biu"))
    return _native.fast_function("unary" if op.arity == 1 else "binary",
                                 _native.kernel(op.kernel), mask, fn, wrapped=fn)


def _docstring(op: OpDef) -> str:
    args = "x" if op.arity == 1 else "x1, x2"
    result = {"same": "the promoted input dtype", "bool": "bool",
              "real": "the real dtype matching the input"}[op.result]
    return (f"{op.name}({args}, /): elementwise `{op.name}` of the Array API standard.\n\n"
            f"Inputs: {op.accepts} dtypes"
            + (" (integer and bool inputs are promoted to float64)" if op.int_to_float else "")
            + f"; Python scalars allowed for binary functions.  Result dtype: {result}.\n\n"
            f">>> import arraycore as ac\n>>> ac.{op.name}({_example(op)})\n")


def _example(op: OpDef) -> str:
    if op.arity == 1:
        return "ac.asarray([1.0, 2.0])" if op.accepts not in ("bool", "integral",
                                                               "integer or boolean") \
            else ("ac.asarray([True, False])" if op.accepts == "bool" else "ac.asarray([1, 2])")
    if op.accepts in ("integral", "integer or boolean"):
        return "ac.asarray([1, 2]), 1"
    if op.accepts == "bool":
        return "ac.asarray([True, False]), True"
    return "ac.asarray([1.0, 2.0]), 0.5"


def clip(x, /, min=None, max=None):
    """clip(x, /, min=None, max=None): clamps x to [min, max] (NaN-propagating, as NumPy).

    `min`/`max` may be arrays or Python scalars; the result has x's dtype.

    >>> import arraycore as ac
    >>> ac.clip(ac.asarray([-1.0, 0.5, 3.0]), 0.0, 1.0)
    """
    op = OPS["clip"]
    _check_array(op, x, "x")
    d = x.dtype
    if d not in _CLIP_ACCEPTED:
        raise _type_error(op, d)
    if min is None and max is None:
        return _native.copy(x)
    bounds = []
    for name, b, unbounded in (("min", min, _lowest(d)), ("max", max, _highest(d))):
        if _np_scalars.value(b) is not None:
            b = _np_scalars.value(b)  # a NumPy scalar bound counts by its value
        if b is None:
            b = _from_scalar(unbounded, d.code)  # a missing bound never clips
        elif type(b) in _SCALARS:
            if d.kind in "iu" and type(b) is float:
                raise TypeError(f"clip: {name}={b!r} is a float but x has integer dtype {d}")
            b = _clip_scalar(b, d)
        else:
            _check_array(op, b, name)
            if b.dtype is not d:
                if _dt.promote_types(d, b.dtype) is not d:
                    raise TypeError(f"clip: {name} of dtype {b.dtype} does not fit x's dtype {d}")
                b = _astype(b, d.code)
        bounds.append(b)
    # The result has the broadcast shape of x, min and max (the standard's broadcasting).
    return _apply3(_CLIP_KERNEL, x, bounds[0], bounds[1])


def _lowest(d):
    return _INT_RANGES[d.name][0] if d.kind in "iu" else -float("inf")


def _highest(d):
    return _INT_RANGES[d.name][1] if d.kind in "iu" else float("inf")


def _clip_scalar(b, d):
    # Integer bounds outside x's range saturate instead of overflowing (NumPy semantics).
    if d.kind in "iu" and type(b) is int:
        info = _INT_RANGES[d.name]
        b = info[0] if b < info[0] else info[1] if b > info[1] else b
    return _from_scalar(b, d.code)


_INT_RANGES = {f"int{b}": (-(1 << (b - 1)), (1 << (b - 1)) - 1) for b in (8, 16, 32, 64)}
_INT_RANGES.update({f"uint{b}": (0, (1 << b) - 1) for b in (8, 16, 32, 64)})
_CLIP_KERNEL = _native.kernel("clip") if "clip" in _native.kernel_names() else None
_CLIP_ACCEPTED = _accepted(OPS["clip"])

# An op whose kernel is missing from the build is left out of the namespace (never stubbed);
# tests/test_op_table.py fails on the gap.
_KERNELS = set(_native.kernel_names())
for _name, _op in OPS.items():
    if _op.family == "elementwise" and _op.kernel in _KERNELS:
        if _name != "clip":
            globals()[_name] = _make(_op)
        __all__.append(_name)
if "clip" not in _KERNELS:
    del clip
