"""L3: `autograd.Function` (torch.autograd.Function semantics) on the shared autodiff core.

A subclass defines `forward` (new style: `forward(*args)` plus `setup_context(ctx, inputs,
output)`; old style: `forward(ctx, *args)`), `backward(ctx, *grad_outputs)` and optionally
`jvp(ctx, *tangents)` and `vmap(info, in_dims, *args)`.  At class definition it gets an
op-table-shaped entry (`cls._op`, an `OpDef` of family "function", listed in `REGISTRY` for
`arraycore.autodiff.coverage()`), and `Fn.apply(*args)` is its namespace function.

Note [How a Function call is processed]: `apply` does what `bind` (dispatch.py) does for a
table op, except that the context must be computed *at each level*: a level's backward reads
the values the level sees (its primals), so that an outer level differentiates or batches
that backward (double backward, `vmap(grad)`, `grad(grad)`).  So:

- with plain arrays, `forward` runs with the tape off, then `setup_context` (bottom ctx);
- a reverse-mode level (the tape, or a `func.grad`/`vjp`/`jacrev` level) unwraps its
  tracers, applies the Function one level down, then runs `setup_context` on the unwrapped
  inputs and outputs and records a `FunctionNode` whose backward is the user's `backward`;
- a forward-mode level (`func.jvp`, `jacfwd`, `forward_ad`) does the same and calls the
  user's `jvp`, or, without one, the jvp DERIVED from `backward`: `backward` is linear in
  the output gradients, g -> B(g) = J^H g (the real adjoint, PyTorch's complex convention),
  so J t is the vjp of B applied to t, computed by `func.vjp` of B (any point g; zeros);
- a `vmap` level calls the user's `vmap` staticmethod, or, without one, applies a GENERATED
  Function one level down, `Vmapped<Name>`, whose forward / setup_context / backward / jvp
  are the user's ones run under a fresh `vmap` level on the batched values (the saved
  arrays keep their batch axes between forward and backward).  Outer levels then see a
  Function with a custom backward, not the forward's primitives.

Old-style Functions (`forward(ctx, ...)`) get their context from the forward itself, so they
work wherever that forward runs on the values a level sees: with plain arrays under the tape
and under one transform level; deeper nesting raises (as torch.func requires setup_context).
"""

from __future__ import annotations

import functools
import inspect
import os
import traceback
import weakref
from collections import namedtuple

from .._core.op_table import OpDef
from ..native import _native
from . import dispatch, versions
from . import slots as _slots
from .batching import BatchInterpreter, BatchTracer
from .graph import AutogradMeta, Node, fit_cotangent
from .jvp import JVPInterpreter, JVPTracer
from .reverse import GradInterpreter, GradTracer
from .state import STATE, level_records
from .tracer import Tracer

Array = _native.Array
_ARRAYS = (Array, Tracer)
_any_traced = _native.any_traced

# name -> op entry of every user-defined Function (weak: a local Function class goes away
# with its class).  coverage.py lists them next to the op table.
REGISTRY: "weakref.WeakValueDictionary[str, OpDef]" = weakref.WeakValueDictionary()

VmapInfo = namedtuple("VmapInfo", ["batch_size", "randomness"])


def _xp():
    import arraycore
    return arraycore


def _is_array(v):
    return isinstance(v, _ARRAYS)


def _is_inexact(v):
    return isinstance(v, _ARRAYS) and v.dtype.kind in "fc"


class _tape_off:
    """Tape recording off (transform levels keep recording), as bind runs an op's impl."""

    def __enter__(self):
        self.prev = STATE.grad_enabled
        STATE.grad_enabled = False

    def __exit__(self, *exc):
        STATE.grad_enabled = self.prev


# --- the context --------------------------------------------------------------------------

class _OutRef:
    """A saved output of a tape node, kept by index (saving the output itself would make a
    cycle node -> ctx -> output -> its tape meta -> node)."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


_FREED_MSG = ("Trying to backward through the graph a second time (or directly access saved "
              "tensors after they have already been freed). Saved intermediate values of the "
              "graph are freed when you call .backward() or autograd.grad(). Specify "
              "retain_graph=True if you need to backward through the graph a second time or "
              "if you need to access saved tensors after calling backward.")


class FunctionCtx:
    """The `ctx` passed to forward (old style), setup_context, backward and jvp.  Any
    attribute may be set on it; the methods are torch's."""

    def __init__(self):
        self._ac_saved = ()
        self._ac_saved_fwd = None
        self._ac_versions = ()
        self._ac_node = None  # the FunctionNode resolving saved outputs during backward
        self._ac_freed = False
        self._ac_in_jvp = False
        self._ac_non_diff = ()
        self.materialize_grads = True
        self.needs_input_grad = ()

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not _is_array(t):
                raise TypeError(f"save_for_backward can only save arrays (or None), got "
                                f"{type(t).__name__}")
        self._ac_saved = tensors

    def save_for_forward(self, *tensors):
        for t in tensors:
            if t is not None and not _is_array(t):
                raise TypeError(f"save_for_forward can only save arrays (or None), got "
                                f"{type(t).__name__}")
        self._ac_saved_fwd = tensors

    @property
    def saved_tensors(self):
        if self._ac_freed:
            raise RuntimeError(_FREED_MSG)
        # In jvp, torch gives the arrays of save_for_forward; arraycore falls back to those
        # of save_for_backward when save_for_forward was not called.
        items = self._ac_saved_fwd if (self._ac_in_jvp and self._ac_saved_fwd is not None) \
            else self._ac_saved
        node = self._ac_node
        return tuple(node.saved_output(v.index) if type(v) is _OutRef else v for v in items)

    saved_variables = saved_tensors

    def mark_non_differentiable(self, *args):
        self._ac_non_diff = tuple(self._ac_non_diff) + tuple(args)

    def set_materialize_grads(self, value: bool):
        self.materialize_grads = bool(value)

    def mark_dirty(self, *args):
        raise NotImplementedError(
            "ctx.mark_dirty: in-place forward functions are not supported by arraycore's "
            "autograd.Function; return a new array instead")

    def mark_shared_storage(self, *pairs):
        pass  # deprecated in torch, a no-op

    # internal
    def _is_non_diff(self, o):
        return any(o is m for m in self._ac_non_diff)

    def _snapshot_versions(self):
        self._ac_versions = tuple((a, versions.version(a)) for a in self._saved_arrays())

    def _saved_arrays(self):
        node = self._ac_node
        for v in self._ac_saved:
            if type(v) is _OutRef:
                if node is not None:
                    v = node.out_views[v.index]
            if type(v) is Array:
                yield v

    def _free(self):
        self._ac_saved = ()
        self._ac_saved_fwd = None
        self._ac_versions = ()
        self._ac_freed = True


# --- the Function base class --------------------------------------------------------------

def _overrides(cls, name):
    mine = getattr(cls, name, None)
    base = getattr(Function, name, None)
    return mine is not None and mine is not base


class Function:
    """Base class of user-defined differentiable functions (torch.autograd.Function).

    >>> import arraycore as ac
    >>> class Exp(ac.autograd.Function):
    ...     @staticmethod
    ...     def forward(x):
    ...         return ac.exp(x)
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         ctx.save_for_backward(output)
    ...     @staticmethod
    ...     def backward(ctx, g):
    ...         y, = ctx.saved_tensors
    ...         return g * y
    >>> Exp.apply(ac.asarray([0.0, 1.0]))

    It works under the tape, `func.grad`/`vjp`/`jacrev`/`jvp`/`jacfwd`/`vmap`/`hessian` and
    `forward_ad` in any nesting; without a `jvp` staticmethod the forward derivative is
    derived from `backward`, without a `vmap` staticmethod the batching rule is generated.
    """

    generate_vmap_rule = False  # accepted for torch compatibility: arraycore always can

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._new_style = _overrides(cls, "setup_context")
        cls._has_jvp = _overrides(cls, "jvp")
        cls._has_vmap = _overrides(cls, "vmap")
        cls._has_backward = _overrides(cls, "backward") or _overrides(cls, "vjp")
        cls._signature = None
        cls._vmapped_cache = {}
        cls._op = _make_entry(cls)
        # The node class is named like torch's (type(y.grad_fn).__name__ == "FnBackward").
        cls._node_cls = type(f"{cls.__name__}Backward", (FunctionNode,), {"__slots__": ()})
        if not cls.__dict__.get("_derived", False):
            REGISTRY[f"{cls.__module__}.{cls.__qualname__}"] = cls._op

    def __init__(self, *args, **kwargs):
        import warnings
        warnings.warn(f"{type(self).__name__} should not be instantiated. Methods on "
                      "autograd functions are all static, so you should invoke them on the "
                      "class itself, e.g. Fn.apply(x)", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is not "
                           "supported. Please use new-style autograd function with static "
                           "forward method (Fn.apply(*args)).")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("vmap staticmethod not defined")

    @classmethod
    def apply(cls, *args, **kwargs):
        args, kwargs = _bind_args(cls, args, kwargs)
        if not _any_traced(*args, **kwargs):
            return _forward_plain(cls, args, kwargs)[0]
        return _apply(cls, args, kwargs)

    @classmethod
    def _backward(cls, ctx, *grads):
        if _overrides(cls, "backward"):
            return cls.backward(ctx, *grads)
        return cls.vjp(ctx, *grads)


def _bind_args(cls, args, kwargs):
    """Keyword arguments and defaults bound to forward's positional parameters (torch does
    this for new-style Functions), so setup_context sees every input."""
    sig = cls._signature
    if sig is None:
        try:
            sig = inspect.signature(cls.forward)
        except (TypeError, ValueError):
            sig = False
        if sig and not cls._new_style:
            params = list(sig.parameters.values())[1:]  # drop ctx
            sig = sig.replace(parameters=params)
        has_defaults = bool(sig) and any(p.default is not p.empty
                                         for p in sig.parameters.values())
        cls._signature = sig = (sig, has_defaults)
    sig, has_defaults = sig
    if not sig or not (kwargs or has_defaults):
        return args, kwargs
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    return tuple(bound.args), dict(bound.kwargs)


def once_differentiable(fn):
    """Decorator for `backward`: runs it with the tape off; differentiating its result again
    (double backward) raises."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with _tape_off():
            outputs = fn(ctx, *args)
        if not STATE.grad_enabled:
            return outputs
        from .tape import requires_grad
        if not any(requires_grad(a) for a in args if _is_array(a)):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs

        def fake(v):
            if not _is_inexact(v):
                return v
            from .graph import detach
            v = detach(v)
            v = v._view(v.shape, v._strides, 0) if type(v) is Array else v._fresh()
            return v.requires_grad_()

        res = _DelayedError.apply(*[fake(v) for v in outs])
        res = res if isinstance(res, tuple) else (res,)
        return res[0] if single else res

    return wrapper


# --- processing one call (Note [How a Function call is processed]) -----------------------

def _split(out):
    if isinstance(out, _ARRAYS):
        return [out], False
    if isinstance(out, (tuple, list)):
        return list(out), True
    return [out], False


def _rebuild(out, items, multi):
    if not multi:
        return items[0]
    if isinstance(out, tuple) and hasattr(type(out), "_fields"):
        return type(out)(*items)
    return type(out)(items)


def _fresh_alias(o, inputs):
    """A new object for an output that is one of the inputs, so it gets its own tape state."""
    for a in inputs:
        if o is a:
            return o._view(o.shape, o._strides, 0) if type(o) is Array else o._fresh()
    return o


def _forward_plain(F, args, kwargs):
    """forward (and setup_context) on plain arrays: (output, ctx at this level)."""
    ctx = FunctionCtx()
    if STATE.grad_enabled:
        from .tape import requires_grad
        ctx.needs_input_grad = tuple(_is_array(a) and requires_grad(a) for a in args)
    else:
        ctx.needs_input_grad = (False,) * len(args)
    with _tape_off():
        out = F.forward(*args, **kwargs) if F._new_style else F.forward(ctx, *args, **kwargs)
        outs, multi = _split(out)
        if any(isinstance(o, _ARRAYS) and any(o is a for a in args) for o in outs):
            out = _rebuild(out, [_fresh_alias(o, args) for o in outs], multi)
        if F._new_style:
            F.setup_context(ctx, args, out)
    return out, ctx


def _apply(F, args, kwargs):
    out, _ = _apply_ctx(F, args, kwargs)
    return out


def _apply_ctx(F, args, kwargs):
    """(output, ctx): ctx is the context computed on `args` themselves when the call ran on
    plain arrays and no tape node took it, else None (see _ctx_for)."""
    top, fix, tracked = dispatch._scan(args, kwargs)
    if fix:
        args, kwargs = _slots.map_leaves(dispatch._resolve, args, kwargs)
        top, _, tracked = dispatch._scan(args, kwargs)
    if top is None:
        out, ctx = _forward_plain(F, args, kwargs)
    elif isinstance(top, GradInterpreter):
        out, ctx = _process_grad(top, F, args, kwargs), None
    elif isinstance(top, JVPInterpreter):
        out, ctx = _process_jvp(top, F, args, kwargs), None
    elif isinstance(top, BatchInterpreter):
        out, ctx = _process_batch(top, F, args, kwargs), None
    else:
        raise NotImplementedError(f"autograd.Function {F.__name__}: no rule for transform "
                                  f"{top.kind!r}")
    if tracked is not None and STATE.grad_enabled:
        edges = []
        for slot, idx, v, m in tracked:
            if idx is None and type(slot) is int:
                n, nr = m.edge()
                edges.append((slot, None, n, nr, v.shape, v.dtype))
        if edges:
            ctx = _ctx_for(F, args, kwargs, out, ctx)
            out = _attach(F, ctx, args, out, edges, _set_tape_meta, tape=True)
            ctx = None
    return out, ctx


def _set_tape_meta(o, m):
    o._ad = m
    return o


_OLD_STYLE_MSG = (
    "autograd.Function {name}: an old-style Function (forward(ctx, *args)) computes its "
    "context in forward, so it can only be used where forward runs on the values a level "
    "sees (plain arrays under the tape, or one transform level). To use it with nested "
    "transforms (vmap, grad, jvp, jacrev, ...), define forward(*args) without ctx and a "
    "setup_context(ctx, inputs, output) staticmethod.")


def _ctx_for(F, args, kwargs, out, ctx):
    """The context for a level seeing `args` and `out` (Note at the top)."""
    if ctx is not None:
        return ctx
    if not F._new_style:
        raise RuntimeError(_OLD_STYLE_MSG.format(name=F.__name__))
    ctx = FunctionCtx()
    with _tape_off():
        F.setup_context(ctx, args, out)
    return ctx


def _unwrap_leaves(args, kwargs, pred, get):
    return _slots.map_leaves(lambda v: get(v) if pred(v) else v, args, kwargs)


def _process_grad(it, F, args, kwargs):
    def mine(v):
        return isinstance(v, GradTracer) and v._interp is it

    pargs, pkwargs = _unwrap_leaves(args, kwargs, mine, lambda v: v.primal)
    out, ctx = _apply_ctx(F, pargs, pkwargs)
    if not level_records(it.position):
        return out
    edges = []
    for i, v in enumerate(args):
        if mine(v) and v.meta is not None and v.meta.requires_grad:
            n, nr = v.meta.edge()
            edges.append((i, None, n, nr, v.primal.shape, v.primal.dtype))
    if not edges:
        return out
    ctx = _ctx_for(F, pargs, pkwargs, out, ctx)
    return _attach(F, ctx, pargs, out, edges, lambda o, m: GradTracer(it, o, m), tape=False)


def _attach(F, ctx, args, out, edges, set_meta, tape):
    """Records a FunctionNode for `out` and gives the differentiable outputs metas."""
    outs, multi = _split(out)
    ctx.needs_input_grad = tuple(any(e[0] == i for e in edges) for i in range(len(args)))
    node = F._node_cls(F, ctx, len(args), [_is_array(a) for a in args], outs, edges, tape)
    new = []
    for i, o in enumerate(outs):
        if _is_inexact(o) and not ctx._is_non_diff(o):
            o2 = _fresh_alias(o, args)
            m = AutogradMeta(True, node, i)
            node.diff_out[i] = True  # (not the meta itself: no node <-> meta cycle)
            o2 = set_meta(o2, m)
        else:
            o2 = o
        new.append(o2)
    if tape:
        # Saved outputs by index (no cycle through the outputs' metas), without tape state.
        def ref(v):
            if v is None or any(v is a for a in args):
                return v
            for i, o in enumerate(outs):
                if v is o:
                    return _OutRef(i)
            return v
        node.out_views = [_strip(o) for o in outs]
        ctx._ac_saved = tuple(ref(v) for v in ctx._ac_saved)
        ctx._ac_saved_fwd = None  # only jvp reads these, and a tape node never runs jvp
    ctx._ac_node = node
    ctx._snapshot_versions()
    ctx._ac_node = None
    return _rebuild(out, new, multi)


def _strip(o):
    if type(o) is Array:
        return o._view(o.shape, o._strides, 0) if o._ad is not None else o
    if isinstance(o, Tracer):
        return o._fresh() if getattr(o, "_ad", None) is not None else o
    return o


# --- the node -----------------------------------------------------------------------------

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # arraycore/


def _user_stack(limit=12):
    """The stack of the forward call without arraycore's own frames at its end (anomaly
    mode: where the Function was applied)."""
    frames = traceback.extract_stack(limit=limit + 20)
    while frames and _PKG_DIR and frames[-1].filename.startswith(_PKG_DIR):
        frames.pop()
    return traceback.format_list(frames[-limit:])


class FunctionNode(Node):
    """The backward node of one Function call at one level: runs the user's backward with
    the context of that level."""

    __slots__ = ("fn", "ctx", "n_inputs", "input_is_array", "out_info", "out_views",
                 "diff_out")

    def __init__(self, F, ctx, n_inputs, input_is_array, outs, edges, tape):
        self.op = F._op
        self.fn = F
        self.ctx = ctx
        self.n_inputs = n_inputs
        self.input_is_array = input_is_array
        self.out_info = [(tuple(o.shape), o.dtype) if _is_array(o) else None for o in outs]
        self.out_views = None
        self.args = self.kwargs = self.out = None
        self.edges = edges
        self.n_outputs = len(outs)
        self.multi = len(outs) > 1
        self.out_metas = None  # graph.link_output_meta: hooks / retain_grad of outputs
        self.diff_out = [False] * len(outs)  # which outputs got a meta (differentiable)
        self.saved = ()
        self.released = False
        self.pre_hooks = None
        self.tape = tape
        self.creation_trace = _user_stack() if STATE.anomaly else None

    def name(self):
        return f"{self.fn.__name__}Backward"

    def saved_output(self, i):
        """A saved output: with its tape state back while a graph is being built
        (create_graph=True), so double backward flows through it."""
        o = self.out_views[i]
        if self.diff_out[i] and STATE.grad_enabled:
            # A fresh meta on this node's output i (graph.Node._recorded_outputs does the
            # same): the node keeps no meta of its outputs (Note [No reference cycles]).
            o = _native.alias(o) if type(o) is Array else o._fresh()
            o._ad = AutogradMeta(True, self, i)
        return o

    def release(self):
        self.released = True
        self.ctx._free()
        self.out_views = None

    def apply(self, cts):
        name = self.name()
        if self.released:
            raise RuntimeError(
                f"{name}: trying to backward through the graph a second time (or to access "
                "saved values after they have already been freed). Saved values are freed "
                "when you call .backward() or autograd.grad(); pass retain_graph=True the "
                "first time if you need to backward through the graph again")
        ctx = self.ctx
        for arr, ver in ctx._ac_versions:
            now = versions.version(arr)
            if now != ver:
                raise RuntimeError(
                    f"one of the variables needed for gradient computation has been modified "
                    f"by an inplace operation: [{arr.dtype}{list(arr.shape)}], which is saved "
                    f"by {name}, is at version {now}; expected version {ver} instead. Hint: "
                    "enable anomaly detection (autograd.detect_anomaly()) to find the "
                    "operation that failed to compute its gradient")
        grads = _materialize(ctx, cts, self.out_info)
        ctx._ac_node = self
        try:
            res = self.fn._backward(ctx, *grads)
        finally:
            ctx._ac_node = None
        res = _normalize_grads(self.fn, res, self.n_inputs, self.input_is_array)
        result = []
        for slot, _, _, _, shape, dtype in self.edges:
            ct = res[slot]
            if ct is not None:
                ct = _fit_grad(name, slot, ct, shape, dtype)
            result.append(ct)
        return result


def _materialize(ctx, cts, out_info):
    """Output gradients as backward receives them: zeros for outputs that got none
    (unless ctx.set_materialize_grads(False)); None for non-array outputs."""
    xp = _xp()
    grads = []
    for c, info in zip(cts, out_info):
        if c is None and info is not None and ctx.materialize_grads:
            c = xp.zeros(info[0], dtype=info[1])
        grads.append(c)
    return grads


def _normalize_grads(F, res, n_inputs, input_is_array):
    name = f"{F.__name__}Backward"
    if not isinstance(res, tuple):
        res = (res,)
    if len(res) != n_inputs:
        if len(res) > n_inputs and all(r is None for r in res[n_inputs:]):
            res = res[:n_inputs]
        else:
            raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                               f"(expected {n_inputs}, got {len(res)})")
    for i, (r, is_arr) in enumerate(zip(res, input_is_array)):
        if r is not None and not is_arr:
            raise RuntimeError(f"function {name} returned a gradient different than None at "
                               f"position {i + 1}, but the corresponding forward input was "
                               "not an array")
    return res


def _fit_grad(name, slot, ct, shape, dtype):
    if not _is_array(ct):
        raise TypeError(f"function {name} returned a gradient of type {type(ct).__name__} at "
                        f"index {slot}; expected an array or None")
    cs = tuple(ct.shape)
    if cs != tuple(shape):
        lead = len(cs) - len(shape)
        ok = lead >= 0 and all(s == c or s == 1 for s, c in zip(shape, cs[lead:]))
        if not ok:
            raise RuntimeError(f"Function {name} returned an invalid gradient at index {slot} "
                               f"- got {list(cs)} but expected shape compatible with "
                               f"{list(shape)}")
    return fit_cotangent(ct, tuple(shape), dtype)


# --- forward mode -------------------------------------------------------------------------

def _process_jvp(it, F, args, kwargs):
    def mine(v):
        return isinstance(v, JVPTracer) and v._interp is it

    pargs, pkwargs = _unwrap_leaves(args, kwargs, mine, lambda v: v.primal)
    tangents = [a.tangent if mine(a) else None for a in args]
    out, ctx = _apply_ctx(F, pargs, pkwargs)
    if all(t is None for t in tangents):
        return out
    ctx = _ctx_for(F, pargs, pkwargs, out, ctx)
    t_out = jvp_of(F, ctx, pargs, out, tangents)
    outs, multi = _split(out)
    new = []
    for o, t in zip(outs, t_out):
        if t is not None and _is_inexact(o) and not ctx._is_non_diff(o):
            o = JVPTracer(it, o, t)
        new.append(o)
    return _rebuild(out, new, multi)


def jvp_of(F, ctx, args, out, tangents):
    """Output tangents (a list, None for zero) of F at a level seeing `args` and `out`, for
    input tangents `tangents` (one per argument, None for zero)."""
    outs, _ = _split(out)
    if F._has_jvp:
        xp = _xp()
        tin = [t if t is not None else (xp.zeros_like(a) if _is_array(a) else None)
               for a, t in zip(args, tangents)]
        ctx._ac_in_jvp = True
        try:
            res = F.jvp(ctx, *tin)
        finally:
            ctx._ac_in_jvp = False
        res = list(res) if isinstance(res, (tuple, list)) else [res]
        if len(res) != len(outs):
            raise RuntimeError(f"{F.__name__}.jvp returned {len(res)} tangents for "
                               f"{len(outs)} outputs")
        for o, t in zip(outs, res):
            if t is not None and _is_array(o) and tuple(t.shape) != tuple(o.shape):
                raise RuntimeError(f"{F.__name__}.jvp returned a tangent of shape "
                                   f"{tuple(t.shape)} for an output of shape "
                                   f"{tuple(o.shape)}")
        return res
    if not F._has_backward:
        raise NotImplementedError(f"autograd.Function {F.__name__} defines neither jvp nor "
                                  "backward, so it has no forward-mode derivative")
    return _derived_jvp(F, ctx, args, outs, tangents)


def _derived_jvp(F, ctx, args, outs, tangents):
    """J t as the vjp of the (linear) backward g -> B(g) = J^H g (Note at the top)."""
    from . import func_api
    xp = _xp()
    diff = [i for i, o in enumerate(outs) if _is_inexact(o) and not ctx._is_non_diff(o)]
    res = [None] * len(outs)
    if not diff:
        return res
    t_idx = [i for i, t in enumerate(tangents) if t is not None]
    out_info = [(tuple(o.shape), o.dtype) if _is_array(o) else None for o in outs]
    is_arr = [_is_array(a) for a in args]
    name = f"{F.__name__}Backward"

    def B(*g):
        cts = [None] * len(outs)
        for k, i in enumerate(diff):
            cts[i] = g[k]
        grads = _materialize(ctx, cts, out_info)
        r = _normalize_grads(F, F._backward(ctx, *grads), len(args), is_arr)
        return tuple(xp.zeros_like(args[i]) if r[i] is None else
                     _fit_grad(name, i, r[i], tuple(args[i].shape), args[i].dtype)
                     for i in t_idx)

    prev = ctx.needs_input_grad
    ctx.needs_input_grad = tuple(t is not None for t in tangents)
    try:
        g0 = tuple(xp.zeros_like(outs[i]) for i in diff)
        _, vjp_fn = func_api.vjp(B, *g0)
        cts = vjp_fn(tuple(tangents[i] for i in t_idx))
    finally:
        ctx.needs_input_grad = prev
    for k, i in enumerate(diff):
        res[i] = cts[k]
    return res


# --- batching -----------------------------------------------------------------------------

def _process_batch(it, F, args, kwargs):
    def mine(v):
        return isinstance(v, BatchTracer) and v._interp is it

    for k, v in (kwargs or {}).items():
        if mine(v) or (type(v) in (list, tuple) and any(mine(b) for b in v)):
            raise NotImplementedError(f"vmap of autograd.Function {F.__name__}: pass batched "
                                      "arrays as positional arguments")
    vargs, in_dims = [], []
    for a in args:
        if mine(a):
            vargs.append(a.value)
            in_dims.append(a.bdim)
        else:
            if type(a) in (list, tuple) and any(mine(b) for b in a):
                raise NotImplementedError(f"vmap of autograd.Function {F.__name__}: batched "
                                          "arrays inside a list argument are not supported; "
                                          "pass them as separate arguments")
            vargs.append(a)
            in_dims.append(None)
    out, out_dims = batch_rule(F, tuple(vargs), tuple(in_dims), it.size, it.randomness, kwargs)
    from .batching import wrap
    return wrap(it, out, out_dims)


def batch_rule(F, vargs, in_dims, size, randomness, kwargs):
    """(output, out_dims) of F on batched values: the user's vmap staticmethod, or the
    generated Vmapped Function applied one level down."""
    if F._has_vmap:
        res = F.vmap(VmapInfo(size, randomness), tuple(in_dims), *vargs, **kwargs)
        if not (isinstance(res, tuple) and len(res) == 2):
            raise RuntimeError(f"{F.__name__}.vmap: expected the vmap staticmethod to return "
                               "a tuple (output, out_dims)")
        return res
    G = _vmapped(F, tuple(in_dims), size, randomness)
    out = _apply(G, tuple(vargs), kwargs)
    outs, multi = _split(out)
    dims = [0 if _is_array(o) else None for o in outs]
    return out, (dims if multi else dims[0])


def _vmapped(F, in_dims, size, randomness):
    key = (in_dims, size, randomness)
    G = F._vmapped_cache.get(key)
    if G is None:
        G = F._vmapped_cache[key] = _make_vmapped(F, in_dims, size, randomness)
    return G


def _batch_level(size, randomness):
    return BatchInterpreter(size, randomness)


def _wrap_in(it, vals, dims):
    return [BatchTracer(it, v, d) if (d is not None and _is_array(v)) else v
            for v, d in zip(vals, dims)]


def _take_out(it, v):
    """(value, bdim) of a value computed under the fresh level `it`."""
    if isinstance(v, BatchTracer) and v._interp is it:
        return v.value, v.bdim
    return v, None


def _to_front_batched(it, v, size):
    """A per-example output as the batched array (batch axis first)."""
    if not _is_array(v):
        return v
    val, d = _take_out(it, v)
    xp = _xp()
    if d is None:
        return xp.broadcast_to(xp.expand_dims(val, axis=0), (size,) + tuple(val.shape))
    return val if d == 0 else xp.moveaxis(val, d, 0)


def _tree_map_arrays(f, v):
    if isinstance(v, _ARRAYS):
        return f(v)
    if type(v) in (list, tuple):
        return type(v)(_tree_map_arrays(f, b) for b in v)
    if type(v) is dict:
        return {k: _tree_map_arrays(f, b) for k, b in v.items()}
    return v


# ctx attributes that are not the user's (nor a nested Vmapped ctx's `_ac_vmap*`, which
# are carried over like user attributes so vmap of vmap works).
_CTX_OWN = frozenset(("materialize_grads", "needs_input_grad", "_ac_saved", "_ac_saved_fwd",
                      "_ac_versions", "_ac_node", "_ac_freed", "_ac_in_jvp", "_ac_non_diff"))


def _transfer_ctx(it, ctx_F, ctx_G, touts, outs):
    """ctx_G gets ctx_F's saved arrays and attributes, taken out of the fresh level `it`:
    values with their batch axes (kept in ctx_G._ac_vmap) so backward can re-batch them."""
    def take(v):
        if v is None:
            return None, None
        for o_t, o in zip(touts, outs):
            if v is o_t:  # a saved output: the batched output itself (batch axis 0)
                return o, 0
        return _take_out(it, v)

    saved = [take(v) for v in ctx_F._ac_saved]
    ctx_G.save_for_backward(*[v for v, _ in saved])
    fwd = None
    if ctx_F._ac_saved_fwd is not None:
        fwd = [take(v) for v in ctx_F._ac_saved_fwd]
        ctx_G.save_for_forward(*[v for v, _ in fwd])
    attrs = {}
    for k, v in vars(ctx_F).items():
        if k in _CTX_OWN:
            continue
        dims = []

        def grab(a):
            val, d = take(a)
            dims.append(d)
            return val
        attrs[k] = (_tree_map_arrays(grab, v), dims)
    ctx_G._ac_vmap = ([d for _, d in saved], None if fwd is None else [d for _, d in fwd],
                      attrs)
    for m in ctx_F._ac_non_diff:
        for o_t, o in zip(touts, outs):
            if m is o_t:
                ctx_G.mark_non_differentiable(o)
    ctx_G.materialize_grads = ctx_F.materialize_grads


def _rebuild_ctx(it, ctx_G):
    """A ctx for the user's functions under the fresh level `it`, from ctx_G."""
    if ctx_G._ac_freed:
        raise RuntimeError(_FREED_MSG)
    saved_dims, fwd_dims, attrs = ctx_G._ac_vmap
    ctx = FunctionCtx()
    node = ctx_G._ac_node  # set while G's tape node runs (saved outputs are kept by index)
    resolved = [node.saved_output(v.index) if type(v) is _OutRef else v
                for v in ctx_G._ac_saved]
    ctx._ac_saved = tuple(_wrap_in(it, resolved, saved_dims))
    if fwd_dims is not None and ctx_G._ac_saved_fwd is not None:
        ctx._ac_saved_fwd = tuple(_wrap_in(it, ctx_G._ac_saved_fwd, fwd_dims))
    for k, (v, dims) in attrs.items():
        ds = iter(dims)

        def put(a):
            d = next(ds)
            return BatchTracer(it, a, d) if d is not None else a
        setattr(ctx, k, _tree_map_arrays(put, v))
    ctx.needs_input_grad = ctx_G.needs_input_grad
    ctx.materialize_grads = ctx_G.materialize_grads
    return ctx


def _make_vmapped(F, in_dims, size, randomness):
    """The Function `Vmapped<F>`: F mapped over `in_dims` (outputs batched on axis 0)."""
    def per_example(vargs):
        # (shape, dtype) of each array input as one example sees it
        return [None if not _is_array(v) else
                (tuple(v.shape), v.dtype) if d is None else
                (tuple(v.shape[:d]) + tuple(v.shape[d + 1:]), v.dtype)
                for v, d in zip(vargs, in_dims)]

    def run_forward(vargs, kwargs, ctx_G=None):
        it = _batch_level(size, randomness)
        with it:
            targs = _wrap_in(it, vargs, in_dims)
            if ctx_G is None:
                out = F.forward(*targs, **kwargs)
                ctx_F = None
            else:
                ctx_F = FunctionCtx()
                ctx_F.needs_input_grad = ctx_G.needs_input_grad
                out = F.forward(ctx_F, *targs, **kwargs)
        touts, multi = _split(out)
        outs = [_to_front_batched(it, o, size) for o in touts]
        if ctx_F is not None:
            _transfer_ctx(it, ctx_F, ctx_G, touts, outs)
            ctx_G._ac_vmap_in = per_example(vargs)
        return _rebuild(out, outs, multi)

    def forward_new(*vargs, **kwargs):
        return run_forward(vargs, kwargs)

    def forward_old(ctx, *vargs, **kwargs):
        return run_forward(vargs, kwargs, ctx)

    def setup_context(ctx, inputs, output):
        outs, multi = _split(output)
        it = _batch_level(size, randomness)
        with it:
            tin = _wrap_in(it, inputs, in_dims)
            touts = [BatchTracer(it, o, 0) if _is_array(o) else o for o in outs]
            ctx_F = FunctionCtx()
            ctx_F.needs_input_grad = ctx.needs_input_grad
            F.setup_context(ctx_F, tuple(tin), _rebuild(output, touts, multi))
        _transfer_ctx(it, ctx_F, ctx, touts, outs)
        ctx._ac_vmap_in = per_example(inputs)

    def backward(ctx, *grads):
        xp = _xp()
        it = _batch_level(size, randomness)
        in_info = ctx._ac_vmap_in
        name = f"{F.__name__}Backward"
        with it:
            ctx_F = _rebuild_ctx(it, ctx)
            gs = [BatchTracer(it, g, 0) if _is_array(g) else g for g in grads]
            res = F._backward(ctx_F, *gs)
            res = _normalize_grads(F, res, len(in_dims),
                                   [True] * len(in_dims))  # checked again by G's node
            fitted = []
            for j, r in enumerate(res):
                if r is not None and in_info[j] is not None:
                    r = _fit_grad(name, j, r, *in_info[j])
                fitted.append(r)
        out = []
        for j, r in enumerate(fitted):
            if r is None:
                out.append(None)
                continue
            val, d = _take_out(it, r)
            dj = in_dims[j]
            if dj is None:
                out.append(val * size if d is None else xp.sum(val, axis=d))
            elif d is None:
                shp = tuple(val.shape)
                full = shp[:dj] + (size,) + shp[dj:]
                out.append(xp.broadcast_to(xp.expand_dims(val, axis=dj), full))
            else:
                out.append(val if d == dj else xp.moveaxis(val, d, dj))
        return tuple(out)

    def jvp(ctx, *tangents):
        it = _batch_level(size, randomness)
        with it:
            ctx_F = _rebuild_ctx(it, ctx)
            ts = _wrap_in(it, tangents, in_dims)
            ctx_F._ac_in_jvp = True
            res = F.jvp(ctx_F, *ts)
        single = not isinstance(res, (tuple, list))
        items = [res] if single else list(res)
        items = [None if t is None else _to_front_batched(it, t, size) for t in items]
        return items[0] if single else tuple(items)

    ns = {"_derived": True, "_base": F, "backward": staticmethod(backward),
          "__module__": F.__module__}
    if F._new_style:
        ns["forward"] = staticmethod(forward_new)
        ns["setup_context"] = staticmethod(setup_context)
    else:
        ns["forward"] = staticmethod(forward_old)
    if F._has_jvp:
        ns["jvp"] = staticmethod(jvp)
    return type(f"Vmapped{F.__name__}", (Function,), ns)


# --- the op-table-shaped entry ------------------------------------------------------------

def _make_entry(F):
    """An OpDef for F (not in the op table): impl, public and rules, so coverage() and any
    generic consumer of rules (op.jvp / op.vjp / op.batch) can use it."""
    op = OpDef(name=F.__name__, arity=-1, accepts="any", family="function")
    op.impl = lambda *args, **kwargs: _forward_plain(F, args, kwargs)[0]
    op.public = F.apply
    op.extra["function"] = weakref.ref(F)

    def vjp(g, args, kwargs, out, needs):
        ctx = _ctx_for(F, args, kwargs, out, None)
        outs, multi = _split(out)
        cts = list(g) if multi else [g]
        grads = _materialize(ctx, cts, [(tuple(o.shape), o.dtype) if _is_array(o) else None
                                        for o in outs])
        res = _normalize_grads(F, F._backward(ctx, *grads), len(args),
                               [_is_array(a) for a in args])
        return {s: res[s] for (s, _) in needs if type(s) is int and res[s] is not None}

    def jvp(args, kwargs, tangents, out):
        ctx = _ctx_for(F, args, kwargs, out, None)
        res = jvp_of(F, ctx, args, out, [tangents.get(i) for i in range(len(args))])
        return res if _split(out)[1] else res[0]

    def batch(args, kwargs, dims, size):
        in_dims = tuple(dims.get(i) for i in range(len(args)))
        return batch_rule(F, args, in_dims, size, "error", kwargs)

    op.vjp = vjp if F._has_backward else None
    op.jvp = jvp
    op.batch = batch
    op.extra["saves"] = None
    return op


class _DelayedError(Function):
    """Identity whose backward raises: the result of a @once_differentiable backward."""

    _derived = True

    @staticmethod
    def forward(*args):
        return args if len(args) != 1 else args[0]

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


__all__ = ["Function", "FunctionCtx", "once_differentiable", "REGISTRY", "VmapInfo",
           "FunctionNode"]
