// Accuracy check for arraycore/native/src/simd_hyperbolic.h (sinh, cosh, asinh, acosh, atanh).
//
// Build & run (the pytest tests/native/test_simd_math.py does this, with three flag sets):
//   g++ -O2 -march=native -std=c++20 -I arraycore/native/src
//       tests/native/simd_hyperbolic_check.cpp -o simd_hyperbolic_check && ./simd_hyperbolic_check
//
// Same method as simd_math_check.cpp (see its header; the harness is ulp_check.h): each
// function runs through an array loop of the engine's shape and is compared with libm one
// precision up (float: the double libm function, whose result rounded to float is the
// correctly rounded one; double: the long-double libm function). float limits are on the
// integer ulp distance to the correctly rounded result (1), double limits on the fractional
// ulp error (2). Results that are zero or infinite must match bit for bit (signed zeros,
// overflow to inf at the right threshold), NaN only as NaN; run_exact below also demands bit
// equality at the exact points (sinh(+-0) = +-0, cosh(+-0) = 1, acosh(1) = +0,
// atanh(+-1) = +-inf, +-inf, and x itself for tiny and subnormal x in sinh, asinh, atanh).
// Inputs: special values and boundaries; a strided sweep of all float bit patterns; random
// bit patterns (double); uniform ranges around each algorithm's switch points (the sinh/cosh
// reduction's k = 11/12 (float) and 26/27 (double) split, the asinh/acosh log(2x) cut-off,
// the atanh exponent steps, the tiny-argument paths); the overflow thresholds of sinh and
// cosh (ulp by ulp); arguments next to 1 (acosh) and +-1 (atanh); tiny and huge arguments.
// Options: --n N (random samples per set, default 4e6), --stride S (float sweep stride,
// default 97; 1 = exhaustive).
#include "simd_hyperbolic.h"

#include "ulp_check.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace sm = arraycore::native::simd_math;
using namespace ulp_check;

namespace {

// ---- references --------------------------------------------------------------
long double ref_sinh_f(float x) { return std::sinh(static_cast<double>(x)); }
long double ref_cosh_f(float x) { return std::cosh(static_cast<double>(x)); }
long double ref_asinh_f(float x) { return std::asinh(static_cast<double>(x)); }
long double ref_acosh_f(float x) { return std::acosh(static_cast<double>(x)); }
long double ref_atanh_f(float x) { return std::atanh(static_cast<double>(x)); }
long double ref_sinh_d(double x) { return std::sinh(static_cast<long double>(x)); }
long double ref_cosh_d(double x) { return std::cosh(static_cast<long double>(x)); }
long double ref_asinh_d(double x) { return std::asinh(static_cast<long double>(x)); }
long double ref_acosh_d(double x) { return std::acosh(static_cast<long double>(x)); }
long double ref_atanh_d(double x) { return std::atanh(static_cast<long double>(x)); }

// Bit-exact results at exact points, through the same array loop.
template <class T, class F>
void run_exact(Stats& st, F f, const std::vector<std::pair<T, T>>& pts) {
    std::vector<T> in, out(pts.size());
    for (const auto& p : pts) in.push_back(p.first);
    apply(f, in.data(), out.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < pts.size(); i++) {
        st.count++;
        const T want = pts[i].second, got = out[i];
        const bool ok = (want != want) ? (got != got) : bits(got) == bits(want);
        if (!ok && st.special_fail++ < 10)
            std::printf("  %s: FAIL (exact) x=%.17Lg got %.17Lg want %.17Lg\n", st.name,
                        (long double)in[i], (long double)got, (long double)want);
    }
}

// Tiny arguments (subnormals included) where f(x) == x: sinh, asinh, atanh.
template <class T>
std::vector<std::pair<T, T>> identity_points(int emin, int emax) {
    std::vector<std::pair<T, T>> v;
    const T d = std::numeric_limits<T>::denorm_min();
    for (T x : {d, T(2 * d), T(3 * d), T(1000 * d), std::numeric_limits<T>::min(),
                std::nextafter(std::numeric_limits<T>::min(), T(0))}) {
        v.push_back({x, x});
        v.push_back({-x, -x});
    }
    for (int e = emin; e <= emax; e++)
        for (T m : {T(1), T(1.25), T(1.6180339887498949), T(1.9999999999999998)}) {
            const T x = std::ldexp(m, e);
            v.push_back({x, x});
            v.push_back({-x, -x});
        }
    return v;
}

// x, and its n neighbours on either side (ulp by ulp)
template <class T>
std::vector<T> around(T x, int n) {
    std::vector<T> v{x};
    T lo = x, hi = x;
    for (int i = 0; i < n; i++) {
        lo = std::nextafter(lo, -std::numeric_limits<T>::infinity());
        hi = std::nextafter(hi, std::numeric_limits<T>::infinity());
        v.push_back(lo);
        v.push_back(hi);
    }
    return v;
}

// Both signs of a sample.
template <class T>
std::vector<T> pm(std::vector<T> v) {
    const size_t n = v.size();
    for (size_t i = 0; i < n; i++) v.push_back(-v[i]);
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse_options(argc, argv);
    if (!opt.ok) return 2;
    const int64_t n = opt.n;
    const uint64_t stride = opt.stride;
    std::mt19937_64 rng(20240607);
    bool ok = true;

    const float finf = std::numeric_limits<float>::infinity();
    const float fnan = std::numeric_limits<float>::quiet_NaN();
    const double dinf = std::numeric_limits<double>::infinity();
    const double dnan = std::numeric_limits<double>::quiet_NaN();
    const auto spf = specials_f();
    const auto spd = specials_d();
    const auto rbd = random_bits_d(rng, n);
    // overflow thresholds of sinh/cosh: ln(2 FLT_MAX), ln(2 DBL_MAX)
    const float kOvF = 89.41598629223294f;
    const double kOvD = 710.47586007394394;

    // ---- sinh, cosh -------------------------------------------------------------------
    for (int which = 0; which < 2; ++which) {  // float
        Stats st{which ? "cosh(float)" : "sinh(float)", 1, true};
        auto f = [which](float x) { return which ? sm::cosh(x) : sm::sinh(x); };
        auto ref = which ? ref_cosh_f : ref_sinh_f;
        run<float>(st, f, ref, spf);
        run_sweep_f(st, f, ref, stride);
        run<float>(st, f, ref, uniform<float>(rng, n, -90.0, 90.0));
        run<float>(st, f, ref, uniform<float>(rng, n / 2, -1.0, 1.0));
        run<float>(st, f, ref, pm(uniform<float>(rng, n / 4, 7.5, 8.5)));       // k = 11/12
        run<float>(st, f, ref, pm(uniform<float>(rng, n / 8, 0.3, 0.4)));       // k = 0/1
        run<float>(st, f, ref, pm(uniform<float>(rng, n / 8, 0x1p-13, 0x1p-11)));  // tiny path
        run<float>(st, f, ref, pm(around(kOvF, 2000)));
        run<float>(st, f, ref, pm(uniform<float>(rng, n / 8, 88.0, 89.5)));
        run_exact<float>(st, f, {{0.0f, which ? 1.0f : 0.0f}, {-0.0f, which ? 1.0f : -0.0f},
                                 {finf, finf}, {-finf, which ? finf : -finf}, {fnan, fnan},
                                 {89.5f, finf}, {-89.5f, which ? finf : -finf}, {1e30f, finf}});
        if (!which) run_exact<float>(st, f, identity_points<float>(-40, -14));
        ok &= report(st);
    }
    for (int which = 0; which < 2; ++which) {  // double
        Stats st{which ? "cosh(double)" : "sinh(double)", 2, false};
        auto f = [which](double x) { return which ? sm::cosh(x) : sm::sinh(x); };
        auto ref = which ? ref_cosh_d : ref_sinh_d;
        run<double>(st, f, ref, spd);
        run<double>(st, f, ref, rbd);
        run<double>(st, f, ref, uniform<double>(rng, n, -711.0, 711.0));
        run<double>(st, f, ref, uniform<double>(rng, n / 2, -1.0, 1.0));
        run<double>(st, f, ref, pm(uniform<double>(rng, n / 4, 17.5, 19.5)));   // k = 26/27
        run<double>(st, f, ref, pm(uniform<double>(rng, n / 4, 0.3, 1.1)));    // k = 0, 1
        run<double>(st, f, ref, pm(uniform<double>(rng, n / 8, 40.0, 43.0)));   // k = 60
        run<double>(st, f, ref, pm(uniform<double>(rng, n / 8, 0x1p-30, 0x1p-26)));  // tiny path
        run<double>(st, f, ref, pm(around(kOvD, 2000)));
        run<double>(st, f, ref, pm(uniform<double>(rng, n / 8, 705.0, 710.6)));
        run_exact<double>(st, f, {{0.0, which ? 1.0 : 0.0}, {-0.0, which ? 1.0 : -0.0},
                                  {dinf, dinf}, {-dinf, which ? dinf : -dinf}, {dnan, dnan},
                                  {710.5, dinf}, {-710.5, which ? dinf : -dinf}, {1e300, dinf}});
        if (!which) run_exact<double>(st, f, identity_points<double>(-300, -30));
        ok &= report(st);
    }

    // ---- asinh ------------------------------------------------------------------------
    {
        Stats st{"asinh(float)", 1, true};
        auto f = [](float x) { return sm::asinh(x); };
        run<float>(st, f, ref_asinh_f, spf);
        run_sweep_f(st, f, ref_asinh_f, stride);
        run<float>(st, f, ref_asinh_f, uniform<float>(rng, n, -10.0, 10.0));
        run<float>(st, f, ref_asinh_f, uniform<float>(rng, n / 2, -1.0, 1.0));
        run<float>(st, f, ref_asinh_f, pm(uniform<float>(rng, n / 8, 0x1p-13, 0x1p-11)));  // tiny
        run<float>(st, f, ref_asinh_f, pm(uniform<float>(rng, n / 8, 2048.0, 8192.0)));   // big
        run<float>(st, f, ref_asinh_f, pm(uniform<float>(rng, n / 8, 1e30, 3.4e38)));
        run_exact<float>(st, f, {{0.0f, 0.0f}, {-0.0f, -0.0f}, {finf, finf}, {-finf, -finf},
                                 {fnan, fnan}});
        run_exact<float>(st, f, identity_points<float>(-40, -14));
        ok &= report(st);
    }
    {
        Stats st{"asinh(double)", 2, false};
        auto f = [](double x) { return sm::asinh(x); };
        run<double>(st, f, ref_asinh_d, spd);
        run<double>(st, f, ref_asinh_d, rbd);
        run<double>(st, f, ref_asinh_d, uniform<double>(rng, n, -10.0, 10.0));
        run<double>(st, f, ref_asinh_d, uniform<double>(rng, n / 2, -1.0, 1.0));
        run<double>(st, f, ref_asinh_d, pm(uniform<double>(rng, n / 4, 0x1p-22, 0x1p-18)));  // tiny
        run<double>(st, f, ref_asinh_d, pm(uniform<double>(rng, n / 4, 0x1p-12, 0x1p-8)));
        run<double>(st, f, ref_asinh_d, pm(uniform<double>(rng, n / 8, 0x1p27, 0x1p29)));    // big
        run<double>(st, f, ref_asinh_d, pm(uniform<double>(rng, n / 8, 1e300, 1.7e308)));
        run_exact<double>(st, f, {{0.0, 0.0}, {-0.0, -0.0}, {dinf, dinf}, {-dinf, -dinf},
                                  {dnan, dnan}});
        run_exact<double>(st, f, identity_points<double>(-300, -30));
        ok &= report(st);
    }

    // ---- acosh ------------------------------------------------------------------------
    {
        Stats st{"acosh(float)", 1, true};
        auto f = [](float x) { return sm::acosh(x); };
        run<float>(st, f, ref_acosh_f, spf);
        run_sweep_f(st, f, ref_acosh_f, stride);
        run<float>(st, f, ref_acosh_f, uniform<float>(rng, n, 1.0, 11.0));
        run<float>(st, f, ref_acosh_f, uniform<float>(rng, n / 4, 1.0, 1.01));
        run<float>(st, f, ref_acosh_f, around(1.0f, 20000));
        run<float>(st, f, ref_acosh_f, uniform<float>(rng, n / 8, 2048.0, 8192.0));  // big
        run<float>(st, f, ref_acosh_f, uniform<float>(rng, n / 8, 1e30, 3.4e38));
        run<float>(st, f, ref_acosh_f, uniform<float>(rng, n / 8, -2.0, 1.0));       // NaN
        run_exact<float>(st, f, {{1.0f, 0.0f}, {finf, finf}, {-finf, fnan}, {fnan, fnan},
                                 {0.0f, fnan}, {-0.0f, fnan}, {0.99999994f, fnan}});
        ok &= report(st);
    }
    {
        Stats st{"acosh(double)", 2, false};
        auto f = [](double x) { return sm::acosh(x); };
        run<double>(st, f, ref_acosh_d, spd);
        run<double>(st, f, ref_acosh_d, rbd);
        run<double>(st, f, ref_acosh_d, uniform<double>(rng, n, 1.0, 11.0));
        run<double>(st, f, ref_acosh_d, uniform<double>(rng, n / 4, 1.0, 1.001));
        run<double>(st, f, ref_acosh_d, uniform<double>(rng, n / 4, 1.0, 1.0 + 1e-12));
        run<double>(st, f, ref_acosh_d, around(1.0, 20000));
        run<double>(st, f, ref_acosh_d, uniform<double>(rng, n / 8, 0x1p27, 0x1p29));  // big
        run<double>(st, f, ref_acosh_d, uniform<double>(rng, n / 8, 1e300, 1.7e308));
        run<double>(st, f, ref_acosh_d, uniform<double>(rng, n / 8, -2.0, 1.0));     // NaN
        run_exact<double>(st, f, {{1.0, 0.0}, {dinf, dinf}, {-dinf, dnan}, {dnan, dnan},
                                  {0.0, dnan}, {-0.0, dnan}, {0.99999999999999989, dnan}});
        ok &= report(st);
    }

    // ---- atanh ------------------------------------------------------------------------
    {
        Stats st{"atanh(float)", 1, true};
        auto f = [](float x) { return sm::atanh(x); };
        run<float>(st, f, ref_atanh_f, spf);
        run_sweep_f(st, f, ref_atanh_f, stride);
        run<float>(st, f, ref_atanh_f, uniform<float>(rng, n, -1.0, 1.0));
        run<float>(st, f, ref_atanh_f, pm(uniform<float>(rng, n / 4, 0.3, 0.4)));    // e = 0/1
        run<float>(st, f, ref_atanh_f, pm(uniform<float>(rng, n / 4, 0.99, 1.0)));
        run<float>(st, f, ref_atanh_f, pm(around(1.0f, 20000)));  // +-1 -> +-inf, beyond NaN
        run<float>(st, f, ref_atanh_f, pm(around(1.0f / 3.0f, 20000)));
        run_exact<float>(st, f, {{0.0f, 0.0f}, {-0.0f, -0.0f}, {1.0f, finf}, {-1.0f, -finf},
                                 {finf, fnan}, {-finf, fnan}, {fnan, fnan}, {2.0f, fnan}});
        run_exact<float>(st, f, identity_points<float>(-40, -14));
        ok &= report(st);
    }
    {
        Stats st{"atanh(double)", 2, false};
        auto f = [](double x) { return sm::atanh(x); };
        run<double>(st, f, ref_atanh_d, spd);
        run<double>(st, f, ref_atanh_d, rbd);
        run<double>(st, f, ref_atanh_d, uniform<double>(rng, n, -1.0, 1.0));
        run<double>(st, f, ref_atanh_d, pm(uniform<double>(rng, n / 4, 0.1, 0.25)));   // e = 0/1
        run<double>(st, f, ref_atanh_d, pm(uniform<double>(rng, n / 4, 0.999, 1.0)));
        run<double>(st, f, ref_atanh_d, pm(uniform<double>(rng, n / 8, 1.0 - 1e-12, 1.0)));
        run<double>(st, f, ref_atanh_d, pm(uniform<double>(rng, n / 8, 0x1p-30, 0x1p-20)));
        run<double>(st, f, ref_atanh_d, pm(around(1.0, 20000)));
        run<double>(st, f, ref_atanh_d, pm(around(0.17157287525381, 20000)));
        run_exact<double>(st, f, {{0.0, 0.0}, {-0.0, -0.0}, {1.0, dinf}, {-1.0, -dinf},
                                  {dinf, dnan}, {-dinf, dnan}, {dnan, dnan}, {2.0, dnan}});
        run_exact<double>(st, f, identity_points<double>(-300, -30));
        ok &= report(st);
    }
    std::printf("%s\n", ok ? "ALL OK" : "SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
