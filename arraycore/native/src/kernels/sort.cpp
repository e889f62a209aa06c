// L0: sort and argsort along an axis.
//
// Note [Radix sort]
// `sort` of 4- and 8-byte values, and `argsort` of 32-bit keys (as key << 32 | index words),
// go to the vector quicksort (Note [Vectorized quicksort], vector_quicksort.h; its instruction
// set per call: Note [Sort ISA], vector_sort.h).  Everything else real or integer (argsort of
// 8-, 16- and 64-bit keys, sort of 1- and 2-byte values, builds without AVX2, and
// ARRAYCORE_SORT_ISA=scalar) is sorted by an LSD radix sort on the order-preserving keys of
// sort_keys.h (radix_sort.h): 8- or 11-bit digits, all histograms counted in
// one first pass, and passes skipped when every key has the same digit (small integers,
// floats of one sign and exponent range).  LSD radix sorting is stable, so `stable=True` costs
// nothing.  `sort` moves the raw bits and recomputes the key in each pass (keeps -0 and NaN
// payloads); `argsort` moves (key, index) pairs, packed in one uint64 when the key has at most
// 32 bits.  Descending order sorts the complemented key: the reverse order, with equal elements
// still in input order (not the reverse of an ascending stable sort).  The passes ping-pong so
// the last one lands in the output.  Complex lines are three such sorts (sort_complex.cpp).
// Small lines (< 256) use std::stable_sort with the comparator of sort_keys.h.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "../thread_pool.h"
#include "search_sort.h"
#include "radix_sort.h"
#include "sort_complex.h"
#include "sort_keys.h"
#include "vector_sort.h"

namespace arraycore::native {

int normalize_axis(int64_t axis, int ndim, const char* who) {
  if (axis < -ndim || axis >= ndim)
    throw ValueError(std::string(who) + ": axis " + std::to_string(axis) +
                     " is out of bounds for an array of dimension " + std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

NdArray move_axis_last(const NdArray& a, int axis) {
  NdArray v = a;
  int nd = a.ndim();
  for (int k = axis; k < nd - 1; ++k) {
    v.shape[k] = a.shape[k + 1];
    v.strides[k] = a.strides[k + 1];
  }
  v.shape[nd - 1] = a.shape[axis];
  v.strides[nd - 1] = a.strides[axis];
  return v;
}

std::vector<int64_t> line_starts(const NdArray& a) {
  int nd = a.ndim();
  int64_t m = 1;
  for (int k = 0; k < nd - 1; ++k) m *= a.shape[k];
  std::vector<int64_t> out(static_cast<size_t>(m));
  if (m == 0) return out;
  std::vector<int64_t> idx(std::max(nd - 1, 0), 0);
  int64_t off = 0;
  for (int64_t i = 0; i < m; ++i) {
    out[i] = off;
    for (int k = nd - 2; k >= 0; --k) {
      if (++idx[k] < a.shape[k]) { off += a.strides[k]; break; }
      off -= a.strides[k] * (a.shape[k] - 1);
      idx[k] = 0;
    }
  }
  return out;
}

namespace {

// The instruction set of one sort/argsort call (Note [Sort ISA] in vector_sort.h): the widest
// built, or the one ARRAYCORE_SORT_ISA names.  Read per call so that tests can switch it.
SortIsa sort_isa_for_call(const char* who) {
  static constexpr struct {
    const char* name;
    SortIsa isa;
  } kNames[] = {{"avx512", SortIsa::kAvx512},
                {"avx2", SortIsa::kAvx2},
                {"scalar", SortIsa::kScalar},
                {"avx512-emulated", SortIsa::kAvx512Emulated}};
  const char* env = std::getenv("ARRAYCORE_SORT_ISA");
  if (env == nullptr || *env == '\0' || std::strcmp(env, "native") == 0) return widest_sort_isa();
  for (const auto& [name, isa] : kNames) {
    if (std::strcmp(env, name) != 0) continue;
    if (!sort_isa_built(isa))
      throw ValueError(std::string(who) + ": ARRAYCORE_SORT_ISA=" + env +
                       " names an instruction set this build of arraycore has no sort for");
    return isa;
  }
  throw ValueError(std::string(who) + ": ARRAYCORE_SORT_ISA must be native, avx512, avx2, "
                                      "scalar or avx512-emulated, got '" + env + "'");
}

constexpr int64_t kSmallSort = 256;
// 4- and 8-byte values from this length on go to the vector quicksort (its leaves sort up to
// 64 keys in a few hundred cycles, ahead of std::stable_sort from about 16 keys).
constexpr int64_t kVectorSortMin = 16;
// Scratch buffers from the engine's allocator (large blocks come from its cache: no
// zero-filling, no page faults), reused across the lines of one chunk.
struct Scratch {
  NdArray a, b;
  static char* get(NdArray& buf, int64_t bytes) {
    if (!buf.buffer || buf.numel() < bytes) buf = empty(Shape{std::max<int64_t>(bytes, 1024)},
                                                        DType::UInt8);
    return buf.data();
  }
  template <class X> X* get_a(int64_t n) {
    return reinterpret_cast<X*>(get(a, n * static_cast<int64_t>(sizeof(X))));
  }
  template <class X> X* get_b(int64_t n) {
    return reinterpret_cast<X*>(get(b, n * static_cast<int64_t>(sizeof(X))));
  }
};

// Sorts one line of n values (read at byte stride `st`) into the contiguous `out`.
template <class T>
void sort_line(const char* in, int64_t st, int64_t n, char* out, bool desc, SortIsa isa,
               Scratch& sc) {
  if constexpr (is_complex_v<T>) {
    T* o = reinterpret_cast<T*>(out);
    if (n >= kSmallSort && n < (int64_t(1) << 32)) {
      int64_t* order = sc.get_b<int64_t>(n);
      complex_sort_order<T>(in, st, n, desc, order, sc.get_a<Pair64>(3 * n));
      for (int64_t j = 0; j < n; ++j) o[j] = load<T>(in + order[j] * st);
      return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = load<T>(in + i * st);
    if (desc)
      std::stable_sort(o, o + n, [](const T& a, const T& b) { return sort_less(b, a); });
    else
      std::stable_sort(o, o + n, [](const T& a, const T& b) { return sort_less(a, b); });
  } else {
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      // float32/64, [u]int32/64: see Note [Vectorized quicksort].
      if (isa != SortIsa::kScalar && n >= kVectorSortMin && n < (int64_t(1) << 31)) {
        sort_line_vectorized<T>(in, st, n, reinterpret_cast<T*>(out), desc, isa);
        return;
      }
    }
    using K = SortKey<T>;
    using U = typename K::U;
    U* o = reinterpret_cast<U*>(out);
    auto src = [in, st](int64_t i) { return load<U>(in + i * st); };
    if (n < kSmallSort || n >= (int64_t(1) << 32)) {
      for (int64_t i = 0; i < n; ++i) o[i] = src(i);
      if (desc)
        std::stable_sort(o, o + n, [](U a, U b) { return K::key(b) < K::key(a); });
      else
        std::stable_sort(o, o + n, [](U a, U b) { return K::key(a) < K::key(b); });
      return;
    }
    U* tmp = sc.get_a<U>(n);
    if (desc)
      radix_sort<K::BITS, U>(n, src, o, tmp, [](U r) { return static_cast<U>(~K::key(r)); });
    else
      radix_sort<K::BITS, U>(n, src, o, tmp, [](U r) { return K::key(r); });
  }
}

// Indices that sort one line (read at byte stride `st`) into the contiguous int64 `out`.
template <class T>
void argsort_line(const char* in, int64_t st, int64_t n, int64_t* out, bool desc, SortIsa isa,
                  Scratch& sc) {
  auto comparator_sort = [&](auto less) {
    T* v = sc.get_b<T>(n);
    for (int64_t i = 0; i < n; ++i) v[i] = load<T>(in + i * st);
    std::iota(out, out + n, int64_t(0));
    std::stable_sort(out, out + n, [v, less](int64_t a, int64_t b) { return less(v[a], v[b]); });
  };
  if constexpr (is_complex_v<T>) {
    if (n >= kSmallSort && n < (int64_t(1) << 32)) {
      complex_sort_order<T>(in, st, n, desc, out, sc.get_a<Pair64>(3 * n));
      return;
    }
    if (desc) comparator_sort([](const T& a, const T& b) { return sort_less(b, a); });
    else comparator_sort([](const T& a, const T& b) { return sort_less(a, b); });
  } else {
    using K = SortKey<T>;
    using U = typename K::U;
    if (n < kSmallSort || n >= (int64_t(1) << 32)) {
      if (desc) comparator_sort([](T a, T b) {
        U ra, rb;
        std::memcpy(&ra, &a, sizeof(U));
        std::memcpy(&rb, &b, sizeof(U));
        return K::key(rb) < K::key(ra);
      });
      else comparator_sort([](T a, T b) {
        U ra, rb;
        std::memcpy(&ra, &a, sizeof(U));
        std::memcpy(&rb, &b, sizeof(U));
        return K::key(ra) < K::key(rb);
      });
      return;
    }
    const U flip = desc ? static_cast<U>(~U(0)) : U(0);
    if constexpr (K::BITS == 32) {
      if (isa != SortIsa::kScalar && n < (int64_t(1) << 31)) {
        // (key << 32 | index) words are all distinct, so the (unstable) vector sort of them,
        // as unsigned numbers, is the stable order.
        uint64_t* o = reinterpret_cast<uint64_t*>(out);
        for (int64_t i = 0; i < n; ++i)
          o[i] = (static_cast<uint64_t>(static_cast<U>(K::key(load<U>(in + i * st)) ^ flip))
                  << 32) | static_cast<uint64_t>(i);
        KeyCodec<uint64_t> unsigned_order;
        unsigned_order.xor_const = uint64_t(1) << 63;
        const SortRunner runner = engine_sort_runner();
        vector_sort(o, n, o, unsigned_order, &runner, isa);
        for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(o[i] & 0xffffffffu);
        return;
      }
    }
    if constexpr (K::BITS <= 32) {
      // (key << 32 | index) in one word; the last pass writes straight into `out`.
      auto src = [in, st, flip](int64_t i) {
        U k = static_cast<U>(K::key(load<U>(in + i * st)) ^ flip);
        return (static_cast<uint64_t>(k) << 32) | static_cast<uint64_t>(i);
      };
      uint64_t* o = reinterpret_cast<uint64_t*>(out);
      radix_sort<K::BITS, uint64_t>(n, src, o, sc.get_a<uint64_t>(n),
                                    [](uint64_t it) { return it >> 32; });
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(o[i] & 0xffffffffu);
    } else {
      auto src = [in, st, flip](int64_t i) {
        return Pair64{static_cast<uint64_t>(K::key(load<U>(in + i * st)) ^ flip), i};
      };
      Pair64* d = sc.get_a<Pair64>(n);
      radix_sort<64, Pair64>(n, src, d, sc.get_b<Pair64>(n), [](const Pair64& p) { return p.k; });
      for (int64_t i = 0; i < n; ++i) out[i] = d[i].i;
    }
  }
}

NdArray sort_impl(const NdArray& x, int64_t axis_arg, bool desc, bool indices, const char* who) {
  if (x.ndim() == 0)
    throw ValueError(std::string(who) + ": expected an array of at least one dimension, got a "
                                        "0-d array");
  const int axis = normalize_axis(axis_arg, x.ndim(), who);
  const SortIsa isa = sort_isa_for_call(who);
  const NdArray v = move_axis_last(x, axis);
  NdArray out = empty(v.shape, indices ? DType::Int64 : x.dtype);
  const int64_t L = v.shape[v.ndim() - 1];
  const int64_t total = x.numel();
  if (total > 0) {
    const std::vector<int64_t> starts = line_starts(v);
    const int64_t M = static_cast<int64_t>(starts.size());
    const size_t isz = x.itemsize(), osz = out.itemsize();
    const int64_t st = v.strides[v.ndim() - 1] * static_cast<int64_t>(isz);
    const char* base = v.data();
    char* obase = out.data();
    visit_dtype(x.dtype, [&](auto tag) {
      using T = decltype(tag);
      parallel_for(M, std::max<int64_t>(1, (int64_t(1) << 16) / L), [&](int64_t b, int64_t e) {
        Scratch sc;
        for (int64_t m = b; m < e; ++m) {
          const char* in = base + starts[m] * static_cast<int64_t>(isz);
          char* o = obase + m * L * static_cast<int64_t>(osz);
          if (indices) argsort_line<T>(in, st, L, reinterpret_cast<int64_t*>(o), desc, isa, sc);
          else sort_line<T>(in, st, L, o, desc, isa, sc);
        }
      });
    });
  }
  if (axis == x.ndim() - 1) return out;
  // Move the sorted axis back into place and return a row-major copy.
  NdArray r = out;
  const int nd = x.ndim();
  for (int k = 0; k < nd; ++k) {
    int src = k < axis ? k : (k == axis ? nd - 1 : k - 1);
    r.shape[k] = out.shape[src];
    r.strides[k] = out.strides[src];
  }
  NdArray c = empty(r.shape, r.dtype);
  copy_into(c, r);
  return c;
}

}  // namespace

NdArray sort(const NdArray& x, int64_t axis, bool descending) {
  return sort_impl(x, axis, descending, false, "sort");
}

NdArray argsort(const NdArray& x, int64_t axis, bool descending) {
  return sort_impl(x, axis, descending, true, "argsort");
}

}  // namespace arraycore::native
