"""arraycore.special, family integrals_polynomials: public functions that are not plain op-table entries
(keywords, reductions, compositions of entries).  Every name in `__all__` is exported by
arraycore.special and overrides the generated function of an entry of the same name."""

from __future__ import annotations

__all__ = []
