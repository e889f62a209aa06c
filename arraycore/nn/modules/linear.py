"""L4: `Identity`, `Linear`, `Bilinear` (torch.nn's layers, PyTorch's default init)."""

from __future__ import annotations

import math

from .. import functional as F
from ..parameter import Parameter
from . import _layer_init as _init
from .module import Module

__all__ = ["Identity", "Linear", "Bilinear"]


def _ns():
    import arraycore
    return arraycore


class Identity(Module):
    """Returns its input; any constructor arguments are ignored (torch.nn.Identity).

    >>> import arraycore as ac
    >>> ac.nn.Identity(54, unused="x")(ac.ones(2)).shape
    (2,)
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """y = x W^T + b (torch.nn.Linear).  weight (out_features, in_features) and bias
    (out_features,) are float32 by default, initialised as PyTorch does: W ~
    kaiming_uniform_(a=sqrt(5)) = U(-1/sqrt(in), 1/sqrt(in)), b ~ U(-1/sqrt(in), 1/sqrt(in)).

    >>> import arraycore as ac
    >>> m = ac.nn.Linear(3, 2)
    >>> m(ac.ones((4, 3), dtype=ac.float32)).shape
    (4, 2)
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        _init.check_device(device, "Linear")
        xp = _ns()
        dt = _init.factory_dtype(dtype)
        self.in_features = int(in_features)
        self.out_features = int(out_features)
        self.weight = Parameter(xp.empty((self.out_features, self.in_features), dtype=dt))
        if bias:
            self.bias = Parameter(xp.empty((self.out_features,), dtype=dt))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        _init.kaiming_uniform_sqrt5_(self.weight)
        if self.bias is not None:
            _init.bias_uniform_(self.bias, self.weight)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """y = x1^T A x2 + b (torch.nn.Bilinear); weight (out, in1, in2) and bias ~
    U(-1/sqrt(in1), 1/sqrt(in1)).

    >>> import arraycore as ac
    >>> m = ac.nn.Bilinear(2, 3, 4)
    >>> m(ac.ones((5, 2), dtype=ac.float32), ac.ones((5, 3), dtype=ac.float32)).shape
    (5, 4)
    """

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None,
                 dtype=None):
        super().__init__()
        _init.check_device(device, "Bilinear")
        xp = _ns()
        dt = _init.factory_dtype(dtype)
        self.in1_features = int(in1_features)
        self.in2_features = int(in2_features)
        self.out_features = int(out_features)
        self.weight = Parameter(xp.empty((self.out_features, self.in1_features,
                                          self.in2_features), dtype=dt))
        if bias:
            self.bias = Parameter(xp.empty((self.out_features,), dtype=dt))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.weight.shape[1]) if self.weight.shape[1] else 0.0
        _init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            _init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
