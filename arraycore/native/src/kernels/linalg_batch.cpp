// L0: the batched-driver layer of the linalg kernels (see linalg_batch.h).
#include "linalg_batch.h"

#include <cstdlib>

#include "../thread_pool.h"
#include "matmul.h"

namespace arraycore::native::linalg {

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

void check_float_dtype(const NdArray& a, const std::string& name) {
  switch (a.dtype) {
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128:
      return;
    default:
      throw TypeError(name + ": expected a floating-point or complex array, got " +
                      dtype_name(a.dtype));
  }
}

void check_ndim(const NdArray& a, int min_ndim, const std::string& name, const char* what) {
  if (a.ndim() < min_ndim)
    throw ValueError(name + ": " + what + " must have at least " + std::to_string(min_ndim) +
                     " dimensions, got shape " + shape_str(a.shape));
}

void check_square(const NdArray& a, const std::string& name, const char* what) {
  check_ndim(a, 2, name, what);
  if (a.shape[a.ndim() - 1] != a.shape[a.ndim() - 2])
    throw ValueError(name + ": " + what + " must be a stack of square matrices, got shape " +
                     shape_str(a.shape));
}

void check_same_dtype(const NdArray& a, const NdArray& b, const std::string& name) {
  if (a.dtype != b.dtype)
    throw TypeError(name + ": operands must have one dtype, got " + dtype_name(a.dtype) +
                    " and " + dtype_name(b.dtype));
}

void check_blas_size(int64_t n, const std::string& name) {
  if (n > blas::kMaxBlasInt / 2)
    throw ValueError(name + ": matrix dimension " + std::to_string(n) +
                     " is too large for LAPACK's 32-bit integers");
}

Shape batch_of(const NdArray& a, int item_ndim) {
  return Shape(a.shape.begin(), a.shape.end() - item_ndim);
}

SquareInput square_input(const NdArray& a, const std::string& name) {
  check_float_dtype(a, name);
  check_square(a, name, "input");
  const int64_t n = a.shape[a.ndim() - 1];
  check_blas_size(n, name);
  Shape batch = batch_of(a, 2);
  const int64_t nbatch = shape_numel(batch);
  return {n, std::move(batch), nbatch};
}

MatrixInput matrix_input(const NdArray& a, const std::string& name) {
  check_float_dtype(a, name);
  check_ndim(a, 2, name, "input");
  const int64_t m = a.shape[a.ndim() - 2], n = a.shape[a.ndim() - 1];
  check_blas_size(std::max(m, n), name);
  Shape batch = batch_of(a, 2);
  const int64_t nbatch = shape_numel(batch);
  return {m, n, std::min(m, n), std::move(batch), nbatch};
}

bool env_switch(const char* var, const char* value) {
  const char* e = std::getenv(var);
  return e != nullptr && std::string(e) == value;
}

namespace {

Shape aligned_batch_strides(const NdArray& a, int item_ndim, const Shape& batch) {
  const int ab = a.ndim() - item_ndim;
  const int nb = static_cast<int>(batch.size());
  Shape s;
  s.assign(static_cast<size_t>(nb), int64_t{0});
  for (int i = 0; i < ab; ++i)
    if (a.shape[i] != 1) s[nb - ab + i] = a.strides[i];
  return s;
}

}  // namespace

MatrixStack stack_of(const NdArray& a, const Shape& batch) {
  MatrixStack st;
  const int nd = a.ndim();
  st.base = a.data();
  st.rows = a.shape[nd - 2];
  st.cols = a.shape[nd - 1];
  st.rs = a.strides[nd - 2];
  st.cs = a.strides[nd - 1];
  st.batch_strides = aligned_batch_strides(a, 2, batch);
  st.batch = &batch;
  return st;
}

MatrixStack vector_stack_of(const NdArray& a, const Shape& batch) {
  MatrixStack st;
  const int nd = a.ndim();
  st.base = a.data();
  st.rows = a.shape[nd - 1];
  st.cols = 1;
  st.rs = a.strides[nd - 1];
  st.cs = 0;
  st.batch_strides = aligned_batch_strides(a, 1, batch);
  st.batch = &batch;
  return st;
}

void FirstFailure::raise_if_failed(const std::string& name, bool batched) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (index_ >= 0) throw LinAlgError(name + ": " + what_ + batch_suffix(batched, index_));
}

namespace {

// OpenBLAS has one global thread count (pthreads build).  While the pool's workers each run
// LAPACK on their own items, OpenBLAS must not start its own threads on top of them: it is
// set to 1 for the batch and restored to the engine's count after.  Concurrent batches are
// serialized on this mutex (a concurrent matmul elsewhere meanwhile runs single-threaded:
// slower, not wrong).
std::mutex g_single_blas_mu;

class BlasSingleThreaded {
 public:
  BlasSingleThreaded() : lock_(g_single_blas_mu) { blas::scipy_openblas_set_num_threads(1); }
  ~BlasSingleThreaded() { blas::scipy_openblas_set_num_threads(num_threads()); }
  BlasSingleThreaded(const BlasSingleThreaded&) = delete;
  BlasSingleThreaded& operator=(const BlasSingleThreaded&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
};

// Work per chunk below which splitting a batch costs more than it gains (waking a worker is
// a few microseconds).
constexpr double kMinChunkFlops = 2e5;

}  // namespace

void run_batch(int64_t nbatch, double flops, const std::function<void(int64_t, int64_t)>& fn,
               bool uses_blas) {
  if (nbatch <= 0) return;
  const int threads = num_threads();
  if (nbatch == 1 || threads <= 1) {
    sync_blas_threads();
    fn(0, nbatch);
    return;
  }
  // Items of ~nothing (n <= 4 kernels) still need a few thousand per chunk to pay.
  const double per_item = std::max(flops, 64.0);
  const int64_t grain = std::max<int64_t>(1, static_cast<int64_t>(kMinChunkFlops / per_item));
  // A few big items: one after another, each with OpenBLAS's own threads.
  const bool big = flops > 128.0 * 128.0 * 128.0;
  if (nbatch < 2 * grain || (big && nbatch < threads)) {
    sync_blas_threads();
    fn(0, nbatch);
    return;
  }
  if (!uses_blas) {
    parallel_for(nbatch, grain, fn);
    return;
  }
  BlasSingleThreaded guard;
  parallel_for(nbatch, grain, fn);
}

}  // namespace arraycore::native::linalg
