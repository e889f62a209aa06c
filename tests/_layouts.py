"""Array layouts for the manipulation and advanced-indexing tests: the same strided view
built in NumPy and in arraycore from one base buffer."""

from __future__ import annotations

import numpy as np

import arraycore as ac
from conftest import random_numpy


def _perm(a, axes):
    return np.transpose(a, axes) if isinstance(a, np.ndarray) else ac.permute_dims(a, axes)


def _bcast(a, shape):
    return np.broadcast_to(a, shape) if isinstance(a, np.ndarray) else ac.broadcast_to(a, shape)


# name -> (base shape, view function); every view of a 3-D base here has shape (4, 3, 5)
# except where noted by the name.
LAYOUTS = {
    "contiguous": ((4, 3, 5), lambda a: a),
    "transposed": ((5, 3, 4), lambda a: _perm(a, (2, 1, 0))),
    "negative": ((4, 3, 5), lambda a: a[::-1, :, ::-1]),
    "strided": ((8, 3, 10), lambda a: a[::2, :, 1::2]),
    "stride0": ((1, 3, 5), lambda a: _bcast(a, (4, 3, 5))),
    "zero_d": ((), lambda a: a),
    "empty": ((4, 0, 5), lambda a: a),
    "size1": ((1, 1, 1), lambda a: a),
    "one_d": ((7,), lambda a: a),
}


def pair(layout: str, dtype: str = "float64", seed: int = 0, writeable: bool = False):
    """(numpy view, arraycore view) with equal values and the same layout."""
    shape, view = LAYOUTS[layout]
    base = random_numpy(shape, dtype, np.random.default_rng(seed))
    a = view(base.copy())
    x = view(ac.asarray(base.copy()))
    if writeable and layout == "stride0":
        a = np.array(a)
        x = ac.asarray(np.array(a))
    return a, x
