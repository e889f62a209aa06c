"""Adagrad (Duchi, Hazan & Singer 2011; PyTorch's `torch.optim.Adagrad`)."""

from __future__ import annotations

from ..native import _native
from ._checks import check_lr, check_nonneg
from .optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad, PyTorch's update: clr = lr / (1 + (t - 1) lr_decay); s += g^2;
    p -= clr g / (sqrt(s) + eps).  The sum starts at `initial_accumulator_value`; the state
    is created with the optimizer, as in PyTorch.

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0]); w.requires_grad_()
        >>> opt = ac.optim.Adagrad([w], lr=0.1)
        >>> w.grad = ac.asarray([2.0]); opt.step()
        >>> round(w.tolist()[0], 6)
        0.9
    """

    _who = "optim.Adagrad"

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0,
                 initial_accumulator_value=0.0, eps=1e-10, *, maximize=False):
        defaults = dict(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, eps=eps,
                        maximize=maximize)
        super().__init__(params, defaults)

    def _check_group(self, g):
        check_lr(self._who, g["lr"])
        check_nonneg(self._who, "lr_decay", g["lr_decay"])
        check_nonneg(self._who, "weight_decay", g["weight_decay"])
        check_nonneg(self._who, "initial_accumulator_value", g["initial_accumulator_value"],
                     "initial_accumulator_value")
        check_nonneg(self._who, "eps", g["eps"], "epsilon")

    def _init_group_state(self, group):
        import arraycore as ac
        for p in group["params"]:
            st = self.state.setdefault_dict(p)
            st["step"] = 0.0
            st["sum"] = ac.full(p.shape, group["initial_accumulator_value"], dtype=p.dtype)

    def _step_group(self, group):
        pg = self._params_with_grads(group)
        if not pg:
            return
        for p, _ in pg:
            self.state[p]["step"] += 1.0
        lr, lr_decay = float(group["lr"]), float(group["lr_decay"])
        state = self.state
        for bucket in self._buckets(pg, lambda it: (it[0]._dtype_code, state[it[0]]["step"])):
            params = [p for p, _ in bucket]
            sts = [state[p] for p in params]
            clr = lr / (1 + (sts[0]["step"] - 1) * lr_decay)
            _native.optim_adagrad(params, [g for _, g in bucket], [s["sum"] for s in sts], clr,
                                  float(group["eps"]), float(group["weight_decay"]),
                                  bool(group["maximize"]))
            self._bump(params)
