"""L4: gradient clipping (torch.nn.utils.clip_grad_norm_ / clip_grad_value_ /
get_total_norm / clip_grads_with_norm_).  The gradients are scaled in place under no_grad."""

from __future__ import annotations

import math

from ...autodiff.grad_mode import no_grad
from ...autodiff.tracer import Tracer
from ...native import _native

Array = _native.Array

__all__ = ["clip_grad_norm_", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_"]


def _ac():
    import arraycore
    return arraycore


def _as_list(parameters, who):
    if isinstance(parameters, (Array, Tracer)):
        return [parameters]
    try:
        return list(parameters)
    except TypeError:
        raise TypeError(f"{who}: expected an array or an iterable of arrays, got "
                        f"{type(parameters).__name__}") from None


def _grads(parameters, who):
    return [p.grad for p in _as_list(parameters, who) if p.grad is not None]


def _norm_type(norm_type, who):
    try:
        return float(norm_type)
    except (TypeError, ValueError):
        raise ValueError(f"{who}: norm_type must be a number or 'inf', got {norm_type!r}") \
            from None


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None):
    """The norm of the concatenation of `tensors` (the norm of their norms), as a 0-d array.

    >>> import arraycore as ac
    >>> float(ac.nn.utils.get_total_norm([ac.asarray([3.0]), ac.asarray([4.0])]))
    5.0
    """
    ac = _ac()
    tensors = _as_list(tensors, "get_total_norm")
    p = _norm_type(norm_type, "get_total_norm")
    if not tensors:
        return ac.asarray(0.0, dtype=ac.float32)
    with no_grad():
        norms = [ac.linalg.vector_norm(t, ord=p) for t in tensors]
        dtype = ac.result_type(*norms)
        total = ac.linalg.vector_norm(ac.stack([n.astype(dtype) for n in norms]), ord=p)
    if error_if_nonfinite and not bool(ac.isfinite(total)):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from "
                           "`parameters` is non-finite, so it cannot be clipped. To disable "
                           "this error and scale the gradients by the non-finite norm anyway, "
                           "set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm: float, total_norm, foreach=None) -> None:
    """Scales the gradients in place by min(1, max_norm / (total_norm + 1e-6))."""
    ac = _ac()
    grads = _grads(parameters, "clip_grads_with_norm_")
    if not grads:
        return
    with no_grad():
        coef = ac.minimum(max_norm / (total_norm + 1e-6), 1.0)
        for g in grads:
            g *= coef.astype(g.dtype)


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None):
    """Scales the gradients of `parameters` in place so that their total norm (of order
    `norm_type`, `float("inf")` for the max-abs norm) is at most `max_norm`; returns the total
    norm before clipping (a 0-d array).  `foreach` is accepted for PyTorch compatibility (one
    code path serves both).

    >>> import arraycore as ac
    >>> p = ac.nn.Parameter(ac.ones(4, dtype=ac.float32)); ac.sum(p * 3).backward()
    >>> float(ac.nn.utils.clip_grad_norm_([p], max_norm=1.0))
    6.0
    >>> round(float(ac.linalg.vector_norm(p.grad)), 5)
    1.0
    """
    params = [p for p in _as_list(parameters, "clip_grad_norm_")]
    max_norm = float(max_norm)
    grads = [p.grad for p in params if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    if grads:
        clip_grads_with_norm_(params, max_norm, total, foreach)
    return total


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamps the gradients of `parameters` in place to [-clip_value, clip_value].

    >>> import arraycore as ac
    >>> p = ac.nn.Parameter(ac.ones(2, dtype=ac.float32)); ac.sum(p * 5).backward()
    >>> ac.nn.utils.clip_grad_value_([p], 1.5); p.grad
    Array([1.5, 1.5], dtype=float32)
    """
    ac = _ac()
    v = float(clip_value)
    if math.isnan(v):
        raise ValueError("clip_grad_value_: clip_value is NaN")
    from .._inplace import assign_
    for g in _grads(parameters, "clip_grad_value_"):
        with no_grad():
            assign_(g, ac.clip(g, -v, v), "clip_grad_value_")
