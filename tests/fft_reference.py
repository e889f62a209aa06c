"""An extended-precision DFT for accuracy checks (tests/test_fft_accuracy.py).

`ld_fft(x)` transforms along axis 0 in np.clongdouble (x87 80-bit on x86-64: 64-bit
mantissa, ~11 bits more than double), so its own error is ~2000x below a double FFT's and it
serves as the "exact" answer for float64 transforms.  Mixed-radix decimation in time on the
smallest prime factor, vectorized over the other factor; a prime length above 64 goes
through Bluestein's chirp convolution with a power-of-two transform.  Twiddles come from
exp() of exactly reduced angles in long double.
"""

from __future__ import annotations

import functools

import numpy as np

LD = np.longdouble
CLD = np.clongdouble
TWO_PI = LD(2) * LD(np.pi) if False else 2 * np.arccos(LD(-1))


def _smallest_factor(n: int) -> int:
    p = 2
    while p * p <= n:
        if n % p == 0:
            return p
        p += 1
    return n


@functools.lru_cache(maxsize=None)
def _roots(n: int, sign: int) -> np.ndarray:
    """exp(sign*2*pi*i*k/n), k < n, in long double."""
    k = np.arange(n, dtype=np.int64)
    ang = TWO_PI * k.astype(LD) / LD(n)
    return (np.cos(ang) + 1j * sign * np.sin(ang)).astype(CLD)


@functools.lru_cache(maxsize=None)
def _dft_matrix(p: int, sign: int) -> np.ndarray:
    r = _roots(p, sign)
    idx = (np.arange(p)[:, None] * np.arange(p)[None, :]) % p
    return r[idx]


def _apply_matrix(mat, x):
    """mat @ x along axis 0 (numpy matmul has no long double BLAS: do it by sums)."""
    out = np.zeros(x.shape, dtype=CLD)
    for s in range(mat.shape[0]):
        row = mat[s].reshape((-1,) + (1,) * (x.ndim - 1))
        out[s] = (row * x).sum(axis=0)
    return out


def _bluestein(x, sign):
    n = x.shape[0]
    m = 1
    while m < 2 * n - 1:
        m *= 2
    t = np.arange(n, dtype=np.int64)
    k2 = (t * t) % (2 * n)
    ang = np.arccos(LD(-1)) * k2.astype(LD) / LD(n)
    chirp = (np.cos(ang) + 1j * sign * np.sin(ang)).astype(CLD)
    shape = (m,) + x.shape[1:]
    a = np.zeros(shape, dtype=CLD)
    a[:n] = x * chirp.reshape((-1,) + (1,) * (x.ndim - 1))
    b = np.zeros(m, dtype=CLD)
    b[:n] = np.conj(chirp)
    b[m - n + 1:] = np.conj(chirp[1:])[::-1]
    fa = _fft(a, -1)
    fb = _fft(b, -1).reshape((-1,) + (1,) * (x.ndim - 1))
    conv = np.conj(_fft(np.conj(fa * fb), -1)) / LD(m)
    return conv[:n] * chirp.reshape((-1,) + (1,) * (x.ndim - 1))


def _fft(x, sign):
    n = x.shape[0]
    if n == 1:
        return x.astype(CLD, copy=True)
    p = _smallest_factor(n)
    if p == n:
        return _apply_matrix(_dft_matrix(n, sign), x) if n <= 64 else _bluestein(x, sign)
    m = n // p
    rest = x.shape[1:]
    sub = x.reshape((m, p) + rest)                       # sub[j, r] = x[j*p + r]
    y = _fft(sub, sign)                                  # y[k, r]: length-m DFTs
    roots = _roots(n, sign)
    tw = roots[(np.arange(m)[:, None] * np.arange(p)[None, :]) % n]
    y = y * tw.reshape((m, p) + (1,) * len(rest))
    y = np.moveaxis(y, 1, 0)                             # [r, k]
    z = _apply_matrix(_dft_matrix(p, sign), y)           # z[s, k] = X[k + m*s]
    return z.reshape((n,) + rest)


def ld_fft(x, sign: int = -1) -> np.ndarray:
    """DFT along axis 0 with exponent sign `sign`, in long double."""
    return _fft(np.asarray(x).astype(CLD), sign)


def rms_rel_error(got, ref) -> float:
    """||got - ref||_2 / ||ref||_2, evaluated in long double."""
    got = np.asarray(got).astype(CLD)
    ref = np.asarray(ref).astype(CLD)
    den = np.sqrt(np.sum(np.abs(ref) ** 2))
    if den == 0:
        return 0.0
    return float(np.sqrt(np.sum(np.abs(got - ref) ** 2)) / den)
