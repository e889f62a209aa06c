// FFT butterflies (internal to fft_passes.cpp and fft_columns.cpp): in place on split
// complex values ar[0..p), ai[0..p), where U is a vector of T (GCC vector extension) or T
// itself, so one source serves every vector width.
#pragma once

#include <algorithm>

namespace arraycore::native::fft {

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

}  // namespace arraycore::native::fft
