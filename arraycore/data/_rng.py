"""L4: the few random draws the data pipeline makes, all from `ac.random` Generators.

Samplers take an optional `generator` (an `ac.random.Generator`); without one they draw from
the global generator, so `ac.manual_seed(n)` / `ac.random.seed(n)` makes a whole training run's
shuffling reproducible, as `torch.manual_seed` does for torch's DataLoader.
"""

from __future__ import annotations

import sys


def _ns():
    return sys.modules["arraycore"]


def check_generator(generator, fn: str):
    """`generator` if it is None or looks like an `ac.random.Generator`; else a TypeError."""
    if generator is None or hasattr(generator, "permutation"):
        return generator
    raise TypeError(f"{fn}: generator must be an ac.random.Generator or None, got "
                    f"{type(generator).__module__}.{type(generator).__name__}")


def resolve(generator):
    """The generator to draw from: the given one, else the global one (read at draw time, so
    reseeding the global generator takes effect)."""
    if generator is not None:
        return generator
    return _ns().random.get_global_generator()


def permutation(generator, n: int):
    """A random permutation of range(n) as an int64 array."""
    ns = _ns()
    p = resolve(generator).permutation(n)
    return p if p.dtype == ns.int64 else ns.astype(p, ns.int64)


def integers(generator, high: int, size: int):
    """`size` independent uniform draws from range(high), int64."""
    ns = _ns()
    return resolve(generator).integers(0, high, size=(size,), dtype=ns.int64)


def uniform(generator, size: int):
    """`size` uniform draws from [0, 1), float64."""
    ns = _ns()
    return resolve(generator).random(size=(size,), dtype=ns.float64)


def seed(generator) -> int:
    """A fresh 63-bit seed (for worker seeds), drawn from the generator."""
    ns = _ns()
    return int(resolve(generator).integers(0, 2**63 - 1, size=(1,), dtype=ns.int64)[0])
