"""L4: `Module`, the base class of every layer and model (torch.nn.Module's interface).

A module owns three ordered dicts: `_parameters` (name -> Parameter or None), `_buffers`
(name -> Array or None; names in `_non_persistent_buffers_set` stay out of the state dict)
and `_modules` (name -> Module or None).  Attribute assignment sorts values into them and
attribute reads fall back to them, so `self.weight = Parameter(...)` registers and
`self.weight` reads as in PyTorch.  Layers compute with namespace ops (`ac.matmul`, ...):
their parameters are tape leaves, so the ops record on the tape, and the same forward runs
under `ac.func` transforms when `ac.func.functional_call` swaps traced values into the dicts.
"""

from __future__ import annotations

import copy as _copy
import itertools
import weakref
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Iterator

from ...native import _native
from ...autodiff.tracer import Tracer
from ...autodiff.grad_mode import no_grad
from . import _backward_hooks as _bw_hooks
from .._inplace import assign_
from ..parameter import Parameter, buffer_persistence, is_parameter

Array = _native.Array

__all__ = ["Module", "RemovableHandle", "register_module_forward_pre_hook",
           "register_module_forward_hook"]


def _is_array(v) -> bool:
    return isinstance(v, (Array, Tracer))


class RemovableHandle:
    """Returned by the `register_*_hook` methods: `handle.remove()` (or leaving a `with`
    block) unregisters the hook.

    >>> import arraycore as ac
    >>> seq = ac.nn.Sequential()
    >>> h = seq.register_forward_hook(lambda m, args, out: print("called"))
    >>> _ = seq(1)
    called
    >>> h.remove()
    >>> _ = seq(1)
    """

    _next_id = itertools.count()

    def __init__(self, hooks_dict: dict, *, extra_dicts=()):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._next_id)
        self.extra_dict_refs = tuple(weakref.ref(d) for d in extra_dicts)

    def remove(self) -> None:
        d = self.hooks_dict_ref()
        if d is not None:
            d.pop(self.id, None)
        for ref in self.extra_dict_refs:
            d = ref()
            if d is not None:
                d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


# Hooks that run for every module (torch.nn.modules.module.register_module_forward_*_hook).
_global_forward_pre_hooks: dict = OrderedDict()
_global_forward_hooks: dict = OrderedDict()
_global_forward_hooks_always_called: dict = OrderedDict()


def register_module_forward_pre_hook(hook: Callable) -> RemovableHandle:
    """A forward pre-hook `hook(module, args)` run before every module's own pre-hooks."""
    h = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[h.id] = hook
    return h


def register_module_forward_hook(hook: Callable, *, always_call: bool = False) -> RemovableHandle:
    """A forward hook `hook(module, args, output)` run after every module's forward, before
    the module's own forward hooks."""
    h = RemovableHandle(_global_forward_hooks, extra_dicts=(_global_forward_hooks_always_called,))
    _global_forward_hooks[h.id] = hook
    if always_call:
        _global_forward_hooks_always_called[h.id] = True
    return h


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What `load_state_dict` returns (torch's `_IncompatibleKeys`)."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


# While load_state_dict runs, `_load_from_state_dict` (also when a subclass overrides it and
# calls super) queues its writes here; they are applied only when every key checked out, so
# a failed load leaves the module unchanged.
_PENDING_LOAD_WRITES: list | None = None


def _as_loadable(value, key):
    """A state-dict entry as an arraycore array (NumPy arrays, torch tensors and other
    DLPack/buffer objects are converted; they are copied into the module later)."""
    if isinstance(value, Array):
        return value
    if isinstance(value, Tracer):
        raise TypeError(f"load_state_dict: the value for key '{key}' is a traced value; "
                        "load concrete arrays")
    from ... import asarray
    try:
        return asarray(value)
    except Exception as e:  # noqa: BLE001 (re-raised with the key)
        raise TypeError(f"load_state_dict: the value for key '{key}' is not an array "
                        f"({type(value).__name__}): {e}") from e


def _copy_into(dst: Array, src: Array) -> None:
    """dst[...] = src without recording (a parameter is a tape leaf), bumping dst's version."""
    assign_(dst, src, "load_state_dict")


class Module:
    """Base class of layers and models (torch.nn.Module).

    Subclasses assign parameters, buffers and submodules as attributes in `__init__` (after
    `super().__init__()`) and define `forward`; calling the module runs the forward hooks
    around `forward`.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Affine(nn.Module):
    ...     def __init__(self, n_in, n_out):
    ...         super().__init__()
    ...         self.weight = nn.Parameter(ac.ones((n_out, n_in), dtype=ac.float32))
    ...         self.bias = nn.Parameter(ac.zeros(n_out, dtype=ac.float32))
    ...     def forward(self, x):
    ...         return x @ self.weight.T + self.bias
    >>> m = Affine(3, 2)
    >>> [name for name, _ in m.named_parameters()]
    ['weight', 'bias']
    >>> ac.sum(m(ac.ones((4, 3), dtype=ac.float32))).backward()
    >>> m.weight.grad.shape
    (2, 3)
    """

    training: bool
    _version: int = 1
    # Note [Modules that mix examples]: a module class whose forward in training mode combines
    # different examples of the batch (BatchNorm's batch statistics) sets this to True.
    # `ac.nn.utils.per_sample_grads` (and DP-SGD) refuse such a module in training mode:
    # per-example gradients are not defined when one example's output depends on the others.
    _mixes_examples_in_training: bool = False

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got unexpected arguments; "
                            "Module.__init__ takes none")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_pre_hooks_with_kwargs"] = OrderedDict()
        d["_forward_hooks"] = OrderedDict()
        d["_forward_hooks_with_kwargs"] = OrderedDict()
        d["_forward_hooks_always_called"] = OrderedDict()
        d["_backward_hooks"] = OrderedDict()
        d["_backward_pre_hooks"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()

    # --- forward ----------------------------------------------------------------------------

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or _global_forward_pre_hooks
                or _global_forward_hooks or self._backward_hooks or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        for hid, hook in itertools.chain(_global_forward_pre_hooks.items(),
                                         self._forward_pre_hooks.items()):
            if hid in self._forward_pre_hooks_with_kwargs:
                res = hook(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("forward pre-hook registered with with_kwargs=True "
                                           f"must return None or a tuple (args, kwargs), got "
                                           f"{type(res).__name__}")
                    args, kwargs = res
            else:
                res = hook(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        called = set()
        bw = None
        if (self._backward_hooks or self._backward_pre_hooks) and _bw_hooks.active():
            bw = _bw_hooks.BackwardHookState(self, len(args))
            args = bw.wrap_inputs(args)
        try:
            out = self.forward(*args, **kwargs)
            for hid, hook in itertools.chain(_global_forward_hooks.items(),
                                             self._forward_hooks.items()):
                called.add(hid)
                if hid in self._forward_hooks_with_kwargs:
                    res = hook(self, args, kwargs, out)
                else:
                    res = hook(self, args, out)
                if res is not None:
                    out = res
            if bw is not None:
                out = bw.wrap_outputs(out)
        except Exception:
            # always_call hooks run even when forward (or an earlier hook) raised
            for hid, hook in itertools.chain(_global_forward_hooks.items(),
                                             self._forward_hooks.items()):
                if hid in called or not (hid in self._forward_hooks_always_called or
                                         hid in _global_forward_hooks_always_called):
                    continue
                try:
                    if hid in self._forward_hooks_with_kwargs:
                        hook(self, args, kwargs, None)
                    else:
                        hook(self, args, None)
                except Exception:  # noqa: BLE001 (the original error is the one to see)
                    pass
            raise
        return out

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """`hook(module, args) -> None | new args` runs before `forward` (with
        `with_kwargs=True`: `hook(module, args, kwargs) -> None | (args, kwargs)`); a single
        returned value is wrapped in a tuple.  `prepend=True` runs it before earlier hooks."""
        h = RemovableHandle(self._forward_pre_hooks,
                            extra_dicts=(self._forward_pre_hooks_with_kwargs,))
        self._forward_pre_hooks[h.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[h.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(h.id, last=False)
        return h

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """`hook(module, args, output) -> None | new output` runs after `forward` (with
        `with_kwargs=True`: `hook(module, args, kwargs, output)`); `always_call=True` runs it
        (with output None) even when forward raises."""
        h = RemovableHandle(self._forward_hooks, extra_dicts=(
            self._forward_hooks_with_kwargs, self._forward_hooks_always_called))
        self._forward_hooks[h.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[h.id] = True
        if always_call:
            self._forward_hooks_always_called[h.id] = True
        if prepend:
            self._forward_hooks.move_to_end(h.id, last=False)
        return h

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False
                                    ) -> RemovableHandle:
        """`hook(module, grad_input, grad_output) -> None | new grad_input` runs when the
        gradients of the module's inputs are computed on the tape (grad_input: one entry per
        positional argument, None for those without a gradient; grad_output: one per array
        output).  The module's inputs and outputs pass through identity nodes to observe
        this, as in PyTorch.

        >>> import arraycore as ac
        >>> class Double(ac.nn.Module):
        ...     def forward(self, x):
        ...         return x * 2
        >>> m = Double()
        >>> h = m.register_full_backward_hook(lambda mod, gi, go: print(gi[0], go[0]))
        >>> x = ac.ones(2); x.requires_grad_()
        >>> ac.sum(m(x)).backward()
        [2. 2.] [1. 1.]
        """
        h = RemovableHandle(self._backward_hooks)
        self._backward_hooks[h.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(h.id, last=False)
        return h

    def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False
                                        ) -> RemovableHandle:
        """`hook(module, grad_output) -> None | new grad_output` runs when the gradients of
        the module's outputs are known on the tape, before those of its inputs."""
        h = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[h.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(h.id, last=False)
        return h

    # --- registration -----------------------------------------------------------------------

    def _check_name(self, name, kind):
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string, got {type(name).__name__}")
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain ".", got: {name}')

    def register_parameter(self, name: str, param) -> None:
        """Registers `param` (a Parameter, or None for an absent one) as `self.<name>`."""
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
            return
        if not is_parameter(param):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter "
                            f"'{name}' (ac.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        """Registers an array that is state but not a parameter (BatchNorm's running mean);
        `persistent=False` keeps it out of `state_dict`."""
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not _is_array(tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer "
                            f"'{name}' (an array or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module) -> None:
        """Registers a submodule as `self.<name>` (None for an absent one)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if is_parameter(value):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._remove_from(name, d, keep="_parameters")  # re-assignment keeps the order
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter "
                                f"'{name}' (ac.nn.Parameter or None expected)")
            params[name] = None
            return
        persistent = buffer_persistence(value) if _is_array(value) else None
        if persistent is not None:  # an nn.Buffer(...) registers as a buffer
            if params is None:
                raise AttributeError("cannot assign buffers before Module.__init__() call")
            self._remove_from(name, d, keep="_buffers")
            self.register_buffer(name, value, persistent=persistent)
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._remove_from(name, d, keep="_modules")
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module "
                                f"'{name}' (ac.nn.Module or None expected)")
            modules[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not _is_array(value):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                "(an array or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _remove_from(self, name, d, keep):
        d.pop(name, None)
        for key in ("_parameters", "_buffers", "_modules"):
            dd = d.get(key)
            if key != keep and dd is not None and name in dd:
                del dd[name]
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str):
        # Only called when normal lookup failed: look in the registries.
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            dd = d.get(key)
            if dd is not None and name in dd:
                return dd[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for key in ("_parameters", "_buffers", "_modules"):
            dd = self.__dict__.get(key)
            if dd is not None and name in dd:
                del dd[name]
                if key == "_buffers":
                    self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        attrs = set(dir(type(self))) | set(self.__dict__)
        attrs |= set(self._parameters) | set(self._buffers) | set(self._modules)
        return sorted(a for a in attrs if not a[:1].isdigit())

    def get_submodule(self, target: str) -> "Module":
        """The submodule at a dotted path ("" is the module itself)."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if item not in mod._modules or mod._modules[item] is None:
                raise AttributeError(f"{type(mod).__name__} has no submodule `{item}` "
                                     f"(looking up '{target}')")
            mod = mod._modules[item]
        return mod

    def get_parameter(self, target: str):
        """The parameter at a dotted path ("layer.weight")."""
        mod_path, _, name = target.rpartition(".")
        mod = self.get_submodule(mod_path)
        if name not in mod._parameters:
            raise AttributeError(f"{type(mod).__name__} has no parameter `{name}`")
        return mod._parameters[name]

    def get_buffer(self, target: str):
        """The buffer at a dotted path ("bn.running_mean")."""
        mod_path, _, name = target.rpartition(".")
        mod = self.get_submodule(mod_path)
        if name not in mod._buffers:
            raise AttributeError(f"{type(mod).__name__} has no buffer `{name}`")
        return mod._buffers[name]

    # --- iteration --------------------------------------------------------------------------

    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        seen = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for mod_prefix, mod in modules:
            for k, v in get_members(mod):
                if v is None:
                    continue
                if remove_duplicate:
                    if id(v) in seen:
                        continue
                    seen.add(id(v))
                yield (mod_prefix + ("." if mod_prefix else "") + k), v

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Any]]:
        """(dotted name, parameter) pairs; a shared parameter is listed once unless
        `remove_duplicate=False`."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse,
                                       remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Any]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Any]]:
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse,
                                       remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Any]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_children(self) -> Iterator[tuple[str, "Module"]]:
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self) -> Iterator["Module"]:
        for _, m in self.named_children():
            yield m

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True):
        """(dotted name, module) pairs of this module and all below it, depth first."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from m.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator["Module"]:
        for _, m in self.named_modules():
            yield m

    # --- modes, gradients, conversion -------------------------------------------------------

    def train(self, mode: bool = True) -> "Module":
        """Sets training mode on this module and all below it (Dropout, BatchNorm read it)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self) -> "Module":
        return self.train(False)

    def apply(self, fn: Callable[["Module"], None]) -> "Module":
        """Calls `fn` on every submodule (children first) and then on this module."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clears the parameters' `.grad` (to None, or to zeros in place)."""
        for p in self.parameters():
            g = p.grad
            if g is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                if getattr(g, "grad_fn", None) is not None:
                    g = g.detach()
                    p.grad = g
                with no_grad():
                    g[...] = 0

    def _apply(self, fn: Callable, recurse: bool = True) -> "Module":
        """Replaces every parameter and buffer `t` by `fn(t)` when that gives a new array.

        Arrays cannot change dtype in place, so a converted parameter is a new Parameter
        object (PyTorch's behaviour under `torch.__future__.set_overwrite_module_params_on_
        conversion(True)`): build optimizers after `.to(dtype)`.  A parameter shared by
        several modules stays shared.
        """
        done: dict[int, Any] = {}
        for mod in (self.modules() if recurse else [self]):
            for name, p in list(mod._parameters.items()):
                if p is None:
                    continue
                if id(p) not in done:
                    new = fn(p)
                    if new is p:
                        done[id(p)] = p
                    else:
                        new_p = Parameter(new.detach() if _is_array(new) else new,
                                          requires_grad=p.requires_grad)
                        g = p.grad
                        if g is not None:
                            g2 = fn(g)
                            new_p.grad = g2.detach() if g2 is not g else g
                        done[id(p)] = new_p
                mod._parameters[name] = done[id(p)]
            for name, b in list(mod._buffers.items()):
                if b is None:
                    continue
                if id(b) not in done:
                    done[id(b)] = fn(b)
                mod._buffers[name] = done[id(b)]
        return self

    def to(self, *args, **kwargs) -> "Module":
        """`to(dtype)`, `to(device)`, `to(device, dtype)`, `to(array)` (its dtype and device),
        `to(dtype=..., device=...)`: floating-point parameters and buffers take the dtype
        (integer buffers keep theirs, as in PyTorch); the only device is the CPU."""
        from ... import _dtypes
        device = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
        for a in args:
            if isinstance(a, _dtypes.DType):
                dtype = a
            elif _is_array(a):
                dtype, device = a.dtype, a.device
            elif isinstance(a, bool):
                continue  # non_blocking given positionally
            else:
                device = a
        if device is not None:
            _check_device(device)
        if dtype is not None:
            if not isinstance(dtype, _dtypes.DType):
                raise TypeError(f"to(): expected an arraycore dtype, got {dtype!r}")
            if dtype.kind not in "fc":
                raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, "
                                f"but got desired dtype={dtype}")
            return self._apply(lambda t: _cast_floating(t, dtype))
        return self

    def cpu(self) -> "Module":
        return self

    def float(self) -> "Module":
        """Casts floating-point parameters and buffers to float32."""
        from ... import float32
        return self._apply(lambda t: _cast_floating(t, float32, real_only=True))

    def double(self) -> "Module":
        """Casts floating-point parameters and buffers to float64."""
        from ... import float64
        return self._apply(lambda t: _cast_floating(t, float64, real_only=True))

    def type(self, dst_type) -> "Module":
        from ... import _dtypes
        if not isinstance(dst_type, _dtypes.DType):
            raise TypeError(f"type(): expected an arraycore dtype, got {dst_type!r}")
        return self._apply(lambda t: t.astype(dst_type))

    # --- state dict -------------------------------------------------------------------------

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()

    def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
        """An ordered dict of dotted name -> array: parameters and persistent buffers, as
        detached arrays that share the module's buffers (`keep_vars=True`: the parameters
        themselves)."""
        if args:  # torch's deprecated positional form (destination, prefix, keep_vars)
            names = ("destination", "prefix", "keep_vars")
            vals = dict(zip(names, args))
            destination = vals.get("destination", destination)
            prefix = vals.get("prefix", prefix)
            keep_vars = vals.get("keep_vars", keep_vars)
        if destination is None:
            destination = OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=destination, prefix=prefix + name + ".",
                             keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            res = hook(self, destination, prefix, {})
            if res is not None:
                destination = res
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict,
                              missing_keys, unexpected_keys, error_msgs):
        """Checks this module's own entries of `state_dict` (not its children's) and queues
        the copies; subclasses may override it to rename or fill entries before calling
        super, as in PyTorch.  Nothing is written until every module's entries checked out."""
        local = itertools.chain(self._parameters.items(),
                                ((k, v) for k, v in self._buffers.items()
                                 if k not in self._non_persistent_buffers_set))
        assign = bool(local_metadata.get("assign_to_params_buffers", False))
        for name, target in local:
            if target is None:  # an absent parameter (bias=False) has no entry
                continue
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            try:
                value = _as_loadable(state_dict[key], key)
            except TypeError as e:
                error_msgs.append(str(e))
                continue
            if tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{tuple(value.shape)} from checkpoint, the shape in current "
                                  f"model is {tuple(target.shape)}.")
                continue
            if value.dtype != target.dtype:
                error_msgs.append(f"dtype mismatch for {key}: copying an array of dtype "
                                  f"{value.dtype} from checkpoint, the dtype in current model "
                                  f"is {target.dtype} (convert the checkpoint's array with "
                                  f".astype, or the model with .to(dtype), first).")
                continue
            if isinstance(target, Tracer):
                error_msgs.append(f"{key}: the module holds a traced value (inside "
                                  "functional_call); cannot load into it")
                continue
            _queue_load(self, name, target, value, assign)
        for key in state_dict:
            if key.startswith(prefix):
                rest = key[len(prefix):]
                head = rest.split(".", 1)[0]
                if head not in self._modules and head not in self._parameters and \
                        head not in self._buffers:
                    unexpected_keys.append(key)
                elif "." not in rest and head in self._modules:
                    unexpected_keys.append(key)
                elif head in self._buffers and head in self._non_persistent_buffers_set:
                    unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copies `state_dict`'s arrays into the parameters and buffers (`assign=True`:
        takes the given arrays as the new parameters/buffers instead of copying).

        Returns `(missing_keys, unexpected_keys)`; with `strict=True` either being non-empty
        raises.  A wrong shape or dtype raises naming the key.  Loading is all-or-nothing:
        when anything is wrong, nothing of the module is changed.  Values may be arraycore
        arrays or anything `ac.asarray` takes (NumPy arrays, torch tensors via DLPack)."""
        global _PENDING_LOAD_WRITES
        if not hasattr(state_dict, "keys") or not hasattr(state_dict, "__getitem__"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        state_dict = OrderedDict(state_dict)
        missing, unexpected, errors = [], [], []
        outer = _PENDING_LOAD_WRITES
        _PENDING_LOAD_WRITES = pending = []
        try:
            for mod_prefix, mod in self.named_modules(remove_duplicate=False):
                p = mod_prefix + "." if mod_prefix else ""
                mod._load_from_state_dict(state_dict, p, {"assign_to_params_buffers": assign},
                                          True, missing, unexpected, errors)
        finally:
            _PENDING_LOAD_WRITES = outer
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        for write in pending:
            write()
        result = _IncompatibleKeys(missing, unexpected)
        for hook in self._load_state_dict_post_hooks.values():
            hook(self, result)
        return result

    def register_state_dict_hook(self, hook: Callable) -> RemovableHandle:
        """`hook(module, state_dict, prefix, local_metadata) -> None | state_dict` runs after
        the module's entries were added."""
        h = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[h.id] = hook
        return h

    def register_load_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
        """`hook(module, incompatible_keys)` runs after a successful `load_state_dict`."""
        h = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[h.id] = hook
        return h

    # --- copying ----------------------------------------------------------------------------

    def __deepcopy__(self, memo):
        # The copies of parameters are made first, as parameters (an array's own deepcopy
        # gives a plain array): a parameter shared by two submodules stays shared.
        from ... import asarray
        for p in self.parameters():
            if id(p) not in memo:
                with no_grad():
                    c = asarray(p, copy=True)
                memo[id(p)] = Parameter(c, requires_grad=p.requires_grad)
        new = object.__new__(type(self))
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            new.__dict__[k] = _copy.deepcopy(v, memo)
        return new

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)

    # --- repr -------------------------------------------------------------------------------

    def extra_repr(self) -> str:
        """The text inside this module's parentheses in `repr` (layers override it)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        lines = []
        extra = self.extra_repr()
        if extra:
            lines.extend(extra.split("\n"))
        children = []
        for name, m in self._modules.items():
            children.append(f"({name}): " + _addindent(repr(m), 2))
        out = self._get_name() + "("
        if len(lines) == 1 and not children:
            out += lines[0]  # a leaf layer on one line: Linear(in_features=3, ...)
        elif lines or children:
            out += "".join("\n  " + line for line in lines + children) + "\n"
        return out + ")"


def _queue_load(module, name, target, value, assign):
    pending = _PENDING_LOAD_WRITES
    if assign:
        is_param = name in module._parameters

        def write():
            if is_param:
                module._parameters[name] = Parameter(value, requires_grad=target.requires_grad)
            else:
                module._buffers[name] = value
    else:
        def write():
            _copy_into(target, value)
    if pending is None:  # called outside load_state_dict: write at once
        write()
    else:
        pending.append(write)


def _cast_floating(t, dtype, real_only=False):
    kind = t.dtype.kind
    if kind not in "fc":
        return t
    if real_only and kind == "c":
        return t
    if t.dtype == dtype:
        return t
    if kind == "c" and dtype.kind == "f":
        return t  # torch keeps complex parameters complex under a real target dtype
    with no_grad():
        return t.astype(dtype)


def _check_device(device):
    name = device if isinstance(device, str) else str(device)
    if name.split(":")[0] not in ("cpu", "CPU"):
        raise ValueError(f"to(): arraycore runs on the CPU only, got device {device!r}")

