// FFT: Bluestein's algorithm for lengths whose large prime factors make direct passes costlier
// (fft_plan.cpp, prefer_direct; e.g. primes above ~200).
//
// With t*k = (t^2 + k^2 - (k-t)^2) / 2 and the chirp c_t = exp(sign*i*pi*t^2/n),
//     X_k = sum_t x_t exp(sign*2*pi*i*t*k/n) = c_k * sum_t (x_t c_t) conj(c_(k-t)),
// a linear convolution, computed as a cyclic one of length M >= 2n-1 (M 5-smooth, so its FFT
// runs on the fast radix passes): conv = IFFT(FFT(a) * FFT(b)), with the kernel's FFT
// (already divided by M) in the plan.  The inverse uses the same forward plan through
// IFFT(y) = conj(FFT(conj(y))) / M, folding both conjugations into the elementwise passes.
#include <algorithm>
#include <cstring>

#include "../thread_pool.h"
#include "fft_exec.h"

namespace arraycore::native::fft {

template <class T>
void run_bluestein(const Plan<T>& plan, T* re, T* im, int64_t B) {
  const int64_t n = plan.n, M = plan.m_conv;
  const Plan<T>& conv = *plan.plan_conv;
  Scratch<T> abuf(2 * M * B);
  T* ar = abuf.data();
  T* ai = ar + M * B;
  const T* cr = plan.chirp_re.data();
  const T* ci = plan.chirp_im.data();
  const T* kr = plan.kern_re.data();
  const T* ki = plan.kern_im.data();
  // Elementwise passes over a long single line split across the pool.
  const int64_t grain = std::max<int64_t>(1, (1 << 15) / B);

  // a_t = x_t * c_t, zero-padded to M.
  parallel_for(M, grain, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      T* dr = ar + t * B;
      T* di = ai + t * B;
      if (t >= n) {
        std::fill(dr, dr + B, T(0));
        std::fill(di, di + B, T(0));
        continue;
      }
      const T* sr = re + t * B;
      const T* si = im + t * B;
      for (int64_t b = 0; b < B; ++b) {
        dr[b] = sr[b] * cr[t] - si[b] * ci[t];
        di[b] = sr[b] * ci[t] + si[b] * cr[t];
      }
    }
  });
  execute(conv, ar, ai, B);
  // conj(A * K): the input of the inverse through the forward plan.
  parallel_for(M, grain, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      T* dr = ar + t * B;
      T* di = ai + t * B;
      for (int64_t b = 0; b < B; ++b) {
        const T r = dr[b] * kr[t] - di[b] * ki[t];
        const T i = dr[b] * ki[t] + di[b] * kr[t];
        dr[b] = r;
        di[b] = -i;
      }
    }
  });
  execute(conv, ar, ai, B);
  // X_k = c_k * conj(Q_k).
  parallel_for(n, grain, [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      const T* sr = ar + k * B;
      const T* si = ai + k * B;
      T* dr = re + k * B;
      T* di = im + k * B;
      for (int64_t b = 0; b < B; ++b) {
        const T qr = sr[b], qi = -si[b];
        dr[b] = qr * cr[k] - qi * ci[k];
        di[b] = qr * ci[k] + qi * cr[k];
      }
    }
  });
}

// One line (B = 1) from and to interleaved complex lines with element strides: the passes
// run along the line (vectorized), reading the user's input and writing the output directly.
// run_bluestein with B = 1 ran each pass one element per inner loop, in scalar code, and the
// driver's copies in and out element by element (~30% of the time of a prime length 1000003).
template <class T>
void run_bluestein_interleaved(const Plan<T>& plan, const T* in, int64_t in_stride, T* out,
                               int64_t out_stride, T scale) {
  const int64_t n = plan.n, M = plan.m_conv;
  const Plan<T>& conv = *plan.plan_conv;
  Scratch<T> abuf(2 * M);
  T* __restrict ar = abuf.data();
  T* __restrict ai = ar + M;
  const T* __restrict cr = plan.chirp_re.data();
  const T* __restrict ci = plan.chirp_im.data();
  const T* __restrict kr = plan.kern_re.data();
  const T* __restrict ki = plan.kern_im.data();
  constexpr int64_t kGrain = 1 << 15;

  // a_t = x_t * c_t, zero-padded to M.
  parallel_for(M, kGrain, [&](int64_t t0, int64_t t1) {
    const int64_t e = std::min(t1, n);
    if (in_stride == 1) {
      for (int64_t t = t0; t < e; ++t) {
        const T xr = in[2 * t], xi = in[2 * t + 1];
        ar[t] = xr * cr[t] - xi * ci[t];
        ai[t] = xr * ci[t] + xi * cr[t];
      }
    } else {
      for (int64_t t = t0; t < e; ++t) {
        const T xr = in[2 * t * in_stride], xi = in[2 * t * in_stride + 1];
        ar[t] = xr * cr[t] - xi * ci[t];
        ai[t] = xr * ci[t] + xi * cr[t];
      }
    }
    const int64_t z0 = std::max(t0, n);
    if (z0 < t1) {
      std::fill(ar + z0, ar + t1, T(0));
      std::fill(ai + z0, ai + t1, T(0));
    }
  });
  execute(conv, ar, ai, 1);
  parallel_for(M, kGrain, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const T r = ar[t] * kr[t] - ai[t] * ki[t];
      const T i = ar[t] * ki[t] + ai[t] * kr[t];
      ar[t] = r;
      ai[t] = -i;
    }
  });
  execute(conv, ar, ai, 1);
  // X_k = c_k * conj(Q_k), times scale.
  parallel_for(n, kGrain, [&](int64_t k0, int64_t k1) {
    if (out_stride == 1) {
      for (int64_t k = k0; k < k1; ++k) {
        const T qr = ar[k], qi = -ai[k];
        out[2 * k] = (qr * cr[k] - qi * ci[k]) * scale;
        out[2 * k + 1] = (qr * ci[k] + qi * cr[k]) * scale;
      }
    } else {
      for (int64_t k = k0; k < k1; ++k) {
        const T qr = ar[k], qi = -ai[k];
        out[2 * k * out_stride] = (qr * cr[k] - qi * ci[k]) * scale;
        out[2 * k * out_stride + 1] = (qr * ci[k] + qi * cr[k]) * scale;
      }
    }
  });
}

template void run_bluestein<float>(const Plan<float>&, float*, float*, int64_t);
template void run_bluestein<double>(const Plan<double>&, double*, double*, int64_t);
template void run_bluestein_interleaved<float>(const Plan<float>&, const float*, int64_t, float*, int64_t, float);
template void run_bluestein_interleaved<double>(const Plan<double>&, const double*, int64_t, double*, int64_t, double);

}  // namespace arraycore::native::fft
