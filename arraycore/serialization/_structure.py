"""L4: nested Python containers <-> (a JSON structure, a flat dict of named arrays).

A saved object is a tree whose inner nodes are dicts, lists and tuples and whose leaves are
arrays, Python numbers, strings, None and bools.  `flatten` names every array by its path
("state.0.exp_avg") and describes the tree as JSON, which `save` stores in the safetensors
`__metadata__`; `unflatten` rebuilds the tree from that JSON and the loaded arrays.  Only
these node kinds exist, so loading never constructs an arbitrary class (nothing like pickle).

Encoding of a node (a JSON array whose first item is the kind):
    ["t", name]              an array stored as the tensor `name`
    ["none"] ["b", true] ["i", 3] ["f", "0.1"] ["c", "1.0", "-2.0"] ["s", "text"]
    ["list", [node, ...]]    ["tuple", [node, ...]]
    ["dict", [[key, node], ...]]   keys are encoded as leaves (str, int, float, bool, None)
Floats are stored as repr strings, so nan, inf and -0.0 round-trip exactly.
"""

from __future__ import annotations

from collections.abc import Mapping


def encode_scalar(x):
    """The node of a non-array leaf, or None when x is not such a leaf."""
    if x is None:
        return ["none"]
    if isinstance(x, bool):
        return ["b", x]
    if isinstance(x, int):
        return ["i", int(x)]
    if isinstance(x, float):
        return ["f", repr(float(x))]
    if isinstance(x, complex):
        return ["c", repr(x.real), repr(x.imag)]
    if isinstance(x, str):
        return ["s", x]
    return None


def decode_scalar(node, where: str, bad):
    kind = node[0]
    try:
        if kind == "none" and len(node) == 1:
            return None
        if kind == "b" and len(node) == 2 and isinstance(node[1], bool):
            return node[1]
        if kind == "i" and len(node) == 2 and type(node[1]) is int:
            return node[1]
        if kind == "f" and len(node) == 2 and isinstance(node[1], str):
            return float(node[1])
        if kind == "c" and len(node) == 3 and all(isinstance(v, str) for v in node[1:]):
            return complex(float(node[1]), float(node[2]))
        if kind == "s" and len(node) == 2 and isinstance(node[1], str):
            return node[1]
    except ValueError:
        pass
    bad(f"bad leaf {node!r} at {where}")


class Flattener:
    """Walks a tree once, naming arrays and building the structure."""

    def __init__(self, array_types, fn: str = "save"):
        self.array_types = array_types
        self.fn = fn
        self.arrays = {}  # name -> array, in visiting order
        self._active = set()  # ids of containers on the current path (cycle check)

    def _name_for(self, path) -> str:
        base = ".".join(str(p) for p in path) if path else "tensor"
        name, k = base, 1
        while name in self.arrays or name == "__metadata__":
            name, k = f"{base}#{k}", k + 1
        return name

    def node(self, x, path):
        where = ".".join(str(p) for p in path) or "<root>"
        if isinstance(x, self.array_types):
            name = self._name_for(path)
            self.arrays[name] = x
            return ["t", name]
        leaf = encode_scalar(x)
        if leaf is not None:
            return leaf
        if isinstance(x, (dict, Mapping, list, tuple)):
            if id(x) in self._active:
                raise ValueError(f"{self.fn}: the object contains itself at {where} (a cycle)")
            self._active.add(id(x))
            try:
                if isinstance(x, (dict, Mapping)):
                    items = []
                    for k, v in x.items():
                        key = encode_scalar(k)
                        if key is None or key[0] == "c":
                            raise TypeError(f"{self.fn}: dict keys must be str, int, float, "
                                            f"bool or None; got {type(k).__name__} at {where}")
                        items.append([key, self.node(v, path + [k])])
                    return ["dict", items]
                kind = "list" if isinstance(x, list) else "tuple"  # namedtuples: plain tuples
                return [kind, [self.node(v, path + [i]) for i, v in enumerate(x)]]
            finally:
                self._active.discard(id(x))
        raise TypeError(f"{self.fn}: cannot store an object of type {type(x).__name__} at "
                        f"{where} (arrays, dicts, lists, tuples, numbers, str, bool and None "
                        "can be saved)")


def unflatten(node, arrays, bad, where="<root>", used=None):
    """Rebuild the tree; `bad(msg)` raises the caller's error.  `used` collects the names of
    the tensors the structure refers to."""
    if not isinstance(node, list) or not node or not isinstance(node[0], str):
        bad(f"bad node {node!r} at {where}")
    kind = node[0]
    if kind == "t":
        if len(node) != 2 or not isinstance(node[1], str):
            bad(f"bad tensor reference {node!r} at {where}")
        if node[1] not in arrays:
            bad(f"the structure refers to tensor {node[1]!r}, which the file does not hold")
        if used is not None:
            used.add(node[1])
        return arrays[node[1]]
    if kind in ("list", "tuple"):
        if len(node) != 2 or not isinstance(node[1], list):
            bad(f"bad {kind} node at {where}")
        items = [unflatten(c, arrays, bad, f"{where}.{i}", used) for i, c in enumerate(node[1])]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        if len(node) != 2 or not isinstance(node[1], list):
            bad(f"bad dict node at {where}")
        out = {}
        for item in node[1]:
            if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], list) \
                    or not item[0]:
                bad(f"bad dict item {item!r} at {where}")
            key = decode_scalar(item[0], where, bad)
            out[key] = unflatten(item[1], arrays, bad, f"{where}.{key}", used)
        return out
    return decode_scalar(node, where, bad)
