// FFT: the Stockham (self-sorting) radix passes (their butterflies: fft_butterflies.h).
//
// Indexing (Van Loan, "Computational Frameworks for the FFT", 1.7; decimation in frequency):
// a pass of radix p at stride s (the product of the earlier radices, times the B interleaved
// lines) with m = (remaining length) / p computes, for q < m and every j < s,
//     a_k = x[j + s*(q + k*m)],   k < p
//     y[j + s*(p*q + k)] = w^(q*k) * sum_t a_t * exp(sign*2*pi*i*t*k/p),   w = exp(sign*2*pi*i/(p*m))
// then s *= p.  After the last pass the result is in natural order.  The j loop runs over s
// consecutive reals with one twiddle, so it is the vector loop; every pass reads and writes
// whole contiguous blocks.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "fft_butterflies.h"
#include "fft_exec.h"

namespace arraycore::native::fft {
namespace {

// ---- one pass ----

struct PassGeom {
  int64_t s;  // stride (reals) between consecutive outputs of one butterfly
  int64_t m;
};

// Fixed radix P (2, 3, 4, 5, 8).
template <class T, int L, int Sign, int P>
void pass_fixed(const Pass<T>& ps, const T* xr, const T* xi, T* yr, T* yi, PassGeom g) {
  using V = Vec<T, L>;
  const int64_t s = g.s, m = g.m, in_step = s * m;
  for (int64_t q = 0; q < m; ++q) {
    const T* wr = ps.tw_re.data() + q * (P - 1);
    const T* wi = ps.tw_im.data() + q * (P - 1);
    const T* xr0 = xr + s * q;
    const T* xi0 = xi + s * q;
    T* yr0 = yr + s * P * q;
    T* yi0 = yi + s * P * q;
    auto body = [&]<class U, bool Twiddle>(int64_t j) {
      U ar[P], ai[P];
      for (int k = 0; k < P; ++k) {
        ar[k] = vload<U>(xr0 + k * in_step + j);
        ai[k] = vload<U>(xi0 + k * in_step + j);
      }
      bfly_fixed<T, Sign, P>(ar, ai);
      if constexpr (Twiddle) {
        for (int k = 1; k < P; ++k) {
          const U r = ar[k];
          ar[k] = r * wr[k - 1] - ai[k] * wi[k - 1];
          ai[k] = r * wi[k - 1] + ai[k] * wr[k - 1];
        }
      }
      for (int k = 0; k < P; ++k) {
        vstore(yr0 + k * s + j, ar[k]);
        vstore(yi0 + k * s + j, ai[k]);
      }
    };
    int64_t j = 0;
    if (q == 0) {
      if constexpr (L > 1)
        for (; j + L <= s; j += L) body.template operator()<V, false>(j);
      for (; j < s; ++j) body.template operator()<T, false>(j);
    } else {
      if constexpr (L > 1)
        for (; j + L <= s; j += L) body.template operator()<V, true>(j);
      for (; j < s; ++j) body.template operator()<T, true>(j);
    }
  }
}

// Lanes of T widened to double (single-precision data in a double butterfly).
template <int L, class U>
inline auto widen(const U& v) {
  if constexpr (L == 1) return static_cast<double>(v);
  else return __builtin_convertvector(v, Vec<double, L>);
}
template <int L, class U, class W>
inline U narrow(const W& v) {
  if constexpr (L == 1) return static_cast<U>(v);
  else return __builtin_convertvector(v, U);
}

// Generic odd radix of a single-precision plan with p >= kWideOddRadix: loads floats, runs the
// butterfly and the twiddle product in double with double roots and twiddles, and rounds once
// on the store.  The long cosine sums then cost no accuracy; the pass costs ~2x the float one,
// and only lengths with a prime factor >= 17 have such a pass.
template <int L>
void pass_odd_wide(const Pass<float>& ps, const float* xr, const float* xi, float* yr, float* yi,
                   PassGeom g) {
  using V = Vec<float, L>;
  const int p = ps.radix;
  const int64_t s = g.s, m = g.m, in_step = s * m;
  const double* rr = ps.wide_root_re.data();
  const double* ri = ps.wide_root_im.data();
  // Butterfly arrays (p inputs, p/2+1 pair sums and differences): too many for registers
  // at any radix this pass serves, so they live in a cached scratch block.
  ScratchBlock scratch(4 * (p + 2) * sizeof(Vec<double, L == 1 ? 2 : L>));
  for (int64_t q = 0; q < m; ++q) {
    const double* wr = ps.wide_tw_re.data() + q * (p - 1);
    const double* wi = ps.wide_tw_im.data() + q * (p - 1);
    const float* xr0 = xr + s * q;
    const float* xi0 = xi + s * q;
    float* yr0 = yr + s * p * q;
    float* yi0 = yi + s * p * q;
    auto body = [&]<class U, int W>(int64_t j) {
      using D = decltype(widen<W>(U{}));
      D* ar = reinterpret_cast<D*>(scratch.as<char>());
      D* ai = ar + p;
      for (int k = 0; k < p; ++k) {
        ar[k] = widen<W>(vload<U>(xr0 + k * in_step + j));
        ai[k] = widen<W>(vload<U>(xi0 + k * in_step + j));
      }
      bfly_odd<double>(ar, ai, p, rr, ri, ai + p);
      if (q != 0) {
        for (int k = 1; k < p; ++k) {
          const D r = ar[k];
          ar[k] = r * wr[k - 1] - ai[k] * wi[k - 1];
          ai[k] = r * wi[k - 1] + ai[k] * wr[k - 1];
        }
      }
      for (int k = 0; k < p; ++k) {
        vstore(yr0 + k * s + j, narrow<W, U>(ar[k]));
        vstore(yi0 + k * s + j, narrow<W, U>(ai[k]));
      }
    };
    int64_t j = 0;
    if constexpr (L > 1)
      for (; j + L <= s; j += L) body.template operator()<V, L>(j);
    for (; j < s; ++j) body.template operator()<float, 1>(j);
  }
}

// Generic odd radix.
template <class T, int L>
void pass_odd(const Pass<T>& ps, const T* xr, const T* xi, T* yr, T* yi, PassGeom g) {
  if constexpr (std::is_same_v<T, float>)
    if (!ps.wide_root_re.empty()) return pass_odd_wide<L>(ps, xr, xi, yr, yi, g);
  using V = Vec<T, L>;
  const int p = ps.radix;
  const int64_t s = g.s, m = g.m, in_step = s * m;
  const T* rr = ps.root_re.data();
  const T* ri = ps.root_im.data();
  ScratchBlock scratch(4 * (p + 2) * sizeof(Vec<T, L == 1 ? 2 : L>));
  for (int64_t q = 0; q < m; ++q) {
    const T* wr = ps.tw_re.data() + q * (p - 1);
    const T* wi = ps.tw_im.data() + q * (p - 1);
    const T* xr0 = xr + s * q;
    const T* xi0 = xi + s * q;
    T* yr0 = yr + s * p * q;
    T* yi0 = yi + s * p * q;
    auto body = [&]<class U>(int64_t j) {
      U* ar = reinterpret_cast<U*>(scratch.as<char>());
      U* ai = ar + p;
      for (int k = 0; k < p; ++k) {
        ar[k] = vload<U>(xr0 + k * in_step + j);
        ai[k] = vload<U>(xi0 + k * in_step + j);
      }
      bfly_odd<T>(ar, ai, p, rr, ri, ai + p);
      if (q != 0) {
        for (int k = 1; k < p; ++k) {
          const U r = ar[k];
          ar[k] = r * wr[k - 1] - ai[k] * wi[k - 1];
          ai[k] = r * wi[k - 1] + ai[k] * wr[k - 1];
        }
      }
      for (int k = 0; k < p; ++k) {
        vstore(yr0 + k * s + j, ar[k]);
        vstore(yi0 + k * s + j, ai[k]);
      }
    };
    int64_t j = 0;
    if constexpr (L > 1)
      for (; j + L <= s; j += L) body.template operator()<V>(j);
    for (; j < s; ++j) body.template operator()<T>(j);
  }
}

template <class T, int L, int Sign>
void run_pass(const Pass<T>& ps, const T* xr, const T* xi, T* yr, T* yi, PassGeom g) {
  switch (ps.radix) {
    case 2: return pass_fixed<T, L, Sign, 2>(ps, xr, xi, yr, yi, g);
    case 3: return pass_fixed<T, L, Sign, 3>(ps, xr, xi, yr, yi, g);
    case 4: return pass_fixed<T, L, Sign, 4>(ps, xr, xi, yr, yi, g);
    case 5: return pass_fixed<T, L, Sign, 5>(ps, xr, xi, yr, yi, g);
    case 8: return pass_fixed<T, L, Sign, 8>(ps, xr, xi, yr, yi, g);
    case 16: return pass_fixed<T, L, Sign, 16>(ps, xr, xi, yr, yi, g);
    default: return pass_odd<T, L>(ps, xr, xi, yr, yi, g);
  }
}

template <class T, int L>
bool run_passes_at(const Plan<T>& plan, T* re, T* im, T* wre, T* wim, int64_t B, size_t first,
                   size_t last) {
  T *xr = re, *xi = im, *yr = wre, *yi = wim;
  bool in_work = false;
  for (size_t i = first; i < last && i < plan.passes.size(); ++i) {
    const Pass<T>& ps = plan.passes[i];
    const PassGeom g{B * (plan.n / (ps.radix * ps.m)), ps.m};  // s: B times the earlier radices
    if (plan.sign < 0) run_pass<T, L, -1>(ps, xr, xi, yr, yi, g);
    else run_pass<T, L, 1>(ps, xr, xi, yr, yi, g);
    std::swap(xr, yr);
    std::swap(xi, yi);
    in_work = !in_work;
  }
  return in_work;
}

}  // namespace

template <class T>
bool run_passes(const Plan<T>& plan, T* re, T* im, T* wre, T* wim, int64_t B, size_t first,
                size_t last) {
  return run_passes_width(current_isa(), plan, re, im, wre, wim, B, first, last);
}

template <class T>
bool run_passes_width(Isa isa, const Plan<T>& plan, T* re, T* im, T* wre, T* wim, int64_t B,
                      size_t first, size_t last) {
  switch (isa) {
    case Isa::Avx512:
      return run_passes_at<T, lanes_for<T>(Isa::Avx512)>(plan, re, im, wre, wim, B, first, last);
    case Isa::Avx2:
      return run_passes_at<T, lanes_for<T>(Isa::Avx2)>(plan, re, im, wre, wim, B, first, last);
    default: return run_passes_at<T, 1>(plan, re, im, wre, wim, B, first, last);
  }
}

template bool run_passes<float>(const Plan<float>&, float*, float*, float*, float*, int64_t,
                                size_t, size_t);
template bool run_passes<double>(const Plan<double>&, double*, double*, double*, double*, int64_t,
                                 size_t, size_t);
template bool run_passes_width<float>(Isa, const Plan<float>&, float*, float*, float*, float*,
                                      int64_t, size_t, size_t);
template bool run_passes_width<double>(Isa, const Plan<double>&, double*, double*, double*,
                                       double*, int64_t, size_t, size_t);

}  // namespace arraycore::native::fft
