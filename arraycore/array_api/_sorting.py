"""L2: the standard's sorting functions."""

__all__ = []
