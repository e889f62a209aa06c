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

char numpy_scalar_kind(PyObject* o, int64_t* itemsize) {
  const char* name = Py_TYPE(o)->tp_name;
  if (std::strncmp(name, "numpy.", 6) != 0 || std::strcmp(name, "numpy.ndarray") == 0) return 0;
  py::object dtype = py::reinterpret_steal<py::object>(PyObject_GetAttrString(o, "dtype"));
  py::object kind = dtype ? py::reinterpret_steal<py::object>(
                                PyObject_GetAttrString(dtype.ptr(), "kind"))
                          : py::object();
  char k = 0;
  if (kind && PyUnicode_Check(kind.ptr()) && PyUnicode_GET_LENGTH(kind.ptr()) == 1)
    k = static_cast<char>(PyUnicode_ReadChar(kind.ptr(), 0));
  if (k && itemsize) {
    py::object size = py::reinterpret_steal<py::object>(
        PyObject_GetAttrString(dtype.ptr(), "itemsize"));
    *itemsize = size ? PyLong_AsLongLong(size.ptr()) : -1;
  }
  if (PyErr_Occurred()) PyErr_Clear();
  return k;
}

bool numpy_scalar_dtype(PyObject* o, DType& out) {
  int64_t size = 0;
  const char k = numpy_scalar_kind(o, &size);
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType d = static_cast<DType>(i);
    const bool kind_matches =
        (k == 'b' && d == DType::Bool) ||
        (k == 'i' && d >= DType::Int8 && d <= DType::Int64) ||
        (k == 'u' && d >= DType::UInt8 && d <= DType::UInt64) ||
        (k == 'f' && (d == DType::Float32 || d == DType::Float64)) ||
        (k == 'c' && (d == DType::Complex64 || d == DType::Complex128));
    if (kind_matches && static_cast<int64_t>(itemsize(d)) == size) {
      out = d;
      return true;
    }
  }
  return false;
}

namespace {

// Whether `value` is a complex number (Python's complex, NumPy's complex64/complex128: a
// complex64 is no Python complex, and its __float__ would drop the imaginary part).
bool is_complex_value(PyObject* value) {
  return PyComplex_Check(value) || numpy_scalar_kind(value) == 'c';
}

// Whether `value` is a real or complex floating-point number (np.float32 is no Python float).
bool is_inexact_value(PyObject* value) {
  if (PyFloat_Check(value) || PyComplex_Check(value)) return true;
  if (PyLong_Check(value)) return false;
  const char k = numpy_scalar_kind(value);
  return k == 'f' || k == 'c';
}

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
      if (is_complex_value(value.ptr()))
        throw TypeError(std::string(who) + ": cannot store a complex value in " + dtype_name(dt));
      double d = PyFloat_AsDouble(value.ptr());
      if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      x = static_cast<T>(d);
    } else {
      if (is_inexact_value(value.ptr()))
        throw TypeError(std::string(who) + ": cannot store a " +
                        std::string(Py_TYPE(value.ptr())->tp_name) + " in an integer array of " +
                        dtype_name(dt));
      if (!PyLong_Check(value.ptr()) && numpy_scalar_kind(value.ptr()) == 'b') {
        x = static_cast<T>(PyObject_IsTrue(value.ptr()) == 1);  // np.bool_ has no __index__
      } else {
        x = python_to_integer<T>(value, who);
      }
    }
    std::memcpy(ptr, &x, sizeof(T));
  });
}

}  // namespace arraycore::native::bindings
