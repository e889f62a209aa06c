// L0: im2col / col2im (the data movement of the gemm convolutions) and unfold / fold.
//
// Rows of the column matrix are (channel, kernel offset) pairs, columns are output
// positions, as in Chellapilla et al., "High Performance Convolutional Neural Networks for
// Document Processing" (2006).  The innermost loop runs along the last output dimension:
// the range of output positions whose input lies inside the image is computed once per row
// segment, so the loop body is a plain (strided) copy with no bounds test, and the padded
// ends are filled with zeros.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "../errors.h"
#include "../thread_pool.h"
#include "conv.h"

namespace arraycore::native::conv {

namespace {

// ceil(a / b) for b > 0 and any sign of a.
inline int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// Output positions o in [0, n_out) with 0 <= o * stride - pad + off < n_in, as [lo, hi).
inline void valid_range(int64_t n_out, int64_t n_in, int64_t stride, int64_t pad, int64_t off,
                        int64_t& lo, int64_t& hi) {
  lo = std::clamp<int64_t>(ceil_div(pad - off, stride), 0, n_out);
  hi = std::clamp<int64_t>(ceil_div(n_in + pad - off, stride), lo, n_out);
}

}  // namespace

void check_float(const NdArray& a, const char* who) {
  if (a.dtype != DType::Float32 && a.dtype != DType::Float64)
    throw TypeError(std::string(who) + ": expected float32 or float64, got " +
                    std::string(dtype_name(a.dtype)));
}

void check_ndim(const NdArray& a, int ndim, const char* who, const char* what) {
  if (a.ndim() != ndim)
    throw ValueError(std::string(who) + ": expected " + what + " with " + std::to_string(ndim) +
                     " dimensions, got " + std::to_string(a.ndim()));
}

Window make_window(const std::vector<int64_t>& in, const std::vector<int64_t>& out,
                   const std::vector<int64_t>& k, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& pad, const std::vector<int64_t>& dil,
                   const char* who) {
  const size_t nd = in.size();
  if (nd < 1 || nd > 3 || out.size() != nd || k.size() != nd || stride.size() != nd ||
      pad.size() != nd || dil.size() != nd)
    throw ValueError(std::string(who) + ": window parameters must all have 1 to 3 entries");
  Window w;
  w.nd = static_cast<int>(nd);
  const size_t off = 3 - nd;
  for (size_t i = 0; i < nd; ++i) {
    if (in[i] < 0 || out[i] < 0 || k[i] < 1 || stride[i] < 1 || dil[i] < 1 || pad[i] < 0)
      throw ValueError(std::string(who) + ": invalid window (sizes, strides and dilations "
                       "must be positive, padding non-negative)");
    w.in[off + i] = in[i];
    w.out[off + i] = out[i];
    w.k[off + i] = k[i];
    w.stride[off + i] = stride[i];
    w.pad[off + i] = pad[i];
    w.dil[off + i] = dil[i];
  }
  return w;
}

template <class T>
void im2col(const T* x, int64_t channels, const Window& w, T* col, int64_t ld) {
  const int64_t I = w.in_numel(), Ow = w.out[2], Oh = w.out[1];
  const int64_t sw = w.stride[2];
  const bool block_copy = sw == 1 && w.stride[1] == 1 && w.in[2] == Ow;
  for (int64_t c = 0; c < channels; ++c) {
    const T* xc = x + c * I;
    for (int64_t kd = 0; kd < w.k[0]; ++kd)
      for (int64_t kh = 0; kh < w.k[1]; ++kh)
        for (int64_t kw = 0; kw < w.k[2]; ++kw) {
          T* row = col + (((c * w.k[0] + kd) * w.k[1] + kh) * w.k[2] + kw) * ld;
          int64_t wlo, whi;
          valid_range(Ow, w.in[2], sw, w.pad[2], kw * w.dil[2], wlo, whi);
          const int64_t iw0 = wlo * sw - w.pad[2] + kw * w.dil[2];
          for (int64_t od = 0; od < w.out[0]; ++od) {
            const int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
            if (id < 0 || id >= w.in[0]) {
              std::fill(row, row + Oh * Ow, T(0));
              row += Oh * Ow;
              continue;
            }
            if (block_copy) {
              // Unit strides and rows as long as the input's: the rows of output positions
              // inside the image read consecutive input rows at the same stride, so they are
              // one contiguous copy; the few entries that stand for padding at the row ends
              // are zeroed after it (small images: one call instead of one per row).
              int64_t hlo, hhi;
              valid_range(Oh, w.in[1], 1, w.pad[1], kh * w.dil[1], hlo, hhi);
              std::fill(row, row + hlo * Ow, T(0));
              if (hhi > hlo && whi > wlo) {
                const int64_t ih0 = hlo - w.pad[1] + kh * w.dil[1];
                std::memcpy(row + hlo * Ow + wlo, xc + (id * w.in[1] + ih0) * w.in[2] + iw0,
                            ((hhi - hlo - 1) * Ow + (whi - wlo)) * sizeof(T));
                for (int64_t oh = hlo; oh < hhi; ++oh) {
                  T* r = row + oh * Ow;
                  for (int64_t o = 0; o < wlo; ++o) r[o] = T(0);
                  for (int64_t o = whi; o < Ow; ++o) r[o] = T(0);
                }
              } else {
                std::fill(row + hlo * Ow, row + hhi * Ow, T(0));
              }
              std::fill(row + hhi * Ow, row + Oh * Ow, T(0));
              row += Oh * Ow;
              continue;
            }
            for (int64_t oh = 0; oh < Oh; ++oh, row += Ow) {
              const int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
              if (ih < 0 || ih >= w.in[1]) {
                std::fill(row, row + Ow, T(0));
                continue;
              }
              const T* src = xc + (id * w.in[1] + ih) * w.in[2] + iw0;
              std::fill(row, row + wlo, T(0));
              if (sw == 1) {
                std::memcpy(row + wlo, src, (whi - wlo) * sizeof(T));
              } else {
                for (int64_t o = wlo; o < whi; ++o) row[o] = src[(o - wlo) * sw];
              }
              std::fill(row + whi, row + Ow, T(0));
            }
          }
        }
  }
}

template <class T>
void col2im(const T* col, int64_t ld, int64_t channels, const Window& w, T* x) {
  const int64_t I = w.in_numel(), Ow = w.out[2], Oh = w.out[1];
  const int64_t sw = w.stride[2];
  for (int64_t c = 0; c < channels; ++c) {
    T* xc = x + c * I;
    for (int64_t kd = 0; kd < w.k[0]; ++kd)
      for (int64_t kh = 0; kh < w.k[1]; ++kh)
        for (int64_t kw = 0; kw < w.k[2]; ++kw) {
          const T* row = col + (((c * w.k[0] + kd) * w.k[1] + kh) * w.k[2] + kw) * ld;
          int64_t wlo, whi;
          valid_range(Ow, w.in[2], sw, w.pad[2], kw * w.dil[2], wlo, whi);
          const int64_t iw0 = wlo * sw - w.pad[2] + kw * w.dil[2];
          for (int64_t od = 0; od < w.out[0]; ++od) {
            const int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
            if (id < 0 || id >= w.in[0]) {
              row += Oh * Ow;
              continue;
            }
            for (int64_t oh = 0; oh < Oh; ++oh, row += Ow) {
              const int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
              if (ih < 0 || ih >= w.in[1]) continue;
              T* dst = xc + (id * w.in[1] + ih) * w.in[2] + iw0;
              if (sw == 1) {
                const T* s = row + wlo;
                const int64_t n = whi - wlo;
                for (int64_t o = 0; o < n; ++o) dst[o] += s[o];
              } else {
                for (int64_t o = wlo; o < whi; ++o) dst[(o - wlo) * sw] += row[o];
              }
            }
          }
        }
  }
}

template <class T>
void col2im_scratch(T* col, int64_t ld, int64_t channels, const Window& w, T* x) {
  const int64_t Ow = w.out[2], Oh = w.out[1];
  if (!(w.stride[2] == 1 && w.stride[1] == 1 && w.in[2] == Ow)) {
    col2im(col, ld, channels, w, x);
    return;
  }
  // The transpose of im2col's block copy: zero the entries that stand for padding at the row
  // ends, then add the in-image rows of a kernel offset as one contiguous block.
  const int64_t I = w.in_numel();
  for (int64_t c = 0; c < channels; ++c) {
    T* xc = x + c * I;
    for (int64_t kd = 0; kd < w.k[0]; ++kd)
      for (int64_t kh = 0; kh < w.k[1]; ++kh)
        for (int64_t kw = 0; kw < w.k[2]; ++kw) {
          T* row = col + (((c * w.k[0] + kd) * w.k[1] + kh) * w.k[2] + kw) * ld;
          int64_t wlo, whi, hlo, hhi;
          valid_range(Ow, w.in[2], 1, w.pad[2], kw * w.dil[2], wlo, whi);
          valid_range(Oh, w.in[1], 1, w.pad[1], kh * w.dil[1], hlo, hhi);
          const int64_t iw0 = wlo - w.pad[2] + kw * w.dil[2];
          for (int64_t od = 0; od < w.out[0]; ++od, row += Oh * Ow) {
            const int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
            if (id < 0 || id >= w.in[0] || hhi <= hlo || whi <= wlo) continue;
            for (int64_t oh = hlo; oh < hhi; ++oh) {
              T* r = row + oh * Ow;
              for (int64_t o = 0; o < wlo; ++o) r[o] = T(0);
              for (int64_t o = whi; o < Ow; ++o) r[o] = T(0);
            }
            const int64_t ih0 = hlo - w.pad[1] + kh * w.dil[1];
            T* dst = xc + (id * w.in[1] + ih0) * w.in[2] + iw0;
            const T* src = row + hlo * Ow + wlo;
            const int64_t n = (hhi - hlo - 1) * Ow + (whi - wlo);
            for (int64_t j = 0; j < n; ++j) dst[j] += src[j];
          }
        }
  }
}

bool use_im2col_map(const Window& w) {
  return w.out[2] < 16 && w.k_numel() * w.out_numel() <= (int64_t(1) << 15) &&
         w.in_numel() < (int64_t(1) << 31);
}

std::vector<int32_t> im2col_map(const Window& w) {
  const int64_t O = w.out_numel();
  std::vector<int32_t> map(w.k_numel() * O);
  int32_t* m = map.data();
  for (int64_t kd = 0; kd < w.k[0]; ++kd)
    for (int64_t kh = 0; kh < w.k[1]; ++kh)
      for (int64_t kw = 0; kw < w.k[2]; ++kw)
        for (int64_t od = 0; od < w.out[0]; ++od)
          for (int64_t oh = 0; oh < w.out[1]; ++oh)
            for (int64_t ow = 0; ow < w.out[2]; ++ow) {
              const int64_t id = od * w.stride[0] - w.pad[0] + kd * w.dil[0];
              const int64_t ih = oh * w.stride[1] - w.pad[1] + kh * w.dil[1];
              const int64_t iw = ow * w.stride[2] - w.pad[2] + kw * w.dil[2];
              const bool inside = id >= 0 && id < w.in[0] && ih >= 0 && ih < w.in[1] &&
                                  iw >= 0 && iw < w.in[2];
              *m++ = inside ? static_cast<int32_t>((id * w.in[1] + ih) * w.in[2] + iw) : -1;
            }
  return map;
}

template <class T>
void im2col_mapped(const T* x, int64_t channels, const int32_t* map, const Window& w, T* col,
                   int64_t ld) {
  const int64_t I = w.in_numel(), O = w.out_numel(), K = w.k_numel();
  for (int64_t c = 0; c < channels; ++c) {
    const T* xc = x + c * I;
    for (int64_t k = 0; k < K; ++k) {
      T* row = col + (c * K + k) * ld;
      const int32_t* src = map + k * O;
      for (int64_t o = 0; o < O; ++o) row[o] = src[o] >= 0 ? xc[src[o]] : T(0);
    }
  }
}

template <class T>
void col2im_mapped(const T* col, int64_t ld, int64_t channels, const int32_t* map,
                   const Window& w, T* x) {
  const int64_t I = w.in_numel(), O = w.out_numel(), K = w.k_numel();
  for (int64_t c = 0; c < channels; ++c) {
    T* xc = x + c * I;
    for (int64_t k = 0; k < K; ++k) {
      const T* row = col + (c * K + k) * ld;
      const int32_t* dst = map + k * O;
      // Within one kernel offset distinct outputs read distinct inputs, so the adds of a row
      // never collide.
      for (int64_t o = 0; o < O; ++o)
        if (dst[o] >= 0) xc[dst[o]] += row[o];
    }
  }
}

template void im2col<float>(const float*, int64_t, const Window&, float*, int64_t);
template void im2col<double>(const double*, int64_t, const Window&, double*, int64_t);
template void col2im<float>(const float*, int64_t, int64_t, const Window&, float*);
template void col2im<double>(const double*, int64_t, int64_t, const Window&, double*);
template void col2im_scratch<float>(float*, int64_t, int64_t, const Window&, float*);
template void col2im_scratch<double>(double*, int64_t, int64_t, const Window&, double*);
template void im2col_mapped<float>(const float*, int64_t, const int32_t*, const Window&, float*,
                                   int64_t);
template void im2col_mapped<double>(const double*, int64_t, const int32_t*, const Window&,
                                    double*, int64_t);
template void col2im_mapped<float>(const float*, int64_t, int64_t, const int32_t*,
                                   const Window&, float*);
template void col2im_mapped<double>(const double*, int64_t, int64_t, const int32_t*,
                                    const Window&, double*);

namespace {

template <class T>
void unfold_typed(const NdArray& x, const NdArray& out, int64_t N, int64_t C, const Window& w) {
  const T* xp = reinterpret_cast<const T*>(x.data());
  T* op = reinterpret_cast<T*>(out.data());
  const int64_t I = w.in_numel(), O = w.out_numel(), K = w.k_numel();
  // One (image, channel) plane per task: each writes its own K rows.
  parallel_for(N * C, std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(1, K * O)),
               [&](int64_t b, int64_t e) {
                 for (int64_t p = b; p < e; ++p)
                   im2col(xp + p * I, 1, w, op + p * K * O, O);
               });
}

template <class T>
void fold_typed(const NdArray& cols, const NdArray& out, int64_t N, int64_t C, const Window& w) {
  const T* cp = reinterpret_cast<const T*>(cols.data());
  T* op = reinterpret_cast<T*>(out.data());
  const int64_t I = w.in_numel(), O = w.out_numel(), K = w.k_numel();
  std::memset(op, 0, N * C * I * sizeof(T));
  parallel_for(N * C, std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(1, K * O)),
               [&](int64_t b, int64_t e) {
                 for (int64_t p = b; p < e; ++p) col2im(cp + p * K * O, O, 1, w, op + p * I);
               });
}

}  // namespace

NdArray unfold(const NdArray& x_in, const Window& w) {
  check_float(x_in, "unfold");
  check_ndim(x_in, 2 + w.nd, "unfold", "input");
  const int off = 3 - w.nd;
  for (int i = 0; i < w.nd; ++i)
    if (x_in.shape[2 + i] != w.in[off + i])
      throw ValueError("unfold: input spatial size does not match the window");
  const NdArray x = contiguous(x_in);
  const int64_t N = x.shape[0], C = x.shape[1];
  NdArray out = empty(Shape{N, C * w.k_numel(), w.out_numel()}, x.dtype);
  if (x.dtype == DType::Float32) unfold_typed<float>(x, out, N, C, w);
  else unfold_typed<double>(x, out, N, C, w);
  return out;
}

NdArray fold(const NdArray& cols_in, int64_t channels, const Window& w) {
  check_float(cols_in, "fold");
  check_ndim(cols_in, 3, "fold", "input");
  if (cols_in.shape[1] != channels * w.k_numel() || cols_in.shape[2] != w.out_numel())
    throw ValueError("fold: input shape does not match the window");
  const NdArray cols = contiguous(cols_in);
  const int64_t N = cols.shape[0];
  Shape shape{N, channels};
  for (int i = 3 - w.nd; i < 3; ++i) shape.push_back(w.in[i]);
  NdArray out = empty(shape, cols.dtype);
  if (cols.dtype == DType::Float32) fold_typed<float>(cols, out, N, channels, w);
  else fold_typed<double>(cols, out, N, channels, w);
  return out;
}

}  // namespace arraycore::native::conv
