"""L4: padding layers (torch.nn's ZeroPad / ConstantPad / ReflectionPad / ReplicationPad /
CircularPad for 1-3 spatial axes), each a call of nn.functional.pad."""

from __future__ import annotations

from .. import functional as F
from .module import Module

__all__ = ["ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "CircularPad1d",
           "CircularPad2d", "CircularPad3d"]


def _expand(padding, n):
    if isinstance(padding, int):
        return (padding,) * (2 * n)
    padding = tuple(int(p) for p in padding)
    if len(padding) != 2 * n:
        raise ValueError(f"padding must be an int or a tuple of {2 * n} ints, got {padding}")
    return padding


class _Pad(Module):
    _mode = "constant"
    _n = 1

    def __init__(self, padding, value=None):
        super().__init__()
        self.padding = _expand(padding, self._n)
        self.value = value

    def forward(self, input):
        if self._mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        if self._mode == "constant" and self.value is not None:
            return f"padding={self.padding}, value={self.value}"
        return f"{self.padding}"


def _make(name, mode, n, constant_kind=None):
    doc = (f"Pads the last {n} axes ({mode}) (torch.nn.{name}).\n\n"
           f"    >>> import arraycore as ac\n"
           f"    >>> ac.nn.{name}(1{', 0.0' if constant_kind == 'value' else ''})"
           f"(ac.ones((1, 2) + (3,) * {n})).shape\n"
           f"    {(1, 2) + (5,) * n}\n")
    attrs = {"_mode": mode, "_n": n, "__doc__": doc}
    if constant_kind == "zero":
        def __init__(self, padding):
            _Pad.__init__(self, padding, 0.0)
        attrs["__init__"] = __init__
        attrs["extra_repr"] = lambda self: f"{self.padding}"
    elif constant_kind == "value":
        def __init__(self, padding, value):
            _Pad.__init__(self, padding, value)
        attrs["__init__"] = __init__
    else:
        def __init__(self, padding):
            _Pad.__init__(self, padding)
        attrs["__init__"] = __init__
    return type(name, (_Pad,), attrs)


ZeroPad1d = _make("ZeroPad1d", "constant", 1, "zero")
ZeroPad2d = _make("ZeroPad2d", "constant", 2, "zero")
ZeroPad3d = _make("ZeroPad3d", "constant", 3, "zero")
ConstantPad1d = _make("ConstantPad1d", "constant", 1, "value")
ConstantPad2d = _make("ConstantPad2d", "constant", 2, "value")
ConstantPad3d = _make("ConstantPad3d", "constant", 3, "value")
ReflectionPad1d = _make("ReflectionPad1d", "reflect", 1)
ReflectionPad2d = _make("ReflectionPad2d", "reflect", 2)
ReflectionPad3d = _make("ReflectionPad3d", "reflect", 3)
ReplicationPad1d = _make("ReplicationPad1d", "replicate", 1)
ReplicationPad2d = _make("ReplicationPad2d", "replicate", 2)
ReplicationPad3d = _make("ReplicationPad3d", "replicate", 3)
CircularPad1d = _make("CircularPad1d", "circular", 1)
CircularPad2d = _make("CircularPad2d", "circular", 2)
CircularPad3d = _make("CircularPad3d", "circular", 3)
for _cls in (ZeroPad1d, ZeroPad2d, ZeroPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
             ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d,
             ReplicationPad2d, ReplicationPad3d, CircularPad1d, CircularPad2d, CircularPad3d):
    _cls.__module__ = __name__
del _cls
