"""Sequence layers against PyTorch 2.13 CPU: scaled_dot_product_attention, MultiheadAttention,
the transformer layers (and the fused inference path of TransformerEncoderLayer), RNN, LSTM,
GRU and their cells.

Weights are copied from a torch module's state_dict by name (which is also the check that a
torch state dict loads); forward values and tape gradients are compared in float64 with
tight tolerances (float32 where noted).  The layers' functional forms are also run under
`ac.func.grad`, `vmap` and `jvp` and compared with the tape, SDPA's forward derivative with
its closed form and torch's reverse mode, and its double backward with torch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import arraycore as ac
from arraycore import nn
from arraycore.nn import _rnn_layers
from arraycore.nn import functional as F

TF = torch.nn.functional
F64 = ac.float64
F32 = ac.float32


def t2a(t):
    return ac.asarray(t.detach().numpy().copy())


def close(a, t, tol):
    a = np.asarray(a.detach() if hasattr(a, "detach") else a)
    t = t.detach().numpy() if isinstance(t, torch.Tensor) else np.asarray(t)
    assert a.shape == t.shape, (a.shape, t.shape)
    np.testing.assert_allclose(a, t, rtol=tol, atol=tol)


def load_from_torch(mod, tmod):
    """Loads tmod's state dict into mod by name: the keys must be the same, in torch's order."""
    sd = tmod.state_dict()
    assert list(mod.state_dict()) == list(sd)
    mod.load_state_dict({k: t2a(v) for k, v in sd.items()})


def leaf(x):
    a = ac.asarray(np.array(x, copy=True))
    a.requires_grad_()
    return a


def tleaf(x):
    return torch.from_numpy(np.array(x, copy=True)).requires_grad_()


@pytest.fixture(autouse=True)
def _seeded():
    ac.random.seed(0)
    torch.manual_seed(0)


# --- scaled_dot_product_attention ------------------------------------------------------------

def _sdpa_inputs(rng, qshape=(2, 3, 5, 4), kshape=(2, 3, 6, 4), vdim=7):
    q = rng.standard_normal(qshape)
    k = rng.standard_normal(kshape)
    v = rng.standard_normal(kshape[:-1] + (vdim,))
    return q, k, v


def _mask(kind, rng, L=5, S=6):
    if kind == "bool":
        m = rng.random((L, S)) > 0.3
        m[1] = False  # a row with every key masked: zeros, as torch's SDPA
        return torch.from_numpy(m), ac.asarray(m)
    if kind == "float":
        m = rng.standard_normal((2, 1, L, S))
        return torch.from_numpy(m), ac.asarray(m)
    return None, None


@pytest.mark.parametrize("kind", ["none", "causal", "bool", "float", "scale"])
def test_sdpa_matches_torch_values_and_grads(kind):
    rng = np.random.default_rng(1)
    q, k, v = _sdpa_inputs(rng)
    tm, am = _mask(kind, rng)
    kw = {"is_causal": True} if kind == "causal" else {"scale": 0.3} if kind == "scale" else {}
    tq, tk, tv = (tleaf(a) for a in (q, k, v))
    aq, ak, av = (leaf(a) for a in (q, k, v))
    out_t = TF.scaled_dot_product_attention(tq, tk, tv, attn_mask=tm, **kw)
    out_a = F.scaled_dot_product_attention(aq, ak, av, attn_mask=am, **kw)
    close(out_a, out_t, 1e-12)
    g = rng.standard_normal(out_t.shape)
    out_t.backward(torch.from_numpy(g))
    out_a.backward(ac.asarray(g))
    for a, t in ((aq, tq), (ak, tk), (av, tv)):
        close(a.grad, t.grad, 1e-11)


def test_sdpa_float32_gqa_and_broadcast_batch():
    rng = np.random.default_rng(2)
    q = rng.standard_normal((2, 4, 5, 8)).astype(np.float32)
    k = rng.standard_normal((2, 2, 7, 8)).astype(np.float32)
    v = rng.standard_normal((2, 2, 7, 3)).astype(np.float32)
    out_t = TF.scaled_dot_product_attention(*(torch.from_numpy(a) for a in (q, k, v)),
                                            enable_gqa=True)
    out_a = F.scaled_dot_product_attention(*(ac.asarray(a) for a in (q, k, v)),
                                           enable_gqa=True)
    assert out_a.dtype == F32
    close(out_a, out_t, 2e-6)
    # a 3-D query against 2-D key/value: batch axes broadcast
    q3 = rng.standard_normal((3, 5, 4))
    k2, v2 = rng.standard_normal((6, 4)), rng.standard_normal((6, 2))
    close(F.scaled_dot_product_attention(ac.asarray(q3), ac.asarray(k2), ac.asarray(v2)),
          TF.scaled_dot_product_attention(*(torch.from_numpy(a) for a in (q3, k2, v2))), 1e-12)


def test_sdpa_jvp_matches_reference_and_torch_vjp():
    """The forward derivative against the closed form (ds = (dq k^T + q dk^T) c,
    dp = p (ds - sum(ds p)), do = dp v + p dv) and, through <J t, u> = <t, J^T u>, against
    torch's reverse mode."""
    rng = np.random.default_rng(3)
    q, k, v = _sdpa_inputs(rng)
    m = rng.standard_normal((5, 6))
    tq, tk, tv = (rng.standard_normal(a.shape) for a in (q, k, v))
    _, at = ac.func.jvp(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, ac.asarray(m)),
                        tuple(ac.asarray(a) for a in (q, k, v)),
                        tuple(ac.asarray(a) for a in (tq, tk, tv)))
    c = 1 / math.sqrt(q.shape[-1])
    kt = np.swapaxes(k, -1, -2)
    s = q @ kt * c + m
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    ds = (tq @ kt + q @ np.swapaxes(tk, -1, -2)) * c
    dp = p * (ds - np.sum(ds * p, -1, keepdims=True))
    close(at, dp @ v + p @ tv, 1e-12)
    u = rng.standard_normal(at.shape)
    tin = tuple(tleaf(a) for a in (q, k, v))
    TF.scaled_dot_product_attention(*tin, attn_mask=torch.from_numpy(m)).backward(
        torch.from_numpy(u))
    lhs = float(np.sum(np.asarray(at) * u))
    rhs = sum(float(np.sum(t.grad.numpy() * d)) for t, d in zip(tin, (tq, tk, tv)))
    assert abs(lhs - rhs) < 1e-11 * max(1.0, abs(lhs))


def test_sdpa_double_backward_matches_torch():
    rng = np.random.default_rng(4)
    q, k, v = _sdpa_inputs(rng, (2, 4, 3), (2, 5, 3), 2)
    tq, tk, tv = (tleaf(a) for a in (q, k, v))
    aq, ak, av = (leaf(a) for a in (q, k, v))
    out_t = TF.scaled_dot_product_attention(tq, tk, tv, is_causal=True)
    out_a = F.scaled_dot_product_attention(aq, ak, av, is_causal=True)
    gt = torch.autograd.grad((out_t ** 2).sum(), (tq, tk, tv), create_graph=True)
    ga = ac.autograd.grad(ac.sum(out_a ** 2), (aq, ak, av), create_graph=True)
    for a, t in zip(ga, gt):
        close(a, t, 1e-11)
    ht = torch.autograd.grad(sum((g ** 2).sum() for g in gt), (tq, tk, tv))
    ha = ac.autograd.grad(sum(ac.sum(g ** 2) for g in ga), (aq, ak, av))
    for a, t in zip(ha, ht):
        close(a, t, 1e-10)


def test_sdpa_under_transforms_matches_tape():
    rng = np.random.default_rng(5)
    q, k, v = _sdpa_inputs(rng, (4, 3, 5), (4, 6, 5), 2)
    m = ac.asarray(rng.random((3, 6)) > 0.4)

    def loss(q, k, v):
        return ac.sum(F.scaled_dot_product_attention(q, k, v, attn_mask=m) ** 2)

    aq, ak, av = (leaf(a) for a in (q, k, v))
    loss(aq, ak, av).backward()
    gq = ac.func.grad(loss)(*(ac.asarray(a) for a in (q, k, v)))
    close(gq, np.asarray(aq.grad), 1e-12)
    # vmap over the batch axis == the batched call
    per = ac.func.vmap(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=m))(
        *(ac.asarray(a) for a in (q, k, v)))
    close(per, np.asarray(F.scaled_dot_product_attention(
        *(ac.asarray(a) for a in (q, k, v)), attn_mask=m)), 1e-13)
    # per-example gradients
    pg = ac.func.vmap(ac.func.grad(lambda q, k, v: ac.sum(
        F.scaled_dot_product_attention(q, k, v, attn_mask=m) ** 2)))(
        *(ac.asarray(a) for a in (q, k, v)))
    close(pg, np.asarray(aq.grad), 1e-12)


def test_sdpa_dropout():
    rng = np.random.default_rng(6)
    q, k, _ = _sdpa_inputs(rng, (64, 8, 4), (64, 8, 4), 1)
    v = ac.ones((64, 8, 1), dtype=F64)
    qa, ka = ac.asarray(q), ac.asarray(k)
    assert np.all(np.asarray(F.scaled_dot_product_attention(qa, ka, v, dropout_p=1.0)) == 0)
    out = np.asarray(F.scaled_dot_product_attention(qa, ka, v, dropout_p=0.5))
    # each output is twice the kept weights' sum: in [0, 2], mean 1
    assert out.min() >= 0 and out.max() <= 2 + 1e-12
    assert abs(out.mean() - 1) < 0.1
    ac.random.seed(7)
    a = np.asarray(F.scaled_dot_product_attention(qa, ka, v, dropout_p=0.3))
    ac.random.seed(7)
    b = np.asarray(F.scaled_dot_product_attention(qa, ka, v, dropout_p=0.3))
    np.testing.assert_array_equal(a, b)


def test_sdpa_errors():
    x = ac.ones((2, 3, 4), dtype=F32)
    with pytest.raises(ValueError, match="scaled_dot_product_attention"):
        F.scaled_dot_product_attention(x, x, x, attn_mask=ac.ones((3, 3), dtype=ac.bool),
                                       is_causal=True)
    with pytest.raises(ValueError, match="embedding size"):
        F.scaled_dot_product_attention(x, ac.ones((2, 3, 5), dtype=F32), x)
    with pytest.raises(TypeError, match="one dtype"):
        F.scaled_dot_product_attention(x, ac.ones((2, 3, 4), dtype=F64), x)
    with pytest.raises(TypeError, match="floating"):
        F.scaled_dot_product_attention(ac.ones((2, 3, 4), dtype=ac.int64), x, x)
    with pytest.raises(TypeError, match="attn_mask"):
        F.scaled_dot_product_attention(x, x, x, attn_mask=ac.ones((3, 3), dtype=ac.int32))


# --- MultiheadAttention ------------------------------------------------------------------------

MHA_CASES = [
    ({}, {}),
    ({"batch_first": True}, {"need_weights": False}),
    ({"kdim": 6, "vdim": 7}, {"average_attn_weights": False}),
    ({"add_bias_kv": True, "add_zero_attn": True}, {}),
    ({"bias": False}, {"attn_mask": "causal", "is_causal": True, "need_weights": False}),
    ({}, {"key_padding_mask": "bool", "attn_mask": "float"}),
    ({}, {"key_padding_mask": "bool", "need_weights": False}),
    pytest.param({}, {"attn_mask": "bool3d"}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("kw,call", MHA_CASES)
def test_multihead_attention_matches_torch(kw, call):
    E, H, L, S, N = 8, 2, 4, 5, 3
    rng = np.random.default_rng(10)
    tm = torch.nn.MultiheadAttention(E, H, **kw).double()
    am = nn.MultiheadAttention(E, H, dtype=F64, **kw)
    load_from_torch(am, tm)
    bf = kw.get("batch_first", False)
    kd, vd = kw.get("kdim", E), kw.get("vdim", E)
    q = rng.standard_normal((N, L, E) if bf else (L, N, E))
    k = rng.standard_normal((N, S, kd) if bf else (S, N, kd))
    v = rng.standard_normal((N, S, vd) if bf else (S, N, vd))
    tc, acall = dict(call), dict(call)
    self_attn = call.get("attn_mask") == "causal"
    if self_attn:
        m = torch.nn.Transformer.generate_square_subsequent_mask(L).double()
        tc["attn_mask"], acall["attn_mask"] = m, t2a(m)
    elif call.get("attn_mask") == "float":
        m = rng.standard_normal((L, S))
        tc["attn_mask"], acall["attn_mask"] = torch.from_numpy(m), ac.asarray(m)
    elif call.get("attn_mask") == "bool3d":
        m = rng.random((N * H, L, S)) > 0.7
        m[..., 0] = False
        tc["attn_mask"], acall["attn_mask"] = torch.from_numpy(m), ac.asarray(m)
    if call.get("key_padding_mask") == "bool":
        m = rng.random((N, S)) > 0.6
        m[:, 0] = False
        tc["key_padding_mask"] = torch.from_numpy(m)
        acall["key_padding_mask"] = ac.asarray(m)
    if self_attn:
        tq = tleaf(q)
        aq = leaf(q)
        tin, ain = (tq, tq, tq), (aq, aq, aq)
    else:
        tin = tuple(tleaf(a) for a in (q, k, v))
        ain = tuple(leaf(a) for a in (q, k, v))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out_t, w_t = tm(*tin, **tc)
    out_a, w_a = am(*ain, **acall)
    close(out_a, out_t, 1e-12)
    assert (w_a is None) == (w_t is None)
    loss_t = (out_t ** 2).sum() + (0 if w_t is None else (w_t ** 2).sum())
    loss_a = ac.sum(out_a ** 2) + (0 if w_a is None else ac.sum(w_a ** 2))
    if w_t is not None:
        close(w_a, w_t, 1e-12)
    loss_t.backward()
    loss_a.backward()
    for a, t in zip(ain, tin):
        close(a.grad, t.grad, 1e-11)
    for (n, p), (tn, tp) in zip(am.named_parameters(), tm.named_parameters()):
        assert n == tn
        close(p.grad, tp.grad, 1e-11)


def test_multihead_attention_unbatched_and_init():
    E, H = 12, 3
    tm = torch.nn.MultiheadAttention(E, H).double()
    am = nn.MultiheadAttention(E, H, dtype=F64)
    load_from_torch(am, tm)
    x = np.random.default_rng(11).standard_normal((4, E))
    out_t, w_t = tm(*(torch.from_numpy(x),) * 3)
    out_a, w_a = am(*(ac.asarray(x),) * 3)
    close(out_a, out_t, 1e-12)
    close(w_a, w_t, 1e-12)
    # PyTorch's init: xavier_uniform_ in-projection, zero biases, float32 by default
    m = nn.MultiheadAttention(64, 4)
    assert m.in_proj_weight.dtype == F32
    bound = math.sqrt(6 / (64 + 3 * 64))
    w = np.asarray(m.in_proj_weight)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert not np.any(np.asarray(m.in_proj_bias)) and not np.any(np.asarray(m.out_proj.bias))
    with pytest.raises(ValueError, match="divisible"):
        nn.MultiheadAttention(10, 3)


def test_multi_head_attention_forward_under_vmap_and_grad():
    E, H, L, N = 8, 2, 3, 4
    rng = np.random.default_rng(12)
    w_in, b_in = rng.standard_normal((3 * E, E)), rng.standard_normal(3 * E)
    w_out, b_out = rng.standard_normal((E, E)), rng.standard_normal(E)
    x = rng.standard_normal((N, L, E))   # vmap over N: each example (L, E), unbatched

    def f(x, w_in):
        out, _ = F.multi_head_attention_forward(x, x, x, E, H, w_in, ac.asarray(b_in), None,
                                                None, False, 0.0, ac.asarray(w_out),
                                                ac.asarray(b_out), need_weights=False)
        return out

    batched = ac.func.vmap(f, in_dims=(0, None))(ac.asarray(x), ac.asarray(w_in))
    ref = f(ac.permute_dims(ac.asarray(x), (1, 0, 2)), ac.asarray(w_in))
    close(batched, np.asarray(ac.permute_dims(ref, (1, 0, 2))), 1e-12)
    wl = leaf(w_in)
    ac.sum(f(ac.permute_dims(ac.asarray(x), (1, 0, 2)), wl) ** 2).backward()
    g = ac.func.grad(lambda w: ac.sum(f(ac.permute_dims(ac.asarray(x), (1, 0, 2)), w) ** 2))(
        ac.asarray(w_in))
    close(g, np.asarray(wl.grad), 1e-11)


# --- transformer layers --------------------------------------------------------------------------

ENC_CASES = [{}, {"norm_first": True, "activation": "gelu", "batch_first": True},
             {"bias": False}]


@pytest.mark.parametrize("kw", ENC_CASES)
def test_encoder_layer_matches_torch(kw):
    E, H, L, N = 8, 2, 4, 3
    rng = np.random.default_rng(20)
    tl = torch.nn.TransformerEncoderLayer(E, H, 16, dropout=0.0, **kw).double()
    al = nn.TransformerEncoderLayer(E, H, 16, dropout=0.0, dtype=F64, **kw)
    load_from_torch(al, tl)
    x = rng.standard_normal((N, L, E) if kw.get("batch_first") else (L, N, E))
    tx, ax = tleaf(x), leaf(x)
    m = rng.random((N, L)) > 0.7
    m[:, 0] = False
    out_t = tl(tx, src_key_padding_mask=torch.from_numpy(m))
    out_a = al(ax, src_key_padding_mask=ac.asarray(m))
    close(out_a, out_t, 1e-12)
    out_t.sum().backward()
    ac.sum(out_a).backward()
    close(ax.grad, tx.grad, 1e-11)
    for (n, p), (tn, tp) in zip(al.named_parameters(), tl.named_parameters()):
        close(p.grad, tp.grad, 1e-11)
    # a stack with a causal mask (detected as causal, as torch does)
    enc_t = torch.nn.TransformerEncoder(tl, 2, enable_nested_tensor=False)
    enc_a = nn.TransformerEncoder(al, 2)
    load_from_torch(enc_a, enc_t)
    cm = torch.nn.Transformer.generate_square_subsequent_mask(L).double()
    close(enc_a(ax, mask=t2a(cm)), enc_t(tx, mask=cm), 1e-12)


@pytest.mark.parametrize("kw", [pytest.param({}, marks=pytest.mark.slow),
                                {"norm_first": True, "batch_first": True}])
def test_decoder_layer_matches_torch(kw):
    E, H, L, S, N = 8, 2, 4, 5, 3
    rng = np.random.default_rng(21)
    tl = torch.nn.TransformerDecoderLayer(E, H, 16, dropout=0.0, **kw).double()
    al = nn.TransformerDecoderLayer(E, H, 16, dropout=0.0, dtype=F64, **kw)
    load_from_torch(al, tl)
    bf = kw.get("batch_first", False)
    x = rng.standard_normal((N, L, E) if bf else (L, N, E))
    mem = rng.standard_normal((N, S, E) if bf else (S, N, E))
    tx, ax = tleaf(x), leaf(x)
    cm = torch.nn.Transformer.generate_square_subsequent_mask(L).double()
    mk = rng.random((N, S)) > 0.7
    mk[:, 0] = False
    out_t = tl(tx, torch.from_numpy(mem), tgt_mask=cm, tgt_is_causal=True,
               memory_key_padding_mask=torch.from_numpy(mk))
    out_a = al(ax, ac.asarray(mem), tgt_mask=t2a(cm), tgt_is_causal=True,
               memory_key_padding_mask=ac.asarray(mk))
    close(out_a, out_t, 1e-12)
    out_t.sum().backward()
    ac.sum(out_a).backward()
    close(ax.grad, tx.grad, 1e-11)
    for (n, p), (tn, tp) in zip(al.named_parameters(), tl.named_parameters()):
        close(p.grad, tp.grad, 1e-11)
    dec_t = torch.nn.TransformerDecoder(tl, 2)
    dec_a = nn.TransformerDecoder(al, 2)
    load_from_torch(dec_a, dec_t)
    close(dec_a(ax, ac.asarray(mem)), dec_t(tx, torch.from_numpy(mem)), 1e-12)


FUSED_CASES = [
    pytest.param({}, None, marks=pytest.mark.slow),
    ({"batch_first": True}, "kpm"),
    ({"norm_first": True, "activation": "gelu", "batch_first": True}, "both"),
    ({"bias": False}, "mask"),
]


@pytest.mark.parametrize("kw,masks", FUSED_CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_encoder_path(kw, masks, dtype):
    """eval + no_grad takes the one-call native path; it equals the composite path and
    torch's fast path."""
    E, H, L, N = 16, 4, 6, 3
    rng = np.random.default_rng(22)
    tdt = getattr(torch, dtype)
    tl = torch.nn.TransformerEncoderLayer(E, H, 32, **kw).to(tdt).eval()
    al = nn.TransformerEncoderLayer(E, H, 32, dtype=getattr(ac, dtype), **kw).eval()
    load_from_torch(al, tl)
    x = rng.standard_normal((N, L, E) if kw.get("batch_first") else (L, N, E)).astype(dtype)
    tm = am = tk = ak = None
    if masks in ("mask", "both"):
        cm = torch.nn.Transformer.generate_square_subsequent_mask(L).to(tdt)
        tm, am = cm, t2a(cm)
    if masks in ("kpm", "both"):
        k = rng.random((N, L)) > 0.6
        k[:, 0] = False
        tk, ak = torch.from_numpy(k), ac.asarray(k)
    with ac.no_grad():
        assert nn.modules.transformer._fused_encoder.eligible(al, ac.asarray(x), am, ak, False)
        fused = al(ac.asarray(x), src_mask=am, src_key_padding_mask=ak)
    assert getattr(fused, "_ad", None) is None
    composite = al(leaf(x), src_mask=am, src_key_padding_mask=ak)  # input requires grad
    assert composite.requires_grad
    tol = 2e-5 if dtype == "float32" else 1e-12
    close(fused, np.asarray(composite.detach()), tol)
    with torch.no_grad():
        ref = tl(torch.from_numpy(x), src_mask=tm, src_key_padding_mask=tk)
    close(fused, ref, tol)


def test_fused_encoder_not_taken_when_training_or_grad():
    al = nn.TransformerEncoderLayer(8, 2, 16)
    x = ac.ones((3, 2, 8), dtype=F32)
    assert not nn.modules.transformer._fused_encoder.eligible(al, x, None, None, False)
    al.eval()
    assert not nn.modules.transformer._fused_encoder.eligible(al, x, None, None, False)
    with ac.no_grad():
        assert nn.modules.transformer._fused_encoder.eligible(al, x, None, None, False)
    al.requires_grad_(False)
    assert nn.modules.transformer._fused_encoder.eligible(al, x, None, None, False)
    al.activation = lambda t: ac.tanh(t)
    assert not nn.modules.transformer._fused_encoder.eligible(al, x, None, None, False)


def test_transformer_errors():
    with pytest.raises(RuntimeError, match="relu/gelu"):
        nn.TransformerEncoderLayer(8, 2, activation="swish")
    layer = nn.TransformerEncoderLayer(8, 2, 16)
    with pytest.raises(RuntimeError, match="is_causal"):
        layer(ac.ones((3, 2, 8), dtype=F32), is_causal=True)


# --- RNN / LSTM / GRU ----------------------------------------------------------------------------

RNN_CASES = [
    ("LSTM", {"num_layers": 2, "bidirectional": True}),
    ("LSTM", {"proj_size": 3, "num_layers": 2}),
    pytest.param("LSTM", {"batch_first": True, "bias": False}, marks=pytest.mark.slow),
    ("GRU", {"num_layers": 2, "bidirectional": True, "batch_first": True}),
    pytest.param("GRU", {"bias": False}, marks=pytest.mark.slow),
    ("RNN", {"nonlinearity": "relu", "num_layers": 2}),
    ("RNN", {"bidirectional": True, "bias": False}),
]


def _run_pair(cls, kw, x, hx_np=None, dtype="float64"):
    tm = getattr(torch.nn, cls)(5, 6, **kw).to(getattr(torch, dtype))
    am = getattr(nn, cls)(5, 6, dtype=getattr(ac, dtype), **kw)
    load_from_torch(am, tm)
    tx, ax = tleaf(x), leaf(x)
    th = ah = None
    if hx_np is not None:
        if cls == "LSTM":
            th = tuple(torch.from_numpy(h) for h in hx_np)
            ah = tuple(ac.asarray(h) for h in hx_np)
        else:
            th, ah = torch.from_numpy(hx_np), ac.asarray(hx_np)
    out_t, hn_t = tm(tx, th)
    out_a, hn_a = am(ax, ah)
    return tm, am, tx, ax, out_t, hn_t, out_a, hn_a


def _rnn_loss(cls, out, hn, lib):
    s = (lambda t: t.sum()) if lib == "torch" else ac.sum
    if cls == "LSTM":
        return s(out) + s(hn[0] ** 2) + s(hn[1] ** 3)
    return s(out) + s(hn ** 2)


@pytest.mark.parametrize("cls,kw", RNN_CASES)
def test_rnn_matches_torch(cls, kw):
    x = np.random.default_rng(30).standard_normal((4, 3, 5))
    tm, am, tx, ax, out_t, hn_t, out_a, hn_a = _run_pair(cls, kw, x)
    close(out_a, out_t, 1e-12)
    if cls == "LSTM":
        close(hn_a[0], hn_t[0], 1e-12)
        close(hn_a[1], hn_t[1], 1e-12)
    else:
        close(hn_a, hn_t, 1e-12)
    _rnn_loss(cls, out_t, hn_t, "torch").backward()
    _rnn_loss(cls, out_a, hn_a, "ac").backward()
    close(ax.grad, tx.grad, 1e-11)
    for (n, p), (tn, tp) in zip(am.named_parameters(), tm.named_parameters()):
        assert n == tn
        close(p.grad, tp.grad, 1e-11)


@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_rnn_initial_state_unbatched_float32(cls):
    rng = np.random.default_rng(31)
    kw = {"num_layers": 2, "bidirectional": True}
    shape = (4, 2, 6)
    hx = (rng.standard_normal(shape), rng.standard_normal(shape)) if cls == "LSTM" \
        else rng.standard_normal(shape)
    x = rng.standard_normal((3, 2, 5))
    _, _, tx, ax, out_t, hn_t, out_a, hn_a = _run_pair(cls, kw, x, hx)
    close(out_a, out_t, 1e-12)
    _rnn_loss(cls, out_t, hn_t, "torch").backward()
    _rnn_loss(cls, out_a, hn_a, "ac").backward()
    close(ax.grad, tx.grad, 1e-11)
    # unbatched input (T, I) with unbatched states
    xu = rng.standard_normal((3, 5))
    hu = tuple(h[:, 0] for h in hx) if cls == "LSTM" else hx[:, 0]
    _, _, _, _, out_t, hn_t, out_a, hn_a = _run_pair(cls, kw, xu, hu)
    close(out_a, out_t, 1e-12)
    # float32: the default dtype
    x32 = x.astype(np.float32)
    _, am, _, _, out_t, _, out_a, _ = _run_pair(cls, {}, x32, dtype="float32")
    assert out_a.dtype == F32
    close(out_a, out_t, 2e-6)


@pytest.mark.parametrize("cls", ["LSTM", "GRU", "RNN"])
def test_rnn_fused_equals_composite(cls, monkeypatch):
    """The native recurrence (forward and backward) against the composite loop."""
    rng = np.random.default_rng(32)
    x = rng.standard_normal((5, 3, 5))
    m = getattr(nn, cls)(5, 6, num_layers=2, bidirectional=True, dtype=F64)
    results = []
    for fuse in (True, False):
        if not fuse:
            monkeypatch.setattr(_rnn_layers, "_can_fuse", lambda *a: False)
        m.zero_grad()
        ax = leaf(x)
        out, hn = m(ax)
        _rnn_loss(cls, out, hn, "ac").backward()
        results.append([np.asarray(out.detach()), np.asarray(ax.grad)] +
                       [np.asarray(p.grad) for p in m.parameters()])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_lstm_double_backward_matches_torch():
    """create_graph=True through the fused LSTM differentiates its composite form."""
    rng = np.random.default_rng(33)
    x = rng.standard_normal((3, 2, 5))
    tm, am, tx, ax, out_t, hn_t, out_a, hn_a = _run_pair("LSTM", {}, x)
    gt = torch.autograd.grad((out_t ** 2).sum(), tx, create_graph=True)[0]
    ga = ac.autograd.grad(ac.sum(out_a ** 2), ax, create_graph=True)[0]
    close(ga, gt, 1e-11)
    ht = torch.autograd.grad((gt ** 2).sum(), tm.weight_hh_l0)[0]
    ha = ac.autograd.grad(ac.sum(ga ** 2), am.weight_hh_l0)[0]
    close(ha, ht, 1e-10)


@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn"])
def test_rnn_layer_under_transforms_matches_tape(kind):
    """grad / vmap / jvp of one layer direction (composite under transforms) against the
    tape (the fused native path)."""
    rng = np.random.default_rng(34)
    T, B, I, H = 4, 3, 5, 6
    G = {"lstm": 4, "gru": 3, "rnn": 1}[kind] * H
    x = rng.standard_normal((T, B, I))
    w_ih, w_hh = rng.standard_normal((G, I)) * 0.3, rng.standard_normal((G, H)) * 0.3
    b = rng.standard_normal(G) * 0.1
    h0 = rng.standard_normal((B, H))

    def run(x, w_hh, reverse=True):
        if kind == "lstm":
            out, h, c = _rnn_layers.lstm_direction(x, ac.asarray(h0), ac.asarray(h0),
                                                   ac.asarray(w_ih), w_hh, ac.asarray(b),
                                                   None, None, reverse)
            return out, h + c
        if kind == "gru":
            return _rnn_layers.gru_direction(x, ac.asarray(h0), ac.asarray(w_ih), w_hh,
                                             ac.asarray(b), ac.asarray(b), reverse)
        return _rnn_layers.rnn_direction(x, ac.asarray(h0), ac.asarray(w_ih), w_hh,
                                         ac.asarray(b), None, reverse)

    def loss(x, w_hh):
        out, h = run(x, w_hh)
        return ac.sum(out ** 2) + ac.sum(h)

    xl, wl = leaf(x), leaf(w_hh)
    loss(xl, wl).backward()
    gx, gw = ac.func.grad(loss, argnums=(0, 1))(ac.asarray(x), ac.asarray(w_hh))
    close(gx, np.asarray(xl.grad), 1e-11)
    close(gw, np.asarray(wl.grad), 1e-11)
    # jvp against a directional derivative from the tape's gradient
    tx = rng.standard_normal(x.shape)
    _, dl = ac.func.jvp(loss, (ac.asarray(x), ac.asarray(w_hh)),
                        (ac.asarray(tx), ac.zeros_like(ac.asarray(w_hh))))
    assert abs(float(dl) - float(np.sum(np.asarray(xl.grad) * tx))) < 1e-9
    # vmap over a stack of two inputs == each run on its own
    xs = rng.standard_normal((2,) + x.shape)
    w = ac.asarray(w_hh)
    per = ac.func.vmap(lambda xe: run(xe, w)[0])(ac.asarray(xs))
    for i in range(2):
        close(per[i], np.asarray(run(ac.asarray(xs[i]), w)[0]), 1e-12)


@pytest.mark.parametrize("cls", ["LSTMCell", "GRUCell", "RNNCell"])
def test_cells_match_torch(cls):
    rng = np.random.default_rng(35)
    kw = {"nonlinearity": "relu"} if cls == "RNNCell" else {}
    tc = getattr(torch.nn, cls)(5, 6, **kw).double()
    acell = getattr(nn, cls)(5, 6, dtype=F64, **kw)
    load_from_torch(acell, tc)
    x = rng.standard_normal((3, 5))
    h = rng.standard_normal((3, 6))
    tx, ax = tleaf(x), leaf(x)
    if cls == "LSTMCell":
        c = rng.standard_normal((3, 6))
        ht, ct = tc(tx, (torch.from_numpy(h), torch.from_numpy(c)))
        ha, ca = acell(ax, (ac.asarray(h), ac.asarray(c)))
        close(ca, ct, 1e-12)
        lt, la = (ht ** 2).sum() + ct.sum(), ac.sum(ha ** 2) + ac.sum(ca)
        close(acell(ac.asarray(x[0]))[0], tc(torch.from_numpy(x[0]))[0], 1e-12)
    else:
        ht = tc(tx, torch.from_numpy(h))
        ha = acell(ax, ac.asarray(h))
        lt, la = (ht ** 2).sum(), ac.sum(ha ** 2)
        close(acell(ac.asarray(x[0])), tc(torch.from_numpy(x[0])), 1e-12)
    close(ha, ht, 1e-12)
    lt.backward()
    la.backward()
    close(ax.grad, tx.grad, 1e-11)
    for (n, p), (tn, tp) in zip(acell.named_parameters(), tc.named_parameters()):
        close(p.grad, tp.grad, 1e-11)


def test_rnn_init_names_and_dropout():
    m = nn.LSTM(4, 8, num_layers=2, bidirectional=True, proj_size=3)
    t = torch.nn.LSTM(4, 8, num_layers=2, bidirectional=True, proj_size=3)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    for (n, p), (_, tp) in zip(m.named_parameters(), t.named_parameters()):
        assert tuple(p.shape) == tuple(tp.shape), n
        assert p.dtype == F32
        w = np.asarray(p)
        assert np.abs(w).max() <= 1 / math.sqrt(8) and np.std(w) > 0.05
    # dropout between layers only in training mode
    g = nn.GRU(4, 8, num_layers=2, dropout=0.5)
    x = ac.asarray(np.random.default_rng(36).standard_normal((5, 2, 4)).astype(np.float32))
    g.eval()
    a, _ = g(x)
    b, _ = g(x)
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    g.train()
    c, _ = g(x)
    assert not np.allclose(np.asarray(a), np.asarray(c))
    with pytest.warns(UserWarning, match="dropout"):
        nn.LSTM(4, 8, dropout=0.5)


def test_rnn_errors():
    m = nn.LSTM(4, 8)
    with pytest.raises(ValueError, match="2D or 3D"):
        m(ac.ones((2, 3, 4, 5), dtype=F32))
    with pytest.raises(ValueError, match="input_size"):
        m(ac.ones((2, 3, 5), dtype=F32))
    with pytest.raises(ValueError, match="hidden size"):
        m(ac.ones((2, 3, 4), dtype=F32), (ac.zeros((1, 2, 8), dtype=F32),
                                           ac.zeros((1, 3, 8), dtype=F32)))
    with pytest.raises(TypeError, match="dtype"):
        m(ac.ones((2, 3, 4), dtype=F64))
    with pytest.raises(ValueError, match="dropout"):
        nn.GRU(4, 8, dropout=1.5)
    with pytest.raises(ValueError, match="proj_size"):
        nn.LSTM(4, 8, proj_size=8)
    with pytest.raises(ValueError, match="nonlinearity"):
        nn.RNN(4, 8, nonlinearity="sigmoid")
    with pytest.raises(ValueError, match="1D or 2D"):
        nn.GRUCell(4, 8)(ac.ones((2, 3, 4), dtype=F32))


# --- modules under ac.func (functional_call) and torch state dicts through DLPack -------------

def _module_cases():
    return [
        ("lstm", lambda: nn.LSTM(5, 6, num_layers=2, bidirectional=True, dtype=F64),
         lambda m, x: ac.sum(m(x)[0] ** 2), (4, 3, 5)),
        ("gru", lambda: nn.GRU(5, 6, batch_first=True, dtype=F64),
         lambda m, x: ac.sum(m(x)[0] ** 2), (3, 4, 5)),
        ("encoder", lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, dtype=F64),
         lambda m, x: ac.sum(m(x) ** 2), (4, 3, 8)),
        ("mha", lambda: nn.MultiheadAttention(8, 2, dtype=F64),
         lambda m, x: ac.sum(m(x, x, x)[0] ** 2), (4, 3, 8)),
    ]


@pytest.mark.parametrize("name,make,loss,shape", _module_cases(), ids=lambda v: v
                         if isinstance(v, str) else "")
def test_modules_under_func_transforms_match_tape(name, make, loss, shape):
    """grad (functional_call), jvp and vmap of the whole module against the tape, which runs
    the fused native paths."""
    m = make()
    x = np.random.default_rng(40).standard_normal(shape)
    m.zero_grad()
    loss(m, ac.asarray(x)).backward()
    params = {k: v.detach() for k, v in m.named_parameters()}

    class _Bound:
        """The module called with the given parameters (so `loss` can call it like m)."""

        def __init__(self, p):
            self.p = p

        def __call__(self, *args):
            return ac.func.functional_call(m, self.p, args)

    def f(p, x):
        return loss(_Bound(p), x)

    grads = ac.func.grad(f)(params, ac.asarray(x))
    for k, p in m.named_parameters():
        close(grads[k], np.asarray(p.grad), 1e-10)
    # jvp along one parameter direction == <grad, direction>
    k0 = next(iter(params))
    d = {k: ac.zeros_like(v) for k, v in params.items()}
    d[k0] = ac.asarray(np.random.default_rng(41).standard_normal(params[k0].shape))
    _, dl = ac.func.jvp(lambda p: f(p, ac.asarray(x)), (params,), (d,))
    assert abs(float(dl) - float(ac.sum(grads[k0] * d[k0]))) < 1e-9 * max(1.0, abs(float(dl)))
    # vmap over a stack of two inputs == each on its own
    xs = np.stack([x, 0.5 * x])
    per = ac.func.vmap(lambda xi: f(params, xi))(ac.asarray(xs))
    for i in range(2):
        assert abs(float(per[i]) - float(f(params, ac.asarray(xs[i])))) < 1e-9


def test_torch_state_dict_through_dlpack():
    tl = torch.nn.LSTM(5, 6, num_layers=2, bidirectional=True)
    al = nn.LSTM(5, 6, num_layers=2, bidirectional=True)
    al.load_state_dict({k: ac.from_dlpack(v.detach()) for k, v in tl.state_dict().items()})
    x = np.random.default_rng(42).standard_normal((3, 2, 5)).astype(np.float32)
    close(al(ac.asarray(x))[0], tl(torch.from_numpy(x))[0], 2e-6)
    te = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True).eval()
    ae = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True).eval()
    ae.load_state_dict({k: ac.from_dlpack(v.detach()) for k, v in te.state_dict().items()})
    x = np.random.default_rng(43).standard_normal((2, 3, 8)).astype(np.float32)
    with torch.no_grad(), ac.no_grad():
        close(ae(ac.asarray(x)), te(torch.from_numpy(x)), 2e-6)


def test_transformer_model_matches_torch():
    E, H, S, L, N = 8, 2, 5, 4, 3
    rng = np.random.default_rng(44)
    tm = torch.nn.Transformer(E, H, 2, 2, 16, dropout=0.0).double()
    am = nn.Transformer(E, H, 2, 2, 16, dropout=0.0, dtype=F64)
    load_from_torch(am, tm)
    src, tgt = rng.standard_normal((S, N, E)), rng.standard_normal((L, N, E))
    ts, as_ = tleaf(src), leaf(src)
    cm = torch.nn.Transformer.generate_square_subsequent_mask(L).double()
    close(nn.Transformer.generate_square_subsequent_mask(L, dtype=F64), cm, 0)
    out_t = tm(ts, torch.from_numpy(tgt), tgt_mask=cm)
    out_a = am(as_, ac.asarray(tgt), tgt_mask=t2a(cm))
    close(out_a, out_t, 1e-12)
    out_t.sum().backward()
    ac.sum(out_a).backward()
    close(as_.grad, ts.grad, 1e-11)
    # xavier_uniform_ on every matrix: bounded by sqrt(6 / (fan_in + fan_out))
    w = np.asarray(nn.Transformer(16, 4, 1, 1, 32).encoder.layers[0].linear1.weight)
    assert np.abs(w).max() <= math.sqrt(6 / (16 + 32))
