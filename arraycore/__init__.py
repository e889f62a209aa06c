"""arraycore: a native array engine with the Python Array API standard as its face.

    >>> import arraycore as ac
    >>> x = ac.linspace(0, 1, 5)
    >>> ac.exp(x) * 2 + x

This module *is* the Array API namespace (`x.__array_namespace__() is arraycore`).  Layers:
arraycore.native (C++ engine) < arraycore._core (dtypes, op table, array object) <
arraycore.array_api (the standard's functions).  See docs/architecture.md.
"""

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

from .native import _native  # noqa: E402  (loads the engine and its BLAS)
from . import _core  # noqa: E402,F401
from ._core import dtypes as _dtypes  # noqa: E402
from ._core.device import CPU as _CPU, Device  # noqa: E402
from .array_api import *  # noqa: E402,F401,F403
from .array_api import __all__ as _api_all  # noqa: E402
from .array_api import __array_namespace_info__  # noqa: E402,F401
from .array_api._creation import ascontiguousarray  # noqa: E402  (NumPy-compatible extra)
from . import linalg  # noqa: E402  (the linalg extension; before install_namespace sees it)
from . import fft  # noqa: E402  (the fft extension: ac.fft)
from . import special  # noqa: E402  (special functions: ac.special, SciPy's names)
from . import _nn_ops  # noqa: E402,F401  (conv/pool primitives of ac.nn.functional)
from ._einsum import einsum  # noqa: E402  (NumPy/PyTorch/JAX extra: a composite of namespace ops)

Array = _native.Array
_native._register_python_objects(list(_dtypes.ALL_DTYPES), _CPU)

import sys as _sys  # noqa: E402

from ._core import array_methods as _array_methods  # noqa: E402
from . import autodiff as _autodiff  # noqa: E402

_autodiff.install_namespace(_sys.modules[__name__])
linalg._share_main_namespace_functions(_sys.modules[__name__])
special._install_aliases(_sys.modules[__name__])
_array_methods.install(_sys.modules[__name__])
_autodiff.install_array_methods(_sys.modules[__name__])

from ._core import array_conveniences as _array_conveniences  # noqa: E402
from .autodiff.tracer import Tracer as _Tracer  # noqa: E402

_array_conveniences.install(_sys.modules[__name__], (Array, _Tracer))

from .autodiff.grad_mode import (enable_grad, inference_mode, is_grad_enabled,  # noqa: E402
                                 no_grad, set_grad_enabled)
from . import autograd, func  # noqa: E402,F401
from . import random  # noqa: E402  (ac.random: Philox generators)
Array.__qualname__ = "Array"


def get_num_threads() -> int:
    """Threads the engine's worker pool uses (ARRAYCORE_NUM_THREADS sets the start value)."""
    return _native.get_num_threads()


def set_num_threads(n: int) -> None:
    """Sets the engine's worker pool size (1 keeps all work on the calling thread)."""
    _native.set_num_threads(n)
    _native.sync_blas_threads()  # OpenBLAS follows the pool (its idle threads spin)


def manual_seed(seed: int):
    """Reseeds the global random generator (torch.manual_seed's name for
    `ac.random.seed`); returns it.

    >>> ac.manual_seed(0); x = ac.random.normal(size=3)
    """
    return random.seed(seed)


__all__ = list(_api_all) + ["Array", "Device", "ascontiguousarray", "get_num_threads",
                            "set_num_threads", "einsum", "no_grad", "enable_grad", "set_grad_enabled",
                            "inference_mode", "is_grad_enabled", "autograd", "func", "linalg",
                            "fft", "special", "random", "manual_seed", "save", "load"]

from .serialization import load, save  # noqa: E402  (safetensors checkpoints)


# Subpackages imported on first use (`ac.nn`), so `import arraycore` does not pay for them.
# Each is also importable directly (`import arraycore.nn`, `from arraycore import nn`).
_LAZY_SUBMODULES = {"nn", "optim", "data"}


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'arraycore' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | _LAZY_SUBMODULES)
