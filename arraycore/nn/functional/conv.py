"""L4: convolutions of ac.nn.functional (torch.nn.functional's conv1d/2d/3d and
conv_transpose1d/2d/3d, with PyTorch's signatures).

Each parses PyTorch's arguments (ints or tuples, padding "same"/"valid", unbatched input),
checks them, and calls one op-table primitive (`conv` or `conv_transpose`,
arraycore/_nn_ops.py): a native im2col + gemm kernel whose derivative and batching rules make
the tape, `ac.func.grad`/`jvp`/`vmap` and double backward work (docs/nn_conv.md).
"""

from __future__ import annotations

from ... import _nn_ops as _P
from ._window_args import batched, check_float_input, non_negative, ntuple, positive, unbatch

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d"]


def _check_weight(x, weight, bias, nd, groups, who, transpose=False):
    check_float_input(weight, who, "weight")
    if weight.dtype != x.dtype:
        raise TypeError(f"{who}: input ({x.dtype}) and weight ({weight.dtype}) must have the "
                        "same dtype")
    if weight.ndim != nd + 2:
        raise ValueError(f"{who}: expected a {nd + 2}D weight, got weight of shape "
                         f"{tuple(weight.shape)}")
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 1:
        raise ValueError(f"{who}: groups must be a positive integer, got {groups!r}")
    cin = x.shape[1]
    if transpose:
        if weight.shape[0] != cin:
            raise ValueError(f"{who}: given transposed weight of shape {tuple(weight.shape)}, "
                             f"expected input of shape {tuple(x.shape)} to have "
                             f"{weight.shape[0]} channels, but got {cin} channels instead")
        if cin % groups:
            raise ValueError(f"{who}: in_channels ({cin}) must be divisible by groups "
                             f"({groups})")
        cout = weight.shape[1] * groups
    else:
        if weight.shape[0] % groups:
            raise ValueError(f"{who}: given groups={groups}, expected weight of shape "
                             f"{tuple(weight.shape)} to be divisible by {groups} at dimension 0")
        if weight.shape[1] * groups != cin:
            raise ValueError(f"{who}: given groups={groups}, weight of shape "
                             f"{tuple(weight.shape)}, expected input of shape {tuple(x.shape)} "
                             f"to have {weight.shape[1] * groups} channels, but got {cin} "
                             "channels instead")
        cout = weight.shape[0]
    if bias is not None:
        check_float_input(bias, who, "bias")
        if bias.dtype != x.dtype:
            raise TypeError(f"{who}: input ({x.dtype}) and bias ({bias.dtype}) must have the "
                            "same dtype")
        if tuple(bias.shape) != (cout,):
            raise ValueError(f"{who}: expected bias of shape ({cout},), got "
                             f"{tuple(bias.shape)}")


def _conv(x, weight, bias, stride, padding, dilation, groups, nd, who):
    check_float_input(x, who)
    xb, unb = batched(x, nd, who)
    _check_weight(xb, weight, bias, nd, groups, who)
    stride = ntuple(stride, nd, "stride", who)
    dilation = ntuple(dilation, nd, "dilation", who)
    positive(stride, "stride", who)
    positive(dilation, "dilation", who)
    kernel = tuple(weight.shape[2:])
    if isinstance(padding, str):
        if padding == "valid":
            pairs = ((0, 0),) * nd
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise ValueError(f"{who}: padding='same' is not supported for strided "
                                 "convolutions")
            # The output keeps the input's size; an odd total puts the extra row after the
            # input, as PyTorch does.
            pairs = tuple((d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2)
                          for k, d in zip(kernel, dilation))
        else:
            raise ValueError(f"{who}: invalid padding string {padding!r}, should be one of "
                             "'valid' or 'same'")
    else:
        pads = ntuple(padding, nd, "padding", who)
        non_negative(pads, "padding", who)
        pairs = tuple((p, p) for p in pads)
    for i, k, (lo, hi), d in zip(xb.shape[2:], kernel, pairs, dilation):
        if i + lo + hi < d * (k - 1) + 1:
            raise ValueError(f"{who}: input spatial size {tuple(xb.shape[2:])} (padded) is "
                             f"smaller than the dilated kernel size "
                             f"{tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))}")
    out = _P.conv(xb, weight, bias, stride=stride, padding=pairs, dilation=dilation,
                  groups=groups)
    return unbatch(out, unb)


def _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation, nd,
                    who):
    check_float_input(x, who)
    xb, unb = batched(x, nd, who)
    _check_weight(xb, weight, bias, nd, groups, who, transpose=True)
    stride = ntuple(stride, nd, "stride", who)
    dilation = ntuple(dilation, nd, "dilation", who)
    positive(stride, "stride", who)
    positive(dilation, "dilation", who)
    if isinstance(padding, str):
        raise ValueError(f"{who}: padding must be an int or a tuple of ints (string padding "
                         "is not supported for transposed convolutions)")
    pads = ntuple(padding, nd, "padding", who)
    non_negative(pads, "padding", who)
    out_pad = ntuple(output_padding, nd, "output_padding", who)
    non_negative(out_pad, "output_padding", who)
    for op, s, d in zip(out_pad, stride, dilation):
        if op >= s and op >= d:
            raise ValueError(f"{who}: output padding must be smaller than either stride or "
                             f"dilation, got output_padding={out_pad}, stride={stride}, "
                             f"dilation={dilation}")
    out = _P.conv_transpose(xb, weight, bias, stride=stride, padding=tuple((p, p) for p in pads),
                            output_padding=out_pad, dilation=dilation, groups=groups)
    return unbatch(out, unb)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D convolution (cross-correlation) over (N, C_in, L) or unbatched (C_in, L) input,
    as torch.nn.functional.conv1d; weight (C_out, C_in/groups, k); padding an int, a tuple,
    "valid" or "same".

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.conv1d(ac.ones((1, 2, 5)), ac.ones((3, 2, 3)), padding="same").shape
    (1, 3, 5)
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D convolution over (N, C_in, H, W) or unbatched (C_in, H, W) input, as
    torch.nn.functional.conv2d; weight (C_out, C_in/groups, kH, kW).

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> x = ac.ones((2, 3, 8, 8))
    >>> w = ac.ones((4, 3, 3, 3))
    >>> F.conv2d(x, w, ac.zeros(4), stride=2, padding=1).shape
    (2, 4, 4, 4)
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D convolution over (N, C_in, D, H, W) or unbatched (C_in, D, H, W) input, as
    torch.nn.functional.conv3d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.conv3d(ac.ones((1, 1, 4, 4, 4)), ac.ones((2, 1, 3, 3, 3))).shape
    (1, 2, 2, 2, 2)
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """1-D transposed convolution ("deconvolution"), as torch.nn.functional.conv_transpose1d;
    weight (C_in, C_out/groups, k).  Output length
    (L - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.conv_transpose1d(ac.ones((1, 2, 4)), ac.ones((2, 3, 3)), stride=2).shape
    (1, 3, 9)
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1, "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """2-D transposed convolution, as torch.nn.functional.conv_transpose2d; weight
    (C_in, C_out/groups, kH, kW).

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.conv_transpose2d(ac.ones((1, 4, 4, 4)), ac.ones((4, 2, 3, 3)), stride=2,
    ...                    padding=1, output_padding=1).shape
    (1, 2, 8, 8)
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2, "conv_transpose2d")


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """3-D transposed convolution, as torch.nn.functional.conv_transpose3d.

    >>> import arraycore as ac
    >>> from arraycore.nn import functional as F
    >>> F.conv_transpose3d(ac.ones((1, 2, 2, 2, 2)), ac.ones((2, 1, 2, 2, 2)), stride=2).shape
    (1, 1, 4, 4, 4)
    """
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 3, "conv_transpose3d")
