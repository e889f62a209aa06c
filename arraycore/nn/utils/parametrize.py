"""L4: parametrizations (torch.nn.utils.parametrize): a module attribute computed from other
parameters on every access.

`register_parametrization(module, "weight", P)` moves the parameter into
`module.parametrizations.weight.original` (or `original0, original1, ...` when
`P.right_inverse` returns several arrays) and makes `module.weight` a property of a class made
for this module (`Parametrized<Name>`), whose getter runs the chain of parametrizations on the
originals.  Assigning `module.weight = X` runs the chain's `right_inverse`s backwards and
writes the result into the originals.  Inside `with cached():` each parametrized value is
computed once.  The state dict holds the originals (`parametrizations.weight.original`), as in
PyTorch; optimizers should be given `module.parameters()` after registering.
"""

from __future__ import annotations

import contextlib

from ...autodiff.grad_mode import no_grad
from ...autodiff.tracer import Tracer
from ...native import _native
from .._inplace import assign_
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter, is_parameter

Array = _native.Array

__all__ = ["register_parametrization", "remove_parametrizations", "is_parametrized", "cached",
           "ParametrizationList", "type_before_parametrizations", "transfer_parametrizations_and_params"]

_cache_depth = 0
_cache: dict = {}


@contextlib.contextmanager
def cached():
    """Within this context each parametrized attribute is computed once, on first access
    (useful when a weight is read several times in a forward, as in RNN loops).

    >>> import arraycore as ac
    >>> from arraycore.nn.utils import parametrize
    >>> with parametrize.cached():
    ...     pass
    """
    global _cache_depth
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache.clear()


def _is_array(v):
    return isinstance(v, (Array, Tracer))


def _register_original(module, name, value, as_parameter):
    if as_parameter:
        module.register_parameter(name, value if is_parameter(value) else
                                  Parameter(value, requires_grad=True))
    else:
        module.register_buffer(name, value)


class ParametrizationList(ModuleList):
    """The parametrizations of one attribute, applied in order, and the originals they are
    applied to (`original`, or `original0, original1, ...`).  Made by
    `register_parametrization`; not meant to be built directly."""

    def __init__(self, modules, original, unsafe: bool = False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = tuple(original.shape), original.dtype
        with no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not _is_array(new) and not isinstance(new, (tuple, list)):
            raise ValueError("'right_inverse' must return an array or a sequence of arrays "
                             f"(list, tuple...). Got {type(new).__name__}")
        self.is_tensor = _is_array(new)
        self.ntensors = 1 if self.is_tensor else len(new)
        as_param = is_parameter(original)
        if self.is_tensor:
            if not unsafe and (new.dtype != original_dtype):
                raise ValueError("When `right_inverse` outputs one array, it may not change "
                                 f"the dtype.\noriginal.dtype: {original_dtype}\n"
                                 f"right_inverse(original).dtype: {new.dtype}")
            if tuple(new.shape) == original_shape and new.dtype == original.dtype \
                    and new is not original:
                assign_(original, new, "register_parametrization")  # keeps the object
                new = original
            elif new is not original:
                new = Parameter(new, requires_grad=original.requires_grad) if as_param else new
            _register_original(self, "original", new, as_param)
        else:
            for i, orig_i in enumerate(new):
                if not _is_array(orig_i):
                    raise ValueError("'right_inverse' must return an array or a sequence of "
                                     f"arrays. Got element {i} of type {type(orig_i).__name__}")
                if as_param:
                    orig_i = Parameter(orig_i, requires_grad=original.requires_grad)
                _register_original(self, f"original{i}", orig_i, as_param)
        if not self.unsafe:
            z = self()
            if not _is_array(z):
                raise ValueError("A parametrization must return an array. Got "
                                 f"{type(z).__name__}.")
            if z.dtype != original_dtype:
                raise ValueError("Registering a parametrization may not change the dtype of "
                                 f"the array.\nunparametrized dtype: {original_dtype}\n"
                                 f"parametrized dtype: {z.dtype}")
            if tuple(z.shape) != original_shape:
                raise ValueError("Registering a parametrization may not change the shape of "
                                 f"the array.\nunparametrized shape: {original_shape}\n"
                                 f"parametrized shape: {tuple(z.shape)}")

    def right_inverse(self, value) -> None:
        """Writes into the originals the values whose parametrization is `value`."""
        with no_grad():
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(f"parametrization {type(module).__name__} does not "
                                       "implement right_inverse.")
            if self.is_tensor:
                if not _is_array(value):
                    raise ValueError(f"`right_inverse` should return an array. Got "
                                     f"{type(value).__name__}")
                if value.dtype != self.original.dtype or \
                        tuple(value.shape) != tuple(self.original.shape):
                    raise ValueError("The array returned by `right_inverse` has dtype "
                                     f"{value.dtype} and shape {tuple(value.shape)}, while "
                                     f"`original` has dtype {self.original.dtype} and shape "
                                     f"{tuple(self.original.shape)}")
                assign_(self.original, value, "right_inverse")
            else:
                if not isinstance(value, (list, tuple)) or len(value) != self.ntensors:
                    raise ValueError(f"'right_inverse' must return a sequence of "
                                     f"{self.ntensors} arrays. Got {type(value).__name__}")
                for i, v in enumerate(value):
                    orig = getattr(self, f"original{i}")
                    if tuple(v.shape) != tuple(orig.shape) or v.dtype != orig.dtype:
                        raise ValueError(f"Array {i} returned by `right_inverse` has dtype "
                                         f"{v.dtype} and shape {tuple(v.shape)}, while "
                                         f"`original{i}` has dtype {orig.dtype} and shape "
                                         f"{tuple(orig.shape)}")
                    assign_(orig, v, "right_inverse")

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _inject_new_class(module: Module) -> None:
    """Gives `module` a class of its own (a subclass of its class), so that properties added
    for its parametrized attributes do not affect other instances."""
    cls = module.__class__

    def getstate(self):
        raise RuntimeError("Serialization of parametrized modules is only supported through "
                           "state_dict().")

    param_cls = type(f"Parametrized{cls.__name__}", (cls,), {"__getstate__": getstate})
    param_cls.__qualname__ = param_cls.__name__
    param_cls.__module__ = cls.__module__
    module.__class__ = param_cls


def _inject_property(module: Module, tensor_name: str) -> None:
    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if _cache_depth:
            key = (id(self), tensor_name)
            value = _cache.get(key)
            if value is None:
                value = parametrization()
                _cache[key] = value
            return value
        return parametrization()

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether `module` has a parametrization (for `tensor_name`, when given)."""
    parametrizations = module.__dict__.get("_modules", {}).get("parametrizations")
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def type_before_parametrizations(module: Module) -> type:
    """The module's class before any parametrization was registered."""
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Makes `module.<tensor_name>` the output of `parametrization` applied to the stored
    original (or appends `parametrization` to the attribute's existing chain).

    `parametrization` is a Module whose `forward(X)` maps the original to the attribute; an
    optional `right_inverse(Y)` maps an attribute value back to originals (used at
    registration to initialise them from the current value, and when the attribute is
    assigned).  `unsafe=True` skips the shape/dtype consistency checks.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> from arraycore.nn.utils import parametrize
    >>> class Symmetric(nn.Module):
    ...     def forward(self, X):
    ...         return (X + X.mT) / 2
    >>> class Holder(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.weight = nn.Parameter(ac.ones((3, 3), dtype=ac.float32))
    >>> m = parametrize.register_parametrization(Holder(), "weight", Symmetric())
    >>> [n for n, _ in m.named_parameters()]
    ['parametrizations.weight.original']
    """
    if not isinstance(parametrization, Module):
        raise TypeError("register_parametrization: the parametrization must be an "
                        f"ac.nn.Module, got {type(parametrization).__name__}")
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            if not _is_array(X):
                raise ValueError(f"A parametrization must return an array. Got "
                                 f"{type(X).__name__}.")
            if X.dtype != Y.dtype:
                raise ValueError("Registering a parametrization may not change the dtype of "
                                 f"the array.\nmodule.{tensor_name}.dtype: {Y.dtype}\n"
                                 f"parametrization(module.{tensor_name}).dtype: {X.dtype}")
            if tuple(X.shape) != tuple(Y.shape):
                raise ValueError("Registering a parametrization may not change the shape of "
                                 f"the array.\nmodule.{tensor_name}.shape: {tuple(Y.shape)}\n"
                                 f"parametrization(module.{tensor_name}).shape: "
                                 f"{tuple(X.shape)}")
            if hasattr(parametrization, "right_inverse"):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    Z = None
                if Z is not None:
                    if not _is_array(Z):
                        raise ValueError("parametrization.right_inverse must return an array. "
                                         f"Got: {type(Z).__name__}")
                    if Z.dtype != Y.dtype or tuple(Z.shape) != tuple(Y.shape):
                        raise ValueError("The array returned by parametrization."
                                         "right_inverse must have the same shape and dtype "
                                         f"as module.{tensor_name}")
        plist = module.parametrizations[tensor_name]
        plist.append(parametrization)
        plist.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        if original is None:
            raise ValueError(f"register_parametrization: module.{tensor_name} is None")
        plist = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = plist
    else:
        raise ValueError(f"Module '{type(module).__name__}' does not have a parameter, a "
                         f"buffer, or a parametrized element with name '{tensor_name}'")
    return module


def remove_parametrizations(module: Module, tensor_name: str,
                            leave_parametrized: bool = True) -> Module:
    """Removes the parametrizations of `module.<tensor_name>`: the attribute becomes a plain
    parameter (or buffer) again, holding the current parametrized value
    (`leave_parametrized=True`) or the original.

    >>> # parametrize.remove_parametrizations(m, "weight")
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {type(module).__name__} does not have a parametrization on "
                         f"{tensor_name}")
    plist = module.parametrizations[tensor_name]
    if plist.is_tensor:
        original = plist.original
        as_param = is_parameter(original)
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
            if tuple(t.shape) == tuple(original.shape) and t.dtype == original.dtype:
                assign_(original, t, "remove_parametrizations")
            elif as_param:
                original = Parameter(t, requires_grad=original.requires_grad)
            else:
                original = t
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a "
                             "tensor that is parametrized in terms of a sequence of tensors.")
        with no_grad():
            t = getattr(module, tensor_name)
        orig0 = plist.original0
        as_param = is_parameter(orig0)
        original = Parameter(t, requires_grad=orig0.requires_grad) if as_param else t
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    if as_param:
        module.register_parameter(tensor_name, original)
    else:
        module.register_buffer(tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: str | None = None) -> Module:
    """Registers `from_module`'s parametrizations (all, or those of `tensor_name`) on
    `to_module`, sharing the parametrization modules, with copies of the originals' values."""
    if not is_parametrized(from_module):
        return to_module
    names = [tensor_name] if tensor_name is not None else list(from_module.parametrizations)
    for name in names:
        src = from_module.parametrizations[name]
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        for p in src:
            register_parametrization(to_module, name, p, unsafe=True)
        dst = to_module.parametrizations[name]
        with no_grad():
            if src.is_tensor:
                if dst.is_tensor:
                    assign_(dst.original, src.original, "transfer_parametrizations_and_params")
            else:
                for i in range(src.ntensors):
                    if hasattr(dst, f"original{i}"):
                        assign_(getattr(dst, f"original{i}"), getattr(src, f"original{i}"),
                                "transfer_parametrizations_and_params")
    return to_module
