// L0: the AVX-512 instance of the vector quicksort (built where __AVX512F__ is defined; see
// Note [Sort ISA] in vector_sort.h and vector_sort_lanes_avx512.h).
#include "vector_sort.h"

#include <stdexcept>

#if defined(__AVX512F__) && defined(__AVX2__)
#include "vector_quicksort.h"
#include "vector_sort_avx512_intrinsics.h"
#include "vector_sort_lanes_avx512.h"
#endif

namespace arraycore::native {

template <class U>
void vector_sort_avx512(const U* src, int64_t n, U* out, const KeyCodec<U>& codec,
                        const SortRunner* runner) {
#if defined(__AVX512F__) && defined(__AVX2__)
  using Key = std::conditional_t<sizeof(U) == 4, int32_t, int64_t>;
  static const bool kCompressStore = vsort::compress_store_fast();
  if (kCompressStore)
    vsort::sort_encoded<vsort::Lanes512<vsort::Avx512Intrinsics, Key>>(src, n, out, codec, runner);
  else
    vsort::sort_encoded<vsort::Lanes512<vsort::Avx512IntrinsicsRegisterCompress, Key>>(
        src, n, out, codec, runner);
#else
  (void)src, (void)n, (void)out, (void)codec, (void)runner;
  throw std::logic_error("vector_sort: this build has no AVX-512");
#endif
}

template void vector_sort_avx512<uint32_t>(const uint32_t*, int64_t, uint32_t*,
                                              const KeyCodec<uint32_t>&, const SortRunner*);
template void vector_sort_avx512<uint64_t>(const uint64_t*, int64_t, uint64_t*,
                                              const KeyCodec<uint64_t>&, const SortRunner*);

}  // namespace arraycore::native
