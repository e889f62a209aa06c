"""Optimizers (`ac.optim`), PyTorch's `torch.optim` for arraycore arrays.

Every update is one native multi-tensor kernel call per param group (and dtype): the whole
update of each element in one fused pass over the group's buffers, with no per-element Python
and no per-parameter temporaries (Note [Multi-tensor optimizer steps] in
arraycore/native/src/kernels/optim_lists.cpp; docs/nn_optim.md).

Example:
    >>> import arraycore as ac
    >>> w = ac.asarray([3.0, -2.0]); w.requires_grad_()
    >>> opt = ac.optim.Adam([w], lr=0.1)
    >>> for _ in range(200):
    ...     opt.zero_grad()
    ...     loss = (w * w).sum()
    ...     loss.backward()
    ...     opt.step()
    >>> bool(abs(w).max() < 0.05)
    True
"""

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .dpsgd import DPSGD, RDPAccountant
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam",
           "RAdam", "LBFGS", "DPSGD", "RDPAccountant", "lr_scheduler"]
