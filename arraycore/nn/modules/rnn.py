"""L4: recurrent layers (torch.nn.RNN, LSTM, GRU and their cells), with PyTorch's
constructor arguments, parameter names (`weight_ih_l0`, `weight_hh_l0_reverse`, ...),
initialization (uniform(+-1/sqrt(hidden_size))), input/state layouts and outputs, so a torch
state dict loads and gives the same results.

Each direction of each layer is one input-projection gemm over all steps followed by the
recurrence of arraycore/nn/_rnn_layers.py: one native call per direction (each step one gemm
and one fused gate update; a native backward) on plain arrays and the tape, a Python loop
of namespace ops under `ac.func` transforms.
"""

from __future__ import annotations

import math
import numbers
import warnings

import arraycore as _ac

from .. import _rnn_layers as _layers
from .. import init as _init
from ..functional.dropout import dropout as _dropout
from ..parameter import Parameter
from . import _seq_init
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


class RNNBase(Module):
    """Shared machinery of RNN, LSTM and GRU (torch.nn.RNNBase)."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
                 device=None, dtype=None):
        super().__init__()
        name = {"LSTM": "LSTM", "GRU": "GRU", "RNN_TANH": "RNN", "RNN_RELU": "RNN"}.get(mode)
        if name is None:
            raise ValueError(f"RNNBase: unrecognized RNN mode {mode!r}")
        if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) \
                or not 0 <= dropout <= 1:
            raise ValueError(f"{name}: dropout should be a number in range [0, 1] representing "
                             "the probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn(f"{name}: dropout option adds dropout after all but last recurrent "
                          f"layer, so non-zero dropout expects num_layers greater than 1, but "
                          f"got dropout={dropout} and num_layers={num_layers}", stacklevel=3)
        for arg, v in (("hidden_size", hidden_size), ("num_layers", num_layers),
                       ("input_size", input_size)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"{name}: {arg} should be of type int, got "
                                f"{type(v).__name__}")
        if hidden_size <= 0:
            raise ValueError(f"{name}: hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError(f"{name}: num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(f"{name}: proj_size should be a positive integer or zero to "
                             "disable projections")
        if proj_size >= hidden_size:
            raise ValueError(f"{name}: proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise ValueError(f"{name}: proj_size argument is only supported for LSTM")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        dtype = _seq_init.resolve_dtype(dtype, name)
        gate_size = {"LSTM": 4, "GRU": 3}.get(mode, 1) * hidden_size
        num_directions = 2 if bidirectional else 1
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input = input_size if layer == 0 else real_hidden * num_directions
                suffix = "_reverse" if direction == 1 else ""
                shapes = [(f"weight_ih_l{layer}{suffix}", (gate_size, layer_input)),
                          (f"weight_hh_l{layer}{suffix}", (gate_size, real_hidden))]
                if bias:
                    shapes += [(f"bias_ih_l{layer}{suffix}", (gate_size,)),
                               (f"bias_hh_l{layer}{suffix}", (gate_size,))]
                if proj_size > 0:
                    shapes.append((f"weight_hr_l{layer}{suffix}", (proj_size, hidden_size)))
                for pname, shape in shapes:
                    setattr(self, pname, Parameter(_ac.empty(shape, dtype=dtype)))
                self._flat_weights_names.extend(n for n, _ in shapes)
                self._all_weights.append([n for n, _ in shapes])
        self.reset_parameters()

    def reset_parameters(self):
        """Every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size)
        for name in self._flat_weights_names:
            _init.uniform_(getattr(self, name), -stdv, stdv)

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def flatten_parameters(self):
        """A no-op (PyTorch compacts cuDNN weights here)."""

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        if self.mode == "RNN_RELU":
            s += ", nonlinearity='relu'"
        return s

    # --- forward ------------------------------------------------------------------------

    def _name(self):
        return type(self).__name__

    def _prepare_input(self, input):
        if not hasattr(input, "ndim"):
            raise TypeError(f"{self._name()}: expected an array input, got "
                            f"{type(input).__name__}")
        if input.ndim not in (2, 3):
            raise ValueError(f"{self._name()}: Expected input to be 2D or 3D, got "
                             f"{input.ndim}D tensor instead")
        batched = input.ndim == 3
        if not batched:
            input = _ac.expand_dims(input, axis=1)
        elif self.batch_first:
            input = _ac.permute_dims(input, (1, 0, 2))
        if input.shape[2] != self.input_size:
            raise ValueError(f"{self._name()}: input.size(-1) must be equal to input_size. "
                             f"Expected {self.input_size}, got {input.shape[2]}")
        if input.shape[0] == 0:
            raise ValueError(f"{self._name()}: Expected sequence length to be larger than 0")
        return input, batched

    def _prepare_state(self, hx, batched, batch, size, what):
        num_directions = 2 if self.bidirectional else 1
        want = (self.num_layers * num_directions, batch, size)
        if hx is None:
            return _ac.zeros(want, dtype=self.weight_ih_l0.dtype)
        if batched and hx.ndim != 3:
            raise ValueError(f"{self._name()}: For batched 3-D input, {what} should also be "
                             f"3-D but got {hx.ndim}-D tensor")
        if not batched:
            if hx.ndim != 2:
                raise ValueError(f"{self._name()}: For unbatched 2-D input, {what} should also "
                                 f"be 2-D but got {hx.ndim}-D tensor")
            hx = _ac.expand_dims(hx, axis=1)
        if tuple(hx.shape) != want:
            raise ValueError(f"{self._name()}: Expected hidden size {want}, got "
                             f"{tuple(hx.shape)}")
        return hx

    def _check_dtypes(self, input, *states):
        dt = self.weight_ih_l0.dtype
        for a in (input,) + states:
            if a.dtype != dt:
                raise TypeError(f"{self._name()}: input and hidden states must have the "
                                f"parameters' dtype {dt}, got {a.dtype}")

    def _run(self, input, states):
        """input (T, B, I) seq-first; states: one (L*D, B, *) array per kind (h, or h and c).
        Returns output (T, B, D*H_out) and the final states in the same layout."""
        num_directions = 2 if self.bidirectional else 1
        finals = [[] for _ in states]
        x = input
        for layer in range(self.num_layers):
            outs = []
            for direction in range(num_directions):
                idx = layer * num_directions + direction
                suffix = "_reverse" if direction == 1 else ""
                w = {k: getattr(self, f"{k}_l{layer}{suffix}", None)
                     for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")}
                reverse = direction == 1
                st = [s[idx] for s in states]
                if self.mode == "LSTM":
                    out, h, c = _layers.lstm_direction(
                        x, st[0], st[1], w["weight_ih"], w["weight_hh"], w["bias_ih"],
                        w["bias_hh"], w["weight_hr"] if self.proj_size else None, reverse)
                    ends = (h, c)
                elif self.mode == "GRU":
                    out, h = _layers.gru_direction(x, st[0], w["weight_ih"], w["weight_hh"],
                                                   w["bias_ih"], w["bias_hh"], reverse)
                    ends = (h,)
                else:
                    act = "relu" if self.mode == "RNN_RELU" else "tanh"
                    out, h = _layers.rnn_direction(x, st[0], w["weight_ih"], w["weight_hh"],
                                                   w["bias_ih"], w["bias_hh"], reverse, act)
                    ends = (h,)
                outs.append(out)
                for f, e in zip(finals, ends):
                    f.append(e)
            x = outs[0] if num_directions == 1 else _ac.concat(outs, axis=-1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                x = _dropout(x, self.dropout, training=True)
        return x, [_ac.stack(f, axis=0) for f in finals]

    def _finish(self, output, finals, batched):
        if not batched:
            return _ac.squeeze(output, axis=1), [_ac.squeeze(f, axis=1) for f in finals]
        if self.batch_first:
            output = _ac.permute_dims(output, (1, 0, 2))
        return output, finals


class RNN(RNNBase):
    """Elman RNN, h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu)
    (torch.nn.RNN).  forward(input, hx=None) -> (output, h_n).

    >>> import arraycore as ac
    >>> rnn = ac.nn.RNN(10, 20, num_layers=2)
    >>> out, h = rnn(ac.ones((5, 3, 10), dtype=ac.float32))
    >>> out.shape, h.shape
    ((5, 3, 20), (2, 3, 20))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"RNN: Unknown nonlinearity '{nonlinearity}'. Select from "
                             "'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         bidirectional, 0, device, dtype)

    def forward(self, input, hx=None):
        x, batched = self._prepare_input(input)
        h0 = self._prepare_state(hx, batched, x.shape[1], self.hidden_size, "hx")
        self._check_dtypes(x, h0)
        out, (h,) = self._finish(*self._run(x, [h0]), batched)
        return out, h


class LSTM(RNNBase):
    """Long short-term memory (torch.nn.LSTM), gates (i, f, g, o); optional projection of
    the hidden state (proj_size).  forward(input, (h0, c0)=None) -> (output, (h_n, c_n)).

    >>> import arraycore as ac
    >>> lstm = ac.nn.LSTM(10, 20, batch_first=True, bidirectional=True)
    >>> out, (h, c) = lstm(ac.ones((3, 5, 10), dtype=ac.float32))
    >>> out.shape, h.shape, c.shape
    ((3, 5, 40), (2, 3, 20), (2, 3, 20))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)

    def forward(self, input, hx=None):
        x, batched = self._prepare_input(input)
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        if hx is None:
            h0 = self._prepare_state(None, batched, x.shape[1], real_hidden, "h0")
            c0 = self._prepare_state(None, batched, x.shape[1], self.hidden_size, "c0")
        else:
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise TypeError("LSTM: hx must be a tuple (h_0, c_0)")
            h0 = self._prepare_state(hx[0], batched, x.shape[1], real_hidden, "h0")
            c0 = self._prepare_state(hx[1], batched, x.shape[1], self.hidden_size, "c0")
        self._check_dtypes(x, h0, c0)
        out, (h, c) = self._finish(*self._run(x, [h0, c0]), batched)
        return out, (h, c)


class GRU(RNNBase):
    """Gated recurrent unit (torch.nn.GRU), gates (r, z, n) with b_hn inside the reset
    product.  forward(input, hx=None) -> (output, h_n).

    >>> import arraycore as ac
    >>> gru = ac.nn.GRU(10, 20, num_layers=2)
    >>> out, h = gru(ac.ones((5, 10), dtype=ac.float32))   # unbatched
    >>> out.shape, h.shape
    ((5, 20), (2, 20))
    """

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, device, dtype)

    def forward(self, input, hx=None):
        x, batched = self._prepare_input(input)
        h0 = self._prepare_state(hx, batched, x.shape[1], self.hidden_size, "hx")
        self._check_dtypes(x, h0)
        out, (h,) = self._finish(*self._run(x, [h0]), batched)
        return out, h


# --- cells ----------------------------------------------------------------------------------

class RNNCellBase(Module):
    """Shared parameters of the cells (torch.nn.RNNCellBase)."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        if hidden_size <= 0:
            raise ValueError(f"{type(self).__name__}: hidden_size must be greater than zero")
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        dtype = _seq_init.resolve_dtype(dtype, type(self).__name__)
        g = num_chunks * hidden_size
        self.weight_ih = Parameter(_ac.empty((g, input_size), dtype=dtype))
        self.weight_hh = Parameter(_ac.empty((g, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_ac.empty((g,), dtype=dtype))
            self.bias_hh = Parameter(_ac.empty((g,), dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            _init.uniform_(p, -stdv, stdv)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _prepare(self, input, hx):
        name = type(self).__name__
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D "
                             "instead")
        if input.shape[-1] != self.input_size:
            raise ValueError(f"{name}: input has inconsistent input_size: got "
                             f"{input.shape[-1]} expected {self.input_size}")
        if input.dtype != self.weight_ih.dtype:
            raise TypeError(f"{name}: input must have the parameters' dtype "
                            f"{self.weight_ih.dtype}, got {input.dtype}")
        batched = input.ndim == 2
        if not batched:
            input = _ac.expand_dims(input, axis=0)
        return input, batched

    def _state(self, hx, batched, batch):
        name = type(self).__name__
        if hx is None:
            return _ac.zeros((batch, self.hidden_size), dtype=self.weight_ih.dtype)
        if hx.ndim != (2 if batched else 1):
            raise ValueError(f"{name}: Expected hidden to be {2 if batched else 1}D, got "
                             f"{hx.ndim}D instead")
        if not batched:
            hx = _ac.expand_dims(hx, axis=0)
        if tuple(hx.shape) != (batch, self.hidden_size):
            raise ValueError(f"{name}: hidden has inconsistent shape {tuple(hx.shape)}, "
                             f"expected {(batch, self.hidden_size)}")
        return hx

    def _gates_x(self, x):
        g = x @ _ac.matrix_transpose(self.weight_ih)
        return g if self.bias_ih is None else g + self.bias_ih

    def _gates_h(self, h):
        g = h @ _ac.matrix_transpose(self.weight_hh)
        return g if self.bias_hh is None else g + self.bias_hh


class RNNCell(RNNCellBase):
    """One Elman RNN step (torch.nn.RNNCell): h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh).

    >>> import arraycore as ac
    >>> cell = ac.nn.RNNCell(10, 20)
    >>> cell(ac.ones((3, 10), dtype=ac.float32)).shape
    (3, 20)
    """

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNNCell: Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)

    def forward(self, input, hx=None):
        x, batched = self._prepare(input, hx)
        h = self._state(hx, batched, x.shape[0])
        out = _layers.rnn_cell_step(self._gates_x(x) + self._gates_h(h), self.nonlinearity)
        return out if batched else _ac.squeeze(out, axis=0)


class LSTMCell(RNNCellBase):
    """One LSTM step (torch.nn.LSTMCell): (x, (h, c)) -> (h', c').

    >>> import arraycore as ac
    >>> cell = ac.nn.LSTMCell(10, 20)
    >>> h, c = cell(ac.ones((3, 10), dtype=ac.float32))
    >>> h.shape, c.shape
    ((3, 20), (3, 20))
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):
        x, batched = self._prepare(input, hx)
        if hx is None:
            h = self._state(None, batched, x.shape[0])
            c = self._state(None, batched, x.shape[0])
        else:
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise TypeError("LSTMCell: hx must be a tuple (h_0, c_0)")
            h = self._state(hx[0], batched, x.shape[0])
            c = self._state(hx[1], batched, x.shape[0])
        h, c = _layers.lstm_cell_step(self._gates_x(x) + self._gates_h(h), c)
        if not batched:
            h, c = _ac.squeeze(h, axis=0), _ac.squeeze(c, axis=0)
        return h, c


class GRUCell(RNNCellBase):
    """One GRU step (torch.nn.GRUCell).

    >>> import arraycore as ac
    >>> cell = ac.nn.GRUCell(10, 20)
    >>> cell(ac.ones((10,), dtype=ac.float32)).shape
    (20,)
    """

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):
        x, batched = self._prepare(input, hx)
        h = self._state(hx, batched, x.shape[0])
        out = _layers.gru_cell_step(self._gates_x(x), self._gates_h(h), h)
        return out if batched else _ac.squeeze(out, axis=0)
