"""SGD with momentum, dampening, Nesterov momentum, weight decay and maximize (PyTorch's
`torch.optim.SGD`; Sutskever et al. 2013 for the Nesterov form)."""

from __future__ import annotations

from ..native import _native
from ._checks import check_lr, check_nonneg
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent, PyTorch's update:
    g = grad + weight_decay * p; buf = momentum * buf + (1 - dampening) * g (buf = g on the
    first step); g = g + momentum * buf (nesterov) or buf; p -= lr * g.

    Example:
        >>> import arraycore as ac
        >>> w = ac.asarray([1.0, 2.0]); w.requires_grad_()
        >>> opt = ac.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> w.grad = ac.asarray([1.0, 1.0]); opt.step()
        >>> w.grad = ac.asarray([1.0, 1.0]); opt.step()
        >>> [round(v, 6) for v in w.tolist()]
        [0.71, 1.71]
    """

    _who = "optim.SGD"

    def __init__(self, params, lr=1e-3, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, *, maximize=False):
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize)
        super().__init__(params, defaults)

    def _check_group(self, g):
        check_lr(self._who, g["lr"])
        check_nonneg(self._who, "momentum", g["momentum"])
        check_nonneg(self._who, "weight_decay", g["weight_decay"])
        if g["nesterov"] and (g["momentum"] <= 0 or g["dampening"] != 0):
            raise ValueError(f"{self._who}: Nesterov momentum requires a momentum and zero "
                             "dampening")

    def _step_group(self, group):
        pg = self._params_with_grads(group)
        if not pg:
            return
        momentum = float(group["momentum"])
        for bucket in self._buckets(pg, lambda it: it[0]._dtype_code):
            params = [p for p, _ in bucket]
            bufs, first = [], []
            if momentum != 0:
                for p in params:
                    st = self.state.setdefault_dict(p)
                    buf = st.get("momentum_buffer")
                    first.append(buf is None)
                    if buf is None:
                        buf = st["momentum_buffer"] = self._zeros(p)
                    bufs.append(buf)
            _native.optim_sgd(params, [g for _, g in bucket], bufs, first, float(group["lr"]),
                              momentum, float(group["dampening"]),
                              float(group["weight_decay"]), bool(group["nesterov"]),
                              bool(group["maximize"]))
            self._bump(params)
