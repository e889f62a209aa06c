// cumulative_sum / cumulative_prod.
//
// A running sum is a chain of dependent adds: one element per add latency (3-4 cycles) when
// written as a loop.  Contiguous lines are scanned in blocks of 8 x 512 elements whose 8
// segments are scanned as independent chains in one loop, then the later segments get the
// earlier segments' totals added (a vectorized pass over a block still in L1).  Scans along a
// non-innermost axis add whole rows (out[i, :] = out[i-1, :] + x[i, :], vectorized).
// The input is made row-major in the accumulator dtype first (int64/uint64 for integers).
#include <algorithm>
#include <cstring>
#include <string>

#include "../errors.h"
#include "../reductions.h"
#include "../thread_pool.h"
#include "kernel_loops.h"
#include "reduce_loops.h"

namespace arraycore::native {
namespace {
using reduce_detail::ProdOp;
using reduce_detail::SumOp;

constexpr int kChains = 8;
constexpr int64_t kChainLen = 512;

template <class Op, class T>
void line_scan(const T* in, T* out, int64_t m, bool include_initial) {
  const T id = Op::template identity<T>();
  if (include_initial) *out++ = id;
  T carry = id;
  int64_t i = 0;
  constexpr int64_t B = kChains * kChainLen;
  for (; i + B <= m; i += B) {
    T c[kChains];
    for (int k = 0; k < kChains; ++k) c[k] = id;
    c[0] = carry;
    const T* p = in + i;
    T* o = out + i;
    for (int64_t j = 0; j < kChainLen; ++j)
      for (int k = 0; k < kChains; ++k) {
        c[k] = Op::f(c[k], p[k * kChainLen + j]);
        o[k * kChainLen + j] = c[k];
      }
    T off = c[0];
    for (int k = 1; k < kChains; ++k) {
      T* ok = o + k * kChainLen;
      for (int64_t j = 0; j < kChainLen; ++j) ok[j] = Op::f(off, ok[j]);
      off = Op::f(off, c[k]);
    }
    carry = off;
  }
  for (; i < m; ++i) {
    carry = Op::f(carry, in[i]);
    out[i] = carry;
  }
}

// Columns [c0, c1) of an (m x inner) row-major block; out has m (+1) rows.
template <class Op, class T>
void row_scan(const T* in, T* out, int64_t m, int64_t inner, int64_t c0, int64_t c1,
              bool include_initial) {
  const T id = Op::template identity<T>();
  if (include_initial) {
    for (int64_t j = c0; j < c1; ++j) out[j] = id;
    out += inner;
  }
  if (m == 0) return;  // an empty axis has no first row to copy (out has only the initial row)
  for (int64_t j = c0; j < c1; ++j) out[j] = in[j];
  for (int64_t i = 1; i < m; ++i) {
    const T* prev = out + (i - 1) * inner;
    const T* x = in + i * inner;
    T* o = out + i * inner;
    for (int64_t j = c0; j < c1; ++j) o[j] = Op::f(prev[j], x[j]);
  }
}

using LineFn = void (*)(const char*, char*, int64_t, bool);
using RowFn = void (*)(const char*, char*, int64_t, int64_t, int64_t, int64_t, bool);

struct ScanLoops {
  LineFn line = nullptr;
  RowFn rows = nullptr;
};

template <class Op, class T>
ScanLoops scan_loops() {
  ScanLoops s;
  s.line = [](const char* in, char* out, int64_t m, bool ii) {
    line_scan<Op, T>(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), m, ii);
  };
  s.rows = [](const char* in, char* out, int64_t m, int64_t inner, int64_t c0, int64_t c1,
              bool ii) {
    row_scan<Op, T>(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), m, inner, c0, c1,
                    ii);
  };
  return s;
}

ScanLoops g_scan[2][kNumDTypes];

template <class... Ts>
void register_scans(TypeList<Ts...>) {
  ((g_scan[0][dtype_index(dtype_of<Ts>)] = scan_loops<SumOp, Ts>()), ...);
  ((g_scan[1][dtype_index(dtype_of<Ts>)] = scan_loops<ProdOp, Ts>()), ...);
}

}  // namespace

AC_REGISTER_KERNELS(cumulative) {
  register_scans(TypeList<int64_t, uint64_t, float, double, c64, c128>{});
}

NdArray cumulative(ReduceOp op, const NdArray& a_in, int axis, bool include_initial,
                   DType out_dtype, const char* who) {
  if (op != ReduceOp::Sum && op != ReduceOp::Prod)
    throw ValueError(std::string(who) + ": only sum and product scans exist");
  const int nd = a_in.ndim();
  if (axis < 0 || axis >= nd) throw ValueError(std::string(who) + ": invalid axis");
  const DType acc = accumulator_dtype(out_dtype);
  NdArray a = a_in;
  const bool a_int = a.dtype != DType::Float32 && a.dtype != DType::Float64 &&
                     a.dtype != DType::Complex64 && a.dtype != DType::Complex128;
  if (!a_int && a.dtype != out_dtype) a = astype(a, out_dtype);  // elements cast to dtype first
  if (a.dtype != acc) a = astype(a, acc);
  a = contiguous(a);
  const ScanLoops& S = g_scan[op == ReduceOp::Sum ? 0 : 1][dtype_index(acc)];
  if (!S.line) throw TypeError(std::string(who) + ": unsupported dtype");
  Shape out_shape = a.shape;
  out_shape[axis] += include_initial ? 1 : 0;
  NdArray out = empty(out_shape, acc);
  int64_t outer = 1, inner = 1;
  const int64_t m = a.shape[axis];
  for (int i = 0; i < axis; ++i) outer *= a.shape[i];
  for (int i = axis + 1; i < nd; ++i) inner *= a.shape[i];
  const int64_t isz = static_cast<int64_t>(itemsize(acc));
  const int64_t mo = out_shape[axis];
  if (out.numel() > 0) {
    const char* in = a.data();
    char* o = out.data();
    const int64_t total = a.numel();
    const bool par = total >= (1 << 17) && num_threads() > 1;
    if (inner == 1) {
      auto body = [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) S.line(in + r * m * isz, o + r * mo * isz, m, include_initial);
      };
      if (par && outer > 1)
        parallel_for(outer, std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(1, m)), body);
      else
        body(0, outer);
    } else {
      constexpr int64_t W = 1024;
      const int64_t tiles = (inner + W - 1) / W;
      auto body = [&](int64_t b, int64_t e) {
        for (int64_t it = b; it < e; ++it) {
          const int64_t r = it / tiles, t = it % tiles;
          S.rows(in + r * m * inner * isz, o + r * mo * inner * isz, m, inner, t * W,
                 std::min(inner, (t + 1) * W), include_initial);
        }
      };
      const int64_t items = outer * tiles;
      if (par && items > 1)
        parallel_for(items, std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(1, m * W)), body);
      else
        body(0, items);
    }
  }
  if (out.dtype != out_dtype) out = astype(out, out_dtype);
  return out;
}

}  // namespace arraycore::native
