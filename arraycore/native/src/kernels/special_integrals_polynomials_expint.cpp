// Special functions, family integrals_polynomials: the exponential integrals exp1, expi and
// expn (arraycore/_core/ops/special_integrals_polynomials.py).
//
// Everything is evaluated in double (float32 inputs are widened and the result rounded once,
// which keeps float32 within 1 ulp).  Methods (Abramowitz & Stegun ch. 5, DLMF 6.6, 6.12,
// 8.19; the continued fraction in modified Lentz form, Press et al. "Numerical Recipes" 6.3):
//   E1(x), 0 < x <= 1   -gamma - ln x + sum_{k>=1} (-1)^(k+1) x^k / (k k!)   (A&S 5.1.11)
//   E_n(x), x > 1       e^-x / (x + n - 1 n/(x + n + 2 - 2 (n+1)/(x + n + 4 - ...)))
//                       (A&S 5.1.22, even contraction), iterated to convergence
//   E_n(x), x <= 1      (-x)^(n-1)/(n-1)! (psi(n) - ln x) - sum_{k != n-1} (-x)^k/((k-n+1) k!)
//                       (A&S 5.1.12)
//   Ei(x)               fits and series at a fixed length, branch-free (expi_vd below)
// exp1 and expi have branch-free kernels (exp1_f, exp1_vd, expi_vd below); expn runs its
// continued fractions in lanes, as the incomplete gamma's (expn_chunk), and the rest scalar
// (its exp1_d is the scalar E1 for n = 1).
#include <cmath>
#include <cstdint>

#include "kernel_loops.h"
#include "special_common.h"
#include "special_incomplete_gamma_lanes.h"

namespace arraycore::native::special::integrals_polynomials {

inline constexpr double kEulerGamma = 0.57721566490153286060651209008240243;
inline constexpr double kEps = 1.1102230246251565e-16;  // 2^-53

// Sum_{k>=1} (-1)^(k+1) x^(k-1) / (k k!) for |x| <= 1, so E1(x) = -gamma - ln x + x S(x).
inline double e1_series_tail(double x) {
  double term = 1.0, sum = 0.0;
  for (int k = 1; k < 40; ++k) {
    if (k > 1) term *= -x / k;        // (-x)^(k-1) / k!  * (k) ... kept as (-x)^(k-1)/k!
    const double t = term / k;        // term = (-x)^(k-1) / k!  (term starts at 1/1!)
    sum += t;
    if (std::fabs(t) < kEps * std::fabs(sum)) break;
  }
  return sum;
}

// E_n(x) by the continued fraction (x > 1 or n large), modified Lentz.
inline double expn_cf(int64_t n, double x) {
  constexpr double tiny = 1e-300;
  double b = x + static_cast<double>(n);
  double c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 5000; ++i) {
    const double an = -static_cast<double>(i) * (static_cast<double>(n - 1) + i);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = c * d;
    h *= del;
    if (std::fabs(del - 1.0) < kEps) break;
  }
  // e^-x h without underflowing early: h ~ 1/(x+n)
  return std::exp(-x) * h;
}

// E_n(x) by the power series, 0 < x <= 1, 1 <= n <= 64.
inline double expn_series(int64_t n, double x) {
  double psi = -kEulerGamma;
  for (int64_t j = 1; j < n; ++j) psi += 1.0 / static_cast<double>(j);
  // (-x)^k / k! for k = 0, 1, ...
  double pw = 1.0, sum = 0.0, special = 0.0;
  for (int64_t k = 0; k < 400; ++k) {
    if (k > 0) pw *= -x / static_cast<double>(k);
    if (k == n - 1) {
      special = pw * (psi - std::log(x));
      continue;
    }
    const double t = -pw / static_cast<double>(k - n + 1);
    sum += t;
    if (k > n && std::fabs(t) < kEps * std::fabs(sum)) break;
  }
  return special + sum;
}

inline double exp1_d(double x) {
  if (std::isnan(x)) return x;
  if (x < 0.0) return kNaN<double>;
  if (x == 0.0) return kInf<double>;
  if (x == kInf<double>) return 0.0;
  if (x <= 1.0) return -kEulerGamma - std::log(x) + x * e1_series_tail(x);
  return expn_cf(1, x);
}

// Float32 exp1, branch-free in double (tools/gen_special_expint_coeffs.py):
//   x <= 1: -gamma - ln x + x S(x), S the Taylor series through k = 13 (A&S 5.1.11);
//   x > 1:  e^-x G(t)/x, x e^x E1(x) = G(t), t = (x - 2)/(x + 2), degree 12 (5.2e-10) on
//           [1, 100], beyond which E1 underflows in float (x is clamped there; e^-x takes the
//           true x, so +inf gives 0).
// One division: 1/(x (x + 2)) gives both 1/x and 1/(x + 2).  0 gives +inf and x < 0 NaN
// through the log, NaN passes through.
inline constexpr double kE1G[] = {-0x1.1f67cca96a34fp-11, 0x1.840c1ce286b9bp-9, -0x1.cbc7fda4b27dap-8, 0x1.5a900840670e5p-7, -0x1.a550106d06795p-7, 0x1.014be6f588ad1p-6, -0x1.4997a2cf158fdp-6, 0x1.ca436feaed8e0p-6, -0x1.3eae2d74418f1p-5, 0x1.0aee23037416fp-4, -0x1.9fe945a3fd7fcp-4, 0x1.58018b8dff78dp-2, 0x1.7200210193af9p-1};
inline constexpr double kE1S[] = {0x1.b2a2edd1e100cp-37, -0x1.7e9213ff67620p-33, 0x1.390327a26bdbdp-29, -0x1.d96e5f25a9894p-26, 0x1.48c5892f7cd83p-22, -0x1.a01a01a01a01ap-19, 0x1.db8b6f9266dd5p-16, -0x1.e573ac901e574p-13, 0x1.b4e81b4e81b4fp-10, -0x1.5555555555555p-7, 0x1.c71c71c71c71cp-5, -0x1.0000000000000p-2, 0x1.0000000000000p+0};

[[gnu::always_inline]] inline float exp1_f(float xf) {
  const double x = xf;
  const bool small = x <= 1.0;  // (NaN: the large form, NaN)
  const double s = -kEulerGamma - simd_math::log(x) + x * poly(x, kE1S);
  const double xc = small ? 1.0 : (x < 100.0 ? x : 100.0);
  const double inv = 1.0 / (xc * (xc + 2.0));
  const double t = (xc - 2.0) * (xc * inv);
  const double l = simd_math::exp(-x) * poly(t, kE1G) * ((xc + 2.0) * inv);
  return static_cast<float>(select_bits(small, s, l));
}

// Float64 exp1, branch-free (tools/gen_special_expint_coeffs.py --double): every lane
// evaluates each piece and selects, so the loop vectorizes with no gathers:
//   x <= 1:      -gamma - ln x + x S(x), S the Taylor series through k = 19 (A&S 5.1.11);
//   1 < x <= 16: e^-x G(t)/x, x e^x E1(x) = G(t), t = (x - K)/(x + K), degree-20 fits on
//                [1, 4] (K = 2) and [4, 16] (K = 8), |t| <= 1/3;
//   x > 16:      e^-x / (x + 1 - 1/(x + 3 - 4/(x + 5 - ...))) (A&S 5.1.22, n = 1), 12 levels
//                (2e-18 relative at x = 16, fewer needed beyond), as the ratio B/A of the
//                Wallis recurrences: multiplications only, one division.
// The pieces share two divisions (t, and the final G/x or B/A).  0 gives +inf and x < 0 NaN
// through the log; +inf gives e^-inf * (finite) = 0; NaN passes through e^-x.
// S(x) = sum_{k=1}^{19} (-1)^(k+1) x^(k-1)/(k k!) (next term < 4e-19 at x = 1)
inline constexpr double kE1SD[] = {0x1.feccf9f2a88ffp-62, -0x1.402321fc15331p-57, 0x1.7d570699739afp-53, -0x1.ae7f3e733b81fp-49, 0x1.cb3264bf2e688p-45, -0x1.cd3f30a008e6ap-41, 0x1.b2a2edd1e100cp-37, -0x1.7e9213ff67620p-33, 0x1.390327a26bdbdp-29, -0x1.d96e5f25a9894p-26, 0x1.48c5892f7cd83p-22, -0x1.a01a01a01a01ap-19, 0x1.db8b6f9266dd5p-16, -0x1.e573ac901e574p-13, 0x1.b4e81b4e81b4fp-10, -0x1.5555555555555p-7, 0x1.c71c71c71c71cp-5, -0x1.0000000000000p-2, 0x1.0000000000000p+0};
// x e^x E1(x) on [1, 4], t = (x - 2)/(x + 2): degree 20, max abs. error 4.5e-19
inline constexpr double kE1G1[] = {-0x1.ecc5976aa21fbp-9, 0x1.0e736abe70d97p-8, -0x1.34fbebc2497f8p-9, 0x1.59924afd4409ap-9, -0x1.ccc3f74df458fp-9, 0x1.03ef0b405bdb7p-8, -0x1.22681f0e56c20p-8, 0x1.4d76a077b67f2p-8, -0x1.82df8059213ffp-8, 0x1.c657f6f6ebae0p-8, -0x1.0ddacad46744ep-7, 0x1.472da77da9ea8p-7, -0x1.922fac9b950a8p-7, 0x1.0006bb1b95492p-6, -0x1.4a8fd5093e2bdp-6, 0x1.ca84b452ec379p-6, -0x1.3ea98547f5935p-5, 0x1.0aed5fdef7084p-4, -0x1.9fe94e3abe829p-4, 0x1.58018c1ee75fdp-2, 0x1.7200210293480p-1};
// x e^x E1(x) on [4, 16], t = (x - 8)/(x + 8): degree 20, max abs. error 1.4e-18
inline constexpr double kE1G2[] = {-0x1.7db9816903e34p-7, 0x1.9e36c96fe29dap-7, -0x1.c8c2c9c114d2bp-8, 0x1.f6dde91c68cfdp-8, -0x1.4dcd1b9105071p-7, 0x1.71b14460cc6bfp-7, -0x1.93ecc565da3ecp-7, 0x1.c4e5a880541ecp-7, -0x1.000334d84aee4p-6, 0x1.23539a7eb4aebp-6, -0x1.4e7b84984fd9cp-6, 0x1.840a92c564e0fp-6, -0x1.c79f347d2b21fp-6, 0x1.0f4e3e6251c78p-5, -0x1.48a476071617ep-5, 0x1.9674ba8aa66d6p-5, -0x1.01fc9d4e2b7dbp-4, 0x1.52cd914abf69ep-4, -0x1.d219588f2dbb9p-4, 0x1.589cebb3ba177p-3, 0x1.cbe5bc299b793p-1};

[[gnu::always_inline]] inline double exp1_vd(double x) {
  const bool small = x <= 1.0, low_mid = x <= 4.0, mid = x <= 16.0;
  const double s = -kEulerGamma - simd_math::log(x) + x * poly(x, kE1SD);
  const double K = low_mid ? 2.0 : 8.0;
  const double xm = mid ? x : 16.0;  // (small lanes: any value works, they select s)
  const double t = (xm - K) / (xm + K);
  const double g = low_mid ? poly(t, kE1G1) : poly(t, kE1G2);
  // Wallis: T = b0 + K_{n>=1}(a_n / b_n), b_n = x + 2n + 1, a_n = -n^2; E1 = e^-x B/A.
  const double xl = x < 1e3 ? x : 1e3;  // E1 underflows long before; keeps A finite
  double a_prev = 1.0, a = xl + 1.0, b_prev = 0.0, b = 1.0;
#pragma GCC unroll 12
  for (int n = 1; n <= 12; ++n) {
    const double bn = xl + (2 * n + 1), an = -static_cast<double>(n * n);
    const double a_next = simd_math::detail::fma(bn, a, an * a_prev);
    const double b_next = simd_math::detail::fma(bn, b, an * b_prev);
    a_prev = a, a = a_next, b_prev = b, b = b_next;
  }
  const double num = mid ? g : b;
  const double den = mid ? xm : a;
  const double l = simd_math::exp(-x) * (num / den);
  return select_bits(small, s, l);
}

// Ei, branch-free in double (tools/gen_special_expint_coeffs.py --expi), every lane evaluating
// each piece and selecting, as exp1_vd:
//   x < 0:        -E1(-x) (exp1_vd);
//   0 <= x <= 2:  gamma + ln x + x P(x), P the series through k = 24 (A&S 5.1.10; absolute
//                 accuracy near the zero x0 = 0.3725, where the sum cancels);
//   2 < x <= 128: e^x F(t)/x, F(t) = x e^-x Ei(x), t = (x - K)/(x + K), fits on [2, 8], [8, 32]
//                 (degree 24) and [32, 128] (degree 22), K = 4, 16, 64;
//   x > 128:      e^x/x sum_{k=0}^{12} k!/x^k (A&S 5.1.51; 3e-18 at 128).
// e^x/x is formed as e^(x/2) (e^(x/2)/x) so that Ei stays finite up to its overflow (~716).
// P(x) = sum_{k=1}^{24} x^(k-1)/(k k!), Ei(x) = gamma + ln x + x P(x) (x <= 2)
inline constexpr double kEiSD[] = {0x1.4c8a010f74e50p-84, 0x1.043f7b43bfa81p-79, 0x1.871c7e568af04p-75, 0x1.19b179783c732p-70, 0x1.843561cce681ep-66, 0x1.feccf9f2a88ffp-62, 0x1.402321fc15331p-57, 0x1.7d570699739afp-53, 0x1.ae7f3e733b81fp-49, 0x1.cb3264bf2e688p-45, 0x1.cd3f30a008e6ap-41, 0x1.b2a2edd1e100cp-37, 0x1.7e9213ff67620p-33, 0x1.390327a26bdbdp-29, 0x1.d96e5f25a9894p-26, 0x1.48c5892f7cd83p-22, 0x1.a01a01a01a01ap-19, 0x1.db8b6f9266dd5p-16, 0x1.e573ac901e574p-13, 0x1.b4e81b4e81b4fp-10, 0x1.5555555555555p-7, 0x1.c71c71c71c71cp-5, 0x1.0000000000000p-2, 0x1.0000000000000p+0};
// x e^-x Ei(x) on [2, 8], t = (x - 4)/(x + 4): degree 24, max abs. error 1.7e-19
inline constexpr double kEiF1[] = {0x1.155834ffc28f8p+2, 0x1.3387734ba3893p+2, 0x1.4e038583235d2p-1, -0x1.15ddae13f7670p+1, -0x1.ae920dcff1ff2p+1, -0x1.e5e846c5e68f3p+1, -0x1.5e78d2c89c44bp+1, -0x1.3dd8022c489c7p-2, 0x1.38d02d06106d6p+1, 0x1.02d008dd08541p+2, 0x1.c6c996aaac8bap+1, 0x1.c4d9ae9d188fep-1, -0x1.3b678da1037e8p+1, -0x1.1a0f2eb368d2ap+2, -0x1.88d6798fbd9eep+1, 0x1.ac8f5b3fa0217p-1, 0x1.1aed0c746bd96p+2, 0x1.bd712750545eep+1, -0x1.85a09becb891cp+0, -0x1.4a363d9ca518ep+2, 0x1.700ca9e524eafp-2, 0x1.02e0cd4343e0ap+2, -0x1.9e2ffc0895a67p+0, -0x1.422cd18f4c6b7p-1, 0x1.702e66cbf108fp+0};
// x e^-x Ei(x) on [8, 32], t = (x - 16)/(x + 16): degree 24, max abs. error 2.0e-19
inline constexpr double kEiF2[] = {0x1.7199001d2142fp+2, 0x1.635749a1247e2p+0, -0x1.178abf6894373p+3, -0x1.2b3037a2465e6p+2, 0x1.f86d6cb6059d4p+2, 0x1.d1d3eb5d1bdf2p+2, -0x1.6f36049aed619p+2, -0x1.16a1282868512p+3, 0x1.41fa6560228b4p+2, 0x1.0d07f7d62dfabp+3, -0x1.785a350f55bbep+2, -0x1.b62c212cbba4ep+2, 0x1.2a0b2a69e8f7dp+3, -0x1.2005d00ffa5afp-1, -0x1.a4878b1ba5d64p+2, 0x1.92a2877bb6d2bp+2, -0x1.3ad009889a9e0p+1, -0x1.67f0729549f31p-2, 0x1.29bf993e3300ep+0, -0x1.ec1f0959dad0cp-1, 0x1.35d839292d17cp-1, -0x1.78dbfaa50e84fp-2, 0x1.ebee1b21e8131p-3, -0x1.5ce017fec2438p-3, 0x1.1285334ccb79ep+0};
// x e^-x Ei(x) on [32, 128], t = (x - 64)/(x + 64): degree 22, max abs. error 5.5e-18
inline constexpr double kEiF3[] = {0x1.10d6ab9392af6p+0, -0x1.b0f5d7e6dd555p-1, -0x1.69e03d70a78ebp-8, -0x1.a7d278e74cca3p-8, 0x1.a91da5625b733p-3, -0x1.6b338c9999c21p-3, 0x1.f62df3d754690p-4, -0x1.bcfcbeeacb2bfp-4, 0x1.99aa734ad8ba3p-4, -0x1.6efe93ff00a8dp-4, 0x1.49e74d6fefa8dp-4, -0x1.2aee97c066f1dp-4, 0x1.102f94e71b327p-4, -0x1.f1b909de8a536p-5, 0x1.c8d903afcf139p-5, -0x1.a4d47bef853c6p-5, 0x1.84eca2ccc3692p-5, -0x1.68867550b335bp-5, 0x1.4f229b744b605p-5, -0x1.3857a12d8d813p-5, 0x1.23cd955152bb1p-5, -0x1.113aa5948d91bp-5, 0x1.04219a12a3d84p+0};
// x e^-x Ei(x) ~ sum_{k=0}^{12} k!/x^k, as a polynomial in 1/x (x > 128)
inline constexpr double kEiA[] = {0x1.c8cfc00000000p+28, 0x1.308a800000000p+25, 0x1.baf8000000000p+21, 0x1.6260000000000p+18, 0x1.3b00000000000p+15, 0x1.3b00000000000p+12, 0x1.6800000000000p+9, 0x1.e000000000000p+6, 0x1.8000000000000p+4, 0x1.8000000000000p+2, 0x1.0000000000000p+1, 0x1.0000000000000p+0, 0x1.0000000000000p+0};

[[gnu::always_inline]] inline double expi_vd(double x) {
  const double neg = -exp1_vd(-x);  // (NaN for x > 0, not selected there)
  const double s = kEulerGamma + simd_math::log(x) + x * poly(x, kEiSD);
  const bool r1 = x <= 8.0, r2 = x <= 32.0, r3 = x <= 128.0;
  const double K = r1 ? 4.0 : (r2 ? 16.0 : 64.0);
  const double xm = r3 ? x : 128.0;
  const double t = (xm - K) / (xm + K);
  const double f = r1 ? poly(t, kEiF1) : (r2 ? poly(t, kEiF2) : poly(t, kEiF3));
  const double xa = r3 ? 128.0 : (x < 1e300 ? x : 1e300);  // 1/x of +inf would be 0: fine, but
  const double fa = poly(1.0 / xa, kEiA);                  // keep the lanes finite anyway
  const double xe = x < 720.0 ? x : 720.0;  // e^360 * e^360/720 overflows: +inf beyond ~716
  const double half = simd_math::exp(0.5 * xe);
  const double big = half * (half / xe * (r3 ? f : fa));
  double r = select_bits(x <= 2.0, s, big);
  r = select_bits(x < 0.0, neg, r);
  return select_bits(x != x, x, r);
}


// SciPy's expn(n, x): n is truncated to an integer (a C cast); n < 0 or beyond int -> NaN.
inline double expn_d(double nf, double x) {
  if (std::isnan(nf) || std::isnan(x)) return kNaN<double>;
  if (!(nf > -1.0) || nf >= 2147483648.0) return kNaN<double>;
  const int64_t n = static_cast<int64_t>(nf);
  if (x < 0.0) return kNaN<double>;
  if (x == 0.0) return n < 2 ? kInf<double> : 1.0 / static_cast<double>(n - 1);
  if (x == kInf<double>) return 0.0;
  if (n == 0) return std::exp(-x) / x;
  if (x > 1.0 || n > 64) return expn_cf(n, x);
  if (n == 1) return exp1_d(x);
  return expn_series(n, x);
}

// E_n(x) of m <= 256 elements: the continued fraction's elements (x > 1 or n > 64, n >= 1,
// finite x) in groups of incomplete::kLanes, as the incomplete gamma's fraction: E_n(x) =
// x^(n-1) Gamma(1-n, x) = e^-x / (x + n - 1 n/(x + n + 2 - ...)) is igamc_cf's fraction with
// a = 1 - n and prefactor e^-x (special_incomplete_gamma_lanes.h); everything else (the
// series for x <= 1, n = 0, the edges) one by one through expn_d.  tol: the fraction's
// stopping test.  n, x, out may not alias.
inline void expn_chunk(const double* n, const double* x, double* out, int m, double tol) {
  namespace inc = special::incomplete;
  constexpr int kMax = 256, kL = inc::kLanes;
  double pa[kMax + kL], px[kMax + kL], pf[kMax + kL], pv[kMax + kL];
  int16_t at[kMax];
  int cnt = 0;
  for (int i = 0; i < m; ++i) {
    const double nf = n[i], xi = x[i];
    // expn_d's fraction region (its earlier returns excluded): n an integer >= 1 in range
    const bool fraction = nf >= 1.0 && nf < 2147483648.0 && xi > 0.0 && xi < kInf<double> &&
                          (xi > 1.0 || nf >= 65.0);
    if (!fraction) {
      out[i] = expn_d(nf, xi);
      continue;
    }
    pa[cnt] = 1.0 - std::trunc(nf);
    px[cnt] = xi;
    at[cnt++] = static_cast<int16_t>(i);
  }
  const int padded = (cnt + kL - 1) / kL * kL;
  for (int j = cnt; j < padded; ++j) {  // lanes that converge at once: E_1(2)
    pa[j] = 0.0;
    px[j] = 2.0;
  }
  for (int j = 0; j < padded; ++j) pf[j] = simd_math::exp(-px[j]);
  for (int j = 0; j < padded; j += kL) inc::fraction_q_lanes(pa + j, px + j, pf + j, pv + j, tol);
  for (int j = 0; j < cnt; ++j) out[at[j]] = pv[j];
}

}  // namespace arraycore::native::special::integrals_polynomials

namespace arraycore::native {
namespace {

namespace ip = special::integrals_polynomials;

struct Exp1 {
  [[gnu::always_inline]] static float apply(float x) { return ip::exp1_f(x); }
  [[gnu::always_inline]] static double apply(double x) { return ip::exp1_vd(x); }
};
struct Expi {
  template <class T>
  [[gnu::always_inline]] static T apply(T x) {
    return static_cast<T>(ip::expi_vd(static_cast<double>(x)));
  }
};
// expn: any strides; the operands are run by expn_chunk (the continued fractions in lanes)
// in chunks of doubles.  Float results stop the fraction at a relative change of 1e-10
// (float needs ~1e-8), double ones at 2^-52.
template <class T>
void expn_loop(char** p, const int64_t* s, int64_t n) {
  constexpr double tol = sizeof(T) == 4 ? 1e-10 : 2.220446049250313e-16;
  run_in_double_chunks<T, 2>(p, s, n, [](const double (*in)[256], double* out, int m) {
    ip::expn_chunk(in[0], in[1], out, m, tol);
  });
}

}  // namespace

AC_REGISTER_KERNELS(special_integrals_polynomials_expint) {
  register_unary<Exp1>("exp1", RealFloatTypes{}, 40.0);
  register_unary<Expi>("expi", RealFloatTypes{}, 40.0);
  register_real_float_loops("expn", 2, 60.0, &expn_loop<float>, &expn_loop<double>);
}

}  // namespace arraycore::native
