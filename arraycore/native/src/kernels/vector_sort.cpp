// L0: the vector sort's entry point: the choice of instruction set (Note [Sort ISA] in
// vector_sort.h) and the AVX2 instance of the quicksort (Note [Vectorized quicksort] in
// vector_quicksort.h).  The AVX-512 instances live in vector_sort_avx512.cpp and
// vector_sort_avx512_emulated.cpp.
#include "vector_sort.h"

#include <stdexcept>

#ifdef __AVX2__
#include "vector_quicksort.h"
#include "vector_sort_lanes.h"
#endif

namespace arraycore::native {

bool sort_isa_built(SortIsa isa) {
  switch (isa) {
    case SortIsa::kScalar:
      return true;
#ifdef __AVX2__
    case SortIsa::kAvx2:
    case SortIsa::kAvx512Emulated:  // its short leaves use the AVX2 networks
      return true;
#if defined(__AVX512F__)
    case SortIsa::kAvx512:
      return true;
#endif
#endif
    default:
      return false;
  }
}

SortIsa widest_sort_isa() {
  if (sort_isa_built(SortIsa::kAvx512)) return SortIsa::kAvx512;
  if (sort_isa_built(SortIsa::kAvx2)) return SortIsa::kAvx2;
  return SortIsa::kScalar;
}

template <class U>
void vector_sort(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                 const SortRunner* runner, SortIsa isa) {
  switch (isa) {
    case SortIsa::kAvx2:
      return vector_sort_avx2(src, n, out, codec, runner);
    case SortIsa::kAvx512:
      return vector_sort_avx512(src, n, out, codec, runner);
    case SortIsa::kAvx512Emulated:
      return vector_sort_avx512_emulated(src, n, out, codec, runner);
    default:
      throw std::logic_error("vector_sort: no vector sort for the scalar ISA");
  }
}

template <class U>
void vector_sort_avx2(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                      const SortRunner* runner) {
#ifdef __AVX2__
  using Key = std::conditional_t<sizeof(U) == 4, int32_t, int64_t>;
  vsort::sort_encoded<vsort::Lanes<Key>>(src, n, out, codec, runner);
#else
  (void)src, (void)n, (void)out, (void)codec, (void)runner;
  throw std::logic_error("vector_sort: this build has no AVX2");
#endif
}

template void vector_sort<uint32_t>(const uint32_t*, int64_t, uint32_t*,
                                    const KeyCodec<uint32_t>&, const SortRunner*, SortIsa);
template void vector_sort<uint64_t>(const uint64_t*, int64_t, uint64_t*,
                                    const KeyCodec<uint64_t>&, const SortRunner*, SortIsa);
template void vector_sort_avx2<uint32_t>(const uint32_t*, int64_t, uint32_t*,
                                         const KeyCodec<uint32_t>&, const SortRunner*);
template void vector_sort_avx2<uint64_t>(const uint64_t*, int64_t, uint64_t*,
                                         const KeyCodec<uint64_t>&, const SortRunner*);

}  // namespace arraycore::native
