// FFT: the complex n-d driver.  Each axis is a batch of lines: groups of lines are copied
// into the executor's split, interleaved layout (fft_exec.h), transformed, and written back,
// the groups split across the pool.  Later axes run in place on the output.
#include <complex>
#include <string>

#include "../errors.h"
#include "fft.h"
#include "fft_columns.h"
#include "fft_copy.h"
#include "fft_exec.h"
#include "fft_lines.h"

namespace arraycore::native {
namespace fft {
namespace {

// Lines l0..l0+B copied into the executor's layout, transformed and copied out.
template <class T>
void copy_transform(const Plan<T>& plan, const T* s, T* d, const Lines& L, int64_t l0, int64_t B,
                    T scale) {
  const int64_t n = plan.n;
  Scratch<T> buf(4 * n * B);
  T* br = buf.data();
  T* bi = br + n * B;
  gather_complex(s, L.in_off.data() + l0, B, B, n, L.in_stride, br, bi);
  auto [rr, ri] = execute_to(plan, br, bi, bi + n * B, bi + 2 * n * B, B);
  scatter_complex(d, L.out_off.data() + l0, B, B, n, L.out_stride, rr, ri, scale);
}

template <class T>
void c2c_axis(const NdArray& src, const NdArray& dst, int axis, int sign, T scale) {
  const int64_t n = src.shape[axis];
  const Lines L = lines_along(src, dst, axis);
  if (L.count == 0) return;
  auto plan_ptr = get_plan<T>(n, sign);
  const Plan<T>& plan = *plan_ptr;
  const T* s = reinterpret_cast<const T*>(src.data());
  T* d = reinterpret_cast<T*>(dst.data());
  if (neighbour_lines(L) && column_route(plan)) {
    // Adjacent columns: blocks of W transformed straight between the arrays (fft_columns.h);
    // a block whose lines are not adjacent on both sides (the edges of a higher-dimensional
    // array's rows, the last narrow block) takes the copying route below.
    const int64_t W = column_block_width(plan);
    for_each_group(L.count, W, n, [&](int64_t l0, int64_t B) {
      if (B == W && unit_batch(L.in_off.data() + l0, B) && unit_batch(L.out_off.data() + l0, B)) {
        run_column_block(plan, s + 2 * L.in_off[l0], L.in_stride, d + 2 * L.out_off[l0],
                         L.out_stride, W, scale);
        return;
      }
      copy_transform(plan, s, d, L, l0, B, scale);
    });
    return;
  }
  const int64_t per_group = batch_lines(plan, L.count, neighbour_lines(L));
  if (per_group == 1 && runs_interleaved(plan)) {
    // Long or lone lines: the four-step split or Bluestein reads and writes the user's arrays
    // directly.
    for_each_group(L.count, 1, n, [&](int64_t l, int64_t) {
      run_line_interleaved(plan, s + 2 * L.in_off[l], L.in_stride, d + 2 * L.out_off[l],
                           L.out_stride, scale);
    });
    return;
  }
  for_each_group(L.count, per_group, n,
                 [&](int64_t l0, int64_t B) { copy_transform(plan, s, d, L, l0, B, scale); });
}

// The transform of x along `axes` into out (x itself is fine: every route reads a group's
// lines before it writes them, and groups own disjoint lines).  out.numel() > 0.
template <class T>
void c2c_into(const NdArray& x, const NdArray& out, const std::vector<int>& axes, bool forward,
              double scale) {
  if (axes.empty()) {
    if (&x != &out) copy_into(out, x);
    if (scale != 1.0) {
      T* d = reinterpret_cast<T*>(out.data());
      for (int64_t i = 0; i < 2 * out.numel(); ++i) d[i] *= static_cast<T>(scale);
    }
    return;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    const bool last = i + 1 == axes.size();
    c2c_axis<T>(i == 0 ? x : out, out, axes[i], forward ? -1 : 1,
                last ? static_cast<T>(scale) : T(1));
  }
}

template <class T>
NdArray c2c(const NdArray& x, const std::vector<int>& axes, bool forward, double scale) {
  NdArray out = empty(x.shape, x.dtype);
  if (out.numel() > 0) c2c_into<T>(x, out, axes, forward, scale);
  return out;
}

}  // namespace
}  // namespace fft

namespace {

void check_c2c_args(const NdArray& x, const std::vector<int>& axes, const char* who) {
  for (int a : axes) {
    if (a < 0 || a >= x.ndim()) throw ValueError(std::string(who) + ": axis " + std::to_string(a) + " out of range");
    if (x.shape[a] < 1) throw ValueError(std::string(who) + ": invalid number of data points (0) along axis " + std::to_string(a));
  }
  for (size_t i = 0; i < axes.size(); ++i)
    for (size_t j = i + 1; j < axes.size(); ++j)
      if (axes[i] == axes[j]) throw ValueError(std::string(who) + ": repeated axis " + std::to_string(axes[i]));
  if (x.dtype != DType::Complex64 && x.dtype != DType::Complex128)
    throw TypeError(std::string(who) + ": expected complex64 or complex128, got " + dtype_name(x.dtype));
}

}  // namespace

NdArray fft_c2c(const NdArray& x, const std::vector<int>& axes, bool forward, double scale) {
  check_c2c_args(x, axes, "fft_c2c");
  if (x.dtype == DType::Complex64) return fft::c2c<float>(x, axes, forward, scale);
  return fft::c2c<double>(x, axes, forward, scale);
}

void fft_c2c_inplace(const NdArray& x, const std::vector<int>& axes, bool forward, double scale) {
  check_c2c_args(x, axes, "fft_c2c_inplace");
  if (!x.is_c_contiguous() || !x.writeable())
    throw ValueError("fft_c2c_inplace: expected a writeable C-contiguous array");
  if (x.numel() == 0) return;
  if (x.dtype == DType::Complex64) fft::c2c_into<float>(x, x, axes, forward, scale);
  else fft::c2c_into<double>(x, x, axes, forward, scale);
}

}  // namespace arraycore::native
