// L0: a vector with inline storage for its first N elements.
//
// Array shapes and strides almost always have few dimensions; keeping them inline saves the
// two heap allocations per array that std::vector costs, which dominate small-array ops.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>

namespace arraycore::native {

template <class T, size_t N>
class SmallVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  explicit SmallVector(size_t n, T v = T()) { assign(n, v); }
  SmallVector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <class It, class = decltype(*std::declval<It>())>
  SmallVector(It b, It e) { assign(b, e); }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { steal(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= cap_) return;
    std::unique_ptr<T[]> fresh(new T[n]);
    std::copy(begin(), end(), fresh.get());
    release();
    heap_ = fresh.release();
    data_ = heap_;
    cap_ = n;
  }
  void clear() { size_ = 0; }
  void push_back(T v) {
    if (size_ == cap_) reserve(cap_ * 2);
    data_[size_++] = v;
  }
  void resize(size_t n, T v = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data_[i] = v;
    size_ = n;
  }
  void assign(size_t n, T v) {
    reserve(n);
    std::fill(data_, data_ + n, v);
    size_ = n;
  }
  template <class It>
  void assign(It b, It e) {
    size_t n = static_cast<size_t>(std::distance(b, e));
    reserve(n);
    std::copy(b, e, data_);
    size_ = n;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  void release() {
    delete[] heap_;
    heap_ = nullptr;
    data_ = inline_;
    cap_ = N;
  }
  void steal(SmallVector& o) {
    if (o.heap_) {
      heap_ = o.heap_;
      data_ = heap_;
      cap_ = o.cap_;
      size_ = o.size_;
      o.heap_ = nullptr;
      o.data_ = o.inline_;
      o.cap_ = N;
      o.size_ = 0;
    } else {
      assign(o.begin(), o.end());
    }
  }

  T inline_[N];
  T* heap_ = nullptr;
  T* data_ = inline_;
  size_t size_ = 0;
  size_t cap_ = N;
};

}  // namespace arraycore::native
