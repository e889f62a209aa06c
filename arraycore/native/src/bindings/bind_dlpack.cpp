// DLPack export (Array -> PyCapsule) and import (PyCapsule -> Array), zero copy both ways.
//
// Export: a heap context holds a copy of the NdArray (so its shared_ptr<Buffer> keeps the
// memory alive), the shape/strides arrays the DLTensor points to, and the managed tensor
// itself.  The deleter frees the context; the capsule destructor calls the deleter only when
// no consumer took the capsule (the consumer renames it to "used_dltensor[_versioned]").
//
// Import: the capsule is renamed (we own the managed tensor from then on) and its memory is
// wrapped in a Buffer whose release calls the producer's deleter, with the GIL held because
// NumPy's and PyTorch's deleters drop Python references.
#include <Python.h>

#include <cstring>
#include <optional>

#include "../dlpack.h"
#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

using namespace arraycore::native::dlpack;

[[noreturn]] void throw_buffer_error(const std::string& msg) {
  PyErr_SetString(PyExc_BufferError, msg.c_str());
  throw py::error_already_set();
}

bool python_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

// ---------------------------------------------------------------------------------------------
// dtype mapping

DLDataType to_dl_dtype(DType dt) {
  DLDataType d{};
  d.lanes = 1;
  d.bits = static_cast<uint8_t>(itemsize(dt) * 8);
  switch (dt) {
    case DType::Bool: d.code = kDLBool; break;
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64:
      d.code = kDLInt; break;
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
      d.code = kDLUInt; break;
    case DType::Float32: case DType::Float64: d.code = kDLFloat; break;
    case DType::Complex64: case DType::Complex128: d.code = kDLComplex; break;
  }
  return d;
}

std::string dl_dtype_name(DLDataType d) {
  std::string bits = std::to_string(d.bits);
  std::string base;
  switch (d.code) {
    case kDLInt: base = "int" + bits; break;
    case kDLUInt: base = "uint" + bits; break;
    case kDLFloat: base = "float" + bits; break;
    case kDLBfloat: base = "bfloat" + bits; break;
    case kDLComplex: base = "complex" + bits; break;
    case kDLBool: base = "bool" + bits; break;
    case kDLOpaqueHandle: base = "opaque handle"; break;
    default:
      if (d.code >= 7 && d.code <= 14) base = "float8 (DLPack type code " + std::to_string(d.code) + ")";
      else if (d.code == 15 || d.code == 16) base = "float6 (DLPack type code " + std::to_string(d.code) + ")";
      else if (d.code == 17) base = "float4 (DLPack type code 17)";
      else base = "DLPack type code " + std::to_string(d.code) + " with " + bits + " bits";
  }
  if (d.lanes != 1) base += " x" + std::to_string(d.lanes) + " lanes";
  return base;
}

std::optional<DType> from_dl_dtype(DLDataType d) {
  if (d.lanes != 1) return std::nullopt;
  switch (d.code) {
    case kDLBool:
      if (d.bits == 8) return DType::Bool;
      break;
    case kDLInt:
      switch (d.bits) {
        case 8: return DType::Int8;
        case 16: return DType::Int16;
        case 32: return DType::Int32;
        case 64: return DType::Int64;
      }
      break;
    case kDLUInt:
      switch (d.bits) {
        case 8: return DType::UInt8;
        case 16: return DType::UInt16;
        case 32: return DType::UInt32;
        case 64: return DType::UInt64;
      }
      break;
    case kDLFloat:
      if (d.bits == 32) return DType::Float32;
      if (d.bits == 64) return DType::Float64;
      break;
    case kDLComplex:
      if (d.bits == 64) return DType::Complex64;
      if (d.bits == 128) return DType::Complex128;
      break;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// export

template <class Managed>
struct ExportContext {
  NdArray array;
  Shape shape;
  Shape strides;
  Managed managed{};
};

template <class Managed>
void export_deleter(Managed* self) noexcept {
  if (self == nullptr) return;
  auto* ctx = static_cast<ExportContext<Managed>*>(self->manager_ctx);
  // Dropping the NdArray may release foreign memory; such releases take the GIL themselves.
  delete ctx;
}

template <class Managed>
void capsule_destructor(PyObject* capsule) {
  const char* name = std::is_same_v<Managed, DLManagedTensorVersioned> ? kCapsuleVersioned
                                                                         : kCapsuleLegacy;
  // Only an unconsumed capsule still owns its tensor.  Keep any pending exception intact.
  if (!PyCapsule_IsValid(capsule, name)) return;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (m != nullptr && m->deleter != nullptr) m->deleter(m);
  PyErr_Restore(type, value, tb);
}

template <class Managed>
py::capsule make_capsule(const NdArray& a, uint64_t flags) {
  auto* ctx = new ExportContext<Managed>();
  ctx->array = a;
  ctx->shape = a.shape;
  ctx->strides = a.strides;
  Managed& m = ctx->managed;
  DLTensor& t = m.dl_tensor;
  t.data = a.data();
  t.device = DLDevice{kDLCPU, 0};
  t.ndim = a.ndim();
  t.dtype = to_dl_dtype(a.dtype);
  t.shape = a.ndim() ? ctx->shape.data() : nullptr;
  t.strides = a.ndim() ? ctx->strides.data() : nullptr;
  t.byte_offset = 0;
  m.manager_ctx = ctx;
  m.deleter = &export_deleter<Managed>;
  const char* name = kCapsuleLegacy;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    m.version = DLPackVersion{kMajorVersion, kMinorVersion};
    m.flags = flags;
    name = kCapsuleVersioned;
  }
  PyObject* cap = PyCapsule_New(&m, name, &capsule_destructor<Managed>);
  if (cap == nullptr) {
    delete ctx;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(cap);
}

// copy: true = always export a fresh copy, false = never copy (BufferError when the array
// cannot be described), None = copy only when needed.
py::capsule to_dlpack(const NdArray& a, bool versioned, std::optional<bool> copy) {
  bool negative = false;
  for (int i = 0; i < a.ndim(); ++i)
    if (a.shape[i] > 1 && a.strides[i] < 0) negative = true;
  bool readonly = !a.writeable();
  bool need_copy = copy.value_or(false);
  if (!need_copy && negative) {
    // Many consumers (PyTorch, NumPy) reject negative strides.
    if (copy.has_value())
      throw_buffer_error("__dlpack__: cannot export an array with negative strides without a "
                         "copy (pass copy=True or None)");
    need_copy = true;
  }
  if (!need_copy && readonly && !versioned) {
    // The legacy capsule has no way to say "read-only".
    if (copy.has_value())
      throw_buffer_error("__dlpack__: cannot export a read-only array through a legacy "
                         "(unversioned) DLPack capsule without a copy; pass "
                         "max_version=(1, 0) or copy=True");
    need_copy = true;
  }
  NdArray src = a;
  if (need_copy) {
    NdArray fresh = empty(a.shape, a.dtype);
    {
      py::gil_scoped_release nogil;
      copy_into(fresh, a);
    }
    src = fresh;
  }
  uint64_t flags = 0;
  if (need_copy) flags |= kFlagIsCopied;
  else if (readonly) flags |= kFlagReadOnly;
  if (versioned) return make_capsule<DLManagedTensorVersioned>(src, flags);
  return make_capsule<DLManagedTensor>(src, 0);
}

// ---------------------------------------------------------------------------------------------
// import

NdArray wrap_tensor(const DLTensor& t, bool readonly, std::function<void()> release) {
  NdArray a;
  if (t.device.device_type != kDLCPU)
    throw ValueError("from_dlpack: arraycore supports the CPU device only, got device type " +
                     std::to_string(static_cast<int>(t.device.device_type)));
  std::optional<DType> dt = from_dl_dtype(t.dtype);
  if (!dt)
    throw TypeError("from_dlpack: unsupported dtype " + dl_dtype_name(t.dtype) +
                    " (arraycore has bool, int8-64, uint8-64, float32/64, complex64/128)");
  if (t.ndim < 0) throw ValueError("from_dlpack: negative ndim " + std::to_string(t.ndim));
  if (t.ndim > 0 && t.shape == nullptr) throw ValueError("from_dlpack: null shape");
  a.dtype = *dt;
  a.shape.assign(t.shape, t.shape + t.ndim);
  for (int64_t d : a.shape)
    if (d < 0) throw ValueError("from_dlpack: negative dimension " + std::to_string(d));
  shape_numel(a.shape);  // overflow check
  if (t.strides != nullptr) a.strides.assign(t.strides, t.strides + t.ndim);
  else a.strides = c_strides(a.shape);
  const int64_t isz = static_cast<int64_t>(itemsize(a.dtype));
  char* first = static_cast<char*>(t.data) + t.byte_offset;
  int64_t lo = 0, hi = 0;  // element offsets of the extreme elements
  bool any = true;
  for (int i = 0; i < t.ndim; ++i) {
    if (a.shape[i] == 0) any = false;
    int64_t span = (a.shape[i] - 1) * a.strides[i];
    if (span < 0) lo += span; else hi += span;
  }
  size_t nbytes = any ? static_cast<size_t>((hi - lo + 1) * isz) : 0;
  char* base = any ? first + lo * isz : first;
  a.offset = any ? -lo * isz : 0;
  if (!any) {
    // Zero-size arrays: normalise the strides (the producer may give anything, even null data).
    a.strides = c_strides(a.shape);
  }
  a.buffer = Buffer::wrap(base, nbytes, !readonly, std::move(release));
  return a;
}

template <class Managed>
std::function<void()> deleter_release(Managed* m) {
  return [m]() {
    if (m->deleter == nullptr) return;
    if (!Py_IsInitialized() || python_finalizing()) return;  // leak rather than crash
    py::gil_scoped_acquire gil;
    m->deleter(m);
  };
}

NdArray from_dlpack_capsule(py::handle obj) {
  PyObject* cap = obj.ptr();
  if (!PyCapsule_CheckExact(cap))
    throw TypeError(std::string("from_dlpack: expected a DLPack PyCapsule, got ") +
                    Py_TYPE(cap)->tp_name);
  const char* name = PyCapsule_GetName(cap);
  if (name == nullptr) throw py::error_already_set();
  if (std::strcmp(name, kCapsuleVersioned) == 0) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kCapsuleVersioned));
    if (m == nullptr) throw py::error_already_set();
    if (m->version.major > kMajorVersion)
      throw_buffer_error("from_dlpack: the producer's DLPack version " +
                         std::to_string(m->version.major) + "." +
                         std::to_string(m->version.minor) + " is newer than the supported " +
                         std::to_string(kMajorVersion) + ".x");
    bool readonly = (m->flags & kFlagReadOnly) != 0;
    // Validate before consuming: on error the capsule keeps ownership and frees the tensor.
    NdArray a = wrap_tensor(m->dl_tensor, readonly, nullptr);
    if (PyCapsule_SetName(cap, kCapsuleUsedVersioned) != 0) throw py::error_already_set();
    a.buffer = Buffer::wrap(a.buffer->data(), a.buffer->nbytes(), !readonly,
                            deleter_release(m));
    return a;
  }
  if (std::strcmp(name, kCapsuleLegacy) == 0) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, kCapsuleLegacy));
    if (m == nullptr) throw py::error_already_set();
    NdArray a = wrap_tensor(m->dl_tensor, false, nullptr);
    if (PyCapsule_SetName(cap, kCapsuleUsedLegacy) != 0) throw py::error_already_set();
    a.buffer = Buffer::wrap(a.buffer->data(), a.buffer->nbytes(), true, deleter_release(m));
    return a;
  }
  if (std::strncmp(name, "used_", 5) == 0)
    throw ValueError("from_dlpack: this DLPack capsule was already consumed");
  throw TypeError(std::string("from_dlpack: expected a capsule named \"dltensor\" or "
                              "\"dltensor_versioned\", got \"") + name + "\"");
}

}  // namespace

void bind_dlpack(py::module_& m) {
  m.def("to_dlpack", &to_dlpack, py::arg("a"), py::arg("versioned") = true,
        py::arg("copy") = py::none(),
        "Exports an array as a DLPack capsule: \"dltensor_versioned\" (DLPack 1.x) when "
        "versioned, else the legacy \"dltensor\".  copy=True exports a fresh C-contiguous "
        "copy (flag IS_COPIED), copy=False never copies (BufferError when impossible), "
        "copy=None copies only when needed (negative strides; read-only legacy export).");
  m.def("from_dlpack_capsule", &from_dlpack_capsule, py::arg("capsule"),
        "Wraps the memory of a DLPack capsule (either name) zero-copy, consuming the capsule.");
}

}  // namespace arraycore::native::bindings
