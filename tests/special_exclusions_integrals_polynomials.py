"""Points of the special-values grid (tests/test_special.py) where SciPy 1.17's reference
does not return: scipy.special.hyp1f1(a, b, x) with finite positive a != b and x = 1e30 or
inf loops (measured: no result after minutes), and lpmv(m, v, +-1) with |m| >= 1e30 takes
seconds to never.  arraycore is evaluated there too (it returns at once); only the
comparison is skipped."""

import numpy as np

EXCLUDE = {
    "hyp1f1": (lambda a, b, x: (x >= 1e30) & np.isfinite(a) & np.isfinite(b) & (a > 0)
               & (b > 0) & (a != b), "SciPy's hyp1f1 does not return for x >= 1e30"),
    "lpmv": (lambda m, v, x: (np.abs(m) >= 1e30) & (np.abs(x) == 1),
             "SciPy's lpmv takes seconds to forever for |m| >= 1e30 at x = +-1"),
}
