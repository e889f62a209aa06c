"""SciPy references (NumPy arrays in, NumPy arrays out) for the bessel-family functions that
SciPy spells differently: the `ref` of their op-table entries (tests/test_special.py)."""

from __future__ import annotations

import numpy as np
import scipy.special as sc


def airy_ai(x):
    """torch.special.airy_ai: Ai(x) of scipy.special.airy."""
    return sc.airy(np.asarray(x))[0]


def spherical_bessel_j0(x):
    """torch.special.spherical_bessel_j0: sin(x)/x = scipy.special.spherical_jn(0, x)."""
    x = np.asarray(x)
    return sc.spherical_jn(0, x).astype(x.dtype)


def airy_ai_prime(x):
    """Ai'(x): scipy.special.airy(x)[1]."""
    return sc.airy(np.asarray(x))[1]


def yn(n, x):
    """scipy.special.yn, with the orders where SciPy's recurrence runs up to 2^31 steps (tens
    of seconds per element) reduced first: |n| >= 2^31 is 2^31 to SciPy (C int conversion),
    and when 2|n|/x < 2^-60 the terms (2k/x) Y_k vanish below the rounding of every step, so
    SciPy's floating-point recurrence is the period-4 sequence Y0, Y1, -Y0, -Y1: yn(n, x) is
    SciPy's yn(sign(n) (|n| mod 4), x) exactly."""
    import warnings
    n, x = np.broadcast_arrays(np.asarray(n), np.asarray(x))
    dt = np.result_type(n, x)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = np.trunc(n.astype(np.float64))
        xd = x.astype(np.float64)
        m = np.where(np.abs(m) >= 2.0 ** 31, 2.0 ** 31, m)
        periodic = (2 * np.abs(m) / xd < 2.0 ** -60) & (xd > 0)
        m = np.where(periodic, np.sign(m) * np.fmod(np.abs(m), 4), m)
        return sc.yn(m.astype(dt), x)
