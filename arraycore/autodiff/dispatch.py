"""L3: `bind`, the one entry point of every op when autodiff is involved.

Note [Interpreters with a parent]: every public namespace function is wrapped by a
dispatcher (`make_public`).  With only plain arrays it calls the op's implementation at
once (one native check, `_native.any_traced`).  Otherwise `bind(op, args, kwargs)`:

1. finds the innermost active transform level among the tracers in the arguments (largest
   level number; a lower-level tracer is a constant to a higher level), and lets that level's
   interpreter process the op.  The interpreter unwraps its own tracers and applies the op's
   rule (jvp, batching, or the op itself while recording a node) by calling namespace
   functions on the unwrapped values, which dispatch again: the rule is itself transformed
   by every outer level (JAX's design; autodidax).  Level numbers keep nested derivatives
   apart (no perturbation confusion).
2. records a tape node when grad mode is on and an argument has `requires_grad` (the tape is
   not a level: it records wherever a tracked value appears, as PyTorch's autograd does, so a
   `.backward()` inside `func.grad` differentiates through the transform's tracers).

With no tracer, the implementation runs with grad mode off, so its internal namespace calls
record nothing; the node recorded here stands for the whole op.
"""

from __future__ import annotations

from .._core import dtypes as _dt
from .._core import numpy_scalars as _np_scalars
from ..native import _native
from . import slots as _slots
from .state import STATE, new_level
from .tracer import Tracer

Array = _native.Array
_any_traced = _native.any_traced
_FastFunction = _native.FastFunction
_tape = None  # tape module (set by install; it imports this module)


def _dead_unwrap(v):
    while isinstance(v, Tracer) and not v._interp.active:
        v = v._interp.unwrap_dead(v)
    return v


def find_interpreter(args, kwargs):
    top = None
    dead = False
    for _, _, v in _slots.leaves(args, kwargs):
        if isinstance(v, Tracer):
            it = v._interp
            if not it.active:
                dead = True
            elif top is None or it.level > top.level:
                top = it
    return top, dead


def _scan(args, kwargs):
    """One pass over the leaves: the innermost active interpreter, whether a dead tracer or
    a promoted array (see inplace.py) needs replacing, and the tape-tracked leaves as
    (slot, index, value)."""
    if not kwargs:
        # Positional arrays only (most calls): the same pass without the slot generator.
        top = None
        tracked = None
        for i, v in enumerate(args):
            tv = type(v)
            if tv is Array:
                if v._promoted is not None:
                    return _scan_leaves(args, kwargs)
            elif isinstance(v, Tracer):
                it = v._interp
                if not it.active:
                    return _scan_leaves(args, kwargs)
                if top is None or it.level > top.level:
                    top = it
            elif tv is list or tv is tuple or isinstance(v, Array):
                return _scan_leaves(args, kwargs)
            else:
                continue
            m = v._ad
            if m is not None and m.requires_grad:
                if tracked is None:
                    tracked = []
                tracked.append((i, None, v, m))
        return top, False, tracked
    return _scan_leaves(args, kwargs)


def _scan_leaves(args, kwargs):
    top = None
    fix = False
    tracked = None
    for slot, idx, v in _slots.leaves(args, kwargs):
        if type(v) is Array:
            if v._promoted is not None:
                fix = True
                continue
        else:
            it = v._interp
            if not it.active:
                fix = True
                continue
            if top is None or it.level > top.level:
                top = it
        m = v._ad
        if m is not None and m.requires_grad:
            if tracked is None:
                tracked = []
            tracked.append((slot, idx, v, m))
    return top, fix, tracked


def _resolve(v):
    if type(v) is Array:
        p = v._promoted
        return v if p is None else _resolve(p)
    return _dead_unwrap(v)


def bind(op, args, kwargs):
    top, fix, tracked = _scan(args, kwargs)
    if fix:
        args, kwargs = _slots.map_leaves(_resolve, args, kwargs)
        top, _, tracked = _scan(args, kwargs)
    if top is None:
        if STATE.grad_enabled:
            STATE.grad_enabled = False
            try:
                out = op.impl(*args, **kwargs)
            finally:
                STATE.grad_enabled = True
        else:
            out = op.impl(*args, **kwargs)
    else:
        out = top.process(op, args, kwargs)
    if tracked is not None and STATE.grad_enabled and not op.nondiff:
        out = _tape.record(op, args, kwargs, out, tracked)
    return out


_PLAIN_OPERANDS = (Array, bool, int, float, complex)


def _numpy_operand(v):
    # (np.bool_ as a Python bool: the same promotion, bool being the lowest type, and the
    # rules take Python bools as constants.)
    if type(v) in _PLAIN_OPERANDS or not _np_scalars.is_numpy_scalar(v):
        return v
    return bool(v) if _np_scalars.dtype_of(v) is _dt.bool_ else _np_scalars.as_operand(v)


def _numpy_operands(args):
    """`args` with NumPy scalars replaced by 0-d arrays of their dtype."""
    for a in args:
        if type(a) not in _PLAIN_OPERANDS and _np_scalars.is_numpy_scalar(a):
            return tuple(_numpy_operand(v) for v in args)
    return args


# FastFunction kinds that only take plain arrays (no tape state, no tracers), for which
# `public` would call `impl` and compute the same thing.
_PLAIN_ARRAY_KINDS = ("reshape", "concat", "stack", "take", "expand_dims")


def make_public(op, impl):
    """The namespace function of `op`: the implementation, or `bind` when a traced value is
    among the arguments."""
    if (op.family == "elementwise" and op.arity == 2) or op.name == "where":
        # Operands that may be NumPy scalars: the rules see them as the 0-d arrays of their
        # dtype that the implementation makes of them (numpy_scalars.py), not as constants
        # to hand to log/conj or negate as NumPy values.
        def public(*args, **kwargs):
            if _any_traced(*args, **kwargs):
                return bind(op, _numpy_operands(args), kwargs)
            return impl(*args, **kwargs)
    else:
        def public(*args, **kwargs):
            if _any_traced(*args, **kwargs):
                return bind(op, args, kwargs)
            return impl(*args, **kwargs)

    public.__name__ = getattr(impl, "__name__", op.name)
    public.__qualname__ = getattr(impl, "__qualname__", op.name)
    public.__doc__ = impl.__doc__
    public.__module__ = "arraycore"
    public.__wrapped__ = impl
    if type(impl) is _FastFunction and impl.kind in ("unary", "binary"):
        # An elementwise function with a native fast path (bind_fast_calls.cpp): the same
        # path in front of `public`.  It only takes plain arrays (no instance dict, so no tape
        # state; tracers are not Arrays) and weak Python scalars, for which `public` would
        # call `impl` and compute the same thing; every other call goes to `public`.
        # Behind it, the native tape (Note [The native tape], bind_autodiff.cpp): the calls
        # on arrays with tape state that it can record natively (ops with a native
        # derivative program, rules/elementwise.py NATIVE); every other call goes to
        # `public`.
        taped = _native.taped_function(op, impl.kernel, impl.mask, public)
        fast = _native.fast_function(impl.kind, impl.kernel, impl.mask, taped, wrapped=impl)
        fast.__module__ = "arraycore"
        return fast
    if type(impl) is _FastFunction and impl.kind in _PLAIN_ARRAY_KINDS:
        # reshape's view, concat/stack/take/expand_dims of plain arrays natively
        # (bind_fast_calls.cpp), `public` for the rest
        fast = _native.fast_function(impl.kind, None, 0, public, wrapped=impl)
        fast.__module__ = "arraycore"
        return fast
    return public


class Interpreter:
    """A transform level.  Subclasses implement `process(op, args, kwargs)`."""

    kind = "?"

    def __init__(self):
        self.level = new_level()
        self.active = False
        self.position = None

    def __enter__(self):
        self.position = len(STATE.stack)
        STATE.stack.append(self)
        self.active = True
        return self

    def __exit__(self, *exc):
        self.active = False
        popped = STATE.stack.pop()
        assert popped is self, "transform levels exited out of order"

    def unwrap_dead(self, v):
        raise RuntimeError(
            f"a value traced by {self.kind} (level {self.level}) escaped its transform and was "
            "used after it returned; return it from the transformed function instead")

    def owns(self, v):
        return isinstance(v, Tracer) and v._interp is self


__all__ = ["bind", "make_public", "Interpreter", "find_interpreter"]
