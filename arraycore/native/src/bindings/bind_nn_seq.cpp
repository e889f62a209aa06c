// Bindings of the sequence-layer kernels (kernels/nn_rnn.cpp, kernels/nn_encoder.cpp), called
// by arraycore/nn/functional/_rnn_fused.py and arraycore/nn/_fused_encoder.py.  Inputs are
// made C-contiguous here; dtypes are checked by the kernels.  The GIL is released while they
// run.
#include <optional>

#include "../kernels/nn_seq.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

namespace ns = arraycore::native::nn_seq;

NdArray c(const NdArray& a) { return contiguous(a); }

std::optional<NdArray> c(const std::optional<NdArray>& a) {
  if (!a) return std::nullopt;
  return contiguous(*a);
}

py::tuple to_tuple(std::vector<NdArray>&& r) {
  py::tuple t(r.size());
  for (size_t i = 0; i < r.size(); ++i) t[i] = py::cast(std::move(r[i]));
  return t;
}

}  // namespace

AC_BINDINGS(nn_seq) {
  m.def("nn_lstm_forward", [](const NdArray& gx, const NdArray& h0, const NdArray& c0,
                              const NdArray& whh, bool reverse) {
    std::vector<NdArray> r;
    {
      py::gil_scoped_release nogil;
      r = ns::lstm_forward(c(gx), c(h0), c(c0), c(whh), reverse);
    }
    return to_tuple(std::move(r));
  }, py::arg("gx"), py::arg("h0"), py::arg("c0"), py::arg("whh"), py::arg("reverse"),
        "One LSTM direction: gx (T,B,4H) with biases, h0/c0 (B,H), whh (4H,H) -> "
        "(hs, cs, activated gates).");
  m.def("nn_lstm_backward", [](const NdArray& dhs, const NdArray& dcs, const NdArray& gates,
                               const NdArray& cs, const NdArray& hs, const NdArray& h0,
                               const NdArray& c0, const NdArray& whh, bool reverse) {
    std::vector<NdArray> r;
    {
      py::gil_scoped_release nogil;
      r = ns::lstm_backward(c(dhs), c(dcs), c(gates), c(cs), c(hs), c(h0), c(c0), c(whh),
                            reverse);
    }
    return to_tuple(std::move(r));
  }, py::arg("dhs"), py::arg("dcs"), py::arg("gates"), py::arg("cs"), py::arg("hs"),
        py::arg("h0"), py::arg("c0"), py::arg("whh"), py::arg("reverse"),
        "-> (dgx, dh0, dc0, dwhh)");
  m.def("nn_gru_forward", [](const NdArray& gx, const NdArray& h0, const NdArray& whh,
                             const NdArray& bhh, bool reverse) {
    std::vector<NdArray> r;
    {
      py::gil_scoped_release nogil;
      r = ns::gru_forward(c(gx), c(h0), c(whh), c(bhh), reverse);
    }
    return to_tuple(std::move(r));
  }, py::arg("gx"), py::arg("h0"), py::arg("whh"), py::arg("bhh"), py::arg("reverse"),
        "One GRU direction: gx (T,B,3H) with b_ih, h0 (B,H), whh (3H,H), bhh (3H,) -> "
        "(hs, saved).");
  m.def("nn_gru_backward", [](const NdArray& dhs, const NdArray& saved, const NdArray& hs,
                              const NdArray& h0, const NdArray& whh, bool reverse) {
    std::vector<NdArray> r;
    {
      py::gil_scoped_release nogil;
      r = ns::gru_backward(c(dhs), c(saved), c(hs), c(h0), c(whh), reverse);
    }
    return to_tuple(std::move(r));
  }, py::arg("dhs"), py::arg("saved"), py::arg("hs"), py::arg("h0"), py::arg("whh"),
        py::arg("reverse"), "-> (dgx, dh0, dwhh, dbhh)");
  m.def("nn_rnn_forward", [](const NdArray& gx, const NdArray& h0, const NdArray& whh,
                             bool reverse, bool relu) {
    py::gil_scoped_release nogil;
    return ns::rnn_forward(c(gx), c(h0), c(whh), reverse, relu);
  }, py::arg("gx"), py::arg("h0"), py::arg("whh"), py::arg("reverse"), py::arg("relu"),
        "One Elman RNN direction: gx (T,B,H) with both biases -> hs (T,B,H).");
  m.def("nn_rnn_backward", [](const NdArray& dhs, const NdArray& hs, const NdArray& h0,
                              const NdArray& whh, bool reverse, bool relu) {
    std::vector<NdArray> r;
    {
      py::gil_scoped_release nogil;
      r = ns::rnn_backward(c(dhs), c(hs), c(h0), c(whh), reverse, relu);
    }
    return to_tuple(std::move(r));
  }, py::arg("dhs"), py::arg("hs"), py::arg("h0"), py::arg("whh"), py::arg("reverse"),
        py::arg("relu"), "-> (dgx, dh0, dwhh)");
  m.def("nn_encoder_layer_forward",
        [](const NdArray& x, const NdArray& in_w, const std::optional<NdArray>& in_b,
           const NdArray& out_w, const std::optional<NdArray>& out_b, const NdArray& w1,
           const std::optional<NdArray>& b1, const NdArray& w2,
           const std::optional<NdArray>& b2, const NdArray& n1w,
           const std::optional<NdArray>& n1b, const NdArray& n2w,
           const std::optional<NdArray>& n2b, int64_t nhead, double eps, bool norm_first,
           int activation, const std::optional<NdArray>& attn_mask,
           const std::optional<NdArray>& key_mask) {
          py::gil_scoped_release nogil;
          ns::EncoderWeights w{c(in_w), c(out_w), c(w1),  c(w2),  c(n1w), c(n2w),
                               c(in_b), c(out_b), c(b1), c(b2), c(n1b), c(n2b)};
          return ns::encoder_layer_forward(c(x), w, nhead, eps, norm_first, activation,
                                           c(attn_mask), c(key_mask));
        },
        py::arg("x"), py::arg("in_w"), py::arg("in_b"), py::arg("out_w"), py::arg("out_b"),
        py::arg("w1"), py::arg("b1"), py::arg("w2"), py::arg("b2"), py::arg("n1w"),
        py::arg("n1b"), py::arg("n2w"), py::arg("n2b"), py::arg("nhead"), py::arg("eps"),
        py::arg("norm_first"), py::arg("activation"), py::arg("attn_mask"),
        py::arg("key_mask"),
        "TransformerEncoderLayer inference forward, x (B,S,D) batch-first; activation 0 relu, "
        "1 gelu; additive float masks attn_mask (S,S), key_mask (B,S).");
}

}  // namespace arraycore::native::bindings
