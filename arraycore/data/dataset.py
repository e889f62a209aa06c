"""L4: datasets, torch.utils.data's shapes: `Dataset` (map-style: `__getitem__` + `__len__`),
`IterableDataset` (`__iter__`), `TensorDataset`, `Subset`, `ConcatDataset`, `ChainDataset`
and `random_split`.

`TensorDataset` and `Subset`s of it also gather a whole batch at once (`_gather`: one `take`
per tensor for an index array), which is what lets the DataLoader skip per-example indexing
and stacking; see dataloader.py, Note [Batch gather].
"""

from __future__ import annotations

import bisect
import math
import sys
import warnings

from ..native import _native
from . import _rng

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "ChainDataset", "random_split"]


def _ns():
    return sys.modules["arraycore"]


class Dataset:
    """A map-style dataset: subclasses define `__getitem__(index)` and usually `__len__`.
    `a + b` concatenates two datasets.

    >>> import arraycore as ac
    >>> class Squares(ac.data.Dataset):
    ...     def __len__(self): return 4
    ...     def __getitem__(self, i): return i * i
    >>> list(ac.data.DataLoader(Squares(), batch_size=2))
    [Array([0, 1], dtype=int64), Array([4, 9], dtype=int64)]
    """

    def __getitem__(self, index):
        raise TypeError(f"{type(self).__name__}: a Dataset subclass must define "
                        "__getitem__(index)")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset that is a stream: subclasses define `__iter__`.  With `num_workers > 0` every
    worker thread iterates its own `iter(dataset)`; shard the stream with
    `ac.data.get_worker_info()` (as in PyTorch) or every worker yields every example.

    >>> import arraycore as ac
    >>> class Count(ac.data.IterableDataset):
    ...     def __iter__(self): return iter(range(5))
    >>> [b.tolist() for b in ac.data.DataLoader(Count(), batch_size=2)]
    [[0, 1], [2, 3], [4]]
    """

    def __iter__(self):
        raise TypeError(f"{type(self).__name__}: an IterableDataset subclass must define "
                        "__iter__()")

    def __add__(self, other):
        return ChainDataset([self, other])


def _as_array(t, fn):
    ns = _ns()
    if isinstance(t, ns.Array):
        return t
    try:
        return ns.asarray(t)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{fn}: expected arrays, got {type(t).__name__} ({e})") from None


class TensorDataset(Dataset):
    """Examples are the rows (first-axis slices) of equally long arrays: item i is
    `tuple(t[i] for t in tensors)`.  Inputs that are not arraycore arrays (NumPy arrays,
    nested lists, DLPack tensors) are converted with `ac.asarray`.

    A DataLoader over a TensorDataset (or a Subset of one) builds each batch with one
    `ac.take` per tensor instead of indexing examples one by one.

    >>> import arraycore as ac
    >>> ds = ac.data.TensorDataset(ac.reshape(ac.arange(6.0), (3, 2)), ac.asarray([0, 1, 0]))
    >>> len(ds), ds[1]
    (3, (Array([2., 3.], dtype=float64), Array(1, dtype=int64)))
    """

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset: needs at least one array")
        arrays = tuple(_as_array(t, "TensorDataset") for t in tensors)
        for i, a in enumerate(arrays):
            if a.ndim == 0:
                raise ValueError(f"TensorDataset: array {i} is 0-d; every array needs a first "
                                 "axis of examples")
        n = arrays[0].shape[0]
        if any(a.shape[0] != n for a in arrays):
            raise ValueError("TensorDataset: size mismatch between arrays: first axes are "
                             f"{[a.shape[0] for a in arrays]}")
        self.tensors = arrays

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]

    def _gather(self, indices):
        """The default-collated batch for an int64 index array: one take per tensor (a list,
        as default_collate makes of a batch of tuples)."""
        out = []
        for t in self.tensors:
            if t.requires_grad:  # keep the tape's record: the namespace take
                out.append(_ns().take(t, indices, axis=0))
                continue
            # The native gather straight into a fresh array: what ac.take does for axis 0
            # without its ~15 us of argument checks, which would cost as much as the copy
            # of a small batch.  Out-of-range indices still raise IndexError.
            b = _native.empty((indices.shape[0],) + t.shape[1:], t._dtype_code)
            _native.adv_gather(t, [0], [indices], b, "DataLoader")
            out.append(b)
        return out


class Subset(Dataset):
    """The examples of `dataset` at `indices` (any sequence of ints, or an int array).

    >>> import arraycore as ac
    >>> s = ac.data.Subset(ac.data.TensorDataset(ac.arange(10)), [7, 2])
    >>> len(s), s[0]
    (2, (Array(7, dtype=int64),))
    """

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices
        self._index_array = None

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices):
        # torch's batched-fetch protocol: forwarded when the wrapped dataset has it.
        mapped = [self.indices[i] for i in indices]
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__(mapped)
        return [self.dataset[i] for i in mapped]

    def __len__(self):
        return len(self.indices)

    def _gather_fn(self):
        inner = _gather_fn(self.dataset)
        if inner is None:
            return None
        ns = _ns()
        if self._index_array is None:
            ind = self.indices
            if not isinstance(ind, ns.Array):
                ind = ns.asarray(list(ind), dtype=ns.int64)
            elif ind.dtype != ns.int64:
                ind = ns.astype(ind, ns.int64)
            self._index_array = ind

        def gather(indices, _map=self._index_array):
            return inner(ns.take(_map, indices, axis=0))
        return gather


def _gather_fn(dataset):
    """A function index-array -> collated batch for datasets that gather in one step, else
    None.  See dataloader.py, Note [Batch gather]."""
    if type(dataset) is TensorDataset or (isinstance(dataset, TensorDataset)
                                          and type(dataset).__getitem__ is
                                          TensorDataset.__getitem__):
        return dataset._gather
    if isinstance(dataset, Subset) and type(dataset).__getitem__ is Subset.__getitem__:
        return dataset._gather_fn()
    return None


class ConcatDataset(Dataset):
    """Map-style datasets one after another.

    >>> import arraycore as ac
    >>> a = ac.data.TensorDataset(ac.arange(3)); b = ac.data.TensorDataset(ac.arange(10, 12))
    >>> c = ac.data.ConcatDataset([a, b]); len(c), c[3]
    (5, (Array(10, dtype=int64),))
    """

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("ConcatDataset: datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TypeError("ConcatDataset: does not support IterableDataset (use "
                                "ChainDataset)")
        self.cumulative_sizes = []
        total = 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise IndexError("ConcatDataset: index out of range")
            idx = len(self) + idx
        elif idx >= len(self):
            raise IndexError(f"ConcatDataset: index {idx} out of range for {len(self)} "
                             "examples")
        d = bisect.bisect_right(self.cumulative_sizes, idx)
        start = 0 if d == 0 else self.cumulative_sizes[d - 1]
        return self.datasets[d][idx - start]


class ChainDataset(IterableDataset):
    """Iterable datasets one after another (what `a + b` of two IterableDatasets gives)."""

    def __init__(self, datasets):
        self.datasets = list(datasets)

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise TypeError("ChainDataset: only supports IterableDataset, got "
                                f"{type(d).__name__}")
            yield from d

    def __len__(self):
        return sum(len(d) for d in self.datasets)


def _split_lengths(n, lengths):
    if all(isinstance(x, int) and not isinstance(x, bool) for x in lengths):
        if any(x < 0 for x in lengths):
            raise ValueError(f"random_split: lengths must be non-negative, got {list(lengths)}")
        if sum(lengths) != n:
            raise ValueError("random_split: sum of input lengths does not equal the length of "
                             f"the input dataset ({sum(lengths)} != {n})")
        return list(lengths)
    fracs = [float(x) for x in lengths]
    if not (math.isclose(sum(fracs), 1) and sum(fracs) <= 1) or any(f < 0 for f in fracs):
        raise ValueError("random_split: lengths must be integers summing to len(dataset) or "
                         f"fractions in [0, 1] summing to 1, got {list(lengths)}")
    # PyTorch's rule: floor each share, then hand out the remainder round-robin.
    out = [int(math.floor(n * f)) for f in fracs]
    for i in range(n - sum(out)):
        out[i % len(out)] += 1
    for i, k in enumerate(out):
        if k == 0:
            warnings.warn(f"random_split: length of split at index {i} is 0; this split "
                          "will be empty", stacklevel=3)
    return out


def random_split(dataset, lengths, generator=None):
    """Split a dataset into non-overlapping random Subsets of the given lengths (integers
    summing to len(dataset), or fractions summing to 1, rounded as PyTorch rounds them).

    >>> import arraycore as ac
    >>> train, test = ac.data.random_split(ac.data.TensorDataset(ac.arange(10)), [0.8, 0.2],
    ...                                     generator=ac.random.Generator(0))
    >>> len(train), len(test)
    (8, 2)
    """
    _rng.check_generator(generator, "random_split")
    lengths = _split_lengths(len(dataset), list(lengths))
    perm = _rng.permutation(generator, sum(lengths)).tolist()
    out, start = [], 0
    for k in lengths:
        out.append(Subset(dataset, perm[start:start + k]))
        start += k
    return out
