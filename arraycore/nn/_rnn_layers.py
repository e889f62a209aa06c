"""L4: one direction of one recurrent layer (LSTM, GRU, Elman RNN), used by
arraycore/nn/modules/rnn.py.

Each direction starts with the input projection of all steps as one gemm
(`x.reshape(T*B, I) @ W_ih^T + biases`).  The recurrence then runs one of two ways:

- **fused** (plain arrays or the tape, no `ac.func` transform active, float32/float64, no LSTM
  projection): one native call per direction (`_native.nn_lstm_forward`, kernels/nn_rnn.cpp)
  that does each step as one gemm plus one vectorized gate update, wrapped in an
  `autograd.Function` whose backward is the matching native call (one gemm per step, dW_hh as
  one gemm over all steps).  A backward run with `create_graph=True` (double backward)
  differentiates the composite form below instead, so higher derivatives stay exact.
- **composite** (inside `ac.func.grad/vjp/jvp/vmap`, LSTM with `proj_size`, other dtypes):
  a Python loop over steps of namespace ops (one gemm and a few elementwise ops per step), so
  every transform and rule applies unchanged.

Both give the same values (tests/test_nn_seq.py checks them against each other and against
PyTorch).
"""

from __future__ import annotations

import arraycore as _ac

from ..autodiff.function import Function
from ..autodiff.state import STATE
from ..autodiff.tracer import Tracer
from ..native import _native

__all__ = ["input_projection", "lstm_direction", "gru_direction", "rnn_direction",
           "lstm_cell_step", "gru_cell_step", "rnn_cell_step"]


def _sigmoid(z):
    return _ac.special.expit(z)


def _can_fuse(*arrays):
    """The native recurrence applies: no transform level is active, every operand is a plain
    (or tape-recorded) float32/float64 array of one dtype."""
    if STATE.stack:
        return False
    dt = arrays[0].dtype
    if dt not in (_ac.float32, _ac.float64):
        return False
    return all(not isinstance(a, Tracer) and a.dtype == dt for a in arrays)


def input_projection(x, w_ih, b_ih=None, b_hh=None):
    """x (T, B, I) -> x @ W_ih^T + b_ih (+ b_hh), shape (T, B, G), as one gemm."""
    T, B, _ = x.shape
    g = _ac.reshape(x, (T * B, x.shape[2])) @ _ac.matrix_transpose(w_ih)
    # the biases are summed first: one pass over the (T*B, G) projection, not two
    if b_ih is not None and b_hh is not None:
        g = g + (b_ih + b_hh)
    elif b_ih is not None:
        g = g + b_ih
    return _ac.reshape(g, (T, B, g.shape[-1]))


def _steps(T, reverse):
    return range(T - 1, -1, -1) if reverse else range(T)


def _stack_in_time(outs, reverse):
    """outs in processing order -> (T, B, H) indexed by time."""
    if reverse:
        outs = outs[::-1]
    return _ac.stack(outs, axis=0)


# --- composite steps (also the cells' forward) --------------------------------------------

def lstm_cell_step(gates, c, w_hr=None):
    """(i, f, g, o) pre-activations (B, 4H) and c (B, H) -> (h, c)."""
    H = c.shape[-1]
    i = _sigmoid(gates[..., :H])
    f = _sigmoid(gates[..., H:2 * H])
    g = _ac.tanh(gates[..., 2 * H:3 * H])
    o = _sigmoid(gates[..., 3 * H:])
    c = f * c + i * g
    h = o * _ac.tanh(c)
    if w_hr is not None:
        h = h @ _ac.matrix_transpose(w_hr)
    return h, c


def gru_cell_step(gx, gh, h):
    """gx = x W_ih^T + b_ih and gh = h W_hh^T + b_hh, both (B, 3H) -> new h."""
    H = h.shape[-1]
    r = _sigmoid(gx[..., :H] + gh[..., :H])
    z = _sigmoid(gx[..., H:2 * H] + gh[..., H:2 * H])
    n = _ac.tanh(gx[..., 2 * H:] + r * gh[..., 2 * H:])
    return (1 - z) * n + z * h


def rnn_cell_step(pre, nonlinearity):
    return _ac.tanh(pre) if nonlinearity == "tanh" else _ac.maximum(pre, 0)


def _lstm_composite(gx, h0, c0, w_hh, w_hr, reverse):
    w_t = _ac.matrix_transpose(w_hh)
    h, c = h0, c0
    hs, cs = [], []
    for t in _steps(gx.shape[0], reverse):
        h, c = lstm_cell_step(gx[t] + h @ w_t, c, w_hr)
        hs.append(h)
        cs.append(c)
    return _stack_in_time(hs, reverse), _stack_in_time(cs, reverse)


def _gru_composite(gx, h0, w_hh, b_hh, reverse):
    w_t = _ac.matrix_transpose(w_hh)
    h = h0
    hs = []
    for t in _steps(gx.shape[0], reverse):
        gh = h @ w_t
        if b_hh is not None:
            gh = gh + b_hh
        h = gru_cell_step(gx[t], gh, h)
        hs.append(h)
    return _stack_in_time(hs, reverse)


def _rnn_composite(gx, h0, w_hh, reverse, nonlinearity):
    w_t = _ac.matrix_transpose(w_hh)
    h = h0
    hs = []
    for t in _steps(gx.shape[0], reverse):
        h = rnn_cell_step(gx[t] + h @ w_t, nonlinearity)
        hs.append(h)
    return _stack_in_time(hs, reverse)


def _composite_vjp(fn, primals, cotangents):
    """Backward of a fused layer through its composite form: exact and itself
    differentiable (used for create_graph=True)."""
    _, vjp_fn = _ac.func.vjp(fn, *primals)
    return vjp_fn(cotangents)


# --- fused Functions ----------------------------------------------------------------------

class _FusedLSTM(Function):
    @staticmethod
    def forward(gx, h0, c0, w_hh, reverse):
        return tuple(_native.nn_lstm_forward(gx, h0, c0, w_hh, reverse))

    @staticmethod
    def setup_context(ctx, inputs, output):
        gx, h0, c0, w_hh, reverse = inputs
        hs, cs, gates = output
        ctx.mark_non_differentiable(gates)
        ctx.save_for_backward(gx, h0, c0, w_hh, hs, cs, gates)
        ctx.reverse = reverse

    @staticmethod
    def backward(ctx, g_hs, g_cs, _g_gates):
        gx, h0, c0, w_hh, hs, cs, gates = ctx.saved_tensors
        if STATE.grad_enabled:  # create_graph=True: differentiate the composite form
            def f(gx, h0, c0, w_hh):
                return _lstm_composite(gx, h0, c0, w_hh, None, ctx.reverse)
            return (*_composite_vjp(f, (gx, h0, c0, w_hh), (g_hs, g_cs)), None)
        dgx, dh0, dc0, dw = _native.nn_lstm_backward(g_hs, g_cs, gates, cs, hs, h0, c0, w_hh,
                                                     ctx.reverse)
        return dgx, dh0, dc0, dw, None


class _FusedGRU(Function):
    @staticmethod
    def forward(gx, h0, w_hh, b_hh, reverse):
        return tuple(_native.nn_gru_forward(gx, h0, w_hh, b_hh, reverse))

    @staticmethod
    def setup_context(ctx, inputs, output):
        gx, h0, w_hh, b_hh, reverse = inputs
        hs, saved = output
        ctx.mark_non_differentiable(saved)
        ctx.save_for_backward(gx, h0, w_hh, b_hh, hs, saved)
        ctx.reverse = reverse

    @staticmethod
    def backward(ctx, g_hs, _g_saved):
        gx, h0, w_hh, b_hh, hs, saved = ctx.saved_tensors
        if STATE.grad_enabled:
            def f(gx, h0, w_hh, b_hh):
                return _gru_composite(gx, h0, w_hh, b_hh, ctx.reverse)
            return (*_composite_vjp(f, (gx, h0, w_hh, b_hh), g_hs), None)
        dgx, dh0, dw, db = _native.nn_gru_backward(g_hs, saved, hs, h0, w_hh, ctx.reverse)
        return dgx, dh0, dw, db, None


class _FusedRNN(Function):
    @staticmethod
    def forward(gx, h0, w_hh, reverse, relu):
        return _native.nn_rnn_forward(gx, h0, w_hh, reverse, relu)

    @staticmethod
    def setup_context(ctx, inputs, output):
        gx, h0, w_hh, reverse, relu = inputs
        ctx.save_for_backward(gx, h0, w_hh, output)
        ctx.reverse, ctx.relu = reverse, relu

    @staticmethod
    def backward(ctx, g_hs):
        gx, h0, w_hh, hs = ctx.saved_tensors
        if STATE.grad_enabled:
            act = "relu" if ctx.relu else "tanh"

            def f(gx, h0, w_hh):
                return _rnn_composite(gx, h0, w_hh, ctx.reverse, act)
            return (*_composite_vjp(f, (gx, h0, w_hh), g_hs), None, None)
        dgx, dh0, dw = _native.nn_rnn_backward(g_hs, hs, h0, w_hh, ctx.reverse, ctx.relu)
        return dgx, dh0, dw, None, None


def _last(hs, reverse):
    return hs[0] if reverse else hs[-1]


# --- one direction of one layer -----------------------------------------------------------

def lstm_direction(x, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None, reverse=False):
    """x (T, B, I), h0 (B, P), c0 (B, H) -> (output (T, B, P), h_n (B, P), c_n (B, H))."""
    gx = input_projection(x, w_ih, b_ih, b_hh)
    if w_hr is None and _can_fuse(gx, h0, c0, w_hh):
        hs, cs, _ = _FusedLSTM.apply(gx, h0, c0, w_hh, reverse)
    else:
        hs, cs = _lstm_composite(gx, h0, c0, w_hh, w_hr, reverse)
    return hs, _last(hs, reverse), _last(cs, reverse)


def gru_direction(x, h0, w_ih, w_hh, b_ih=None, b_hh=None, reverse=False):
    """x (T, B, I), h0 (B, H) -> (output (T, B, H), h_n (B, H))."""
    gx = input_projection(x, w_ih, b_ih)
    if _can_fuse(gx, h0, w_hh):
        bh = b_hh if b_hh is not None else _ac.zeros(w_hh.shape[0], dtype=w_hh.dtype)
        if not _can_fuse(gx, bh):
            hs = _gru_composite(gx, h0, w_hh, b_hh, reverse)
        else:
            hs, _ = _FusedGRU.apply(gx, h0, w_hh, bh, reverse)
    else:
        hs = _gru_composite(gx, h0, w_hh, b_hh, reverse)
    return hs, _last(hs, reverse)


def rnn_direction(x, h0, w_ih, w_hh, b_ih=None, b_hh=None, reverse=False,
                  nonlinearity="tanh"):
    """x (T, B, I), h0 (B, H) -> (output (T, B, H), h_n (B, H))."""
    gx = input_projection(x, w_ih, b_ih, b_hh)
    if _can_fuse(gx, h0, w_hh):
        hs = _FusedRNN.apply(gx, h0, w_hh, reverse, nonlinearity == "relu")
    else:
        hs = _rnn_composite(gx, h0, w_hh, reverse, nonlinearity)
    return hs, _last(hs, reverse)
