"""Test metadata for every op of the table (arraycore._core.op_table), and sample inputs.

Most tests iterate over `ELEMENTWISE` and get, for each op: the NumPy reference, the dtypes it
accepts, inputs in its domain, and the array layouts the engine must handle (0-d, empty,
size-1, broadcast, non-contiguous, transposed, negative-stride, stride-0 and large enough to
use every worker).  Inputs are built in NumPy and mirrored into arraycore with the same view
operations, so both sides see the same layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

import arraycore as ac
from arraycore._core import dtypes as D
from arraycore._core.op_table import OPS, OpDef
from arraycore.native import _native

ELEMENTWISE = [op for op in OPS.values() if op.family == "elementwise"]
ELEMENTWISE_IDS = [op.name for op in ELEMENTWISE]


def accepted_dtypes(op: OpDef) -> list:
    kinds = D.KIND_CATEGORIES[op.accepts]
    return [d for d in D.ALL_DTYPES if d.kind in kinds]


def reference(op: OpDef) -> Callable:
    """The NumPy (or other) function the op is checked against."""
    ref = op.test.ref
    if "." in ref:
        mod, attr = ref.rsplit(".", 1)
        import importlib
        return getattr(importlib.import_module(mod), attr)
    return getattr(np, ref)


def np_dtype(d) -> np.dtype:
    return np.dtype(d.name)


def to_ac(a: np.ndarray):
    """An arraycore array with the same values (and a contiguous layout)."""
    return ac.asarray(np.array(a, order="C"), copy=True)  # (ascontiguousarray makes 0-d 1-d)


def random_values(op: OpDef, dtype, shape, rng, operand: int = 0) -> np.ndarray:
    """Random values of `dtype` inside the op's domain."""
    return np.asarray(_random_values(op, dtype, shape, rng, operand))


def _random_values(op, dtype, shape, rng, operand):
    nd = np_dtype(dtype)
    lo, hi = op.test.domain
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(nd)
        if op.test.small_ints and operand == 1:
            bound_lo, bound_hi = 0, min(info.bits - 1, 6)
        elif op.test.small_ints:
            bound_lo, bound_hi = max(info.min, -5), min(info.max, 5)
        else:
            bound_lo, bound_hi = max(info.min, -100), min(info.max, 100)
        if lo is not None:
            bound_lo = max(bound_lo, int(np.ceil(lo)) + (1 if float(lo).is_integer() else 0))
        if hi is not None:
            bound_hi = min(bound_hi, int(np.floor(hi)) - (1 if float(hi).is_integer() else 0))
        if bound_hi < bound_lo:
            bound_hi = bound_lo
        v = np.asarray(rng.integers(bound_lo, bound_hi + 1, size=shape)).astype(nd)
        if op.test.nonzero_rhs and operand == 1:
            v[v == 0] = 1
        return v
    real = np.float32 if dtype.name in ("float32", "complex64") else np.float64
    flo = -10.0 if lo is None else float(lo)
    fhi = 10.0 if hi is None else float(hi)
    if lo is not None and hi is None:
        fhi = flo + 20.0
    if hi is not None and lo is None:
        flo = fhi - 20.0
    span = fhi - flo
    # Stay strictly inside open domains.
    v = np.asarray(flo + span * (0.001 + 0.998 * rng.random(shape))).astype(real)
    if dtype.kind == "c":
        im = rng.uniform(-3, 3, size=shape).astype(real)
        v = (v + 1j * im).astype(nd)
    if op.test.nonzero_rhs and operand == 1:
        v[v == 0] = 1
    return v.astype(nd)


@dataclass
class Layout:
    """A view applied identically to a NumPy base array and its arraycore mirror."""

    name: str
    base_shape: tuple
    view: Callable  # view(array, xp) -> view of the array
    large: bool = False


def _broadcast_view(shape):
    def view(a, xp):
        if xp is np:
            return np.broadcast_to(a, shape)
        return _native.broadcast_to(a, list(shape))
    return view


LARGE = 2 * (1 << 16) * 2 + 37  # over the parallel grain on 2+ workers, odd tail

LAYOUTS = [
    Layout("0d", (), lambda a, xp: a),
    Layout("empty", (0,), lambda a, xp: a),
    Layout("empty2d", (3, 0), lambda a, xp: a),
    Layout("size1", (1,), lambda a, xp: a),
    Layout("contiguous", (37,), lambda a, xp: a),
    Layout("2d", (5, 7), lambda a, xp: a),
    Layout("transposed", (6, 4), lambda a, xp: a.T),
    Layout("strided", (40,), lambda a, xp: a[::3]),
    Layout("negative_stride", (23,), lambda a, xp: a[::-1]),
    Layout("negative_2d", (5, 6), lambda a, xp: a[::-2, ::-1]),
    Layout("stride0", (1, 9), _broadcast_view((4, 9))),
    Layout("3d_noncontig", (4, 5, 6), lambda a, xp: a[:, 1:4, ::2]),
    Layout("large", (LARGE,), lambda a, xp: a, large=True),
    Layout("large_strided", (2 * LARGE,), lambda a, xp: a[::2], large=True),
]
LAYOUT_IDS = [layout.name for layout in LAYOUTS]


def make_operand(op, dtype, layout: Layout, rng, operand=0):
    """(numpy view, arraycore view) with the same values and layout."""
    base = random_values(op, dtype, layout.base_shape, rng, operand)
    return layout.view(base, np), layout.view(to_ac(base), ac)


# Binary broadcasting pairs: (shape1, shape2).
BROADCAST_PAIRS = [((), (5,)), ((4, 1), (1, 3)), ((2, 1, 3), (4, 1)), ((0,), (1,)),
                   ((3, 0), (3, 1)), ((1,), (6,))]


def special_values(dtype) -> np.ndarray:
    """IEEE special values (and neighbours) for float dtypes, extremes for integers."""
    nd = np_dtype(dtype)
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind in "iu":
        info = np.iinfo(nd)
        vals = [0, 1, 2, 3, info.max, info.max - 1, info.min, info.min + 1]
        if dtype.kind == "i":
            vals += [-1, -2, -3]
        return np.array(vals, dtype=nd)
    real = np.float32 if dtype.name in ("float32", "complex64") else np.float64
    fi = np.finfo(real)
    r = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
                  np.pi / 2, -np.pi, fi.tiny, -fi.tiny, fi.max, -fi.max,
                  fi.smallest_subnormal, 1e-30 if real is np.float64 else 1e-20],
                 dtype=real)
    if dtype.kind == "f":
        return r
    core = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0], dtype=real)
    re, im = np.meshgrid(core, core)
    z = np.empty(re.shape, dtype=nd)
    z.real, z.imag = re, im  # (re + 1j * im would turn inf * 0j into nan)
    return z.ravel()
