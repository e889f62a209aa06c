"""L2: the inspection API, `ac.__array_namespace_info__()`."""

from __future__ import annotations

from .._core import dtypes as _dt
from .._core.device import CPU, as_device

__all__ = ["__array_namespace_info__"]

_KINDS = _dt.STANDARD_KINDS


class Info:
    """What this arraycore build supports (Array API inspection namespace)."""

    __module__ = "arraycore"

    def capabilities(self):
        # Boolean-mask indexing and data-dependent output shapes (nonzero, unique_*) are both
        # supported.
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self):
        return CPU

    def devices(self):
        return (CPU,)

    def default_dtypes(self, *, device=None):
        as_device(device, "default_dtypes")
        return {"real floating": _dt.default_float, "complex floating": _dt.default_complex,
                "integral": _dt.default_int, "indexing": _dt.default_index}

    def dtypes(self, *, device=None, kind=None):
        as_device(device, "dtypes")
        if kind is None:
            return {d.name: d for d in _dt.ALL_DTYPES}
        kinds = kind if isinstance(kind, tuple) else (kind,)
        letters = ""
        for k in kinds:
            if k not in _KINDS:
                raise ValueError(f"dtypes: unknown kind {k!r}")
            letters += _KINDS[k]
        return {d.name: d for d in _dt.ALL_DTYPES if d.kind in letters}


_INFO = Info()


def __array_namespace_info__():
    """The inspection namespace.  >>> ac.__array_namespace_info__().default_dtypes()"""
    return _INFO
