// The incomplete gamma ratios P(a, x) and Q(a, x) over arrays, several elements in lockstep.
//
// The scalar kernel (special_incomplete_gamma.h) runs a power series or a continued
// fraction per element: tens of dependent iterations of a few flops and a division, so one
// element at a time leaves the vector units idle and waits on latencies.  Here a chunk of
// elements is first sorted by method, with the scalar kernel's own region choice
// (igam_method): the series of P, the continued fraction of Q, and everything else (edges
// of the domain, the complement series for x <= 1.1, Temme's region, a > 1e6), which stays
// scalar.  The elements of each of the two iterative methods are packed into contiguous
// buffers, and each method runs on groups of kLanes elements at once, as vectors of 4
// doubles (kLanes = 8: two independent chains per step hide the FMA and division latencies).  A group iterates until its
// slowest lane has converged; the lanes that converged earlier keep their value (the
// fraction) or keep adding terms below the tolerance (the series: only more accurate).
//
// The prefactor x^a e^-x / Gamma(a): float results take exp(a ln x - x - lgamma(a)) with the
// branch-free exp/log/lgamma (vectorized; the exponent's rounding, |exponent| 2^-53, is far
// below float's precision); double results take igam_fac_double (vectorized, exponent in
// double-double) except where the exponent is large (the far tails), where the scalar
// igam_fac_dd is needed.
#pragma once

#pragma GCC diagnostic ignored "-Wpsabi"  // wide vectors as values in internal inline code

#include <cmath>
#include <cstdint>
#include <cstring>

#include "../simd_math.h"
#include "special_erf_gamma.h"
#include "special_incomplete_gamma.h"

namespace arraycore::native::special::incomplete {

inline constexpr int kLanes = 8;

// The lanes are written with GCC vector extensions (4 doubles; two per group): the
// auto-vectorizer turned the continued fraction's guarded division and rescaling into
// branches and ran it one lane at a time.  GCC lowers the type to narrower instructions
// where the CPU lacks AVX, so the code is correct on every machine.
typedef double IgamV __attribute__((vector_size(32)));
typedef int64_t IgamM __attribute__((vector_size(32)));

AC_SIMD_INLINE IgamV igam_load(const double* p) {
  IgamV v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
AC_SIMD_INLINE void igam_store(double* p, IgamV v) { std::memcpy(p, &v, sizeof v); }
AC_SIMD_INLINE IgamV igam_splat(double c) { return IgamV{c, c, c, c}; }
AC_SIMD_INLINE IgamV igam_abs(IgamV v) {
  return reinterpret_cast<IgamV>(reinterpret_cast<IgamM>(v) & 0x7fffffffffffffffLL);
}
AC_SIMD_INLINE IgamV igam_select(IgamM m, IgamV a, IgamV b) {  // m ? a : b, m all-ones/zero
  return reinterpret_cast<IgamV>((reinterpret_cast<IgamM>(a) & m) |
                                 (reinterpret_cast<IgamM>(b) & ~m));
}
AC_SIMD_INLINE bool igam_any(IgamM m) { return (m[0] | m[1] | m[2] | m[3]) != 0; }

enum class IgamMethod : uint8_t { kSeriesP, kFractionQ, kScalar };

// igam_core's choice of the directly computed tail, for the two iterative methods that run
// in lanes; kScalar for the rest (NaN, a or x <= 0 or infinite, a > 1e6, and the complement
// series of Q for x <= 1.1).
inline IgamMethod igam_method(double a, double x) {
  if (!(a > 0.0 && x > 0.0 && a <= 1e6 && x < kInf)) return IgamMethod::kScalar;
  if (x > 1.1) return x >= a ? IgamMethod::kFractionQ : IgamMethod::kSeriesP;
  const bool series = x <= 0.5 ? -0.4 / std::log(x) < a : x * 1.1 < a;
  return series ? IgamMethod::kSeriesP : IgamMethod::kScalar;
}

// P = fac / a * sum_n x^n / ((a+1)...(a+n)) (igam_series) for kLanes elements.
AC_SIMD_INLINE void series_p_lanes(const double* a, const double* x, const double* fac,
                                   double* out, double tol) {
  const IgamV x0 = igam_load(x), x1 = igam_load(x + 4), one = igam_splat(1.0),
              vtol = igam_splat(tol);
  IgamV an0 = igam_load(a), an1 = igam_load(a + 4);
  IgamV t0 = one, t1 = one, s0 = one, s1 = one;
  for (int it = 0; it < kMaxIter; ++it) {
    an0 += one;
    an1 += one;
    t0 *= x0 / an0;
    t1 *= x1 / an1;
    s0 += t0;
    s1 += t1;
    if (!igam_any((t0 > vtol * s0) | (t1 > vtol * s1))) break;
  }
  igam_store(out, s0 * igam_load(fac) / igam_load(a));
  igam_store(out + 4, s1 * igam_load(fac + 4) / igam_load(a + 4));
}

// One step n of the continued fraction (igamc_cf) on 4 lanes: the convergents' forward
// recurrences, rescaled when they grow; a lane keeps its value from the step where it first
// converged (later steps may wobble in the last bit, and all lanes rarely meet the test in
// the same step).  Returns the lanes still running.
struct IgamFraction {
  IgamV a, a2, b2, a1, b1, r, bn;
  IgamM done;
};

AC_SIMD_INLINE void fraction_init(IgamFraction& f, IgamV a, IgamV x) {
  f.a = a;
  f.a2 = igam_splat(1.0);
  f.b2 = igam_splat(0.0);
  f.a1 = x + 1.0 - a;
  f.b1 = igam_splat(1.0);
  f.r = 1.0 / f.a1;
  f.bn = f.a1;
  f.done = IgamM{0, 0, 0, 0};
}

AC_SIMD_INLINE IgamM fraction_step(IgamFraction& f, double n, double tol) {
  constexpr double big = 0x1p300, rbig = 0x1p-300;
  f.bn += 2.0;
  const IgamV an = -n * (n - f.a);
  const IgamV s = igam_select(igam_abs(f.a1) > big, igam_splat(rbig), igam_splat(1.0));
  const IgamV a0 = (f.bn * f.a1 + an * f.a2) * s, b0 = (f.bn * f.b1 + an * f.b2) * s;
  f.a2 = f.a1 * s;
  f.b2 = f.b1 * s;
  f.a1 = a0;
  f.b1 = b0;
  // the division runs in every lane (a0 = 0 gives inf/NaN there, not selected)
  const IgamM ok = (a0 != 0.0) & ~f.done;
  const IgamV rn = igam_select(ok, b0 / a0, f.r);
  f.done |= ok & (igam_abs(rn - f.r) <= tol * igam_abs(rn));
  f.r = rn;
  return ~f.done;
}

// Q = fac / (b0 + a1 / (b1 + ...)) (igamc_cf) for kLanes elements.
AC_SIMD_INLINE void fraction_q_lanes(const double* a, const double* x, const double* fac,
                                     double* out, double tol) {
  IgamFraction f0, f1;
  fraction_init(f0, igam_load(a), igam_load(x));
  fraction_init(f1, igam_load(a + 4), igam_load(x + 4));
  for (int n = 1; n < kMaxIter; ++n) {
    const IgamM m0 = fraction_step(f0, n, tol), m1 = fraction_step(f1, n, tol);
    if (!igam_any(m0 | m1)) break;
  }
  // fac = 0 (underflow) gives +0, as igamc_cf does, whatever the fraction's value
  const IgamV fac0 = igam_load(fac), fac1 = igam_load(fac + 4), zero = igam_splat(0.0);
  igam_store(out, igam_select(fac0 == 0.0, zero, fac0 * f0.r));
  igam_store(out + 4, igam_select(fac1 == 0.0, zero, fac1 * f1.r));
}

// x^a e^-x / Gamma(a) to float accuracy, branch-free (a in (0, 1e6], x > 0 finite).
AC_SIMD_INLINE double igam_fac_float(double a, double x) {
  using namespace erf_gamma;
  return simd_math::exp(a * simd_math::log(x) - x - lgamma_pos_t<kLgamma23D, kStirlingD>(a));
}

// The series part of log1pmx (|t| <= 1/2), without its branch; the coefficients 1/39, 1/37,
// ..., 1/3 as a table for erf_gamma::poly (fully unrolled: GCC vectorizes no loop nest
// with inner loops).
inline constexpr double kLog1pmxOdd[] = {
    1.0 / 39, 1.0 / 37, 1.0 / 35, 1.0 / 33, 1.0 / 31, 1.0 / 29, 1.0 / 27, 1.0 / 25, 1.0 / 23, 1.0 / 21,
    1.0 / 19, 1.0 / 17, 1.0 / 15, 1.0 / 13, 1.0 / 11, 1.0 / 9,  1.0 / 7,  1.0 / 5,  1.0 / 3};
AC_SIMD_INLINE double log1pmx_series(double t) {
  const double r = t / (2.0 + t), r2 = r * r;
  return std::fma(-r, t, 2.0 * r * r2 * erf_gamma::poly(r2, kLog1pmxOdd));
}

// x^a e^-x / Gamma(a) for double results, branch-free (vectorizes), for a in (0, 1e6] and
// x > 0 finite except the far tails, igam_fac_needs_dd (the scalar igam_fac_dd there).  Both of igam_fac's forms are evaluated and one selected:
//   a < 10: exp(a ln x - x - lgamma(a)) with the exponent in double-double (ln x with one
//     Newton step on exp, as log_dd; a ln x by an FMA two-product): ~5e-15, the error of
//     lgamma(a) <= 12.8 and of a ln x's correction (igam_fac's pow/Gamma form is ~1e-15);
//   a >= 10: Temme's form sqrt(a / 2pi) exp(a log1pmx((x-a)/a) - delta(a)), as igam_fac.
AC_SIMD_INLINE double igam_fac_double(double a, double x) {
  using namespace erf_gamma;
  // a < 10
  const double h = simd_math::log(x), e = simd_math::exp(h);
  // (for subnormal x, e^h has too few bits for the correction: none is applied)
  const double h_lo = select_bits(x > 1e-300, (x - e) / e, 0.0);
  const double p = a * h, p_lo = std::fma(a, h, -p) + a * h_lo;
  const double lg = lgamma_pos_t<kLgamma23D, kStirlingD>(a);
  const double s1 = p - x, bb1 = s1 - p, e1 = (p - (s1 - bb1)) + (-x - bb1);  // two-sum
  const double s2 = s1 - lg, bb2 = s2 - s1, e2 = (s1 - (s2 - bb2)) + (-lg - bb2);
  const double small_a = simd_math::exp(s2) * (1.0 + (e2 + e1 + p_lo));
  // a >= 10
  const double t = (x - a) / a;
  const double m = select_bits(t <= 0.5, log1pmx_series(t), simd_math::log1p(t) - t);
  const double r = 1.0 / a, d = r * poly(r * r, kStirlingD);  // Stirling's delta(a)
  const double large_a = std::sqrt(a / (2.0 * M_PI)) * simd_math::exp(a * m - d);
  return select_bits(a < 10.0, small_a, large_a);
}

// P (upper = false) or Q (upper = true) of n elements given as doubles; tol: the series'
// truncation tolerance (series_tol of the result type); float_fac: the vectorized float
// prefactor.  a, x, out may not alias.
inline void gammainc_chunk(const double* a, const double* x, double* out, int n, bool upper,
                           double tol, bool float_fac) {
  constexpr int kMax = 256;
  // packed operands of the two iterative methods, padded to whole groups
  double pa[2][kMax + kLanes], px[2][kMax + kLanes], pf[2][kMax + kLanes], pv[2][kMax + kLanes];
  int16_t at[2][kMax];
  int cnt[2] = {0, 0};
  for (int i = 0; i < n; ++i) {
    const IgamMethod m = igam_method(a[i], x[i]);
    if (m == IgamMethod::kScalar) {
      out[i] = gammainc_d(a[i], x[i], upper, tol);
      continue;
    }
    const int k = m == IgamMethod::kFractionQ ? 1 : 0;
    pa[k][cnt[k]] = a[i];
    px[k][cnt[k]] = x[i];
    at[k][cnt[k]++] = static_cast<int16_t>(i);
  }
  for (int k = 0; k < 2; ++k) {
    const int c = cnt[k], padded = (c + kLanes - 1) / kLanes * kLanes;
    for (int j = c; j < padded; ++j) {  // lanes that converge at once: P(1, 0.5), Q(1, 2)
      pa[k][j] = 1.0;
      px[k][j] = k == 0 ? 0.5 : 2.0;
    }
    if (float_fac) {
      for (int j = 0; j < padded; ++j) pf[k][j] = igam_fac_float(pa[k][j], px[k][j]);
    } else {
      for (int j = 0; j < padded; ++j) pf[k][j] = igam_fac_double(pa[k][j], px[k][j]);
      for (int j = 0; j < c; ++j) {  // large exponents: scalar, double-double
        const double aj = pa[k][j];
        if (aj >= 10.0 && igam_fac_needs_dd(aj, (px[k][j] - aj) / aj))
          pf[k][j] = igam_fac_dd(aj, px[k][j]);
      }
    }
    for (int j = 0; j < padded; j += kLanes) {
      if (k == 0)
        series_p_lanes(pa[k] + j, px[k] + j, pf[k] + j, pv[k] + j, tol);
      else
        fraction_q_lanes(pa[k] + j, px[k] + j, pf[k] + j, pv[k] + j, tol);
    }
    // the series gives P, the fraction Q; the other one is the complement
    const bool direct = upper == (k == 1);
    for (int j = 0; j < c; ++j) out[at[k][j]] = direct ? pv[k][j] : 1.0 - pv[k][j];
  }
}

}  // namespace arraycore::native::special::incomplete
