"""L3: wires autodiff into the namespace and the array class (called by arraycore/__init__).

- every op-table entry's namespace function becomes `make_public(op, impl)` (dispatch.py);
- the rule modules fill each entry's jvp/vjp/batch (rules/);
- the Array class gets the tape's attributes and methods, and in-place writes learn about
  recorded arrays and tracers (inplace.py);
- creation functions accept tracers (`zeros_like(t)` is a plain array of t's per-example
  shape) and tag arrays created inside a transform (Note in inplace.py).
"""

from __future__ import annotations

import functools

from .._core import indexing as _indexing
from .._core.array_methods import _in_place_operand
from .._core.op_table import OPS, home_module
from ..native import _native
from . import batching, dispatch, graph, inplace, jvp, tape, tracer, versions
from .dispatch import make_public
from .state import STATE
from .tracer import Tracer

Array = _native.Array
_any_traced = _native.any_traced


def _set_ns(ns):
    from .rules import base as rbase
    for mod in (tracer, graph, tape, jvp, batching, rbase):
        mod._ns = ns
    rbase.xp = ns
    dispatch._tape = tape


def install_namespace(ns):
    """Before array_methods.install: the operators bind the dispatching functions."""
    _set_ns(ns)
    from .rules import install_all
    for name, op in OPS.items():
        if op.family == "array_method":
            continue
        home = home_module(ns, op)
        impl = getattr(home, name, None)
        if impl is None:
            continue
        op.impl = impl
        op.public = make_public(op, impl)
        if op.namespace:  # pickled by reference as arraycore.<namespace>.<name>
            op.public.__module__ = home.__name__
        setattr(home, name, op.public)
    _install_array_method_ops(ns)
    install_all(ns)
    _install_creation(ns)
    _native._set_tracer_type(Tracer)


def _setitem_out_of_place(x, key, value):
    out = _native.copy(x)
    _ORIG_SETITEM(out, key, value)
    return out


_ORIG_SETITEM = None


def _install_array_method_ops(ns):
    g = OPS["getitem"]
    g.impl = _indexing.getitem
    g.public = make_public(g, _indexing.getitem)
    g.extra["basic_view"] = lambda args: _indexing._is_basic(args[1])
    s = OPS["setitem"]
    s.impl = _setitem_out_of_place
    s.public = make_public(s, _setitem_out_of_place)
    ns._getitem_dispatch = g.public

    def setitem_dispatch(t, key, value):
        t._assign(s.public(t, key, value))
    ns._setitem_dispatch = setitem_dispatch


def install_array_methods(ns):
    """After array_methods.install: wraps indexing and in-place operators, adds the tape."""
    global _ORIG_SETITEM
    A = Array
    A._ad = None
    A._promoted = None
    A._born = None
    _ORIG_SETITEM = A.__setitem__
    # basic keys, one integer array or list and leading masks on plain arrays are indexed
    # natively (bind_fast_getitem.cpp, bind_fast_advanced.cpp); the rest by the dispatcher
    _native.install_fast_getitem(A, OPS["getitem"].public)
    setitem_op = OPS["setitem"]
    orig_setitem = A.__setitem__

    def __setitem__(self, key, value):
        if _any_traced(self, key, value):
            inplace.write(self, lambda cur: setitem_op.public(cur, key, value), "__setitem__",
                          (key, value))
            return
        versions.bump(self)
        orig_setitem(self, key, value)

    # basic keys and leading masks with a scalar or same-dtype value on plain arrays take the
    # native write (bind_fast_setitem.cpp), which bumps the version counter as above
    _native.install_fast_setitem(A, __setitem__, versions._VERSIONS)

    for dunder, fname in [("iadd", "add"), ("isub", "subtract"), ("imul", "multiply"),
                          ("itruediv", "divide"), ("ifloordiv", "floor_divide"),
                          ("imod", "remainder"), ("ipow", "pow"), ("iand", "bitwise_and"),
                          ("ior", "bitwise_or"), ("ixor", "bitwise_xor"),
                          ("ilshift", "bitwise_left_shift"), ("irshift", "bitwise_right_shift"),
                          ("imatmul", "matmul")]:
        orig = getattr(A, f"__{dunder}__", None)
        if orig is None:
            continue
        setattr(A, f"__{dunder}__", _inplace_method(ns, orig, fname))

    A.requires_grad = property(tape.get_requires_grad, tape.set_requires_grad,
                               doc="Whether the tape records operations on this array.")
    A.grad = property(tape.get_grad, tape.set_grad,
                      doc="The gradient accumulated by backward() (None until then).")
    A.grad_fn = property(tape.grad_fn, doc="The node that produced this array, or None.")
    A.is_leaf = property(tape.is_leaf, doc="True unless the array was produced by a "
                                           "recorded operation.")
    A.retains_grad = property(tape.retains_grad)
    A.requires_grad_ = tape.requires_grad_
    A.retain_grad = tape.retain_grad
    A.register_hook = tape.register_hook
    A.detach = tape.detach
    A.detach_ = tape.detach_
    A.backward = tape.backward
    A._version = property(versions.version)
    A.clone = lambda self: ns.positive(self) if self.dtype.kind in "fc" else _native.copy(self)
    for T in (jvp.JVPTracer,):
        pass
    _install_tracer_tape_methods()


def _inplace_method(ns, orig, fname):
    who = fname

    def method(self, other):
        if _any_traced(self, other):
            if not (type(other) in (bool, int, float, complex) or
                    isinstance(other, (Array, Tracer))):
                # A NumPy scalar counts by its value, a NumPy array as an array, as in the
                # untraced in-place operators (array_methods.py _in_place_operand).
                other = _in_place_operand(other)
                if other is None:
                    return NotImplemented
            f = getattr(ns, fname)
            inplace.write(self, lambda cur: f(cur, other), who, (other,))
            return self
        versions.bump(self)
        return orig(self, other)

    method.__name__ = orig.__name__
    return method


def _install_tracer_tape_methods():
    T = Tracer
    T.requires_grad = property(tape.get_requires_grad, tape.set_requires_grad)
    T.grad = property(tape.get_grad, tape.set_grad)
    T.grad_fn = property(tape.grad_fn)
    T.is_leaf = property(tape.is_leaf)
    T.requires_grad_ = tape.requires_grad_
    T.retain_grad = tape.retain_grad
    T.register_hook = tape.register_hook
    T.detach = tape.detach
    T.backward = tape.backward


# --- creation functions -------------------------------------------------------------------

_LIKE = ("empty_like", "zeros_like", "ones_like", "full_like")
_FRESH = ("empty", "zeros", "ones", "full", "arange", "linspace", "eye")


def _tag(out):
    """Arrays created while a transform is active remember its level (see inplace.py)."""
    if STATE.stack and type(out) is Array:
        out._born = STATE.stack[-1].level
    return out


def _install_creation(ns):
    for name in _LIKE:
        f = getattr(ns, name)
        setattr(ns, name, _guarded(f, _like_wrapper(f)))
    for name in _FRESH:
        f = getattr(ns, name)
        setattr(ns, name, _guarded(f, _fresh_wrapper(f)))
    # asarray of a nested list of Python scalars runs natively outside transforms
    # (bind_fast_calls.cpp, kind 'asarray'); every other call takes the wrapper
    wrapper = _asarray_wrapper(ns, ns.asarray)
    ns.asarray = _native.fast_function("asarray", None, 0, wrapper, wrapped=wrapper, guard=STATE)
    ns.asarray.__module__ = "arraycore"
    for name in ("result_type", "can_cast"):
        setattr(ns, name, _dtype_arg_wrapper(getattr(ns, name)))
    for name in ("finfo", "iinfo"):
        setattr(ns, name, _dtype_arg_wrapper(getattr(ns, name)))


def _guarded(f, wrapper):
    """`wrapper` behind f's native fast path (bind_fast_calls.cpp) when f has one: with no
    transform active (the guard, STATE, has an empty stack), a plain call (plain array for
    the *_like functions) runs natively end to end, as f itself would; inside a transform,
    and for every call the fast path does not take, `wrapper` runs (and tags the result)."""
    if type(f) is not _native.FastFunction or f.kind != f.__name__:
        return wrapper
    fast = _native.fast_function(f.kind, None, 0, wrapper, wrapped=f.__wrapped__, guard=STATE)
    fast.__module__ = "arraycore"  # pickled by reference as arraycore.<name>
    return fast


def _like_wrapper(f):
    @functools.wraps(f)
    def like(x, /, *args, dtype=None, device=None, **kw):
        if isinstance(x, Tracer) or (type(x) is Array and x._promoted is not None):
            shape = x.shape
            d = x.dtype if dtype is None else dtype
            base = {"empty_like": "empty", "zeros_like": "zeros", "ones_like": "ones",
                    "full_like": "full"}[f.__name__]
            from .. import array_api as _api
            g = getattr(_api, base)
            return _tag(g(shape, *args, dtype=d, device=device, **kw))
        out = f(x, *args, dtype=dtype, device=device, **kw)
        if type(out) is Array and out._ad is not None:  # never inherits tape state
            out = out._view(out.shape, out._strides, 0)
        return _tag(out) if STATE.stack else out
    return like


def _fresh_wrapper(f):
    @functools.wraps(f)
    def fresh(*args, **kw):
        out = f(*args, **kw)
        return _tag(out) if STATE.stack else out
    return fresh


def _asarray_wrapper(ns, f):
    @functools.wraps(f)
    def asarray(obj, /, *, dtype=None, device=None, copy=None):
        if isinstance(obj, Tracer) or (type(obj) is Array and obj._ad is not None):
            out = obj
            if dtype is not None and dtype != obj.dtype:
                out = ns.astype(obj, dtype)
            elif copy:
                out = ns.astype(obj, obj.dtype, copy=True)
            return out
        if type(obj) in (list, tuple) and any(isinstance(v, Tracer) or
                                              (type(v) is Array and v._ad is not None)
                                              for v in obj):
            items = [v if isinstance(v, (Array, Tracer)) else f(v, dtype=dtype) for v in obj]
            out = ns.stack(items)
            return out if dtype is None else ns.astype(out, dtype)
        out = f(obj, dtype=dtype, device=device, copy=copy)
        return _tag(out) if STATE.stack else out
    return asarray


def _dtype_arg_wrapper(f):
    @functools.wraps(f)
    def g(*args):
        return f(*[a.dtype if isinstance(a, Tracer) else a for a in args])
    return g


__all__ = ["install_namespace", "install_array_methods"]
