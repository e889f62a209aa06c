"""L1: op-table entries of arraycore.special, family incomplete (see special.py for the layout).

One line per function: `special_op(name, arity, domains=...)`.
"""

from __future__ import annotations

from .special import special_op  # noqa: F401

# Domains of the table-driven tests (tests/test_special.py): shapes and degrees of freedom in
# [0.1, 100]-ish, probabilities inside (0, 1), counts as integers.
_P = (0.01, 0.99)
gammainc = special_op("gammainc", 2, domains=((0.1, 50.0), (0.0, 60.0)))
gammaincc = special_op("gammaincc", 2, domains=((0.1, 50.0), (0.0, 60.0)))
gammaincinv = special_op("gammaincinv", 2, domains=((0.1, 50.0), _P))
gammainccinv = special_op("gammainccinv", 2, domains=((0.1, 50.0), _P))
betainc = special_op("betainc", 3, domains=((0.1, 50.0), (0.1, 50.0), (0.0, 1.0)))
betaincc = special_op("betaincc", 3, domains=((0.1, 50.0), (0.1, 50.0), (0.0, 1.0)))
betaincinv = special_op("betaincinv", 3, domains=((0.1, 50.0), (0.1, 50.0), _P))
bdtr = special_op("bdtr", 3, domains=((0, 10), (10, 30), (0.0, 1.0)), int_args=(0, 1))
bdtrc = special_op("bdtrc", 3, domains=((0, 10), (10, 30), (0.0, 1.0)), int_args=(0, 1))
bdtri = special_op("bdtri", 3, domains=((0, 10), (11, 30), _P), int_args=(0, 1))
chdtr = special_op("chdtr", 2, domains=((0.2, 60.0), (0.0, 100.0)))
chdtrc = special_op("chdtrc", 2, domains=((0.2, 60.0), (0.0, 100.0)))
chdtri = special_op("chdtri", 2, domains=((0.2, 60.0), _P))
fdtr = special_op("fdtr", 3, domains=((0.2, 60.0), (0.2, 60.0), (0.0, 10.0)))
fdtrc = special_op("fdtrc", 3, domains=((0.2, 60.0), (0.2, 60.0), (0.0, 10.0)))
fdtri = special_op("fdtri", 3, domains=((0.2, 60.0), (0.2, 60.0), _P))
gdtr = special_op("gdtr", 3, domains=((0.1, 10.0), (0.1, 50.0), (0.0, 20.0)))
gdtrc = special_op("gdtrc", 3, domains=((0.1, 10.0), (0.1, 50.0), (0.0, 20.0)))
nbdtr = special_op("nbdtr", 3, domains=((0, 20), (1, 20), (0.0, 1.0)), int_args=(0, 1))
nbdtrc = special_op("nbdtrc", 3, domains=((0, 20), (1, 20), (0.0, 1.0)), int_args=(0, 1))
nbdtri = special_op("nbdtri", 3, domains=((0, 20), (1, 20), _P), int_args=(0, 1))
pdtr = special_op("pdtr", 2, domains=((0, 30), (0.0, 40.0)), int_args=(0,))
pdtrc = special_op("pdtrc", 2, domains=((0, 30), (0.0, 40.0)), int_args=(0,))
pdtri = special_op("pdtri", 2, domains=((0, 30), _P), int_args=(0,))
stdtr = special_op("stdtr", 2, domains=((0.2, 60.0), (-10.0, 10.0)))
stdtrit = special_op("stdtrit", 2, domains=((0.2, 60.0), _P))
