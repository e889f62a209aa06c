// The float32 unary loop of kernels whose explicit vector code takes contiguous runs only
// (the table-driven erf, erfc and tanh: their per-lane coefficient permutations would become
// gathers element by element, which took 3-5x the time of a strided loop).
#pragma once

#include <cstdint>

namespace arraycore::native {

// Contiguous operands go straight through Run(in, out, n); other layouts are copied through a
// buffer of 256 and run the same way, so every layout gives the same bits.
template <void (*Run)(const float*, float*, int64_t)>
void buffered_float_loop(char** p, const int64_t* s, int64_t n) {
  if (s[0] == sizeof(float) && s[1] == sizeof(float)) {
    Run(reinterpret_cast<const float*>(p[1]), reinterpret_cast<float*>(p[0]), n);
    return;
  }
  constexpr int64_t kChunk = 256;
  float in[kChunk], out[kChunk];
  for (int64_t b = 0; b < n; b += kChunk) {
    const int64_t m = n - b < kChunk ? n - b : kChunk;
    for (int64_t i = 0; i < m; ++i) in[i] = *reinterpret_cast<const float*>(p[1] + (b + i) * s[1]);
    Run(in, out, m);
    for (int64_t i = 0; i < m; ++i) *reinterpret_cast<float*>(p[0] + (b + i) * s[0]) = out[i];
  }
}

}  // namespace arraycore::native
