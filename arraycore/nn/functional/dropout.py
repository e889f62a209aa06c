"""L4: nn.functional dropout: `dropout`, `dropout1d`, `dropout2d`, `dropout3d`,
`alpha_dropout`, `feature_alpha_dropout` (torch.nn.functional's semantics).

Masks are drawn from `ac.random`'s global generator (reseed with `ac.manual_seed` /
`ac.random.seed`), so under `ac.func.vmap` they follow its `randomness=` argument.  Only the
mask's values differ from PyTorch (another generator); which elements are kept is
Bernoulli(1 - p) as there, and kept values are scaled by 1 / (1 - p).
"""

from __future__ import annotations

import math
import warnings

from ._layer_utils import check_floating, ns

__all__ = ["dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
           "feature_alpha_dropout"]

# SELU's negative saturation value -scale * alpha, as used by alpha dropout
# (Klambauer et al. 2017, section "New Dropout Technique").
_ALPHA_PRIME = 1.7580993408473766


def _check_p(who, p):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{who}: dropout probability has to be between 0 and 1, but got {p}")


def _keep_mask(shape, p, dtype):
    """1.0 with probability 1 - p, else 0.0, as an array of `dtype` (one Bernoulli draw
    per element from ac.random's global generator)."""
    xp = ns()
    gen = xp.random.get_global_generator()
    return gen.bernoulli(1.0 - p, size=tuple(shape), dtype=dtype)


def _apply(input, out, inplace):
    if inplace:
        input[...] = out
        return input
    return out


def _dropout_impl(who, input, p, training, inplace, mask_shape, alpha):
    _check_p(who, p)
    check_floating(input, who)
    if not training or input.size == 0:
        return input
    if p == 0.0 and not alpha:
        return input
    if p == 1.0:
        return _apply(input, input * 0.0, inplace)
    mask = _keep_mask(mask_shape, p, input.dtype)
    if not alpha:
        return _apply(input, input * (mask / (1.0 - p)), inplace)
    # Alpha dropout keeps SELU's self-normalizing mean and variance: dropped units go to
    # -alpha', then an affine map a x + b restores mean 0 and variance 1.
    a = 1.0 / math.sqrt((_ALPHA_PRIME * _ALPHA_PRIME * p + 1.0) * (1.0 - p))
    b = (mask - 1.0) * (_ALPHA_PRIME * a) + _ALPHA_PRIME * a * p
    return _apply(input, input * (mask * a) + b, inplace)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1 / (1 - p)
    (torch.nn.functional.dropout).  training=False returns the input.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.dropout(ac.ones(4), p=0.5, training=False)
    Array([1., 1., 1., 1.], dtype=float64)
    """
    return _dropout_impl("dropout", input, p, training, inplace, input.shape, False)


def _feature_shape(input):
    return tuple(input.shape[:2]) + (1,) * (input.ndim - 2)


def _feature_dropout(who, input, p, training, inplace, batched_ndim, alpha=False):
    check_floating(input, who)
    _check_p(who, p)
    if input.ndim not in (batched_ndim - 1, batched_ndim):
        raise ValueError(f"{who}: expected {batched_ndim - 1}D or {batched_ndim}D input, but "
                         f"received a {input.ndim}D input")
    if input.ndim == batched_ndim - 1:
        shape = (input.shape[0],) + (1,) * (input.ndim - 1)  # unbatched: (C, *)
    else:
        shape = _feature_shape(input)
    return _dropout_impl(who, input, p, training, inplace, shape, alpha)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels: input (N, C, L) or (C, L) (torch.nn.functional.dropout1d).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.dropout1d(ac.ones((2, 3, 4)), training=False).shape
    (2, 3, 4)
    """
    return _feature_dropout("dropout1d", input, p, training, inplace, 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) input (torch.nn.functional.dropout2d).  A 3-D
    input is taken as (N, C, L), with PyTorch's warning (its historical behaviour).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.dropout2d(ac.ones((2, 3, 4, 4)), training=False).shape
    (2, 3, 4, 4)
    """
    who = "dropout2d"
    check_floating(input, who)
    _check_p(who, p)
    if input.ndim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is "
                      "deprecated and will result in an error in a future release. To retain "
                      "the behavior and silence this warning, please use dropout instead.",
                      stacklevel=2)
    if input.ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that "
                      "channel-wise 1D dropout behavior is desired - input is interpreted as "
                      "shape (N, C, L), where C is the channel dim. To maintain the 1D "
                      "channel-wise dropout behavior, please switch to using dropout1d "
                      "instead.", stacklevel=2)
    if input.ndim < 2:
        raise ValueError(f"{who}: feature dropout requires at least 2 dimensions in the "
                         f"input, got {input.ndim}")
    return _dropout_impl(who, input, p, training, inplace, _feature_shape(input), False)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels: input (N, C, D, H, W) or (C, D, H, W)
    (torch.nn.functional.dropout3d).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.dropout3d(ac.ones((1, 2, 2, 2, 2)), training=False).shape
    (1, 2, 2, 2, 2)
    """
    return _feature_dropout("dropout3d", input, p, training, inplace, 5)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped units are set to SELU's saturation value and the
    result is rescaled to keep zero mean and unit variance (torch.nn.functional.alpha_dropout).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.alpha_dropout(ac.ones(3), 0.2, training=False)
    Array([1., 1., 1.], dtype=float64)
    """
    return _dropout_impl("alpha_dropout", input, p, training, inplace, input.shape, True)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (torch.nn.functional.feature_alpha_dropout).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.feature_alpha_dropout(ac.ones((2, 3)), 0.2).shape
    (2, 3)
    """
    who = "feature_alpha_dropout"
    check_floating(input, who)
    if input.ndim < 2:
        raise ValueError(f"{who}: feature dropout requires at least 2 dimensions in the "
                         f"input, got {input.ndim}")
    return _dropout_impl(who, input, p, training, inplace, _feature_shape(input), True)
