// Accuracy check for arraycore/native/src/simd_math.h.
//
// Build & run (the pytest tests/native/test_simd_math.py does this):
//   g++ -O2 -march=native -std=c++20 -I arraycore/native/src
//       tests/native/simd_math_check.cpp -o simd_math_check && ./simd_math_check
//
// For every function it evaluates the simd_math version through an array
// loop (the same shape as the engine's elementwise kernels, so the
// vectorized code path is what gets tested) on
//   * special values and boundaries (NaN, +-inf, +-0, subnormals, overflow /
//     underflow thresholds, 1, powers of two and their neighbours),
//   * a strided sweep over all 2^32 float bit patterns (float functions),
//   * random bit patterns (all exponents) and random values in the
//     interesting range,
// and compares against a reference:
//   float  : the double-precision libm result; rounded to float it is the
//            correctly rounded result (up to vanishingly rare double
//            rounding), the error is reported both as the integer ulp distance
//            to that correctly rounded float and as a fractional ulp error
//            against the double reference.
//   double : the long-double (x87, 64-bit mantissa) libm result; the error is
//            reported in fractional double ulps.
// Exit status is non-zero if any limit is exceeded or a special value is
// wrong. Options: --n N (random samples per function, default 4e6),
// --stride S (float bit-pattern sweep stride, default 97; 1 = exhaustive).
#include "simd_math.h"
#include "simd_trig.h"
#include "simd_trig_float.h"

#include "ulp_check.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sm = arraycore::native::simd_math;
using namespace ulp_check;

namespace {

// ---- references --------------------------------------------------------------
long double ref_exp_f(float x) { return std::exp(static_cast<double>(x)); }
long double ref_log_f(float x) { return std::log(static_cast<double>(x)); }
long double ref_exp_d(double x) { return std::exp(static_cast<long double>(x)); }
long double ref_log_d(double x) { return std::log(static_cast<long double>(x)); }
long double ref_expm1_f(float x) { return std::expm1(static_cast<double>(x)); }
long double ref_log1p_f(float x) { return std::log1p(static_cast<double>(x)); }
long double ref_tanh_f(float x) { return std::tanh(static_cast<double>(x)); }
long double ref_tanh_d(double x) { return std::tanh(static_cast<long double>(x)); }
long double ref_sin_d(double x) { return std::sin(static_cast<long double>(x)); }
long double ref_cos_d(double x) { return std::cos(static_cast<long double>(x)); }
long double ref_sin_f(float x) { return std::sin(static_cast<double>(x)); }
long double ref_cos_f(float x) { return std::cos(static_cast<double>(x)); }

// sin/cos(float) are specified for |x| <= kTrigFastLimit and non-finite x (the kernel sends
// the rest to libm): keep those inputs.
std::vector<float> trig_domain(std::vector<float> v) {
    std::vector<float> out;
    for (float x : v)
        if (!std::isfinite(x) || std::fabs(x) <= sm::kTrigFastLimit) out.push_back(x);
    return out;
}
long double ref_expm1_d(double x) { return std::expm1(static_cast<long double>(x)); }
long double ref_log1p_d(double x) { return std::log1p(static_cast<long double>(x)); }

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse_options(argc, argv);
    if (!opt.ok) return 2;
    const int64_t n = opt.n;
    const uint64_t stride = opt.stride;
    std::mt19937_64 rng(12345);
    bool ok = true;

    const auto spf = specials_f();
    const auto spd = specials_d();
    const auto rbd = random_bits_d(rng, n);

    {  // float exp
        Stats st{"exp(float)", 1, true};
        auto f = [](float x) { return sm::exp(x); };
        run<float>(st, f, ref_exp_f, spf);
        run_sweep_f(st, f, ref_exp_f, stride);
        run<float>(st, f, ref_exp_f, uniform<float>(rng, n, -104.0, 89.0));
        run<float>(st, f, ref_exp_f, uniform<float>(rng, n, -1.0, 1.0));
        ok &= report(st);
    }
    {  // float log
        Stats st{"log(float)", 1, true};
        auto f = [](float x) { return sm::log(x); };
        run<float>(st, f, ref_log_f, spf);
        run_sweep_f(st, f, ref_log_f, stride);
        run<float>(st, f, ref_log_f, uniform<float>(rng, n, 0.5, 2.0));
        run<float>(st, f, ref_log_f, uniform<float>(rng, n, 0.0, 1e-37));
        ok &= report(st);
    }
    {  // double exp
        Stats st{"exp(double)", 2, false};
        auto f = [](double x) { return sm::exp(x); };
        run<double>(st, f, ref_exp_d, spd);
        run<double>(st, f, ref_exp_d, rbd);
        run<double>(st, f, ref_exp_d, uniform<double>(rng, n, -746.0, 710.0));
        run<double>(st, f, ref_exp_d, uniform<double>(rng, n, -1.0, 1.0));
        run<double>(st, f, ref_exp_d, uniform<double>(rng, n / 4, -745.2, -708.0));
        ok &= report(st);
    }
    {  // double log
        Stats st{"log(double)", 2, false};
        auto f = [](double x) { return sm::log(x); };
        run<double>(st, f, ref_log_d, spd);
        run<double>(st, f, ref_log_d, rbd);
        run<double>(st, f, ref_log_d, uniform<double>(rng, n, 0.5, 2.0));
        run<double>(st, f, ref_log_d, uniform<double>(rng, n / 4, 0.0, 1e-307));
        ok &= report(st);
    }

    // expm1 / log1p / tanh: float versions via a strided sweep + random,
    // double versions on specials, random bit patterns and ranges.
    {
        // float arithmetic, measured 0.72 ulp over every float: held below 0.75
        Stats st{"expm1(float)", 1, true};
        st.frac_limit = 0.75;
        auto f = [](float x) { return sm::expm1(x); };
        run<float>(st, f, ref_expm1_f, spf);
        run_sweep_f(st, f, ref_expm1_f, stride * 4 + 1);
        run<float>(st, f, ref_expm1_f, uniform<float>(rng, n / 4, -20.0, 89.0));
        run<float>(st, f, ref_expm1_f, uniform<float>(rng, n / 4, -0.7, 0.7));  // k = -1, 0, 1
        run<float>(st, f, ref_expm1_f, uniform<float>(rng, n / 8, -1e-4, 1e-4));
        // the common branch (2^-90 <= |x| < 16) gives the same bits as the full function
        std::vector<float> cm;
        for (uint64_t u = 0; u < (1ull << 32); u += stride) cm.push_back(from_bits32(uint32_t(u)));
        std::vector<float> full(cm.size()), common(cm.size());
        apply([](float x) { return sm::expm1(x); }, cm.data(), full.data(), int64_t(cm.size()));
        apply([](float x) { return sm::expm1_common(x); }, cm.data(), common.data(),
              int64_t(cm.size()));
        for (size_t i = 0; i < cm.size(); i++)
            if (sm::expm1_in_common(cm[i]) && bits(full[i]) != bits(common[i]) &&
                st.special_fail++ < 10)
                std::printf("  expm1_common(%a) = %a, expm1 = %a\n", cm[i], common[i], full[i]);
        ok &= report(st);
    }
    {
        // float arithmetic, measured 0.66 ulp over every float: held below 0.75; the common
        // branch (-1 < x < inf) must give the same bits as the full function
        Stats st{"log1p(float)", 1, true};
        st.frac_limit = 0.75;
        auto f = [](float x) { return sm::log1p(x); };
        run<float>(st, f, ref_log1p_f, spf);
        run_sweep_f(st, f, ref_log1p_f, stride * 4 + 1);
        run<float>(st, f, ref_log1p_f, uniform<float>(rng, n / 4, -1.0, 2.0));
        run<float>(st, f, ref_log1p_f, uniform<float>(rng, n / 8, -1e-4, 1e-4));
        const auto cm = uniform<float>(rng, n / 4, -1.0, 1e4);
        std::vector<float> full(cm.size()), common(cm.size());
        apply([](float x) { return sm::log1p(x); }, cm.data(), full.data(), int64_t(cm.size()));
        apply([](float x) { return sm::log1p_common(x); }, cm.data(), common.data(),
              int64_t(cm.size()));
        for (size_t i = 0; i < cm.size(); i++)
            if (sm::log1p_in_common(cm[i]) && bits(full[i]) != bits(common[i]) &&
                st.special_fail++ < 10)
                std::printf("  log1p_common(%a) = %a, log1p = %a\n", cm[i], common[i], full[i]);
        ok &= report(st);
    }
    {
        Stats st{"tanh(float)", 1, true};
        auto f = [](float x) { return sm::tanh(x); };
        run<float>(st, f, ref_tanh_f, spf);
        run_sweep_f(st, f, ref_tanh_f, stride * 4 + 1);
        run<float>(st, f, ref_tanh_f, uniform<float>(rng, n / 4, -10.0, 10.0));
        ok &= report(st);
    }
    for (int which = 0; which < 2; ++which) {
        Stats st{which ? "cos(float)" : "sin(float)", 1, true};
        auto f = [which](float x) { return which ? sm::cos(x) : sm::sin(x); };
        auto ref = which ? ref_cos_f : ref_sin_f;
        run<float>(st, f, ref, trig_domain(spf));
        // every float of [0, 2^20] at the sweep stride, both signs
        std::vector<float> sweep;
        for (uint32_t u = 0; u <= 0x49800000u; u += static_cast<uint32_t>(stride * 4 + 1)) {
            sweep.push_back(from_bits32(u));
            sweep.push_back(-from_bits32(u));
        }
        run<float>(st, f, ref, sweep);
        run<float>(st, f, ref, uniform<float>(rng, n / 4, -10.0, 10.0));
        run<float>(st, f, ref, uniform<float>(rng, n / 8, -1e6, 1e6));
        ok &= report(st);
    }
    for (int which = 0; which < 2; ++which) {
        // float arithmetic for |x| <= kTrigFloatShortLimit (simd_trig_float.h): measured
        // 0.725 / 0.727 ulp over every float of that range, held below 0.75
        Stats st{which ? "cos_short(float)" : "sin_short(float)", 1, true};
        st.frac_limit = 0.75;
        auto f = [which](float x) { return which ? sm::cos_short(x) : sm::sin_short(x); };
        auto ref = which ? ref_cos_f : ref_sin_f;
        const float lim = sm::kTrigFloatShortLimit;
        std::vector<float> sp;
        for (float x : spf)
            if (!std::isfinite(x) || std::fabs(x) <= lim) sp.push_back(x);
        run<float>(st, f, ref, sp);
        std::vector<float> sweep;
        const uint32_t top = bits(lim);
        for (uint32_t u = 0; u <= top; u += static_cast<uint32_t>(stride + 2)) {
            sweep.push_back(from_bits32(u));
            sweep.push_back(-from_bits32(u));
        }
        run<float>(st, f, ref, sweep);
        // the floats nearest to multiples of pi/2 (where the reduction cancels most) and
        // their neighbours, and the worst cases of a search over all floats below 512
        std::vector<float> near{0x1.921fb6p+0f, 0x1.2d97c8p+2f, 0x1.f9cbe2p+7f, 0x1.f9cbe2p+8f};
        for (int k = 1; k * 1.5707963267948966 <= lim; ++k) {
            const float c = static_cast<float>(k * 1.5707963267948966);
            for (float v : {c, std::nextafter(c, 0.0f), std::nextafter(c, 1e30f)})
                if (v <= lim) { near.push_back(v); near.push_back(-v); }
        }
        run<float>(st, f, ref, near);
        run<float>(st, f, ref, uniform<float>(rng, n / 4, -10.0, 10.0));
        run<float>(st, f, ref, uniform<float>(rng, n / 4, -lim, lim));
        ok &= report(st);
    }
    for (int which = 0; which < 2; ++which) {
        Stats st{which ? "cos(double)" : "sin(double)", 1, false};
        auto f = [which](double x) { return which ? sm::cos(x) : sm::sin(x); };
        auto ref = which ? ref_cos_d : ref_sin_d;
        std::vector<double> sp;
        for (double x : spd)
            if (!std::isfinite(x) || std::fabs(x) <= sm::kTrigFastLimit) sp.push_back(x);
        run<double>(st, f, ref, sp);
        run<double>(st, f, ref, uniform<double>(rng, n / 2, -10.0, 10.0));
        run<double>(st, f, ref, uniform<double>(rng, n / 4, -1048576.0, 1048576.0));
        run<double>(st, f, ref, uniform<double>(rng, n / 8, -1e-3, 1e-3));
        // near multiples of pi/2, where the reduction cancels most
        std::vector<double> near;
        for (int k = 1; k < 200000; k += 7) {
            const double c = k * 1.5707963267948966;
            near.push_back(c);
            near.push_back(std::nextafter(c, 0.0));
            near.push_back(std::nextafter(c, 1e300));
        }
        run<double>(st, f, ref, near);
        ok &= report(st);
    }
    {
        Stats st{"tanh(double)", 2, false};
        auto f = [](double x) { return sm::tanh(x); };
        run<double>(st, f, ref_tanh_d, spd);
        run<double>(st, f, ref_tanh_d, rbd);
        run<double>(st, f, ref_tanh_d, uniform<double>(rng, n / 2, -20.0, 20.0));
        run<double>(st, f, ref_tanh_d, uniform<double>(rng, n / 2, -1.0, 1.0));
        run<double>(st, f, ref_tanh_d, uniform<double>(rng, n / 4, -1e-5, 1e-5));
        ok &= report(st);
    }
    {
        Stats st{"expm1(double)", 2, false};
        auto f = [](double x) { return sm::expm1(x); };
        run<double>(st, f, ref_expm1_d, spd);
        run<double>(st, f, ref_expm1_d, rbd);
        run<double>(st, f, ref_expm1_d, uniform<double>(rng, n / 2, -40.0, 710.0));
        run<double>(st, f, ref_expm1_d, uniform<double>(rng, n / 2, -1.0, 1.0));
        run<double>(st, f, ref_expm1_d, uniform<double>(rng, n / 4, -1e-5, 1e-5));
        ok &= report(st);
    }
    {
        Stats st{"log1p(double)", 2, false};
        auto f = [](double x) { return sm::log1p(x); };
        run<double>(st, f, ref_log1p_d, spd);
        run<double>(st, f, ref_log1p_d, rbd);
        run<double>(st, f, ref_log1p_d, uniform<double>(rng, n / 2, -1.0, 2.0));
        run<double>(st, f, ref_log1p_d, uniform<double>(rng, n / 4, -1e-5, 1e-5));
        ok &= report(st);
    }
    std::printf("%s\n", ok ? "ALL OK" : "SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
