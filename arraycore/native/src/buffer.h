// L0: a reference-counted block of memory that arrays view.
//
// A Buffer either owns memory from the allocator or wraps memory owned by someone else (a
// NumPy array, a DLPack producer), in which case `release` is called when the last view
// goes away.  Reference counting is std::shared_ptr's.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace arraycore::native {

class Buffer {
 public:
  // Owns fresh, uninitialized, 64-byte aligned memory.
  static std::shared_ptr<Buffer> allocate(size_t nbytes);
  // Views foreign memory; `release` runs once when the buffer dies (may be empty).
  static std::shared_ptr<Buffer> wrap(void* data, size_t nbytes, bool writeable,
                                      std::function<void()> release);

  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  char* data() const { return static_cast<char*>(data_); }
  size_t nbytes() const { return nbytes_; }
  bool writeable() const { return writeable_; }
  bool owns_memory() const { return owned_; }

  Buffer(void* data, size_t nbytes, bool owned, bool writeable, std::function<void()> release)
      : data_(data), nbytes_(nbytes), owned_(owned), writeable_(writeable),
        release_(std::move(release)) {}

 protected:
  void set_data(void* data) { data_ = data; }

 private:
  void* data_;
  size_t nbytes_;
  bool owned_;
  bool writeable_;
  std::function<void()> release_;
};

}  // namespace arraycore::native
