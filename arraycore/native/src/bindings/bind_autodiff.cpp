// Helpers for the hot paths of the autodiff tape (arraycore/autodiff/graph.py, tape.py).
//
// `_native.alias(x)`: a new Array object for the same view of the same buffer (the same
// values, shape, strides and buffer, so the same version counter), without x's instance
// attributes (its tape state).  The tape strips saved outputs and rule inputs this way; the
// Python route, `x._view(x.shape, x._strides, 0)`, converts the shape and strides to and from
// Python sequences and costs several times more.
#include "bindings.h"  // (Python.h first: structmember.h needs it)

#include <structmember.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace arraycore::native::bindings {
namespace {

const NdArray* array_of(PyObject* o) {
  static const py::detail::type_info* tinfo = py::detail::get_type_info(typeid(NdArray));
  if (!tinfo || Py_TYPE(o) != reinterpret_cast<PyTypeObject*>(array_type_object()))
    return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(o);
  return static_cast<const NdArray*>(inst->get_value_and_holder(tinfo).value_ptr());
}

PyObject* alias(PyObject*, PyObject* x) {
  return call_translating([&]() -> PyObject* {
    const NdArray* a = array_of(x);
    if (!a) {
      PyErr_SetString(PyExc_TypeError, "alias: expected an Array");
      return nullptr;
    }
    return wrap_fresh_array(NdArray(*a)).release().ptr();
  });
}

PyMethodDef g_defs[] = {
    {"alias", alias, METH_O,
     "alias(x): a new Array object viewing x's buffer exactly as x does, without x's "
     "instance attributes (autodiff: strips tape state)."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

// ---------------------------------------------------------------------------------------
// Note [The native tape] (arraycore/autodiff/graph.py, docs/autodiff.md "The tape").
//
// Elementwise ops with a native derivative program (rules/elementwise.py NATIVE) are
// recorded and differentiated here, on the Python classes themselves: the nodes and metas
// are graph.Node / graph.AutogradMeta objects (so everything in Python, the Python engine
// included, sees exactly what `bind` + `tape.record` would have made), whose __slots__ the
// native code reads and writes at their offsets (no attribute lookups).
//
// - `TapedFunction(op, kernel, mask, arity, fallback)`: the fallback of an elementwise
//   FastFunction.  With no transform active, grad mode on, no anomaly mode, and only exact
//   Arrays (instance dict empty or holding just a requiring-grad, non-view `_ad` meta) of
//   one float32/float64 dtype and weak Python scalars, it runs the kernel and records the
//   node as tape.record does; any other call goes to `fallback` (dispatch.make_public's
//   Python function) untouched.
// - `tape_backward(roots, seeds, retain_graph)`: graph.run_backward's loop for backward()
//   without inputs, create_graph or anomaly mode.  A Node whose op has a native program and
//   whose values are exact real float Arrays of one dtype (or weak scalars) runs the program
//   (the same kernels, operands and order as the Python rule, so the same bits); every other
//   node, hooks and retain_grad go through graph._native_step, leaves through
//   graph._native_leaf.
// ---------------------------------------------------------------------------------------

namespace tape {

PyObject* g_node_type = nullptr;
PyObject* g_meta_type = nullptr;
PyObject* g_acc_type = nullptr;
PyObject* g_versions = nullptr;   // versions._VERSIONS
PyObject* g_numbers = nullptr;    // graph._NUMBERS
PyObject* g_freed = nullptr;      // graph._FREED
PyObject* g_shapes = nullptr;     // "shapes"
PyObject* g_state = nullptr;      // state.STATE
PyObject* g_step = nullptr;       // graph._native_step(node, cts) -> in_cts
PyObject* g_leaf = nullptr;       // graph._native_leaf(node, cts)
PyObject* g_fit = nullptr;        // graph.fit_cotangent
PyObject* g_add = nullptr;        // the namespace's add
PyObject* g_check = nullptr;      // versions.check(node) (raises)
PyObject* s_ad = nullptr;
PyObject* s_grad_enabled = nullptr;
PyObject* s_stack = nullptr;
PyObject* s_anomaly = nullptr;
PyObject* s_vjp = nullptr;
PyObject* s_edge = nullptr;
PyObject* s_edges = nullptr;
PyObject* s_n_outputs = nullptr;
PyObject* s_release = nullptr;
PyObject* s_dict = nullptr;

// Slot offsets.
Py_ssize_t n_op, n_args, n_kwargs, n_out, n_edges, n_n_outputs, n_multi, n_out_metas, n_saved,
    n_released, n_creation_trace, n_pre_hooks, n_tape;
Py_ssize_t m_requires_grad, m_grad, m_grad_fn, m_output_nr, m_retains_grad, m_hooks,
    m_accumulate, m_is_view_of;

inline PyObject*& SLOT(PyObject* o, Py_ssize_t off) {
  return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) + off);
}
inline void set_slot(PyObject* o, Py_ssize_t off, PyObject* v) {  // v: borrowed
  Py_XINCREF(v);
  Py_XSETREF(SLOT(o, off), v);
}
inline void put_slot(PyObject* o, Py_ssize_t off, PyObject* v) {  // v: stolen
  Py_XSETREF(SLOT(o, off), v);
}

Py_ssize_t slot_offset(PyObject* type, const char* name) {
  PyObject* d = PyDict_GetItemString(reinterpret_cast<PyTypeObject*>(type)->tp_dict, name);
  if (!d || Py_TYPE(d) != &PyMemberDescr_Type)
    throw TypeError(std::string("tape_setup: no slot '") + name + "'");
  PyMemberDef* m = reinterpret_cast<PyMemberDescrObject*>(d)->d_member;
  if (m->type != T_OBJECT_EX) throw TypeError(std::string("tape_setup: slot '") + name + "'");
  return m->offset;
}

// --- STATE (a threading.local): its per-thread dict, cached per thread state ---

struct StateCache {
  uint64_t thread_id = 0;
  PyObject* dict = nullptr;  // borrowed (the local keeps it for this thread state)
  bool valid = false;
};
thread_local StateCache t_state;

PyObject* state_dict() {
  const uint64_t tid = PyThreadState_GetID(PyThreadState_Get());
  if (t_state.valid && t_state.thread_id == tid) return t_state.dict;
  PyObject* d = PyObject_GetAttr(g_state, s_dict);
  if (!d) {
    PyErr_Clear();
    return nullptr;
  }
  t_state.dict = PyDict_CheckExact(d) ? d : nullptr;
  Py_DECREF(d);
  t_state.thread_id = tid;
  t_state.valid = true;
  return t_state.dict;
}

// Grad mode on, no transform level, no anomaly mode.
bool plain_recording() {
  PyObject* d = state_dict();
  if (!d) return false;
  PyObject* ge = PyDict_GetItemWithError(d, s_grad_enabled);
  PyObject* st = ge ? PyDict_GetItemWithError(d, s_stack) : nullptr;
  PyObject* an = st ? PyDict_GetItemWithError(d, s_anomaly) : nullptr;
  if (!an) {
    PyErr_Clear();
    return false;
  }
  return ge == Py_True && an == Py_False && PyList_CheckExact(st) && PyList_GET_SIZE(st) == 0;
}

// --- arrays ---

const NdArray* ndarray(PyObject* o) {  // any exact Array, instance attributes or not
  static const py::detail::type_info* tinfo = py::detail::get_type_info(typeid(NdArray));
  if (Py_TYPE(o) != reinterpret_cast<PyTypeObject*>(array_type_object())) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(o);
  return static_cast<const NdArray*>(inst->get_value_and_holder(tinfo).value_ptr());
}

PyObject* instance_dict(PyObject* o) {
  PyObject** dp = _PyObject_GetDictPtr(o);
  return dp ? *dp : nullptr;
}

bool real_float(DType d) { return d == DType::Float32 || d == DType::Float64; }
bool weak_scalar(PyObject* s) {
  return PyBool_Check(s) || PyLong_CheckExact(s) || PyFloat_CheckExact(s);
}
bool accepted(int mask, DType d) { return (mask >> dtype_index(d)) & 1; }

// A weak scalar as the 0-d operand of dtype d (as try_fast_binary converts it).
bool scalar_operand(PyObject* s, DType d, NdArray& out) {
  out = empty({}, d);
  return try_python_to_element(s, d, out.data(), "asarray");
}

PyObject* shape_tuple(const NdArray& a) {
  PyObject* t = PyTuple_New(a.ndim());
  if (!t) throw py::error_already_set();
  for (int i = 0; i < a.ndim(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(a.shape[i]));
  return t;
}

bool same_shape(const NdArray& a, PyObject* shape) {
  if (!PyTuple_CheckExact(shape) || PyTuple_GET_SIZE(shape) != a.ndim()) return false;
  for (int i = 0; i < a.ndim(); ++i) {
    long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, i));
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    if (v != a.shape[i]) return false;
  }
  return true;
}

py::object version_of(const NdArray& a) {
  py::object key = py::reinterpret_steal<py::object>(
      PyLong_FromVoidPtr(static_cast<void*>(a.buffer->data())));
  PyObject* v = PyDict_GetItemWithError(g_versions, key.ptr());
  if (!v) {
    if (PyErr_Occurred()) throw py::error_already_set();
    return py::int_(0);
  }
  return py::reinterpret_borrow<py::object>(v);
}

// --- derivative programs ---

// Operands: g, x0, x1 (the op's arguments), y (its output), temporaries, constants.
enum Operand : int { kG = 0, kX0 = 1, kX1 = 2, kY = 3, kConst = 4, kTemp = 8 };
struct Step {
  const Kernel* kernel = nullptr;
  int mask = 0;
  int nin = 0;
  int in[2] = {0, 0};
  PyObject* consts[2] = {nullptr, nullptr};  // for kConst operands (strong)
};
struct Program {
  bool present = false;
  std::vector<Step> steps;  // empty: the cotangent is g itself
};
struct Formula {
  PyObject* vjp = nullptr;     // the rule the program stands for (strong)
  PyObject* saves[3] = {};     // (saves, out_saved) for edges {0}, {1}, {0, 1} (strong)
  Program prog[2];
};
std::unordered_map<PyObject*, Formula*> g_formulas;  // keyed by op (strong refs, leaked)

Formula* formula_for(PyObject* op) {
  auto it = g_formulas.find(op);
  if (it == g_formulas.end()) return nullptr;
  Formula* f = it->second;
  // The rule may have been redefined since (rules/base.define): then the program is stale.
  PyObject* vjp = PyObject_GetAttr(op, s_vjp);
  if (!vjp) {
    PyErr_Clear();
    return nullptr;
  }
  Py_DECREF(vjp);
  return vjp == f->vjp ? f : nullptr;
}

constexpr int kMaxTemps = 8;

// Runs one program.  False (no error set) when a value is not of the kinds the program
// reproduces the Python rule for: the caller then runs the Python rule.
bool run_program(const Program& p, PyObject* g, PyObject* x0, PyObject* x1, PyObject* y,
                 DType D, py::object& result) {
  if (p.steps.empty()) {
    result = py::reinterpret_borrow<py::object>(g);
    return true;
  }
  NdArray temps[kMaxTemps];
  NdArray scal[2];
  int nt = 0;
  for (const Step& s : p.steps) {
    const NdArray* ins[2] = {nullptr, nullptr};
    PyObject* sc[2] = {nullptr, nullptr};
    for (int i = 0; i < s.nin; ++i) {
      int code = s.in[i];
      if (code >= kTemp) {
        ins[i] = &temps[code - kTemp];
        continue;
      }
      PyObject* o = code == kG ? g : code == kX0 ? x0 : code == kX1 ? x1 : code == kY ? y
                                                                                : s.consts[i];
      if (!o) return false;
      const NdArray* a = ndarray(o);
      if (a) {
        if (a->dtype != D) return false;
        ins[i] = a;
      } else if (weak_scalar(o)) {
        sc[i] = o;
      } else {
        return false;
      }
    }
    if (!accepted(s.mask, D)) return false;
    for (int i = 0; i < s.nin; ++i) {
      if (!sc[i]) continue;
      if (s.nin == 1 || sc[1 - i]) return false;  // a scalar-only step: the Python rule
      if (!scalar_operand(sc[i], D, scal[i])) return false;
      ins[i] = &scal[i];
    }
    if (nt >= kMaxTemps) return false;
    temps[nt++] = apply_kernel_nogil(*s.kernel, ins, s.nin);
    if (temps[nt - 1].dtype != D) return false;
  }
  result = wrap_fresh_array(std::move(temps[nt - 1]));
  return true;
}

// The cotangents of a Node's inputs (a list aligned with its edges), or a null object (no
// error) when the node is not one the native programs handle.
py::object native_apply(PyObject* node, PyObject* cts) {
  if (Py_TYPE(node) != reinterpret_cast<PyTypeObject*>(g_node_type)) return py::object();
  if (SLOT(node, n_released) != Py_False || SLOT(node, n_tape) != Py_True ||
      SLOT(node, n_out_metas) != Py_None || SLOT(node, n_multi) != Py_False)
    return py::object();
  Formula* f = formula_for(SLOT(node, n_op));
  if (!f) return py::object();
  PyObject* args = SLOT(node, n_args);
  PyObject* kwargs = SLOT(node, n_kwargs);
  PyObject* edges = SLOT(node, n_edges);
  if (!PyTuple_CheckExact(args) || PyTuple_GET_SIZE(args) > 2 || !PyDict_CheckExact(kwargs) ||
      PyDict_GET_SIZE(kwargs) != 0 || !PyList_CheckExact(edges) || !PyList_CheckExact(cts) ||
      PyList_GET_SIZE(cts) != 1)
    return py::object();
  PyObject* g = PyList_GET_ITEM(cts, 0);
  const NdArray* ga = ndarray(g);
  if (!ga || !real_float(ga->dtype)) return py::object();
  const DType D = ga->dtype;
  // Version counters of the saved values (Node.apply).
  PyObject* saved = SLOT(node, n_saved);
  if (PyList_CheckExact(saved)) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(saved); ++i) {
      PyObject* item = PyList_GET_ITEM(saved, i);
      const NdArray* a = PyTuple_CheckExact(item) && PyTuple_GET_SIZE(item) == 2
                             ? ndarray(PyTuple_GET_ITEM(item, 0)) : nullptr;
      if (!a) return py::object();
      py::object now = version_of(*a);
      int eq = PyObject_RichCompareBool(now.ptr(), PyTuple_GET_ITEM(item, 1), Py_EQ);
      if (eq < 0) throw py::error_already_set();
      if (!eq) {
        PyObject* r = PyObject_CallOneArg(g_check, node);
        if (!r) throw py::error_already_set();
        Py_DECREF(r);
      }
    }
  }
  PyObject* x0 = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : nullptr;
  PyObject* x1 = PyTuple_GET_SIZE(args) > 1 ? PyTuple_GET_ITEM(args, 1) : nullptr;
  PyObject* y = SLOT(node, n_out);
  if (y == Py_None) y = nullptr;
  const Py_ssize_t ne = PyList_GET_SIZE(edges);
  py::object res[2];
  if (ne > 2) return py::object();
  for (Py_ssize_t i = 0; i < ne; ++i) {
    PyObject* e = PyList_GET_ITEM(edges, i);
    if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 6 ||
        PyTuple_GET_ITEM(e, 1) != Py_None || !PyLong_CheckExact(PyTuple_GET_ITEM(e, 0)))
      return py::object();
    long slot = PyLong_AsLong(PyTuple_GET_ITEM(e, 0));
    if (slot < 0 || slot > 1 || !f->prog[slot].present) return py::object();
    if (!run_program(f->prog[slot], g, x0, x1, y, D, res[i])) return py::object();
  }
  py::list out(ne);
  for (Py_ssize_t i = 0; i < ne; ++i) {
    PyObject* e = PyList_GET_ITEM(edges, i);
    const NdArray* c = ndarray(res[i].ptr());
    PyObject* shape = PyTuple_GET_ITEM(e, 4);
    PyObject* dtype = PyTuple_GET_ITEM(e, 5);
    if (!same_shape(*c, shape) || dtype_object(c->dtype).ptr() != dtype) {
      PyObject* r = PyObject_CallFunctionObjArgs(g_fit, res[i].ptr(), shape, dtype, nullptr);
      if (!r) throw py::error_already_set();
      res[i] = py::reinterpret_steal<py::object>(r);
    }
    out[i] = res[i];
  }
  return std::move(out);
}

// Node.release for a plain Node (the two cases it has), natively; others: their method.
void release(PyObject* node) {
  if (Py_TYPE(node) == reinterpret_cast<PyTypeObject*>(g_node_type) &&
      SLOT(node, n_released) == Py_False && SLOT(node, n_tape) == Py_True) {
    PyObject* saved = SLOT(node, n_saved);
    bool has_saved = saved == g_numbers || (PyList_CheckExact(saved) && PyList_GET_SIZE(saved)) ||
                     (PyTuple_CheckExact(saved) && PyTuple_GET_SIZE(saved));
    if (has_saved) {
      set_slot(node, n_args, Py_None);
      set_slot(node, n_kwargs, Py_None);
      set_slot(node, n_out, Py_None);
      py::tuple empty_t(0);
      set_slot(node, n_saved, empty_t.ptr());
      set_slot(node, n_released, Py_True);
      return;
    }
    // No saved array: the arguments with edges become _FREED (the inputs' shapes stay in
    // the edges), positional arguments without indices only; other nodes: the method.
    PyObject* args = SLOT(node, n_args);
    PyObject* edges = SLOT(node, n_edges);
    PyObject* kwargs = SLOT(node, n_kwargs);
    bool simple = PyTuple_CheckExact(args) && PyList_CheckExact(edges) &&
                  SLOT(node, n_multi) == Py_False && PyDict_CheckExact(kwargs);
    for (Py_ssize_t i = 0; simple && i < PyList_GET_SIZE(edges); ++i) {
      PyObject* e = PyList_GET_ITEM(edges, i);
      simple = PyTuple_CheckExact(e) && PyTuple_GET_SIZE(e) == 6 &&
               PyLong_CheckExact(PyTuple_GET_ITEM(e, 0)) && PyTuple_GET_ITEM(e, 1) == Py_None;
    }
    if (simple) {
      const Py_ssize_t n = PyTuple_GET_SIZE(args);
      py::tuple na(n);
      for (Py_ssize_t i = 0; i < n; ++i) na[i] = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(args, i));
      for (Py_ssize_t i = 0; i < PyList_GET_SIZE(edges); ++i) {
        long s = PyLong_AsLong(PyTuple_GET_ITEM(PyList_GET_ITEM(edges, i), 0));
        if (s >= 0 && s < n && ndarray(PyTuple_GET_ITEM(na.ptr(), s)))
          na[s] = py::reinterpret_borrow<py::object>(g_freed);
      }
      set_slot(node, n_args, na.ptr());
      set_slot(node, n_released, g_shapes);
      return;
    }
  }
  PyObject* r = PyObject_CallMethodNoArgs(node, s_release);
  if (!r) throw py::error_already_set();
  Py_DECREF(r);
}

PyObject* get_edges(PyObject* node) {  // new reference
  if (Py_TYPE(node) == reinterpret_cast<PyTypeObject*>(g_node_type)) {
    PyObject* e = SLOT(node, n_edges);
    Py_XINCREF(e);
    if (!e) PyErr_SetString(PyExc_AttributeError, "edges");
    return e;
  }
  return PyObject_GetAttr(node, s_edges);
}

Py_ssize_t n_outputs_of(PyObject* node) {
  PyObject* v = Py_TYPE(node) == reinterpret_cast<PyTypeObject*>(g_node_type)
                    ? (Py_XINCREF(SLOT(node, n_n_outputs)), SLOT(node, n_n_outputs))
                    : PyObject_GetAttr(node, s_n_outputs);
  if (!v) throw py::error_already_set();
  Py_ssize_t n = PyLong_AsSsize_t(v);
  Py_DECREF(v);
  if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
  return n;
}

py::object add(PyObject* a, PyObject* b) {
  PyObject* r = PyObject_CallFunctionObjArgs(g_add, a, b, nullptr);
  if (!r) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(r);
}

py::list none_list(Py_ssize_t n) {
  py::list l(n);
  for (Py_ssize_t i = 0; i < n; ++i) l[i] = py::none();
  return l;
}

// graph.run_backward for inputs=None, accumulate=True, create_graph=False, no anomaly mode
// (the caller sets grad mode off).  The same traversal, order and accumulation.
void run_backward(py::list roots, py::list seeds, bool retain_graph) {
  struct PtrHash {
    size_t operator()(PyObject* p) const { return std::hash<void*>()(p); }
  };
  std::unordered_map<PyObject*, Py_ssize_t, PtrHash> deps;
  std::vector<py::object> keep;  // every node seen (strong)
  std::unordered_map<PyObject*, py::object, PtrHash> buffers;
  {
    std::vector<PyObject*> stack;
    std::unordered_map<PyObject*, bool, PtrHash> seen;
    for (auto r : roots) stack.push_back(PyTuple_GET_ITEM(r.ptr(), 0));
    while (!stack.empty()) {
      PyObject* n = stack.back();
      stack.pop_back();
      if (!seen.emplace(n, true).second) continue;
      keep.push_back(py::reinterpret_borrow<py::object>(n));
      py::object edges = py::reinterpret_steal<py::object>(get_edges(n));
      if (!edges) throw py::error_already_set();
      py::object fast = py::reinterpret_steal<py::object>(
          PySequence_Fast(edges.ptr(), "edges"));
      if (!fast) throw py::error_already_set();
      for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast.ptr()); ++i) {
        PyObject* m = PySequence_GetItem(PySequence_Fast_ITEMS(fast.ptr())[i], 2);
        if (!m) throw py::error_already_set();
        keep.push_back(py::reinterpret_steal<py::object>(m));
        auto it = deps.find(m);
        if (it != deps.end()) {
          ++it->second;
        } else {
          deps.emplace(m, 1);
          stack.push_back(m);
        }
      }
    }
  }
  const Py_ssize_t nroots = PyList_GET_SIZE(roots.ptr());
  for (Py_ssize_t i = 0; i < nroots && i < PyList_GET_SIZE(seeds.ptr()); ++i) {
    PyObject* r = PyList_GET_ITEM(roots.ptr(), i);
    PyObject* n = PyTuple_GET_ITEM(r, 0);
    Py_ssize_t nr = PyLong_AsSsize_t(PyTuple_GET_ITEM(r, 1));
    auto it = buffers.find(n);
    if (it == buffers.end()) it = buffers.emplace(n, none_list(n_outputs_of(n))).first;
    PyObject* buf = it->second.ptr();
    PyObject* b = PyList_GET_ITEM(buf, nr);
    PyObject* s = PyList_GET_ITEM(seeds.ptr(), i);
    py::object v = b == Py_None ? py::reinterpret_borrow<py::object>(s)
                   : s == Py_None ? py::reinterpret_borrow<py::object>(b) : add(b, s);
    PyList_SetItem(buf, nr, v.release().ptr());
  }
  std::vector<std::pair<py::object, py::object>> queue;
  auto pop_buffer = [&](PyObject* m) -> py::object {
    auto it = buffers.find(m);
    if (it == buffers.end()) return py::none();
    py::object b = std::move(it->second);
    buffers.erase(it);
    return b;
  };
  for (Py_ssize_t i = 0; i < nroots; ++i) {
    PyObject* n = PyTuple_GET_ITEM(PyList_GET_ITEM(roots.ptr(), i), 0);
    if (deps.count(n)) continue;
    bool queued = false;
    for (auto& q : queue) queued = queued || q.first.ptr() == n;
    if (!queued)
      queue.emplace_back(py::reinterpret_borrow<py::object>(n), pop_buffer(n));
  }
  PyObject* acc_type = g_acc_type;
  while (!queue.empty()) {
    py::object n = std::move(queue.back().first);
    py::object cts = std::move(queue.back().second);
    queue.pop_back();
    if (reinterpret_cast<PyObject*>(Py_TYPE(n.ptr())) == acc_type) {
      if (cts.is_none()) continue;
      PyObject* r = PyObject_CallFunctionObjArgs(g_leaf, n.ptr(), cts.ptr(), nullptr);
      if (!r) throw py::error_already_set();
      Py_DECREF(r);
      continue;
    }
    py::object in_cts;  // null: None
    if (!cts.is_none()) {
      in_cts = native_apply(n.ptr(), cts.ptr());
      if (!in_cts) {
        PyObject* r = PyObject_CallFunctionObjArgs(g_step, n.ptr(), cts.ptr(), nullptr);
        if (!r) throw py::error_already_set();
        in_cts = py::reinterpret_steal<py::object>(r);
        if (in_cts.is_none()) in_cts = py::object();
      }
    }
    if (!retain_graph) release(n.ptr());
    py::object edges = py::reinterpret_steal<py::object>(get_edges(n.ptr()));
    if (!edges) throw py::error_already_set();
    py::object fe = py::reinterpret_steal<py::object>(PySequence_Fast(edges.ptr(), "edges"));
    if (!fe) throw py::error_already_set();
    const Py_ssize_t ne = PySequence_Fast_GET_SIZE(fe.ptr());
    PyObject** es = PySequence_Fast_ITEMS(fe.ptr());
    if (!in_cts) {
      for (Py_ssize_t i = 0; i < ne; ++i) {
        py::object m = py::reinterpret_steal<py::object>(PySequence_GetItem(es[i], 2));
        if (!m) throw py::error_already_set();
        if (--deps[m.ptr()] == 0) queue.emplace_back(m, pop_buffer(m.ptr()));
      }
      continue;
    }
    py::object fc = py::reinterpret_steal<py::object>(PySequence_Fast(in_cts.ptr(), "cts"));
    if (!fc) throw py::error_already_set();
    const Py_ssize_t nc = PySequence_Fast_GET_SIZE(fc.ptr());
    PyObject** cs = PySequence_Fast_ITEMS(fc.ptr());
    for (Py_ssize_t i = 0; i < ne && i < nc; ++i) {
      py::object m = py::reinterpret_steal<py::object>(PySequence_GetItem(es[i], 2));
      if (!m) throw py::error_already_set();
      PyObject* ct = cs[i];
      const Py_ssize_t d = --deps[m.ptr()];
      auto bit = buffers.find(m.ptr());
      if (d == 0 && bit == buffers.end()) {
        if (ct == Py_None) {
          queue.emplace_back(m, py::none());
        } else {
          Py_ssize_t no = n_outputs_of(m.ptr());
          py::list buf = none_list(no);
          Py_ssize_t nr = 0;
          if (no != 1) {
            py::object nro = py::reinterpret_steal<py::object>(PySequence_GetItem(es[i], 3));
            if (!nro) throw py::error_already_set();
            nr = PyLong_AsSsize_t(nro.ptr());
            if (nr == -1 && PyErr_Occurred()) throw py::error_already_set();
          }
          Py_INCREF(ct);
          if (PyList_SetItem(buf.ptr(), nr, ct) < 0) throw py::error_already_set();
          queue.emplace_back(m, std::move(buf));
        }
        continue;
      }
      if (ct != Py_None) {
        if (bit == buffers.end())
          bit = buffers.emplace(m.ptr(), none_list(n_outputs_of(m.ptr()))).first;
        py::object nro = py::reinterpret_steal<py::object>(PySequence_GetItem(es[i], 3));
        if (!nro) throw py::error_already_set();
        Py_ssize_t nr = PyLong_AsSsize_t(nro.ptr());
        if (nr == -1 && PyErr_Occurred()) throw py::error_already_set();
        PyObject* buf = bit->second.ptr();
        PyObject* b = PyList_GetItem(buf, nr);
        if (!b) throw py::error_already_set();
        py::object v = b == Py_None ? py::reinterpret_borrow<py::object>(ct) : add(b, ct);
        PyList_SetItem(buf, nr, v.release().ptr());
      }
      if (d == 0) queue.emplace_back(m, pop_buffer(m.ptr()));
    }
  }
}

// --- recording ---

struct TapedFunction {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* op;
  PyObject* kernel_obj;
  const Kernel* kernel;
  int mask;
  int arity;
  PyObject* fallback;
};
PyTypeObject g_taped_type = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyObject* new_of(PyObject* type) {
  auto* t = reinterpret_cast<PyTypeObject*>(type);
  PyObject* o = t->tp_alloc(t, 0);
  if (!o) throw py::error_already_set();
  return o;
}

// The recorded result, or a null object (no error) for the fallback.
py::object try_record(TapedFunction* f, PyObject* const* args, Py_ssize_t nargs) {
  if (!plain_recording()) return py::object();
  Formula* fm = formula_for(f->op);
  if (!fm) return py::object();
  const NdArray* arrs[2] = {nullptr, nullptr};
  PyObject* metas[2] = {nullptr, nullptr};
  bool have = false;
  DType D = DType::Float64;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    PyObject* o = args[i];
    const NdArray* a = ndarray(o);
    if (a) {
      PyObject* d = instance_dict(o);
      if (d && PyDict_GET_SIZE(d) != 0) {
        if (PyDict_GET_SIZE(d) != 1) return py::object();
        PyObject* m = PyDict_GetItemWithError(d, s_ad);
        if (!m) {
          PyErr_Clear();
          return py::object();
        }
        if (Py_TYPE(m) != reinterpret_cast<PyTypeObject*>(g_meta_type) ||
            SLOT(m, m_requires_grad) != Py_True || SLOT(m, m_is_view_of) != Py_None)
          return py::object();
        metas[i] = m;
      }
      if (have && a->dtype != D) return py::object();
      D = a->dtype;
      have = true;
      arrs[i] = a;
    } else if (!weak_scalar(o)) {
      return py::object();
    }
  }
  if (!have || (!metas[0] && !metas[1]) || !real_float(D) || !accepted(f->mask, D))
    return py::object();
  NdArray scal;
  const NdArray* ins[2] = {arrs[0], arrs[1]};
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    if (ins[i]) continue;
    if (!scalar_operand(args[i], D, scal)) return py::object();
    ins[i] = &scal;
  }
  NdArray result = apply_kernel_nogil(*f->kernel, ins, static_cast<int>(nargs));
  if (result.dtype != D) return py::object();  // (never: same-dtype float kernels)
  const NdArray out_arr = result;  // (shares the buffer: for the saved alias)
  py::object out = wrap_fresh_array(std::move(result));
  // Edges, in argument order (tape.record).
  py::list edges(0);
  int key = -1;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    PyObject* m = metas[i];
    if (!m) continue;
    py::object fn = py::reinterpret_borrow<py::object>(SLOT(m, m_grad_fn));
    py::object nr = py::reinterpret_borrow<py::object>(SLOT(m, m_output_nr));
    if (fn.is_none()) {
      PyObject* r = PyObject_CallMethodNoArgs(m, s_edge);
      if (!r) throw py::error_already_set();
      py::object rt = py::reinterpret_steal<py::object>(r);
      fn = rt[py::int_(0)];
      nr = rt[py::int_(1)];
    }
    py::object shape = py::reinterpret_steal<py::object>(shape_tuple(*arrs[i]));
    edges.append(py::make_tuple(py::int_(i), py::none(), fn, nr, shape,
                                py::reinterpret_borrow<py::object>(dtype_object(D))));
    key = key == -1 ? static_cast<int>(i) : 2;
  }
  PyObject* info = fm->saves[key];
  PyObject* saves = PyTuple_GET_ITEM(info, 0);
  const bool out_saved = PyTuple_GET_ITEM(info, 1) == Py_True;
  py::tuple argt(nargs);
  for (Py_ssize_t i = 0; i < nargs; ++i) argt[i] = py::reinterpret_borrow<py::object>(args[i]);
  py::object saved_out = out_saved ? wrap_fresh_array(NdArray(out_arr)) : py::none();
  py::object saved;
  const Py_ssize_t ns = PyTuple_GET_SIZE(saves);
  if (ns == 0) {
    saved = py::tuple(0);
  } else {
    py::list items(0);
    bool numbers = false;
    for (Py_ssize_t k = 0; k < ns; ++k) {
      PyObject* s = PyTuple_GET_ITEM(saves, k);
      PyObject* v;
      if (PyUnicode_Check(s)) {
        v = saved_out.ptr();
      } else {
        long idx = PyLong_AsLong(s);
        v = idx >= 0 && idx < nargs ? args[idx] : Py_None;
      }
      const NdArray* a = ndarray(v);
      if (a) items.append(py::make_tuple(py::reinterpret_borrow<py::object>(v), version_of(*a)));
      else if (weak_scalar(v)) numbers = true;
    }
    saved = (PyList_GET_SIZE(items.ptr()) || !numbers) ? py::object(items)
                                                       : py::reinterpret_borrow<py::object>(g_numbers);
  }
  py::object node = py::reinterpret_steal<py::object>(new_of(g_node_type));
  PyObject* N = node.ptr();
  set_slot(N, n_op, f->op);
  set_slot(N, n_args, argt.ptr());
  put_slot(N, n_kwargs, PyDict_New());
  if (!SLOT(N, n_kwargs)) throw py::error_already_set();
  set_slot(N, n_out, saved_out.ptr());
  set_slot(N, n_edges, edges.ptr());
  put_slot(N, n_n_outputs, PyLong_FromLong(1));
  set_slot(N, n_multi, Py_False);
  set_slot(N, n_out_metas, Py_None);
  set_slot(N, n_saved, saved.ptr());
  set_slot(N, n_released, Py_False);
  set_slot(N, n_creation_trace, Py_None);
  set_slot(N, n_pre_hooks, Py_None);
  set_slot(N, n_tape, Py_True);
  py::object meta = py::reinterpret_steal<py::object>(new_of(g_meta_type));
  PyObject* M = meta.ptr();
  set_slot(M, m_requires_grad, Py_True);
  set_slot(M, m_grad, Py_None);
  set_slot(M, m_grad_fn, N);
  put_slot(M, m_output_nr, PyLong_FromLong(0));
  set_slot(M, m_retains_grad, Py_False);
  set_slot(M, m_hooks, Py_None);
  set_slot(M, m_accumulate, Py_None);
  set_slot(M, m_is_view_of, Py_None);
  if (PyObject_GenericSetAttr(out.ptr(), s_ad, M) < 0) throw py::error_already_set();
  return out;
}

PyObject* taped_call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  auto* f = reinterpret_cast<TapedFunction*>(self);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (!kwnames && nargs == f->arity) {
    bool taken = false;
    PyObject* r = call_translating([&]() -> PyObject* {
      py::object o = try_record(f, args, nargs);
      taken = static_cast<bool>(o);
      return o.release().ptr();
    });
    if (taken || PyErr_Occurred()) return r;
  }
  return PyObject_Vectorcall(f->fallback, args, nargsf, kwnames);
}

int taped_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* f = reinterpret_cast<TapedFunction*>(self);
  Py_VISIT(f->op);
  Py_VISIT(f->kernel_obj);
  Py_VISIT(f->fallback);
  return 0;
}
int taped_clear(PyObject* self) {
  auto* f = reinterpret_cast<TapedFunction*>(self);
  Py_CLEAR(f->op);
  Py_CLEAR(f->kernel_obj);
  Py_CLEAR(f->fallback);
  return 0;
}
void taped_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  taped_clear(self);
  PyObject_GC_Del(self);
}

PyMemberDef g_taped_members[] = {
    {"fallback", T_OBJECT, offsetof(TapedFunction, fallback), READONLY, nullptr},
    {"op", T_OBJECT, offsetof(TapedFunction, op), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

void ready_taped_type() {
  PyTypeObject& t = g_taped_type;
  t.tp_name = "arraycore._native.TapedFunction";
  t.tp_basicsize = sizeof(TapedFunction);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL;
  t.tp_vectorcall_offset = offsetof(TapedFunction, vectorcall);
  t.tp_call = PyVectorcall_Call;
  t.tp_dealloc = taped_dealloc;
  t.tp_traverse = taped_traverse;
  t.tp_clear = taped_clear;
  t.tp_members = g_taped_members;
  if (PyType_Ready(&t) < 0) throw py::error_already_set();
}

py::object make_taped(py::object op, py::object kernel, int mask, py::object fallback) {
  const Kernel* kp = &kernel.cast<const Kernel&>();
  if (kp->arity != 1 && kp->arity != 2) throw ValueError("taped_function: arity");
  if (!PyCallable_Check(fallback.ptr())) throw TypeError("taped_function: fallback");
  auto* f = PyObject_GC_New(TapedFunction, &g_taped_type);
  if (!f) throw py::error_already_set();
  f->vectorcall = taped_call;
  f->op = op.inc_ref().ptr();
  f->kernel_obj = kernel.inc_ref().ptr();
  f->kernel = kp;
  f->mask = mask;
  f->arity = kp->arity;
  f->fallback = fallback.inc_ref().ptr();
  PyObject_GC_Track(reinterpret_cast<PyObject*>(f));
  return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(f));
}

int operand_code(py::handle o, PyObject*& cst) {
  if (py::isinstance<py::str>(o)) {
    std::string s = o.cast<std::string>();
    if (s == "g") return kG;
    if (s == "x0") return kX0;
    if (s == "x1") return kX1;
    if (s == "y") return kY;
    if (s.size() >= 2 && s[0] == 't') return kTemp + std::stoi(s.substr(1));
    throw ValueError("tape_rule: operand '" + s + "'");
  }
  if (!weak_scalar(o.ptr())) throw ValueError("tape_rule: constants are Python numbers");
  cst = o.inc_ref().ptr();
  return kConst;
}

// tape_rule(op, vjp, saves, programs): saves maps 0, 1, (0, 1) to graph._saves_for's
// (saves, out_saved); programs maps a slot to a list of (kernel, mask, operand[, operand])
// steps (operands "g", "x0", "x1", "y", "t<k>" (step k's result) or a Python number).
void tape_rule(py::object op, py::object vjp, py::dict saves, py::dict programs) {
  auto* f = new Formula();
  f->vjp = vjp.inc_ref().ptr();
  py::object keys[3] = {py::int_(0), py::int_(1), py::make_tuple(0, 1)};
  for (int k = 0; k < 3; ++k) {
    if (saves.contains(keys[k])) f->saves[k] = py::object(saves[keys[k]]).inc_ref().ptr();
    else f->saves[k] = py::make_tuple(py::tuple(0), false).inc_ref().ptr();
  }
  for (auto kv : programs) {
    int slot = kv.first.cast<int>();
    if (slot < 0 || slot > 1) throw ValueError("tape_rule: slot");
    Program& p = f->prog[slot];
    p.present = true;
    int nsteps = 0;
    for (auto st : kv.second.cast<py::list>()) {
      py::tuple t = st.cast<py::tuple>();
      Step s;
      s.kernel = &t[0].cast<const Kernel&>();
      s.mask = t[1].cast<int>();
      s.nin = static_cast<int>(t.size()) - 2;
      if (s.nin != s.kernel->arity) throw ValueError("tape_rule: arity");
      for (int i = 0; i < s.nin; ++i) {
        s.in[i] = operand_code(t[2 + i], s.consts[i]);
        if (s.in[i] >= kTemp && s.in[i] - kTemp >= nsteps) throw ValueError("tape_rule: temp");
      }
      p.steps.push_back(s);
      if (++nsteps > kMaxTemps) throw ValueError("tape_rule: too many steps");
    }
  }
  auto it = g_formulas.find(op.ptr());
  if (it != g_formulas.end()) {
    it->second = f;  // (the old one is leaked: a TapedFunction call may be using it)
  } else {
    g_formulas.emplace(op.inc_ref().ptr(), f);
  }
}

void tape_setup(py::dict h) {
  auto get = [&](const char* k) { return py::object(h[k]).inc_ref().ptr(); };
  g_node_type = get("Node");
  g_meta_type = get("AutogradMeta");
  g_acc_type = get("AccumulateGrad");
  g_versions = get("versions");
  g_numbers = get("numbers");
  g_freed = get("freed");
  g_shapes = get("shapes");
  g_state = get("state");
  g_step = get("step");
  g_leaf = get("leaf");
  g_fit = get("fit");
  g_add = get("add");
  g_check = get("check");
  n_op = slot_offset(g_node_type, "op");
  n_args = slot_offset(g_node_type, "args");
  n_kwargs = slot_offset(g_node_type, "kwargs");
  n_out = slot_offset(g_node_type, "out");
  n_edges = slot_offset(g_node_type, "edges");
  n_n_outputs = slot_offset(g_node_type, "n_outputs");
  n_multi = slot_offset(g_node_type, "multi");
  n_out_metas = slot_offset(g_node_type, "out_metas");
  n_saved = slot_offset(g_node_type, "saved");
  n_released = slot_offset(g_node_type, "released");
  n_creation_trace = slot_offset(g_node_type, "creation_trace");
  n_pre_hooks = slot_offset(g_node_type, "pre_hooks");
  n_tape = slot_offset(g_node_type, "tape");
  m_requires_grad = slot_offset(g_meta_type, "requires_grad");
  m_grad = slot_offset(g_meta_type, "grad");
  m_grad_fn = slot_offset(g_meta_type, "grad_fn");
  m_output_nr = slot_offset(g_meta_type, "output_nr");
  m_retains_grad = slot_offset(g_meta_type, "retains_grad");
  m_hooks = slot_offset(g_meta_type, "hooks");
  m_accumulate = slot_offset(g_meta_type, "_accumulate");
  m_is_view_of = slot_offset(g_meta_type, "is_view_of");
  t_state.valid = false;
}

}  // namespace tape

AC_BINDINGS(autodiff) {
  for (PyMethodDef* d = g_defs; d->ml_name != nullptr; ++d) {
    PyObject* f = PyCFunction_NewEx(d, nullptr, m.ptr());
    if (!f) throw py::error_already_set();
    m.add_object(d->ml_name, py::reinterpret_steal<py::object>(f));
  }
  tape::ready_taped_type();
  tape::s_ad = PyUnicode_InternFromString("_ad");
  tape::s_grad_enabled = PyUnicode_InternFromString("grad_enabled");
  tape::s_stack = PyUnicode_InternFromString("stack");
  tape::s_anomaly = PyUnicode_InternFromString("anomaly");
  tape::s_vjp = PyUnicode_InternFromString("vjp");
  tape::s_edge = PyUnicode_InternFromString("edge");
  tape::s_edges = PyUnicode_InternFromString("edges");
  tape::s_n_outputs = PyUnicode_InternFromString("n_outputs");
  tape::s_release = PyUnicode_InternFromString("release");
  tape::s_dict = PyUnicode_InternFromString("__dict__");
  Py_INCREF(&tape::g_taped_type);
  m.add_object("TapedFunction", reinterpret_cast<PyObject*>(&tape::g_taped_type));
  m.def("taped_function", &tape::make_taped, py::arg("op"), py::arg("kernel"), py::arg("mask"),
        py::arg("fallback"),
        "The fallback of an elementwise FastFunction that records tape nodes natively "
        "(Note [The native tape]); other calls go to `fallback`.");
  m.def("tape_rule", &tape::tape_rule, py::arg("op"), py::arg("vjp"), py::arg("saves"),
        py::arg("programs"), "Registers op's native derivative program.");
  m.def("tape_setup", &tape::tape_setup, py::arg("handles"),
        "The autodiff classes, state and helpers the native tape uses.");
  m.def("tape_backward", [](py::list roots, py::list seeds, bool retain_graph) {
          tape::run_backward(std::move(roots), std::move(seeds), retain_graph);
        }, py::arg("roots"), py::arg("seeds"), py::arg("retain_graph"),
        "graph.run_backward without inputs, create_graph or anomaly mode.");
}

}  // namespace arraycore::native::bindings
