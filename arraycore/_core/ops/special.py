"""L1: the registration helper of the special functions (arraycore.special).

Every special function that maps arrays to an array elementwise is one op-table entry
(family "special", namespace "special"), registered by one line in the module of its family:

    special_erf_gamma.py   erf/erfc/erfcx/erfinv, normal distribution, gamma, digamma,
                           polygamma, zeta, beta, binomial, logistic
    special_elementary.py  degrees-based trig, exp2/exp10, cbrt, entropies, Box-Cox, Huber
    special_bessel.py      Bessel functions, Airy Ai, spherical Bessel j0
    special_incomplete.py  incomplete gamma/beta, their inverses and the distributions
                           built on them (binomial, chi-square, F, gamma, Poisson, Student t)
    special_integrals_polynomials.py  exponential integrals, elliptic K, Spence, 1F1,
                           associated Legendre, orthogonal polynomials

Entries accept real floating-point operands (integers and bools become float64, as SciPy's
ufuncs compute them in double), any number of them broadcast together, Python scalars
anywhere.  The native kernel has the op's name (arraycore/native/src/kernels/special_*.cpp);
the public function is generated from the entry (arraycore/special/_generated.py) unless the
family's Python module defines one with keywords (zeta(x, q=None), logit(x, eps=None)).

`ref` is the SciPy reference ("scipy.special.erf" by default) and `domains` one (low, high)
per operand for the table-driven tests (tests/test_special.py); the accuracy checker against
mpmath has its own specification per function (tests/special_accuracy_<family>.py).
"""

from __future__ import annotations

from ..op_table import OpDef, TestInfo, register

REAL_FLOATING = "real floating"


def special_op(name: str, arity: int, *, domains=(), int_args=(), ref: str = "",
               rtol: float = 4e-6, rtol64: float = 1e-12, atol: float = 0.0,
               kernel: str = "", notes: str = "", **kw) -> OpDef:
    """Registers arraycore.special.<name>: `arity` real floating operands, elementwise."""
    test = TestInfo(ref or f"scipy.special.{name}", domains=tuple(domains),
                    int_args=tuple(int_args), rtol=rtol, rtol64=rtol64, atol=atol, notes=notes)
    return register(OpDef(name, arity, REAL_FLOATING, "same", int_to_float=True,
                          kernel=kernel or name, test=test, family="special",
                          namespace="special", **kw))


def special_ops() -> list:
    """Every entry of arraycore.special, in registration order."""
    from ..op_table import OPS
    return [op for op in OPS.values() if op.namespace == "special"]
