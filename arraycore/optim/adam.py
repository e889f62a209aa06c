"""Adam and AdamW (PyTorch's `torch.optim.Adam` / `AdamW`; Kingma & Ba 2015, Loshchilov &
Hutter 2019 for decoupled weight decay, Reddi et al. 2018 for AMSGrad)."""

from __future__ import annotations

from ..native import _native
from ._checks import check_betas, check_lr, check_nonneg
from .optimizer import Optimizer

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam, PyTorch's update: m = lerp(m, g, 1 - beta1); v = beta2 v + (1 - beta2) g^2;
    (amsgrad: v_max = max(v_max, v), used in place of v);
    p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps).
    `weight_decay` adds weight_decay * p to the gradient (L2), or with
    `decoupled_weight_decay=True` multiplies p by 1 - lr * weight_decay first (AdamW).

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0, -1.0]); w.requires_grad_()
        >>> opt = ac.optim.Adam([w], lr=0.1)
        >>> w.grad = ac.asarray([3.0, -0.5]); opt.step()
        >>> [round(v, 6) for v in w.tolist()]
        [0.9, -0.9]
    """

    _who = "optim.Adam"
    _decoupled_default = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False, decoupled_weight_decay=None):
        if decoupled_weight_decay is None:
            decoupled_weight_decay = self._decoupled_default
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize,
                        decoupled_weight_decay=decoupled_weight_decay)
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
        amsgrad = bool(group["amsgrad"])
        for p, _ in pg:
            st = self.state.setdefault_dict(p)
            if not st:
                st["step"] = 0.0
                st["exp_avg"] = self._zeros(p)
                st["exp_avg_sq"] = self._zeros(p)
            if amsgrad and "max_exp_avg_sq" not in st:
                st["max_exp_avg_sq"] = self._zeros(p)
            st["step"] += 1.0
        lr = float(group["lr"])
        beta1, beta2 = (float(b) for b in group["betas"])
        state = self.state
        for bucket in self._buckets(pg, lambda it: (it[0]._dtype_code, state[it[0]]["step"])):
            params = [p for p, _ in bucket]
            sts = [state[p] for p in params]
            step = sts[0]["step"]
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            _native.optim_adam(
                params, [g for _, g in bucket], [s["exp_avg"] for s in sts],
                [s["exp_avg_sq"] for s in sts],
                [s["max_exp_avg_sq"] for s in sts] if amsgrad else [],
                lr, beta1, beta2, float(group["eps"]), float(group["weight_decay"]), amsgrad,
                bool(group["maximize"]), bool(group["decoupled_weight_decay"]),
                lr / bias_correction1, bias_correction2 ** 0.5)
            self._bump(params)


class AdamW(Adam):
    """AdamW: Adam with decoupled weight decay (p *= 1 - lr * weight_decay before the Adam
    update), weight_decay 0.01 by default, as PyTorch's `torch.optim.AdamW`.

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0]); w.requires_grad_()
        >>> opt = ac.optim.AdamW([w], lr=0.1, weight_decay=0.5)
        >>> w.grad = ac.asarray([1.0]); opt.step()
        >>> round(w.tolist()[0], 6)
        0.85
    """

    _who = "optim.AdamW"
    _decoupled_default = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize,
                         decoupled_weight_decay=True)
