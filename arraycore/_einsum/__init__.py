"""`ac.einsum`: Einstein summation with NumPy's, PyTorch's and JAX's semantics.

Parsing (`_parse.py`) and planning (`_plan.py`) look only at the subscripts and the
operands' shapes and are cached; `_run` carries the plan out with namespace functions
(`permute_dims`, `reshape`, `matmul`, `multiply`, `sum`, `linalg.diagonal`), looked up at
call time: `install_namespace` rebinds the public names to their dispatching versions
(arraycore/autodiff/install.py), so einsum differentiates and batches (tape, `ac.func.grad`,
`jvp`, `vmap`, nested) through the rules of those operations.  See docs/einsum.md.
"""

from __future__ import annotations

import sys

from .._core import dtypes as _dt
from ..native import _native
from ._parse import from_interleaved
from ._plan import make_plan

__all__ = ["einsum"]

Array = _native.Array
_OPTIMIZE = {True: "greedy", "greedy": "greedy", "auto": "greedy", "optimal": "greedy",
             False: False}
_Tracer = None


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
    if isinstance(optimize, (bool, str)) and optimize in _OPTIMIZE:
        return _OPTIMIZE[optimize]
    raise ValueError(f"einsum: optimize must be True, False, 'greedy', 'optimal', 'auto' or a "
                     f"contraction path, got {optimize!r}")


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
    accepted too.

    The operands are promoted together as `result_type` (integers stay integers, float32
    stays float32; bool operands give a bool result, NumPy's logical sum of products).

    optimize: the order in which operands are contracted two at a time.  True, 'greedy'
    (the default), 'auto' and 'optimal' pick greedily the pair whose product is smallest
    relative to its inputs; False contracts left to right; a list of position pairs (the
    path `numpy.einsum_path` returns) is followed as given.

    The result may be a view of an operand when no arithmetic is needed ('ij->ji',
    'ii->i'), as in NumPy and PyTorch.  Differentiable and batchable by `ac.func.vmap`.
    """
    if not args:
        raise TypeError("einsum: expected subscripts and operands")
    if isinstance(args[0], str):
        subscripts, operands = args[0], list(args[1:])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])  # PyTorch's einsum(eq, [a, b])
    else:
        if len(args) < 2:
            raise TypeError("einsum: expected subscripts and operands, got one argument "
                            "(the interleaved form is einsum(op0, sublist0, op1, sublist1, "
                            "..., [sublist_out]))")
        subscripts, operands = from_interleaved(args)
    if not operands:
        raise ValueError("einsum: expected at least one operand")
    for k, x in enumerate(operands):
        if not _is_array(x):
            raise TypeError(f"einsum: operand {k} must be an arraycore array, got "
                            f"{type(x).__name__}")
    key = _optimize_key(optimize)
    plan = make_plan(subscripts, tuple(tuple(x.shape) for x in operands), key)
    xp = _ns()
    dtypes = [x.dtype for x in operands]
    d = dtypes[0]
    if any(e is not d for e in dtypes):
        d = xp.result_type(*dtypes)
    logical = d is _dt.bool_
    if logical:  # products and sums of 0/1 counts; nonzero is NumPy's or-of-ands
        d = _dt.int64
    operands = [x if x.dtype is d else xp.astype(x, d) for x in operands]
    out = _run(plan, operands, xp)
    return xp.not_equal(out, 0) if logical else out


def _run(plan, ops, xp):
    permute, reshape = xp.permute_dims, xp.reshape
    for k, step in enumerate(plan.unary):
        if step is None:
            continue
        x = ops[k]
        for perm in step.diagonals:
            x = xp.linalg.diagonal(permute(x, perm))
        if step.squeeze:
            x = xp.squeeze(x, axis=step.squeeze)
        if step.sum_axes:
            x = xp.sum(x, axis=step.sum_axes, dtype=x.dtype)
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
        r = xp.matmul(a, b) if p.matmul else xp.multiply(a, b)
        if p.shape_out is not None:
            r = reshape(r, p.shape_out)
        ops = [x for m, x in enumerate(ops) if m != p.i and m != p.j] + [r]
    x = ops[0]
    if plan.final_perm is not None:
        x = permute(x, plan.final_perm)
    return x
