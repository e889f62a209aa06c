// FFT: the arithmetic of the real transforms' spectrum pass on pairs of bins k and m - k
// (internal to fft_real.cpp and fft_real_rows.cpp).  See fft_real.cpp for the algorithm.
// The double-precision path needs its file compiled with -ffp-contract=off (fft_real.cpp is;
// see the double-double note below); the row kernel uses the single-precision path only and
// is compiled with contraction, whose fused products round less.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace arraycore::native::fft {
// Internal linkage, as when these lived in fft_real.cpp: GCC then inlines each into its one
// caller (the vectorized loops stay in the callers; as external templates they were out of
// line).
namespace {

// The spectrum passes below work on bins k and m - k together: both read A = Z_k and
// C = Z_(m-k) (X for c2r) and share the sums and differences of their parts and the twiddle
// products; the twiddle of m - k is w^(m-k) = -conj(w^k), i.e. (c, s) -> (-c, s) (the same
// holds for the twiddles' low parts).  Each result is a sum of three terms t0 + t1 + t2 (a
// sum of two inputs and two twiddle products).
// In double precision that runs in double-double arithmetic: the input sums by TwoSum, the
// products' errors by FMA, the two additions by TwoSum, all error terms added at the end, so
// the pass adds about one rounding per result.  Plainly evaluated, its roundings measured up
// to 1.2x pocketfft's whole error at short lengths (n = 12: 1.19x, 16: 1.15x; 256: 1.04x),
// and compensating only the input sums did not help (1.18x at n = 12).  Single-precision
// inputs are summed and multiplied in double, which is already as good.

// s = a + b exactly as s + err (Knuth's TwoSum).
inline double two_sum_err(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

// x = hi + lo exactly: a sum or difference of two doubles, or a product (lo by FMA).
struct DD {
  double hi, lo;
};
inline DD dd_sum(double a, double b) {
  const double s = a + b;
  return {s, two_sum_err(a, b, s)};
}
// (c + clo) * x for a twiddle c + clo: c*x.hi exactly (its error by FMA) plus the small rest.
inline DD dd_twiddle_mul(double c, double clo, DD x) {
  const double p = c * x.hi;
  return {p, std::fma(c, x.hi, -p) + (c * x.lo + clo * x.hi)};
}
inline DD dd_neg(DD x) { return {-x.hi, -x.lo}; }
// t0 + t1 + t2 with one final rounding (up to terms of order eps^2).
inline double dd_sum3(DD t0, DD t1, DD t2) {
  const double s1 = t0.hi + t1.hi, e1 = two_sum_err(t0.hi, t1.hi, s1);
  const double s2 = s1 + t2.hi, e2 = two_sum_err(s1, t2.hi, s2);
  return s2 + (((t0.lo + t1.lo) + t2.lo) + (e1 + e2));
}

// r2c, even n = 2m: with A = Z_(k mod m), C = Z_((m-k) mod m), w^k = c + i*s and
// p = Ar + Cr, q = Ai - Ci, u = Ai + Ci, v = Ar - Cr,
//   2 Re X_k = p + c*u + s*v,       2 Im X_k = q - c*v + s*u
//   2 Re X_(m-k) = p - c*u - s*v,   2 Im X_(m-k) = -q - c*v + s*u,
// for B lines (one row of each array), times `factor`.  Partner = false: bin k alone (2k = m).
// TwStep = 0: one twiddle (tw_*[0]) for all B (a batch of lines, one bin); TwStep = 1: B
// consecutive bins of one line, element b using tw_*[b] (the line pass below).
// (Separate restrict-qualified rows: with the pointers of the caller's loop GCC did not
// vectorize it.)
template <class T, bool Partner, int TwStep>
void split_bins(const T* __restrict ar, const T* __restrict ai, const T* __restrict cr,
                const T* __restrict ci, T* __restrict o1r, T* __restrict o1i,
                T* __restrict o2r, T* __restrict o2i, int64_t B, const double* __restrict tw_c,
                const double* __restrict tw_s, const double* __restrict tw_clo,
                const double* __restrict tw_slo, double factor) {
  for (int64_t b = 0; b < B; ++b) {
    const double c = tw_c[TwStep * b], s = tw_s[TwStep * b];
    const double clo = tw_clo[TwStep * b], slo = tw_slo[TwStep * b];
    (void)clo, (void)slo;
    if constexpr (std::is_same_v<T, double>) {
      const DD p = dd_sum(ar[b], cr[b]), q = dd_sum(ai[b], -ci[b]);
      const DD u = dd_sum(ai[b], ci[b]), v = dd_sum(ar[b], -cr[b]);
      const DD cu = dd_twiddle_mul(c, clo, u), sv = dd_twiddle_mul(s, slo, v);
      const DD cv = dd_twiddle_mul(c, clo, v), su = dd_twiddle_mul(s, slo, u);
      if constexpr (Partner) {
        o2r[b] = factor * dd_sum3(p, dd_neg(cu), dd_neg(sv));
        o2i[b] = factor * dd_sum3(dd_neg(q), dd_neg(cv), su);
      }
      o1r[b] = factor * dd_sum3(p, cu, sv);
      o1i[b] = factor * dd_sum3(q, dd_neg(cv), su);
    } else {
      const double Ar = ar[b], Ai = ai[b], Cr = cr[b], Ci = ci[b];
      const double p = Ar + Cr, q = Ai - Ci, u = Ai + Ci, v = Ar - Cr;
      const double cu = c * u, sv = s * v, cv = c * v, su = s * u;
      if constexpr (Partner) {
        o2r[b] = static_cast<T>(factor * (p - cu - sv));
        o2i[b] = static_cast<T>(factor * (-q - cv + su));
      }
      o1r[b] = static_cast<T>(factor * (p + cu + sv));
      o1i[b] = static_cast<T>(factor * (q - cv + su));
    }
  }
}

// c2r, even n = 2m: with A = X_k, C = X_(m-k), w^-k = c + i*s, P = Ar + Cr, Q = Ai - Ci,
// Dr = Ar - Cr, Di = Ai + Ci,
//   Re Z_k = P - c*Di - s*Dr,       Im Z_k = Q + c*Dr - s*Di
//   Re Z_(m-k) = P + c*Di + s*Dr,   Im Z_(m-k) = -Q + c*Dr - s*Di,
// for B lines.  Partner = false: Z_k alone (k = 0, whose partner X_m is no row of Z, and 2k = m).
// TwStep as for split_bins.
template <class T, bool Partner, int TwStep>
void join_bins(const T* __restrict ar, const T* __restrict ai, const T* __restrict cr,
               const T* __restrict ci, T* __restrict o1r, T* __restrict o1i, T* __restrict o2r,
               T* __restrict o2i, int64_t B, const double* __restrict tw_c,
               const double* __restrict tw_s, const double* __restrict tw_clo,
               const double* __restrict tw_slo) {
  for (int64_t b = 0; b < B; ++b) {
    const double c = tw_c[TwStep * b], s = tw_s[TwStep * b];
    const double clo = tw_clo[TwStep * b], slo = tw_slo[TwStep * b];
    (void)clo, (void)slo;
    if constexpr (std::is_same_v<T, double>) {
      const DD P = dd_sum(ar[b], cr[b]), Q = dd_sum(ai[b], -ci[b]);
      const DD Dr = dd_sum(ar[b], -cr[b]), Di = dd_sum(ai[b], ci[b]);
      const DD cDi = dd_twiddle_mul(c, clo, Di), sDr = dd_twiddle_mul(s, slo, Dr);
      const DD cDr = dd_twiddle_mul(c, clo, Dr), sDi = dd_twiddle_mul(s, slo, Di);
      if constexpr (Partner) {
        o2r[b] = dd_sum3(P, cDi, sDr);
        o2i[b] = dd_sum3(dd_neg(Q), cDr, dd_neg(sDi));
      }
      o1r[b] = dd_sum3(P, dd_neg(cDi), dd_neg(sDr));
      o1i[b] = dd_sum3(Q, cDr, dd_neg(sDi));
    } else {
      const double Ar = ar[b], Ai = ai[b], Cr = cr[b], Ci = ci[b];
      const double P = Ar + Cr, Q = Ai - Ci, Dr = Ar - Cr, Di = Ai + Ci;
      const double cDi = c * Di, sDr = s * Dr, cDr = c * Dr, sDi = s * Di;
      if constexpr (Partner) {
        o2r[b] = static_cast<T>(P + cDi + sDr);
        o2i[b] = static_cast<T>(-Q + cDr - sDi);
      }
      o1r[b] = static_cast<T>(P - cDi - sDr);
      o1i[b] = static_cast<T>(Q + cDr - sDi);
    }
  }
}

}  // namespace
}  // namespace arraycore::native::fft
