"""L2: the helper functions of arraycore.fft: sample frequencies (`fftfreq`, `rfftfreq`, creation
functions: no derivative) and the zero-frequency shifts (`fftshift`, `ifftshift`: a `roll`,
so they are differentiable and batchable through its rules).
"""

from __future__ import annotations

import arraycore as _ac

from .._core import dtypes as _dt
from .._core.device import as_device
from ..array_api._validation import check_dtype, check_int
from ._args import check_traced_input

__all__ = ["fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _freq_args(n, d, dtype, device, who):
    as_device(device, who)
    n = check_int(n, who, "n")
    if n < 0:
        raise ValueError(f"{who}: n must be non-negative, got {n}")
    if isinstance(d, bool) or not isinstance(d, (int, float)):
        raise TypeError(f"{who}: d must be a real number, got {type(d).__name__}")
    dt = check_dtype(dtype, who)
    if dt is None:
        dt = _dt.default_float
    elif dt.kind not in "fc":
        raise TypeError(f"{who}: dtype must be a floating-point dtype, got {dt}")
    return n, float(d), dt


def _scaled(k, n, d, dt):
    """Integer-valued float64 k times 1/(n d) (NumPy's rounding), as dtype dt."""
    api = _ac.array_api
    out = api.multiply(k, 1.0 / (n * d)) if n else k
    return out if dt is _dt.float64 else api.astype(out, dt)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies of `fft` for a signal of n samples spaced d apart:
    [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (n d).  dtype: a floating dtype (default
    float64).

    >>> ac.fft.fftfreq(4, d=0.5)
    """
    n, d, dt = _freq_args(n, d, dtype, device, "fftfreq")
    api = _ac.array_api
    f64 = _dt.float64
    half = (n - 1) // 2 + 1
    k = api.concat([api.arange(0, half, dtype=f64), api.arange(-(n // 2), 0, dtype=f64)])
    return _scaled(k, n, d, dt)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    """The sample frequencies of `rfft` for a signal of n samples spaced d apart:
    [0, 1, ..., n//2] / (n d).  dtype: a floating dtype (default float64).

    >>> ac.fft.rfftfreq(5)
    """
    n, d, dt = _freq_args(n, d, dtype, device, "rfftfreq")
    k = _ac.array_api.arange(0, n // 2 + 1 if n else 0, dtype=_dt.float64)
    return _scaled(k, n, d, dt)


def _shifts(x, axes, sign, who):
    check_traced_input(x, who)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif not isinstance(axes, (tuple, list)):
        axes = (axes,)
    axes = tuple(check_int(a, who, "axes") for a in axes)
    for a in axes:
        if not -x.ndim <= a < x.ndim:
            from ..array_api._manipulation import AxisError
            raise AxisError(f"{who}: axis {a} is out of bounds for an array of {x.ndim} "
                            f"dimension(s)")
    return tuple(sign * (x.shape[a] // 2) for a in axes), axes


def fftshift(x, /, *, axes=None):
    """Moves the zero-frequency term to the centre: `roll` by n//2 along each of `axes`
    (default: all).  Inverse: `ifftshift`.

    >>> ac.fft.fftshift(ac.fft.fftfreq(5))
    """
    shift, axes = _shifts(x, axes, 1, "fftshift")
    return _ac.roll(x, shift, axis=axes)


def ifftshift(x, /, *, axes=None):
    """Inverse of `fftshift`: `roll` by -(n//2) along each of `axes` (default: all).

    >>> ac.fft.ifftshift(ac.fft.fftshift(ac.arange(5)))
    """
    shift, axes = _shifts(x, axes, -1, "ifftshift")
    return _ac.roll(x, shift, axis=axes)
