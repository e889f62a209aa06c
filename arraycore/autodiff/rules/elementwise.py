"""L3: derivative rules of the 67 elementwise ops (and clip), one line each where the op is
holomorphic or real: `d(x, y)` for unary ops, `(d1, d2)` of `(x1, x2, y)` for binary ops
(y is the output; using it saves recomputation, as PyTorch's derivatives.yaml does).  At
kinks PyTorch's choices: d|x|/dx = 0 at 0, maximum/minimum ties split the gradient in half.
"""

from __future__ import annotations

import math

from ..._core.op_table import OPS
from . import base
from .base import (define, define_binary, define_linear_elementwise, define_nondiff,
                   define_unary, define_zero_derivative, elementwise_batch)

xp = None  # set by install()

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)

UNARY = {
    "square": lambda x, y: 2 * x,
    "reciprocal": lambda x, y: -(y * y),
    "exp": lambda x, y: y,
    "expm1": lambda x, y: y + 1,
    "log": lambda x, y: 1 / x,
    "log1p": lambda x, y: 1 / (x + 1),
    "log2": lambda x, y: 1 / (x * _LN2),
    "log10": lambda x, y: 1 / (x * _LN10),
    "sqrt": lambda x, y: 0.5 / y,
    "sin": lambda x, y: xp.cos(x),
    "cos": lambda x, y: -xp.sin(x),
    "tan": lambda x, y: 1 + y * y,
    "asin": lambda x, y: 1 / xp.sqrt(1 - x * x),
    "acos": lambda x, y: -1 / xp.sqrt(1 - x * x),
    "atan": lambda x, y: 1 / (1 + x * x),
    "sinh": lambda x, y: xp.cosh(x),
    "cosh": lambda x, y: xp.sinh(x),
    "tanh": lambda x, y: 1 - y * y,
    "asinh": lambda x, y: 1 / xp.sqrt(x * x + 1),
    "acosh": lambda x, y: 1 / (xp.sqrt(x - 1) * xp.sqrt(x + 1)),
    "atanh": lambda x, y: 1 / (1 - x * x),
}

BINARY = {
    "multiply": (lambda x1, x2, y: x2, lambda x1, x2, y: x1),
    "divide": (lambda x1, x2, y: 1 / x2, lambda x1, x2, y: -y / x2),
    "pow": (lambda x1, x2, y: _pow_d_base(x1, x2),
            lambda x1, x2, y: _pow_d_exponent(x1, x2, y)),
    "maximum": (lambda x1, x2, y: _tie_split(x1, x2, xp.greater),
                lambda x1, x2, y: _tie_split(x2, x1, xp.greater)),
    "minimum": (lambda x1, x2, y: _tie_split(x1, x2, xp.less),
                lambda x1, x2, y: _tie_split(x2, x1, xp.less)),
    "logaddexp": (lambda x1, x2, y: xp.exp(x1 - y), lambda x1, x2, y: xp.exp(x2 - y)),
    "hypot": (lambda x1, x2, y: x1 / y, lambda x1, x2, y: x2 / y),
    "atan2": (lambda x1, x2, y: x2 / (x1 * x1 + x2 * x2),
              lambda x1, x2, y: -x1 / (x1 * x1 + x2 * x2)),
    "remainder": (lambda x1, x2, y: xp.ones_like(y),
                  lambda x1, x2, y: -xp.floor_divide(x1, x2)),
    "copysign": (lambda x1, x2, y: _copysign_d(x1, y), lambda x1, x2, y: xp.zeros_like(y)),
    # The next float after x1 moves with x1 and (almost everywhere) not with x2.  PyTorch
    # and JAX raise here; the derivative is defined, so it is given.
    "nextafter": (lambda x1, x2, y: xp.ones_like(y), lambda x1, x2, y: xp.zeros_like(y)),
}

LINEAR = {
    # transpose(g, args, slot): cotangent of input `slot`.
    "positive": lambda g, a, s: g,
    "negative": lambda g, a, s: -g,
    "add": lambda g, a, s: g,
    "subtract": lambda g, a, s: g if s == 0 else -g,
    "conj": lambda g, a, s: xp.conj(g),
}

ZERO = ["ceil", "floor", "trunc", "round", "floor_divide"]

# Native programs of the rules above (Note [The native tape], bind_autodiff.cpp): for real
# arrays of one dtype (and weak Python scalars), the kernel calls the rule makes, in its
# order and with its operands, so native and Python gradients are the same bits.  Per input
# slot, steps (op, operand[, operand]) on "g" (the output's cotangent), "x0", "x1" (the
# arguments), "y" (the output), "t<k>" (step k's result) or a Python number; the last
# step's result (g itself for no steps) is the cotangent.  Unary entries list the steps of
# the derivative d; `g * d` is appended.  Any other value (complex, mixed dtypes, tracers,
# create_graph=True, ...) runs the Python rule.
_SQRT_1MXX = [("multiply", "x0", "x0"), ("subtract", 1, "t0"), ("sqrt", "t1")]
NATIVE_UNARY = {
    "square": [("multiply", 2, "x0")],
    "reciprocal": [("multiply", "y", "y"), ("negative", "t0")],
    "exp": [],  # d = y
    "expm1": [("add", "y", 1)],
    "log": [("divide", 1, "x0")],
    "log1p": [("add", "x0", 1), ("divide", 1, "t0")],
    "log2": [("multiply", "x0", _LN2), ("divide", 1, "t0")],
    "log10": [("multiply", "x0", _LN10), ("divide", 1, "t0")],
    "sqrt": [("divide", 0.5, "y")],
    "sin": [("cos", "x0")],
    "cos": [("sin", "x0"), ("negative", "t0")],
    "tan": [("multiply", "y", "y"), ("add", 1, "t0")],
    "asin": _SQRT_1MXX + [("divide", 1, "t2")],
    "acos": _SQRT_1MXX + [("divide", -1, "t2")],
    "atan": [("multiply", "x0", "x0"), ("add", 1, "t0"), ("divide", 1, "t1")],
    "sinh": [("cosh", "x0")],
    "cosh": [("sinh", "x0")],
    "tanh": [("multiply", "y", "y"), ("subtract", 1, "t0")],
    "asinh": [("multiply", "x0", "x0"), ("add", "t0", 1), ("sqrt", "t1"), ("divide", 1, "t2")],
    "acosh": [("subtract", "x0", 1), ("sqrt", "t0"), ("add", "x0", 1), ("sqrt", "t2"),
              ("multiply", "t1", "t3"), ("divide", 1, "t4")],
    "atanh": [("multiply", "x0", "x0"), ("subtract", 1, "t0"), ("divide", 1, "t1")],
}
NATIVE = {
    "multiply": {0: [("multiply", "g", "x1")], 1: [("multiply", "g", "x0")]},
    "divide": {0: [("divide", 1, "x1"), ("multiply", "g", "t0")],
               1: [("negative", "y"), ("divide", "t0", "x1"), ("multiply", "g", "t1")]},
    "positive": {0: []},
    "negative": {0: [("negative", "g")]},
    "add": {0: [], 1: []},
    "subtract": {0: [], 1: [("negative", "g")]},
}
for _name, _steps in NATIVE_UNARY.items():
    _d = f"t{len(_steps) - 1}" if _steps else "y"
    NATIVE[_name] = {0: _steps + [("multiply", "g", _d)]}
del _name, _steps, _d


def _float_like(mask, like):
    """A bool mask as 0/1 in the dtype of `like` (an array or a Python number)."""
    return xp.astype(mask, like.dtype if hasattr(like, "dtype") else xp.float64)


def _tie_split(a, b, better):
    # PyTorch: the gradient goes to the larger (smaller) input; ties split it in half.
    w = xp.where(xp.equal(a, b), 0.5, _float_like(better(a, b), _wider(a, b)))
    return w


def _wider(a, b):
    return a if hasattr(a, "dtype") else b


def _pow_d_base(x1, x2):
    # PyTorch's pow_backward_self: 0 where the exponent is 0 (so 0**0 has gradient 0).
    d = x2 * xp.pow(x1, x2 - 1)
    if hasattr(x2, "dtype"):
        return xp.where(xp.equal(x2, 0), 0.0, d)
    return xp.zeros_like(d) if x2 == 0 else d


def _pow_d_exponent(x1, x2, y):
    # PyTorch's pow_backward_exponent: 0 where base == 0 and exponent >= 0 (real part).
    if not hasattr(x1, "dtype"):
        if x1 == 0:
            return xp.where(_nonneg(x2), 0.0, y * -math.inf)
        return y * (math.log(x1) if (type(x1) is not complex and x1 > 0)
                    else complex(math.log(abs(x1)), math.atan2(complex(x1).imag,
                                                               complex(x1).real)))
    d = y * xp.log(x1)
    return xp.where(xp.logical_and(xp.equal(x1, 0), _nonneg(x2)), 0.0, d)


def _nonneg(x2):
    if hasattr(x2, "dtype"):
        return xp.greater_equal(xp.real(x2) if x2.dtype.kind == "c" else x2, 0)
    return complex(x2).real >= 0


def _copysign_d(x1, y):
    # PyTorch: result / self where self != 0, else 0.
    nz = xp.not_equal(x1, 0)
    return xp.where(nz, y / xp.where(nz, x1, 1.0), 0.0)


def _abs_rules(op):
    def sgn(x):
        if x.dtype.kind == "c":
            a = xp.abs(x)
            nz = xp.not_equal(a, 0)
            return xp.where(nz, x / xp.astype(xp.where(nz, a, 1.0), x.dtype), 0)
        return xp.sign(x)

    def jvp(args, kwargs, t, out):
        x = args[0]
        s = sgn(x)
        return xp.real(xp.conj(s) * t[0]) if x.dtype.kind == "c" else s * t[0]

    def vjp(g, args, kwargs, out, needs):
        return {0: g * sgn(args[0])}

    define(op, jvp, vjp, elementwise_batch(op), saves=[0])


def _sign_rules(op):
    # Real x: zero almost everywhere.  Complex z: sign(z) = s = z/|z| is not holomorphic;
    # ds = (dz - s Re(conj(s) dz)) / |z|, a map equal to its own adjoint under Re<a, b>, so
    # the vjp (PyTorch's sgn_backward) has the same form in g.  0 at z = 0, as PyTorch.
    def project(v, x, s):
        a = xp.abs(x)
        nz = xp.not_equal(a, 0)
        r = (v - s * xp.real(xp.conj(s) * v)) / xp.astype(xp.where(nz, a, 1.0), x.dtype)
        return xp.where(nz, r, 0)

    def jvp(args, kwargs, t, out):
        x = args[0]
        return project(t[0], x, out) if x.dtype.kind == "c" else xp.zeros_like(out)

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        return {0: project(g, x, out) if x.dtype.kind == "c" else xp.zeros_like(x)}

    define(op, jvp, vjp, elementwise_batch(op), saves=[0, "out"])


def _real_rules(op):
    def jvp(args, kwargs, t, out):
        return xp.real(t[0])

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        return {0: xp.astype(g, x.dtype) if x.dtype.kind == "c" else g}

    define(op, jvp, vjp, elementwise_batch(op), saves=[])


def _imag_rules(op):
    def jvp(args, kwargs, t, out):
        return xp.imag(t[0])

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        if x.dtype.kind != "c":
            return {0: xp.zeros_like(x)}
        return {0: xp.astype(g, x.dtype) * 1j}

    define(op, jvp, vjp, elementwise_batch(op), saves=[])


def _clip_rules(op):
    # PyTorch's clamp: the gradient goes to x inside [min, max] (ends included), to min
    # where x < min, to max where x > max.
    def masks(x, kwargs, args):
        lo = kwargs.get("min", args[1] if len(args) > 1 else None)
        hi = kwargs.get("max", args[2] if len(args) > 2 else None)
        inside = None
        m_lo = m_hi = None
        if lo is not None:
            m_lo = xp.less(x, lo)
            inside = xp.logical_not(m_lo)
        if hi is not None:
            m_hi = xp.greater(x, hi)
            inside = xp.logical_not(m_hi) if inside is None else \
                xp.logical_and(inside, xp.logical_not(m_hi))
        return inside, m_lo, m_hi

    def slot_of(name, idx, args):
        return idx if len(args) > idx else name

    def jvp(args, kwargs, t, out):
        x = args[0]
        inside, m_lo, m_hi = masks(x, kwargs, args)
        terms = []
        if 0 in t:
            terms.append(t[0] if inside is None else xp.where(inside, t[0], 0.0))
        for name, idx, m in (("min", 1, m_lo), ("max", 2, m_hi)):
            s = slot_of(name, idx, args)
            if s in t:
                terms.append(xp.where(m, t[s], 0.0))
        r = base._sum_terms(terms)
        return xp.broadcast_to(r, out.shape) if r is not None and r.shape != out.shape else r

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        inside, m_lo, m_hi = masks(x, kwargs, args)
        res = {}
        if (0, None) in needs:
            res[0] = g if inside is None else xp.where(inside, g, 0.0)
        for name, idx, m in (("min", 1, m_lo), ("max", 2, m_hi)):
            s = slot_of(name, idx, args)
            if (s, None) in needs:
                res[s] = xp.where(m, g, 0.0)
        return res

    define(op, jvp, vjp, elementwise_batch(op), saves=[0, 1, 2, "min", "max"])


def install():
    for name, d in UNARY.items():
        define_unary(OPS[name], d)
    for name, (d1, d2) in BINARY.items():
        define_binary(OPS[name], d1, d2)
    for name, tr in LINEAR.items():
        define_linear_elementwise(OPS[name], tr)
    for name in ZERO:
        define_zero_derivative(OPS[name])
    _abs_rules(OPS["abs"])
    _sign_rules(OPS["sign"])
    _real_rules(OPS["real"])
    _imag_rules(OPS["imag"])
    _clip_rules(OPS["clip"])
    _install_native()
    for name, op in OPS.items():
        if op.family == "elementwise" and op.jvp is None and not op.nondiff:
            # Integer/bool results (comparisons, logical, bitwise, classification).
            if op.result == "bool" or op.accepts in ("bool", "integral", "integer or boolean"):
                define_nondiff(op, elementwise_batch(op))


def _install_native():
    """Registers the NATIVE programs with the native tape (bind_autodiff.cpp)."""
    from ...native import _native
    from ..._core import dtypes as _dt
    from .. import graph
    if getattr(_native, "tape_rule", None) is None:
        return
    graph.install_native()

    def step(s):
        op = OPS[s[0]]
        return (_native.kernel(op.kernel), _dt.category_mask(op.accepts)) + tuple(s[1:])

    for name, progs in NATIVE.items():
        op = OPS[name]
        # What a Node of op saves for edges on {0}, {1}, {0, 1} (graph._saves_for).
        saves = {k: graph._saves_for(op, [(s, None) for s in slots])
                 for k, slots in ((0, (0,)), (1, (1,)), ((0, 1), (0, 1)))}
        _native.tape_rule(op, op.vjp, saves,
                          {slot: [step(s) for s in steps] for slot, steps in progs.items()})
