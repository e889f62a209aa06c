// FFT: the row kernel of real-input transforms (internal to fft_real.cpp; see
// fft_real_rows.cpp).
#pragma once

#include <cstdint>

#include "fft_plan.h"

namespace arraycore::native::fft {

// Whether rows of this real plan (float32 or float64) take the row kernel: the plan carries
// its tables, and the vector width in use is not the scalar one.
template <class T>
bool rows_kernel_fits(const RealPlan<T>& rp);

// r2c of `count` contiguous real lines of length rp.n (line l at src + in_off[l]) into
// contiguous complex lines of rp.n / 2 + 1 (at dst + 2 * out_off[l], interleaved), times
// `factor` (scale / 2), one line at a time.  Lines split across the pool.
template <class T>
void r2c_rows(const RealPlan<T>& rp, const T* src, const int64_t* in_off, T* dst,
              const int64_t* out_off, int64_t count, double factor);

// c2r of `count` contiguous complex half spectra of rp.n / 2 + 1 bins (at src +
// 2 * in_off[l], interleaved) into contiguous real lines of rp.n (at dst + out_off[l]),
// times scale; rp is the c2r plan (sign +1).
template <class T>
void c2r_rows(const RealPlan<T>& rp, const T* src, const int64_t* in_off, T* dst,
              const int64_t* out_off, int64_t count, T scale);

// The spectrum passes of one double-precision row (fft_real_rows_double.cpp, compiled for
// the double-double arithmetic): Z (zr, zi: m bins, natural order) -> X_0..X_m into the
// interleaved row `out`, times factor; the half spectrum x (interleaved) -> Z_0..Z_(m-1)
// interleaved into z.
void rows_split_double(const double* zr, const double* zi, int64_t m,
                       const RealPlan<double>& rp, double factor, double* out);
void rows_join_double(const double* x, int64_t m, const RealPlan<double>& rp, double* z);

}  // namespace arraycore::native::fft
