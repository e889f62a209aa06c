"""L1: indexing.  Basic indexing (integers, slices, Ellipsis, None) gives views of the same
buffer; advanced indexing (integer arrays, lists of ints, boolean masks, mixed with basic
indices as NumPy allows) is reduced here to the plan of Note [Advanced indexing layout]
(native/src/kernels/gather.h) and run by the native gather/scatter kernels.
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
            try:
                start, stop, step = k.indices(shape[dim])
            except (ValueError, TypeError) as e:  # a zero step, a non-integer bound
                raise type(e)(f"{who}: {e}") from None
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
                    f"valid indices here, got {type(k).__name__}")
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


# --- advanced indexing ---------------------------------------------------------------------

_INT64 = 4  # dtype codes (arraycore/_core/dtypes.py)
_BOOL = 0


def _classify(k, who):
    """('int', i) | ('basic', k) | ('arr', int array) | ('mask', bool array)."""
    if type(k) is int:
        return ("int", k)
    if k is None or k is Ellipsis or type(k) is slice:
        return ("basic", k)
    if isinstance(k, bool):
        return ("mask", _native.from_scalar(k, _BOOL))
    if isinstance(k, Array):
        kind = k.dtype.kind
        if kind == "b":
            return ("mask", k)
        if kind in "iu":
            return ("int", int(k._item())) if k.ndim == 0 else ("arr", k)
        raise IndexError(f"{who}: arrays used as indices must be of integer or boolean dtype, "
                         f"got {k.dtype}")
    dt = getattr(k, "dtype", None)
    if dt is not None and getattr(dt, "kind", None) == "b" and getattr(k, "ndim", 1) == 0:
        return ("mask", _native.from_scalar(bool(k), _BOOL))  # NumPy bool scalars
    if not isinstance(k, (list, tuple)) and dt is None:
        try:
            return ("int", operator.index(k))
        except TypeError:
            pass
    if isinstance(k, (list, tuple)) or dt is not None or hasattr(k, "__array__"):
        from ..array_api._creation import asarray
        try:
            a = asarray(k)
        except (TypeError, ValueError) as e:
            raise IndexError(f"{who}: cannot use {type(k).__name__} as an index ({e})") \
                from None
        if a.size == 0 and a.dtype.kind == "f":  # [] is an empty integer index
            a = _native.empty(a.shape, _INT64)
        return _classify(a, who)
    raise IndexError(f"{who}: only integers, slices, '...', None, integer arrays and boolean "
                     f"arrays are valid indices, got {type(k).__name__}")


def _is_basic(key) -> bool:
    """True for keys that basic_view handles (the fast path, no conversions)."""
    if type(key) is tuple:
        return all(_is_basic_part(k) for k in key)
    return _is_basic_part(key)


def _is_basic_part(k) -> bool:
    if type(k) is int or k is None or k is Ellipsis or type(k) is slice:
        return True
    if isinstance(k, Array):
        return k.ndim == 0 and k.dtype.kind in "iu"
    if getattr(k, "ndim", None) == 0 and getattr(getattr(k, "dtype", None), "kind", "?") in "iu":
        return True  # NumPy integer scalars
    if isinstance(k, (bool, list, tuple)) or hasattr(k, "__array__") or hasattr(k, "dtype"):
        return False
    try:
        operator.index(k)
        return True
    except TypeError:
        return False


class _Plan:
    __slots__ = ("view", "axes", "idx", "final", "perm", "mask")


def _plan(x, key, who):
    """Reduces an advanced index to a basic view + advanced axes (gather.h's layout)."""
    if type(key) is not tuple:
        key = (key,)
    parts = [_classify(k, who) for k in key]
    ndim = x.ndim
    n_ell = sum(1 for t, k in parts if t == "basic" and k is Ellipsis)
    if n_ell > 1:
        raise IndexError(f"{who}: an index can only have a single ellipsis ('...')")
    consumed = sum(1 if t in ("int", "arr") else (k.ndim if t == "mask" else
                                                   (1 if type(k) is slice else 0))
                   for t, k in parts)
    if consumed > ndim:
        raise IndexError(f"{who}: too many indices for an array of {ndim} dimension(s): got "
                         f"{consumed}")
    plan = _Plan()
    # A single mask over the leading axes: the compaction kernel, no coordinates.
    if (parts and parts[0][0] == "mask" and parts[0][1].ndim > 0
            and parts[0][1].shape == x.shape[:parts[0][1].ndim]
            and all(t == "basic" and k is Ellipsis for t, k in parts[1:])):
        plan.mask = parts[0][1]
        return plan
    plan.mask = None
    if not any(t in ("arr", "mask") for t, _ in parts):
        plan.view = basic_view(x, tuple(k for _, k in parts), who)
        plan.axes = None
        return plan
    basic, axes, idx = [], [], []
    vd = xd = 0
    for t, k in parts:
        if t == "basic":
            basic.append(k)
            if k is Ellipsis:
                vd += ndim - consumed
                xd += ndim - consumed
            elif k is None:
                vd += 1
            else:
                vd += 1
                xd += 1
        elif t == "int":
            basic.append(slice(None))
            axes.append(vd)
            idx.append(_native.from_scalar(k, _INT64))
            vd += 1
            xd += 1
        elif t == "arr":
            basic.append(slice(None))
            axes.append(vd)
            idx.append(k)
            vd += 1
            xd += 1
        elif k.ndim == 0:  # a 0-d mask: a new axis of length 1 (True) or 0 (False)
            basic.append(None)
            axes.append(vd)
            idx.append(_native.arange(0, 1 if k._item() else 0, 1, _INT64))
            vd += 1
        else:
            m = k.ndim
            for j in range(m):
                # An empty mask dimension selects nothing along any axis (NumPy and
                # array-api-strict accept it); other length mismatches are errors.
                if k.shape[j] != x.shape[xd + j] and k.shape[j] != 0:
                    raise IndexError(
                        f"{who}: boolean index did not match the indexed array along axis "
                        f"{xd + j}; size of axis is {x.shape[xd + j]} but size of the boolean "
                        f"axis is {k.shape[j]}")
            basic.extend([slice(None)] * m)
            for j, coords in enumerate(_native.mask_nonzero(k)):
                axes.append(vd + j)
                idx.append(coords)
            vd += m
            xd += m
    view = basic_view(x, tuple(basic), who)
    try:
        b_shape = tuple(_native.broadcast_shapes([i.shape for i in idx]))
    except ValueError:
        raise IndexError(f"{who}: shape mismatch: indexing arrays could not be broadcast "
                         f"together with shapes {' '.join(str(i.shape) for i in idx)}") \
            from None
    idx = [i if i.shape == b_shape else _native.broadcast_to(i, b_shape) for i in idx]
    rest = [d for d in range(view.ndim) if d not in set(axes)]
    rest_shape = tuple(view.shape[d] for d in rest)
    nb = len(b_shape)
    adjacent = axes == list(range(axes[0], axes[0] + len(axes)))
    p = axes[0] if adjacent else 0
    plan.final = rest_shape[:p] + b_shape + rest_shape[p:]
    # final-order axes as B + rest (the kernels' layout)
    plan.perm = list(range(p, p + nb)) + list(range(p)) + list(range(p + nb, len(plan.final)))
    plan.view, plan.axes, plan.idx = view, axes, idx
    return plan


def _permuted(a, perm):
    shape, strides = a.shape, a._strides
    return a._view([shape[i] for i in perm], [strides[i] for i in perm], 0)


def getitem(x, key):
    """x[key] for any index the standard (and NumPy) allows."""
    if _is_basic(key):
        return basic_view(x, key)
    plan = _plan(x, key, "__getitem__")
    if plan.mask is not None:
        return _native.mask_select(x, plan.mask)
    if plan.axes is None:
        return plan.view
    out = _native.empty(plan.final, x._dtype_code)
    _native.adv_gather(plan.view, plan.axes, plan.idx, _permuted(out, plan.perm),
                       "__getitem__")
    return out


def setitem_advanced(x, key, value):
    """x[key] = value for an advanced key; `value` is an array of a dtype x can hold."""
    plan = _plan(x, key, "__setitem__")
    if plan.mask is not None:
        try:
            _native.mask_assign(x, plan.mask, value)
        except ValueError as e:
            raise ValueError(f"__setitem__: {_strip(e)}") from None
        return
    if plan.axes is None:
        plan.view._copy_from(value)
        return
    try:
        v = _native.broadcast_to(value, plan.final)
    except ValueError:
        raise ValueError(f"__setitem__: cannot broadcast a value of shape {value.shape} to the "
                         f"indexing result shape {plan.final}") from None
    _native.adv_scatter(plan.view, plan.axes, plan.idx, _permuted(v, plan.perm), "__setitem__")


def _strip(e):
    s = str(e)
    return s.split(": ", 1)[1] if ": " in s else s
