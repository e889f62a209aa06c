// L0: the batched-driver layer shared by the linalg kernels (linalg_*.cpp).
//
// Every linalg function works on stacks of matrices (..., rows, cols) of any strides.  This
// layer
//   - broadcasts the batch dimensions of the operands and walks a stack item by item
//     (MatrixStack: element strides, so a transposed, negative-strided or stride-0
//     broadcast input needs no copy before the walk),
//   - copies one matrix into a column-major workspace (LAPACK's layout) and back into the
//     row-major output (tiled, so a transposing copy stays in cache),
//   - runs the items (run_batch): with several threads and a batch of several items, the
//     items are split over the engine's pool with OpenBLAS single-threaded inside; a single
//     item (one big matrix) runs on the caller with OpenBLAS's own threads (docs/linalg.md,
//     "Batching policy"),
//   - records the first failing item so the error names its batch index (FirstFailure).
#pragma once

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../allocator.h"
#include "../blas.h"
#include "../dtype.h"
#include "../errors.h"
#include "../ndarray.h"

namespace arraycore::native::linalg {

using blas::blas_int;

// Raised for singular / not positive definite input and for no convergence; the bindings
// turn it into `_native.LinAlgError` (a ValueError subclass).  Deliberately not derived from
// native::ValueError so that the module's generic translator never claims it first.
struct LinAlgError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string shape_str(const Shape& s);

// ---- operand checks ----
// Throws TypeError unless `a` is float32/float64/complex64/complex128.
void check_float_dtype(const NdArray& a, const std::string& name);
// Throws ValueError unless a.ndim() >= min_ndim (what: "a", "b"; for the message).
void check_ndim(const NdArray& a, int min_ndim, const std::string& name, const char* what);
void check_square(const NdArray& a, const std::string& name, const char* what);
void check_same_dtype(const NdArray& a, const NdArray& b, const std::string& name);
// Dimensions must fit LAPACK's 32-bit integers.
void check_blas_size(int64_t n, const std::string& name);

// The leading (batch) dimensions of a stack whose items have `item_ndim` dimensions.
Shape batch_of(const NdArray& a, int item_ndim);

// What every one-operand function starts with: the dtype and shape checks, then the sizes.
// square_input: a stack of n x n matrices (cholesky, det, inv, eigh, eig, ...).
struct SquareInput {
  int64_t n;
  Shape batch;
  int64_t nbatch;
};
SquareInput square_input(const NdArray& a, const std::string& name);
// matrix_input: a stack of m x n matrices, k = min(m, n) (lu, svd).
struct MatrixInput {
  int64_t m, n, k;
  Shape batch;
  int64_t nbatch;
};
MatrixInput matrix_input(const NdArray& a, const std::string& name);

// A driver switch read once from the environment: true when `var` equals `value` (kept so
// the alternative drivers can be measured; docs/linalg.md has the figures).
bool env_switch(const char* var, const char* value);

// ---- a stack of matrices over a (broadcast) batch ----
struct MatrixStack {
  const char* base = nullptr;  // element [0, ..., 0]
  int64_t rows = 0, cols = 0;
  int64_t rs = 0, cs = 0;      // element strides of rows / columns
  Shape batch_strides;         // element strides per batch dimension (0 where broadcast)
  const Shape* batch = nullptr;

  template <class T>
  const T* item(int64_t i) const {
    int64_t off = 0;
    for (int d = static_cast<int>(batch->size()) - 1; d >= 0 && i > 0; --d) {
      const int64_t n = (*batch)[d];
      off += (i % n) * batch_strides[d];
      i /= n;
    }
    return reinterpret_cast<const T*>(base) + off;
  }
};
// `a` seen as matrices (its last two dimensions) over `batch` (a's batch dims broadcast to
// it; a's batch must be broadcast-compatible, checked by the caller with broadcast_shapes).
MatrixStack stack_of(const NdArray& a, const Shape& batch);
// A stack of vectors (last dimension) over `batch`: rows = length, cs unused.
MatrixStack vector_stack_of(const NdArray& a, const Shape& batch);

inline std::string batch_suffix(bool batched, int64_t index) {
  return batched ? " (batch index " + std::to_string(index) + ")" : "";
}

// ---- copies between layouts ----
// dst (column-major, leading dimension ld) <- src (rows x cols, strides rs/cs), optionally
// conjugated.  Tiled so that a transposing copy reads and writes whole cache lines.
template <class T>
void load_colmajor(T* dst, int64_t ld, const T* src, int64_t rs, int64_t cs, int64_t rows,
                   int64_t cols, bool conj = false) {
  auto put = [&](T v) {
    if constexpr (is_complex_v<T>) return conj ? std::conj(v) : v;
    else return v;
  };
  if (rs == 1) {
    for (int64_t j = 0; j < cols; ++j) {
      const T* s = src + j * cs;
      T* d = dst + j * ld;
      for (int64_t i = 0; i < rows; ++i) d[i] = put(s[i]);
    }
    return;
  }
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(cols, j0 + kTile);
      for (int64_t j = j0; j < j1; ++j)
        for (int64_t i = i0; i < i1; ++i) dst[i + j * ld] = put(src[i * rs + j * cs]);
    }
  }
}

// dst (row-major rows x cols, contiguous) <- src (column-major, leading dimension ld),
// optionally conjugated.
template <class T>
void store_rowmajor(T* dst, const T* src, int64_t ld, int64_t rows, int64_t cols,
                    bool conj = false) {
  auto put = [&](T v) {
    if constexpr (is_complex_v<T>) return conj ? std::conj(v) : v;
    else return v;
  };
  if (rows == 1 || cols == 1) {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) dst[i * cols + j] = put(src[i + j * ld]);
    return;
  }
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(cols, j0 + kTile);
      for (int64_t i = i0; i < i1; ++i)
        for (int64_t j = j0; j < j1; ++j) dst[i * cols + j] = put(src[i + j * ld]);
    }
  }
}

// ---- running the items ----
// Calls fn(begin, end) over the items [0, nbatch).  `flops` is a rough cost of one item
// (e.g. n^3).  Batches of several items go to the engine's pool with OpenBLAS
// single-threaded inside; one item (or one thread) runs on the caller with OpenBLAS's own
// threads synced to the engine's count.  Exceptions propagate to the caller.  Items that
// never call BLAS/LAPACK (the n <= 4 kernels) pass uses_blas = false: no OpenBLAS switching.
void run_batch(int64_t nbatch, double flops, const std::function<void(int64_t, int64_t)>& fn,
               bool uses_blas = true);

// The first (lowest batch index) failing item of a parallel batch.
class FirstFailure {
 public:
  void record(int64_t index, std::string what) {
    std::lock_guard<std::mutex> lock(mu_);
    if (index_ < 0 || index < index_) {
      index_ = index;
      what_ = std::move(what);
    }
  }
  bool failed() const { return index_ >= 0; }
  // Throws LinAlgError "<name>: <what> (batch index i)" if an item failed.
  void raise_if_failed(const std::string& name, bool batched) const;

 private:
  mutable std::mutex mu_;
  int64_t index_ = -1;
  std::string what_;
};

// dst (row-major rows x cols, contiguous) <- src (strides rs/cs).  The same memory read
// column-major is the transpose: LAPACK sees A^T without a transposing copy.
template <class T>
void load_rowmajor(T* dst, const T* src, int64_t rs, int64_t cs, int64_t rows, int64_t cols) {
  load_colmajor(dst, cols, src, cs, rs, cols, rows);
}

// Calls f(T{}) with the element type of a float/complex dtype (checked by check_float_dtype).
template <class F>
void visit_float(DType dt, F&& f) {
  switch (dt) {
    case DType::Float32: f(float{}); break;
    case DType::Float64: f(double{}); break;
    case DType::Complex64: f(c64{}); break;
    case DType::Complex128: f(c128{}); break;
    default: throw TypeError("linalg: unsupported dtype");
  }
}

template <class T> constexpr DType real_dtype_of = dtype_of<real_t<T>>;

// ---- workspaces ----
// std::vector over the engine's allocator, elements left uninitialized: LAPACK workspaces
// of big matrices (megabytes) then come from the allocator's cache of large blocks instead
// of fresh zeroed pages (page faults cost about a copy of the matrix per call).
template <class T>
struct ScratchAllocator {
  using value_type = T;
  ScratchAllocator() = default;
  template <class U>
  ScratchAllocator(const ScratchAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(allocate_bytes(std::max<size_t>(n, 1) * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { free_bytes(p, std::max<size_t>(n, 1) * sizeof(T)); }
  template <class U>
  void construct(U* p) noexcept {}  // no value-initialization
  template <class U, class... A>
  void construct(U* p, A&&... a) { ::new (static_cast<void*>(p)) U(std::forward<A>(a)...); }
  template <class U>
  bool operator==(const ScratchAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const ScratchAllocator<U>&) const { return false; }
};
template <class T>
using Scratch = std::vector<T, ScratchAllocator<T>>;

// ---- small helpers ----
template <class T>
bool all_finite(const T* a, int64_t ld, int64_t rows, int64_t cols) {
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) {
      const T v = a[i + j * ld];
      if constexpr (is_complex_v<T>) {
        if (!std::isfinite(v.real()) || !std::isfinite(v.imag())) return false;
      } else {
        if (!std::isfinite(v)) return false;
      }
    }
  return true;
}

// LAPACK workspace sizes come back as a floating value in work[0]; round up with a margin
// (single precision cannot represent every large integer exactly).
template <class T>
blas_int lwork_from(T w) {
  double v = static_cast<double>(std::real(w));
  v = v * (1.0 + 4.0 * std::numeric_limits<float>::epsilon()) + 1.0;
  return static_cast<blas_int>(std::min<double>(v, blas::kMaxBlasInt));
}

template <class T>
void fill(T* p, int64_t n, T v) {
  std::fill(p, p + n, v);
}

}  // namespace arraycore::native::linalg
