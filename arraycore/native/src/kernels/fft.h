// The engine's FFT (kernels/fft_*.cpp; docs/fft.md): the three transforms arraycore.fft is
// built on.  Inputs of any strides and rank; outputs are new C-contiguous arrays.  float32 /
// complex64 are computed in single precision, float64 / complex128 in double.
#pragma once

#include <cstdint>
#include <vector>

#include "../ndarray.h"

namespace arraycore::native {

// n-d DFT of a complex array along `axes` (distinct, non-negative), exponent sign -1 when
// `forward`, +1 otherwise, times `scale`.
NdArray fft_c2c(const NdArray& x, const std::vector<int>& axes, bool forward, double scale);

// The same in place on x (writeable, C-contiguous): rfftn transforms its own half spectrum
// this way, saving a second array of that size and the trips through memory to it.
void fft_c2c_inplace(const NdArray& x, const std::vector<int>& axes, bool forward, double scale);

// Forward DFT of a real array along `axis`: n//2 + 1 complex outputs, times `scale`.
NdArray fft_r2c(const NdArray& x, int axis, double scale);

// Inverse DFT along `axis` of a Hermitian half-spectrum (length n//2 + 1 there) to n reals,
// times `scale`.  The imaginary parts of the DC and (even n) Nyquist bins are ignored.
NdArray fft_c2r(const NdArray& x, int axis, int64_t n, double scale);

}  // namespace arraycore::native
