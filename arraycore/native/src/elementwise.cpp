#include "elementwise.h"

#include <algorithm>
#include <numeric>

#include "thread_pool.h"

namespace arraycore::native {
namespace {

constexpr int kMaxOperands = 8;
// Elements per parallel chunk for a cost-1 op: below ~64k elements the pool's wake-up costs
// more than it saves.
constexpr int64_t kBaseGrain = 1 << 16;

// The iteration space after reordering and coalescing: dims[0] is the outermost.
struct Walk {
  int nops = 0;
  int ndim = 0;
  int64_t shape[64];
  int64_t strides[kMaxOperands][64];  // bytes
  char* base[kMaxOperands];
};

Walk make_walk(const NdArray* const* ops, int nops) {
  Walk w;
  w.nops = nops;
  const NdArray& out = *ops[0];
  const int nd = out.ndim();
  // Axis order: by the output's stride, largest outermost, so the inner loop walks the output
  // contiguously.  Stable, so C-ordered outputs keep their order.
  int axes_buf[64];
  int naxes = 0;
  for (int i = 0; i < nd; ++i)
    if (out.shape[i] != 1) axes_buf[naxes++] = i;
  std::stable_sort(axes_buf, axes_buf + naxes, [&](int a, int b) {
    return std::abs(out.strides[a]) > std::abs(out.strides[b]);
  });
  for (int k = 0; k < w.nops; ++k) w.base[k] = ops[k]->data();
  for (int ai = 0; ai < naxes; ++ai) {
    const int a = axes_buf[ai];
    int d = w.ndim;
    // Merge with the previous (outer) dim when every operand steps through both as one.
    if (d > 0) {
      bool merge = true;
      for (int k = 0; k < w.nops && merge; ++k) {
        int64_t isz = static_cast<int64_t>(ops[k]->itemsize());
        merge = w.strides[k][d - 1] == ops[k]->strides[a] * isz * out.shape[a];
      }
      if (merge) {
        w.shape[d - 1] *= out.shape[a];
        for (int k = 0; k < w.nops; ++k)
          w.strides[k][d - 1] = ops[k]->strides[a] * static_cast<int64_t>(ops[k]->itemsize());
        continue;
      }
    }
    w.shape[d] = out.shape[a];
    for (int k = 0; k < w.nops; ++k)
      w.strides[k][d] = ops[k]->strides[a] * static_cast<int64_t>(ops[k]->itemsize());
    ++w.ndim;
  }
  return w;
}

// Runs the linear index range [begin, end) of the walk.
void run_range(LoopFn loop, const Walk& w, int64_t begin, int64_t end) {
  char* ptrs[kMaxOperands];
  int64_t inner_strides[kMaxOperands];
  if (w.ndim == 0) {
    for (int k = 0; k < w.nops; ++k) {
      ptrs[k] = w.base[k];
      inner_strides[k] = 0;
    }
    loop(ptrs, inner_strides, 1);
    return;
  }
  const int last = w.ndim - 1;
  const int64_t inner = w.shape[last];
  for (int k = 0; k < w.nops; ++k) inner_strides[k] = w.strides[k][last];
  // Multi-index of `begin`.
  int64_t idx[64];
  int64_t rem = begin;
  for (int d = last; d >= 0; --d) {
    idx[d] = rem % w.shape[d];
    rem /= w.shape[d];
  }
  while (begin < end) {
    for (int k = 0; k < w.nops; ++k) {
      char* p = w.base[k];
      for (int d = 0; d <= last; ++d) p += idx[d] * w.strides[k][d];
      ptrs[k] = p;
    }
    int64_t count = std::min(inner - idx[last], end - begin);
    loop(ptrs, inner_strides, count);
    begin += count;
    idx[last] += count;
    for (int d = last; d > 0 && idx[d] == w.shape[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

// Note [Tiled walks for transposes]
// When an operand steps through memory faster along the outer of the last two dims than along
// the inner one (a transposed input under a row-major output), a row-by-row walk touches one
// cache line per element of that operand.  Walking 64x64 tiles instead keeps the tile's lines
// of every operand in cache, which is what makes `transpose -> copy` run near bandwidth.
constexpr int64_t kTile = 64;

bool wants_tiles(const Walk& w) {
  if (w.ndim < 2) return false;
  const int last = w.ndim - 1;
  if (w.shape[last] < kTile / 4 || w.shape[last - 1] < kTile / 4) return false;
  for (int k = 0; k < w.nops; ++k) {
    int64_t inner = std::abs(w.strides[k][last]), outer = std::abs(w.strides[k][last - 1]);
    if (outer < inner && inner > 64) return true;
  }
  return false;
}

// Every operand's pointer at the linear index `outer` of the dims outside the last two.
void outer_bases(const Walk& w, int64_t outer, char** base) {
  for (int k = 0; k < w.nops; ++k) base[k] = w.base[k];
  for (int d = w.ndim - 3; d >= 0; --d) {
    const int64_t i = outer % w.shape[d];
    outer /= w.shape[d];
    for (int k = 0; k < w.nops; ++k) base[k] += i * w.strides[k][d];
  }
}

// Runs tiles [begin, end) of the last two dims, for every index of the dims outside them.
void run_tiles(LoopFn loop, const Walk& w, int64_t begin, int64_t end) {
  const int last = w.ndim - 1;
  const int64_t rows = w.shape[last - 1], cols = w.shape[last];
  const int64_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (cols + kTile - 1) / kTile;
  const int64_t per_outer = row_tiles * col_tiles;
  char* ptrs[kMaxOperands];
  int64_t inner_strides[kMaxOperands];
  for (int k = 0; k < w.nops; ++k) inner_strides[k] = w.strides[k][last];
  for (int64_t t = begin; t < end; ++t) {
    const int64_t rt = (t % per_outer) / col_tiles, ct = t % col_tiles;
    char* base[kMaxOperands];
    outer_bases(w, t / per_outer, base);
    const int64_t r_end = std::min(rows, (rt + 1) * kTile);
    const int64_t c0 = ct * kTile, n = std::min(cols - c0, kTile);
    for (int64_t r = rt * kTile; r < r_end; ++r) {
      for (int k = 0; k < w.nops; ++k)
        ptrs[k] = base[k] + r * w.strides[k][last - 1] + c0 * w.strides[k][last];
      loop(ptrs, inner_strides, n);
    }
  }
}

// Note [Short inner dims]
// A walk whose inner dim is a handful of elements under a long outer one (repeat's (n, r)
// view with a stride-0 r, a column of pairs) would call the loop once per row, each call
// recomputing its pointers: 4.8 ms for repeat(x, 2) of 1e6 floats, where NumPy takes 0.74.
// Such walks run blocks of kColumnRows rows one column at a time instead: one loop call per
// column of a block, striding down it, while the block's lines stay in cache.
constexpr int64_t kShortInner = 8, kColumnRows = 256;

bool wants_columns(const Walk& w) {
  return w.ndim >= 2 && w.shape[w.ndim - 1] <= kShortInner &&
         w.shape[w.ndim - 2] >= 4 * kColumnRows;
}

// Runs row blocks [begin, end) of the last two dims column by column, for every index of the
// dims outside them.
void run_columns(LoopFn loop, const Walk& w, int64_t begin, int64_t end) {
  const int last = w.ndim - 1;
  const int64_t rows = w.shape[last - 1], cols = w.shape[last];
  const int64_t per_outer = (rows + kColumnRows - 1) / kColumnRows;
  char* ptrs[kMaxOperands];
  int64_t col_strides[kMaxOperands];
  for (int k = 0; k < w.nops; ++k) col_strides[k] = w.strides[k][last - 1];
  for (int64_t t = begin; t < end; ++t) {
    const int64_t r0 = (t % per_outer) * kColumnRows, n = std::min(rows - r0, kColumnRows);
    char* base[kMaxOperands];
    outer_bases(w, t / per_outer, base);
    for (int64_t c = 0; c < cols; ++c) {
      for (int k = 0; k < w.nops; ++k)
        ptrs[k] = base[k] + r0 * w.strides[k][last - 1] + c * w.strides[k][last];
      loop(ptrs, col_strides, n);
    }
  }
}

}  // namespace

void run_elementwise(LoopFn loop, const NdArray* const* operands, int nops,
                     double cost_per_element) {
  const NdArray& out = *operands[0];
  const int64_t n = out.numel();
  if (n == 0) return;
  // Small, all-contiguous operands (the common small-array case): one call, no walk.
  if (n < 2 * kBaseGrain) {
    bool contiguous = true;
    for (int k = 0; k < nops; ++k)
      contiguous = contiguous && operands[k]->shape == out.shape && operands[k]->is_c_contiguous();
    if (contiguous) {
      char* ptrs[kMaxOperands];
      int64_t strides[kMaxOperands];
      for (int k = 0; k < nops; ++k) {
        ptrs[k] = operands[k]->data();
        strides[k] = static_cast<int64_t>(operands[k]->itemsize());
      }
      loop(ptrs, strides, n);
      return;
    }
  }
  Walk w = make_walk(operands, nops);
  if (wants_tiles(w)) {
    const int last = w.ndim - 1;
    int64_t tiles = ((w.shape[last - 1] + kTile - 1) / kTile) * ((w.shape[last] + kTile - 1) / kTile);
    for (int d = 0; d < last - 1; ++d) tiles *= w.shape[d];
    // A tile is kTile^2 elements: the grain in tiles matching the elementwise grain.
    const int64_t tile_grain = std::max<int64_t>(
        1, static_cast<int64_t>(kBaseGrain / std::max(cost_per_element, 1e-3)) / (kTile * kTile));
    if (num_threads() <= 1 || tiles < 2 * tile_grain) {
      run_tiles(loop, w, 0, tiles);
    } else {
      parallel_for(tiles, tile_grain, [&](int64_t b, int64_t e) { run_tiles(loop, w, b, e); });
    }
    return;
  }
  const int64_t grain =
      std::max<int64_t>(1024, static_cast<int64_t>(kBaseGrain / std::max(cost_per_element, 1e-3)));
  if (wants_columns(w)) {
    const int last = w.ndim - 1;
    int64_t blocks = (w.shape[last - 1] + kColumnRows - 1) / kColumnRows;
    for (int d = 0; d < last - 1; ++d) blocks *= w.shape[d];
    const int64_t block_grain = std::max<int64_t>(1, grain / (kColumnRows * w.shape[last]));
    if (num_threads() <= 1 || blocks < 2 * block_grain) {
      run_columns(loop, w, 0, blocks);
    } else {
      parallel_for(blocks, block_grain, [&](int64_t b, int64_t e) { run_columns(loop, w, b, e); });
    }
    return;
  }
  if (n < 2 * grain || num_threads() <= 1) {
    run_range(loop, w, 0, n);
    return;
  }
  parallel_for(n, grain, [&](int64_t b, int64_t e) { run_range(loop, w, b, e); });
}

}  // namespace arraycore::native
