"""L3: anomaly detection (torch.autograd.detect_anomaly / set_detect_anomaly).

While it is on, every recorded node keeps the stack of the forward call that created it
(graph.Node, function.FunctionNode), and the backward engine checks each node's input
gradients for NaN: the error names the node, the forward op, and where it was created
(graph._check_anomaly).  Both switches set `STATE.anomaly` / `STATE.anomaly_check_nan`.
"""

from __future__ import annotations

import functools
import warnings

from .state import STATE


class detect_anomaly:
    """Context manager (and decorator) that turns anomaly detection on.

    >>> import arraycore as ac
    >>> with ac.autograd.detect_anomaly():
    ...     y = ac.sqrt(x) * 0.0          # x = 0: backward gives 0 * inf = nan
    ...     ac.sum(y).backward()          # RuntimeError naming SqrtBackward and this line
    """

    def __init__(self, check_nan: bool = True):
        self.check_nan = bool(check_nan)
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", stacklevel=2)

    def __enter__(self):
        self.prev = (STATE.anomaly, STATE.anomaly_check_nan)
        STATE.anomaly, STATE.anomaly_check_nan = True, self.check_nan
        return self

    def __exit__(self, *exc):
        STATE.anomaly, STATE.anomaly_check_nan = self.prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            prev = (STATE.anomaly, STATE.anomaly_check_nan)
            STATE.anomaly, STATE.anomaly_check_nan = True, self.check_nan
            try:
                return fn(*args, **kwargs)
            finally:
                STATE.anomaly, STATE.anomaly_check_nan = prev
        return wrapper


class set_detect_anomaly:
    """set_detect_anomaly(mode, check_nan=True): sets anomaly detection on or off; as a
    context manager the previous setting comes back at the end of the block."""

    def __init__(self, mode: bool, check_nan: bool = True):
        self.prev = (STATE.anomaly, STATE.anomaly_check_nan)
        STATE.anomaly, STATE.anomaly_check_nan = bool(mode), bool(check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        STATE.anomaly, STATE.anomaly_check_nan = self.prev
        return False


def is_anomaly_enabled() -> bool:
    return STATE.anomaly


def is_anomaly_check_nan_enabled() -> bool:
    return STATE.anomaly_check_nan


__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]
