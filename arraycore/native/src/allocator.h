// L0: memory for array data.
//
// Small requests come from aligned_alloc (64-byte aligned, for AVX loads and cache lines).
// Large ones (>= kLargeThreshold) are mmap'd, 2 MiB aligned and madvise(MADV_HUGEPAGE)'d,
// and are kept in a size-keyed cache when freed: a fresh 40 MB output otherwise costs ~10k
// page faults, which is what makes eager frameworks slower than NumPy on big elementwise ops.
#pragma once

#include <cstddef>
#include <cstdint>

namespace arraycore::native {

constexpr size_t kAlignment = 64;
constexpr size_t kLargeThreshold = size_t(1) << 20;  // 1 MiB

void* allocate_bytes(size_t nbytes);                  // never returns null (throws bad_alloc)
void free_bytes(void* ptr, size_t nbytes) noexcept;  // nbytes as passed to allocate_bytes

struct AllocatorStats {
  int64_t cached_bytes;     // bytes held in the cache, ready for reuse
  int64_t cache_hits;       // large allocations served from the cache
  int64_t cache_misses;     // large allocations that went to mmap
  int64_t cache_limit;      // the cache never holds more than this
};
AllocatorStats allocator_stats();
void empty_cache();                       // returns every cached block to the OS
void set_cache_limit(int64_t bytes);

}  // namespace arraycore::native
