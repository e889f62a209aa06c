// The Array class.  Its Python-level methods (operators, __getitem__, repr, ...) are attached
// by arraycore/_core/array_methods.py; here live the parts that need the engine.
#include <cstring>

#include "../errors.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

py::tuple to_tuple(const Shape& s) {
  py::tuple t(s.size());
  for (size_t i = 0; i < s.size(); ++i) t[i] = py::int_(s[i]);
  return t;
}

py::object tolist_rec(const NdArray& a, int dim, const char* ptr) {
  if (dim == a.ndim()) return element_to_python(a.dtype, ptr);
  py::list out(a.shape[dim]);
  const int64_t step = a.strides[dim] * static_cast<int64_t>(a.itemsize());
  for (int64_t i = 0; i < a.shape[dim]; ++i) out[i] = tolist_rec(a, dim + 1, ptr + i * step);
  return out;
}

PyTypeObject* g_array_type = nullptr;
PyTypeObject* g_tracer_type = nullptr;  // arraycore.autodiff's Tracer base class
const py::detail::type_info* g_array_tinfo = nullptr;

void* move_construct(const void* p) {
  return new NdArray(std::move(*const_cast<NdArray*>(static_cast<const NdArray*>(p))));
}
void* copy_construct(const void* p) { return new NdArray(*static_cast<const NdArray*>(p)); }

}  // namespace

void cache_array_type(py::handle cls) {
  g_array_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  g_array_tinfo = py::detail::get_type_info(typeid(NdArray));
}

PyObject* array_type_object() { return reinterpret_cast<PyObject*>(g_array_type); }

// Note [Autodiff metadata lives in the instance dict]: the Array type has a __dict__
// (py::dynamic_attr); the autodiff layer (arraycore/autodiff) stores an array's tape state
// there as `_ad`.  Plain arrays never get a dict, so "exact type and no dict entries" is
// the test every fast path makes before skipping the Python-level dispatcher.
bool has_instance_attrs(PyObject* o) {
  PyObject** dictptr = _PyObject_GetDictPtr(o);
  return dictptr && *dictptr && PyDict_GET_SIZE(*dictptr) != 0;
}

const NdArray* as_exact_array(py::handle h) {
  if (Py_TYPE(h.ptr()) != g_array_type || has_instance_attrs(h.ptr())) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(h.ptr());
  return static_cast<const NdArray*>(inst->get_value_and_holder(g_array_tinfo).value_ptr());
}

py::object wrap_array(NdArray&& a) {
  return py::reinterpret_steal<py::object>(py::detail::type_caster_generic::cast(
      &a, py::return_value_policy::move, py::handle(), g_array_tinfo, &copy_construct,
      &move_construct));
}

void bind_array(py::module_& m) {
  py::class_<NdArray> cls(m, "Array", py::buffer_protocol(), py::dynamic_attr());
  cls.def(py::init([]() -> NdArray {
        throw TypeError("Array: arrays are not constructed directly; use arraycore.asarray");
      }))
      .def_property_readonly("shape", [](const NdArray& a) { return to_tuple(a.shape); })
      .def_property_readonly("ndim", &NdArray::ndim)
      .def_property_readonly("size", &NdArray::numel)
      .def_property_readonly("dtype", [](const NdArray& a) { return dtype_object(a.dtype); })
      .def_property_readonly("device", [](const NdArray&) { return cpu_device_object(); })
      .def_property_readonly("_dtype_code", [](const NdArray& a) { return dtype_index(a.dtype); })
      .def_property_readonly("_strides", [](const NdArray& a) { return to_tuple(a.strides); })
      .def_property_readonly("_offset_bytes", [](const NdArray& a) { return a.offset; })
      .def_property_readonly("_data_ptr",
                             [](const NdArray& a) { return reinterpret_cast<uintptr_t>(a.data()); })
      .def_property_readonly("_buffer_ptr", [](const NdArray& a) {
        return reinterpret_cast<uintptr_t>(a.buffer->data());
      })
      .def_property_readonly("_c_contiguous", &NdArray::is_c_contiguous)
      .def_property_readonly("_writeable", &NdArray::writeable)
      .def("_view",
           [](const NdArray& a, const Shape& shape, const Shape& strides, int64_t offset_elems) {
             return as_strided(a, shape, strides, offset_elems, "view");
           },
           py::arg("shape"), py::arg("strides"), py::arg("offset_elems"),
           "A view sharing the buffer (element strides, offset relative to this view).")
      .def("_item",
           [](const NdArray& a) {
             if (a.numel() != 1)
               throw ValueError("item: only an array with one element converts to a Python "
                                "scalar, got shape with " + std::to_string(a.numel()) +
                                " elements");
             return element_to_python(a.dtype, a.data());
           })
      .def("_element", [](const NdArray& a, int64_t flat_offset_elems) {
             return element_to_python(a.dtype,
                                      a.data() + flat_offset_elems * static_cast<int64_t>(a.itemsize()));
           },
           "Element at an element offset from the view's start (no bounds check: internal).")
      .def("_tolist", [](const NdArray& a) { return tolist_rec(a, 0, a.data()); })
      .def("_fill",
           [](const NdArray& a, py::handle value) {
             if (!a.writeable()) throw ValueError("fill: array is read-only");
             alignas(16) char elem[16];
             python_to_element(value, a.dtype, elem, "fill");
             NdArray scalar = empty({}, a.dtype);
             std::memcpy(scalar.data(), elem, a.itemsize());
             copy_into(a, scalar);
           })
      .def("_copy_from", [](const NdArray& dst, const NdArray& src) {
             py::gil_scoped_release nogil;
             copy_into(dst, src);
           },
           "Copies src (broadcast, cast) into this view.");
  define_buffer_export(cls);
  cache_array_type(cls);

  // The autodiff dispatcher's first test (arraycore/autodiff/dispatch.py): does any
  // argument (or item of a list/tuple argument) carry autodiff state, i.e. is it an Array
  // with instance attributes or an object of the registered tracer type?
  m.def("_set_tracer_type", [](py::object t) {
    g_tracer_type = reinterpret_cast<PyTypeObject*>(t.release().ptr());
  });
  m.def("any_traced", [](py::args args, py::kwargs kwargs) {
    auto traced = [](PyObject* o) {
      PyTypeObject* t = Py_TYPE(o);
      if (t == g_array_type) return has_instance_attrs(o);
      return g_tracer_type != nullptr && PyType_IsSubtype(t, g_tracer_type) != 0;
    };
    auto scan = [&](PyObject* o) {
      if (traced(o)) return true;
      if (PyList_Check(o) || PyTuple_Check(o)) {
        PyObject* seq = o;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        PyObject** items = PySequence_Fast_ITEMS(seq);
        for (Py_ssize_t i = 0; i < n; ++i)
          if (traced(items[i])) return true;
      }
      return false;
    };
    for (auto a : args)
      if (scan(a.ptr())) return true;
    for (auto kv : kwargs)
      if (scan(kv.second.ptr())) return true;
    return false;
  });
}

}  // namespace arraycore::native::bindings
