"""L4: `ac.nn.functional` (torch.nn.functional): the stateless forms of the layers.

One file per topic (`linear.py`, `activation.py`, `conv.py`, ...); this module re-exports
each topic module's `__all__`.  To add a topic, add two lines:

    from .<topic> import *  # noqa: F401,F403
    from .<topic> import __all__ as _<topic>_all

and `+ list(_<topic>_all)` to `__all__` below.
"""

from .activation import *  # noqa: F401,F403
from .activation import __all__ as _activation_all
from .dropout import *  # noqa: F401,F403
from .dropout import __all__ as _dropout_all
from .interpolation import *  # noqa: F401,F403
from .interpolation import __all__ as _interpolation_all
from .linear import *  # noqa: F401,F403
from .linear import __all__ as _linear_all
from .loss import *  # noqa: F401,F403
from .loss import __all__ as _loss_all
from .normalization import *  # noqa: F401,F403
from .normalization import __all__ as _normalization_all
from .padding import *  # noqa: F401,F403
from .padding import __all__ as _padding_all
from .sparse import *  # noqa: F401,F403
from .sparse import __all__ as _sparse_all
from .conv import *  # noqa: F401,F403
from .conv import __all__ as _conv_all
from .pooling import *  # noqa: F401,F403
from .pooling import __all__ as _pooling_all
from .attention import *  # noqa: F401,F403
from .attention import __all__ as _attention_all

__all__: list[str] = [] + list(_activation_all) + list(_dropout_all) + \
    list(_interpolation_all) + list(_linear_all) + list(_loss_all) + \
    list(_normalization_all) + list(_padding_all) + list(_sparse_all) + \
    list(_conv_all) + list(_pooling_all) + list(_attention_all)
