// Native fast paths for small-array calls: the namespace functions as a C callable type.
//
// A namespace function written in Python (validation, promotion, then the kernel) costs a few
// Python frames per call; on a 16-element array that is most of the time, and the autodiff
// dispatcher in front of it (arraycore/autodiff/dispatch.py make_public) adds one more.
// `FastFunction` is a vectorcall object that recognises the common, simple calls (plain
// arrays of an accepted dtype, weak Python scalars, zeros((8,))) and runs them natively; any
// other call goes, arguments untouched, to its `fallback`: the Python function that handles
// everything (promotion, errors, tracers, arrays with tape state).  So the fast path never
// decides anything the fallback would decide differently; it only skips the frames.
//
// The same recognisers serve the operators (bind_number_slots.cpp, bind_ops.cpp).
#include <cstring>

#include "bindings.h"  // (Python.h first: structmember.h needs it)
#include "fast_indexing.h"

#include <structmember.h>

namespace arraycore::native::bindings {

// --- the elementwise recognisers (declared in bindings.h) ---------------------------------

namespace {

bool is_float_kind(DType d) {
  return d == DType::Float32 || d == DType::Float64 || d == DType::Complex64 ||
         d == DType::Complex128;
}

}  // namespace

// Whether a Python scalar combined with an array of dtype `d` leaves the dtype at `d`
// (dtypes.promote_with_scalar: bool always; int unless d is bool; float when d is a float or
// complex dtype).  Only the exact builtin types: subclasses (NumPy's float64) are not
// scalars to the Python path.  Complex scalars always take the Python path.
bool weak_scalar_keeps(PyObject* s, DType d) {
  if (PyBool_Check(s)) return true;
  if (PyLong_CheckExact(s)) return d != DType::Bool;
  if (PyFloat_CheckExact(s)) return is_float_kind(d);
  return false;
}

bool try_python_to_element(PyObject* s, DType d, char* elem, const char* who) {
  try {
    python_to_element(s, d, elem, who);
  } catch (py::error_already_set&) {
    PyErr_Clear();
    return false;
  } catch (const std::exception&) {
    PyErr_Clear();
    return false;
  }
  return true;
}

namespace {

// The 0-d operand for a weak scalar, converted as from_scalar does (python_to_element).  A
// value the dtype cannot hold (int8 array + 300) returns false with no error set: the Python
// path raises the error.
bool scalar_operand(PyObject* s, DType d, NdArray& out) {
  out = empty({}, d);
  return try_python_to_element(s, d, out.data(), "asarray");
}

bool accepted(int mask, DType d) { return (mask >> dtype_index(d)) & 1; }

}  // namespace

// Note [Wrapping fresh arrays]: pybind11's cast of a returned NdArray (wrap_array included)
// looks the value up among the registered instances, looks the type info up by the C++ type
// name (init_instance), and registers the new instance in a hash map that dealloc erases it
// from again: a third of zeros((8,)).  An array the engine just made has no Python object
// yet and none of arraycore's bindings returns an NdArray by pointer or reference (the only
// reason to find an instance by its C++ address), so the fast paths build the instance as
// init_instance does, minus the registration: the holder owns the value, dealloc (which
// deregisters only instances flagged as registered) frees it.
py::object wrap_fresh_array(NdArray&& a) {
  using Holder = py::class_<NdArray>::holder_type;
  static_assert(std::is_same_v<Holder, std::unique_ptr<NdArray>>,
                "wrap_fresh_array builds unique_ptr holders");
  static const py::detail::type_info* tinfo = py::detail::get_type_info(typeid(NdArray));
  auto* type = reinterpret_cast<PyTypeObject*>(array_type_object());
  if (!tinfo || !type || !tinfo->simple_type || tinfo->type != type)
    return wrap_array(std::move(a));  // (never: Array is a plain class_)
  PyObject* self = py::detail::make_new_instance(type);
  if (!self) throw py::error_already_set();
  py::object owner = py::reinterpret_steal<py::object>(self);
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  inst->owned = true;
  py::detail::value_and_holder v_h(inst, tinfo, 0, 0);
  auto* value = new NdArray(std::move(a));
  v_h.value_ptr() = value;
  new (std::addressof(v_h.holder<Holder>())) Holder(value);
  v_h.set_holder_constructed();
  return owner;
}

py::object try_fast_unary(const Kernel& k, int mask, PyObject* x) {
  const NdArray* a = as_exact_array(x);
  if (!a || !accepted(mask, a->dtype)) return py::object();
  const NdArray* in[] = {a};
  return wrap_fresh_array(apply_kernel_nogil(k, in, 1));
}

py::object try_fast_binary(const Kernel& k, int mask, PyObject* x, PyObject* y) {
  const NdArray* a = as_exact_array(x);
  const NdArray* b = as_exact_array(y);
  NdArray scalar;
  if (a && b) {
    if (a->dtype != b->dtype) return py::object();
  } else if (a) {
    if (!weak_scalar_keeps(y, a->dtype) || !accepted(mask, a->dtype) ||
        !scalar_operand(y, a->dtype, scalar))
      return py::object();
    b = &scalar;
  } else if (b) {
    if (!weak_scalar_keeps(x, b->dtype) || !accepted(mask, b->dtype) ||
        !scalar_operand(x, b->dtype, scalar))
      return py::object();
    a = &scalar;
  } else {
    return py::object();
  }
  if (!accepted(mask, a->dtype)) return py::object();
  const NdArray* in[] = {a, b};
  return wrap_fresh_array(apply_kernel_nogil(k, in, 2));
}

// --- FastFunction ------------------------------------------------------------------------

namespace {

// (the *_like kinds last: try_fast_creation tests kind >= kEmptyLike)
enum Kind : int {
  kUnary, kBinary, kEmpty, kZeros, kOnes, kFull,
  kEmptyLike, kZerosLike, kOnesLike, kFullLike, kReshape, kAsarray, kConcat, kStack, kTake,
  kExpandDims, kNumKinds
};
const char* const kKindNames[kNumKinds] = {"unary",      "binary",     "empty",     "zeros",
                                           "ones",       "full",       "empty_like",
                                           "zeros_like", "ones_like",  "full_like",
                                           "reshape",    "asarray",    "concat",
                                           "stack",      "take",       "expand_dims"};

struct FastFunction {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  int kind;
  int mask;                 // dtypes the kernel runs in directly (elementwise kinds)
  const Kernel* kernel;     // elementwise kinds; null for creation
  PyObject* kernel_obj;     // the Python Kernel object (None for creation)
  PyObject* fallback;       // the Python function for every call the fast path does not take
  PyObject* guard;          // creation: an object whose `.stack` must be empty (or None)
  PyObject* name;
  PyObject* qualname;
  PyObject* doc;
  PyObject* module;
  PyObject* wrapped;
  PyObject* dict;
};

PyTypeObject g_fast_function_type = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyObject* g_stack_name = nullptr;  // interned "stack"
PyObject* g_dict_name = nullptr;   // interned "__dict__"

// --- creation arguments ---

// The dtype a `dtype=` argument names, when it is one of arraycore's dtype objects (names,
// NumPy dtypes, ... take the Python path).
bool dtype_arg(PyObject* o, DType& out) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (dtype_object(static_cast<DType>(i)).ptr() == o) {
      out = static_cast<DType>(i);
      return true;
    }
  }
  return false;
}

bool shape_entry(PyObject* o, Shape& shape) {
  if (!PyLong_CheckExact(o)) return false;  // bool, NumPy ints, __index__ objects: Python path
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || v < 0) return false;  // (v == -1 with an error cannot happen for an int)
  shape.push_back(v);
  return true;
}

bool shape_arg(PyObject* o, Shape& shape) {
  if (PyLong_CheckExact(o)) return shape_entry(o, shape);
  if (!PyTuple_CheckExact(o) && !PyList_CheckExact(o)) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  if (n > 64) return false;
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!shape_entry(items[i], shape)) return false;
  return true;
}

// True when no transform is active (guard.stack is an empty list), or there is no guard.
//
// The guard is autodiff's STATE, a threading.local: `STATE.stack` costs a thread-dict lookup
// and a generic attribute lookup (about 50 ns, a third of zeros((8,))).  A threading.local's
// attributes live in its per-thread dict, which is the same object for the life of the
// thread's Python thread state (and of the local, which the FastFunction holds), so each OS
// thread remembers (guard, thread-state id) -> that dict and reads `stack` from it with one
// dict lookup.  The dict is borrowed: it is only used while the thread-state id matches (a
// new thread state, even at the same address, has a new id).  Other guards, and a `stack`
// that is not in the dict (a class attribute, a property), take the attribute lookup.
struct GuardCache {
  PyObject* guard = nullptr;  // strong reference
  uint64_t thread_id = 0;
  PyObject* dict = nullptr;   // borrowed: the guard's dict for this thread state, or null
};
thread_local GuardCache t_guard_cache;
PyTypeObject* g_thread_local_type = nullptr;  // _thread._local

PyObject* guard_dict(PyObject* guard) {
  GuardCache& c = t_guard_cache;
  const uint64_t tid = PyThreadState_GetID(PyThreadState_Get());
  if (c.guard == guard && c.thread_id == tid) return c.dict;
  PyObject* d = nullptr;
  if (g_thread_local_type && PyObject_TypeCheck(guard, g_thread_local_type)) {
    d = PyObject_GetAttr(guard, g_dict_name);  // this thread's dict (created if new)
    if (d == nullptr) PyErr_Clear();
  }
  Py_INCREF(guard);
  Py_XSETREF(c.guard, guard);
  c.thread_id = tid;
  c.dict = d != nullptr && PyDict_CheckExact(d) ? d : nullptr;
  Py_XDECREF(d);  // (the local keeps it for this thread state)
  return c.dict;
}

bool guard_allows(PyObject* guard) {
  if (guard == Py_None) return true;
  PyObject* dict = guard_dict(guard);
  PyObject* stack = dict ? PyDict_GetItemWithError(dict, g_stack_name) : nullptr;
  if (stack) return PyList_CheckExact(stack) && PyList_GET_SIZE(stack) == 0;
  if (PyErr_Occurred()) PyErr_Clear();
  stack = PyObject_GetAttr(guard, g_stack_name);
  if (!stack) {
    PyErr_Clear();
    return false;
  }
  bool empty_stack = PyList_CheckExact(stack) && PyList_GET_SIZE(stack) == 0;
  Py_DECREF(stack);
  return empty_stack;
}

// Fills a fresh array with one element value (`elem`, itemsize bytes).
void fill_with(const NdArray& out, const char* elem) {
  const size_t isz = out.itemsize();
  const int64_t n = out.numel();
  if (n >= kReleaseGilElements) {  // large: the engine's (parallel) broadcast copy
    NdArray scalar = empty({}, out.dtype);
    std::memcpy(scalar.data(), elem, isz);
    py::gil_scoped_release nogil;
    copy_into(out, scalar);
    return;
  }
  char* p = out.data();
  bool zero = true;
  for (size_t i = 0; i < isz; ++i) zero = zero && elem[i] == 0;
  if (zero) {
    std::memset(p, 0, static_cast<size_t>(n) * isz);
    return;
  }
  for (int64_t i = 0; i < n; ++i) std::memcpy(p + i * isz, elem, isz);
}

// The element a creation call fills with (`elem`, itemsize of `dt` bytes): zero for zeros,
// one for ones, `fill` converted as the Python path converts it (python_to_element) for
// full.  False (no error set) when the Python path should decide: a value the dtype cannot
// hold raises there.
bool fill_element(int kind, PyObject* fill, DType dt, char* elem) {
  if (kind == kOnes || kind == kOnesLike) {
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      const T one = T(1);
      std::memcpy(elem, &one, sizeof(T));
    });
  } else if (kind == kFull || kind == kFullLike) {
    try {
      python_to_element(fill, dt, elem, kind == kFull ? "full" : "full_like");
    } catch (py::error_already_set&) {
      PyErr_Clear();
      return false;
    } catch (const std::exception&) {
      PyErr_Clear();
      return false;
    }
  }
  return true;
}

// zeros/ones/empty/full(shape[, fill_value], *, dtype=None, device=None) with an int or a
// tuple/list of ints for shape, and the *_like forms (x[, fill_value], *, dtype=None,
// device=None) with a plain Array x (as_exact_array: no autodiff state): an arraycore dtype
// object or None, device None or the CPU device, and (full, full_like) a bool/int/float fill
// value that the dtype can hold.  The result is row-major, as the Python functions make it.
py::object try_fast_creation(FastFunction* f, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  const int kind = f->kind;
  const bool full = kind == kFull || kind == kFullLike;
  const bool like = kind >= kEmptyLike;
  if (nargs != (full ? 2 : 1)) return py::object();
  PyObject* dtype = Py_None;
  if (kwnames) {
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; ++i) {
      PyObject* key = PyTuple_GET_ITEM(kwnames, i);
      PyObject* value = args[nargs + i];
      if (PyUnicode_CompareWithASCIIString(key, "dtype") == 0) {
        dtype = value;
      } else if (PyUnicode_CompareWithASCIIString(key, "device") == 0) {
        if (value != Py_None && value != cpu_device_object().ptr()) return py::object();
      } else {
        return py::object();
      }
    }
  }
  if (!guard_allows(f->guard)) return py::object();
  Shape shape;
  DType dt = DType::Float64;
  if (like) {
    const NdArray* x = as_exact_array(args[0]);
    if (!x) return py::object();
    shape = x->shape;
    dt = x->dtype;
  } else {
    if (!shape_arg(args[0], shape)) return py::object();
    // The element count must not overflow (empty() would raise; the Python path says so).
    int64_t numel = 1;
    for (int64_t d : shape) {
      if (d != 0 && numel > INT64_MAX / d) return py::object();
      numel *= d;
    }
  }
  PyObject* fill = full ? args[1] : nullptr;
  if (fill && !PyBool_Check(fill) && !PyLong_CheckExact(fill) && !PyFloat_CheckExact(fill))
    return py::object();  // complex, 0-d arrays, other types: Python path
  if (kind == kFull) {
    if (PyBool_Check(fill)) dt = DType::Bool;
    else if (PyLong_CheckExact(fill)) dt = DType::Int64;
  }
  if (dtype != Py_None && !dtype_arg(dtype, dt)) return py::object();
  if (fill && PyFloat_CheckExact(fill) && !is_float_kind(dt)) return py::object();  // error
  // The fill value first: the Python path converts it before allocating.
  alignas(16) char elem[16] = {};
  if (!fill_element(kind, fill, dt, elem)) return py::object();
  NdArray out = empty(shape, dt);
  if (kind != kEmpty && kind != kEmptyLike) fill_with(out, elem);
  return wrap_fresh_array(std::move(out));
}

// reshape(x, shape) with a plain Array x and an int or a tuple/list of ints for shape (one
// of them may be -1), when the result is a view: the view, as the Python path makes it
// (reshape_view).  Keywords (copy=), a shape that does not fit and a reshape that needs a
// copy go to the Python path.
py::object try_fast_reshape(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs != 2 || kwnames) return py::object();
  const NdArray* x = as_exact_array(args[0]);
  if (!x) return py::object();
  PyObject* o = args[1];
  PyObject* single[1] = {o};
  PyObject** items = single;
  Py_ssize_t n = 1;
  if (PyTuple_CheckExact(o) || PyList_CheckExact(o)) {
    n = PySequence_Fast_GET_SIZE(o);
    items = PySequence_Fast_ITEMS(o);
  } else if (!PyLong_CheckExact(o)) {
    return py::object();
  }
  if (n > 64) return py::object();
  Shape shape;
  int unknown = -1;
  int64_t known = 1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!PyLong_CheckExact(items[i])) return py::object();
    int overflow = 0;
    const long long d = PyLong_AsLongLongAndOverflow(items[i], &overflow);
    if (overflow || d < -1 || (d == -1 && unknown >= 0)) return py::object();
    if (d == -1) {
      unknown = static_cast<int>(i);
    } else {
      if (d != 0 && known > INT64_MAX / d) return py::object();
      known *= d;
    }
    shape.push_back(d);
  }
  const int64_t size = x->numel();
  if (unknown >= 0) {
    if (known == 0 || size % known) return py::object();
    shape[unknown] = size / known;
  } else if (known != size) {
    return py::object();
  }
  Shape strides;
  if (!reshape_strides(*x, shape, strides)) return py::object();
  return wrap_fresh_array(as_strided(*x, shape, strides, 0, "reshape"));
}

// --- the type ---

PyObject* fast_call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* f = reinterpret_cast<FastFunction*>(self);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* result = nullptr;
  bool taken = false;
  if (f->kind == kUnary) {
    if (nargs == 1 && !kwnames) {
      result = call_translating([&]() -> PyObject* {
        py::object r = try_fast_unary(*f->kernel, f->mask, args[0]);
        taken = static_cast<bool>(r);
        return r.release().ptr();
      });
    }
  } else if (f->kind == kBinary) {
    if (nargs == 2 && !kwnames) {
      result = call_translating([&]() -> PyObject* {
        py::object r = try_fast_binary(*f->kernel, f->mask, args[0], args[1]);
        taken = static_cast<bool>(r);
        return r.release().ptr();
      });
    }
  } else if (f->kind == kAsarray) {
    // asarray(list or tuple) with no keywords, outside transforms (the guard): the nested
    // sequence natively (try_asarray_nested); everything else to the fallback
    if (nargs == 1 && !kwnames &&
        (PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0])) && guard_allows(f->guard)) {
      result = call_translating([&]() -> PyObject* {
        py::object r = try_asarray_nested(args[0]);
        taken = static_cast<bool>(r);
        return r.release().ptr();
      });
    }
  } else if (f->kind >= kReshape) {
    // Views and copies of plain Arrays (no tape state), which need no guard: inside a
    // transform the dispatcher behind them calls the same implementation for plain arrays.
    using Recogniser = py::object (*)(PyObject* const*, Py_ssize_t, PyObject*);
    Recogniser fast = f->kind == kReshape  ? &try_fast_reshape
                      : f->kind == kConcat ? &try_fast_concat
                      : f->kind == kStack  ? &try_fast_stack
                      : f->kind == kTake   ? &try_fast_take
                                           : &try_fast_expand_dims;
    result = call_translating([&]() -> PyObject* {
      py::object r = fast(args, nargs, kwnames);
      taken = static_cast<bool>(r);
      return r.release().ptr();
    });
  } else {
    result = call_translating([&]() -> PyObject* {
      py::object r = try_fast_creation(f, args, nargs, kwnames);
      taken = static_cast<bool>(r);
      return r.release().ptr();
    });
  }
  // An error raised by the fast path itself (the kernel: shapes that do not broadcast, no
  // memory) is the error the Python path would raise too: no second attempt.
  if (taken || PyErr_Occurred()) return result;
  return PyObject_Vectorcall(f->fallback, args, nargsf, kwnames);
}

int fast_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* f = reinterpret_cast<FastFunction*>(self);
  Py_VISIT(f->kernel_obj);
  Py_VISIT(f->fallback);
  Py_VISIT(f->guard);
  Py_VISIT(f->name);
  Py_VISIT(f->qualname);
  Py_VISIT(f->doc);
  Py_VISIT(f->module);
  Py_VISIT(f->wrapped);
  Py_VISIT(f->dict);
  return 0;
}

int fast_clear(PyObject* self) {
  auto* f = reinterpret_cast<FastFunction*>(self);
  Py_CLEAR(f->kernel_obj);
  Py_CLEAR(f->fallback);
  Py_CLEAR(f->guard);
  Py_CLEAR(f->name);
  Py_CLEAR(f->qualname);
  Py_CLEAR(f->doc);
  Py_CLEAR(f->module);
  Py_CLEAR(f->wrapped);
  Py_CLEAR(f->dict);
  return 0;
}

void fast_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  fast_clear(self);
  PyObject_GC_Del(self);
}

PyObject* fast_repr(PyObject* self) {
  auto* f = reinterpret_cast<FastFunction*>(self);
  return PyUnicode_FromFormat("<arraycore function %S>", f->name ? f->name : Py_None);
}

// Pickled by reference, as functions are: __reduce__ returning a name means "the global
// `__module__.__qualname__`".
PyObject* fast_reduce(PyObject* self, PyObject*) {
  auto* f = reinterpret_cast<FastFunction*>(self);
  PyObject* q = f->qualname ? f->qualname : Py_None;
  Py_INCREF(q);
  return q;
}

PyObject* fast_get_kind(PyObject* self, void*) {
  return PyUnicode_FromString(kKindNames[reinterpret_cast<FastFunction*>(self)->kind]);
}

PyMethodDef g_methods[] = {
    {"__reduce__", fast_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

PyMemberDef g_members[] = {
    {"__name__", T_OBJECT, offsetof(FastFunction, name), 0, nullptr},
    {"__qualname__", T_OBJECT, offsetof(FastFunction, qualname), 0, nullptr},
    {"__doc__", T_OBJECT, offsetof(FastFunction, doc), 0, nullptr},
    {"__module__", T_OBJECT, offsetof(FastFunction, module), 0, nullptr},
    {"__wrapped__", T_OBJECT, offsetof(FastFunction, wrapped), 0, nullptr},
    {"fallback", T_OBJECT, offsetof(FastFunction, fallback), READONLY,
     "The Python function every call the fast path does not recognise goes to."},
    {"kernel", T_OBJECT, offsetof(FastFunction, kernel_obj), READONLY, nullptr},
    {"mask", T_INT, offsetof(FastFunction, mask), READONLY, nullptr},
    {"guard", T_OBJECT, offsetof(FastFunction, guard), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyGetSetDef g_getset[] = {
    {"kind", fast_get_kind, nullptr, nullptr, nullptr},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

void ready_type() {
  PyTypeObject& t = g_fast_function_type;
  t.tp_name = "arraycore._native.FastFunction";
  t.tp_basicsize = sizeof(FastFunction);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  t.tp_vectorcall_offset = offsetof(FastFunction, vectorcall);
  t.tp_call = PyVectorcall_Call;
  t.tp_dealloc = fast_dealloc;
  t.tp_traverse = fast_traverse;
  t.tp_clear = fast_clear;
  t.tp_repr = fast_repr;
  t.tp_methods = g_methods;
  t.tp_members = g_members;
  t.tp_getset = g_getset;
  t.tp_dictoffset = offsetof(FastFunction, dict);
  t.tp_getattro = PyObject_GenericGetAttr;
  t.tp_setattro = PyObject_GenericSetAttr;
  if (PyType_Ready(&t) < 0) throw py::error_already_set();
}

void set_ref(PyObject*& slot, py::handle value) {
  Py_XSETREF(slot, py::reinterpret_borrow<py::object>(value).release().ptr());
}

py::object make_fast_function(const std::string& kind, py::object kernel, int mask,
                              py::object fallback, py::object wrapped, py::object guard) {
  int k = -1;
  for (int i = 0; i < kNumKinds; ++i)
    if (kind == kKindNames[i]) k = i;
  if (k < 0) throw ValueError("fast_function: unknown kind '" + kind + "'");
  const Kernel* kp = nullptr;
  if (k == kUnary || k == kBinary) {
    kp = &kernel.cast<const Kernel&>();
    if (kp->arity != (k == kUnary ? 1 : 2))
      throw ValueError("fast_function: kernel '" + kp->name + "' has the wrong arity");
  }
  if (!PyCallable_Check(fallback.ptr())) throw TypeError("fast_function: fallback must be callable");
  auto* f = PyObject_GC_New(FastFunction, &g_fast_function_type);
  if (!f) throw py::error_already_set();
  f->vectorcall = fast_call;
  f->kind = k;
  f->mask = mask;
  f->kernel = kp;
  f->kernel_obj = f->fallback = f->guard = nullptr;
  f->name = f->qualname = f->doc = f->module = f->wrapped = f->dict = nullptr;
  py::object self = py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(f));
  set_ref(f->kernel_obj, kernel);
  set_ref(f->fallback, fallback);
  set_ref(f->guard, guard);
  // Documentation and names come from the wrapped function (the fallback's if none).
  py::handle src = wrapped.is_none() ? fallback : wrapped;
  set_ref(f->wrapped, wrapped);
  set_ref(f->name, py::getattr(src, "__name__", py::none()));
  set_ref(f->qualname, py::getattr(src, "__qualname__", py::none()));
  set_ref(f->doc, py::getattr(src, "__doc__", py::none()));
  set_ref(f->module, py::getattr(src, "__module__", py::none()));
  PyObject_GC_Track(reinterpret_cast<PyObject*>(f));
  return self;
}

}  // namespace

AC_BINDINGS(fast_calls) {
  ready_type();
  g_stack_name = PyUnicode_InternFromString("stack");
  g_dict_name = PyUnicode_InternFromString("__dict__");
  g_thread_local_type = reinterpret_cast<PyTypeObject*>(
      py::object(py::module_::import("_thread").attr("_local")).release().ptr());
  Py_INCREF(&g_fast_function_type);
  m.add_object("FastFunction", reinterpret_cast<PyObject*>(&g_fast_function_type));
  m.def("fast_function", &make_fast_function, py::arg("kind"), py::arg("kernel"),
        py::arg("mask"), py::arg("fallback"), py::arg("wrapped") = py::none(),
        py::arg("guard") = py::none(),
        "A FastFunction: `kind` 'unary'/'binary' (an elementwise kernel and the mask of dtype "
        "codes it runs in directly) or 'empty'/'zeros'/'ones'/'full'/'reshape'/'asarray'/'concat'/'stack'/'take'/"
        "'expand_dims' (kernel None); calls "
        "the fast path does not recognise go to `fallback`.  Names and __doc__ come from "
        "`wrapped` (or the fallback); `guard`: an object whose `stack` attribute must be an "
        "empty list for the creation fast path (autodiff's transform stack), or None.");
}

}  // namespace arraycore::native::bindings
