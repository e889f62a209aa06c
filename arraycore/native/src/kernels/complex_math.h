// L0: complex-number helpers shared by the kernel files.
//
// The transcendental functions (exp, log, sqrt, trig, hyperbolic and their inverses) use the
// std::complex overloads, which libstdc++ forwards to the C99 Annex G functions of the C
// library (cexp, clog, ...): the same functions NumPy calls, so special values agree.  Here
// live the operations NumPy writes out itself, and the ones the C library lacks:
//   cmul     plain (ac - bd, ad + bc); std::complex operator* under GCC takes the slow
//            Annex G path (__mulsc3) which NumPy does not use.
//   cdiv     Smith's algorithm (NumPy's), with NumPy's result for a zero divisor.
//   creciprocal  1 / z for a real numerator (NumPy's reciprocal).
//   csign    z / |z| with NumPy 2's handling of infinities (the standard's sign()).
//   cexpm1   accurate near 0: Re = expm1(x) cos(y) - 2 sin^2(y/2), Im = exp(x) sin(y).
//   clog1p   accurate near 0: Re = log1p(x (2 + x) + y^2) / 2, Im = atan2(y, 1 + x), and
//            near -1: Re = log((1 + x)^2 + y^2) / 2 (1 + x exact there).
//   cpow     1 for a zero exponent, exact repeated multiplication for small integer
//            exponents, exp(y log x) otherwise (as NumPy).
// complex64: cexpm1, clog1p and cpow evaluate in double and round once (issue 9 part 7;
// cpow's exp(y log x) multiplies the error of log x by |y|, and expm1's Re cancels where
// Re(e^z) = 1).  The C library's complex64 functions (exp, log, sin, ...) are within 2.3
// ulp of |f| on the sampled regions (tests/complex_accuracy.py), as NumPy's (the same calls).
#pragma once

#include <cmath>
#include <complex>
#include <limits>

namespace arraycore::native {

template <class R> inline std::complex<R> cmul(std::complex<R> a, std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  return {ar * br - ai * bi, ar * bi + ai * br};
}

template <class R> inline std::complex<R> csquare(std::complex<R> a) {
  const R ar = a.real(), ai = a.imag();
  return {ar * ar - ai * ai, ar * ai + ai * ar};
}

// Smith's algorithm: scale by the larger component of the divisor to avoid overflow.
template <class R> inline std::complex<R> cdiv(std::complex<R> a, std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abr = std::fabs(br), abi = std::fabs(bi);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) {
      // Division by complex zero: each component divided by +0 (NumPy's result).
      return {ar / abr, ai / abr};
    }
    const R rat = bi / br;
    const R scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  if (!(abr < abi)) {  // a NaN in the divisor
    const R nan = std::numeric_limits<R>::quiet_NaN();
    return {nan, nan};
  }
  const R rat = br / bi;
  const R scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

// 1 / z with a real numerator (the standard's "as if 1.0 / x"; NumPy's reciprocal): Smith's
// scaling.  1 / (0 + 0j) is nan + nan j (NumPy).
template <class R> inline std::complex<R> creciprocal(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  if (std::fabs(y) <= std::fabs(x)) {
    const R r = y / x, d = x + y * r;
    return {R(1) / d, -r / d};
  }
  const R r = x / y, d = x * r + y;
  return {r / d, R(-1) / d};
}

template <class R> inline std::complex<R> csign(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  const R nan = std::numeric_limits<R>::quiet_NaN();
  if (std::isnan(x) || std::isnan(y)) return {nan, nan};
  if (x == 0 && y == 0) return {R(0), R(0)};
  const bool ix = std::isinf(x), iy = std::isinf(y);
  if (ix || iy) {
    if (ix && iy) return {nan, nan};  // direction undefined (NumPy: nan+nanj)
    if (ix) return {x > 0 ? R(1) : R(-1), R(0)};
    return {R(0), y > 0 ? R(1) : R(-1)};
  }
  const R m = std::hypot(x, y);
  return {x / m, y / m};
}

template <class R> inline std::complex<R> cexpm1(std::complex<R> z);
template <> inline std::complex<float> cexpm1(std::complex<float> z) {
  const std::complex<double> r = cexpm1(std::complex<double>(z));
  return {float(r.real()), float(r.imag())};
}
template <class R> inline std::complex<R> cexpm1(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  // The special cases below follow the standard where NumPy (which applies the formula
  // blindly) differs: expm1(+inf + 0j) = inf + 0j and expm1(nan + 0j) = nan + 0j (NumPy:
  // inf + nan j, nan + nan j), and the four infinite-real cases below (NumPy: nan + nan j).
  if (x == 0 && y == 0) return {R(0), y};  // the standard: expm1(-0 + 0j) = +0 + 0j
  if (y == 0) return {std::expm1(x), y};
  if (std::isinf(x) && !std::isfinite(y)) {
    // Standard: expm1(-inf + inf j) = expm1(-inf + nan j) = -1 + 0j and
    // expm1(+inf + inf j) = expm1(+inf + nan j) = inf + nan j.
    if (x < 0) return {R(-1), R(0)};
    return {x, std::numeric_limits<R>::quiet_NaN()};
  }
  const R s = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y)};
}

template <class R> inline std::complex<R> clog1p(std::complex<R> z);
template <> inline std::complex<float> clog1p(std::complex<float> z) {
  const std::complex<double> r = clog1p(std::complex<double>(z));
  return {float(r.real()), float(r.imag())};
}
template <class R> inline std::complex<R> clog1p(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  const R a = x + 1;
  const R im = std::atan2(y, a);
  if (std::fabs(x) < R(1) && std::fabs(y) < R(1)) {
    // |1+z|^2 = a^2 + y^2.  Near z = -1 (|1+z|^2 < 1/2) it is small and computed to full
    // relative accuracy (a = 1 + x is exact for x in [-1, -1/2] and |log| >= 0.69);
    // elsewhere |1+z|^2 - 1 = x (2 + x) + y^2 avoids the cancellation near |1+z| = 1.
    const R s = a * a + y * y;
    if (s < R(0.5)) return {std::log(s) / 2, im};
    return {std::log1p(x * (2 + x) + y * y) / 2, im};
  }
  return {std::log(std::hypot(a, y)), im};
}

template <class R> inline std::complex<R> cpow(std::complex<R> a, std::complex<R> b);
template <> inline std::complex<float> cpow(std::complex<float> a, std::complex<float> b) {
  const std::complex<double> r = cpow(std::complex<double>(a), std::complex<double>(b));
  return {float(r.real()), float(r.imag())};
}
template <class R> inline std::complex<R> cpow(std::complex<R> a, std::complex<R> b) {
  const R br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return {R(1), R(0)};
  if (a.real() == 0 && a.imag() == 0) {
    // 0 ** b = 0 for Re(b) > 0 (NumPy; also exp(b log 0) under Annex G), nan otherwise.
    if (br > 0) return {R(0), R(0)};
    const R nan = std::numeric_limits<R>::quiet_NaN();
    return {nan, nan};
  }
  if (bi == 0 && br > -100 && br < 100 && br == std::trunc(br)) {
    int n = int(br);
    if (n == 1) return a;
    if (n == 2) return cmul(a, a);
    if (n == 3) return cmul(cmul(a, a), a);
    unsigned m = unsigned(n < 0 ? -n : n);
    std::complex<R> r(R(1), R(0)), p = a;
    while (m) {
      if (m & 1u) r = cmul(r, p);
      p = cmul(p, p);
      m >>= 1;
    }
    if (n < 0) r = cdiv(std::complex<R>(R(1), R(0)), r);
    return r;
  }
  return std::pow(a, b);
}

}  // namespace arraycore::native
