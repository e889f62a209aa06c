// L0: the vector quicksort's AVX-512 code on emulated intrinsics (vector_sort_avx512_emulated.h),
// the test hook ARRAYCORE_SORT_ISA=avx512-emulated of Note [Sort ISA] in vector_sort.h.  Built
// wherever AVX2 is (its leaves of at most 128 32-bit keys are the AVX2 ones).
#include "vector_sort.h"

#include <stdexcept>

#if defined(__AVX2__)
#include "vector_quicksort.h"
#include "vector_sort_avx512_emulated.h"
#include "vector_sort_lanes_avx512.h"
#endif

namespace arraycore::native {

template <class U>
void vector_sort_avx512_emulated(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                                 const SortRunner* runner) {
#if defined(__AVX2__)
  using Key = std::conditional_t<sizeof(U) == 4, int32_t, int64_t>;
  using L = vsort::Lanes512<vsort::EmulatedAvx512Intrinsics, Key>;
  vsort::sort_encoded<L>(src, n, out, codec, runner);
#else
  (void)src, (void)n, (void)out, (void)codec, (void)runner;
  throw std::logic_error("vector_sort: this build has no AVX2");
#endif
}

template void vector_sort_avx512_emulated<uint32_t>(const uint32_t*, int64_t, uint32_t*,
                                              const KeyCodec<uint32_t>&, const SortRunner*);
template void vector_sort_avx512_emulated<uint64_t>(const uint64_t*, int64_t, uint64_t*,
                                              const KeyCodec<uint64_t>&, const SortRunner*);

}  // namespace arraycore::native
