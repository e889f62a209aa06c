"""L2: the public function of each arraycore.special op-table entry.

A special function takes one to three real operands: arraycore arrays, Python scalars or
NumPy scalars, broadcast together.  The operands are promoted together (Python scalars are
weak, as everywhere in the namespace), integer and bool results become float64 (SciPy's
ufuncs compute integer input in double), and the native kernel runs on operands of that one
dtype.  Complex operands raise TypeError: these are the real-argument functions.

Unary and binary entries sit behind the native fast path (bind_fast_calls.cpp) like the main
namespace's elementwise functions: arrays of one float dtype (and a weak Python scalar) reach
the kernel without a Python frame.
"""

from __future__ import annotations

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from .._core.op_table import OpDef
from ..native import _native

Array = _native.Array
_SCALARS = (bool, int, float)
_FLOATS = frozenset((_dt.float32, _dt.float64))
_APPLY = {1: _native.apply1, 2: _native.apply2, 3: _native.apply3}
_NAMES = ("x", "x1, x2", "x1, x2, x3")


def _operand(op: OpDef, v, pos: int):
    if type(v) in _SCALARS or isinstance(v, Array):
        return v
    a = _np_scalars.as_operand(v)
    if a is not v:
        return a
    if type(v) is complex:
        raise TypeError(f"{op.name}: complex argument {pos} ({v!r}); the special functions "
                        f"take real arguments")
    raise TypeError(f"{op.name}: argument {pos} must be an array or a real Python scalar, "
                    f"got {type(v).__name__}")


def compute_dtype(op: OpDef, args) -> _dt.DType:
    """The float dtype the kernel runs in for `args` (arrays and Python scalars)."""
    arrays = [a.dtype for a in args if isinstance(a, Array)]
    if arrays:
        d = _dt.promote_sequence(arrays)
        for a in args:
            if type(a) in _SCALARS:
                d = _dt.promote_with_scalar(d, a)
    else:
        d = _dt.default_float
    if d.kind == "c":
        raise TypeError(f"{op.name}: expected real floating-point arguments, got {d}")
    return d if d.kind == "f" else _dt.default_float


def _as_dtype(v, d: _dt.DType):
    if type(v) in _SCALARS:
        return _native.from_scalar(float(v), d.code)
    return v if v.dtype is d else _native.astype(v, d.code)


def make_function(op: OpDef):
    """The public function of entry `op` (name, docstring and module set)."""
    kernel = _native.kernel(op.kernel)
    apply = _APPLY[op.arity]
    arity = op.arity

    def fn(*args):
        if len(args) != arity:
            raise TypeError(f"{op.name}() takes {arity} positional argument"
                            f"{'s' if arity > 1 else ''} ({_NAMES[arity - 1]}), "
                            f"got {len(args)}")
        if arity == 1 and type(args[0]) is Array and args[0].dtype in _FLOATS:
            return apply(kernel, args[0])
        ops = [_operand(op, a, i) for i, a in enumerate(args)]
        d = compute_dtype(op, ops)
        return apply(kernel, *[_as_dtype(a, d) for a in ops])

    fn.__name__ = fn.__qualname__ = op.name
    fn.__module__ = "arraycore.special"
    fn.__doc__ = (op.extra.get("doc") or f"{op.name}: SciPy's scipy.special.{op.name}.") + (
        f"\n\nElementwise over {arity} real operand{'s' if arity > 1 else ''} "
        f"({_NAMES[arity - 1]}), broadcast together; Python scalars allowed; float32 stays "
        f"float32, integers and bools are computed in float64.")
    if arity <= 2:
        mask = sum(1 << d.code for d in _FLOATS)
        fast = _native.fast_function("unary" if arity == 1 else "binary", kernel, mask, fn,
                                     wrapped=fn)
        return fast
    return fn
