#include "ndarray.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "errors.h"
#include "op_registry.h"

namespace arraycore::native {

int64_t shape_numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("negative dimension " + std::to_string(d) + " in shape");
    if (d != 0 && n > INT64_MAX / d) throw ValueError("array is too big: shape overflows int64");
    n *= d;
  }
  return n;
}

int64_t NdArray::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Shape c_strides(const Shape& shape) {
  Shape s(shape.size());
  int64_t acc = 1;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    s[i] = acc;
    acc *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

bool NdArray::is_c_contiguous() const {
  int64_t expected = 1;
  for (int i = ndim() - 1; i >= 0; --i) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

bool NdArray::is_dense() const {
  // Sort the non-trivial axes by stride; dense means each stride is the product of the
  // extents of the axes inside it.
  std::vector<int> axes;
  for (int i = 0; i < ndim(); ++i) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1) axes.push_back(i);
  }
  std::sort(axes.begin(), axes.end(), [&](int a, int b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (int a : axes) {
    if (strides[a] != expected) return false;
    expected *= shape[a];
  }
  return true;
}

void NdArray::byte_extent(const char** lo, const char** hi) const {
  const char* base = data();
  if (numel() == 0) {
    *lo = *hi = base;
    return;
  }
  int64_t min_off = 0, max_off = 0;
  for (int i = 0; i < ndim(); ++i) {
    int64_t span = (shape[i] - 1) * strides[i];
    if (span < 0) min_off += span; else max_off += span;
  }
  int64_t isz = static_cast<int64_t>(itemsize());
  *lo = base + min_off * isz;
  *hi = base + (max_off + 1) * isz;
}

NdArray empty(const Shape& shape, DType dtype) {
  int64_t n = shape_numel(shape);
  // The byte count must fit too: 2**62 float64 elements would overflow size_t and allocate a
  // tiny block.
  if (n > PTRDIFF_MAX / static_cast<int64_t>(native::itemsize(dtype)))
    throw ValueError(std::string("array is too big: ") + std::to_string(n) + " elements of " +
                     dtype_name(dtype) + " exceed the address space");
  NdArray a;
  a.buffer = Buffer::allocate(static_cast<size_t>(n) * native::itemsize(dtype));
  a.shape = shape;
  a.strides = c_strides(shape);
  a.dtype = dtype;
  return a;
}

NdArray empty_like_layout(const NdArray& like, const Shape& shape, DType dtype) {
  bool positive = std::all_of(like.strides.begin(), like.strides.end(),
                              [](int64_t s) { return s >= 0; });
  if (like.shape != shape || like.is_c_contiguous() || !positive || !like.is_dense()) {
    return empty(shape, dtype);
  }
  // Same axis order as `like`: assign dense strides from the smallest stride outwards.
  NdArray a = empty(shape, dtype);
  std::vector<int> axes(shape.size());
  std::iota(axes.begin(), axes.end(), 0);
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int x, int y) { return like.strides[x] < like.strides[y]; });
  int64_t acc = 1;
  for (int ax : axes) {
    a.strides[ax] = acc;
    acc *= std::max<int64_t>(shape[ax], 1);
  }
  return a;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes, const char* who) {
  size_t nd = 0;
  for (const auto& s : shapes) nd = std::max(nd, s.size());
  Shape out(nd, 1);
  for (const auto& s : shapes) {
    size_t off = nd - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[off + i];
      int64_t d = s[i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string msg = std::string(who) + ": shapes ";
      for (size_t k = 0; k < shapes.size(); ++k) {
        msg += "(";
        for (size_t j = 0; j < shapes[k].size(); ++j)
          msg += std::to_string(shapes[k][j]) + (shapes[k].size() == 1 ? "," : (j + 1 < shapes[k].size() ? ", " : ""));
        msg += k + 1 < shapes.size() ? "), " : ")";
      }
      throw ValueError(msg + " cannot be broadcast together");
    }
  }
  return out;
}

NdArray broadcast_to(const NdArray& a, const Shape& shape, const char* who) {
  if (a.shape == shape) return a;
  if (shape.size() < a.shape.size()) {
    throw ValueError(std::string(who) + ": cannot broadcast an array of " +
                     std::to_string(a.ndim()) + " dimensions to " +
                     std::to_string(shape.size()) + " dimensions");
  }
  NdArray v = a;
  size_t off = shape.size() - a.shape.size();
  v.shape = shape;
  v.strides.assign(shape.size(), 0);
  for (size_t i = 0; i < a.shape.size(); ++i) {
    if (a.shape[i] == shape[off + i]) {
      v.strides[off + i] = a.strides[i];
    } else if (a.shape[i] != 1) {
      throw ValueError(std::string(who) + ": cannot broadcast dimension " + std::to_string(i) +
                       " of size " + std::to_string(a.shape[i]) + " to size " +
                       std::to_string(shape[off + i]));
    }
  }
  return v;
}

NdArray as_strided(const NdArray& a, const Shape& shape, const Shape& strides,
                   int64_t offset_elems, const char* who) {
  if (shape.size() != strides.size())
    throw ValueError(std::string(who) + ": shape and strides differ in length");
  NdArray v = a;
  v.shape = shape;
  v.strides = strides;
  v.offset = a.offset + offset_elems * static_cast<int64_t>(a.itemsize());
  // The view must stay inside the buffer.
  const char *lo, *hi;
  v.byte_extent(&lo, &hi);
  if (shape_numel(shape) > 0 &&
      (lo < a.buffer->data() || hi > a.buffer->data() + a.buffer->nbytes())) {
    throw IndexError(std::string(who) + ": view reaches outside its buffer");
  }
  return v;
}

bool may_overlap_badly(const NdArray& out, const NdArray& in) {
  const char *a0, *a1, *b0, *b1;
  out.byte_extent(&a0, &a1);
  in.byte_extent(&b0, &b1);
  if (a1 <= b0 || b1 <= a0) return false;
  // Reading and writing the very same element at each position is safe (x += 1).
  if (in.data() != out.data() || in.itemsize() != out.itemsize() || in.shape != out.shape)
    return true;
  for (int i = 0; i < in.ndim(); ++i)
    if (in.shape[i] > 1 && in.strides[i] != out.strides[i]) return true;
  return false;
}

void copy_into(const NdArray& dst, const NdArray& src) {
  if (!dst.writeable()) throw ValueError("assignment destination is read-only");
  NdArray s = broadcast_to(src, dst.shape, "copy");
  if (may_overlap_badly(dst, s)) s = astype(s, s.dtype);  // read everything first
  run_elementwise(cast_loop(s.dtype, dst.dtype), {&dst, &s});
}

NdArray astype(const NdArray& a, DType dtype) {
  NdArray out = empty_like_layout(a, a.shape, dtype);
  run_elementwise(cast_loop(a.dtype, dtype), {&out, &a});
  return out;
}

NdArray contiguous(const NdArray& a) {
  if (a.is_c_contiguous()) return a;
  NdArray out = empty(a.shape, a.dtype);
  run_elementwise(cast_loop(a.dtype, a.dtype), {&out, &a});
  return out;
}

}  // namespace arraycore::native
