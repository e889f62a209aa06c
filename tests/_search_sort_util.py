"""Inputs shared by test_searching.py, test_sorting.py and test_sets.py: random values of
every dtype with many duplicates and special values, in every layout the kernels must handle,
built in NumPy and mirrored into arraycore with the same view operations."""

from __future__ import annotations

import numpy as np

import arraycore as ac

from conftest import DTYPE_NAMES

SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]


def values(shape, dtype, rng, dups=True, specials=True):
    """Random values with many repeats (small range) and, for floats, NaN/inf/±0."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) if shape else 1
    if dt.kind == "b":
        a = rng.random(n) < 0.5
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (-5, 5) if dups else (max(info.min, -10**6), min(info.max, 10**6))
        lo = max(lo, info.min)
        a = rng.integers(lo, hi, size=n, endpoint=True).astype(dt)
        if n >= 4 and not dups:
            a[:2] = [info.min, info.max]
    else:
        base = rng.integers(-4, 5, size=n).astype(float) if dups else rng.standard_normal(n) * 100
        if specials and n:
            k = max(1, n // 6)
            pos = rng.integers(0, n, size=k)
            base[pos] = rng.choice(SPECIALS, size=k)
        if dt.kind == "c":
            im = rng.integers(-2, 3, size=n).astype(float) if dups else rng.standard_normal(n)
            if specials and n:
                pos = rng.integers(0, n, size=max(1, n // 8))
                im[pos] = rng.choice(SPECIALS, size=pos.size)
            # Parts set separately: base + 1j*im would mix NaN/inf/-0 across the parts.
            a = np.empty(n, dtype=dt)
            a.real, a.imag = base, im
        else:
            a = base.astype(dt)
    return a.reshape(shape)


# name -> (base shape, view on the base)
LAYOUTS = {
    "contiguous": (None, lambda a: a),
    "strided": ("double_last", lambda a: a[..., ::2]),
    "reversed": (None, lambda a: a[..., ::-1]),
    "transposed": ("swap", lambda a: a.mT),
}


def make(shape, dtype, rng, layout="contiguous", **kw):
    """(numpy array, arraycore array) with equal values and the layout's strides."""
    kind, view = LAYOUTS[layout]
    base_shape = tuple(shape)
    if kind == "double_last" and shape:
        base_shape = shape[:-1] + (2 * shape[-1],)
    if kind == "swap":
        assert len(shape) >= 2
        base_shape = shape[:-2] + (shape[-1], shape[-2])
    base = values(base_shape, dtype, rng, **kw)
    a = view(base)
    x = view(ac.asarray(base))
    assert x.shape == a.shape
    return a, x


ALL = DTYPE_NAMES
REAL = [n for n in DTYPE_NAMES if not n.startswith("complex")]
