"""L4: `BatchNorm1d`, `BatchNorm2d`, `BatchNorm3d` (torch.nn's, with running statistics,
momentum (None: cumulative average), num_batches_tracked, affine, track_running_stats)."""

from __future__ import annotations

from .. import functional as F
from ..parameter import Parameter
from . import _layer_init as _init
from .module import Module

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


def _ns():
    import arraycore
    return arraycore


class _NormBase(Module):
    """Parameters and buffers shared by batch and instance norm (torch's _NormBase)."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        xp = _ns()
        _init.check_device(device, type(self).__name__)
        dt = _init.factory_dtype(dtype)
        self.num_features = int(num_features)
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(xp.empty((self.num_features,), dtype=dt))
            if bias:
                self.bias = Parameter(xp.empty((self.num_features,), dtype=dt))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", xp.zeros((self.num_features,), dtype=dt))
            self.register_buffer("running_var", xp.ones((self.num_features,), dtype=dt))
            self.register_buffer("num_batches_tracked", xp.asarray(0, dtype=xp.int64))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def reset_running_stats(self):
        if self.track_running_stats:
            xp = _ns()
            with xp.no_grad():
                self.running_mean[...] = 0
                self.running_var[...] = 1
                self.num_batches_tracked[...] = 0

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            _init.constant_(self.weight, 1.0)
            if self.bias is not None:
                _init.constant_(self.bias, 0.0)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    # Note [Modules that mix examples] (module.py): in training mode the batch statistics
    # combine all examples, so per-sample gradients are not defined.
    _mixes_examples_in_training = True

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            xp = _ns()
            with xp.no_grad():
                self.num_batches_tracked[...] = self.num_batches_tracked + 1
            if self.momentum is None:  # cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked)
        bn_training = self.training or (self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if use_stats else None,
                            self.running_var if use_stats else None, self.weight, self.bias,
                            bn_training, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """Batch normalization of (N, C) or (N, C, L) input over N (and L) (torch.nn.BatchNorm1d).

    >>> import arraycore as ac
    >>> bn = ac.nn.BatchNorm1d(3)
    >>> bn(ac.ones((4, 3), dtype=ac.float32)).shape, int(bn.num_batches_tracked)
    ((4, 3), 1)
    """

    def _check_input_dim(self, input):
        if input.ndim not in (2, 3):
            raise ValueError(f"BatchNorm1d: expected 2D or 3D input (got {input.ndim}D input)")


class BatchNorm2d(_BatchNorm):
    """Batch normalization of (N, C, H, W) input over N, H, W (torch.nn.BatchNorm2d).

    >>> import arraycore as ac
    >>> ac.nn.BatchNorm2d(3)(ac.ones((2, 3, 4, 4), dtype=ac.float32)).shape
    (2, 3, 4, 4)
    """

    def _check_input_dim(self, input):
        if input.ndim != 4:
            raise ValueError(f"BatchNorm2d: expected 4D input (got {input.ndim}D input)")


class BatchNorm3d(_BatchNorm):
    """Batch normalization of (N, C, D, H, W) input (torch.nn.BatchNorm3d).

    >>> import arraycore as ac
    >>> ac.nn.BatchNorm3d(2)(ac.ones((2, 2, 2, 2, 2), dtype=ac.float32)).shape
    (2, 2, 2, 2, 2)
    """

    def _check_input_dim(self, input):
        if input.ndim != 5:
            raise ValueError(f"BatchNorm3d: expected 5D input (got {input.ndim}D input)")
