"""arraycore.special, family elementary: public functions that are not plain op-table entries
(keywords, reductions, compositions of entries).  Every name in `__all__` is exported by
arraycore.special and overrides the generated function of an entry of the same name.

logsumexp, softmax and log_softmax follow SciPy (scipy/special/_logsumexp.py) in semantics:
the max shift, the weights `b` (a term with b == 0 is left out even where a is inf or NaN),
`return_sign`, the axis conventions (None: every axis; an int or a tuple), and the handling
of infinities and NaN.  logsumexp uses the accurate formulation of Blanchard, Higham and
Higham, "Accurately computing the log-sum-exp and softmax functions" (IMA J. Numer. Anal.
41(4), 2021): with M the maximum and m the weight of the elements equal to it,

    logsumexp = M + log(m) + log1p(s),   s = sum over the others of b exp(a - M) / m,

so a result near 0 keeps its relative accuracy (logsumexp([0, -40]) = 4.2e-18, not 0).
They are compositions of differentiable namespace functions (max, exp, sum, log1p, where),
so jvp, vjp, vmap and higher derivatives come from the functions' own rules; the term
exp(a - M) keeps its dependence on M, whose derivative cancels exactly (d/dM of
M + log sum exp(a - M) is 0), so the gradient is the softmax even at ties of the maximum.

On plain (untraced) contiguous arrays, logsumexp, softmax and log_softmax over one axis (or
trailing axes) run as single native passes (kernels/nn_softmax.cpp: logsumexp, softmax with
SciPy's non-finite rows), which compute the same formulas; traced arguments, weights,
return_sign and other axes take the compositions.

PyTorch spellings are accepted too: the axis is the second positional argument
(torch.special.logsumexp(x, dim), softmax(x, dim)), and `dim=` / `keepdim=` are keyword
aliases of `axis=` / `keepdims=`.
"""

from __future__ import annotations

import math

__all__ = ["logsumexp", "softmax", "log_softmax"]


def _ns():
    import arraycore
    return arraycore


def _native_mod():
    from ..native import _native
    return _native


def _native_layout(x, axes):
    """(array, axis) for the native passes when x is a plain contiguous float array reduced
    over one axis (x itself) or over trailing axes (x seen as (rows, n), axis 1), else
    None."""
    _native = _native_mod()
    if not axes or _native.any_traced(x) or not x._c_contiguous:
        return None
    if len(axes) == 1:
        return x, axes[0]
    if axes != tuple(range(x.ndim - len(axes), x.ndim)):
        return None
    n = math.prod(x.shape[a] for a in axes)
    return (_native.reshape_view(x, [x.size // n, n]), 1) if n > 0 else None


def _as_float_array(xp, x, name):
    if not isinstance(x, xp.Array):
        try:
            x = xp.asarray(x)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{name}: expected an array or array-like of real numbers, "
                            f"got {type(x).__name__}") from e
    if xp.isdtype(x.dtype, "complex floating"):
        raise TypeError(f"{name}: complex input is not supported (real floating-point "
                        f"arrays only)")
    if not xp.isdtype(x.dtype, "real floating"):
        if x.dtype == xp.bool or xp.isdtype(x.dtype, "integral"):
            x = xp.astype(x, xp.float64)
        else:
            raise TypeError(f"{name}: expected real numbers, got dtype {x.dtype}")
    return x


def _axis(name, axis, dim, ndim):
    if dim is not None:
        if axis is not None:
            raise TypeError(f"{name}: pass either axis= or dim= (its alias), not both")
        axis = dim
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    out = []
    for ax in axes:
        if not isinstance(ax, int) or isinstance(ax, bool):
            raise TypeError(f"{name}: axis must be an int or a tuple of ints, got {axis!r}")
        if not -ndim <= ax < ndim:
            raise ValueError(f"{name}: axis {ax} is out of bounds for an array of "
                             f"dimension {ndim}")
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated axis in {axis!r}")
    return tuple(sorted(out))


def _squeeze(xp, x, axes):
    return xp.squeeze(x, axis=axes) if axes else x


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False, *, dim=None,
              keepdim=None):
    """log(sum(b * exp(a))) over `axis` (None: all axes), computed stably (SciPy's
    scipy.special.logsumexp).  With return_sign=True, returns (log|sum|, sign(sum));
    otherwise a negative sum gives NaN.  torch.special.logsumexp(x, dim, keepdim) spellings
    work too."""
    xp = _ns()
    name = "logsumexp"
    if keepdim is not None:
        keepdims = keepdim
    a = _as_float_array(xp, a, name)
    if b is not None:
        b = _as_float_array(xp, b, name)
        dt = xp.result_type(a.dtype, b.dtype)
        a, b = xp.astype(a, dt), xp.astype(b, dt)
        a, b = xp.broadcast_arrays(a, b)
    if a.ndim == 0:
        a = xp.reshape(a, (1,))
        b = None if b is None else xp.reshape(b, (1,))
    axes = _axis(name, axis, dim, a.ndim)
    if a.size == 0 or any(a.shape[ax] == 0 for ax in axes):
        shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape))
        out = xp.full(shape, -math.inf, dtype=a.dtype)
        sgn = xp.zeros(shape, dtype=a.dtype)
    elif b is None and not return_sign and (fast := _native_logsumexp(a, axes)) is not None:
        out, sgn = fast, None
    else:
        out, sgn = _logsumexp(xp, a, b, axes, return_sign)
    if not keepdims:
        out = _squeeze(xp, out, axes)
        sgn = _squeeze(xp, sgn, axes) if return_sign else sgn
    return (out, sgn) if return_sign else out


def _logsumexp(xp, a, b, axes, return_sign):
    inf = math.inf
    if b is not None:
        a = xp.where(b == 0, -inf, a)  # a term with zero weight adds nothing (SciPy)
    # Naive value: the fallback where the accurate one is not finite (infinite inputs).
    e_naive = xp.exp(a) if b is None else b * xp.exp(a)
    total = xp.sum(e_naive, axis=axes, keepdims=True)
    out_inf = xp.log(xp.abs(total) if return_sign else total)
    sgn_inf = xp.sign(total)

    a_max = xp.max(a, axis=axes, keepdims=True)
    at_max = a == a_max
    shift = xp.where(xp.isfinite(a_max), a_max, 0.0)
    e = xp.exp(a - shift) if b is None else b * xp.exp(a - shift)
    zero = xp.zeros_like(e)
    m = xp.sum(xp.where(at_max, e, zero), axis=axes, keepdims=True)
    s = xp.sum(xp.where(at_max, zero, e), axis=axes, keepdims=True)
    safe_m = xp.where(m == 0, 1.0, m)
    s = xp.where(s == 0, s, s / safe_m)
    sgn = xp.sign(s + 1) * xp.sign(m)
    s = xp.where(s < -1, -s - 2, s)
    out = xp.log1p(s) + xp.log(xp.abs(m)) + shift
    finite = xp.isfinite(out)
    out = xp.where(finite, out, out_inf)
    sgn = xp.where(finite, sgn, sgn_inf)
    if not return_sign:
        out = xp.where(sgn < 0, math.nan, out)
    return out, sgn


def softmax(x, axis=None, *, dim=None):
    """exp(x) / sum(exp(x)) over `axis` (None: all axes), shifted by the maximum (SciPy's
    scipy.special.softmax; torch.special.softmax(x, dim) spelling accepted)."""
    xp = _ns()
    x = _as_float_array(xp, x, "softmax")
    axes = _axis("softmax", axis, dim, x.ndim)
    if x.size == 0:
        return x
    fast = _native_softmax(x, axes, log=False)
    if fast is not None:
        return fast
    e = xp.exp(x - xp.max(x, axis=axes, keepdims=True))
    return e / xp.sum(e, axis=axes, keepdims=True)


def _native_logsumexp(a, axes):
    """logsumexp of a plain contiguous float array natively, keepdims-shaped, else None."""
    layout = _native_layout(a, axes)
    if layout is None:
        return None
    shape = [1 if i in axes else d for i, d in enumerate(a.shape)]
    return _native_mod().logsumexp(*layout, shape)


def _native_softmax(x, axes, log):
    """softmax / log_softmax of a plain contiguous float array natively, else None."""
    layout = _native_layout(x, axes)
    if layout is None:
        return None
    y = _native_mod().nn_softmax(*layout, log, False, not log)
    return y if y.shape == x.shape else _native_mod().reshape_view(y, list(x.shape))


def log_softmax(x, axis=None, *, dim=None):
    """log(softmax(x)) computed as (x - M) - log(sum(exp(x - M))), M the finite maximum
    (SciPy's scipy.special.log_softmax; torch.special.log_softmax(x, dim) spelling)."""
    xp = _ns()
    x = _as_float_array(xp, x, "log_softmax")
    axes = _axis("log_softmax", axis, dim, x.ndim)
    if x.size == 0:
        return x
    fast = _native_softmax(x, axes, log=True)
    if fast is not None:
        return fast
    x_max = xp.max(x, axis=axes, keepdims=True)
    x_max = xp.where(xp.isfinite(x_max), x_max, 0.0)
    t = x - x_max
    return t - xp.log(xp.sum(xp.exp(t), axis=axes, keepdims=True))
