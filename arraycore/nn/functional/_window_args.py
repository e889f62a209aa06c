"""L4: argument parsing shared by the convolution and pooling functions of ac.nn.functional
(PyTorch's conventions: an int or a tuple per spatial dimension, unbatched inputs, and the
checks torch.nn.functional makes, with errors that name the function)."""

from __future__ import annotations

from ... import _nn_ops  # noqa: F401  (the primitives; their public forms are installed)


def ntuple(value, nd, name, who):
    """`value` (an int or a sequence of nd ints) as a tuple of nd Python ints."""
    if isinstance(value, bool):
        raise TypeError(f"{who}: {name} must be an int or a tuple of {nd} ints, got {value!r}")
    if isinstance(value, int) or hasattr(value, "__index__") and not hasattr(value, "__len__"):
        return (int(value),) * nd
    try:
        vals = tuple(value)
    except TypeError:
        raise TypeError(f"{who}: {name} must be an int or a tuple of {nd} ints, "
                        f"got {value!r}") from None
    if len(vals) == 1 and nd > 1:
        vals = vals * nd
    if len(vals) != nd or not all(isinstance(v, int) and not isinstance(v, bool) or
                                  hasattr(v, "__index__") for v in vals):
        raise ValueError(f"{who}: {name} must be an int or a tuple of {nd} ints, got {value!r}")
    return tuple(int(v) for v in vals)


def check_float_input(x, who, what="input"):
    if not hasattr(x, "dtype") or not hasattr(x, "ndim"):
        raise TypeError(f"{who}: {what} must be an array, got {type(x).__name__}")
    if x.dtype.kind != "f":
        raise TypeError(f"{who}: expected a real floating-point {what}, got {x.dtype}")


def batched(x, nd, who):
    """(x as (N, C, *spatial), whether the input was unbatched)."""
    if x.ndim == nd + 2:
        return x, False
    if x.ndim == nd + 1:
        return _ns().expand_dims(x, axis=0), True
    raise ValueError(f"{who}: expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input, "
                     f"got input of shape {tuple(x.shape)}")


def unbatch(out, was_unbatched):
    if not was_unbatched:
        return out
    if isinstance(out, tuple):
        return tuple(o[0] for o in out)
    return out[0]


def positive(vals, name, who):
    if any(v <= 0 for v in vals):
        raise ValueError(f"{who}: {name} must be positive, got {vals}")


def non_negative(vals, name, who):
    if any(v < 0 for v in vals):
        raise ValueError(f"{who}: negative {name} is not supported, got {vals}")


def _ns():
    import arraycore
    return arraycore
