"""L4: the layers of `ac.nn` (one file per topic; each helper adds its own import line).

Every name a topic module lists in `__all__` is re-exported here and from `ac.nn`.
"""

from .module import *  # noqa: F401,F403
from .module import __all__ as _module_all
from .container import *  # noqa: F401,F403
from .container import __all__ as _container_all
from .rnn import *  # noqa: F401,F403
from .rnn import __all__ as _rnn_all
from .attention import *  # noqa: F401,F403
from .attention import __all__ as _attention_all
from .transformer import *  # noqa: F401,F403
from .transformer import __all__ as _transformer_all

from .activation import *  # noqa: F401,F403
from .activation import __all__ as _activation_all
from .batchnorm import *  # noqa: F401,F403
from .batchnorm import __all__ as _batchnorm_all
from .dropout import *  # noqa: F401,F403
from .dropout import __all__ as _dropout_all
from .flatten import *  # noqa: F401,F403
from .flatten import __all__ as _flatten_all
from .instancenorm import *  # noqa: F401,F403
from .instancenorm import __all__ as _instancenorm_all
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
from .upsampling import *  # noqa: F401,F403
from .upsampling import __all__ as _upsampling_all
from .conv import *  # noqa: F401,F403
from .conv import __all__ as _conv_all
from .pooling import *  # noqa: F401,F403
from .pooling import __all__ as _pooling_all

__all__ = list(_module_all) + list(_container_all) + \
    list(_activation_all) + \
    list(_batchnorm_all) + \
    list(_dropout_all) + \
    list(_flatten_all) + \
    list(_instancenorm_all) + \
    list(_linear_all) + \
    list(_loss_all) + \
    list(_normalization_all) + \
    list(_padding_all) + \
    list(_sparse_all) + \
    list(_upsampling_all) + \
    list(_conv_all) + \
    list(_pooling_all) + \
    list(_rnn_all) + \
    list(_attention_all) + \
    list(_transformer_all)
