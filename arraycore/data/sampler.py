"""L4: samplers, torch.utils.data's: which example indices a DataLoader visits, in what order,
and how they group into batches.

Every built-in sampler can also produce its whole order at once as an int64 array
(`_index_array()`), drawn with one call to an `ac.random` Generator; iterating it yields the
same indices as Python ints.  `BatchSampler._index_chunks()` slices that array into runs of
consecutive batches, which the DataLoader's batch-gather path consumes without building
lists.
"""

from __future__ import annotations

import sys

from . import _rng

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "WeightedRandomSampler", "BatchSampler"]


def _ns():
    return sys.modules["arraycore"]


def _check_positive_int(value, name, fn):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{fn}: {name} should be a positive integer value, but got "
                         f"{name}={value!r}")


def _check_bool(value, name, fn):
    if not isinstance(value, bool):
        raise TypeError(f"{fn}: {name} should be a boolean value, but got {name}={value!r}")


class Sampler:
    """Base class: subclasses define `__iter__` (yielding indices, or lists of indices for a
    batch sampler) and usually `__len__`."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise TypeError(f"{type(self).__name__}: a Sampler subclass must define __iter__()")


class _ArraySampler(Sampler):
    """A sampler whose order is an int64 array drawn in one go."""

    def _index_array(self):
        raise TypeError(f"{type(self).__name__}: no index array")

    def __iter__(self):
        return iter(self._index_array().tolist())


class SequentialSampler(_ArraySampler):
    """Indices 0, 1, ..., len(data_source) - 1.

    >>> import arraycore as ac
    >>> list(ac.data.SequentialSampler(range(4)))
    [0, 1, 2, 3]
    """

    def __init__(self, data_source):
        self.data_source = data_source

    def _index_array(self):
        ns = _ns()
        return ns.arange(len(self.data_source), dtype=ns.int64)

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(_ArraySampler):
    """A random permutation of the indices (repeated to give `num_samples` when that exceeds
    the dataset), or, with `replacement=True`, `num_samples` independent uniform draws.
    Draws come from `generator` (an `ac.random.Generator`) or the global generator.

    >>> import arraycore as ac
    >>> sorted(ac.data.RandomSampler(range(5), generator=ac.random.Generator(0)))
    [0, 1, 2, 3, 4]
    """

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = _rng.check_generator(generator, "RandomSampler")
        _check_bool(replacement, "replacement", "RandomSampler")
        _check_positive_int(self.num_samples, "num_samples", "RandomSampler")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def _index_array(self):
        ns = _ns()
        n, k = len(self.data_source), self.num_samples
        if self.replacement:
            return _rng.integers(self.generator, n, k)
        parts = [_rng.permutation(self.generator, n) for _ in range(k // n)]
        if k % n:
            parts.append(_rng.permutation(self.generator, n)[:k % n])
        return parts[0] if len(parts) == 1 else ns.concat(parts)

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(_ArraySampler):
    """The given indices in a random order.

    >>> import arraycore as ac
    >>> sorted(ac.data.SubsetRandomSampler([3, 7, 9], generator=ac.random.Generator(1)))
    [3, 7, 9]
    """

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = _rng.check_generator(generator, "SubsetRandomSampler")
        self._array = None

    def _index_array(self):
        ns = _ns()
        if self._array is None:
            ind = self.indices
            self._array = (ns.astype(ind, ns.int64) if isinstance(ind, ns.Array)
                           else ns.asarray(list(ind), dtype=ns.int64))
        return ns.take(self._array, _rng.permutation(self.generator, len(self.indices)),
                       axis=0)

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(_ArraySampler):
    """`num_samples` indices drawn with probabilities proportional to `weights` (need not sum
    to 1), with or without replacement, as `torch.multinomial` samples them.

    With replacement: inverse-CDF sampling (uniforms searched in the cumulative weights).
    Without replacement: Efraimidis and Spirakis, "Weighted random sampling with a
    reservoir" (Inf. Proc. Letters 97(5), 2006): key_i = log(u_i) / w_i, keep the largest
    `num_samples` keys; this draws the same distribution as successive draws proportional to
    the remaining weights.

    >>> import arraycore as ac
    >>> s = ac.data.WeightedRandomSampler([0.0, 1.0, 3.0], 4, generator=ac.random.Generator(0))
    >>> 0 in list(s)
    False
    """

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        fn = "WeightedRandomSampler"
        _check_positive_int(num_samples, "num_samples", fn)
        _check_bool(replacement, "replacement", fn)
        ns = _ns()
        w = weights if isinstance(weights, ns.Array) else ns.asarray(weights)
        if w.ndim != 1:
            raise ValueError(f"{fn}: weights should be a 1-d sequence, got shape {w.shape}")
        if w.shape[0] == 0:
            raise ValueError(f"{fn}: weights is empty")
        if not (ns.isdtype(w.dtype, "real floating") or ns.isdtype(w.dtype, "integral")
                or w.dtype == ns.bool):
            raise TypeError(f"{fn}: weights must be real numbers, got {w.dtype}")
        w = ns.astype(w, ns.float64)
        if not bool(ns.all(ns.isfinite(w))) or bool(ns.any(w < 0)):
            raise ValueError(f"{fn}: weights must be finite and non-negative")
        positive = int(ns.count_nonzero(w))
        if positive == 0:
            raise ValueError(f"{fn}: weights sum to zero")
        if not replacement and num_samples > positive:
            raise ValueError(f"{fn}: cannot draw {num_samples} samples without replacement "
                             f"from {positive} indices of non-zero weight")
        self.weights = w
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = _rng.check_generator(generator, fn)

    def _index_array(self):
        ns = _ns()
        w, k = self.weights, self.num_samples
        u = _rng.uniform(self.generator, k if self.replacement else w.shape[0])
        if self.replacement:
            cdf = ns.cumulative_sum(w)
            idx = ns.searchsorted(cdf, u * cdf[-1], side="right")
            # u * total can round up to total: the draw then belongs to the last index with
            # non-zero weight.
            last = int(ns.max(ns.nonzero(w > 0)[0]))
            return ns.astype(ns.minimum(idx, last), ns.int64)
        keys = ns.where(w > 0, ns.log1p(-u) / ns.where(w > 0, w, 1.0), -ns.inf)
        return ns.astype(ns.argsort(keys, descending=True, stable=True)[:k], ns.int64)

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of `batch_size` (the last one shorter
    unless `drop_last`).

    >>> import arraycore as ac
    >>> list(ac.data.BatchSampler(ac.data.SequentialSampler(range(5)), 2, drop_last=False))
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler, batch_size, drop_last):
        _check_positive_int(batch_size, "batch_size", "BatchSampler")
        if not isinstance(drop_last, bool):
            raise ValueError(f"BatchSampler: drop_last should be a boolean value, but got "
                             f"drop_last={drop_last!r}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def _index_chunks(self, per_chunk):
        """Runs of `per_chunk` consecutive batches as (int64 index array, batch sizes).  For
        the built-in samplers the index array is a view of the epoch's order drawn in one
        go (no per-index Python); other samplers' batches are collected and converted."""
        b = self.batch_size
        if isinstance(self.sampler, _ArraySampler) and type(self.sampler).__iter__ in (
                _ArraySampler.__iter__, SequentialSampler.__iter__):  # not user-overridden
            order = self.sampler._index_array()
            n = order.shape[0]
            stop = n - n % b if self.drop_last else n
            step = per_chunk * b
            return ((order[c0:min(stop, c0 + step)],
                     [min(b, stop - i) for i in range(c0, min(stop, c0 + step), b)])
                    for c0 in range(0, stop, step))
        return self._collected_chunks(per_chunk)

    def _collected_chunks(self, per_chunk):
        ns = _ns()
        flat, sizes = [], []
        for batch in self:
            flat.extend(batch)
            sizes.append(len(batch))
            if len(sizes) == per_chunk:
                yield ns.asarray(flat, dtype=ns.int64), sizes
                flat, sizes = [], []
        if sizes:
            yield ns.asarray(flat, dtype=ns.int64), sizes
