// The native indexing fast paths, shared by the files that implement them:
//   bind_fast_getitem.cpp   basic views, and the Array's __getitem__ slot
//   bind_fast_advanced.cpp  integer arrays / lists of ints / ints, a leading bool mask, take
//   bind_fast_setitem.cpp   the Array's __setitem__ slot
// Each recogniser computes exactly what arraycore/_core/indexing.py computes for the keys it
// takes, and returns "not taken" (a null object or false, no Python error set) for every
// other key, including every key the Python path would reject: that path raises the errors.
#pragma once

#include "bindings.h"

namespace arraycore::native::bindings {

// The basic view a[key] for a key that is an int, a slice, None, Ellipsis or a tuple of them.
// When `advanced` is given, each key item j with advanced[j] != 0 (an advanced index over
// advanced[j] axes: 1, or a mask's ndim) is read as that many slice(None), and the view axes
// they give are stored, in key order, in advanced_dims.
// False when the key is not basic (or would raise: out-of-range ints, two ellipses, too many
// indices).
bool fast_basic_view(const NdArray& a, PyObject* key, const uint8_t* advanced, NdArray& out,
                     int* advanced_dims = nullptr);

// The plan of Note [Advanced indexing layout] (kernels/gather.h), as indexing.py _plan makes
// it, for a key of integer Arrays (at least 1-d), bool Arrays (at least 1-d: the coordinates
// of their true elements) and flat lists of Python ints (at least one of them), Python ints,
// slices, None and Ellipsis: the ints are advanced indices too, all of them broadcast
// together to B.  The result has shape `final`; `perm` lists its axes in the
// kernels' order (B + the rest), as a transposed view of it gives them.
struct IntIndexPlan {
  NdArray view;                // a with every advanced axis kept whole
  std::vector<int> axes;       // the view axes that are indexed
  std::vector<NdArray> idx;    // int64, each of shape B
  Shape final_shape;
  Shape perm;                  // (a small vector: no allocation)
  // Ints read as basic indices (see plan_int_index): the kernels' IndexError would then name
  // other axes than the Python path's, so the caller hands such an error to that path.
  bool ints_folded = false;
};
// False (no error set) for every other key, and for keys the Python path rejects (indices
// that do not broadcast, too many indices, an int out of int64): that path raises.  Indices
// out of range are left to the kernels, which raise the Python path's IndexError.
bool plan_int_index(const NdArray& a, PyObject* key, IntIndexPlan& plan);

// `a` with its axes in the order `perm` (a view).
NdArray permuted(const NdArray& a, const Shape& perm);

// a[key] for a key plan_int_index takes, or a bool mask over the leading axes (alone or
// before '...').
py::object try_fast_advanced_getitem(const NdArray& a, PyObject* key);

// A mask a[mask] can take with the compaction kernel: an exact bool Array (no tape state) of
// at least one dimension whose shape is a's leading shape, the whole key or followed by '...'.
const NdArray* leading_mask(const NdArray& a, PyObject* key);

// The gather of take and of one advanced index: src[..., idx, ...] with idx (any integer
// dtype) on axis `axis` of `src`; the result has shape
// src.shape[:axis] + idx.shape + src.shape[axis+1:].  Out-of-range indices raise IndexError
// naming `who` (the kernel's error, as on the Python path).
NdArray gather_axis(const NdArray& src, int axis, const NdArray& idx, const char* who);

// take(x, indices, /, *, axis=None) on plain Arrays (FastFunction kind 'take'); a null object
// for every call the Python function should make.
py::object try_fast_take(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

}  // namespace arraycore::native::bindings
