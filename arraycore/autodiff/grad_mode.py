"""L3: grad-mode switches (PyTorch's names): `no_grad`, `enable_grad`, `set_grad_enabled`,
`inference_mode`, `is_grad_enabled`.  Each works as a context manager and as a decorator.

`no_grad` stops the tape, and also the reverse-mode transform levels that were already active
when it was entered (torch.func: a `no_grad` inside the transformed function is respected; a
`no_grad` around the call to `grad(f)` is not).  See state.py.
"""

from __future__ import annotations

import functools

from .state import STATE


class _Mode:
    def __init__(self, enabled):
        self.enabled = enabled

    def __enter__(self):
        self.prev = (STATE.grad_enabled, STATE.grad_disabled_at)
        _set(self.enabled)
        return self

    def __exit__(self, *exc):
        STATE.grad_enabled, STATE.grad_disabled_at = self.prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)(*self._args()):
                return fn(*args, **kwargs)
        return wrapper

    def _args(self):
        return (self.enabled,)

    def clone(self):
        return type(self)(*self._args())


def _set(enabled):
    if enabled:
        STATE.grad_enabled, STATE.grad_disabled_at = True, None
    elif STATE.grad_enabled:
        STATE.grad_enabled, STATE.grad_disabled_at = False, len(STATE.stack)


class _NoArgMode(_Mode):
    """A mode that takes no argument, so it also works as a bare decorator (`@no_grad`, as
    in PyTorch): called with a function, the class returns the decorated function."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        if not callable(orig_func):
            raise TypeError(f"{cls.__name__}: takes no arguments (or a function to "
                            f"decorate), got {type(orig_func).__name__}")
        return cls()(orig_func)


class no_grad(_NoArgMode):
    """Operations inside do not record on the tape.

    >>> import arraycore as ac
    >>> with ac.no_grad():
    ...     y = x * 2          # y.requires_grad is False
    """

    def __init__(self, orig_func=None):
        super().__init__(False)

    def _args(self):
        return ()


class enable_grad(_NoArgMode):
    """Turns recording back on inside a `no_grad` region."""

    def __init__(self, orig_func=None):
        super().__init__(True)

    def _args(self):
        return ()


class set_grad_enabled(_Mode):
    """set_grad_enabled(mode): as a function call it sets the mode; as a context manager it
    sets it for the block."""

    def __init__(self, mode):
        super().__init__(bool(mode))
        self.prev = (STATE.grad_enabled, STATE.grad_disabled_at)
        _set(self.enabled)

    def __enter__(self):
        return self

    def __call__(self, fn):
        # Used as a decorator: the mode applies inside calls of fn only, so the switch made
        # by the constructor (the function-call form) is undone here, as PyTorch does.
        STATE.grad_enabled, STATE.grad_disabled_at = self.prev
        return super().__call__(fn)


class inference_mode(_Mode):
    """Like no_grad (arraycore has no separate inference tensors); `inference_mode(False)`
    is a no-op context."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        if not callable(mode):
            raise TypeError(f"inference_mode: mode must be a bool, got {type(mode).__name__}")
        return cls()(mode)  # bare @inference_mode

    def __init__(self, mode=True):
        super().__init__(not mode)
        self.mode = mode

    def __enter__(self):
        self.prev = (STATE.grad_enabled, STATE.grad_disabled_at)
        self.prev_inf = STATE.inference_mode
        if self.mode:
            _set(False)
            STATE.inference_mode = True
        return self

    def __exit__(self, *exc):
        STATE.grad_enabled, STATE.grad_disabled_at = self.prev
        STATE.inference_mode = self.prev_inf
        return False

    def _args(self):
        return (self.mode,)


def is_grad_enabled() -> bool:
    return STATE.grad_enabled


def is_inference_mode_enabled() -> bool:
    return STATE.inference_mode


__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]
