"""L3: the torch-style tape: `requires_grad`, `.grad`, `.grad_fn`, `.backward()`,
`autograd.grad`, and in-place ops on recorded arrays.

Recording happens in `bind` (dispatch.py) through `maybe_record`: when grad mode is on and an
argument's `_ad` meta has `requires_grad`, a `Node` (graph.py) is created with one edge per
such argument and the outputs get metas pointing at it.  The node stores the arguments
themselves, not detached copies, so rules evaluated with `create_graph=True` are recorded
again: double backward needs nothing else.
"""

from __future__ import annotations

from .._core import numpy_scalars as _np_scalars
from ..native import _native
from . import graph, versions
from . import slots as _slots
from .graph import AutogradMeta, Node
from .state import STATE
from .tracer import Tracer

Array = _native.Array
_plain = graph._alias  # a new Array object for the same view, without tape state
_ns = None


def meta_of(v):
    return getattr(v, "_ad", None)


def requires_grad(v) -> bool:
    m = getattr(v, "_ad", None)
    return m is not None and m.requires_grad


def _outputs(out):
    if isinstance(out, (Array, Tracer)):
        return [out], False
    return list(out), True


def _alias(v, inputs):
    """A fresh object for an output that is one of the inputs (asarray(x), astype with
    copy=False): the output gets its own tape state."""
    for a in inputs:
        if v is a:
            if isinstance(v, Array):
                return _plain(v)
            return v._fresh()
    return v


def attach(op, args, kwargs, out, edges, set_meta, inputs=None):
    """Creates the node for `out` and gives each differentiable output a meta (via
    set_meta(output, meta) -> output).  `inputs`: the argument leaves (an output that is one
    of them gets a fresh alias)."""
    outs, multi = _outputs(out)
    if inputs is None:
        inputs = [v for _, _, v in _slots.leaves(args, kwargs)]
    node = Node(op, args, kwargs, out, edges, len(outs), tape=set_meta is _set_tape_meta)
    new = []
    for i, o in enumerate(outs):
        if isinstance(o, (Array, Tracer)) and o.dtype.kind in "fc":
            o = _alias(o, inputs)
            o = set_meta(o, AutogradMeta(True, node, i))
        new.append(o)
    if not multi:
        return new[0]
    if type(out) in (list, tuple):
        return type(out)(new)
    return type(out)(*new)  # namedtuple results


def _set_tape_meta(o, m):
    o._ad = m
    return o


def maybe_record(op, args, kwargs, out):
    tracked = [(slot, idx, v, v._ad) for slot, idx, v in _slots.leaves(args, kwargs)
               if getattr(v, "_ad", None) is not None and v._ad.requires_grad]
    if not tracked:
        return out
    return record(op, args, kwargs, out, tracked)


def record(op, args, kwargs, out, tracked):
    """A node for `out`, with one edge per tracked argument leaf (slot, index, value, meta)."""
    edges = []
    for slot, idx, v, m in tracked:
        if m.is_view_of is not None:
            m = _current_view_meta(v, m)
        fn = m.grad_fn
        if fn is not None:
            edges.append((slot, idx, fn, m.output_nr, v.shape, v.dtype))
        else:
            n, nr = m.edge()
            edges.append((slot, idx, n, nr, v.shape, v.dtype))
    if type(out) is Array:  # the common case, without attach's generality
        if out._dtype_code not in _INEXACT_CODES:
            return out
        for a in args:
            if out is a:
                out = _plain(out)
                break
        else:
            for t in tracked:
                if out is t[2]:
                    out = _plain(out)
                    break
        out._ad = AutogradMeta(True, Node(op, args, kwargs, out, edges, 1), 0)
    else:
        out = attach(op, args, kwargs, out, edges, _set_tape_meta,
                     [t[2] for t in tracked] + [a for a in args if type(a) is Array])
    view = op.extra.get("basic_view")
    if view is not None and view(args) and getattr(out, "_ad", None) is not None:
        out._ad.is_view_of = _view_of(args[0], args[1], out)
    return out


class _ViewOf(tuple):
    """(base, key) of a basic view of a recorded array, with the base's meta when the view's
    history was made (`.base_meta`)."""


def _view_of(base, key, view):
    v = _ViewOf((base, key))
    v.base_meta = getattr(base, "_ad", None)
    return v


def _current_view_meta(v, m):
    """The meta of view `v`, made again as a view of its base's current history when the
    base got a new history (an in-place write into the base, or through another view of it)
    since the view's history was made: PyTorch regenerates such a view's grad_fn; keeping the
    old one would give a silently wrong gradient.  (A write through `v` itself rebases `v`
    and then its base: `v`'s history stays valid, and is regenerated equivalently.)"""
    view_of = m.is_view_of
    if type(view_of) is not _ViewOf or getattr(view_of[0], "_ad", None) is view_of.base_meta:
        return m
    base, key = view_of
    from .._core.op_table import OPS
    new = OPS["getitem"].public(base, key)
    nm = getattr(new, "_ad", None)
    if nm is None or not nm.requires_grad or type(nm.is_view_of) is not _ViewOf:
        raise RuntimeError(
            "a view of an array was used after its base was modified in place, and its "
            "history cannot be regenerated from the base's; use the base (or take the view "
            "again) after the in-place write")
    nm.hooks = m.hooks
    nm.retains_grad = m.retains_grad
    if nm.hooks or nm.retains_grad:
        graph.link_output_meta(nm)
    v._ad = nm
    return nm


def _inexact_codes():
    from .._core import dtypes as _dt
    return frozenset(d.code for d in _dt.ALL_DTYPES if d.kind in "fc")


_INEXACT_CODES = _inexact_codes()


# --- array methods ------------------------------------------------------------------------

def _check_float(x, who):
    if x.dtype.kind not in "fc":
        raise RuntimeError(f"{who}: only arrays of floating point and complex dtype can "
                           f"require gradients, got {x.dtype}")


def requires_grad_(x, requires_grad=True):
    m = getattr(x, "_ad", None)
    if requires_grad:
        _check_float(x, "requires_grad_")
        if m is None:
            x._ad = AutogradMeta(True)
        elif m.grad_fn is None:
            m.requires_grad = True
    else:
        if m is not None and m.grad_fn is not None:
            raise RuntimeError("requires_grad_: you can only change requires_grad flags of "
                               "leaf variables. If you want to use a computed variable in a "
                               "subgraph that doesn't require differentiation use "
                               "var_no_grad = var.detach()")
        if m is not None:
            m.requires_grad = False
            if m.grad is None and not m.hooks:
                _clear(x)
    return x


def _clear(x):
    try:
        del x._ad
    except AttributeError:
        pass


def get_requires_grad(x):
    return requires_grad(x)


def set_requires_grad(x, value):
    requires_grad_(x, bool(value))


def get_grad(x):
    m = getattr(x, "_ad", None)
    if m is None:
        return None
    if m.grad_fn is not None and not m.retains_grad and m.grad is None:
        import warnings
        warnings.warn("The .grad attribute of an array that is not a leaf is being accessed. "
                      "Its .grad will not be populated during backward(); use "
                      ".retain_grad() on it if you want the gradient", UserWarning,
                      stacklevel=3)
    return m.grad


def set_grad(x, g):
    m = getattr(x, "_ad", None)
    if g is not None:
        if not isinstance(g, (Array, Tracer)):
            raise TypeError(f"grad: assigned grad must be an array or None, got "
                            f"{type(g).__name__}")
        if g.shape != x.shape:
            raise RuntimeError(f"grad: assigned grad has shape {g.shape}, but the array has "
                               f"shape {x.shape}")
        if g.dtype != x.dtype:
            raise RuntimeError(f"grad: assigned grad has dtype {g.dtype}, but the array has "
                               f"dtype {x.dtype}")
        if m is None:
            m = x._ad = AutogradMeta(False)
        m.grad = g
    elif m is not None:
        m.grad = None
        if not m.requires_grad:
            _clear(x)


def grad_fn(x):
    m = getattr(x, "_ad", None)
    return None if m is None else m.grad_fn


def is_leaf(x):
    m = getattr(x, "_ad", None)
    return m is None or m.grad_fn is None


def retain_grad(x):
    m = getattr(x, "_ad", None)
    if m is None or not m.requires_grad:
        raise RuntimeError("retain_grad: can't retain_grad on an array that has "
                           "requires_grad=False")
    if m.grad_fn is not None:
        m.retains_grad = True
        graph.link_output_meta(m)
    return None


def retains_grad(x):
    m = getattr(x, "_ad", None)
    return m is not None and m.retains_grad


class RemovableHandle:
    def __init__(self, hooks, key):
        self._hooks, self._key = hooks, key

    def remove(self):
        self._hooks.pop(self._key, None)


_HOOK_IDS = iter(range(1 << 62))


def register_hook(x, hook):
    m = getattr(x, "_ad", None)
    if m is None or not m.requires_grad:
        raise RuntimeError("register_hook: cannot register a hook on an array that doesn't "
                           "require gradient")
    if m.hooks is None:
        m.hooks = {}
    k = next(_HOOK_IDS)
    m.hooks[k] = hook
    if m.grad_fn is not None:
        graph.link_output_meta(m)
    return RemovableHandle(m.hooks, k)


def detach(x):
    return graph.detach(x)


def detach_(x):
    m = getattr(x, "_ad", None)
    if m is not None and m.is_view_of is not None:
        raise RuntimeError("detach_: can't detach a view in place; use detach()")
    _clear(x)
    return x


def backward(x, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    run_backward_api([x], [gradient], retain_graph, create_graph, inputs)


def _root_edges(outputs, grad_outputs, who):
    roots, seeds = [], []
    for o, g in zip(outputs, grad_outputs):
        m = getattr(o, "_ad", None)
        if m is None or not m.requires_grad:
            raise RuntimeError(f"{who}: element {len(roots)} of tensors does not require "
                               "grad and does not have a grad_fn")
        if m.is_view_of is not None:
            m = _current_view_meta(o, m)
        if g is None:
            if o.size != 1:
                raise RuntimeError(f"{who}: grad can be implicitly created only for scalar "
                                   f"outputs, got shape {o.shape}")
            if o.dtype.kind == "c":
                raise RuntimeError(f"{who}: grad can be implicitly created only for real "
                                   f"scalar outputs, got {o.dtype}")
            g = _ns.ones_like(graph.detach(o))
        elif isinstance(g, (int, float, complex)) or _np_scalars.value(g) is not None:
            g = _ns.full_like(graph.detach(o), g)  # (a NumPy scalar: by its value)
        elif g.shape != o.shape:
            raise RuntimeError(f"{who}: mismatch in shape: grad_output has shape {g.shape} "
                               f"and output has shape {o.shape}")
        roots.append(m.edge())
        seeds.append(g)
    return roots, seeds


def run_backward_api(outputs, grad_outputs, retain_graph, create_graph, inputs=None):
    if retain_graph is None:
        retain_graph = create_graph
    roots, seeds = _root_edges(outputs, grad_outputs, "backward")
    if inputs is not None:
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        edges = [_meta_checked(v, "backward").edge() for v in inputs]
        cts = graph.run_backward(roots, seeds, inputs=edges, retain_graph=retain_graph,
                                 create_graph=create_graph, accumulate=False)
        for v, ct in zip(inputs, cts):
            if ct is not None:
                graph._accumulate_into(v._ad, ct, create_graph)
        return
    graph.run_backward(roots, seeds, retain_graph=retain_graph, create_graph=create_graph)


def _meta_checked(v, who):
    m = getattr(v, "_ad", None)
    if m is None or not m.requires_grad:
        raise RuntimeError(f"{who}: one of the differentiated arrays does not require grad")
    return m


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=None, materialize_grads=False, is_grads_batched=False):
    """torch.autograd.grad: the sum of gradients of `outputs` with respect to `inputs`."""
    single_in = isinstance(inputs, (Array, Tracer))
    outputs = [outputs] if isinstance(outputs, (Array, Tracer)) else list(outputs)
    inputs = [inputs] if single_in else list(inputs)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    elif isinstance(grad_outputs, (Array, Tracer)):
        grad_outputs = [grad_outputs]
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"grad: grad_outputs has {len(grad_outputs)} entries but outputs "
                           f"has {len(outputs)}")
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        from .func_api import vmap
        def one(*gs):
            return tuple(grad(outputs, inputs, list(gs), retain_graph=True,
                              create_graph=create_graph, allow_unused=True,
                              materialize_grads=True))
        res = vmap(one)(*grad_outputs)
        return res
    roots, seeds = _root_edges(outputs, grad_outputs, "grad")
    edges = [_meta_checked(v, "grad").edge() for v in inputs]
    cts = graph.run_backward(roots, seeds, inputs=edges, retain_graph=retain_graph,
                             create_graph=create_graph, accumulate=False)
    out = []
    for v, ct in zip(inputs, cts):
        if ct is None:
            if materialize_grads:
                ct = _ns.zeros_like(graph.detach(v))
            elif not allow_unused:
                raise RuntimeError("grad: one of the differentiated arrays appears to not "
                                   "have been used in the graph. Set allow_unused=True if "
                                   "this is the desired behavior")
        elif not create_graph:
            ct = graph.detach(ct)
        out.append(ct)
    return tuple(out)


# --- in-place operations on recorded arrays -----------------------------------------------

def check_inplace_target(x, who):
    """PyTorch's errors for in-place writes into recorded arrays."""
    m = getattr(x, "_ad", None)
    if m is None or not STATE.grad_enabled:
        return
    if m.grad_fn is None and m.requires_grad:
        raise RuntimeError(f"{who}: a leaf Variable that requires grad is being used in an "
                           "in-place operation.")


def rebase(x, new):
    """After `x`'s buffer received `new`'s values: x now stands for `new` in the graph."""
    m = getattr(new, "_ad", None)
    if m is not None and m.requires_grad and STATE.grad_enabled:
        x._ad = m
    else:
        old = getattr(x, "_ad", None)
        if old is not None and old.grad_fn is not None:
            _clear(x)


__all__ = ["maybe_record", "requires_grad_", "backward", "grad", "attach", "meta_of"]
_ = versions
