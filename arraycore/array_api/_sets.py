"""L2: the standard's sets functions."""

__all__ = []
