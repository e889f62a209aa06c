// L0: 32- and 64-bit integer floor division and remainder by one invariant divisor, through a
// multiplication by a precomputed reciprocal (Granlund & Montgomery, "Division by Invariant
// Integers using Multiplication", PLDI 1994, Figure 4.1).
//
// Why: x // 7 on int64 costs an integer division per element (idiv, 10-40 cycles, scalar):
// 2.7 ms per 1e6 on AVX2 against NumPy's 0.61 ms (NumPy divides by a scalar through
// libdivide).  Machines with AVX-512DQ already divide 64-bit integers within 2^53 through
// double (int_math.h); this form is exact for every value on every machine.
//
// The quotient of an unsigned N-bit n by d >= 1 (N = 32 or 64): with l = ceil(log2 d) and
// m = floor(2^N (2^l - d) / d) + 1 (< 2^N), t = mulhi(m, n) and
//   q = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0),
// exact for all n < 2^N.  GCC's vectorizer gets the high multiply wrong for both widths: for
// 32 bits it widens the lanes and emulates 64-bit products (24 vpmuludq per loop, 4x slower
// than the division through double), and neither AVX2 nor AVX-512 has a 64-bit high multiply,
// which it emulates as four full 64-bit products (12 vpmuludq; 1.2 ms per 1e6 on AVX2, NumPy
// 0.6).  So x86 builds run the loops with intrinsics (vpmuludq on the halves or the even and
// odd lanes); one scalar loop (divide_one) takes the tail and other targets.
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "int_math.h"

namespace arraycore::native {

// The reciprocal of d >= 1 for N-bit unsigned U (Divisor<uint32_t>, Divisor<uint64_t>).
template <class U>
struct Divisor {
  U d, m;
  int shift1, shift2;
};
template <class U>
using DoubleWidth = std::conditional_t<sizeof(U) == 4, uint64_t, unsigned __int128>;

template <class U>
inline Divisor<U> make_divisor(U d) {  // d >= 1
  using W = DoubleWidth<U>;
  constexpr int N = 8 * sizeof(U);
  int l = 0;
  while (l < N && (W(1) << l) < d) ++l;  // ceil(log2 d)
  const W m = (((W(1) << l) - d) << N) / d + 1;
  return {d, static_cast<U>(m), l < 1 ? l : 1, l > 1 ? l - 1 : 0};
}

template <class U>
[[gnu::always_inline]] inline U divide(U n, const Divisor<U>& v) {
  const U t = static_cast<U>((DoubleWidth<U>(v.m) * n) >> (8 * sizeof(U)));
  return (t + ((n - t) >> v.shift1)) >> v.shift2;
}

#if defined(__AVX2__)
// 4 lanes of divide<uint64_t>.
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
                        const Divisor<uint64_t>& v) {
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

#if defined(__AVX2__)
// 8 lanes of divide<uint32_t>.
[[gnu::always_inline]] inline __m256i divide_u32x8(__m256i n, __m256i m, __m128i shift1,
                                                   __m128i shift2) {
  const __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(n, m), 32);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(n, 32), m);
  const __m256i t = _mm256_blend_epi32(even, odd, 0xAA);  // the high halves, lane by lane
  const __m256i q = _mm256_add_epi32(t, _mm256_srl_epi32(_mm256_sub_epi32(n, t), shift1));
  return _mm256_srl_epi32(q, shift2);
}

// The 32-bit loop of divide_run_by_scalar over the first n - n % 8 elements (as
// divide_run_avx2).
template <bool Signed, bool Remainder>
int64_t divide_run32_avx2(const void* a_, void* o_, int64_t n, bool b_neg, uint32_t ad,
                          const Divisor<uint32_t>& v) {
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
                            const Divisor<uint32_t>& v) {
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

// One element of divide_run_by_scalar (the tail of the vector loops, and other targets).
template <class T, bool Remainder>
[[gnu::always_inline]] inline T divide_one(T a, bool b_neg, std::make_unsigned_t<T> ad,
                                           const Divisor<std::make_unsigned_t<T>>& v) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_unsigned_v<T>) {
    const U q = divide(a, v);
    return Remainder ? T(a - q * ad) : T(q);
  } else {
    const U x = static_cast<U>(a);
    const bool a_neg = a < 0;
    const U ax = a_neg ? U(0) - x : x;  // |a| (2^(N-1) for MIN)
    const bool opposite = a_neg != b_neg;  // the true quotient is negative
    if constexpr (Remainder) {
      const U ur = ax - divide(ax, v) * ad;
      // |r| = ur, or ad - ur when the floor moved the quotient down; r has b's sign
      const U mag = opposite & (ur != 0) ? ad - ur : ur;
      return static_cast<T>(b_neg ? U(0) - mag : mag);
    } else {
      // a negative quotient rounds away from zero: -ceil(|a| / |b|), and
      // ceil(u / d) = floor((u + d - 1) / d) (u + d - 1 < 2^N: both are <= 2^(N-1))
      const U uq = divide(opposite ? ax + (ad - 1) : ax, v);
      return static_cast<T>(opposite ? U(0) - uq : uq);  // MIN // -1 wraps to MIN
    }
  }
}

// o[i] = a[i] // b (Remainder = false) or a[i] % b (true) with NumPy's semantics for a 32- or
// 64-bit integer type: floor division, the remainder taking the divisor's sign, x // 0 and
// x % 0 giving 0, MIN // -1 wrapping to MIN.
template <class T, bool Remainder>
void divide_run_by_scalar(const T* a, T b, T* o, int64_t n) {
  static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
  using U = std::make_unsigned_t<T>;
  if (b == 0) {
    for (int64_t i = 0; i < n; ++i) o[i] = T(0);
    return;
  }
  const bool b_neg = std::is_signed_v<T> && b < 0;
  const U ad = b_neg ? U(0) - static_cast<U>(b) : static_cast<U>(b);
  const Divisor<U> v = make_divisor(ad);
  int64_t i = 0;
  if constexpr (sizeof(T) == 8) {
#if defined(__AVX2__)
    i = divide_run_avx2<std::is_signed_v<T>, Remainder>(a, o, n, b_neg, ad, v);
#endif
  } else {
#if defined(__AVX512F__)
    i = divide_run32_avx512<std::is_signed_v<T>, Remainder>(a, o, n, b_neg, ad, v);
#elif defined(__AVX2__)
    i = divide_run32_avx2<std::is_signed_v<T>, Remainder>(a, o, n, b_neg, ad, v);
#endif
  }
  for (; i < n; ++i) o[i] = divide_one<T, Remainder>(a[i], b_neg, ad, v);
}

}  // namespace arraycore::native
