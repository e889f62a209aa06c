// The Python bindings of the engine (the `arraycore._native` module).  Only files in this folder
// include pybind11; the engine headers stay free of it.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <new>

#include "../errors.h"
#include "../ndarray.h"
#include "../op_registry.h"

// Shapes convert from and to Python sequences like std::vector does.
namespace pybind11::detail {
template <>
struct type_caster<arraycore::native::Shape>
    : list_caster<arraycore::native::Shape, int64_t> {};
}  // namespace pybind11::detail

namespace arraycore::native::bindings {

namespace py = pybind11;

// Python-side objects the engine hands out (dtype objects, the CPU device), registered once
// by arraycore/_core at import.  Leaked on purpose: they must outlive module teardown.
py::handle dtype_object(DType dt);
py::handle cpu_device_object();
DType dtype_from_code(int code, const char* who);

// Python scalar <-> one element.
py::object element_to_python(DType dt, const char* ptr);
void python_to_element(py::handle value, DType dt, char* ptr, const char* who);
// The kind letter of a NumPy scalar's dtype ('b', 'i', 'u', 'f', 'c', ...), or 0 when `o` is
// not a NumPy scalar (scalars.cpp; NumPy is not needed: its scalar types are "numpy.<name>").
// `itemsize`, when given, receives the dtype's size in bytes.
char numpy_scalar_kind(PyObject* o, int64_t* itemsize = nullptr);
// The arraycore dtype of a NumPy scalar; false when `o` is none or of a dtype arraycore lacks
// (float16, longdouble, datetime64, ...).
bool numpy_scalar_dtype(PyObject* o, DType& out);

// Fast Array <-> Python conversions for the hot paths (operators).  pybind11 finds a class's
// type info by hashing the C++ type name on every cast, which was a fifth of a small-array op;
// these use the type info looked up once when the class is registered.
const NdArray* as_exact_array(py::handle h);  // nullptr unless h's type is exactly Array
py::object wrap_array(NdArray&& a);
// The same for an array the engine has just made (no Python object refers to it yet), without
// pybind11's instance registry: Note [Wrapping fresh arrays] in bind_fast_calls.cpp.
py::object wrap_fresh_array(NdArray&& a);
// asarray(seq) of a nested list/tuple of Python scalars (no NumPy scalars or arrays among
// the leaves) with the default dtype of its widest leaf kind, as the Python path makes it; or
// nothing, with no error set, for anything else (bind_creation.cpp).
py::object try_asarray_nested(PyObject* seq);
// Strides that give x's elements in row-major order under `shape`, or false when that needs
// a copy (bind_manipulation.cpp; reshape's view rule).
bool reshape_strides(const NdArray& x, const Shape& shape, Shape& out);
void cache_array_type(py::handle cls);
// concat/stack/expand_dims of plain Arrays of one dtype, as the Python functions make them; a
// null object (no error set) for every call the Python function should make
// (bind_fast_join.cpp).
py::object try_fast_concat(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);
py::object try_fast_stack(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);
py::object try_fast_expand_dims(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);
// dtypes.py promote_types(a, b) into `out`, from the table Python sets at import
// (set_promotion_table, bind_fast_join.cpp); false before it is set.
bool try_promote_types(DType a, DType b, DType& out);

// Applies an elementwise kernel (op_registry.h), releasing the GIL for large inputs.
NdArray apply_kernel_nogil(const Kernel& k, const NdArray* const* inputs, int n);
PyObject* array_type_object();                 // the Array type (borrowed)

// Below this many elements a kernel keeps the GIL: releasing it costs more than the work.
constexpr int64_t kReleaseGilElements = 1 << 14;

// Runs f() with the GIL released when `size` (elements of work) is large enough to pay for it.
template <class F>
auto maybe_nogil(int64_t size, F&& f) {
  if (size >= kReleaseGilElements) {
    py::gil_scoped_release nogil;
    return f();
  }
  return f();
}

// Fast paths of the elementwise operators and namespace functions (bind_fast_calls.cpp),
// shared by the number slots (x + y), the rich comparisons (x < y) and the namespace
// functions (ac.sin(x), ac.add(x, 0.5)).  They compute exactly what the Python path would,
// for the cases they recognise: plain Arrays (as_exact_array: no autodiff state) of one dtype
// whose bit is set in `mask` (dtypes the kernel runs in without promotion), or one such Array
// and a Python bool/int/float that promotion leaves at the Array's dtype (weak scalars,
// arraycore/_core/dtypes.py promote_with_scalar).  Anything else returns a null object, no
// error set: the caller runs the Python path, which also raises the errors.
py::object try_fast_unary(const Kernel& k, int mask, PyObject* x);
// Whether the exact Python bool/int/float `s` combined with (or stored into) an array of
// dtype `d` keeps dtype `d` (dtypes.promote_with_scalar); false for everything else.
bool weak_scalar_keeps(PyObject* s, DType d);
// python_to_element(s, d, elem, who) that reports failure instead of raising: false, with no
// Python error set, when `s` does not convert (the caller's Python path raises the error).
bool try_python_to_element(PyObject* s, DType d, char* elem, const char* who);
py::object try_fast_binary(const Kernel& k, int mask, PyObject* x, PyObject* y);

// Runs f (returning a new reference, or nullptr with a Python error set) inside a C-level
// slot or vectorcall: C++ exceptions become the Python errors pybind11 would raise.
template <class F>
PyObject* call_translating(F&& f) noexcept {
  auto fail = [](PyObject* type, const char* what) -> PyObject* {
    PyErr_SetString(type, what);
    return nullptr;
  };
  try {
    return f();
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  } catch (const TypeError& e) {
    return fail(PyExc_TypeError, e.what());
  } catch (const ValueError& e) {
    return fail(PyExc_ValueError, e.what());
  } catch (const IndexError& e) {
    return fail(PyExc_IndexError, e.what());
  } catch (py::builtin_exception& e) {
    e.set_error();
    return nullptr;
  } catch (const std::bad_alloc& e) {
    return fail(PyExc_MemoryError, e.what());  // (pybind11's message: "std::bad_alloc")
  } catch (const std::exception& e) {
    return fail(PyExc_RuntimeError, e.what());
  }
}

// Binding files of op families register themselves (like kernels do) so adding a family
// touches no shared file:   AC_BINDINGS(reductions) { m.def("sum", ...); }
// They run after the core bindings below, in no particular order.
using Binder = void (*)(py::module_&);
int register_binder(Binder binder);
void run_registered_binders(py::module_& m);
#define AC_BINDINGS(tag)                                                               \
  static void ac_bind_##tag(::arraycore::native::bindings::py::module_& m);           \
  [[maybe_unused]] static const int ac_binder_##tag =                                  \
      ::arraycore::native::bindings::register_binder(&ac_bind_##tag);                  \
  static void ac_bind_##tag(::arraycore::native::bindings::py::module_& m)

void bind_array(py::module_& m);
void bind_ops(py::module_& m);
void bind_creation(py::module_& m);
void bind_interop(py::module_& m);
void bind_number_slots(py::module_& m);                     // nb_add, ... (operators)                          // DLPack, buffer import
void bind_dlpack(py::module_& m);                           // DLPack capsules
void bind_buffer_import(py::module_& m);                    // PEP 3118 import
void bind_factories(py::module_& m);                        // arange, linspace, eye, tri
void define_buffer_export(py::class_<NdArray>& cls);        // buffer protocol on Array

}  // namespace arraycore::native::bindings
