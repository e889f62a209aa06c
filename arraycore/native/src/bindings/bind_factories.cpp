// Bindings of the computed factories in creation.h: arange, linspace, eye, tril/triu.
#include <Python.h>

#include <optional>

#include "../creation.h"
#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

bool is_integer_dtype(DType dt) {
  return dt != DType::Bool && dt < DType::Float32;
}

bool is_python_integer(py::handle o) {
  return PyLong_Check(o.ptr()) ||
         (!PyFloat_Check(o.ptr()) && !PyComplex_Check(o.ptr()) && PyIndex_Check(o.ptr()));
}

// Python integer -> int64; false when it does not fit.
bool as_int64(py::handle o, int64_t* out) {
  PyObject* idx = PyNumber_Index(o.ptr());
  if (idx == nullptr) throw py::error_already_set();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  *out = v;
  return overflow == 0;
}

double as_real(py::handle o, const char* who) {
  if (PyComplex_Check(o.ptr()))
    throw TypeError(std::string(who) + ": complex arguments are not supported");
  double d = PyFloat_AsDouble(o.ptr());
  if (d == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw TypeError(std::string(who) + ": expected a real number, got " +
                    Py_TYPE(o.ptr())->tp_name);
  }
  return d;
}

c128 as_complex(py::handle o, const char* who) {
  Py_complex c = PyComplex_AsCComplex(o.ptr());
  if (c.real == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw TypeError(std::string(who) + ": expected a number, got " + Py_TYPE(o.ptr())->tp_name);
  }
  return c128(c.real, c.imag);
}

NdArray arange(py::handle start_o, py::object stop_o, py::handle step_o, int code) {
  DType dt = dtype_from_code(code, "arange");
  if (dt == DType::Bool || dt >= DType::Complex64)
    throw TypeError(std::string("arange: unsupported dtype ") + dtype_name(dt) +
                    " (expected an integer or real floating dtype)");
  py::object zero = py::int_(0);
  py::handle start = start_o, stop = stop_o;
  if (stop_o.is_none()) {  // arange(stop)
    stop = start_o;
    start = zero;
  }
  int64_t a, b, s;
  if (is_python_integer(start) && is_python_integer(stop) && is_python_integer(step_o) &&
      as_int64(start, &a) && as_int64(stop, &b) && as_int64(step_o, &s)) {
    int64_t n = arange_length(a, b, s);
    py::gil_scoped_release nogil;
    if (is_integer_dtype(dt)) return arange_int(a, s, n, dt);
    return arange_float(static_cast<double>(a), static_cast<double>(s), n, dt);
  }
  double fa = as_real(start, "arange"), fb = as_real(stop, "arange"),
         fs = as_real(step_o, "arange");
  int64_t n = arange_length(fa, fb, fs);
  py::gil_scoped_release nogil;
  return arange_float(fa, fs, n, dt);
}

NdArray linspace_py(py::handle start_o, py::handle stop_o, int64_t num, bool endpoint, int code) {
  DType dt = dtype_from_code(code, "linspace");
  bool complex_dt = dt == DType::Complex64 || dt == DType::Complex128;
  c128 start, stop;
  if (complex_dt) {
    start = as_complex(start_o, "linspace");
    stop = as_complex(stop_o, "linspace");
  } else {
    start = as_real(start_o, "linspace");
    stop = as_real(stop_o, "linspace");
  }
  py::gil_scoped_release nogil;
  return linspace(start, stop, num, endpoint, dt);
}

}  // namespace

void bind_factories(py::module_& m) {
  m.def("arange", &arange, py::arg("start"), py::arg("stop"), py::arg("step"),
        py::arg("dtype_code"),
        "1-d array of start, start+step, ... below stop (NumPy's length and fill rule; exact "
        "int64 arithmetic for integer arguments).  stop=None means arange(0, start).");
  m.def("linspace", &linspace_py, py::arg("start"), py::arg("stop"), py::arg("num"),
        py::arg("endpoint"), py::arg("dtype_code"),
        "num evenly spaced samples from start to stop (NumPy's formula).");
  m.def("eye", [](int64_t n_rows, std::optional<int64_t> n_cols, int64_t k, int code) {
          DType dt = dtype_from_code(code, "eye");
          py::gil_scoped_release nogil;
          return eye(n_rows, n_cols.value_or(n_rows), k, dt);
        },
        py::arg("n_rows"), py::arg("n_cols"), py::arg("k"), py::arg("dtype_code"),
        "2-d array with ones on the k-th diagonal.");
  m.def("tri", [](const NdArray& a, int64_t k, bool upper) {
          py::gil_scoped_release nogil;
          return tri(a, k, upper);
        },
        py::arg("a"), py::arg("k"), py::arg("upper"),
        "tril (upper=False: keeps j <= i+k) or triu (upper=True: keeps j >= i+k) over the "
        "last two axes.");
}

}  // namespace arraycore::native::bindings
