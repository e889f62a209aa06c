// FFT: the lines of an array along one axis (internal to the fft_*.cpp drivers), and the loop
// that hands batches of them to a worker, splitting across the pool when there is enough work.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../ndarray.h"
#include "../thread_pool.h"

namespace arraycore::native::fft {

// Every line along `axis` of `in` and the matching line of `out` (same shape except along
// the axis): start offsets in elements, and the element stride along the axis.
struct Lines {
  int64_t count = 0;
  std::vector<int64_t> in_off, out_off;
  int64_t in_stride = 0, out_stride = 0;
};

inline Lines lines_along(const NdArray& in, const NdArray& out, int axis) {
  Lines L;
  L.in_stride = in.strides[axis];
  L.out_stride = out.strides[axis];
  L.count = 1;
  for (int d = 0; d < in.ndim(); ++d)
    if (d != axis) L.count *= in.shape[d];
  L.in_off.resize(L.count);
  L.out_off.resize(L.count);
  if (L.count == 0) return L;
  // Odometer over the other dimensions, last fastest.
  std::vector<int64_t> idx(in.ndim(), 0);
  int64_t oi = 0, oo = 0;
  for (int64_t l = 0; l < L.count; ++l) {
    L.in_off[l] = oi;
    L.out_off[l] = oo;
    for (int d = in.ndim() - 1; d >= 0; --d) {
      if (d == axis) continue;
      if (++idx[d] < in.shape[d]) {
        oi += in.strides[d];
        oo += out.strides[d];
        break;
      }
      oi -= in.strides[d] * (in.shape[d] - 1);
      oo -= out.strides[d] * (out.shape[d] - 1);
      idx[d] = 0;
    }
  }
  return L;
}

// Whether consecutive lines start one element apart (columns of a matrix): their batches
// copy row by row (fft_copy.h) and are sized for whole cache lines per row (batch_lines).
inline bool neighbour_lines(const Lines& L) {
  return L.count > 1 && L.in_off[1] == L.in_off[0] + 1;
}

// Calls fn(first_line, line_count) for consecutive groups of at most `per_group` lines.
// Groups run in parallel when the total work (elements) is large enough; a single group runs
// on the caller, so the executor inside may split itself across the pool instead.
template <class F>
void for_each_group(int64_t count, int64_t per_group, int64_t elems_per_line, F&& fn) {
  const int64_t groups = (count + per_group - 1) / per_group;
  const int64_t work_per_group = std::max<int64_t>(1, per_group * elems_per_line);
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 15) / work_per_group);
  auto run = [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
      const int64_t l0 = g * per_group;
      fn(l0, std::min(per_group, count - l0));
    }
  };
  if (groups <= 1) run(0, groups);
  else parallel_for(groups, grain, run);
}

}  // namespace arraycore::native::fft
