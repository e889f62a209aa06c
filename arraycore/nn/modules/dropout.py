"""L4: dropout layers (torch.nn's): active in training mode only."""

from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
           "FeatureAlphaDropout"]


class _DropoutNd(Module):
    _fn = None

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"{type(self).__name__}: dropout probability has to be between 0 "
                             f"and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return type(self)._fn(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zero elements with probability p in training, scale the rest by 1 / (1 - p)
    (torch.nn.Dropout).

    >>> import arraycore as ac
    >>> ac.nn.Dropout(0.5).eval()(ac.ones(3))
    Array([1., 1., 1.], dtype=float64)
    """
    _fn = staticmethod(F.dropout)


class Dropout1d(_DropoutNd):
    """Zero whole channels of (N, C, L) / (C, L) input (torch.nn.Dropout1d).

    >>> import arraycore as ac
    >>> ac.nn.Dropout1d().eval()(ac.ones((2, 3, 4))).shape
    (2, 3, 4)
    """
    _fn = staticmethod(F.dropout1d)


class Dropout2d(_DropoutNd):
    """Zero whole channels of (N, C, H, W) input (torch.nn.Dropout2d).

    >>> import arraycore as ac
    >>> ac.nn.Dropout2d().eval()(ac.ones((2, 3, 4, 4))).shape
    (2, 3, 4, 4)
    """
    _fn = staticmethod(F.dropout2d)


class Dropout3d(_DropoutNd):
    """Zero whole channels of (N, C, D, H, W) / (C, D, H, W) input (torch.nn.Dropout3d).

    >>> import arraycore as ac
    >>> ac.nn.Dropout3d().eval()(ac.ones((1, 2, 2, 2, 2))).shape
    (1, 2, 2, 2, 2)
    """
    _fn = staticmethod(F.dropout3d)


class AlphaDropout(_DropoutNd):
    """Alpha dropout for SELU networks (torch.nn.AlphaDropout).

    >>> import arraycore as ac
    >>> ac.nn.AlphaDropout(0.2).eval()(ac.ones(2))
    Array([1., 1.], dtype=float64)
    """
    _fn = staticmethod(F.alpha_dropout)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels (torch.nn.FeatureAlphaDropout).

    >>> import arraycore as ac
    >>> ac.nn.FeatureAlphaDropout(0.2).eval()(ac.ones((2, 3))).shape
    (2, 3)
    """
    _fn = staticmethod(F.feature_alpha_dropout)
