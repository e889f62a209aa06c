"""L4: the inference fast path of `nn.TransformerEncoderLayer` (PyTorch's BetterTransformer
path): one native call per layer (`_native.nn_encoder_layer_forward`,
kernels/nn_encoder.cpp) that runs the in-projection gemm, attention per (batch, head) read
in place from the projection, the out-projection, fused residual add + layer norm and the
feed-forward block with a fused bias + activation.  No tape node is recorded.

`eligible` decides, as PyTorch's `TransformerEncoderLayer.forward` does, when the fast path
may run: eval mode, nothing to differentiate (grad mode off, or no parameter nor input that
requires grad), no `ac.func` transform active, relu/gelu activation, plain float32/float64
arrays of the parameters' dtype, 3-D input, masks of the supported shapes.  Otherwise the
layer runs its ordinary composite forward; both give the same values
(tests/test_nn_seq.py).
"""

from __future__ import annotations

import arraycore as _ac

from ..autodiff.state import STATE
from ..autodiff.tracer import Tracer
from ..native import _native

__all__ = ["eligible", "encoder_layer_forward"]


def _requires_grad(a):
    return a is not None and bool(getattr(a, "requires_grad", False))


def _activation_code(layer):
    """0 relu, 1 gelu (exact), None for any other activation (no fast path)."""
    return {"relu": 0, "gelu": 1}.get(layer._activation_kind())


def eligible(layer, src, src_mask, src_key_padding_mask, is_causal):
    """Whether `layer(src, ...)` may take the fused path."""
    if layer.training or STATE.stack or isinstance(src, Tracer):
        return False
    if src.ndim != 3 or _activation_code(layer) is None:
        return False
    attn = layer.self_attn
    if not attn._qkv_same_embed_dim or attn.bias_k is not None or attn.add_zero_attn:
        return False
    if layer.norm1.weight is None or layer.norm2.weight is None:
        return False
    if layer.norm1.eps != layer.norm2.eps:
        return False
    params = list(layer.parameters())
    dt = params[0].dtype
    if dt not in (_ac.float32, _ac.float64) or src.dtype != dt:
        return False
    if any(p.dtype != dt for p in params):
        return False
    if _ac.is_grad_enabled() and (_requires_grad(src) or any(_requires_grad(p) for p in params)):
        return False
    if is_causal and src_mask is None:
        return False  # the composite path raises the error PyTorch raises
    B, S = (src.shape[0], src.shape[1]) if layer.self_attn.batch_first else \
        (src.shape[1], src.shape[0])
    for m, shape in ((src_mask, (S, S)), (src_key_padding_mask, (B, S))):
        if m is None:
            continue
        if isinstance(m, Tracer) or tuple(m.shape) != shape:
            return False
        if m.dtype != _ac.bool and m.dtype != dt:
            return False
    return True


def _additive(mask, dtype):
    if mask is None:
        return None
    if mask.dtype == _ac.bool:
        return _ac.where(mask, _ac.asarray(float("-inf"), dtype=dtype),
                         _ac.asarray(0.0, dtype=dtype))
    return mask


def encoder_layer_forward(layer, src, src_mask=None, src_key_padding_mask=None):
    """The fused forward of an eligible layer (see `eligible`)."""
    batch_first = layer.self_attn.batch_first
    x = src if batch_first else _ac.permute_dims(src, (1, 0, 2))
    attn = layer.self_attn
    dt = src.dtype

    out = _native.nn_encoder_layer_forward(
        x, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias,
        layer.linear1.weight, layer.linear1.bias, layer.linear2.weight, layer.linear2.bias,
        layer.norm1.weight, layer.norm1.bias, layer.norm2.weight, layer.norm2.bias,
        attn.num_heads, float(layer.norm1.eps), bool(layer.norm_first), _activation_code(layer),
        _additive(src_mask, dt), _additive(src_key_padding_mask, dt))
    return out if batch_first else _ac.permute_dims(out, (1, 0, 2))
