// Zero-copy interop: the buffer protocol (export and import).  DLPack lives in bind_dlpack.cpp.
#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

const char* buffer_format(DType dt) {
  switch (dt) {
    case DType::Bool: return "?";
    case DType::Int8: return "b";
    case DType::Int16: return "h";
    case DType::Int32: return "i";
    case DType::Int64: return "q";
    case DType::UInt8: return "B";
    case DType::UInt16: return "H";
    case DType::UInt32: return "I";
    case DType::UInt64: return "Q";
    case DType::Float32: return "f";
    case DType::Float64: return "d";
    case DType::Complex64: return "Zf";
    case DType::Complex128: return "Zd";
  }
  return "B";
}

}  // namespace

void define_buffer_export(py::class_<NdArray>& cls) {
  cls.def_buffer([](NdArray& a) -> py::buffer_info {
    std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end()), strides;
    for (int64_t s : a.strides) strides.push_back(s * static_cast<int64_t>(a.itemsize()));
    return py::buffer_info(a.data(), static_cast<py::ssize_t>(a.itemsize()),
                           buffer_format(a.dtype), a.ndim(), shape, strides, !a.writeable());
  });
}

void bind_interop(py::module_& m) { (void)m; }

}  // namespace arraycore::native::bindings
