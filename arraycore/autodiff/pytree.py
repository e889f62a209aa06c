"""L3: pytrees: nested tuples, lists, dicts and namedtuples of arrays, as JAX and torch.func
accept them.  `flatten(tree) -> (leaves, spec)`, `unflatten(spec, leaves)`."""

from __future__ import annotations


class _Leaf:
    __slots__ = ()

    def __repr__(self):
        return "*"


LEAF = _Leaf()


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def flatten(tree):
    leaves = []

    def go(t):
        if _is_namedtuple(t):
            return ("namedtuple", type(t), tuple(go(v) for v in t))
        if type(t) in (tuple, list):
            return (type(t), None, tuple(go(v) for v in t))
        if type(t) is dict:
            keys = sorted(t, key=repr)
            return (dict, tuple(keys), tuple(go(t[k]) for k in keys))
        if t is None:
            return (None, None, ())
        leaves.append(t)
        return LEAF

    return leaves, go(tree)


def unflatten(spec, leaves):
    it = iter(leaves)

    def go(s):
        if s is LEAF:
            return next(it)
        kind, aux, children = s
        if kind is None:
            return None
        vals = [go(c) for c in children]
        if kind == "namedtuple":
            return aux(*vals)
        if kind is dict:
            return dict(zip(aux, vals))
        return kind(vals)

    return go(spec)


def tree_map(f, tree, *rest):
    leaves, spec = flatten(tree)
    others = [flatten(r)[0] for r in rest]
    return unflatten(spec, [f(x, *[o[i] for o in others]) for i, x in enumerate(leaves)])


def leaves_of(tree):
    return flatten(tree)[0]


__all__ = ["flatten", "unflatten", "tree_map", "leaves_of"]
