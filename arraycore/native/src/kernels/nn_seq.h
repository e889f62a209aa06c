// L0: fused kernels of the sequence layers (arraycore/nn/functional/rnn.py, attention.py).
//
// Recurrent layers (kernels/nn_rnn.cpp).  One direction of one layer runs as one call: the
// input projection of all steps (`gx`, with the biases folded in by the caller) comes in
// precomputed, and each step is one gemm (h_prev @ W_hh^T) plus one fused gate update that
// GCC vectorizes.  The backward call walks the steps in reverse with one gemm per step for
// the hidden-state gradient and forms dW_hh as one or two large gemms over all steps at the
// end (the layout PyTorch's and cuDNN's RNN kernels use).  `reverse` runs the steps from the
// last time index to the first (the backward direction of a bidirectional layer); outputs
// stay indexed by time.
//
// Encoder layer (kernels/nn_encoder.cpp): the inference forward of
// nn.TransformerEncoderLayer as one native call (PyTorch's BetterTransformer fast path).
//
// All arrays are float32 or float64 of one dtype; the callers (bindings/bind_nn_seq.cpp)
// make them C-contiguous.  Shapes are checked here, errors name `who`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "../ndarray.h"

namespace arraycore::native::nn_seq {

// LSTM, gates ordered (i, f, g, o) as PyTorch's.  gx [T,B,4H], h0/c0 [B,H], whh [4H,H].
// Returns {hs [T,B,H], cs [T,B,H], gates [T,B,4H] (the activated gates, kept for backward)}.
std::vector<NdArray> lstm_forward(const NdArray& gx, const NdArray& h0, const NdArray& c0,
                                  const NdArray& whh, bool reverse);
// Returns {dgx [T,B,4H] (gradient of the pre-activations), dh0, dc0, dwhh}.
std::vector<NdArray> lstm_backward(const NdArray& dhs, const NdArray& dcs, const NdArray& gates,
                                   const NdArray& cs, const NdArray& hs, const NdArray& h0,
                                   const NdArray& c0, const NdArray& whh, bool reverse);

// GRU, gates ordered (r, z, n) as PyTorch's; b_hh stays inside the reset gate's product:
// n = tanh(gx_n + r * (W_hn h + b_hn)).  gx [T,B,3H] (b_ih folded in), whh [3H,H], bhh [3H].
// Returns {hs [T,B,H], saved [T,B,4H] (r, z, n, W_hn h + b_hn)}.
std::vector<NdArray> gru_forward(const NdArray& gx, const NdArray& h0, const NdArray& whh,
                                 const NdArray& bhh, bool reverse);
// Returns {dgx [T,B,3H], dh0, dwhh, dbhh}.
std::vector<NdArray> gru_backward(const NdArray& dhs, const NdArray& saved, const NdArray& hs,
                                  const NdArray& h0, const NdArray& whh, bool reverse);

// Elman RNN: h = act(gx + h_prev @ whh^T), act tanh or relu.  gx [T,B,H] (both biases folded
// in), whh [H,H].  Returns hs [T,B,H].
NdArray rnn_forward(const NdArray& gx, const NdArray& h0, const NdArray& whh, bool reverse,
                    bool relu);
// Returns {dgx, dh0, dwhh}.
std::vector<NdArray> rnn_backward(const NdArray& dhs, const NdArray& hs, const NdArray& h0,
                                  const NdArray& whh, bool reverse, bool relu);

// The weights of one nn.TransformerEncoderLayer; absent biases are std::nullopt.
struct EncoderWeights {
  NdArray in_w, out_w, w1, w2, n1w, n2w;               // [3D,D] [D,D] [F,D] [D,F] [D] [D]
  std::optional<NdArray> in_b, out_b, b1, b2, n1b, n2b;
};

// x [B,S,D] (batch first) -> [B,S,D].  activation: 0 relu, 1 gelu (erf).  attn_mask [S,S]
// and key_mask [B,S] are additive float masks (-inf where masked).
NdArray encoder_layer_forward(const NdArray& x, const EncoderWeights& w, int64_t nhead,
                              double eps, bool norm_first, int activation,
                              const std::optional<NdArray>& attn_mask,
                              const std::optional<NdArray>& key_mask);

}  // namespace arraycore::native::nn_seq
