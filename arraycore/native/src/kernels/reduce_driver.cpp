// The reduction driver: see Note [The reduction driver] in reductions.h.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../errors.h"
#include "../op_registry.h"
#include "../reductions.h"
#include "../thread_pool.h"

namespace arraycore::native {

ReduceRegistry& ReduceRegistry::instance() {
  static ReduceRegistry* r = new ReduceRegistry();  // never destroyed (static-init safe)
  return *r;
}

void ReduceRegistry::set(ReduceOp op, DType in, DType acc, const ReduceLoops& loops) {
  table_[static_cast<int>(op)][dtype_index(in)][dtype_index(acc)] = loops;
}

const ReduceLoops* ReduceRegistry::find(ReduceOp op, DType in, DType acc) const {
  const ReduceLoops& l = table_[static_cast<int>(op)][dtype_index(in)][dtype_index(acc)];
  return l.line ? &l : nullptr;
}

DType accumulator_dtype(DType out) {
  switch (out) {
    case DType::Bool: case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64:
      return DType::Int64;
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
      return DType::UInt64;
    default:
      return out;
  }
}

namespace {

constexpr int64_t kGrain = 1 << 16;     // elements of work below which the pool is not used
constexpr int64_t kSegment = 1 << 16;   // elements per segment of one output's reduction
constexpr int64_t kTileBytes = 32768;    // accumulator bytes of an outer-reduction tile
constexpr int64_t kRowBlock = 128;      // rows per block of blocked float sums
constexpr int kMaxDims = 64;

struct Dim {
  int64_t n, is, os;  // length, input byte stride, output byte stride (0 when reduced)
  bool red;
};

// A set of dims walked as one linear index (last dim fastest).
struct Group {
  int nd = 0;
  int64_t n[kMaxDims], is[kMaxDims], os[kMaxDims];
  int64_t size() const {
    int64_t s = 1;
    for (int d = 0; d < nd; ++d) s *= n[d];
    return s;
  }
  void add(const Dim& x) {
    n[nd] = x.n;
    is[nd] = x.is;
    os[nd] = x.os;
    ++nd;
  }
  void offsets(int64_t lin, int64_t* in_off, int64_t* out_off) const {
    int64_t io = 0, oo = 0;
    for (int d = nd - 1; d >= 0; --d) {
      int64_t i = lin % n[d];
      lin /= n[d];
      io += i * is[d];
      oo += i * os[d];
    }
    *in_off = io;
    if (out_off) *out_off = oo;
  }
};


template <class F>
void run_items(int64_t items, int64_t work_per_item, int64_t total_work, const F& fn) {
  if (items >= 2 && total_work >= 2 * kGrain && num_threads() > 1) {
    const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(1, work_per_item));
    parallel_for(items, grain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) fn(i);
    });
  } else {
    for (int64_t i = 0; i < items; ++i) fn(i);
  }
}

void reduce_into(const ReduceLoops& L, const NdArray& a, const NdArray& out,
                 const std::vector<bool>& reduced, const Shape& out_axis_stride, size_t accsz) {
  const int64_t isz = static_cast<int64_t>(a.itemsize());
  Dim dims[kMaxDims];
  int nd = 0;
  for (int i = 0; i < a.ndim(); ++i) {
    if (a.shape[i] == 1) continue;
    dims[nd++] = Dim{a.shape[i], a.strides[i] * isz,
                     reduced[i] ? 0 : out_axis_stride[i] * static_cast<int64_t>(accsz),
                     static_cast<bool>(reduced[i])};
  }
  // Outermost first; stride-0 (broadcast) dims count as the largest.
  auto key = [](const Dim& d) {
    return d.is == 0 ? std::numeric_limits<int64_t>::max() : std::llabs(d.is);
  };
  std::stable_sort(dims, dims + nd, [&](const Dim& x, const Dim& y) { return key(x) > key(y); });
  int m = 0;
  for (int i = 0; i < nd; ++i) {
    if (m > 0) {
      Dim& p = dims[m - 1];
      const Dim& c = dims[i];
      if (p.red == c.red && p.is == c.is * c.n && p.os == c.os * c.n) {
        p.n *= c.n;
        p.is = c.is;
        p.os = c.os;
        continue;
      }
    }
    dims[m++] = dims[i];
  }
  nd = m;
  const char* in_base = a.data();
  char* out_base = out.data();
  const int64_t total = a.numel();

  if (dims[nd - 1].red) {
    // Inner reduction: lines along the last dim.
    const Dim line = dims[nd - 1];
    Group kept, rest;
    for (int d = 0; d < nd - 1; ++d) (dims[d].red ? rest : kept).add(dims[d]);
    const int64_t nkept = kept.size(), nlines = rest.size();
    int64_t nseg, per_seg;  // per_seg: elements of the line (no rest) or lines (with rest)
    if (rest.nd == 0) {
      per_seg = kSegment;
      nseg = (line.n + kSegment - 1) / kSegment;
    } else {
      per_seg = std::max<int64_t>(1, kSegment / line.n);
      nseg = (nlines + per_seg - 1) / per_seg;
    }
    std::vector<char> partials(nseg > 1 ? static_cast<size_t>(nkept * nseg) * accsz : 0);
    auto item = [&](int64_t it) {
      const int64_t k = it / nseg, s = it % nseg;
      int64_t ioff, ooff;
      kept.offsets(k, &ioff, &ooff);
      alignas(16) char acc[16];
      L.fill(acc, 1);
      const char* base = in_base + ioff;
      if (rest.nd == 0) {
        const int64_t b = s * per_seg, e = std::min(line.n, b + per_seg);
        L.line(acc, base + b * line.is, line.is, e - b);
      } else {
        const int64_t b = s * per_seg, e = std::min(nlines, b + per_seg);
        for (int64_t j = b; j < e; ++j) {
          int64_t roff;
          rest.offsets(j, &roff, nullptr);
          L.line(acc, base + roff, line.is, line.n);
        }
      }
      if (nseg == 1)
        L.store(out_base + ooff, 0, acc, 1);
      else
        std::memcpy(partials.data() + static_cast<size_t>(it) * accsz, acc, accsz);
    };
    run_items(nkept * nseg, total / std::max<int64_t>(1, nkept * nseg), total, item);
    if (nseg > 1) {
      for (int64_t k = 0; k < nkept; ++k) {
        char* p = partials.data() + static_cast<size_t>(k * nseg) * accsz;
        for (int64_t w = 1; w < nseg; w *= 2)
          for (int64_t i = 0; i + w < nseg; i += 2 * w)
            L.combine(p + i * accsz, p + (i + w) * accsz, 1);
        int64_t ioff, ooff;
        kept.offsets(k, &ioff, &ooff);
        L.store(out_base + ooff, 0, p, 1);
      }
    }
    return;
  }

  // Outer reduction: rows along the last (kept) dim, accumulated into output tiles.
  const Dim inner = dims[nd - 1];
  Group kept, red;
  for (int d = 0; d < nd - 1; ++d) (dims[d].red ? red : kept).add(dims[d]);
  const int64_t nkept = kept.size(), nrows = red.size();
  const int64_t kTileW = kTileBytes / static_cast<int64_t>(accsz);
  const int64_t ntiles = (inner.n + kTileW - 1) / kTileW;
  auto item = [&](int64_t it) {
    const int64_t k = it / ntiles, t = it % ntiles;
    const int64_t c0 = t * kTileW, w = std::min(kTileW, inner.n - c0);
    int64_t ioff, ooff;
    kept.offsets(k, &ioff, &ooff);
    std::vector<char> buf(static_cast<size_t>(w) * accsz * (L.block_rows ? 2 : 1) + 64);
    char* acc = buf.data();
    char* blk = L.block_rows ? acc + static_cast<size_t>(w) * accsz : acc;
    L.fill(acc, w);
    if (L.block_rows) L.fill(blk, w);
    const char* base = in_base + ioff + c0 * inner.is;
    int64_t idx[kMaxDims] = {0};
    int64_t roff = 0, cnt = 0;
    const int dl = red.nd - 1;  // the innermost reduced dim
    for (int64_t r = 0; r < nrows;) {
      // Four rows at once where the innermost reduced dim has them (and a row block does
      // not end inside them).
      int64_t step = 1;
      if (dl >= 0 && idx[dl] + 4 <= red.n[dl] && (!L.block_rows || cnt + 4 <= kRowBlock)) {
        L.rows4(blk, base + roff, inner.is, w, red.is[dl]);
        step = 4;
      } else {
        L.row(blk, base + roff, inner.is, w);
      }
      r += step;
      cnt += step;
      if (L.block_rows && cnt == kRowBlock) {
        L.combine(acc, blk, w);
        L.fill(blk, w);
        cnt = 0;
      }
      if (dl < 0) continue;
      // Odometer step by `step` rows (which stay inside the innermost dim), then carries.
      roff += red.is[dl] * step;
      idx[dl] += step;
      for (int d = dl; d >= 0 && idx[d] == red.n[d]; --d) {
        roff -= red.is[d] * red.n[d];
        idx[d] = 0;
        if (d > 0) {
          roff += red.is[d - 1];
          ++idx[d - 1];
        }
      }
    }
    if (L.block_rows && cnt) L.combine(acc, blk, w);
    L.store(out_base + ooff + c0 * inner.os, inner.os, acc, w);
  };
  run_items(nkept * ntiles, total / std::max<int64_t>(1, nkept * ntiles), total, item);
}

}  // namespace

NdArray reduce(ReduceOp op, const NdArray& a_in, const std::vector<int>& axes, bool keepdims,
               DType out_dtype, const char* who) {
  const int nd = a_in.ndim();
  std::vector<bool> reduced(nd, false);
  for (int ax : axes) {
    if (ax < 0 || ax >= nd || reduced[ax])
      throw ValueError(std::string(who) + ": invalid or repeated axis " + std::to_string(ax));
    reduced[ax] = true;
  }
  NdArray a = a_in;
  DType acc;
  if (op == ReduceOp::Sum || op == ReduceOp::Prod) {
    acc = accumulator_dtype(out_dtype);
    if (!ReduceRegistry::instance().find(op, a.dtype, acc)) {
      if (a.dtype != out_dtype) a = astype(a, out_dtype);  // elements cast to dtype first
      if (!ReduceRegistry::instance().find(op, a.dtype, acc)) a = astype(a, acc);
    }
  } else if (op == ReduceOp::Max || op == ReduceOp::Min) {
    acc = a.dtype;
    if (out_dtype != a.dtype) throw TypeError(std::string(who) + ": result dtype mismatch");
  } else {
    acc = DType::Bool;
  }
  const ReduceLoops* L = ReduceRegistry::instance().find(op, a.dtype, acc);
  if (!L)
    throw TypeError(std::string(who) + ": unsupported input dtype " + dtype_name(a_in.dtype));

  Shape out_shape, out_axis_stride(nd, 0);
  for (int i = 0; i < nd; ++i)
    if (!reduced[i] || keepdims) out_shape.push_back(reduced[i] ? 1 : a.shape[i]);
  NdArray out = empty(out_shape, acc);
  {
    int j = 0;
    for (int i = 0; i < nd; ++i) {
      if (!reduced[i] || keepdims) {
        out_axis_stride[i] = reduced[i] ? 0 : out.strides[j];
        ++j;
      }
    }
  }
  const int64_t nout = out.numel();
  int64_t nred = 1;
  bool any_reduced_dim = false;
  for (int i = 0; i < nd; ++i)
    if (reduced[i]) {
      nred *= a.shape[i];
      any_reduced_dim = any_reduced_dim || a.shape[i] != 1;
    }
  if (nout == 0) {
    // nothing to compute
  } else if (nred == 0) {
    if (op == ReduceOp::Max || op == ReduceOp::Min)
      throw ValueError(std::string(who) +
                       ": zero-size reduction has no identity (the reduced axes are empty)");
    L->fill(out.data(), nout);
  } else if (!any_reduced_dim) {
    NdArray view = out;  // out seen with a's shape: a cast copy
    view.shape = a.shape;
    view.strides = out_axis_stride;
    copy_into(view, a);  // casts (to bool: truth values for all/any)
  } else {
    reduce_into(*L, a, out, reduced, out_axis_stride, itemsize(acc));
  }
  if (out.dtype != out_dtype) out = astype(out, out_dtype);
  return out;
}

}  // namespace arraycore::native
