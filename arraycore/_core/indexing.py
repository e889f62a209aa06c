"""L1: basic indexing (integers, slices, Ellipsis, None) as views of the same buffer.

Integer-array and boolean-mask indexing come with the full Array API work (issue 3); until
then they raise IndexError saying so.
"""

from __future__ import annotations

import operator

from ..native import _native

Array = _native.Array


def _as_int_index(k):
    if type(k) is int:
        return k
    if isinstance(k, Array):
        if k.ndim == 0 and k.dtype.kind in "iu":
            return int(k._item())
        return None
    if isinstance(k, bool):
        return None
    try:
        return operator.index(k)
    except TypeError:
        return None


def basic_view(x, key, who: str = "__getitem__"):
    """The view x[key] for a basic index; raises IndexError for anything else."""
    if not isinstance(key, tuple):
        key = (key,)
    shape = x.shape
    strides = x._strides
    ndim = len(shape)
    n_ellipsis = 0
    n_consuming = 0
    for k in key:
        if k is Ellipsis:
            n_ellipsis += 1
        elif k is not None:
            n_consuming += 1
    if n_ellipsis > 1:
        raise IndexError(f"{who}: an index can only have a single ellipsis ('...')")
    if n_consuming > ndim:
        raise IndexError(f"{who}: too many indices for an array of {ndim} dimension(s): "
                         f"got {n_consuming}")
    new_shape, new_strides = [], []
    offset = 0
    dim = 0
    for k in key:
        if k is None:
            new_shape.append(1)
            new_strides.append(0)
        elif k is Ellipsis:
            for _ in range(ndim - n_consuming):
                new_shape.append(shape[dim])
                new_strides.append(strides[dim])
                dim += 1
        elif type(k) is slice:
            start, stop, step = k.indices(shape[dim])
            n = len(range(start, stop, step))
            new_shape.append(n)
            new_strides.append(strides[dim] * step)
            if n > 0:
                offset += start * strides[dim]
            dim += 1
        else:
            i = _as_int_index(k)
            if i is None:
                raise IndexError(
                    f"{who}: only integers, slices, '...', None and 0-d integer arrays are "
                    f"valid indices here, got {type(k).__name__}"
                    + (" (integer-array and boolean-mask indexing are not implemented yet)"
                       if isinstance(k, (Array, list, bool)) else ""))
            size = shape[dim]
            if i < -size or i >= size:
                raise IndexError(f"{who}: index {i} is out of bounds for axis {dim} with "
                                 f"size {size}")
            if i < 0:
                i += size
            offset += i * strides[dim]
            dim += 1
    while dim < ndim:
        new_shape.append(shape[dim])
        new_strides.append(strides[dim])
        dim += 1
    if len(new_shape) > _MAX_NDIM:
        raise IndexError(f"{who}: the result would have {len(new_shape)} dimensions; at most "
                         f"{_MAX_NDIM} are supported")
    return x._view(new_shape, new_strides, offset)


_MAX_NDIM = 64  # as check_shape and __array_namespace_info__().capabilities()
