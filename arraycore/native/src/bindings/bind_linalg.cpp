// Bindings of the linear algebra family (kernels/matmul.cpp).  Inputs arrive promoted to one
// dtype by arraycore/array_api/_linear_algebra.py.
#include "../blas.h"
#include "../kernels/matmul.h"
#include "bindings.h"

namespace arraycore::native::bindings {
namespace {

// Multiply-adds of a matmul, roughly: decides whether releasing the GIL pays.
int64_t matmul_work(const NdArray& a, const NdArray& b) {
  int64_t n = b.ndim() >= 2 ? b.shape[b.ndim() - 1] : 1;
  return a.numel() * std::max<int64_t>(n, 1) + b.numel();
}

}  // namespace

AC_BINDINGS(linalg) {
  // OpenBLAS starts with one thread per core; align it with the engine's pool at import.
  sync_blas_threads();

  m.def("matmul", [](const NdArray& a, const NdArray& b) {
    return maybe_nogil(matmul_work(a, b), [&] { return matmul(a, b); });
  }, py::arg("a"), py::arg("b"),
        "The standard's matmul of two arrays of one numeric dtype (BLAS for floating dtypes).");
  m.def("vecdot_last", [](const NdArray& a, const NdArray& b) {
    return maybe_nogil(std::max(a.numel(), b.numel()), [&] { return vecdot_last(a, b); });
  }, py::arg("a"), py::arg("b"),
        "sum(conj(a) * b) over the last axis of two arrays of one numeric dtype; the other "
        "axes broadcast.");
  m.def("sync_blas_threads", &sync_blas_threads,
        "Sets OpenBLAS's thread count to the engine pool's (get_num_threads()).");
  m.def("blas_num_threads", [] { return blas::scipy_openblas_get_num_threads(); },
        "Threads OpenBLAS currently uses.");
}

}  // namespace arraycore::native::bindings
