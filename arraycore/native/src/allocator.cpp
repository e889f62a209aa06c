#include "allocator.h"

#include <sys/mman.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

namespace arraycore::native {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Freed large blocks, keyed by their rounded size.  A request takes a cached block of exactly
// its rounded size, so the cache never hands out more memory than asked for (plus rounding).
struct LargeCache {
  std::mutex mu;
  std::multimap<size_t, void*> blocks;
  int64_t cached = 0, hits = 0, misses = 0;
  int64_t limit = int64_t(2) << 30;  // 2 GiB; set_cache_limit changes it
};
LargeCache& cache() {
  static LargeCache* c = new LargeCache();  // leaked on purpose: used during static teardown
  return *c;
}

void* map_huge(size_t nbytes) {
  // Over-map by one huge page so the block can start on a 2 MiB boundary, then trim.
  size_t span = nbytes + kHugePage;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto base = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = round_up(base, kHugePage);
  if (aligned > base) munmap(raw, aligned - base);
  uintptr_t end = aligned + nbytes, raw_end = base + span;
  if (raw_end > end) munmap(reinterpret_cast<void*>(end), raw_end - end);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void*>(aligned), nbytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

void* allocate_bytes(size_t nbytes) {
  if (nbytes < kLargeThreshold) {
    void* p = std::aligned_alloc(kAlignment, round_up(nbytes == 0 ? 1 : nbytes, kAlignment));
    if (!p) throw std::bad_alloc();
    return p;
  }
  size_t rounded = round_up(nbytes, kHugePage);
  LargeCache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.blocks.find(rounded);
    if (it != c.blocks.end()) {
      void* p = it->second;
      c.blocks.erase(it);
      c.cached -= static_cast<int64_t>(rounded);
      ++c.hits;
      return p;
    }
    ++c.misses;
  }
  return map_huge(rounded);
}

void free_bytes(void* ptr, size_t nbytes) noexcept {
  if (!ptr) return;
  if (nbytes < kLargeThreshold) {
    std::free(ptr);
    return;
  }
  size_t rounded = round_up(nbytes, kHugePage);
  LargeCache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.cached + static_cast<int64_t>(rounded) <= c.limit) {
      c.blocks.emplace(rounded, ptr);
      c.cached += static_cast<int64_t>(rounded);
      return;
    }
  }
  munmap(ptr, rounded);
}

AllocatorStats allocator_stats() {
  LargeCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return {c.cached, c.hits, c.misses, c.limit};
}

void empty_cache() {
  LargeCache& c = cache();
  std::multimap<size_t, void*> blocks;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    blocks.swap(c.blocks);
    c.cached = 0;
  }
  for (auto& [size, ptr] : blocks) munmap(ptr, size);
}

void set_cache_limit(int64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(cache().mu);
    cache().limit = bytes < 0 ? 0 : bytes;
  }
  if (allocator_stats().cached_bytes > bytes) empty_cache();
}

}  // namespace arraycore::native
