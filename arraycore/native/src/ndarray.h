// L0: the strided array: a Buffer plus the view metadata (dtype, shape, strides, offset).
//
// Strides are counted in elements (as in DLPack and PyTorch), may be negative or zero, and
// the offset is in bytes from the buffer start.  Views share the buffer; nothing here knows
// about Python.  See Note [Broadcast is a view] in elementwise.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "buffer.h"
#include "dtype.h"
#include "small_vector.h"

namespace arraycore::native {

// Shapes and strides: inline up to 6 dimensions (see small_vector.h).
using Shape = SmallVector<int64_t, 6>;

struct NdArray {
  std::shared_ptr<Buffer> buffer;
  int64_t offset = 0;  // bytes from buffer->data() to element [0, ..., 0]
  Shape shape;
  Shape strides;       // in elements
  DType dtype = DType::Float64;

  int ndim() const { return static_cast<int>(shape.size()); }
  int64_t numel() const;
  size_t itemsize() const { return native::itemsize(dtype); }
  char* data() const { return buffer->data() + offset; }
  bool writeable() const { return buffer->writeable(); }
  bool is_c_contiguous() const;
  // True when the elements cover a dense block with no gaps or repeats, in any axis order.
  bool is_dense() const;
  // Byte range [lo, hi) that the view can touch (empty arrays: lo == hi).
  void byte_extent(const char** lo, const char** hi) const;
};

Shape c_strides(const Shape& shape);           // row-major strides in elements
int64_t shape_numel(const Shape& shape);       // throws ValueError on overflow/negative

// Fresh row-major array, contents uninitialized.
NdArray empty(const Shape& shape, DType dtype);
// Fresh array with the same dense axis order as `like` (NumPy's order='K'), row-major if
// `like` is not dense.
NdArray empty_like_layout(const NdArray& like, const Shape& shape, DType dtype);

// Views.  All check their arguments and throw ValueError/IndexError naming `who`.
Shape broadcast_shapes(const std::vector<Shape>& shapes, const char* who);
NdArray broadcast_to(const NdArray& a, const Shape& shape, const char* who);
NdArray as_strided(const NdArray& a, const Shape& shape, const Shape& strides,
                   int64_t offset_elems, const char* who);

// True when writing `out` could change what is later read from `in` in a way that differs
// from reading all of `in` first (NumPy's overlap rule for in-place operations).
bool may_overlap_badly(const NdArray& out, const NdArray& in);

// Copies / casts.  `copy_into` broadcasts src to dst's shape and casts to dst's dtype.
void copy_into(const NdArray& dst, const NdArray& src);
NdArray astype(const NdArray& a, DType dtype);          // always a new array
NdArray contiguous(const NdArray& a);                     // a itself when already C-contiguous

}  // namespace arraycore::native
