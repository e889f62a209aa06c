"""L4: running a module with other values for its parameters and buffers
(`ac.func.functional_call`, torch.func.functional_call) and stacking the states of several
models for ensembles under `vmap` (`ac.func.stack_module_state`).

functional_call puts the given arrays (often transform tracers) into the modules'
`_parameters` / `_buffers` dicts for the duration of the call and puts the originals back
afterwards, also when the call raises.  The module's forward is ordinary namespace code, so
it runs under `grad`, `vmap`, `jvp` and any nesting of them.
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..modules.module import Module

__all__ = ["functional_call", "stack_module_state"]

_MISSING = object()


def _merge_dicts(parameter_and_buffer_dicts):
    if isinstance(parameter_and_buffer_dicts, dict):
        return dict(parameter_and_buffer_dicts)
    if isinstance(parameter_and_buffer_dicts, (tuple, list)):
        merged: dict = {}
        for d in parameter_and_buffer_dicts:
            if not isinstance(d, dict):
                raise ValueError("functional_call: expected a dict or a tuple of dicts of "
                                 f"parameters and buffers, got an element of type "
                                 f"{type(d).__name__}")
            for k, v in d.items():
                if k in merged:
                    raise ValueError(f"functional_call: {k!r} appeared in multiple "
                                     "dictionaries; behavior of functional call is ambiguous")
                merged[k] = v
        return merged
    raise ValueError("functional_call: expected parameter_and_buffer_dicts to be a dict, or "
                     f"a list/tuple of dicts, but got {type(parameter_and_buffer_dicts)}")


def _tied_names(module: Module) -> list[list[str]]:
    """Groups of names (parameters and buffers) that refer to one array in the module."""
    groups: dict[int, list[str]] = {}
    for name, t in module.named_parameters(remove_duplicate=False):
        groups.setdefault(id(t), []).append(name)
    for name, t in module.named_buffers(remove_duplicate=False):
        groups.setdefault(id(t), []).append(name)
    return [g for g in groups.values() if len(g) > 1]


def _untie(module, values, tie_weights):
    """Adds, for each given name tied to others in the module, the same value under the
    other names (PyTorch's tie_weights=True)."""
    if not tie_weights:
        return values
    out = dict(values)
    for group in _tied_names(module):
        given = [n for n in group if n in values]
        if not given:
            continue
        first = values[given[0]]
        for n in given[1:]:
            if values[n] is not first:
                raise ValueError(f"functional_call got multiple values for keys {given}, "
                                 "which are tied. Consider using tie_weights=False")
        for n in group:
            out.setdefault(n, first)
    return out


@contextlib.contextmanager
def _reparametrize(module: Module, values: dict, strict: bool):
    from . import parametrize
    if strict:
        expected = {n for n, _ in module.named_parameters(remove_duplicate=False)}
        expected |= {n for n, _ in module.named_buffers(remove_duplicate=False)}
        missing = sorted(expected - set(values))
        unexpected = sorted(set(values) - expected)
        if missing or unexpected:
            msgs = []
            if unexpected:
                msgs.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected))
            if missing:
                msgs.append("Missing key(s): " + ", ".join(repr(k) for k in missing))
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                               + "\n\t".join(msgs))
    undo = []  # (restore function) in the order of application
    with contextlib.ExitStack() as stack:
        try:
            for key, value in values.items():
                mod_path, _, name = key.rpartition(".")
                mod = module.get_submodule(mod_path)
                if name in mod._parameters:
                    old = mod._parameters[name]
                    mod._parameters[name] = value
                    undo.append(lambda d=mod._parameters, n=name, o=old: d.__setitem__(n, o))
                elif name in mod._buffers:
                    old = mod._buffers[name]
                    mod._buffers[name] = value
                    undo.append(lambda d=mod._buffers, n=name, o=old: d.__setitem__(n, o))
                elif parametrize.is_parametrized(mod, name):
                    # the parametrized value itself is given: serve it from the cache
                    stack.enter_context(parametrize.cached())
                    parametrize._cache[(id(mod), name)] = value
                    undo.append(lambda k=(id(mod), name): parametrize._cache.pop(k, None))
                else:
                    old = mod.__dict__.get(name, _MISSING)
                    object.__setattr__(mod, name, value)
                    undo.append(lambda m=mod, n=name, o=old: (
                        object.__delattr__(m, n) if o is _MISSING
                        else object.__setattr__(m, n, o)))
            yield
        finally:
            for restore in reversed(undo):
                restore()


def functional_call(module: Module, parameter_and_buffer_dicts, args: Any = None,
                    kwargs: dict | None = None, *, tie_weights: bool = True,
                    strict: bool = False):
    """Calls `module(*args, **kwargs)` with its parameters and buffers replaced by the
    arrays in `parameter_and_buffer_dicts` (a dict name -> array, or a tuple of such dicts),
    as torch.func.functional_call does.  Names not given keep the module's own arrays;
    `strict=True` requires exactly the module's names.  `tie_weights=True`: a value given for
    one of several tied names (one array registered under two names) is used for all of them.
    The module's own arrays are back in place when the call returns or raises.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Affine(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.w = nn.Parameter(ac.ones((3,), dtype=ac.float32))
    ...     def forward(self, x):
    ...         return ac.sum(x * self.w)
    >>> m = Affine()
    >>> x = ac.ones(3, dtype=ac.float32)
    >>> params = {k: v.detach() for k, v in m.named_parameters()}
    >>> ac.func.grad(lambda p: ac.func.functional_call(m, p, (x,)))(params)["w"]
    Array([1., 1., 1.], dtype=float32)
    """
    if not isinstance(module, Module):
        raise TypeError(f"functional_call: expected an ac.nn.Module, got "
                        f"{type(module).__name__}")
    values = _merge_dicts(parameter_and_buffer_dicts)
    for k, v in values.items():
        if not isinstance(k, str):
            raise TypeError(f"functional_call: keys must be strings, got {k!r}")
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    if kwargs is None:
        kwargs = {}
    values = _untie(module, values, tie_weights)
    with _reparametrize(module, values, strict):
        return module(*args, **kwargs)


def stack_module_state(models) -> tuple[dict, dict]:
    """Stacks the parameters and the buffers of models of one structure along a new first
    axis: `(params, buffers)` dicts name -> array, ready for
    `vmap(lambda p, b, x: functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))`.
    Stacked parameters are new tape leaves that require grad when the models' do.

    >>> import arraycore as ac
    >>> from arraycore import nn
    >>> class Scale(nn.Module):
    ...     def __init__(self, c):
    ...         super().__init__()
    ...         self.c = nn.Parameter(ac.full((2,), c, dtype=ac.float32))
    ...     def forward(self, x):
    ...         return x * self.c
    >>> models = [Scale(1.0), Scale(2.0), Scale(3.0)]
    >>> params, buffers = ac.func.stack_module_state(models)
    >>> params["c"].shape
    (3, 2)
    >>> ac.func.vmap(lambda p, x: ac.func.functional_call(models[0], p, (x,)),
    ...              in_dims=(0, None))(params, ac.ones(2, dtype=ac.float32))[:, 0]
    Array([1., 2., 3.], dtype=float32)
    """
    import arraycore as ac
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    first = type(models[0])
    if not all(type(m) is first for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    keys = list(all_params[0])
    for i, p in enumerate(all_params[1:], 1):
        if list(p) != keys:
            raise RuntimeError(f"stack_module_state: model {i} has parameters {list(p)}, model "
                               f"0 has {keys}")

    def stacked_leaf(arrays, name):
        flags = {bool(a.requires_grad) for a in arrays}
        if len(flags) != 1:
            raise RuntimeError(f"stack_module_state: Expected {name} from each model to have "
                               "the same .requires_grad")
        with ac.no_grad():
            out = ac.stack([a.detach() for a in arrays])
        if flags.pop():
            out.requires_grad_()
        return out

    params = {k: stacked_leaf([p[k] for p in all_params], k) for k in keys}
    bkeys = list(all_buffers[0])
    buffers = {}
    for k in bkeys:
        with ac.no_grad():
            buffers[k] = ac.stack([b[k].detach() for b in all_buffers])
    return params, buffers

