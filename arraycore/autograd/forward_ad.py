"""arraycore.autograd.forward_ad: forward-mode duals (see arraycore/autodiff/forward_ad.py)."""

from ..autodiff.forward_ad import (UnpackedDualTensor, dual_level, enter_dual_level,  # noqa: F401
                                   exit_dual_level, make_dual, unpack_dual)

__all__ = ["dual_level", "make_dual", "unpack_dual", "enter_dual_level", "exit_dual_level",
           "UnpackedDualTensor"]
