// L0: matrix products (kernels/matmul.cpp).  Inputs have one numeric dtype (the Python layer
// promotes); errors are TypeError/ValueError naming the function.
#pragma once

#include "../ndarray.h"

namespace arraycore::native {

// The standard's matmul: 1-D operands get a dimension prepended (x1) or appended (x2) that is
// removed from the result; batch dimensions broadcast.  Floating dtypes go through BLAS gemm.
NdArray matmul(const NdArray& a, const NdArray& b);

// sum(conj(a) * b) over the last axis of both; the other axes broadcast.
NdArray vecdot_last(const NdArray& a, const NdArray& b);

// Makes OpenBLAS's thread count equal to the engine pool's (num_threads()).  Cheap when it
// already is; matmul calls it, and ac.set_num_threads calls it eagerly.
void sync_blas_threads();

}  // namespace arraycore::native
