// Native fast paths of concat, stack and expand_dims (FastFunction kinds 'concat', 'stack',
// 'expand_dims', bind_fast_calls.cpp) for plain Arrays (of any layout and dtypes).
//
// The Python functions (array_api/_manipulation.py) validate with generator expressions,
// promote the dtypes, and copy each input through a Python-level slice of the result: about
// 4 us for two 1000-element vectors, where NumPy takes 0.7.  Here the same result (allocated
// row-major, in the dtype promote_sequence gives, each input cast into its slice by
// copy_into) is made in one call.  axis=None, non-int axes, shapes that do not fit and
// tracers or arrays with tape state go to the Python function, which raises the errors.
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

// promote_types of arraycore/_core/dtypes.py, indexed by dtype code, as that module sets it
// (set_promotion_table): one table, the Python one.  Until it is set, only one dtype joins.
DType g_promote[kNumDTypes][kNumDTypes];
bool g_have_promote = false;

// The smallest dtype of d's kind (dtypes.py _smallest_of_kind).
DType smallest_of_kind(DType d) {
  switch (d) {
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64:
      return DType::Int8;
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
      return DType::UInt8;
    case DType::Float32: case DType::Float64:
      return DType::Float32;
    case DType::Complex64: case DType::Complex128:
      return DType::Complex64;
    default:
      return d;
  }
}

DType promote(DType a, DType b) { return g_promote[dtype_index(a)][dtype_index(b)]; }

// dtypes.py promote_sequence: the pairwise fold, and for three or more arrays each promoted
// on its own to the fold's kind (NumPy's result_type).
DType result_dtype(const std::vector<const NdArray*>& arrays) {
  DType r = arrays[0]->dtype;
  for (size_t i = 1; i < arrays.size(); ++i) r = promote(r, arrays[i]->dtype);
  if (arrays.size() <= 2) return r;
  const DType base = smallest_of_kind(r);
  DType out = promote(arrays[0]->dtype, base);
  for (size_t i = 1; i < arrays.size(); ++i) out = promote(out, promote(arrays[i]->dtype, base));
  return out;
}

// The arrays of a list/tuple argument (all plain Arrays, at least one) and the dtype they
// join in.
bool plain_arrays(PyObject* seq, std::vector<const NdArray*>& out, DType& dtype) {
  if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq)) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n == 0) return false;
  PyObject** items = PySequence_Fast_ITEMS(seq);
  out.reserve(n);
  bool mixed = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    const NdArray* a = as_exact_array(items[i]);
    if (!a) return false;
    mixed = mixed || a->dtype != (i ? out[0]->dtype : a->dtype);
    out.push_back(a);
  }
  if (mixed && !g_have_promote) return false;
  dtype = mixed ? result_dtype(out) : out[0]->dtype;
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

// Copies (casts) each input into its slice of `out` along `axis` (`stacked`: one index each).
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

bool try_promote_types(DType a, DType b, DType& out) {
  if (!g_have_promote) return false;
  out = promote(a, b);
  return true;
}

py::object try_fast_concat(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  std::vector<const NdArray*> arrays;
  DType dtype;
  if (nargs != 1 || !plain_arrays(args[0], arrays, dtype)) return py::object();
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
  NdArray out = empty(shape, dtype);
  fill_slices(out, arrays, axis, false);
  return wrap_fresh_array(std::move(out));
}

py::object try_fast_stack(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  std::vector<const NdArray*> arrays;
  DType dtype;
  if (nargs != 1 || !plain_arrays(args[0], arrays, dtype)) return py::object();
  const NdArray& first = *arrays[0];
  int axis;
  if (!axis_kwarg(args, nargs, kwnames, first.ndim() + 1, axis)) return py::object();
  for (const NdArray* a : arrays)
    if (a->shape != first.shape) return py::object();
  const Shape shape = with_entry(first.shape, axis, static_cast<int64_t>(arrays.size()));
  NdArray out = empty(shape, dtype);
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

AC_BINDINGS(fast_join) {
  m.def("set_promotion_table", [](const std::vector<int>& codes) {
    if (codes.size() != kNumDTypes * kNumDTypes)
      throw ValueError("set_promotion_table: expected 169 dtype codes");
    for (int a = 0; a < kNumDTypes; ++a)
      for (int b = 0; b < kNumDTypes; ++b)
        g_promote[a][b] = dtype_from_code(codes[a * kNumDTypes + b], "set_promotion_table");
    g_have_promote = true;
  }, "Gives the native concat/stack dtypes.py's promote_types table (row-major by code).");
}

}  // namespace arraycore::native::bindings
