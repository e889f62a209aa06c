// FFT: the complex n-d driver.  Each axis is a batch of lines: groups of lines are copied
// into the executor's split, interleaved layout (fft_exec.h), transformed, and written back,
// the groups split across the pool.  Later axes run in place on the output.
#include <complex>
#include <string>

#include "../errors.h"
#include "fft.h"
#include "fft_copy.h"
#include "fft_exec.h"
#include "fft_lines.h"

namespace arraycore::native {
namespace fft {
namespace {

template <class T>
void c2c_axis(const NdArray& src, const NdArray& dst, int axis, int sign, T scale) {
  const int64_t n = src.shape[axis];
  const Lines L = lines_along(src, dst, axis);
  if (L.count == 0) return;
  auto plan_ptr = get_plan<T>(n, sign);
  const Plan<T>& plan = *plan_ptr;
  const int64_t per_group = batch_lines(plan, L.count, neighbour_lines(L));
  const T* s = reinterpret_cast<const T*>(src.data());
  T* d = reinterpret_cast<T*>(dst.data());
  if (per_group == 1 && runs_interleaved(plan)) {
    // Long or lone lines: the four-step split or Bluestein reads and writes the user's arrays
    // directly.
    for_each_group(L.count, 1, n, [&](int64_t l, int64_t) {
      run_line_interleaved(plan, s + 2 * L.in_off[l], L.in_stride, d + 2 * L.out_off[l],
                           L.out_stride, scale);
    });
    return;
  }
  for_each_group(L.count, per_group, n, [&](int64_t l0, int64_t B) {
    Scratch<T> buf(4 * n * B);
    T* br = buf.data();
    T* bi = br + n * B;
    gather_complex(s, L.in_off.data() + l0, B, B, n, L.in_stride, br, bi);
    auto [rr, ri] = execute_to(plan, br, bi, bi + n * B, bi + 2 * n * B, B);
    scatter_complex(d, L.out_off.data() + l0, B, B, n, L.out_stride, rr, ri, scale);
  });
}

template <class T>
NdArray c2c(const NdArray& x, const std::vector<int>& axes, bool forward, double scale) {
  NdArray out = empty(x.shape, x.dtype);
  if (out.numel() == 0) return out;
  if (axes.empty()) {
    copy_into(out, x);
    if (scale != 1.0) {
      T* d = reinterpret_cast<T*>(out.data());
      for (int64_t i = 0; i < 2 * out.numel(); ++i) d[i] *= static_cast<T>(scale);
    }
    return out;
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    const bool last = i + 1 == axes.size();
    c2c_axis<T>(i == 0 ? x : out, out, axes[i], forward ? -1 : 1,
                last ? static_cast<T>(scale) : T(1));
  }
  return out;
}

}  // namespace
}  // namespace fft

NdArray fft_c2c(const NdArray& x, const std::vector<int>& axes, bool forward, double scale) {
  for (int a : axes) {
    if (a < 0 || a >= x.ndim()) throw ValueError("fft_c2c: axis " + std::to_string(a) + " out of range");
    if (x.shape[a] < 1) throw ValueError("fft_c2c: invalid number of data points (0) along axis " + std::to_string(a));
  }
  for (size_t i = 0; i < axes.size(); ++i)
    for (size_t j = i + 1; j < axes.size(); ++j)
      if (axes[i] == axes[j]) throw ValueError("fft_c2c: repeated axis " + std::to_string(axes[i]));
  if (x.dtype == DType::Complex64) return fft::c2c<float>(x, axes, forward, scale);
  if (x.dtype == DType::Complex128) return fft::c2c<double>(x, axes, forward, scale);
  throw TypeError(std::string("fft_c2c: expected complex64 or complex128, got ") + dtype_name(x.dtype));
}

}  // namespace arraycore::native
