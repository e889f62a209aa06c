"""L1: op-table entries of arraycore.special, family bessel (see special.py for the layout).

One line per function: `special_op(name, arity, domains=...)`.  Tolerances of the SciPy
comparison (tests/test_special.py): float32 is evaluated in double, so it stays within a
float ulp or two; float64 near the zeros of j0/j1/y0/y1/yn/airy_ai is accurate in absolute
terms (relative to the function's scale, see docs/special_bessel.md), hence the atol there.
"""

from __future__ import annotations

from .special import special_op  # noqa: F401

i0 = special_op("i0", 1, domains=((-30, 30),))
i0e = special_op("i0e", 1, domains=((-50, 50),))
i1 = special_op("i1", 1, domains=((-30, 30),))
i1e = special_op("i1e", 1, domains=((-50, 50),))
k0 = special_op("k0", 1, domains=((0, 50),))
k0e = special_op("k0e", 1, domains=((0, 50),))
k1 = special_op("k1", 1, domains=((0, 50),))
k1e = special_op("k1e", 1, domains=((0, 50),))
j0 = special_op("j0", 1, domains=((-50, 50),), atol=1e-14, rtol64=1e-12)
j1 = special_op("j1", 1, domains=((-50, 50),), atol=1e-14)
y0 = special_op("y0", 1, domains=((0, 50),), atol=1e-14)
y1 = special_op("y1", 1, domains=((0, 50),), atol=1e-14)
yn = special_op("yn", 2, domains=((-6, 6), (0.1, 30)), int_args=(0,), atol=1e-14,
                ref="special_refs_bessel.yn")
airy_ai = special_op("airy_ai", 1, domains=((-10, 10),), ref="special_refs_bessel.airy_ai",
                     atol=1e-14)
spherical_bessel_j0 = special_op("spherical_bessel_j0", 1, domains=((-50, 50),),
                                 ref="special_refs_bessel.spherical_bessel_j0", atol=1e-14)
# Ai'(x): airy_ai's derivative (SciPy: airy(x)[1]); public so that airy_ai differentiates.
airy_ai_prime = special_op("airy_ai_prime", 1, domains=((-10, 10),),
                           ref="special_refs_bessel.airy_ai_prime", atol=1e-14)
