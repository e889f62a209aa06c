// Float32 erf and erfc from eight polynomial pieces whose coefficients are picked per lane by
// a register permutation (vpermps), for special_erf_gamma.cpp's Erf and Erfc kernels.
//
// Why: erf_f and erfc_f (special_erf_gamma.h) evaluate every piece (erf: degrees 8 and 12) or
// part of erfcx in double on every lane; on 256-bit vectors that was 1.16x (erf) and 1.58x
// (erfc) JAX's time.  Here the argument range is cut into eight pieces and each lane runs only
// its own piece's polynomial: a table of eight float coefficients fits in one 256-bit
// register, so fetching a lane's coefficient is one permutation.  (GCC turns a scalar table
// lookup into gathers, several times slower: hence explicit vector types, with the same
// template code instantiated for scalars.)
//
// erf:  erf(x) = sign(x) P_k(u) (times |x| on piece 0), k = floor(2|x|) (pieces of width 1/2
//       up to 4), u = 2|x| - k - 1/2 in [-1/2, 1/2), P_k of degree 6 (~ erf(x)/x on piece 0,
//       for relative accuracy at 0; ~ erf(x) elsewhere, so one rounding at the end).  |x| is
//       clamped at 3.995: the last piece rounds to 1 from 3.92 on, as erf does.  2|x| - k is
//       exact (Sterbenz), and so is u on pieces k >= 1.  Max 1.64 ulp.
// erfc: erfc(|x|) = exp(-x^2) erfcx(|x|), erfcx on z = min(|x|, 10.19) (erfc rounds to 0 from
//       10.06) in pieces cut at the half octaves of z + 3/4 (k from the exponent and the first
//       mantissa bit of z + 3/4; pieces start at 0, 1/4, 3/4, 5/4, 9/4, 13/4, 21/4, 29/4), a
//       polynomial of degree 8 in u = z - mid_k (exact: the midpoints are multiples of 1/4
//       and |u| <= z) whose constant term is two floats, added last (one float would cost up
//       to half an ulp of itself wherever the result lies in a finer binade); exp(-hi - lo)
//       with x^2 = hi + lo exact (FMA) has simd_math's float reduction and polynomial, and
//       erfcx enters as e + e (e^r - 1) (one rounding) before the power of two, which is
//       applied as 2^(k + 64) 2^-64 (so subnormal results are rounded once).
//       erfc(-|x|) = 2 - erfc(|x|).  Max 2.08 ulp over every float32 (erfcx alone 0.8).
//
// Maxima against the double libm functions (erf: every 7th float32; the forms replaced
// measured 1.9 ulp for erf and 1.67 for erfc).  Fits: relative minimax, coefficients
// rounded to float one at a time, each rounding compensated by refitting the others
// (tools/gen_special_rational_coeffs.py, erf_f32_table and erfcx_f32_table).
//
// Scalars and vectors run the same operations in the same order (FMAs fused in both), so the
// vector loop, its scalar tail and the strided loops give the same bits.  NaN: the clamps keep
// NaN (vminps(c, NaN) is NaN), the index is then arbitrary but in range, the result NaN.
#pragma once

#include <cstdint>

#include "special_erf_gamma.h"
#include "table_lanes.h"

namespace arraycore::native::special::erf_gamma {

// Row j: the coefficient of degree 6 - j of the 8 pieces (erf/x on piece 0, erf on 1-7).
inline constexpr float kErfTableF[7][8] = {
    {-0x1.2433e8p-12f, -0x1.c0ea94p-12f, 0x1.44d44ap-12f, 0x1.10ca8ep-13f, -0x1.48c5fcp-14f, -0x1.680bdap-15f, -0x1.badc78p-16f, 0x1.63b254p-17f},
    {-0x1.1ef1a8p-10f, -0x1.a530cap-10f, -0x1.8012fcp-10f, 0x1.90a9b0p-13f, 0x1.5b8f02p-12f, 0x1.6fd11ap-14f, 0x1.58eabep-17f, 0x1.4e8e9ap-21f},
    {0x1.6c8b10p-8f, 0x1.34c1cap-7f, -0x1.8c7366p-12f, -0x1.8965b0p-9f, -0x1.353c50p-10f, -0x1.9d69f6p-13f, -0x1.3f9120p-17f, -0x1.4eb046p-18f},
    {0x1.acd698p-7f, 0x1.b61edap-9f, 0x1.571a70p-6f, 0x1.71529cp-7f, 0x1.63f218p-9f, 0x1.69b48ap-12f, 0x1.9a03dep-16f, 0x1.0a2d10p-20f},
    {-0x1.576610p-4f, -0x1.edc602p-4f, -0x1.2ebff4p-4f, -0x1.7a4d40p-6f, -0x1.0760d0p-8f, -0x1.a74e7ep-12f, -0x1.9b33d0p-16f, -0x1.d49ffap-22f},
    {-0x1.7306f2p-4f, 0x1.492e4ap-2f, 0x1.e46530p-4f, 0x1.b05530p-6f, 0x1.d4143cp-9f, 0x1.3360cep-12f, 0x1.e9b5f6p-17f, 0x1.d947e2p-22f},
    {0x1.1af54ep+0f, 0x1.6c1c98p-1f, 0x1.d8865ep-1f, 0x1.f92d08p-1f, 0x1.ff4048p-1f, 0x1.fff2d0p-1f, 0x1.ffff70p-1f, 0x1.fffffcp-1f}};
// Rows 0-7: the coefficients of degree 8 down to 1 of erfcx on the 8 pieces; rows 8 and 9:
// the constant term's low and high parts.
inline constexpr float kErfcxTableF[10][8] = {
    {0x1.efa39cp-3f, 0x1.a815bep-8f, 0x1.18fd12p-10f, 0x1.eeee2cp-14f, 0x1.347830p-17f, 0x1.0b085ep-21f, 0x1.acaabap-26f, 0x1.a4b3f0p-30f},
    {-0x1.312a38p-2f, -0x1.dabedep-7f, -0x1.6d9362p-9f, -0x1.81f436p-12f, -0x1.2dcbecp-15f, -0x1.57fba6p-19f, -0x1.71ec64p-23f, -0x1.e41e92p-27f},
    {0x1.0529cep-2f, 0x1.f6955ep-6f, 0x1.c8abe8p-8f, 0x1.0fd656p-10f, 0x1.130e00p-13f, 0x1.8cb9e6p-17f, 0x1.251ebap-20f, 0x1.02e04cp-23f},
    {-0x1.47a978p-2f, -0x1.05d808p-4f, -0x1.110252p-6f, -0x1.8b366ap-9f, -0x1.f95e92p-12f, -0x1.ea38d8p-15f, -0x1.ef834ap-18f, -0x1.278a64p-20f},
    {0x1.012b26p-1f, 0x1.fc9bf0p-4f, 0x1.33cb02p-5f, 0x1.136650p-7f, 0x1.c2c710p-10f, 0x1.2a674ep-12f, 0x1.9f595ep-15f, 0x1.4ff498p-17f},
    {-0x1.813ac0p-1f, -0x1.c6ae0ep-3f, -0x1.44836ap-4f, -0x1.6cb740p-6f, -0x1.84e9f0p-8f, -0x1.6375fep-10f, -0x1.57e210p-12f, -0x1.7b0398p-14f},
    {0x1.000050p+0f, 0x1.6ff860p-2f, 0x1.3c2728p-3f, 0x1.c8d0ccp-5f, 0x1.43b98cp-6f, 0x1.9ef718p-8f, 0x1.19a244p-9f, 0x1.a909f0p-11f},
    {-0x1.20dd76p+0f, -0x1.067f26p-1f, -0x1.17c4e4p-2f, -0x1.0c3d52p-3f, -0x1.030578p-4f, -0x1.da3950p-6f, -0x1.c82c12p-7f, -0x1.d9c4ecp-8f},
    {0x1.061380p-33f, -0x1.b17e04p-28f, 0x1.f687e8p-31f, 0x1.e3dc9cp-27f, 0x1.1f72f8p-28f, 0x1.ccab46p-28f, -0x1.c82790p-29f, -0x1.ba1858p-30f},
    {0x1.000000p+0f, 0x1.3b3bc4p-1f, 0x1.b5d878p-2f, 0x1.23cfc2p-2f, 0x1.8c9eb6p-3f, 0x1.08e62cp-3f, 0x1.6d2f82p-4f, 0x1.0669c6p-4f}};
inline constexpr float kErfcxMidF[8] = {0.0f, 0.5f, 1.0f, 1.75f, 2.75f, 4.25f, 6.25f, 8.75f};

namespace table_lanes {

// Scalar lanes: the tables read from memory.
struct Scalar : native::table_lanes::ScalarOps {
  template <int R, int C>
  static F lookup(const float (&t)[R][C], int j, I k) { return t[j][k & 7]; }
  static F lookup(const float (&t)[8], I k) { return t[k & 7]; }
};

#if AC_TABLE_VECTORS
using native::table_lanes::kLanes;
using native::table_lanes::VF;

// Vector lanes: each table row held in a register, read by permutation (a 16-lane
// permutation reads a table of 16: the 8 coefficients twice).
template <int Rows>
struct Vector : native::table_lanes::VectorOps {
  VF rows[Rows];
  template <int C>
  explicit Vector(const float (&t)[Rows][C]) {
    for (int j = 0; j < Rows; ++j)
      for (int l = 0; l < kLanes; ++l) rows[j][l] = t[j][l & 7];
  }
  template <int R, int C>
  F lookup(const float (&)[R][C], int j, I k) const { return __builtin_shuffle(rows[j], k); }
  static F lookup(const float (&t)[8], I k) {
    VF v;
    for (int l = 0; l < kLanes; ++l) v[l] = t[l & 7];
    return __builtin_shuffle(v, k);
  }
};
#endif

// Horner on the coefficients of piece k (rows highest degree first).
template <class L, int R>
[[gnu::always_inline]] inline typename L::F horner(const L& lanes, const float (&t)[R][8],
                                                   typename L::I k, typename L::F u) {
  typename L::F p = lanes.lookup(t, 0, k);
#pragma GCC unroll 16
  for (int j = 1; j < R; ++j) p = L::fma(p, u, lanes.lookup(t, j, k));
  return p;
}

// The same with the constant term in two floats (the last two rows: low, high part), added
// last: c0 rounded to float alone would cost up to half an ulp of c0 wherever the result
// lies in a finer binade than c0.
template <class L, int R>
[[gnu::always_inline]] inline typename L::F horner_split(const L& lanes, const float (&t)[R][8],
                                                         typename L::I k, typename L::F u) {
  typename L::F p = lanes.lookup(t, 0, k);
#pragma GCC unroll 16
  for (int j = 1; j < R - 1; ++j) p = L::fma(p, u, lanes.lookup(t, j, k));
  return p + lanes.lookup(t, R - 1, k);
}

template <class L>
[[gnu::always_inline]] inline typename L::F erf_table(const L& lanes, typename L::F x) {
  using F = typename L::F;
  using I = typename L::I;
  const I xb = L::bits(x);
  const F ax = L::from_bits(xb & 0x7fffffff);
  const F t = L::min(F{} + 7.99f, ax * 2.0f);
  const I k = L::to_int(t);
  const F u = (t - L::to_float(k)) - 0.5f;
  const F p = horner(lanes, kErfTableF, k, u);
  const F r = t < 1.0f ? p * ax : p;
  return L::from_bits(L::bits(r) | (xb & static_cast<int32_t>(0x80000000u)));
}

template <class L>
[[gnu::always_inline]] inline typename L::F erfc_table(const L& lanes, typename L::F x) {
  using F = typename L::F;
  using I = typename L::I;
  const F ax = L::from_bits(L::bits(x) & 0x7fffffff);
  const F z = L::min(F{} + 10.19f, ax);
  // erfcx(z)
  const I k = (L::bits(z + 0.75f) >> 22) - 253;
  const F e = horner_split(lanes, kErfcxTableF, k, z - L::lookup(kErfcxMidF, k));
  // exp(-hi - lo) e, as simd_math::exp(-hi, -lo) (no clamps: -hi >= -103.9), the power of two
  // 2^k applied as 2^(k + 64) 2^-64 (one rounding into the subnormals)
  const F hi = z * z;
  const F lo = L::fma(z, z, -hi);
  constexpr float kLog2e = 0x1.715476p+0f, kShift = 0x1.8p23f;
  const F kf = L::fma(-hi, F{} + kLog2e, F{} + kShift);
  const I ku = L::bits(kf) - L::bits(F{} + kShift);
  const F kk = kf - kShift;
  const F rh = L::fma(-kk, F{} + simd_math::detail::kLn2HiF, -hi);
  const F rl = L::fma(-kk, F{} + simd_math::detail::kLn2LoF, -lo);
  const F r = rh + rl;
  F p = F{} + 0x1.6d10fcp-10f;  // simd_math's float exp polynomial (exp_poly)
  p = L::fma(p, r, F{} + 0x1.120b62p-7f);
  p = L::fma(p, r, F{} + 0x1.55551ap-5f);
  p = L::fma(p, r, F{} + 0x1.5554dep-3f);
  p = L::fma(p, r, F{} + 0x1.000000p-1f);
  const F q = L::fma(r * r, p, rl);
  // e exp(r) = e + e (rh + q), one rounding (e (1 + (rh + q)) would round twice)
  const F s = L::from_bits((ku + (127 + 64)) << 23);
  const F res = (L::fma(e, rh + q, e) * s) * 0x1p-64f;
  const F y = x < 0.0f ? 2.0f - res : res;
  return x != x ? x : y;  // (NaN: the input, as the scalar and vector forms may differ in sign)
}

}  // namespace table_lanes

// The scalar forms (strided loops, the vector loops' tails).
AC_EG_VEC float erf_table_f(float x) {
  return table_lanes::erf_table(table_lanes::Scalar{}, x);
}
AC_EG_VEC float erfc_table_f(float x) {
  return table_lanes::erfc_table(table_lanes::Scalar{}, x);
}

#if AC_TABLE_VECTORS
inline void erf_table_run(const float* a, float* o, int64_t n) {
  const table_lanes::Vector<7> lanes(kErfTableF);
  native::table_lanes::run_contiguous(
      lanes, a, o, n,
      [](const auto& l, table_lanes::VF x) { return table_lanes::erf_table(l, x); },
      erf_table_f);
}
inline void erfc_table_run(const float* a, float* o, int64_t n) {
  const table_lanes::Vector<10> lanes(kErfcxTableF);
  native::table_lanes::run_contiguous(
      lanes, a, o, n,
      [](const auto& l, table_lanes::VF x) { return table_lanes::erfc_table(l, x); },
      erfc_table_f);
}
#endif

}  // namespace arraycore::native::special::erf_gamma
