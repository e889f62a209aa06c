"""NAdam: Adam with Nesterov momentum (Dozat 2016; PyTorch's `torch.optim.NAdam`, with its
momentum-decay schedule mu_t = beta1 (1 - 0.5 * 0.96^(t * momentum_decay)))."""

from __future__ import annotations

import struct

from ..native import _native
from ._checks import check_betas, check_lr, check_nonneg
from .optimizer import Optimizer

__all__ = ["NAdam"]


def _f32(x):
    """x rounded to float32: PyTorch keeps NAdam's mu_product in a float32 scalar tensor."""
    return struct.unpack("f", struct.pack("f", x))[0]


class NAdam(Optimizer):
    """NAdam, PyTorch's update: moments as Adam; with mu_t as above and prod_t = mu_1...mu_t,
    p -= lr (1 - mu_t) / (1 - prod_t) * g / d + lr mu_{t+1} / (1 - prod_t mu_{t+1}) * m / d,
    d = sqrt(v / (1 - beta2^t)) + eps.  `decoupled_weight_decay=True` decays p as AdamW.

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0]); w.requires_grad_()
        >>> opt = ac.optim.NAdam([w], lr=0.1)
        >>> w.grad = ac.asarray([1.0]); opt.step()
        >>> round(w.tolist()[0], 4)
        0.8985
    """

    _who = "optim.NAdam"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, maximize=False):
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize)
        super().__init__(params, defaults)

    def _check_group(self, g):
        check_lr(self._who, g["lr"])
        check_nonneg(self._who, "eps", g["eps"], "epsilon")
        check_betas(self._who, g["betas"])
        check_nonneg(self._who, "weight_decay", g["weight_decay"])
        check_nonneg(self._who, "momentum_decay", g["momentum_decay"])

    def _step_group(self, group):
        pg = self._params_with_grads(group)
        if not pg:
            return
        lr = float(group["lr"])
        beta1, beta2 = (float(b) for b in group["betas"])
        md = float(group["momentum_decay"])
        for p, _ in pg:
            st = self.state.setdefault_dict(p)
            if not st:
                st["step"] = 0.0
                st["mu_product"] = 1.0
                st["exp_avg"] = self._zeros(p)
                st["exp_avg_sq"] = self._zeros(p)
            st["step"] += 1.0
            mu = beta1 * (1.0 - 0.5 * 0.96 ** (st["step"] * md))
            st["mu_product"] = _f32(st["mu_product"] * _f32(mu))
        state = self.state
        key = lambda it: (it[0]._dtype_code, state[it[0]]["step"], state[it[0]]["mu_product"])  # noqa: E731
        for bucket in self._buckets(pg, key):
            params = [p for p, _ in bucket]
            sts = [state[p] for p in params]
            step, mu_product = sts[0]["step"], sts[0]["mu_product"]
            mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * md))
            mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * md))
            mu_product_next = mu_product * mu_next
            _native.optim_nadam(
                params, [g for _, g in bucket], [s["exp_avg"] for s in sts],
                [s["exp_avg_sq"] for s in sts], lr, beta1, beta2, float(group["eps"]),
                float(group["weight_decay"]), bool(group["maximize"]),
                bool(group["decoupled_weight_decay"]), 1 - beta2 ** step,
                -lr * (1.0 - mu) / (1.0 - mu_product),
                (-lr * mu_next) / (1.0 - mu_product_next))
            self._bump(params)
