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
        T* gf = gi + H;
        T* gg = gf + H;
        T* go = gg + H;
        const T* cpb = cp + b * H;
        T* cb = c + b * H;
        T* hb = h + b * H;
        for (int64_t j = 0; j < H; ++j) {
          T i = sigmoid(gi[j]), f = sigmoid(gf[j]), gv = simd_math::tanh(gg[j]);
          T o = sigmoid(go[j]);
          T cn = f * cpb[j] + i * gv;
          gi[j] = i;
          gf[j] = f;
          gg[j] = gv;
          go[j] = o;
          cb[j] = cn;
          hb[j] = o * simd_math::tanh(cn);
        }
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
        const T* gf = gi + H;
        const T* gg = gf + H;
        const T* go = gg + H;
        T* di = dg + b * 4 * H;
        T* df = di + H;
        T* dgg = df + H;
        T* dgo = dgg + H;
        const T* cb = c + b * H;
        const T* cpb = cp + b * H;
        const T* dho = dh_out + b * H;
        const T* dco = dc_out + b * H;
        T* dhn = dh_next + b * H;
        T* dcn = dc_next + b * H;
        for (int64_t j = 0; j < H; ++j) {
          T i = gi[j], f = gf[j], gv = gg[j], o = go[j];
          T tc = simd_math::tanh(cb[j]);
          T dh = dho[j] + dhn[j];
          T dc = dco[j] + dcn[j] + dh * o * (T(1) - tc * tc);
          T d_o = dh * tc;
          di[j] = dc * gv * i * (T(1) - i);
          df[j] = dc * cpb[j] * f * (T(1) - f);
          dgg[j] = dc * i * (T(1) - gv * gv);
          dgo[j] = d_o * o * (T(1) - o);
          dcn[j] = dc * f;
        }
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
        const T* xz = xr + H;
        const T* xn = xz + H;
        const T* hr = ghp + b * 3 * H;
        const T* hz = hr + H;
        const T* hn = hz + H;
        T* sr = sv + b * 4 * H;
        T* sz = sr + H;
        T* sn = sz + H;
        T* shn = sn + H;
        const T* hpb = hp + b * H;
        T* hb = h + b * H;
        for (int64_t j = 0; j < H; ++j) {
          T r = sigmoid(xr[j] + hr[j]), z = sigmoid(xz[j] + hz[j]);
          T n = simd_math::tanh(xn[j] + r * hn[j]);
          sr[j] = r;
          sz[j] = z;
          sn[j] = n;
          shn[j] = hn[j];
          hb[j] = (T(1) - z) * n + z * hpb[j];
        }
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
        const T* sz = sr + H;
        const T* sn = sz + H;
        const T* shn = sn + H;
        const T* hpb = hp + b * H;
        const T* dho = dh_out + b * H;
        T* dxr = dx + b * 3 * H;
        T* dxz = dxr + H;
        T* dxn = dxz + H;
        T* dhr = dghp + b * 3 * H;
        T* dhz = dhr + H;
        T* dhn = dhz + H;
        T* dnext = dh_next + b * H;
        for (int64_t j = 0; j < H; ++j) {
          T r = sr[j], z = sz[j], n = sn[j];
          T dh = dho[j] + dnext[j];
          T dn_pre = dh * (T(1) - z) * (T(1) - n * n);
          T dz_pre = dh * (hpb[j] - n) * z * (T(1) - z);
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
      if (relu) {
        for (int64_t k = 0; k < B * H; ++k) h[k] = h[k] > T(0) ? h[k] : T(0);
      } else {
        for (int64_t k = 0; k < B * H; ++k) h[k] = simd_math::tanh(h[k]);
      }
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
      if (relu) {
        for (int64_t k = 0; k < B * H; ++k)
          dp[k] = h[k] > T(0) ? dho[k] + dh_next[k] : T(0);
      } else {
        for (int64_t k = 0; k < B * H; ++k) dp[k] = (dho[k] + dh_next[k]) * (T(1) - h[k] * h[k]);
      }
      if (H > 0) gemm(false, false, B, H, H, T(1), dp, H, ptr<T>(whh), H, T(0), dh_next, H);
    }
    hidden_weight_grad<T>(ptr<T>(dgx), ptr<T>(hs), ptr<T>(h0), ptr<T>(dwhh), Tn, B, H, H,
                          reverse);
    return 0;
  });
  return {dgx, dh0, dwhh};
}

}  // namespace arraycore::native::nn_seq
