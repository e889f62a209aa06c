"""Adamax, Adam's infinity-norm variant (Kingma & Ba 2015, section 7; PyTorch's
`torch.optim.Adamax`)."""

from __future__ import annotations

from ..native import _native
from ._checks import check_betas, check_lr, check_nonneg
from .optimizer import Optimizer

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax, PyTorch's update: m = lerp(m, g, 1 - beta1); u = max(beta2 u, |g| + eps);
    p -= lr / (1 - beta1^t) * m / u.

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0]).requires_grad_()
        >>> opt = ac.optim.Adamax([w], lr=0.1)
        >>> w.grad = ac.asarray([2.0]); opt.step()
        >>> round(w.tolist()[0], 6)
        0.9
    """

    _who = "optim.Adamax"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 *, maximize=False):
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                        maximize=maximize)
        super().__init__(params, defaults)

    def _check_group(self, g):
        check_lr(self._who, g["lr"])
        check_nonneg(self._who, "eps", g["eps"], "epsilon")
        check_betas(self._who, g["betas"])
        check_nonneg(self._who, "weight_decay", g["weight_decay"])

    def _step_group(self, group):
        pg = self._params_with_grads(group)
        if not pg:
            return
        self._count_step(pg, "exp_avg", "exp_inf")
        lr = float(group["lr"])
        beta1, beta2 = (float(b) for b in group["betas"])
        state = self.state
        for bucket in self._buckets(pg, lambda it: (it[0]._dtype_code, state[it[0]]["step"])):
            params = [p for p, _ in bucket]
            sts = [state[p] for p in params]
            clr = lr / (1 - beta1 ** sts[0]["step"])
            _native.optim_adamax(params, [g for _, g in bucket], [s["exp_avg"] for s in sts],
                                 [s["exp_inf"] for s in sts], beta1, beta2, float(group["eps"]),
                                 float(group["weight_decay"]), bool(group["maximize"]), clr)
            self._bump(params)
