"""L1: op-table entries of arraycore.special, family erf_gamma (see special.py for the layout).

One line per function: `special_op(name, arity, domains=...)`; `domains` are where the
table-driven tests draw values (tests/test_special.py), compared with SciPy to rtol (float32)
and rtol64 (float64).  Kernels: arraycore/native/src/kernels/special_erf_gamma*.cpp.
`zeta(x, q=None)`, `polygamma(n, x)`, `logit(x, eps=None)` and `multigammaln(a, d)` have
their public forms in arraycore/special/_erf_gamma.py.
"""

from __future__ import annotations

from .special import special_op

# error function and normal distribution
erf = special_op("erf", 1, domains=((-4.0, 4.0),))
erfc = special_op("erfc", 1, domains=((-4.0, 12.0),))
erfcx = special_op("erfcx", 1, domains=((-5.0, 40.0),))
erfinv = special_op("erfinv", 1, domains=((-1.0, 1.0),))
erfcinv = special_op("erfcinv", 1, domains=((0.0, 2.0),))
ndtr = special_op("ndtr", 1, domains=((-12.0, 12.0),))
log_ndtr = special_op("log_ndtr", 1, domains=((-40.0, 12.0),))
ndtri = special_op("ndtri", 1, domains=((0.0, 1.0),))
ndtri_exp = special_op("ndtri_exp", 1, domains=((-40.0, 0.0),))

# gamma function family
gamma = special_op("gamma", 1, domains=((-10.0, 30.0),))
gammaln = special_op("gammaln", 1, domains=((0.0, 100.0),))
loggamma = special_op("loggamma", 1, domains=((0.0, 100.0),))
rgamma = special_op("rgamma", 1, domains=((-10.0, 30.0),))
gammasgn = special_op("gammasgn", 1, domains=((-10.0, 10.0),))
psi = special_op("psi", 1, domains=((0.0, 50.0),))
polygamma = special_op("polygamma", 2, domains=((0, 5), (0.1, 20.0)), int_args=(0,))
# zeta(x) with q omitted is Riemann's zeta (arraycore/special/_erf_gamma.py)
zeta = special_op("zeta", 2, domains=((1.05, 20.0), (0.1, 10.0)),
                  extra={"last_optional": True})
zetac = special_op("zetac", 1, domains=((-20.0, 30.0),))
poch = special_op("poch", 2, domains=((0.1, 10.0), (-3.0, 5.0)))
betaln = special_op("betaln", 2, domains=((0.1, 30.0), (0.1, 30.0)))
binom = special_op("binom", 2, domains=((0.0, 30.0), (0.0, 10.0)))

# logistic
expit = special_op("expit", 1, domains=((-30.0, 30.0),))
logit = special_op("logit", 1, domains=((0.0, 1.0),))
log_expit = special_op("log_expit", 1, domains=((-30.0, 30.0),))
