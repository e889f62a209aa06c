// L0: convolution, pooling and im2col/col2im kernels (the native parts of arraycore.nn's
// conv / pool / unfold / fold ops; docs/nn_conv.md).
//
// Every kernel works on C-contiguous float32/float64 arrays laid out as PyTorch's NC* :
// (N, C, *spatial) with 1 to 3 spatial dimensions.  The Python layer validates the
// arguments and computes the output sizes (ceil_mode, "same" padding, output_padding); the
// kernels take the sliding-window geometry as given and check only that the shapes agree.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../ndarray.h"

namespace arraycore::native::conv {

// A sliding window over up to three spatial dimensions.  Fewer dimensions are stored as
// leading dimensions of size 1 (in = out = k = 1, stride = dil = 1, pad = 0), so one
// three-level loop serves 1-d, 2-d and 3-d.  `pad` is the padding before the first element;
// the padding after the last one only shows in `out`.
struct Window {
  int nd = 0;
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int64_t k[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t dil[3] = {1, 1, 1};
  int64_t in_numel() const { return in[0] * in[1] * in[2]; }
  int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  int64_t k_numel() const { return k[0] * k[1] * k[2]; }
};

// Builds a Window from per-dimension vectors (all of length nd, 1 <= nd <= 3); throws
// ValueError naming `who` for non-positive sizes, strides or dilations and negative padding.
Window make_window(const std::vector<int64_t>& in, const std::vector<int64_t>& out,
                   const std::vector<int64_t>& k, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& pad, const std::vector<int64_t>& dil,
                   const char* who);

// ---- im2col / col2im on one image (conv_im2col.cpp) ----
// col has C * k_numel rows (channel-major, then the kernel offsets) of out_numel columns,
// rows `ld` elements apart (ld >= out_numel: several images side by side).  Padding reads
// as zero.  col2im adds each column entry back into the element it was read from.
template <class T>
void im2col(const T* x, int64_t channels, const Window& w, T* col, int64_t ld);
template <class T>
void col2im(const T* col, int64_t ld, int64_t channels, const Window& w, T* x);
// Small planes (short output rows, e.g. the 4x4 maps of a digits convnet): the row copies
// of im2col are a few elements each and their call and bounds overhead dominates.  The
// gather map holds, for each (kernel offset, output position), the input position inside the
// plane or -1 for padding (K * O int32 entries, built once per call); the mapped im2col and
// col2im then run one branch-light loop per column row.
bool use_im2col_map(const Window& w);
std::vector<int32_t> im2col_map(const Window& w);
template <class T>
void im2col_mapped(const T* x, int64_t channels, const int32_t* map, const Window& w, T* col,
                   int64_t ld);
template <class T>
void col2im_mapped(const T* col, int64_t ld, int64_t channels, const int32_t* map,
                   const Window& w, T* x);
// col2im for a column matrix the caller owns as scratch: it may overwrite col (the entries
// standing for padding are zeroed so in-image rows are added as one block).
template <class T>
void col2im_scratch(T* col, int64_t ld, int64_t channels, const Window& w, T* x);

// torch.nn.functional.unfold / fold for any 1-3 spatial dims: (N, C, *in) <-> (N, C*K, O).
NdArray unfold(const NdArray& x, const Window& w);
NdArray fold(const NdArray& cols, int64_t channels, const Window& w);

// ---- convolution through gemm (conv_gemm.cpp) ----
// x (N, Cin, *in), weight (Cout, Cin/groups, *k), bias (Cout) -> (N, Cout, *out).
NdArray conv_forward(const NdArray& x, const NdArray& weight, const std::optional<NdArray>& bias,
                     const Window& w, int64_t groups);
// The adjoint in x of conv_forward, which is also the transposed convolution:
// y (N, Cout, *out), weight (Cout, Cin/groups, *k), bias (Cin) -> (N, Cin, *in).
NdArray conv_backward_input(const NdArray& y, const NdArray& weight,
                            const std::optional<NdArray>& bias, const Window& w, int64_t groups);
// The adjoint in weight: x (N, Cin, *in), y (N, Cout, *out) -> (Cout, Cin/groups, *k).
NdArray conv_backward_weight(const NdArray& x, const NdArray& y, const Window& w, int64_t groups);

// ---- pooling (pool_max.cpp, pool_avg.cpp) ----
// Max over each window (padding never wins; NaN propagates as in PyTorch) and the flat
// index of the winner within its input plane (int64).
std::pair<NdArray, NdArray> max_pool(const NdArray& x, const Window& w);
// Adaptive windows: [floor(o * in / out), ceil((o + 1) * in / out)) along each dimension.
std::pair<NdArray, NdArray> adaptive_max_pool(const NdArray& x, const std::vector<int64_t>& out);
// Scatter-add of g through the indices of max_pool / adaptive_max_pool: (N, C, *in).
NdArray max_pool_backward(const NdArray& g, const NdArray& indices,
                          const std::vector<int64_t>& in);
// Average over each window (dilation 1).  divisor 0: the window's size, counting padding
// when count_include_pad (PyTorch's rule: the window clipped to the padded input), else only
// the elements inside the input; divisor > 0: divisor_override.
NdArray avg_pool(const NdArray& x, const Window& w, bool count_include_pad, int64_t divisor);
NdArray avg_pool_backward(const NdArray& g, const Window& w, bool count_include_pad,
                          int64_t divisor);
NdArray adaptive_avg_pool(const NdArray& x, const std::vector<int64_t>& out);
NdArray adaptive_avg_pool_backward(const NdArray& g, const std::vector<int64_t>& in);

// Shared checks: float32/float64 (TypeError), ndim == 2 + nd (ValueError).
void check_float(const NdArray& a, const char* who);
void check_ndim(const NdArray& a, int ndim, const char* who, const char* what);

}  // namespace arraycore::native::conv
