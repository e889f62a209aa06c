// A native fast path for x[key] = value on a plain Array (as_exact_array: no tape state):
// a basic key (int, slice, None, Ellipsis), a leading bool mask or a key of integer and bool
// arrays, int lists and ints among basic items (plan_int_index, bind_fast_advanced.cpp: x[idx] = v,
// x[i, j] = v, x[0, idx] = v; a repeated index keeps the last write, as NumPy), and a value
// that is a Python bool/int/float the dtype keeps (weak_scalar_keeps: the Python path's
// promote_with_scalar check) or an Array of a dtype that promotion with a's keeps at a's
// (_check_stored_value's rule; cast as the Python path casts).  It does what the Python path
// (arraycore/autodiff/install.py __setitem__ -> _core/array_methods.py _setitem) does for
// them: bump the buffer's version counter (autodiff/versions.py: the tape compares it with
// the version a node saved), then fill or copy.  v[5] = 2.0 cost 1.8 us through the three
// Python frames (NumPy 0.12 us).
//
// Everything else (other advanced keys, NumPy scalars, values the dtype cannot hold,
// read-only arrays, tracers and arrays with tape state) goes to the Python __setitem__, which
// records in-place writes on the tape and raises the errors.
#include <cstring>

#include "../kernels/gather.h"
#include "fast_indexing.h"

namespace arraycore::native::bindings {
namespace {

PyObject* g_fallback = nullptr;   // the Python __setitem__ (strong reference)
PyObject* g_versions = nullptr;   // autodiff.versions._VERSIONS: buffer address -> count
objobjargproc g_generic_slot = nullptr;  // CPython's slot caller (for `del x[k]`)

// The element `value` stores as, when it is a weak Python scalar that `d` holds; false (no
// error set) otherwise: the Python path then raises TypeError/OverflowError.
bool scalar_element(PyObject* value, DType d, char* elem) {
  return weak_scalar_keeps(value, d) && try_python_to_element(value, d, elem, "fill");
}

// versions.bump(x): _VERSIONS[x._buffer_ptr] += 1.
void bump_version(const NdArray& a) {
  py::object key = py::reinterpret_steal<py::object>(
      PyLong_FromSize_t(reinterpret_cast<uintptr_t>(a.buffer->data())));
  if (!key) throw py::error_already_set();
  PyObject* old = PyDict_GetItemWithError(g_versions, key.ptr());  // borrowed
  if (!old && PyErr_Occurred()) throw py::error_already_set();
  long long v = 0;
  if (old) {
    v = PyLong_AsLongLong(old);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  }
  py::object next = py::reinterpret_steal<py::object>(PyLong_FromLongLong(v + 1));
  if (!next || PyDict_SetItem(g_versions, key.ptr(), next.ptr()) < 0)
    throw py::error_already_set();
}

// The value an advanced write of result shape `shape` stores: `src` (in a's dtype, read
// first when it shares a's buffer), or the scalar `elem` as a 0-d array.  False when `src` does not
// broadcast to `shape`: the Python path words that error.
bool stored_value(const NdArray& a, const NdArray* src, const char* elem, const Shape& shape,
                  NdArray& v) {
  if (!src) {
    v = empty({}, a.dtype);
    std::memcpy(v.data(), elem, a.itemsize());
    return true;
  }
  if (src->ndim() > static_cast<int>(shape.size())) return false;
  for (int d = 1; d <= src->ndim(); ++d) {
    const int64_t s = src->shape[src->ndim() - d], t = shape[shape.size() - d];
    if (s != t && s != 1) return false;
  }
  v = src->buffer == a.buffer || src->dtype != a.dtype ? astype(*src, a.dtype) : *src;
  return true;
}

// True when the write was done here.
bool try_fast_setitem(PyObject* self, PyObject* key, PyObject* value) {
  const NdArray* a = as_exact_array(self);
  if (!a || !a->writeable() || !a->buffer) return false;
  alignas(16) char elem[16];
  const NdArray* src = nullptr;
  if (Py_TYPE(value) == reinterpret_cast<PyTypeObject*>(array_type_object())) {
    src = as_exact_array(value);
    DType joined;  // a value of a dtype `a` holds (promotion keeps a's dtype) is cast
    if (!src || (src->dtype != a->dtype && !(try_promote_types(a->dtype, src->dtype, joined) &&
                                             joined == a->dtype)))
      return false;
  } else if (!scalar_element(value, a->dtype, elem)) {
    return false;
  }
  NdArray view;
  if (fast_basic_view(*a, key, nullptr, view)) {
    bump_version(*a);
    if (src) {
      maybe_nogil(view.numel(), [&] { copy_into(view, *src); });  // (its broadcast error)
    } else if (view.ndim() == 0) {
      std::memcpy(view.data(), elem, view.itemsize());
    } else {
      NdArray scalar = empty({}, a->dtype);
      std::memcpy(scalar.data(), elem, a->itemsize());
      copy_into(view, scalar);
    }
    return true;
  }
  if (const NdArray* m = leading_mask(*a, key)) {
    Shape shape{count_true(*m)};
    for (int d = m->ndim(); d < a->ndim(); ++d) shape.push_back(a->shape[d]);
    NdArray v;
    if (!stored_value(*a, src, elem, shape, v)) return false;
    bump_version(*a);
    v = broadcast_to(v, shape, "__setitem__");
    maybe_nogil(a->numel(), [&] { mask_assign(*a, *m, v); });
    return true;
  }
  IntIndexPlan plan;
  if (!plan_int_index(*a, key, plan)) return false;
  NdArray v;
  if (!stored_value(*a, src, elem, plan.final_shape, v)) return false;
  // The kernel reads the indices twice (checks, then writes): an index array in a's own
  // buffer is read before anything is written, as NumPy does.
  for (NdArray& i : plan.idx)
    if (i.buffer == a->buffer) i = astype(i, DType::Int64);
  const NdArray values = permuted(broadcast_to(v, plan.final_shape, "__setitem__"), plan.perm);
  // The kernel checks every index before it writes anything, so the version is bumped after
  // a write that happened (the Python path also bumps before one that raises).
  try {
    maybe_nogil(values.numel(),
                [&] { scatter(plan.view, plan.axes, plan.idx, values, "__setitem__"); });
  } catch (const IndexError&) {
    if (plan.ints_folded) return false;  // the Python path names its own axes
    throw;
  }
  bump_version(*a);
  return true;
}

int ass_subscript(PyObject* self, PyObject* key, PyObject* value) {
  if (value == nullptr) return g_generic_slot(self, key, value);  // del x[k]: as before
  PyObject* r = call_translating([&]() -> PyObject* {
    if (try_fast_setitem(self, key, value)) Py_RETURN_NONE;
    return PyObject_CallFunctionObjArgs(g_fallback, self, key, value, nullptr);
  });
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

PyObject* setitem_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "__setitem__ expected 2 arguments, got %zd", nargs);
    return nullptr;
  }
  if (ass_subscript(self, args[0], args[1]) < 0) return nullptr;
  Py_RETURN_NONE;
}

PyMethodDef g_setitem_def = {"__setitem__", reinterpret_cast<PyCFunction>(
                                                reinterpret_cast<void (*)()>(&setitem_method)),
                             // The text signature makes inspect.signature() work on the C
                             // method (array-api-tests' signature checks read it).
                             METH_FASTCALL, "__setitem__($self, key, value, /)\n--\n\n"
                                            "x[key] = value"};

}  // namespace

AC_BINDINGS(fast_setitem) {
  m.def("install_fast_setitem", [](py::object cls, py::object fallback, py::dict versions) {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (cls.ptr() != array_type_object())
      throw TypeError("install_fast_setitem: only the Array type has native indexing");
    Py_XSETREF(g_fallback, fallback.release().ptr());
    Py_XSETREF(g_versions, versions.release().ptr());
    py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &g_setitem_def));
    if (!descr) throw py::error_already_set();
    // setattr first: CPython points the slot at its generic caller, which deletion keeps.
    cls.attr("__setitem__") = descr;
    g_generic_slot = type->tp_as_mapping->mp_ass_subscript;
    type->tp_as_mapping->mp_ass_subscript = ass_subscript;
    PyType_Modified(type);
  }, "Installs the native x[key] = value (fallback: the Python __setitem__; versions: "
     "autodiff.versions._VERSIONS).");
}

}  // namespace arraycore::native::bindings
