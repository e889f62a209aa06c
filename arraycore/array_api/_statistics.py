"""L2: the standard's statistics functions."""

__all__ = []
