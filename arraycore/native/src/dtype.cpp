#include "dtype.h"

namespace arraycore::native {

size_t itemsize(DType dt) {
  return visit_dtype(dt, [](auto v) { return sizeof(v); });
}

const char* dtype_name(DType dt) {
  static const char* const names[kNumDTypes] = {
      "bool",   "int8",   "int16",   "int32",   "int64",     "uint8",     "uint16",
      "uint32", "uint64", "float32", "float64", "complex64", "complex128"};
  return names[dtype_index(dt)];
}

}  // namespace arraycore::native
