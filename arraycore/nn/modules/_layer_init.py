"""L4: PyTorch's default initialisations of the layers in this package (nn.Linear's
kaiming_uniform_(a=sqrt(5)) and bias bound 1/sqrt(fan_in), Embedding's N(0, 1), ...).

They use `ac.nn.init` when it is there, else draw from `ac.random`'s global generator with
the same bounds, so a ported model starts from PyTorch's distribution either way.
"""

from __future__ import annotations

import math


def _ns():
    import arraycore
    return arraycore


def _init_module():
    try:
        from .. import init
    except ImportError:
        return None
    return init


def _write(p, values):
    xp = _ns()
    with xp.no_grad():
        p[...] = xp.astype(values, p.dtype)
    return p


def fan_in(weight):
    """PyTorch's fan_in: size(1) times the receptive field (prod of sizes past the 2nd)."""
    if weight.ndim < 2:
        raise ValueError("fan in can not be computed for an array with fewer than 2 dimensions")
    n = weight.shape[1]
    for s in weight.shape[2:]:
        n *= s
    return n


def uniform_(p, low, high):
    init = _init_module()
    if init is not None and hasattr(init, "uniform_"):
        return init.uniform_(p, low, high)
    gen = _ns().random.get_global_generator()
    return _write(p, gen.uniform(low, high, size=tuple(p.shape)))


def normal_(p, mean=0.0, std=1.0):
    init = _init_module()
    if init is not None and hasattr(init, "normal_"):
        return init.normal_(p, mean, std)
    gen = _ns().random.get_global_generator()
    return _write(p, gen.normal(mean, std, size=tuple(p.shape)))


def constant_(p, value):
    xp = _ns()
    with xp.no_grad():
        p[...] = value
    return p


def kaiming_uniform_sqrt5_(weight):
    """kaiming_uniform_(weight, a=sqrt(5)): U(-b, b), b = gain sqrt(3 / fan_in) with
    gain = sqrt(2 / (1 + a^2)), i.e. b = 1 / sqrt(fan_in)."""
    init = _init_module()
    if init is not None and hasattr(init, "kaiming_uniform_"):
        return init.kaiming_uniform_(weight, a=math.sqrt(5))
    n = fan_in(weight)
    if n == 0:
        return weight
    gain = math.sqrt(2.0 / (1 + 5.0))
    bound = gain * math.sqrt(3.0 / n)
    return uniform_(weight, -bound, bound)


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
