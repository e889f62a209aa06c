"""L2: the standard's manipulation functions.

Everything that can be a view is one (`broadcast_to`, `expand_dims`, `flip`, `moveaxis`,
`permute_dims`, `squeeze`, `unstack`, and `reshape` whenever the strides allow: the stride
arithmetic is native, `_native.reshape_view`).  The rest allocate the result once and fill it
with native strided copies (`_copy_from`, which also casts), or gather (`repeat` with
per-element counts).  No per-element work happens in Python.
"""

from __future__ import annotations

import itertools
import operator

from .._core import dtypes as _dt
from ..native import _native
from ._validation import check_array, check_int

Array = _native.Array

__all__ = ["broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims",
           "flip", "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack",
           "tile", "unstack"]


class AxisError(ValueError, IndexError):
    """An axis out of range.  Both a ValueError and an IndexError, as NumPy's AxisError."""


def _axis(axis, ndim, who, name="axis"):
    a = check_int(axis, who, name)
    if not -ndim <= a < ndim:
        raise AxisError(f"{who}: {name} {a} is out of bounds for an array of {ndim} "
                        f"dimension(s)")
    return a + ndim if a < 0 else a


def _axes(axis, ndim, who, name="axis"):
    """A tuple of distinct normalized axes from an int or a sequence of ints."""
    seq = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(_axis(a, ndim, who, name) for a in seq)
    if len(set(out)) != len(out):
        raise ValueError(f"{who}: repeated axis in {name} {axis!r}")
    return out


def _shape_arg(shape, who):
    seq = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    out = []
    for d in seq:
        if isinstance(d, (bool, float)):
            raise TypeError(f"{who}: shape entries must be integers, got {d!r}")
        try:
            out.append(operator.index(d))
        except TypeError:
            raise TypeError(f"{who}: shape entries must be integers, got "
                            f"{type(d).__name__}") from None
    return tuple(out)


def _view(x, shape, strides, offset=0):
    return x._view(list(shape), list(strides), offset)


def _arrays(arrays, who):
    if isinstance(arrays, Array) or not isinstance(arrays, (tuple, list)):
        raise TypeError(f"{who}: expected a tuple or list of arrays, got "
                        f"{type(arrays).__name__}")
    if not arrays:
        raise ValueError(f"{who}: need at least one array")
    for a in arrays:
        check_array(a, who, "arrays")
    return list(arrays)


def _result_dtype(arrays):
    return _dt.promote_sequence(a.dtype for a in arrays)


def broadcast_shapes(*shapes):
    """The shape that `shapes` broadcast to.  >>> ac.broadcast_shapes((2, 1), (3,))"""
    return tuple(_native.broadcast_shapes([_shape_arg(s, "broadcast_shapes") for s in shapes]))


def broadcast_to(x, /, shape):
    """A read-only-by-convention view of x broadcast to `shape` (stride 0 along new axes).

    >>> ac.broadcast_to(ac.asarray([1, 2]), (3, 2))
    """
    check_array(x, "broadcast_to")
    return _native.broadcast_to(x, _shape_arg(shape, "broadcast_to"))


def broadcast_arrays(*arrays):
    """Views of the arrays broadcast to their common shape (a tuple).

    >>> ac.broadcast_arrays(ac.ones((2, 1)), ac.zeros(3))
    """
    for a in arrays:
        check_array(a, "broadcast_arrays", "arrays")
    if not arrays:
        return ()
    shape = tuple(_native.broadcast_shapes([a.shape for a in arrays]))
    return tuple(a if a.shape == shape else _native.broadcast_to(a, shape) for a in arrays)


def concat(arrays, /, *, axis=0):
    """Joins arrays along an existing axis (axis=None: flattens them first).  Mixed dtypes
    promote as `result_type`.  >>> ac.concat((ac.ones(2), ac.zeros(3)))
    """
    arrays = _arrays(arrays, "concat")
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    ndim = arrays[0].ndim
    if ndim == 0:
        raise ValueError("concat: zero-dimensional arrays cannot be concatenated")
    if any(a.ndim != ndim for a in arrays):
        raise ValueError(f"concat: all arrays must have the same number of dimensions, got "
                         f"{[a.ndim for a in arrays]}")
    axis = _axis(axis, ndim, "concat")
    base = arrays[0].shape
    for a in arrays[1:]:
        if any(a.shape[d] != base[d] for d in range(ndim) if d != axis):
            raise ValueError(f"concat: array shapes {base} and {a.shape} differ outside "
                             f"axis {axis}")
    total = sum(a.shape[axis] for a in arrays)
    shape = base[:axis] + (total,) + base[axis + 1:]
    out = _native.empty(shape, _result_dtype(arrays).code)
    pre = (slice(None),) * axis
    start = 0
    for a in arrays:
        n = a.shape[axis]
        if n:
            out[pre + (slice(start, start + n),)]._copy_from(a)
        start += n
    return out


def expand_dims(x, /, axis=0):
    """Inserts axes of length 1 at the positions `axis` (an int or a tuple) of the result.

    >>> ac.expand_dims(ac.ones(3), axis=(0, -1)).shape
    """
    check_array(x, "expand_dims")
    seq = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = x.ndim + len(seq)
    new = set(_axes(seq, out_ndim, "expand_dims"))
    shape, strides = [], []
    it = iter(zip(x.shape, x._strides))
    for d in range(out_ndim):
        if d in new:
            shape.append(1)
            strides.append(0)
        else:
            n, s = next(it)
            shape.append(n)
            strides.append(s)
    return _view(x, shape, strides)


def flip(x, /, *, axis=None):
    """Reverses the order of elements along `axis` (None: all axes); a view.

    >>> ac.flip(ac.arange(4))
    """
    check_array(x, "flip")
    axes = range(x.ndim) if axis is None else _axes(axis, x.ndim, "flip")
    strides = list(x._strides)
    offset = 0
    if x.size:
        for a in axes:
            offset += (x.shape[a] - 1) * strides[a]
            strides[a] = -strides[a]
    else:
        for a in axes:
            strides[a] = -strides[a]
    return _view(x, x.shape, strides, offset)


def permute_dims(x, /, axes):
    """Permutes the axes (a view).  >>> ac.permute_dims(ac.ones((2, 3)), (1, 0)).shape"""
    check_array(x, "permute_dims")
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f"permute_dims: axes must be a tuple of ints, got "
                        f"{type(axes).__name__}")
    if len(axes) != x.ndim:
        raise ValueError(f"permute_dims: axes {tuple(axes)} do not match an array of "
                         f"{x.ndim} dimension(s)")
    perm = _axes(axes, x.ndim, "permute_dims", "axes")
    return _view(x, [x.shape[a] for a in perm], [x._strides[a] for a in perm])


def moveaxis(x, source, destination, /):
    """Moves axes to new positions, the others keeping their order (a view).

    >>> ac.moveaxis(ac.ones((2, 3, 4)), 0, -1).shape
    """
    check_array(x, "moveaxis")
    src = _axes(source, x.ndim, "moveaxis", "source")
    dst = _axes(destination, x.ndim, "moveaxis", "destination")
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number of "
                         "elements")
    order = [d for d in range(x.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _view(x, [x.shape[a] for a in order], [x._strides[a] for a in order])


def squeeze(x, /, axis):
    """Removes axes of length 1 (`axis`: an int or a tuple); a view.

    >>> ac.squeeze(ac.ones((1, 3, 1)), axis=(0, 2)).shape
    """
    check_array(x, "squeeze")
    axes = set(_axes(axis, x.ndim, "squeeze"))
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"squeeze: cannot remove axis {a} of size {x.shape[a]} (only "
                             "axes of size 1 can be squeezed)")
    keep = [d for d in range(x.ndim) if d not in axes]
    return _view(x, [x.shape[d] for d in keep], [x._strides[d] for d in keep])


def reshape(x, /, shape, *, copy=None):
    """Gives x a new shape (row-major order): a view whenever the strides allow; copy=True
    always copies, copy=False raises ValueError when a view is impossible.  One entry may be
    -1 (inferred).  >>> ac.reshape(ac.arange(6), (2, -1)).shape
    """
    check_array(x, "reshape")
    if copy not in (None, True, False):
        raise ValueError(f"reshape: copy must be True, False or None, got {copy!r}")
    shape = _shape_arg(shape, "reshape")
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError("reshape: only one dimension can be -1")
    if any(d < -1 for d in shape):
        raise ValueError(f"reshape: invalid shape {shape}")
    if unknown:
        known = 1
        for d in shape:
            if d != -1:
                known *= d
        if known == 0 or x.size % known:
            raise ValueError(f"reshape: cannot reshape an array of size {x.size} into shape "
                             f"{shape}")
        shape = tuple(x.size // known if d == -1 else d for d in shape)
    n = 1
    for d in shape:
        n *= d
    if n != x.size:
        raise ValueError(f"reshape: cannot reshape an array of size {x.size} into shape {shape}")
    if copy:
        return _native.reshape_view(_native.copy_c(x), shape)
    v = _native.reshape_view(x, shape)
    if v is not None:
        return v
    if copy is False:
        raise ValueError(f"reshape: cannot reshape an array of shape {x.shape} and strides "
                         f"{x._strides} into {shape} without copying, but copy=False")
    return _native.reshape_view(_native.copy_c(x), shape)


# Native fast path (bind_fast_calls.cpp): reshape(x, shape) of a plain array with an int or
# a tuple/list of ints, when the result is a view; every other call runs the function above.
reshape = _native.fast_function("reshape", None, 0, reshape, wrapped=reshape)


def stack(arrays, /, *, axis=0):
    """Joins arrays of one shape along a new axis.  >>> ac.stack((ac.ones(2), ac.zeros(2)))"""
    arrays = _arrays(arrays, "stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError(f"stack: all arrays must have the same shape, got "
                         f"{[a.shape for a in arrays]}")
    axis = _axis(axis, len(shape) + 1, "stack")
    out = _native.empty(shape[:axis] + (len(arrays),) + shape[axis:],
                        _result_dtype(arrays).code)
    pre = (slice(None),) * axis
    for i, a in enumerate(arrays):
        out[pre + (i,)]._copy_from(a)
    return out


def unstack(x, /, *, axis=0):
    """Splits x along `axis` into a tuple of views.  >>> ac.unstack(ac.ones((2, 3)))"""
    check_array(x, "unstack")
    if x.ndim == 0:
        raise ValueError("unstack: a zero-dimensional array cannot be unstacked")
    axis = _axis(axis, x.ndim, "unstack")
    pre = (slice(None),) * axis
    return tuple(x[pre + (i,)] for i in range(x.shape[axis]))


def roll(x, /, shift, *, axis=None):
    """Rolls elements along axes (axis=None: over the flattened array); elements leaving one
    end come back at the other.  >>> ac.roll(ac.arange(5), 2)
    """
    check_array(x, "roll")
    shifts = tuple(shift) if isinstance(shift, (tuple, list)) else (shift,)
    shifts = tuple(check_int(s, "roll", "shift") for s in shifts)
    if axis is None:
        if len(shifts) != 1:
            raise ValueError("roll: with axis=None, shift must be a single integer")
        flat = reshape(x, (-1,))
        return reshape(roll(flat, shifts[0], axis=0), x.shape)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(_axis(a, x.ndim, "roll") for a in axes)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: shift and axis must have the same length, got {len(shifts)} "
                         f"and {len(axes)}")
    total = [0] * x.ndim
    for s, a in zip(shifts, axes):
        total[a] += s
    out = _native.empty(x.shape, x._dtype_code)
    if x.size == 0:
        return out
    # Each rolled axis splits into two pieces; copy every combination of pieces.
    pieces = []
    for d in range(x.ndim):
        n = x.shape[d]
        s = total[d] % n if n else 0
        if s == 0:
            pieces.append([(slice(None), slice(None))])
        else:
            pieces.append([(slice(s, None), slice(0, n - s)), (slice(0, s), slice(n - s, None))])
    for combo in itertools.product(*pieces):
        out[tuple(c[0] for c in combo)]._copy_from(x[tuple(c[1] for c in combo)])
    return out


def repeat(x, repeats, /, *, axis=None):
    """Repeats each element `repeats` times (an int, or an integer array with one count per
    element along `axis`); axis=None works on the flattened array.

    >>> ac.repeat(ac.asarray([1, 2]), 2)
    """
    check_array(x, "repeat")
    if axis is None:
        x = reshape(x, (-1,))
        axis = 0
    elif x.ndim == 0:
        raise AxisError(f"repeat: axis {axis} is out of bounds for a 0-d array")
    axis = _axis(axis, x.ndim, "repeat")
    n = x.shape[axis]
    if isinstance(repeats, Array):
        if repeats.dtype.kind not in "iu":
            raise TypeError(f"repeat: repeats must have an integer dtype, got {repeats.dtype}")
        if repeats.ndim > 1:
            raise ValueError("repeat: repeats must be 0-d or 1-d")
        if repeats.ndim == 0:
            repeats = int(repeats._item())
        elif repeats.shape[0] == 1:
            repeats = int(repeats[0]._item())
        elif repeats.shape[0] != n:
            raise ValueError(f"repeat: repeats has {repeats.shape[0]} counts, axis {axis} has "
                             f"{n} elements")
        else:
            from ._indexing_functions import take
            return take(x, _native.repeat_indices(repeats), axis=axis)
    r = check_int(repeats, "repeat", "repeats")
    if r < 0:
        raise ValueError(f"repeat: repeats must be non-negative, got {r}")
    shape, strides = list(x.shape), list(x._strides)
    shape.insert(axis + 1, r)
    strides.insert(axis + 1, 0)
    out = _native.empty(shape, x._dtype_code)
    if out.size:
        out._copy_from(_view(x, shape, strides) if x.size else x)
    final = list(x.shape)
    final[axis] = n * r
    return _native.reshape_view(out, final)


def tile(x, repetitions, /):
    """Repeats the whole array `repetitions[i]` times along each axis (shorter tuples count
    from the last axis).  >>> ac.tile(ac.asarray([1, 2]), (2, 2))
    """
    check_array(x, "tile")
    reps = tuple(repetitions) if isinstance(repetitions, (tuple, list)) else None
    if reps is None:
        raise TypeError(f"tile: repetitions must be a tuple of ints, got "
                        f"{type(repetitions).__name__}")
    reps = tuple(check_int(r, "tile", "repetitions") for r in reps)
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: repetitions must be non-negative, got {reps}")
    nd = max(len(reps), x.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    xs = (1,) * (nd - x.ndim) + x.shape
    xst = (0,) * (nd - x.ndim) + x._strides
    shape, strides = [], []
    for r, n, s in zip(reps, xs, xst):
        shape += [r, n]
        strides += [0, s]
    out = _native.empty(shape, x._dtype_code)
    if out.size:
        out._copy_from(_view(x, shape, strides))
    return _native.reshape_view(out, [r * n for r, n in zip(reps, xs)])


# Plain arrays are joined (and expand_dims viewed) natively (bind_fast_join.cpp), in the dtype
# _result_dtype gives, from this table; every other call runs the Python function above.
_native.set_promotion_table([_dt.promote_types(a, b).code
                             for a in _dt.BY_CODE for b in _dt.BY_CODE])
concat, stack, expand_dims = (_native.fast_function(f.__name__, None, 0, f, wrapped=f)
                              for f in (concat, stack, expand_dims))
