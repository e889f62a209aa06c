#include "buffer.h"

#include "allocator.h"

#include <cstdint>

namespace arraycore::native {

namespace {

// Small arrays keep their bytes in the same allocation as the reference count (one malloc,
// not a make_shared plus an aligned_alloc): that allocation pair dominated small-array ops.
// The storage is over-sized by one alignment unit so the data can start 64-byte aligned.
template <size_t N>
class InlineBuffer : public Buffer {
 public:
  explicit InlineBuffer(size_t nbytes) : Buffer(nullptr, nbytes, false, true, nullptr) {
    auto p = reinterpret_cast<uintptr_t>(storage_);
    set_data(reinterpret_cast<void*>((p + kAlignment - 1) & ~(uintptr_t(kAlignment) - 1)));
  }

 private:
  char storage_[N + kAlignment];
};

}  // namespace

std::shared_ptr<Buffer> Buffer::allocate(size_t nbytes) {
  if (nbytes <= 64) return std::make_shared<InlineBuffer<64>>(nbytes);
  if (nbytes <= 512) return std::make_shared<InlineBuffer<512>>(nbytes);
  void* p = allocate_bytes(nbytes);
  return std::make_shared<Buffer>(p, nbytes, /*owned=*/true, /*writeable=*/true, nullptr);
}

std::shared_ptr<Buffer> Buffer::wrap(void* data, size_t nbytes, bool writeable,
                                     std::function<void()> release) {
  return std::make_shared<Buffer>(data, nbytes, /*owned=*/false, writeable, std::move(release));
}

Buffer::~Buffer() {
  if (owned_) {
    free_bytes(data_, nbytes_);
  } else if (release_) {
    release_();
  }
}

}  // namespace arraycore::native
