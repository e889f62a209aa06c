// Helpers for the hot paths of the autodiff tape (arraycore/autodiff/graph.py, tape.py).
//
// `_native.alias(x)`: a new Array object for the same view of the same buffer (the same
// values, shape, strides and buffer, so the same version counter), without x's instance
// attributes (its tape state).  The tape strips saved outputs and rule inputs this way; the
// Python route, `x._view(x.shape, x._strides, 0)`, converts the shape and strides to and from
// Python sequences and costs several times more.
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

const NdArray* array_of(PyObject* o) {
  static const py::detail::type_info* tinfo = py::detail::get_type_info(typeid(NdArray));
  if (!tinfo || Py_TYPE(o) != reinterpret_cast<PyTypeObject*>(array_type_object()))
    return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(o);
  return static_cast<const NdArray*>(inst->get_value_and_holder(tinfo).value_ptr());
}

PyObject* alias(PyObject*, PyObject* x) {
  return call_translating([&]() -> PyObject* {
    const NdArray* a = array_of(x);
    if (!a) {
      PyErr_SetString(PyExc_TypeError, "alias: expected an Array");
      return nullptr;
    }
    return wrap_fresh_array(NdArray(*a)).release().ptr();
  });
}

PyMethodDef g_defs[] = {
    {"alias", alias, METH_O,
     "alias(x): a new Array object viewing x's buffer exactly as x does, without x's "
     "instance attributes (autodiff: strips tape state)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

AC_BINDINGS(autodiff) {
  for (PyMethodDef* d = g_defs; d->ml_name != nullptr; ++d) {
    PyObject* f = PyCFunction_NewEx(d, nullptr, m.ptr());
    if (!f) throw py::error_already_set();
    m.add_object(d->ml_name, py::reinterpret_steal<py::object>(f));
  }
}

}  // namespace arraycore::native::bindings
