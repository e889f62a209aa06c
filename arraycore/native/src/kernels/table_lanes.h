// Lane types for float32 kernels that pick polynomial coefficients per lane from small tables
// (special_erf_gamma_pieces.h: erf, erfc; tanh_pieces.h: tanh).
//
// A kernel is one template over its lanes L: L::Scalar runs it on one float (tables read from
// memory: strided loops, vector tails), L::Vector on the build's widest float vector (each
// table row held in a register and read by a permutation, vpermps: GCC turns a table lookup
// per element into gathers, several times slower).  Both run the same operations in the same
// order, FMAs fused in both, so every layout gives the same bits.  The kernels add their own
// table lookups to these operations (deriving from ScalarOps / VectorOps).
#pragma once

#include <cstdint>
#include <cstring>

#include "../simd_math.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define AC_TABLE_VECTORS 1
#else
#define AC_TABLE_VECTORS 0
#endif

namespace arraycore::native::table_lanes {

// One float.
struct ScalarOps {
  using F = float;
  using I = int32_t;
  static F fma(F a, F b, F c) { return simd_math::detail::fma(a, b, c); }
  static F min(F a, F b) { return a < b ? a : b; }  // (minss: b where either is NaN)
  static I bits(F a) { return simd_math::detail::bit_cast<I>(a); }
  static F from_bits(I a) { return simd_math::detail::bit_cast<F>(a); }
  // a in range, or NaN, for which any index will do (x86's cvttss2si gives INT_MIN, as the
  // vector cvttps2dq; guarding the cast against NaN stopped GCC from vectorizing the strided
  // loops)
  static I to_int(F a) { return static_cast<I>(a); }
  static F to_float(I a) { return static_cast<F>(a); }
};

#if AC_TABLE_VECTORS
// The widest vectors of the build (a 64-byte vector type on an AVX2 build is lowered through
// the stack).
#if defined(__AVX512F__)
inline constexpr int kLanes = 16;
#else
inline constexpr int kLanes = 8;
#endif
typedef float VF __attribute__((vector_size(kLanes * 4)));
typedef int32_t VI __attribute__((vector_size(kLanes * 4)));

// kLanes floats.
struct VectorOps {
  using F = VF;
  using I = VI;
  static F fma(F a, F b, F c) {
#if defined(__AVX512F__)
    return _mm512_fmadd_ps(a, b, c);
#else
    return _mm256_fmadd_ps(a, b, c);
#endif
  }
  // a < b ? a : b (b where either is NaN): vminps (GCC turns the ternary into a compare and a
  // blend; maskz: _mm512_min_ps trips GCC 12's -Wmaybe-uninitialized where it is inlined)
  static F min(F a, F b) {
#if defined(__AVX512F__)
    return _mm512_maskz_min_ps(0xffff, a, b);
#else
    return _mm256_min_ps(a, b);
#endif
  }
  static I bits(F a) { return (I)a; }  // (vector casts reinterpret the bits)
  static F from_bits(I a) { return (F)a; }
  static I to_int(F a) { return __builtin_convertvector(a, I); }
  static F to_float(I a) { return __builtin_convertvector(a, F); }
};

// f over a contiguous run, kLanes at a time with the vector lanes `lanes` (vf(lanes, x)), the
// tail by the scalar form sf.
template <class Lanes, class VecFn, class ScalarFn>
[[gnu::always_inline]] inline void run_contiguous(const Lanes& lanes, const float* a, float* o,
                                                  int64_t n, VecFn vf, ScalarFn sf) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    VF x;
    std::memcpy(&x, a + i, sizeof(VF));
    const VF y = vf(lanes, x);
    std::memcpy(o + i, &y, sizeof(VF));
  }
  for (; i < n; ++i) o[i] = sf(a[i]);
}
#endif

}  // namespace arraycore::native::table_lanes
