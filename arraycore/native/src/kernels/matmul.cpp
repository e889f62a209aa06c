// L0: matmul and vecdot.
//
// Note [Strided operands go to BLAS as they are]
// cblas ?gemm reads a row-major matrix either as it is (NoTrans: unit column stride, row
// stride = leading dimension) or as the transpose of one (Trans: unit row stride).  So a
// transposed view (x.mT) or a row-strided view (x[:, ::2] of a wider row, x[::2]) is passed
// with CblasTrans and/or its leading dimension and never copied; only an operand with neither
// inner stride 1 (or a negative/zero one) is copied to row-major first, once for all its batch
// items.  The result is always a fresh row-major array.
//
// Note [Batches]
// Batch dimensions broadcast as stride-0 dimensions.  When x2 is the same matrix for every
// batch item and x1's batch and row dimensions form one run of rows (a row-major stack), the
// whole batch is one gemm with m * batch rows.  Otherwise one gemm per item.  With several
// threads, the items are spread over the engine's pool with OpenBLAS single-threaded inside
// when they are small (m*n*k <= 64^3, where OpenBLAS runs single-threaded by itself) or at
// least as many as the threads.  A few large items run in order, each split into tiles.
//
// Note [The engine's pool, not OpenBLAS's, runs a large gemm]
// A single product above OpenBLAS's single-thread cut is split into row (or column) tiles of
// the result, claimed dynamically by the engine's pool, each a single-threaded gemm.  OpenBLAS's
// own threads wait for each other at every step; when another process holds a core, a product
// that takes 130 us on one thread took 24 ms on two (measured on a 2-core VM; NumPy's OpenBLAS
// does the same).  The pool's callers take tiles themselves, so a late worker costs nothing.
//
// Integer dtypes use a native i-k-j loop: a block of the output row is accumulated in a
// small buffer while rows of x2 stream through it (unit stride, vectorized), in unsigned
// arithmetic of at least 32 bits so that overflow wraps as in NumPy (no C++ UB).
#include "matmul.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "../blas.h"
#include "../errors.h"
#include "../thread_pool.h"

namespace arraycore::native {
namespace {

using blas::kMaxBlasInt;

std::string shape_str(const Shape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

template <class T>
constexpr bool is_blas_type_v = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                std::is_same_v<T, c64> || std::is_same_v<T, c128>;

// Accumulator: integers wrap in unsigned arithmetic of >= 32 bits; floats accumulate in T.
template <class T, class = void> struct Acc { using type = T; };
template <class T>
struct Acc<T, std::enable_if_t<std::is_integral_v<T>>> {
  using type = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
};
template <class T> using acc_t = typename Acc<T>::type;

// A product with one column (n = 1) or one row (m = 1) is a matrix-vector product: gemv reads
// the matrix once at memory speed, where gemm with a dimension of 1 took 5x NumPy's time
// (1000x1000 float32 times a vector: 155 us).  Returns false for other shapes.
template <class T, class Gemv>
bool gemv_instead(Gemv gemv, blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n,
                  int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T* c,
                  int64_t ldc) {
  using blas::NoTrans, blas::Trans;
  if (n == 1) {  // c (m x 1) = op(A) b; b's element j at b[j * ldb] (NoTrans) or b[j] (Trans)
    const int64_t incb = tb == NoTrans ? ldb : 1;
    if (ta == NoTrans) gemv(blas::RowMajor, NoTrans, m, k, T(1), a, lda, b, incb, T(0), c, ldc);
    else gemv(blas::RowMajor, Trans, k, m, T(1), a, lda, b, incb, T(0), c, ldc);
    return true;
  }
  if (m == 1) {  // c (1 x n) = a op(B), as c^T = op(B)^T a^T
    const int64_t inca = ta == NoTrans ? 1 : lda;
    if (tb == NoTrans) gemv(blas::RowMajor, Trans, k, n, T(1), b, ldb, a, inca, T(0), c, 1);
    else gemv(blas::RowMajor, NoTrans, n, k, T(1), b, ldb, a, inca, T(0), c, 1);
    return true;
  }
  return false;
}

void gemm(blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n, int64_t k,
          const float* a, int64_t lda, const float* b, int64_t ldb, float* c, int64_t ldc) {
  if (gemv_instead(blas::scipy_cblas_sgemv, ta, tb, m, n, k, a, lda, b, ldb, c, ldc)) return;
  blas::scipy_cblas_sgemm(blas::RowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
}
void gemm(blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n, int64_t k,
          const double* a, int64_t lda, const double* b, int64_t ldb, double* c, int64_t ldc) {
  if (gemv_instead(blas::scipy_cblas_dgemv, ta, tb, m, n, k, a, lda, b, ldb, c, ldc)) return;
  blas::scipy_cblas_dgemm(blas::RowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}
void gemm(blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n, int64_t k,
          const c64* a, int64_t lda, const c64* b, int64_t ldb, c64* c, int64_t ldc) {
  const c64 one(1), zero(0);
  blas::scipy_cblas_cgemm(blas::RowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
}
void gemm(blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n, int64_t k,
          const c128* a, int64_t lda, const c128* b, int64_t ldb, c128* c, int64_t ldc) {
  const c128 one(1), zero(0);
  blas::scipy_cblas_zgemm(blas::RowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
}

// How BLAS can read a rows x cols matrix with element strides (s0, s1); false if it cannot.
// The stride of a dimension of size 1 is never used, so it is chosen freely.
bool blas_layout(int64_t rows, int64_t cols, int64_t s0, int64_t s1, blas::Transpose* t,
                 int64_t* ld) {
  if (s1 == 1 || cols <= 1) {
    int64_t l = rows <= 1 ? std::max<int64_t>(cols, 1) : s0;
    if (l >= std::max<int64_t>(cols, 1) && l <= kMaxBlasInt) {
      *t = blas::NoTrans;
      *ld = l;
      return true;
    }
  }
  if (s0 == 1 || rows <= 1) {
    int64_t l = cols <= 1 ? std::max<int64_t>(rows, 1) : s1;
    if (l >= std::max<int64_t>(rows, 1) && l <= kMaxBlasInt) {
      *t = blas::Trans;
      *ld = l;
      return true;
    }
  }
  return false;
}

// One operand seen as a stack of matrices: the (possibly copied) array, its matrix strides
// in elements, and its batch strides in bytes aligned to the broadcast batch shape.
struct MatOperand {
  NdArray arr;
  int64_t s0 = 0, s1 = 0;
  Shape batch_strides;  // bytes, one per broadcast batch dimension (0 where broadcast)
};

// Lays out x (1-D: a row vector if as_row, else a column vector) as rows x cols matrices.
void matrix_strides(const NdArray& x, bool as_row, MatOperand* op) {
  int nd = x.ndim();
  if (nd == 1) {
    op->s0 = as_row ? 0 : x.strides[0];
    op->s1 = as_row ? x.strides[0] : 0;
  } else {
    op->s0 = x.strides[nd - 2];
    op->s1 = x.strides[nd - 1];
  }
}

void fill_batch_strides(const NdArray& x, const Shape& batch, MatOperand* op) {
  int xb = std::max(0, x.ndim() - 2);
  int nb = static_cast<int>(batch.size());
  op->batch_strides.assign(static_cast<size_t>(nb), int64_t{0});
  for (int i = 0; i < xb; ++i) {
    int d = nb - xb + i;
    if (x.shape[i] != 1)
      op->batch_strides[d] = x.strides[i] * static_cast<int64_t>(x.itemsize());
  }
}

// Byte offsets of batch item `i` in a and b.
inline void batch_offsets(int64_t i, const Shape& batch, const Shape& sa, const Shape& sb,
                          int64_t* oa, int64_t* ob) {
  int64_t a = 0, b = 0;
  for (int d = static_cast<int>(batch.size()) - 1; d >= 0 && i > 0; --d) {
    int64_t n = batch[d];
    int64_t idx = i % n;
    i /= n;
    a += idx * sa[d];
    b += idx * sb[d];
  }
  *oa = a;
  *ob = b;
}

// C (m x n, row stride ldc) = A (m x k, strides sa0/sa1) @ B (k x n, strides sb0/sb1), in
// elements; see the file comment for the accumulation.
template <class T>
void native_matmul(const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t sb0,
                   int64_t sb1, T* c, int64_t ldc, int64_t m, int64_t n, int64_t k) {
  using A = acc_t<T>;
  constexpr int64_t kColBlock = 256;
  A acc[kColBlock];
  for (int64_t jb = 0; jb < n; jb += kColBlock) {
    const int64_t jw = std::min(kColBlock, n - jb);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < jw; ++j) acc[j] = A(0);
      const T* ai = a + i * sa0;
      for (int64_t p = 0; p < k; ++p) {
        const A av = static_cast<A>(ai[p * sa1]);
        const T* bp = b + p * sb0 + jb * sb1;
        if (sb1 == 1) {
          for (int64_t j = 0; j < jw; ++j) acc[j] += av * static_cast<A>(bp[j]);
        } else {
          for (int64_t j = 0; j < jw; ++j) acc[j] += av * static_cast<A>(bp[j * sb1]);
        }
      }
      T* ci = c + i * ldc + jb;
      for (int64_t j = 0; j < jw; ++j) ci[j] = static_cast<T>(acc[j]);
    }
  }
}

constexpr int64_t kSmallProduct = 64 * 64 * 64;  // OpenBLAS's own single-thread cut

std::mutex g_blas_threads_mu;
std::atomic<int> g_blas_threads{0};  // what OpenBLAS was last told outside guarded regions

// Runs OpenBLAS with one thread for the guard's lifetime (items of a batch spread over the
// engine's pool), then restores the pool's count.  OpenBLAS has no per-caller setting in a
// pthreads build; a concurrent product elsewhere meanwhile runs single-threaded (slower, not
// wrong), and concurrent guards are serialized.
class BlasSingleThreaded {
 public:
  explicit BlasSingleThreaded(bool active) : active_(active) {
    if (!active_) return;
    g_blas_threads_mu.lock();
    blas::scipy_openblas_set_num_threads(1);
  }
  ~BlasSingleThreaded() {
    if (!active_) return;
    int want = num_threads();
    blas::scipy_openblas_set_num_threads(want);
    g_blas_threads.store(want);
    g_blas_threads_mu.unlock();
  }
  BlasSingleThreaded(const BlasSingleThreaded&) = delete;
  BlasSingleThreaded& operator=(const BlasSingleThreaded&) = delete;

 private:
  bool active_;
};

// C (m x n, row-major, ldc) = op(A) op(B) over the engine's pool in tiles of rows (or, for a
// short wide result, columns), each a single-threaded gemm (Note [The engine's pool, not
// OpenBLAS's, runs a large gemm]).  Row r of op(A) starts at a + r*lda (NoTrans) or a + r
// (Trans: A is stored k x m); column c of op(B) at b + c (NoTrans) or b + c*ldb (Trans).
template <class T>
void pool_gemm(blas::Transpose ta, blas::Transpose tb, int64_t m, int64_t n, int64_t k,
               const T* a, int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc) {
  constexpr int64_t kMinTile = 32;
  const int threads = num_threads();
  const bool by_rows = m >= n;
  const int64_t extent = by_rows ? m : n;
  if (threads <= 1 || m * n * k <= kSmallProduct || extent < 2 * kMinTile) {
    BlasSingleThreaded guard(threads > 1);
    gemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
    return;
  }
  // About four tiles per thread for balance, none thinner than kMinTile.
  const int64_t tile = std::max<int64_t>(kMinTile, (extent + 4 * threads - 1) / (4 * threads));
  const int64_t ntiles = (extent + tile - 1) / tile;
  BlasSingleThreaded guard(true);
  parallel_for(ntiles, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t lo = t * tile, len = std::min(tile, extent - lo);
      if (by_rows) {
        const T* at = ta == blas::NoTrans ? a + lo * lda : a + lo;
        gemm(ta, tb, len, n, k, at, lda, b, ldb, c + lo * ldc, ldc);
      } else {
        const T* bt = tb == blas::NoTrans ? b + lo : b + lo * ldb;
        gemm(ta, tb, m, len, k, a, lda, bt, ldb, c + lo, ldc);
      }
    }
  });
}

// Whether x2 is one matrix for every batch item and x1's items are a row-major stack whose
// rows span `item_bytes` each: then the batch is one gemm of batch*m rows (Note [Batches]).
bool batch_folds_into_rows(const MatOperand& A, const MatOperand& B, const Shape& batch,
                           int64_t item_bytes) {
  int64_t run = item_bytes;
  for (int d = static_cast<int>(batch.size()) - 1; d >= 0; --d) {
    if (B.batch_strides[d] != 0) return false;
    if (batch[d] == 1) continue;
    if (A.batch_strides[d] != run) return false;
    run *= batch[d];
  }
  return true;
}

// Makes x2's rows unit-stride (one row-major copy, for all its batch items) for the native
// loops, which stream them; a single column needs nothing.
void unit_stride_rows(MatOperand& B, const Shape& batch, int64_t n) {
  if (B.s1 == 1 || n <= 1) return;
  B.arr = contiguous(B.arr);
  matrix_strides(B.arr, false, &B);
  fill_batch_strides(B.arr, batch, &B);
}

template <class T>
void run_blas(MatOperand& A, MatOperand& B, const Shape& batch, int64_t nbatch, T* out,
              int64_t m, int64_t n, int64_t k) {
  blas::Transpose ta, tb;
  int64_t lda, ldb;
  // Copy an operand BLAS cannot read as it is (once, for all its batch items).
  if (!blas_layout(m, k, A.s0, A.s1, &ta, &lda)) {
    A.arr = contiguous(A.arr);
    bool row = A.arr.ndim() == 1;
    matrix_strides(A.arr, row, &A);
    fill_batch_strides(A.arr, batch, &A);
    blas_layout(m, k, A.s0, A.s1, &ta, &lda);
  }
  if (!blas_layout(k, n, B.s0, B.s1, &tb, &ldb)) {
    B.arr = contiguous(B.arr);
    matrix_strides(B.arr, false, &B);
    fill_batch_strides(B.arr, batch, &B);
    blas_layout(k, n, B.s0, B.s1, &tb, &ldb);
  }
  const T* pa = reinterpret_cast<const T*>(A.arr.data());
  const T* pb = reinterpret_cast<const T*>(B.arr.data());
  const int64_t ldc = std::max<int64_t>(n, 1);
  const int64_t item = m * n;

  // Fold the batch into the rows when x2 is shared and x1 is a row-major stack (Note [Batches]).
  if (nbatch > 1 && ta == blas::NoTrans && m * nbatch <= kMaxBlasInt &&
      batch_folds_into_rows(A, B, batch, lda * m * static_cast<int64_t>(sizeof(T)))) {
    pool_gemm(ta, tb, m * nbatch, n, k, pa, lda, pb, ldb, out, ldc);
    return;
  }
  auto one = [&](int64_t i, auto&& product) {
    int64_t oa, ob;
    batch_offsets(i, batch, A.batch_strides, B.batch_strides, &oa, &ob);
    product(ta, tb, m, n, k, reinterpret_cast<const T*>(reinterpret_cast<const char*>(pa) + oa),
         lda, reinterpret_cast<const T*>(reinterpret_cast<const char*>(pb) + ob), ldb,
         out + i * item, ldc);
  };
  const int64_t mnk = m * n * k;
  const int threads = num_threads();
  const bool small = mnk <= kSmallProduct;
  auto gemm_fn = [](auto... args) { gemm(args...); };
  auto pool_gemm_fn = [](auto... args) { pool_gemm<T>(args...); };
  if (nbatch > 1 && threads > 1 && (small || nbatch >= threads)) {
    // Over the batch on the engine's pool, OpenBLAS single-threaded inside (Note [Batches]).
    BlasSingleThreaded guard(!small);
    int64_t grain = std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(mnk, 1));
    parallel_for(nbatch, grain, [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1; ++i) one(i, gemm_fn);
    });
  } else {
    for (int64_t i = 0; i < nbatch; ++i) one(i, pool_gemm_fn);
  }
}

// Note [Batches of tiny products]
// A gemm call costs ~70 ns before any arithmetic, so a batch of tiny products (4096 4x4
// float32: 0.29 ms, NumPy 0.23) spends its time in the calls.  Products with m, n <= 8 and
// k <= 16 run here instead, one item at a time in registers: the n accumulators of a row
// are a fixed-size array (n a template parameter, so GCC keeps them in one vector), rows of
// x2 stream through them.  Accumulation in T, in order of k, as BLAS's kernels do.
constexpr int64_t kTinyMN = 8, kTinyK = 16;

template <class T, int N>
void tiny_product(const T* a, int64_t sa0, int64_t sa1, const T* b, int64_t sb0, T* c,
                  int64_t m, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    T acc[N] = {};
    const T* ai = a + i * sa0;
    for (int64_t p = 0; p < k; ++p) {
      const T av = ai[p * sa1];
      const T* bp = b + p * sb0;
      for (int j = 0; j < N; ++j) acc[j] += av * bp[j];
    }
    for (int j = 0; j < N; ++j) c[i * N + j] = acc[j];
  }
}

template <class T>
void run_tiny(MatOperand& A, MatOperand& B, const Shape& batch, int64_t nbatch, T* out,
              int64_t m, int64_t n, int64_t k) {
  unit_stride_rows(B, batch, n);
  const char* pa = reinterpret_cast<const char*>(A.arr.data());
  const char* pb = reinterpret_cast<const char*>(B.arr.data());
  const int64_t item = m * n;
  auto items = [&](auto width) {
    constexpr int N = decltype(width)::value;
    const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / (m * N * k));
    parallel_for(nbatch, grain, [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1; ++i) {
        int64_t oa, ob;
        batch_offsets(i, batch, A.batch_strides, B.batch_strides, &oa, &ob);
        tiny_product<T, N>(reinterpret_cast<const T*>(pa + oa), A.s0, A.s1,
                           reinterpret_cast<const T*>(pb + ob), B.s0, out + i * item, m, k);
      }
    });
  };
  switch (n) {
    case 1: items(std::integral_constant<int, 1>{}); break;
    case 2: items(std::integral_constant<int, 2>{}); break;
    case 3: items(std::integral_constant<int, 3>{}); break;
    case 4: items(std::integral_constant<int, 4>{}); break;
    case 5: items(std::integral_constant<int, 5>{}); break;
    case 6: items(std::integral_constant<int, 6>{}); break;
    case 7: items(std::integral_constant<int, 7>{}); break;
    default: items(std::integral_constant<int, 8>{}); break;
  }
}

template <class T>
void run_native(MatOperand& A, MatOperand& B, const Shape& batch, int64_t nbatch, T* out,
                int64_t m, int64_t n, int64_t k) {
  unit_stride_rows(B, batch, n);  // for the vectorized inner loop
  const T* pa = reinterpret_cast<const T*>(A.arr.data());
  const T* pb = reinterpret_cast<const T*>(B.arr.data());
  const int64_t item = m * n;
  constexpr int64_t kRowBlock = 16;
  const int64_t row_blocks = (m + kRowBlock - 1) / kRowBlock;
  const int64_t tasks = nbatch * row_blocks;
  const int64_t task_cost = std::max<int64_t>(1, std::min(m, kRowBlock) * n * k);
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 15) / task_cost);
  parallel_for(tasks, grain, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      int64_t i = t / row_blocks, r0 = (t % row_blocks) * kRowBlock;
      int64_t rows = std::min(kRowBlock, m - r0);
      int64_t oa, ob;
      batch_offsets(i, batch, A.batch_strides, B.batch_strides, &oa, &ob);
      const T* a = reinterpret_cast<const T*>(reinterpret_cast<const char*>(pa) + oa) + r0 * A.s0;
      const T* b = reinterpret_cast<const T*>(reinterpret_cast<const char*>(pb) + ob);
      native_matmul<T>(a, A.s0, A.s1, b, B.s0, B.s1, out + i * item + r0 * n, n, rows, n, k);
    }
  });
}

}  // namespace

void sync_blas_threads() {
  int want = num_threads();
  if (g_blas_threads.load(std::memory_order_relaxed) == want) return;
  std::lock_guard<std::mutex> lock(g_blas_threads_mu);
  if (g_blas_threads.load() == want) return;
  blas::scipy_openblas_set_num_threads(want);
  g_blas_threads.store(want);
}

NdArray matmul(const NdArray& a, const NdArray& b) {
  if (a.dtype != b.dtype)
    throw TypeError(std::string("matmul: operands must have one dtype, got ") +
                    dtype_name(a.dtype) + " and " + dtype_name(b.dtype));
  if (a.dtype == DType::Bool)
    throw TypeError("matmul: expected input of numeric dtype, got bool");
  if (a.ndim() == 0 || b.ndim() == 0)
    throw ValueError("matmul: operands must have at least one dimension, got shapes " +
                     shape_str(a.shape) + " and " + shape_str(b.shape));
  const bool a1 = a.ndim() == 1, b1 = b.ndim() == 1;
  const int64_t m = a1 ? 1 : a.shape[a.ndim() - 2];
  const int64_t k = a.shape[a.ndim() - 1];
  const int64_t kb = b1 ? b.shape[0] : b.shape[b.ndim() - 2];
  const int64_t n = b1 ? 1 : b.shape[b.ndim() - 1];
  if (k != kb)
    throw ValueError("matmul: shapes " + shape_str(a.shape) + " and " + shape_str(b.shape) +
                     " are not aligned: " + std::to_string(k) + " (last axis of x1) != " +
                     std::to_string(kb) + " (" + (b1 ? "only" : "second-to-last") +
                     " axis of x2)");
  Shape ba(a.shape.begin(), a.shape.end() - (a1 ? 1 : 2));
  Shape bb(b.shape.begin(), b.shape.end() - (b1 ? 1 : 2));
  Shape batch = broadcast_shapes({ba, bb}, "matmul");
  Shape out_shape = batch;
  if (!a1) out_shape.push_back(m);
  if (!b1) out_shape.push_back(n);
  NdArray out = empty(out_shape, a.dtype);
  const int64_t total = out.numel();
  if (total == 0) return out;
  if (k == 0) {
    std::memset(out.data(), 0, static_cast<size_t>(total) * out.itemsize());
    return out;
  }
  const int64_t nbatch = total / (m * n);

  MatOperand A, B;
  A.arr = a;
  B.arr = b;
  matrix_strides(a, true, &A);
  matrix_strides(b, false, &B);
  fill_batch_strides(a, batch, &A);
  fill_batch_strides(b, batch, &B);
  const bool fits_blas = m <= kMaxBlasInt && n <= kMaxBlasInt && k <= kMaxBlasInt;
  visit_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      T* po = reinterpret_cast<T*>(out.data());
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        blas::Transpose ta;
        int64_t lda;
        const bool one_gemm =  // run_blas's fold, faster still (4096 4x4 f32: 0.024 ms)
            blas_layout(m, k, A.s0, A.s1, &ta, &lda) && ta == blas::NoTrans &&
            batch_folds_into_rows(A, B, batch, lda * m * static_cast<int64_t>(sizeof(T)));
        if (nbatch > 1 && m <= kTinyMN && n <= kTinyMN && k <= kTinyK && !one_gemm) {
          run_tiny<T>(A, B, batch, nbatch, po, m, n, k);  // Note [Batches of tiny products]
          return;
        }
      }
      if constexpr (is_blas_type_v<T>) {
        if (fits_blas) {
          sync_blas_threads();
          run_blas<T>(A, B, batch, nbatch, po, m, n, k);
          return;
        }
      }
      run_native<T>(A, B, batch, nbatch, po, m, n, k);
    }
  });
  return out;
}

namespace {

template <class T>
void vecdot_loop(const char* pa, const char* pb, const Shape& batch, const Shape& sa,
                 const Shape& sb, int64_t ea, int64_t eb, int64_t len, T* out, int64_t nbatch) {
  using A = acc_t<T>;
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(len, 1));
  parallel_for(nbatch, grain, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      int64_t oa, ob;
      batch_offsets(i, batch, sa, sb, &oa, &ob);
      const T* x = reinterpret_cast<const T*>(pa + oa);
      const T* y = reinterpret_cast<const T*>(pb + ob);
      if constexpr (is_complex_v<T>) {
        // conj(x) * y, accumulated in real arithmetic.
        using R = real_t<T>;
        R re = 0, im = 0;
        for (int64_t j = 0; j < len; ++j) {
          const T u = x[j * ea], v = y[j * eb];
          re += u.real() * v.real() + u.imag() * v.imag();
          im += u.real() * v.imag() - u.imag() * v.real();
        }
        out[i] = T(re, im);
      } else if constexpr (std::is_floating_point_v<T>) {
        // 32 partial sums: they vectorize as several independent vector accumulators, which
        // hides the FMA latency (8 sums were one vector, one dependent FMA chain: 2x NumPy's
        // time on rows of 1000 floats), and are more accurate than one running sum.
        constexpr int P = 32;
        T s[P] = {};
        int64_t j = 0;
        if (ea == 1 && eb == 1) {
          for (; j + P <= len; j += P)
            for (int u = 0; u < P; ++u) s[u] += x[j + u] * y[j + u];
        }
        for (; j < len; ++j) s[0] += x[j * ea] * y[j * eb];
        for (int w = P / 2; w >= 1; w /= 2)
          for (int u = 0; u < w; ++u) s[u] += s[u + w];
        out[i] = s[0];
      } else {
        A s = 0;
        for (int64_t j = 0; j < len; ++j) s += static_cast<A>(x[j * ea]) * static_cast<A>(y[j * eb]);
        out[i] = static_cast<T>(s);
      }
    }
  });
}

}  // namespace

NdArray vecdot_last(const NdArray& a, const NdArray& b) {
  if (a.dtype != b.dtype)
    throw TypeError(std::string("vecdot: operands must have one dtype, got ") +
                    dtype_name(a.dtype) + " and " + dtype_name(b.dtype));
  if (a.dtype == DType::Bool)
    throw TypeError("vecdot: expected input of numeric dtype, got bool");
  if (a.ndim() == 0 || b.ndim() == 0)
    throw ValueError("vecdot: operands must have at least one dimension");
  const int64_t len = a.shape[a.ndim() - 1];
  if (b.shape[b.ndim() - 1] != len)
    throw ValueError("vecdot: the contracted axes differ in size: " + std::to_string(len) +
                     " and " + std::to_string(b.shape[b.ndim() - 1]) + " (shapes " +
                     shape_str(a.shape) + " and " + shape_str(b.shape) + ")");
  Shape ba(a.shape.begin(), a.shape.end() - 1), bb(b.shape.begin(), b.shape.end() - 1);
  Shape batch = broadcast_shapes({ba, bb}, "vecdot");
  NdArray out = empty(batch, a.dtype);
  const int64_t nbatch = out.numel();
  if (nbatch == 0) return out;
  auto strides_of = [&](const NdArray& x) {
    int xb = x.ndim() - 1, nb = static_cast<int>(batch.size());
    Shape s(static_cast<size_t>(nb), int64_t{0});
    for (int i = 0; i < xb; ++i)
      if (x.shape[i] != 1) s[nb - xb + i] = x.strides[i] * static_cast<int64_t>(x.itemsize());
    return s;
  };
  Shape sa = strides_of(a), sb = strides_of(b);
  visit_dtype(a.dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      vecdot_loop<T>(a.data(), b.data(), batch, sa, sb, a.strides[a.ndim() - 1],
                     b.strides[b.ndim() - 1], len, reinterpret_cast<T*>(out.data()), nbatch);
    }
  });
  return out;
}

}  // namespace arraycore::native
