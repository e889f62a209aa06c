"""L2: the standard's utility functions."""

__all__ = []
