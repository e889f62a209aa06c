// L0: the inference forward of nn.TransformerEncoderLayer as one native call, the way
// PyTorch's BetterTransformer fast path (`_transformer_encoder_layer_fwd`) runs it:
//
//   qkv = x @ W_in^T + b_in                       one gemm over all B*S tokens
//   per (batch, head): P = softmax(scale Q K^T + masks); O = P V
//                                                  Q, K, V read in place from qkv (leading
//                                                  dimension 3D), O written in place into
//                                                  the heads' columns: no permute copies
//   y = O @ W_out^T + b_out;  x1 = LN(x + y)      fused residual add + layer norm
//   f = act(x1 @ W1^T + b1) @ W2^T + b2           fused bias + activation
//   out = LN(x1 + f)                              (norm_first: the pre-norm order)
//
// Softmax of a row whose entries are all -inf (every key masked) gives NaN, as PyTorch's
// math attention does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <vector>

#include "matmul.h"
#include "nn_seq.h"
#include "nn_seq_common.h"

namespace arraycore::native::nn_seq {

using detail::check_float;
using detail::check_shape;
using detail::gemm;
using detail::ptr;

namespace {

// out[r, :] = a[r, :] @ w^T + bias, rows x n, w [n, k].
template <class T>
void linear(const T* a, int64_t rows, int64_t k, const T* w, int64_t n, const T* bias, T* out) {
  if (bias) {
    for (int64_t r = 0; r < rows; ++r) std::memcpy(out + r * n, bias, sizeof(T) * n);
  }
  gemm(false, true, rows, n, k, T(1), a, k, w, k, bias ? T(1) : T(0), out, n);
}

// Sum and maximum of a row with eight independent lanes, so GCC vectorizes them without
// reassociation flags.
template <class T>
T row_sum(const T* x, int64_t n) {
  T acc[8] = {};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) acc[l] += x[j + l];
  T s = 0;
  for (; j < n; ++j) s += x[j];
  for (int l = 0; l < 8; ++l) s += acc[l];
  return s;
}

template <class T>
T row_max(const T* x, int64_t n) {
  constexpr T kNegInf = -std::numeric_limits<T>::infinity();
  T acc[8] = {kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf, kNegInf};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int l = 0; l < 8; ++l) acc[l] = x[j + l] > acc[l] ? x[j + l] : acc[l];
  T m = kNegInf;
  for (; j < n; ++j) m = x[j] > m ? x[j] : m;
  for (int l = 0; l < 8; ++l) m = acc[l] > m ? acc[l] : m;
  return m;
}

// out = LN(a (+ b)) row-wise over d columns, two-pass mean/variance in the row's dtype.
template <class T>
void add_layer_norm(const T* a, const T* b, int64_t rows, int64_t d, const T* gamma,
                    const T* beta, T eps, T* out) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* ar = a + r * d;
    T* o = out + r * d;
    if (b) {
      const T* br = b + r * d;
      for (int64_t j = 0; j < d; ++j) o[j] = ar[j] + br[j];
    } else if (o != ar) {
      std::memcpy(o, ar, sizeof(T) * d);
    }
    T mean = row_sum(o, d) / T(d);
    for (int64_t j = 0; j < d; ++j) o[j] -= mean;
    T var = 0;
    {
      T acc[8] = {};
      int64_t j = 0;
      for (; j + 8 <= d; j += 8)
        for (int l = 0; l < 8; ++l) acc[l] += o[j + l] * o[j + l];
      for (; j < d; ++j) var += o[j] * o[j];
      for (int l = 0; l < 8; ++l) var += acc[l];
    }
    var /= T(d);
    T rstd = T(1) / std::sqrt(var + eps);
    if (beta) {
      for (int64_t j = 0; j < d; ++j) o[j] = o[j] * rstd * gamma[j] + beta[j];
    } else {
      for (int64_t j = 0; j < d; ++j) o[j] = o[j] * rstd * gamma[j];
    }
  }
}

template <class T>
void activate(T* x, int64_t n, int activation) {
  if (activation == 0) {
    for (int64_t i = 0; i < n; ++i) x[i] = x[i] > T(0) ? x[i] : T(0);
  } else {
    const T inv_sqrt2 = T(0.70710678118654752440);
    for (int64_t i = 0; i < n; ++i) x[i] = T(0.5) * x[i] * (T(1) + std::erf(x[i] * inv_sqrt2));
  }
}

// In-place softmax of each of `rows` rows of length n.
template <class T>
void softmax_rows(T* s, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    T* row = s + r * n;
    T m = row_max(row, n);
    for (int64_t j = 0; j < n; ++j) row[j] = simd_math::exp(row[j] - m);
    T inv = T(1) / row_sum(row, n);
    for (int64_t j = 0; j < n; ++j) row[j] *= inv;
  }
}

// O[b, :, h*dh:(h+1)*dh] = softmax(scale Q K^T + masks) V for every (b, h); qkv [B*S, 3D].
template <class T>
void attention(const T* qkv, int64_t B, int64_t S, int64_t D, int64_t nhead, const T* attn_mask,
               const T* key_mask, T* out) {
  const int64_t dh = D / nhead;
  const T scale = T(1) / std::sqrt(T(dh));
  std::vector<T> scores(S * S);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t h = 0; h < nhead; ++h) {
      const T* q = qkv + b * S * 3 * D + h * dh;
      const T* k = q + D;
      const T* v = q + 2 * D;
      T* sc = scores.data();
      gemm(false, true, S, S, dh, scale, q, 3 * D, k, 3 * D, T(0), sc, S);
      if (attn_mask) {
        for (int64_t i = 0; i < S * S; ++i) sc[i] += attn_mask[i];
      }
      if (key_mask) {
        const T* km = key_mask + b * S;
        for (int64_t i = 0; i < S; ++i)
          for (int64_t j = 0; j < S; ++j) sc[i * S + j] += km[j];
      }
      softmax_rows(sc, S, S);
      gemm(false, false, S, dh, S, T(1), sc, S, v, 3 * D, T(0), out + b * S * D + h * dh, D);
    }
  }
}

}  // namespace

NdArray encoder_layer_forward(const NdArray& x, const EncoderWeights& w, int64_t nhead,
                              double eps, bool norm_first, int activation,
                              const std::optional<NdArray>& attn_mask,
                              const std::optional<NdArray>& key_mask) {
  const std::string who = "TransformerEncoderLayer fast path";
  if (x.ndim() != 3) throw ValueError(who + ": input must be (B, S, D)");
  const int64_t B = x.shape[0], S = x.shape[1], D = x.shape[2];
  const DType dt = x.dtype;
  check_float(x, dt, "input", who);
  if (nhead <= 0 || D % nhead != 0)
    throw ValueError(who + ": embed_dim must be divisible by num_heads");
  const int64_t F = w.w1.ndim() == 2 ? w.w1.shape[0] : -1;
  check_shape(w.in_w, {3 * D, D}, "in_proj_weight", who);
  check_shape(w.out_w, {D, D}, "out_proj.weight", who);
  check_shape(w.w1, {F, D}, "linear1.weight", who);
  check_shape(w.w2, {D, F}, "linear2.weight", who);
  check_shape(w.n1w, {D}, "norm1.weight", who);
  check_shape(w.n2w, {D}, "norm2.weight", who);
  for (const NdArray* a : {&w.in_w, &w.out_w, &w.w1, &w.w2, &w.n1w, &w.n2w})
    check_float(*a, dt, "weight", who);
  auto opt_check = [&](const std::optional<NdArray>& a, std::initializer_list<int64_t> shape,
                       const char* name) {
    if (!a) return;
    check_shape(*a, shape, name, who);
    check_float(*a, dt, name, who);
  };
  opt_check(w.in_b, {3 * D}, "in_proj_bias");
  opt_check(w.out_b, {D}, "out_proj.bias");
  opt_check(w.b1, {F}, "linear1.bias");
  opt_check(w.b2, {D}, "linear2.bias");
  opt_check(w.n1b, {D}, "norm1.bias");
  opt_check(w.n2b, {D}, "norm2.bias");
  opt_check(attn_mask, {S, S}, "attn_mask");
  opt_check(key_mask, {B, S}, "key_padding_mask");

  NdArray out = empty({B, S, D}, dt);
  if (B * S * D == 0) return out;
  sync_blas_threads();
  const int64_t N = B * S;
  detail::dispatch_float(dt, [&]<class T>() {
    auto bp = [](const std::optional<NdArray>& a) -> const T* {
      return a ? ptr<T>(*a) : nullptr;
    };
    const T* xin = ptr<T>(x);
    // scratch from the engine's caching allocator (no zero fill, no page faults when warm)
    NdArray qkv_a = empty({N, 3 * D}, dt), attn_a = empty({N, D}, dt), y_a = empty({N, D}, dt);
    NdArray x1_a = empty({N, D}, dt), hidden_a = empty({N, F}, dt);
    NdArray normed_a = empty({norm_first ? N : 0, D}, dt);
    T* qkv = ptr<T>(qkv_a);
    T* attn = ptr<T>(attn_a);
    T* y = ptr<T>(y_a);
    T* x1 = ptr<T>(x1_a);
    T* hidden = ptr<T>(hidden_a);
    T* normed = ptr<T>(normed_a);
    const T* am = bp(attn_mask);
    const T* km = bp(key_mask);
    auto self_attention = [&](const T* src, T* dst) {
      linear<T>(src, N, D, ptr<T>(w.in_w), 3 * D, bp(w.in_b), qkv);
      attention<T>(qkv, B, S, D, nhead, am, km, attn);
      linear<T>(attn, N, D, ptr<T>(w.out_w), D, bp(w.out_b), dst);
    };
    auto feed_forward = [&](const T* src, T* dst) {
      linear<T>(src, N, D, ptr<T>(w.w1), F, bp(w.b1), hidden);
      activate<T>(hidden, N * F, activation);
      linear<T>(hidden, N, F, ptr<T>(w.w2), D, bp(w.b2), dst);
    };
    T* o = ptr<T>(out);
    if (!norm_first) {
      self_attention(xin, y);
      add_layer_norm<T>(xin, y, N, D, ptr<T>(w.n1w), bp(w.n1b), T(eps), x1);
      feed_forward(x1, y);
      add_layer_norm<T>(x1, y, N, D, ptr<T>(w.n2w), bp(w.n2b), T(eps), o);
    } else {
      add_layer_norm<T>(xin, nullptr, N, D, ptr<T>(w.n1w), bp(w.n1b), T(eps), normed);
      self_attention(normed, y);
      for (int64_t i = 0; i < N * D; ++i) x1[i] = xin[i] + y[i];
      add_layer_norm<T>(x1, nullptr, N, D, ptr<T>(w.n2w), bp(w.n2b), T(eps),
                        normed);
      feed_forward(normed, y);
      for (int64_t i = 0; i < N * D; ++i) o[i] = x1[i] + y[i];
    }
    return 0;
  });
  return out;
}

}  // namespace arraycore::native::nn_seq
