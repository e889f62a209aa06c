// L0: the AVX-512 intrinsics the vector sort uses (vector_sort_lanes_avx512.h), as a table:
// each function is the _mm512_ intrinsic of the same name, nothing more, so that the same
// sort code also runs on EmulatedAvx512Intrinsics (vector_sort_avx512_emulated.h).  Masks are
// plain 16- and 8-bit integers; immediates are template arguments.  Needs __AVX512F__.
//
// Unmasked operations are written as their zero-masking forms with every lane selected (the
// same instruction): GCC 12 flags each plain form, which starts from _mm512_undefined_epi32(),
// as "may be used uninitialized" once inlined (GCC bug 105593), and no pragma silences it.
#pragma once

#include <cstdint>

#include <immintrin.h>

namespace arraycore::native::vsort {

// vpcompressd/q with a memory destination is two uops on Intel (measured: the partition with
// it sorts 1e6 keys 4-9% faster on a Cascade Lake than compress-to-register plus masked
// store) but microcoded and far slower on AMD Zen 4.  The choice is a compile-time member
// (a run-time test inside the partition loop cost 8%), so the sort is instantiated twice and
// vector_sort_avx512.cpp picks one by the processor's vendor.
inline bool compress_store_fast() {
  __builtin_cpu_init();
  return !__builtin_cpu_is("amd");
}

struct Avx512Intrinsics {
  static constexpr bool kCompressStore = true;  // see compress_store_fast
  using V = __m512i;
  static constexpr __mmask16 kAll16 = 0xFFFF;
  static constexpr __mmask8 kAll8 = 0xFF;

  static V loadu_si512(const void* p) { return _mm512_loadu_si512(p); }
  static void storeu_si512(void* p, V x) { _mm512_storeu_si512(p, x); }
  static V set1_epi32(int32_t k) { return _mm512_set1_epi32(k); }
  static V set1_epi64(int64_t k) { return _mm512_set1_epi64(k); }
  static V mask_loadu_epi32(V src, uint16_t k, const void* p) {
    return _mm512_mask_loadu_epi32(src, k, p);
  }
  static V mask_loadu_epi64(V src, uint8_t k, const void* p) {
    return _mm512_mask_loadu_epi64(src, k, p);
  }
  static void mask_storeu_epi32(void* p, uint16_t k, V x) { _mm512_mask_storeu_epi32(p, k, x); }
  static void mask_storeu_epi64(void* p, uint8_t k, V x) { _mm512_mask_storeu_epi64(p, k, x); }
  static V min_epi32(V a, V b) { return _mm512_maskz_min_epi32(kAll16, a, b); }
  static V max_epi32(V a, V b) { return _mm512_maskz_max_epi32(kAll16, a, b); }
  static V min_epi64(V a, V b) { return _mm512_maskz_min_epi64(kAll8, a, b); }
  static V max_epi64(V a, V b) { return _mm512_maskz_max_epi64(kAll8, a, b); }
  static V mask_max_epi32(V src, uint16_t k, V a, V b) { return _mm512_mask_max_epi32(src, k, a, b); }
  static V mask_max_epi64(V src, uint8_t k, V a, V b) { return _mm512_mask_max_epi64(src, k, a, b); }
  static uint16_t cmpgt_epi32_mask(V a, V b) { return _mm512_cmpgt_epi32_mask(a, b); }
  static uint8_t cmpgt_epi64_mask(V a, V b) { return _mm512_cmpgt_epi64_mask(a, b); }
  static V maskz_compress_epi32(uint16_t k, V a) { return _mm512_maskz_compress_epi32(k, a); }
  static V maskz_compress_epi64(uint8_t k, V a) { return _mm512_maskz_compress_epi64(k, a); }
  static void mask_compressstoreu_epi32(void* p, uint16_t k, V a) {
    _mm512_mask_compressstoreu_epi32(p, k, a);
  }
  static void mask_compressstoreu_epi64(void* p, uint8_t k, V a) {
    _mm512_mask_compressstoreu_epi64(p, k, a);
  }
  static V permutexvar_epi32(V idx, V a) { return _mm512_maskz_permutexvar_epi32(kAll16, idx, a); }
  static V permutexvar_epi64(V idx, V a) { return _mm512_maskz_permutexvar_epi64(kAll8, idx, a); }
  static V permutex2var_epi32(V a, V idx, V b) { return _mm512_permutex2var_epi32(a, idx, b); }
  static V permutex2var_epi64(V a, V idx, V b) { return _mm512_permutex2var_epi64(a, idx, b); }
  template <int Imm>
  static V shuffle_epi32(V a) { return _mm512_maskz_shuffle_epi32(kAll16, a, static_cast<_MM_PERM_ENUM>(Imm)); }
  template <int Imm>
  static V shuffle_i32x4(V a, V b) { return _mm512_maskz_shuffle_i32x4(kAll16, a, b, Imm); }
  template <int Imm>
  static V shuffle_i64x2(V a, V b) { return _mm512_maskz_shuffle_i64x2(kAll8, a, b, Imm); }
  static V xor_si512(V a, V b) { return _mm512_xor_si512(a, b); }
  static V and_si512(V a, V b) { return _mm512_and_si512(a, b); }
  template <int S>
  static V srai_epi32(V a) { return _mm512_maskz_srai_epi32(kAll16, a, S); }
  template <int S>
  static V srli_epi32(V a) { return _mm512_maskz_srli_epi32(kAll16, a, S); }
  template <int S>
  static V srai_epi64(V a) { return _mm512_maskz_srai_epi64(kAll8, a, S); }
  template <int S>
  static V srli_epi64(V a) { return _mm512_maskz_srli_epi64(kAll8, a, S); }
};

// The same with the right side of a partition compressed into a register (AMD).
struct Avx512IntrinsicsRegisterCompress : Avx512Intrinsics {
  static constexpr bool kCompressStore = false;
};

}  // namespace arraycore::native::vsort
