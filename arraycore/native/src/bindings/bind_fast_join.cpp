// Native fast paths of concat, stack and expand_dims (FastFunction kinds 'concat', 'stack',
// 'expand_dims', bind_fast_calls.cpp) for plain Arrays of one dtype.
//
// The Python functions (array_api/_manipulation.py) validate with generator expressions,
// promote the dtypes, and copy each input through a Python-level slice of the result: about
// 4 us for two 1000-element vectors, where NumPy takes 0.7.  Here the same result (allocated
// row-major, each input copied into its slice by copy_into) is made in one call.  Mixed
// dtypes (promotion), axis=None, non-int axes, shapes that do not fit and tracers or arrays
// with tape state go to the Python function, which raises the errors.
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

// The arrays of a list/tuple argument: all plain Arrays of one dtype, at least one.
bool same_dtype_arrays(PyObject* seq, std::vector<const NdArray*>& out) {
  if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq)) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n == 0) return false;
  PyObject** items = PySequence_Fast_ITEMS(seq);
  out.reserve(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    const NdArray* a = as_exact_array(items[i]);
    if (!a || a->dtype != (i ? out[0]->dtype : a->dtype)) return false;
    out.push_back(a);
  }
  return true;
}

// An exact int in [-n, n), normalized; false for anything else (None, bools, tuples, NumPy
// ints, out-of-range axes: the Python path).
bool int_axis(PyObject* o, int n, int& axis) {
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || v < -n || v >= n) return false;
  axis = static_cast<int>(v < 0 ? v + n : v);
  return true;
}

// The `axis` keyword (the only keyword taken) as int_axis reads it; 0 when it is absent.
bool axis_kwarg(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, int n, int& axis) {
  axis = 0;
  if (!kwnames) return true;
  if (PyTuple_GET_SIZE(kwnames) != 1 ||
      PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "axis") != 0)
    return false;
  return int_axis(args[nargs], n, axis);
}

// `s` with `v` inserted at position `at`, or (`remove`) with the entry at `at` removed.
Shape with_entry(const Shape& s, int at, int64_t v, bool remove = false) {
  Shape out;
  for (int d = 0; d < static_cast<int>(s.size()); ++d) {
    if (d == at && !remove) out.push_back(v);
    if (d != at || !remove) out.push_back(s[d]);
  }
  if (at == static_cast<int>(s.size()) && !remove) out.push_back(v);
  return out;
}

// Copies each input into its slice of `out` along `axis` (`stacked`: one index each).
void fill_slices(const NdArray& out, const std::vector<const NdArray*>& arrays, int axis,
                 bool stacked) {
  maybe_nogil(out.numel(), [&] {
    int64_t start = 0;
    for (const NdArray* a : arrays) {
      const int64_t n = stacked ? 1 : a->shape[axis];
      if (n == 0) continue;
      Shape shape = out.shape, strides = out.strides;
      shape[axis] = n;
      int64_t offset = start * out.strides[axis];
      if (stacked) {  // drop the new axis: the slice has the input's shape
        shape = with_entry(shape, axis, 0, true);
        strides = with_entry(strides, axis, 0, true);
      }
      copy_into(as_strided(out, shape, strides, offset, "concat"), *a);
      start += n;
    }
  });
}

}  // namespace

py::object try_fast_concat(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  std::vector<const NdArray*> arrays;
  if (nargs != 1 || !same_dtype_arrays(args[0], arrays)) return py::object();
  const NdArray& first = *arrays[0];
  const int ndim = first.ndim();
  int axis;
  if (ndim == 0 || !axis_kwarg(args, nargs, kwnames, ndim, axis)) return py::object();
  Shape shape = first.shape;
  int64_t total = 0;
  for (const NdArray* a : arrays) {
    if (a->ndim() != ndim) return py::object();
    for (int d = 0; d < ndim; ++d)
      if (d != axis && a->shape[d] != shape[d]) return py::object();
    total += a->shape[axis];
  }
  shape[axis] = total;
  NdArray out = empty(shape, first.dtype);
  fill_slices(out, arrays, axis, false);
  return wrap_fresh_array(std::move(out));
}

py::object try_fast_stack(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  std::vector<const NdArray*> arrays;
  if (nargs != 1 || !same_dtype_arrays(args[0], arrays)) return py::object();
  const NdArray& first = *arrays[0];
  int axis;
  if (!axis_kwarg(args, nargs, kwnames, first.ndim() + 1, axis)) return py::object();
  for (const NdArray* a : arrays)
    if (a->shape != first.shape) return py::object();
  const Shape shape = with_entry(first.shape, axis, static_cast<int64_t>(arrays.size()));
  NdArray out = empty(shape, first.dtype);
  fill_slices(out, arrays, axis, true);
  return wrap_fresh_array(std::move(out));
}

// expand_dims(x, /, axis=0) with one int axis (positional or keyword) in [-(n+1), n+1).
py::object try_fast_expand_dims(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs < 1 || nargs > 2 || (nargs == 2 && kwnames)) return py::object();
  const NdArray* x = as_exact_array(args[0]);
  if (!x) return py::object();
  const int n = x->ndim() + 1;
  int axis = 0;
  if (nargs == 2 ? !int_axis(args[1], n, axis) : !axis_kwarg(args, nargs, kwnames, n, axis))
    return py::object();
  if (n > 64) return py::object();
  const Shape shape = with_entry(x->shape, axis, 1), strides = with_entry(x->strides, axis, 0);
  return wrap_fresh_array(as_strided(*x, shape, strides, 0, "expand_dims"));
}

}  // namespace arraycore::native::bindings
