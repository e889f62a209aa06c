"""L0: the C++ engine (`_native`), loaded after the BLAS/LAPACK it links against.

The extension links `libscipy_openblas.so` from the scipy-openblas32 wheel.  Loading that
library first, with RTLD_GLOBAL, lets the dynamic loader resolve the extension's dependency by
soname wherever pip put the wheel (an RPATH covers the common site-packages layout too).
"""

import ctypes
import os

import scipy_openblas32 as _openblas

_OPENBLAS_PATH = os.path.join(_openblas.get_lib_dir(), f"lib{_openblas.get_library()}.so")
_openblas_dll = ctypes.CDLL(_OPENBLAS_PATH, mode=ctypes.RTLD_GLOBAL)

from . import _native  # noqa: E402  (must follow the library load above)

__all__ = ["_native", "openblas_path"]


def openblas_path() -> str:
    """Path of the OpenBLAS library the engine uses."""
    return _OPENBLAS_PATH
