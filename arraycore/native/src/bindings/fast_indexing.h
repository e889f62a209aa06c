// The native indexing fast paths, shared by the files that implement them:
//   bind_fast_getitem.cpp   basic views, and the Array's __getitem__ slot
//   bind_fast_advanced.cpp  one integer array / list of ints, a leading bool mask, take
//   bind_fast_setitem.cpp   the Array's __setitem__ slot
// Each recogniser computes exactly what arraycore/_core/indexing.py computes for the keys it
// takes, and returns "not taken" (a null object or false, no Python error set) for every
// other key, including every key the Python path would reject: that path raises the errors.
#pragma once

#include "bindings.h"

namespace arraycore::native::bindings {

// The basic view a[key] for a key that is an int, a slice, None, Ellipsis or a tuple of them.
// When `skip` >= 0 the key item at that position (an advanced index) is read as slice(None),
// and the view axis it gives is stored in *skip_dim.  False when the key is not basic (or
// would raise: out-of-range ints, two ellipses, too many indices).
bool fast_basic_view(const NdArray& a, PyObject* key, Py_ssize_t skip, NdArray& out,
                     int* skip_dim = nullptr);

// a[key] for a key with one advanced part (an integer Array or a list of Python ints, among
// slices, None and Ellipsis) or a bool mask over the leading axes (alone or before '...').
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
