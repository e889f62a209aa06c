"""L3: how rules are attached to op-table entries, and the generators that build them.

Every op of the table gets, from one of the `define_*` helpers below:
- `op.jvp(args, kwargs, tangents, out) -> out tangent`: `tangents` maps a slot (position or
  keyword, see slots.py) to its tangent; absent slots have zero tangents.
- `op.vjp(g, args, kwargs, out, needs) -> {slot: cotangent}`: `needs` is the set of
  (slot, index) whose cotangent is wanted.  Results may be broadcast and of a wider dtype:
  graph.fit_cotangent sums and casts them to each input (no rule unbroadcasts).
- `op.batch(args, kwargs, dims, size) -> (out, out_bdim)`: `dims` maps the batched slots
  to their batch axis.
- `op.extra["saves"]`: the slots (and "out") the vjp reads, so only those are kept and
  version-checked (Note [Saved values and version counters], graph.py).
or is declared non-differentiable (`nondiff`: integer/bool results; outputs never require
grad, tangents are zero) by `define_nondiff`.

Complex numbers follow PyTorch (conjugate Wirtinger): for a holomorphic op with derivative
d, jvp = t * d and vjp = g * conj(d).
"""

from __future__ import annotations

import dis

from .. import batching as _b
from ...native import _native

xp = None  # the arraycore namespace (set by install)


def used_params(fn):
    """Names of fn's parameters that its body reads (to know what a rule saves)."""
    params = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    loaded = {ins.argval for ins in dis.get_instructions(fn)
              if ins.opname.startswith("LOAD_FAST") or ins.opname == "LOAD_DEREF"}
    return [p for p in params if p in loaded]


def _complex_codes():
    from ..._core import dtypes as _dt
    return frozenset(d.code for d in _dt.ALL_DTYPES if d.kind == "c")


_Array = _native.Array
_COMPLEX_CODES = _complex_codes()


def _is_complex(v):
    t = type(v)
    if t is _Array:  # the common case, without the dtype object
        return v._dtype_code in _COMPLEX_CODES
    if t is float or t is int:
        return False
    return hasattr(v, "dtype") and v.dtype.kind == "c" or t is complex


def _conj_if_complex(d, *like):
    if _is_complex(d) or any(_is_complex(v) for v in like):
        # A derivative can be a Python scalar (d(x1 * c)/dx1 = c): conjugate it as one.
        return d.conjugate() if isinstance(d, (int, float, complex)) else xp.conj(d)
    return d


def _mul(a, b):
    if a is None or b is None:
        return None
    return a * b


def _sum_terms(terms):
    out = None
    for t in terms:
        if t is None:
            continue
        out = t if out is None else out + t
    return out


def define(op, jvp=None, vjp=None, batch=None, saves=None):
    if jvp is not None:
        op.jvp = jvp
    if vjp is not None:
        op.vjp = vjp
    if batch is not None:
        op.batch = batch
    if saves is not None:
        op.extra["saves"] = tuple(saves)
        op.extra.pop("_saves_info", None)  # graph._saves_for's cache
        op.extra.pop("saves_by_slot", None)
    op.nondiff = False


def define_nondiff(op, batch=None):
    op.nondiff = True
    op.jvp = op.vjp = None
    if batch is not None:
        op.batch = batch


# --- elementwise ------------------------------------------------------------------------

def _arg_slots(args, kwargs):
    for i, a in enumerate(args):
        yield i, a
    for k, a in kwargs.items():
        yield k, a


def elementwise_batch(op):
    """Batch axes to the front and aligned: a batched argument of lower per-example rank
    gets size-1 axes after its batch axis, so broadcasting lines up per example."""
    def rule(args, kwargs, dims, size):
        if not kwargs:
            # Fast paths: nothing to move or pad.  One argument keeps its batch axis where it
            # is; two arguments broadcast correctly as they are when the batched ones have it
            # in front and the unbatched one has no more per-example dimensions.
            n = len(args)
            if n == 1:
                return op.public(args[0]), dims[0]
            if n == 2:
                a, b = args
                da, db = dims.get(0), dims.get(1)
                if da == 0:
                    if db == 0:
                        if a.ndim == b.ndim:
                            return op.public(a, b), 0
                    elif db is None and (not hasattr(b, "ndim") or b.ndim < a.ndim):
                        return op.public(a, b), 0
                elif db == 0 and da is None and (not hasattr(a, "ndim") or a.ndim < b.ndim):
                    return op.public(a, b), 0
        rank = 0
        for s, a in _arg_slots(args, kwargs):
            if hasattr(a, "ndim"):
                rank = max(rank, a.ndim - (1 if s in dims else 0))
        new_args = list(args)
        new_kwargs = dict(kwargs)
        for s, d in dims.items():
            a = args[s] if type(s) is int else kwargs[s]
            a = _b.to_front(a, d)
            extra = rank - (a.ndim - 1)
            if extra:
                a = xp.reshape(a, (a.shape[0],) + (1,) * extra + tuple(a.shape[1:]))
            if type(s) is int:
                new_args[s] = a
            else:
                new_kwargs[s] = a
        return op.public(*new_args, **new_kwargs), 0
    return rule


def define_unary(op, d):
    """Unary op with derivative d(x, y) (y: the output)."""
    names = used_params(d)
    saves = [0] if "x" in names else []
    if "y" in names:
        saves.append("out")

    def jvp(args, kwargs, t, out):
        x = args[0]
        return t[0] * d(x, out)

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        dx = d(x, out)
        if type(x) is _Array and x._dtype_code not in _COMPLEX_CODES and \
                type(dx) is _Array and dx._dtype_code not in _COMPLEX_CODES:
            return {0: g * dx}
        return {0: g * _conj_if_complex(dx, x)}

    define(op, jvp, vjp, elementwise_batch(op), saves)


def define_binary(op, d1, d2):
    """Binary op with partial derivatives d1(x1, x2, y), d2(x1, x2, y)."""
    def saves_of(d):
        n = used_params(d)
        return ([0] if "x1" in n else []) + ([1] if "x2" in n else []) + \
            (["out"] if "y" in n else [])
    s1, s2 = saves_of(d1), saves_of(d2)
    saves = sorted(set(s1) | set(s2), key=str)

    def jvp(args, kwargs, t, out):
        x1, x2 = args
        return _sum_terms([_mul(t.get(0), d1(x1, x2, out) if 0 in t else None),
                           _mul(t.get(1), d2(x1, x2, out) if 1 in t else None)])

    def vjp(g, args, kwargs, out, needs):
        x1, x2 = args
        res = {}
        if (0, None) in needs:
            res[0] = g * _conj_if_complex(d1(x1, x2, out), x1, x2)
        if (1, None) in needs:
            res[1] = g * _conj_if_complex(d2(x1, x2, out), x1, x2)
        return res

    define(op, jvp, vjp, elementwise_batch(op), saves)
    # A node evaluates only the derivatives of the inputs it has edges for, so it keeps (and
    # version-checks) only what those read: `x * c` saves c, not x (graph._saves_for).
    op.extra["saves_by_slot"] = {0: tuple(s1), 1: tuple(s2)}


def define_linear_elementwise(op, transpose):
    """An elementwise op linear in every input: jvp is the op on the tangents (zeros where
    absent); `transpose(g, args, slot)` gives each input's cotangent."""
    def jvp(args, kwargs, t, out):
        targs = [t.get(i, 0.0 if not hasattr(a, "shape") else None)
                 for i, a in enumerate(args)]
        targs = [xp.zeros_like(args[i]) if v is None else v for i, v in enumerate(targs)]
        if all(not hasattr(v, "shape") for v in targs):
            return None
        return op.public(*targs)

    def vjp(g, args, kwargs, out, needs):
        return {s: transpose(g, args, s) for (s, _) in needs}

    define(op, jvp, vjp, elementwise_batch(op), saves=[])


def define_zero_derivative(op, batch=None):
    """Float results with derivative zero almost everywhere (floor, sign, round, ...): they
    are differentiable with zero gradients, as in PyTorch."""
    def jvp(args, kwargs, t, out):
        return xp.zeros_like(out)

    def vjp(g, args, kwargs, out, needs):
        return {s: xp.zeros_like(args[s]) for (s, i) in needs if i is None}

    define(op, jvp, vjp, batch or elementwise_batch(op), saves=[])
