"""L4: `ac.data`, torch.utils.data's datasets, samplers and DataLoader over arraycore arrays.

    >>> import arraycore as ac
    >>> X, y = ac.ones((100, 784), dtype=ac.float32), ac.zeros(100, dtype=ac.int64)
    >>> loader = ac.data.DataLoader(ac.data.TensorDataset(X, y), batch_size=32,
    ...                             shuffle=True, generator=ac.random.Generator(0))
    >>> for xb, yb in loader:
    ...     pass

Shuffling draws from `ac.random` Generators; `num_workers > 0` uses threads (see
_workers.py).  See docs/nn_data.md.
"""

from ._workers import WorkerInfo, get_worker_info
from .collate import collate, default_collate, default_collate_fn_map, default_convert
from .dataloader import DataLoader
from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, Subset,
                      TensorDataset, random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,
                      SubsetRandomSampler, WeightedRandomSampler)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "ChainDataset", "random_split", "DataLoader", "Sampler", "SequentialSampler",
           "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler",
           "default_collate", "default_convert", "collate", "default_collate_fn_map",
           "get_worker_info", "WorkerInfo"]
