"""L4: `nn.MultiheadAttention` (torch.nn.MultiheadAttention): PyTorch's constructor,
parameter names (`in_proj_weight`, `in_proj_bias`, `out_proj.weight/bias`, or
`q/k/v_proj_weight` when kdim/vdim differ from embed_dim, `bias_k`, `bias_v`) and
initialization (xavier_uniform_ in-projection, zero biases), so a torch state dict loads.
The computation is `nn.functional.multi_head_attention_forward`.
"""

from __future__ import annotations

import arraycore as _ac

from .. import init as _init
from ..functional.attention import multi_head_attention_forward
from ..parameter import Parameter
from . import _seq_init
from .linear import Linear
from .module import Module

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    """`MultiheadAttention.out_proj`: a Linear (torch's class of the same name)."""


class MultiheadAttention(Module):
    """Multi-head attention (torch.nn.MultiheadAttention).

    forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False) -> (output, weights or None).  Inputs are
    (L, N, E) ((N, L, E) with batch_first) or unbatched (L, E).

    >>> import arraycore as ac
    >>> mha = ac.nn.MultiheadAttention(16, 4, batch_first=True)
    >>> x = ac.ones((2, 5, 16), dtype=ac.float32)
    >>> out, w = mha(x, x, x)
    >>> out.shape, w.shape
    ((2, 5, 16), (2, 5, 5))
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"MultiheadAttention: embed_dim and num_heads must be greater "
                             f"than 0, got embed_dim={embed_dim} and num_heads={num_heads} "
                             "instead")
        if embed_dim % num_heads:
            raise ValueError("MultiheadAttention: embed_dim must be divisible by num_heads")
        dtype = _seq_init.resolve_dtype(dtype, "MultiheadAttention")
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        E = embed_dim
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(_ac.empty((E, E), dtype=dtype))
            self.k_proj_weight = Parameter(_ac.empty((E, self.kdim), dtype=dtype))
            self.v_proj_weight = Parameter(_ac.empty((E, self.vdim), dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(_ac.empty((3 * E, E), dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(_ac.empty((3 * E,), dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(E, E, bias=bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(_ac.empty((1, 1, E), dtype=dtype))
            self.bias_v = Parameter(_ac.empty((1, 1, E), dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        """PyTorch's: xavier_uniform_ in-projection weights, zero in-projection and
        out-projection biases, xavier_normal_ bias_k/bias_v (out_proj.weight keeps
        Linear's initialization)."""
        if self._qkv_same_embed_dim:
            _init.xavier_uniform_(self.in_proj_weight)
        else:
            _init.xavier_uniform_(self.q_proj_weight)
            _init.xavier_uniform_(self.k_proj_weight)
            _init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            _init.constant_(self.in_proj_bias, 0.0)
            _init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            _init.xavier_normal_(self.bias_k)
            _init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True, is_causal=False):
        is_batched = query.ndim == 3
        if self.batch_first and is_batched:
            # keep the identities: self-attention projects q, k, v with one gemm
            if key is value:
                if query is key:
                    query = key = value = _ac.permute_dims(query, (1, 0, 2))
                else:
                    query = _ac.permute_dims(query, (1, 0, 2))
                    key = value = _ac.permute_dims(key, (1, 0, 2))
            else:
                query, key, value = (_ac.permute_dims(t, (1, 0, 2))
                                     for t in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and is_batched:
            out = _ac.permute_dims(out, (1, 0, 2))
        return out, weights
