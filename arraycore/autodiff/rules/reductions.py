"""placeholder: sum only (being written)."""
from ..._core.op_table import OPS
from .base import define
xp = None


def install():
    op = OPS["sum"]

    def jvp(args, kwargs, t, out):
        return xp.astype(xp.sum(t[0], **kwargs), out.dtype) if False else xp.sum(t[0], **kwargs)

    def vjp(g, args, kwargs, out, needs):
        x = args[0]
        axis = kwargs.get("axis")
        if not kwargs.get("keepdims", False) and axis is not None:
            ax = (axis,) if isinstance(axis, int) else axis
            g = xp.expand_dims(g, axis=tuple(a % x.ndim for a in ax)) if len(ax) > 0 else g
        return {0: xp.broadcast_to(g, x.shape)}

    def batch(args, kwargs, dims, size):
        x = xp.moveaxis(args[0], dims[0], 0)
        kw = dict(kwargs)
        axis = kw.get("axis")
        nd = x.ndim - 1
        if axis is None:
            kw["axis"] = tuple(range(1, x.ndim))
        else:
            ax = (axis,) if isinstance(axis, int) else axis
            kw["axis"] = tuple(a % nd + 1 for a in ax)
        return xp.sum(x, **kw), 0
    define(op, jvp, vjp, batch, saves=[])
