// L0: average pooling (fixed and adaptive windows) and its adjoint.
//
// The divisor of a fixed window is PyTorch's (aten/src/ATen/native/cpu/AvgPoolKernel.cpp's
// rule, re-derived): the window clipped to the padded input when count_include_pad, the
// window clipped to the input otherwise, or divisor_override.  A window lying wholly in the
// padding averages to 0.  The adjoint spreads g / divisor back over the same windows, so the
// two kernels are exact transposes of each other.
#include <algorithm>
#include <cstring>
#include <string>

#include "../errors.h"
#include "../thread_pool.h"
#include "conv.h"

namespace arraycore::native::conv {

namespace {

int64_t plane_grain(int64_t per_plane) {
  return std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(1, per_plane));
}

Shape spatial_shape(int64_t n, int64_t c, const int64_t* sizes, int nd) {
  Shape s{n, c};
  for (int i = 3 - nd; i < 3; ++i) s.push_back(sizes[i]);
  return s;
}

// The clipped window [lo, hi) of output position o along dimension i, and its extent in the
// padded input (for count_include_pad).
struct Span {
  int64_t lo, hi, padded;
};

inline Span window_span(const Window& w, int i, int64_t o) {
  int64_t lo = o * w.stride[i] - w.pad[i];
  int64_t hi = std::min(lo + w.k[i], w.in[i] + w.pad[i]);
  const int64_t padded = hi - lo;
  lo = std::max<int64_t>(lo, 0);
  hi = std::min(hi, w.in[i]);
  return {lo, hi, padded};
}

// Calls f(output index, d span, h span, w span, divisor) for every output position.
template <class F>
void for_each_window(const Window& w, bool count_include_pad, int64_t divisor, F&& f) {
  for (int64_t od = 0; od < w.out[0]; ++od) {
    const Span sd = window_span(w, 0, od);
    for (int64_t oh = 0; oh < w.out[1]; ++oh) {
      const Span sh = window_span(w, 1, oh);
      for (int64_t ow = 0; ow < w.out[2]; ++ow) {
        const Span sw = window_span(w, 2, ow);
        const int64_t o = (od * w.out[1] + oh) * w.out[2] + ow;
        if (sd.lo >= sd.hi || sh.lo >= sh.hi || sw.lo >= sw.hi) {
          f(o, sd, sh, sw, int64_t(0));
          continue;
        }
        int64_t div = divisor;
        if (div == 0)
          div = count_include_pad ? sd.padded * sh.padded * sw.padded
                                  : (sd.hi - sd.lo) * (sh.hi - sh.lo) * (sw.hi - sw.lo);
        f(o, sd, sh, sw, div);
      }
    }
  }
}

template <class T>
void avg_typed(const T* x, T* y, int64_t planes, const Window& w, bool cip, int64_t divisor) {
  const int64_t I = w.in_numel(), O = w.out_numel();
  parallel_for(planes, plane_grain(O * w.k_numel()), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* xp = x + p * I;
      T* yp = y + p * O;
      for_each_window(w, cip, divisor, [&](int64_t o, Span sd, Span sh, Span sw, int64_t div) {
        if (div == 0) {
          yp[o] = T(0);
          return;
        }
        T s = T(0);
        for (int64_t id = sd.lo; id < sd.hi; ++id)
          for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
            const T* row = xp + (id * w.in[1] + ih) * w.in[2];
            for (int64_t iw = sw.lo; iw < sw.hi; ++iw) s += row[iw];
          }
        yp[o] = s / T(div);
      });
    }
  });
}

template <class T>
void avg_backward_typed(const T* g, T* gx, int64_t planes, const Window& w, bool cip,
                        int64_t divisor) {
  const int64_t I = w.in_numel(), O = w.out_numel();
  std::memset(gx, 0, planes * I * sizeof(T));
  parallel_for(planes, plane_grain(O * w.k_numel()), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* gp = g + p * O;
      T* xp = gx + p * I;
      for_each_window(w, cip, divisor, [&](int64_t o, Span sd, Span sh, Span sw, int64_t div) {
        if (div == 0) return;
        const T v = gp[o] / T(div);
        for (int64_t id = sd.lo; id < sd.hi; ++id)
          for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
            T* row = xp + (id * w.in[1] + ih) * w.in[2];
            for (int64_t iw = sw.lo; iw < sw.hi; ++iw) row[iw] += v;
          }
      });
    }
  });
}

// The adaptive windows as a Window-free loop: bounds floor(o*in/out), ceil((o+1)*in/out).
template <class F>
void for_each_adaptive(const int64_t* in, const int64_t* out, F&& f) {
  for (int64_t od = 0; od < out[0]; ++od) {
    const Span sd{(od * in[0]) / out[0], ((od + 1) * in[0] + out[0] - 1) / out[0], 0};
    for (int64_t oh = 0; oh < out[1]; ++oh) {
      const Span sh{(oh * in[1]) / out[1], ((oh + 1) * in[1] + out[1] - 1) / out[1], 0};
      for (int64_t ow = 0; ow < out[2]; ++ow) {
        const Span sw{(ow * in[2]) / out[2], ((ow + 1) * in[2] + out[2] - 1) / out[2], 0};
        const int64_t div = (sd.hi - sd.lo) * (sh.hi - sh.lo) * (sw.hi - sw.lo);
        f((od * out[1] + oh) * out[2] + ow, sd, sh, sw, div);
      }
    }
  }
}

template <class T>
void adaptive_avg_typed(const T* x, T* y, int64_t planes, const int64_t* in, const int64_t* out) {
  const int64_t I = in[0] * in[1] * in[2], O = out[0] * out[1] * out[2];
  parallel_for(planes, plane_grain(std::max(I, O)), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* xp = x + p * I;
      T* yp = y + p * O;
      for_each_adaptive(in, out, [&](int64_t o, Span sd, Span sh, Span sw, int64_t div) {
        T s = T(0);
        for (int64_t id = sd.lo; id < sd.hi; ++id)
          for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
            const T* row = xp + (id * in[1] + ih) * in[2];
            for (int64_t iw = sw.lo; iw < sw.hi; ++iw) s += row[iw];
          }
        yp[o] = s / T(div);
      });
    }
  });
}

template <class T>
void adaptive_avg_backward_typed(const T* g, T* gx, int64_t planes, const int64_t* in,
                                 const int64_t* out) {
  const int64_t I = in[0] * in[1] * in[2], O = out[0] * out[1] * out[2];
  std::memset(gx, 0, planes * I * sizeof(T));
  parallel_for(planes, plane_grain(std::max(I, O)), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const T* gp = g + p * O;
      T* xp = gx + p * I;
      for_each_adaptive(in, out, [&](int64_t o, Span sd, Span sh, Span sw, int64_t div) {
        const T v = gp[o] / T(div);
        for (int64_t id = sd.lo; id < sd.hi; ++id)
          for (int64_t ih = sh.lo; ih < sh.hi; ++ih) {
            T* row = xp + (id * in[1] + ih) * in[2];
            for (int64_t iw = sw.lo; iw < sw.hi; ++iw) row[iw] += v;
          }
      });
    }
  });
}

void check_spatial(const NdArray& a, const int64_t* sizes, int nd, const char* who,
                   const char* what) {
  check_float(a, who);
  check_ndim(a, 2 + nd, who, what);
  for (int i = 0; i < nd; ++i)
    if (a.shape[2 + i] != sizes[3 - nd + i])
      throw ValueError(std::string(who) + ": " + what + " spatial size does not match the window");
}

// (in, out) sizes padded to three dimensions; throws for a non-empty output of an empty input.
void adaptive_sizes(const std::vector<int64_t>& in, const std::vector<int64_t>& out,
                    int64_t* in3, int64_t* out3, const char* who) {
  const int nd = static_cast<int>(out.size());
  if (nd < 1 || nd > 3 || in.size() != out.size())
    throw ValueError(std::string(who) + ": 1 to 3 spatial sizes expected");
  for (int i = 0; i < nd; ++i) {
    if (out[i] < 0 || in[i] < 0) throw ValueError(std::string(who) + ": negative size");
    if (in[i] == 0 && out[i] > 0) throw ValueError(std::string(who) + ": empty input plane");
    in3[3 - nd + i] = in[i];
    out3[3 - nd + i] = out[i];
  }
}

}  // namespace

NdArray avg_pool(const NdArray& x_in, const Window& w, bool count_include_pad, int64_t divisor) {
  check_spatial(x_in, w.in, w.nd, "avg_pool", "input");
  const NdArray x = contiguous(x_in);
  NdArray y = empty(spatial_shape(x.shape[0], x.shape[1], w.out, w.nd), x.dtype);
  if (y.numel() == 0) return y;
  const int64_t planes = x.shape[0] * x.shape[1];
  if (x.dtype == DType::Float32)
    avg_typed(reinterpret_cast<const float*>(x.data()), reinterpret_cast<float*>(y.data()),
              planes, w, count_include_pad, divisor);
  else
    avg_typed(reinterpret_cast<const double*>(x.data()), reinterpret_cast<double*>(y.data()),
              planes, w, count_include_pad, divisor);
  return y;
}

NdArray avg_pool_backward(const NdArray& g_in, const Window& w, bool count_include_pad,
                          int64_t divisor) {
  check_spatial(g_in, w.out, w.nd, "avg_pool_backward", "gradient");
  const NdArray g = contiguous(g_in);
  NdArray gx = empty(spatial_shape(g.shape[0], g.shape[1], w.in, w.nd), g.dtype);
  if (gx.numel() == 0) return gx;
  const int64_t planes = g.shape[0] * g.shape[1];
  if (g.dtype == DType::Float32)
    avg_backward_typed(reinterpret_cast<const float*>(g.data()),
                       reinterpret_cast<float*>(gx.data()), planes, w, count_include_pad, divisor);
  else
    avg_backward_typed(reinterpret_cast<const double*>(g.data()),
                       reinterpret_cast<double*>(gx.data()), planes, w, count_include_pad,
                       divisor);
  return gx;
}

NdArray adaptive_avg_pool(const NdArray& x_in, const std::vector<int64_t>& out) {
  const int nd = static_cast<int>(out.size());
  const char* who = "adaptive_avg_pool";
  check_float(x_in, who);
  check_ndim(x_in, 2 + nd, who, "input");
  std::vector<int64_t> in(x_in.shape.begin() + 2, x_in.shape.end());
  int64_t in3[3] = {1, 1, 1}, out3[3] = {1, 1, 1};
  adaptive_sizes(in, out, in3, out3, who);
  const NdArray x = contiguous(x_in);
  NdArray y = empty(spatial_shape(x.shape[0], x.shape[1], out3, nd), x.dtype);
  if (y.numel() == 0) return y;
  const int64_t planes = x.shape[0] * x.shape[1];
  if (x.dtype == DType::Float32)
    adaptive_avg_typed(reinterpret_cast<const float*>(x.data()),
                       reinterpret_cast<float*>(y.data()), planes, in3, out3);
  else
    adaptive_avg_typed(reinterpret_cast<const double*>(x.data()),
                       reinterpret_cast<double*>(y.data()), planes, in3, out3);
  return y;
}

NdArray adaptive_avg_pool_backward(const NdArray& g_in, const std::vector<int64_t>& in) {
  const int nd = static_cast<int>(in.size());
  const char* who = "adaptive_avg_pool_backward";
  check_float(g_in, who);
  check_ndim(g_in, 2 + nd, who, "gradient");
  std::vector<int64_t> out(g_in.shape.begin() + 2, g_in.shape.end());
  int64_t in3[3] = {1, 1, 1}, out3[3] = {1, 1, 1};
  adaptive_sizes(in, out, in3, out3, who);
  const NdArray g = contiguous(g_in);
  NdArray gx = empty(spatial_shape(g.shape[0], g.shape[1], in3, nd), g.dtype);
  if (gx.numel() == 0) return gx;
  const int64_t planes = g.shape[0] * g.shape[1];
  if (g.dtype == DType::Float32)
    adaptive_avg_backward_typed(reinterpret_cast<const float*>(g.data()),
                                reinterpret_cast<float*>(gx.data()), planes, in3, out3);
  else
    adaptive_avg_backward_typed(reinterpret_cast<const double*>(g.data()),
                                reinterpret_cast<double*>(gx.data()), planes, in3, out3);
  return gx;
}

}  // namespace arraycore::native::conv
