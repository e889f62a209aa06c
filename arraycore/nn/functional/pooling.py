"""L4: pooling and sliding-block functions of ac.nn.functional (torch.nn.functional's
max_pool1d/2d/3d, avg_pool1d/2d/3d, adaptive_avg_pool1d/2d, adaptive_max_pool1d/2d, unfold,
fold, with PyTorch's signatures).

Each parses PyTorch's arguments and calls one op-table primitive (arraycore/_nn_ops.py): a
native kernel over the (image, channel) planes, with derivative and batching rules
(arraycore/autodiff/rules/nn_conv.py; max pooling's gradient scatters through the indices).
"""

from __future__ import annotations

from ... import _nn_ops as _P
from ._window_args import batched, check_float_input, non_negative, ntuple, positive, unbatch

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "unfold", "fold"]


def _window(kernel_size, stride, padding, dilation, nd, who):
    k = ntuple(kernel_size, nd, "kernel_size", who)
    positive(k, "kernel_size", who)
    if stride is None or (not isinstance(stride, int) and len(tuple(stride)) == 0):
        s = k
    else:
        s = ntuple(stride, nd, "stride", who)
    positive(s, "stride", who)
    p = ntuple(padding, nd, "padding", who)
    non_negative(p, "padding", who)
    d = ntuple(dilation, nd, "dilation", who)
    positive(d, "dilation", who)
    return k, s, p, d


def _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nd, who):
    check_float_input(x, who)
    xb, unb = batched(x, nd, who)
    k, s, p, d = _window(kernel_size, stride, padding, dilation, nd, who)
    for kk, pp, dd in zip(k, p, d):
        if pp > ((kk - 1) * dd + 1) // 2:
            raise ValueError(f"{who}: pad should be at most half of effective kernel size, but "
                             f"got pad={pp}, kernel_size={kk} and dilation={dd}")
    _P.pool_output_size(tuple(xb.shape[2:]), k, s, p, d, bool(ceil_mode), who)  # checks
    out, idx = _P.max_pool(xb, k, s, p, d, bool(ceil_mode))
    out, idx = unbatch((out, idx), unb)
    return (out, idx) if return_indices else out


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """1-D max pooling over (N, C, L) or (C, L), as torch.nn.functional.max_pool1d;
    `return_indices` also returns the positions of the maxima (int64).

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.max_pool1d(ac.asarray([[[1.0, 3.0, 2.0, 5.0]]]), 2)
    Array([[[3., 5.]]], dtype=float64)
    """
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     1, "max_pool1d")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """2-D max pooling over (N, C, H, W) or (C, H, W), as torch.nn.functional.max_pool2d;
    indices are flat positions h * W + w within each input plane.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> x = ac.reshape(ac.arange(16.0), (1, 1, 4, 4))
    >>> F.max_pool2d(x, 2, return_indices=True)[1]
    Array([[[[ 5,  7],
             [13, 15]]]], dtype=int64)
    """
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     2, "max_pool2d")


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """3-D max pooling over (N, C, D, H, W) or (C, D, H, W), as torch.nn.functional.max_pool3d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.max_pool3d(ac.ones((1, 1, 4, 4, 4)), 2).shape
    (1, 1, 2, 2, 2)
    """
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                     3, "max_pool3d")


def _avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override,
              nd, who):
    check_float_input(x, who)
    xb, unb = batched(x, nd, who)
    k, s, p, _ = _window(kernel_size, stride, padding, 1, nd, who)
    for kk, pp in zip(k, p):
        if pp > kk // 2:
            raise ValueError(f"{who}: pad should be smaller than or equal to half of kernel "
                             f"size, but got pad={pp}, kernel_size={kk}")
    if divisor_override is not None:
        if isinstance(divisor_override, bool) or not isinstance(divisor_override, int) or \
                divisor_override == 0:
            raise ValueError(f"{who}: divisor_override must be a non-zero integer, got "
                             f"{divisor_override!r}")
    _P.pool_output_size(tuple(xb.shape[2:]), k, s, p, (1,) * nd, bool(ceil_mode), who)
    out = _P.avg_pool(xb, k, s, p, bool(ceil_mode), bool(count_include_pad),
                      divisor_override)
    return unbatch(out, unb)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """1-D average pooling over (N, C, L) or (C, L), as torch.nn.functional.avg_pool1d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.avg_pool1d(ac.asarray([[[1.0, 3.0, 2.0, 6.0]]]), 2)
    Array([[[2., 4.]]], dtype=float64)
    """
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None,
                     1, "avg_pool1d")


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """2-D average pooling over (N, C, H, W) or (C, H, W), as torch.nn.functional.avg_pool2d
    (count_include_pad, divisor_override).

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.avg_pool2d(ac.ones((1, 1, 4, 4)), 2, padding=1, count_include_pad=False).shape
    (1, 1, 3, 3)
    """
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2, "avg_pool2d")


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """3-D average pooling over (N, C, D, H, W) or (C, D, H, W), as
    torch.nn.functional.avg_pool3d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.avg_pool3d(ac.ones((1, 1, 4, 4, 4)), 2).shape
    (1, 1, 2, 2, 2)
    """
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 3, "avg_pool3d")


def _adaptive_size(output_size, x, nd, who):
    if isinstance(output_size, int) or output_size is None:
        output_size = (output_size,) * nd
    sizes = tuple(output_size)
    if len(sizes) == 1 and nd > 1:
        sizes = sizes * nd
    if len(sizes) != nd:
        raise ValueError(f"{who}: output_size must be an int or a tuple of {nd} ints, got "
                         f"{output_size!r}")
    out = tuple(int(x.shape[2 + i]) if v is None else int(v) for i, v in enumerate(sizes))
    non_negative(out, "output_size", who)
    for i, v in enumerate(out):
        if x.shape[2 + i] == 0 and v > 0:
            raise ValueError(f"{who}: expected a non-empty input, got input of shape "
                             f"{tuple(x.shape)}")
    return out


def _adaptive_avg(x, output_size, nd, who):
    check_float_input(x, who)
    xb, unb = batched(x, nd, who)
    return unbatch(_P.adaptive_avg_pool(xb, _adaptive_size(output_size, xb, nd, who)), unb)


def _adaptive_max(x, output_size, return_indices, nd, who):
    check_float_input(x, who)
    xb, unb = batched(x, nd, who)
    out, idx = unbatch(_P.adaptive_max_pool(xb, _adaptive_size(output_size, xb, nd, who)), unb)
    return (out, idx) if return_indices else out


def adaptive_avg_pool1d(input, output_size):
    """1-D adaptive average pooling to `output_size`, as
    torch.nn.functional.adaptive_avg_pool1d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.adaptive_avg_pool1d(ac.asarray([[[1.0, 2.0, 3.0, 4.0, 5.0]]]), 2)
    Array([[[2. , 4. ]]], dtype=float64)
    """
    return _adaptive_avg(input, output_size, 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(input, output_size):
    """2-D adaptive average pooling to `output_size` (an int, a pair, None entries keep the
    input's size), as torch.nn.functional.adaptive_avg_pool2d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.adaptive_avg_pool2d(ac.ones((2, 3, 7, 5)), (3, None)).shape
    (2, 3, 3, 5)
    """
    return _adaptive_avg(input, output_size, 2, "adaptive_avg_pool2d")


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """1-D adaptive max pooling, as torch.nn.functional.adaptive_max_pool1d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.adaptive_max_pool1d(ac.asarray([[[1.0, 5.0, 3.0, 4.0, 2.0]]]), 2)
    Array([[[5., 4.]]], dtype=float64)
    """
    return _adaptive_max(input, output_size, return_indices, 1, "adaptive_max_pool1d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """2-D adaptive max pooling, as torch.nn.functional.adaptive_max_pool2d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.adaptive_max_pool2d(ac.ones((1, 2, 5, 5)), 1).shape
    (1, 2, 1, 1)
    """
    return _adaptive_max(input, output_size, return_indices, 2, "adaptive_max_pool2d")


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of (N, C, H, W) or (C, H, W) input as columns (im2col):
    (N, C * kH * kW, L), as torch.nn.functional.unfold.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.unfold(ac.ones((2, 3, 5, 5)), 3, padding=1).shape
    (2, 27, 25)
    """
    who = "unfold"
    check_float_input(input, who)
    if input.ndim not in (3, 4):
        raise ValueError(f"{who}: expected 3D (unbatched) or 4D (batched) input, got input of "
                         f"shape {tuple(input.shape)}")
    xb, unb = batched(input, 2, who)
    k, s, p, d = _window(kernel_size, stride, padding, dilation, 2, who)
    for i, kk, pp, dd in zip(xb.shape[2:], k, p, d):
        if i + 2 * pp < dd * (kk - 1) + 1:
            raise ValueError(f"{who}: input of shape {tuple(input.shape)} with padding {p} is "
                             f"smaller than the dilated kernel")
    return unbatch(_P.im2col(xb, k, d, p, s), unb)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums columns (N, C * kH * kW, L) or (C * kH * kW, L) back into (N, C, H, W) images
    (col2im; overlapping entries add up), as torch.nn.functional.fold.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.fold(ac.ones((1, 4, 9)), (4, 4), 2)[0, 0]
    Array([[1., 2., 2., 1.],
           [2., 4., 4., 2.],
           [2., 4., 4., 2.],
           [1., 2., 2., 1.]], dtype=float64)
    """
    who = "fold"
    check_float_input(input, who)
    if input.ndim not in (2, 3):
        raise ValueError(f"{who}: expected 2D (unbatched) or 3D (batched) input, got input of "
                         f"shape {tuple(input.shape)}")
    unb = input.ndim == 2
    xb = _P_expand(input) if unb else input
    out_size = ntuple(output_size, 2, "output_size", who)
    positive(out_size, "output_size", who)
    k, s, p, d = _window(kernel_size, stride, padding, dilation, 2, who)
    return unbatch(_P.col2im(xb, out_size, k, d, p, s), unb)


def _P_expand(x):
    import arraycore
    return arraycore.expand_dims(x, axis=0)
