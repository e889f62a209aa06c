"""L4: `ac.nn`, PyTorch's `torch.nn` on arraycore: `Module`, `Parameter`, containers,
layers (`ac.nn.modules`), `ac.nn.functional`, `ac.nn.init`, `ac.nn.utils`.

Layers compute with the namespace's ops, so their parameters (tape leaves) record on the
tape and the same forward runs under `ac.func` transforms (`ac.func.functional_call`).
See docs/nn.md.

>>> import arraycore as ac
>>> from arraycore import nn
>>> class Affine(nn.Module):
...     def __init__(self):
...         super().__init__()
...         self.w = nn.Parameter(ac.ones((2, 2), dtype=ac.float32))
...     def forward(self, x):
...         return x @ self.w
>>> nn.Sequential(Affine(), Affine())
Sequential(
  (0): Affine()
  (1): Affine()
)
"""

from .parameter import Buffer, Parameter, is_parameter  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from . import functional  # noqa: F401
from . import init  # noqa: F401
from . import utils  # noqa: F401

__all__ = ["Parameter", "Buffer", "functional", "init", "utils"] + list(_modules_all)
