// FFT: blocks of adjacent columns transformed straight between the user's arrays, the first
// and the last Stockham pass fused with the copies (fft_columns.cpp).
#pragma once

#include <cstdint>

#include "fft_plan.h"

namespace arraycore::native::fft {

// Column blocks cover whole multiples of kColumnBlockBytes of each row: W a multiple of 16
// complex64 / 8 complex128, so every vector width runs whole vectors, and two whole cache
// lines per row (64 bytes, straddling two lines of a row at an odd offset, measured as slow
// as the copying route: 2048 x 1025 complex64 along axis 0, AVX2 build, 3.8 ms against 3.4).
// Wider blocks while the scratch (two split arrays of n * W) fits kColumnScratchBytes, up
// to kColumnMaxBlocks units: short columns then read longer runs per row (64 x 16384
// complex64, AVX2 build: 1.38 ms at 128 bytes, 0.9-1.06 at 256, 0.72 at 1024, 0.76 at 2048;
// 2048 x 1025: 3.43 ms at 128 bytes, 3.63 at 256).
constexpr int64_t kColumnBlockBytes = 128;
constexpr int64_t kColumnScratchBytes = 512 * 1024;
constexpr int64_t kColumnMaxBlocks = 8;

// Whether lines of this plan can take the column route: Stockham passes (not a long line),
// at least two of them, the first and the last of a fixed radix (2, 3, 4, 5, 8, 16).
template <class T>
bool column_route(const Plan<T>& plan);

// Columns per block (a multiple of every vector width).
template <class T>
int64_t column_block_width(const Plan<T>& plan);

// The transform of W adjacent columns of interleaved complex: column c's element t at
// in[2 * (t * in_row + c)], its result at out[2 * (t * out_row + c)] (rows in complex
// elements), times scale.  in == out is fine.
template <class T>
void run_column_block(const Plan<T>& plan, const T* in, int64_t in_row, T* out, int64_t out_row,
                      int64_t W, T scale);

}  // namespace arraycore::native::fft
