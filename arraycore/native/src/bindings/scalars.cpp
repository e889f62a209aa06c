// Python scalar <-> array element conversions.
#include <complex>
#include <cstring>
#include <limits>

#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {

py::object element_to_python(DType dt, const char* ptr) {
  return visit_dtype(dt, [&](auto v) -> py::object {
    using T = decltype(v);
    T x;
    std::memcpy(&x, ptr, sizeof(T));
    if constexpr (std::is_same_v<T, bool>) return py::bool_(x);
    else if constexpr (is_complex_v<T>)
      return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(x.real(), x.imag()));
    else if constexpr (std::is_floating_point_v<T>) return py::float_(static_cast<double>(x));
    else if constexpr (std::is_signed_v<T>) return py::int_(static_cast<int64_t>(x));
    else return py::int_(static_cast<uint64_t>(x));
  });
}

namespace {

template <class T>
T python_to_integer(py::handle value, const char* who) {
  PyObject* idx = PyNumber_Index(value.ptr());
  if (!idx) throw py::error_already_set();
  py::object owned = py::reinterpret_steal<py::object>(idx);
  int overflow = 0;
  if constexpr (std::is_signed_v<T>) {
    long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
    if (overflow || v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
      PyErr_Format(PyExc_OverflowError, "%s: Python integer %R out of bounds for %s", who, idx,
                   dtype_name(dtype_of<T>));
      throw py::error_already_set();
    }
    return static_cast<T>(v);
  } else {
    if (PyObject_RichCompareBool(idx, py::int_(0).ptr(), Py_LT) == 1) {
      PyErr_Format(PyExc_OverflowError, "%s: Python integer %R out of bounds for %s", who, idx,
                   dtype_name(dtype_of<T>));
      throw py::error_already_set();
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(idx);
    if (PyErr_Occurred() || v > std::numeric_limits<T>::max()) {
      PyErr_Clear();
      PyErr_Format(PyExc_OverflowError, "%s: Python integer %R out of bounds for %s", who, idx,
                   dtype_name(dtype_of<T>));
      throw py::error_already_set();
    }
    return static_cast<T>(v);
  }
}

}  // namespace

void python_to_element(py::handle value, DType dt, char* ptr, const char* who) {
  visit_dtype(dt, [&](auto tag) {
    using T = decltype(tag);
    T x;
    if constexpr (std::is_same_v<T, bool>) {
      int r = PyObject_IsTrue(value.ptr());
      if (r < 0) throw py::error_already_set();
      x = r != 0;
    } else if constexpr (is_complex_v<T>) {
      Py_complex c = PyComplex_AsCComplex(value.ptr());
      if (PyErr_Occurred()) throw py::error_already_set();
      x = T(static_cast<real_t<T>>(c.real), static_cast<real_t<T>>(c.imag));
    } else if constexpr (std::is_floating_point_v<T>) {
      if (PyComplex_Check(value.ptr()))
        throw TypeError(std::string(who) + ": cannot store a complex value in " + dtype_name(dt));
      double d = PyFloat_AsDouble(value.ptr());
      if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      x = static_cast<T>(d);
    } else {
      if (PyFloat_Check(value.ptr()) || PyComplex_Check(value.ptr()))
        throw TypeError(std::string(who) + ": cannot store a " +
                        std::string(Py_TYPE(value.ptr())->tp_name) + " in an integer array of " +
                        dtype_name(dt));
      x = python_to_integer<T>(value, who);
    }
    std::memcpy(ptr, &x, sizeof(T));
  });
}

}  // namespace arraycore::native::bindings
