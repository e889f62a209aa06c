"""L1: the op table.  Every op is registered here once; everything else is derived from it.

An `OpDef` is the single source for an op's native kernel, the dtype category it accepts, how
its result dtype follows from its inputs, its test metadata and, as the autodiff work lands,
its jvp/vjp/batching rules.  The public functions in arraycore.array_api are generated from
these records, and tests/ iterate over `OPS` (see tests/op_info.py), so a new op gets its
value, layout, dtype and error tests by being added here.  tests/test_op_table.py fails when
the native kernel list, this table, the public namespace and the test metadata disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

__all__ = ["OpDef", "TestInfo", "OPS", "register", "get_op", "home_module"]


@dataclass(frozen=True)
class TestInfo:
    """How the table-driven tests exercise an op.

    ref: name of the reference function in NumPy (or "module.attr" for another reference).
    domain: (low, high) open interval of real inputs the op is defined on; None = unbounded.
    rtol: relative tolerance for float32/complex64 (float64 uses 1e-12 unless `rtol64` is set).
    """

    ref: str
    domain: tuple = (None, None)
    rtol: float = 2e-6
    rtol64: float = 1e-12
    atol: float = 0.0
    # Reference needs integer inputs kept small (shifts, pow) or nonzero second operands.
    small_ints: bool = False
    nonzero_rhs: bool = False
    notes: str = ""
    # Ops of more than one operand whose operands live on different domains (the special
    # functions: betainc(a, b, x) takes a, b > 0 and x in [0, 1]): one (low, high) per
    # operand, overriding `domain`.  `int_args`: operands drawn as small non-negative
    # integer values (orders n of yn, expn, polygamma; counts of the distributions).
    domains: tuple = ()
    int_args: tuple = ()


@dataclass(eq=False)
class OpDef:
    """One op of the table.

    accepts: dtype category of the inputs (a key of dtypes.KIND_CATEGORIES).
    result: "same" (the promoted input dtype), "bool", or "real" (complex -> its real dtype).
    int_to_float: bool/integer inputs are promoted to the default float first, as NumPy does
        for transcendental functions and true division.
    kernel: native kernel name (defaults to the op name).
    linear: the op is linear (over the reals) in its floating-point inputs taken together:
        op(x + y) = op(x) + op(y), op(a x) = a op(x) for real a (sums, views, gathers, casts,
        add, real, conj).  Its jvp is the op applied to the tangents; the autodiff layer
        generates it from this flag (arraycore/autodiff/rules/linear.py).
    bilinear: linear in each of its two array inputs separately (matmul, tensordot, vecdot):
        the jvp op(t1, x2) + op(x1, t2) is generated from this flag.
    jvp / vjp / batch: derivative and batching rules, filled in by the autodiff layer.
    namespace: "" for the main namespace, else the extension module the public function lives
        in ("linalg" -> arraycore.linalg.<name>, "fft" -> arraycore.fft.<name>,
        "special" -> arraycore.special.<name>).
    """

    name: str
    arity: int
    accepts: str
    result: str = "same"
    int_to_float: bool = False
    kernel: str = ""
    linear: bool = False
    bilinear: bool = False
    test: Optional[TestInfo] = None
    jvp: Optional[Callable] = None
    vjp: Optional[Callable] = None
    batch: Optional[Callable] = None
    family: str = "elementwise"
    namespace: str = ""
    extra: dict = field(default_factory=dict)
    # Set by the autodiff layer (arraycore/autodiff/install.py): integer/bool results or a
    # derivative that is zero everywhere it exists; the plain implementation (arrays only);
    # the public function (dispatches to autodiff when a traced value is involved).
    nondiff: bool = False
    impl: Optional[Callable] = None
    public: Optional[Callable] = None

    def __post_init__(self):
        if not self.kernel:
            self.kernel = self.name


OPS: dict[str, OpDef] = {}


def register(op: OpDef) -> OpDef:
    if op.name in OPS:
        raise ValueError(f"op {op.name!r} registered twice")
    OPS[op.name] = op
    return op


def get_op(name: str) -> OpDef:
    return OPS[name]


def home_module(ns, op: OpDef):
    """The module object holding op's public function: the namespace `ns` itself or its
    extension module named by `op.namespace` (ns.linalg, ns.fft)."""
    return getattr(ns, op.namespace) if op.namespace else ns
