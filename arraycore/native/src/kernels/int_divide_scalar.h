// L0: 32- and 64-bit integer floor division and remainder by one invariant divisor, through a
// multiplication by a precomputed reciprocal (Granlund & Montgomery, "Division by Invariant
// Integers using Multiplication", PLDI 1994, Figure 4.1) in a loop GCC vectorizes.
//
// Why: x // 7 on int64 costs an integer division per element (idiv, 10-40 cycles, scalar):
// 2.7 ms per 1e6 on AVX2 against NumPy's 0.32 ms (NumPy divides by a scalar through
// libdivide).  Machines with AVX-512DQ already divide 64-bit integers within 2^53 through
// double (int_math.h); this form is exact for every value on every machine.
//
// The quotient of an unsigned 64-bit n by d >= 1: with l = ceil(log2 d) and
// m = floor(2^64 (2^l - d) / d) + 1 (< 2^64), t = mulhi(m, n) and
//   q = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0),
// exact for all n < 2^64.  Neither AVX2 nor AVX-512 has a 64-bit high multiply: mulhi is four
// 32 x 32 -> 64-bit products of the halves (vpmuludq).  GCC's vectorizer does not see that the
// halves are 32-bit and emulates four full 64-bit products (12 vpmuludq; 1.2 ms per 1e6 on
// AVX2, NumPy 0.6), so x86 builds run the loop with intrinsics (divide_run_avx2: 4 lanes, also
// on AVX-512 machines); the scalar loop takes the tail and other targets.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "int_math.h"

namespace arraycore::native {

struct U64Divisor {
  uint64_t d, m;
  int shift1, shift2;
};

inline U64Divisor make_u64_divisor(uint64_t d) {  // d >= 1
  int l = 0;
  while (l < 64 && (uint64_t(1) << l) < d) ++l;  // ceil(log2 d)
  const unsigned __int128 two_l = static_cast<unsigned __int128>(1) << l;
  const unsigned __int128 m = ((two_l - d) << 64) / d + 1;
  return {d, static_cast<uint64_t>(m), l < 1 ? l : 1, l > 1 ? l - 1 : 0};
}

// The high 64 bits of a * b from four 32 x 32 -> 64-bit products (vectorizable).
[[gnu::always_inline]] inline uint64_t mulhi_u64(uint64_t a, uint64_t b) {
  // (uint32 halves widened at the product: the form GCC recognizes as vpmuludq; halves held
  // in uint64 made it emulate four full 64-bit products, 12 vpmuludq)
  const uint32_t al = static_cast<uint32_t>(a), ah = static_cast<uint32_t>(a >> 32);
  const uint32_t bl = static_cast<uint32_t>(b), bh = static_cast<uint32_t>(b >> 32);
  const uint64_t p0 = uint64_t(al) * bl, p1 = uint64_t(al) * bh;
  const uint64_t p2 = uint64_t(ah) * bl, p3 = uint64_t(ah) * bh;
  const uint64_t mid = (p0 >> 32) + static_cast<uint32_t>(p1) + static_cast<uint32_t>(p2);
  return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

[[gnu::always_inline]] inline uint64_t divide_u64(uint64_t n, uint64_t m, int shift1,
                                                  int shift2) {
  const uint64_t t = mulhi_u64(m, n);
  return (t + ((n - t) >> shift1)) >> shift2;
}

#if defined(__AVX2__)
// 4 lanes of divide_u64.
[[gnu::always_inline]] inline __m256i divide_u64x4(__m256i n, __m256i m_lo, __m256i m_hi,
                                                   __m128i shift1, __m128i shift2) {
  const __m256i n_hi = _mm256_srli_epi64(n, 32);
  const __m256i p0 = _mm256_mul_epu32(n, m_lo), p1 = _mm256_mul_epu32(n, m_hi);
  const __m256i p2 = _mm256_mul_epu32(n_hi, m_lo), p3 = _mm256_mul_epu32(n_hi, m_hi);
  const __m256i low32 = _mm256_set1_epi64x(0xffffffff);
  const __m256i mid = _mm256_add_epi64(_mm256_add_epi64(_mm256_srli_epi64(p0, 32),
                                                        _mm256_and_si256(p1, low32)),
                                       _mm256_and_si256(p2, low32));
  const __m256i t = _mm256_add_epi64(
      _mm256_add_epi64(p3, _mm256_srli_epi64(p1, 32)),
      _mm256_add_epi64(_mm256_srli_epi64(p2, 32), _mm256_srli_epi64(mid, 32)));
  const __m256i q = _mm256_add_epi64(t, _mm256_srl_epi64(_mm256_sub_epi64(n, t), shift1));
  return _mm256_srl_epi64(q, shift2);
}

// The loop of divide_run_by_scalar over the first n - n % 4 elements; returns how many it
// did.  Same arithmetic: for signed types |a| through the sign mask s = (a < 0), the
// quotient's sign `opposite` = s ^ (b < 0), negation as (x ^ mask) - mask (all 0 for
// unsigned types).
template <bool Signed, bool Remainder>
int64_t divide_run_avx2(const void* a_, void* o_, int64_t n, bool b_neg, uint64_t ad,
                        const U64Divisor& v) {
  const int64_t* a = static_cast<const int64_t*>(a_);
  int64_t* o = static_cast<int64_t*>(o_);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i m_lo = _mm256_set1_epi64x(static_cast<int64_t>(v.m & 0xffffffff));
  const __m256i m_hi = _mm256_set1_epi64x(static_cast<int64_t>(v.m >> 32));
  const __m128i shift1 = _mm_cvtsi32_si128(v.shift1), shift2 = _mm_cvtsi32_si128(v.shift2);
  const __m256i bmask = _mm256_set1_epi64x(b_neg ? -1 : 0);
  const __m256i adv = _mm256_set1_epi64x(static_cast<int64_t>(ad));
  const __m256i ad_minus_1 = _mm256_set1_epi64x(static_cast<int64_t>(ad - 1));
  const __m256i ad_lo = _mm256_set1_epi64x(static_cast<int64_t>(ad & 0xffffffff));
  const __m256i ad_hi = _mm256_set1_epi64x(static_cast<int64_t>(ad >> 32));
  const int64_t nv = n - n % 4;
  for (int64_t i = 0; i < nv; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i s = Signed ? _mm256_cmpgt_epi64(zero, x) : zero;
    const __m256i ax = _mm256_sub_epi64(_mm256_xor_si256(x, s), s);
    const __m256i opposite = _mm256_xor_si256(s, bmask);
    __m256i r;
    if constexpr (Remainder) {
      const __m256i uq = divide_u64x4(ax, m_lo, m_hi, shift1, shift2);
      // uq * ad, low 64 bits: lo*lo + ((hi*lo + lo*hi) << 32)
      const __m256i prod = _mm256_add_epi64(
          _mm256_mul_epu32(uq, ad_lo),
          _mm256_slli_epi64(_mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(uq, 32), ad_lo),
                                             _mm256_mul_epu32(uq, ad_hi)),
                            32));
      const __m256i ur = _mm256_sub_epi64(ax, prod);
      const __m256i moved = _mm256_andnot_si256(_mm256_cmpeq_epi64(ur, zero), opposite);
      const __m256i mag = _mm256_blendv_epi8(ur, _mm256_sub_epi64(adv, ur), moved);
      r = _mm256_sub_epi64(_mm256_xor_si256(mag, bmask), bmask);
    } else {
      const __m256i u = _mm256_add_epi64(ax, _mm256_and_si256(opposite, ad_minus_1));
      const __m256i uq = divide_u64x4(u, m_lo, m_hi, shift1, shift2);
      r = _mm256_sub_epi64(_mm256_xor_si256(uq, opposite), opposite);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), r);
  }
  return nv;
}
#endif

// The 32-bit form (N = 32).  The high half of a 32 x 32-bit product is one widening
// multiply, but GCC's vectorizer widens the lanes to 64 bits and emulates 64-bit products
// (24 vpmuludq per loop, 4x slower than the division through double), so x86 builds run
// divide_run32_avx2: vpmuludq on the even and the odd lanes, blended.
struct U32Divisor {
  uint32_t d, m;
  int shift1, shift2;
};
inline U32Divisor make_u32_divisor(uint32_t d) {  // d >= 1
  int l = 0;
  while (l < 32 && (uint64_t(1) << l) < d) ++l;
  const uint64_t m = (((uint64_t(1) << l) - d) << 32) / d + 1;
  return {d, static_cast<uint32_t>(m), l < 1 ? l : 1, l > 1 ? l - 1 : 0};
}
[[gnu::always_inline]] inline uint32_t divide_u32(uint32_t n, uint32_t m, int shift1,
                                                  int shift2) {
  const uint32_t t = static_cast<uint32_t>((uint64_t(m) * n) >> 32);
  return (t + ((n - t) >> shift1)) >> shift2;
}

#if defined(__AVX2__)
// 8 lanes of divide_u32.
[[gnu::always_inline]] inline __m256i divide_u32x8(__m256i n, __m256i m, __m128i shift1,
                                                   __m128i shift2) {
  const __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(n, m), 32);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(n, 32), m);
  const __m256i t = _mm256_blend_epi32(even, odd, 0xAA);  // the high halves, lane by lane
  const __m256i q = _mm256_add_epi32(t, _mm256_srl_epi32(_mm256_sub_epi32(n, t), shift1));
  return _mm256_srl_epi32(q, shift2);
}

// The loop of divide_run_by_scalar32 over the first n - n % 8 elements (as divide_run_avx2).
template <bool Signed, bool Remainder>
int64_t divide_run32_avx2(const void* a_, void* o_, int64_t n, bool b_neg, uint32_t ad,
                          const U32Divisor& v) {
  const int32_t* a = static_cast<const int32_t*>(a_);
  int32_t* o = static_cast<int32_t*>(o_);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i m = _mm256_set1_epi32(static_cast<int32_t>(v.m));
  const __m128i shift1 = _mm_cvtsi32_si128(v.shift1), shift2 = _mm_cvtsi32_si128(v.shift2);
  const __m256i bmask = _mm256_set1_epi32(b_neg ? -1 : 0);
  const __m256i adv = _mm256_set1_epi32(static_cast<int32_t>(ad));
  const __m256i ad_minus_1 = _mm256_set1_epi32(static_cast<int32_t>(ad - 1));
  const int64_t nv = n - n % 8;
  for (int64_t i = 0; i < nv; i += 8) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i s = Signed ? _mm256_srai_epi32(x, 31) : zero;
    const __m256i ax = _mm256_sub_epi32(_mm256_xor_si256(x, s), s);
    const __m256i opposite = _mm256_xor_si256(s, bmask);
    __m256i r;
    if constexpr (Remainder) {
      const __m256i uq = divide_u32x8(ax, m, shift1, shift2);
      const __m256i ur = _mm256_sub_epi32(ax, _mm256_mullo_epi32(uq, adv));
      const __m256i moved = _mm256_andnot_si256(_mm256_cmpeq_epi32(ur, zero), opposite);
      const __m256i mag = _mm256_blendv_epi8(ur, _mm256_sub_epi32(adv, ur), moved);
      r = _mm256_sub_epi32(_mm256_xor_si256(mag, bmask), bmask);
    } else {
      const __m256i u = _mm256_add_epi32(ax, _mm256_and_si256(opposite, ad_minus_1));
      const __m256i uq = divide_u32x8(u, m, shift1, shift2);
      r = _mm256_sub_epi32(_mm256_xor_si256(uq, opposite), opposite);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), r);
  }
  return nv;
}
#endif

#if defined(__AVX512F__)
// divide_run32_avx2 on 16 lanes: int32 // 7 on AVX-512, 89 us per 1e6 (the 8-lane form 162,
// the division through double 127, NumPy 108).
template <bool Signed, bool Remainder>
int64_t divide_run32_avx512(const void* a_, void* o_, int64_t n, bool b_neg, uint32_t ad,
                            const U32Divisor& v) {
  const int32_t* a = static_cast<const int32_t*>(a_);
  int32_t* o = static_cast<int32_t*>(o_);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i m = _mm512_set1_epi32(static_cast<int32_t>(v.m));
  const __m128i shift1 = _mm_cvtsi32_si128(v.shift1), shift2 = _mm_cvtsi32_si128(v.shift2);
  const __m512i bmask = _mm512_set1_epi32(b_neg ? -1 : 0);
  const __m512i adv = _mm512_set1_epi32(static_cast<int32_t>(ad));
  const __m512i ad_minus_1 = _mm512_set1_epi32(static_cast<int32_t>(ad - 1));
  const auto divide = [&](__m512i x) {
    const __m512i even = _mm512_srli_epi64(_mm512_mul_epu32(x, m), 32);
    const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(x, 32), m);
    const __m512i t = _mm512_mask_blend_epi32(0xAAAA, even, odd);
    const __m512i q = _mm512_add_epi32(t, _mm512_srl_epi32(_mm512_sub_epi32(x, t), shift1));
    return _mm512_srl_epi32(q, shift2);
  };
  const int64_t nv = n - n % 16;
  for (int64_t i = 0; i < nv; i += 16) {
    const __m512i x = _mm512_loadu_si512(a + i);
    const __m512i s = Signed ? _mm512_srai_epi32(x, 31) : zero;
    const __m512i ax = _mm512_sub_epi32(_mm512_xor_si512(x, s), s);
    const __m512i opposite = _mm512_xor_si512(s, bmask);
    __m512i r;
    if constexpr (Remainder) {
      const __m512i ur = _mm512_sub_epi32(ax, _mm512_mullo_epi32(divide(ax), adv));
      const __mmask16 moved = _mm512_test_epi32_mask(opposite, opposite) &
                              _mm512_test_epi32_mask(ur, ur);
      const __m512i mag = _mm512_mask_blend_epi32(moved, ur, _mm512_sub_epi32(adv, ur));
      r = _mm512_sub_epi32(_mm512_xor_si512(mag, bmask), bmask);
    } else {
      const __m512i u = _mm512_add_epi32(ax, _mm512_and_si512(opposite, ad_minus_1));
      const __m512i uq = divide(u);
      r = _mm512_sub_epi32(_mm512_xor_si512(uq, opposite), opposite);
    }
    _mm512_storeu_si512(o + i, r);
  }
  return nv;
}
#endif

// divide_run_by_scalar for 32-bit integers: the same arithmetic in 32 bits.
template <class T, bool Remainder>
void divide_run_by_scalar32(const T* a, T b, T* o, int64_t n) {
  static_assert(sizeof(T) == 4 && std::is_integral_v<T>);
  if (b == 0) {
    for (int64_t i = 0; i < n; ++i) o[i] = T(0);
    return;
  }
  const bool b_neg = std::is_signed_v<T> && b < 0;
  const uint32_t ad = b_neg ? uint32_t(0) - static_cast<uint32_t>(b) : static_cast<uint32_t>(b);
  const U32Divisor v = make_u32_divisor(ad);
  const uint32_t m = v.m;
  const int s1 = v.shift1, s2 = v.shift2;
  int64_t i = 0;
#if defined(__AVX512F__)
  i = divide_run32_avx512<std::is_signed_v<T>, Remainder>(a, o, n, b_neg, ad, v);
#elif defined(__AVX2__)
  i = divide_run32_avx2<std::is_signed_v<T>, Remainder>(a, o, n, b_neg, ad, v);
#endif
  if constexpr (std::is_unsigned_v<T>) {
    for (; i < n; ++i) {
      const uint32_t q = divide_u32(a[i], m, s1, s2);
      o[i] = Remainder ? T(a[i] - q * ad) : T(q);
    }
  } else {
    for (; i < n; ++i) {
      const uint32_t x = static_cast<uint32_t>(a[i]);
      const bool a_neg = a[i] < 0;
      const uint32_t ax = a_neg ? uint32_t(0) - x : x;
      const bool opposite = a_neg != b_neg;
      if constexpr (Remainder) {
        const uint32_t ur = ax - divide_u32(ax, m, s1, s2) * ad;
        const uint32_t mag = opposite & (ur != 0) ? ad - ur : ur;
        o[i] = static_cast<T>(b_neg ? uint32_t(0) - mag : mag);
      } else {
        const uint32_t uq = divide_u32(opposite ? ax + (ad - 1) : ax, m, s1, s2);
        o[i] = static_cast<T>(opposite ? uint32_t(0) - uq : uq);
      }
    }
  }
}

// o[i] = a[i] // b (Remainder = false) or a[i] % b (true) with NumPy's semantics for a
// 64-bit integer type: floor division, the remainder taking the divisor's sign, x // 0 and
// x % 0 giving 0, MIN // -1 wrapping to MIN.
template <class T, bool Remainder>
void divide_run_by_scalar(const T* a, T b, T* o, int64_t n) {
  static_assert(sizeof(T) == 8 && std::is_integral_v<T>);
  if (b == 0) {
    for (int64_t i = 0; i < n; ++i) o[i] = T(0);
    return;
  }
  const bool b_neg = std::is_signed_v<T> && b < 0;
  const uint64_t ad = b_neg ? uint64_t(0) - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  const U64Divisor v = make_u64_divisor(ad);
  const uint64_t m = v.m;
  const int s1 = v.shift1, s2 = v.shift2;
  int64_t i = 0;
#if defined(__AVX2__)
  i = divide_run_avx2<std::is_signed_v<T>, Remainder>(a, o, n, b_neg, ad, v);
#endif
  if constexpr (std::is_unsigned_v<T>) {
    for (; i < n; ++i) {
      const uint64_t q = divide_u64(a[i], m, s1, s2);
      o[i] = Remainder ? T(a[i] - q * ad) : T(q);
    }
  } else {
    for (; i < n; ++i) {
      const uint64_t x = static_cast<uint64_t>(a[i]);
      const bool a_neg = a[i] < 0;
      const uint64_t ax = a_neg ? uint64_t(0) - x : x;  // |a| (2^63 for MIN)
      const bool opposite = a_neg != b_neg;  // the true quotient is negative
      if constexpr (Remainder) {
        const uint64_t ur = ax - divide_u64(ax, m, s1, s2) * ad;
        // |r| = ur, or ad - ur when the floor moved the quotient down; r has b's sign
        const uint64_t mag = opposite & (ur != 0) ? ad - ur : ur;
        o[i] = static_cast<T>(b_neg ? uint64_t(0) - mag : mag);
      } else {
        // a negative quotient rounds away from zero: -ceil(|a| / |b|), and
        // ceil(u / d) = floor((u + d - 1) / d) (u + d - 1 < 2^64: both are <= 2^63)
        const uint64_t uq = divide_u64(opposite ? ax + (ad - 1) : ax, m, s1, s2);
        o[i] = static_cast<T>(opposite ? uint64_t(0) - uq : uq);  // MIN // -1 wraps to MIN
      }
    }
  }
}

}  // namespace arraycore::native
