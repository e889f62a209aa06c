"""L3: pytrees: nested tuples, lists, dicts and namedtuples of arrays, as JAX and torch.func
accept them.  `flatten(tree) -> (leaves, spec)`, `unflatten(spec, leaves)`.

The walkers are module-level functions that take their accumulator as an argument: a
recursive closure (a nested `def go` calling itself) is a reference cycle through its own
cell, which would keep the leaves (arrays) alive until the cyclic garbage collector runs,
so every transform call would allocate its buffers afresh instead of reusing freed ones.
"""

from __future__ import annotations


class _Leaf:
    __slots__ = ()

    def __repr__(self):
        return "*"


LEAF = _Leaf()
_NONE_SPEC = (None, None, ())


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


_FLAT_TUPLES = {}  # n -> the spec of a tuple of n leaves (one shared object per n)


def _flat_tuple_spec(n):
    spec = _FLAT_TUPLES.get(n)
    if spec is None:
        spec = _FLAT_TUPLES[n] = (tuple, None, (LEAF,) * n)
    return spec


def _flatten(t, leaves):
    tt = type(t)
    if tt is tuple or tt is list:
        children = tuple([_flatten(v, leaves) for v in t])
        if tt is tuple and len(children) <= 8:
            for c in children:
                if c is not LEAF:
                    break
            else:
                return _flat_tuple_spec(len(children))
        return (tt, None, children)
    if tt is dict:
        keys = sorted(t, key=repr)
        return (dict, tuple(keys), tuple([_flatten(t[k], leaves) for k in keys]))
    if t is None:
        return _NONE_SPEC
    if isinstance(t, tuple) and hasattr(tt, "_fields"):
        return ("namedtuple", tt, tuple([_flatten(v, leaves) for v in t]))
    leaves.append(t)
    return LEAF


def flatten(tree):
    leaves = []
    spec = _flatten(tree, leaves)
    return leaves, spec


def _unflatten(s, it):
    if s is LEAF:
        return next(it)
    kind, aux, children = s
    if kind is None:
        return None
    vals = [_unflatten(c, it) for c in children]
    if kind == "namedtuple":
        return aux(*vals)
    if kind is dict:
        return dict(zip(aux, vals))
    return kind(vals)


def unflatten(spec, leaves):
    if spec is LEAF:
        return leaves[0]
    if _FLAT_TUPLES.get(len(spec[2])) is spec:  # a flat tuple (function arguments)
        return tuple(leaves)
    return _unflatten(spec, iter(leaves))


def tree_map(f, tree, *rest):
    leaves, spec = flatten(tree)
    others = [flatten(r)[0] for r in rest]
    return unflatten(spec, [f(x, *[o[i] for o in others]) for i, x in enumerate(leaves)])


def leaves_of(tree):
    return flatten(tree)[0]


__all__ = ["flatten", "unflatten", "tree_map", "leaves_of"]
