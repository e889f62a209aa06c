"""arraycore.special, family erf_gamma: public functions that are not plain op-table entries
(keywords, reductions, compositions of entries).  Every name in `__all__` is exported by
arraycore.special and overrides the generated function of an entry of the same name.

- zeta(x, q=None): SciPy's signature; the Hurwitz zeta entry when q is given, Riemann's
  zeta(x) = zetac(x) + 1 otherwise (torch.special.zeta(x, q) is the Hurwitz form).
- logit(x, eps=None): torch.special.logit's eps clamps x to [eps, 1 - eps] first.
- multigammaln(a, d): log of the multivariate gamma function (SciPy and torch), a sum of
  gammaln, so it is differentiable through gammaln.
"""

from __future__ import annotations

import math
import operator

from .._core.op_table import OPS
from ._generated import make_function

__all__ = ["zeta", "logit", "multigammaln"]

_hurwitz = make_function(OPS["zeta"])
_logit = make_function(OPS["logit"])


def _special():
    from .. import special
    return special


def zeta(x, q=None):
    """Hurwitz zeta sum_k (k + q)^-x when q is given (SciPy's zeta(x, q)), Riemann's zeta(x)
    otherwise.  Real floating-point arguments, broadcast; x = 1 gives inf, x < 1 NaN in the
    Hurwitz form (SciPy's conventions)."""
    if q is None:
        return _special().zetac(x) + 1.0
    return _hurwitz(x, q)


def logit(x, eps=None):
    """log(x / (1 - x)); with eps (torch.special.logit), x is first clamped to
    [eps, 1 - eps]."""
    if eps is None:
        return _logit(x)
    from .. import clip
    return _special().logit(clip(x, min=float(eps), max=1.0 - float(eps)))


def multigammaln(a, d):
    """log of the multivariate gamma function of dimension d:
    d (d - 1)/4 log(pi) + sum_{j=1}^{d} gammaln(a - (j - 1)/2).  d must be a positive
    integer and every a > (d - 1)/2 (ValueError otherwise, as SciPy)."""
    try:
        d = operator.index(d) if not isinstance(d, float) else d
    except TypeError:
        raise ValueError(f"multigammaln: d should be a positive integer (dimension), "
                         f"got {d!r}") from None
    if isinstance(d, float):
        if d != math.floor(d):
            raise ValueError(f"multigammaln: d should be a positive integer (dimension), "
                             f"got {d!r}")
        d = int(d)
    if d < 1:
        raise ValueError(f"multigammaln: d should be a positive integer (dimension), got {d}")
    import arraycore as ac
    sp = _special()
    if not isinstance(a, ac.Array):
        a = ac.asarray(a)
    if ac.isdtype(a.dtype, "complex floating"):
        raise TypeError("multigammaln: expected a real floating-point argument")
    if a.dtype not in (ac.float32, ac.float64):
        a = ac.astype(a, ac.float64)
    if not bool(ac.all(a > 0.5 * (d - 1))):
        raise ValueError(f"multigammaln: condition a > 0.5 * (d - 1) = {0.5 * (d - 1)} "
                         f"not met")
    res = sp.gammaln(a)
    for j in range(1, d):
        res = res + sp.gammaln(a - 0.5 * j)
    return res + d * (d - 1) * 0.25 * math.log(math.pi)
