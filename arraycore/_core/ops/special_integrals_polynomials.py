"""L1: op-table entries of arraycore.special, family integrals_polynomials (see special.py for the layout).

One line per function: `special_op(name, arity, domains=...)`.  The orthogonal polynomials are
PyTorch's (torch.special.*(input, n)); their table-driven reference is torch.special through
tests/special_refs_intpoly.py.
"""

from __future__ import annotations

from .special import special_op

exp1 = special_op("exp1", 1, domains=((0.0, 40.0),))
expi = special_op("expi", 1, domains=((-40.0, 40.0),), atol=1e-12)
expn = special_op("expn", 2, domains=((0, 12), (0.0, 30.0)), int_args=(0,))
ellipk = special_op("ellipk", 1, domains=((-20.0, 1.0),))
ellipkm1 = special_op("ellipkm1", 1, domains=((0.0, 20.0),))
spence = special_op("spence", 1, domains=((0.0, 20.0),))
hyp1f1 = special_op("hyp1f1", 3, domains=((-5.0, 5.0), (0.5, 5.0), (-10.0, 10.0)),
                    rtol64=1e-11, atol=1e-12)
lpmv = special_op("lpmv", 3, domains=((-3, 3), (0.0, 6.0), (-0.9, 0.9)), int_args=(0,),
                  rtol64=1e-11, atol=1e-12)

_TORCH = "special_refs_intpoly."
for _name in ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
              "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
              "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
              "shifted_chebyshev_polynomial_w", "legendre_polynomial_p"):
    special_op(_name, 2, domains=((-1.0, 1.0), (0, 12)), int_args=(1,), ref=_TORCH + _name,
               atol=1e-11)
for _name in ("hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l"):
    special_op(_name, 2, domains=((-3.0, 3.0), (0, 12)), int_args=(1,), ref=_TORCH + _name,
               rtol64=1e-11, atol=1e-9)
