"""L4: `LayerNorm`, `GroupNorm`, `RMSNorm` (torch.nn's, weight 1 and bias 0 at start)."""

from __future__ import annotations

from .. import functional as F
from ..parameter import Parameter
from . import _layer_init as _init
from .module import Module

__all__ = ["LayerNorm", "GroupNorm", "RMSNorm"]


def _ns():
    import arraycore
    return arraycore


def _shape(normalized_shape):
    if isinstance(normalized_shape, int):
        return (normalized_shape,)
    return tuple(int(s) for s in normalized_shape)


class LayerNorm(Module):
    """Normalization over the last len(normalized_shape) axes, with elementwise weight and
    bias (torch.nn.LayerNorm).

    >>> import arraycore as ac
    >>> ac.nn.LayerNorm(4)(ac.ones((2, 4), dtype=ac.float32)).shape
    (2, 4)
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        xp = _ns()
        _init.check_device(device, "LayerNorm")
        dt = _init.factory_dtype(dtype)
        self.normalized_shape = _shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(xp.ones(self.normalized_shape, dtype=dt))
            if bias:
                self.bias = Parameter(xp.zeros(self.normalized_shape, dtype=dt))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self):
        if self.elementwise_affine:
            _init.constant_(self.weight, 1.0)
            if self.bias is not None:
                _init.constant_(self.bias, 0.0)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    """Normalization over groups of channels of (N, C, *) input, per-channel affine
    (torch.nn.GroupNorm).  Unlike BatchNorm it never mixes examples, so per-sample gradients
    (DP-SGD) work with it.

    >>> import arraycore as ac
    >>> ac.nn.GroupNorm(2, 4)(ac.ones((3, 4, 5), dtype=ac.float32)).shape
    (3, 4, 5)
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        xp = _ns()
        _init.check_device(device, "GroupNorm")
        if num_channels % num_groups != 0:
            raise ValueError("GroupNorm: num_channels must be divisible by num_groups")
        dt = _init.factory_dtype(dtype)
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(xp.ones((num_channels,), dtype=dt))
            if bias:
                self.bias = Parameter(xp.zeros((num_channels,), dtype=dt))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self):
        if self.affine:
            _init.constant_(self.weight, 1.0)
            if self.bias is not None:
                _init.constant_(self.bias, 0.0)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """x / sqrt(mean(x^2) + eps) * weight over the last axes (torch.nn.RMSNorm; eps=None is
    the dtype's machine epsilon).

    >>> import arraycore as ac
    >>> ac.nn.RMSNorm(4)(ac.ones((2, 4), dtype=ac.float32)).shape
    (2, 4)
    """

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None,
                 dtype=None):
        super().__init__()
        xp = _ns()
        _init.check_device(device, "RMSNorm")
        self.normalized_shape = _shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(xp.ones(self.normalized_shape,
                                            dtype=_init.factory_dtype(dtype)))
        else:
            self.register_parameter("weight", None)

    def reset_parameters(self):
        if self.elementwise_affine:
            _init.constant_(self.weight, 1.0)

    def forward(self, input):
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")
