"""L3: jvp rules generated from the op table's `linear` and `bilinear` flags.

A linear op's jvp is the op applied to the tangents, with zeros for inputs that carry none
(`op(t)`); a bilinear op's is `op(t1, x2) + op(x1, t2)`.  Only floating-point and complex
array arguments are replaced: integer arrays (indices of `take`, keys of `__getitem__`),
shapes and axes are passed through, so an op whose operands can be Python scalars (`x + 1.5`,
an affine map) keeps a hand-written jvp (elementwise.py's LINEAR table).  Family modules call these for their flagged entries,
and `install_all` fills any flagged entry that still has no jvp; tests/test_autodiff_table.py
checks that every flagged op's jvp is the op on the tangents.
"""

from __future__ import annotations

from ...native import _native
from ..tracer import Tracer

xp = None  # the arraycore namespace (set by install_all)

_ARRAYS = (_native.Array, Tracer)


def _inexact(a):
    return isinstance(a, _ARRAYS) and a.dtype.kind in "fc"


def _tangent_or_zeros(a, t):
    if not _inexact(a):
        return a
    return t if t is not None else xp.zeros_like(a)


def _substitute(args, kwargs, t):
    """args/kwargs with each floating array replaced by its tangent (zeros where none); a
    list or tuple argument (concat, stack) is replaced element by element."""
    new_args = []
    for i, a in enumerate(args):
        ti = t.get(i)
        if type(a) in (list, tuple):
            ts = ti if ti is not None else [None] * len(a)
            new_args.append(type(a)(_tangent_or_zeros(v, tv) for v, tv in zip(a, ts)))
        else:
            new_args.append(_tangent_or_zeros(a, ti))
    new_kwargs = {k: _tangent_or_zeros(v, t.get(k)) for k, v in kwargs.items()}
    return new_args, new_kwargs


def linear_jvp(op):
    """The jvp of a linear op: the op on the tangents."""
    def jvp(args, kwargs, t, out):
        new_args, new_kwargs = _substitute(args, kwargs, t)
        return op.public(*new_args, **new_kwargs)
    jvp.__qualname__ = f"linear_jvp({op.name})"
    return jvp


def bilinear_jvp(op):
    """The jvp of an op linear in each of its first two arguments: op(t1, x2) + op(x1, t2)."""
    def jvp(args, kwargs, t, out):
        x1, x2 = args[0], args[1]
        rest = args[2:]
        terms = []
        if t.get(0) is not None:
            terms.append(op.public(t[0], x2, *rest, **kwargs))
        if t.get(1) is not None:
            terms.append(op.public(x1, t[1], *rest, **kwargs))
        if not terms:
            return None
        return terms[0] if len(terms) == 1 else terms[0] + terms[1]
    jvp.__qualname__ = f"bilinear_jvp({op.name})"
    return jvp


def fill_flagged(ops):
    """Generated jvps for flagged entries that have rules otherwise but no jvp."""
    for op in ops.values():
        if op.nondiff or op.jvp is not None:
            continue
        if op.linear:
            op.jvp = linear_jvp(op)
        elif op.bilinear:
            op.jvp = bilinear_jvp(op)
