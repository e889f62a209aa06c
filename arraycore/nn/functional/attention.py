"""L4: attention (`torch.nn.functional.scaled_dot_product_attention` and
`multi_head_attention_forward`), composed of namespace ops.

Everything here is matmul, elementwise ops, `max`/`sum` and `where`, so the tape, `ac.func`
transforms and double backward work through the op table's rules with nothing extra.  The
inference fast path of `nn.TransformerEncoderLayer` does not come through here: it is one
native call (arraycore/nn/_fused_encoder.py).
"""

from __future__ import annotations

import math

import arraycore as _ac

from .activation import _Softmax
from .dropout import dropout as _dropout

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]

_NEG_INF = float("-inf")


def _softmax_last(x, safe):
    """Softmax over the last axis as one tape node (activation.py's _Softmax: a native pass
    forward, a differentiable closed-form backward).  `safe`: a row whose entries are all
    -inf (every key masked) gives zeros instead of NaN (PyTorch's SDPA does this since 2.5;
    the explicit softmax of `multi_head_attention_forward(need_weights=True)` gives NaN)."""
    return _Softmax.apply(x, x.ndim - 1, safe)


def _check_float_mask(mask, dtype, name, who):
    if mask.dtype == _ac.bool:
        return
    if mask.dtype not in (_ac.float32, _ac.float64):
        raise TypeError(f"{who}: only bool and floating types of {name} are supported, got "
                        f"{mask.dtype}")


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """softmax(Q K^T * scale + mask) V over the last two axes, batch axes broadcast
    (torch.nn.functional.scaled_dot_product_attention).

    query (..., L, E), key (..., S, E), value (..., S, Ev) -> (..., L, Ev).
    attn_mask: bool (True = take part in attention) or float (added to the scores),
    broadcastable to (..., L, S).  is_causal: the top-left causal mask (query i sees keys
    j <= i); not with attn_mask.  scale: default 1/sqrt(E).  dropout_p: dropout on the
    attention weights (always applied when > 0, as in PyTorch).  enable_gqa: key/value with
    fewer heads (axis -3) than query are repeated to match (grouped-query attention).
    A query row whose keys are all masked gives zeros.

    >>> import arraycore as ac
    >>> q = ac.ones((2, 4, 8), dtype=ac.float32)
    >>> ac.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True).shape
    (2, 4, 8)
    """
    who = "scaled_dot_product_attention"
    for name, a in (("query", query), ("key", key), ("value", value)):
        if a.ndim < 2:
            raise ValueError(f"{who}: {name} must have at least 2 dimensions, got {a.ndim}")
        if a.dtype not in (_ac.float32, _ac.float64):
            raise TypeError(f"{who}: expected floating-point {name}, got {a.dtype}")
    if not (query.dtype == key.dtype == value.dtype):
        raise TypeError(f"{who}: query, key and value must have one dtype, got {query.dtype}, "
                        f"{key.dtype} and {value.dtype}")
    if query.shape[-1] != key.shape[-1]:
        raise ValueError(f"{who}: query and key need the same embedding size, got "
                         f"{query.shape[-1]} and {key.shape[-1]}")
    if key.shape[-2] != value.shape[-2]:
        raise ValueError(f"{who}: key and value need the same sequence length, got "
                         f"{key.shape[-2]} and {value.shape[-2]}")
    if not 0.0 <= dropout_p <= 1.0:
        raise ValueError(f"{who}: dropout_p must be in [0, 1], got {dropout_p}")
    if is_causal and attn_mask is not None:
        raise ValueError(f"{who}: is_causal and an explicit attn_mask are exclusive")
    L, S = query.shape[-2], key.shape[-2]
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    if enable_gqa and query.ndim >= 3 and key.ndim >= 3:
        hq, hk = query.shape[-3], key.shape[-3]
        if hq % hk or value.shape[-3] != hk:
            raise ValueError(f"{who}: with enable_gqa the query heads ({hq}) must be a "
                             f"multiple of the key/value heads ({hk})")
        if hq != hk:
            key = _ac.repeat(key, hq // hk, axis=-3)
            value = _ac.repeat(value, hq // hk, axis=-3)
    scores = (query @ _ac.matrix_transpose(key)) * scale
    if is_causal:
        causal = _ac.tril(_ac.ones((L, S), dtype=_ac.bool))
        scores = _ac.where(causal, scores, _NEG_INF)
    if attn_mask is not None:
        _check_float_mask(attn_mask, query.dtype, "attn_mask", who)
        if attn_mask.dtype == _ac.bool:
            scores = _ac.where(attn_mask, scores, _NEG_INF)
        else:
            scores = scores + _ac.astype(attn_mask, scores.dtype)
    weights = _softmax_last(scores, safe=True)
    if dropout_p > 0.0:
        weights = _dropout(weights, dropout_p, training=True)
    return weights @ value


# --- multi-head attention ------------------------------------------------------------------

def _linear(x, w, b):
    y = x @ _ac.matrix_transpose(w)
    return y if b is None else y + b


def _canonical_mask(mask, name, dtype, who):
    """bool masks (True = masked) -> additive float masks of `dtype` (PyTorch's
    F._canonical_mask); float masks are kept."""
    if mask is None:
        return None
    _check_float_mask(mask, dtype, name, who)
    if mask.dtype == _ac.bool:
        return _ac.where(mask, _ac.asarray(_NEG_INF, dtype=dtype), _ac.asarray(0.0, dtype=dtype))
    return mask


def _pad_last(mask, value=0.0):
    """Appends one column of `value` along the last axis (F.pad(mask, (0, 1)))."""
    col = _ac.full(tuple(mask.shape[:-1]) + (1,), value, dtype=mask.dtype)
    return _ac.concat([mask, col], axis=-1)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False):
    """Multi-head attention on sequence-first inputs (torch.nn.functional.
    multi_head_attention_forward; `nn.MultiheadAttention` calls it).

    query (L, N, E) or unbatched (L, E); key/value (S, N, kdim/vdim).  Returns
    (output (L, N, E), weights (N, L, S) averaged over heads, (N, H, L, S), or None when
    need_weights is False).  key_padding_mask (N, S) and attn_mask (L, S) or (N*H, L, S):
    bool (True = masked) or additive float.

    >>> import arraycore as ac
    >>> E, H = 8, 2
    >>> x = ac.ones((3, 1, E), dtype=ac.float32)
    >>> w_in, w_out = ac.ones((3 * E, E), dtype=ac.float32), ac.eye(E, dtype=ac.float32)
    >>> out, w = ac.nn.functional.multi_head_attention_forward(
    ...     x, x, x, E, H, w_in, None, None, None, False, 0.0, w_out, None)
    >>> out.shape, w.shape
    ((3, 1, 8), (1, 3, 3))
    """
    who = "multi_head_attention_forward"
    if query.ndim not in (2, 3):
        raise ValueError(f"{who}: query should be 2-D (unbatched) or 3-D (batched), got "
                         f"{query.ndim}-D")
    is_batched = query.ndim == 3
    if key.ndim != query.ndim or value.ndim != query.ndim:
        raise ValueError(f"{who}: query, key and value must all be batched or all unbatched")
    if not is_batched:
        query = _ac.expand_dims(query, axis=1)
        key = _ac.expand_dims(key, axis=1)
        value = _ac.expand_dims(value, axis=1)
        if key_padding_mask is not None:
            key_padding_mask = _ac.expand_dims(key_padding_mask, axis=0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if embed_dim != embed_dim_to_check:
        raise ValueError(f"{who}: expected embed_dim {embed_dim_to_check}, got {embed_dim}")
    if embed_dim % num_heads:
        raise ValueError(f"{who}: embed_dim {embed_dim} not divisible by num_heads "
                         f"{num_heads}")
    head_dim = embed_dim // num_heads
    if key.shape[:2] != value.shape[:2]:
        raise ValueError(f"{who}: key shape {key.shape} does not match value shape "
                         f"{value.shape}")
    dtype = query.dtype

    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", dtype, who)
    if is_causal and attn_mask is None:
        raise RuntimeError(f"{who}: need attn_mask if specifying the is_causal hint")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # SDPA applies the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", dtype, who)
        if key_padding_mask is not None:
            is_causal = False

    # input projections: one gemm for self-attention (PyTorch's _in_projection_packed)
    if not use_separate_proj_weight:
        if query is key and key is value:
            qkv = _linear(query, in_proj_weight, in_proj_bias)
            # unstack (views; its vjp is one stack) rather than three slices, whose vjps
            # would scatter three times into zeros
            q, k, v = _ac.unstack(_ac.reshape(qkv, tuple(qkv.shape[:-1]) + (3, embed_dim)),
                                  axis=-2)
        else:
            b = in_proj_bias
            bq, bk, bv = (None, None, None) if b is None else \
                (b[:embed_dim], b[embed_dim:2 * embed_dim], b[2 * embed_dim:])
            q = _linear(query, in_proj_weight[:embed_dim], bq)
            k = _linear(key, in_proj_weight[embed_dim:2 * embed_dim], bk)
            v = _linear(value, in_proj_weight[2 * embed_dim:], bv)
    else:
        if q_proj_weight is None or k_proj_weight is None or v_proj_weight is None:
            raise ValueError(f"{who}: use_separate_proj_weight needs q/k/v_proj_weight")
        b = in_proj_bias
        bq, bk, bv = (None, None, None) if b is None else \
            (b[:embed_dim], b[embed_dim:2 * embed_dim], b[2 * embed_dim:])
        q = _linear(query, q_proj_weight, bq)
        k = _linear(key, k_proj_weight, bk)
        v = _linear(value, v_proj_weight, bv)

    if attn_mask is not None:
        if attn_mask.ndim == 2:
            if attn_mask.shape != (tgt_len, src_len):
                raise ValueError(f"{who}: the shape of the 2D attn_mask is {attn_mask.shape}, "
                                 f"but should be {(tgt_len, src_len)}")
            attn_mask = _ac.expand_dims(attn_mask, axis=0)
        elif attn_mask.ndim == 3:
            if attn_mask.shape != (bsz * num_heads, tgt_len, src_len):
                raise ValueError(f"{who}: the shape of the 3D attn_mask is {attn_mask.shape}, "
                                 f"but should be {(bsz * num_heads, tgt_len, src_len)}")
        else:
            raise ValueError(f"{who}: attn_mask's dimension {attn_mask.ndim} is not supported")

    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise ValueError(f"{who}: bias cannot be added to static key/value")
        k = _ac.concat([k, _ac.broadcast_to(_ac.reshape(bias_k, (1, 1, embed_dim)),
                                            (1, bsz, embed_dim))], axis=0)
        v = _ac.concat([v, _ac.broadcast_to(_ac.reshape(bias_v, (1, 1, embed_dim)),
                                            (1, bsz, embed_dim))], axis=0)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    elif (bias_k is None) != (bias_v is None):
        raise ValueError(f"{who}: bias_k and bias_v must both be given or both be None")

    # (L, N, E) -> (N*H, L, head_dim)
    def heads(t, length):
        return _ac.permute_dims(_ac.reshape(t, (length, bsz * num_heads, head_dim)), (1, 0, 2))

    q = heads(q, tgt_len)
    k = heads(k, k.shape[0]) if static_k is None else static_k
    v = heads(v, v.shape[0]) if static_v is None else static_v
    if add_zero_attn:
        zeros = _ac.zeros((bsz * num_heads, 1, head_dim), dtype=dtype)
        k = _ac.concat([k, zeros], axis=1)
        v = _ac.concat([v, zeros], axis=1)
        if attn_mask is not None:
            attn_mask = _pad_last(attn_mask)
        if key_padding_mask is not None:
            key_padding_mask = _pad_last(key_padding_mask)
    src_len = k.shape[1]

    if key_padding_mask is not None:
        if key_padding_mask.shape != (bsz, src_len):
            raise ValueError(f"{who}: expected key_padding_mask shape {(bsz, src_len)}, got "
                             f"{key_padding_mask.shape}")
        kpm = _ac.reshape(_ac.broadcast_to(_ac.reshape(key_padding_mask, (bsz, 1, 1, src_len)),
                                           (bsz, num_heads, 1, src_len)),
                          (bsz * num_heads, 1, src_len))
        attn_mask = kpm if attn_mask is None else attn_mask + kpm

    if not training:
        dropout_p = 0.0

    if need_weights:
        q_scaled = q * math.sqrt(1.0 / head_dim)
        scores = q_scaled @ _ac.matrix_transpose(k)
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = _softmax_last(scores, safe=False)
        if dropout_p > 0.0:
            weights = _dropout(weights, dropout_p, training=True)
        out = weights @ v                                          # (N*H, L, hd)
        out = _ac.reshape(_ac.permute_dims(out, (1, 0, 2)), (tgt_len * bsz, embed_dim))
        out = _ac.reshape(_linear(out, out_proj_weight, out_proj_bias),
                          (tgt_len, bsz, embed_dim))
        weights = _ac.reshape(weights, (bsz, num_heads, tgt_len, src_len))
        if average_attn_weights:
            weights = _ac.mean(weights, axis=1)
        if not is_batched:
            out = _ac.squeeze(out, axis=1)
            weights = _ac.squeeze(weights, axis=0)
        return out, weights

    if attn_mask is not None:
        if attn_mask.shape[0] == 1:
            attn_mask = _ac.expand_dims(attn_mask, axis=0)             # (1, 1, L, S)
        else:
            attn_mask = _ac.reshape(attn_mask, (bsz, num_heads, -1, src_len))
    q = _ac.reshape(q, (bsz, num_heads, tgt_len, head_dim))
    k = _ac.reshape(k, (bsz, num_heads, src_len, head_dim))
    v = _ac.reshape(v, (bsz, num_heads, src_len, head_dim))
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = _ac.reshape(_ac.permute_dims(out, (2, 0, 1, 3)), (bsz * tgt_len, embed_dim))
    out = _ac.reshape(_linear(out, out_proj_weight, out_proj_bias), (tgt_len, bsz, embed_dim))
    if not is_batched:
        out = _ac.squeeze(out, axis=1)
    return out, None
