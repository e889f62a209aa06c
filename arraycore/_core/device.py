"""L1: devices.  The engine is CPU-only for now; CUDA will be a second Device of the same kind."""

from __future__ import annotations

__all__ = ["Device", "CPU", "as_device"]


class Device:
    """A device arrays live on.  `ac.Device("cpu")`; compares equal by name."""

    __slots__ = ("type", "index")

    def __init__(self, type: str = "cpu", index: int = 0):
        if type != "cpu":
            raise ValueError(f"Device: unknown device {type!r}; arraycore supports 'cpu'")
        self.type = type
        self.index = index

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            return other == self.type
        return isinstance(other, Device) and (other.type, other.index) == (self.type, self.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __repr__(self) -> str:
        return f"Device({self.type!r})"

    def __str__(self) -> str:
        return self.type


CPU = Device("cpu")


def as_device(device, who: str) -> Device:
    """Validates a `device=` argument (None, a Device, or the string 'cpu')."""
    if device is None or device is CPU:
        return CPU
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        if device == "cpu":
            return CPU
        raise ValueError(f"{who}: unknown device {device!r}; arraycore supports 'cpu'")
    raise ValueError(f"{who}: expected a device, got {type(device).__name__}")
