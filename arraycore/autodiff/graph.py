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
run, unless `retain_graph=True`.
"""

from __future__ import annotations

import traceback

from ..native import _native
from . import slots as _slots
from . import versions
from .state import STATE

Array = _native.Array

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
        self._accumulate = None
        self.is_view_of = None

    def edge(self):
        """(node, output_nr) that a consumer's gradient flows into."""
        if self.grad_fn is not None:
            return self.grad_fn, self.output_nr
        acc = self._accumulate
        if acc is None:
            acc = self._accumulate = AccumulateGrad(self)
        return acc, 0


class Node:
    """One recorded op.  `edges[i] = (slot, index, node, output_nr, shape, dtype)`."""

    __slots__ = ("op", "args", "kwargs", "out", "edges", "n_outputs", "multi", "out_metas",
                 "saved",
                 "released", "creation_trace", "pre_hooks", "tape", "__weakref__")

    def __init__(self, op, args, kwargs, out, edges, n_outputs, tape=True):
        self.op = op
        self.args = args
        self.kwargs = kwargs
        # The output is kept only when the rule reads it, and then without its tape state:
        # the output's meta points at this node, so keeping the output itself would make a
        # reference cycle.  `_output` re-attaches the meta when a rule needs the output as a
        # recorded value (create_graph=True).
        # `multi`: the op returns a sequence (even of one array, broadcast_arrays(x)); its
        # rule then gets and returns lists of cotangents.
        multi = n_outputs > 1 or isinstance(out, (list, tuple))
        self.multi = multi
        if not (out_saved(op) or multi):
            out = None
        elif tape:
            out = [_strip(o) for o in out] if multi else _strip(out)
        self.tape = tape
        self.out = out
        self.edges = edges
        self.n_outputs = n_outputs
        self.out_metas = [None] * n_outputs
        self.saved = versions.snapshot(op, args, kwargs, out) if op.extra.get("saves") \
            else ()
        self.released = False
        self.pre_hooks = None
        self.creation_trace = (traceback.format_stack(limit=12)[:-3]
                               if STATE.anomaly else None)

    def name(self):
        return f"{self.op.name.capitalize()}Backward"

    def __repr__(self):
        return f"<{self.name()} object>"

    @property
    def next_functions(self):
        return tuple((n, nr) for (_, _, n, nr, _, _) in self.edges)

    def _recorded_outputs(self):
        """The saved outputs with their tape state back (double backward)."""
        outs = list(self.out) if self.multi else [self.out]
        res = []
        for o, m in zip(outs, self.out_metas):
            if m is not None and type(o) is Array:
                o = o._view(o.shape, o._strides, 0)
                o._ad = m
            res.append(o)
        return type(self.out)(res) if self.multi else res[0]

    def release(self):
        self.args = self.kwargs = self.out = None
        self.released = True

    def apply(self, cts):
        """Cotangents of the inputs for cotangents `cts` of the outputs (one per output,
        None where no gradient arrived)."""
        if self.released:
            raise RuntimeError(
                f"{self.name()}: trying to backward through the graph a second time (or to "
                "access saved values after they have already been freed). Saved values are "
                "freed when you call .backward() or autograd.grad(); pass retain_graph=True "
                "the first time if you need to backward through the graph again")
        versions.check(self)
        if not self.multi:
            g = cts[0]
        else:
            g = [c if c is not None else _zeros_for(o) for c, o in zip(cts, self.out)]
        needs = {(e[0], e[1]) for e in self.edges}
        out = self.out
        if out is not None and self.tape and STATE.grad_enabled:
            out = self._recorded_outputs()
        raw = self.op.vjp(g, self.args, self.kwargs, out, needs)
        result = []
        for slot, index, node, nr, shape, dtype in self.edges:
            ct = raw.get(slot)
            if index is not None and ct is not None:
                ct = ct[index]
            if ct is not None:
                ct = fit_cotangent(ct, shape, dtype)
            result.append(ct)
        return result


def out_saved(op):
    """Whether op's vjp reads its output (cached on the entry)."""
    r = op.extra.get("_out_saved")
    if r is None:
        r = op.extra["_out_saved"] = "out" in (op.extra.get("saves") or ())
    return r


def _strip(o):
    """o without tape state (a view of the same buffer), breaking the node <-> output cycle."""
    if type(o) is Array and o._ad is not None:
        return o._view(o.shape, o._strides, 0)
    return o


class AccumulateGrad:
    """The node of a leaf: gradients arriving here are added into `meta.grad`."""

    __slots__ = ("meta", "__weakref__")
    edges = ()
    n_outputs = 1
    pre_hooks = None

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
    for h in hooks.values():
        r = h(g)
        if r is not None:
            g = r
    return g


class _GradModeFor:
    """Grad mode on (create_graph) or off for the duration of a backward pass."""

    def __init__(self, enabled):
        self.enabled = enabled

    def __enter__(self):
        self.prev = (STATE.grad_enabled, STATE.grad_disabled_at)
        # Only the tape's mode changes: transform levels active around a `.backward()` keep
        # recording, so a backward pass inside `func.grad` is differentiated by it.
        STATE.grad_enabled, STATE.grad_disabled_at = self.enabled, None

    def __exit__(self, *exc):
        STATE.grad_enabled, STATE.grad_disabled_at = self.prev


def run_backward(roots, seeds, *, inputs=None, retain_graph=False, create_graph=False,
                 accumulate=True):
    """Propagates `seeds` (cotangents of the root edges (node, nr)) to the leaves.

    accumulate=True adds into leaves' `.grad` (`backward()`); with `inputs` (a list of
    edges) the cotangents arriving at those edges are returned instead (`autograd.grad`).
    """
    # Which nodes take part, and how many consumers each has among them.
    deps = {}
    order = []
    stack = [n for (n, _) in roots]
    seen = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        order.append(n)
        for e in n.edges:
            m = e[2]
            deps[id(m)] = deps.get(id(m), 0) + 1
            if id(m) not in seen:
                stack.append(m)
    wanted = None
    if inputs is not None:
        wanted = {}
        for k, (n, nr) in enumerate(inputs):
            wanted.setdefault(id(n), []).append((k, nr))
        # Only nodes from which a wanted edge can be reached need to run.
        reach = {}
        for n in reversed(_topo(order)):
            reach[id(n)] = id(n) in wanted or any(reach.get(id(e[2]), False) for e in n.edges)
    buffers = {}
    for (n, nr), s in zip(roots, seeds):
        buf = buffers.setdefault(id(n), [None] * n.n_outputs)
        buf[nr] = _add(buf[nr], s)
    results = [None] * (len(inputs) if inputs is not None else 0)
    ready = [n for (n, _) in roots if deps.get(id(n), 0) == 0]
    ready_ids = set()
    queue = []
    for n in ready:
        if id(n) not in ready_ids:
            ready_ids.add(id(n))
            queue.append(n)
    with _GradModeFor(create_graph):
        while queue:
            n = queue.pop()
            cts = buffers.pop(id(n), [None] * n.n_outputs)
            if wanted is not None and id(n) in wanted:
                for k, nr in wanted[id(n)]:
                    results[k] = cts[nr]
            if isinstance(n, AccumulateGrad):
                g = cts[0]
                meta = n.meta
                if g is not None and meta.hooks:
                    g = _call_hooks(meta.hooks, g)
                if accumulate and g is not None:
                    _accumulate_into(meta, g, create_graph)
                continue
            # Hooks and retain_grad of non-leaf outputs see their gradient before the node.
            for nr, meta in enumerate(n.out_metas):
                if meta is None or cts[nr] is None:
                    continue
                if meta.hooks:
                    cts[nr] = _call_hooks(meta.hooks, cts[nr])
                if meta.retains_grad and accumulate:
                    _accumulate_into(meta, cts[nr], create_graph)
            runs = any(c is not None for c in cts) and (wanted is None or reach[id(n)])
            if runs:
                in_cts = n.apply(cts)
                if STATE.anomaly:
                    _check_anomaly(n, in_cts)
            else:
                in_cts = [None] * len(n.edges)
            if not retain_graph:
                n.release()
            for e, ct in zip(n.edges, in_cts):
                m, nr = e[2], e[3]
                if ct is not None:
                    buf = buffers.setdefault(id(m), [None] * m.n_outputs)
                    buf[nr] = _add(buf[nr], ct)
                deps[id(m)] -= 1
                if deps[id(m)] == 0:
                    queue.append(m)
    return results


def _topo(order):
    """Nodes in an order where every node comes before the nodes it points to."""
    indeg = {}
    for n in order:
        for e in n.edges:
            indeg[id(e[2])] = indeg.get(id(e[2]), 0) + 1
    out, queue = [], [n for n in order if indeg.get(id(n), 0) == 0]
    while queue:
        n = queue.pop()
        out.append(n)
        for e in n.edges:
            m = e[2]
            indeg[id(m)] -= 1
            if indeg[id(m)] == 0:
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
    return v._view(v.shape, v._strides, 0)


def _check_anomaly(node, cts):
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
