"""L4: pooling and sliding-block layers (torch.nn's MaxPool1d/2d/3d, AvgPool1d/2d/3d,
AdaptiveAvgPool1d/2d, AdaptiveMaxPool1d/2d, Unfold, Fold): parameter-free modules over the
ac.nn.functional forms (native pooling ops, docs/nn_conv.md)."""

from __future__ import annotations

from ..functional import pooling as _F
from .module import Module

__all__ = ["MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
           "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "Unfold", "Fold"]


class _MaxPoolNd(Module):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """1-D max pooling, as torch.nn.MaxPool1d.

    >>> import arraycore as ac
    >>> ac.nn.MaxPool1d(2)(ac.ones((1, 3, 8))).shape
    (1, 3, 4)
    """
    _fn = staticmethod(_F.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    """2-D max pooling, as torch.nn.MaxPool2d.

    >>> import arraycore as ac
    >>> ac.nn.MaxPool2d(3, stride=2, padding=1)
    MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)
    >>> ac.nn.MaxPool2d(2)(ac.ones((1, 3, 8, 8))).shape
    (1, 3, 4, 4)
    """
    _fn = staticmethod(_F.max_pool2d)


class MaxPool3d(_MaxPoolNd):
    """3-D max pooling, as torch.nn.MaxPool3d.

    >>> import arraycore as ac
    >>> ac.nn.MaxPool3d(2)(ac.ones((1, 1, 4, 4, 4))).shape
    (1, 1, 2, 2, 2)
    """
    _fn = staticmethod(_F.max_pool3d)


class _AvgPoolNd(Module):
    _fn = None
    _has_divisor = True

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        if self._has_divisor:
            self.divisor_override = divisor_override

    def forward(self, input):
        kw = {"divisor_override": self.divisor_override} if self._has_divisor else {}
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding,
                              self.ceil_mode, self.count_include_pad, **kw)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """1-D average pooling, as torch.nn.AvgPool1d.

    >>> import arraycore as ac
    >>> ac.nn.AvgPool1d(2)(ac.ones((1, 3, 8))).shape
    (1, 3, 4)
    """
    _fn = staticmethod(_F.avg_pool1d)
    _has_divisor = False

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        def single(v):  # torch.nn.AvgPool1d keeps 1-tuples (its repr shows them)
            return tuple(v) if isinstance(v, (tuple, list)) else (v,)
        super().__init__(single(kernel_size), single(stride if stride is not None else
                                                     kernel_size), single(padding), ceil_mode,
                         count_include_pad)


class AvgPool2d(_AvgPoolNd):
    """2-D average pooling, as torch.nn.AvgPool2d (divisor_override).

    >>> import arraycore as ac
    >>> ac.nn.AvgPool2d(2, divisor_override=3)(ac.ones((1, 1, 4, 4)))[0, 0, 0, 0]
    Array(1.33333333, dtype=float64)
    """
    _fn = staticmethod(_F.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    """3-D average pooling, as torch.nn.AvgPool3d.

    >>> import arraycore as ac
    >>> ac.nn.AvgPool3d(2)(ac.ones((1, 1, 4, 4, 4))).shape
    (1, 1, 2, 2, 2)
    """
    _fn = staticmethod(_F.avg_pool3d)


class _AdaptiveAvgPoolNd(Module):
    _fn = None

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return type(self)._fn(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """1-D adaptive average pooling, as torch.nn.AdaptiveAvgPool1d.

    >>> import arraycore as ac
    >>> ac.nn.AdaptiveAvgPool1d(3)(ac.ones((2, 4, 10))).shape
    (2, 4, 3)
    """
    _fn = staticmethod(_F.adaptive_avg_pool1d)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """2-D adaptive average pooling, as torch.nn.AdaptiveAvgPool2d (None keeps a size).

    >>> import arraycore as ac
    >>> ac.nn.AdaptiveAvgPool2d((1, None))(ac.ones((2, 4, 5, 6))).shape
    (2, 4, 1, 6)
    """
    _fn = staticmethod(_F.adaptive_avg_pool2d)


class _AdaptiveMaxPoolNd(Module):
    _fn = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return type(self)._fn(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """1-D adaptive max pooling, as torch.nn.AdaptiveMaxPool1d.

    >>> import arraycore as ac
    >>> ac.nn.AdaptiveMaxPool1d(2)(ac.ones((2, 4, 7))).shape
    (2, 4, 2)
    """
    _fn = staticmethod(_F.adaptive_max_pool1d)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """2-D adaptive max pooling, as torch.nn.AdaptiveMaxPool2d (return_indices).

    >>> import arraycore as ac
    >>> ac.nn.AdaptiveMaxPool2d(1)(ac.ones((2, 4, 5, 5))).shape
    (2, 4, 1, 1)
    """
    _fn = staticmethod(_F.adaptive_max_pool2d)


class Unfold(Module):
    """Sliding local blocks as columns, as torch.nn.Unfold (im2col).

    >>> import arraycore as ac
    >>> ac.nn.Unfold(kernel_size=(2, 3))(ac.ones((2, 5, 3, 4))).shape
    (2, 30, 4)
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return _F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """Columns summed back into images, as torch.nn.Fold (col2im).

    >>> import arraycore as ac
    >>> ac.nn.Fold(output_size=(4, 5), kernel_size=(2, 2))(ac.ones((1, 12, 12))).shape
    (1, 3, 4, 5)
    """

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return _F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                       self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")
