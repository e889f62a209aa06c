"""`ac.einsum`: Einstein summation with NumPy's, PyTorch's and JAX's semantics.

Parsing (`_parse.py`) and planning (`_plan.py`) look only at the subscripts and the
operands' shapes and are cached; `_run` carries the plan out.  With a traced operand (a
tracer, or an array on the tape) it calls namespace functions (`permute_dims`, `reshape`,
`matmul`, `multiply`, `sum`, `linalg.diagonal`), looked up after `install_namespace` has
rebound the public names to their dispatching versions (arraycore/autodiff/install.py), so
einsum differentiates and batches (tape, `ac.func.grad`, `jvp`, `vmap`, nested) through the
rules of those operations; plain arrays take the same operations without the argument
checks (`_Plain`).  See docs/einsum.md.
"""

from __future__ import annotations

import functools
import sys

from .._core import dtypes as _dt
from ..native import _native
from ._parse import from_interleaved
from ._plan import make_plan

__all__ = ["einsum"]

Array = _native.Array
_OPTIMIZE = {True: "greedy", "greedy": "greedy", "auto": "greedy", "optimal": "optimal",
             False: False}
_Tracer = None
_OPS = None


def _ns():
    return sys.modules["arraycore"]


def _is_array(x):
    global _Tracer
    if _Tracer is None:
        from ..autodiff.tracer import Tracer as _Tracer
    return isinstance(x, (Array, _Tracer))


def _optimize_key(optimize):
    if isinstance(optimize, (list, tuple)):  # an explicit path, as np.einsum_path returns it
        path = list(optimize)
        if path and path[0] == "einsum_path":
            path = path[1:]
        return tuple(tuple(step) if isinstance(step, (list, tuple)) else step for step in path)
    if type(optimize) in (bool, str) and optimize in _OPTIMIZE:
        return _OPTIMIZE[optimize]
    raise ValueError(f"einsum: optimize must be True, False, 'greedy', 'optimal', 'auto' or a "
                     f"contraction path, got {optimize!r}")


@functools.lru_cache(maxsize=512)
def _dtype_plan(subscripts, shapes, dtypes, optimize):
    """(plan, the dtype to compute in, whether the result is bool, whether an operand must
    be cast to it)."""
    plan = make_plan(subscripts, shapes, optimize)
    d = dtypes[0]
    if any(e is not d for e in dtypes):
        d = _ns().result_type(*dtypes)
    if d is _dt.bool_:  # products and sums of 0/1 counts; nonzero is NumPy's or-of-ands
        return plan, _dt.int64, True, True
    return plan, d, False, any(e is not d for e in dtypes)


def einsum(*args, optimize="greedy"):
    """Einstein summation: `einsum('ij,jk->ik', a, b)` is `a @ b`.

    subscripts: one comma-separated term of letters per operand, then optionally '->' and
    the output's letters (explicit mode).  Without '->' (implicit mode) the output is the
    letters that appear exactly once, in alphabetical order (upper case first).  A label
    repeated within a term takes a diagonal ('ii->i'); labels that are not in the output are
    summed ('ii' is the trace).  '...' stands for the dimensions not named; the ellipses of
    the operands broadcast against each other (aligned from the right), and a dimension of
    size 1 broadcasts against the same label's size elsewhere, as in NumPy.  NumPy's
    interleaved form `einsum(a, [0, 1], b, [1, 2], [0, 2])` (integers 0-51 and Ellipsis) is
    accepted too, and so is PyTorch's `einsum('ij,jk', [a, b])`.

    The operands are promoted together as `result_type` (integers stay integers, float32
    stays float32; bool operands give a bool result, NumPy's logical sum of products).

    optimize: the order in which operands are contracted two at a time.  True, 'greedy'
    (the default) and 'auto' pick greedily the pair whose product is smallest relative to
    its inputs; 'optimal' searches every order for the fewest multiply-adds (up to 8
    operands; greedy beyond); False contracts left to right; a list of position pairs (the
    path `numpy.einsum_path` returns) is followed as given.

    The result may be a view of an operand when no arithmetic is needed ('ij->ji',
    'ii->i'), as in NumPy and PyTorch.  Differentiable and batchable by `ac.func.vmap`.
    """
    if args and type(args[0]) is str:
        subscripts, operands = args[0], args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = tuple(operands[0])  # PyTorch's einsum(eq, [a, b])
    elif len(args) < 2:
        raise TypeError("einsum: expected subscripts and operands (or the interleaved form "
                        "einsum(op0, sublist0, op1, sublist1, ..., [sublist_out]))")
    else:
        subscripts, operands = from_interleaved(args)
    if not operands:
        raise ValueError("einsum: expected at least one operand")
    shapes, dtypes = [], []
    for x in operands:
        if type(x) is not Array and not _is_array(x):
            raise TypeError(f"einsum: operand {len(shapes)} must be an arraycore array, got "
                            f"{type(x).__name__}")
        shapes.append(x.shape)
        dtypes.append(x.dtype)
    key = _OPTIMIZE.get(optimize, None) if type(optimize) in (bool, str) else None
    if key is None:
        key = _optimize_key(optimize)
    plan, d, logical, cast = _dtype_plan(subscripts, tuple(shapes), tuple(dtypes), key)
    global _OPS
    if _OPS is None:  # built on the first call, after the autodiff install rebound xp's names
        xp = _ns()
        _OPS = (_Plain(xp), _Namespace(xp), xp)
    xp = _OPS[2]
    operands = [x if x.dtype is d else xp.astype(x, d) for x in operands] if cast else \
        list(operands)
    ops = _OPS[1] if _native.any_traced(*operands) else _OPS[0]
    out = _run(plan, operands, ops)
    if any(out is x for x in operands):  # 'ij', '...': a new view, as NumPy returns
        out = ops.permute(out, tuple(range(out.ndim)))
    return xp.not_equal(out, 0) if logical else out


class _Namespace:
    """The operations of a plan as namespace functions: what tracers and arrays on the tape
    need, since each call records or batches itself."""

    def __init__(self, xp):
        self.permute = xp.permute_dims
        self.reshape = xp.reshape
        self.diagonal = xp.linalg.diagonal
        self.matmul = xp.matmul
        self.multiply = xp.multiply
        self.sum = xp.sum

    def sum_out(self, x, step):
        return self.sum(x, axis=step.sum_axes, dtype=x.dtype)


_ONES = {}


def _ones(n, dtype):
    """A constant vector of n ones (cached: the dot products' and short sums' gemv; made by
    the engine directly, so that no transform active on the first call tags it)."""
    v = _ONES.get((n, dtype))
    if v is None:
        v = _ONES[(n, dtype)] = _native.full((n,), 1, dtype.code)
    return v


# A sum over at most this many elements per result (plain arrays whose summed axes merge
# into one run) is a gemv by ones: the reduction kernel walks short rows slowly
# (100000 rows of 4 float32: 0.92 ms summed, 0.13 ms by gemv).
SHORT_SUM = 256


class _Plain(_Namespace):
    """The same operations for plain arrays without their argument checks (the plan has
    made them): views built directly and the native matmul.  A small einsum spends most of
    its time in these calls (permute_dims validates its axes in Python: 5.7 us, the view
    itself 1.4 us)."""

    def __init__(self, xp):
        super().__init__(xp)
        self.matmul = _native.matmul  # the operands have one numeric dtype already
        self.permute = _permute_view
        self.diagonal = _diagonal_view

    def sum_out(self, x, step):
        rows, n = step.sum_rows
        if n <= SHORT_SUM and rows > 1:
            v = x if step.sum_perm is None else _permute_view(x, step.sum_perm)
            v = _native.reshape_view(v, (rows, n))
            if v is not None:
                return _native.reshape_view(_native.matmul(v, _ones(n, x.dtype)),
                                            step.kept_shape)
        return self.sum(x, axis=step.sum_axes, dtype=x.dtype)


def _permute_view(x, perm):
    shape, strides = x.shape, x._strides
    return x._view([shape[k] for k in perm], [strides[k] for k in perm], 0)


def _diagonal_view(x):
    """The diagonal of the last two axes (of equal sizes), as linalg.diagonal makes it."""
    shape, strides = x.shape, x._strides
    return x._view(list(shape[:-1]), list(strides[:-2]) + [strides[-2] + strides[-1]], 0)


def _run(plan, ops, o):
    permute, reshape = o.permute, o.reshape
    for k, step in plan.unary:
        x = ops[k]
        for perm in step.diagonals:
            x = o.diagonal(x if perm is None else permute(x, perm))
        if step.squeeze is not None:
            x = reshape(x, step.squeeze)
        if step.sum_axes:
            x = o.sum_out(x, step)
        ops[k] = x
    for p in plan.pairs:
        a, b = ops[p.i], ops[p.j]
        if p.perm_a is not None:
            a = permute(a, p.perm_a)
        if p.shape_a is not None:
            a = reshape(a, p.shape_a)
        if p.perm_b is not None:
            b = permute(b, p.perm_b)
        if p.shape_b is not None:
            b = reshape(b, p.shape_b)
        if p.kind == "matmul":
            r = o.matmul(a, b)
        elif p.kind == "multiply":
            r = o.multiply(a, b)
        else:  # "dot": the products' rows summed by one gemv
            r = o.multiply(a, b)
            r = o.matmul(r, _ones(r.shape[-1], r.dtype))
        if p.shape_out is not None:
            r = reshape(r, p.shape_out)
        ops = [x for m, x in enumerate(ops) if m != p.i and m != p.j] + [r]
    x = ops[0]
    if plan.final_perm is not None:
        x = permute(x, plan.final_perm)
    return x
