"""L4: `ac.nn.utils` (torch.nn.utils): gradient clipping, parameter/vector conversion,
parametrizations, and per-example gradients (beyond PyTorch).

>>> import arraycore as ac
>>> p = ac.nn.Parameter(ac.ones(3, dtype=ac.float32)); ac.sum(p * 4).backward()
>>> float(ac.nn.utils.clip_grad_norm_([p], 1.0)) > 1
True
"""

from . import parametrize, parametrizations  # noqa: F401
from .clip_grad import (clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_,  # noqa: F401
                        get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from .per_sample import per_sample_grads  # noqa: F401
from . import stateless  # noqa: F401

__all__ = ["parametrize", "parametrizations", "clip_grad_norm_", "clip_grad_value_",
           "clip_grads_with_norm_", "get_total_norm", "parameters_to_vector",
           "vector_to_parameters", "per_sample_grads", "stateless"]
