"""L1: op-table entries of arraycore.special, family integrals_polynomials (see special.py for the layout).

One line per function: `special_op(name, arity, domains=...)`.
"""

from __future__ import annotations

from .special import special_op  # noqa: F401
