"""L2: the standard's indexing_functions functions."""

__all__ = []
