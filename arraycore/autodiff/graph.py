"""L3: the reverse-mode graph and the backward engine, shared by the tape
(`x.backward()`, `autograd.grad`) and the reverse-mode transforms (`func.grad`, `func.vjp`).

A `Node` is one recorded op: its rule (the op-table entry's vjp), the values the rule needs
(the op's arguments and output *at the level below*, so a rule written with namespace
functions is itself differentiated or batched by any outer level), and one edge per
differentiable input: the producing node and output number, or the `AccumulateGrad` node of a
leaf.  `AutogradMeta` is what a differentiable value carries: `requires_grad`, `grad`,
`grad_fn`/`output_nr`, hooks, `retains_grad`.  The tape keeps it in an array's `_ad`
attribute; a reverse-mode tracer keeps its own (reverse.py).

Note [Saved values and version counters]: a node keeps the arguments its rule reads (found
from the rule's own parameters, see rules/base.py), with the version of each array's buffer
at record time.  An in-place write bumps the buffer's version (versions.py); backward
compares and raises where PyTorch raises.  Saved values are dropped as soon as the node has
run, unless `retain_graph=True`; a node that saved no array keeps its inputs' shapes only,
so it can run again (PyTorch raises only when a freed saved value is needed).

Note [No reference cycles]: a graph is freed by reference counting when its last output is
dropped.  A node does not point back at its outputs' metas: a saved output is kept as a
view without tape state (`_recorded_outputs` gives it a fresh meta with the same edge), hooks
of a non-leaf output are shared with the node (`_OutRef`, which reaches the meta weakly for
`retain_grad`), and a leaf's meta reaches its `AccumulateGrad` weakly (the graph holds it).
"""

from __future__ import annotations

import os
import traceback
import weakref

from ..native import _native
from . import slots as _slots
from . import versions
from .state import STATE

Array = _native.Array
# A new Array object for the same view, without tape state (bind_autodiff.cpp).
_alias = getattr(_native, "alias", None) or (lambda v: v._view(v.shape, v._strides, 0))
_VERSIONS = versions._VERSIONS

_ns = None  # the namespace (set by install)


class AutogradMeta:
    __slots__ = ("requires_grad", "grad", "grad_fn", "output_nr", "retains_grad", "hooks",
                 "_accumulate", "is_view_of", "__weakref__")

    def __init__(self, requires_grad=False, grad_fn=None, output_nr=0):
        self.requires_grad = requires_grad
        self.grad = None
        self.grad_fn = grad_fn
        self.output_nr = output_nr
        self.retains_grad = False
        self.hooks = None
        self._accumulate = None  # a weak reference to the leaf's AccumulateGrad
        self.is_view_of = None

    def edge(self):
        """(node, output_nr) that a consumer's gradient flows into."""
        if self.grad_fn is not None:
            return self.grad_fn, self.output_nr
        ref = self._accumulate
        acc = ref() if ref is not None else None
        if acc is None:
            # The graph holds the AccumulateGrad; the meta only finds it again while some
            # graph does (PyTorch's grad_accumulator_ is weak too): no meta <-> node cycle.
            acc = AccumulateGrad(self)
            self._accumulate = weakref.ref(acc)
        return acc, 0


class _OutRef:
    """What a node keeps of an output's meta once a hook or retain_grad is registered on it
    (Note [No reference cycles]): the hooks (shared dict) and a weak reference."""

    __slots__ = ("hooks", "ref")

    def __init__(self, meta):
        self.hooks = meta.hooks
        self.ref = weakref.ref(meta)

    @property
    def retains_grad(self):
        m = self.ref()
        return m is not None and m.retains_grad

    @property
    def grad(self):
        return self.ref().grad

    @grad.setter
    def grad(self, g):
        self.ref().grad = g


def link_output_meta(meta):
    """Lets the backward pass see `meta`'s hooks and retain_grad (non-leaf outputs)."""
    node = meta.grad_fn
    om = node.out_metas
    if om is None:
        om = node.out_metas = [None] * node.n_outputs
    cur = om[meta.output_nr]
    if cur is None:
        om[meta.output_nr] = _OutRef(meta)
    elif type(cur) is _OutRef:
        if cur.ref() is meta:
            cur.hooks = meta.hooks
        else:
            om[meta.output_nr] = _OutRef(meta)
    # else: a node that keeps its outputs' metas itself (autograd.Function)


_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_stack(limit=12):
    """The current stack without arraycore's own frames (anomaly mode's creation traces)."""
    frames = [f for f in traceback.extract_stack() if not f.filename.startswith(_PKG_DIR)]
    return traceback.format_list(frames[-limit:])


class _NoArrays(tuple):
    """`Node.saved` of a node whose rule reads saved Python numbers only."""


_NUMBERS = _NoArrays()
_FREED = object()  # a released node's argument whose value was dropped (shape in its edge)


class Node:
    """One recorded op.  `edges[i] = (slot, index, node, output_nr, shape, dtype)`."""

    __slots__ = ("op", "args", "kwargs", "out", "edges", "n_outputs", "multi", "out_metas",
                 "saved",
                 "released", "creation_trace", "pre_hooks", "tape", "__weakref__")

    def __init__(self, op, args, kwargs, out, edges, n_outputs, tape=True):
        self.op = op
        self.args = args
        self.kwargs = kwargs
        si = op.extra.get("_saves_info")
        if type(si) is not tuple:
            si = (si.get(edges[0][0]) if si is not None and len(edges) == 1 else None) or \
                _saves_for(op, edges)
        saves, out_saved = si
        # The output is kept only when the rule reads it, and then as a view without tape
        # state (Note [No reference cycles]).
        # `multi`: the op returns a sequence (even of one array, broadcast_arrays(x)); its
        # rule then gets and returns lists of cotangents.
        if type(out) is Array and n_outputs == 1:
            self.multi = False
            if not out_saved:
                out = None
            elif tape:
                out = _alias(out)
        elif n_outputs > 1 or isinstance(out, (list, tuple)):
            self.multi = True
            if tape:
                out = [_strip(o) for o in out]
        else:
            self.multi = False
            if not out_saved:
                out = None
            elif tape:
                out = _strip(out)
        self.tape = tape
        self.out = out
        self.edges = edges
        self.n_outputs = n_outputs
        self.out_metas = None
        if saves:
            items = []
            numbers = False
            for slot in saves:
                if slot == "out":
                    v = out
                elif type(slot) is int:
                    v = args[slot] if slot < len(args) else None
                else:
                    v = kwargs.get(slot)
                tv = type(v)
                if tv is Array:
                    items.append((v, _VERSIONS.get(v._buffer_ptr, 0)))
                elif tv is float or tv is int or tv is complex or tv is bool:
                    numbers = True
                elif tv is list or tv is tuple:
                    items.extend((b, _VERSIONS.get(b._buffer_ptr, 0)) for b in v
                                 if type(b) is Array)
            self.saved = items if items or not numbers else _NUMBERS
        else:
            self.saved = ()
        self.released = False
        self.pre_hooks = None
        self.creation_trace = user_stack() if STATE.anomaly else None

    def name(self):
        return f"{self.op.name.capitalize()}Backward"

    def __repr__(self):
        return f"<{self.name()} object>"

    @property
    def next_functions(self):
        return tuple((n, nr) for (_, _, n, nr, _, _) in self.edges)

    def _recorded_outputs(self, out):
        """The saved outputs with tape state (a fresh meta whose edge is this node's output):
        double backward flows through them."""
        outs = list(out) if self.multi else [out]
        res = []
        for i, o in enumerate(outs):
            if type(o) is Array and o._dtype_code in _INEXACT_CODES:
                o = _alias(o)
                o._ad = AutogradMeta(True, self, i)
            res.append(o)
        return type(out)(res) if self.multi else res[0]

    def release(self):
        """Drops the saved values (backward without retain_graph).  A node whose rule reads
        no saved array keeps its non-array arguments and its inputs' shapes, so running it
        again works (PyTorch raises only when a freed saved value is needed)."""
        if self.released:
            return
        if self.saved or self.saved is _NUMBERS or not self.tape:
            # (A saved Python number counts, as PyTorch's wrapped numbers: a second
            # backward through `x * 2` raises.)
            self.args = self.kwargs = self.out = None
            self.saved = ()
            self.released = True
            return
        args = self.args
        kwargs = self.kwargs
        if args is None:
            self.released = True
            return
        args = list(args)
        kw = None
        for e in self.edges:
            slot, idx = e[0], e[1]
            if type(slot) is int:
                if idx is None:
                    if type(args[slot]) is Array:
                        args[slot] = _FREED
                else:
                    lst = args[slot] = list(args[slot])
                    if type(lst[idx]) is Array:
                        lst[idx] = _FREED
            else:
                if kw is None:
                    kw = kwargs = dict(kwargs)
                if idx is None:
                    if type(kwargs[slot]) is Array:
                        kwargs[slot] = _FREED
                else:
                    lst = kwargs[slot] = list(kwargs[slot])
                    if type(lst[idx]) is Array:
                        lst[idx] = _FREED
        self.args = tuple(args)
        self.kwargs = kwargs
        if self.multi and self.out is not None:
            self.out = [_stub(o.shape, o.dtype) if type(o) is Array else o for o in self.out]
        self.released = "shapes"

    def _unfreed_args(self):
        """A released node's arguments with zero-size stand-ins (right shape and dtype) for
        the dropped values."""
        args = list(self.args)
        kwargs = dict(self.kwargs)
        for slot, idx, _, _, shape, dtype in self.edges:
            holder = args if type(slot) is int else kwargs
            if idx is None:
                if holder[slot] is _FREED:
                    holder[slot] = _stub(shape, dtype)
            else:
                lst = holder[slot] = list(holder[slot])
                if lst[idx] is _FREED:
                    lst[idx] = _stub(shape, dtype)
        return tuple(args), kwargs

    def apply(self, cts):
        """Cotangents of the inputs for cotangents `cts` of the outputs (one per output,
        None where no gradient arrived)."""
        released = self.released
        if released:
            if released is True:
                raise RuntimeError(
                    f"{self.name()}: trying to backward through the graph a second time (or "
                    "to access saved values after they have already been freed). Saved "
                    "values are freed when you call .backward() or autograd.grad(); pass "
                    "retain_graph=True the first time if you need to backward through the "
                    "graph again")
            args, kwargs = self._unfreed_args()
        else:
            for arr, ver in self.saved:
                if _VERSIONS.get(arr._buffer_ptr, 0) != ver:
                    versions.check(self)
            args, kwargs = self.args, self.kwargs
        grad_on = STATE.grad_enabled
        if not grad_on and self.tape:
            # The rule's ops record nothing: give it the saved arrays without their tape
            # state, so they take the native fast paths instead of the dispatcher.
            for a, _ in self.saved:
                if a._ad is not None:
                    args = tuple([_alias(b)
                                  if type(b) is Array and b._ad is not None else b
                                  for b in args])
                    break
        out = self.out
        if not self.multi:
            g = cts[0]
        else:
            g = [c if c is not None else _zeros_for(o) for c, o in zip(cts, out)]
        edges = self.edges
        if len(edges) == 1:
            e = edges[0]
            needs = _NEEDS1.get(e[0]) if e[1] is None else None
            if needs is None:
                needs = frozenset(((e[0], e[1]),))
        else:
            needs = frozenset([(e[0], e[1]) for e in edges])
        if grad_on and out is not None and self.tape:
            out = self._recorded_outputs(out)
        raw = self.op.vjp(g, args, kwargs, out, needs)
        result = []
        for slot, index, node, nr, shape, dtype in edges:
            ct = raw.get(slot)
            if ct is not None:
                if index is not None:
                    ct = ct[index]
                    if ct is None:
                        result.append(None)
                        continue
                if ct.shape != shape or ct.dtype != dtype:
                    ct = fit_cotangent(ct, shape, dtype)
            result.append(ct)
        return result


_NEEDS1 = {i: frozenset(((i, None),)) for i in range(8)}


def _saves_for(op, edges):
    """(slots the vjp reads for the inputs that have edges, whether "out" is among them).
    An op can declare per-input saves (`extra["saves_by_slot"]`, rules/base.define_binary):
    only the derivatives of the inputs with an edge are evaluated, so only what they read is
    kept and version-checked (PyTorch: `y = x * c` saves c only)."""
    ex = op.extra
    by_slot = ex.get("saves_by_slot")
    if by_slot is None:
        saves = tuple(ex.get("saves") or ())
        info = ex["_saves_info"] = (saves, "out" in saves)  # (rules/base.define resets it)
        return info
    cache = ex.get("_saves_info")
    if type(cache) is not dict:
        cache = ex["_saves_info"] = {}
    key = edges[0][0] if len(edges) == 1 else tuple(e[0] for e in edges)
    info = cache.get(key)
    if info is None:
        slots = key if type(key) is tuple else (key,)
        if any(k not in by_slot for k in slots):
            saves = tuple(ex.get("saves") or ())
        else:
            saves = []
            for k in slots:
                saves.extend(s for s in by_slot[k] if s not in saves)
            saves = tuple(saves)
        info = cache[key] = (saves, "out" in saves)
    return info


def out_saved(op):
    """Whether op's vjp reads its output (for some input)."""
    return "out" in (op.extra.get("saves") or ())


def _strip(o):
    """o without tape state: a new object for the same value (a view of the same buffer),
    so that the node does not reach the meta the output gets (Note [No reference cycles])."""
    if type(o) is Array:
        return _alias(o)
    f = getattr(o, "_fresh", None)
    if f is not None and getattr(o, "_ad", None) is not None:
        return f()
    return o


_ONE = {}


def _stub(shape, dtype):
    """An array of `shape` and `dtype` without memory of its own (all strides 0)."""
    base = _ONE.get(dtype)
    if base is None:
        prev = STATE.grad_enabled
        STATE.grad_enabled = False
        try:
            base = _ONE[dtype] = _ns.zeros((1,), dtype=dtype)
        finally:
            STATE.grad_enabled = prev
    return base._view(tuple(shape), (0,) * len(shape), 0)


def _inexact_codes():
    from .._core import dtypes as _dt
    return frozenset(d.code for d in _dt.ALL_DTYPES if d.kind in "fc")


_INEXACT_CODES = _inexact_codes()


class AccumulateGrad:
    """The node of a leaf: gradients arriving here are added into `meta.grad`."""

    __slots__ = ("meta", "__weakref__")
    edges = ()
    n_outputs = 1
    pre_hooks = None
    out_metas = None

    def __init__(self, meta):
        self.meta = meta

    def name(self):
        return "AccumulateGrad"

    def __repr__(self):
        return "<AccumulateGrad object>"

    next_functions = ()


def _zeros_for(o):
    return _ns.zeros_like(o)


def fit_cotangent(ct, shape, dtype):
    """Sums a cotangent over broadcast dimensions and casts it to the input's dtype (real
    part for a real input), so no rule has to unbroadcast (design notes, section 1)."""
    if ct.shape != shape:
        lead = ct.ndim - len(shape)
        if lead > 0:
            ct = _ns.sum(ct, axis=tuple(range(lead)))
        if lead >= 0:
            axes = tuple(i for i, s in enumerate(shape) if s == 1 and ct.shape[i] != 1)
            if axes:
                ct = _ns.sum(ct, axis=axes, keepdims=True)
        if ct.shape != shape:
            ct = _ns.broadcast_to(ct, shape)
    cd = ct.dtype
    if cd != dtype:
        if cd.kind == "c" and dtype.kind != "c":
            ct = _ns.real(ct)
        if ct.dtype != dtype:
            ct = _ns.astype(ct, dtype)
    return ct


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return _ns.add(a, b)


def _call_hooks(hooks, g):
    for h in list(hooks.values()):
        r = h(g)
        if r is not None:
            g = r
    return g


class _GradModeFor:
    """Grad mode on (create_graph) or off for the duration of a backward pass."""

    __slots__ = ("enabled", "prev")

    def __init__(self, enabled):
        self.enabled = enabled

    def __enter__(self):
        self.prev = STATE.grad_enabled
        # Only the tape's mode changes: transform levels active around a `.backward()` keep
        # recording, so a backward pass inside `func.grad` is differentiated by it; levels
        # stopped by an enclosing `no_grad` (STATE.grad_disabled_at) stay stopped.
        STATE.grad_enabled = self.enabled

    def __exit__(self, *exc):
        STATE.grad_enabled = self.prev


def run_backward(roots, seeds, *, inputs=None, retain_graph=False, create_graph=False,
                 accumulate=True):
    """Propagates `seeds` (cotangents of the root edges (node, nr)) to the leaves.

    accumulate=True adds into leaves' `.grad` (`backward()`); with `inputs` (a list of
    edges) the cotangents arriving at those edges are returned instead (`autograd.grad`),
    after the hooks registered on those inputs ran (as in PyTorch).
    """
    if inputs is None and accumulate and not create_graph and not STATE.anomaly and \
            _NATIVE_ENGINE:
        # The same loop in C++ (Note [The native tape], bind_autodiff.cpp): native programs
        # for the elementwise nodes that have one, _native_step / _native_leaf for the rest.
        with _GradModeFor(False):
            _native.tape_backward([tuple(r) for r in roots], list(seeds), bool(retain_graph))
        return []
    # Which nodes take part, and how many consumers each has among them.
    deps = {}
    stack = [n for (n, _) in roots]
    seen = set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        for e in n.edges:
            m = e[2]
            if m in deps:
                deps[m] += 1
            else:
                deps[m] = 1
                stack.append(m)
    wanted = reach = None
    if inputs is not None:
        wanted = {}
        for k, (n, nr) in enumerate(inputs):
            wanted.setdefault(n, []).append((k, nr))
        # Only nodes from which a wanted edge can be reached need to run.
        reach = {}
        for n in reversed(_topo(seen)):
            reach[n] = n in wanted or any(reach.get(e[2], False) for e in n.edges)
    buffers = {}
    for (n, nr), s in zip(roots, seeds):
        buf = buffers.get(n)
        if buf is None:
            buf = buffers[n] = [None] * n.n_outputs
        buf[nr] = _add(buf[nr], s)
    results = [None] * (len(inputs) if inputs is not None else 0)
    # The queue holds (node, its output cotangents); a node's cotangents wait in `buffers`
    # until its last consumer ran (a node with one consumer gets them directly).
    queue = []
    for n, _ in roots:
        if n not in deps and all(n is not q for q, _ in queue):
            queue.append((n, buffers.pop(n, None)))
    anomaly = STATE.anomaly
    pop = queue.pop
    push = queue.append
    with _GradModeFor(create_graph):
        while queue:
            n, cts = pop()
            if type(n) is AccumulateGrad:
                if cts is None or (wanted is not None and n not in wanted):
                    continue
                g = cts[0]
                meta = n.meta
                if g is not None and meta.hooks:
                    g = _call_hooks(meta.hooks, g)
                if wanted is not None:
                    for k, nr in wanted[n]:
                        results[k] = g
                if accumulate and g is not None:
                    _accumulate_into(meta, g, create_graph)
                continue
            in_cts = None
            if cts is not None:
                # A non-leaf input of autograd.grad gets its gradient as it arrives (before
                # its hooks, as PyTorch: they apply to what flows on); a leaf's, after them.
                if wanted is not None:
                    w = wanted.get(n)
                    if w is not None:
                        for k, nr in w:
                            results[k] = cts[nr]
                # Hooks and retain_grad of non-leaf outputs see their gradient before the
                # node does.
                om = n.out_metas
                if om is not None:
                    for nr, meta in enumerate(om):
                        if meta is None or cts[nr] is None:
                            continue
                        if meta.hooks:
                            cts[nr] = _call_hooks(meta.hooks, cts[nr])
                        if accumulate and meta.retains_grad:
                            _accumulate_into(meta, cts[nr], create_graph)
                if reach is None or reach[n]:
                    in_cts = n.apply(cts)
                    if anomaly:
                        _check_anomaly(n, in_cts)
            if not retain_graph:
                n.release()
            if in_cts is None:
                for e in n.edges:
                    m = e[2]
                    d = deps[m] - 1
                    deps[m] = d
                    if d == 0:
                        push((m, buffers.pop(m, None)))
            else:
                for e, ct in zip(n.edges, in_cts):
                    m = e[2]
                    d = deps[m] - 1
                    deps[m] = d
                    if d == 0 and m not in buffers:
                        if ct is None:
                            push((m, None))
                        elif m.n_outputs == 1:
                            push((m, [ct]))
                        else:
                            buf = [None] * m.n_outputs
                            buf[e[3]] = ct
                            push((m, buf))
                        continue
                    if ct is not None:
                        buf = buffers.get(m)
                        if buf is None:
                            buf = buffers[m] = [None] * m.n_outputs
                        nr = e[3]
                        b = buf[nr]
                        buf[nr] = ct if b is None else _ns.add(b, ct)
                    if d == 0:
                        push((m, buffers.pop(m)))
    return results


def _native_step(n, cts):
    """The native engine's Python part for a node without a native program (or with hooks
    or retain_grad on an output): run_backward's loop body for it (inputs=None,
    accumulate=True, create_graph=False, no anomaly mode)."""
    om = n.out_metas
    if om is not None:
        for nr, meta in enumerate(om):
            if meta is None or cts[nr] is None:
                continue
            if meta.hooks:
                cts[nr] = _call_hooks(meta.hooks, cts[nr])
            if meta.retains_grad:
                _accumulate_into(meta, cts[nr], False)
    return n.apply(cts)


def _native_leaf(n, cts):
    """The native engine's Python part for an AccumulateGrad node."""
    g = cts[0]
    meta = n.meta
    if g is not None and meta.hooks:
        g = _call_hooks(meta.hooks, g)
    if g is not None:
        _accumulate_into(meta, g, False)


_NATIVE_ENGINE = False


def install_native():
    """Hands the native tape (bind_autodiff.cpp) the classes and helpers it works with;
    called once the namespace is set."""
    global _NATIVE_ENGINE
    setup = getattr(_native, "tape_setup", None)
    if setup is None:
        return
    setup({"Node": Node, "AutogradMeta": AutogradMeta, "AccumulateGrad": AccumulateGrad,
           "versions": _VERSIONS, "numbers": _NUMBERS, "freed": _FREED, "shapes": "shapes",
           "state": STATE, "step": _native_step, "leaf": _native_leaf,
           "fit": fit_cotangent, "add": _ns.add, "check": versions.check})
    _NATIVE_ENGINE = True


def _topo(nodes):
    """Nodes in an order where every node comes before the nodes it points to."""
    indeg = {}
    for n in nodes:
        for e in n.edges:
            indeg[e[2]] = indeg.get(e[2], 0) + 1
    out, queue = [], [n for n in nodes if indeg.get(n, 0) == 0]
    while queue:
        n = queue.pop()
        out.append(n)
        for e in n.edges:
            m = e[2]
            indeg[m] -= 1
            if indeg[m] == 0:
                queue.append(m)
    return out


def _accumulate_into(meta, g, create_graph):
    if not create_graph:
        g = detach(g)
    meta.grad = g if meta.grad is None else _ns.add(meta.grad, g)


def detach(v):
    """The same values with no tape state (a view of the same buffer for arrays)."""
    from .tracer import Tracer
    if isinstance(v, Tracer):
        return v._detached() if hasattr(v, "_detached") else v
    if getattr(v, "_ad", None) is None:
        return v
    return _alias(v)


def _check_anomaly(node, cts):
    if not STATE.anomaly_check_nan:
        return
    for ct in cts:
        if ct is None:
            continue
        try:
            bad = bool(_ns.any(_ns.isnan(ct))) if ct.dtype.kind in "fc" else False
        except TypeError:
            bad = False
        if bad:
            where = "".join(node.creation_trace or ["(no trace: enable detect_anomaly before "
                                                    "the forward pass)\n"])
            raise RuntimeError(
                f"Function '{node.name()}' returned nan values in its output. The forward "
                f"call that created it (op {node.op.name!r}) was made here:\n{where}")


__all__ = ["AutogradMeta", "Node", "AccumulateGrad", "run_backward", "fit_cotangent",
           "detach"]
_ = _slots
