#include "buffer.h"

#include "allocator.h"

namespace arraycore::native {

std::shared_ptr<Buffer> Buffer::allocate(size_t nbytes) {
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
