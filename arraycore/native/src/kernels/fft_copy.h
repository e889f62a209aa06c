// FFT: copies between the user's arrays (interleaved complex or real, any strides) and the
// executor's split, batch-interleaved layout ([t * pitch + b]).
//
// Two shapes of access matter.  Lines that are neighbours in memory (a column batch: line b
// starts one element after line b-1) copy row by row, contiguous on both sides, and the
// compiler vectorizes the loop.  Lines that are contiguous but far apart (rows of a matrix)
// need a transpose: done in L x L blocks in registers (L lines x L elements, log2(L) rounds of
// interleaving shuffles).  Anything else copies element by element in tiles of kTile per
// line, so that the lines read and the rows written stay in L1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "fft_simd.h"

namespace arraycore::native::fft {

constexpr int64_t kTile = 16;

// Width of the copy kernels: 32-byte vectors (any x86-64 with AVX, and correct everywhere).
template <class T>
constexpr int kCopyLanes = int(32 / sizeof(T));

namespace detail {

template <class V, size_t... I>
inline V interleave_lo(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, ((I % 2) ? sizeof...(I) + I / 2 : I / 2)...);
}
template <class V, size_t... I>
inline V interleave_hi(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(
      a, b, ((I % 2) ? sizeof...(I) + sizeof...(I) / 2 + I / 2 : sizeof...(I) / 2 + I / 2)...);
}
template <class V, size_t... I>
inline V even_lanes(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, (2 * I)...);
}
template <class V, size_t... I>
inline V odd_lanes(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, (2 * I + 1)...);
}

// In-place transpose of L rows of L lanes: each round interleaves rows i and i + L/2 (the
// row and column bit strings rotate by one bit per round; after log2(L) they have swapped).
template <class T, int L>
inline void transpose(Vec<T, L>* r) {
  using V = Vec<T, L>;
  constexpr auto seq = std::make_index_sequence<L>{};
  for (int round = 1; round < L; round *= 2) {
    V out[L];
    for (int i = 0; i < L / 2; ++i) {
      out[2 * i] = interleave_lo<V>(r[i], r[i + L / 2], seq);
      out[2 * i + 1] = interleave_hi<V>(r[i], r[i + L / 2], seq);
    }
    for (int i = 0; i < L; ++i) r[i] = out[i];
  }
}

// One L x L block of pairs: line i (i < L) holds L interleaved pairs from src[i]; the first
// members go to L rows of `a`, the second to L rows of `b` (row pitch `pitch`, starting at the
// block's row and column): a deinterleave and a transpose in registers.
template <class T>
inline void pairs_to_rows(const T* const* src, T* a, T* b, int64_t pitch) {
  constexpr int L = kCopyLanes<T>;
  using V = Vec<T, L>;
  constexpr auto seq = std::make_index_sequence<L>{};
  V re[L], im[L];
  for (int i = 0; i < L; ++i) {
    const V v0 = vload<V>(src[i]), v1 = vload<V>(src[i] + L);
    re[i] = even_lanes<V>(v0, v1, seq);
    im[i] = odd_lanes<V>(v0, v1, seq);
  }
  transpose<T, L>(re);
  transpose<T, L>(im);
  for (int i = 0; i < L; ++i) {
    vstore(a + i * pitch, re[i]);
    vstore(b + i * pitch, im[i]);
  }
}

// The inverse of pairs_to_rows, times scale.
template <class T>
inline void rows_to_pairs(const T* a, const T* b, int64_t pitch, T scale, T* const* dst) {
  constexpr int L = kCopyLanes<T>;
  using V = Vec<T, L>;
  constexpr auto seq = std::make_index_sequence<L>{};
  V re[L], im[L];
  for (int i = 0; i < L; ++i) {
    re[i] = vload<V>(a + i * pitch) * scale;
    im[i] = vload<V>(b + i * pitch) * scale;
  }
  transpose<T, L>(re);
  transpose<T, L>(im);
  for (int i = 0; i < L; ++i) {
    vstore(dst[i], interleave_lo<V>(re[i], im[i], seq));
    vstore(dst[i] + L, interleave_hi<V>(re[i], im[i], seq));
  }
}

}  // namespace detail

// Rows ahead that the unit-batch (column) copies prefetch.  A column batch reads a short run
// (B elements) from each of n rows a whole row pitch apart: too short a run and too long a
// stride for the hardware prefetchers, so without this the copy waits on every row's load
// (measured: ~80% of gather_complex's time on the first load of each row, 2048 x 1025
// complex64 along axis 0; 8-16 rows ahead: 26 -> 20 ms).
constexpr int64_t kRowPrefetch = 12;

// Prefetches `bytes` bytes (at most a few lines) from p, for reading or for writing.
template <int Write>
inline void prefetch_run(const void* p, int64_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (int64_t o = 0; o < bytes + 63; o += 64) __builtin_prefetch(c + o, Write, 3);
}

// True when offs[b] == offs[0] + b for the `count` lines (unit batch step).
inline bool unit_batch(const int64_t* offs, int64_t count) {
  for (int64_t b = 1; b < count; ++b)
    if (offs[b] != offs[0] + b) return false;
  return true;
}

// `count` complex lines (interleaved re, im; offsets and stride in complex elements) ->
// split rows of `pitch` (columns >= count untouched).
template <class T>
void gather_complex(const T* base, const int64_t* offs, int64_t count, int64_t pitch, int64_t n,
                    int64_t stride, T* br, T* bi) {
  if (count <= 0) return;
  if (unit_batch(offs, count)) {
    for (int64_t t = 0; t < n; ++t) {
      const T* p = base + 2 * (offs[0] + t * stride);
      if (t + kRowPrefetch < n) prefetch_run<0>(p + 2 * kRowPrefetch * stride, 2 * count * sizeof(T));
      T* r = br + t * pitch;
      T* i = bi + t * pitch;
      for (int64_t b = 0; b < count; ++b) { r[b] = p[2 * b]; i[b] = p[2 * b + 1]; }
    }
    return;
  }
  constexpr int L = kCopyLanes<T>;
  int64_t b_done = 0;
  if (stride == 1) {  // rows: L x L register transposes
    const int64_t nv = n - n % L;
    for (; b_done + L <= count; b_done += L) {
      for (int64_t t0 = 0; t0 < nv; t0 += L) {
        const T* src[L];
        for (int i = 0; i < L; ++i) src[i] = base + 2 * (offs[b_done + i] + t0);
        detail::pairs_to_rows(src, br + t0 * pitch + b_done, bi + t0 * pitch + b_done, pitch);
      }
      for (int64_t t = nv; t < n; ++t)
        for (int i = 0; i < L; ++i) {
          const T* p = base + 2 * (offs[b_done + i] + t);
          br[t * pitch + b_done + i] = p[0];
          bi[t * pitch + b_done + i] = p[1];
        }
    }
  }
  for (int64_t t0 = 0; t0 < n; t0 += kTile) {
    const int64_t t1 = std::min(n, t0 + kTile);
    for (int64_t b = b_done; b < count; ++b) {
      const T* p = base + 2 * offs[b];
      for (int64_t t = t0; t < t1; ++t) {
        br[t * pitch + b] = p[2 * t * stride];
        bi[t * pitch + b] = p[2 * t * stride + 1];
      }
    }
  }
}

// Split rows of `pitch` -> `count` complex lines, times scale.
template <class T>
void scatter_complex(T* base, const int64_t* offs, int64_t count, int64_t pitch, int64_t n,
                     int64_t stride, const T* br, const T* bi, T scale) {
  if (count <= 0) return;
  if (unit_batch(offs, count)) {
    for (int64_t t = 0; t < n; ++t) {
      T* p = base + 2 * (offs[0] + t * stride);
      if (t + kRowPrefetch < n) prefetch_run<1>(p + 2 * kRowPrefetch * stride, 2 * count * sizeof(T));
      const T* r = br + t * pitch;
      const T* i = bi + t * pitch;
      if (scale == T(1)) {
        for (int64_t b = 0; b < count; ++b) { p[2 * b] = r[b]; p[2 * b + 1] = i[b]; }
      } else {
        for (int64_t b = 0; b < count; ++b) { p[2 * b] = r[b] * scale; p[2 * b + 1] = i[b] * scale; }
      }
    }
    return;
  }
  constexpr int L = kCopyLanes<T>;
  int64_t b_done = 0;
  if (stride == 1) {
    const int64_t nv = n - n % L;
    for (; b_done + L <= count; b_done += L) {
      for (int64_t t0 = 0; t0 < nv; t0 += L) {
        T* dst[L];
        for (int i = 0; i < L; ++i) dst[i] = base + 2 * (offs[b_done + i] + t0);
        detail::rows_to_pairs(br + t0 * pitch + b_done, bi + t0 * pitch + b_done, pitch, scale,
                              dst);
      }
      for (int64_t t = nv; t < n; ++t)
        for (int i = 0; i < L; ++i) {
          T* p = base + 2 * (offs[b_done + i] + t);
          p[0] = br[t * pitch + b_done + i] * scale;
          p[1] = bi[t * pitch + b_done + i] * scale;
        }
    }
  }
  for (int64_t t0 = 0; t0 < n; t0 += kTile) {
    const int64_t t1 = std::min(n, t0 + kTile);
    for (int64_t b = b_done; b < count; ++b) {
      T* p = base + 2 * offs[b];
      for (int64_t t = t0; t < t1; ++t) {
        p[2 * t * stride] = br[t * pitch + b] * scale;
        p[2 * t * stride + 1] = bi[t * pitch + b] * scale;
      }
    }
  }
}

// `count` real lines -> one split array of rows of `pitch` (columns count..pitch zeroed).
template <class T>
void gather_real(const T* base, const int64_t* offs, int64_t count, int64_t pitch, int64_t n,
                 int64_t stride, T* dst) {
  if (count <= 0) {
    for (int64_t t = 0; t < n; ++t) std::fill(dst + t * pitch, dst + (t + 1) * pitch, T(0));
    return;
  }
  if (count == pitch && unit_batch(offs, count)) {
    for (int64_t t = 0; t < n; ++t) {
      const T* p = base + offs[0] + t * stride;
      if (t + kRowPrefetch < n) prefetch_run<0>(p + kRowPrefetch * stride, count * sizeof(T));
      T* d = dst + t * pitch;
      for (int64_t b = 0; b < count; ++b) d[b] = p[b];
    }
    return;
  }
  constexpr int L = kCopyLanes<T>;
  using V = Vec<T, L>;
  int64_t b_done = 0;
  if (stride == 1 && !unit_batch(offs, count)) {
    const int64_t nv = n - n % L;
    for (; b_done + L <= count; b_done += L) {
      for (int64_t t0 = 0; t0 < nv; t0 += L) {
        V v[L];
        for (int i = 0; i < L; ++i) v[i] = vload<V>(base + offs[b_done + i] + t0);
        detail::transpose<T, L>(v);
        for (int i = 0; i < L; ++i) vstore(dst + (t0 + i) * pitch + b_done, v[i]);
      }
      for (int64_t t = nv; t < n; ++t)
        for (int i = 0; i < L; ++i) dst[t * pitch + b_done + i] = base[offs[b_done + i] + t];
    }
  }
  for (int64_t t0 = 0; t0 < n; t0 += kTile) {
    const int64_t t1 = std::min(n, t0 + kTile);
    for (int64_t b = b_done; b < count; ++b) {
      const T* p = base + offs[b];
      for (int64_t t = t0; t < t1; ++t) dst[t * pitch + b] = p[t * stride];
    }
    for (int64_t b = std::max(count, b_done); b < pitch; ++b)
      for (int64_t t = t0; t < t1; ++t) dst[t * pitch + b] = T(0);
  }
}

// One split array (rows of `pitch`) -> `count` real lines, times scale.
template <class T>
void scatter_real(T* base, const int64_t* offs, int64_t count, int64_t pitch, int64_t n,
                  int64_t stride, const T* src, T scale) {
  if (count <= 0) return;
  if (unit_batch(offs, count)) {
    for (int64_t t = 0; t < n; ++t) {
      T* p = base + offs[0] + t * stride;
      if (t + kRowPrefetch < n) prefetch_run<1>(p + kRowPrefetch * stride, count * sizeof(T));
      const T* s = src + t * pitch;
      for (int64_t b = 0; b < count; ++b) p[b] = s[b] * scale;
    }
    return;
  }
  constexpr int L = kCopyLanes<T>;
  using V = Vec<T, L>;
  int64_t b_done = 0;
  if (stride == 1) {
    const int64_t nv = n - n % L;
    for (; b_done + L <= count; b_done += L) {
      for (int64_t t0 = 0; t0 < nv; t0 += L) {
        V v[L];
        for (int i = 0; i < L; ++i) v[i] = vload<V>(src + (t0 + i) * pitch + b_done) * scale;
        detail::transpose<T, L>(v);
        for (int i = 0; i < L; ++i) vstore(base + offs[b_done + i] + t0, v[i]);
      }
      for (int64_t t = nv; t < n; ++t)
        for (int i = 0; i < L; ++i) base[offs[b_done + i] + t] = src[t * pitch + b_done + i] * scale;
    }
  }
  for (int64_t t0 = 0; t0 < n; t0 += kTile) {
    const int64_t t1 = std::min(n, t0 + kTile);
    for (int64_t b = b_done; b < count; ++b) {
      T* p = base + offs[b];
      for (int64_t t = t0; t < t1; ++t) p[t * stride] = src[t * pitch + b] * scale;
    }
  }
}

// `count` real lines of even length 2m -> their even samples (rows of `ev`) and odd samples
// (rows of `od`), split rows of `pitch`, m rows each (columns count..pitch zeroed): the
// complex line z_j = x_2j + i*x_(2j+1) that an even-length real transform runs on.  Rows of a
// matrix (unit stride, lines far apart) deinterleave and transpose in registers, as
// gather_complex does; every other layout is two strided gather_real.
template <class T>
void gather_real_halves(const T* base, const int64_t* offs, int64_t count, int64_t pitch,
                        int64_t m, int64_t stride, T* ev, T* od) {
  constexpr int L = kCopyLanes<T>;
  if (stride != 1 || count < L || unit_batch(offs, count)) {
    gather_real(base, offs, count, pitch, m, 2 * stride, ev);
    gather_real(base + stride, offs, count, pitch, m, 2 * stride, od);
    return;
  }
  const int64_t mv = m - m % L;
  int64_t b_done = 0;
  for (; b_done + L <= count; b_done += L) {
    for (int64_t t0 = 0; t0 < mv; t0 += L) {
      const T* src[L];
      for (int i = 0; i < L; ++i) src[i] = base + offs[b_done + i] + 2 * t0;
      detail::pairs_to_rows(src, ev + t0 * pitch + b_done, od + t0 * pitch + b_done, pitch);
    }
    for (int64_t t = mv; t < m; ++t)
      for (int i = 0; i < L; ++i) {
        const T* p = base + offs[b_done + i] + 2 * t;
        ev[t * pitch + b_done + i] = p[0];
        od[t * pitch + b_done + i] = p[1];
      }
  }
  for (int64_t t = 0; t < m; ++t) {
    for (int64_t b = b_done; b < count; ++b) {
      ev[t * pitch + b] = base[offs[b] + 2 * t];
      od[t * pitch + b] = base[offs[b] + 2 * t + 1];
    }
    for (int64_t b = count; b < pitch; ++b) ev[t * pitch + b] = od[t * pitch + b] = T(0);
  }
}

// The inverse of gather_real_halves: rows of `ev` -> the even samples, rows of `od` -> the
// odd samples of `count` real lines of length 2m, times scale.
template <class T>
void scatter_real_halves(T* base, const int64_t* offs, int64_t count, int64_t pitch, int64_t m,
                         int64_t stride, const T* ev, const T* od, T scale) {
  constexpr int L = kCopyLanes<T>;
  if (stride != 1 || count < L || unit_batch(offs, count)) {
    scatter_real(base, offs, count, pitch, m, 2 * stride, ev, scale);
    scatter_real(base + stride, offs, count, pitch, m, 2 * stride, od, scale);
    return;
  }
  const int64_t mv = m - m % L;
  int64_t b_done = 0;
  for (; b_done + L <= count; b_done += L) {
    for (int64_t t0 = 0; t0 < mv; t0 += L) {
      T* dst[L];
      for (int i = 0; i < L; ++i) dst[i] = base + offs[b_done + i] + 2 * t0;
      detail::rows_to_pairs(ev + t0 * pitch + b_done, od + t0 * pitch + b_done, pitch, scale,
                            dst);
    }
    for (int64_t t = mv; t < m; ++t)
      for (int i = 0; i < L; ++i) {
        T* p = base + offs[b_done + i] + 2 * t;
        p[0] = ev[t * pitch + b_done + i] * scale;
        p[1] = od[t * pitch + b_done + i] * scale;
      }
  }
  for (int64_t t = 0; t < m; ++t)
    for (int64_t b = b_done; b < count; ++b) {
      base[offs[b] + 2 * t] = ev[t * pitch + b] * scale;
      base[offs[b] + 2 * t + 1] = od[t * pitch + b] * scale;
    }
}

}  // namespace arraycore::native::fft
