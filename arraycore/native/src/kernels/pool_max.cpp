// L0: max pooling (fixed and adaptive windows) and the scatter of its gradient.
//
// Each (image, channel) plane is independent: planes are split over the engine's pool.
// Following PyTorch, the winner of a window is the first maximum, a NaN wins over any number
// (the last NaN of the window), and the index of a window with only -inf is its first
// element inside the input; indices are flat positions within the input plane, so the
// gradient is a scatter-add inside each plane.
#include <algorithm>
#include <bit>
#include <type_traits>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../errors.h"
#include "../thread_pool.h"
#include "conv.h"

#define AC_POOL_INLINE inline __attribute__((always_inline))

namespace arraycore::native::conv {

namespace {

inline int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// Grain (planes per task) so that a task has at least ~32k elements of work.
int64_t plane_grain(int64_t per_plane) {
  return std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(1, per_plane));
}

Shape spatial_shape(int64_t n, int64_t c, const int64_t* sizes, int nd) {
  Shape s{n, c};
  for (int i = 3 - nd; i < 3; ++i) s.push_back(sizes[i]);
  return s;
}

// Whether every window lies inside the input with unit dilation and no padding (the common
// MaxPool2d(2) case): then max_pool_inside needs no clipping.
bool windows_inside(const Window& w) {
  for (int i = 0; i < 3; ++i)
    if (w.pad[i] != 0 || w.dil[i] != 1 || (w.out[i] > 0 && (w.out[i] - 1) * w.stride[i] + w.k[i] > w.in[i]))
      return false;
  return true;
}

// m, best = v, pos when v > m or v is NaN (the running maximum of a window: first maximum,
// last NaN).  Selected with masks, not `take ? v : m`: GCC turns that ternary back into two
// data-dependent branches outside vectorized loops.
template <class T>
AC_POOL_INLINE void take_if_greater(T v, int32_t pos, T& m, int32_t& best) {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  const bool take = (v > m) | (v != v);
  const U mask = U(0) - U(take);
  m = std::bit_cast<T>((std::bit_cast<U>(v) & mask) | (std::bit_cast<U>(m) & ~mask));
  const int32_t mask32 = -static_cast<int32_t>(take);
  best = (pos & mask32) | (best & ~mask32);
}

// One plane, windows inside the input, one output row at a time: for each window offset
// (kd, kh, kw) the running maxima of all the row's outputs are updated together, so the
// loop over output columns vectorizes (a strided load and a blend) instead of comparing
// window by window.  A per-window branch on data-dependent comparisons mispredicts about
// once per window (measured ~7 ns per input element for 2x2 windows, PyTorch's CPU kernel
// is as slow).  Same winner as the general loop: the first maximum, or the last NaN.
// Positions are int32 in the row buffers (planes have < 2^31 elements, checked by the
// caller) so values and positions have the same lane count for float32.
template <class T, int64_t kStride>
void max_pool_inside(const T* xp, T* yp, int64_t* ip, const Window& w, T* m, int32_t* best) {
  const int64_t sw = kStride ? kStride : w.stride[2], OW = w.out[2];
  for (int64_t od = 0; od < w.out[0]; ++od)
    for (int64_t oh = 0; oh < w.out[1]; ++oh) {
      const int64_t base = (od * w.stride[0] * w.in[1] + oh * w.stride[1]) * w.in[2];
      for (int64_t ow = 0; ow < OW; ++ow) {
        m[ow] = xp[base + ow * sw];
        best[ow] = static_cast<int32_t>(base + ow * sw);
      }
      for (int64_t kd = 0; kd < w.k[0]; ++kd)
        for (int64_t kh = 0; kh < w.k[1]; ++kh)
          for (int64_t kw = 0; kw < w.k[2]; ++kw) {
            const int64_t off = base + (kd * w.in[1] + kh) * w.in[2] + kw;
            const T* src = xp + off;
            const int32_t off32 = static_cast<int32_t>(off);
            for (int64_t ow = 0; ow < OW; ++ow)
              take_if_greater(src[ow * sw], off32 + static_cast<int32_t>(ow * sw), m[ow],
                              best[ow]);
          }
      const int64_t o_row = (od * w.out[1] + oh) * OW;
      for (int64_t ow = 0; ow < OW; ++ow) {
        yp[o_row + ow] = m[ow];
        ip[o_row + ow] = best[ow];
      }
    }
}

template <class T>
void max_pool_typed(const T* x, T* y, int64_t* idx, int64_t planes, const Window& w) {
  const int64_t I = w.in_numel(), O = w.out_numel();
  if (windows_inside(w) && I < (int64_t(1) << 31)) {
    parallel_for(planes, plane_grain(O * w.k_numel()), [&](int64_t b, int64_t e) {
      std::vector<T> m(w.out[2]);
      std::vector<int32_t> best(w.out[2]);
      for (int64_t p = b; p < e; ++p) {
        if (w.stride[2] == 2)  // MaxPool(2): the constant stride lets GCC deinterleave
          max_pool_inside<T, 2>(x + p * I, y + p * O, idx + p * O, w, m.data(), best.data());
        else
          max_pool_inside<T, 0>(x + p * I, y + p * O, idx + p * O, w, m.data(), best.data());
      }
    });
    return;
  }
  parallel_for(planes, plane_grain(O * w.k_numel()), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* xp = x + p * I;
      T* yp = y + p * O;
      int64_t* ip = idx + p * O;
      for (int64_t od = 0; od < w.out[0]; ++od) {
        int64_t d0 = od * w.stride[0] - w.pad[0];
        const int64_t d1 = std::min(d0 + (w.k[0] - 1) * w.dil[0] + 1, w.in[0]);
        if (d0 < 0) d0 += ceil_div(-d0, w.dil[0]) * w.dil[0];
        for (int64_t oh = 0; oh < w.out[1]; ++oh) {
          int64_t h0 = oh * w.stride[1] - w.pad[1];
          const int64_t h1 = std::min(h0 + (w.k[1] - 1) * w.dil[1] + 1, w.in[1]);
          if (h0 < 0) h0 += ceil_div(-h0, w.dil[1]) * w.dil[1];
          for (int64_t ow = 0; ow < w.out[2]; ++ow) {
            int64_t w0 = ow * w.stride[2] - w.pad[2];
            const int64_t w1 = std::min(w0 + (w.k[2] - 1) * w.dil[2] + 1, w.in[2]);
            if (w0 < 0) w0 += ceil_div(-w0, w.dil[2]) * w.dil[2];
            int64_t best = (d0 * w.in[1] + h0) * w.in[2] + w0;
            T m = -std::numeric_limits<T>::infinity();
            for (int64_t id = d0; id < d1; id += w.dil[0])
              for (int64_t ih = h0; ih < h1; ih += w.dil[1]) {
                const int64_t row = (id * w.in[1] + ih) * w.in[2];
                for (int64_t iw = w0; iw < w1; iw += w.dil[2]) {
                  const T v = xp[row + iw];
                  if (v > m || std::isnan(v)) {
                    m = v;
                    best = row + iw;
                  }
                }
              }
            const int64_t o = (od * w.out[1] + oh) * w.out[2] + ow;
            yp[o] = m;
            ip[o] = best;
          }
        }
      }
    }
  });
}

// Adaptive window bounds along one dimension: [floor(o*in/out), ceil((o+1)*in/out)).
inline int64_t adaptive_start(int64_t o, int64_t in, int64_t out) { return (o * in) / out; }
inline int64_t adaptive_end(int64_t o, int64_t in, int64_t out) {
  return ((o + 1) * in + out - 1) / out;
}

template <class T>
void adaptive_max_typed(const T* x, T* y, int64_t* idx, int64_t planes, const int64_t* in,
                        const int64_t* out) {
  const int64_t I = in[0] * in[1] * in[2], O = out[0] * out[1] * out[2];
  parallel_for(planes, plane_grain(I), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* xp = x + p * I;
      T* yp = y + p * O;
      int64_t* ip = idx + p * O;
      for (int64_t od = 0; od < out[0]; ++od) {
        const int64_t d0 = adaptive_start(od, in[0], out[0]), d1 = adaptive_end(od, in[0], out[0]);
        for (int64_t oh = 0; oh < out[1]; ++oh) {
          const int64_t h0 = adaptive_start(oh, in[1], out[1]), h1 = adaptive_end(oh, in[1], out[1]);
          for (int64_t ow = 0; ow < out[2]; ++ow) {
            const int64_t w0 = adaptive_start(ow, in[2], out[2]),
                          w1 = adaptive_end(ow, in[2], out[2]);
            int64_t best = (d0 * in[1] + h0) * in[2] + w0;
            T m = -std::numeric_limits<T>::infinity();
            for (int64_t id = d0; id < d1; ++id)
              for (int64_t ih = h0; ih < h1; ++ih) {
                const int64_t row = (id * in[1] + ih) * in[2];
                for (int64_t iw = w0; iw < w1; ++iw) {
                  const T v = xp[row + iw];
                  if (v > m || std::isnan(v)) {
                    m = v;
                    best = row + iw;
                  }
                }
              }
            const int64_t o = (od * out[1] + oh) * out[2] + ow;
            yp[o] = m;
            ip[o] = best;
          }
        }
      }
    }
  });
}

template <class T>
void scatter_typed(const T* g, const int64_t* idx, T* gx, int64_t planes, int64_t O, int64_t I) {
  std::memset(gx, 0, planes * I * sizeof(T));
  parallel_for(planes, plane_grain(O), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* gp = g + p * O;
      const int64_t* ip = idx + p * O;
      T* xp = gx + p * I;
      for (int64_t o = 0; o < O; ++o) xp[ip[o]] += gp[o];
    }
  });
}

void check_input(const NdArray& x, int nd, const char* who) {
  check_float(x, who);
  check_ndim(x, 2 + nd, who, "input");
}

}  // namespace

std::pair<NdArray, NdArray> max_pool(const NdArray& x_in, const Window& w) {
  check_input(x_in, w.nd, "max_pool");
  for (int i = 0; i < w.nd; ++i)
    if (x_in.shape[2 + i] != w.in[3 - w.nd + i])
      throw ValueError("max_pool: input spatial size does not match the window");
  const NdArray x = contiguous(x_in);
  const int64_t N = x.shape[0], C = x.shape[1];
  NdArray y = empty(spatial_shape(N, C, w.out, w.nd), x.dtype);
  NdArray idx = empty(spatial_shape(N, C, w.out, w.nd), DType::Int64);
  if (y.numel() == 0) return {y, idx};
  if (w.in_numel() == 0) throw ValueError("max_pool: empty input planes");
  int64_t* ip = reinterpret_cast<int64_t*>(idx.data());
  if (x.dtype == DType::Float32)
    max_pool_typed(reinterpret_cast<const float*>(x.data()), reinterpret_cast<float*>(y.data()),
                   ip, N * C, w);
  else
    max_pool_typed(reinterpret_cast<const double*>(x.data()),
                   reinterpret_cast<double*>(y.data()), ip, N * C, w);
  return {y, idx};
}

std::pair<NdArray, NdArray> adaptive_max_pool(const NdArray& x_in, const std::vector<int64_t>& out) {
  const int nd = static_cast<int>(out.size());
  if (nd < 1 || nd > 3) throw ValueError("adaptive_max_pool: 1 to 3 output sizes expected");
  check_input(x_in, nd, "adaptive_max_pool");
  int64_t in3[3] = {1, 1, 1}, out3[3] = {1, 1, 1};
  for (int i = 0; i < nd; ++i) {
    in3[3 - nd + i] = x_in.shape[2 + i];
    out3[3 - nd + i] = out[i];
    if (out[i] < 0) throw ValueError("adaptive_max_pool: output sizes must be non-negative");
    if (x_in.shape[2 + i] == 0 && out[i] > 0)
      throw ValueError("adaptive_max_pool: empty input plane");
  }
  const NdArray x = contiguous(x_in);
  const int64_t N = x.shape[0], C = x.shape[1];
  NdArray y = empty(spatial_shape(N, C, out3, nd), x.dtype);
  NdArray idx = empty(spatial_shape(N, C, out3, nd), DType::Int64);
  if (y.numel() == 0) return {y, idx};
  int64_t* ip = reinterpret_cast<int64_t*>(idx.data());
  if (x.dtype == DType::Float32)
    adaptive_max_typed(reinterpret_cast<const float*>(x.data()),
                       reinterpret_cast<float*>(y.data()), ip, N * C, in3, out3);
  else
    adaptive_max_typed(reinterpret_cast<const double*>(x.data()),
                       reinterpret_cast<double*>(y.data()), ip, N * C, in3, out3);
  return {y, idx};
}

NdArray max_pool_backward(const NdArray& g_in, const NdArray& idx_in,
                          const std::vector<int64_t>& in) {
  const int nd = static_cast<int>(in.size());
  if (nd < 1 || nd > 3) throw ValueError("max_pool_backward: 1 to 3 input sizes expected");
  check_input(g_in, nd, "max_pool_backward");
  if (idx_in.dtype != DType::Int64 || idx_in.shape != g_in.shape)
    throw ValueError("max_pool_backward: indices must be int64 of the gradient's shape");
  const NdArray g = contiguous(g_in), idx = contiguous(idx_in);
  Shape shape{g.shape[0], g.shape[1]};
  int64_t I = 1;
  for (int64_t v : in) {
    shape.push_back(v);
    I *= v;
  }
  int64_t O = 1;
  for (int i = 0; i < nd; ++i) O *= g.shape[2 + i];
  NdArray gx = empty(shape, g.dtype);
  if (gx.numel() == 0) return gx;
  const int64_t planes = g.shape[0] * g.shape[1];
  const int64_t* ip = reinterpret_cast<const int64_t*>(idx.data());
  for (int64_t i = 0, n = planes * O; i < n; ++i)
    if (ip[i] < 0 || ip[i] >= I)
      throw ValueError("max_pool_backward: index " + std::to_string(ip[i]) +
                       " out of range for input planes of " + std::to_string(I) + " elements");
  if (g.dtype == DType::Float32)
    scatter_typed(reinterpret_cast<const float*>(g.data()), ip,
                  reinterpret_cast<float*>(gx.data()), planes, O, I);
  else
    scatter_typed(reinterpret_cast<const double*>(g.data()), ip,
                  reinterpret_cast<double*>(gx.data()), planes, O, I);
  return gx;
}

}  // namespace arraycore::native::conv
