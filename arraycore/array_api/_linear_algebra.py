"""L2: the standard's linear_algebra functions."""

__all__ = []
