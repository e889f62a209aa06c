"""L4: nn.functional `pad` (torch.nn.functional.pad): constant, reflect, replicate and
circular modes, PyTorch's rules for which inputs each mode takes.

Constant padding writes the (possibly cropped) input into a filled array, one copy; the other
modes gather along each padded axis with an index array (`take`, whose vjp scatter-adds, so
the gradient of a reflected or replicated border sums into the source elements).
"""

from __future__ import annotations

from ._layer_utils import check_array, ns

__all__ = ["pad"]

_MODES = ("constant", "reflect", "replicate", "circular")


def _pairs(who, pad, ndim):
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise ValueError(f"{who}: padding length must be divisible by 2, got {len(pad)}")
    if len(pad) // 2 > ndim:
        raise ValueError(f"{who}: padding length should be less than or equal to two times "
                         f"the input dimension but got padding length {len(pad)} and input "
                         f"of dimension {ndim}")
    # pad lists (left, right) pairs from the last axis backwards.
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


def _constant(xp, x, pairs, value):
    new_shape = list(x.shape)
    src = [slice(None)] * x.ndim
    dst = [slice(None)] * x.ndim
    for axis, lo, hi in pairs:
        n = x.shape[axis]
        size = n + lo + hi
        if size < 0:
            raise ValueError(f"pad: the padded size of dimension {axis} would be negative "
                             f"({n} + {lo} + {hi})")
        new_shape[axis] = size
        s0, s1 = max(-lo, 0), n - max(-hi, 0)
        src[axis] = slice(s0, max(s1, s0))
        dst[axis] = slice(max(lo, 0), max(lo, 0) + max(s1 - s0, 0))
    fill = 0 if value is None else value
    if x.dtype.kind in "iu" and isinstance(fill, float):
        fill = int(fill)
    elif x.dtype.kind == "b":
        fill = bool(fill)
    out = xp.full(tuple(new_shape), fill, dtype=x.dtype)
    piece = x[tuple(src)]
    if piece.size:
        out[tuple(dst)] = piece
    return out


def _index(xp, mode, n, lo, hi, axis, who):
    """Source positions of the padded axis (length n + lo + hi) along one input axis."""
    if mode == "reflect":
        if lo >= n or hi >= n:
            raise ValueError(f"{who}: padding size should be less than the corresponding "
                             f"input dimension, but got padding ({lo}, {hi}) at dimension "
                             f"{axis} of size {n}")
        j = xp.arange(-lo, n + hi, dtype=xp.int64)
        period = 2 * (n - 1)
        if period == 0:
            return xp.zeros(j.shape, dtype=xp.int64)
        j = xp.remainder(j, period)
        return xp.where(j >= n, period - j, j)
    if mode == "replicate":
        return xp.clip(xp.arange(-lo, n + hi, dtype=xp.int64), 0, n - 1)
    # circular: crop first, then wrap around what is left (PyTorch's order).
    if lo > n or hi > n:
        raise ValueError(f"{who}: padding value causes wrapping around more than once "
                         f"(padding ({lo}, {hi}) at dimension {axis} of size {n})")
    start, stop = max(-lo, 0), n - max(-hi, 0)
    m = stop - start
    j = xp.arange(-max(lo, 0), m + max(hi, 0), dtype=xp.int64)
    if m <= 0:
        raise ValueError(f"{who}: negative padding removes all of dimension {axis}")
    return xp.remainder(j, m) + start


def pad(input, pad, mode="constant", value=None):
    """Pad (or, with negative sizes, crop) the last len(pad) // 2 axes
    (torch.nn.functional.pad).  pad = (left_last, right_last, left_prev, right_prev, ...).

    mode "constant" (fill `value`, default 0) pads any number of axes; "reflect",
    "replicate" and "circular" pad the last 1, 2 or 3 axes of a 2-3-D, 3-4-D or 4-5-D input.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.pad(ac.asarray([[1.0, 2.0, 3.0]]), (2, 1), mode="reflect")
    Array([[3., 2., 1., 2., 3., 2.]], dtype=float64)
    """
    xp = ns()
    who = "pad"
    check_array(input, who)
    if mode not in _MODES:
        raise ValueError(f"{who}: unrecognised padding mode {mode!r} (expected one of "
                         f"{', '.join(_MODES)})")
    pairs = _pairs(who, pad, input.ndim)
    if mode == "constant":
        return _constant(xp, input, pairs, value)
    if value is not None:
        raise ValueError(f"{who}: padding mode {mode!r} doesn't take in value argument")
    k = len(pairs)
    if k not in (1, 2, 3) or input.ndim not in (k + 1, k + 2):
        raise ValueError(f"{who}: padding size {2 * k} is not supported for {input.ndim}D "
                         "input with non-constant padding (supported: padding size 2 with "
                         "2D or 3D input, 4 with 3D or 4D, 6 with 4D or 5D)")
    if mode in ("reflect", "replicate"):
        first = 1 if input.ndim == k + 2 else 0  # a batch axis may be empty
        if any(s == 0 for s in input.shape[first:]):
            raise ValueError(f"{who}: expected an input with non-zero sizes except possibly "
                             f"the batch dimension, got shape {tuple(input.shape)}")
    out = input
    for axis, lo, hi in pairs:
        idx = _index(xp, mode, input.shape[axis], lo, hi, axis, who)
        out = xp.take(out, idx, axis=axis)
    return out
