"""L3: the mutable state every autodiff frontend shares (thread-local, as PyTorch's grad mode).

- `grad_enabled` / `grad_disabled_at`: the tape's grad mode.  `no_grad()` entered while k
  transform levels are active also stops those k levels from recording (reverse-mode levels
  created later, inside the `no_grad` block, record as usual), which is torch.func's rule:
  "grad ignores an outer no_grad, respects an inner one".
- `stack`: the active interpreters (transform levels), innermost last.  See
  Note [Interpreters with a parent] in dispatch.py.
"""

from __future__ import annotations

import itertools
import threading


class _State(threading.local):
    def __init__(self):
        self.grad_enabled = True
        self.grad_disabled_at = None  # len(stack) when grad mode was turned off, or None
        self.inference_mode = False
        self.stack = []
        self.anomaly = False
        self.anomaly_check_nan = True


STATE = _State()
_LEVELS = itertools.count(1)


def new_level() -> int:
    """A fresh, globally increasing level number (nested transforms get larger ones)."""
    return next(_LEVELS)


def level_records(position: int) -> bool:
    """Whether the reverse-mode level at stack position `position` (0-based) records."""
    off = STATE.grad_disabled_at
    return off is None or position >= off
