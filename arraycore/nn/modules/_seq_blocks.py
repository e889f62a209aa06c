"""L4: the small blocks the attention and transformer layers are made of, with torch's
parameter names (`weight`, `bias`) and initializations: a linear map (the class torch calls
`NonDynamicallyQuantizableLinear` for `MultiheadAttention.out_proj`), layer normalization and
dropout.  They are built here from namespace ops so the sequence layers depend only on
`Module`; they compute exactly what `nn.Linear`, `nn.LayerNorm` and `nn.Dropout` compute.
"""

from __future__ import annotations

import numbers

import arraycore as _ac

from ..parameter import Parameter
from . import _seq_init
from .module import Module

__all__ = ["NonDynamicallyQuantizableLinear"]


class _SeqLinear(Module):
    """y = x W^T + b with W (out_features, in_features), torch.nn.Linear's init."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        dtype = _seq_init.resolve_dtype(dtype)
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_seq_init.linear_weight(out_features, in_features, dtype))
        if bias:
            self.bias = Parameter(_seq_init.linear_bias(out_features, in_features, dtype))
        else:
            self.register_parameter("bias", None)

    def forward(self, x):
        y = x @ _ac.matrix_transpose(self.weight)
        return y if self.bias is None else y + self.bias

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(_SeqLinear):
    """`MultiheadAttention.out_proj` (torch's class of the same name, a Linear)."""


class _SeqLayerNorm(Module):
    """Layer normalization over the last axis (torch.nn.LayerNorm with a 1-D shape)."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (int(normalized_shape),)
        self.normalized_shape = tuple(normalized_shape)
        if len(self.normalized_shape) != 1:
            raise ValueError("LayerNorm: the sequence layers normalize one axis")
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        dtype = _seq_init.resolve_dtype(dtype)
        if elementwise_affine:
            self.weight = Parameter(_ac.ones(self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(_ac.zeros(self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, x):
        mean = _ac.mean(x, axis=-1, keepdims=True)
        centred = x - mean
        var = _ac.mean(centred * centred, axis=-1, keepdims=True)
        y = centred / _ac.sqrt(var + self.eps)
        if self.weight is not None:
            y = y * self.weight
        if self.bias is not None:
            y = y + self.bias
        return y

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class _SeqDropout(Module):
    """Inverted dropout in training mode, the identity in eval mode (torch.nn.Dropout)."""

    def __init__(self, p=0.5):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"Dropout: dropout probability has to be between 0 and 1, but "
                             f"got {p}")
        self.p = float(p)

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        if self.p == 1.0:
            return x * 0.0
        keep = _ac.random.random(size=tuple(x.shape), dtype=x.dtype) >= self.p
        return _ac.where(keep, x * (1.0 / (1.0 - self.p)), 0.0)

    def extra_repr(self):
        return f"p={self.p}, inplace=False"
