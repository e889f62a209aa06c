// L0: LSTM / GRU / Elman RNN layers, forward and backward, one direction per call
// (see nn_seq.h for the layout and why).
//
// The gate equations are PyTorch's (torch.nn.LSTM / GRU / RNN documentation); the backward
// formulas are their derivatives written out (standard BPTT).  Each step's elementwise part
// is one loop over B x H that reads the gates of one hidden unit and writes its results, so
// GCC vectorizes it with simd_math's exp/tanh.
#include <algorithm>
#include <cstring>
#include <initializer_list>

#include "matmul.h"
#include "nn_seq.h"
#include "nn_seq_common.h"

namespace arraycore::native::nn_seq {

using detail::check_float;
using detail::check_shape;
using detail::gemm;
using detail::ptr;
using detail::sigmoid;

namespace {

// Index of the step processed before time t (the one whose state t reads), or -1 for h0.
inline int64_t prev_step(int64_t t, int64_t T, bool reverse) {
  int64_t p = reverse ? t + 1 : t - 1;
  return (p < 0 || p >= T) ? -1 : p;
}

// Time index of the s-th processed step.
inline int64_t step_time(int64_t s, int64_t T, bool reverse) { return reverse ? T - 1 - s : s; }

// dW_hh = sum_t dG[t]^T @ h_prev(t), as two gemms: all steps whose h_prev is a stored output
// (a contiguous block of hs, shifted by one step), plus the step that reads h0.
template <class T>
void hidden_weight_grad(const T* dg, const T* hs, const T* h0, T* dw, int64_t Tn, int64_t B,
                        int64_t G, int64_t H, bool reverse) {
  std::fill(dw, dw + G * H, T(0));
  if (Tn == 0 || B == 0) return;
  if (Tn > 1) {
    // forward: steps 1..T-1 read hs[0..T-2]; reverse: steps 0..T-2 read hs[1..T-1].
    const T* dg_block = reverse ? dg : dg + B * G;
    const T* h_block = reverse ? hs + B * H : hs;
    gemm(true, false, G, H, (Tn - 1) * B, T(1), dg_block, G, h_block, H, T(1), dw, H);
  }
  const T* dg_first = reverse ? dg + (Tn - 1) * B * G : dg;
  gemm(true, false, G, H, B, T(1), dg_first, G, h0, H, T(1), dw, H);
}

// The per-row gate loops, as functions of restrict pointers so GCC vectorizes them (inside
// the dispatch lambda, with the pointers computed from one buffer, it could not prove the
// accesses independent: "complicated access pattern").
template <class T>
void lstm_row_forward(int64_t H, T* __restrict__ gi, T* __restrict__ gf, T* __restrict__ gg,
                      T* __restrict__ go, const T* __restrict__ cp, T* __restrict__ c,
                      T* __restrict__ h) {
  for (int64_t j = 0; j < H; ++j) {
    T i = sigmoid(gi[j]), f = sigmoid(gf[j]), gv = simd_math::tanh(gg[j]);
    T o = sigmoid(go[j]);
    T cn = f * cp[j] + i * gv;
    gi[j] = i;
    gf[j] = f;
    gg[j] = gv;
    go[j] = o;
    c[j] = cn;
    h[j] = o * simd_math::tanh(cn);
  }
}

template <class T>
void lstm_row_backward(int64_t H, const T* __restrict__ gi, const T* __restrict__ gf,
                       const T* __restrict__ gg, const T* __restrict__ go,
                       const T* __restrict__ c, const T* __restrict__ cp,
                       const T* __restrict__ dho, const T* __restrict__ dco,
                       const T* __restrict__ dhn, T* __restrict__ dcn, T* __restrict__ di,
                       T* __restrict__ df, T* __restrict__ dgg, T* __restrict__ dgo) {
  for (int64_t j = 0; j < H; ++j) {
    T i = gi[j], f = gf[j], gv = gg[j], o = go[j];
    T tc = simd_math::tanh(c[j]);
    T dh = dho[j] + dhn[j];
    T dc = dco[j] + dcn[j] + dh * o * (T(1) - tc * tc);
    di[j] = dc * gv * i * (T(1) - i);
    df[j] = dc * cp[j] * f * (T(1) - f);
    dgg[j] = dc * i * (T(1) - gv * gv);
    dgo[j] = dh * tc * o * (T(1) - o);
    dcn[j] = dc * f;
  }
}

template <class T>
void gru_row_forward(int64_t H, const T* __restrict__ xr, const T* __restrict__ xz,
                     const T* __restrict__ xn, const T* __restrict__ hr,
                     const T* __restrict__ hz, const T* __restrict__ hn,
                     const T* __restrict__ hp, T* __restrict__ sr, T* __restrict__ sz,
                     T* __restrict__ sn, T* __restrict__ shn, T* __restrict__ h) {
  for (int64_t j = 0; j < H; ++j) {
    T r = sigmoid(xr[j] + hr[j]), z = sigmoid(xz[j] + hz[j]);
    T n = simd_math::tanh(xn[j] + r * hn[j]);
    sr[j] = r;
    sz[j] = z;
    sn[j] = n;
    shn[j] = hn[j];
    h[j] = (T(1) - z) * n + z * hp[j];
  }
}

template <class T>
void gru_row_backward(int64_t H, const T* __restrict__ sr, const T* __restrict__ sz,
                      const T* __restrict__ sn, const T* __restrict__ shn,
                      const T* __restrict__ hp, const T* __restrict__ dho,
                      T* __restrict__ dnext, T* __restrict__ dxr, T* __restrict__ dxz,
                      T* __restrict__ dxn, T* __restrict__ dhr, T* __restrict__ dhz,
                      T* __restrict__ dhn) {
  for (int64_t j = 0; j < H; ++j) {
    T r = sr[j], z = sz[j], n = sn[j];
    T dh = dho[j] + dnext[j];
    T dn_pre = dh * (T(1) - z) * (T(1) - n * n);
    T dz_pre = dh * (hp[j] - n) * z * (T(1) - z);
    T dr_pre = dn_pre * shn[j] * r * (T(1) - r);
    dxr[j] = dr_pre;
    dxz[j] = dz_pre;
    dxn[j] = dn_pre;
    dhr[j] = dr_pre;
    dhz[j] = dz_pre;
    dhn[j] = dn_pre * r;
    dnext[j] = dh * z;
  }
}

template <class T>
void rnn_act_forward(int64_t n, T* __restrict__ h, bool relu) {
  if (relu) {
    for (int64_t k = 0; k < n; ++k) h[k] = h[k] > T(0) ? h[k] : T(0);
  } else {
    for (int64_t k = 0; k < n; ++k) h[k] = simd_math::tanh(h[k]);
  }
}

template <class T>
void rnn_act_backward(int64_t n, const T* __restrict__ h, const T* __restrict__ dho,
                      const T* __restrict__ dhn, T* __restrict__ dp, bool relu) {
  if (relu) {
    for (int64_t k = 0; k < n; ++k) dp[k] = h[k] > T(0) ? dho[k] + dhn[k] : T(0);
  } else {
    for (int64_t k = 0; k < n; ++k) dp[k] = (dho[k] + dhn[k]) * (T(1) - h[k] * h[k]);
  }
}

void check_common(const NdArray& gx, const NdArray& h0, int64_t gates, const std::string& who,
                  int64_t* Tn, int64_t* B, int64_t* H) {
  if (gx.ndim() != 3) throw ValueError(who + ": gx must be (T, B, G)");
  if (h0.ndim() != 2) throw ValueError(who + ": h0 must be (B, H)");
  *Tn = gx.shape[0];
  *B = gx.shape[1];
  *H = h0.shape[1];
  check_shape(gx, {*Tn, *B, gates * *H}, "gx", who);
  check_shape(h0, {*B, *H}, "h0", who);
  check_float(gx, gx.dtype, "gx", who);
  check_float(h0, gx.dtype, "h0", who);
}

}  // namespace

// ---------------------------------------------------------------------------------- LSTM

std::vector<NdArray> lstm_forward(const NdArray& gx, const NdArray& h0, const NdArray& c0,
                                  const NdArray& whh, bool reverse) {
  const std::string who = "lstm";
  int64_t Tn, B, H;
  check_common(gx, h0, 4, who, &Tn, &B, &H);
  check_shape(c0, {B, H}, "c0", who);
  check_shape(whh, {4 * H, H}, "weight_hh", who);
  check_float(c0, gx.dtype, "c0", who);
  check_float(whh, gx.dtype, "weight_hh", who);
  NdArray hs = empty({Tn, B, H}, gx.dtype), cs = empty({Tn, B, H}, gx.dtype);
  NdArray gates = empty({Tn, B, 4 * H}, gx.dtype);
  sync_blas_threads();
  detail::dispatch_float(gx.dtype, [&]<class T>() {
    const T* w = ptr<T>(whh);
    for (int64_t s = 0; s < Tn; ++s) {
      int64_t t = step_time(s, Tn, reverse), p = prev_step(t, Tn, reverse);
      const T* hp = p < 0 ? ptr<T>(h0) : ptr<T>(hs) + p * B * H;
      const T* cp = p < 0 ? ptr<T>(c0) : ptr<T>(cs) + p * B * H;
      T* g = ptr<T>(gates) + t * B * 4 * H;
      std::memcpy(g, ptr<T>(gx) + t * B * 4 * H, sizeof(T) * B * 4 * H);
      if (H > 0) gemm(false, true, B, 4 * H, H, T(1), hp, H, w, H, T(1), g, 4 * H);
      T* c = ptr<T>(cs) + t * B * H;
      T* h = ptr<T>(hs) + t * B * H;
      for (int64_t b = 0; b < B; ++b) {
        T* gi = g + b * 4 * H;
        lstm_row_forward<T>(H, gi, gi + H, gi + 2 * H, gi + 3 * H, cp + b * H, c + b * H,
                            h + b * H);
      }
    }
    return 0;
  });
  return {hs, cs, gates};
}

std::vector<NdArray> lstm_backward(const NdArray& dhs, const NdArray& dcs, const NdArray& gates,
                                   const NdArray& cs, const NdArray& hs, const NdArray& h0,
                                   const NdArray& c0, const NdArray& whh, bool reverse) {
  const std::string who = "lstm backward";
  int64_t Tn, B, H;
  check_common(gates, h0, 4, who, &Tn, &B, &H);
  for (auto* a : {&dhs, &dcs, &cs, &hs}) {
    check_shape(*a, {Tn, B, H}, "state", who);
    check_float(*a, gates.dtype, "state", who);
  }
  check_shape(c0, {B, H}, "c0", who);
  check_shape(whh, {4 * H, H}, "weight_hh", who);
  check_float(c0, gates.dtype, "c0", who);
  check_float(whh, gates.dtype, "weight_hh", who);
  NdArray dgx = empty({Tn, B, 4 * H}, gates.dtype), dh0 = empty({B, H}, gates.dtype);
  NdArray dc0 = empty({B, H}, gates.dtype), dwhh = empty({4 * H, H}, gates.dtype);
  sync_blas_threads();
  detail::dispatch_float(gates.dtype, [&]<class T>() {
    T* dh_next = ptr<T>(dh0);  // carried gradients live in the outputs' buffers
    T* dc_next = ptr<T>(dc0);
    std::fill(dh_next, dh_next + B * H, T(0));
    std::fill(dc_next, dc_next + B * H, T(0));
    const T* w = ptr<T>(whh);
    for (int64_t s = 0; s < Tn; ++s) {
      // backward visits the steps in the opposite order of the forward pass
      int64_t t = step_time(Tn - 1 - s, Tn, reverse), p = prev_step(t, Tn, reverse);
      const T* cp = p < 0 ? ptr<T>(c0) : ptr<T>(cs) + p * B * H;
      const T* g = ptr<T>(gates) + t * B * 4 * H;
      const T* c = ptr<T>(cs) + t * B * H;
      const T* dh_out = ptr<T>(dhs) + t * B * H;
      const T* dc_out = ptr<T>(dcs) + t * B * H;
      T* dg = ptr<T>(dgx) + t * B * 4 * H;
      for (int64_t b = 0; b < B; ++b) {
        const T* gi = g + b * 4 * H;
        T* di = dg + b * 4 * H;
        lstm_row_backward<T>(H, gi, gi + H, gi + 2 * H, gi + 3 * H, c + b * H, cp + b * H,
                             dh_out + b * H, dc_out + b * H, dh_next + b * H, dc_next + b * H,
                             di, di + H, di + 2 * H, di + 3 * H);
      }
      // dh_prev = dG[t] @ W_hh
      if (H > 0) gemm(false, false, B, H, 4 * H, T(1), dg, 4 * H, w, H, T(0), dh_next, H);
    }
    hidden_weight_grad<T>(ptr<T>(dgx), ptr<T>(hs), ptr<T>(h0), ptr<T>(dwhh), Tn, B, 4 * H, H,
                          reverse);
    return 0;
  });
  return {dgx, dh0, dc0, dwhh};
}

// ----------------------------------------------------------------------------------- GRU

std::vector<NdArray> gru_forward(const NdArray& gx, const NdArray& h0, const NdArray& whh,
                                 const NdArray& bhh, bool reverse) {
  const std::string who = "gru";
  int64_t Tn, B, H;
  check_common(gx, h0, 3, who, &Tn, &B, &H);
  check_shape(whh, {3 * H, H}, "weight_hh", who);
  check_shape(bhh, {3 * H}, "bias_hh", who);
  check_float(whh, gx.dtype, "weight_hh", who);
  check_float(bhh, gx.dtype, "bias_hh", who);
  NdArray hs = empty({Tn, B, H}, gx.dtype), saved = empty({Tn, B, 4 * H}, gx.dtype);
  NdArray gh = empty({B, 3 * H}, gx.dtype);
  sync_blas_threads();
  detail::dispatch_float(gx.dtype, [&]<class T>() {
    const T* w = ptr<T>(whh);
    const T* bias = ptr<T>(bhh);
    T* ghp = ptr<T>(gh);
    for (int64_t s = 0; s < Tn; ++s) {
      int64_t t = step_time(s, Tn, reverse), p = prev_step(t, Tn, reverse);
      const T* hp = p < 0 ? ptr<T>(h0) : ptr<T>(hs) + p * B * H;
      for (int64_t b = 0; b < B; ++b) std::memcpy(ghp + b * 3 * H, bias, sizeof(T) * 3 * H);
      if (H > 0) gemm(false, true, B, 3 * H, H, T(1), hp, H, w, H, T(1), ghp, 3 * H);
      const T* x = ptr<T>(gx) + t * B * 3 * H;
      T* sv = ptr<T>(saved) + t * B * 4 * H;
      T* h = ptr<T>(hs) + t * B * H;
      for (int64_t b = 0; b < B; ++b) {
        const T* xr = x + b * 3 * H;
        const T* hr = ghp + b * 3 * H;
        T* sr = sv + b * 4 * H;
        gru_row_forward<T>(H, xr, xr + H, xr + 2 * H, hr, hr + H, hr + 2 * H, hp + b * H, sr,
                           sr + H, sr + 2 * H, sr + 3 * H, h + b * H);
      }
    }
    return 0;
  });
  return {hs, saved};
}

std::vector<NdArray> gru_backward(const NdArray& dhs, const NdArray& saved, const NdArray& hs,
                                  const NdArray& h0, const NdArray& whh, bool reverse) {
  const std::string who = "gru backward";
  int64_t Tn, B, H;
  check_common(saved, h0, 4, who, &Tn, &B, &H);
  for (auto* a : {&dhs, &hs}) {
    check_shape(*a, {Tn, B, H}, "state", who);
    check_float(*a, saved.dtype, "state", who);
  }
  check_shape(whh, {3 * H, H}, "weight_hh", who);
  check_float(whh, saved.dtype, "weight_hh", who);
  NdArray dgx = empty({Tn, B, 3 * H}, saved.dtype), dgh = empty({Tn, B, 3 * H}, saved.dtype);
  NdArray dh0 = empty({B, H}, saved.dtype), dwhh = empty({3 * H, H}, saved.dtype);
  NdArray dbhh = empty({3 * H}, saved.dtype);
  sync_blas_threads();
  detail::dispatch_float(saved.dtype, [&]<class T>() {
    T* dh_next = ptr<T>(dh0);
    std::fill(dh_next, dh_next + B * H, T(0));
    const T* w = ptr<T>(whh);
    for (int64_t s = 0; s < Tn; ++s) {
      int64_t t = step_time(Tn - 1 - s, Tn, reverse), p = prev_step(t, Tn, reverse);
      const T* hp = p < 0 ? ptr<T>(h0) : ptr<T>(hs) + p * B * H;
      const T* sv = ptr<T>(saved) + t * B * 4 * H;
      const T* dh_out = ptr<T>(dhs) + t * B * H;
      T* dx = ptr<T>(dgx) + t * B * 3 * H;
      T* dghp = ptr<T>(dgh) + t * B * 3 * H;
      for (int64_t b = 0; b < B; ++b) {
        const T* sr = sv + b * 4 * H;
        T* dxr = dx + b * 3 * H;
        T* dhr = dghp + b * 3 * H;
        gru_row_backward<T>(H, sr, sr + H, sr + 2 * H, sr + 3 * H, hp + b * H, dh_out + b * H,
                            dh_next + b * H, dxr, dxr + H, dxr + 2 * H, dhr, dhr + H,
                            dhr + 2 * H);
      }
      // dh_prev = dh * z + dGh[t] @ W_hh
      if (H > 0) gemm(false, false, B, H, 3 * H, T(1), dghp, 3 * H, w, H, T(1), dh_next, H);
    }
    hidden_weight_grad<T>(ptr<T>(dgh), ptr<T>(hs), ptr<T>(h0), ptr<T>(dwhh), Tn, B, 3 * H, H,
                          reverse);
    T* db = ptr<T>(dbhh);
    std::fill(db, db + 3 * H, T(0));
    const T* d = ptr<T>(dgh);
    for (int64_t r = 0; r < Tn * B; ++r)
      for (int64_t j = 0; j < 3 * H; ++j) db[j] += d[r * 3 * H + j];
    return 0;
  });
  return {dgx, dh0, dwhh, dbhh};
}

// ------------------------------------------------------------------------------ Elman RNN

NdArray rnn_forward(const NdArray& gx, const NdArray& h0, const NdArray& whh, bool reverse,
                    bool relu) {
  const std::string who = "rnn";
  int64_t Tn, B, H;
  check_common(gx, h0, 1, who, &Tn, &B, &H);
  check_shape(whh, {H, H}, "weight_hh", who);
  check_float(whh, gx.dtype, "weight_hh", who);
  NdArray hs = empty({Tn, B, H}, gx.dtype);
  sync_blas_threads();
  detail::dispatch_float(gx.dtype, [&]<class T>() {
    for (int64_t s = 0; s < Tn; ++s) {
      int64_t t = step_time(s, Tn, reverse), p = prev_step(t, Tn, reverse);
      const T* hp = p < 0 ? ptr<T>(h0) : ptr<T>(hs) + p * B * H;
      T* h = ptr<T>(hs) + t * B * H;
      std::memcpy(h, ptr<T>(gx) + t * B * H, sizeof(T) * B * H);
      if (H > 0) gemm(false, true, B, H, H, T(1), hp, H, ptr<T>(whh), H, T(1), h, H);
      rnn_act_forward<T>(B * H, h, relu);
    }
    return 0;
  });
  return hs;
}

std::vector<NdArray> rnn_backward(const NdArray& dhs, const NdArray& hs, const NdArray& h0,
                                  const NdArray& whh, bool reverse, bool relu) {
  const std::string who = "rnn backward";
  int64_t Tn, B, H;
  check_common(hs, h0, 1, who, &Tn, &B, &H);
  check_shape(dhs, {Tn, B, H}, "grad", who);
  check_float(dhs, hs.dtype, "grad", who);
  check_shape(whh, {H, H}, "weight_hh", who);
  check_float(whh, hs.dtype, "weight_hh", who);
  NdArray dgx = empty({Tn, B, H}, hs.dtype), dh0 = empty({B, H}, hs.dtype);
  NdArray dwhh = empty({H, H}, hs.dtype);
  sync_blas_threads();
  detail::dispatch_float(hs.dtype, [&]<class T>() {
    T* dh_next = ptr<T>(dh0);
    std::fill(dh_next, dh_next + B * H, T(0));
    for (int64_t s = 0; s < Tn; ++s) {
      int64_t t = step_time(Tn - 1 - s, Tn, reverse);
      const T* h = ptr<T>(hs) + t * B * H;
      const T* dho = ptr<T>(dhs) + t * B * H;
      T* dp = ptr<T>(dgx) + t * B * H;
      rnn_act_backward<T>(B * H, h, dho, dh_next, dp, relu);
      if (H > 0) gemm(false, false, B, H, H, T(1), dp, H, ptr<T>(whh), H, T(0), dh_next, H);
    }
    hidden_weight_grad<T>(ptr<T>(dgx), ptr<T>(hs), ptr<T>(h0), ptr<T>(dwhh), Tn, B, H, H,
                          reverse);
    return 0;
  });
  return {dgx, dh0, dwhh};
}

}  // namespace arraycore::native::nn_seq
