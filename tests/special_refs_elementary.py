"""References of the table-driven tests (tests/test_special.py) for the elementary family
where SciPy's own value is not the function's: see the `notes` of the entries in
arraycore/_core/ops/special_elementary.py."""

from __future__ import annotations

import mpmath
import numpy as np
import scipy.special as sc


def sinc(x):
    """sin(pi x)/(pi x) with exact zeros at nonzero integers (mpmath.sinpi reduces exactly;
    NumPy's sinc multiplies by pi first: sinc(1.0) = 3.9e-17 there)."""
    x = np.asarray(x)
    out = np.empty(x.shape, dtype=np.float64)
    for i, v in np.ndenumerate(x.astype(np.float64)):
        if v == 0:
            out[i] = 1.0
        elif not np.isfinite(v):
            out[i] = np.nan
        else:
            s = mpmath.sinpi(mpmath.mpf(v))
            out[i] = 0.0 if s == 0 else float(s / (mpmath.pi * mpmath.mpf(v)))
    return out.astype(x.dtype) if x.dtype.kind == "f" else out


def cotdg(x):
    """SciPy's cotdg, except 1/tandg(x) where tandg is finite and nonzero (SciPy computes
    cotdg as tan(90 - x), and 90 - x rounds to 90 for |x mod 180| < 1e-14)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        t = sc.tandg(x)
        return np.where(np.isfinite(t) & (t != 0), 1.0 / t, sc.cotdg(x))


def _mp_where_positive(x, y, exact, scipy_fn):
    """SciPy's value, replaced by mpmath's exact one (40 digits) where x, y > 0 are finite:
    SciPy computes x log(x/y) directly, which loses digits as x/y -> 1 (a relative error of
    1e-11 at x/y = 1.0007); the arraycore kernels do not."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    dtype = np.result_type(x.dtype, y.dtype)
    with np.errstate(all="ignore"):
        out = np.asarray(scipy_fn(x.astype(np.float64), y.astype(np.float64)), np.float64)
    with mpmath.workdps(40):
        for i in np.ndindex(out.shape):
            a, b = float(x[i]), float(y[i])
            if 0 < a < np.inf and 0 < b < np.inf:
                out[i] = float(exact(mpmath.mpf(a), mpmath.mpf(b)))
    return out.astype(dtype) if dtype.kind == "f" else out


def rel_entr(x, y):
    return _mp_where_positive(x, y, lambda a, b: a * mpmath.log(a / b), sc.rel_entr)


def kl_div(x, y):
    return _mp_where_positive(x, y, lambda a, b: a * mpmath.log(a / b) - a + b, sc.kl_div)
