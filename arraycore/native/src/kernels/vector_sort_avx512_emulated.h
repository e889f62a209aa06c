// L0: the table of AVX-512 intrinsics of vector_sort_avx512_intrinsics.h, emulated lane by lane
// in portable C++ after the operation descriptions of Intel's Intrinsics Guide.  The vector
// sort's AVX-512 code runs on it (ARRAYCORE_SORT_ISA=avx512-emulated, Note [Sort ISA] in
// vector_sort.h) so that machines without AVX-512 test that code: its lane indices, shuffle
// immediates and mask handling.  Slow by design; never the default.
#pragma once

#include <cstdint>
#include <cstring>

namespace arraycore::native::vsort {

struct EmulatedAvx512Intrinsics {
  // Partitions compress to memory, as Intel machines do (Lanes512::put).
  static constexpr bool kCompressStore = true;
  struct V {
    unsigned char bytes[64];
  };

  // Lane access (T: the lane type; memcpy keeps it free of aliasing questions).
  template <class T>
  static T get(const V& v, int i) {
    T x;
    std::memcpy(&x, v.bytes + i * sizeof(T), sizeof(T));
    return x;
  }
  template <class T>
  static void set(V& v, int i, T x) {
    std::memcpy(v.bytes + i * sizeof(T), &x, sizeof(T));
  }
  // dst[i] = f(i) for every lane of type T.
  template <class T, class F>
  static V make(F f) {
    V r;
    for (int i = 0; i < int(64 / sizeof(T)); ++i) set<T>(r, i, f(i));
    return r;
  }

  static V loadu_si512(const void* p) {
    V r;
    std::memcpy(r.bytes, p, 64);
    return r;
  }
  static void storeu_si512(void* p, V x) { std::memcpy(p, x.bytes, 64); }
  static V set1_epi32(int32_t k) { return make<int32_t>([&](int) { return k; }); }
  static V set1_epi64(int64_t k) { return make<int64_t>([&](int) { return k; }); }

  // Masked loads and stores touch only the memory of the selected lanes.
  template <class T>
  static V mask_loadu(V src, unsigned k, const void* p) {
    return make<T>([&](int i) {
      T x = get<T>(src, i);
      if (k >> i & 1) std::memcpy(&x, static_cast<const char*>(p) + i * sizeof(T), sizeof(T));
      return x;
    });
  }
  template <class T>
  static void mask_storeu(void* p, unsigned k, V x) {
    for (int i = 0; i < int(64 / sizeof(T)); ++i)
      if (k >> i & 1) {
        const T v = get<T>(x, i);
        std::memcpy(static_cast<char*>(p) + i * sizeof(T), &v, sizeof(T));
      }
  }
  static V mask_loadu_epi32(V src, uint16_t k, const void* p) { return mask_loadu<int32_t>(src, k, p); }
  static V mask_loadu_epi64(V src, uint8_t k, const void* p) { return mask_loadu<int64_t>(src, k, p); }
  static void mask_storeu_epi32(void* p, uint16_t k, V x) { mask_storeu<int32_t>(p, k, x); }
  static void mask_storeu_epi64(void* p, uint8_t k, V x) { mask_storeu<int64_t>(p, k, x); }

  template <class T>
  static V lanewise_min(V a, V b) {
    return make<T>([&](int i) { return get<T>(a, i) < get<T>(b, i) ? get<T>(a, i) : get<T>(b, i); });
  }
  template <class T>
  static V lanewise_max(V a, V b) {
    return make<T>([&](int i) { return get<T>(a, i) > get<T>(b, i) ? get<T>(a, i) : get<T>(b, i); });
  }
  static V min_epi32(V a, V b) { return lanewise_min<int32_t>(a, b); }
  static V max_epi32(V a, V b) { return lanewise_max<int32_t>(a, b); }
  static V min_epi64(V a, V b) { return lanewise_min<int64_t>(a, b); }
  static V max_epi64(V a, V b) { return lanewise_max<int64_t>(a, b); }
  // dst = max(a, b) in the lanes of k, src elsewhere.
  template <class T>
  static V mask_max(V src, unsigned k, V a, V b) {
    const V m = lanewise_max<T>(a, b);
    return make<T>([&](int i) { return (k >> i & 1) ? get<T>(m, i) : get<T>(src, i); });
  }
  static V mask_max_epi32(V src, uint16_t k, V a, V b) { return mask_max<int32_t>(src, k, a, b); }
  static V mask_max_epi64(V src, uint8_t k, V a, V b) { return mask_max<int64_t>(src, k, a, b); }

  template <class T>
  static unsigned cmpgt_mask(V a, V b) {
    unsigned k = 0;
    for (int i = 0; i < int(64 / sizeof(T)); ++i) k |= unsigned(get<T>(a, i) > get<T>(b, i)) << i;
    return k;
  }
  static uint16_t cmpgt_epi32_mask(V a, V b) { return static_cast<uint16_t>(cmpgt_mask<int32_t>(a, b)); }
  static uint8_t cmpgt_epi64_mask(V a, V b) { return static_cast<uint8_t>(cmpgt_mask<int64_t>(a, b)); }

  // The lanes of k packed, in order, into the lowest lanes; the rest zero.
  template <class T>
  static V maskz_compress(unsigned k, V a) {
    V r{};
    int j = 0;
    for (int i = 0; i < int(64 / sizeof(T)); ++i)
      if (k >> i & 1) set<T>(r, j++, get<T>(a, i));
    return r;
  }
  static V maskz_compress_epi32(uint16_t k, V a) { return maskz_compress<int32_t>(k, a); }
  static V maskz_compress_epi64(uint8_t k, V a) { return maskz_compress<int64_t>(k, a); }
  static void mask_compressstoreu_epi32(void* p, uint16_t k, V a) {
    V c = maskz_compress<int32_t>(k, a);
    std::memcpy(p, &c, 4 * static_cast<size_t>(__builtin_popcount(k)));
  }
  static void mask_compressstoreu_epi64(void* p, uint8_t k, V a) {
    V c = maskz_compress<int64_t>(k, a);
    std::memcpy(p, &c, 8 * static_cast<size_t>(__builtin_popcount(k)));
  }

  // dst[i] = a[idx[i] mod lanes].
  template <class T>
  static V permutexvar(V idx, V a) {
    constexpr int n = 64 / sizeof(T);
    return make<T>([&](int i) { return get<T>(a, static_cast<int>(get<T>(idx, i) & (n - 1))); });
  }
  static V permutexvar_epi32(V idx, V a) { return permutexvar<int32_t>(idx, a); }
  static V permutexvar_epi64(V idx, V a) { return permutexvar<int64_t>(idx, a); }
  // dst[i] = (idx[i] & lanes ? b : a)[idx[i] mod lanes].
  template <class T>
  static V permutex2var(V a, V idx, V b) {
    constexpr int n = 64 / sizeof(T);
    return make<T>([&](int i) {
      const T j = get<T>(idx, i);
      return get<T>((j & n) ? b : a, static_cast<int>(j & (n - 1)));
    });
  }
  static V permutex2var_epi32(V a, V idx, V b) { return permutex2var<int32_t>(a, idx, b); }
  static V permutex2var_epi64(V a, V idx, V b) { return permutex2var<int64_t>(a, idx, b); }

  // Within each 128-bit block: dst[j] = a[(Imm >> 2j) & 3] (32-bit lanes).
  template <int Imm>
  static V shuffle_epi32(V a) {
    return make<int32_t>([&](int i) {
      return get<int32_t>(a, (i & ~3) + ((Imm >> (2 * (i & 3))) & 3));
    });
  }
  // 128-bit blocks: dst blocks 0, 1 from a, blocks 2, 3 from b, block q selected by bits
  // [2q, 2q + 2) of Imm.  (shuffle_i64x2 moves the same bits.)
  template <int Imm>
  static V shuffle_i32x4(V a, V b) {
    V r;
    for (int q = 0; q < 4; ++q)
      std::memcpy(r.bytes + 16 * q, (q < 2 ? a : b).bytes + 16 * ((Imm >> (2 * q)) & 3), 16);
    return r;
  }
  template <int Imm>
  static V shuffle_i64x2(V a, V b) { return shuffle_i32x4<Imm>(a, b); }

  static V xor_si512(V a, V b) {
    return make<uint64_t>([&](int i) { return get<uint64_t>(a, i) ^ get<uint64_t>(b, i); });
  }
  static V and_si512(V a, V b) {
    return make<uint64_t>([&](int i) { return get<uint64_t>(a, i) & get<uint64_t>(b, i); });
  }
  // Shifts by S < lane width (arithmetic: the sign bit fills in).
  template <int S>
  static V srai_epi32(V a) { return make<int32_t>([&](int i) { return int32_t(get<int32_t>(a, i) >> S); }); }
  template <int S>
  static V srli_epi32(V a) { return make<uint32_t>([&](int i) { return uint32_t(get<uint32_t>(a, i) >> S); }); }
  template <int S>
  static V srai_epi64(V a) { return make<int64_t>([&](int i) { return int64_t(get<int64_t>(a, i) >> S); }); }
  template <int S>
  static V srli_epi64(V a) { return make<uint64_t>([&](int i) { return uint64_t(get<uint64_t>(a, i) >> S); }); }
};

}  // namespace arraycore::native::vsort
