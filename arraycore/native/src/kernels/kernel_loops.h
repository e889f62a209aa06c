// L0: inner-loop templates and the registration helpers every kernel file uses.
//
// An op is a struct with a static `apply` template; its return type is the output element
// type (bool for comparisons, the real type for abs of complex, ...).  Registering an op for
// a type list instantiates one inner loop per type:
//
//     struct Sin { template <class T> static T apply(T x) { return std::sin(x); } };
//     AC_REGISTER_KERNELS(trig) { register_unary<Sin>("sin", FloatTypes{}); }
//
// Each loop has a contiguous branch (and, for binary ops, scalar-operand branches) written as
// plain indexed loops so the compiler vectorizes them; the strided branch handles the rest.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "../dtype.h"
#include "../op_registry.h"

namespace arraycore::native {

// Ops whose vectorizable `apply` is exact only on part of the domain declare, for the types
// concerned, `needs_exact(x)` (outside that part) and `exact(x)` (e.g. libm).
template <class Op, class T, class = void>
struct HasExactFallback : std::false_type {};
template <class Op, class T>
struct HasExactFallback<Op, T, std::void_t<decltype(Op::needs_exact(std::declval<T>())),
                                           decltype(Op::exact(std::declval<T>()))>>
    : std::true_type {};

// Contiguous unary loop for such ops, in blocks: a block whose inputs are all inside the fast
// domain (a vectorizable test) runs `apply`, the rare other blocks run `exact` on every
// element.  Each block is tested before it is written, so out may alias in.
template <class Op, class T, class Out>
void unary_loop_with_fallback(Out* o, const T* a, int64_t n) {
  constexpr int64_t kBlock = 256;
  for (int64_t b = 0; b < n; b += kBlock) {
    const int64_t m = n - b < kBlock ? n - b : kBlock;
    // (an int accumulator: GCC vectorizes `int |= cond ? 1 : 0` but not `bool |= cond`)
    int slow = 0;
    for (int64_t i = 0; i < m; ++i) slow |= Op::needs_exact(a[b + i]) ? 1 : 0;
    if (slow)
      for (int64_t i = 0; i < m; ++i) o[b + i] = Op::exact(a[b + i]);
    else
      for (int64_t i = 0; i < m; ++i) o[b + i] = Op::apply(a[b + i]);
  }
}

template <class Op, class T>
void unary_loop(char** p, const int64_t* s, int64_t n) {
  using Out = decltype(Op::apply(std::declval<T>()));
  if constexpr (HasExactFallback<Op, T>::value) {
    if (s[0] == sizeof(Out) && s[1] == sizeof(T)) {
      unary_loop_with_fallback<Op, T>(reinterpret_cast<Out*>(p[0]),
                                      reinterpret_cast<const T*>(p[1]), n);
    } else {
      char* o = p[0];
      const char* a = p[1];
      for (int64_t i = 0; i < n; ++i, o += s[0], a += s[1]) {
        const T x = *reinterpret_cast<const T*>(a);
        *reinterpret_cast<Out*>(o) = Op::needs_exact(x) ? Op::exact(x) : Op::apply(x);
      }
    }
    return;
  }
  if (s[0] == sizeof(Out) && s[1] == sizeof(T)) {
    Out* o = reinterpret_cast<Out*>(p[0]);
    if constexpr (std::is_same_v<T, bool>) {
      // bools as bytes: GCC vectorizes neither a load of a bool nor a negation of one
      // (logical_not ran scalar, 13x NumPy's time), but does byte compares and selects
      const uint8_t* u = reinterpret_cast<const uint8_t*>(p[1]);
      if constexpr (std::is_same_v<Out, bool>) {
        uint8_t* w = reinterpret_cast<uint8_t*>(p[0]);
        for (int64_t i = 0; i < n; ++i) w[i] = Op::apply(u[i] != 0) ? 1 : 0;
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(u[i] != 0);
      }
    } else {
      const T* a = reinterpret_cast<const T*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i]);
    }
    return;
  }
  char* o = p[0];
  const char* a = p[1];
  for (int64_t i = 0; i < n; ++i, o += s[0], a += s[1])
    *reinterpret_cast<Out*>(o) = Op::apply(*reinterpret_cast<const T*>(a));
}

// Contiguous unary loop for ops whose branch-free `apply` evaluates several branches for
// every lane while typical arguments mostly fall in one: the op declares `in_common(x)` and
// `common(x)`, that branch alone (bit-identical to `apply` there).  Per chunk of 256, when
// at most half of the elements lie outside (`common` costs well under half of `apply` for
// the ops that use this), every element takes `common`, and the others are packed (before
// anything is written, so out may alias in) and recomputed with `apply` (or `exact` where
// the op has a fallback and needs it) in batches of at least 256; chunks with more of them
// run the plain loop.
template <class Op, class T, class = void>
struct HasCommonBranch : std::false_type {};
template <class Op, class T>
struct HasCommonBranch<Op, T, std::void_t<decltype(Op::in_common(std::declval<T>())),
                                          decltype(Op::common(std::declval<T>()))>>
    : std::true_type {};

template <class Op, class T>
void unary_loop_common_branch(char** p, const int64_t* s, int64_t n) {
  using Out = decltype(Op::apply(std::declval<T>()));
  if (s[0] != sizeof(Out) || s[1] != sizeof(T)) {
    unary_loop<Op, T>(p, s, n);
    return;
  }
  constexpr int64_t kChunk = 256;
  Out* o = reinterpret_cast<Out*>(p[0]);
  const T* x = reinterpret_cast<const T*>(p[1]);
  // Outside elements wait in px (value) and pi (position) until kChunk of them have
  // gathered, possibly from many chunks, and are then computed together: a handful per chunk
  // would run through the scalar remainder of the vectorized loop.
  T px[2 * kChunk];
  Out pv[2 * kChunk];
  int64_t pi[2 * kChunk];
  int64_t pending = 0;
  const auto flush = [&] {
    for (int64_t j = 0; j < pending; ++j) pv[j] = Op::apply(px[j]);
    if constexpr (HasExactFallback<Op, T>::value) {
      for (int64_t j = 0; j < pending; ++j)
        o[pi[j]] = Op::needs_exact(px[j]) ? Op::exact(px[j]) : pv[j];
    } else {
      for (int64_t j = 0; j < pending; ++j) o[pi[j]] = pv[j];
    }
    pending = 0;
  };
  alignas(8) uint8_t outside[kChunk] = {};
  for (int64_t b = 0; b < n; b += kChunk) {
    const int64_t m = n - b < kChunk ? n - b : kChunk;
    // A counting pass (vectorized; the flag bytes below cost 5% more where nothing is
    // outside, the usual chunk).
    int32_t cnt = 0;
    for (int64_t i = 0; i < m; ++i) cnt += Op::in_common(x[b + i]) ? 0 : 1;
    if (cnt * 2 > m) {
      char* q[2] = {reinterpret_cast<char*>(o + b),
                    const_cast<char*>(reinterpret_cast<const char*>(x + b))};
      unary_loop<Op, T>(q, s, m);
      continue;
    }
    // Pack before the chunk is written (out may alias in): one flag byte per element (a
    // vectorized pass; the bytes past m are 0), then words without a flag are skipped and the
    // others packed without branches (a branch per element mispredicts at the densities that
    // matter, 3-15% outside).
    if (cnt > 0) {
      for (int64_t i = 0; i < m; ++i) outside[i] = Op::in_common(x[b + i]) ? 0 : 1;
      if (m < kChunk) std::memset(outside + m, 0, kChunk - m);
    }
    for (int w = 0; cnt > 0 && w < kChunk / 8; ++w) {
      uint64_t word;
      std::memcpy(&word, outside + 8 * w, 8);
      if (word == 0) continue;
#pragma GCC unroll 8
      for (int j = 0; j < 8; ++j) {
        const int64_t i = b + 8 * w + j;
        px[pending] = x[i < n ? i : b];
        pi[pending] = i;
        pending += outside[8 * w + j];
      }
    }
    for (int64_t i = 0; i < m; ++i) o[b + i] = Op::common(x[b + i]);
    if (pending >= kChunk) flush();
  }
  flush();
}

// The same for binary ops (`needs_exact(a, b)`, `exact(a, b)`).  StepA/StepB (1 or 0) say
// whether an operand advances or is a broadcast scalar; a scalar is copied into a block-sized
// buffer first, so every case runs the same two-array loops (with a loop-invariant operand
// GCC hoists part of the body and leaves control flow that blocks vectorization).
template <class Op, class T, class = void>
struct HasExactFallback2 : std::false_type {};
template <class Op, class T>
struct HasExactFallback2<
    Op, T,
    std::void_t<decltype(Op::needs_exact(std::declval<T>(), std::declval<T>())),
                decltype(Op::exact(std::declval<T>(), std::declval<T>()))>> : std::true_type {};

template <class Op, class T, class Out, int64_t StepA, int64_t StepB>
void binary_loop_with_fallback(Out* o, const T* a, const T* b, int64_t n) {
  constexpr int64_t kBlock = 256;
  T bufa[StepA ? 1 : kBlock], bufb[StepB ? 1 : kBlock];
  if constexpr (StepA == 0)
    for (int64_t i = 0; i < kBlock; ++i) bufa[i] = *a;
  if constexpr (StepB == 0)
    for (int64_t i = 0; i < kBlock; ++i) bufb[i] = *b;
  for (int64_t s = 0; s < n; s += kBlock) {
    const int64_t m = n - s < kBlock ? n - s : kBlock;
    const T* pa = StepA ? a + s : bufa;
    const T* pb = StepB ? b + s : bufb;
    Out* po = o + s;
    int slow = 0;
    for (int64_t i = 0; i < m; ++i) slow |= Op::needs_exact(pa[i], pb[i]) ? 1 : 0;
    if (slow)
      for (int64_t i = 0; i < m; ++i) po[i] = Op::exact(pa[i], pb[i]);
    else
      for (int64_t i = 0; i < m; ++i) po[i] = Op::apply(pa[i], pb[i]);
  }
}

// An op may take over a contiguous run whose right operand is one broadcast value
// (`static bool rhs_scalar_run(const T* a, T b, Out* o, int64_t n)`, false: not handled, the
// generic loop, or the fallback loop of an op with needs_exact, runs): pow's exponent 2 is a
// multiplication, -1 a division; integer // and % multiply by the divisor's reciprocal.
template <class Op, class T, class = void>
struct HasRhsScalarRun : std::false_type {};
template <class Op, class T>
struct HasRhsScalarRun<
    Op, T,
    std::void_t<decltype(Op::rhs_scalar_run(std::declval<const T*>(), std::declval<T>(),
                                            std::declval<T*>(), int64_t{}))>> : std::true_type {};

template <class Op, class T>
void binary_loop(char** p, const int64_t* s, int64_t n) {
  using Out = decltype(Op::apply(std::declval<T>(), std::declval<T>()));
  constexpr int64_t so = sizeof(Out), st = sizeof(T);
  Out* o = reinterpret_cast<Out*>(p[0]);
  const T* a = reinterpret_cast<const T*>(p[1]);
  const T* b = reinterpret_cast<const T*>(p[2]);
  if constexpr (HasRhsScalarRun<Op, T>::value)
    if (s[0] == so && s[1] == st && s[2] == 0 && Op::rhs_scalar_run(a, *b, o, n)) return;
  if constexpr (HasExactFallback2<Op, T>::value) {
    if (s[0] == so && s[1] == st && s[2] == st) {
      binary_loop_with_fallback<Op, T, Out, 1, 1>(o, a, b, n);
    } else if (s[0] == so && s[1] == st && s[2] == 0) {
      binary_loop_with_fallback<Op, T, Out, 1, 0>(o, a, b, n);
    } else if (s[0] == so && s[1] == 0 && s[2] == st) {
      binary_loop_with_fallback<Op, T, Out, 0, 1>(o, a, b, n);
    } else {
      char* po = p[0];
      const char *pa = p[1], *pb = p[2];
      for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1], pb += s[2]) {
        const T x = *reinterpret_cast<const T*>(pa), y = *reinterpret_cast<const T*>(pb);
        *reinterpret_cast<Out*>(po) = Op::needs_exact(x, y) ? Op::exact(x, y) : Op::apply(x, y);
      }
    }
    return;
  }
  if (s[0] == so && s[1] == st && s[2] == st) {
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], b[i]);
  } else if (s[0] == so && s[1] == st && s[2] == 0) {
    const T bv = *b;
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], bv);
  } else if (s[0] == so && s[1] == 0 && s[2] == st) {
    const T av = *a;
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(av, b[i]);
  } else {
    char* po = p[0];
    const char *pa = p[1], *pb = p[2];
    for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1], pb += s[2])
      *reinterpret_cast<Out*>(po) =
          Op::apply(*reinterpret_cast<const T*>(pa), *reinterpret_cast<const T*>(pb));
  }
}

template <class Op, class T>
void ternary_loop(char** p, const int64_t* s, int64_t n) {
  using Out = decltype(Op::apply(std::declval<T>(), std::declval<T>(), std::declval<T>()));
  constexpr int64_t so = sizeof(Out), st = sizeof(T);
  if (s[0] == so && s[1] == st && s[2] == st && s[3] == st) {
    Out* o = reinterpret_cast<Out*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    const T* c = reinterpret_cast<const T*>(p[3]);
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], b[i], c[i]);
    return;
  }
  if (s[0] == so && s[1] == st && s[2] == 0 && s[3] == 0) {  // clip(x, lo, hi) with scalars
    Out* o = reinterpret_cast<Out*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T b = *reinterpret_cast<const T*>(p[2]), c = *reinterpret_cast<const T*>(p[3]);
    for (int64_t i = 0; i < n; ++i) o[i] = Op::apply(a[i], b, c);
    return;
  }
  char* po = p[0];
  const char *pa = p[1], *pb = p[2], *pc = p[3];
  for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1], pb += s[2], pc += s[3])
    *reinterpret_cast<Out*>(po) = Op::apply(*reinterpret_cast<const T*>(pa),
                                            *reinterpret_cast<const T*>(pb),
                                            *reinterpret_cast<const T*>(pc));
}

template <class Op, class T>
void set_loop(Kernel& k, LoopFn fn, DType out) {
  k.loops[dtype_index(dtype_of<T>)] = fn;
  k.out_dtype[dtype_index(dtype_of<T>)] = static_cast<int8_t>(out);
}

// `cost` is the per-element cost relative to an add (used to pick the parallel grain).
template <class Op, class T>
constexpr LoopFn unary_loop_for() {
  if constexpr (HasCommonBranch<Op, T>::value) return &unary_loop_common_branch<Op, T>;
  else return &unary_loop<Op, T>;
}

template <class Op, class... Ts>
void register_unary(const char* name, TypeList<Ts...>, double cost = 1.0) {
  Kernel& k = KernelRegistry::instance().define(name, 1, cost);
  (set_loop<Op, Ts>(k, unary_loop_for<Op, Ts>(),
                    dtype_of<decltype(Op::apply(std::declval<Ts>()))>), ...);
}

template <class Op, class... Ts>
void register_binary(const char* name, TypeList<Ts...>, double cost = 1.0) {
  Kernel& k = KernelRegistry::instance().define(name, 2, cost);
  (set_loop<Op, Ts>(k, &binary_loop<Op, Ts>,
                    dtype_of<decltype(Op::apply(std::declval<Ts>(), std::declval<Ts>()))>), ...);
}

template <class Op, class... Ts>
void register_ternary(const char* name, TypeList<Ts...>, double cost = 1.0) {
  Kernel& k = KernelRegistry::instance().define(name, 3, cost);
  (set_loop<Op, Ts>(k, &ternary_loop<Op, Ts>,
                    dtype_of<decltype(Op::apply(std::declval<Ts>(), std::declval<Ts>(),
                                                std::declval<Ts>()))>),
   ...);
}

// The loop of an iterative kernel that works on chunks of doubles (the incomplete gamma and
// beta ratios, expn): up to 256 elements of its N operands of type T at a time, any strides
// (broadcast operands have stride 0), converted to double; `chunk(in, out, m)` computes m
// results in double, which are written back rounded to T.
template <class T, int N, class Chunk>
void run_in_double_chunks(char** p, const int64_t* s, int64_t n, Chunk&& chunk) {
  constexpr int64_t kChunk = 256;
  double in[N][kChunk], out[kChunk];
  for (int64_t c = 0; c < n; c += kChunk) {
    const int m = static_cast<int>(n - c < kChunk ? n - c : kChunk);
    for (int k = 0; k < N; ++k)
      for (int i = 0; i < m; ++i)
        in[k][i] = *reinterpret_cast<const T*>(p[k + 1] + (c + i) * s[k + 1]);
    chunk(in, out, m);
    for (int i = 0; i < m; ++i) *reinterpret_cast<T*>(p[0] + (c + i) * s[0]) = static_cast<T>(out[i]);
  }
}

// Defines kernel `name` with its float32 and float64 loops (each result of its input's dtype).
inline void register_real_float_loops(const char* name, int arity, double cost, LoopFn f32,
                                      LoopFn f64) {
  Kernel& k = KernelRegistry::instance().define(name, arity, cost);
  k.loops[dtype_index(DType::Float32)] = f32;
  k.out_dtype[dtype_index(DType::Float32)] = static_cast<int8_t>(DType::Float32);
  k.loops[dtype_index(DType::Float64)] = f64;
  k.out_dtype[dtype_index(DType::Float64)] = static_cast<int8_t>(DType::Float64);
}

// Runs the body once when the extension loads.  Kernel files are compiled straight into the
// module (not a static library), so their registrations cannot be dropped by the linker.
#define AC_REGISTER_KERNELS(tag)                                   \
  static void ac_register_##tag();                                 \
  namespace {                                                      \
  struct AcRegistrar_##tag {                                       \
    AcRegistrar_##tag() { ac_register_##tag(); }                   \
  } ac_registrar_instance_##tag;                                   \
  }                                                                \
  static void ac_register_##tag()

}  // namespace arraycore::native
