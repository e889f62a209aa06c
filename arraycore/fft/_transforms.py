"""L2: the discrete Fourier transforms of arraycore.fft.

Validation, dtype promotion, `n`/`s` padding and truncation and the normalization factor
happen here; the transforms themselves are three native calls (the FFT engine,
arraycore/native/src/fft): `fft_c2c(x, axes, forward, scale)` (complex, over several axes
at once), `fft_r2c(x, axis, scale)` (real input, n//2+1 bins) and `fft_c2r(x, axis, n,
scale)` (Hermitian input, real output).  rfftn is r2c on the last axis and c2c on the
others (in place on its own half spectrum, `fft_c2c_inplace`), irfftn c2c on all but the last and c2r on the last; hfft/ihfft are irfft/rfft of
the conjugate with the normalization direction swapped.  Axes repeated in `axes` are
transformed once per occurrence, one axis at a time, as NumPy does.

The ten functions registered in the op table (arraycore/_core/ops/fft.py) are replaced by
their dispatching versions on import (autodiff); the *2 / hfftn / ihfftn composites call
those public versions, so they are differentiable with no rules of their own.
"""

from __future__ import annotations

import math

import arraycore as _ac

from .._core.ops import fft as _ops  # noqa: F401  (fills the op table)
from ..native import _native
from ._args import (_COMPLEX, Array, as_complex, as_real, check_input, check_norm,
                    check_traced_input,
                    empty_result, fit, length, many_axes, one_axis, points, scale, swap_norm,
                    TO_COMPLEX, TO_REAL)

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2", "hfftn", "ihfftn"]


# --- the native calls (empty batches need no transform) -----------------------------------

def _c2c(x, axes, forward, sc):
    if x.size == 0:
        return empty_result(x.shape, x._dtype_code)
    return _native.fft_c2c(x, axes, forward, sc)


def _r2c(x, ax, sc):
    if x.size == 0:
        shape = list(x.shape)
        shape[ax] = shape[ax] // 2 + 1
        return empty_result(shape, TO_COMPLEX[x._dtype_code])
    return _native.fft_r2c(x, ax, sc)


def _c2r(x, ax, n, sc):
    if x.size == 0:
        shape = list(x.shape)
        shape[ax] = n
        return empty_result(shape, TO_REAL[x._dtype_code])
    return _native.fft_c2r(x, ax, n, sc)


def _conj(x):
    return _ac.array_api.conj(x)  # the plain elementwise function (no autodiff dispatch)


# --- one axis -----------------------------------------------------------------------------

def _c2c_1d(x, n, ax, norm, forward, who):
    """A complex x transformed along one (normalized) axis at length n."""
    points(n, who)
    return _c2c(fit(x, (ax,), (n,)), (ax,), forward, scale(norm, n, not forward))


def fft(x, /, n=None, axis=-1, norm="backward"):
    """One-dimensional discrete Fourier transform: y[k] = sum_j x[j] exp(-2 pi i jk / n).

    x: an array (real and integer input is computed as complex of the same precision,
    integers as complex128).  n: the transform length (the input is truncated or
    zero-padded along `axis`; default: its length).  norm: "backward" (no scaling),
    "ortho" (1/sqrt(n)) or "forward" (1/n).  Returns complex64 or complex128.

    >>> ac.fft.fft(ac.asarray([1.0, 0.0, -1.0, 0.0]))
    """
    if n is None and axis == -1 and (norm is None or norm == "backward") and \
            type(x) is Array and x._dtype_code in _COMPLEX:
        # The common call: nothing to validate beyond the rank and length.
        nd = x.ndim
        if nd and x.shape[-1] and x.size:
            return _native.fft_c2c(x, (nd - 1,), True, 1.0)
    check_input(x, "fft")
    check_norm(norm, "fft")
    ax, n = one_axis(x, n, axis, "fft")
    return _c2c_1d(as_complex(x, "fft"), n, ax, norm, True, "fft")


def ifft(x, /, n=None, axis=-1, norm="backward"):
    """One-dimensional inverse discrete Fourier transform:
    y[j] = (1/n) sum_k x[k] exp(2 pi i jk / n) with the default norm="backward"
    ("ortho": 1/sqrt(n), "forward": no scaling).  n, axis: as in `fft`.

    >>> ac.fft.ifft(ac.fft.fft(ac.asarray([1.0, 2.0, 3.0])))
    """
    check_input(x, "ifft")
    check_norm(norm, "ifft")
    ax, n = one_axis(x, n, axis, "ifft")
    return _c2c_1d(as_complex(x, "ifft"), n, ax, norm, False, "ifft")


def rfft(x, /, n=None, axis=-1, norm="backward"):
    """One-dimensional discrete Fourier transform of real input: the n//2 + 1 non-negative
    frequency terms of `fft` (the others are their conjugates).  x must be real-valued
    (integers are computed as float64; complex is a TypeError); float32 gives complex64.

    >>> ac.fft.rfft(ac.asarray([1.0, 2.0, 3.0, 4.0]))
    """
    check_input(x, "rfft")
    check_norm(norm, "rfft")
    ax, n = one_axis(x, n, axis, "rfft")
    points(n, "rfft")
    x = fit(as_real(x, "rfft"), (ax,), (n,))
    return _r2c(x, ax, scale(norm, n, False))


def irfft(x, /, n=None, axis=-1, norm="backward"):
    """Inverse of `rfft`: the real signal of length n (default 2*(m - 1) for m input bins)
    whose non-negative frequency terms are x.  The input is truncated or zero-padded to
    n//2 + 1 bins; the imaginary parts of the zero-frequency bin (and, for even n, of the
    Nyquist bin) are ignored.  complex64 gives float32.

    >>> ac.fft.irfft(ac.fft.rfft(ac.asarray([1.0, 2.0, 3.0, 4.0])))
    """
    check_input(x, "irfft")
    check_norm(norm, "irfft")
    ax, m = one_axis(x, None, axis, "irfft")
    n = 2 * (m - 1) if n is None else length(n, "irfft")
    points(n, "irfft")
    x = fit(as_complex(x, "irfft"), (ax,), (n // 2 + 1,))
    return _c2r(x, ax, n, scale(norm, n, True))


def hfft(x, /, n=None, axis=-1, norm="backward"):
    """Discrete Fourier transform of a Hermitian-symmetric signal given by its first half
    (a real spectrum): irfft of the conjugate, scaled as a forward transform (norm
    "backward": no scaling).  n: the output length (default 2*(m - 1)).

    >>> ac.fft.hfft(ac.asarray([1.0, 2.0j, 3.0]))
    """
    check_input(x, "hfft")
    check_norm(norm, "hfft")
    ax, m = one_axis(x, None, axis, "hfft")
    n = 2 * (m - 1) if n is None else length(n, "hfft")
    points(n, "hfft")
    x = fit(as_complex(x, "hfft"), (ax,), (n // 2 + 1,))
    return _c2r(_conj(x), ax, n, scale(norm, n, False))


def ihfft(x, /, n=None, axis=-1, norm="backward"):
    """Inverse of `hfft`: the conjugate of rfft, scaled as an inverse transform (norm
    "backward": 1/n).  x must be real-valued; returns n//2 + 1 bins.

    >>> ac.fft.ihfft(ac.asarray([1.0, 2.0, 3.0, 4.0]))
    """
    check_input(x, "ihfft")
    check_norm(norm, "ihfft")
    ax, n = one_axis(x, n, axis, "ihfft")
    points(n, "ihfft")
    x = fit(as_real(x, "ihfft"), (ax,), (n,))
    return _conj(_r2c(x, ax, scale(norm, n, True)))


# --- several axes -------------------------------------------------------------------------

def _distinct(axes):
    return len(set(axes)) == len(axes)


def _c2c_nd(x, s, axes, norm, forward, who):
    for v in s:
        points(v, who)
    if not axes:
        return _native.copy(x)
    if not _distinct(axes):
        for ii in reversed(range(len(axes))):  # NumPy: the last axis first
            x = _c2c_1d(x, s[ii], axes[ii], norm, forward, who)
        return x
    x = fit(x, axes, s)
    return _c2c(x, tuple(axes), forward, scale(norm, math.prod(s), not forward))


def fftn(x, /, s=None, axes=None, norm="backward"):
    """N-dimensional discrete Fourier transform over `axes` (default: all axes, or the last
    len(s) when only `s` is given), one native call for all of them.  s: the transform
    length along each axis (truncating or zero-padding; -1: the input's length).  norm
    scales by the product of the lengths.

    >>> ac.fft.fftn(ac.ones((2, 3)))
    """
    check_input(x, "fftn")
    check_norm(norm, "fftn")
    s, axes = many_axes(x, s, axes, "fftn")
    return _c2c_nd(as_complex(x, "fftn"), s, axes, norm, True, "fftn")


def ifftn(x, /, s=None, axes=None, norm="backward"):
    """N-dimensional inverse discrete Fourier transform (the inverse of `fftn` with the
    same s, axes and norm).

    >>> ac.fft.ifftn(ac.fft.fftn(ac.ones((2, 3))))
    """
    check_input(x, "ifftn")
    check_norm(norm, "ifftn")
    s, axes = many_axes(x, s, axes, "ifftn")
    return _c2c_nd(as_complex(x, "ifftn"), s, axes, norm, False, "ifftn")


def rfftn(x, /, s=None, axes=None, norm="backward"):
    """N-dimensional discrete Fourier transform of real input: `rfft` along the last of
    `axes` (n//2 + 1 bins), `fft` along the others.  x must be real-valued.

    >>> ac.fft.rfftn(ac.ones((4, 4)))
    """
    check_input(x, "rfftn")
    check_norm(norm, "rfftn")
    s, axes = many_axes(x, s, axes, "rfftn")
    if not axes:
        raise ValueError("rfftn: needs at least one axis to transform")
    for v in s:
        points(v, "rfftn")
    x = as_real(x, "rfftn")
    if not _distinct(axes):
        y = _r2c(fit(x, (axes[-1],), (s[-1],)), axes[-1], scale(norm, s[-1], False))
        for ii in reversed(range(len(axes) - 1)):
            y = _c2c_1d(y, s[ii], axes[ii], norm, True, "rfftn")
        return y
    x = fit(x, axes, s)
    sc = scale(norm, math.prod(s), False)
    if len(axes) == 1:
        return _r2c(x, axes[0], sc)
    y = _r2c(x, axes[-1], 1.0)
    if y.size:  # the half spectrum is ours alone: the other axes transform it in place
        _native.fft_c2c_inplace(y, tuple(axes[:-1]), True, sc)
    return y


def irfftn(x, /, s=None, axes=None, norm="backward"):
    """Inverse of `rfftn`: `ifft` along all but the last of `axes`, `irfft` along the last.
    s: the output lengths (default: the input's, 2*(m - 1) along the last axis).

    >>> ac.fft.irfftn(ac.fft.rfftn(ac.ones((4, 4))))
    """
    check_input(x, "irfftn")
    check_norm(norm, "irfftn")
    s, axes = many_axes(x, s, axes, "irfftn", inverse_real=True)
    if not axes:
        raise ValueError("irfftn: needs at least one axis to transform")
    for v in s:
        points(v, "irfftn")
    x = as_complex(x, "irfftn")
    last, n = axes[-1], s[-1]
    if not _distinct(axes):
        for ii in range(len(axes) - 1):
            x = _c2c_1d(x, s[ii], axes[ii], norm, False, "irfftn")
        return _c2r(fit(x, (last,), (n // 2 + 1,)), last, n, scale(norm, n, True))
    x = fit(x, axes, s[:-1] + [n // 2 + 1])
    if len(axes) > 1:
        x = _c2c(x, tuple(axes[:-1]), False, 1.0)
    return _c2r(x, last, n, scale(norm, math.prod(s), True))


# --- composites (NumPy's, SciPy's and PyTorch's extras) -----------------------------------

def fft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Two-dimensional discrete Fourier transform: `fftn` over the last two axes."""
    return _ac.fft.fftn(x, s=s, axes=axes, norm=norm)


def ifft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Two-dimensional inverse discrete Fourier transform: `ifftn` over the last two axes."""
    return _ac.fft.ifftn(x, s=s, axes=axes, norm=norm)


def rfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Two-dimensional discrete Fourier transform of real input: `rfftn` over the last two
    axes."""
    return _ac.fft.rfftn(x, s=s, axes=axes, norm=norm)


def irfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """Inverse of `rfft2`: `irfftn` over the last two axes."""
    return _ac.fft.irfftn(x, s=s, axes=axes, norm=norm)


def hfftn(x, /, s=None, axes=None, norm="backward"):
    """N-dimensional discrete Fourier transform of a Hermitian-symmetric signal given by
    its half along the last axis (SciPy's and PyTorch's hfftn): `irfftn` of the conjugate,
    scaled as a forward transform.  Returns a real array; s as in `irfftn`."""
    check_traced_input(x, "hfftn")
    norm = check_norm(norm, "hfftn")
    return _ac.fft.irfftn(_ac.conj(x), s=s, axes=axes, norm=swap_norm(norm))


def ihfftn(x, /, s=None, axes=None, norm="backward"):
    """Inverse of `hfftn` (SciPy's and PyTorch's ihfftn): the conjugate of `rfftn`, scaled
    as an inverse transform.  x must be real-valued."""
    check_traced_input(x, "ihfftn")
    norm = check_norm(norm, "ihfftn")
    return _ac.conj(_ac.fft.rfftn(x, s=s, axes=axes, norm=swap_norm(norm)))


def hfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """`hfftn` over the last two axes."""
    return hfftn(x, s=s, axes=axes, norm=norm)


def ihfft2(x, /, s=None, axes=(-2, -1), norm="backward"):
    """`ihfftn` over the last two axes."""
    return ihfftn(x, s=s, axes=axes, norm=norm)
