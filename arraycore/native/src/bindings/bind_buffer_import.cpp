// Import through the PEP 3118 buffer protocol (NumPy arrays, bytes, bytearray, memoryview,
// array.array, ...).  Zero copy by default: the Py_buffer stays acquired until the last view
// of the wrapped memory dies, and is released with the GIL held.
#include <Python.h>

#include <cstring>
#include <optional>

#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

bool python_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

std::optional<DType> int_dtype(bool is_signed, Py_ssize_t size) {
  switch (size) {
    case 1: return is_signed ? DType::Int8 : DType::UInt8;
    case 2: return is_signed ? DType::Int16 : DType::UInt16;
    case 4: return is_signed ? DType::Int32 : DType::UInt32;
    case 8: return is_signed ? DType::Int64 : DType::UInt64;
  }
  return std::nullopt;
}

// Maps a struct-module format string (one native-endian or little-endian item) to a dtype.
// The item size comes from the buffer itself, which settles '@l' (8 bytes) vs '=l' (4).
DType format_dtype(const char* format, Py_ssize_t itemsize) {
  std::string f = format ? format : "B";
  std::string body = f;
  if (!body.empty() && (body[0] == '@' || body[0] == '=' || body[0] == '<' || body[0] == '>' ||
                        body[0] == '!')) {
    char order = body[0];
    body = body.substr(1);
    bool little = true;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    little = false;
#endif
    if ((order == '<' && !little) || ((order == '>' || order == '!') && little))
      throw TypeError("from_buffer: non-native byte order in buffer format '" + f +
                      "' is not supported");
  }
  std::optional<DType> dt;
  if (body.size() == 1) {
    switch (body[0]) {
      case '?': if (itemsize == 1) dt = DType::Bool; break;
      case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
        dt = int_dtype(true, itemsize); break;
      case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
        dt = int_dtype(false, itemsize); break;
      case 'f': if (itemsize == 4) dt = DType::Float32; break;
      case 'd': if (itemsize == 8) dt = DType::Float64; break;
    }
  } else if (body == "Zf") {
    if (itemsize == 8) dt = DType::Complex64;
  } else if (body == "Zd") {
    if (itemsize == 16) dt = DType::Complex128;
  }
  if (!dt)
    throw TypeError("from_buffer: unsupported buffer format '" + f + "' (item size " +
                    std::to_string(itemsize) + ")");
  return *dt;
}

struct HeldBuffer {
  Py_buffer view;
  bool acquired = false;
  ~HeldBuffer() {
    if (acquired) PyBuffer_Release(&view);
  }
};

// Copies an N-d strided (byte strides) region into a fresh C-contiguous array.
void strided_byte_copy(const NdArray& out, const char* src, const Shape& shape,
                       const Shape& byte_strides) {
  const int nd = static_cast<int>(shape.size());
  const size_t isz = out.itemsize();
  char* dst = out.data();
  int64_t n = out.numel();
  if (n == 0) return;
  std::vector<int64_t> idx(nd, 0);
  for (int64_t k = 0; k < n; ++k) {
    const char* p = src;
    for (int d = 0; d < nd; ++d) p += idx[d] * byte_strides[d];
    std::memcpy(dst + k * isz, p, isz);
    for (int d = nd - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

NdArray from_buffer(py::handle obj, bool copy) {
  auto held = std::make_unique<HeldBuffer>();
  if (PyObject_GetBuffer(obj.ptr(), &held->view, PyBUF_RECORDS_RO | PyBUF_FORMAT) != 0) {
    PyErr_Clear();
    throw TypeError(std::string("from_buffer: an object of type ") + Py_TYPE(obj.ptr())->tp_name +
                    " does not support the buffer protocol (or not a strided one)");
  }
  held->acquired = true;
  Py_buffer& v = held->view;
  DType dt = format_dtype(v.format, v.itemsize);
  const int64_t isz = static_cast<int64_t>(itemsize(dt));

  NdArray a;
  a.dtype = dt;
  a.shape.assign(v.shape ? v.shape : nullptr, v.shape ? v.shape + v.ndim : nullptr);
  if (v.ndim > 0 && v.shape == nullptr) a.shape = {static_cast<int64_t>(v.len / isz)};
  Shape byte_strides;
  if (v.strides != nullptr) byte_strides.assign(v.strides, v.strides + v.ndim);
  else {
    byte_strides = c_strides(a.shape);
    for (auto& s : byte_strides) s *= isz;
  }
  const int64_t n = shape_numel(a.shape);
  bool multiple = true;
  for (size_t i = 0; i < byte_strides.size(); ++i)
    if (a.shape[i] > 1 && byte_strides[i] % isz != 0) multiple = false;

  if (copy && !multiple) {
    NdArray out = empty(a.shape, dt);
    const char* src = static_cast<const char*>(v.buf);
    {
      py::gil_scoped_release nogil;
      strided_byte_copy(out, src, a.shape, byte_strides);
    }
    return out;  // `held` releases the buffer here
  }
  if (!multiple)
    throw ValueError("from_buffer: the buffer's strides are not a multiple of its item size "
                     "(" + std::to_string(isz) + " bytes); pass copy=True");
  a.strides.resize(byte_strides.size());
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < byte_strides.size(); ++i) {
    // Extents of 0 or 1 may carry any stride; only larger ones are checked above.
    a.strides[i] = byte_strides[i] % isz == 0 ? byte_strides[i] / isz : 0;
    int64_t span = (a.shape[i] - 1) * a.strides[i];
    if (span < 0) lo += span; else hi += span;
  }
  char* first = static_cast<char*>(v.buf);
  size_t nbytes = 0;
  char* base = first;
  if (n == 0) {
    a.strides = c_strides(a.shape);
  } else {
    nbytes = static_cast<size_t>((hi - lo + 1) * isz);
    base = first + lo * isz;
    a.offset = -lo * isz;
  }
  if (copy) {
    a.buffer = Buffer::wrap(base, nbytes, false, nullptr);
    NdArray out = empty(a.shape, dt);
    {
      py::gil_scoped_release nogil;
      copy_into(out, a);
    }
    return out;  // `held` releases the buffer here
  }
  bool writeable = !v.readonly;
  HeldBuffer* raw = held.release();
  a.buffer = Buffer::wrap(base, nbytes, writeable, [raw]() {
    if (!Py_IsInitialized() || python_finalizing()) return;  // leak rather than crash
    py::gil_scoped_acquire gil;
    delete raw;
  });
  return a;
}

}  // namespace

void bind_buffer_import(py::module_& m) {
  m.def("from_buffer", &from_buffer, py::arg("obj"), py::arg("copy") = false,
        "An array viewing an object's PEP 3118 buffer (zero copy; read-only buffers give "
        "read-only arrays), or a fresh C-contiguous copy when copy=True.");
}

}  // namespace arraycore::native::bindings
