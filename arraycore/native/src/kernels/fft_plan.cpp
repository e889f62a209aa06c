// FFT plans: factorization into radix passes, twiddle tables, the four-step split, Bluestein
// tables, and the cache keyed by (length, precision, direction).
//
// Twiddles are computed directly (never by recurrence) from the exact integer angle index
// reduced modulo the length, in long double for double plans and in double for float plans,
// then rounded once: the tables carry no accumulated error (see docs/fft.md, "Accuracy").
#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>
#include <map>
#include <mutex>
#include <tuple>

#include "../errors.h"
#include "fft_exec.h"
#include "fft_plan.h"

namespace arraycore::native::fft {

std::vector<int> prime_factors(int64_t n) {
  std::vector<int> f;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) { f.push_back(static_cast<int>(p)); n /= p; }
  if (n > 1) f.push_back(static_cast<int>(std::min<int64_t>(n, INT32_MAX)));
  return f;
}

namespace {

// exp(sign * 2*pi*i * k / N), rounded once to T.
template <class T>
void unit_root(int64_t k, int64_t N, int sign, T* re, T* im) {
  k %= N;
  if (k < 0) k += N;
  // Reduce to the first octant so the argument of sin/cos is small and exact symmetries
  // (w^(N/4) = i, ...) come out exactly.
  using W = std::conditional_t<std::is_same_v<T, float>, double, long double>;
  // angle = 2*pi*k/N; use 8k relative to N to locate the octant.
  const __int128 k8 = static_cast<__int128>(k) * 8;
  int oct = static_cast<int>(k8 / N);  // 0..7
  // r = k - oct*N/8 in units of 1/(8N): work with numerator k8 - oct*N over 8N.
  const __int128 rem = k8 - static_cast<__int128>(oct) * N;  // in [0, N)
  // Angle within the octant: (rem / N) * (pi/4).
  W a = static_cast<W>(static_cast<long double>(rem) / static_cast<long double>(N)) *
        static_cast<W>(0.785398163397448309615660845819875721L);
  // For odd octants measure from the octant's upper end for accuracy near multiples of pi/4.
  W c, s;
  if (oct & 1) {
    const W b = static_cast<W>(static_cast<long double>(N - rem) / static_cast<long double>(N)) *
                static_cast<W>(0.785398163397448309615660845819875721L);
    // angle = (oct+1)*pi/4 - b
    const W cb = std::cos(b), sb = std::sin(b);
    switch (oct) {
      case 1: c = sb; s = cb; break;     // pi/2 - b
      case 3: c = -cb; s = sb; break;    // pi - b
      case 5: c = -sb; s = -cb; break;   // 3pi/2 - b
      default: c = cb; s = -sb; break;   // 2pi - b
    }
  } else {
    const W ca = std::cos(a), sa = std::sin(a);
    switch (oct) {
      case 0: c = ca; s = sa; break;
      case 2: c = -sa; s = ca; break;    // pi/2 + a
      case 4: c = -ca; s = -sa; break;   // pi + a
      default: c = sa; s = -ca; break;   // 3pi/2 + a
    }
  }
  *re = static_cast<T>(c);
  *im = static_cast<T>(sign > 0 ? s : -s);
}


// Smallest 2^a 3^b 5^c >= n.
int64_t smooth_at_least(int64_t n) {
  int64_t best = INT64_MAX;
  for (int64_t p5 = 1; p5 < 2 * n + 8; p5 *= 5)
    for (int64_t p35 = p5; p35 < 2 * n + 8; p35 *= 3) {
      int64_t v = p35;
      while (v < n) v *= 2;
      best = std::min(best, v);
    }
  return best;
}

// Rough operation count of the Stockham passes for these prime factors: a radix-p pass does
// ~p operations per element (fixed butterflies a little less, the generic one a little
// more); powers of two count 1 per factor 2.
double passes_cost(int64_t n, const std::vector<int>& primes) {
  double c = 0;
  for (int p : primes) c += p == 2 ? 1.0 : p <= 5 ? p : 1.1 * p;
  return c * static_cast<double>(n);
}

// Direct passes or Bluestein, for a length with a prime factor above 16.  Direct generic
// passes are the more accurate (measured with tests/test_fft_accuracy.py in double: about
// half Bluestein's error at 4*179 or 18*181, where Bluestein sums the errors of three
// transforms of twice the length), so they are used unless Bluestein is clearly cheaper:
// its cost is counted as 16 passes-worth over its convolution length M (two transforms, the
// kernel product and the chirps), a margin that keeps direct every length pocketfft
// computes directly, and 2 * 317 (cost ratio 13.3), where direct passes measured as fast
// as Bluestein and 0.65x its error (the real transform of 4 * 317 rides on it).
bool prefer_direct(int64_t n, const std::vector<int>& primes) {
  const int pmax = primes.empty() ? 1 : primes.back();
  if (pmax <= 16) return true;
  if (pmax > kMaxDirectRadix) return false;
  const int64_t M = smooth_at_least(2 * n - 1);
  return passes_cost(n, primes) <= 16.0 * passes_cost(M, prime_factors(M));
}

// Radices of the Stockham passes, or empty when Bluestein is the better choice.
std::vector<int> choose_radices(int64_t n) {
  std::vector<int> primes = prime_factors(n);
  if (!prefer_direct(n, primes)) return {};
  int twos = 0;
  std::vector<int> odd;
  for (int p : primes) {
    if (p == 2) ++twos; else odd.push_back(p);
  }
  std::vector<int> r;
  // Radix 16 carries most of the powers of two: each pass streams the whole batch through L2,
  // so fewer passes win over lower register pressure.  The rest: 8, 4, or 8*4 for 2^5.
  while (twos >= 4 && twos != 5) { r.push_back(16); twos -= 4; }
  if (twos == 5) { r.push_back(8); r.push_back(4); }
  else if (twos == 3) r.push_back(8);
  else if (twos == 2) r.push_back(4);
  else if (twos == 1) r.push_back(2);
  for (int p : odd) r.push_back(p);
  return r;
}

// Radices of the row kernel's transforms (fft_real_rows.cpp), empty where Bluestein would
// be chosen.  Its batch is one vector wide and stays in L1, so register pressure, not the
// number of trips through the batch, decides: radix 8 (whose butterfly fits the 16 AVX2
// registers with few spills) carries the powers of two, instead of radix 16 (rfft of
// 4096 x 1024 float32, AVX2 build, the inner length 64 as 8 x 8: 3.02-3.04 ms; 16 x 4:
// 3.17-3.18; 4 x 16: 3.08-3.11; 4 x 4 x 4: 3.40-3.41).
std::vector<int> choose_row_radices(int64_t n) {
  std::vector<int> r = choose_radices(n);
  if (r.empty()) return r;
  int twos = 0;
  std::vector<int> odd;
  for (int p : prime_factors(n)) {
    if (p == 2) ++twos; else odd.push_back(p);
  }
  r.clear();
  for (; twos >= 3; twos -= 3) r.push_back(8);
  if (twos == 2) r.push_back(4);
  else if (twos == 1) r.push_back(2);
  for (int p : odd) r.push_back(p);
  return r;
}

template <class T>
void build_stockham(Plan<T>& plan, const std::vector<int>& radices) {
  int64_t m = plan.n;
  for (int p : radices) {
    Pass<T> ps;
    ps.radix = p;
    m /= p;
    ps.m = m;
    const int64_t len = m * p;  // the sub-transform length this pass's twiddles belong to
    ps.tw_re.resize(m * (p - 1));
    ps.tw_im.resize(m * (p - 1));
    for (int64_t q = 0; q < m; ++q)
      for (int k = 1; k < p; ++k)
        unit_root<T>(q * k, len, plan.sign, &ps.tw_re[q * (p - 1) + k - 1],
                     &ps.tw_im[q * (p - 1) + k - 1]);
    if (p != 2 && p != 3 && p != 4 && p != 5 && p != 8 && p != 16) {
      ps.root_re.resize(p);
      ps.root_im.resize(p);
      for (int t = 0; t < p; ++t) unit_root<T>(t, p, plan.sign, &ps.root_re[t], &ps.root_im[t]);
      if (std::is_same_v<T, float> && p >= kWideOddRadix) {
        ps.wide_root_re.resize(p);
        ps.wide_root_im.resize(p);
        for (int t = 0; t < p; ++t)
          unit_root<double>(t, p, plan.sign, &ps.wide_root_re[t], &ps.wide_root_im[t]);
        ps.wide_tw_re.resize(m * (p - 1));
        ps.wide_tw_im.resize(m * (p - 1));
        for (int64_t q = 0; q < m; ++q)
          for (int k = 1; k < p; ++k)
            unit_root<double>(q * k, len, plan.sign, &ps.wide_tw_re[q * (p - 1) + k - 1],
                              &ps.wide_tw_im[q * (p - 1) + k - 1]);
      }
    }
    plan.passes.push_back(std::move(ps));
  }
}

template <class T>
void build_four_step(Plan<T>& plan) {
  const int64_t n = plan.n;
  int64_t n1 = 1;
  for (int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) n1 = d;
  if (n1 < 8) return;  // no balanced split: stay with plain passes
  auto plan1 = get_plan<T>(n1, plan.sign);
  auto plan2 = get_plan<T>(n / n1, plan.sign);
  // The split's steps run Stockham passes; a factor whose own plan is Bluestein (a large
  // prime, which the whole length's plan takes as a direct radix-p pass, as prefer_direct
  // weighs it there) leaves the length with its plain passes.
  if (plan1->kind != Plan<T>::Kind::Stockham || plan2->kind != Plan<T>::Kind::Stockham) return;
  plan.n1 = n1;
  plan.n2 = n / n1;
  plan.plan1 = std::move(plan1);
  plan.plan2 = std::move(plan2);
  plan.w1 = four_step_block_width<T>(plan.n1);
  plan.tw4_re.resize(n);
  plan.tw4_im.resize(n);
  for (int64_t c0 = 0; c0 < plan.n2; c0 += plan.w1) {
    const int64_t w = std::min(plan.w1, plan.n2 - c0);
    for (int64_t k1 = 0; k1 < plan.n1; ++k1)
      for (int64_t b = 0; b < w; ++b) {
        const int64_t at = c0 * plan.n1 + k1 * w + b;
        unit_root<T>(k1 * (c0 + b), n, plan.sign, &plan.tw4_re[at], &plan.tw4_im[at]);
      }
  }
}

// ---- the Bluestein kernel in extended precision ----
//
// The kernel's FFT is one of the three transforms whose rounding errors add up in a
// Bluestein result; computed in long double (64-bit mantissa on x86-64) and rounded once it
// contributes nothing, which makes double-precision Bluestein ~20% more accurate (measured:
// tests/test_fft_accuracy.py).  A plain recursive decimation-in-time transform over the
// factors 2, 3, 5 of the 5-smooth length M: scalar and slow (~0.1 s for M = 2^17), so it is
// used up to kExactKernelMax and plans beyond keep the double kernel.
constexpr int64_t kExactKernelMax = int64_t(1) << 17;

using CLD = std::complex<long double>;

// out[k] = sum_t in[t*stride] w^(t*k) for k < N, w = roots[M/N] (roots: w_M^j, j < M).
void ld_dft_rec(const CLD* in, int64_t stride, CLD* out, int64_t N, const std::vector<CLD>& roots) {
  if (N == 1) { out[0] = in[0]; return; }
  const int p = N % 2 == 0 ? 2 : N % 3 == 0 ? 3 : 5;
  const int64_t m = N / p;
  for (int r = 0; r < p; ++r) ld_dft_rec(in + r * stride, stride * p, out + r * m, m, roots);
  const int64_t M = static_cast<int64_t>(roots.size()), step = M / N;
  long double yr[5], yi[5];
  for (int64_t k = 0; k < m; ++k) {
    for (int q = 0; q < p; ++q) {
      long double ar = 0, ai = 0;
      int64_t e = 0;  // r * (k + q*m) mod N
      const int64_t de = k + q * m;
      for (int r = 0; r < p; ++r) {
        // Plain real arithmetic: std::complex<long double> products would go through the
        // C99 NaN-checking __mulxc3.
        const long double wr = roots[e * step].real(), wi = roots[e * step].imag();
        const long double xr = out[r * m + k].real(), xi = out[r * m + k].imag();
        ar += wr * xr - wi * xi;
        ai += wr * xi + wi * xr;
        e += de;
        if (e >= N) e -= N;
      }
      yr[q] = ar;
      yi[q] = ai;
    }
    for (int q = 0; q < p; ++q) out[k + q * m] = CLD(yr[q], yi[q]);
  }
}

// Kernel b_u = conj(c_u) for |u| < n wrapped on M, transformed (forward) and divided by M.
template <class T>
void bluestein_kernel(int64_t n, int64_t M, int sign, std::vector<T>& kr, std::vector<T>& ki) {
  kr.resize(M);
  ki.resize(M);
  auto chirp_index = [&](int64_t t) {  // t^2 mod 2n, exactly
    return static_cast<int64_t>((static_cast<unsigned __int128>(t) * t) %
                                static_cast<unsigned __int128>(2 * n));
  };
  if (std::is_same_v<T, double> && M <= kExactKernelMax) {
    std::vector<CLD> roots(M), b(M, CLD(0)), out(M);
    for (int64_t j = 0; j < M; ++j) {
      long double r, i;
      unit_root<long double>(j, M, -1, &r, &i);
      roots[j] = CLD(r, i);
    }
    for (int64_t u = 0; u < n; ++u) {
      long double r, i;
      unit_root<long double>(chirp_index(u), 2 * n, -sign, &r, &i);  // conj(c_u)
      b[u] = CLD(r, i);
      if (u > 0) b[M - u] = b[u];
    }
    ld_dft_rec(b.data(), 1, out.data(), M, roots);
    for (int64_t t = 0; t < M; ++t) {
      kr[t] = static_cast<T>(out[t].real() / M);
      ki[t] = static_cast<T>(out[t].imag() / M);
    }
    return;
  }
  // Double precision (exact enough for single-precision plans; large double plans).
  std::vector<double> br(M, 0.0), bi(M, 0.0);
  for (int64_t u = 0; u < n; ++u) {
    unit_root<double>(chirp_index(u), 2 * n, -sign, &br[u], &bi[u]);
    if (u > 0) { br[M - u] = br[u]; bi[M - u] = bi[u]; }
  }
  auto dplan = get_plan<double>(M, -1);
  execute<double>(*dplan, br.data(), bi.data(), 1);
  for (int64_t t = 0; t < M; ++t) {
    kr[t] = static_cast<T>(br[t] / static_cast<double>(M));
    ki[t] = static_cast<T>(bi[t] / static_cast<double>(M));
  }
}

template <class T>
void build_bluestein(Plan<T>& plan) {
  const int64_t n = plan.n;
  plan.kind = Plan<T>::Kind::Bluestein;
  plan.m_conv = smooth_at_least(2 * n - 1);
  const int64_t M = plan.m_conv;
  plan.plan_conv = get_plan<T>(M, -1);
  // chirp c_t = exp(sign*i*pi*t^2/n) = unit_root(t^2 mod 2n, 2n).
  plan.chirp_re.resize(n);
  plan.chirp_im.resize(n);
  for (int64_t t = 0; t < n; ++t) {
    const int64_t k = static_cast<int64_t>((static_cast<unsigned __int128>(t) * t) %
                                           static_cast<unsigned __int128>(2 * n));
    unit_root<T>(k, 2 * n, plan.sign, &plan.chirp_re[t], &plan.chirp_im[t]);
  }
  bluestein_kernel<T>(n, M, plan.sign, plan.kern_re, plan.kern_im);
}

template <class T>
std::shared_ptr<const Plan<T>> build_plan(int64_t n, int sign) {
  auto plan = std::make_shared<Plan<T>>();
  plan->n = n;
  plan->sign = sign;
  std::vector<int> radices = choose_radices(n);
  if (n == 1 || !radices.empty()) {
    build_stockham(*plan, radices);
    if (n >= kFourStepSplitMin) build_four_step(*plan);
  } else {
    build_bluestein(*plan);
  }
  return plan;
}

template <class T>
struct Cache {
  std::mutex mu;
  std::map<std::pair<int64_t, int>, std::shared_ptr<const Plan<T>>> plans;
  std::map<std::pair<int64_t, int>, std::shared_ptr<const RealPlan<T>>> real_plans;
  static Cache& get() {
    static Cache* c = new Cache();  // leaked: plans may be used during interpreter teardown
    return *c;
  }
};

constexpr size_t kMaxCachedPlans = 512;

}  // namespace

template <class T>
std::shared_ptr<const Plan<T>> get_plan(int64_t n, int sign) {
  if (n < 1) throw ValueError("fft: transform length must be at least 1");
  auto& cache = Cache<T>::get();
  const auto key = std::make_pair(n, sign);
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    auto it = cache.plans.find(key);
    if (it != cache.plans.end()) return it->second;
  }
  // Built outside the lock: sub-plans come from the cache too.
  auto plan = build_plan<T>(n, sign);
  std::lock_guard<std::mutex> lock(cache.mu);
  if (cache.plans.size() >= kMaxCachedPlans) cache.plans.clear();  // users keep theirs alive
  auto [it, inserted] = cache.plans.emplace(key, plan);
  return it->second;
}

template <class T>
std::shared_ptr<const RealPlan<T>> get_real_plan(int64_t n, int sign) {
  if (n < 2 || n % 2 != 0) throw ValueError("fft: a real plan needs an even length");
  auto& cache = Cache<T>::get();
  const auto key = std::make_pair(n, sign);
  {
    std::lock_guard<std::mutex> lock(cache.mu);
    auto it = cache.real_plans.find(key);
    if (it != cache.real_plans.end()) return it->second;
  }
  auto plan = std::make_shared<RealPlan<T>>();
  plan->n = n;
  plan->half = get_plan<T>(n / 2, sign);
  for (int64_t k = 0; k <= n / 2; ++k) {
    long double c, s;
    unit_root<long double>(k, n, sign, &c, &s);
    plan->tw_re.push_back(static_cast<double>(c));
    plan->tw_im.push_back(static_cast<double>(s));
    plan->tw_re_lo.push_back(static_cast<double>(c - static_cast<double>(c)));
    plan->tw_im_lo.push_back(static_cast<double>(s - static_cast<double>(s)));
  }
  const int64_t m = n / 2;
  constexpr int64_t R = kRowRadix<T>;
  if (m % (R * R) == 0 && plan->half->kind == Plan<T>::Kind::Stockham) {
    const int64_t n2 = m / R;
    const std::vector<int> radices = choose_row_radices(n2);
    if (!radices.empty()) {
      auto inner = std::make_shared<Plan<T>>();
      inner->n = n2;
      inner->sign = sign;
      build_stockham(*inner, radices);
      plan->rows_n2 = n2;
      plan->rows_plan = inner;
      plan->rows_tw_re.resize((R - 1) * n2);
      plan->rows_tw_im.resize((R - 1) * n2);
      for (int64_t k1 = 1; k1 < R; ++k1)
        for (int64_t t2 = 0; t2 < n2; ++t2) {
          const int64_t lane_t2 = t2 - t2 % R + row_lane<T>(static_cast<int>(t2 % R));
          unit_root<T>(k1 * lane_t2, m, sign, &plan->rows_tw_re[(k1 - 1) * n2 + t2],
                       &plan->rows_tw_im[(k1 - 1) * n2 + t2]);
        }
    }
  }
  std::lock_guard<std::mutex> lock(cache.mu);
  if (cache.real_plans.size() >= kMaxCachedPlans) cache.real_plans.clear();
  auto [it, inserted] = cache.real_plans.emplace(key, plan);
  return it->second;
}

int64_t plan_cache_size() {
  int64_t total = 0;
  {
    auto& c = Cache<float>::get();
    std::lock_guard<std::mutex> lock(c.mu);
    total += c.plans.size() + c.real_plans.size();
  }
  auto& c = Cache<double>::get();
  std::lock_guard<std::mutex> lock(c.mu);
  return total + c.plans.size() + c.real_plans.size();
}

void clear_plan_cache() {
  {
    auto& c = Cache<float>::get();
    std::lock_guard<std::mutex> lock(c.mu);
    c.plans.clear();
    c.real_plans.clear();
  }
  auto& c = Cache<double>::get();
  std::lock_guard<std::mutex> lock(c.mu);
  c.plans.clear();
  c.real_plans.clear();
}

template std::shared_ptr<const Plan<float>> get_plan<float>(int64_t, int);
template std::shared_ptr<const Plan<double>> get_plan<double>(int64_t, int);
template std::shared_ptr<const RealPlan<float>> get_real_plan<float>(int64_t, int);
template std::shared_ptr<const RealPlan<double>> get_real_plan<double>(int64_t, int);

}  // namespace arraycore::native::fft
