"""PyTorch's validation of optimizer options ('Invalid learning rate: -1', ...)."""

from __future__ import annotations


def _num(who, name, v):
    try:
        return float(v)
    except (TypeError, ValueError):
        raise TypeError(f"{who}: {name} must be a number, got {type(v).__name__}") from None


def check_lr(who, lr):
    if _num(who, "lr", lr) < 0:
        raise ValueError(f"{who}: Invalid learning rate: {lr}")


def check_nonneg(who, name, v, label=None):
    if _num(who, name, v) < 0:
        raise ValueError(f"{who}: Invalid {label or name} value: {v}")


def check_betas(who, betas):
    try:
        b1, b2 = betas
    except (TypeError, ValueError):
        raise ValueError(f"{who}: betas must be a pair (beta1, beta2), got {betas!r}") from None
    for i, b in enumerate((b1, b2)):
        if not 0.0 <= _num(who, "beta", b) < 1.0:
            raise ValueError(f"{who}: Invalid beta parameter at index {i}: {b}")
