// A native fast path for indexing: x[3], x[1:9:2], x[:, 4], x[..., None] (basic) and
// x[idx], x[[1, 2]], x[:, idx], x[i, j], x[mask] (bind_fast_advanced.cpp) on a plain Array
// (as_exact_array: no autodiff state) are computed here, without the Python frames of
// arraycore/_core/indexing.py and of the autodiff dispatcher in front of it (1.5 us per
// x[10:20], where NumPy takes 0.15; 10.7 us per x[[1, 2]], NumPy 1.1).
//
// It only recognises keys it can answer exactly as the Python path would, and only when the
// result is valid; everything else (bools, NumPy integers, 0-d index arrays,
// out-of-range integers, a zero step, two ellipses, too many indices) goes, untouched, to
// `fallback` (the dispatching Python __getitem__), which raises the errors.
//
// The method is a C function in the type's mp_subscript slot (x[k]) and a method descriptor
// for the __getitem__ attribute (x.__getitem__(k)): a pybind11 function there cost about
// 0.15 us of argument dispatch per call, as much as the view itself.
#include "fast_indexing.h"

namespace arraycore::native::bindings {

namespace {
constexpr int kMaxNdim = 64;  // as arraycore/_core/indexing.py _MAX_NDIM
}  // namespace

bool fast_basic_view(const NdArray& a, PyObject* key, const uint8_t* advanced, NdArray& out,
                     int* advanced_dims) {
  PyObject* single[1] = {key};
  PyObject** items = single;
  Py_ssize_t count = 1;
  if (PyTuple_CheckExact(key)) {
    items = &PyTuple_GET_ITEM(key, 0);
    count = PyTuple_GET_SIZE(key);
  }
  const int ndim = a.ndim();
  int consuming = 0, ellipses = 0;
  for (Py_ssize_t j = 0; j < count; ++j) {
    PyObject* k = items[j];
    if (advanced && advanced[j]) consuming += advanced[j];
    else if (k == Py_Ellipsis) ++ellipses;
    else if (k == Py_None) continue;
    else if (PyLong_CheckExact(k) || PySlice_Check(k)) ++consuming;
    else return false;  // advanced, bool, NumPy integer, ...: the Python path
  }
  if (ellipses > 1 || consuming > ndim) return false;
  Shape shape, strides;
  int64_t offset = 0;
  int dim = 0;
  for (Py_ssize_t j = 0; j < count; ++j) {
    PyObject* k = items[j];
    if (advanced && advanced[j]) {  // advanced axes: all of them, indexed later
      for (int t = 0; t < advanced[j]; ++t, ++dim) {
        if (advanced_dims) *advanced_dims++ = static_cast<int>(shape.size());
        shape.push_back(a.shape[dim]);
        strides.push_back(a.strides[dim]);
      }
    } else if (k == Py_None) {
      shape.push_back(1);
      strides.push_back(0);
    } else if (k == Py_Ellipsis) {
      for (int e = 0; e < ndim - consuming; ++e, ++dim) {
        shape.push_back(a.shape[dim]);
        strides.push_back(a.strides[dim]);
      }
    } else if (PyLong_CheckExact(k)) {
      int overflow = 0;
      long long i = PyLong_AsLongLongAndOverflow(k, &overflow);
      const int64_t size = a.shape[dim];
      if (overflow || i < -size || i >= size) return false;  // the Python error
      if (i < 0) i += size;
      offset += i * a.strides[dim];
      ++dim;
    } else {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k, &start, &stop, &step) < 0) {  // (a zero step, a bad bound)
        PyErr_Clear();
        return false;
      }
      const Py_ssize_t n = PySlice_AdjustIndices(a.shape[dim], &start, &stop, step);
      shape.push_back(n);
      strides.push_back(a.strides[dim] * step);
      if (n > 0) offset += start * a.strides[dim];
      ++dim;
    }
  }
  for (; dim < ndim; ++dim) {
    shape.push_back(a.shape[dim]);
    strides.push_back(a.strides[dim]);
  }
  if (static_cast<int>(shape.size()) > kMaxNdim) return false;
  out = as_strided(a, shape, strides, offset, "__getitem__");
  return true;
}

namespace {

PyObject* g_fallback = nullptr;  // the Python __getitem__ (strong reference, never released)

PyObject* subscript(PyObject* self, PyObject* key) {
  return call_translating([&]() -> PyObject* {
    if (const NdArray* a = as_exact_array(self)) {
      NdArray view;
      if (fast_basic_view(*a, key, nullptr, view)) return wrap_fresh_array(std::move(view)).release().ptr();
      py::object r = try_fast_advanced_getitem(*a, key);
      if (r) return r.release().ptr();
    }
    return PyObject_CallFunctionObjArgs(g_fallback, self, key, nullptr);
  });
}

PyObject* getitem_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "__getitem__ expected 1 argument, got %zd", nargs);
    return nullptr;
  }
  return subscript(self, args[0]);
}

PyMethodDef g_getitem_def = {"__getitem__", reinterpret_cast<PyCFunction>(
                                                reinterpret_cast<void (*)()>(&getitem_method)),
                             // The text signature makes inspect.signature() work on the C
                             // method (array-api-tests' signature checks read it).
                             METH_FASTCALL, "__getitem__($self, key, /)\n--\n\n"
                                            "x[key]: a view for basic keys, a copy otherwise."};

}  // namespace

AC_BINDINGS(fast_getitem) {
  // cls.__getitem__ = the fast path, then `fallback(self, key)` for everything it does not take.
  m.def("install_fast_getitem", [](py::object cls, py::object fallback) {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (cls.ptr() != array_type_object())
      throw TypeError("install_fast_getitem: only the Array type has native indexing");
    Py_XSETREF(g_fallback, fallback.release().ptr());
    py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &g_getitem_def));
    if (!descr) throw py::error_already_set();
    // (setattr first: CPython then points the slot at its generic caller, replaced below)
    cls.attr("__getitem__") = descr;
    type->tp_as_mapping->mp_subscript = subscript;
    PyType_Modified(type);
  });
}

}  // namespace arraycore::native::bindings
