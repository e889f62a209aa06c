// Binary operators as C number slots (nb_add, ...) of the Array type.
//
// A heap type whose __add__ is a Python-level attribute pays, on every `a + b`, a type lookup
// of __add__, a bound-method object and pybind11's argument dispatch: about half of a small
// array op.  Filling the type's C slot directly (as NumPy's ndarray does) removes that.  The
// slot runs the kernel when both operands are Arrays of one accepted dtype, and otherwise
// calls the Python-level method (promotion, scalars, errors, NotImplemented): the forward one
// when the left operand is an Array, the reflected one when only the right one is.
#include <array>
#include <new>
#include <utility>

#include "../errors.h"
#include "../op_registry.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

struct Slot {
  const char* name;
  binaryfunc PyNumberMethods::*member;
  const Kernel* kernel = nullptr;
  int accepted_mask = 0;
  PyObject* forward = nullptr;    // method(self, other)
  PyObject* reflected = nullptr;  // method(self, other) for other <op> self
};

Slot g_slots[] = {
    {"add", &PyNumberMethods::nb_add},
    {"subtract", &PyNumberMethods::nb_subtract},
    {"multiply", &PyNumberMethods::nb_multiply},
    {"true_divide", &PyNumberMethods::nb_true_divide},
    {"floor_divide", &PyNumberMethods::nb_floor_divide},
    {"remainder", &PyNumberMethods::nb_remainder},
    {"and", &PyNumberMethods::nb_and},
    {"or", &PyNumberMethods::nb_or},
    {"xor", &PyNumberMethods::nb_xor},
    {"lshift", &PyNumberMethods::nb_lshift},
    {"rshift", &PyNumberMethods::nb_rshift},
};
constexpr int kNumSlots = sizeof(g_slots) / sizeof(g_slots[0]);

PyObject* set_error(PyObject* type, const char* what) {
  PyErr_SetString(type, what);
  return nullptr;
}

template <int I>
PyObject* number_slot(PyObject* x, PyObject* y) {
  const Slot& s = g_slots[I];
  try {
    const NdArray* a = as_exact_array(x);
    const NdArray* b = as_exact_array(y);
    if (a && b && a->dtype == b->dtype && ((s.accepted_mask >> dtype_index(a->dtype)) & 1)) {
      const NdArray* in[] = {a, b};
      return wrap_array(apply_kernel_nogil(*s.kernel, in, 2)).release().ptr();
    }
    if (PyObject_TypeCheck(x, reinterpret_cast<PyTypeObject*>(array_type_object())))
      return PyObject_CallFunctionObjArgs(s.forward, x, y, nullptr);
    return PyObject_CallFunctionObjArgs(s.reflected, y, x, nullptr);
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  } catch (const TypeError& e) {
    return set_error(PyExc_TypeError, e.what());
  } catch (const ValueError& e) {
    return set_error(PyExc_ValueError, e.what());
  } catch (const IndexError& e) {
    return set_error(PyExc_IndexError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
    return nullptr;
  } catch (const std::exception& e) {
    return set_error(PyExc_RuntimeError, e.what());
  }
}

template <int... I>
constexpr std::array<binaryfunc, sizeof...(I)> make_slot_functions(std::integer_sequence<int, I...>) {
  return {&number_slot<I>...};
}
constexpr auto kSlotFunctions = make_slot_functions(std::make_integer_sequence<int, kNumSlots>{});

}  // namespace

void bind_number_slots(py::module_& m) {
  m.def("install_number_slot", [](py::object cls, const std::string& name, const Kernel& k,
                                  int accepted_mask, py::object forward, py::object reflected) {
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (reinterpret_cast<PyObject*>(type) != array_type_object())
      throw TypeError("install_number_slot: only the Array type has native slots");
    for (int i = 0; i < kNumSlots; ++i) {
      Slot& s = g_slots[i];
      if (name != s.name) continue;
      Py_XDECREF(s.forward);
      Py_XDECREF(s.reflected);
      s.kernel = &k;
      s.accepted_mask = accepted_mask;
      s.forward = forward.release().ptr();
      s.reflected = reflected.release().ptr();
      type->tp_as_number->*(s.member) = kSlotFunctions[i];
      PyType_Modified(type);
      return;
    }
    throw ValueError("install_number_slot: unknown slot '" + name + "'");
  });
}

}  // namespace arraycore::native::bindings
