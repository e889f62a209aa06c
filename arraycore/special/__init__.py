"""arraycore.special: special functions with SciPy's names and semantics, and PyTorch's
torch.special names.

    >>> import arraycore as ac
    >>> ac.special.erf(ac.asarray([0.0, 0.5, 1.0]))

SciPy dispatches to this namespace: with SCIPY_ARRAY_API=1, `scipy.special.gammaln(x)` on an
arraycore array calls `ac.special.gammaln` (scipy/special/_support_alternative_backends.py
looks the name up in `xp.special`), so array-API-aware SciPy code runs natively here.

Each elementwise function is an op-table entry (arraycore/_core/ops/special_*.py) with a
native kernel (arraycore/native/src/kernels/special_*.cpp) and derivative rules
(arraycore/autodiff/rules/special_*.py); see docs/special.md.  The families' Python modules
(_erf_gamma.py, _elementary.py, _bessel.py, _incomplete.py,
_integrals_polynomials.py) add the functions with keywords
or reductions (logsumexp, softmax, zeta(x, q=None), ...), and _torch_names.py the aliases.
"""

from __future__ import annotations

from .._core.ops.special import special_ops as _special_ops
from . import _bessel, _elementary, _erf_gamma, _incomplete, _integrals_polynomials
from ._generated import make_function as _make_function

__all__ = []


def _build():
    g = globals()
    for op in _special_ops():
        g[op.name] = _make_function(op)
        __all__.append(op.name)
    for mod in (_erf_gamma, _elementary, _bessel, _incomplete, _integrals_polynomials):
        for name in mod.__all__:
            g[name] = getattr(mod, name)
            if name not in __all__:
                __all__.append(name)


_build()


def _install_aliases(ns):
    """After the autodiff install (arraycore/__init__): the torch.special aliases."""
    import sys

    from . import _torch_names
    _torch_names.install(sys.modules[__name__], ns)
