// FFT: the Stockham (self-sorting) radix passes and their vector butterflies.
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

#include "fft_exec.h"

namespace arraycore::native::fft {
namespace {

// ---- butterflies: in place on ar[0..p), ai[0..p); U is a vector of T or T itself ----

template <class T, int Sign, class U>
inline void mul_i(U& r, U& i) {  // (r + i*im) *= Sign*i
  U t = r;
  if constexpr (Sign > 0) { r = -i; i = t; } else { r = i; i = -t; }
}

template <class T, int Sign, class U>
inline void bfly2(U* ar, U* ai) {
  U r = ar[0] - ar[1], i = ai[0] - ai[1];
  ar[0] += ar[1]; ai[0] += ai[1];
  ar[1] = r; ai[1] = i;
}

template <class T, int Sign, class U>
inline void bfly4(U* ar, U* ai) {
  U t0r = ar[0] + ar[2], t0i = ai[0] + ai[2];
  U t1r = ar[0] - ar[2], t1i = ai[0] - ai[2];
  U t2r = ar[1] + ar[3], t2i = ai[1] + ai[3];
  U t3r = ar[1] - ar[3], t3i = ai[1] - ai[3];
  mul_i<T, Sign>(t3r, t3i);
  ar[0] = t0r + t2r; ai[0] = t0i + t2i;
  ar[2] = t0r - t2r; ai[2] = t0i - t2i;
  ar[1] = t1r + t3r; ai[1] = t1i + t3i;
  ar[3] = t1r - t3r; ai[3] = t1i - t3i;
}

template <class T, int Sign, class U>
inline void bfly8(U* ar, U* ai) {
  U er[4] = {ar[0], ar[2], ar[4], ar[6]}, ei[4] = {ai[0], ai[2], ai[4], ai[6]};
  U orr[4] = {ar[1], ar[3], ar[5], ar[7]}, oi[4] = {ai[1], ai[3], ai[5], ai[7]};
  bfly4<T, Sign>(er, ei);
  bfly4<T, Sign>(orr, oi);
  const T c = static_cast<T>(0.707106781186547524400844362104849039L);
  {  // * w8 = c*(1 + Sign*i)
    U r = orr[1], i = oi[1];
    if constexpr (Sign > 0) { orr[1] = (r - i) * c; oi[1] = (i + r) * c; }
    else { orr[1] = (r + i) * c; oi[1] = (i - r) * c; }
  }
  mul_i<T, Sign>(orr[2], oi[2]);  // * w8^2 = Sign*i
  {  // * w8^3 = c*(-1 + Sign*i)
    U r = orr[3], i = oi[3];
    if constexpr (Sign > 0) { orr[3] = (-r - i) * c; oi[3] = (r - i) * c; }
    else { orr[3] = (i - r) * c; oi[3] = (-r - i) * c; }
  }
  for (int k = 0; k < 4; ++k) {
    ar[k] = er[k] + orr[k]; ai[k] = ei[k] + oi[k];
    ar[k + 4] = er[k] - orr[k]; ai[k + 4] = ei[k] - oi[k];
  }
}

// Radix 16 as 4 x 4 (Van Loan 1.9): DFT4 over t1 of a_(4*t1 + t2) for each t2, twiddles
// w16^(t2*k1), DFT4 over t2; output k1 + 4*k2.  One pass instead of two halves the traffic
// of the L2-resident batch, which is what bounds the passes.
template <class T, int Sign, class U>
inline void bfly16(U* ar, U* ai) {
  constexpr long double c1 = 0.923879532511286756128183189396788933L;  // cos(pi/8)
  constexpr long double s1 = 0.382683432365089771728459984030398866L;  // sin(pi/8)
  constexpr long double h = 0.707106781186547524400844362104849039L;
  // w16^j = (cos, sin)(2*pi*j/16) for j = t2*k1 in {1, 2, 3, 4, 6, 9}
  constexpr long double wc[10] = {1, c1, h, s1, 0, 0, -h, 0, 0, -c1};
  constexpr long double ws[10] = {0, s1, h, c1, 1, 0, h, 0, 0, -s1};
  U cr[4][4], ci[4][4];
  for (int t2 = 0; t2 < 4; ++t2) {
    U xr[4] = {ar[t2], ar[4 + t2], ar[8 + t2], ar[12 + t2]};
    U xi[4] = {ai[t2], ai[4 + t2], ai[8 + t2], ai[12 + t2]};
    bfly4<T, Sign>(xr, xi);
    for (int k1 = 0; k1 < 4; ++k1) { cr[t2][k1] = xr[k1]; ci[t2][k1] = xi[k1]; }
  }
  for (int t2 = 1; t2 < 4; ++t2)
    for (int k1 = 1; k1 < 4; ++k1) {
      const int j = t2 * k1;
      const U r = cr[t2][k1], i = ci[t2][k1];
      if (j == 4) {
        mul_i<T, Sign>(cr[t2][k1], ci[t2][k1]);
      } else {
        const T c = static_cast<T>(wc[j]), sn = static_cast<T>(Sign * ws[j]);
        cr[t2][k1] = r * c - i * sn;
        ci[t2][k1] = r * sn + i * c;
      }
    }
  for (int k1 = 0; k1 < 4; ++k1) {
    U yr[4] = {cr[0][k1], cr[1][k1], cr[2][k1], cr[3][k1]};
    U yi[4] = {ci[0][k1], ci[1][k1], ci[2][k1], ci[3][k1]};
    bfly4<T, Sign>(yr, yi);
    for (int k2 = 0; k2 < 4; ++k2) { ar[k1 + 4 * k2] = yr[k2]; ai[k1 + 4 * k2] = yi[k2]; }
  }
}

template <class T, int Sign, class U>
inline void bfly3(U* ar, U* ai) {
  const T h = static_cast<T>(0.5);
  const T s3 = static_cast<T>(Sign * 0.866025403784438646763723170752936183L);
  U sr = ar[1] + ar[2], si = ai[1] + ai[2];
  U dr = ar[1] - ar[2], di = ai[1] - ai[2];
  U mr = ar[0] - sr * h, mi = ai[0] - si * h;
  ar[0] += sr; ai[0] += si;
  ar[1] = mr - di * s3; ai[1] = mi + dr * s3;
  ar[2] = mr + di * s3; ai[2] = mi - dr * s3;
}

template <class T, int Sign, class U>
inline void bfly5(U* ar, U* ai) {
  const T c1 = static_cast<T>(0.309016994374947424102293417182819059L);   // cos(2pi/5)
  const T c2 = static_cast<T>(-0.809016994374947424102293417182819059L);  // cos(4pi/5)
  const T s1 = static_cast<T>(Sign * 0.951056516295153572116439333379382143L);
  const T s2 = static_cast<T>(Sign * 0.587785252292473129168705954639072769L);
  U s14r = ar[1] + ar[4], s14i = ai[1] + ai[4], d14r = ar[1] - ar[4], d14i = ai[1] - ai[4];
  U s23r = ar[2] + ar[3], s23i = ai[2] + ai[3], d23r = ar[2] - ar[3], d23i = ai[2] - ai[3];
  U a1r = ar[0] + s14r * c1 + s23r * c2, a1i = ai[0] + s14i * c1 + s23i * c2;
  U a2r = ar[0] + s14r * c2 + s23r * c1, a2i = ai[0] + s14i * c2 + s23i * c1;
  U b1r = d14r * s1 + d23r * s2, b1i = d14i * s1 + d23i * s2;  // y1 = a1 + i*b1
  U b2r = d14r * s2 - d23r * s1, b2i = d14i * s2 - d23i * s1;  // y2 = a2 + i*b2
  ar[0] += s14r + s23r; ai[0] += s14i + s23i;
  ar[1] = a1r - b1i; ai[1] = a1i + b1r;
  ar[4] = a1r + b1i; ai[4] = a1i - b1r;
  ar[2] = a2r - b2i; ai[2] = a2i + b2r;
  ar[3] = a2r + b2i; ai[3] = a2i - b2r;
}

// Odd radix p (any odd p up to kMaxDirectRadix): pairs k and p-k share the cosine sums
// (O(p^2/2) work).  rr/ri: cos and sign*sin of 2*pi*t/p.  ws: workspace of 2*(p/2 + 1)
// vectors (the sums and differences of the pairs).
//
// The long sums are accumulated in blocks of kSumBlock terms (two interleaved partial sums
// inside a block, odd and even t), each block added to the running total: the rounding
// error of an h-term sum then grows like sqrt(h / kSumBlock) rather than sqrt(h), which
// keeps large direct radices (up to a few hundred) as accurate as pocketfft's.
constexpr int kSumBlock = 8;

template <class T, class U>
inline void bfly_odd(U* ar, U* ai, int p, const T* rr, const T* ri, U* ws) {
  const int h = (p - 1) / 2;
  U* sr = ws;
  U* si = sr + (h + 1);
  U* dr = si + (h + 1);
  U* di = dr + (h + 1);
  for (int t = 1; t <= h; ++t) {
    sr[t] = ar[t] + ar[p - t]; si[t] = ai[t] + ai[p - t];
    dr[t] = ar[t] - ar[p - t]; di[t] = ai[t] - ai[p - t];
  }
  const U x0r = ar[0], x0i = ai[0];
  {  // y_0 = x_0 + sum of the pair sums
    U y0r = x0r, y0i = x0i;
    for (int t0 = 1; t0 <= h; t0 += kSumBlock) {
      const int t1 = std::min(h, t0 + kSumBlock - 1);
      U br{}, bi{};
      for (int t = t0; t <= t1; ++t) { br += sr[t]; bi += si[t]; }
      y0r += br; y0i += bi;
    }
    ar[0] = y0r; ai[0] = y0i;
  }
  for (int k = 1; k <= h; ++k) {
    U accr = x0r, acci = x0i, sinr{}, sini{};
    int idx = k;  // t*k mod p
    for (int t0 = 1; t0 <= h; t0 += kSumBlock) {
      const int t1 = std::min(h, t0 + kSumBlock - 1);
      U cr1{}, ci1{}, br1{}, bi1{}, cr2{}, ci2{}, br2{}, bi2{};
      int t = t0;
      for (; t + 1 <= t1; t += 2) {
        const T c1 = rr[idx], s1 = ri[idx];
        idx += k; if (idx >= p) idx -= p;
        const T c2 = rr[idx], s2 = ri[idx];
        idx += k; if (idx >= p) idx -= p;
        cr1 += sr[t] * c1; ci1 += si[t] * c1; br1 += dr[t] * s1; bi1 += di[t] * s1;
        cr2 += sr[t + 1] * c2; ci2 += si[t + 1] * c2; br2 += dr[t + 1] * s2; bi2 += di[t + 1] * s2;
      }
      if (t <= t1) {
        const T c1 = rr[idx], s1 = ri[idx];
        idx += k; if (idx >= p) idx -= p;
        cr1 += sr[t] * c1; ci1 += si[t] * c1; br1 += dr[t] * s1; bi1 += di[t] * s1;
      }
      accr += cr1 + cr2; acci += ci1 + ci2; sinr += br1 + br2; sini += bi1 + bi2;
    }
    ar[k] = accr - sini; ai[k] = acci + sinr;
    ar[p - k] = accr + sini; ai[p - k] = acci - sinr;
  }
}

template <class T, int Sign, int P, class U>
inline void bfly_fixed(U* ar, U* ai) {
  if constexpr (P == 2) bfly2<T, Sign>(ar, ai);
  else if constexpr (P == 3) bfly3<T, Sign>(ar, ai);
  else if constexpr (P == 4) bfly4<T, Sign>(ar, ai);
  else if constexpr (P == 5) bfly5<T, Sign>(ar, ai);
  else if constexpr (P == 8) bfly8<T, Sign>(ar, ai);
  else bfly16<T, Sign>(ar, ai);
}

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
bool run_passes_at(const Plan<T>& plan, T* re, T* im, T* wre, T* wim, int64_t B) {
  T *xr = re, *xi = im, *yr = wre, *yi = wim;
  int64_t s = B, m = plan.n;
  bool in_work = false;
  for (const Pass<T>& ps : plan.passes) {
    m /= ps.radix;
    const PassGeom g{s, m};
    if (plan.sign < 0) run_pass<T, L, -1>(ps, xr, xi, yr, yi, g);
    else run_pass<T, L, 1>(ps, xr, xi, yr, yi, g);
    s *= ps.radix;
    std::swap(xr, yr);
    std::swap(xi, yi);
    in_work = !in_work;
  }
  return in_work;
}

}  // namespace

template <class T>
bool run_passes(const Plan<T>& plan, T* re, T* im, T* wre, T* wim, int64_t B) {
  switch (current_isa()) {
    case Isa::Avx512: return run_passes_at<T, lanes_for<T>(Isa::Avx512)>(plan, re, im, wre, wim, B);
    case Isa::Avx2: return run_passes_at<T, lanes_for<T>(Isa::Avx2)>(plan, re, im, wre, wim, B);
    default: return run_passes_at<T, 1>(plan, re, im, wre, wim, B);
  }
}

template bool run_passes<float>(const Plan<float>&, float*, float*, float*, float*, int64_t);
template bool run_passes<double>(const Plan<double>&, double*, double*, double*, double*, int64_t);

}  // namespace arraycore::native::fft
