// L0: inner loops of the reductions (see Note [The reduction driver] in reductions.h).
//
// An op is a struct with `identity<Acc>()`, `f(Acc, Acc)` (associative combine) and
// `load<Acc>(In)` (input element -> accumulator).  `line` loops keep kLanes independent
// accumulators (256 bytes of them: 8 AVX registers), which hides the add latency and lets the
// compiler vectorize without reassociating; float sums additionally split long lines pairwise
// (blocks of kPairBlock), giving NumPy's O(log n) error growth.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "../dtype.h"
#include "../reductions.h"

namespace arraycore::native::reduce_detail {

#define AC_REDUCE_INLINE inline __attribute__((always_inline))

struct SumOp {
  static constexpr bool pairwise = true;
  template <class A> static A identity() { return A(0); }
  template <class A> static A f(A a, A b) { return a + b; }
  template <class V> static V vf(V a, V b) { return a + b; }
  template <class A, class I> static A load(I x) { return static_cast<A>(x); }
};
struct ProdOp {
  static constexpr bool pairwise = false;
  template <class A> static A identity() { return A(1); }
  template <class A> static A f(A a, A b) { return a * b; }
  template <class V> static V vf(V a, V b) { return a * b; }
  template <class A, class I> static A load(I x) { return static_cast<A>(x); }
};
// NaN-propagating max/min: once the accumulator is NaN it stays NaN (b > NaN is false), and a
// NaN input replaces it.  Compiles to compare + blend.
struct MaxOp {
  static constexpr bool pairwise = false;
  template <class A> static A identity() {
    if constexpr (std::numeric_limits<A>::has_infinity) return -std::numeric_limits<A>::infinity();
    else return std::numeric_limits<A>::lowest();
  }
  template <class A> static A f(A a, A b) { return (b > a || b != b) ? b : a; }
  template <class V> static V vf(V a, V b) { return ((b > a) | (b != b)) ? b : a; }
  template <class A, class I> static A load(I x) { return x; }
};
struct MinOp {
  static constexpr bool pairwise = false;
  template <class A> static A identity() {
    if constexpr (std::numeric_limits<A>::has_infinity) return std::numeric_limits<A>::infinity();
    else return std::numeric_limits<A>::max();
  }
  template <class A> static A f(A a, A b) { return (b < a || b != b) ? b : a; }
  template <class V> static V vf(V a, V b) { return ((b < a) | (b != b)) ? b : a; }
  template <class A, class I> static A load(I x) { return x; }
};
struct AllOp {
  static constexpr bool pairwise = false;
  template <class A> static A identity() { return true; }
  template <class A> static A f(A a, A b) { return a & b; }
  template <class A, class I> static A load(I x) { return x != I(0); }
};
struct AnyOp {
  static constexpr bool pairwise = false;
  template <class A> static A identity() { return false; }
  template <class A> static A f(A a, A b) { return a | b; }
  template <class A, class I> static A load(I x) { return x != I(0); }
};

template <class Acc>
constexpr int kLanes = sizeof(Acc) >= 16 ? 8 : static_cast<int>(256 / sizeof(Acc)) > 64
                                                   ? 64
                                                   : static_cast<int>(256 / sizeof(Acc));
constexpr int64_t kPairBlock = 8192;

// Software prefetch distance of the contiguous reductions.  A line read from DRAM by one core
// is limited by the misses the core keeps in flight, which the hardware prefetcher alone
// does not fill: asking for the lines 8 KB ahead (non-temporal hint) took 1e7 floats on an
// AMD Zen 5 from 1050 to 840 us (sum; PyTorch 720) and 905 to 690 us (max), and 1e6 floats
// (in L3) from 43 to 40 / 41 to 34 us; 4 KB was 5% faster at 1e6 and 20% slower for max at
// 1e7.  Prefetches past the end of the line do not fault.
constexpr int64_t kReducePrefetchBytes = 8192;

AC_REDUCE_INLINE void prefetch_lines(const void* p, int64_t bytes) {
  const char* c = static_cast<const char*>(p) + kReducePrefetchBytes;
  for (int64_t b = 0; b < bytes; b += 64) __builtin_prefetch(c + b, 0, 0);
}

// Contiguous reduction in explicit 32-byte vectors (GCC/Clang vector extensions), 8 of them
// in flight: the plain-array form below is not reliably kept in registers.
template <class Op, class T>
T vec_reduce(const T* p, int64_t n) {
  typedef T V __attribute__((vector_size(32)));
  constexpr int W = static_cast<int>(32 / sizeof(T));
  constexpr int U = 8;
  const T id = Op::template identity<T>();
  V acc[U];
  for (int u = 0; u < U; ++u) acc[u] = V{} + id;
  int64_t i = 0;
  for (; i + U * W <= n; i += U * W) {
    prefetch_lines(p + i, U * sizeof(V));
    for (int u = 0; u < U; ++u) {
      V x;
      std::memcpy(&x, p + i + u * W, sizeof(V));
      acc[u] = Op::vf(acc[u], x);
    }
  }
  for (int w = U / 2; w >= 1; w /= 2)
    for (int u = 0; u < w; ++u) acc[u] = Op::vf(acc[u], acc[u + w]);
  T l[W];
  std::memcpy(l, &acc[0], sizeof(V));
  for (int w = W / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) l[k] = Op::f(l[k], l[k + w]);
  T r = l[0];
  for (; i < n; ++i) r = Op::f(r, p[i]);
  return r;
}

// Float max/min of a contiguous line: `x > m ? x : m` per lane is one vmaxps (it keeps m when
// either is NaN), and NaN is tracked in a separate sticky mask, instead of MaxOp::vf's
// compare + unordered compare + or + blend on the accumulator's dependency chain.
template <bool Max, class T>
T vec_extreme(const T* p, int64_t n) {
  typedef T V __attribute__((vector_size(32)));
  typedef std::conditional_t<sizeof(T) == 4, int32_t, int64_t> I;
  typedef I M __attribute__((vector_size(32)));
  constexpr int W = static_cast<int>(32 / sizeof(T));
  constexpr int U = 4;
  const T id = Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  V acc[U];
  M nan[U];
  for (int u = 0; u < U; ++u) {
    acc[u] = V{} + id;
    nan[u] = M{};
  }
  int64_t i = 0;
  for (; i + U * W <= n; i += U * W) {
    prefetch_lines(p + i, U * sizeof(V));
    for (int u = 0; u < U; ++u) {
      V x;
      std::memcpy(&x, p + i + u * W, sizeof(V));
      acc[u] = Max ? (x > acc[u] ? x : acc[u]) : (x < acc[u] ? x : acc[u]);
      nan[u] |= x != x;
    }
  }
  T r = id;
  bool any_nan = false;
  for (int u = 0; u < U; ++u)
    for (int k = 0; k < W; ++k) {
      r = Max ? (acc[u][k] > r ? acc[u][k] : r) : (acc[u][k] < r ? acc[u][k] : r);
      any_nan |= nan[u][k] != 0;
    }
  for (; i < n; ++i) {
    r = Max ? (p[i] > r ? p[i] : r) : (p[i] < r ? p[i] : r);
    any_nan |= p[i] != p[i];
  }
  return any_nan ? std::numeric_limits<T>::quiet_NaN() : r;
}

template <class Op> constexpr bool kTruthOp = std::is_same_v<Op, AllOp> || std::is_same_v<Op, AnyOp>;

// Reduction of n elements p[0], p[es], ... with kLanes accumulators.  ES = 1 (contiguous) is a
// separate instantiation so its loads are plain vector loads.
template <class Op, class In, class Acc, bool Contig>
Acc lanes_reduce(const In* p, int64_t es, int64_t n) {
  if constexpr (Contig && std::is_same_v<In, Acc> && std::is_floating_point_v<Acc> &&
                (std::is_same_v<Op, MaxOp> || std::is_same_v<Op, MinOp>))
    return vec_extreme<std::is_same_v<Op, MaxOp>, Acc>(p, n);
  else if constexpr (Contig && std::is_same_v<In, Acc> && std::is_arithmetic_v<Acc> &&
                     !std::is_same_v<Acc, bool> && !kTruthOp<Op>)
    return vec_reduce<Op, Acc>(p, n);
  constexpr int L = kLanes<Acc>;
  if (Contig) es = 1;
  Acc l[L];
  for (int k = 0; k < L; ++k) l[k] = Op::template identity<Acc>();
  int64_t i = 0;
  for (; i + L <= n; i += L)
    for (int k = 0; k < L; ++k) l[k] = Op::f(l[k], Op::template load<Acc>(p[(i + k) * es]));
  for (int w = L / 2; w >= 1; w /= 2)
    for (int k = 0; k < w; ++k) l[k] = Op::f(l[k], l[k + w]);
  Acc r = l[0];
  for (; i < n; ++i) r = Op::f(r, Op::template load<Acc>(p[i * es]));
  return r;
}

template <class Op, class In, class Acc, bool Contig>
Acc pairwise_reduce(const In* p, int64_t es, int64_t n) {
  if (!Op::pairwise || n <= kPairBlock) return lanes_reduce<Op, In, Acc, Contig>(p, es, n);
  constexpr int L = kLanes<Acc>;
  int64_t h = (n / 2) / L * L;
  return Op::f(pairwise_reduce<Op, In, Acc, Contig>(p, es, h),
               pairwise_reduce<Op, In, Acc, Contig>(p + h * (Contig ? 1 : es), es, n - h));
}

// all/any of contiguous one-byte elements (bool, int8, uint8): all is "no zero byte", which
// memchr finds at memory speed (libc's vector code; the lanes loop below reached 30 GB/s on
// 1e7 bools where NumPy reaches 44), any is "some nonzero byte": 8-byte words OR-ed a block
// at a time.  Both exit early, as truth_reduce does.
template <class Op>
bool truth_reduce_bytes(const unsigned char* p, int64_t n) {
  if constexpr (std::is_same_v<Op, AllOp>) {
    return std::memchr(p, 0, static_cast<size_t>(n)) == nullptr;
  } else {
    constexpr int64_t B = 4096;
    int64_t i = 0;
    for (; i + B <= n; i += B) {
      uint64_t acc = 0;
      for (int64_t j = 0; j < B; j += 8) {
        uint64_t w;
        std::memcpy(&w, p + i + j, 8);
        acc |= w;
      }
      if (acc != 0) return true;
    }
    for (; i < n; ++i)
      if (p[i] != 0) return true;
    return false;
  }
}

// all/any: blocks with an early exit once the answer is known.
template <class Op, class In, class Acc>
Acc truth_reduce(const In* p, int64_t es, int64_t n) {
  if constexpr (sizeof(In) == 1 && std::is_integral_v<In>)
    if (es == 1) return truth_reduce_bytes<Op>(reinterpret_cast<const unsigned char*>(p), n);
  constexpr int64_t B = 1024;
  Acc r = Op::template identity<Acc>();
  for (int64_t i = 0; i < n; i += B) {
    int64_t m = n - i < B ? n - i : B;
    r = Op::f(r, es == 1 ? lanes_reduce<Op, In, Acc, true>(p + i, 1, m)
                         : lanes_reduce<Op, In, Acc, false>(p + i * es, es, m));
    if (r != Op::template identity<Acc>()) break;
  }
  return r;
}

template <class Op, class In, class Acc>
struct Loops {
  static void line(char* acc, const char* in, int64_t s, int64_t n) {
    const In* p = reinterpret_cast<const In*>(in);
    const int64_t es = s / static_cast<int64_t>(sizeof(In));
    Acc* a = reinterpret_cast<Acc*>(acc);
    Acc r;
    if constexpr (std::is_same_v<Op, AllOp> || std::is_same_v<Op, AnyOp>)
      r = truth_reduce<Op, In, Acc>(p, es, n);
    else if (es == 1)
      r = pairwise_reduce<Op, In, Acc, true>(p, 1, n);
    else
      r = pairwise_reduce<Op, In, Acc, false>(p, es, n);
    *a = Op::f(*a, r);
  }
  static void row(char* acc, const char* in, int64_t s, int64_t n) {
    Acc* a = reinterpret_cast<Acc*>(acc);
    const In* p = reinterpret_cast<const In*>(in);
    if (s == static_cast<int64_t>(sizeof(In))) {
      for (int64_t j = 0; j < n; ++j) a[j] = Op::f(a[j], Op::template load<Acc>(p[j]));
    } else {
      const int64_t es = s / static_cast<int64_t>(sizeof(In));
      for (int64_t j = 0; j < n; ++j) a[j] = Op::f(a[j], Op::template load<Acc>(p[j * es]));
    }
  }
  static void rows4(char* acc, const char* in, int64_t s, int64_t n, int64_t rs) {
    if (s != static_cast<int64_t>(sizeof(In))) {
      for (int k = 0; k < 4; ++k) row(acc, in + k * rs, s, n);
      return;
    }
    Acc* a = reinterpret_cast<Acc*>(acc);
    const In* p0 = reinterpret_cast<const In*>(in);
    const In* p1 = reinterpret_cast<const In*>(in + rs);
    const In* p2 = reinterpret_cast<const In*>(in + 2 * rs);
    const In* p3 = reinterpret_cast<const In*>(in + 3 * rs);
    for (int64_t j = 0; j < n; ++j) {
      Acc v = Op::f(a[j], Op::template load<Acc>(p0[j]));
      v = Op::f(v, Op::template load<Acc>(p1[j]));
      v = Op::f(v, Op::template load<Acc>(p2[j]));
      a[j] = Op::f(v, Op::template load<Acc>(p3[j]));
    }
  }
  static void fill(char* acc, int64_t n) {
    Acc* a = reinterpret_cast<Acc*>(acc);
    for (int64_t j = 0; j < n; ++j) a[j] = Op::template identity<Acc>();
  }
  static void combine(char* acc, const char* other, int64_t n) {
    Acc* a = reinterpret_cast<Acc*>(acc);
    const Acc* b = reinterpret_cast<const Acc*>(other);
    for (int64_t j = 0; j < n; ++j) a[j] = Op::f(a[j], b[j]);
  }
  static void store(char* out, int64_t s, const char* acc, int64_t n) {
    const Acc* a = reinterpret_cast<const Acc*>(acc);
    if (s == static_cast<int64_t>(sizeof(Acc))) {
      std::memcpy(out, acc, static_cast<size_t>(n) * sizeof(Acc));
      return;
    }
    for (int64_t j = 0; j < n; ++j) *reinterpret_cast<Acc*>(out + j * s) = a[j];
  }
  static ReduceLoops get() {
    ReduceLoops r;
    r.line = &line;
    r.row = &row;
    r.rows4 = &rows4;
    r.fill = &fill;
    r.combine = &combine;
    r.store = &store;
    r.block_rows = Op::pairwise && !std::is_integral_v<real_t<Acc>>;
    return r;
  }
};

template <class Op, class In, class Acc>
void set_reduce(ReduceOp op) {
  ReduceRegistry::instance().set(op, dtype_of<In>, dtype_of<Acc>, Loops<Op, In, Acc>::get());
}

}  // namespace arraycore::native::reduce_detail
