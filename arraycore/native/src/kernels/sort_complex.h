// L0: the stable order of a line of complex numbers, by radix passes (sort_complex.cpp).
#pragma once

#include <cstdint>

#include "radix_sort.h"

namespace arraycore::native {

// Writes to order[0, n) the permutation that stably sorts the n complex values (T =
// std::complex<float> or std::complex<double>) read at byte stride `st`, in NumPy's order:
// [R + Rj, R + nanj, nan + Rj, nan + nanj], each group by (real, imag) with -0 == +0.
// Descending: the reverse order, equal elements still in input order.  scratch: 3n items.
// Needs n < 2^32.
template <class T>
void complex_sort_order(const char* in, int64_t st, int64_t n, bool desc, int64_t* order,
                        Pair64* scratch);

}  // namespace arraycore::native
