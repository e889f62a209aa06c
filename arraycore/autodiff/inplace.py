"""L3: in-place writes (`x += y`, `x[key] = v`, `x @= y`) when autodiff is involved.

- A recorded array (tape): the op is recorded out of place, the result is copied into x's
  buffer, and x takes the result's place in the graph (PyTorch's rebase of history).  A leaf
  that requires grad raises, as in PyTorch; so does a view of a recorded array (PyTorch
  tracks views of views; arraycore refuses rather than give a wrong gradient).
- A tracer: it is rebound to the out-of-place result (tracers are values, not buffers).
- A plain array receiving a tracer value: allowed when the array was created inside the
  tracer's transform (it becomes that transform's value, e.g. a batched buffer under vmap;
  PyTorch raises here); an array captured from outside raises, since the write would have
  to change a value the transform does not own.
Every in-place write bumps the buffer's version counter (versions.py).
"""

from __future__ import annotations

from ..native import _native
from . import tape, versions
from .state import STATE
from .tracer import Tracer

Array = _native.Array
_any_traced = _native.any_traced


def promoted(x):
    """The tracer a plain array created inside a transform now stands for, if any."""
    return getattr(x, "_promoted", None)


def _tracer_in(values):
    for v in values:
        if isinstance(v, Tracer):
            return v
        if type(v) in (list, tuple):
            t = _tracer_in(v)
            if t is not None:
                return t
    return None


def write(x, compute, who, operands=()):
    """x <- compute(x_value) for an Array x; compute runs the out-of-place op on the other
    `operands` (checked first: a tracer may only be written into an array created inside
    its transform)."""
    p = promoted(x)
    if p is not None:
        new = compute(p)
        _check_dtype(new, p, who)
        p._assign(new)
        _sync_buffer(x, p)
        return
    t = _tracer_in(operands)
    if t is not None:
        _check_born_inside(x, t, who)
    tape.check_inplace_target(x, who)
    old_meta = getattr(x, "_ad", None)
    view_of = old_meta.is_view_of if old_meta is not None else None
    new = compute(x)
    if old_meta is not None and _saves_buffer_of(new, x):
        # The op's node saved x itself (y *= x saves y for d/dx), and the write below would
        # overwrite that saved value.  As PyTorch does for in-place ops whose derivative
        # reads the original self, the node is made again on a copy of the old value that
        # stands for the same place in the graph.
        new = compute(_copy_with_meta(x, old_meta))
    _check_dtype(new, x, who)
    if isinstance(new, Tracer):
        _check_born_inside(x, new, who)
        x._promoted = new
        _sync_buffer(x, new)
        return
    if new is x:
        return
    if new.shape != x.shape:
        raise ValueError(f"{who}: in-place result would have shape {new.shape}, not the "
                         f"array's shape {x.shape}")
    prev = STATE.grad_enabled
    STATE.grad_enabled = False
    try:
        x._copy_from(new)
    finally:
        STATE.grad_enabled = prev
    versions.bump(x)
    tape.rebase(x, new)
    if view_of is not None and getattr(x, "_ad", None) is not None:
        x._ad.is_view_of = view_of
        # A basic-index view of a recorded array: the base's history gets the write too
        # (PyTorch's CopySlices), so a gradient through the base sees it.
        base, key = view_of
        from .._core.op_table import OPS
        base_new = OPS["setitem"].public(base, key, x)
        tape.rebase(base, base_new)


def _sync_buffer(x, t):
    """The buffer of an array promoted to tracer t also holds t's concrete value, when it has
    one of x's shape (forward and reverse tracers; a batched value does not fit): reading
    the array after its transform ended (forward_ad's dual level, NumPy conversion) shows
    what was written, as in PyTorch."""
    v = t
    while isinstance(v, Tracer):
        v = getattr(v, "primal", None)
    if type(v) is not Array or v.shape != x.shape or v.dtype != x.dtype:
        return
    prev = STATE.grad_enabled
    STATE.grad_enabled = False
    try:
        x._copy_from(v)
    finally:
        STATE.grad_enabled = prev
    versions.bump(x)


def _saves_buffer_of(new, x):
    """Whether the node that made `new` keeps x's buffer among its saved values."""
    m = getattr(new, "_ad", None)
    node = m.grad_fn if m is not None else None
    if node is None:
        return False
    ptr = x._buffer_ptr
    for item in getattr(node, "saved", None) or ():
        a = item[0] if type(item) is tuple else item
        if type(a) is Array and a._buffer_ptr == ptr:
            return True
    return False


def _copy_with_meta(x, meta):
    prev = STATE.grad_enabled
    STATE.grad_enabled = False
    try:
        import arraycore
        c = arraycore.asarray(x, copy=True)
    finally:
        STATE.grad_enabled = prev
    c._ad = meta
    return c


def _check_born_inside(x, t, who):
    born = getattr(x, "_born", None)
    if born is None or born < t._interp.level:
        raise ValueError(
            f"{who}: cannot write a value traced by {t._interp.kind} into an array created "
            "outside the transformed function: the array is not the transform's to change. "
            "Create the array inside the function (ac.zeros, ac.empty, ...) or use an "
            "out-of-place operation (ac.where, concat, ...)")


def _check_dtype(new, x, who):
    if new.dtype != x.dtype:
        raise TypeError(f"{who}: in-place result would have dtype {new.dtype}, not the "
                        f"array's dtype {x.dtype}")


__all__ = ["write", "promoted"]
