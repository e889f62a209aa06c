"""L3: forward mode.  A `JVPTracer` carries a primal and a tangent (None: a symbolic zero) at
one level; the interpreter applies the op to the primals and its jvp rule to the tangents.
Used by `func.jvp`/`jacfwd`/`linearize` and by `autograd.forward_ad` (whose dual level
unwraps its tracers to their primals once the level has exited, as PyTorch drops tangents).
"""

from __future__ import annotations

from . import slots as _slots
from .dispatch import Interpreter
from .tracer import Tracer

_ns = None


class JVPTracer(Tracer):
    __slots__ = ("_interp", "primal", "tangent", "_ad")

    def __init__(self, interp, primal, tangent):
        self._interp = interp
        self.primal = primal
        self.tangent = tangent
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
        return JVPTracer(self._interp, self.primal, self.tangent)

    def _detached(self):
        return self if self._ad is None else self._fresh()

    def _assign(self, other):
        if isinstance(other, JVPTracer) and other._interp is self._interp:
            self.primal, self.tangent = other.primal, other.tangent
        else:
            self.primal, self.tangent = other, None
        self._ad = getattr(other, "_ad", None)

    def __repr__(self):
        if not self._interp.active and self._interp.unwrap_when_dead:
            return repr(self.primal)  # a dual whose level has exited is its primal
        return f"JVPTracer(level={self._interp.level}, primal={self.primal!r}, " \
               f"tangent={self.tangent!r})"


class JVPInterpreter(Interpreter):
    kind = "jvp"

    def __init__(self, unwrap_when_dead=False):
        super().__init__()
        self.unwrap_when_dead = unwrap_when_dead

    def unwrap_dead(self, v):
        if self.unwrap_when_dead:
            return v.primal
        return super().unwrap_dead(v)

    def lift(self, primal, tangent):
        return JVPTracer(self, primal, tangent)

    def process(self, op, args, kwargs):
        # Fast path: traced values are direct positional arguments (no list slots, no tracer
        # keywords).
        me = self
        pargs = None
        tangents = None
        for i, a in enumerate(args):
            ta = type(a)
            if ta is JVPTracer:
                if a._interp is me:
                    if pargs is None:
                        pargs = list(args)
                    pargs[i] = a.primal
                    t = a.tangent
                    if t is not None:
                        if tangents is None:
                            tangents = {}
                        tangents[i] = t
            elif ta is list or ta is tuple:
                return self._process_general(op, args, kwargs)
        if kwargs:
            for v in kwargs.values():
                if isinstance(v, (Tracer, list, tuple)):
                    return self._process_general(op, args, kwargs)
        if pargs is not None:
            args = tuple(pargs)
        out = op.public(*args, **kwargs)
        if tangents is None or op.nondiff:
            return out
        t_out = op.jvp(args, kwargs, tangents, out)
        return _wrap(self, out, t_out)

    def _process_general(self, op, args, kwargs):
        tangents = {}
        me = self

        def unwrap(v):
            return v.primal if isinstance(v, JVPTracer) and v._interp is me else v

        pargs, pkwargs = _slots.map_leaves(unwrap, args, kwargs)
        for slot, idx, v in _slots.leaves(args, kwargs):
            if isinstance(v, JVPTracer) and v._interp is me and v.tangent is not None:
                _slots.put(tangents, slot, idx, v.tangent,
                           lambda s: len(args[s] if type(s) is int else kwargs[s]))
        out = op.public(*pargs, **pkwargs)
        if op.nondiff or not tangents:
            return out
        t_out = op.jvp(pargs, pkwargs, tangents, out)
        return _wrap(self, out, t_out)


def _wrap(interp, out, t_out):
    if isinstance(out, (list, tuple)) and not _is_array(out):
        items = [_wrap_one(interp, o, t) for o, t in zip(out, t_out)]
        if type(out) in (list, tuple):
            return type(out)(items)
        return type(out)(*items)
    return _wrap_one(interp, out, t_out)


def _is_array(v):
    return not isinstance(v, (list, tuple))


def _wrap_one(interp, o, t):
    if t is None or o.dtype.kind not in "fc":
        return o
    return JVPTracer(interp, o, t)


__all__ = ["JVPTracer", "JVPInterpreter"]
