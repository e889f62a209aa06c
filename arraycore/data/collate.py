"""L4: turning a list of examples into a batch, with torch.utils.data's rules.

`default_collate` stacks arrays along a new first axis and recurses into containers:

    arraycore array / NumPy array / DLPack tensor -> arraycore array, stacked (ac.stack)
    NumPy scalar                -> 1-d array of its dtype
    float -> float64 array, int -> int64 array, bool -> bool array, complex -> complex128
    str, bytes                  -> the list, unchanged
    Mapping                     -> same mapping type, each key collated
    namedtuple                  -> same namedtuple type, each field collated
    tuple                       -> list of collated fields (PyTorch's "backwards compatibility")
    other Sequence (list, ...)  -> same type when it can be rebuilt, else list

`collate(batch, collate_fn_map=...)` takes PyTorch's extension hook: a dict from type (or
tuple of types) to `fn(batch, *, collate_fn_map)`, consulted first.
"""

from __future__ import annotations

import collections.abc
import copy
import sys

__all__ = ["default_collate", "default_convert", "collate", "default_collate_fn_map"]

_ERR = ("default_collate: batch must contain arrays, NumPy arrays, numbers, dicts or lists; "
        "found {}")


def _ns():
    return sys.modules["arraycore"]


def _is_numpy_object(x) -> bool:
    # NumPy arrays and scalars, recognised without importing NumPy (it is optional).
    return type(x).__module__ == "numpy" and type(x).__name__ not in ("str_", "bytes_")


def _to_array(x):
    ns = _ns()
    if isinstance(x, ns.Array):
        return x
    try:
        return ns.asarray(x)
    except (TypeError, ValueError) as e:
        raise TypeError(_ERR.format(f"{type(x).__name__} that does not convert to an array "
                                    f"({e})")) from None


def _collate_arrays(batch, *, collate_fn_map=None):
    ns = _ns()
    arrays = [_to_array(b) for b in batch]
    shape = arrays[0].shape
    for a in arrays[1:]:
        if a.shape != shape:
            raise RuntimeError(f"default_collate: stack expects each array to be equal size, "
                               f"but got {shape} and {a.shape}")
    return ns.stack(arrays, axis=0)


def _collate_numbers(batch, *, collate_fn_map=None):
    ns = _ns()
    elem = batch[0]
    if isinstance(elem, bool) and all(isinstance(b, bool) for b in batch):
        return ns.asarray(batch, dtype=ns.bool)
    if isinstance(elem, complex):
        return ns.asarray(batch, dtype=ns.complex128)
    if isinstance(elem, float):
        return ns.asarray(batch, dtype=ns.float64)
    return ns.asarray(batch)  # ints (int64), promoted if a later example is a float


def _collate_str(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map: dict = {
    (str, bytes): _collate_str,
    (bool, int, float, complex): _collate_numbers,
}


def _lookup(elem, collate_fn_map):
    if collate_fn_map is not None:
        fn = collate_fn_map.get(type(elem))
        if fn is not None:
            return fn
        for t, fn in collate_fn_map.items():
            if isinstance(elem, t):
                return fn
    if isinstance(elem, _ns().Array) or _is_numpy_object(elem):
        return _collate_arrays
    if hasattr(elem, "__dlpack__") and not isinstance(elem, (collections.abc.Mapping,
                                                             collections.abc.Sequence)):
        return _collate_arrays  # e.g. torch tensors from a dataset being ported
    return None


def collate(batch, *, collate_fn_map=None):
    """Collate `batch` (a list of examples) by the rules in this module's docstring, trying
    `collate_fn_map` first (PyTorch's extension hook).

    >>> import arraycore as ac
    >>> ac.data.collate([(1, 2.0), (3, 4.0)], collate_fn_map=ac.data.default_collate_fn_map)
    [Array([1, 3], dtype=int64), Array([2., 4.], dtype=float64)]
    """
    if not isinstance(batch, collections.abc.Sequence) or not batch:
        raise TypeError("default_collate: batch must be a non-empty list of examples, got "
                        f"{batch!r:.80}")
    elem = batch[0]
    fn = _lookup(elem, collate_fn_map)
    if fn is not None:
        return fn(batch, collate_fn_map=collate_fn_map)
    elem_type = type(elem)
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map)
                  for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)  # keeps the mapping type and its extra attributes
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(list(s), collate_fn_map=collate_fn_map)
                           for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [collate(list(s), collate_fn_map=collate_fn_map) for s in zip(*batch)]
        if isinstance(elem, tuple):
            return fields  # PyTorch returns tuples of fields as a list
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                for i, f in enumerate(fields):
                    clone[i] = f
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    raise TypeError(_ERR.format(elem_type))


def default_collate(batch):
    """Stack a list of examples into a batch (the DataLoader's default `collate_fn`).

    >>> import arraycore as ac
    >>> ac.data.default_collate([{"x": ac.ones(2), "y": 0}, {"x": ac.zeros(2), "y": 1}])
    {'x': Array([[1., 1.],
           [0., 0.]], dtype=float64), 'y': Array([0, 1], dtype=int64)}
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data):
    """Convert NumPy arrays (and other buffer/DLPack arrays) inside `data` to arraycore
    arrays, recursing into containers; anything else is returned as it is.  The DataLoader's
    `collate_fn` when batching is off (`batch_size=None`).

    >>> import arraycore as ac
    >>> ac.data.default_convert((1, [2.5]))
    [1, [2.5]]
    """
    ns = _ns()
    if isinstance(data, ns.Array):
        return data
    elem_type = type(data)
    if _is_numpy_object(data):
        try:
            return ns.asarray(data)
        except (TypeError, ValueError):
            return data  # string and object arrays stay as they are, as in PyTorch
    if isinstance(data, collections.abc.Mapping):
        fields = {key: default_convert(data[key]) for key in data}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        fields = [default_convert(d) for d in data]
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, f in enumerate(fields):
                    clone[i] = f
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    return data
