"""L4: containers of modules and parameters (torch.nn's Sequential, ModuleList, ModuleDict,
ParameterList, ParameterDict).  Entries are registered under their index or key, so they
appear in `named_parameters` / `state_dict` as `"0.weight"`, `"blocks.3.bias"`, as in
PyTorch."""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Mapping
from itertools import chain, islice
from typing import Any, Iterable, Iterator

from ...native import _native
from ...autodiff.tracer import Tracer
from ..parameter import Parameter, is_parameter
from .module import Module, _addindent

Array = _native.Array

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _index(idx, n, who):
    """A non-negative index from an int-like `idx` into a container of length n."""
    try:
        i = operator.index(idx)
    except TypeError:
        raise TypeError(f"{who} indices must be integers or slices, not "
                        f"{type(idx).__name__}") from None
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of range for {who} of length {n}")
    return i + n if i < 0 else i


class Sequential(Module):
    """Modules run one after another: `Sequential(m1, m2, ...)` or
    `Sequential(OrderedDict(name=module, ...))`; `forward(x)` is `...m2(m1(x))`.

    Indexing gives a module, slicing a new Sequential of the same entries; `len`, iteration,
    `append`, `insert`, `extend`, `pop`, `del seq[i]` and `+` work as in PyTorch.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Scale(nn.Module):
    ...     def __init__(self, c):
    ...         super().__init__(); self.c = c
    ...     def forward(self, x):
    ...         return x * self.c
    >>> seq = nn.Sequential(Scale(2.0), Scale(3.0))
    >>> seq(ac.ones(2))
    Array([6., 6.], dtype=float64)
    >>> len(seq), type(seq[1:]).__name__
    (2, 'Sequential')
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator, idx):
        n = len(self)
        i = _index(idx, n, type(self).__name__)
        return next(islice(iterator, i, None))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(iter(self._modules.values()), idx)

    def __setitem__(self, idx, module) -> None:
        key = self._get_item_by_idx(iter(self._modules.keys()), idx)
        setattr(self, key, module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            key = self._get_item_by_idx(iter(self._modules.keys()), idx)
            delattr(self, key)
        # keys become 0..n-1 again (PyTorch renumbers every key, named ones included)
        mods = list(self._modules.values())
        self._modules.clear()
        for i, m in enumerate(mods):
            self._modules[str(i)] = m

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __add__(self, other: "Sequential") -> "Sequential":
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other).__name__} is given.")
        out = Sequential()
        for m in chain(self, other):
            out.append(m)
        return out

    def __iadd__(self, other: "Sequential") -> "Sequential":
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other).__name__} is given.")
        for m in list(other):
            self.append(m)
        return self

    def __mul__(self, other: int) -> "Sequential":
        if not isinstance(other, int) or other <= 0:
            raise ValueError(f"Sequential * n needs a positive int, got {other!r}")
        out = Sequential()
        for _ in range(other):
            for m in self:
                out.append(m)
        return out

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, module: Module) -> "Sequential":
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> "Sequential":
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(mods):
            self._modules[str(i)] = m
        return self

    def extend(self, sequential: Iterable[Module]) -> "Sequential":
        for m in sequential:
            self.append(m)
        return self

    def pop(self, key=-1) -> Module:
        v = self[key]
        del self[key]
        return v

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(Module):
    """A list of modules registered as `"0"`, `"1"`, ...: indexing, slicing (a ModuleList),
    `append`, `extend`, `insert`, `pop`, `del`, `+`, `+=`, `len`, iteration.

    >>> from arraycore import nn
    >>> blocks = nn.ModuleList([nn.Sequential() for _ in range(3)])
    >>> len(blocks), [name for name, _ in blocks.named_children()]
    (3, ['0', '1', '2'])
    """

    def __init__(self, modules: Iterable[Module] | None = None):
        super().__init__()
        if modules is not None:
            self += modules

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self), "ModuleList"))]

    def __setitem__(self, idx, module) -> None:
        setattr(self, str(_index(idx, len(self), "ModuleList")), module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(_index(idx, len(self), "ModuleList")))
        mods = list(self._modules.values())
        self._modules.clear()
        for i, m in enumerate(mods):
            self._modules[str(i)] = m

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> "ModuleList":
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> "ModuleList":
        out = ModuleList()
        for m in chain(self, other):
            out.append(m)
        return out

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def insert(self, index: int, module: Module) -> None:
        n = len(self._modules)
        index = max(0, min(n, index + n if index < 0 else index))
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(mods):
            self.add_module(str(i), m)

    def append(self, module: Module) -> "ModuleList":
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key=-1) -> Module:
        v = self[key]
        del self[key]
        return v

    def extend(self, modules: Iterable[Module]) -> "ModuleList":
        if isinstance(modules, (Module, str)) or not hasattr(modules, "__iter__"):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        for m in list(modules):
            self.append(m)
        return self

    def __repr__(self) -> str:
        # Runs of identical entries are folded, as PyTorch prints them:
        # (0-2): 3 x Linear(...)
        entries = [repr(m) for m in self]
        if not entries:
            return type(self).__name__ + "()"
        lines = []
        start = 0
        for i in range(1, len(entries) + 1):
            if i == len(entries) or entries[i] != entries[start]:
                text = _addindent(entries[start], 2)
                if i - start == 1:
                    lines.append(f"({start}): {text}")
                else:
                    lines.append(f"({start}-{i - 1}): {i - start} x {text}")
                start = i
        return type(self).__name__ + "(" + "".join("\n  " + ln for ln in lines) + "\n)"


class ModuleDict(Module):
    """An ordered dict of modules: `md[key]`, `md[key] = m`, `del md[key]`, `in`, `len`,
    iteration over keys, `keys/items/values/update/pop/clear`.

    >>> from arraycore import nn
    >>> heads = nn.ModuleDict({"a": nn.Sequential(), "b": nn.Sequential()})
    >>> list(heads.keys())
    ['a', 'b']
    """

    def __init__(self, modules: Mapping[str, Module] | None = None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        if isinstance(modules, (OrderedDict, ModuleDict, Mapping)):
            for key, m in modules.items():
                self[key] = m
            return
        for j, item in enumerate(modules):
            if not hasattr(item, "__len__") or len(item) != 2:
                raise ValueError(f"ModuleDict update sequence element #{j} should be a "
                                 "(key, module) pair")
            self[item[0]] = item[1]


def _as_parameter(value):
    """Arrays stored in a ParameterList/Dict become Parameters (as in PyTorch)."""
    if isinstance(value, Array) and not is_parameter(value):
        return Parameter(value)
    return value


def _param_repr(p) -> str:
    if isinstance(p, (Array, Tracer)):
        kind = "Parameter" if is_parameter(p) else "Array"
        size = "x".join(str(s) for s in p.shape)
        return f"{kind} containing: [{p.dtype} of size {size}]"
    return "Object of type: " + type(p).__name__


class ParameterList(Module):
    """A list of parameters registered as `"0"`, `"1"`, ...; arrays appended are made
    Parameters.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> pl = nn.ParameterList([ac.zeros(3, dtype=ac.float32) for _ in range(2)])
    >>> [name for name, _ in pl.named_parameters()]
    ['0', '1']
    """

    def __init__(self, values: Iterable[Any] | None = None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = ParameterList()
            for i in range(self._size)[idx]:
                out.append(self[i])
            return out
        return getattr(self, str(_index(idx, self._size, "ParameterList")))

    def __setitem__(self, idx, param) -> None:
        i = _index(idx, self._size, "ParameterList")
        setattr(self, str(i), _as_parameter(param))

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(self._size))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, value) -> "ParameterList":
        new_idx = self._size
        self._size += 1
        setattr(self, str(new_idx), _as_parameter(value))
        return self

    def extend(self, values) -> "ParameterList":
        if isinstance(values, (Array, Tracer)) or not hasattr(values, "__iter__"):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for v in list(values):
            self.append(v)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({i}): {_param_repr(p)}" for i, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """An ordered dict of parameters; arrays stored are made Parameters.  `pd[key]`,
    `pd[key] = p`, `del`, `in`, `len`, iteration over keys, `keys/items/values/update/
    pop/get/setdefault/clear/popitem/copy/fromkeys`.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> pd = nn.ParameterDict({"scale": ac.ones(2, dtype=ac.float32)})
    >>> [name for name, _ in pd.named_parameters()]
    ['scale']
    """

    def __init__(self, parameters: Any = None):
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError("ParameterDict keys must be strings, got "
                            f"{type(key).__name__}")
        return key

    def __getitem__(self, key: str):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self):
        return reversed(list(self._keys))

    def __contains__(self, key) -> bool:
        return key in self._keys

    def __or__(self, other: "ParameterDict") -> "ParameterDict":
        out = self.copy()
        out.update(other)
        return out

    def __ior__(self, other) -> "ParameterDict":
        self.update(other)
        return self

    def copy(self) -> "ParameterDict":
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        for k in list(self._keys):
            del self[k]

    def pop(self, key: str):
        v = self[key]
        del self[key]
        return v

    def popitem(self):
        k = list(self._keys)[-1]
        v = self[k]
        del self[k]
        return k, v

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys: Iterable[str], default=None) -> "ParameterDict":
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def update(self, parameters) -> None:
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            items = list(parameters.items())
        elif isinstance(parameters, Mapping):
            items = sorted(parameters.items()) if not isinstance(parameters, dict) else \
                list(parameters.items())
        else:
            items = []
            for j, item in enumerate(parameters):
                if not hasattr(item, "__len__") or len(item) != 2:
                    raise ValueError(f"ParameterDict update sequence element #{j} should be "
                                     "a (key, value) pair")
                items.append((item[0], item[1]))
        for k, v in items:
            self[k] = v

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): {_param_repr(p)}" for k, p in self.items())

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterDict should not be called.")
