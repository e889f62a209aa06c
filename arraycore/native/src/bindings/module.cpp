#include <pybind11/pybind11.h>

#include <vector>

#include "../allocator.h"
#include "../errors.h"
#include "../thread_pool.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

PyObject* g_dtypes[kNumDTypes] = {};
PyObject* g_cpu_device = nullptr;

std::vector<Binder>& binders() {
  static std::vector<Binder>* b = new std::vector<Binder>();
  return *b;
}

}  // namespace

int register_binder(Binder binder) {
  binders().push_back(binder);
  return 0;
}

void run_registered_binders(py::module_& m) {
  for (Binder b : binders()) b(m);
}

py::handle dtype_object(DType dt) {
  PyObject* o = g_dtypes[dtype_index(dt)];
  return o ? py::handle(o) : py::handle(Py_None);
}

py::handle cpu_device_object() { return g_cpu_device ? py::handle(g_cpu_device) : py::handle(Py_None); }

DType dtype_from_code(int code, const char* who) {
  if (code < 0 || code >= kNumDTypes)
    throw TypeError(std::string(who) + ": unknown dtype code " + std::to_string(code));
  return static_cast<DType>(code);
}

}  // namespace arraycore::native::bindings

using namespace arraycore::native;
using namespace arraycore::native::bindings;

PYBIND11_MODULE(_native, m) {
  m.doc() = "arraycore's C++ engine (layer L0). Use the `arraycore` namespace, not this module.";

  // Every engine exception becomes the Python exception the Array API asks for.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const arraycore::native::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const arraycore::native::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const arraycore::native::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    }
  });

  m.def("_register_python_objects", [](py::list dtypes, py::object cpu) {
    if (py::len(dtypes) != kNumDTypes) throw ValueError("_register_python_objects: need 13 dtypes");
    for (int i = 0; i < kNumDTypes; ++i) {
      Py_XDECREF(g_dtypes[i]);
      g_dtypes[i] = py::object(dtypes[i]).release().ptr();
    }
    Py_XDECREF(g_cpu_device);
    g_cpu_device = cpu.release().ptr();
  });

  m.def("get_num_threads", &num_threads, "Number of threads the engine's pool uses.");
  m.def("set_num_threads", [](int n) {
    if (n < 1) throw ValueError("set_num_threads: expected a positive count, got " + std::to_string(n));
    set_num_threads(n);
  }, py::arg("n"), "Sets the number of threads the engine's pool uses.");
  m.def("allocator_stats", [] {
    AllocatorStats s = allocator_stats();
    py::dict d;
    d["cached_bytes"] = s.cached_bytes;
    d["cache_hits"] = s.cache_hits;
    d["cache_misses"] = s.cache_misses;
    d["cache_limit"] = s.cache_limit;
    return d;
  });
  m.def("empty_cache", &empty_cache, "Returns cached large blocks to the operating system.");
  m.def("set_cache_limit", &set_cache_limit, py::arg("nbytes"));

  bind_array(m);
  bind_ops(m);
  bind_creation(m);
  bind_interop(m);
  bind_number_slots(m);
  run_registered_binders(m);
  bind_dlpack(m);
  bind_buffer_import(m);
  bind_factories(m);
}
