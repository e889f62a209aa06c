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

// Walks a nested list/tuple once: checks it is rectangular, records its shape and the widest
// kind of leaf.  0-d arraycore arrays count as leaves.
void scan(py::handle o, int depth, Shape& shape, bool& shape_known, LeafKind& kind,
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
    for (int64_t i = 0; i < n; ++i) scan(items[i], depth + 1, shape, shape_known, kind, who);
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
  if (PyBool_Check(p)) k = LeafKind::Bool;
  else if (PyLong_Check(p)) k = LeafKind::Int;
  else if (PyFloat_Check(p)) k = LeafKind::Float;
  else if (PyComplex_Check(p)) k = LeafKind::Complex;
  else if (py::isinstance<NdArray>(o)) {
    const NdArray& a = o.cast<const NdArray&>();
    if (a.ndim() != 0)
      throw ValueError(std::string(who) + ": arrays nested in a sequence must be 0-d here");
    switch (a.dtype) {
      case DType::Bool: k = LeafKind::Bool; break;
      case DType::Float32: case DType::Float64: k = LeafKind::Float; break;
      case DType::Complex64: case DType::Complex128: k = LeafKind::Complex; break;
      default: k = LeafKind::Int;
    }
  } else if (PyObject_HasAttrString(p, "__index__")) k = LeafKind::Int;
  else if (PyObject_HasAttrString(p, "__float__")) k = LeafKind::Float;
  else if (PyObject_HasAttrString(p, "__complex__")) k = LeafKind::Complex;
  else
    throw TypeError(std::string(who) + ": cannot convert an object of type " +
                    Py_TYPE(p)->tp_name + " to an array element");
  if (k > kind) kind = k;
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
    LeafKind kind = LeafKind::None;
    scan(seq, 0, shape, known, kind, "asarray");
    return py::make_tuple(shape, static_cast<int>(kind));
  }, "Shape of a nested sequence and the widest leaf kind (0 none, 1 bool, 2 int, 3 float, "
     "4 complex).");

  m.def("from_nested", [](py::handle seq, const Shape& shape, int code) {
    NdArray out = empty(shape, dtype_from_code(code, "asarray"));
    char* cursor = out.data();
    fill(seq, out, cursor, "asarray");
    return out;
  }, py::arg("seq"), py::arg("shape"), py::arg("dtype_code"));
}

}  // namespace arraycore::native::bindings
