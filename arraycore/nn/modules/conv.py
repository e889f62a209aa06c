"""L4: convolution layers (torch.nn's Conv1d/2d/3d, ConvTranspose1d/2d/3d): parameters with
PyTorch's shapes and default initialisation, forward through ac.nn.functional's convolutions
(native im2col + gemm ops, docs/nn_conv.md).

Padding modes other than "zeros" pad the input first ("reflect", "replicate", "circular",
as PyTorch does with F.pad), by gathering along each spatial axis with `take` (so the padding
is differentiable and batchable like any namespace op), then convolve without padding.
"""

from __future__ import annotations

import math

from ..functional import conv as _F
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d"]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ac():
    import arraycore
    return arraycore


def _ntuple(v, n):
    if isinstance(v, (tuple, list)):
        t = tuple(int(x) for x in v)
        return t * n if len(t) == 1 and n > 1 else t
    return (int(v),) * n


def _pad_indices(n, lo, hi, mode, who):
    """Source positions of a length-n axis padded by (lo, hi) in `mode`."""
    idx = list(range(-lo, n + hi))
    if mode == "reflect":
        if lo >= n or hi >= n:
            raise ValueError(f"{who}: reflect padding ({lo}, {hi}) must be smaller than the "
                             f"input size {n}")
        period = 2 * (n - 1) if n > 1 else 1
        out = []
        for i in idx:
            j = i % period if period else 0
            out.append(j if j < n else period - j)
        return out
    if mode == "replicate":
        return [min(max(i, 0), n - 1) for i in idx]
    if mode == "circular":
        if lo > n or hi > n:
            raise ValueError(f"{who}: circular padding ({lo}, {hi}) must not exceed the input "
                             f"size {n}")
        return [i % n for i in idx]
    raise ValueError(f"{who}: unknown padding mode {mode!r}")


def pad_spatial(x, pads, mode, who):
    """x (N, C, *spatial) or (C, *spatial) padded by pads = ((lo, hi) per spatial dim) in a
    non-zero mode, by gathers along each axis."""
    ac = _ac()
    nd = len(pads)
    for i, (lo, hi) in enumerate(pads):
        if lo == 0 and hi == 0:
            continue
        axis = x.ndim - nd + i
        idx = _pad_indices(x.shape[axis], lo, hi, mode, who)
        x = ac.take(x, ac.asarray(idx, dtype=ac.int64), axis=axis)
    return x


class _ConvNd(Module):
    _nd = 0
    _transposed = False
    _name = ""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 dilation=1, groups=1, bias=True, padding_mode="zeros", output_padding=0,
                 device=None, dtype=None):
        super().__init__()
        who = self._name
        nd = self._nd
        if not isinstance(groups, int) or groups <= 0:
            raise ValueError(f"{who}: groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError(f"{who}: in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError(f"{who}: out_channels must be divisible by groups")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"{who}: padding_mode must be one of {_PADDING_MODES}, got "
                             f"{padding_mode!r}")
        kernel_size = _ntuple(kernel_size, nd)
        stride = _ntuple(stride, nd)
        dilation = _ntuple(dilation, nd)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"{who}: invalid padding string {padding!r}, should be one "
                                 "of 'valid' or 'same'")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError(f"{who}: padding='same' is not supported for strided "
                                 "convolutions")
        else:
            padding = _ntuple(padding, nd)
        if self._transposed and padding_mode != "zeros":
            raise ValueError(f'{who}: only "zeros" padding mode is supported')
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = self._transposed
        self.output_padding = _ntuple(output_padding, nd)
        self.groups = groups
        self.padding_mode = padding_mode
        # (lo, hi) per spatial dimension for the non-zero padding modes.
        if padding == "valid":
            self._pad_pairs = ((0, 0),) * nd
        elif padding == "same":
            self._pad_pairs = tuple((d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2)
                                    for k, d in zip(kernel_size, dilation))
        else:
            self._pad_pairs = tuple((p, p) for p in padding)
        ac = _ac()
        dtype = ac.float32 if dtype is None else dtype
        if self._transposed:
            shape = (in_channels, out_channels // groups) + kernel_size
        else:
            shape = (out_channels, in_channels // groups) + kernel_size
        self.weight = Parameter(ac.empty(shape, dtype=dtype))
        if bias:
            self.bias = Parameter(ac.empty((out_channels,), dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's default: kaiming_uniform_(weight, a=sqrt(5)), bias ~ U(-1/sqrt(fan_in),
        1/sqrt(fan_in))."""
        from .. import init
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, " \
            f"stride={self.stride}"
        if self.padding != (0,) * self._nd:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * self._nd:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self._nd:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class _Conv(_ConvNd):
    _fn = None

    def _conv_forward(self, input, weight, bias):
        fn = type(self)._fn
        if self.padding_mode != "zeros":
            x = pad_spatial(input, self._pad_pairs, self.padding_mode, self._name)
            return fn(x, weight, bias, self.stride, 0, self.dilation, self.groups)
        return fn(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1-D convolution layer, as torch.nn.Conv1d: input (N, C_in, L) or (C_in, L); weight
    (out_channels, in_channels/groups, k), PyTorch's initialisation; padding an int, a tuple,
    "same" or "valid"; padding_mode "zeros", "reflect", "replicate" or "circular".

    >>> import arraycore as ac
    >>> m = ac.nn.Conv1d(2, 4, 3, padding="same", padding_mode="reflect")
    >>> m(ac.ones((5, 2, 10), dtype=ac.float32)).shape
    (5, 4, 10)
    """
    _nd, _name, _fn = 1, "Conv1d", staticmethod(_F.conv1d)


class Conv2d(_Conv):
    """2-D convolution layer, as torch.nn.Conv2d.

    >>> import arraycore as ac
    >>> m = ac.nn.Conv2d(3, 8, 3, stride=2, padding=1)
    >>> m
    Conv2d(3, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))
    >>> m(ac.ones((4, 3, 16, 16), dtype=ac.float32)).shape
    (4, 8, 8, 8)
    """
    _nd, _name, _fn = 2, "Conv2d", staticmethod(_F.conv2d)


class Conv3d(_Conv):
    """3-D convolution layer, as torch.nn.Conv3d.

    >>> import arraycore as ac
    >>> ac.nn.Conv3d(1, 2, 3)(ac.ones((1, 1, 5, 5, 5), dtype=ac.float32)).shape
    (1, 2, 3, 3, 3)
    """
    _nd, _name, _fn = 3, "Conv3d", staticmethod(_F.conv3d)


class _ConvTranspose(_ConvNd):
    _transposed = True
    _fn = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None):
        if isinstance(padding, str):
            raise ValueError(f"{self._name}: padding must be an int or a tuple of ints")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, output_padding, device, dtype)

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        nd = self._nd
        size = tuple(int(v) for v in output_size)
        if len(size) == nd + 2:
            size = size[2:]
        elif len(size) == nd + 1 and input.ndim == nd + 1:
            size = size[1:]
        if len(size) != nd:
            raise ValueError(f"{self._name}: output_size must have {nd} or {nd + 2} elements, "
                             f"got {len(output_size)}")
        out = []
        for i in range(nd):
            n_in = input.shape[input.ndim - nd + i]
            smallest = (n_in - 1) * self.stride[i] - 2 * self.padding[i] + \
                self.dilation[i] * (self.kernel_size[i] - 1) + 1
            largest = smallest + self.stride[i] - 1
            if not smallest <= size[i] <= largest:
                raise ValueError(f"{self._name}: requested an output size of {size}, but valid "
                                 f"sizes range from {smallest} to {largest} (for an input of "
                                 f"{tuple(input.shape)[-nd:]})")
            out.append(size[i] - smallest)
        return tuple(out)

    def forward(self, input, output_size=None):
        out_pad = self._output_padding(input, output_size)
        return type(self)._fn(input, self.weight, self.bias, self.stride, self.padding, out_pad,
                              self.groups, self.dilation)


class ConvTranspose1d(_ConvTranspose):
    """1-D transposed convolution layer, as torch.nn.ConvTranspose1d: weight
    (in_channels, out_channels/groups, k); `forward(input, output_size=None)`.

    >>> import arraycore as ac
    >>> ac.nn.ConvTranspose1d(4, 2, 3, stride=2)(ac.ones((1, 4, 5), dtype=ac.float32)).shape
    (1, 2, 11)
    """
    _nd, _name, _fn = 1, "ConvTranspose1d", staticmethod(_F.conv_transpose1d)


class ConvTranspose2d(_ConvTranspose):
    """2-D transposed convolution layer, as torch.nn.ConvTranspose2d.

    >>> import arraycore as ac
    >>> m = ac.nn.ConvTranspose2d(8, 3, 3, stride=2, padding=1)
    >>> x = ac.ones((1, 8, 4, 4), dtype=ac.float32)
    >>> m(x, output_size=(8, 8)).shape
    (1, 3, 8, 8)
    """
    _nd, _name, _fn = 2, "ConvTranspose2d", staticmethod(_F.conv_transpose2d)


class ConvTranspose3d(_ConvTranspose):
    """3-D transposed convolution layer, as torch.nn.ConvTranspose3d.

    >>> import arraycore as ac
    >>> ac.nn.ConvTranspose3d(2, 1, 2, stride=2)(ac.ones((1, 2, 2, 2, 2), dtype=ac.float32)).shape
    (1, 1, 4, 4, 4)
    """
    _nd, _name, _fn = 3, "ConvTranspose3d", staticmethod(_F.conv_transpose3d)
