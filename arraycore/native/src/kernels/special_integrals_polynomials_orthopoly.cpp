// Special functions, family integrals_polynomials: PyTorch's orthogonal polynomials
// (torch.special.chebyshev_polynomial_t/u/v/w, shifted_chebyshev_polynomial_t/u/v/w,
// hermite_polynomial_h/he, laguerre_polynomial_l, legendre_polynomial_p), f(x, n).
//
// Semantics are PyTorch's (torch 2.13, aten's CPU kernels), including its treatment of n:
//  - n is truncated toward zero to an int64 (NaN, +-inf and |n| >= 2^63 give INT64_MIN, as the
//    x86 conversion does), and a negative n gives 0;
//  - the special values it returns at x = +-1 (Chebyshev), x = 0 / 1 (shifted), x = 0
//    (Laguerre), n = 0 and n = 1;
//  - where the three-term recurrence overflows, the next step computes inf - inf, so the
//    result is NaN (and inf when only the last step overflows).  float32 is evaluated in
//    double; an intermediate value beyond the float32 range makes the float32 result NaN,
//    as PyTorch's float32 recurrence gives.
// Where PyTorch's result is not defined (x = NaN and n >= 2: its loop reads an uninitialized
// variable) we return NaN.
//
// Methods: the three-term recurrences (DLMF 18.9.1 with the coefficients of table 18.9.1;
// Mason & Handscomb, "Chebyshev Polynomials", 1.2 for the third and fourth kinds V and W):
//   T, U, V, W:  r = 2y q - p, first two terms 1 and y, 2y, 2y - 1, 2y + 1 (y = 2x - 1 for the
//                shifted ones)
//   H:   H_{k+1} = 2x H_k - 2k H_{k-1};   He: He_{k+1} = x He_k - k He_{k-1}
//   L:   (k+1) L_{k+1} = (2k + 1 - x) L_k - k L_{k-1}
//   P:   (k+1) P_{k+1} = (2k + 1) x P_k - k P_{k-1}
// For |y| < 1 and n > 16 the trigonometric closed forms (DLMF 18.5.1, Mason & Handscomb 1.4):
//   T_n = cos(n t), U_n = sin((n+1) t)/sin t, V_n = cos((n+1/2) t)/cos(t/2),
//   W_n = sin((n+1/2) t)/sin(t/2), t = acos y;
// for |y| > 1 and n > 2^20 the hyperbolic ones (t = acosh |y|), so that no input loops long.
// Laguerre and Legendre have no such closed form: n > 2^24 gives NaN (PyTorch runs the
// n-step loop, seconds to centuries).  Hermite: n > 512 (float64) or 128 (float32) is NaN
// (the value overflows for every x; PyTorch has the same limits).
//
// A scalar n (the usual call: torch.special.*(x, 8)) with contiguous x runs the recurrence
// for a whole block at a time, each step a vectorized loop over the block.
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernel_loops.h"
#include "special_common.h"

namespace arraycore::native::special::integrals_polynomials {

inline constexpr int64_t kClosedFormMinN = 16;          // |y| < 1: recurrence up to here
inline constexpr int64_t kHyperbolicMinN = int64_t{1} << 20;
inline constexpr int64_t kLoopMaxN = int64_t{1} << 24;  // Laguerre, Legendre
inline constexpr double kF32Max = 3.4028235677973366e38;  // rounds to inf in float32 above

// torch's static_cast<int64_t>(n): truncation; NaN/inf/out of range -> INT64_MIN (x86).
inline int64_t torch_degree(double n) {
  if (n > -9.2233720368547758e18 && n < 9.2233720368547758e18) return static_cast<int64_t>(n);
  return std::numeric_limits<int64_t>::min();
}

enum class Cheb { T, U, V, W };

// Result of a recurrence in double: its value, and whether a float32 evaluation would have
// turned NaN (a step whose both inputs, or whose multiplied input with a zero factor, were
// beyond the float32 range: inf - inf or 0 * inf).
struct RecResult {
  double value;
  bool f32_nan;
};

// The float32 NaN test of one step with inputs q (multiplied by a factor that is 0 when
// zero_factor) and p.
inline bool f32_step_nan(double q, double p, bool zero_factor) {
  return std::fabs(q) > kF32Max && (std::fabs(p) > kF32Max || zero_factor);
}

// Chebyshev kinds: first-degree value.
inline double cheb_first(Cheb k, double y) {
  switch (k) {
    case Cheb::T: return y;
    case Cheb::U: return y + y;
    case Cheb::V: return y + y - 1.0;
    default: return y + y + 1.0;
  }
}

inline RecResult cheb_recurrence(Cheb kind, double y, int64_t n) {
  double p = 1.0, q = cheb_first(kind, y);
  bool nan32 = false;
  for (int64_t k = 2; k <= n && q == q; ++k) {
    nan32 |= f32_step_nan(q, p, y == 0.0);
    const double r = (y + y) * q - p;
    p = q;
    q = r;
  }
  return {q, nan32};
}

// The values at y = +-1 (PyTorch returns them before any arithmetic).
inline double cheb_at_one(Cheb kind, bool positive, int64_t n) {
  const double nd = static_cast<double>(n);
  const bool even = n % 2 == 0;
  switch (kind) {
    case Cheb::T: return positive || even ? 1.0 : -1.0;
    case Cheb::U: return positive || even ? nd + 1.0 : -(nd + 1.0);
    case Cheb::V: return positive ? 1.0 : (even ? 2.0 * nd + 1.0 : -(2.0 * nd + 1.0));
    default: return positive ? 2.0 * nd + 1.0 : (even ? 1.0 : -1.0);
  }
}

inline double cheb_trig(Cheb kind, double y, int64_t n) {
  const double t = std::acos(y), nd = static_cast<double>(n);
  switch (kind) {
    case Cheb::T: return std::cos(nd * t);
    case Cheb::U: return std::sin((nd + 1.0) * t) / std::sin(t);
    case Cheb::V: return std::cos((nd + 0.5) * t) / std::cos(0.5 * t);
    default: return std::sin((nd + 0.5) * t) / std::sin(0.5 * t);
  }
}

// |y| > 1, n large: hyperbolic forms; an overflowing value is NaN (the recurrence's inf-inf).
inline double cheb_hyperbolic(Cheb kind, double y, int64_t n, bool f32) {
  const double ay = std::fabs(y), t = std::acosh(ay), nd = static_cast<double>(n);
  const bool odd = n % 2 != 0;
  double v;
  // For y < -1: T_n, U_n have parity n; V_n(-a) = (-1)^n W_n(a), W_n(-a) = (-1)^n V_n(a).
  Cheb k = kind;
  if (y < 0 && (kind == Cheb::V || kind == Cheb::W)) k = kind == Cheb::V ? Cheb::W : Cheb::V;
  switch (k) {
    case Cheb::T: v = std::cosh(nd * t); break;
    case Cheb::U: v = std::sinh((nd + 1.0) * t) / std::sinh(t); break;
    case Cheb::V: v = std::cosh((nd + 0.5) * t) / std::cosh(0.5 * t); break;
    default: v = std::sinh((nd + 0.5) * t) / std::sinh(0.5 * t); break;
  }
  if (y < 0 && odd) v = -v;
  if (!(std::fabs(v) <= (f32 ? kF32Max : std::numeric_limits<double>::max())))
    return kNaN<double>;
  return v;
}

// y: the Chebyshev argument (x, or 2x - 1 for the shifted polynomials); at_one: whether
// PyTorch's exact test for y = +-1 holds (|x| == 1, or x == 1 / x == 0 when shifted).
inline double chebyshev(Cheb kind, double y, bool at_plus_one, bool at_minus_one, int64_t n,
                        bool f32) {
  if (n < 0) return 0.0;
  if (at_plus_one || at_minus_one) return cheb_at_one(kind, at_plus_one, n);
  if (n > kClosedFormMinN && std::fabs(y) < 1.0) return cheb_trig(kind, y, n);
  if (n == 0) return 1.0;
  if (n == 1) return cheb_first(kind, y);
  if (y != y) return kNaN<double>;
  if (n > kHyperbolicMinN) return cheb_hyperbolic(kind, y, n, f32);
  const RecResult r = cheb_recurrence(kind, y, n);
  return f32 && r.f32_nan ? kNaN<double> : r.value;
}

inline double hermite_h(double x, int64_t n, bool f32) {
  if (n < 0) return 0.0;
  if (n == 0) return 1.0;
  if (n == 1) return x + x;
  if (n > (f32 ? 128 : 512) || x != x) return kNaN<double>;
  double p = 1.0, q = x + x;
  bool nan32 = false;
  for (int64_t k = 2; k < n + n && q == q; k += 2) {
    nan32 |= f32_step_nan(q, p, x == 0.0);
    const double r = (x + x) * q - static_cast<double>(k) * p;
    p = q;
    q = r;
  }
  return f32 && nan32 ? kNaN<double> : q;
}

inline double hermite_he(double x, int64_t n, bool f32) {
  if (n < 0) return 0.0;
  if (n == 0) return 1.0;
  if (n == 1) return x;
  if (n > (f32 ? 128 : 512) || x != x) return kNaN<double>;
  double p = 1.0, q = x;
  bool nan32 = false;
  for (int64_t k = 1; k < n && q == q; ++k) {
    nan32 |= f32_step_nan(q, p, x == 0.0);
    const double r = x * q - static_cast<double>(k) * p;
    p = q;
    q = r;
  }
  return f32 && nan32 ? kNaN<double> : q;
}

inline double laguerre_l(double x, int64_t n, bool f32) {
  if (n < 0) return 0.0;
  if (x == 0.0) return 1.0;
  if (n == 0) return 1.0;
  if (n == 1) return 1.0 - x;
  if (n > kLoopMaxN || x != x) return kNaN<double>;
  double p = 1.0, q = 1.0 - x;
  bool nan32 = false;
  for (int64_t k = 1; k < n && q == q; ++k) {
    nan32 |= f32_step_nan(q, p, x == 0.0);
    const double kd = static_cast<double>(k);
    const double r = ((kd + kd + (1.0 - x)) * q - kd * p) / (kd + 1.0);
    p = q;
    q = r;
  }
  return f32 && nan32 ? kNaN<double> : q;
}

inline double legendre_p(double x, int64_t n, bool f32) {
  if (n < 0) return 0.0;
  if (std::fabs(x) == 1.0) return x > 0.0 || n % 2 == 0 ? 1.0 : -1.0;
  if (n == 0) return 1.0;
  if (n == 1) return x;
  if (n > kLoopMaxN || x != x) return kNaN<double>;
  double p = 1.0, q = x;
  bool nan32 = false;
  for (int64_t k = 1; k < n && q == q; ++k) {
    nan32 |= f32_step_nan(q, p, x == 0.0);
    const double kd = static_cast<double>(k);
    const double r = ((kd + kd + 1.0) * x * q - kd * p) / (kd + 1.0);
    p = q;
    q = r;
  }
  return f32 && nan32 ? kNaN<double> : q;
}

// ---- one op per polynomial: scalar evaluation and the block recurrence ------------------

template <Cheb K, bool Shifted>
struct ChebOp {
  static double eval(double x, int64_t n, bool f32) {
    if (Shifted) return chebyshev(K, x + x - 1.0, x == 1.0, x == 0.0, n, f32);
    return chebyshev(K, x, x == 1.0, x == -1.0, n, f32);
  }
  // Block recurrence, 2 <= n <= kClosedFormMinN: the plain recurrence gives PyTorch's values
  // at y = +-1 exactly (small integers) and NaN for NaN.
  static constexpr int64_t kBlockMaxN = kClosedFormMinN;
  static double first(double x) { return cheb_first(K, Shifted ? x + x - 1.0 : x); }
  static double y_of(double x) { return Shifted ? x + x - 1.0 : x; }
  static bool zero_factor(double x) { return y_of(x) == 0.0; }
  static double step(double x, double q, double p, int64_t) {
    const double y = y_of(x);
    return (y + y) * q - p;
  }
  static constexpr int64_t k_start = 2, k_step = 1;
  static int64_t k_end(int64_t n) { return n + 1; }
};

struct HermiteHOp {
  static bool zero_factor(double x) { return x == 0.0; }
  static double eval(double x, int64_t n, bool f32) { return hermite_h(x, n, f32); }
  static constexpr int64_t kBlockMaxN = 64;
  static double first(double x) { return x + x; }
  static double step(double x, double q, double p, int64_t k) {
    return (x + x) * q - static_cast<double>(k) * p;
  }
  static constexpr int64_t k_start = 2, k_step = 2;
  static int64_t k_end(int64_t n) { return n + n; }
};

struct HermiteHeOp {
  static bool zero_factor(double x) { return x == 0.0; }
  static double eval(double x, int64_t n, bool f32) { return hermite_he(x, n, f32); }
  static constexpr int64_t kBlockMaxN = 64;
  static double first(double x) { return x; }
  static double step(double x, double q, double p, int64_t k) {
    return x * q - static_cast<double>(k) * p;
  }
  static constexpr int64_t k_start = 1, k_step = 1;
  static int64_t k_end(int64_t n) { return n; }
};

struct LaguerreOp {
  static bool zero_factor(double x) { return x == 0.0; }
  static double eval(double x, int64_t n, bool f32) { return laguerre_l(x, n, f32); }
  static constexpr int64_t kBlockMaxN = 64;
  static double first(double x) { return 1.0 - x; }
  static double step(double x, double q, double p, int64_t k) {
    const double kd = static_cast<double>(k);
    return ((kd + kd + (1.0 - x)) * q - kd * p) / (kd + 1.0);
  }
  static constexpr int64_t k_start = 1, k_step = 1;
  static int64_t k_end(int64_t n) { return n; }
};

struct LegendreOp {
  static bool zero_factor(double x) { return x == 0.0; }
  static double eval(double x, int64_t n, bool f32) { return legendre_p(x, n, f32); }
  static constexpr int64_t kBlockMaxN = 64;
  static double first(double x) { return x; }
  static double step(double x, double q, double p, int64_t k) {
    const double kd = static_cast<double>(k);
    return ((kd + kd + 1.0) * x * q - kd * p) / (kd + 1.0);
  }
  static constexpr int64_t k_start = 1, k_step = 1;
  static int64_t k_end(int64_t n) { return n; }
};

// Whether an x needs the scalar path in the block recurrence (its special cases differ from
// what the plain recurrence computes): Laguerre at x = 0 is 1 either way; Legendre at
// |x| == 1 is +-1 either way (exact small-integer arithmetic); NaN x gives NaN either way.
// So no op needs it for 2 <= n <= kBlockMaxN.

// (The float32 NaN flags are kept as factors 1 or NaN in a double array, set with & and |
// tests and applied by a product (exact, -0 and inf included): a bool array, short-circuit
// tests and a final select keep the loops from vectorizing.)
// One block's recurrence.  Track (float32 only) sets the NaN flags; without it the loop
// returns whether some |q| left the float range (or is NaN), so the caller knows whether
// the flags could matter.  (An int `|=` of a comparison: the pattern GCC vectorizes.)
template <class P, bool Track>
int poly_block_run(const double* xs, double* p, double* q, double* nan32, int64_t len,
                      int64_t n) {
  int over = 0;
  for (int64_t i = 0; i < len; ++i) {
    p[i] = 1.0;
    q[i] = P::first(xs[i]);
    nan32[i] = 1.0;
    over |= std::fabs(q[i]) <= kF32Max ? 0 : 1;
  }
  for (int64_t k = P::k_start; k < P::k_end(n); k += P::k_step) {
    for (int64_t i = 0; i < len; ++i) {
      if constexpr (Track) {
        const bool nan = (std::fabs(q[i]) > kF32Max) &
                         ((std::fabs(p[i]) > kF32Max) | P::zero_factor(xs[i]));
        nan32[i] = nan ? kNaN<double> : nan32[i];
      }
      const double r = P::step(xs[i], q[i], p[i], k);
      p[i] = q[i];
      q[i] = r;
      if constexpr (!Track) over |= std::fabs(r) <= kF32Max ? 0 : 1;
    }
  }
  return over;
}

// float32: a block first runs without the NaN flags (which cost more than the recurrence
// step itself); only a block where some |q| passed the float range (NaN included, which
// the comparison also catches) is rerun with them.
template <class P, class T>
void poly_block(T* out, const T* x, int64_t m, int64_t n) {
  constexpr int64_t kB = 256;
  constexpr bool f32 = sizeof(T) == 4;
  double xs[kB], p[kB], q[kB], nan32[kB];
  for (int64_t b = 0; b < m; b += kB) {
    const int64_t len = m - b < kB ? m - b : kB;
    for (int64_t i = 0; i < len; ++i) xs[i] = static_cast<double>(x[b + i]);
    if constexpr (f32) {
      if (poly_block_run<P, false>(xs, p, q, nan32, len, n))
        poly_block_run<P, true>(xs, p, q, nan32, len, n);
    } else {
      poly_block_run<P, false>(xs, p, q, nan32, len, n);
    }
    for (int64_t i = 0; i < len; ++i) {
      double v = q[i];
      if constexpr (f32) v *= nan32[i];
      out[b + i] = static_cast<T>(v);
    }
  }
}

}  // namespace arraycore::native::special::integrals_polynomials

namespace arraycore::native {
namespace {

namespace ip = special::integrals_polynomials;

template <class P, class T>
void poly_loop(char** a, const int64_t* s, int64_t count) {
  constexpr bool f32 = sizeof(T) == 4;
  if (s[0] == sizeof(T) && s[1] == sizeof(T) && s[2] == 0) {
    const int64_t n = ip::torch_degree(static_cast<double>(*reinterpret_cast<const T*>(a[2])));
    if (n >= 2 && n <= P::kBlockMaxN) {
      ip::poly_block<P, T>(reinterpret_cast<T*>(a[0]), reinterpret_cast<const T*>(a[1]),
                           count, n);
      return;
    }
  }
  char* po = a[0];
  const char *px = a[1], *pn = a[2];
  for (int64_t i = 0; i < count; ++i, po += s[0], px += s[1], pn += s[2]) {
    const double x = static_cast<double>(*reinterpret_cast<const T*>(px));
    const int64_t n = ip::torch_degree(static_cast<double>(*reinterpret_cast<const T*>(pn)));
    *reinterpret_cast<T*>(po) = static_cast<T>(P::eval(x, n, f32));
  }
}

template <class P>
void register_poly(const char* name) {
  Kernel& k = KernelRegistry::instance().define(name, 2, 40.0);
  set_loop<P, float>(k, &poly_loop<P, float>, DType::Float32);
  set_loop<P, double>(k, &poly_loop<P, double>, DType::Float64);
}

}  // namespace

AC_REGISTER_KERNELS(special_integrals_polynomials_orthopoly) {
  using ip::Cheb;
  register_poly<ip::ChebOp<Cheb::T, false>>("chebyshev_polynomial_t");
  register_poly<ip::ChebOp<Cheb::U, false>>("chebyshev_polynomial_u");
  register_poly<ip::ChebOp<Cheb::V, false>>("chebyshev_polynomial_v");
  register_poly<ip::ChebOp<Cheb::W, false>>("chebyshev_polynomial_w");
  register_poly<ip::ChebOp<Cheb::T, true>>("shifted_chebyshev_polynomial_t");
  register_poly<ip::ChebOp<Cheb::U, true>>("shifted_chebyshev_polynomial_u");
  register_poly<ip::ChebOp<Cheb::V, true>>("shifted_chebyshev_polynomial_v");
  register_poly<ip::ChebOp<Cheb::W, true>>("shifted_chebyshev_polynomial_w");
  register_poly<ip::HermiteHOp>("hermite_polynomial_h");
  register_poly<ip::HermiteHeOp>("hermite_polynomial_he");
  register_poly<ip::LaguerreOp>("laguerre_polynomial_l");
  register_poly<ip::LegendreOp>("legendre_polynomial_p");
}

}  // namespace arraycore::native
