// Binary operators as C number slots (nb_add, ...) of the Array type.
//
// A heap type whose __add__ is a Python-level attribute pays, on every `a + b`, a type lookup
// of __add__, a bound-method object and pybind11's argument dispatch: about half of a small
// array op.  Filling the type's C slot directly (as NumPy's ndarray does) removes that.  The
// slot runs the kernel when both operands are Arrays of one accepted dtype or one is a Python
// scalar that keeps the Array's dtype (try_fast_binary, bind_fast_calls.cpp), and otherwise
// calls the Python-level method (promotion, errors, NotImplemented, autodiff): the forward
// one when the left operand is an Array, the reflected one when only the right one is.
#include <array>
#include <utility>

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

template <int I>
PyObject* number_slot(PyObject* x, PyObject* y) {
  const Slot& s = g_slots[I];
  return call_translating([&]() -> PyObject* {
    // Two arrays of one accepted dtype, or an array and a weak Python scalar (y * 0.9,
    // 0.1 + y): the kernel, as the Python-level method would run it.
    py::object r = try_fast_binary(*s.kernel, s.accepted_mask, x, y);
    if (r) return r.release().ptr();
    if (PyObject_TypeCheck(x, reinterpret_cast<PyTypeObject*>(array_type_object())))
      return PyObject_CallFunctionObjArgs(s.forward, x, y, nullptr);
    return PyObject_CallFunctionObjArgs(s.reflected, y, x, nullptr);
  });
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
