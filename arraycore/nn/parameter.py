"""L4: `Parameter`, an array that a `Module` registers as one of its trainable weights.

Note [Parameters are marked arrays, not a subclass]: the native `Array` type cannot be
subclassed usefully.  A Python subclass's instances have a different object layout (so an
existing array cannot become one), the native constructor refuses to build arrays, and the
autodiff dispatcher's first test (`_native.any_traced`, bind_array.cpp) and the native tape
(bind_autodiff.cpp) look for the exact `Array` type: a subclass instance would silently skip
the tape.  So `Parameter(data)` returns a plain `Array` (a new object viewing `data`'s buffer,
as `torch.nn.Parameter(t)` shares `t`'s storage) that is a leaf of the tape and is remembered
in a registry of parameter objects; `isinstance(p, Parameter)` asks that registry through the
metaclass (PyTorch's own `_ParameterMeta.__instancecheck__` answers the same question for
tensors carrying `_is_param`).  The registry holds weak references keyed by `id`, so nothing
is stored in the array's instance dict: a parameter keeps the native fast paths and the
native tape (which accept only arrays whose dict holds nothing or just the `_ad` meta).

Consequences: `type(p) is ac.Array`; an array derived from a parameter (`p * 2`,
`p.detach()`, `p[0]`) is not a parameter; `copy.deepcopy(module)` makes parameters of the
copies (Module.__deepcopy__).
"""

from __future__ import annotations

import weakref

from ..native import _native
from ..autodiff.tracer import Tracer

Array = _native.Array
_alias = _native.alias  # a new Array object on the same view, without instance attributes

# id(array) -> weakref to it.  The callback drops the entry when the array dies, so an id
# reused by a later object is never mistaken for a parameter (the `is` check covers races).
_REGISTRY: dict[int, weakref.ref] = {}


def is_parameter(obj) -> bool:
    """Whether `obj` is an array made by `Parameter(...)` (same as `isinstance(obj, Parameter)`)."""
    ref = _REGISTRY.get(id(obj))
    return ref is not None and ref() is obj


def _mark(a: Array) -> Array:
    key = id(a)

    def forget(ref, key=key):
        if _REGISTRY.get(key) is ref:
            del _REGISTRY[key]

    _REGISTRY[key] = weakref.ref(a, forget)
    return a


class _ParameterMeta(type):
    def __instancecheck__(cls, obj):
        return is_parameter(obj)


class Parameter(metaclass=_ParameterMeta):
    """A trainable array of a module (`torch.nn.Parameter`).

    `Parameter(data, requires_grad=True)` returns an `ac.Array` viewing `data`'s buffer (no
    copy, as PyTorch shares the tensor's storage) that is a leaf of the tape with
    `requires_grad` set; assigning it as a module attribute registers it.  `data=None` gives
    an empty float32 array.  The result's type is `ac.Array` (see the Note in this module);
    `isinstance(p, ac.nn.Parameter)` is true for it and false for arrays computed from it.

    >>> import arraycore as ac
    >>> w = ac.nn.Parameter(ac.zeros((2, 3), dtype=ac.float32))
    >>> isinstance(w, ac.nn.Parameter), w.requires_grad, isinstance(w * 2, ac.nn.Parameter)
    (True, True, False)
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .. import empty, float32
            data = empty((0,), dtype=float32)
        elif isinstance(data, Tracer):
            raise TypeError("Parameter: data must be a concrete array, not a value traced by "
                            "a transform (use ac.func.functional_call to run a module on "
                            "traced weights)")
        elif not isinstance(data, Array):
            from .. import asarray
            data = asarray(data)
        p = _alias(data)
        if requires_grad:
            if p.dtype.kind not in "fc":
                raise TypeError(f"Parameter: only arrays of floating point or complex dtype can "
                                f"require gradients, got {p.dtype}")
            p.requires_grad_(True)
        return _mark(p)


_BUFFERS: dict[int, tuple] = {}  # id -> (weakref, persistent), as _REGISTRY


def buffer_persistence(obj):
    """None, or the `persistent` flag of an array made by `Buffer(...)`."""
    entry = _BUFFERS.get(id(obj))
    if entry is None or entry[0]() is not obj:
        return None
    return entry[1]


class _BufferMeta(type):
    def __instancecheck__(cls, obj):
        return buffer_persistence(obj) is not None


class Buffer(metaclass=_BufferMeta):
    """An array that assigning as a module attribute registers as a buffer
    (`torch.nn.Buffer`): `self.running = nn.Buffer(ac.zeros(3), persistent=False)` is
    `self.register_buffer("running", ac.zeros(3), persistent=False)`.  Like `Parameter`, it
    returns a plain `ac.Array` viewing `data`'s buffer.

    >>> import arraycore as ac
    >>> class M(ac.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.steps = ac.nn.Buffer(ac.zeros((), dtype=ac.int64))
    >>> list(M().state_dict())
    ['steps']
    """

    def __new__(cls, data, *, persistent=True):
        if isinstance(data, Tracer) or not isinstance(data, Array):
            raise TypeError(f"Buffer: expected an arraycore array, got {type(data).__name__}")
        b = _alias(data)
        key = id(b)

        def forget(ref, key=key):
            entry = _BUFFERS.get(key)
            if entry is not None and entry[0] is ref:
                del _BUFFERS[key]

        _BUFFERS[key] = (weakref.ref(b, forget), bool(persistent))
        return b


__all__ = ["Parameter", "Buffer", "is_parameter"]
