"""L3: derivative rules of arraycore.special, family erf_gamma (special_base.define_partials)."""

from __future__ import annotations

import math

from ..._core.op_table import OPS
from .special_base import define_partials

xp = None  # set by install_all

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def install():
    define_partials(OPS["erf"], [lambda x, y: _TWO_OVER_SQRT_PI * xp.exp(-(x * x))])
    define_partials(OPS["erfc"], [lambda x, y: -_TWO_OVER_SQRT_PI * xp.exp(-(x * x))])
