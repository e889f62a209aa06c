// L0: native kernels for matrices up to 4 x 4 (det, slogdet, inv, solve).
//
// For tiny matrices LAPACK's per-call overhead (argument checks, ilaenv, the blocked driver
// deciding to go unblocked) and our per-item workspace copies cost many times the ~n^3
// flops.  These kernels run the same algorithm as LAPACK's unblocked getf2 -- LU with partial
// pivoting, pivot = first row of largest |a_ik| (|re| + |im| for complex, as i?amax), a zero
// pivot marks the matrix exactly singular -- fully unrolled for a compile-time n held in
// registers, so results, singularity decisions and accuracy match the LAPACK path (no
// cofactor formulas, which lose accuracy on ill-conditioned input).  Batches are split over
// the pool by run_batch like the LAPACK path.
#pragma once

#include "linalg_batch.h"

namespace arraycore::native::linalg {

constexpr int64_t kSmallN = 4;

// All take n in [1, kSmallN] and write row-major results for items [0, nbatch).
template <class T>
void small_det_batch(const MatrixStack& st, int64_t n, int64_t nbatch, T* out);
template <class T>
void small_slogdet_batch(const MatrixStack& st, int64_t n, int64_t nbatch, T* sign,
                         real_t<T>* logabs);
// Singular items are recorded in `fail` ("singular matrix"), their output left unspecified.
template <class T>
void small_inv_batch(const MatrixStack& st, int64_t n, int64_t nbatch, T* out,
                     FirstFailure& fail);
// X (n x k per item) with A X = B.
template <class T>
void small_solve_batch(const MatrixStack& sa, const MatrixStack& sb, int64_t n, int64_t k,
                       int64_t nbatch, T* out, FirstFailure& fail);

}  // namespace arraycore::native::linalg
