// L0: convolution, its input adjoint (= transposed convolution) and weight adjoint, as
// im2col/col2im + BLAS gemm.
//
// Images are processed in chunks: the columns of `nb` images sit side by side in one
// column matrix (Cin*K rows, nb*O columns), so a small image (the 8x8 digits: O = 64) still
// makes gemm calls with ~1000 columns; a large one (O >= kTargetColumns) makes one
// gemm per image straight into the output.  Per group g (weights W_g: Cout/G x Cin/G*K):
//   forward          Y_g   = W_g   . col_g          (then + bias)
//   input adjoint    col_g = W_g^T . Y_g            (then col2im, + bias of the result)
//   weight adjoint   dW_g += Y_g   . col_g^T        (summed over the chunks)
// Chunks go to the engine's pool (linalg::run_batch: OpenBLAS single-threaded inside when
// several chunks run at once); each task has its own column buffer.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "../allocator.h"
#include "../blas.h"
#include "../errors.h"
#include "conv.h"
#include "linalg_batch.h"

namespace arraycore::native::conv {

namespace {

using blas::blas_int;

// Columns per gemm call the chunking aims at.
constexpr int64_t kTargetColumns = 1024;
// Upper bound of one chunk's column matrix (elements): ~256 KB of float32 stays in L2 while
// gemm streams it (a 4.7 MB column matrix ran gemm at a quarter of the speed).
constexpr int64_t kMaxColumnElems = int64_t(1) << 16;

void gemm(blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n, int64_t k,
          const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
          int64_t ldc) {
  blas::scipy_cblas_sgemm(blas::RowMajor, ta, tb, blas_int(m), blas_int(n), blas_int(k), 1.0f,
                          a, blas_int(lda), b, blas_int(ldb), beta, c, blas_int(ldc));
}
void gemm(blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n, int64_t k,
          const double* a, int64_t lda, const double* b, int64_t ldb, double beta, double* c,
          int64_t ldc) {
  blas::scipy_cblas_dgemm(blas::RowMajor, ta, tb, blas_int(m), blas_int(n), blas_int(k), 1.0,
                          a, blas_int(lda), b, blas_int(ldb), beta, c, blas_int(ldc));
}

// A geometry with no padding, unit strides and a 1x1 kernel: the column matrix is the image.
bool is_pointwise(const Window& w) {
  for (int i = 0; i < 3; ++i)
    if (w.k[i] != 1 || w.stride[i] != 1 || w.pad[i] != 0 || w.in[i] != w.out[i]) return false;
  return true;
}

struct Chunking {
  int64_t per_chunk;  // images per chunk
  int64_t chunks;
};

Chunking chunking(int64_t n, int64_t rows, int64_t O) {
  int64_t nb = O >= kTargetColumns ? 1 : (kTargetColumns + O - 1) / std::max<int64_t>(O, 1);
  nb = std::min(nb, std::max<int64_t>(1, kMaxColumnElems / std::max<int64_t>(1, rows * O)));
  nb = std::max<int64_t>(1, std::min(nb, n));
  return {nb, n == 0 ? 0 : (n + nb - 1) / nb};
}

void check_blas(int64_t v, const char* who) {
  if (v > blas::kMaxBlasInt)
    throw ValueError(std::string(who) + ": problem too large for 32-bit BLAS dimensions");
}

// Copies the (rows, O) planes of images [n0, n0 + cnt) side by side into buf (rows, cnt*O).
template <class T>
void gather_images(const T* src, int64_t n0, int64_t cnt, int64_t rows, int64_t O, T* buf) {
  for (int64_t i = 0; i < cnt; ++i) {
    const T* s = src + (n0 + i) * rows * O;
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(buf + r * cnt * O + i * O, s + r * O, O * sizeof(T));
  }
}

template <class T>
void add_bias_rows(T* y, const T* bias, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const T b = bias[r];
    T* yr = y + r * cols;
    for (int64_t o = 0; o < cols; ++o) yr[o] += b;
  }
}

struct ConvDims {
  int64_t N, Cin, Cout, G, I, O, K;
  int64_t cin_g() const { return Cin / G; }
  int64_t cout_g() const { return Cout / G; }
  int64_t ckg() const { return Cin / G * K; }
};

// The column matrices of images [n0, n0 + cnt) side by side (row stride ld); the gather map
// when the geometry has one (small planes), else the row-copy im2col.
template <class T>
void im2col_images(const T* x, int64_t n0, int64_t cnt, const ConvDims& d, const Window& w,
                   const std::vector<int32_t>& map, T* col, int64_t ld) {
  for (int64_t i = 0; i < cnt; ++i) {
    const T* xi = x + (n0 + i) * d.Cin * d.I;
    if (!map.empty()) im2col_mapped(xi, d.Cin, map.data(), w, col + i * d.O, ld);
    else im2col(xi, d.Cin, w, col + i * d.O, ld);
  }
}

template <class T>
void forward_typed(const T* x, const T* wt, const T* bias, T* y, const ConvDims& d,
                   const Window& w) {
  const int64_t ck = d.Cin * d.K, O = d.O, ckg = d.ckg(), coutg = d.cout_g();
  const Chunking ch = chunking(d.N, ck, O);
  const bool pointwise = is_pointwise(w);
  const std::vector<int32_t> map = !pointwise && use_im2col_map(w) ? im2col_map(w)
                                                                   : std::vector<int32_t>();
  linalg::run_batch(ch.chunks, 2.0 * d.Cout * ckg * O * ch.per_chunk, [&](int64_t c0, int64_t c1) {
    linalg::Scratch<T> col(pointwise && ch.per_chunk == 1 ? 0 : ck * ch.per_chunk * O);
    linalg::Scratch<T> tmp(ch.per_chunk > 1 ? d.Cout * ch.per_chunk * O : 0);
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t n0 = c * ch.per_chunk, cnt = std::min(ch.per_chunk, d.N - n0);
      const int64_t ld = cnt * O;
      const T* colp;
      if (pointwise && cnt == 1) {
        colp = x + n0 * d.Cin * d.I;
      } else if (pointwise) {
        gather_images(x, n0, cnt, d.Cin, O, col.data());
        colp = col.data();
      } else {
        im2col_images(x, n0, cnt, d, w, map, col.data(), ld);
        colp = col.data();
      }
      T* dst = cnt == 1 ? y + n0 * d.Cout * O : tmp.data();
      for (int64_t g = 0; g < d.G; ++g)
        gemm(blas::NoTrans, blas::NoTrans, coutg, ld, ckg, wt + g * coutg * ckg, ckg,
             colp + g * ckg * ld, ld, T(0), dst + g * coutg * ld, ld);
      if (cnt > 1) {
        for (int64_t i = 0; i < cnt; ++i) {
          T* yi = y + (n0 + i) * d.Cout * O;
          for (int64_t r = 0; r < d.Cout; ++r)
            std::memcpy(yi + r * O, dst + r * ld + i * O, O * sizeof(T));
        }
      }
      if (bias)
        for (int64_t i = 0; i < cnt; ++i) add_bias_rows(y + (n0 + i) * d.Cout * O, bias, d.Cout, O);
    }
  });
}

template <class T>
void backward_input_typed(const T* gy, const T* wt, const T* bias, T* gx, const ConvDims& d,
                          const Window& w) {
  const int64_t ck = d.Cin * d.K, O = d.O, ckg = d.ckg(), coutg = d.cout_g();
  const Chunking ch = chunking(d.N, std::max(ck, d.Cout), O);
  const bool pointwise = is_pointwise(w);
  std::memset(gx, 0, d.N * d.Cin * d.I * sizeof(T));
  // Input channels per gemm: the rows of col that a block produces are added back (col2im)
  // while they are still in cache, so a layer with many channels never writes a column
  // matrix larger than the cap.
  const int64_t cin_g = d.cin_g();
  const int64_t cb = std::clamp<int64_t>(
      kMaxColumnElems / std::max<int64_t>(1, d.K * ch.per_chunk * O), 1, std::max<int64_t>(1, cin_g));
  const std::vector<int32_t> map = !pointwise && use_im2col_map(w) ? im2col_map(w)
                                                                   : std::vector<int32_t>();
  linalg::run_batch(ch.chunks, 2.0 * d.Cout * ckg * O * ch.per_chunk, [&](int64_t c0, int64_t c1) {
    linalg::Scratch<T> col(std::min(ck, cb * d.K) * ch.per_chunk * O);
    linalg::Scratch<T> gbuf(ch.per_chunk > 1 ? d.Cout * ch.per_chunk * O : 0);
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t n0 = c * ch.per_chunk, cnt = std::min(ch.per_chunk, d.N - n0);
      const int64_t ld = cnt * O;
      const T* gsrc = gy + n0 * d.Cout * O;
      if (cnt > 1) {
        gather_images(gy, n0, cnt, d.Cout, O, gbuf.data());
        gsrc = gbuf.data();
      }
      if (!(pointwise && cnt == 1)) {
        for (int64_t g = 0; g < d.G; ++g)
          for (int64_t cs = 0; cs < cin_g; cs += cb) {
            const int64_t cn = std::min(cb, cin_g - cs);
            gemm(blas::Trans, blas::NoTrans, cn * d.K, ld, coutg, wt + g * coutg * ckg + cs * d.K,
                 ckg, gsrc + g * coutg * ld, ld, T(0), col.data(), ld);
            for (int64_t i = 0; i < cnt; ++i) {
              T* dst = gx + (n0 + i) * d.Cin * d.I + (g * cin_g + cs) * d.I;
              if (!map.empty()) col2im_mapped(col.data() + i * O, ld, cn, map.data(), w, dst);
              else col2im_scratch(col.data() + i * O, ld, cn, w, dst);
            }
          }
      } else {
        // The column matrix is the result itself.
        for (int64_t g = 0; g < d.G; ++g)
          gemm(blas::Trans, blas::NoTrans, ckg, ld, coutg, wt + g * coutg * ckg, ckg,
               gsrc + g * coutg * ld, ld, T(0), gx + n0 * d.Cin * d.I + g * ckg * ld, ld);
      }
      if (bias)
        for (int64_t i = 0; i < cnt; ++i)
          add_bias_rows(gx + (n0 + i) * d.Cin * d.I, bias, d.Cin, d.I);
    }
  });
}

template <class T>
void backward_weight_typed(const T* x, const T* gy, T* gw, const ConvDims& d, const Window& w) {
  const int64_t ck = d.Cin * d.K, O = d.O, ckg = d.ckg(), coutg = d.cout_g();
  const Chunking ch = chunking(d.N, std::max(ck, d.Cout), O);
  const int64_t wsize = d.Cout * ckg;
  std::memset(gw, 0, wsize * sizeof(T));
  std::mutex mu;
  bool first = true;
  const std::vector<int32_t> map = use_im2col_map(w) ? im2col_map(w) : std::vector<int32_t>();
  linalg::run_batch(ch.chunks, 2.0 * d.Cout * ckg * O * ch.per_chunk, [&](int64_t c0, int64_t c1) {
    linalg::Scratch<T> col(ck * ch.per_chunk * O);
    linalg::Scratch<T> gbuf(ch.per_chunk > 1 ? d.Cout * ch.per_chunk * O : 0);
    std::vector<T> part(wsize, T(0));
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t n0 = c * ch.per_chunk, cnt = std::min(ch.per_chunk, d.N - n0);
      const int64_t ld = cnt * O;
      const T* gsrc = gy + n0 * d.Cout * O;
      if (cnt > 1) {
        gather_images(gy, n0, cnt, d.Cout, O, gbuf.data());
        gsrc = gbuf.data();
      }
      im2col_images(x, n0, cnt, d, w, map, col.data(), ld);
      for (int64_t g = 0; g < d.G; ++g)
        gemm(blas::NoTrans, blas::Trans, coutg, ckg, ld, gsrc + g * coutg * ld, ld,
             col.data() + g * ckg * ld, ld, T(1), part.data() + g * coutg * ckg, ckg);
    }
    std::lock_guard<std::mutex> lock(mu);
    if (first) {
      std::memcpy(gw, part.data(), wsize * sizeof(T));
      first = false;
    } else {
      for (int64_t i = 0; i < wsize; ++i) gw[i] += part[i];
    }
  });
}

ConvDims dims_of(const NdArray& x, const NdArray& weight, int64_t groups, const Window& w,
                 const char* who) {
  if (groups < 1) throw ValueError(std::string(who) + ": groups must be positive");
  ConvDims d{x.shape[0], x.shape[1], weight.shape[0], groups, w.in_numel(), w.out_numel(),
             w.k_numel()};
  return d;
}

void check_spatial(const NdArray& a, const int64_t* sizes, const Window& w, const char* who,
                   const char* what) {
  for (int i = 0; i < w.nd; ++i)
    if (a.shape[2 + i] != sizes[3 - w.nd + i])
      throw ValueError(std::string(who) + ": " + what + " spatial size does not match the "
                       "convolution geometry");
}

void check_weight(const NdArray& weight, int64_t cin, int64_t groups, const Window& w,
                  const char* who) {
  check_ndim(weight, 2 + w.nd, who, "weight");
  if (weight.shape[0] % groups != 0 || cin % groups != 0 || weight.shape[1] * groups != cin)
    throw ValueError(std::string(who) + ": weight shape does not match the channels and groups");
  for (int i = 0; i < w.nd; ++i)
    if (weight.shape[2 + i] != w.k[3 - w.nd + i])
      throw ValueError(std::string(who) + ": weight kernel size does not match the geometry");
}

void check_sizes(const ConvDims& d, const char* who) {
  check_blas(d.Cin * d.K, who);
  check_blas(d.Cout, who);
  check_blas(d.O * std::max<int64_t>(1, d.N), who);
}

}  // namespace

NdArray conv_forward(const NdArray& x_in, const NdArray& weight_in,
                     const std::optional<NdArray>& bias_in, const Window& w, int64_t groups) {
  const char* who = "conv";
  check_float(x_in, who);
  check_ndim(x_in, 2 + w.nd, who, "input");
  check_spatial(x_in, w.in, w, who, "input");
  if (weight_in.dtype != x_in.dtype) throw TypeError("conv: input and weight dtypes differ");
  check_weight(weight_in, x_in.shape[1], groups, w, who);
  const NdArray x = contiguous(x_in), weight = contiguous(weight_in);
  const ConvDims d = dims_of(x, weight, groups, w, who);
  check_sizes(d, who);
  std::optional<NdArray> bias;
  if (bias_in) {
    if (bias_in->dtype != x.dtype || bias_in->ndim() != 1 || bias_in->shape[0] != d.Cout)
      throw ValueError("conv: bias must be a 1-d array of out_channels elements and the dtype "
                       "of the input");
    bias = contiguous(*bias_in);
  }
  Shape shape{d.N, d.Cout};
  for (int i = 3 - w.nd; i < 3; ++i) shape.push_back(w.out[i]);
  NdArray y = empty(shape, x.dtype);
  if (d.N * d.Cout * d.O == 0) return y;
  if (d.Cin == 0) {  // no input channels: the sum is empty
    std::memset(y.data(), 0, y.numel() * y.itemsize());
  }
  if (x.dtype == DType::Float32) {
    forward_typed<float>(reinterpret_cast<const float*>(x.data()),
                         reinterpret_cast<const float*>(weight.data()),
                         bias ? reinterpret_cast<const float*>(bias->data()) : nullptr,
                         reinterpret_cast<float*>(y.data()), d, w);
  } else {
    forward_typed<double>(reinterpret_cast<const double*>(x.data()),
                          reinterpret_cast<const double*>(weight.data()),
                          bias ? reinterpret_cast<const double*>(bias->data()) : nullptr,
                          reinterpret_cast<double*>(y.data()), d, w);
  }
  return y;
}

NdArray conv_backward_input(const NdArray& y_in, const NdArray& weight_in,
                            const std::optional<NdArray>& bias_in, const Window& w,
                            int64_t groups) {
  const char* who = "conv_transpose";
  check_float(y_in, who);
  check_ndim(y_in, 2 + w.nd, who, "input");
  check_spatial(y_in, w.out, w, who, "input");
  if (weight_in.dtype != y_in.dtype) throw TypeError("conv_transpose: input and weight dtypes differ");
  check_ndim(weight_in, 2 + w.nd, who, "weight");
  if (weight_in.shape[0] != y_in.shape[1] || y_in.shape[1] % groups != 0)
    throw ValueError("conv_transpose: weight shape does not match the channels and groups");
  check_weight(weight_in, weight_in.shape[1] * groups, groups, w, who);
  const NdArray y = contiguous(y_in), weight = contiguous(weight_in);
  ConvDims d{y.shape[0], weight.shape[1] * groups, weight.shape[0], groups, w.in_numel(),
             w.out_numel(), w.k_numel()};
  check_sizes(d, who);
  std::optional<NdArray> bias;
  if (bias_in) {
    if (bias_in->dtype != y.dtype || bias_in->ndim() != 1 || bias_in->shape[0] != d.Cin)
      throw ValueError("conv_transpose: bias must be a 1-d array of out_channels elements and "
                       "the dtype of the input");
    bias = contiguous(*bias_in);
  }
  Shape shape{d.N, d.Cin};
  for (int i = 3 - w.nd; i < 3; ++i) shape.push_back(w.in[i]);
  NdArray x = empty(shape, y.dtype);
  if (x.numel() == 0) return x;
  if (y.dtype == DType::Float32) {
    backward_input_typed<float>(reinterpret_cast<const float*>(y.data()),
                                reinterpret_cast<const float*>(weight.data()),
                                bias ? reinterpret_cast<const float*>(bias->data()) : nullptr,
                                reinterpret_cast<float*>(x.data()), d, w);
  } else {
    backward_input_typed<double>(reinterpret_cast<const double*>(y.data()),
                                 reinterpret_cast<const double*>(weight.data()),
                                 bias ? reinterpret_cast<const double*>(bias->data()) : nullptr,
                                 reinterpret_cast<double*>(x.data()), d, w);
  }
  return x;
}

NdArray conv_backward_weight(const NdArray& x_in, const NdArray& y_in, const Window& w,
                             int64_t groups) {
  const char* who = "conv_weight_grad";
  check_float(x_in, who);
  check_ndim(x_in, 2 + w.nd, who, "input");
  check_ndim(y_in, 2 + w.nd, who, "output gradient");
  check_spatial(x_in, w.in, w, who, "input");
  check_spatial(y_in, w.out, w, who, "output gradient");
  if (y_in.dtype != x_in.dtype) throw TypeError("conv_weight_grad: dtypes differ");
  if (groups < 1 || x_in.shape[1] % groups != 0 || y_in.shape[1] % groups != 0 ||
      x_in.shape[0] != y_in.shape[0])
    throw ValueError("conv_weight_grad: channels, groups or batch sizes do not match");
  const NdArray x = contiguous(x_in), y = contiguous(y_in);
  ConvDims d{x.shape[0], x.shape[1], y.shape[1], groups, w.in_numel(), w.out_numel(),
             w.k_numel()};
  check_sizes(d, who);
  Shape shape{d.Cout, d.Cin / groups};
  for (int i = 3 - w.nd; i < 3; ++i) shape.push_back(w.k[i]);
  NdArray gw = empty(shape, x.dtype);
  if (gw.numel() == 0) return gw;
  if (d.N * d.O == 0) {
    std::memset(gw.data(), 0, gw.numel() * gw.itemsize());
    return gw;
  }
  if (x.dtype == DType::Float32) {
    backward_weight_typed<float>(reinterpret_cast<const float*>(x.data()),
                                 reinterpret_cast<const float*>(y.data()),
                                 reinterpret_cast<float*>(gw.data()), d, w);
  } else {
    backward_weight_typed<double>(reinterpret_cast<const double*>(x.data()),
                                  reinterpret_cast<const double*>(y.data()),
                                  reinterpret_cast<double*>(gw.data()), d, w);
  }
  return gw;
}

}  // namespace arraycore::native::conv
