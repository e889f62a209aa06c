"""L4: PyTorch's default initialisations of the layers in this package (nn.Linear's
kaiming_uniform_(a=sqrt(5)) and bias bound 1/sqrt(fan_in), Embedding's N(0, 1), ...).

They call `ac.nn.init` (which draws from `ac.random`'s global generator), so a ported model
starts from PyTorch's distribution.
"""

from __future__ import annotations

import math


def _ns():
    import arraycore
    return arraycore


def uniform_(p, low, high):
    from .. import init
    return init.uniform_(p, low, high)


def normal_(p, mean=0.0, std=1.0):
    from .. import init
    return init.normal_(p, mean, std)


def constant_(p, value):
    from .. import init
    return init.constant_(p, value)


def kaiming_uniform_sqrt5_(weight):
    """nn.Linear's kaiming_uniform_(weight, a=sqrt(5)): U(-b, b) with b = gain sqrt(3 / fan_in),
    gain = sqrt(2 / (1 + a^2)), i.e. b = 1 / sqrt(fan_in)."""
    from .. import init
    return init.kaiming_uniform_(weight, a=math.sqrt(5))


def fan_in(weight):
    """PyTorch's fan_in: size(1) times the receptive field (prod of sizes past the 2nd)."""
    n = weight.shape[1]
    for s in weight.shape[2:]:
        n *= s
    return n


def bias_uniform_(bias, weight):
    """bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (0 when fan_in is 0), as nn.Linear."""
    n = fan_in(weight)
    bound = 1.0 / math.sqrt(n) if n > 0 else 0.0
    return uniform_(bias, -bound, bound)


def factory_dtype(dtype):
    """Layers default to float32 (PyTorch's default dtype); dtype= overrides."""
    xp = _ns()
    if dtype is None:
        return xp.float32
    if isinstance(dtype, str):
        dtype = getattr(xp, dtype)
    return dtype


def check_device(device, who):
    if device is not None and str(device) != "cpu":
        raise ValueError(f"{who}: device must be 'cpu' (arraycore runs on the CPU), got "
                         f"{device!r}")
