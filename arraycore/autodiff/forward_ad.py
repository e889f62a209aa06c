"""L3: `arraycore.autograd.forward_ad` (PyTorch's forward-mode API): `dual_level()`,
`make_dual(primal, tangent)`, `unpack_dual(x) -> (primal, tangent)`.

A dual level is a JVP interpreter level (jvp.py) whose tracers outlive it as their primals
(PyTorch drops tangents when the level exits).  Primals may require grad: the primal and
tangent computations are recorded on the tape like any other (reverse over forward).
"""

from __future__ import annotations

from collections import namedtuple

from ..native import _native
from .jvp import JVPInterpreter, JVPTracer
from .state import STATE
from .tracer import Tracer

Array = _native.Array
UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
_LEVELS = []


class dual_level:
    """Context manager for forward AD; all dual arrays must be made inside it.

    >>> import arraycore as ac
    >>> import arraycore.autograd.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     y = ac.sin(fwAD.make_dual(x, t))
    ...     p, tangent = fwAD.unpack_dual(y)
    """

    def __enter__(self):
        if _LEVELS:
            raise RuntimeError("dual_level: nested forward AD levels are not supported; use "
                               "arraycore.func.jvp for nested forward mode")
        it = JVPInterpreter(unwrap_when_dead=True)
        it.__enter__()
        _LEVELS.append(it)
        return 0

    def __exit__(self, *exc):
        it = _LEVELS.pop()
        it.__exit__(*exc)
        return False


def enter_dual_level():
    d = dual_level()
    d.__enter__()
    return 0


def exit_dual_level(*, level=None):
    if not _LEVELS:
        raise RuntimeError("exit_dual_level: no dual level is active")
    _LEVELS[-1].__exit__(None, None, None)
    _LEVELS.pop()


def _current(who):
    if not _LEVELS:
        raise RuntimeError(f"{who}: no dual level is active; use it inside "
                           "`with forward_ad.dual_level():`")
    return _LEVELS[-1]


def make_dual(tensor, tangent, *, level=None):
    it = _current("make_dual")
    if not isinstance(tensor, (Array, Tracer)) or not isinstance(tangent, (Array, Tracer)):
        raise TypeError("make_dual: expected arrays for the primal and the tangent")
    if tensor.dtype.kind not in "fc":
        raise ValueError(f"make_dual: expected a floating-point or complex primal, got "
                         f"{tensor.dtype}")
    if tuple(tensor.shape) != tuple(tangent.shape):
        raise ValueError(f"make_dual: tangent shape {tangent.shape} does not match the "
                         f"primal's {tensor.shape}")
    if tangent.dtype != tensor.dtype:
        raise ValueError(f"make_dual: tangent dtype {tangent.dtype} does not match the "
                         f"primal's {tensor.dtype}")
    return JVPTracer(it, tensor, tangent)


def unpack_dual(tensor, *, level=None):
    if type(tensor) is Array and tensor._promoted is not None:
        # An array made inside the level that received dual values (buf[i] = dual).
        tensor = tensor._promoted
    if isinstance(tensor, JVPTracer) and tensor._interp.active and _LEVELS and \
            tensor._interp is _LEVELS[-1]:
        return UnpackedDualTensor(tensor.primal, tensor.tangent)
    if isinstance(tensor, JVPTracer) and not tensor._interp.active:
        return UnpackedDualTensor(tensor.primal, None)
    return UnpackedDualTensor(tensor, None)


__all__ = ["dual_level", "make_dual", "unpack_dual", "enter_dual_level", "exit_dual_level",
           "UnpackedDualTensor"]
_ = STATE
