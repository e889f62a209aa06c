"""L4: `DataLoader`, torch.utils.data.DataLoader's interface over arraycore arrays.

Note [Batch gather]: the common training input is a `TensorDataset` (or a `Subset` of one,
as `random_split` makes) read in batches with the default collate.  Indexing it example by
example and stacking costs a Python call and a small array per example; instead the loader
asks the batch sampler for each batch as an int64 index array (for the built-in samplers a
slice of one permutation drawn per epoch) and gathers every tensor with one `ac.take`.  The
result is exactly what `default_collate` would build (a list with one stacked array per
tensor).  Any other dataset, sampler or collate_fn takes the general path: indices as Python
ints, `dataset[i]` (or `dataset.__getitems__(indices)`), then `collate_fn`.
"""

from __future__ import annotations

import itertools
import sys

from . import _rng
from ._workers import IterableWorkers, MapWorkers
from .collate import default_collate, default_convert
from .dataset import IterableDataset, _gather_fn
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader"]


def _ns():
    return sys.modules["arraycore"]


class _InfiniteConstantSampler(Sampler):
    """The sampler of an IterableDataset: yields None forever (the stream decides the end)."""

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Iterate over a dataset in batches, as torch.utils.data.DataLoader does.

    Arguments are PyTorch's: `batch_size` (None turns batching off), `shuffle` (draws a new
    permutation each epoch from `generator`, an `ac.random.Generator`, or the global
    generator), `sampler` / `batch_sampler` (custom orders), `num_workers` (> 0: that many
    worker **threads** build batches ahead, at most `prefetch_factor` each (default 2),
    delivered in order unless `in_order=False`; see _workers.py), `collate_fn` (default:
    `default_collate`), `drop_last`, `timeout` (seconds to wait for a batch from the workers,
    0 = forever) and `worker_init_fn(worker_id)` (called in each worker thread first).
    `pin_memory`, `pin_memory_device`, `persistent_workers` and `multiprocessing_context`
    are accepted for compatibility and have no effect (CPU only; threads start in
    microseconds, so workers are not kept between epochs).

    >>> import arraycore as ac
    >>> ds = ac.data.TensorDataset(ac.reshape(ac.arange(10.0), (5, 2)), ac.arange(5))
    >>> loader = ac.data.DataLoader(ds, batch_size=2, shuffle=True,
    ...                             generator=ac.random.Generator(0))
    >>> len(loader), [y.shape for x, y in loader]
    (3, [(2,), (2,), (1,)])
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        fn = "DataLoader"
        if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError(f"{fn}: num_workers option should be a non-negative integer; use "
                             f"num_workers=0 to build batches in the main thread, got "
                             f"{num_workers!r}")
        if not isinstance(timeout, (int, float)) or timeout < 0:
            raise ValueError(f"{fn}: timeout option should be non-negative, got {timeout!r}")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(f"{fn}: prefetch_factor option could only be specified with "
                             "worker threads: let num_workers > 0, otherwise set "
                             "prefetch_factor to None")
        if num_workers > 0:
            prefetch_factor = 2 if prefetch_factor is None else prefetch_factor
            if (isinstance(prefetch_factor, bool) or not isinstance(prefetch_factor, int)
                    or prefetch_factor <= 0):
                raise ValueError(f"{fn}: prefetch_factor should be a positive integer, got "
                                 f"{prefetch_factor!r}")
        if persistent_workers and num_workers == 0:
            raise ValueError(f"{fn}: persistent_workers option needs num_workers > 0")
        _rng.check_generator(generator, fn)

        if isinstance(dataset, IterableDataset):
            if shuffle not in (None, False):
                raise ValueError(f"{fn}: with an IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle!r}")
            if sampler is not None:
                raise ValueError(f"{fn}: with an IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler!r}")
            if batch_sampler is not None:
                raise ValueError(f"{fn}: with an IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler!r}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError(f"{fn}: sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(f"{fn}: batch_sampler option is mutually exclusive with "
                                 "batch_size, shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError(f"{fn}: batch_size=None option disables auto-batching and is "
                             "mutually exclusive with drop_last")
        if batch_size is not None and (isinstance(batch_size, bool)
                                       or not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(f"{fn}: batch_size should be a positive integer value or None, but "
                             f"got batch_size={batch_size!r}")

        if sampler is None:
            if isinstance(dataset, IterableDataset):
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self.in_order = bool(in_order)
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.persistent_workers = persistent_workers
        self.multiprocessing_context = multiprocessing_context
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            try:
                n = len(self.dataset)
            except TypeError:
                raise TypeError("DataLoader: len() of a loader over an IterableDataset needs "
                                "the dataset to define __len__") from None
            if self.batch_size is not None:
                n = n // self.batch_size if self.drop_last else -(-n // self.batch_size)
            return n
        return len(self._index_sampler)

    # --- iteration -----------------------------------------------------------------------
    def __iter__(self):
        # One seed per epoch for the workers, drawn whether or not there are workers, so the
        # shuffling stream is the same for any num_workers.
        base_seed = _rng.seed(self.generator)
        if isinstance(self.dataset, IterableDataset):
            make_batches = self._iterable_batches
            if self.num_workers == 0:
                return _SingleIter(make_batches(iter(self.dataset)), _one, len_fn=self._len)
            return IterableWorkers(self.dataset, make_batches, self.num_workers,
                                   self.prefetch_factor, self.timeout, base_seed,
                                   self.worker_init_fn)
        batches, fetch = self._map_plan()
        if self.num_workers == 0:
            return _SingleIter(batches, fetch, len_fn=self._len)
        return MapWorkers(batches, fetch, self.num_workers, self.prefetch_factor,
                          self.timeout, self.in_order, self.dataset, base_seed,
                          self.worker_init_fn)

    def _len(self):
        return len(self)

    def _map_plan(self):
        """(iterable of batch indices, fetch(indices) -> batch) for a map-style dataset."""
        ns = _ns()
        dataset, collate_fn = self.dataset, self.collate_fn
        gather = _gather_fn(dataset) if (self._auto_collation
                                         and collate_fn is default_collate) else None
        if gather is not None:  # See Note [Batch gather]
            bs = self.batch_sampler
            if isinstance(bs, BatchSampler) and type(bs).__iter__ is BatchSampler.__iter__:
                return _chunked_plan(bs, gather, _row_bytes(dataset))

            def fetch(indices):
                if not isinstance(indices, ns.Array):
                    indices = ns.asarray(list(indices), dtype=ns.int64)
                return [gather(indices)]
            return iter(bs), fetch
        if self._auto_collation:
            getitems = getattr(dataset, "__getitems__", None)

            def fetch(indices):
                data = getitems(indices) if callable(getitems) else [dataset[i] for i in indices]
                return [collate_fn(data)]
            return iter(self.batch_sampler), fetch
        return iter(self.sampler), lambda index: [collate_fn(dataset[index])]

    def _iterable_batches(self, it):
        collate_fn = self.collate_fn
        if not self._auto_collation:
            return (collate_fn(x) for x in it)
        bs, drop_last = self.batch_size, self.drop_last

        def gen():
            while True:
                batch = list(itertools.islice(it, bs))
                if not batch or (drop_last and len(batch) < bs):
                    return
                yield collate_fn(batch)
        return gen()


# A chunk of batches is gathered into arrays of about this many bytes: blocks from 1 MiB up
# come from the engine's cache of huge-page blocks (no page faults), and one gather per chunk
# instead of per batch saves the per-call overhead.  Blocks round up to 2 MiB, hence the size.
_CHUNK_BYTES = 2 << 20
_MAX_BATCHES_PER_CHUNK = 64


def _row_bytes(dataset):
    """Bytes of the widest example row among the tensors a gather-able dataset returns."""
    while not hasattr(dataset, "tensors"):
        dataset = dataset.dataset  # a Subset (see dataset._gather_fn)
    return max((t.size // max(t.shape[0], 1)) * t.dtype.itemsize for t in dataset.tensors)


def _chunked_plan(batch_sampler, gather, row_bytes):
    """Runs of batches gathered at once; fetch returns a run's batches as row views of the
    gathered arrays (See Note [Batch gather])."""
    per_chunk = max(1, min(_MAX_BATCHES_PER_CHUNK,
                           _CHUNK_BYTES // max(1, batch_sampler.batch_size * row_bytes)))

    def fetch(chunk):
        indices, sizes = chunk
        arrays = gather(indices)
        if len(sizes) == 1:
            return [arrays]
        # Row views of the fresh (C-contiguous) arrays, made directly: a[start:stop] through
        # the indexing machinery would cost more than the copy of a small batch.
        layout = [(list(a.shape[1:]), list(a._strides), a._strides[0]) for a in arrays]
        out, start = [], 0
        for n in sizes:
            out.append([a._view([n] + rest, strides, start * row)
                        for a, (rest, strides, row) in zip(arrays, layout)])
            start += n
        return out
    return batch_sampler._index_chunks(per_chunk), fetch


def _one(batch):
    return [batch]


class _SingleIter:
    """Batches built in the calling thread; fetch returns a list of batches per task."""

    __slots__ = ("_tasks", "_fetch", "_len_fn", "_ready")

    def __init__(self, tasks, fetch, len_fn):
        self._tasks = iter(tasks)
        self._fetch = fetch
        self._len_fn = len_fn
        self._ready = []

    def __iter__(self):
        return self

    def __next__(self):
        if not self._ready:
            self._ready = self._fetch(next(self._tasks))
            self._ready.reverse()
        return self._ready.pop()

    def __len__(self):
        return self._len_fn()
