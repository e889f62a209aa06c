// Bindings of the FFT (kernels/fft*.cpp): the three transforms arraycore.fft builds on, and
// switches for the tests (vector width, plan cache).
#include "../kernels/fft.h"
#include "../kernels/fft_plan.h"
#include "../kernels/fft_simd.h"
#include "bindings.h"

namespace arraycore::native::bindings {

AC_BINDINGS(fft) {
  m.def("fft_c2c", [](const NdArray& x, std::vector<int> axes, bool forward, double scale) {
    return maybe_nogil(x.numel(), [&] { return fft_c2c(x, axes, forward, scale); });
  }, py::arg("x"), py::arg("axes"), py::arg("forward"), py::arg("scale") = 1.0,
        "n-d DFT of a complex64/complex128 array along `axes` (distinct, non-negative); "
        "exponent sign -1 when `forward`, +1 otherwise; times `scale`.");
  m.def("fft_c2c_inplace", [](const NdArray& x, std::vector<int> axes, bool forward, double scale) {
    maybe_nogil(x.numel(), [&] { fft_c2c_inplace(x, axes, forward, scale); });
  }, py::arg("x"), py::arg("axes"), py::arg("forward"), py::arg("scale") = 1.0,
        "fft_c2c in place on x (writeable, C-contiguous); returns None.");
  m.def("fft_r2c", [](const NdArray& x, int axis, double scale) {
    return maybe_nogil(x.numel(), [&] { return fft_r2c(x, axis, scale); });
  }, py::arg("x"), py::arg("axis"), py::arg("scale") = 1.0,
        "Forward DFT of a float32/float64 array along `axis` (non-negative): n//2+1 complex "
        "bins, times `scale`.");
  m.def("fft_c2r", [](const NdArray& x, int axis, int64_t n, double scale) {
    return maybe_nogil(x.numel(), [&] { return fft_c2r(x, axis, n, scale); });
  }, py::arg("x"), py::arg("axis"), py::arg("n"), py::arg("scale") = 1.0,
        "Inverse DFT along `axis` of a Hermitian half-spectrum of length n//2+1 to n reals, "
        "times `scale` (imaginary parts of the DC and Nyquist bins ignored).");
  m.def("fft_isa", [] { return std::string(fft::isa_name(fft::current_isa())); },
        "Vector width the FFT butterflies run at: 'avx512', 'avx2' or 'scalar'.");
  m.def("fft_native_isa", [] { return std::string(fft::isa_name(fft::native_isa())); },
        "Widest FFT vector width of this build.");
  m.def("fft_set_isa", [](const std::string& name) {
    const std::string old = fft::isa_name(fft::current_isa());
    if (name == "avx512") fft::set_isa(fft::Isa::Avx512);
    else if (name == "avx2") fft::set_isa(fft::Isa::Avx2);
    else if (name == "scalar") fft::set_isa(fft::Isa::Scalar);
    else if (name == "native") fft::set_isa(fft::native_isa());
    else throw ValueError("fft_set_isa: expected 'avx512', 'avx2', 'scalar' or 'native', got '" + name + "'");
    return old;
  }, py::arg("isa"),
        "Forces the FFT's vector width (tests of the narrower paths); returns the previous one. "
        "Widths above the CPU's run as several narrower instructions.");
  m.def("fft_plan_cache_size", &fft::plan_cache_size, "Number of cached FFT plans.");
  m.def("fft_clear_plan_cache", &fft::clear_plan_cache, "Drops every cached FFT plan.");
}

}  // namespace arraycore::native::bindings
