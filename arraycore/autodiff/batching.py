"""L3: vectorizing map.  A `BatchTracer` is a value whose batch dimension is a real axis
(`bdim`) of the array it holds, so a batched op is one kernel call on the larger array: the
op's batching rule rewrites the op (moves or adds axes, shifts `axis` arguments) instead of
looping (design notes, section 7).
"""

from __future__ import annotations

from . import slots as _slots
from .dispatch import Interpreter
from .tracer import Tracer

_ns = None


class BatchTracer(Tracer):
    __slots__ = ("_interp", "value", "bdim", "_ad")

    def __init__(self, interp, value, bdim):
        self._interp = interp
        self.value = value
        self.bdim = bdim
        self._ad = None

    @property
    def _shape(self):
        s = self.value.shape
        return s[:self.bdim] + s[self.bdim + 1:]

    @property
    def shape(self):  # Tracer.shape without the extra property call
        s = self.value.shape
        return s[:self.bdim] + s[self.bdim + 1:]

    @property
    def dtype(self):
        return self.value.dtype

    def _primal_value(self):
        return None

    def _fresh(self):
        return BatchTracer(self._interp, self.value, self.bdim)

    def _detached(self):
        return self if self._ad is None else self._fresh()

    def _assign(self, other):
        if isinstance(other, BatchTracer) and other._interp is self._interp:
            self.value, self.bdim = other.value, other.bdim
        else:
            self.value = _ns.broadcast_to(_ns.expand_dims(other, axis=0),
                                          (self._interp.size,) + tuple(other.shape))
            self.bdim = 0
        self._ad = getattr(other, "_ad", None)

    def __repr__(self):
        return f"BatchTracer(level={self._interp.level}, bdim={self.bdim}, value={self.value!r})"


class BatchInterpreter(Interpreter):
    kind = "vmap"

    def __init__(self, size, randomness="error"):
        super().__init__()
        self.size = size
        self.randomness = randomness

    def process(self, op, args, kwargs):
        if op.batch is None:
            raise NotImplementedError(f"vmap: op {op.name!r} has no batching rule")
        # Fast path: batched values are direct positional arguments (no list slots, no
        # tracer keywords).
        me = self
        vargs = None
        dims = {}
        for i, a in enumerate(args):
            ta = type(a)
            if ta is BatchTracer:
                if a._interp is me:
                    if vargs is None:
                        vargs = list(args)
                    vargs[i] = a.value
                    dims[i] = a.bdim
            elif ta is list or ta is tuple:
                return self._process_general(op, args, kwargs)
        if kwargs:
            for v in kwargs.values():
                if isinstance(v, (Tracer, list, tuple)):
                    return self._process_general(op, args, kwargs)
        out, out_dims = op.batch(args if vargs is None else tuple(vargs), kwargs, dims,
                                 self.size)
        if type(out_dims) is int and not isinstance(out, (list, tuple)):
            return BatchTracer(me, out, out_dims)
        return wrap(me, out, out_dims)

    def _process_general(self, op, args, kwargs):
        me = self
        dims = {}

        def unwrap(v):
            return v.value if isinstance(v, BatchTracer) and v._interp is me else v

        vargs, vkwargs = _slots.map_leaves(unwrap, args, kwargs)
        for slot, idx, v in _slots.leaves(args, kwargs):
            if isinstance(v, BatchTracer) and v._interp is me:
                _slots.put(dims, slot, idx, v.bdim,
                           lambda s: len(args[s] if type(s) is int else kwargs[s]))
        out, out_dims = op.batch(vargs, vkwargs, dims, self.size)
        return wrap(self, out, out_dims)


def wrap(interp, out, out_dims):
    if isinstance(out, (list, tuple)):
        if not isinstance(out_dims, (list, tuple)):
            out_dims = [out_dims] * len(out)
        items = [wrap(interp, o, d) for o, d in zip(out, out_dims)]
        if type(out) in (list, tuple):
            return type(out)(items)
        return type(out)(*items)
    if out_dims is None:
        return out
    return BatchTracer(interp, out, out_dims)


# --- random draws inside vmap (arraycore.random asks here) -------------------------------

def random_levels(who):
    """The vmap levels a random draw made now must give one value per batch element,
    outermost first (torch.func.vmap's `randomness`): raises under randomness="error" (the
    default); a "same" level is skipped, so its whole batch shares one draw.  The draw then
    has shape (*sizes, *shape) and `batch_random` makes it a batched value."""
    from .state import STATE
    levels = None
    for it in STATE.stack:
        if isinstance(it, BatchInterpreter):
            mode = it.randomness
            if mode == "error":
                raise RuntimeError(
                    f"{who}: random operation called inside vmap with randomness='error' "
                    "(the default); pass randomness='different' (an independent draw per "
                    "batch element) or 'same' (one draw shared by the batch) to vmap, or "
                    "draw outside vmap")
            if mode == "different":
                if levels is None:
                    levels = []
                levels.append(it)
    return levels


def batch_random(value, levels):
    """A draw of shape (*[it.size for it in levels], *shape) as a value batched over those
    levels (outermost first)."""
    for it in levels:
        value = BatchTracer(it, value, 0)
    return value


# --- helpers for batching rules -----------------------------------------------------------

def moveaxis(x, src, dst):
    if src == dst:
        return x
    return _ns.moveaxis(x, src, dst)


def to_front(x, bdim):
    """x with its batch axis first (bdim None: unbatched, returned as is)."""
    if bdim is None or bdim == 0:
        return x
    return _ns.moveaxis(x, bdim, 0)


def materialize(x, bdim, size):
    """x with a leading batch axis, broadcasting an unbatched value (a view)."""
    if bdim is None:
        return _ns.broadcast_to(_ns.expand_dims(x, axis=0), (size,) + tuple(x.shape))
    return to_front(x, bdim)


__all__ = ["BatchTracer", "BatchInterpreter", "to_front", "materialize", "moveaxis", "wrap",
           "random_levels", "batch_random"]
