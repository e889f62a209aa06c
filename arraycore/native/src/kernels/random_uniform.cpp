// Uniform floats, Bernoulli draws and unbiased bounded integers on the Philox stream.
#include <string>

#include "../errors.h"
#include "random_philox.h"
#include "random_tiles.h"

namespace arraycore::native::random {

namespace {

template <class T>
T* out_ptr(NdArray& a) {
  return reinterpret_cast<T*>(a.data());
}

}  // namespace

// float32: one 32-bit word per value (24 mantissa bits); float64: one 64-bit word (53 bits).
NdArray uniform(const Shape& shape, DType dtype, Key key, Counter ctr, double low, double high,
                uint64_t* blocks) {
  NdArray out = empty(shape, dtype);
  const int64_t n = out.numel();
  const bool unit = low == 0.0 && high == 1.0;
  if (dtype == DType::Float32) {
    const float lo = static_cast<float>(low), span = static_cast<float>(high - low);
    for_each_tile<float>(key, ctr, n, 4, out_ptr<float>(out),
                         [&](const uint32_t* w, int64_t, float* o) {
      if (unit) {
        for (int i = 0; i < kTileWords; ++i) o[i] = uniform24(w[i]);
      } else {
        for (int i = 0; i < kTileWords; ++i) o[i] = lo + span * uniform24(w[i]);
      }
    });
    *blocks = blocks_for(n, 4);
  } else if (dtype == DType::Float64) {
    const double span = high - low;
    for_each_tile<double>(key, ctr, n, 2, out_ptr<double>(out),
                          [&](const uint32_t* w, int64_t, double* o) {
      if (unit) {
        for (int i = 0; i < kTileWords / 2; ++i) o[i] = uniform53(word64(w, i));
      } else {
        for (int i = 0; i < kTileWords / 2; ++i) o[i] = low + span * uniform53(word64(w, i));
      }
    });
    *blocks = blocks_for(n, 2);
  } else {
    throw TypeError("uniform: expected float32 or float64");
  }
  return out;
}

namespace {

// w < threshold (a 33-bit threshold: 2^32 means always) as 0/1 of type T.
template <class T>
void bernoulli_fill(Key key, Counter ctr, int64_t n, uint64_t threshold, T* out) {
  for_each_tile<T>(key, ctr, n, 4, out, [&](const uint32_t* w, int64_t, T* o) {
    for (int i = 0; i < kTileWords; ++i) o[i] = static_cast<T>(w[i] < threshold ? 1 : 0);
  });
}

}  // namespace

NdArray bernoulli(const Shape& shape, DType dtype, Key key, Counter ctr, double p,
                  uint64_t* blocks) {
  if (!(p >= 0.0 && p <= 1.0)) throw ValueError("bernoulli: p must be in [0, 1]");
  NdArray out = empty(shape, dtype);
  const int64_t n = out.numel();
  // P(w < t) = t / 2^32 with t = round(p 2^32): p to within 2^-33.
  const uint64_t threshold = static_cast<uint64_t>(p * 4294967296.0 + 0.5);
  switch (dtype) {
    case DType::Bool: bernoulli_fill(key, ctr, n, threshold, out_ptr<bool>(out)); break;
    case DType::Int8: bernoulli_fill(key, ctr, n, threshold, out_ptr<int8_t>(out)); break;
    case DType::Int16: bernoulli_fill(key, ctr, n, threshold, out_ptr<int16_t>(out)); break;
    case DType::Int32: bernoulli_fill(key, ctr, n, threshold, out_ptr<int32_t>(out)); break;
    case DType::Int64: bernoulli_fill(key, ctr, n, threshold, out_ptr<int64_t>(out)); break;
    case DType::UInt8: bernoulli_fill(key, ctr, n, threshold, out_ptr<uint8_t>(out)); break;
    case DType::UInt16: bernoulli_fill(key, ctr, n, threshold, out_ptr<uint16_t>(out)); break;
    case DType::UInt32: bernoulli_fill(key, ctr, n, threshold, out_ptr<uint32_t>(out)); break;
    case DType::UInt64: bernoulli_fill(key, ctr, n, threshold, out_ptr<uint64_t>(out)); break;
    case DType::Float32: bernoulli_fill(key, ctr, n, threshold, out_ptr<float>(out)); break;
    case DType::Float64: bernoulli_fill(key, ctr, n, threshold, out_ptr<double>(out)); break;
    default: throw TypeError("bernoulli: expected a real or bool dtype");
  }
  *blocks = blocks_for(n, 4);
  return out;
}

// --- bounded integers (Lemire's method) -----------------------------------------------------

namespace {

// A value in [0, range) for element `index` of a draw whose first try was rejected:
// retries under retry_key(key, attempt) at counter ctr + index until accepted.
uint64_t redraw32(Key key, Counter ctr, int64_t index, uint32_t range, uint32_t reject_below) {
  for (uint32_t attempt = 1;; ++attempt) {
    uint32_t b[4];
    philox_block(retry_key(key, attempt), counter_add(ctr, static_cast<uint64_t>(index)), b);
    const uint64_t m = static_cast<uint64_t>(b[0]) * range;
    if (static_cast<uint32_t>(m) >= reject_below) return m >> 32;
  }
}

uint64_t redraw64(Key key, Counter ctr, int64_t index, uint64_t range, uint64_t reject_below) {
  for (uint32_t attempt = 1;; ++attempt) {
    uint32_t b[4];
    philox_block(retry_key(key, attempt), counter_add(ctr, static_cast<uint64_t>(index)), b);
    const uint64_t w = static_cast<uint64_t>(b[0]) | (static_cast<uint64_t>(b[1]) << 32);
    const unsigned __int128 m = static_cast<unsigned __int128>(w) * range;
    if (static_cast<uint64_t>(m) >= reject_below) return static_cast<uint64_t>(m >> 64);
  }
}

// range in [1, 2^32]: 32-bit words.  Values are computed as uint64 (low + offset, modulo
// 2^64) and cast to T, which wraps them into T's range (they lie in [low, low + range)).
template <class T>
void integers32(Key key, Counter ctr, int64_t n, uint64_t low, uint64_t range, T* out) {
  if (range == (uint64_t{1} << 32)) {
    for_each_tile<T>(key, ctr, n, 4, out, [&](const uint32_t* w, int64_t, T* o) {
      for (int i = 0; i < kTileWords; ++i) o[i] = static_cast<T>(low + w[i]);
    });
    return;
  }
  const uint32_t r = static_cast<uint32_t>(range);
  const uint32_t reject_below = static_cast<uint32_t>(-r) % r;  // (2^32 - r) mod r
  for_each_tile<T>(key, ctr, n, 4, out, [&](const uint32_t* w, int64_t first, T* o) {
    int rejected = 0;
    for (int i = 0; i < kTileWords; ++i) {
      const uint64_t m = static_cast<uint64_t>(w[i]) * r;
      o[i] = static_cast<T>(low + (m >> 32));
      rejected |= static_cast<uint32_t>(m) < reject_below;
    }
    if (!rejected) return;  // (the common case: rejections have probability < r / 2^32)
    for (int i = 0; i < kTileWords; ++i) {
      const uint64_t m = static_cast<uint64_t>(w[i]) * r;
      if (static_cast<uint32_t>(m) < reject_below)
        o[i] = static_cast<T>(low + redraw32(key, ctr, first + i, r, reject_below));
    }
  });
}

// range > 2^32 (0: 2^64): 64-bit words.
template <class T>
void integers64(Key key, Counter ctr, int64_t n, uint64_t low, uint64_t range, T* out) {
  if (range == 0) {
    for_each_tile<T>(key, ctr, n, 2, out, [&](const uint32_t* w, int64_t, T* o) {
      for (int i = 0; i < kTileWords / 2; ++i) o[i] = static_cast<T>(low + word64(w, i));
    });
    return;
  }
  const uint64_t reject_below = (0 - range) % range;
  for_each_tile<T>(key, ctr, n, 2, out, [&](const uint32_t* w, int64_t first, T* o) {
    for (int i = 0; i < kTileWords / 2; ++i) {
      const unsigned __int128 m = static_cast<unsigned __int128>(word64(w, i)) * range;
      uint64_t v = static_cast<uint64_t>(m >> 64);
      if (static_cast<uint64_t>(m) < reject_below)
        v = redraw64(key, ctr, first + i, range, reject_below);
      o[i] = static_cast<T>(low + v);
    }
  });
}

template <class T>
void integers_fill(Key key, Counter ctr, int64_t n, uint64_t low, uint64_t range, T* out,
                   uint64_t* blocks) {
  if (range != 0 && range <= (uint64_t{1} << 32)) {
    integers32(key, ctr, n, low, range, out);
    *blocks = blocks_for(n, 4);
  } else {
    integers64(key, ctr, n, low, range, out);
    *blocks = blocks_for(n, 2);
  }
}

}  // namespace

NdArray integers(const Shape& shape, DType dtype, Key key, Counter ctr, uint64_t low,
                 uint64_t range, uint64_t* blocks) {
  NdArray out = empty(shape, dtype);
  const int64_t n = out.numel();
  switch (dtype) {
    case DType::Int8: integers_fill(key, ctr, n, low, range, out_ptr<int8_t>(out), blocks); break;
    case DType::Int16: integers_fill(key, ctr, n, low, range, out_ptr<int16_t>(out), blocks); break;
    case DType::Int32: integers_fill(key, ctr, n, low, range, out_ptr<int32_t>(out), blocks); break;
    case DType::Int64: integers_fill(key, ctr, n, low, range, out_ptr<int64_t>(out), blocks); break;
    case DType::UInt8: integers_fill(key, ctr, n, low, range, out_ptr<uint8_t>(out), blocks); break;
    case DType::UInt16: integers_fill(key, ctr, n, low, range, out_ptr<uint16_t>(out), blocks); break;
    case DType::UInt32: integers_fill(key, ctr, n, low, range, out_ptr<uint32_t>(out), blocks); break;
    case DType::UInt64: integers_fill(key, ctr, n, low, range, out_ptr<uint64_t>(out), blocks); break;
    default: throw TypeError("integers: expected an integer dtype");
  }
  return out;
}

namespace {

template <class T>
void integers_varying_fill(Key key, Counter ctr, int64_t n, const uint64_t* low,
                           const uint64_t* range, int64_t m, T* out) {
  for_each_tile<T>(key, ctr, n, 2, out, [&](const uint32_t* w, int64_t first, T* o) {
    for (int i = 0; i < kTileWords / 2; ++i) {
      const int64_t j = (first + i) % m;
      const uint64_t r = range[j], word = word64(w, i);
      const uint64_t v = r == 0 ? word : bounded_from_word64(key, ctr, first + i, word, r);
      o[i] = static_cast<T>(low[j] + v);
    }
  });
}

}  // namespace

NdArray integers_varying(const Shape& shape, DType dtype, Key key, Counter ctr,
                         const uint64_t* low, const uint64_t* range, int64_t m,
                         uint64_t* blocks) {
  NdArray out = empty(shape, dtype);
  const int64_t n = out.numel();
  if (n > 0 && m <= 0) throw ValueError("integers: no bounds given");
  switch (dtype) {
#define AC_CASE(D, T)                                                                   \
    case DType::D:                                                                      \
      integers_varying_fill(key, ctr, n, low, range, m, out_ptr<T>(out));               \
      break;
    AC_CASE(Int8, int8_t) AC_CASE(Int16, int16_t) AC_CASE(Int32, int32_t)
    AC_CASE(Int64, int64_t) AC_CASE(UInt8, uint8_t) AC_CASE(UInt16, uint16_t)
    AC_CASE(UInt32, uint32_t) AC_CASE(UInt64, uint64_t)
#undef AC_CASE
    default: throw TypeError("integers: expected an integer dtype");
  }
  *blocks = blocks_for(n, 2);
  return out;
}

// --- bounded draws for the shuffles (random_shuffle.cpp) -------------------------------------

uint64_t bounded_from_word32(Key key, Counter ctr, int64_t index, uint32_t word, uint32_t range) {
  const uint64_t m = static_cast<uint64_t>(word) * range;
  const uint32_t low = static_cast<uint32_t>(m);
  if (low < range) {  // maybe rejected: compute the threshold only now (it costs a division)
    const uint32_t reject_below = static_cast<uint32_t>(-range) % range;
    if (low < reject_below) return redraw32(key, ctr, index, range, reject_below);
  }
  return m >> 32;
}

uint64_t bounded_from_word64(Key key, Counter ctr, int64_t index, uint64_t word,
                             uint64_t range) {
  const unsigned __int128 m = static_cast<unsigned __int128>(word) * range;
  const uint64_t low = static_cast<uint64_t>(m);
  if (low < range) {
    const uint64_t reject_below = (0 - range) % range;
    if (low < reject_below) return redraw64(key, ctr, index, range, reject_below);
  }
  return static_cast<uint64_t>(m >> 64);
}

}  // namespace arraycore::native::random
