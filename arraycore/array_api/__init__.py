"""L2: the Array API 2025.12 namespace (validate -> promote -> broadcast -> kernels).

`import arraycore as ac` re-exports everything here; `x.__array_namespace__()` returns it.
"""

import math as _math

from .._core.dtypes import (bool_ as bool, complex64, complex128, float32, float64, int8,  # noqa: A004
                            int16, int32, int64, uint8, uint16, uint32, uint64)
from ._creation import *  # noqa: F401,F403
from ._creation import __all__ as _creation_all
from ._data_types import *  # noqa: F401,F403
from ._data_types import __all__ as _data_types_all
from ._elementwise import *  # noqa: F401,F403
from ._elementwise import __all__ as _elementwise_all
from ._info import __array_namespace_info__

# Families of the full standard: each module exports its public names in __all__.
from . import (_indexing_functions, _linear_algebra, _manipulation, _searching, _sets,  # noqa: E402
               _sorting, _statistics, _utility)
_FAMILIES = (_indexing_functions, _linear_algebra, _manipulation, _searching, _sets, _sorting,
             _statistics, _utility)
for _family in _FAMILIES:
    globals().update({_name: getattr(_family, _name) for _name in _family.__all__})

e = _math.e
inf = _math.inf
nan = _math.nan
pi = _math.pi
newaxis = None

__all__ = (["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
            "float32", "float64", "complex64", "complex128", "e", "inf", "nan", "pi",
            "newaxis", "__array_namespace_info__"]
           + _creation_all + _data_types_all + _elementwise_all
           + [_name for _family in _FAMILIES for _name in _family.__all__])
