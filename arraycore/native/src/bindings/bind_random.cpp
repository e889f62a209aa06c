// Bindings of the Philox draws (kernels/random_*.cpp) that arraycore.random builds on.  Each
// takes the generator state as (key, counter_lo, counter_hi) and returns (array, blocks): the
// caller advances its counter by `blocks`.
#include "../kernels/random_philox.h"
#include "bindings.h"

namespace arraycore::native::bindings {

namespace {

random::Key key_of(uint64_t key) {
  return {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)};
}

template <class F>
py::tuple draw(int64_t n, F&& f) {
  uint64_t blocks = 0;
  NdArray out = maybe_nogil(n, [&] { return f(&blocks); });
  return py::make_tuple(py::cast(std::move(out)), blocks);
}

}  // namespace

AC_BINDINGS(random) {
  m.def("random_uniform", [](const Shape& shape, int dtype, uint64_t key, uint64_t lo,
                             uint64_t hi, double low, double high) {
    const DType dt = dtype_from_code(dtype, "uniform");
    return draw(shape_numel(shape), [&](uint64_t* b) {
      return random::uniform(shape, dt, key_of(key), {lo, hi}, low, high, b);
    });
  }, py::arg("shape"), py::arg("dtype"), py::arg("key"), py::arg("counter_lo"),
        py::arg("counter_hi"), py::arg("low") = 0.0, py::arg("high") = 1.0,
        "Uniform [low, high) float32/float64 draw on the Philox stream: (array, blocks).");
  m.def("random_normal", [](const Shape& shape, int dtype, uint64_t key, uint64_t lo,
                            uint64_t hi, double loc, double scale) {
    const DType dt = dtype_from_code(dtype, "normal");
    return draw(shape_numel(shape), [&](uint64_t* b) {
      return random::normal(shape, dt, key_of(key), {lo, hi}, loc, scale, b);
    });
  }, py::arg("shape"), py::arg("dtype"), py::arg("key"), py::arg("counter_lo"),
        py::arg("counter_hi"), py::arg("loc") = 0.0, py::arg("scale") = 1.0,
        "Normal(loc, scale) float32/float64 draw (Box-Muller): (array, blocks).");
  m.def("random_integers", [](const Shape& shape, int dtype, uint64_t key, uint64_t lo,
                              uint64_t hi, uint64_t low_bits, uint64_t range) {
    const DType dt = dtype_from_code(dtype, "integers");
    return draw(shape_numel(shape), [&](uint64_t* b) {
      return random::integers(shape, dt, key_of(key), {lo, hi}, low_bits, range, b);
    });
  }, py::arg("shape"), py::arg("dtype"), py::arg("key"), py::arg("counter_lo"),
        py::arg("counter_hi"), py::arg("low_bits"), py::arg("range"),
        "low + U{0..range-1} (range 0: 2^64) in an integer dtype, low as its two's "
        "complement bits: (array, blocks).");
  m.def("random_integers_varying", [](const Shape& shape, int dtype, uint64_t key,
                                      uint64_t lo, uint64_t hi, const NdArray& low_bits,
                                      const NdArray& range) {
    const DType dt = dtype_from_code(dtype, "integers");
    if (low_bits.dtype != DType::UInt64 || range.dtype != DType::UInt64 ||
        !low_bits.is_c_contiguous() || !range.is_c_contiguous() ||
        low_bits.numel() != range.numel())
      throw ValueError("integers: bounds must be contiguous uint64 arrays of one length");
    const int64_t n = shape_numel(shape);
    if (n > 0 && low_bits.numel() > 0 && n % low_bits.numel() != 0)
      throw ValueError("integers: the draw's size must be a multiple of the bounds' count");
    return draw(n, [&](uint64_t* b) {
      return random::integers_varying(shape, dt, key_of(key), {lo, hi},
                                      reinterpret_cast<const uint64_t*>(low_bits.data()),
                                      reinterpret_cast<const uint64_t*>(range.data()),
                                      low_bits.numel(), b);
    });
  }, py::arg("shape"), py::arg("dtype"), py::arg("key"), py::arg("counter_lo"),
        py::arg("counter_hi"), py::arg("low_bits"), py::arg("range"),
        "integers with per-element bounds: element j uses low_bits[j % m], range[j % m].");
  m.def("random_bernoulli", [](const Shape& shape, int dtype, uint64_t key, uint64_t lo,
                               uint64_t hi, double p) {
    const DType dt = dtype_from_code(dtype, "bernoulli");
    return draw(shape_numel(shape), [&](uint64_t* b) {
      return random::bernoulli(shape, dt, key_of(key), {lo, hi}, p, b);
    });
  }, py::arg("shape"), py::arg("dtype"), py::arg("key"), py::arg("counter_lo"),
        py::arg("counter_hi"), py::arg("p"),
        "1 with probability p, else 0 (bool or real dtype): (array, blocks).");
  m.def("random_permutation", [](int64_t n, uint64_t key, uint64_t lo, uint64_t hi) {
    return draw(n, [&](uint64_t* b) {
      return random::permutation(n, key_of(key), {lo, hi}, b);
    });
  }, py::arg("n"), py::arg("key"), py::arg("counter_lo"), py::arg("counter_hi"),
        "A random permutation of 0..n-1 (int64, Fisher-Yates): (array, blocks).");
  m.def("random_choice_without_replacement", [](int64_t n, int64_t k, bool shuffle,
                                                uint64_t key, uint64_t lo, uint64_t hi) {
    return draw(k, [&](uint64_t* b) {
      return random::choice_without_replacement(n, k, shuffle, key_of(key), {lo, hi}, b);
    });
  }, py::arg("n"), py::arg("k"), py::arg("shuffle"), py::arg("key"), py::arg("counter_lo"),
        py::arg("counter_hi"),
        "k distinct values of 0..n-1 (int64), uniformly: (array, blocks).");
  m.def("random_philox_block", [](uint64_t key, uint64_t lo, uint64_t hi) {
    uint32_t out[4];
    random::philox_block(key_of(key), {lo, hi}, out);
    return py::make_tuple(out[0], out[1], out[2], out[3]);
  }, py::arg("key"), py::arg("counter_lo"), py::arg("counter_hi"),
        "One Philox4x32-10 block (four uint32 words) of the 128-bit counter under the "
        "64-bit key (key words k0 = low 32 bits, k1 = high).");
  m.def("random_bits32", [](int64_t n, uint64_t key, uint64_t lo, uint64_t hi) {
    return draw(n, [&](uint64_t* b) {
      NdArray out = empty(Shape{n}, DType::UInt32);
      random::bits32(key_of(key), {lo, hi}, n, reinterpret_cast<uint32_t*>(out.data()));
      *b = n <= 0 ? 0 : static_cast<uint64_t>((n + 3) / 4);
      return out;
    });
  }, py::arg("n"), py::arg("key"), py::arg("counter_lo"), py::arg("counter_hi"),
        "The first n 32-bit words of the Philox stream (uint32): (array, blocks).");
}

}  // namespace arraycore::native::bindings
