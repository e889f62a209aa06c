"""L2: the standard's searching functions."""

__all__ = []
