"""The optimizer base class: param groups, per-parameter state, `zero_grad`, `step`,
`state_dict` / `load_state_dict` in PyTorch's layout.

Parameters are leaf arrays that require grad.  A step reads each parameter's `.grad` (the
tape's gradient, autodiff/tape.py) and updates the parameter and its state in place with one
native multi-tensor call per group and dtype (arraycore/native/src/kernels/optim_*.cpp).  The
update is not recorded on the tape, like PyTorch's `with torch.no_grad(): p.add_(...)`, and it
bumps each parameter's version counter (autodiff/versions.py), so a graph that saved a
parameter before the step refuses to backpropagate through the stale value, as in PyTorch.
"""

from __future__ import annotations

import copy
from collections.abc import MutableMapping

from ..autodiff import versions as _versions
from ..autodiff.grad_mode import enable_grad
from ..native import _native

Array = _native.Array

__all__ = ["Optimizer", "required"]


class _Required:
    """Marks an option that has no default (PyTorch's `torch.optim.optimizer.required`)."""

    def __repr__(self):
        return "<required parameter>"


required = _Required()


class ParamState(MutableMapping):
    """Per-parameter state keyed by the parameter object itself (arrays are not hashable:
    their `==` is elementwise), like PyTorch's `optimizer.state[p]`."""

    def __init__(self):
        self._items = {}

    def __getitem__(self, p):
        # A parameter without state gets an empty dict (PyTorch's state is a defaultdict).
        return self.setdefault_dict(p)

    def __setitem__(self, p, value):
        self._items[id(p)] = (p, value)

    def __delitem__(self, p):
        del self._items[id(p)]

    def __contains__(self, p):
        return id(p) in self._items

    def __iter__(self):
        return (p for p, _ in self._items.values())

    def __len__(self):
        return len(self._items)

    def setdefault_dict(self, p):
        """The state dict of `p`, created empty on first use."""
        item = self._items.get(id(p))
        if item is None:
            item = self._items[id(p)] = (p, {})
        return item[1]

    def __repr__(self):
        return f"ParamState({len(self)} parameters)"


def _is_array(x):
    return isinstance(x, Array)


class Optimizer:
    """Base class of the optimizers (PyTorch's `torch.optim.Optimizer`).

    `params`: an iterable of arrays, of `(name, array)` pairs, or of dicts, each a param
    group with a `'params'` entry and per-group options overriding `defaults`.  The groups
    are in `self.param_groups` (editable: learning-rate schedulers change `group['lr']`),
    the per-parameter state in `self.state[p]`.

    Example:
        >>> import arraycore as ac
        >>> w = ac.ones((3,)).requires_grad_()
        >>> opt = ac.optim.SGD([{"params": [w], "lr": 0.5}], lr=0.1)
        >>> w.grad = ac.ones((3,))
        >>> opt.step(); w.tolist()
        [0.5, 0.5, 0.5]
        >>> opt.zero_grad(); w.grad is None
        True
    """

    #: name used in error messages; subclasses set it
    _who = "optim.Optimizer"

    def __init__(self, params, defaults):
        self.defaults = dict(defaults)
        self.state = ParamState()
        self.param_groups = []
        if _is_array(params):
            raise TypeError(f"{self._who}: params argument given to the optimizer should be "
                            "an iterable of arrays or dicts, but got a single array")
        if isinstance(params, dict):
            raise TypeError(f"{self._who}: params must be an iterable of arrays or of param "
                            "group dicts, not a dict (did you mean [dict]?)")
        try:
            param_groups = list(params)
        except TypeError:
            raise TypeError(f"{self._who}: params argument given to the optimizer should be "
                            f"an iterable of arrays or dicts, but got {type(params).__name__}"
                            ) from None
        if len(param_groups) == 0:
            raise ValueError(f"{self._who}: optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    # --- param groups ---------------------------------------------------------------------

    def add_param_group(self, param_group):
        """Adds a group (a dict with `'params'` and optional per-group options); options it
        does not give take the optimizer's defaults."""
        if not isinstance(param_group, dict):
            raise TypeError(f"{self._who}: param group must be a dict, got "
                            f"{type(param_group).__name__}")
        group = dict(param_group)
        params = group.get("params")
        if params is None:
            raise ValueError(f"{self._who}: param group has no 'params' entry")
        if _is_array(params):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(f"{self._who}: optimizer parameters need to be organized in "
                            "ordered collections, but the ordering of sets changes between "
                            "runs; use a list")
        else:
            params = list(params)
        names = []
        plain = []
        for item in params:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
                names.append(item[0])
                item = item[1]
            plain.append(item)
        if names and len(names) != len(plain):
            raise ValueError(f"{self._who}: all parameters of a group must be named, or none")
        for i, p in enumerate(plain):
            if not _is_array(p):
                raise TypeError(f"{self._who}: can only optimize arrays, but parameter {i} of "
                                f"the group is {type(p).__name__}")
            if p.dtype.kind not in "fc":
                raise TypeError(f"{self._who}: can only optimize floating point or complex "
                                f"arrays, but parameter {i} has dtype {p.dtype}")
            if p.grad_fn is not None:
                raise ValueError(f"{self._who}: can't optimize a non-leaf array (parameter {i} "
                                 "was computed by an operation); use a leaf array (e.g. "
                                 "x.detach().requires_grad_())")
        if len({id(p) for p in plain}) != len(plain):
            raise ValueError(f"{self._who}: a param group contains the same parameter twice")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in plain):
            raise ValueError(f"{self._who}: some parameters appear in more than one parameter "
                             "group")
        group["params"] = plain
        if names:
            group["param_names"] = names
        for name, default in self.defaults.items():
            if default is required and name not in group:
                raise ValueError(f"{self._who}: parameter group didn't specify a value of "
                                 f"required optimization parameter {name}")
            group.setdefault(name, default)
        self._check_group(group)
        self.param_groups.append(group)
        self._init_group_state(group)

    def _check_group(self, group):
        """Validates a group's options (subclasses: PyTorch's 'Invalid ...' ValueErrors)."""

    def _init_group_state(self, group):
        """Creates state eagerly where PyTorch does (Adagrad); lazy by default."""

    # --- gradients ------------------------------------------------------------------------

    def zero_grad(self, set_to_none: bool = True):
        """Resets the gradients of all parameters: to None (the default, as in PyTorch),
        or to zeros in place."""
        for group in self.param_groups:
            for p in group["params"]:
                if set_to_none:
                    p.grad = None
                else:
                    g = p.grad
                    if g is not None:
                        from ..autodiff.grad_mode import no_grad
                        with no_grad():
                            g[...] = 0
                        _versions.bump(g)

    def _params_with_grads(self, group):
        """(param, grad) of the group's parameters that have a gradient."""
        out = []
        for p in group["params"]:
            g = p.grad
            if g is None:
                continue
            if type(g) is not Array and not isinstance(g, Array):
                raise TypeError(f"{self._who}: the gradient of a parameter is a "
                                f"{type(g).__name__}, not an array (optimizers run outside "
                                "function transforms)")
            out.append((p, g))
        return out

    def _count_step(self, pg, *buffers):
        """Advances each (param, grad)'s step count, creating its state on first use: step 0
        and a zero buffer per name in `buffers` (the Adam-like optimizers' shared prologue)."""
        for p, _ in pg:
            st = self.state.setdefault_dict(p)
            if not st:
                st["step"] = 0.0
                for name in buffers:
                    st[name] = self._zeros(p)
            st["step"] += 1.0

    @staticmethod
    def _buckets(items, key):
        """Splits items by key (one native call per dtype and step count)."""
        out = {}
        for it in items:
            out.setdefault(key(it), []).append(it)
        return out.values()

    @staticmethod
    def _zeros(p):
        """A contiguous zero buffer of p's shape and dtype (optimizer state)."""
        import arraycore as ac
        return ac.zeros(p.shape, dtype=p.dtype)

    @staticmethod
    def _bump(params):
        for p in params:
            _versions.bump(p)

    # --- step -----------------------------------------------------------------------------

    def step(self, closure=None):
        """One optimization step over every group.  `closure`, when given, re-evaluates the
        model and returns the loss (it runs with gradients enabled); its loss is returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        from ..autodiff.grad_mode import no_grad
        with no_grad():
            for group in self.param_groups:
                self._step_group(group)
        return loss

    def _step_group(self, group):
        raise TypeError(f"{self._who}: the Optimizer base class has no update rule; use a "
                        "subclass (SGD, Adam, ...)")

    # --- state dict -----------------------------------------------------------------------

    def state_dict(self):
        """PyTorch's layout: `{'state': {index: {name: value}}, 'param_groups': [{options...,
        'params': [index, ...]}]}`, parameters numbered in group order.  State arrays are
        the optimizer's own buffers (not copies), as in PyTorch; the step count is a float."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            ids = []
            for p in group["params"]:
                index.setdefault(id(p), len(index))
                ids.append(index[id(p)])
            packed["params"] = ids
            groups.append(packed)
        state = {}
        for p, s in self.state._items.values():
            if id(p) in index:
                state[index[id(p)]] = dict(s)
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Loads a dict made by `state_dict()` (of an optimizer with the same groups and
        parameter sizes).  State arrays are copied and cast to their parameter's dtype."""
        if not isinstance(state_dict, dict) or "param_groups" not in state_dict \
                or "state" not in state_dict:
            raise ValueError(f"{self._who}.load_state_dict: expected a dict with 'state' and "
                             "'param_groups'")
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError(f"{self._who}.load_state_dict: loaded state dict has "
                             f"{len(saved_groups)} parameter groups, the optimizer has "
                             f"{len(self.param_groups)}")
        for i, (g, s) in enumerate(zip(self.param_groups, saved_groups)):
            if len(g["params"]) != len(s["params"]):
                raise ValueError(f"{self._who}.load_state_dict: loaded state dict contains a "
                                 f"parameter group {i} with {len(s['params'])} parameters, "
                                 f"which doesn't match the optimizer's group of "
                                 f"{len(g['params'])}")
        id_map = {}
        for g, s in zip(self.param_groups, saved_groups):
            for p, k in zip(g["params"], s["params"]):
                id_map[k] = p
        new_state = ParamState()
        for k, values in state_dict["state"].items():
            key = int(k) if isinstance(k, str) and k.isdigit() else k
            if key not in id_map:
                raise ValueError(f"{self._who}.load_state_dict: state for parameter index "
                                 f"{k!r}, which no group contains")
            p = id_map[key]
            new_state[p] = {name: self._load_value(p, name, v, key)
                            for name, v in values.items()}
        # Validated completely before anything changes.
        new_groups = []
        for g, s in zip(self.param_groups, saved_groups):
            ng = {k: copy.deepcopy(v) for k, v in s.items() if k != "params"}
            ng["params"] = g["params"]
            new_groups.append(ng)
        self.state = new_state
        self.param_groups[:] = new_groups

    #: state entries that are scalars (0-d tensors in PyTorch, floats here)
    _scalar_state = ("step", "mu_product")

    def _load_value(self, p, name, v, key):
        if name in self._scalar_state:
            return float(v.item() if hasattr(v, "item") else v)
        if _is_array(v):
            if v.shape != p.shape and v.ndim != 0:
                raise ValueError(f"{self._who}.load_state_dict: state[{key}][{name!r}] has "
                                 f"shape {v.shape}, but its parameter has shape {p.shape}")
            import arraycore as ac
            dtype = p.dtype if v.dtype.kind in "fc" else v.dtype
            with ac.no_grad():
                return ac.asarray(v, dtype=dtype, copy=True)
        if hasattr(v, "__dlpack__") or type(v).__module__.startswith(("numpy", "torch")):
            import arraycore as ac
            return self._load_value(p, name, ac.from_dlpack(v) if hasattr(v, "__dlpack__")
                                    else ac.asarray(v), key)
        return copy.deepcopy(v)

    # --- misc -----------------------------------------------------------------------------

    def __repr__(self):
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for k in sorted(group):
                if k not in ("params", "param_names"):
                    lines.append(f"    {k}: {group[k]}")
        lines.append(")")
        return "\n".join(lines)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, d):
        self.__dict__.update(d)
