"""L3: derivative and batching rules of the fft family (arraycore/_core/ops/fft.py).

Every transform is linear over the reals, so its jvp is the transform of the tangent
(generated from `linear=True`, rules/linear.py) and its vjp is the adjoint transform, written
with namespace functions (so it is itself differentiable and batchable):

- c2c (fft, ifft, fftn, ifftn): the transform in the other direction with the same scale
  (norm "backward" <-> "forward", "ortho" stays), then P^T for the `n`/`s` padding or
  truncation of the input (P^T truncates what was padded and zero-pads what was truncated).
- rfft (x real, y = F_r x: the first n//2+1 bins): with PyTorch's convention the
  cotangent of x is Re(F_r^H g), the inverse real transform of g with the bins that stand
  for a conjugate pair (all but the zero-frequency bin and, for even n, the Nyquist bin)
  halved: irfft(w g) with w = [1, 1/2, ..., 1/2, 1].
- irfft (y = C2R(x), which reads x[0] and x[n/2] twice less often than the other bins): the
  cotangent of x is rfft(g) with those other bins doubled (PyTorch's fft_c2r_backward, JAX's
  _irfft_transpose).  The imaginary parts irfft ignores get zero cotangent (rfft(g) is real
  there).
- hfft / ihfft are irfft / rfft of the conjugate (hfft(x) = irfft(conj x) with the
  normalization direction swapped): their adjoints are ihfft / hfft with the same weights.
- rfftn / irfftn: the n-D versions, weights along the last transformed axis.
Axes repeated in `axes` (each occurrence is one more 1-D transform, NumPy's semantics) get
the adjoint of each 1-D step in reverse order.

Batching: the batch axis is one more untransformed axis; it is moved to the front and the
transformed axes shifted by one, so a vmap of a transform is one native call.
"""

from __future__ import annotations

import functools
import operator

from ..._core import dtypes as _dt
from ..._core.op_table import OPS
from ...fft._args import many_axes, one_axis, swap_norm
from ...native import _native
from .. import batching as _b
from .base import define

xp = None  # set by install()

_ONE_D = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_N_D = ("fftn", "ifftn", "rfftn", "irfftn")


def _param(args, kwargs, i, name, default=None):
    if len(args) > i:
        return args[i]
    return kwargs.get(name, default)


def _params_1d(args, kwargs):
    """(n, axis, norm) of a 1-D transform call."""
    return (_param(args, kwargs, 1, "n"), _param(args, kwargs, 2, "axis", -1),
            _param(args, kwargs, 3, "norm"))


def _params_nd(args, kwargs):
    """(s, axes, norm) of an n-D transform call."""
    return (_param(args, kwargs, 1, "s"), _param(args, kwargs, 2, "axes"),
            _param(args, kwargs, 3, "norm"))


# --- pieces of the adjoints ---------------------------------------------------------------

def _fit_back(g, axes, lengths):
    """P^T of the n/s fitting: g truncated or zero-padded along `axes` to the input's
    `lengths` (differentiable: slicing and concat)."""
    for a, m in zip(axes, lengths):
        k = g.shape[a]
        if m < k:
            g = g[(slice(None),) * a + (slice(0, m),)]
        elif m > k:
            shape = list(g.shape)
            shape[a] = m - k
            g = xp.concat([g, xp.zeros(tuple(shape), dtype=g.dtype)], axis=a)
    return g


@functools.lru_cache(maxsize=256)
def _weights_1d(n, double, code):
    """The Hermitian weights of the n//2+1 bins of a length-n real transform: 1 for the
    zero-frequency bin and (even n) the Nyquist bin, 1/2 (or 2 with `double`) for the
    others, which each stand for a pair of conjugate bins."""
    count = n // 2 + 1
    w = _native.full([count], 2.0 if double else 0.5, code)
    w[0] = 1.0
    if n % 2 == 0:
        w[count - 1] = 1.0
    return w


def _weighted(g, n, axis, double):
    """g times the Hermitian weights of a length-n real transform along `axis`."""
    real = _dt.float32 if g.dtype in (_dt.float32, _dt.complex64) else _dt.float64
    w = _weights_1d(n, double, real.code)
    trailing = g.ndim - 1 - axis
    if trailing:
        w = w._view([w.shape[0]] + [1] * trailing, [1] + [0] * trailing, 0)
    return g * w


def _adjoint_step(g, kind, ax, n, m, norm):
    """The adjoint of one 1-D step of kind c2c_f / c2c_b / r2c / c2r at length n along ax,
    whose input had length m there; norm swapped keeps the scale."""
    f = xp.fft
    sw = swap_norm(norm)
    if kind == "c2c_f":
        r = f.ifft(g, axis=ax, norm=sw)
    elif kind == "c2c_b":
        r = f.fft(g, axis=ax, norm=sw)
    elif kind == "r2c":
        r = f.irfft(_weighted(g, n, ax, False), n=n, axis=ax, norm=sw)
    else:  # c2r
        r = _weighted(f.rfft(g, axis=ax, norm=sw), n, ax, True)
    return _fit_back(r, (ax,), (m,))


def _steps_adjoint(g, x_shape, steps, norm):
    """The adjoint of a sequence of 1-D steps [(kind, axis, n)] applied in order to an input
    of shape x_shape: the steps' adjoints in reverse order."""
    cur = list(x_shape)
    pre = []
    for kind, ax, n in steps:
        pre.append(cur[ax])
        cur[ax] = n // 2 + 1 if kind == "r2c" else n
    for (kind, ax, n), m in reversed(list(zip(steps, pre))):
        g = _adjoint_step(g, kind, ax, n, m, norm)
    return g


# --- vjps ---------------------------------------------------------------------------------

def _vjp_1d(name):
    kind = {"fft": "c2c_f", "ifft": "c2c_b", "rfft": "r2c", "irfft": "c2r"}.get(name)

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        n, axis, norm = _params_1d(args, kwargs)
        ax, m = one_axis(x, None, axis, name)
        if n is None:
            n = 2 * (m - 1) if name in ("irfft", "hfft") else m
        if kind is not None:
            return {0: _adjoint_step(g, kind, ax, n, m, norm)}
        sw = swap_norm(norm)
        if name == "hfft":  # irfft of the conjugate: conj of irfft's adjoint
            r = _weighted(xp.fft.ihfft(g, axis=ax, norm=sw), n, ax, True)
        else:  # ihfft: conj of rfft
            r = xp.fft.hfft(_weighted(g, n, ax, False), n=n, axis=ax, norm=sw)
        return {0: _fit_back(r, (ax,), (m,))}
    return vjp


def _steps_nd(name, s, axes):
    """The 1-D steps of an n-D transform, in NumPy's order."""
    k = len(axes)
    if name in ("fftn", "ifftn"):
        kind = "c2c_f" if name == "fftn" else "c2c_b"
        return [(kind, axes[i], s[i]) for i in reversed(range(k))]
    if name == "rfftn":
        return [("r2c", axes[-1], s[-1])] + \
            [("c2c_f", axes[i], s[i]) for i in reversed(range(k - 1))]
    return [("c2c_b", axes[i], s[i]) for i in range(k - 1)] + [("c2r", axes[-1], s[-1])]


def _vjp_nd(name):
    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        s, axes, norm = _params_nd(args, kwargs)
        s, axes = many_axes(x, s, axes, name, inverse_real=name == "irfftn")
        if not axes:
            return {0: g}
        lengths = [x.shape[a] for a in axes]
        if len(set(axes)) != len(axes):
            return {0: _steps_adjoint(g, x.shape, _steps_nd(name, s, axes), norm)}
        f = xp.fft
        sw = swap_norm(norm)
        if name == "fftn":
            r = f.ifftn(g, axes=axes, norm=sw)
        elif name == "ifftn":
            r = f.fftn(g, axes=axes, norm=sw)
        elif name == "rfftn":
            r = f.irfftn(_weighted(g, s[-1], axes[-1], False), s=s, axes=axes, norm=sw)
        else:
            r = _weighted(f.rfftn(g, axes=axes, norm=sw), s[-1], axes[-1], True)
        return {0: _fit_back(r, axes, lengths)}
    return vjp


# --- batching -----------------------------------------------------------------------------

def _axis_or_none(a, nd):
    """A valid per-example axis normalized to [0, nd), or None (the op raises for it)."""
    if isinstance(a, bool):
        return None
    try:
        a = operator.index(a)
    except TypeError:
        return None
    return a % nd if -nd <= a < nd else None


def _batch_1d(op):
    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        n, axis, norm = _params_1d(args, kwargs)
        ax = _axis_or_none(axis, xb.ndim - 1)
        if ax is None:  # the op's own error, from one example
            return op.public(xb[0], n=n, axis=axis, norm=norm), None
        return op.public(xb, n=n, axis=ax + 1, norm=norm), 0
    return batch


def _batch_nd(op):
    def batch(args, kwargs, dims, size):
        xb = _b.to_front(args[0], dims[0])
        s, axes, norm = _params_nd(args, kwargs)
        nd = xb.ndim - 1
        if axes is None:
            k = nd if s is None else len(s)
            new_axes = tuple(range(nd - k + 1, nd + 1)) if k <= nd else None
        else:
            seq = [_axis_or_none(a, nd) for a in axes] if isinstance(axes, (tuple, list)) \
                else [None]
            new_axes = None if None in seq else tuple(a + 1 for a in seq)
        if new_axes is None:  # the op's own error, from one example
            return op.public(xb[0], s=s, axes=axes, norm=norm), None
        return op.public(xb, s=s, axes=new_axes, norm=norm), 0
    return batch


def install():
    for name in _ONE_D:
        op = OPS[name]
        define(op, vjp=_vjp_1d(name), batch=_batch_1d(op), saves=[])
    for name in _N_D:
        op = OPS[name]
        define(op, vjp=_vjp_nd(name), batch=_batch_nd(op), saves=[])
