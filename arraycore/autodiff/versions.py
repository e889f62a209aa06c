"""L3: version counters of array buffers (Note [Saved values and version counters] in
graph.py).

PyTorch keeps a counter per storage, shared by every view.  Here the counter is keyed by the
buffer's address: every view of a buffer reports the buffer's start address, and a buffer
cannot be freed (and its address reused) while a node still holds an array of it.
"""

from __future__ import annotations

from ..native import _native

Array = _native.Array
_VERSIONS: dict = {}


def version(x) -> int:
    return _VERSIONS.get(x._buffer_ptr, 0)


def bump(x) -> None:
    """Called by every in-place write (operators, __setitem__)."""
    p = x._buffer_ptr
    _VERSIONS[p] = _VERSIONS.get(p, 0) + 1


def snapshot(op, args, kwargs, out):
    """(array, version) for the plain arrays the op's rule will read."""
    items = []
    for slot in op.extra["saves"]:
        v = out if slot == "out" else (args[slot] if type(slot) is int and slot < len(args)
                                       else kwargs.get(slot) if type(slot) is str else None)
        if type(v) in (list, tuple):
            items.extend((b, version(b)) for b in v if type(b) is Array)
        elif type(v) is Array:
            items.append((v, version(v)))
    return items


def check(node) -> None:
    for arr, ver in node.saved:
        now = version(arr)
        if now != ver:
            raise RuntimeError(
                f"one of the variables needed for gradient computation has been modified by "
                f"an inplace operation: [{arr.dtype}{list(arr.shape)}], which is an input or "
                f"output of {node.name()}, is at version {now}; expected version {ver} "
                "instead. Hint: enable anomaly detection (autograd.detect_anomaly()) to find "
                "the operation that failed to compute its gradient")
