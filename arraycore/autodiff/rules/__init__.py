"""L3: the derivative and batching rules of every op-table entry, one module per family.

Each module has `install()`, which fills `jvp`/`vjp`/`batch` (or marks `nondiff`) for the
entries of its family.  tests/test_autodiff_table.py fails when an entry has neither.
`linear.py` generates the jvp of entries flagged `linear` or `bilinear` in the op table.
"""

from __future__ import annotations

import importlib

FAMILIES = ("elementwise", "reductions", "manipulation", "indexing", "linalg", "linalg_ext",
            "searching", "data_types", "fft", "special_erf_gamma", "special_elementary",
            "special_bessel", "special_incomplete", "special_integrals_polynomials", "nn_conv")


def install_all(ns):
    for fam in FAMILIES:
        try:
            mod = importlib.import_module(f"{__name__}.{fam}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{fam}":
                raise
            continue
        mod.xp = ns
        mod.install()
    from . import special_base
    special_base.xp = ns
    from . import linear
    from ..._core.op_table import OPS
    linear.xp = ns
    linear.fill_flagged(OPS)
