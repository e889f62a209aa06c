"""L3: where the arrays are in an op's arguments.

Rules and interpreters address an op's array arguments by *slot*: a positional index or a
keyword name.  A list/tuple argument (concat's arrays, an indexing key) is one slot whose
value is a list; its array items are addressed as (slot, i).  Python scalars, shapes and
axes are not leaves: only arrays and tracers are.
"""

from __future__ import annotations

from ..native import _native
from .tracer import Tracer

Array = _native.Array
ARRAY_TYPES = (Array, Tracer)


def leaves(args, kwargs):
    """Yields (slot, index, value) for each array/tracer leaf; index is None for a direct
    argument, the position inside a list/tuple argument otherwise."""
    for i, a in enumerate(args):
        if isinstance(a, ARRAY_TYPES):
            yield i, None, a
        elif type(a) in (list, tuple):
            for j, b in enumerate(a):
                if isinstance(b, ARRAY_TYPES):
                    yield i, j, b
    if kwargs:
        for k, a in kwargs.items():
            if isinstance(a, ARRAY_TYPES):
                yield k, None, a
            elif type(a) in (list, tuple):
                for j, b in enumerate(a):
                    if isinstance(b, ARRAY_TYPES):
                        yield k, j, b


def map_leaves(f, args, kwargs):
    """(args, kwargs) with every array/tracer leaf v replaced by f(v)."""
    def m(a):
        if isinstance(a, ARRAY_TYPES):
            return f(a)
        if type(a) in (list, tuple):
            return type(a)(f(b) if isinstance(b, ARRAY_TYPES) else b for b in a)
        return a
    return tuple(m(a) for a in args), ({k: m(a) for k, a in kwargs.items()} if kwargs else {})


def get(container_args, container_kwargs, slot, index):
    v = container_args[slot] if type(slot) is int else container_kwargs.get(slot)
    if index is not None and v is not None:
        v = v[index]
    return v


def put(d: dict, slot, index, value, length_of):
    """Stores value at (slot, index) in a slot dict (lists for list slots)."""
    if index is None:
        d[slot] = value
    else:
        lst = d.get(slot)
        if lst is None:
            lst = d[slot] = [None] * length_of(slot)
        lst[index] = value
