// Bindings of the convolution and pooling kernels (kernels/conv*.cpp, kernels/pool_*.cpp),
// the native parts of arraycore/_nn_primitives.py.  Geometry arguments are per-spatial-
// dimension lists; the Python layer has validated them and computed the output sizes.
#include <optional>
#include <vector>

#include "../kernels/conv.h"
#include "bindings.h"

namespace arraycore::native::bindings {

namespace {

using V = std::vector<int64_t>;

conv::Window window(const V& in, const V& out, const V& k, const V& stride, const V& pad,
                    const V& dil, const char* who) {
  return conv::make_window(in, out, k, stride, pad, dil, who);
}

py::tuple pair(std::pair<NdArray, NdArray>&& r) {
  return py::make_tuple(py::cast(std::move(r.first)), py::cast(std::move(r.second)));
}

}  // namespace

AC_BINDINGS(conv) {
  m.def("conv_forward", [](const NdArray& x, const NdArray& w, std::optional<NdArray> bias,
                           V in, V out, V k, V stride, V pad, V dil, int64_t groups) {
    const conv::Window win = window(in, out, k, stride, pad, dil, "conv");
    return maybe_nogil(x.numel() + w.numel(), [&] {
      return conv::conv_forward(x, w, bias, win, groups);
    });
  }, py::arg("x"), py::arg("weight"), py::arg("bias"), py::arg("in_size"), py::arg("out_size"),
        py::arg("kernel"), py::arg("stride"), py::arg("padding"), py::arg("dilation"),
        py::arg("groups"),
        "Convolution (N, Cin, *in) x (Cout, Cin/groups, *kernel) -> (N, Cout, *out), padding "
        "before each dimension as given (the output sizes set the padding after).");
  m.def("conv_backward_input", [](const NdArray& y, const NdArray& w, std::optional<NdArray> bias,
                                  V in, V out, V k, V stride, V pad, V dil, int64_t groups) {
    const conv::Window win = window(in, out, k, stride, pad, dil, "conv_transpose");
    return maybe_nogil(y.numel() + w.numel(), [&] {
      return conv::conv_backward_input(y, w, bias, win, groups);
    });
  }, py::arg("y"), py::arg("weight"), py::arg("bias"), py::arg("in_size"), py::arg("out_size"),
        py::arg("kernel"), py::arg("stride"), py::arg("padding"), py::arg("dilation"),
        py::arg("groups"),
        "Adjoint in x of conv_forward (the transposed convolution): (N, Cout, *out) -> "
        "(N, Cin, *in), plus bias (Cin) when given.");
  m.def("conv_backward_weight", [](const NdArray& x, const NdArray& y, V in, V out, V k,
                                   V stride, V pad, V dil, int64_t groups) {
    const conv::Window win = window(in, out, k, stride, pad, dil, "conv_weight_grad");
    return maybe_nogil(x.numel() + y.numel(), [&] {
      return conv::conv_backward_weight(x, y, win, groups);
    });
  }, py::arg("x"), py::arg("y"), py::arg("in_size"), py::arg("out_size"), py::arg("kernel"),
        py::arg("stride"), py::arg("padding"), py::arg("dilation"), py::arg("groups"),
        "Adjoint in the weight of conv_forward: x (N, Cin, *in), y (N, Cout, *out) -> "
        "(Cout, Cin/groups, *kernel).");
  m.def("conv_unfold", [](const NdArray& x, V in, V out, V k, V stride, V pad, V dil) {
    const conv::Window win = window(in, out, k, stride, pad, dil, "unfold");
    return maybe_nogil(x.numel(), [&] { return conv::unfold(x, win); });
  }, py::arg("x"), py::arg("in_size"), py::arg("out_size"), py::arg("kernel"), py::arg("stride"),
        py::arg("padding"), py::arg("dilation"), "im2col: (N, C, *in) -> (N, C*K, O).");
  m.def("conv_fold", [](const NdArray& cols, int64_t channels, V in, V out, V k, V stride, V pad,
                        V dil) {
    const conv::Window win = window(in, out, k, stride, pad, dil, "fold");
    return maybe_nogil(cols.numel(), [&] { return conv::fold(cols, channels, win); });
  }, py::arg("cols"), py::arg("channels"), py::arg("in_size"), py::arg("out_size"),
        py::arg("kernel"), py::arg("stride"), py::arg("padding"), py::arg("dilation"),
        "col2im: (N, C*K, O) -> (N, C, *in), overlapping entries summed.");
  m.def("max_pool", [](const NdArray& x, V in, V out, V k, V stride, V pad, V dil) {
    const conv::Window win = window(in, out, k, stride, pad, dil, "max_pool");
    if (x.numel() >= kReleaseGilElements) {
      std::pair<NdArray, NdArray> r;
      {
        py::gil_scoped_release nogil;
        r = conv::max_pool(x, win);
      }
      return pair(std::move(r));
    }
    return pair(conv::max_pool(x, win));
  }, py::arg("x"), py::arg("in_size"), py::arg("out_size"), py::arg("kernel"), py::arg("stride"),
        py::arg("padding"), py::arg("dilation"),
        "Max pooling: (values, int64 flat indices within each input plane).");
  m.def("adaptive_max_pool", [](const NdArray& x, V out) {
    if (x.numel() >= kReleaseGilElements) {
      std::pair<NdArray, NdArray> r;
      {
        py::gil_scoped_release nogil;
        r = conv::adaptive_max_pool(x, out);
      }
      return pair(std::move(r));
    }
    return pair(conv::adaptive_max_pool(x, out));
  }, py::arg("x"), py::arg("out_size"), "Adaptive max pooling: (values, int64 indices).");
  m.def("max_pool_backward", [](const NdArray& g, const NdArray& idx, V in) {
    return maybe_nogil(g.numel(), [&] { return conv::max_pool_backward(g, idx, in); });
  }, py::arg("g"), py::arg("indices"), py::arg("in_size"),
        "Scatter-add of g through max-pooling indices into (N, C, *in_size).");
  m.def("avg_pool", [](const NdArray& x, V in, V out, V k, V stride, V pad,
                       bool count_include_pad, int64_t divisor) {
    const conv::Window win = window(in, out, k, stride, pad, V(in.size(), 1), "avg_pool");
    return maybe_nogil(x.numel(), [&] {
      return conv::avg_pool(x, win, count_include_pad, divisor);
    });
  }, py::arg("x"), py::arg("in_size"), py::arg("out_size"), py::arg("kernel"), py::arg("stride"),
        py::arg("padding"), py::arg("count_include_pad"), py::arg("divisor"),
        "Average pooling (divisor 0: PyTorch's window count, else divisor_override).");
  m.def("avg_pool_backward", [](const NdArray& g, V in, V out, V k, V stride, V pad,
                                bool count_include_pad, int64_t divisor) {
    const conv::Window win = window(in, out, k, stride, pad, V(in.size(), 1), "avg_pool_backward");
    return maybe_nogil(g.numel(), [&] {
      return conv::avg_pool_backward(g, win, count_include_pad, divisor);
    });
  }, py::arg("g"), py::arg("in_size"), py::arg("out_size"), py::arg("kernel"), py::arg("stride"),
        py::arg("padding"), py::arg("count_include_pad"), py::arg("divisor"),
        "Adjoint of avg_pool.");
  m.def("adaptive_avg_pool", [](const NdArray& x, V out) {
    return maybe_nogil(x.numel(), [&] { return conv::adaptive_avg_pool(x, out); });
  }, py::arg("x"), py::arg("out_size"), "Adaptive average pooling.");
  m.def("adaptive_avg_pool_backward", [](const NdArray& g, V in) {
    return maybe_nogil(g.numel(), [&] { return conv::adaptive_avg_pool_backward(g, in); });
  }, py::arg("g"), py::arg("in_size"), "Adjoint of adaptive_avg_pool.");
}

}  // namespace arraycore::native::bindings
