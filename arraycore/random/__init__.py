"""arraycore.random: random numbers from a counter-based generator (Philox4x32-10), with
NumPy Generator's methods and signatures.

>>> import arraycore as ac
>>> g = ac.random.default_rng(0)
>>> g.normal(size=(2, 3), dtype=ac.float32)
>>> ac.random.seed(1)                     # module-level functions use a global generator
>>> ac.random.uniform(-1, 1, size=4)

Results do not depend on the thread count; `Generator.split(n)` gives independent
generators; inside `ac.func.vmap(f, randomness=...)` draws are an error (the default), shared
by the batch ("same") or independent per batch element ("different").  See docs/random.md.
"""

from __future__ import annotations

from ._generator import BIT_GENERATOR, Generator

__all__ = ["Generator", "default_rng", "seed", "manual_seed", "get_global_generator", "random", "uniform",
           "normal", "standard_normal", "integers", "bernoulli", "truncated_normal",
           "permutation", "shuffle", "choice", "split", "get_state", "set_state",
           "BIT_GENERATOR"]

_GLOBAL = Generator()


def default_rng(seed=None):
    """A new Generator (NumPy's name); a Generator passed in is returned as is.

    >>> rng = ac.random.default_rng(12345)
    """
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


def seed(seed=None):
    """Reseeds the global generator that the module-level functions draw from.

    >>> ac.random.seed(0); a = ac.random.random(3)
    >>> ac.random.seed(0); bool(ac.all(ac.random.random(3) == a))
    True
    """
    _GLOBAL._reseed(seed)
    return _GLOBAL


manual_seed = seed  # (torch's name; also ac.manual_seed)


def get_global_generator():
    """The global Generator behind the module-level functions (`ac.random.normal`, ...)."""
    return _GLOBAL


def get_state():
    """The global generator's state (see Generator.get_state)."""
    return _GLOBAL.get_state()


def set_state(state):
    """Restores the global generator's state."""
    _GLOBAL.set_state(state)


def random(size=None, dtype=None, out=None, *, device=None):
    """Uniform floats on [0, 1) from the global generator (see Generator.random).

    >>> ac.random.random((2, 2))
    """
    return _GLOBAL.random(size, dtype, out, device=device)


def uniform(low=0.0, high=1.0, size=None, dtype=None, *, device=None):
    """Uniform floats on [low, high) from the global generator (see Generator.uniform).

    >>> ac.random.uniform(0, 10, size=3)
    """
    return _GLOBAL.uniform(low, high, size, dtype, device=device)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, *, device=None):
    """Normal floats from the global generator (see Generator.normal).

    >>> ac.random.normal(0.0, 2.0, size=3)
    """
    return _GLOBAL.normal(loc, scale, size, dtype, device=device)


def standard_normal(size=None, dtype=None, out=None, *, device=None):
    """Standard normal floats from the global generator (see Generator.standard_normal).

    >>> ac.random.standard_normal(3, dtype=ac.float32)
    """
    return _GLOBAL.standard_normal(size, dtype, out, device=device)


def integers(low, high=None, size=None, dtype=None, endpoint=False, *, device=None):
    """Uniform integers from the global generator (see Generator.integers).

    >>> ac.random.integers(0, 6, size=10)
    """
    return _GLOBAL.integers(low, high, size, dtype, endpoint, device=device)


def bernoulli(p=0.5, size=None, dtype=None, *, device=None):
    """0/1 draws with probability p of 1 from the global generator (see
    Generator.bernoulli).

    >>> ac.random.bernoulli(0.5, size=4)
    """
    return _GLOBAL.bernoulli(p, size, dtype, device=device)


def truncated_normal(loc=0.0, scale=1.0, a=-2.0, b=2.0, size=None, dtype=None, *,
                     device=None):
    """Normal floats conditioned on [a, b] from the global generator (see
    Generator.truncated_normal).

    >>> ac.random.truncated_normal(0.0, 1.0, -1.0, 1.0, size=3)
    """
    return _GLOBAL.truncated_normal(loc, scale, a, b, size, dtype, device=device)


def permutation(x, axis=0):
    """A random permutation from the global generator (see Generator.permutation).

    >>> ac.random.permutation(5)
    """
    return _GLOBAL.permutation(x, axis)


def shuffle(x, axis=0):
    """Shuffles x in place with the global generator (see Generator.shuffle).

    >>> x = ac.arange(5); ac.random.shuffle(x)
    """
    return _GLOBAL.shuffle(x, axis)


def choice(a, size=None, replace=True, p=None, axis=0, shuffle=True):
    """Random samples from the global generator (see Generator.choice).

    >>> ac.random.choice(10, size=3, replace=False)
    """
    return _GLOBAL.choice(a, size, replace, p, axis, shuffle)


def split(n=2):
    """n independent generators split off the global generator (see Generator.split)."""
    return _GLOBAL.split(n)
