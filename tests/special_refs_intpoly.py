"""NumPy-in, NumPy-out references for arraycore.special's PyTorch polynomials (the op-table
entries of family integrals_polynomials name them as `ref`): torch.special on CPU tensors of
the operands' dtype.

One correction: for x = NaN and n >= 2 PyTorch's CPU loop returns an uninitialized variable
(its recurrence stops at once on a NaN and returns `r` unassigned: 0.0, 1.0 or a denormal
depending on the stack); the reference there is NaN, what arraycore returns.
"""

from __future__ import annotations

import numpy as np

_NAMES = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
          "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
          "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
          "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
          "laguerre_polynomial_l", "legendre_polynomial_p")


def _torch_degree(n):
    """PyTorch's static_cast<int64_t>(n): truncation; NaN/inf/out of range -> INT64_MIN."""
    n = np.asarray(n, dtype=np.float64)
    ok = np.abs(n) < 9.2233720368547758e18
    with np.errstate(invalid="ignore"):
        return np.where(ok, np.trunc(np.where(ok, n, 0.0)), -9.2233720368547758e18)


def _make(name):
    def ref(x, n):
        import torch
        x = np.asarray(x)
        n = np.asarray(n)
        dt = np.result_type(x, n)
        if dt.kind != "f":
            dt = np.dtype(np.float64)
        x, n = np.broadcast_arrays(x.astype(dt), n.astype(dt))
        f = getattr(torch.special, name)
        out = f(torch.from_numpy(np.ascontiguousarray(x)),
                torch.from_numpy(np.ascontiguousarray(n))).numpy().copy()
        undefined = np.isnan(x) & (_torch_degree(n) >= 2)
        out[undefined] = np.nan
        return out
    ref.__name__ = name
    ref.__qualname__ = name
    ref.__doc__ = f"torch.special.{name} on NumPy arrays (see the module docstring)"
    return ref


for _n in _NAMES:
    globals()[_n] = _make(_n)

__all__ = list(_NAMES)
