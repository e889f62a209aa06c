"""`Generator`: NumPy Generator's methods on a counter-based bit generator, Philox4x32-10.

The state is a 64-bit key and a 128-bit counter.  A draw asks the engine for the values of
Philox blocks counter, counter + 1, ... under the key (arraycore/native/src/kernels/
random_philox.h) and advances the counter by the blocks it used; the engine splits big draws
over its threads by block ranges, so results do not depend on the thread count.  See
docs/random.md.
"""

from __future__ import annotations

import math
import operator
import os
import threading

from .._core import dtypes as _dt
from ..autodiff.batching import batch_random, random_levels
from ..autodiff.state import STATE
from ..native import _native
from . import _args as A

_M64 = (1 << 64) - 1
_M128 = (1 << 128) - 1
BIT_GENERATOR = "Philox4x32-10"


# --- seeding ---------------------------------------------------------------------------------

def _splitmix64(x):
    """SplitMix64's output function (Steele, Lea, Flood, "Fast splittable pseudorandom
    number generators", OOPSLA 2014): mixes a 64-bit value into a well-spread one."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def _seed_words(seed, who):
    """The 64-bit words a seed hashes: an int's little-endian 64-bit chunks (at least one),
    or the words of each int of a sequence, with lengths, so no two seeds share words."""
    if isinstance(seed, bool):
        raise TypeError(f"{who}: seed must be an int, a sequence of ints or None, got bool")
    try:
        v = operator.index(seed)
    except TypeError:
        v = None
    if v is not None:
        if v < 0:
            raise ValueError(f"{who}: seed must be non-negative, got {v}")
        words = []
        while True:
            words.append(v & _M64)
            v >>= 64
            if not v:
                return words
    if hasattr(seed, "__iter__") and not isinstance(seed, (str, bytes)):
        items = list(seed.tolist() if hasattr(seed, "tolist") else seed)
        words = [len(items)]
        for item in items:
            w = _seed_words(item, who)
            words.append(len(w))
            words.extend(w)
        return words
    raise TypeError(f"{who}: seed must be an int, a sequence of ints or None, got "
                    f"{type(seed).__name__}")


def key_from_seed(seed, who="Generator"):
    """The 64-bit Philox key of a seed (None: 128 bits from os.urandom)."""
    if seed is None:
        seed = int.from_bytes(os.urandom(16), "little")
    h = 0x6A09E667F3BCC908  # sqrt(2)'s fraction: a fixed start
    for w in _seed_words(seed, who):
        h = _splitmix64(h ^ w)
    return h


def _block(key, counter):
    return _native.random_philox_block(key, counter & _M64, counter >> 64)


# Keys that separate split's derivations from the stream: Philox under key ^ _SPLIT_TAG.
_SPLIT_TAG = 0x73706C6974746167  # "splittag"


class Generator:
    """A random number generator: NumPy's `Generator` methods on the Philox4x32-10
    counter-based bit generator (a 64-bit key and a 128-bit counter).

    >>> import arraycore as ac
    >>> g = ac.random.Generator(42)
    >>> x = g.normal(size=(2, 3), dtype=ac.float32)
    >>> a, b = g.split(2)          # independent child generators
    >>> a.integers(0, 10, size=5).shape
    (5,)

    Draws do not depend on the thread count.  Calls inside `ac.func.vmap` follow its
    `randomness` argument (see docs/random.md).  The methods are thread-safe.
    """

    __slots__ = ("_key", "_counter", "_lock", "__weakref__")

    def __init__(self, seed=None):
        if isinstance(seed, Generator):
            self._key, self._counter = seed._key, seed._counter
        else:
            self._key = key_from_seed(seed)
            self._counter = 0
        self._lock = threading.Lock()

    # --- state ----------------------------------------------------------------------------
    def _reseed(self, seed):
        key = key_from_seed(seed, "seed")
        with self._lock:
            self._key, self._counter = key, 0

    def manual_seed(self, seed):
        """Reseeds this generator in place and returns it (torch.Generator's method, so
        `ac.random.Generator().manual_seed(0)` ports `torch.Generator().manual_seed(0)`)."""
        self._reseed(seed)
        return self

    def get_state(self):
        """The generator's state as a dict (for checkpoints and state dicts):
        {"bit_generator": "Philox4x32-10", "key": int, "counter": int}.

        >>> g = ac.random.Generator(0); s = g.get_state(); a = g.random(3)
        >>> g.set_state(s); bool(ac.all(g.random(3) == a))
        True
        """
        with self._lock:
            return {"bit_generator": BIT_GENERATOR, "key": self._key, "counter": self._counter}

    def set_state(self, state):
        """Restores a state from `get_state()`."""
        if not isinstance(state, dict):
            raise TypeError(f"set_state: expected a dict from get_state(), got "
                            f"{type(state).__name__}")
        if state.get("bit_generator") != BIT_GENERATOR:
            raise ValueError(f"set_state: expected a {BIT_GENERATOR} state, got "
                             f"bit_generator={state.get('bit_generator')!r}")
        try:
            key = operator.index(state["key"])
            counter = operator.index(state["counter"])
        except (KeyError, TypeError):
            raise ValueError("set_state: the state needs integer 'key' and 'counter' "
                             "entries") from None
        if not (0 <= key <= _M64 and 0 <= counter <= _M128):
            raise ValueError("set_state: key must fit in 64 bits and counter in 128 bits")
        with self._lock:
            self._key, self._counter = key, counter

    @property
    def state(self):
        return self.get_state()

    @state.setter
    def state(self, value):
        self.set_state(value)

    def __getstate__(self):
        return self.get_state()

    def __setstate__(self, state):
        self._lock = threading.Lock()
        self._key = self._counter = 0
        self.set_state(state)

    def __repr__(self):
        return f"Generator({BIT_GENERATOR}, key=0x{self._key:016x}, counter={self._counter})"

    # --- splitting ------------------------------------------------------------------------
    def split(self, n=2):
        """n independent generators derived from this one (JAX's `split`).

        Child i's key hashes (key, counter, i) through Philox: a block under a tagged key at
        this generator's counter gives a 128-bit derivation value d, and child i's key is
        the first two words of the block (i, d) under d's key.  This generator's counter
        advances by one block, so successive splits give new children.

        >>> g = ac.random.Generator(0)
        >>> children = g.split(4)
        """
        n = operator.index(n)
        if n < 0:
            raise ValueError(f"split: n must be non-negative, got {n}")
        with self._lock:
            key, counter = self._key, self._counter
            self._counter = (counter + 1) & _M128
        d = _block(key ^ _SPLIT_TAG, counter)
        dkey = d[0] | (d[1] << 32)
        dhi = d[2] | (d[3] << 32)
        children = []
        for i in range(n):
            w = _native.random_philox_block(dkey, i, dhi)
            g = Generator.__new__(Generator)
            g._key, g._counter, g._lock = w[0] | (w[1] << 32), 0, threading.Lock()
            children.append(g)
        return children

    def spawn(self, n_children):
        """Alias of `split` (NumPy's name)."""
        return self.split(n_children)

    # --- drawing --------------------------------------------------------------------------
    def _draw(self, fn):
        """Runs fn(key, counter_lo, counter_hi) -> (array, blocks) at the current counter
        and advances it."""
        with self._lock:
            c = self._counter
            arr, blocks = fn(self._key, c & _M64, c >> 64)
            self._counter = (c + blocks) & _M128
        return arr

    def _fill(self, native_fn, shape, code, who, *params):
        """The fast path of the scalar-parameter draws: native_fn(shape, dtype_code, key,
        counter_lo, counter_hi, *params) -> (array, blocks), batched inside vmap."""
        levels = random_levels(who) if STATE.stack else None
        if levels:
            shape = tuple(it.size for it in levels) + tuple(shape)
        with self._lock:
            c = self._counter
            arr, blocks = native_fn(shape, code, self._key, c & _M64, c >> 64, *params)
            self._counter = (c + blocks) & _M128
        return batch_random(arr, levels) if levels else arr

    def _batched(self, shape, who, fn):
        """fn(shape) draws one array of `shape`; inside vmap with randomness='different' the
        draw gets the batch sizes in front and becomes a batched value."""
        if not STATE.stack:
            return fn(shape)
        levels = random_levels(who)
        if not levels:
            return fn(shape)
        sizes = tuple(it.size for it in levels)
        return batch_random(fn(sizes + tuple(shape)), levels)

    def _per_batch(self, who, fn):
        """Like _batched for draws made one at a time (permutations): one draw per batch
        element, stacked."""
        if not STATE.stack:
            return fn()
        levels = random_levels(who)
        if not levels:
            return fn()
        sizes = tuple(it.size for it in levels)
        parts = [fn() for _ in range(math.prod(sizes))]
        ns = A.ns()
        stacked = ns.reshape(ns.stack(parts), sizes + tuple(parts[0].shape))
        return batch_random(stacked, levels)

    def _uniform_raw(self, shape, dtype, low=0.0, high=1.0, who="random"):
        return self._batched(shape, who, lambda s: self._draw(
            lambda k, lo, hi: _native.random_uniform(s, dtype.code, k, lo, hi, low, high)))

    def _normal_raw(self, shape, dtype, loc=0.0, scale=1.0, who="normal"):
        return self._batched(shape, who, lambda s: self._draw(
            lambda k, lo, hi: _native.random_normal(s, dtype.code, k, lo, hi, loc, scale)))

    @staticmethod
    def _fill_out(out, res, who, dtype):
        if out is None:
            return res
        if not A.is_concrete(out):
            raise TypeError(f"{who}: out must be an arraycore array")
        if out.dtype != dtype:
            raise TypeError(f"{who}: out has dtype {out.dtype}, expected {dtype}")
        out[...] = res
        return out

    # --- continuous distributions ---------------------------------------------------------
    def random(self, size=None, dtype=None, out=None, *, device=None):
        """Uniform floats on [0, 1) (24 random mantissa bits in float32, 53 in float64).

        >>> ac.random.Generator(0).random((2, 2), dtype=ac.float32)
        """
        if out is None and device is None:
            dt, shape = _FAST_FLOAT.get(dtype), _fast_size(size)
            if dt is not None and shape is not None:
                return self._fill(_native.random_uniform, shape, dt, "random", 0.0, 1.0)
        A.check_device(device, "random")
        dtype = A.float_dtype(dtype, "random")
        shape = A.size_tuple(size, "random")
        if out is not None:
            if shape is not None and tuple(out.shape) != shape:
                raise ValueError(f"random: size {shape} does not match out's shape "
                                 f"{tuple(out.shape)}")
            shape = tuple(out.shape)
        res = self._uniform_raw(shape or (), dtype, who="random")
        return self._fill_out(out, res, "random", dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None, *, device=None):
        """Uniform floats on [low, high); low and high broadcast with `size`.

        >>> ac.random.Generator(0).uniform(-1.0, 1.0, size=4)
        """
        if type(low) in _NUM and type(high) in _NUM and device is None:
            dt, shape = _FAST_FLOAT.get(dtype), _fast_size(size)
            if dt is not None and shape is not None and low <= high and \
                    math.isfinite(high - low):
                return self._fill(_native.random_uniform, shape, dt, "uniform", float(low),
                                  float(high))
        who = "uniform"
        A.check_device(device, who)
        dtype = A.float_dtype(dtype, who)
        low, high = A.as_param(low, who, "low"), A.as_param(high, who, "high")
        shape = A.out_shape(A.size_tuple(size, who), (low, high), who)
        if not A.is_array(low) and not A.is_array(high):
            A.finite_number(low, who, "low")
            A.finite_number(high, who, "high")
            if low > high:
                raise ValueError(f"uniform: low must be <= high, got low={low}, high={high}")
            if not math.isfinite(high - low):
                raise ValueError("uniform: high - low overflows")
            return self._uniform_raw(shape, dtype, float(low), float(high), who)
        if A.is_concrete(low) and A.is_concrete(high) and A.any_true(A.ns().greater(low, high)):
            raise ValueError("uniform: low must be <= high")
        low, high = A.cast_param(low, dtype), A.cast_param(high, dtype)
        u = self._uniform_raw(shape, dtype, who=who)
        return low + (high - low) * u

    def standard_normal(self, size=None, dtype=None, out=None, *, device=None):
        """Standard normal floats (Box-Muller on Philox uniforms).

        >>> ac.random.Generator(0).standard_normal(3)
        """
        if out is None and device is None:
            dt, shape = _FAST_FLOAT.get(dtype), _fast_size(size)
            if dt is not None and shape is not None:
                return self._fill(_native.random_normal, shape, dt, "standard_normal", 0.0,
                                  1.0)
        A.check_device(device, "standard_normal")
        dtype = A.float_dtype(dtype, "standard_normal")
        shape = A.size_tuple(size, "standard_normal")
        if out is not None:
            if shape is not None and tuple(out.shape) != shape:
                raise ValueError(f"standard_normal: size {shape} does not match out's shape "
                                 f"{tuple(out.shape)}")
            shape = tuple(out.shape)
        res = self._normal_raw(shape or (), dtype, who="standard_normal")
        return self._fill_out(out, res, "standard_normal", dtype)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None, *, device=None):
        """Normal floats with mean `loc` and standard deviation `scale` (>= 0); loc and scale
        broadcast with `size`.

        >>> ac.random.Generator(0).normal(1.0, 0.1, size=(2, 3), dtype=ac.float32)
        """
        if type(loc) in _NUM and type(scale) in _NUM and device is None:
            dt, shape = _FAST_FLOAT.get(dtype), _fast_size(size)
            if dt is not None and shape is not None and scale >= 0:
                return self._fill(_native.random_normal, shape, dt, "normal", float(loc),
                                  float(scale))
        who = "normal"
        A.check_device(device, who)
        dtype = A.float_dtype(dtype, who)
        loc, scale = A.as_param(loc, who, "loc"), A.as_param(scale, who, "scale")
        shape = A.out_shape(A.size_tuple(size, who), (loc, scale), who)
        if not A.is_array(loc) and not A.is_array(scale):
            if scale < 0:
                raise ValueError(f"normal: scale must be non-negative, got {scale}")
            return self._normal_raw(shape, dtype, float(loc), float(scale), who)
        if A.is_concrete(scale) and A.any_true(A.ns().less(scale, 0)):
            raise ValueError("normal: scale must be non-negative")
        loc, scale = A.cast_param(loc, dtype), A.cast_param(scale, dtype)
        z = self._normal_raw(shape, dtype, who=who)
        return loc + scale * z

    def truncated_normal(self, loc=0.0, scale=1.0, a=-2.0, b=2.0, size=None, dtype=None, *,
                         device=None):
        """Normal(loc, scale) conditioned on [a, b] (a and b are bounds on the values, as in
        torch.nn.init.trunc_normal_), exactly, by the inverse CDF in log space.

        x = loc + scale * ndtri(Phi(alpha) + u (Phi(beta) - Phi(alpha))) with
        alpha = (a - loc) / scale, beta = (b - loc) / scale, computed as
        ndtri_exp(log Phi(beta) + log(u + (1 - u) exp(log Phi(alpha) - log Phi(beta)))) on
        the side of the interval with less mass beyond it (the distribution is symmetric),
        so intervals far in a tail keep full precision.

        >>> ac.random.Generator(0).truncated_normal(size=5)   # in [-2, 2]
        """
        who = "truncated_normal"
        A.check_device(device, who)
        dtype = A.float_dtype(dtype, who)
        ns = A.ns()
        loc, scale = A.as_param(loc, who, "loc"), A.as_param(scale, who, "scale")
        a, b = A.as_param(a, who, "a"), A.as_param(b, who, "b")
        shape = A.out_shape(A.size_tuple(size, who), (loc, scale, a, b), who)
        params = (loc, scale, a, b)
        if not any(A.is_array(p) for p in params):
            if not scale > 0:
                raise ValueError(f"truncated_normal: scale must be positive, got {scale}")
            if not a < b:
                raise ValueError(f"truncated_normal: need a < b, got a={a}, b={b}")
        else:
            if A.is_concrete(scale) and A.any_true(ns.less_equal(scale, 0)):
                raise ValueError("truncated_normal: scale must be positive")
            if A.is_concrete(a) and A.is_concrete(b) and A.any_true(ns.greater_equal(a, b)):
                raise ValueError("truncated_normal: need a < b")
        f64 = _dt.float64
        loc64, scale64 = A.cast_param(loc, f64), A.cast_param(scale, f64)
        alpha = (A.cast_param(a, f64) - loc64) / scale64
        beta = (A.cast_param(b, f64) - loc64) / scale64
        if not A.is_array(alpha):
            alpha = ns.asarray(alpha, dtype=f64)
        if not A.is_array(beta):
            beta = ns.asarray(beta, dtype=f64)
        # Mirror intervals whose upper side has less mass beyond it: sample from [-b, -a].
        flip = ns.greater(alpha, -beta)
        lo_s = ns.where(flip, -beta, alpha)
        hi_s = ns.where(flip, -alpha, beta)
        u = self._uniform_raw(shape, f64, who=who)
        log_hi = ns.special.log_ndtr(hi_s)
        ratio = ns.exp(ns.special.log_ndtr(lo_s) - log_hi)
        z = ns.special.ndtri_exp(log_hi + ns.log(u + (1.0 - u) * ratio))
        z = ns.clip(z, lo_s, hi_s)  # (rounding at the ends of the interval)
        z = ns.where(flip, -z, z)
        x = loc64 + scale64 * z
        return ns.astype(x, dtype) if dtype != f64 else x

    # --- discrete distributions -----------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=None, endpoint=False, *,
                 device=None):
        """Uniform integers in [low, high) ([low, high] with endpoint=True), without bias
        (Lemire's multiply-and-reject); one argument means [0, low).

        >>> ac.random.Generator(0).integers(0, 10, size=5)
        """
        who = "integers"
        if type(low) is int and (high is None or type(high) is int) and device is None:
            d, shape = _FAST_INT.get(dtype), _fast_size(size)
            if d is not None and shape is not None:
                lo_i, hi_i = (0, low) if high is None else (low, high)
                top = hi_i if endpoint else hi_i - 1
                lo_lim, hi_lim = _INT_LIMITS[d]
                if lo_lim <= lo_i <= top <= hi_lim:
                    return self._fill(_native.random_integers, shape, d.code, who,
                                      lo_i & _M64, (top - lo_i + 1) & _M64)
        if device is not None:
            A.check_device(device, who)
        dtype = A.int_dtype(dtype, who)
        if high is None:
            low, high = 0, low
        low, high = A.as_param(low, who, "low"), A.as_param(high, who, "high")
        shape = A.out_shape(A.size_tuple(size, who), (low, high), who)
        lo_lim, hi_lim = _int_limits(dtype)
        if not A.is_array(low) and not A.is_array(high):
            lo_i, hi_i = _as_int(low, who, "low"), _as_int(high, who, "high")
            top = hi_i if endpoint else hi_i - 1
            if lo_i > top:
                raise ValueError(f"integers: low >= high (low={lo_i}, high={hi_i}"
                                 f"{', endpoint=True' if endpoint else ''})")
            if lo_i < lo_lim or top > hi_lim:
                raise ValueError(f"integers: bounds [{lo_i}, {top}] out of range for {dtype}")
            rng = (top - lo_i + 1) & _M64  # 2^64 -> 0
            return self._fill(_native.random_integers, shape, dtype.code, who, lo_i & _M64,
                              rng)
        return self._integers_array(low, high, shape, dtype, endpoint, lo_lim, hi_lim)

    def _integers_array(self, low, high, shape, dtype, endpoint, lo_lim, hi_lim):
        who = "integers"
        ns = A.ns()
        for name, v in (("low", low), ("high", high)):
            if A.is_array(v) and not A.is_concrete(v):
                raise TypeError(f"integers: {name} must be a concrete array, not a traced "
                                "value (inside a transform, draw with scalar bounds and "
                                "shift/scale the result)")
            if A.is_array(v) and v.dtype.kind not in "biu":
                raise TypeError(f"integers: {name} must have an integer dtype, got {v.dtype}")
        lows = [int(t) for t in _flat_ints(ns, low, shape)]
        highs = [int(t) for t in _flat_ints(ns, high, shape)]
        off = 0 if endpoint else 1
        for lo_i, hi_i in zip(lows, highs):
            if lo_i > hi_i - off:
                raise ValueError(f"integers: low >= high (low={lo_i}, high={hi_i})")
            if lo_i < lo_lim or hi_i - off > hi_lim:
                raise ValueError(f"integers: bounds out of range for {dtype}")
        # Per-element bounds: 64-bit words, Lemire's method per element (the engine's
        # integers_varying); element j of a draw uses the bounds of j modulo their count, so
        # a vmap draw (batch sizes in front) repeats them per batch element.
        lo_arr = ns.asarray([v & _M64 for v in lows], dtype=_dt.uint64)
        rng_arr = ns.asarray([(h - off - lo + 1) & _M64 for lo, h in zip(lows, highs)],
                             dtype=_dt.uint64)
        return self._batched(shape, who, lambda s: self._draw(
            lambda k, lo, hi: _native.random_integers_varying(s, dtype.code, k, lo, hi,
                                                              lo_arr, rng_arr)))

    def bernoulli(self, p=0.5, size=None, dtype=None, *, device=None):
        """1 with probability p, else 0 (as torch.bernoulli), in `dtype` (float64 default;
        bool and integer dtypes too); p broadcasts with `size`.

        >>> ac.random.Generator(0).bernoulli(0.3, size=8, dtype=ac.bool)
        """
        if type(p) in _NUM and device is None and 0 <= p <= 1:
            dt, shape = _FAST_BERNOULLI.get(dtype), _fast_size(size)
            if dt is not None and shape is not None:
                return self._fill(_native.random_bernoulli, shape, dt, "bernoulli", float(p))
        who = "bernoulli"
        A.check_device(device, who)
        from ..array_api._validation import check_dtype
        dtype = check_dtype(dtype, who) if dtype is not None else _dt.float64
        if dtype.kind == "c":
            raise TypeError(f"bernoulli: dtype must be bool, integer or real float, got {dtype}")
        p = A.as_param(p, who, "p")
        shape = A.out_shape(A.size_tuple(size, who), (p,), who)
        if not A.is_array(p):
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"bernoulli: p must be in [0, 1], got {p}")
            return self._batched(shape, who, lambda s: self._draw(
                lambda k, lo, hi: _native.random_bernoulli(s, dtype.code, k, lo, hi,
                                                           float(p))))
        ns = A.ns()
        if A.is_concrete(p) and A.any_true(ns.logical_or(ns.less(p, 0), ns.greater(p, 1))):
            raise ValueError("bernoulli: p must be in [0, 1]")
        u = self._uniform_raw(shape, _dt.float64, who=who)
        return ns.astype(ns.less(u, A.cast_param(p, _dt.float64)), dtype)

    # --- permutations and sampling --------------------------------------------------------
    def _perm_indices(self, n, who):
        return self._per_batch(who, lambda: self._draw(
            lambda k, lo, hi: _native.random_permutation(n, k, lo, hi)))

    def permutation(self, x, axis=0):
        """A random permutation of range(x) (x an int), or a permuted copy of the array x
        along `axis`.

        >>> ac.random.Generator(0).permutation(5)
        """
        ns = A.ns()
        if not A.is_array(x) and not hasattr(x, "__len__"):
            n = _as_int(x, "permutation", "x")
            if n < 0:
                raise ValueError(f"permutation: x must be non-negative, got {n}")
            return self._perm_indices(n, "permutation")
        if not A.is_array(x):
            x = ns.asarray(x)
        if x.ndim == 0:
            raise ValueError("permutation: x must be an integer or an array of at least "
                             "one dimension")
        axis = _norm_axis(axis, x.ndim, "permutation")
        idx = self._perm_indices(x.shape[axis], "permutation")
        return _take(ns, x, idx, axis)

    def shuffle(self, x, axis=0):
        """Shuffles the array x in place along `axis` (a Python list along its length).

        >>> x = ac.arange(10); ac.random.Generator(0).shuffle(x)
        """
        ns = A.ns()
        if isinstance(x, list):
            if axis != 0:
                raise ValueError("shuffle: a list is shuffled along axis 0 only")
            perm = self._perm_indices(len(x), "shuffle").tolist()
            x[:] = [x[i] for i in perm]
            return None
        if not A.is_array(x):
            raise TypeError(f"shuffle: x must be an arraycore array or a list, got "
                            f"{type(x).__name__}")
        if x.ndim == 0:
            raise ValueError("shuffle: x must have at least one dimension")
        axis = _norm_axis(axis, x.ndim, "shuffle")
        idx = self._perm_indices(x.shape[axis], "shuffle")
        x[...] = _take(ns, x, idx, axis)
        return None

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Random samples of range(a) (a an int) or of the array a along `axis`, with or
        without replacement, uniformly or with probabilities p (NumPy's Generator.choice).

        >>> ac.random.Generator(0).choice(5, size=3, replace=False)
        >>> ac.random.Generator(0).choice(ac.asarray([1.0, 2.0, 3.0]), size=4, p=[0.2, 0.3, 0.5])
        """
        who = "choice"
        ns = A.ns()
        shape = A.size_tuple(size, who)
        k = 1 if shape is None else math.prod(shape)
        if A.is_array(a) or hasattr(a, "__len__"):
            pop = a if A.is_array(a) else ns.asarray(a)
            if pop.ndim == 0:
                raise ValueError("choice: a must be a positive integer or an array of at "
                                 "least one dimension")
            axis = _norm_axis(axis, pop.ndim, who)
            n = pop.shape[axis]
        else:
            pop = None
            n = _as_int(a, who, "a")
            if n < 0:
                raise ValueError(f"choice: a must be a positive integer, got {n}")
        if n == 0 and k > 0:
            raise ValueError("choice: a cannot be empty unless no samples are taken")
        if p is not None:
            p = self._check_p(p, n)
        if replace:
            if p is None:
                idx = self.integers(0, max(n, 1), size=(k,))
            else:
                cdf = ns.cumulative_sum(p)
                cdf = cdf / cdf[-1]
                u = self._uniform_raw((k,), _dt.float64, who=who)
                idx = ns.searchsorted(cdf, u, side="right")
                idx = ns.minimum(idx, n - 1)
        else:
            if k > n:
                raise ValueError("choice: cannot take a larger sample than population when "
                                 "replace=False")
            if p is None:
                idx = self._per_batch(who, lambda: self._draw(
                    lambda kk, lo, hi: _native.random_choice_without_replacement(
                        n, k, bool(shuffle), kk, lo, hi)))
            else:
                # Efraimidis and Spirakis, "Weighted random sampling with a reservoir"
                # (IPL 2006): the k smallest E_i / p_i (E_i standard exponential) are a
                # sample drawn one by one with probabilities proportional to p, in order.
                if int(ns.count_nonzero(p)) < k:
                    raise ValueError("choice: fewer non-zero entries in p than size")
                u = self._uniform_raw((n,), _dt.float64, who=who)
                keys = -ns.log1p(-u) / p
                idx = ns.argsort(keys, axis=-1, stable=True)[..., :k]
        out_shape = () if shape is None else shape
        if pop is None:
            return ns.reshape(idx, out_shape)
        picked = _take(ns, pop, idx, axis)
        new_shape = tuple(pop.shape[:axis]) + out_shape + tuple(pop.shape[axis + 1:])
        return ns.reshape(picked, new_shape)

    @staticmethod
    def _check_p(p, n):
        ns = A.ns()
        p = ns.asarray(p, dtype=_dt.float64) if not A.is_array(p) else ns.astype(p, _dt.float64)
        if p.ndim != 1:
            raise ValueError("choice: p must be 1-dimensional")
        if p.shape[0] != n:
            raise ValueError(f"choice: a and p must have the same size ({n} and {p.shape[0]})")
        if A.is_concrete(p):
            if A.any_true(ns.logical_not(ns.isfinite(p))) or A.any_true(ns.less(p, 0)):
                raise ValueError("choice: probabilities must be finite and non-negative")
            total = float(ns.sum(p))
            if abs(total - 1.0) > math.sqrt(2.220446049250313e-16):
                raise ValueError(f"choice: probabilities do not sum to 1 (sum {total})")
        return p


# --- helpers ---------------------------------------------------------------------------------

# Fast-path argument checks (the common call: Python-number parameters, `size` an int or a
# tuple of ints, dtype None or a dtype object): a draw of a few values then costs little
# more than the engine call.
_NUM = frozenset((int, float))
_FAST_FLOAT = {None: _dt.float64.code, _dt.float64: _dt.float64.code,
               _dt.float32: _dt.float32.code}
_FAST_BERNOULLI = {None: _dt.float64.code, **{d: d.code for d in _dt.ALL_DTYPES
                                               if d.kind != "c"}}

_FAST_INT = {None: _dt.int64, **{d: d for d in _dt.ALL_DTYPES if d.kind in "iu"}}


def _fast_size(size):
    """size as a shape when it is None, a non-negative int or a tuple of them, else None
    (the general path then validates it)."""
    if size is None:
        return ()
    t = type(size)
    if t is int:
        return (size,) if size >= 0 else None
    if t is tuple:
        for d in size:
            if type(d) is not int or d < 0:
                return None
        return size
    return None


def _as_int(v, who, name):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        if v != int(v):
            raise TypeError(f"{who}: {name} must be an integer, got {v}")
        return int(v)
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{who}: {name} must be an integer, got {type(v).__name__}") from None


def _int_limits(dtype):
    bits = dtype.bits
    if dtype.kind == "u":
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


_INT_LIMITS = {d: _int_limits(d) for d in _dt.ALL_DTYPES if d.kind in "iu"}


def _norm_axis(axis, ndim, who):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise ValueError(f"{who}: axis {axis} is out of bounds for an array of dimension "
                         f"{ndim}")
    return axis % ndim


def _take(ns, x, idx, axis):
    """x's entries at the 1-d indices idx along axis (idx may be batched by vmap)."""
    return ns.take(x, idx, axis=axis)


def _flat_ints(ns, v, shape):
    if A.is_array(v):
        return ns.reshape(ns.broadcast_to(v, shape), (-1,)).tolist()
    return [v] * math.prod(shape)
