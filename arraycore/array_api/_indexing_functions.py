"""L2: the standard's indexing functions, `take` and `take_along_axis`, on the native
gather kernel (see Note [Advanced indexing layout] in native/src/kernels/gather.h)."""

from __future__ import annotations

from ..native import _native
from ._manipulation import AxisError, _axis
from ._validation import check_array

Array = _native.Array

__all__ = ["take", "take_along_axis"]

_INT64 = 4


def _check_indices(indices, who):
    if not isinstance(indices, Array):
        raise TypeError(f"{who}: indices must be an array, got {type(indices).__name__}")
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{who}: indices must have an integer dtype, got {indices.dtype}")


def take(x, indices, /, *, axis=None):
    """Elements of x at `indices` along `axis` (required when x has more than one
    dimension).  Negative indices count from the end; out-of-range ones raise IndexError.

    The result has shape x.shape[:axis] + indices.shape + x.shape[axis+1:].

    >>> ac.take(ac.asarray([10, 20, 30]), ac.asarray([2, 0, -1]))
    """
    check_array(x, "take")
    _check_indices(indices, "take")
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"take: axis is required for an array of {x.ndim} dimensions")
        axis = 0
    elif x.ndim == 0:
        raise AxisError("take: a 0-d array has no axis to take from")
    axis = _axis(axis, x.ndim, "take")
    nb = indices.ndim
    shape = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
    out = _native.empty(shape, x._dtype_code)
    perm = list(range(axis, axis + nb)) + list(range(axis)) + list(range(axis + nb, len(shape)))
    sub = out._view([shape[i] for i in perm], [out._strides[i] for i in perm], 0)
    _native.adv_gather(x, [axis], [indices], sub, "take")
    return out


# take of plain arrays natively (bind_fast_advanced.cpp); every other call runs the function
take = _native.fast_function("take", None, 0, take, wrapped=take)


def take_along_axis(x, indices, /, *, axis=-1):
    """out[..., j, ...] = x[..., indices[..., j, ...], ...] along `axis`; x and indices have
    the same number of dimensions and broadcast against each other on the other axes.

    >>> x = ac.asarray([[3, 1, 2]]); ac.take_along_axis(x, ac.asarray([[1, 2, 0]]), axis=1)
    """
    check_array(x, "take_along_axis")
    _check_indices(indices, "take_along_axis")
    if x.ndim == 0:
        raise AxisError("take_along_axis: a 0-d array has no axis to take along")
    if indices.ndim != x.ndim:
        raise ValueError(f"take_along_axis: indices must have as many dimensions as x "
                         f"({x.ndim}), got {indices.ndim}")
    axis = _axis(axis, x.ndim, "take_along_axis")
    shape = []
    for d in range(x.ndim):
        if d == axis:
            shape.append(indices.shape[d])
            continue
        a, b = x.shape[d], indices.shape[d]
        if a != b and a != 1 and b != 1:
            raise ValueError(f"take_along_axis: x of shape {x.shape} and indices of shape "
                             f"{indices.shape} do not broadcast outside axis {axis}")
        shape.append(b if a == 1 else a)
    shape = tuple(shape)
    xshape = list(shape)
    xshape[axis] = x.shape[axis]
    xb = x if tuple(xshape) == x.shape else _native.broadcast_to(x, xshape)
    out = _native.empty(shape, x._dtype_code)
    if out.size == 0:
        return out
    idx = []
    for d in range(x.ndim):
        if d == axis:
            idx.append(indices if indices.shape == shape else
                       _native.broadcast_to(indices, shape))
        else:
            r = _native.arange(0, shape[d], 1, _INT64)
            strides = [0] * x.ndim
            strides[d] = 1
            idx.append(r._view(list(shape), strides, 0))
    _native.adv_gather(xb, list(range(x.ndim)), idx, out, "take_along_axis")
    return out
