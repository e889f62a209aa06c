"""L4: the layers of `ac.nn` (one file per topic; each helper adds its own import line).

Every name a topic module lists in `__all__` is re-exported here and from `ac.nn`.
"""

from .module import *  # noqa: F401,F403
from .module import __all__ as _module_all
from .container import *  # noqa: F401,F403
from .container import __all__ as _container_all

__all__ = list(_module_all) + list(_container_all)
