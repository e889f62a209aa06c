"""L3: derivative and batching rules of `astype`.

A cast is linear: the jvp casts the tangent (complex -> real keeps the real part, as the
cast itself).  The vjp hands g back unchanged: graph.fit_cotangent casts it to the input's
dtype, which is PyTorch's rule in every direction (real -> complex: the real part of g;
complex -> real: g as a complex number with zero imaginary part; float64 -> float32: g
widened).  A cast to an integer or bool dtype has no derivative: its output never requires
grad (the tape skips non-float outputs) and it has no tangent.
"""

from __future__ import annotations

from ..._core.op_table import OPS
from .base import define

xp = None  # set by install()


def _target(args, kwargs):
    return args[1] if len(args) > 1 else kwargs["dtype"]


def _astype_rules(op):
    def jvp(args, kwargs, t, out):
        if out.dtype.kind not in "fc":
            return None
        return xp.astype(t[0], _target(args, kwargs))

    def vjp(g, args, kwargs, out, needs):
        return {0: g}

    def batch(args, kwargs, dims, size):
        return op.public(*args, **kwargs), dims[0]

    define(op, jvp, vjp, batch, saves=[])


def install():
    _astype_rules(OPS["astype"])


__all__ = ["install"]
