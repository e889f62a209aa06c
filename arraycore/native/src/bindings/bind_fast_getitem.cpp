// A native fast path for basic indexing: x[3], x[1:9:2], x[:, 4], x[..., None] on a plain
// Array (as_exact_array: no autodiff state) become the view directly, without the Python
// frames of arraycore/_core/indexing.py basic_view and of the autodiff dispatcher in front of
// it (1.5 us per x[10:20], where NumPy takes 0.15).
//
// It only recognises keys that are an int, a slice, None, Ellipsis or a tuple of those, and
// only when the view is valid; everything else (advanced indices, bools, NumPy integers,
// out-of-range integers, a zero step, two ellipses, too many indices) goes, untouched, to
// `fallback` (the Python __getitem__), which computes the same views and raises the errors.
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

constexpr int kMaxNdim = 64;  // as arraycore/_core/indexing.py _MAX_NDIM

// The view of `a` for a basic `key`, or nothing (no Python error set) when the key is not one
// this path takes.
py::object try_fast_basic_getitem(const NdArray& a, PyObject* key) {
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
    if (k == Py_Ellipsis) ++ellipses;
    else if (k == Py_None) continue;
    else if (PyLong_CheckExact(k) || PySlice_Check(k)) ++consuming;
    else return py::object();  // advanced, bool, NumPy integer, ...: the Python path
  }
  if (ellipses > 1 || consuming > ndim) return py::object();
  Shape shape, strides;
  int64_t offset = 0;
  int dim = 0;
  for (Py_ssize_t j = 0; j < count; ++j) {
    PyObject* k = items[j];
    if (k == Py_None) {
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
      if (overflow || i < -size || i >= size) return py::object();  // the Python error
      if (i < 0) i += size;
      offset += i * a.strides[dim];
      ++dim;
    } else {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k, &start, &stop, &step) < 0) {  // (a zero step, a bad bound)
        PyErr_Clear();
        return py::object();
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
  if (static_cast<int>(shape.size()) > kMaxNdim) return py::object();
  return wrap_fresh_array(as_strided(a, shape, strides, offset, "__getitem__"));
}

}  // namespace

AC_BINDINGS(fast_getitem) {
  // cls.__getitem__ = the fast path, then `fallback(self, key)` for everything it does not take.
  m.def("install_fast_getitem", [](py::object cls, py::object fallback) {
    py::cpp_function method(
        [fallback](py::handle self, py::handle key) -> py::object {
          if (const NdArray* a = as_exact_array(self)) {
            py::object r = try_fast_basic_getitem(*a, key.ptr());
            if (r) return r;
          }
          return fallback(self, key);
        },
        py::name("__getitem__"), py::is_method(cls));
    cls.attr("__getitem__") = method;
  });
}

}  // namespace arraycore::native::bindings
