"""L4: writing values into an existing array (a parameter or buffer) without recording it.

Initialising or loading a parameter must not become part of its history: the write happens
under `no_grad` (so a leaf that requires grad may be written, as in PyTorch), straight into
the buffer, and bumps the buffer's version counter (a graph that saved the old values then
refuses to backpropagate through them, as PyTorch's does).
"""

from __future__ import annotations

from ..autodiff import versions as _versions
from ..autodiff.grad_mode import no_grad
from ..autodiff.tracer import Tracer
from ..native import _native

Array = _native.Array


def assign_(dst, src, who: str):
    """dst[...] = src (broadcast, cast to dst's dtype); returns dst."""
    if isinstance(dst, Tracer) or not isinstance(dst, Array):
        raise TypeError(f"{who}: expected an arraycore array to write into, got "
                        f"{type(dst).__name__}")
    if not isinstance(src, Array):
        from .. import asarray
        src = asarray(src)
    if not dst._writeable:
        raise ValueError(f"{who}: the array is read-only")
    with no_grad():
        dst._copy_from(src)
    _versions.bump(dst)
    return dst
