// FFT: the row kernel of real-input transforms (internal to fft_real.cpp; see
// fft_real_rows.cpp).
#pragma once

#include <cstdint>

#include "fft_plan.h"

namespace arraycore::native::fft {

// Whether float32 rows of this real plan take the row kernel (the plan carries its tables,
// and it is the faster route at the vector width in use).
bool rows_kernel_fits(const RealPlan<float>& rp);

// r2c of `count` contiguous float32 lines of length rp.n (line l at src + in_off[l]) into
// contiguous complex lines of rp.n / 2 + 1 (at dst + 2 * out_off[l], interleaved), times
// `factor` (scale / 2), one line at a time.  Lines split across the pool.
void r2c_rows(const RealPlan<float>& rp, const float* src, const int64_t* in_off, float* dst,
              const int64_t* out_off, int64_t count, double factor);

// c2r of `count` contiguous complex64 half spectra of rp.n / 2 + 1 bins (at src +
// 2 * in_off[l], interleaved) into contiguous float32 lines of rp.n (at dst + out_off[l]),
// times scale; rp is the c2r plan (sign +1).
void c2r_rows(const RealPlan<float>& rp, const float* src, const int64_t* in_off, float* dst,
              const int64_t* out_off, int64_t count, float scale);

}  // namespace arraycore::native::fft
