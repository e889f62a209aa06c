// FFT: the vector types the butterflies are written in, and the switch that picks their width.
//
// The passes run on split-complex data (real parts and imaginary parts in two arrays), so a
// butterfly is plain vertical arithmetic on vectors of reals: no shuffles, and one source
// serves every width.  The width is a template parameter (lanes of T per vector, GCC vector
// extensions); GCC lowers a width the CPU lacks into narrower instructions, so every
// instantiation is correct on every machine and the tests can force each one.
#pragma once

#pragma GCC diagnostic ignored "-Wpsabi"  // wide vectors as values in internal inline code

#include <cstdint>
#include <cstring>

namespace arraycore::native::fft {

// Vector of L lanes of T; L == 1 is the scalar itself.
template <class T, int L>
struct VecOf {
  typedef T type __attribute__((vector_size(L * sizeof(T))));
};
template <class T>
struct VecOf<T, 1> {
  typedef T type;
};
template <class T, int L>
using Vec = typename VecOf<T, L>::type;

template <class U, class T>
inline U vload(const T* p) {
  U v;
  std::memcpy(&v, p, sizeof(U));
  return v;
}
template <class U, class T>
inline void vstore(T* p, const U& v) {
  std::memcpy(p, &v, sizeof(U));
}

// Vector widths the butterflies can run at.  `Native` is the widest the build machine has
// (-march=native): 64 bytes with AVX-512, 32 with AVX/AVX2 (and elsewhere), 1 lane without.
enum class Isa : int { Scalar = 0, Avx2 = 1, Avx512 = 2 };

constexpr Isa native_isa() {
#if defined(__AVX512F__)
  return Isa::Avx512;
#elif defined(__AVX__) || defined(__aarch64__) || defined(__SSE2__)
  return Isa::Avx2;
#else
  return Isa::Scalar;
#endif
}

// The width in use: native_isa() unless ARRAYCORE_FFT_ISA (scalar / avx2 / avx512) or
// set_isa() says otherwise (tests force the narrower paths this way).
Isa current_isa();
void set_isa(Isa isa);
const char* isa_name(Isa isa);

template <class T>
constexpr int lanes_for(Isa isa) {
  return isa == Isa::Avx512 ? int(64 / sizeof(T)) : isa == Isa::Avx2 ? int(32 / sizeof(T)) : 1;
}

}  // namespace arraycore::native::fft
