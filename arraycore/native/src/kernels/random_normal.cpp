// Normal draws: Box-Muller (Box and Muller, "A note on the generation of random normal
// deviates", Ann. Math. Statist. 1958) on pairs of Philox uniforms, an exact transform:
//     z0 = sqrt(-2 log u1) cos(2 pi u2),  z1 = sqrt(-2 log u1) sin(2 pi u2).
// Branch-free, with simd_math's vector log and our own sin/cos of 2 pi u, so the loops
// vectorize.  The angle's uniform is an integer k / 2^b, so its reduction to a quarter turn
// is exact integer arithmetic: k = q 2^(b-2) + m, |m| <= 2^(b-3), and
// sin/cos(2 pi k / 2^b) is sin/cos(2 pi m / 2^b) rotated by q quarter turns.
//
// u1 lies in (0, 1] (never 0): float32 takes 31 bits of a word (|z| up to 6.66), float64
// 52 bits of a 64-bit word (|z| up to 8.57).
#include <cmath>
#include <cstring>

#include "../errors.h"
#include "../simd_math.h"
#include "random_philox.h"
#include "random_tiles.h"

namespace arraycore::native::random {

namespace {

// Taylor series of sin(2 pi r) and cos(2 pi r) in r, |r| <= 1/8 (|2 pi r| <= pi/4): the
// first omitted terms are below 2e-9 (float) and 5e-19 (double) relative.
inline constexpr float kSinF[] = {0x1.921fb6p+2f, -0x1.4abbcep+5f, 0x1.466bc6p+6f,
                                  -0x1.32d2ccp+6f, 0x1.507834p+5f};
inline constexpr float kCosF[] = {0x1p+0f, -0x1.3bd3ccp+4f, 0x1.03c1f0p+6f,
                                  -0x1.55d3c8p+6f, 0x1.e1f506p+5f, -0x1.a6d1f2p+4f};
inline constexpr double kSinD[] = {
    0x1.921fb54442d18p+2,  -0x1.4abbce625be53p+5, 0x1.466bc6775aae2p+6,
    -0x1.32d2cce62bd86p+6, 0x1.50783487ee782p+5,  -0x1.e3074fde8871fp+3,
    0x1.e8f434d018d63p+1,  -0x1.6fadb9f155744p-1, 0x1.aaec32af93359p-4};
inline constexpr double kCosD[] = {
    0x1p+0,                -0x1.3bd3cc9be45dep+4, 0x1.03c1f081b5ac4p+6,
    -0x1.55d3c7e3cbffap+6, 0x1.e1f506891babbp+5,  -0x1.a6d1f2a204a8cp+4,
    0x1.f9d38a3763cc3p+2,  -0x1.b6e24f44b128fp+0, 0x1.20c62c2f2d7f5p-2};

// Horner's rule written out by template recursion: straight-line code (a loop here would be
// an inner loop that blocks vectorizing the loop over values).
template <size_t I, class T, size_t N>
AC_SIMD_INLINE T horner_from(T x, const T (&c)[N]) {
  if constexpr (I + 1 == N) {
    return c[I];
  } else {
    return simd_math::detail::fma(horner_from<I + 1>(x, c), x, c[I]);
  }
}
template <class T, size_t N>
AC_SIMD_INLINE T horner(T x, const T (&c)[N]) {
  return horner_from<0>(x, c);
}

// (sin, cos) of 2 pi (q / 4 + r) for a quadrant q (any integer, taken mod 4).
template <class T, class Q, size_t NS, size_t NC>
AC_SIMD_INLINE void sincos_turns(T r, Q q, const T (&ks)[NS], const T (&kc)[NC], T& s,
                                 T& c) {
  const T r2 = r * r;
  const T sr = r * horner(r2, ks);
  const T cr = horner(r2, kc);
  const bool swap = (q & 1) != 0;
  const T a = swap ? cr : sr;  // sin(2 pi (q/4 + r)) up to sign
  const T b = swap ? sr : cr;  // cos(...) up to sign
  s = (q & 2) != 0 ? -a : a;
  c = ((q + 1) & 2) != 0 ? -b : b;
}

void normal_f32(Key key, Counter ctr, int64_t n, float loc, float scale, float* out) {
  for_each_tile<float>(key, ctr, n, 4, out, [&](const uint32_t* w, int64_t, float* o) {
    for (int p = 0; p < kTileWords / 2; ++p) {
      const uint32_t w_radius = w[2 * p], w_angle = w[2 * p + 1];
      const float u1 =
          static_cast<float>(static_cast<int32_t>(w_radius >> 1)) * 0x1p-31f + 0x1p-32f;
      const float radius = std::sqrt(-2.0f * simd_math::log(u1)) * scale;
      const uint32_t k = (w_angle >> 8) + (1u << 21);  // 24-bit angle, rounded to quarters
      const uint32_t q = k >> 22;
      const float r = static_cast<float>(static_cast<int32_t>(k & ((1u << 22) - 1)) -
                                         (1 << 21)) * 0x1p-24f;
      float s, c;
      sincos_turns(r, q, kSinF, kCosF, s, c);
      o[2 * p] = loc + radius * c;
      o[2 * p + 1] = loc + radius * s;
    }
  });
}

// int64 -> double for |m| < 2^51 through the bits of 1.5 * 2^52 (AVX2 has no vector
// int64 -> double conversion).
AC_SIMD_INLINE double small_int_to_double(int64_t m) {
  const uint64_t bits = 0x4338000000000000ull + static_cast<uint64_t>(m);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d - 0x1.8p52;
}

void normal_f64(Key key, Counter ctr, int64_t n, double loc, double scale, double* out) {
  for_each_tile<double>(key, ctr, n, 2, out, [&](const uint32_t* w, int64_t, double* o) {
    for (int p = 0; p < kTileBlocks; ++p) {
      const uint64_t w_radius = word64(w, 2 * p), w_angle = word64(w, 2 * p + 1);
      const double u1 = unit52(w_radius >> 12) + 0x1p-53;
      const double radius = std::sqrt(-2.0 * simd_math::log(u1)) * scale;
      const uint64_t k = (w_angle >> 11) + (uint64_t{1} << 50);  // 53-bit angle
      const uint64_t q = k >> 51;
      const double r = small_int_to_double(static_cast<int64_t>(k & ((uint64_t{1} << 51) - 1)) -
                                           (int64_t{1} << 50)) * 0x1p-53;
      double s, c;
      sincos_turns(r, q, kSinD, kCosD, s, c);
      o[2 * p] = loc + radius * c;
      o[2 * p + 1] = loc + radius * s;
    }
  });
}

}  // namespace

NdArray normal(const Shape& shape, DType dtype, Key key, Counter ctr, double loc, double scale,
               uint64_t* blocks) {
  NdArray out = empty(shape, dtype);
  const int64_t n = out.numel();
  if (dtype == DType::Float32) {
    normal_f32(key, ctr, n, static_cast<float>(loc), static_cast<float>(scale),
               reinterpret_cast<float*>(out.data()));
    *blocks = blocks_for(n, 4);
  } else if (dtype == DType::Float64) {
    normal_f64(key, ctr, n, loc, scale, reinterpret_cast<double*>(out.data()));
    *blocks = blocks_for(n, 2);
  } else {
    throw TypeError("normal: expected float32 or float64");
  }
  return out;
}

}  // namespace arraycore::native::random
