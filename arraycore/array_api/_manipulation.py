"""L2: the standard's manipulation functions."""

__all__ = []
