"""L3: reverse mode as a transform level (`func.grad`, `func.vjp`, `jacrev`).

A `GradTracer` is a value of one reverse-mode level: its primal (a value of the levels
below) and an `AutogradMeta` in that level's graph.  Processing an op computes it on the
primals (dispatching to lower levels) and records a `Node` whose rule inputs are those
primals, so evaluating the vjp later, outside this level, is itself traced by any outer
level: `grad(grad(f))`, `jacfwd(jacrev(f))` and `vmap(grad(f))` need nothing more.  The
backward pass is the tape's engine (graph.run_backward).
"""

from __future__ import annotations

from . import slots as _slots
from .dispatch import Interpreter
from .graph import AutogradMeta
from .state import level_records
from .tape import attach
from .tracer import Tracer


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


__all__ = ["GradTracer", "GradInterpreter"]
