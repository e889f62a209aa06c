// Native versions of three small Array members that were Python functions:
//   x.T, x.mT   the transposed view (1.1 us through a property, a Python function and
//               any_traced; NumPy 0.09 us),
//   float(x)    of a one-element array (0.3 us through slot_nb_float and _to_scalar).
// Each takes the plain case and calls the Python version (its `fallback`) for the rest:
// arrays with tape state (whose transpose is a recorded op), wrong dimensions (the errors),
// complex arrays, sizes other than 1.
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

PyObject* g_float_fallback = nullptr;  // the Python __float__ (strong reference)

// The transposed view of the last two axes, or nothing (`matrix`: exactly 2 dimensions).
PyObject* transposed(PyObject* fallback, PyObject* self, bool matrix) {
  return call_translating([&]() -> PyObject* {
    const NdArray* a = as_exact_array(self);
    if (a && (matrix ? a->ndim() == 2 : a->ndim() >= 2)) {
      Shape shape = a->shape, strides = a->strides;
      const int n = a->ndim();
      std::swap(shape[n - 1], shape[n - 2]);
      std::swap(strides[n - 1], strides[n - 2]);
      return wrap_fresh_array(as_strided(*a, shape, strides, 0, "view")).release().ptr();
    }
    return PyObject_CallOneArg(fallback, self);
  });
}

// (METH_O functions made with PyCFunction_New(def, fallback) receive the fallback as `self`)
PyObject* getter_T(PyObject* fallback, PyObject* self) { return transposed(fallback, self, true); }
PyObject* getter_mT(PyObject* fallback, PyObject* self) { return transposed(fallback, self, false); }

PyMethodDef g_T_def = {"T", getter_T, METH_O, nullptr};
PyMethodDef g_mT_def = {"mT", getter_mT, METH_O, nullptr};

bool is_complex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }

// Any Array (tape state included: _to_scalar reads the value the same way), not tracers.
PyObject* to_float(PyObject* self) {
  return call_translating([&]() -> PyObject* {
    if (Py_TYPE(self) == reinterpret_cast<PyTypeObject*>(array_type_object())) {
      static const py::detail::type_info* tinfo = py::detail::get_type_info(typeid(NdArray));
      auto* inst = reinterpret_cast<py::detail::instance*>(self);
      const auto* a = static_cast<const NdArray*>(inst->get_value_and_holder(tinfo).value_ptr());
      if (a->numel() == 1 && !is_complex(a->dtype)) {
        py::object v = element_to_python(a->dtype, a->data());
        return PyNumber_Float(v.ptr());
      }
    }
    return PyObject_CallOneArg(g_float_fallback, self);
  });
}

PyObject* float_method(PyObject* self, PyObject*) { return to_float(self); }
PyMethodDef g_float_def = {"__float__", float_method, METH_NOARGS, nullptr};

py::object property_of(PyMethodDef* def, py::object fallback, py::handle doc) {
  py::object getter = py::reinterpret_steal<py::object>(PyCFunction_New(def, fallback.ptr()));
  if (!getter) throw py::error_already_set();
  return py::module_::import("builtins").attr("property")(getter, py::none(), py::none(), doc);
}

}  // namespace

AC_BINDINGS(fast_attributes) {
  m.def("install_fast_transpose", [](py::object cls, py::object T_fallback, py::object mT_fallback) {
    if (cls.ptr() != array_type_object())
      throw TypeError("install_fast_transpose: only the Array type");
    cls.attr("T") = property_of(&g_T_def, T_fallback, cls.attr("T").attr("__doc__"));
    cls.attr("mT") = property_of(&g_mT_def, mT_fallback, cls.attr("mT").attr("__doc__"));
  }, "Installs the native T and mT properties (fallbacks: the Python getters).");
  m.def("install_fast_float", [](py::object cls, py::object fallback) {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (cls.ptr() != array_type_object())
      throw TypeError("install_fast_float: only the Array type");
    Py_XSETREF(g_float_fallback, fallback.release().ptr());
    py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &g_float_def));
    if (!descr) throw py::error_already_set();
    cls.attr("__float__") = descr;
    type->tp_as_number->nb_float = to_float;  // (after setattr, which installs the generic one)
    PyType_Modified(type);
  }, "Installs the native __float__ (fallback: the Python one).");
}

}  // namespace arraycore::native::bindings
