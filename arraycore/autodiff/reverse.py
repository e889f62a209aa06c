"""L3: reverse mode as a transform level (`func.grad`, `func.vjp`, `jacrev`).

A `GradTracer` is a value of one reverse-mode level: its primal (a value of the levels
below) and an `AutogradMeta` in that level's graph.  Processing an op computes it on the
primals (dispatching to lower levels) and records a `Node` whose rule inputs are those
primals, so evaluating the vjp later, outside this level, is itself traced by any outer
level: `grad(grad(f))`, `jacfwd(jacrev(f))` and `vmap(grad(f))` need nothing more.  The
backward pass (`level_backward`) is the tape's engine (graph.run_backward) without the
parts a level's graph has no use for.
"""

from __future__ import annotations

from . import slots as _slots
from .dispatch import Interpreter
from ..native import _native
from . import graph
from .graph import AutogradMeta, Node
from .state import STATE, level_records
from .tape import attach
from .tracer import Tracer

Array = _native.Array


class GradTracer(Tracer):
    __slots__ = ("_interp", "primal", "meta", "_ad")

    def __init__(self, interp, primal, meta):
        self._interp = interp
        self.primal = primal
        self.meta = meta
        self._ad = None

    @property
    def _shape(self):
        return self.primal.shape

    @property
    def dtype(self):
        return self.primal.dtype

    def _primal_value(self):
        p = self.primal
        return p._primal_value() if isinstance(p, Tracer) else p

    def _fresh(self):
        return GradTracer(self._interp, self.primal, self.meta)

    def _detached(self):
        return self if self._ad is None else self._fresh()

    def _assign(self, other):
        if isinstance(other, GradTracer) and other._interp is self._interp:
            self.primal, self.meta = other.primal, other.meta
        else:
            self.primal, self.meta = other, None
        self._ad = getattr(other, "_ad", None)

    def __repr__(self):
        return f"GradTracer(level={self._interp.level}, primal={self.primal!r})"


class GradInterpreter(Interpreter):
    kind = "grad"

    def new_leaf(self, primal):
        return GradTracer(self, primal, AutogradMeta(True))

    def process(self, op, args, kwargs):
        # Fast path: array arguments are all direct positional arguments (no list slots, no
        # array keywords), and the op returns one array.
        me = self
        pargs = None
        edges = None
        for i, a in enumerate(args):
            ta = type(a)
            if ta is GradTracer:
                if a._interp is not me:
                    continue
                if pargs is None:
                    pargs = list(args)
                p = pargs[i] = a.primal
                m = a.meta
                if m is not None and m.requires_grad:
                    if edges is None:
                        edges = []
                    n, nr = m.edge()
                    edges.append((i, None, n, nr, p.shape, p.dtype))
            elif ta is list or ta is tuple:
                return self._process_general(op, args, kwargs)
        if kwargs:
            for v in kwargs.values():
                if isinstance(v, (Tracer, list, tuple)):
                    return self._process_general(op, args, kwargs)
        if pargs is not None:
            args = tuple(pargs)
        out = op.public(*args, **kwargs)
        if edges is None or op.nondiff:
            return out
        off = STATE.grad_disabled_at  # state.level_records, inlined
        if off is not None and self.position < off:
            return out
        to = type(out)
        if to is not Array and not isinstance(out, Tracer):
            return attach(op, args, kwargs, out, edges, lambda o, m: GradTracer(me, o, m))
        if out.dtype.kind not in "fc":
            return out
        for a in (*args, *kwargs.values()) if kwargs else args:
            if out is a:  # an output that is an input gets its own tracer state
                out = out._view(out.shape, out._strides, 0) if to is Array else out._fresh()
                break
        node = Node(op, args, kwargs, out, edges, 1, tape=False)
        # node.out_metas stays empty: a level's metas have no hooks or retain_grad for the
        # backward pass to read, and leaving them out keeps node and meta out of a reference
        # cycle, so the node's saved arrays are freed with the last tracer that uses them.
        return GradTracer(me, out, AutogradMeta(True, node, 0))

    def _process_general(self, op, args, kwargs):
        me = self

        def unwrap(v):
            return v.primal if isinstance(v, GradTracer) and v._interp is me else v

        pargs, pkwargs = _slots.map_leaves(unwrap, args, kwargs)
        out = op.public(*pargs, **pkwargs)
        if op.nondiff or not level_records(self.position):
            return out
        edges = []
        for slot, idx, v in _slots.leaves(args, kwargs):
            if isinstance(v, GradTracer) and v._interp is me and v.meta is not None \
                    and v.meta.requires_grad:
                n, nr = v.meta.edge()
                edges.append((slot, idx, n, nr, v.primal.shape, v.primal.dtype))
        if not edges:
            return out

        def set_meta(o, m):
            return GradTracer(me, o, m)

        return attach(op, pargs, pkwargs, out, edges, set_meta)


def level_backward(roots, seeds, inputs, retain_graph):
    """The backward pass over one reverse-mode level's graph (see _level_backward); a
    chain (one root, every node on the way with one output and one input edge: tanh(W @ x),
    elementwise chains) is walked without counting consumers, since nothing accumulates."""
    if len(roots) != 1:
        return _level_backward(roots, seeds, inputs, retain_graph)
    n, nr = roots[0]
    ct = seeds[0]
    results = [None] * len(inputs)
    anomaly = STATE.anomaly
    with graph._GradModeFor(True):
        while True:
            for k, (w, wnr) in enumerate(inputs):
                if w is n and wnr == nr:
                    results[k] = ct
            edges = n.edges
            if not edges:  # AccumulateGrad: a leaf
                break
            if len(edges) != 1 or n.n_outputs != 1:
                # Not a chain from here on: the general pass, rooted at this node (all that
                # reaches it came along the chain, so its cotangent is complete).
                rest = _level_backward([(n, nr)], [ct], inputs, retain_graph)
                for k, r in enumerate(rest):
                    if r is not None:
                        results[k] = r
                break
            in_cts = n.apply([ct])
            if anomaly:
                graph._check_anomaly(n, in_cts)
            if not retain_graph:
                n.release()
            ct = in_cts[0]
            if ct is None:
                break
            e = edges[0]
            n, nr = e[2], e[3]
    return results


def _level_backward(roots, seeds, inputs, retain_graph):
    """The backward pass over one reverse-mode level's graph: the cotangents arriving at the
    edges `inputs` (the level's input leaves) for `seeds` at the edges `roots`.

    graph.run_backward without what a level's graph cannot have: its metas carry no hooks
    and no retain_grad, nothing accumulates into `.grad`, and every leaf of the graph is
    one of the level's inputs (so every node reaches a wanted edge).  Rules run with the
    tape's grad mode on (create_graph), so outer levels and the tape see their ops.
    Nodes are dict keys by identity (no node type defines __eq__).
    """
    # How many consumers each node has among the nodes that take part.
    deps = {}
    seen = set()
    stack = []
    for n, _ in roots:  # a node can be a root more than once (several of its outputs)
        if n not in seen:
            seen.add(n)
            stack.append(n)
    while stack:
        for e in stack.pop().edges:
            m = e[2]
            if m in deps:
                deps[m] += 1
            else:
                deps[m] = 1
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
    buffers = {}
    for (n, nr), sd in zip(roots, seeds):
        buf = buffers.get(n)
        if buf is None:
            buf = buffers[n] = [None] * n.n_outputs
        buf[nr] = sd if buf[nr] is None else graph._add(buf[nr], sd)
    queue = []
    for n, _ in roots:
        if n not in deps and n not in queue:
            queue.append(n)
    results = [None] * len(inputs)
    wanted = {}
    for k, (n, nr) in enumerate(inputs):
        w = wanted.get(n)
        if w is None:
            wanted[n] = [(k, nr)]
        else:
            w.append((k, nr))
    anomaly = STATE.anomaly
    with graph._GradModeFor(True):
        while queue:
            n = queue.pop()
            cts = buffers.pop(n, None)
            if n in wanted and cts is not None:
                for k, nr in wanted[n]:
                    results[k] = cts[nr]
            edges = n.edges
            if not edges:  # AccumulateGrad: a leaf
                continue
            in_cts = None
            if cts is not None:
                for c in cts:
                    if c is not None:
                        in_cts = n.apply(cts)
                        if anomaly:
                            graph._check_anomaly(n, in_cts)
                        break
            if not retain_graph:
                n.release()
            for k, e in enumerate(edges):
                m = e[2]
                if in_cts is not None:
                    ct = in_cts[k]
                    if ct is not None:
                        buf = buffers.get(m)
                        if buf is None:
                            buf = buffers[m] = [None] * m.n_outputs
                        nr = e[3]
                        buf[nr] = ct if buf[nr] is None else graph._add(buf[nr], ct)
                d = deps[m] - 1
                deps[m] = d
                if d == 0:
                    queue.append(m)
    return results


__all__ = ["GradTracer", "GradInterpreter", "level_backward"]
