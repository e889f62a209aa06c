"""Accuracy specs of arraycore.special, family erf_gamma (see tests/special_accuracy.py)."""

from __future__ import annotations

import mpmath

from special_accuracy import Spec


def build(add):
    add(Spec("erf", mpmath.erf, (("symlog", 1e-6, 6.0),), "|x| in [1e-6, 6]"))
    add(Spec("erfc", mpmath.erfc, (("uniform", -6.0, 26.0),), "x in [-6, 26]"))
