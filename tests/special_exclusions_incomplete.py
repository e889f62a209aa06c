"""Points of the special-values grid (tests/test_special.py) where SciPy 1.17's reference is
the one that is off: fdtri at 1e30 degrees of freedom, where SciPy's quantiles are off by
2.4e-11 in the F CDF (mpmath at 60 digits: the CDF at SciPy's fdtri(0.5, 1e30, 0.5) is
0.499999999975535, at arraycore's 0.5).  tests/test_special_incomplete.py checks arraycore
there against mpmath; only the SciPy comparison is skipped."""

import numpy as np

EXCLUDE = {
    "fdtri": (lambda m, n, p: (np.maximum(m, n) >= 1e30) & (np.minimum(m, n) >= 0.5)
              & np.isfinite(m) & np.isfinite(n) & (p > 0) & (p < 1),
              "SciPy's fdtri is off by ~2e-11 in the CDF at 1e30 degrees of freedom"),
}
