"""L4: the DataLoader's worker threads: prefetching, ordering, errors and shutdown.

PyTorch runs workers as processes because its examples are built by Python code holding the
GIL.  arraycore's workers are threads: its kernels (the batch `take`, `stack`, arithmetic)
release the GIL, so threads overlap batch assembly with the training step without copying
batches between processes; Python-heavy `__getitem__` code still runs one thread at a time.

Map-style datasets (`MapWorkers`): the main thread draws batch indices from the sampler and
hands task k to worker k % num_workers (PyTorch's round-robin, so what a worker sees is
deterministic); at most `num_workers * prefetch_factor` tasks are outstanding, which bounds
the memory held by finished-but-unconsumed batches.  Results are delivered in sampler order
(or as they finish with `in_order=False`).

Iterable datasets (`IterableWorkers`): each worker iterates its own `iter(dataset)` and
batches it; the main thread takes batches round-robin from the workers still running, as
PyTorch does.

Note [Worker shutdown]: worker threads never hold a reference to the iterator, only to a
small shared state.  A `weakref.finalize` on the iterator tells them to stop (a flag plus a
wake-up sentinel) when the iterator is exhausted, closed or garbage-collected, so an
abandoned iterator leaves no thread blocked: each worker finishes the example it is on, then
exits.  Workers are daemon threads, so even a dataset stuck forever cannot hang interpreter
exit.

Note [Worker errors]: an exception in a worker is caught with its traceback and delivered in
place of that batch; the main thread re-raises it as the same exception type with the
worker's formatted traceback in the message (PyTorch's ExceptionWrapper), and the iterator
stays usable for the following batches.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
import weakref

__all__ = ["WorkerInfo", "get_worker_info"]

_local = threading.local()
_STOP = object()


class WorkerInfo:
    """What `get_worker_info()` returns inside a worker thread: `id`, `num_workers`, `seed`
    (base seed + id; make an `ac.random.Generator(info.seed)` for per-worker randomness) and
    `dataset` (the loader's dataset object, shared by all workers)."""

    __slots__ = ("id", "num_workers", "seed", "dataset")

    def __init__(self, id, num_workers, seed, dataset):
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self):
        return (f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed}, "
                f"dataset={type(self.dataset).__name__})")


def get_worker_info():
    """The current worker thread's `WorkerInfo`, or None in any other thread (the main one).

    >>> import arraycore as ac
    >>> ac.data.get_worker_info() is None
    True
    """
    return getattr(_local, "info", None)


class _KeyErrorMessage(str):
    """KeyError reprs its message; this keeps the traceback readable (as PyTorch does)."""

    def __repr__(self):
        return self


class WorkerError:
    """An exception caught in a worker, re-raised in the main thread by `reraise`."""

    def __init__(self, exc, worker_id, where="DataLoader worker thread"):
        self.exc = exc
        self.text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        self.where = f"{where} {worker_id}"

    def reraise(self):
        msg = (f"Caught {type(self.exc).__name__} in {self.where}.\nOriginal "
               f"{self.text}")
        if isinstance(self.exc, KeyError):
            msg = _KeyErrorMessage(msg)
        try:
            new = type(self.exc)(msg)
        except Exception:  # an exception type whose constructor takes other arguments
            new = RuntimeError(msg)
        new.worker_exception = self.exc
        raise new from None


class _Shared:
    """State shared by the main thread and the workers (never the iterator itself)."""

    def __init__(self):
        self.stop = False
        self.cond = threading.Condition()
        self.results = {}


def _start_thread(target, args, name):
    t = threading.Thread(target=target, args=args, name=name, daemon=True)
    t.start()
    return t


def _worker_setup(info, worker_init_fn):
    _local.info = info
    if worker_init_fn is not None:
        worker_init_fn(info.id)


def _signal_stop(shared, task_queues):
    """Finalizer: ask every worker to exit (See Note [Worker shutdown])."""
    with shared.cond:
        shared.stop = True
        shared.results.clear()
        shared.cond.notify_all()
    for q in task_queues:
        q.put(_STOP)


def _wait(shared, ready, timeout, fn_name="DataLoader"):
    """Wait (holding shared.cond) until ready() is true; honours the loader's timeout."""
    deadline = None if not timeout else time.monotonic() + timeout
    while not ready():
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise RuntimeError(f"{fn_name} timed out after {timeout} seconds waiting for a "
                               "batch")
        shared.cond.wait(0.5 if remaining is None else min(remaining, 0.5))


# --- map-style ---------------------------------------------------------------------------
def _map_worker(shared, tasks, fetch, info, worker_init_fn):
    init_error = None
    try:
        _worker_setup(info, worker_init_fn)
    except BaseException as e:  # delivered with every task this worker gets
        init_error = WorkerError(e, info.id, "worker_init_fn of DataLoader worker thread")
    while True:
        task = tasks.get()
        if task is _STOP or shared.stop:
            return
        seq, indices = task
        if init_error is not None:
            result = (False, init_error)
        else:
            try:
                result = (True, fetch(indices))
            except BaseException as e:
                result = (False, WorkerError(e, info.id))
            finally:
                indices = None
        with shared.cond:
            if shared.stop:
                return
            shared.results[seq] = result
            shared.cond.notify_all()
        result = None


class MapWorkers:
    """Iterator over a map-style dataset's batches, built by worker threads.  A task is
    what `batches` yields (a batch's indices, or a chunk of batches); fetch(task) returns
    the list of its batches."""

    def __init__(self, batches, fetch, num_workers, prefetch_factor, timeout, in_order,
                 dataset, base_seed, worker_init_fn):
        self._batches = iter(batches)
        self._limit = num_workers * prefetch_factor
        self._timeout = timeout
        self._in_order = in_order
        self._shared = shared = _Shared()
        self._queues = [queue.SimpleQueue() for _ in range(num_workers)]
        self._threads = [
            _start_thread(_map_worker, (shared, self._queues[w], fetch,
                                        WorkerInfo(w, num_workers, base_seed + w, dataset),
                                        worker_init_fn), f"ac.data worker {w}")
            for w in range(num_workers)]
        self._finalizer = weakref.finalize(self, _signal_stop, shared, self._queues)
        self._sent = 0  # tasks handed out
        self._next = 0  # next sequence number to deliver (in order)
        self._outstanding = 0
        self._exhausted = False
        self._ready = []  # batches of the last task not yet delivered
        self._fill()

    def _fill(self):
        while not self._exhausted and self._outstanding < self._limit:
            try:
                indices = next(self._batches)
            except StopIteration:
                self._exhausted = True
                break
            except BaseException:
                self.close()
                raise
            self._queues[self._sent % len(self._queues)].put((self._sent, indices))
            self._sent += 1
            self._outstanding += 1

    def __iter__(self):
        return self

    def __next__(self):
        if self._ready:
            return self._ready.pop()
        if self._outstanding == 0:
            self.close()
            raise StopIteration
        shared = self._shared
        with shared.cond:
            if self._in_order:
                _wait(shared, lambda: self._next in shared.results, self._timeout)
                ok, value = shared.results.pop(self._next)
                self._next += 1
            else:
                _wait(shared, lambda: bool(shared.results), self._timeout)
                ok, value = shared.results.pop(next(iter(shared.results)))
        self._outstanding -= 1
        self._fill()
        if not ok:
            # The traceback keeps this frame alive as long as the caller keeps the exception;
            # without `self` in it, an iterator abandoned after an error is still collected
            # (See Note [Worker shutdown]).
            del self
            value.reraise()
        value.reverse()  # a task's batches, delivered first to last
        self._ready = value
        return self._ready.pop()

    def close(self, join_timeout=1.0):
        """Stop the workers (they finish their current example first)."""
        self._finalizer()
        for t in self._threads:
            t.join(join_timeout)


# --- iterable-style ----------------------------------------------------------------------
def _iterable_worker(shared, tasks, out, dataset, make_batches, info, worker_init_fn):
    try:
        _worker_setup(info, worker_init_fn)
        batches = make_batches(iter(dataset))
    except BaseException as e:
        batches, init_error = None, WorkerError(e, info.id)
    while True:
        task = tasks.get()
        if task is _STOP or shared.stop:
            return
        if batches is None:
            out.put((False, init_error))
            batches = iter(())  # report the failure once, then end this worker
            continue
        try:
            out.put((True, next(batches)))
        except StopIteration:
            out.put((None, None))
            return
        except BaseException as e:
            out.put((False, WorkerError(e, info.id)))


class IterableWorkers:
    """Iterator over an IterableDataset's batches, each worker iterating its own copy."""

    def __init__(self, dataset, make_batches, num_workers, prefetch_factor, timeout,
                 base_seed, worker_init_fn):
        self._timeout = timeout
        self._shared = shared = _Shared()
        self._tasks = [queue.SimpleQueue() for _ in range(num_workers)]
        self._outs = [queue.SimpleQueue() for _ in range(num_workers)]
        self._threads = [
            _start_thread(_iterable_worker,
                          (shared, self._tasks[w], self._outs[w], dataset, make_batches,
                           WorkerInfo(w, num_workers, base_seed + w, dataset), worker_init_fn),
                          f"ac.data worker {w}")
            for w in range(num_workers)]
        self._finalizer = weakref.finalize(self, _signal_stop, shared, self._tasks)
        self._active = list(range(num_workers))
        self._pos = 0
        for w in range(num_workers):
            for _ in range(prefetch_factor):
                self._tasks[w].put(True)

    def __iter__(self):
        return self

    def __next__(self):
        while self._active:
            self._pos %= len(self._active)
            w = self._active[self._pos]
            try:
                ok, value = self._outs[w].get(timeout=self._timeout or None)
            except queue.Empty:
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds "
                                   "waiting for a batch") from None
            if ok is None:  # this worker's iterator is exhausted
                del self._active[self._pos]
                continue
            self._tasks[w].put(True)
            self._pos += 1
            if not ok:
                del self  # as in MapWorkers.__next__
                value.reraise()
            return value
        self.close()
        raise StopIteration

    def close(self, join_timeout=1.0):
        self._finalizer()
        for t in self._threads:
            t.join(join_timeout)
