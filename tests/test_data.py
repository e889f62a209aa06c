"""ac.data: DataLoader batches against torch.utils.data's for sequential loaders (same collate
semantics), shuffling (permutations, reproducible with a seeded ac.random.Generator),
drop_last, samplers, random_split, the batch-gather path against the general path, and
worker threads (order, errors, abandoned iterators)."""

from __future__ import annotations

import collections
import gc
import threading
import time

import numpy as np
import pytest

import arraycore as ac

torch = pytest.importorskip("torch")
tud = torch.utils.data
pytestmark = pytest.mark.skipif(not hasattr(ac, "random"),
                                reason="needs ac.random (branch random, not merged yet)")

Point = collections.namedtuple("Point", "x y")


def _gen(seed=0):
    return ac.random.Generator(seed)


# --- comparing batches with torch's ------------------------------------------------------
def _same(ours, ref, path="batch"):
    """ours (arraycore) has the structure, types, dtypes and values of ref (torch)."""
    if isinstance(ref, torch.Tensor):
        assert isinstance(ours, ac.Array), (path, type(ours))
        want = ref.numpy()
        assert str(ours.dtype) == str(want.dtype), (path, ours.dtype, want.dtype)
        assert ours.shape == want.shape, (path, ours.shape, want.shape)
        np.testing.assert_array_equal(np.asarray(ours), want, err_msg=path)
        return
    assert type(ours) is type(ref), (path, type(ours), type(ref))
    if isinstance(ref, dict):
        assert list(ours) == list(ref), path
        for k in ref:
            _same(ours[k], ref[k], f"{path}[{k!r}]")
    elif isinstance(ref, (list, tuple)):
        assert len(ours) == len(ref), path
        for i, (a, b) in enumerate(zip(ours, ref)):
            _same(a, b, f"{path}[{i}]")
    else:
        assert ours == ref, path


def _same_loaders(ours, ref):
    ours, ref = list(ours), list(ref)
    assert len(ours) == len(ref)
    for i, (a, b) in enumerate(zip(ours, ref)):
        _same(a, b, f"batch {i}")


def _rows(n=10, d=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)).astype(np.float32), rng.integers(0, 5, n)


class _Records:
    """A map-style dataset of mixed examples, usable by both libraries (NumPy leaves)."""

    def __init__(self, kind, n=7):
        self.kind, self.n = kind, n
        self.x, self.y = _rows(n, 4)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x, y = self.x[i], int(self.y[i])
        if self.kind == "dict":
            return {"x": x, "label": y, "weight": float(i) / 2, "name": f"r{i}",
                    "flag": bool(i % 2), "f32": np.float32(i), "i16": np.int16(-i)}
        if self.kind == "tuple":
            return x, y, (float(i), [i, i + 1])
        if self.kind == "namedtuple":
            return Point(x, {"k": y})
        if self.kind == "list":
            return [x, y]
        return y  # plain ints


class _OurRecords(_Records, ac.data.Dataset):
    pass


class _TorchRecords(_Records, tud.Dataset):
    pass


# --- sequential loaders equal torch's ----------------------------------------------------
@pytest.mark.parametrize("batch_size, drop_last", [(1, False), (3, False), (3, True),
                                                    (10, False), (11, True)])
def test_tensor_dataset_sequential_matches_torch(batch_size, drop_last):
    x, y = _rows()
    ours = ac.data.DataLoader(ac.data.TensorDataset(ac.asarray(x), ac.asarray(y)),
                              batch_size=batch_size, drop_last=drop_last)
    ref = tud.DataLoader(tud.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)),
                         batch_size=batch_size, drop_last=drop_last)
    assert len(ours) == len(ref)
    _same_loaders(ours, ref)


@pytest.mark.parametrize("kind", ["dict", "tuple", "namedtuple", "list", "int"])
@pytest.mark.parametrize("num_workers", [0, 2])
def test_collate_semantics_match_torch(kind, num_workers):
    ours = ac.data.DataLoader(_OurRecords(kind), batch_size=3, num_workers=num_workers)
    ref = tud.DataLoader(_TorchRecords(kind), batch_size=3)
    _same_loaders(ours, ref)


@pytest.mark.parametrize("kind", ["dict", "tuple", "int"])
def test_unbatched_loader_matches_torch(kind):
    ours = ac.data.DataLoader(_OurRecords(kind), batch_size=None)
    ref = tud.DataLoader(_TorchRecords(kind), batch_size=None)
    _same_loaders(ours, ref)


def test_default_collate_direct_cases_match_torch():
    cases = [
        [1, 2, 3],
        [1.5, 2.5],
        [True, False],
        ["a", "b"],
        [(0, 1), (2, 3)],
        [[0, 1], [2, 3]],
        [{"A": 0, "B": 1}, {"A": 100, "B": 100}],
        [Point(0, 0), Point(1, 1)],
        [np.arange(3, dtype=np.int32), np.arange(3, 6, dtype=np.int32)],
        [np.float64(1.0), np.float64(2.0)],
        [np.uint8(3), np.uint8(4)],
    ]
    for batch in cases:
        _same(ac.data.default_collate(batch), tud.default_collate(batch), repr(batch))
    arrays = [ac.asarray([1.0, 2.0], dtype=ac.float32), ac.asarray([3.0, 4.0],
                                                                   dtype=ac.float32)]
    out = ac.data.default_collate(arrays)
    assert out.dtype == ac.float32 and out.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_default_collate_errors():
    with pytest.raises(RuntimeError, match="each element in list of batch should be of "
                                           "equal size"):
        ac.data.default_collate([[1, 2], [3]])
    with pytest.raises(RuntimeError, match="stack expects each array to be equal size"):
        ac.data.default_collate([ac.ones(2), ac.ones(3)])
    with pytest.raises(TypeError, match="default_collate: batch must contain arrays"):
        ac.data.default_collate([object(), object()])
    with pytest.raises(TypeError, match="default_collate: batch must contain arrays"):
        ac.data.default_collate([None, None])


def test_collate_fn_map_extension():
    class Box:
        def __init__(self, v):
            self.v = v

    def collate_box(batch, *, collate_fn_map=None):
        return sum(b.v for b in batch)

    fmap = dict(ac.data.default_collate_fn_map)
    fmap[Box] = collate_box
    out = ac.data.collate([(Box(1), 2), (Box(3), 4)], collate_fn_map=fmap)
    assert out[0] == 4 and out[1].tolist() == [2, 4]


def test_iterable_dataset_matches_torch():
    class OurStream(ac.data.IterableDataset):
        def __iter__(self):
            return iter({"v": i, "sq": float(i * i)} for i in range(7))

    class TorchStream(tud.IterableDataset):
        def __iter__(self):
            return iter({"v": i, "sq": float(i * i)} for i in range(7))

    for bs, dl in [(2, False), (2, True), (None, False)]:
        _same_loaders(ac.data.DataLoader(OurStream(), batch_size=bs, drop_last=dl),
                      tud.DataLoader(TorchStream(), batch_size=bs, drop_last=dl))


def test_concat_subset_and_getitems():
    x, y = _rows(8)
    a = ac.data.TensorDataset(ac.asarray(x), ac.asarray(y))
    t = tud.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
    ours = ac.data.ConcatDataset([ac.data.Subset(a, [5, 1, 2]), a])
    ref = tud.ConcatDataset([tud.Subset(t, [5, 1, 2]), t])
    assert len(ours) == len(ref) == 11
    _same_loaders(ac.data.DataLoader(ours, batch_size=4), tud.DataLoader(ref, batch_size=4))
    _same(ours[-1], ref[-1])
    with pytest.raises(IndexError):
        ours[11]

    class Batched(ac.data.Dataset):
        calls = []

        def __len__(self):
            return 5

        def __getitem__(self, i):
            raise AssertionError("__getitems__ should be used")

        def __getitems__(self, idx):
            self.calls.append(list(idx))
            return [i * 10 for i in idx]

    out = [b.tolist() for b in ac.data.DataLoader(Batched(), batch_size=2)]
    assert out == [[0, 10], [20, 30], [40]] and Batched.calls == [[0, 1], [2, 3], [4]]


# --- shuffling ---------------------------------------------------------------------------
def _epoch_order(loader):
    return [int(v) for x, y in loader for v in y.tolist()]


def test_shuffle_is_a_permutation_and_reproducible():
    n = 50
    ds = ac.data.TensorDataset(ac.zeros((n, 2)), ac.arange(n))
    loader = ac.data.DataLoader(ds, batch_size=8, shuffle=True, generator=_gen(3))
    e1, e2 = _epoch_order(loader), _epoch_order(loader)
    assert sorted(e1) == list(range(n)) and sorted(e2) == list(range(n))
    assert e1 != e2 and e1 != list(range(n))  # a new permutation each epoch
    again = ac.data.DataLoader(ds, batch_size=8, shuffle=True, generator=_gen(3))
    assert _epoch_order(again) == e1 and _epoch_order(again) == e2
    other = ac.data.DataLoader(ds, batch_size=8, shuffle=True, generator=_gen(4))
    assert _epoch_order(other) != e1


def test_shuffle_with_global_generator_follows_seed():
    ds = ac.data.TensorDataset(ac.zeros((30, 1)), ac.arange(30))
    loader = ac.data.DataLoader(ds, batch_size=4, shuffle=True)
    ac.random.seed(11)
    a = _epoch_order(loader)
    ac.random.seed(11)
    assert _epoch_order(loader) == a


def test_gather_path_equals_general_path():
    """The batch-gather fast path (TensorDataset, default collate) gives what per-example
    indexing + default_collate gives, for shuffled, subset and custom-sampler loaders."""
    x, y = _rows(37, 5)
    ds = ac.data.TensorDataset(ac.asarray(x), ac.asarray(y))
    general = lambda batch: ac.data.default_collate(batch)  # noqa: E731  (not the fast path)
    sub = ac.data.Subset(ds, list(range(36, 0, -3)))
    subset_sampler = lambda: ac.data.SubsetRandomSampler([4, 2, 9, 30],  # noqa: E731
                                                          generator=_gen(2))
    for dataset, kw in [(ds, dict(shuffle=True)), (ds, dict(shuffle=True, drop_last=True)),
                        (sub, dict(shuffle=True)), (ds, dict(batch_size=1000)),
                        (ds, dict(sampler=subset_sampler)), (ds, dict(sampler=[7, 7, 0])),
                        (ds, dict(batch_sampler=[[3, 1], [0, 36, 5]]))]:
        for nw in (0, 2):
            bs = {} if "batch_sampler" in kw or "batch_size" in kw else {"batch_size": 3}
            fresh = lambda: {k: v() if callable(v) else v for k, v in kw.items()}  # noqa
            fast = ac.data.DataLoader(dataset, **bs, **fresh(), generator=_gen(1),
                                      num_workers=nw)
            slow = ac.data.DataLoader(dataset, **bs, **fresh(), generator=_gen(1),
                                      collate_fn=general)
            fb, sb = list(fast), list(slow)
            assert len(fb) == len(sb) == len(fast)
            for a, b in zip(fb, sb):
                assert isinstance(a, list) and len(a) == 2
                for u, v in zip(a, b):
                    assert u.dtype == v.dtype and u.shape == v.shape
                    np.testing.assert_array_equal(np.asarray(u), np.asarray(v))


def test_many_chunked_batches_are_independent_arrays():
    ds = ac.data.TensorDataset(ac.reshape(ac.arange(4000.0), (1000, 4)))
    batches = [b[0] for b in ac.data.DataLoader(ds, batch_size=3)]
    assert len(batches) == 334 and batches[-1].shape == (1, 4)
    batches[0][...] = -1.0  # writing one batch does not touch the next (nor the dataset)
    assert batches[1].tolist()[0] == [12.0, 13.0, 14.0, 15.0]
    assert float(ds.tensors[0][0, 0]) == 0.0
    got = np.concatenate([np.asarray(b) for b in batches[1:]])
    np.testing.assert_array_equal(got, np.arange(12.0, 4000.0).reshape(-1, 4))


def test_gather_path_keeps_the_tape():
    w = ac.ones((6, 2))
    w.requires_grad_()
    ds = ac.data.TensorDataset(w)
    (xb,) = next(iter(ac.data.DataLoader(ds, batch_size=4, sampler=[5, 0, 5, 1])))
    ac.sum(xb * 3).backward()
    np.testing.assert_array_equal(np.asarray(w.grad)[:, 0], [3, 3, 0, 0, 0, 6])


def test_out_of_range_indices_raise_indexerror():
    ds = ac.data.TensorDataset(ac.arange(4))
    with pytest.raises(IndexError):
        list(ac.data.DataLoader(ds, batch_sampler=[[0, 9]]))


# --- samplers ----------------------------------------------------------------------------
def test_sequential_and_batch_sampler_match_torch():
    assert list(ac.data.SequentialSampler(range(5))) == list(tud.SequentialSampler(range(5)))
    for bs in (1, 2, 3, 7):
        for dl in (False, True):
            ours = ac.data.BatchSampler(ac.data.SequentialSampler(range(7)), bs, dl)
            ref = tud.BatchSampler(tud.SequentialSampler(range(7)), bs, dl)
            assert list(ours) == list(ref) and len(ours) == len(ref)
    assert list(ac.data.BatchSampler([4, 1, 3], 2, False)) == [[4, 1], [3]]


def test_random_sampler_modes():
    s = ac.data.RandomSampler(range(10), generator=_gen(0))
    assert sorted(s) == list(range(10)) and len(s) == 10
    s = ac.data.RandomSampler(range(4), num_samples=10, generator=_gen(0))
    order = list(s)
    assert len(order) == len(s) == 10
    assert sorted(order[:4]) == sorted(order[4:8]) == [0, 1, 2, 3]  # whole permutations
    assert set(order[8:]) <= {0, 1, 2, 3} and len(set(order[8:])) == 2
    s = ac.data.RandomSampler(range(3), replacement=True, num_samples=3000, generator=_gen(0))
    counts = np.bincount(list(s), minlength=3)
    assert counts.sum() == 3000 and np.all(np.abs(counts - 1000) < 150)
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        ac.data.RandomSampler(range(3), num_samples=0)
    with pytest.raises(TypeError, match="replacement should be a boolean"):
        ac.data.RandomSampler(range(3), replacement=1)
    with pytest.raises(TypeError, match="generator must be an ac.random.Generator"):
        ac.data.RandomSampler(range(3), generator=torch.Generator())


def test_subset_random_sampler():
    idx = [10, 20, 30, 40]
    a = list(ac.data.SubsetRandomSampler(idx, generator=_gen(5)))
    assert sorted(a) == idx and len(ac.data.SubsetRandomSampler(idx)) == 4
    assert a == list(ac.data.SubsetRandomSampler(idx, generator=_gen(5)))


def test_weighted_random_sampler_statistics():
    w = [0.0, 1.0, 2.0, 7.0]
    s = ac.data.WeightedRandomSampler(w, 20000, generator=_gen(2))
    counts = np.bincount(list(s), minlength=4)
    assert counts[0] == 0 and len(s) == 20000
    expected = 20000 * np.array(w) / sum(w)
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected + 1))
    # Without replacement: distinct indices, zero weights never drawn, and the first pick
    # follows the weights.
    firsts = []
    g = _gen(3)
    sampler = ac.data.WeightedRandomSampler(w, 3, replacement=False, generator=g)
    for _ in range(1500):
        pick = list(sampler)
        assert len(set(pick)) == 3 and 0 not in pick
        firsts.append(pick[0])
    f = np.bincount(firsts, minlength=4) / 1500
    np.testing.assert_allclose(f, np.array(w) / sum(w), atol=0.05)  # > 4 sigma
    with pytest.raises(ValueError, match="cannot draw 4 samples without replacement"):
        ac.data.WeightedRandomSampler(w, 4, replacement=False)
    with pytest.raises(ValueError, match="finite and non-negative"):
        ac.data.WeightedRandomSampler([1.0, -1.0], 2)
    with pytest.raises(ValueError, match="sum to zero"):
        ac.data.WeightedRandomSampler([0.0, 0.0], 2)
    with pytest.raises(ValueError, match="1-d"):
        ac.data.WeightedRandomSampler([[1.0]], 2)


def test_batch_sampler_and_loader_argument_errors():
    with pytest.raises(ValueError, match="batch_size should be a positive integer"):
        ac.data.BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean"):
        ac.data.BatchSampler(range(3), 2, 1)
    ds = ac.data.TensorDataset(ac.arange(4))
    bad = [
        (dict(sampler=[0, 1], shuffle=True), "mutually exclusive with shuffle"),
        (dict(batch_sampler=[[0]], batch_size=2), "batch_sampler option is mutually"),
        (dict(batch_sampler=[[0]], drop_last=True), "batch_sampler option is mutually"),
        (dict(batch_size=None, drop_last=True), "mutually exclusive with drop_last"),
        (dict(num_workers=-1), "num_workers option should be a non-negative"),
        (dict(prefetch_factor=2), "prefetch_factor option could only be specified"),
        (dict(num_workers=1, prefetch_factor=0), "prefetch_factor should be a positive"),
        (dict(persistent_workers=True), "persistent_workers option needs num_workers > 0"),
        (dict(timeout=-1), "timeout option should be non-negative"),
        (dict(batch_size=0), "batch_size should be a positive integer"),
    ]
    for kw, msg in bad:
        with pytest.raises(ValueError, match=msg):
            ac.data.DataLoader(ds, **kw)
    with pytest.raises(TypeError, match="generator must be"):
        ac.data.DataLoader(ds, generator=3)

    class Stream(ac.data.IterableDataset):
        def __iter__(self):
            return iter(range(3))

    for kw in (dict(shuffle=True), dict(sampler=[0]), dict(batch_sampler=[[0]])):
        with pytest.raises(ValueError, match="with an IterableDataset: expected unspecified"):
            ac.data.DataLoader(Stream(), **kw)
    with pytest.raises(TypeError, match="needs the dataset to define __len__"):
        len(ac.data.DataLoader(Stream()))


def test_dataset_errors_and_len():
    with pytest.raises(ValueError, match="size mismatch between arrays"):
        ac.data.TensorDataset(ac.ones(3), ac.ones(4))
    with pytest.raises(ValueError, match="array 0 is 0-d"):
        ac.data.TensorDataset(ac.asarray(1.0))
    with pytest.raises(ValueError, match="needs at least one array"):
        ac.data.TensorDataset()
    with pytest.raises(TypeError, match="must define __getitem__"):
        ac.data.Dataset()[0]
    ds = ac.data.TensorDataset(np.arange(6).reshape(3, 2), [1, 2, 3])  # converted
    assert len(ds) == 3 and ds[2][1].tolist() == 3
    assert len(ac.data.DataLoader(ds, batch_size=2)) == 2
    assert len(ac.data.DataLoader(ds, batch_size=2, drop_last=True)) == 1
    assert len(ac.data.DataLoader(ds, batch_size=None)) == 3


# --- random_split ------------------------------------------------------------------------
@pytest.mark.parametrize("n, lengths", [(10, [3, 7]), (10, [0.5, 0.5]), (11, [0.3, 0.3, 0.4]),
                                        (7, [0.1, 0.9]), (5, [1.0]), (3, [0.25, 0.25, 0.5])])
def test_random_split_lengths_match_torch_and_partition(n, lengths):
    ds = ac.data.TensorDataset(ac.arange(n))
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = ac.data.random_split(ds, lengths, generator=_gen(0))
            ref = tud.random_split(range(n), lengths, generator=torch.Generator().manual_seed(0))
    assert [len(s) for s in ours] == [len(s) for s in ref]
    seen = [int(s[i][0]) for s in ours for i in range(len(s))]
    assert sorted(seen) == list(range(n))
    again = ac.data.random_split(ds, lengths, generator=_gen(0))
    assert [list(s.indices) for s in again] == [list(s.indices) for s in ours]


def test_random_split_errors():
    ds = ac.data.TensorDataset(ac.arange(10))
    with pytest.raises(ValueError, match="does not equal the length"):
        ac.data.random_split(ds, [3, 3])
    with pytest.raises(ValueError, match="fractions in \\[0, 1\\] summing to 1"):
        ac.data.random_split(ds, [0.5, 0.6])
    with pytest.warns(UserWarning, match="split at index [12] is 0"):
        ac.data.random_split(ac.data.TensorDataset(ac.arange(2)), [0.9, 0.05, 0.05])


# --- worker threads ----------------------------------------------------------------------
def _worker_threads():
    return [t for t in threading.enumerate() if t.name.startswith("ac.data worker")]


def _wait_no_workers(deadline=5.0):
    t0 = time.monotonic()
    if _worker_threads():
        gc.collect()  # iterators in reference cycles (pytest keeps tracebacks) go now
    while _worker_threads() and time.monotonic() - t0 < deadline:
        time.sleep(0.01)
    return _worker_threads()


class _Slow(ac.data.Dataset):
    """Items take a random short time, so workers finish out of order."""

    def __init__(self, n=40, fail_at=None, exc=ValueError):
        self.n, self.fail_at, self.exc = n, fail_at, exc
        self.rng = np.random.default_rng(0)
        self.delays = self.rng.uniform(0, 0.003, n)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        time.sleep(self.delays[i])
        if i == self.fail_at:
            raise self.exc(f"bad item {i}")
        info = ac.data.get_worker_info()
        return {"i": i, "info": -1 if info is None else info.id}


@pytest.mark.parametrize("num_workers, prefetch", [(1, 1), (3, 2), (4, 5)])
def test_workers_preserve_order_and_match_single_thread(num_workers, prefetch):
    ds = _Slow()
    out = list(ac.data.DataLoader(ds, batch_size=3, shuffle=True, generator=_gen(9),
                                  num_workers=num_workers, prefetch_factor=prefetch))
    ref = [b for b in ac.data.DataLoader(_Slow(), batch_size=3, shuffle=True,
                                         generator=_gen(9),
                                         collate_fn=lambda b: [e["i"] for e in b])]
    assert [b["i"].tolist() for b in out] == ref
    # task k goes to worker k % num_workers (PyTorch's round-robin)
    assert [b["info"].tolist() for b in out] == [[k % num_workers] * len(r)
                                                 for k, r in enumerate(ref)]
    assert not _wait_no_workers()


def test_workers_out_of_order_delivery_has_every_batch():
    out = list(ac.data.DataLoader(_Slow(), batch_size=2, num_workers=3, in_order=False))
    assert sorted(i for b in out for i in b["i"].tolist()) == list(range(40))


def test_worker_exception_is_reraised_with_its_traceback():
    loader = ac.data.DataLoader(_Slow(fail_at=7), batch_size=3, num_workers=2)
    it = iter(loader)
    assert next(it)["i"].tolist() == [0, 1, 2]
    assert next(it)["i"].tolist() == [3, 4, 5]
    with pytest.raises(ValueError) as info:
        next(it)
    msg = str(info.value)
    assert "Caught ValueError in DataLoader worker thread 0" in msg
    assert "in __getitem__" in msg and "bad item 7" in msg  # the worker's traceback
    assert isinstance(info.value.worker_exception, ValueError)
    assert next(it)["i"].tolist() == [9, 10, 11]  # the iterator goes on
    del it
    assert not _wait_no_workers()


def test_worker_keyerror_and_odd_exception_types():
    class Odd(Exception):
        def __init__(self, a, b):
            super().__init__(a, b)

    class Bad(ac.data.Dataset):
        def __init__(self, exc):
            self.exc = exc

        def __len__(self):
            return 2

        def __getitem__(self, i):
            raise self.exc

    with pytest.raises(KeyError, match="Caught KeyError"):
        list(ac.data.DataLoader(Bad(KeyError("k")), num_workers=1))
    with pytest.raises(RuntimeError, match="Caught Odd in DataLoader worker thread 0"):
        list(ac.data.DataLoader(Bad(Odd(1, 2)), num_workers=1))
    assert not _wait_no_workers()


def test_worker_init_fn_and_worker_info():
    seen = []
    lock = threading.Lock()

    def init(wid):
        info = ac.data.get_worker_info()
        with lock:
            seen.append((wid, info.id, info.num_workers, info.seed))

    loader = ac.data.DataLoader(_Slow(6), batch_size=2, num_workers=2, worker_init_fn=init,
                                generator=_gen(0))
    list(loader)
    assert sorted(s[:3] for s in seen) == [(0, 0, 2), (1, 1, 2)]
    seeds = sorted(s[3] for s in seen)
    assert seeds[1] == seeds[0] + 1
    assert ac.data.get_worker_info() is None

    def failing_init(wid):
        raise OSError("no device")

    with pytest.raises(OSError, match="worker_init_fn of DataLoader worker thread"):
        list(ac.data.DataLoader(_Slow(4), num_workers=2, worker_init_fn=failing_init))
    assert not _wait_no_workers()


def test_iterable_dataset_with_worker_sharding():
    class Sharded(ac.data.IterableDataset):
        def __iter__(self):
            info = ac.data.get_worker_info()
            wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
            return iter(range(wid, 23, nw))

    for nw in (0, 1, 3):
        out = [v for b in ac.data.DataLoader(Sharded(), batch_size=4, num_workers=nw)
               for v in b.tolist()]
        assert sorted(out) == list(range(23)), nw
    # round-robin between workers, as PyTorch: worker 0's first batch, worker 1's, ...
    first = [b.tolist() for b in ac.data.DataLoader(Sharded(), batch_size=2, num_workers=2)]
    assert first[:3] == [[0, 2], [1, 3], [4, 6]]

    class Failing(ac.data.IterableDataset):
        def __iter__(self):
            yield 1
            raise ValueError("stream broke")

    with pytest.raises(ValueError, match="stream broke"):
        list(ac.data.DataLoader(Failing(), batch_size=1, num_workers=2))
    assert not _wait_no_workers()


def test_abandoned_iterators_stop_their_threads():
    ds = _Slow(200)
    for nw in (1, 4):
        it = iter(ac.data.DataLoader(ds, batch_size=2, num_workers=nw, prefetch_factor=3))
        next(it)
        assert len(_worker_threads()) == nw
        del it
        assert not _wait_no_workers(), "worker threads outlived their iterator"

    class Endless(ac.data.IterableDataset):
        def __iter__(self):
            i = 0
            while True:
                yield i
                i += 1

    it = iter(ac.data.DataLoader(Endless(), batch_size=5, num_workers=2))
    assert next(it).tolist() == [0, 1, 2, 3, 4]
    del it
    assert not _wait_no_workers()
    # a loop left by break
    for b in ac.data.DataLoader(ds, batch_size=2, num_workers=2):
        break
    del b
    assert not _wait_no_workers()


def test_worker_timeout():
    class Stuck(ac.data.Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            time.sleep(0.5)
            return i

    with pytest.raises(RuntimeError, match="timed out after 0.05 seconds"):
        list(ac.data.DataLoader(Stuck(), num_workers=1, timeout=0.05))
    assert not _wait_no_workers()
