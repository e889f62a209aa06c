// Native fast paths for the common advanced indices: x[idx], x[[1, 2]], x[:, idx],
// x[..., idx], x[0, idx], x[i, j], x[i[:, None], j], x[:, mask] (integer and bool Arrays,
// lists of Python ints and ints among slices, None and Ellipsis), x[mask] (a bool mask over
// the leading axes: the compaction kernel), and take(x, idx, axis=k).
//
// The Python path (arraycore/_core/indexing.py _plan) spent ~9 us per call classifying the
// key, converting a list through asarray and building the plan; the copy itself is
// nanoseconds for a few rows.  plan_int_index builds the same plan (Note [Advanced indexing
// layout] in kernels/gather.h) here, for getitem and for setitem (bind_fast_setitem.cpp).
// Nested lists, NumPy objects, 0-d index arrays and masks, float arrays, indices that do not
// broadcast and masks that do not match go to the Python path, which computes the same plan
// and raises the errors.
#include "../kernels/gather.h"
#include "fast_indexing.h"

namespace arraycore::native::bindings {
namespace {

bool is_integer_dtype(DType d) {
  switch (d) {
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64:
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
      return true;
    default:
      return false;
  }
}

// A non-empty flat list of Python ints as the int64 array asarray would make of it; false
// for anything else (bools, nested lists, floats, ints beyond int64: the Python path).
bool int_list(PyObject* list, NdArray& out) {
  const Py_ssize_t n = PyList_GET_SIZE(list);
  if (n == 0) return false;
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!PyLong_CheckExact(PyList_GET_ITEM(list, i))) return false;
  NdArray idx = empty({n}, DType::Int64);
  auto* p = reinterpret_cast<int64_t*>(idx.data());
  for (Py_ssize_t i = 0; i < n; ++i) {
    int overflow = 0;
    p[i] = PyLong_AsLongLongAndOverflow(PyList_GET_ITEM(list, i), &overflow);
    if (overflow) return false;
  }
  out = std::move(idx);
  return true;
}

}  // namespace

NdArray gather_axis(const NdArray& src, int axis, const NdArray& idx, const char* who) {
  const NdArray i64 = idx.dtype == DType::Int64 ? idx : astype(idx, DType::Int64);
  Shape shape;
  for (int d = 0; d < axis; ++d) shape.push_back(src.shape[d]);
  for (int64_t n : i64.shape) shape.push_back(n);
  for (int d = axis + 1; d < src.ndim(); ++d) shape.push_back(src.shape[d]);
  NdArray out = empty(shape, src.dtype);
  // The kernel writes B + rest: a transposed view of the row-major result.
  const int nb = i64.ndim();
  Shape pshape, pstrides;
  auto take_axis = [&](int d) {
    pshape.push_back(out.shape[d]);
    pstrides.push_back(out.strides[d]);
  };
  for (int d = axis; d < axis + nb; ++d) take_axis(d);
  for (int d = 0; d < axis; ++d) take_axis(d);
  for (int d = axis + nb; d < out.ndim(); ++d) take_axis(d);
  const NdArray sub = as_strided(out, pshape, pstrides, 0, who);
  const std::vector<int> axes{axis};
  const std::vector<NdArray> idx_list{i64};
  maybe_nogil(out.numel(), [&] { gather(src, axes, idx_list, sub, who); });
  return out;
}

const NdArray* leading_mask(const NdArray& a, PyObject* key) {
  PyObject* k = key;
  if (PyTuple_CheckExact(key)) {
    const Py_ssize_t n = PyTuple_GET_SIZE(key);
    if (n == 0 || n > 2 || (n == 2 && PyTuple_GET_ITEM(key, 1) != Py_Ellipsis)) return nullptr;
    k = PyTuple_GET_ITEM(key, 0);
  }
  const NdArray* m = as_exact_array(k);
  if (!m || m->dtype != DType::Bool || m->ndim() == 0 || m->ndim() > a.ndim()) return nullptr;
  for (int d = 0; d < m->ndim(); ++d)
    if (m->shape[d] != a.shape[d]) return nullptr;  // (the Python path's IndexError)
  return m;
}

namespace {

constexpr Py_ssize_t kMaxKeyItems = 128;  // longer keys (None after None): the Python path
constexpr size_t kMaxNdim = 64;           // as indexing.py _MAX_NDIM

// Broadcasts `b` into `shape` (NumPy's rule); false when they do not broadcast.
bool broadcast_into(Shape& shape, const Shape& b) {
  if (b.size() > shape.size()) {
    Shape wider(b.size() - shape.size(), 1);
    for (int64_t n : shape) wider.push_back(n);
    shape = std::move(wider);
  }
  const size_t off = shape.size() - b.size();
  for (size_t d = 0; d < b.size(); ++d) {
    int64_t& s = shape[off + d];
    if (b[d] == s || b[d] == 1) continue;
    if (s != 1) return false;
    s = b[d];
  }
  return true;
}

}  // namespace

NdArray permuted(const NdArray& a, const Shape& perm) {
  bool identity = true;
  for (size_t d = 0; d < perm.size(); ++d) identity = identity && perm[d] == int64_t(d);
  if (identity) return a;  // (B first or alone: the common case, no view to check)
  Shape shape, strides;
  for (int64_t d : perm) {
    shape.push_back(a.shape[d]);
    strides.push_back(a.strides[d]);
  }
  return as_strided(a, shape, strides, 0, "__getitem__");
}

namespace {

// `axis` as it is numbered once the view axes drop[0..n) (increasing) are removed.
int renumbered(int axis, const int* drop, int n) {
  int below = 0;
  for (int v = 0; v < n; ++v) below += drop[v] < axis;
  return axis - below;
}

// Where B goes among the other result axes, for advanced axes axes[0..n) (increasing):
// after the view axes before the first one when they are adjacent in the view, else first.
int b_position(const int* axes, int n) {
  for (int t = 1; t < n; ++t)
    if (axes[t] != axes[0] + t) return 0;
  return axes[0];
}

}  // namespace

bool plan_int_index(const NdArray& a, PyObject* key, IntIndexPlan& plan) {
  PyObject* single[1] = {key};
  PyObject** items = single;
  Py_ssize_t count = 1;
  if (PyTuple_CheckExact(key)) {
    items = &PyTuple_GET_ITEM(key, 0);
    count = PyTuple_GET_SIZE(key);
  }
  if (count > kMaxKeyItems) return false;
  uint8_t advanced[kMaxKeyItems];  // axes each key item indexes (0: basic)
  const NdArray* masks[kMaxKeyItems];
  bool is_array[kMaxKeyItems];      // integer index arrays (lists converted): in plan.idx
  int64_t ints[kMaxKeyItems];       // Python ints (items with no array nor mask)
  bool any_array = false;  // only ints: a basic key, not this plan
  plan.idx.clear();
  for (Py_ssize_t j = 0; j < count; ++j) {
    PyObject* k = items[j];
    advanced[j] = !(k == Py_None || k == Py_Ellipsis || PySlice_Check(k));
    masks[j] = nullptr;
    is_array[j] = false;
    if (!advanced[j]) continue;
    NdArray idx;
    if (PyLong_CheckExact(k)) {  // an int among arrays: a 0-d index broadcast with them
      int overflow = 0;
      ints[j] = PyLong_AsLongLongAndOverflow(k, &overflow);
      if (overflow) return false;
    } else if (PyList_CheckExact(k)) {
      if (!int_list(k, idx)) return false;
      any_array = is_array[j] = true;
    } else if (const NdArray* i = as_exact_array(k)) {
      // (0-d integer arrays count as ints there, 0-d bools as new axes: rare, left to the
      // Python path)
      if (i->ndim() == 0) return false;
      any_array = true;
      if (i->dtype == DType::Bool) {  // its coordinates, once its axes are known
        masks[j] = i;
        advanced[j] = static_cast<uint8_t>(i->ndim());  // (at most 64)
      } else if (is_integer_dtype(i->dtype)) {
        idx = i->dtype == DType::Int64 ? *i : astype(*i, DType::Int64);
        is_array[j] = true;
      } else {
        return false;
      }
    } else {
      return false;  // Python bools, NumPy objects, tracers, nested lists, floats, ...
    }
    if (is_array[j]) plan.idx.push_back(std::move(idx));
  }
  if (!any_array) return false;
  int dims[kMaxNdim + 1];
  for (Py_ssize_t j = 0, total = 0; j < count; ++j)
    if ((total += advanced[j]) > static_cast<Py_ssize_t>(kMaxNdim)) return false;
  NdArray view;
  if (!fast_basic_view(a, key, advanced, view, dims)) return false;
  // The advanced axes in key order: ints, index arrays, and a mask's axes, which must match
  // the view's (the Python path raises, or selects nothing along an empty mask axis) and
  // are indexed by one coordinate array each.
  int int_axes[kMaxNdim + 1], axes[kMaxNdim + 1];  // (stack arrays: no allocation)
  int n_int = 0, n_axes = 0;
  int64_t int_offset = 0;
  bool ints_in_range = true;
  for (Py_ssize_t j = 0, t = 0, n = 0; j < count; t += advanced[j], ++j) {
    if (!advanced[j]) continue;
    if (masks[j]) {
      for (int d = 0; d < advanced[j]; ++d)
        if (masks[j]->shape[d] != view.shape[dims[t + d]]) return false;
      std::vector<NdArray> coords = mask_nonzero(*masks[j]);
      plan.idx.insert(plan.idx.begin() + n, coords.begin(), coords.end());
      for (int d = 0; d < advanced[j]; ++d) axes[n_axes++] = dims[t + d];
      n += advanced[j];
    } else if (is_array[j]) {
      axes[n_axes++] = dims[t];
      ++n;
    } else {
      const int64_t size = view.shape[dims[t]], i = ints[j];
      ints_in_range = ints_in_range && i >= -size && i < size;
      int_offset += (i < 0 ? i + size : i) * view.strides[dims[t]];
      int_axes[n_int++] = dims[t];
    }
  }
  // An int is a 0-d advanced index: it leaves B's shape alone, and selects one element of its
  // axis.  Unless its axis decides where B goes, it is read as a basic index (no index
  // array, one axis less for the kernel); out-of-range ones stay advanced, for the kernel's
  // error.
  const int n_all = n_axes + n_int;  // dims[0..n_all): every advanced axis, in key order
  int folded[kMaxNdim + 1];
  for (int t = 0; t < n_axes; ++t) folded[t] = renumbered(axes[t], int_axes, n_int);
  if (n_int && ints_in_range && b_position(dims, n_all) == b_position(folded, n_axes)) {
    Shape shape, strides;
    for (int d = 0, v = 0; d < view.ndim(); ++d) {
      if (v < n_int && int_axes[v] == d) {
        ++v;
        continue;
      }
      shape.push_back(view.shape[d]);
      strides.push_back(view.strides[d]);
    }
    plan.view = as_strided(view, shape, strides, int_offset, "__getitem__");
    plan.axes.assign(folded, folded + n_axes);
    plan.ints_folded = true;
  } else {
    // The ints as 0-d index arrays, in key order among the others (axes are increasing).
    for (Py_ssize_t j = 0, t = 0, n = 0; j < count; t += advanced[j], ++j) {
      if (!advanced[j]) continue;
      if (masks[j] || is_array[j]) {
        n += advanced[j];
        continue;
      }
      NdArray i = empty({}, DType::Int64);
      *reinterpret_cast<int64_t*>(i.data()) = ints[j];
      plan.idx.insert(plan.idx.begin() + n, std::move(i));
      ++n;
    }
    plan.view = std::move(view);
    plan.axes.assign(dims, dims + n_all);
    plan.ints_folded = false;
  }
  const int nidx = static_cast<int>(plan.idx.size());
  Shape b;
  for (const NdArray& i : plan.idx)
    if (!broadcast_into(b, i.shape)) return false;  // (the Python path's "shape mismatch")
  for (NdArray& i : plan.idx)
    if (i.shape != b) i = broadcast_to(i, b, "__getitem__");
  const int vnd = plan.view.ndim(), nb = static_cast<int>(b.size());
  const int p = b_position(plan.axes.data(), nidx);
  Shape rest;
  for (int d = 0, t = 0; d < vnd; ++d) {
    if (t < nidx && plan.axes[t] == d) ++t;  // (axes are increasing)
    else rest.push_back(plan.view.shape[d]);
  }
  if (rest.size() + b.size() > kMaxNdim) return false;
  plan.final_shape.assign(rest.begin(), rest.begin() + p);
  for (int64_t n : b) plan.final_shape.push_back(n);
  for (size_t d = p; d < rest.size(); ++d) plan.final_shape.push_back(rest[d]);
  const int nf = static_cast<int>(plan.final_shape.size());
  plan.perm.clear();
  for (int d = p; d < p + nb; ++d) plan.perm.push_back(d);
  for (int d = 0; d < p; ++d) plan.perm.push_back(d);
  for (int d = p + nb; d < nf; ++d) plan.perm.push_back(d);
  return true;
}

py::object try_fast_advanced_getitem(const NdArray& a, PyObject* key) {
  if (const NdArray* m = leading_mask(a, key)) {
    Shape shape{count_true(*m)};
    for (int d = m->ndim(); d < a.ndim(); ++d) shape.push_back(a.shape[d]);
    NdArray out = empty(shape, a.dtype);
    maybe_nogil(a.numel(), [&] { mask_select(a, *m, out); });
    return wrap_fresh_array(std::move(out));
  }
  IntIndexPlan plan;
  if (!plan_int_index(a, key, plan)) return py::object();
  NdArray out = empty(plan.final_shape, a.dtype);
  const NdArray sub = permuted(out, plan.perm);  // the kernel writes B + rest
  try {
    maybe_nogil(out.numel(),
                [&] { gather(plan.view, plan.axes, plan.idx, sub, "__getitem__"); });
  } catch (const IndexError&) {
    if (plan.ints_folded) return py::object();  // the Python path names its own axes
    throw;
  }
  return wrap_fresh_array(std::move(out));
}

// take(x, indices, /, *, axis=None) with plain Arrays, an integer index array and an int
// axis in range (or None for a 1-d x); anything else to the Python function, which raises.
py::object try_fast_take(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs != 2) return py::object();
  PyObject* axis_obj = Py_None;
  if (kwnames) {
    if (PyTuple_GET_SIZE(kwnames) != 1 ||
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "axis") != 0)
      return py::object();
    axis_obj = args[2];
  }
  const NdArray* x = as_exact_array(args[0]);
  const NdArray* idx = as_exact_array(args[1]);
  if (!x || !idx || !is_integer_dtype(idx->dtype) || x->ndim() == 0) return py::object();
  long long axis = 0;
  if (axis_obj == Py_None) {
    if (x->ndim() != 1) return py::object();
  } else {
    if (!PyLong_CheckExact(axis_obj)) return py::object();
    int overflow = 0;
    axis = PyLong_AsLongLongAndOverflow(axis_obj, &overflow);
    if (overflow || axis < -x->ndim() || axis >= x->ndim()) return py::object();
    if (axis < 0) axis += x->ndim();
  }
  return wrap_fresh_array(gather_axis(*x, static_cast<int>(axis), *idx, "take"));
}

}  // namespace arraycore::native::bindings
