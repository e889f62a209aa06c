"""L4: `InstanceNorm1d`, `InstanceNorm2d`, `InstanceNorm3d` (torch.nn's: affine and
track_running_stats off by default; unbatched input accepted)."""

from __future__ import annotations

import warnings

from .. import functional as F
from .batchnorm import _NormBase

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"]


def _ns():
    import arraycore
    return arraycore


class _InstanceNorm(_NormBase):
    _no_batch_dim = 0

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)

    def _check_input_dim(self, input):
        n = self._no_batch_dim
        if input.ndim not in (n, n + 1):
            raise ValueError(f"{type(self).__name__}: expected {n}D or {n + 1}D input (got "
                             f"{input.ndim}D input)")

    def forward(self, input):
        xp = _ns()
        self._check_input_dim(input)
        feature_dim = input.ndim - self._no_batch_dim
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"{type(self).__name__}: expected input's size at "
                                 f"dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: "
                                 f"{input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, "
                          "which is not used because affine=False", stacklevel=2)
        unbatched = input.ndim == self._no_batch_dim
        x = xp.expand_dims(input, axis=0) if unbatched else input
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats,
                              self.momentum if self.momentum is not None else 0.0, self.eps)
        return xp.squeeze(out, axis=0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of (N, C, L) or (C, L) input (torch.nn.InstanceNorm1d).

    >>> import arraycore as ac
    >>> ac.nn.InstanceNorm1d(3)(ac.ones((2, 3, 5), dtype=ac.float32)).shape
    (2, 3, 5)
    """
    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W) or (C, H, W) input (torch.nn.InstanceNorm2d).

    >>> import arraycore as ac
    >>> ac.nn.InstanceNorm2d(3)(ac.ones((2, 3, 4, 4), dtype=ac.float32)).shape
    (2, 3, 4, 4)
    """
    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W) or (C, D, H, W) input
    (torch.nn.InstanceNorm3d).

    >>> import arraycore as ac
    >>> ac.nn.InstanceNorm3d(2)(ac.ones((1, 2, 2, 2, 2), dtype=ac.float32)).shape
    (1, 2, 2, 2, 2)
    """
    _no_batch_dim = 4
