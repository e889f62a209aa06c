"""L3: the rule builder the special functions share (rules/special_*.py).

A special function is elementwise in all its operands, so one description covers jvp, vjp
and batching: a partial derivative per operand, `d(*args, y)` (y: the output, reused where
the derivative is a function of it, as expit's y (1 - y)), or None for an operand with no
closed-form derivative (the order n of yn, the shape a of gammainc: PyTorch raises there,
and so do we, naming the function and the argument, rather than return a wrong zero).
"""

from __future__ import annotations

from ..tracer import Tracer
from .base import _mul, _sum_terms, define, elementwise_batch

xp = None  # set by install_all


def _as_arrays(args, out):
    """The operands with Python and NumPy scalars as 0-d arrays of the result's dtype.

    Constants are often passed as numbers (`gammainc(2.0, x)`), and the partials compare
    and select on them (`xp.where(a >= 1.0, ...)` needs an array condition); the result's
    dtype keeps a float32 derivative float32 where a float64 array would promote it."""
    return tuple(a if isinstance(a, (xp.Array, Tracer)) else xp.asarray(a, dtype=out.dtype)
                 for a in args)


def _not_differentiable(op, slot, names):
    arg = f"argument {slot}" + (f" ({names[slot]})" if names and slot < len(names) else "")
    return ValueError(f"{op.name}: not differentiable with respect to {arg}; its derivative "
                      f"has no closed form here (pass it as a constant)")


def define_partials(op, partials, arg_names=()):
    """Elementwise op `op` with partial derivatives `partials[i](*args, y)` (None: raises
    when a derivative with respect to operand i is asked for)."""
    partials = tuple(partials)
    if len(partials) != op.arity:
        raise ValueError(f"{op.name}: {len(partials)} partials for {op.arity} operands")

    def jvp(args, kwargs, t, out):
        args = _as_arrays(args, out)
        terms = []
        for i, d in enumerate(partials):
            if i in t and t[i] is not None:
                if d is None:
                    raise _not_differentiable(op, i, arg_names)
                terms.append(_mul(t[i], d(*args, out)))
        return _sum_terms(terms)

    def vjp(g, args, kwargs, out, needs):
        args = _as_arrays(args, out)
        res = {}
        for (i, _) in needs:
            d = partials[i]
            if d is None:
                raise _not_differentiable(op, i, arg_names)
            res[i] = g * d(*args, out)
        return res

    define(op, jvp, vjp, elementwise_batch(op), list(range(op.arity)) + ["out"])
