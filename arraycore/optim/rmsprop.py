"""RMSprop, plain and centered (Hinton's lecture 6e; Graves 2013; PyTorch's
`torch.optim.RMSprop`)."""

from __future__ import annotations

from ..native import _native
from ._checks import check_lr, check_nonneg
from .optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop, PyTorch's update: s = alpha s + (1 - alpha) g^2; centered: a = lerp(a, g,
    1 - alpha), d = sqrt(s - a^2) + eps, else d = sqrt(s) + eps; with momentum
    b = momentum b + g / d, p -= lr b, else p -= lr g / d.

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0]); w.requires_grad_()
        >>> opt = ac.optim.RMSprop([w], lr=0.01)
        >>> w.grad = ac.asarray([1.0]); opt.step()
        >>> round(w.tolist()[0], 6)
        0.9
    """

    _who = "optim.RMSprop"

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                 centered=False, *, maximize=False):
        defaults = dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay,
                        momentum=momentum, centered=centered, maximize=maximize)
        super().__init__(params, defaults)

    def _check_group(self, g):
        check_lr(self._who, g["lr"])
        check_nonneg(self._who, "eps", g["eps"], "epsilon")
        check_nonneg(self._who, "momentum", g["momentum"])
        check_nonneg(self._who, "weight_decay", g["weight_decay"])
        check_nonneg(self._who, "alpha", g["alpha"])

    def _step_group(self, group):
        pg = self._params_with_grads(group)
        if not pg:
            return
        momentum = float(group["momentum"])
        centered = bool(group["centered"])
        for p, _ in pg:
            st = self.state.setdefault_dict(p)
            if not st:
                st["step"] = 0.0
                st["square_avg"] = self._zeros(p)
            if momentum > 0 and "momentum_buffer" not in st:
                st["momentum_buffer"] = self._zeros(p)
            if centered and "grad_avg" not in st:
                st["grad_avg"] = self._zeros(p)
            st["step"] += 1.0
        for bucket in self._buckets(pg, lambda it: it[0]._dtype_code):
            params = [p for p, _ in bucket]
            sts = [self.state[p] for p in params]
            _native.optim_rmsprop(
                params, [g for _, g in bucket], [s["square_avg"] for s in sts],
                [s["grad_avg"] for s in sts] if centered else [],
                [s["momentum_buffer"] for s in sts] if momentum > 0 else [],
                float(group["lr"]), float(group["alpha"]), float(group["eps"]),
                float(group["weight_decay"]), momentum, centered, bool(group["maximize"]))
            self._bump(params)
