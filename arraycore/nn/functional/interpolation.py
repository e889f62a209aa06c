"""L4: nn.functional `interpolate` / `upsample` (torch.nn.functional.interpolate) for the
modes nearest, nearest-exact, linear, bilinear and trilinear.

Each spatial axis is resampled on its own (the linear modes are separable: bilinear is linear
along W, then along H), as a gather of source rows (`take`) times weights.  Source positions
and weights are computed in the input's dtype with PyTorch's formulas
(area_pixel_compute_source_index and nearest_idx of its upsampling kernels), so the same
pixels are read and the same weights used.
"""

from __future__ import annotations

import math
import numbers

from ._layer_utils import check_array, ns

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]

_LINEAR = {"linear": 3, "bilinear": 4, "trilinear": 5}
_SUPPORTED = ("nearest", "nearest-exact", "linear", "bilinear", "trilinear")


def _spatial_sizes(who, input, size, scale_factor, recompute_scale_factor):
    dim = input.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError(f"{who}: only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError(f"{who}: either size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise ValueError(f"{who}: recompute_scale_factor is not meaningful with an "
                             "explicit size.")
        sizes = list(size) if isinstance(size, (list, tuple)) else [size] * dim
        if len(sizes) != dim:
            raise ValueError(f"{who}: input and output must have the same number of spatial "
                             f"dimensions, but got input with spatial dimensions of "
                             f"{list(input.shape[2:])} and output size of {size}")
        if not all(isinstance(s, numbers.Integral) for s in sizes):
            raise TypeError(f"{who}: expected size to be an int or a tuple of ints, got "
                            f"{size!r}")
        return [int(s) for s in sizes], [None] * dim
    scales = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else \
        [scale_factor] * dim
    if len(scales) != dim:
        raise ValueError(f"{who}: input and scale_factor must have the same number of spatial "
                         f"dimensions, but got input with spatial dimensions of "
                         f"{list(input.shape[2:])} and scale_factor of shape {scale_factor}")
    sizes = [int(math.floor(float(n) * float(s))) for n, s in zip(input.shape[2:], scales)]
    if recompute_scale_factor:
        return sizes, [None] * dim
    return sizes, [float(s) for s in scales]


def _scale_value(n_in, n_out, scale):
    """PyTorch's compute_scales_value: 1 / scale_factor when given, else in / out."""
    if scale is not None and scale > 0:
        return 1.0 / scale
    return n_in / n_out


def _nearest_index(xp, n_in, n_out, scale, exact, dtype):
    if n_out == n_in and not exact:
        return xp.arange(n_out, dtype=xp.int64)
    if n_out == 2 * n_in and not exact:
        return xp.arange(n_out, dtype=xp.int64) // 2
    # float32 arithmetic for float32 inputs, as the kernel's float `scale`.
    s = _scale_value(n_in, n_out, scale)
    j = xp.arange(n_out, dtype=dtype)
    src = xp.floor((j + 0.5) * s) if exact else xp.floor(j * s)
    return xp.minimum(xp.astype(src, xp.int64), n_in - 1)


def _linear_weights(xp, n_in, n_out, scale, align_corners, dtype):
    if align_corners:
        s = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        src = xp.arange(n_out, dtype=dtype) * s
    else:
        s = _scale_value(n_in, n_out, scale)
        src = (xp.arange(n_out, dtype=dtype) + 0.5) * s - 0.5
        src = xp.where(src < 0, 0.0, src)
    i0 = xp.minimum(xp.astype(xp.floor(src), xp.int64), n_in - 1)
    lam = xp.clip(src - xp.astype(i0, dtype), 0.0, 1.0)
    i1 = xp.where(i0 < n_in - 1, i0 + 1, i0)
    return i0, i1, 1.0 - lam, lam



def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resample the spatial axes of (N, C, *spatial) input to `size` or by `scale_factor`
    (torch.nn.functional.interpolate).  Modes: "nearest" and "nearest-exact" (1-3 spatial
    axes), "linear" (3-D input), "bilinear" (4-D), "trilinear" (5-D), with align_corners.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.interpolate(ac.asarray([[[1.0, 2.0]]]), scale_factor=2, mode="linear")
    Array([[[1.  , 1.25, 1.75, 2.  ]]], dtype=float64)
    """
    xp = ns()
    who = "interpolate"
    check_array(input, who)
    if mode not in _SUPPORTED:
        raise ValueError(f"{who}: mode {mode!r} is not supported (arraycore implements "
                         f"{', '.join(_SUPPORTED)}; 'area' is adaptive_avg_pool)")
    if input.ndim < 3 or input.ndim > 5:
        raise ValueError(f"{who}: expected a 3-D, 4-D or 5-D input (N, C, *spatial), got "
                         f"shape {tuple(input.shape)}")
    if mode in _LINEAR:
        if input.ndim != _LINEAR[mode]:
            raise ValueError(f"{who}: mode {mode!r} expects a {_LINEAR[mode]}-D input, got a "
                             f"{input.ndim}-D input")
        if input.dtype.kind != "f":
            raise TypeError(f"{who}: mode {mode!r} needs a floating-point input, got "
                            f"{input.dtype}")
    elif align_corners is not None:
        raise ValueError(f"{who}: align_corners option can only be set with the "
                         "interpolating modes: linear | bilinear | bicubic | trilinear")
    if antialias:
        raise ValueError(f"{who}: antialias=True is not supported by arraycore")
    sizes, scales = _spatial_sizes(who, input, size, scale_factor, recompute_scale_factor)
    if any(s <= 0 for s in sizes):
        raise ValueError(f"{who}: output sizes must be positive, got {sizes}")
    if any(n == 0 for n in input.shape[2:]):
        raise ValueError(f"{who}: input spatial sizes must be positive, got "
                         f"{tuple(input.shape)}")
    wdtype = input.dtype if input.dtype.kind == "f" else xp.float32
    out = input
    for k in reversed(range(len(sizes))):
        axis = 2 + k
        n_in, n_out = input.shape[axis], sizes[k]
        if mode.startswith("nearest"):
            idx = _nearest_index(xp, n_in, n_out, scales[k], mode == "nearest-exact", wdtype)
            out = xp.take(out, idx, axis=axis)
        else:
            i0, i1, w0, w1 = _linear_weights(xp, n_in, n_out, scales[k], bool(align_corners),
                                             wdtype)
            tail = (1,) * (out.ndim - axis - 1)
            w0 = xp.reshape(w0, (n_out,) + tail)
            w1 = xp.reshape(w1, (n_out,) + tail)
            out = xp.take(out, i0, axis=axis) * w0 + xp.take(out, i1, axis=axis) * w1
    return out


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of interpolate (torch.nn.functional.upsample).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.upsample(ac.ones((1, 1, 2)), scale_factor=2).shape
    (1, 1, 4)
    """
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """interpolate(mode="nearest") (torch.nn.functional.upsample_nearest).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.upsample_nearest(ac.ones((1, 1, 2, 2)), scale_factor=2).shape
    (1, 1, 4, 4)
    """
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """interpolate(mode="bilinear", align_corners=True) (torch.nn.functional.upsample_bilinear).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.upsample_bilinear(ac.ones((1, 1, 2, 2)), scale_factor=2).shape
    (1, 1, 4, 4)
    """
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
