"""L4: the parameter dtype rule of the sequence layers: dtype=None is float32 (PyTorch's
default dtype); only real floating dtypes are accepted."""

from __future__ import annotations

import arraycore as _ac


def resolve_dtype(dtype, who):
    if dtype is None:
        return _ac.float32
    if dtype not in (_ac.float32, _ac.float64):
        raise TypeError(f"{who}: expected float32 or float64 parameters, got {dtype}")
    return dtype
