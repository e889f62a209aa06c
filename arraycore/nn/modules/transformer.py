"""L4: transformer layers (torch.nn.TransformerEncoderLayer, TransformerEncoder,
TransformerDecoderLayer, TransformerDecoder) with PyTorch's constructors, submodule and
parameter names (`self_attn`, `linear1`, `linear2`, `norm1`, `norm2`, ...), defaults and
mask conventions, so a torch state dict loads.

In eval mode with nothing to differentiate, `TransformerEncoderLayer` runs the fused native
forward of arraycore/nn/_fused_encoder.py (one native call per layer, no tape), as
PyTorch's BetterTransformer fast path does; otherwise it runs the composite forward below.
"""

from __future__ import annotations

import copy

import arraycore as _ac

from .. import _fused_encoder
from .. import functional as F
from .. import init as _init
from .activation import GELU, ReLU
from .attention import MultiheadAttention
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ["Transformer", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder"]


def _get_activation(activation, who):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    if isinstance(activation, str):
        raise RuntimeError(f"{who}: activation should be relu/gelu, not {activation}")
    if not callable(activation):
        raise TypeError(f"{who}: activation must be 'relu', 'gelu' or a callable")
    return activation


def _activation_kind(activation):
    """'relu' / 'gelu' when `activation` is one of those (the string's function, the
    nn.functional function or a ReLU/GELU(approximate='none') module), else None."""
    if activation is F.relu or isinstance(activation, ReLU):
        return "relu"
    if activation is F.gelu or (isinstance(activation, GELU) and
                                activation.approximate == "none"):
        return "gelu"
    return None


def generate_square_subsequent_mask(sz, dtype=None):
    """The (sz, sz) causal float mask: -inf above the diagonal, 0 elsewhere
    (nn.Transformer.generate_square_subsequent_mask).

    >>> import arraycore as ac
    >>> ac.nn.modules.transformer.generate_square_subsequent_mask(3)[0].tolist()
    [0.0, -inf, -inf]
    """
    dtype = _ac.float32 if dtype is None else dtype
    upper = _ac.triu(_ac.ones((sz, sz), dtype=_ac.bool), k=1)
    return _ac.where(upper, _ac.asarray(float("-inf"), dtype=dtype),
                     _ac.asarray(0.0, dtype=dtype))


def _detect_is_causal_mask(mask, is_causal, size):
    """PyTorch's _detect_is_causal_mask: is_causal=None and a mask equal to the causal mask
    count as causal."""
    make_causal = is_causal is True
    if is_causal is None and mask is not None:
        sz = size if size is not None else mask.shape[-2]
        causal = generate_square_subsequent_mask(sz, dtype=mask.dtype)
        if tuple(mask.shape) == tuple(causal.shape):
            make_causal = bool(_ac.all(mask == causal))
        else:
            make_causal = False
    return make_causal


class TransformerEncoderLayer(Module):
    """Self-attention + feed-forward block (torch.nn.TransformerEncoderLayer).

    forward(src, src_mask=None, src_key_padding_mask=None, is_causal=False).  In eval mode
    with nothing to differentiate (under `ac.no_grad()`, or no input/parameter requiring
    grad), one fused native call (see arraycore/nn/_fused_encoder.py).

    >>> import arraycore as ac
    >>> layer = ac.nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32,
    ...                                       batch_first=True).eval()
    >>> with ac.no_grad():
    ...     out = layer(ac.ones((2, 5, 16), dtype=ac.float32))
    >>> out.shape
    (2, 5, 16)
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.activation = _get_activation(activation, "TransformerEncoderLayer")

    def _activation_kind(self):
        return _activation_kind(self.activation)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        if src.ndim not in (2, 3):
            raise ValueError(f"TransformerEncoderLayer: expected a 2-D or 3-D src, got "
                             f"{src.ndim}-D")
        if _fused_encoder.eligible(self, src, src_mask, src_key_padding_mask, is_causal):
            return _fused_encoder.encoder_layer_forward(self, src, src_mask,
                                                        src_key_padding_mask)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    """Self-attention, cross-attention over `memory` and feed-forward
    (torch.nn.TransformerDecoderLayer).

    forward(tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
    memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False).

    >>> import arraycore as ac
    >>> layer = ac.nn.TransformerDecoderLayer(16, 4, dim_feedforward=32, batch_first=True)
    >>> tgt, mem = ac.ones((2, 3, 16), dtype=ac.float32), ac.ones((2, 5, 16), dtype=ac.float32)
    >>> layer(tgt, mem).shape
    (2, 3, 16)
    """

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                 batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation(activation, "TransformerDecoderLayer")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                               memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


def _clones(module, n):
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _seq_len(src, batch_first):
    if src.ndim == 2:
        return src.shape[0]
    return src.shape[1] if batch_first else src.shape[0]


class TransformerEncoder(Module):
    """A stack of `num_layers` deep copies of `encoder_layer` (torch.nn.TransformerEncoder);
    `enable_nested_tensor` and `mask_check` are accepted and ignored (arraycore has no
    nested tensors: padded positions are computed like the others).

    >>> import arraycore as ac
    >>> layer = ac.nn.TransformerEncoderLayer(16, 4, dim_feedforward=32)
    >>> enc = ac.nn.TransformerEncoder(layer, num_layers=2)
    >>> enc(ac.ones((5, 2, 16), dtype=ac.float32)).shape
    (5, 2, 16)
    """

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True,
                 mask_check=True):
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        first = self.layers[0] if len(self.layers) else None
        batch_first = first.self_attn.batch_first if first is not None else False
        seq_len = _seq_len(src, batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal,
                         src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Module):
    """A stack of `num_layers` deep copies of `decoder_layer` (torch.nn.TransformerDecoder).

    >>> import arraycore as ac
    >>> dec = ac.nn.TransformerDecoder(ac.nn.TransformerDecoderLayer(16, 4, 32), 2)
    >>> dec(ac.ones((3, 2, 16), dtype=ac.float32), ac.ones((5, 2, 16), dtype=ac.float32)).shape
    (3, 2, 16)
    """

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        first = self.layers[0] if len(self.layers) else None
        batch_first = first.self_attn.batch_first if first is not None else False
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal,
                                               _seq_len(tgt, batch_first))
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """The encoder-decoder model of "Attention Is All You Need" (torch.nn.Transformer):
    `encoder` (a TransformerEncoder with a final LayerNorm) and `decoder` (a
    TransformerDecoder with a final LayerNorm), or the custom ones given; every parameter
    with more than one dimension is re-initialized with xavier_uniform_, as PyTorch does.

    forward(src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
    src_key_padding_mask=None, tgt_key_padding_mask=None, memory_key_padding_mask=None,
    src_is_causal=None, tgt_is_causal=None, memory_is_causal=False).

    >>> import arraycore as ac
    >>> model = ac.nn.Transformer(d_model=16, nhead=4, num_encoder_layers=1,
    ...                           num_decoder_layers=1, dim_feedforward=32)
    >>> src, tgt = ac.ones((5, 2, 16), dtype=ac.float32), ac.ones((3, 2, 16), dtype=ac.float32)
    >>> model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(3)).shape
    (3, 2, 16)
    """

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 bias=True, device=None, dtype=None):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            layer_norm_eps, batch_first, norm_first, bias,
                                            dtype=dtype)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            layer_norm_eps, batch_first, norm_first, bias,
                                            dtype=dtype)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        for p in self.parameters():
            if p.ndim > 1:
                _init.xavier_uniform_(p)
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        batch_axis = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape[batch_axis] != tgt.shape[batch_axis]:
            raise RuntimeError("Transformer: the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("Transformer: the feature number of src and tgt must be equal "
                               "to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """The (sz, sz) causal mask: -inf above the diagonal, 0 elsewhere."""
        return generate_square_subsequent_mask(sz, dtype=dtype)
