"""L4: nn.functional linear layers: `linear`, `bilinear` (torch.nn.functional's)."""

from __future__ import annotations

from ._layer_utils import check_floating, check_same_dtype, ns

__all__ = ["linear", "bilinear"]


def linear(input, weight, bias=None):
    """y = input @ weight.T + bias (torch.nn.functional.linear).

    input (*, in_features), weight (out_features, in_features) or (in_features,),
    bias (out_features,) or a scalar-shaped array.

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.linear(ac.ones((2, 3)), ac.ones((4, 3)), ac.zeros(4)).shape
    (2, 4)
    """
    xp = ns()
    who = "linear"
    check_floating(input, who)
    check_floating(weight, who, "weight")
    check_same_dtype(who, input, weight, bias)
    if weight.ndim not in (1, 2):
        raise ValueError(f"{who}: weight must be 1-D or 2-D, got shape {tuple(weight.shape)}")
    if input.ndim == 0:
        raise ValueError(f"{who}: input must have at least one dimension")
    in_features = weight.shape[-1]
    if input.shape[-1] != in_features:
        raise ValueError(f"{who}: input's last dimension ({input.shape[-1]}) does not match "
                         f"weight's in_features ({in_features}); shapes "
                         f"{tuple(input.shape)} and {tuple(weight.shape)}")
    w = xp.matrix_transpose(weight) if weight.ndim == 2 else weight
    out = xp.matmul(input, w)
    if bias is not None:
        out = out + bias
    return out


def bilinear(input1, input2, weight, bias=None):
    """y_k = x1^T A_k x2 + b_k (torch.nn.functional.bilinear).

    input1 (*, in1), input2 (*, in2) with the same leading shape, weight (out, in1, in2),
    bias (out,).

    >>> import arraycore as ac, arraycore.nn.functional as F
    >>> F.bilinear(ac.ones((5, 2)), ac.ones((5, 3)), ac.ones((4, 2, 3))).shape
    (5, 4)
    """
    xp = ns()
    who = "bilinear"
    for v, what in ((input1, "input1"), (input2, "input2"), (weight, "weight")):
        check_floating(v, who, what)
    check_same_dtype(who, input1, input2, weight, bias)
    if weight.ndim != 3:
        raise ValueError(f"{who}: weight must be 3-D (out, in1, in2), got shape "
                         f"{tuple(weight.shape)}")
    n_out, in1, in2 = weight.shape
    if input1.ndim == 0 or input2.ndim == 0:
        raise ValueError(f"{who}: inputs must have at least one dimension")
    if input1.shape[-1] != in1 or input2.shape[-1] != in2:
        raise ValueError(f"{who}: input shapes {tuple(input1.shape)} and "
                         f"{tuple(input2.shape)} do not match weight {tuple(weight.shape)}")
    if input1.shape[:-1] != input2.shape[:-1]:
        raise ValueError(f"{who}: input1 and input2 must have the same leading shape, got "
                         f"{tuple(input1.shape[:-1])} and {tuple(input2.shape[:-1])}")
    if bias is not None and tuple(bias.shape) != (n_out,):
        raise ValueError(f"{who}: bias must have shape ({n_out},), got {tuple(bias.shape)}")
    lead = tuple(input1.shape[:-1])
    x1 = xp.reshape(input1, (-1, in1))
    x2 = xp.reshape(input2, (-1, in2))
    # (B, in1) @ (in1, out * in2) -> (B, out, in2), then contract in2 with x2: two gemm-sized
    # steps instead of an (B, out, in1, in2) intermediate.
    a = xp.reshape(xp.permute_dims(weight, (1, 0, 2)), (in1, n_out * in2))
    t = xp.reshape(xp.matmul(x1, a), (x1.shape[0], n_out, in2))
    out = xp.sum(t * xp.expand_dims(x2, axis=1), axis=-1)
    if bias is not None:
        out = out + bias
    return xp.reshape(out, lead + (n_out,))
