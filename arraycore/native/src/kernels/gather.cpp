// Gather/scatter and boolean-mask kernels (see Note [Advanced indexing layout] in gather.h).
//
// Elements are moved as raw bytes, so one loop per item size (1, 2, 4, 8, 16) serves all 13
// dtypes.  Index checks in gather are branch-free (an out-of-range index reads element 0 and
// sets a flag; the error is raised after the loop), which lets the common 1-D loop vectorize.
#include "gather.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "../errors.h"
#include "../thread_pool.h"

namespace arraycore::native {
namespace {

struct Elem16 {
  uint64_t lo, hi;
};

template <class F>
void visit_size(size_t n, F&& f) {
  switch (n) {
    case 1: f(uint8_t{}); return;
    case 2: f(uint16_t{}); return;
    case 4: f(uint32_t{}); return;
    case 8: f(uint64_t{}); return;
    default: f(Elem16{}); return;
  }
}

using Strides = std::vector<int64_t>;

// Drops size-1 dimensions and merges neighbours that every operand steps through as one.
void coalesce(Strides& shape, std::vector<Strides*> strides) {
  Strides s2;
  std::vector<Strides> st2(strides.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !s2.empty();
    for (size_t k = 0; merge && k < strides.size(); ++k)
      merge = st2[k].back() == (*strides[k])[d] * shape[d];
    if (merge) {
      s2.back() *= shape[d];
      for (size_t k = 0; k < strides.size(); ++k) st2[k].back() = (*strides[k])[d];
    } else {
      s2.push_back(shape[d]);
      for (size_t k = 0; k < strides.size(); ++k) st2[k].push_back((*strides[k])[d]);
    }
  }
  shape = std::move(s2);
  for (size_t k = 0; k < strides.size(); ++k) *strides[k] = std::move(st2[k]);
}

// Calls f(offs, n) for runs along the last dimension that cover the row-major linear indices
// [begin, end) of `shape`; offs[k] is operand k's element offset at the run's start (its
// step inside the run is strides[k].back()).  A 0-d shape is one run of length 1.
template <class F>
void walk(const Strides& shape, const std::vector<const Strides*>& strides, int64_t begin,
          int64_t end, F&& f) {
  const size_t K = strides.size();
  int64_t offs[72];
  const int nd = static_cast<int>(shape.size());
  if (nd == 0) {
    if (begin < end) {
      std::fill(offs, offs + K, 0);
      f(offs, int64_t{1});
    }
    return;
  }
  int64_t idx[64];
  int64_t rem = begin;
  for (int d = nd - 1; d >= 0; --d) {
    idx[d] = rem % shape[d];
    rem /= shape[d];
  }
  for (size_t k = 0; k < K; ++k) {
    offs[k] = 0;
    for (int d = 0; d < nd; ++d) offs[k] += idx[d] * (*strides[k])[d];
  }
  int64_t pos = begin;
  while (pos < end) {
    const int64_t n = std::min(shape[nd - 1] - idx[nd - 1], end - pos);
    f(static_cast<const int64_t*>(offs), n);
    pos += n;
    idx[nd - 1] += n;
    for (size_t k = 0; k < K; ++k) offs[k] += n * (*strides[k])[nd - 1];
    for (int d = nd - 1; d > 0 && idx[d] == shape[d]; --d) {
      for (size_t k = 0; k < K; ++k)
        offs[k] += (*strides[k])[d - 1] - idx[d] * (*strides[k])[d];
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

// Copies one block of the "rest" dimensions (already coalesced).
template <class T>
inline void copy_block(T* d, const T* s, const Strides& shape, const Strides& ds,
                       const Strides& ss) {
  const size_t nd = shape.size();
  if (nd == 0) {
    *d = *s;
    return;
  }
  if (nd == 1) {
    const int64_t n = shape[0], a = ds[0], b = ss[0];
    if (a == 1 && b == 1) {
      std::memcpy(d, s, n * sizeof(T));
    } else {
      for (int64_t i = 0; i < n; ++i) d[i * a] = s[i * b];
    }
    return;
  }
  std::vector<const Strides*> st = {&ds, &ss};
  walk(shape, st, 0, [&] {
    int64_t t = 1;
    for (int64_t x : shape) t *= x;
    return t;
  }(), [&](const int64_t* o, int64_t n) {
    const int64_t a = ds.back(), b = ss.back();
    T* dd = d + o[0];
    const T* sp = s + o[1];
    for (int64_t i = 0; i < n; ++i) dd[i * a] = sp[i * b];
  });
}

int64_t numel_of(const Strides& s) {
  int64_t n = 1;
  for (int64_t x : s) n *= x;
  return n;
}

// The common pieces of gather and scatter: B and R shapes with their strides.
struct Plan {
  int k = 0;
  Strides B;                   // index shape (coalesced)
  std::vector<Strides> bstr;   // strides over B: idx_0..idx_{k-1}, then the B+R array
  Strides R, rs, ro;           // rest shape, its strides in src/dst and in the B+R array
  int64_t axis_size[64];
  int64_t axis_stride[64];
  std::vector<const int64_t*> ip;
  int64_t nB = 0, nR = 0;
};

Plan make_plan(const NdArray& arr, const std::vector<int>& axes, const std::vector<NdArray>& idx,
               const NdArray& sub, const char* who) {
  Plan p;
  p.k = static_cast<int>(axes.size());
  if (p.k == 0 || p.k != static_cast<int>(idx.size()) || p.k > 64)
    throw ValueError(std::string(who) + ": bad advanced-index plan");
  std::vector<bool> adv(arr.ndim(), false);
  for (int i = 0; i < p.k; ++i) {
    const int a = axes[i];
    if (a < 0 || a >= arr.ndim() || adv[a])
      throw ValueError(std::string(who) + ": bad advanced-index axes");
    adv[a] = true;
    p.axis_size[i] = arr.shape[a];
    p.axis_stride[i] = arr.strides[a];
    if (idx[i].dtype != DType::Int64 || idx[i].shape != idx[0].shape)
      throw ValueError(std::string(who) + ": index arrays must be int64 of one shape");
    p.ip.push_back(reinterpret_cast<const int64_t*>(idx[i].data()));
  }
  const int nb = idx[0].ndim();
  if (sub.ndim() != nb + arr.ndim() - p.k)
    throw ValueError(std::string(who) + ": result has the wrong number of dimensions");
  int j = nb;
  for (int d = 0; d < arr.ndim(); ++d) {
    if (adv[d]) continue;
    if (sub.shape[j] != arr.shape[d])
      throw ValueError(std::string(who) + ": result has the wrong shape");
    p.R.push_back(arr.shape[d]);
    p.rs.push_back(arr.strides[d]);
    p.ro.push_back(sub.strides[j]);
    ++j;
  }
  p.B.assign(idx[0].shape.begin(), idx[0].shape.end());
  for (int i = 0; i < nb; ++i)
    if (sub.shape[i] != p.B[i]) throw ValueError(std::string(who) + ": result has the wrong shape");
  p.bstr.resize(p.k + 1);
  for (int i = 0; i < p.k; ++i) p.bstr[i].assign(idx[i].strides.begin(), idx[i].strides.end());
  p.bstr[p.k].assign(sub.strides.begin(), sub.strides.begin() + nb);
  p.nB = numel_of(p.B);
  p.nR = numel_of(p.R);
  std::vector<Strides*> bs;
  for (auto& s : p.bstr) bs.push_back(&s);
  coalesce(p.B, bs);
  coalesce(p.R, {&p.rs, &p.ro});
  return p;
}

std::vector<const Strides*> ptrs(const std::vector<Strides>& v) {
  std::vector<const Strides*> out;
  for (const auto& s : v) out.push_back(&s);
  return out;
}

// Raises IndexError for the first out-of-range index (row-major order), if any.
void check_indices(const Plan& p, const std::vector<int>& axes, const char* who) {
  for (int i = 0; i < p.k; ++i) {
    std::vector<const Strides*> st = {&p.bstr[i]};
    const int64_t n = p.axis_size[i];
    const int64_t* ip = p.ip[i];
    bool found = false;
    int64_t bad = 0;
    walk(p.B, st, 0, p.nB, [&](const int64_t* o, int64_t len) {
      if (found) return;
      const int64_t s = p.bstr[i].empty() ? 0 : p.bstr[i].back();
      const int64_t* q = ip + o[0];
      bool any = false;
      for (int64_t j = 0; j < len; ++j) {
        const int64_t v = q[j * s];
        any |= (v < -n) | (v >= n);
      }
      if (!any) return;
      for (int64_t j = 0; j < len; ++j) {
        const int64_t v = q[j * s];
        if (v < -n || v >= n) {
          found = true;
          bad = v;
          return;
        }
      }
    });
    if (found)
      throw IndexError(std::string(who) + ": index " + std::to_string(bad) +
                       " is out of bounds for axis " + std::to_string(axes[i]) + " with size " +
                       std::to_string(n));
  }
}

constexpr int64_t kTile = 256;

// The loop of take on contiguous data, per block of 256: a vectorized pass checks that every
// index is in [0, na), and such blocks load with plain scalar loads (vector gathers are
// slower than scalar loads on the CPUs we measured); blocks with a negative or out-of-range
// index take the checked loop, where an out-of-range index reads element 0 and sets the flag.
// (The checked loop everywhere, whose select made each load's address wait on a compare, with
// a software prefetch to make up for it, measured 1.2-1.7x the time: 1e6 float32 from 1e5,
// 615 -> 400 us.)
template <class T>
bool gather_contiguous(T* __restrict op, const T* __restrict s, const int64_t* __restrict q,
                       int64_t n, int64_t na) {
  constexpr int64_t kBlock = 256;
  bool b = false;
  for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
    const int64_t m = std::min(kBlock, n - j0);
    const int64_t* qb = q + j0;
    T* ob = op + j0;
    int outside = 0;
    for (int64_t j = 0; j < m; ++j)
      outside |= static_cast<uint64_t>(qb[j]) >= static_cast<uint64_t>(na) ? 1 : 0;
    if (!outside) {
#pragma GCC unroll 4
      for (int64_t j = 0; j < m; ++j) ob[j] = s[qb[j]];
      continue;
    }
    for (int64_t j = 0; j < m; ++j) {
      int64_t v = qb[j];
      v += v < 0 ? na : 0;
      const bool e = static_cast<uint64_t>(v) >= static_cast<uint64_t>(na);
      b |= e;
      ob[j] = s[e ? 0 : v];
    }
  }
  return b;
}

// Element offsets into the indexed array for the `len` positions of B from t0 on, in a run
// whose index arrays start at offs; returns false when an index is out of range (its offset
// is then 0).
inline bool tile_offsets(const Plan& p, const int64_t* offs, int64_t t0, int64_t len,
                         int64_t* off) {
  bool bad = false;
  for (int64_t j = 0; j < len; ++j) off[j] = 0;
  for (int i = 0; i < p.k; ++i) {
    const int64_t s = p.bstr[i].empty() ? 0 : p.bstr[i].back();
    const int64_t* q = p.ip[i] + offs[i] + t0 * s;
    const int64_t n = p.axis_size[i], st = p.axis_stride[i];
    for (int64_t j = 0; j < len; ++j) {
      int64_t v = q[j * s];
      v += v < 0 ? n : 0;
      const bool b = static_cast<uint64_t>(v) >= static_cast<uint64_t>(n);
      bad |= b;
      off[j] += (b ? 0 : v) * st;
    }
  }
  return !bad;
}

template <class T>
void gather_typed(const NdArray& src, const Plan& p, const NdArray& out,
                  std::atomic<bool>& bad_flag) {
  const T* s = reinterpret_cast<const T*>(src.data());
  T* o = reinterpret_cast<T*>(out.data());
  // Any index into an empty axis is out of range; the loops below would read element 0 of
  // the (empty) source before reporting it.
  for (int i = 0; i < p.k; ++i)
    if (p.axis_size[i] == 0 && p.nB > 0) {
      bad_flag = true;
      return;
    }
  const auto st = ptrs(p.bstr);
  const int64_t grain = std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(1, p.nR));
  const int k = p.k;
  parallel_for(p.nB, grain, [&](int64_t b0, int64_t b1) {
    bool bad = false;
    walk(p.B, st, b0, b1, [&](const int64_t* offs, int64_t n) {
      const int64_t os = p.bstr[k].empty() ? 0 : p.bstr[k].back();
      T* op = o + offs[k];
      if (k == 1 && p.R.empty()) {
        // The hot loop of take / x[int_array] on 1-D data.
        const int64_t is = p.bstr[0].empty() ? 0 : p.bstr[0].back();
        const int64_t* q = p.ip[0] + offs[0];
        const int64_t na = p.axis_size[0], sa = p.axis_stride[0];
        bool b = false;
        if (is == 1 && os == 1 && sa == 1) {
          b = gather_contiguous(op, s, q, n, na);
        } else {
          for (int64_t j = 0; j < n; ++j) {
            int64_t v = q[j * is];
            v += v < 0 ? na : 0;
            const bool e = static_cast<uint64_t>(v) >= static_cast<uint64_t>(na);
            b |= e;
            op[j * os] = s[(e ? 0 : v) * sa];
          }
        }
        bad |= b;
        return;
      }
      int64_t off[kTile];
      for (int64_t t0 = 0; t0 < n; t0 += kTile) {
        const int64_t len = std::min(kTile, n - t0);
        bad |= !tile_offsets(p, offs, t0, len, off);
        T* ot = op + t0 * os;
        if (p.R.empty()) {
          for (int64_t j = 0; j < len; ++j) ot[j * os] = s[off[j]];
        } else {
          for (int64_t j = 0; j < len; ++j) copy_block(ot + j * os, s + off[j], p.R, p.ro, p.rs);
        }
      }
    });
    if (bad) bad_flag.store(true, std::memory_order_relaxed);
  });
}

template <class T>
void scatter_typed(const NdArray& dst, const Plan& p, const NdArray& values) {
  T* d = reinterpret_cast<T*>(dst.data());
  const T* v = reinterpret_cast<const T*>(values.data());
  const auto st = ptrs(p.bstr);
  const int k = p.k;
  // Serial, in row-major order of B: a repeated index keeps the last value (as NumPy).
  walk(p.B, st, 0, p.nB, [&](const int64_t* offs, int64_t n) {
    const int64_t vs = p.bstr[k].empty() ? 0 : p.bstr[k].back();
    int64_t off[kTile];
    for (int64_t t0 = 0; t0 < n; t0 += kTile) {
      const int64_t len = std::min(kTile, n - t0);
      tile_offsets(p, offs, t0, len, off);
      const T* vt = v + offs[k] + t0 * vs;
      if (p.R.empty()) {
        for (int64_t j = 0; j < len; ++j) d[off[j]] = vt[j * vs];
      } else {
        for (int64_t j = 0; j < len; ++j) copy_block(d + off[j], vt + j * vs, p.R, p.rs, p.ro);
      }
    }
  });
}

// The mask's shape and the strides of the mask and of the other array's leading dims.
struct MaskPlan {
  Strides shape, ms, xs;  // coalesced
  Strides R, rx, ry;      // rest of the masked array, and of the (nnz,)+R array
  int64_t ystep = 0;      // stride of the (nnz,)+R array along its first axis
  int64_t n = 0, nR = 0;
};

MaskPlan make_mask_plan(const NdArray& x, const NdArray& mask, const NdArray& y, const char* who) {
  MaskPlan p;
  const int md = mask.ndim();
  if (mask.dtype != DType::Bool || x.ndim() < md || y.ndim() != x.ndim() - md + 1)
    throw ValueError(std::string(who) + ": bad mask plan");
  for (int d = 0; d < md; ++d) {
    if (x.shape[d] != mask.shape[d])
      throw IndexError(std::string(who) + ": boolean index did not match the indexed array "
                       "along axis " + std::to_string(d) + "; size of axis is " +
                       std::to_string(x.shape[d]) + " but size of the boolean axis is " +
                       std::to_string(mask.shape[d]));
    p.shape.push_back(mask.shape[d]);
    p.ms.push_back(mask.strides[d]);
    p.xs.push_back(x.strides[d]);
  }
  for (int d = md; d < x.ndim(); ++d) {
    p.R.push_back(x.shape[d]);
    p.rx.push_back(x.strides[d]);
    p.ry.push_back(y.strides[d - md + 1]);
  }
  p.ystep = y.strides[0];
  p.n = numel_of(p.shape);
  p.nR = numel_of(p.R);
  coalesce(p.shape, {&p.ms, &p.xs});
  coalesce(p.R, {&p.rx, &p.ry});
  return p;
}

// Counts of true elements per chunk of the mask (linear row-major chunks of `chunk`).
std::vector<int64_t> chunk_counts(const bool* m, const MaskPlan& p, int64_t chunk) {
  const int64_t nchunks = (p.n + chunk - 1) / chunk;
  std::vector<int64_t> counts(nchunks, 0);
  std::vector<const Strides*> st = {&p.ms};
  parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t cnt = 0;
      walk(p.shape, st, c * chunk, std::min(p.n, (c + 1) * chunk),
           [&](const int64_t* o, int64_t n) {
             const bool* q = m + o[0];
             const int64_t s = p.ms.empty() ? 0 : p.ms.back();
             int64_t t = 0;
             if (s == 1) {
               const uint8_t* u = reinterpret_cast<const uint8_t*>(q);
               for (int64_t j = 0; j < n; ++j) t += u[j] != 0;
             } else {
               for (int64_t j = 0; j < n; ++j) t += q[j * s];
             }
             cnt += t;
           });
      counts[c] = cnt;
    }
  });
  return counts;
}

int64_t mask_chunk(const MaskPlan& p) {
  const int64_t per = std::max<int64_t>(1 << 16, p.n / (4 * std::max(1, num_threads())));
  return std::max<int64_t>(1, per / std::max<int64_t>(1, p.nR));
}

template <class T, bool kSelect>
void mask_move(const NdArray& x, const NdArray& mask, const NdArray& y, const MaskPlan& p) {
  const bool* m = reinterpret_cast<const bool*>(mask.data());
  T* xp = reinterpret_cast<T*>(x.data());
  T* yp = reinterpret_cast<T*>(y.data());
  const int64_t chunk = mask_chunk(p);
  std::vector<int64_t> start = chunk_counts(m, p, chunk);
  int64_t acc = 0;
  for (auto& c : start) {
    const int64_t t = c;
    c = acc;
    acc += t;
  }
  std::vector<const Strides*> st = {&p.ms, &p.xs};
  const int64_t nchunks = static_cast<int64_t>(start.size());
  parallel_for(nchunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      int64_t cnt = start[c];
      const int64_t limit = c + 1 < nchunks ? start[c + 1] : acc;
      walk(p.shape, st, c * chunk, std::min(p.n, (c + 1) * chunk),
           [&](const int64_t* o, int64_t n) {
             if (cnt == limit) return;
             const bool* q = m + o[0];
             T* xq = xp + o[1];
             const int64_t ms = p.ms.empty() ? 0 : p.ms.back();
             const int64_t xs = p.xs.empty() ? 0 : p.xs.back();
             if (!kSelect && p.R.empty() && p.ystep == 0) {
               // x[mask] = scalar: a blend, no counter; vectorizes when contiguous.
               const uint8_t* u = reinterpret_cast<const uint8_t*>(q);
               const T val = yp[0];
               if (ms == 1 && xs == 1) {
                 for (int64_t j = 0; j < n; ++j) xq[j] = u[j] ? val : xq[j];
               } else {
                 for (int64_t j = 0; j < n; ++j)
                   if (u[j * ms]) xq[j * xs] = val;
               }
               return;
             }
             if (kSelect && p.R.empty() && p.ystep == 1) {
               // Branch-free compaction: always store, advance on true.  Stops once every
               // true element of the chunk is placed, so it never writes past the chunk.
               const uint8_t* u = reinterpret_cast<const uint8_t*>(q);
               int64_t j = 0;
               for (; j < n && limit - cnt > 8; ++j) {
                 yp[cnt] = xq[j * xs];
                 cnt += u[j * ms] != 0;
               }
               for (; j < n && cnt < limit; ++j)
                 if (u[j * ms]) yp[cnt++] = xq[j * xs];
               return;
             }
             for (int64_t j = 0; j < n; ++j) {
               if (!q[j * ms]) continue;
               T* a = xq + j * xs;
               T* b = yp + cnt * p.ystep;
               if (p.R.empty()) {
                 if (kSelect) *b = *a; else *a = *b;
               } else {
                 if (kSelect) copy_block(b, a, p.R, p.ry, p.rx);
                 else copy_block(a, b, p.R, p.rx, p.ry);
               }
               ++cnt;
             }
           });
    }
  });
}

}  // namespace

void gather(const NdArray& src, const std::vector<int>& axes, const std::vector<NdArray>& idx,
            const NdArray& out, const char* who) {
  if (out.dtype != src.dtype) throw ValueError(std::string(who) + ": dtype mismatch");
  Plan p = make_plan(src, axes, idx, out, who);
  if (p.nB == 0) return;
  if (p.nR == 0) {
    check_indices(p, axes, who);
    return;
  }
  std::atomic<bool> bad{false};
  visit_size(src.itemsize(), [&](auto t) { gather_typed<decltype(t)>(src, p, out, bad); });
  if (bad.load()) check_indices(p, axes, who);
}

void scatter(const NdArray& dst, const std::vector<int>& axes, const std::vector<NdArray>& idx,
             const NdArray& values, const char* who) {
  if (values.dtype != dst.dtype) throw ValueError(std::string(who) + ": dtype mismatch");
  if (!dst.writeable()) throw ValueError(std::string(who) + ": assignment destination is read-only");
  Plan p = make_plan(dst, axes, idx, values, who);
  if (p.nB == 0) return;
  check_indices(p, axes, who);
  if (p.nR == 0) return;
  visit_size(dst.itemsize(), [&](auto t) { scatter_typed<decltype(t)>(dst, p, values); });
}

int64_t count_true(const NdArray& mask) {
  MaskPlan p = make_mask_plan(mask, mask, empty({1}, DType::Bool), "count_true");
  if (p.n == 0) return 0;
  int64_t total = 0;
  for (int64_t c : chunk_counts(reinterpret_cast<const bool*>(mask.data()), p, mask_chunk(p)))
    total += c;
  return total;
}

void mask_select(const NdArray& src, const NdArray& mask, const NdArray& out) {
  MaskPlan p = make_mask_plan(src, mask, out, "__getitem__");
  if (p.n == 0 || p.nR == 0) return;
  visit_size(src.itemsize(), [&](auto t) { mask_move<decltype(t), true>(src, mask, out, p); });
}

void mask_assign(const NdArray& dst, const NdArray& mask, const NdArray& values) {
  if (!dst.writeable()) throw ValueError("__setitem__: assignment destination is read-only");
  MaskPlan p = make_mask_plan(dst, mask, values, "__setitem__");
  if (p.n == 0 || p.nR == 0) return;
  visit_size(dst.itemsize(), [&](auto t) { mask_move<decltype(t), false>(dst, mask, values, p); });
}

std::vector<NdArray> mask_nonzero(const NdArray& mask) {
  const int nd = mask.ndim();
  const int64_t nnz = count_true(mask);
  std::vector<NdArray> out;
  std::vector<int64_t*> op;
  for (int d = 0; d < nd; ++d) {
    out.push_back(empty({nnz}, DType::Int64));
    op.push_back(reinterpret_cast<int64_t*>(out.back().data()));
  }
  if (nnz == 0 || nd == 0) return out;
  Strides shape(mask.shape.begin(), mask.shape.end());
  Strides ms(mask.strides.begin(), mask.strides.end());
  std::vector<const Strides*> st = {&ms};
  const bool* m = reinterpret_cast<const bool*>(mask.data());
  int64_t coord[64] = {0};
  int64_t cnt = 0;
  walk(shape, st, 0, numel_of(shape), [&](const int64_t* o, int64_t n) {
    const bool* q = m + o[0];
    const int64_t s = ms.back();
    for (int64_t j = 0; j < n; ++j) {
      if (!q[j * s]) continue;
      for (int d = 0; d < nd - 1; ++d) op[d][cnt] = coord[d];
      op[nd - 1][cnt] = coord[nd - 1] + j;
      ++cnt;
    }
    coord[nd - 1] += n;
    for (int d = nd - 1; d > 0 && coord[d] == shape[d]; --d) {
      coord[d] = 0;
      ++coord[d - 1];
    }
  });
  return out;
}

}  // namespace arraycore::native
