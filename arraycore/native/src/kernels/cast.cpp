// The cast kernel: the only N x N kernel (169 loops), also used for plain copies.
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernel_loops.h"

// Float -> 64-bit integer conversions vectorize only with AVX-512DQ (vcvttpd2qq).
#if defined(__AVX512DQ__)
#define ARRAYCORE_CAST_HAS_CVT64 1
#else
#define ARRAYCORE_CAST_HAS_CVT64 0
#endif

namespace arraycore::native {
namespace {

template <class To, class From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_v<From> && !is_complex_v<To>) {
    // Complex -> real drops the imaginary part (NumPy's behaviour; the standard leaves it open).
    if constexpr (std::is_same_v<To, bool>) return v != From(0);
    else return static_cast<To>(v.real());
  } else if constexpr (is_complex_v<To>) {
    if constexpr (is_complex_v<From>) return To(static_cast<real_t<To>>(v.real()),
                                                static_cast<real_t<To>>(v.imag()));
    else return To(static_cast<real_t<To>>(v), real_t<To>(0));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    // Float -> int of NaN/inf/out-of-range values is undefined in C++; give 0 / saturate-free
    // wraparound-free results deterministically instead of UB.  (The branches are predicted
    // and the scalar loop measured faster than a branch-free select form GCC vectorizes:
    // 79 against 116 us per 1e6 float32 -> int32.)
    if (!(v == v)) return To(0);
    constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
    constexpr From hi = static_cast<From>(std::numeric_limits<To>::max());
    if (v <= lo) return std::numeric_limits<To>::min();
    if (v >= hi) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

template <class From, class To>
void cast_inner(char** p, const int64_t* s, int64_t n) {
  if constexpr (std::is_same_v<From, To>) {
    if (s[0] == sizeof(To) && s[1] == sizeof(From)) {
      std::memmove(p[0], p[1], static_cast<size_t>(n) * sizeof(To));
      return;
    }
  }
  if (s[0] == sizeof(To) && s[1] == sizeof(From)) {
    To* o = reinterpret_cast<To*>(p[0]);
    if constexpr (std::is_same_v<From, bool>) {
      // bools read as bytes: GCC vectorizes no conversion from a bool (4x NumPy's time for
      // bool -> float32), but does from a byte compare
      const uint8_t* u = reinterpret_cast<const uint8_t*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = u[i] != 0 ? To(1) : To(0);
    } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> &&
                         !std::is_same_v<To, bool>) {
      // Blocks whose values are all in range (the usual case) convert with the plain,
      // vectorized instruction; a block with NaN, inf or out-of-range values takes convert's
      // checks (the per-element branches kept the whole loop scalar: 1.3x NumPy's time;
      // out-of-range data pays the check and the branches: float32 -> uint8 of N(0, 1000)
      // values 91 -> 153 us).
      const From* a = reinterpret_cast<const From*>(p[1]);
      constexpr From lo = static_cast<From>(std::numeric_limits<To>::min());
      constexpr From hi = static_cast<From>(std::numeric_limits<To>::max());
      constexpr int64_t kBlock = 256;
      // Converting while testing, one pass, then redoing a block that held an outlier,
      // needs the input intact after the output is written: true where the output is
      // narrower (apply_kernel copies an input that overlaps the output other than element
      // for element) or a separate buffer.  It also needs a vector conversion: AVX2 has
      // none to 64-bit integers (0.47 -> 0.71 ms per 1e6 float64 -> int64 there), nor to
      // unsigned ones.  float64 -> int32 per 1e6: 0.18 -> 0.13 ms on AVX2, 0.14 -> 0.122 on
      // AVX-512 (the separate test pass before the conversion cost as much as the
      // conversion).  The flag is as wide as From there: an int made GCC narrow each 64-bit
      // compare mask.  (The conversion runs before the test: the hardware's answer for an
      // outlier, INT_MIN, is overwritten; GCC draws no range facts from the cast.)
      constexpr bool kVectorConvert =
          std::is_signed_v<To> && (sizeof(To) <= 4 || ARRAYCORE_CAST_HAS_CVT64);
      const bool fused = kVectorConvert && (sizeof(To) < sizeof(From) ||
                                            static_cast<const void*>(o) != a);
      for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t m = n - b < kBlock ? n - b : kBlock;
        if (fused) {
          using Flag = std::conditional_t<sizeof(From) == 8, uint64_t, uint32_t>;
          Flag outlier = 0;
          for (int64_t i = 0; i < m; ++i) {
            o[b + i] = static_cast<To>(a[b + i]);
            outlier |= (!(a[b + i] > lo) | !(a[b + i] < hi)) ? Flag(1) : Flag(0);
          }
          if (outlier)
            for (int64_t i = 0; i < m; ++i) o[b + i] = convert<To>(a[b + i]);
          continue;
        }
        int out_of_range = 0;  // (an int: GCC vectorizes an OR of ints, not of bools)
        for (int64_t i = 0; i < m; ++i)
          out_of_range |= static_cast<int>(!(a[b + i] > lo)) | static_cast<int>(!(a[b + i] < hi));
        if (!out_of_range)
          for (int64_t i = 0; i < m; ++i) o[b + i] = static_cast<To>(a[b + i]);
        else
          for (int64_t i = 0; i < m; ++i) o[b + i] = convert<To>(a[b + i]);
      }
    } else {
      const From* a = reinterpret_cast<const From*>(p[1]);
      for (int64_t i = 0; i < n; ++i) o[i] = convert<To>(a[i]);
    }
    return;
  }
  if (s[0] == sizeof(To) && s[1] == 0) {
    To v = convert<To>(*reinterpret_cast<const From*>(p[1]));
    To* o = reinterpret_cast<To*>(p[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = v;
    return;
  }
  char* o = p[0];
  const char* a = p[1];
  for (int64_t i = 0; i < n; ++i, o += s[0], a += s[1])
    *reinterpret_cast<To*>(o) = convert<To>(*reinterpret_cast<const From*>(a));
}

struct CastTable {
  LoopFn loops[kNumDTypes][kNumDTypes];
  CastTable() {
    for (int f = 0; f < kNumDTypes; ++f)
      for (int t = 0; t < kNumDTypes; ++t)
        visit_dtype(static_cast<DType>(f), [&](auto from) {
          visit_dtype(static_cast<DType>(t), [&](auto to) {
            loops[f][t] = &cast_inner<decltype(from), decltype(to)>;
          });
        });
  }
};

}  // namespace

LoopFn cast_loop(DType from, DType to) {
  static const CastTable table;
  return table.loops[dtype_index(from)][dtype_index(to)];
}

}  // namespace arraycore::native
