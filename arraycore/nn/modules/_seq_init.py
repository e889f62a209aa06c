"""L4: the default initializations of the sequence layers, drawn from `ac.random`'s global
generator (PyTorch's distributions: RNN weights uniform(+-1/sqrt(hidden)), attention's
in-projection xavier_uniform_, Linear's kaiming_uniform_(a=sqrt(5)), i.e.
uniform(+-1/sqrt(fan_in)))."""

from __future__ import annotations

import math

import arraycore as _ac


def uniform(shape, bound, dtype):
    """An array of `shape` drawn from U(-bound, bound), cast to `dtype`."""
    return _ac.astype(_ac.random.uniform(-bound, bound, size=tuple(shape)), dtype)


def xavier_uniform(shape, dtype):
    fan_out, fan_in = shape[0], shape[1]
    return uniform(shape, math.sqrt(6.0 / (fan_in + fan_out)), dtype)


def xavier_normal(shape, dtype):
    """torch.nn.init.xavier_normal_ of a (1, 1, E) bias: fan_in = size(1) * receptive field,
    fan_out = size(0) * receptive field."""
    receptive = math.prod(shape[2:]) if len(shape) > 2 else 1
    fan_in, fan_out = shape[1] * receptive, shape[0] * receptive
    std = math.sqrt(2.0 / (fan_in + fan_out))
    return _ac.astype(_ac.random.normal(0.0, std, size=tuple(shape)), dtype)


def linear_weight(out_features, in_features, dtype):
    return uniform((out_features, in_features), 1.0 / math.sqrt(in_features) if in_features
                   else 0.0, dtype)


def linear_bias(out_features, in_features, dtype):
    return uniform((out_features,), 1.0 / math.sqrt(in_features) if in_features else 0.0,
                   dtype)


def resolve_dtype(dtype):
    """dtype=None -> float32 (PyTorch's default dtype for parameters)."""
    if dtype is None:
        return _ac.float32
    if dtype not in (_ac.float32, _ac.float64):
        raise TypeError(f"expected a floating-point dtype for parameters, got {dtype}")
    return dtype
