// Creation from shapes, scalars and nested Python sequences.
#include <cstring>

#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

// Kinds of Python leaves, ordered so that max() gives the kind that holds them all.
enum class LeafKind { None = 0, Bool, Int, Float, Complex };

constexpr int kMaxDims = 64;

bool is_nested_sequence(py::handle o) {
  return PyList_Check(o.ptr()) || PyTuple_Check(o.ptr());
}

// The leaf kind of a NumPy scalar (np.bool_, np.float32, np.complex64, ... most of which are
// not subclasses of the Python types) from its dtype's kind letter; false for anything else.
bool numpy_scalar_leaf(PyObject* p, LeafKind& k) {
  switch (numpy_scalar_kind(p)) {
    case 'b': k = LeafKind::Bool; return true;
    case 'i': case 'u': k = LeafKind::Int; return true;
    case 'f': k = LeafKind::Float; return true;
    case 'c': k = LeafKind::Complex; return true;
    default: return false;
  }
}

LeafKind kind_of(DType d) {
  switch (d) {
    case DType::Bool: return LeafKind::Bool;
    case DType::Float32: case DType::Float64: return LeafKind::Float;
    case DType::Complex64: case DType::Complex128: return LeafKind::Complex;
    default: return LeafKind::Int;
  }
}

// Walks a nested list/tuple once: checks it is rectangular, records its shape and the widest
// kind of leaf.  0-d arraycore arrays count as leaves.
// Leaves with a dtype of their own (0-d arrays, NumPy scalars) are also recorded in `typed`
// (a bit per dtype code), Python scalars in `untyped` (their widest kind): asarray gives
// them NumPy's dtype (asarray([np.float32(1), np.float32(2)]) is float32).
struct LeafScan {
  LeafKind kind = LeafKind::None;     // widest kind of all leaves
  LeafKind untyped = LeafKind::None;  // widest kind of the Python scalars
  int typed = 0;                      // dtype codes of the typed leaves
};

void scan(py::handle o, int depth, Shape& shape, bool& shape_known, LeafScan& leaves,
          const char* who) {
  if (depth > kMaxDims) throw ValueError(std::string(who) + ": nesting deeper than 64 levels");
  if (is_nested_sequence(o)) {
    int64_t n = static_cast<int64_t>(PySequence_Fast_GET_SIZE(o.ptr()));
    if (!shape_known) {
      if (static_cast<int>(shape.size()) == depth) {
        shape.push_back(n);
      }
    }
    if (static_cast<int>(shape.size()) <= depth || shape[depth] != n)
      throw ValueError(std::string(who) +
                       ": the nested sequence is ragged (its lists have different lengths)");
    if (n == 0 && !shape_known) shape_known = true;
    PyObject** items = PySequence_Fast_ITEMS(o.ptr());
    for (int64_t i = 0; i < n; ++i) scan(items[i], depth + 1, shape, shape_known, leaves, who);
    return;
  }
  // A leaf: the shape ends here.
  if (!shape_known) {
    if (static_cast<int>(shape.size()) != depth)
      throw ValueError(std::string(who) + ": the nested sequence is ragged");
    shape_known = true;
  } else if (static_cast<int>(shape.size()) != depth) {
    throw ValueError(std::string(who) + ": the nested sequence is ragged");
  }
  PyObject* p = o.ptr();
  LeafKind k;
  bool typed = false;
  DType leaf_dtype = DType::Bool;
  if (PyBool_Check(p)) k = LeafKind::Bool;
  else if (PyLong_Check(p)) k = LeafKind::Int;
  else if (PyFloat_Check(p)) k = LeafKind::Float;
  else if (PyComplex_Check(p)) k = LeafKind::Complex;
  else if (py::isinstance<NdArray>(o)) {
    const NdArray& a = o.cast<const NdArray&>();
    if (a.ndim() != 0)
      throw ValueError(std::string(who) + ": arrays nested in a sequence must be 0-d here");
    k = kind_of(a.dtype);
    typed = true;
    leaf_dtype = a.dtype;
  } else if (numpy_scalar_dtype(p, leaf_dtype)) {
    k = kind_of(leaf_dtype);
    typed = true;
  } else if (numpy_scalar_leaf(p, k)) {  // (float16, longdouble: by kind, as Python scalars)
  } else if (PyObject_HasAttrString(p, "__index__")) k = LeafKind::Int;
  else if (PyObject_HasAttrString(p, "__float__")) k = LeafKind::Float;
  else if (PyObject_HasAttrString(p, "__complex__")) k = LeafKind::Complex;
  else
    throw TypeError(std::string(who) + ": cannot convert an object of type " +
                    Py_TYPE(p)->tp_name + " to an array element");
  if (k > leaves.kind) leaves.kind = k;
  if (typed) leaves.typed |= 1 << static_cast<int>(leaf_dtype);
  else if (k > leaves.untyped) leaves.untyped = k;
}

void fill(py::handle o, const NdArray& out, char*& cursor, const char* who) {
  if (is_nested_sequence(o)) {
    PyObject** items = PySequence_Fast_ITEMS(o.ptr());
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) fill(items[i], out, cursor, who);
    return;
  }
  if (py::isinstance<NdArray>(o)) {
    const NdArray& a = o.cast<const NdArray&>();
    python_to_element(element_to_python(a.dtype, a.data()), out.dtype, cursor, who);
  } else {
    python_to_element(o, out.dtype, cursor, who);
  }
  cursor += out.itemsize();
}

}  // namespace

py::object try_asarray_nested(PyObject* seq) {
  Shape shape;
  bool known = false;
  LeafScan leaves;
  NdArray out;
  try {
    scan(py::handle(seq), 0, shape, known, leaves, "asarray");
    if (leaves.typed) return py::object();  // NumPy scalars, 0-d arrays: the Python path
    DType dt;
    switch (leaves.kind) {
      case LeafKind::Bool: dt = DType::Bool; break;
      case LeafKind::Int: dt = DType::Int64; break;
      case LeafKind::Complex: dt = DType::Complex128; break;
      default: dt = DType::Float64;  // float leaves, or none (an empty sequence)
    }
    out = empty(shape, dt);
    char* cursor = out.data();
    fill(py::handle(seq), out, cursor, "asarray");
  } catch (py::error_already_set&) {
    PyErr_Clear();
    return py::object();
  } catch (const std::exception&) {
    return py::object();
  }
  return wrap_fresh_array(std::move(out));
}

void bind_creation(py::module_& m) {
  m.def("empty", [](const Shape& shape, int code) {
    return empty(shape, dtype_from_code(code, "empty"));
  }, py::arg("shape"), py::arg("dtype_code"));

  m.def("full", [](const Shape& shape, py::handle value, int code) {
    DType dt = dtype_from_code(code, "full");
    alignas(16) char elem[16];
    python_to_element(value, dt, elem, "full");
    NdArray scalar = empty({}, dt);
    std::memcpy(scalar.data(), elem, itemsize(dt));
    NdArray out = empty(shape, dt);
    py::gil_scoped_release nogil;
    copy_into(out, scalar);
    return out;
  }, py::arg("shape"), py::arg("value"), py::arg("dtype_code"));

  m.def("from_scalar", [](py::handle value, int code) {
    DType dt = dtype_from_code(code, "asarray");
    NdArray out = empty({}, dt);
    python_to_element(value, dt, out.data(), "asarray");
    return out;
  }, py::arg("value"), py::arg("dtype_code"), "A 0-d array holding a Python scalar.");

  m.def("scan_nested", [](py::handle seq) {
    Shape shape;
    bool known = false;
    LeafScan leaves;
    scan(seq, 0, shape, known, leaves, "asarray");
    return py::make_tuple(shape, static_cast<int>(leaves.kind), static_cast<int>(leaves.untyped),
                          leaves.typed);
  }, "Shape of a nested sequence, the widest leaf kind (0 none, 1 bool, 2 int, 3 float, "
     "4 complex), the widest kind of its Python-scalar leaves, and a mask of the dtype codes of "
     "its typed leaves (0-d arrays, NumPy scalars).");

  m.def("from_nested", [](py::handle seq, const Shape& shape, int code) {
    NdArray out = empty(shape, dtype_from_code(code, "asarray"));
    char* cursor = out.data();
    fill(seq, out, cursor, "asarray");
    return out;
  }, py::arg("seq"), py::arg("shape"), py::arg("dtype_code"));
}

}  // namespace arraycore::native::bindings
