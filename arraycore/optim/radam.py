"""RAdam: Adam with the variance rectification term (Liu et al. 2020, "On the Variance of
the Adaptive Learning Rate and Beyond"; PyTorch's `torch.optim.RAdam`)."""

from __future__ import annotations

from ..native import _native
from ._checks import check_betas, check_lr, check_nonneg
from .optimizer import Optimizer

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam, PyTorch's update: moments as Adam; rho_inf = 2 / (1 - beta2) - 1,
    rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t); when rho_t > 5,
    p -= lr m / (1 - beta1^t) * sqrt(1 - beta2^t) / (sqrt(v) + eps) * r_t with
    r_t = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t)),
    else p -= lr m / (1 - beta1^t).

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0]).requires_grad_()
        >>> opt = ac.optim.RAdam([w], lr=0.1)
        >>> w.grad = ac.asarray([1.0]); opt.step()
        >>> round(w.tolist()[0], 6)
        0.9
    """

    _who = "optim.RAdam"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 decoupled_weight_decay=False, *, maximize=False):
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize)
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
        self._count_step(pg, "exp_avg", "exp_avg_sq")
        lr = float(group["lr"])
        beta1, beta2 = (float(b) for b in group["betas"])
        state = self.state
        for bucket in self._buckets(pg, lambda it: (it[0]._dtype_code, state[it[0]]["step"])):
            params = [p for p, _ in bucket]
            sts = [state[p] for p in params]
            step = sts[0]["step"]
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
            if rho_t > 5.0:
                rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                        / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            else:
                rect = -1.0  # no adaptive term this step
            _native.optim_radam(
                params, [g for _, g in bucket], [s["exp_avg"] for s in sts],
                [s["exp_avg_sq"] for s in sts], lr, beta1, beta2, float(group["eps"]),
                float(group["weight_decay"]), bool(group["maximize"]),
                bool(group["decoupled_weight_decay"]), bias_correction1,
                bias_correction2 ** 0.5, rect)
            self._bump(params)
