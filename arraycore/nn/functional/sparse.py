"""L4: nn.functional lookups: `embedding`, `one_hot` (torch.nn.functional's semantics).

`embedding` is a `take` of weight rows (its vjp scatter-adds into the rows, repeated indices
accumulate); padding_idx and scale_grad_by_freq only change the backward pass, through
`grad_scale` (see _layer_utils).
"""

from __future__ import annotations

from ...autodiff.tracer import Tracer
from ._layer_utils import check_array, check_floating, grad_scale, is_array, ns

__all__ = ["embedding", "one_hot"]


def _check_indices(who, idx):
    check_array(idx, who, "input")
    if idx.dtype.kind not in "iu":
        raise TypeError(f"{who}: expected an integer index array (int64 or int32), got "
                        f"{idx.dtype}")


def _renorm_rows(xp, weight, flat_idx, max_norm, norm_type):
    """PyTorch's embedding_renorm_: rows referenced by the indices whose norm exceeds
    max_norm are scaled in place to max_norm / (norm + 1e-7), without recording."""
    with xp.no_grad():
        rows = xp.unique_values(flat_idx)
        w = weight[rows]
        norms = xp.linalg.vector_norm(w, ord=norm_type, axis=1, keepdims=True)
        scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight[rows] = w * xp.astype(scale, w.dtype)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of `weight` at the integer indices `input`: the result has shape
    input.shape + (embedding_dim,) (torch.nn.functional.embedding).

    padding_idx: that row receives no gradient.  max_norm: the referenced rows are
    renormalized in place first (norm_type-norm at most max_norm).  scale_grad_by_freq:
    gradients are divided by each index's count in the batch.  sparse=True is accepted;
    gradients are dense arrays (arraycore has no sparse layout), with the same values.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> w = ac.reshape(ac.arange(6.0), (3, 2))
    >>> F.embedding(ac.asarray([[2, 0]]), w)
    Array([[[4., 5.],
            [0., 1.]]], dtype=float64)
    """
    xp = ns()
    who = "embedding"
    _check_indices(who, input)
    check_floating(weight, who, "weight")
    if weight.ndim != 2:
        raise ValueError(f"{who}: weight must be 2-D (num_embeddings, embedding_dim), got "
                         f"shape {tuple(weight.shape)}")
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise ValueError(f"{who}: padding_idx must be within num_embeddings ({num}), got "
                             f"{padding_idx}")
        padding_idx = padding_idx % num
    flat = xp.reshape(input, (-1,)) if input.ndim != 1 else input
    if flat.size and not isinstance(flat, Tracer):  # (a vmap-batched index: take checks)
        lo, hi = int(xp.min(flat)), int(xp.max(flat))
        if lo < 0 or hi >= num:
            raise IndexError(f"{who}: index out of range in self (indices must be in "
                             f"[0, {num}), got {lo if lo < 0 else hi})")
    if max_norm is not None and flat.size:
        _renorm_rows(xp, weight, flat, float(max_norm), float(norm_type))
    out = xp.take(weight, flat, axis=0)
    if padding_idx is not None or scale_grad_by_freq:
        scale = xp.ones(flat.shape, dtype=weight.dtype)
        if scale_grad_by_freq and flat.size:
            scale = 1.0 / xp.astype(_counts(xp, flat), weight.dtype)
        if padding_idx is not None:
            scale = xp.where(flat == padding_idx, 0.0, scale)
        out = grad_scale(out, xp.expand_dims(scale, axis=1))
    return xp.reshape(out, tuple(input.shape) + (weight.shape[1],))


def _counts(xp, flat):
    """How often each element's value occurs in `flat`: two binary searches in the sorted
    indices (no unique(): its size varies, which vmap cannot batch)."""
    s = xp.sort(flat)
    return (xp.searchsorted(s, flat, side="right") - xp.searchsorted(s, flat, side="left"))


def one_hot(tensor, num_classes=-1):
    """int64 array of shape tensor.shape + (num_classes,) with a 1 at each index
    (torch.nn.functional.one_hot); num_classes=-1 uses max(tensor) + 1.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.one_hot(ac.asarray([0, 2]), 3)
    Array([[1, 0, 0],
           [0, 0, 1]], dtype=int64)
    """
    xp = ns()
    who = "one_hot"
    if not is_array(tensor):
        raise TypeError(f"{who}: expected an arraycore array, got {type(tensor).__name__}")
    if tensor.dtype != xp.int64:
        raise TypeError(f"{who}: one_hot is only applicable to index arrays of dtype int64, "
                        f"got {tensor.dtype}")
    if num_classes == -1:
        if tensor.size == 0:
            raise ValueError(f"{who}: can not infer total number of classes from empty "
                             "tensor")
        num_classes = int(xp.max(tensor)) + 1
    elif num_classes < -1 or not isinstance(num_classes, int):
        raise ValueError(f"{who}: num_classes should be -1 or a non-negative int, got "
                         f"{num_classes!r}")
    if tensor.size and not isinstance(tensor, Tracer):
        if int(xp.min(tensor)) < 0:
            raise ValueError(f"{who}: class values must be non-negative")
        if int(xp.max(tensor)) >= num_classes:
            raise ValueError(f"{who}: class values must be smaller than num_classes "
                             f"({num_classes})")
    classes = xp.arange(num_classes, dtype=xp.int64)
    return xp.astype(xp.expand_dims(tensor, axis=-1) == classes, xp.int64)
