"""Autodiff test metadata of arraycore.special, family erf_gamma (see
tests/autodiff_op_info_special.py)."""

from __future__ import annotations

from autodiff_op_info import uniform
from autodiff_op_info_special import jax_special, special_info


def build(add):
    add(special_info("erf", [uniform(-2.5, 2.5)], jax_special("erf")))
    add(special_info("erfc", [uniform(-2.5, 2.5)], jax_special("erfc")))
