// Accuracy check for the float functions of arraycore/native/src/simd_pow.h: log2, log10
// (float arithmetic, held below 0.75 ulp: measured 0.70 and 0.69 over every float), their
// common branches (bit-identical to the full functions on positive normal floats), exact
// results (log2(2^k) = k, log10 of the float nearest 10^k = k) and pow (float: held below
// 0.6 ulp, measured 0.56; special values bit for bit as the C library's).
//
// Build & run (tests/native/test_simd_math.py does this, in three compiler configurations):
//   g++ -O2 -march=native -std=c++20 -I arraycore/native/src
//       tests/native/simd_pow_check.cpp -o simd_pow_check && ./simd_pow_check
// Reference: the double libm result (see simd_math_check.cpp).  Options: --n, --stride.
#include "simd_pow.h"

#include "ulp_check.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace sm = arraycore::native::simd_math;
using namespace ulp_check;

namespace {
long double ref_log2_f(float x) { return std::log2(static_cast<double>(x)); }
long double ref_log10_f(float x) { return std::log10(static_cast<double>(x)); }

// common(x) == full(x) bit for bit wherever log_in_common(x)
template <class Full, class Common>
void check_common(Stats& st, Full full, Common common, const std::vector<float>& in) {
    std::vector<float> a(in.size()), b(in.size());
    apply(full, in.data(), a.data(), int64_t(in.size()));
    apply(common, in.data(), b.data(), int64_t(in.size()));
    for (size_t i = 0; i < in.size(); i++)
        if (sm::detail::log_in_common(in[i]) && bits(a[i]) != bits(b[i]) && st.special_fail++ < 10)
            std::printf("  %s: common(%a) = %a, full = %a\n", st.name, in[i], b[i], a[i]);
}
}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse_options(argc, argv);
    if (!opt.ok) return 2;
    const int64_t n = opt.n;
    const uint64_t stride = opt.stride;
    std::mt19937_64 rng(2468);
    bool ok = true;
    const auto spf = specials_f();

    for (int which = 0; which < 2; ++which) {
        Stats st{which ? "log10(float)" : "log2(float)", 1, true};
        st.frac_limit = 0.75;
        auto full = [which](float x) { return which ? sm::log10(x) : sm::log2(x); };
        auto common = [which](float x) { return which ? sm::log10_common(x) : sm::log2_common(x); };
        auto ref = which ? ref_log10_f : ref_log2_f;
        run<float>(st, full, ref, spf);
        run_sweep_f(st, full, ref, stride);
        run<float>(st, full, ref, uniform<float>(rng, n, 0.5, 2.0));
        run<float>(st, full, ref, uniform<float>(rng, n / 4, 1.0 - 1e-3, 1.0 + 1e-3));
        run<float>(st, full, ref, uniform<float>(rng, n / 4, 0.0, 1e-37));
        run<float>(st, common, ref, uniform<float>(rng, n / 4, 1e-30, 1e30));
        std::vector<float> sweep;
        for (uint64_t u = 0; u < (1ull << 32); u += stride) sweep.push_back(from_bits32(uint32_t(u)));
        check_common(st, full, common, sweep);
        // exact results
        if (which == 0) {
            for (int k = -149; k <= 127; k++)
                if (sm::log2(std::ldexp(1.0f, k)) != float(k) && st.special_fail++ < 10)
                    std::printf("  log2(2^%d) = %a\n", k, sm::log2(std::ldexp(1.0f, k)));
        } else {
            for (int k = -37; k <= 38; k++) {
                const float p = std::stof("1e" + std::to_string(k));
                if (sm::log10(p) != float(k) && st.special_fail++ < 10)
                    std::printf("  log10(1e%d) = %a\n", k, sm::log10(p));
            }
        }
        ok &= report(st);
    }
    {  // pow(float): measured 0.56 ulp, held below 0.6; special values as the C library's
        Stats st{"pow(float)", 1, true};
        st.frac_limit = 0.6;
        std::uniform_real_distribution<double> u01(0.0, 1.0);
        std::vector<float> xs, ys;
        for (int64_t i = 0; i < n; i++) {
            double a, b;
            switch (i % 4) {
                case 0: a = 4 * u01(rng); b = 80 * u01(rng) - 40; break;
                case 1: {  // whole float range, |y log2 x| up to 150 (subnormal results)
                    a = std::ldexp(1.0 + u01(rng), int(276 * u01(rng)) - 149);
                    const double l2 = std::fabs(std::log2(a));
                    b = (2 * u01(rng) - 1) * (l2 > 0 ? 150 / l2 : 100);
                    break;
                }
                case 2: a = 1 + (2 * u01(rng) - 1) * 1e-3; b = (2 * u01(rng) - 1) * 1e5; break;
                default: a = -1e3 * u01(rng); b = std::rint(40 * u01(rng) - 20); break;
            }
            xs.push_back(float(a));
            ys.push_back(float(b));
        }
        const float inf = std::numeric_limits<float>::infinity();
        const float sv[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f, -0.5f, 1.5f, -1.5f,
                            3.0f, -3.0f, inf, -inf, std::numeric_limits<float>::quiet_NaN(),
                            1e-45f, 1e-38f, 3e38f, -3e38f, 16777216.0f, 16777218.0f};
        for (float a : sv)
            for (float b : sv) { xs.push_back(a); ys.push_back(b); }
        std::vector<float> out(xs.size());
        for (size_t i = 0; i < xs.size(); i++) out[i] = sm::pow(xs[i], ys[i]);  // (vectorized)
        for (size_t i = 0; i < xs.size(); i++) {
            const long double ref = std::pow(double(xs[i]), double(ys[i]));
            const float cr = float(ref), y = out[i];
            st.count++;
            if (std::isnan(ref) || std::isnan(y) || std::isinf(cr) || cr == 0 || y == 0) {
                if (bits(y) != bits(cr) && !(std::isnan(ref) && std::isnan(y)) &&
                    st.special_fail++ < 10)
                    std::printf("  pow(%a, %a) = %a, want %a\n", xs[i], ys[i], y, cr);
                continue;
            }
            const double frac = double(std::fabs((long double)y - ref) / ulp_of(ref, 24, -149));
            const int64_t d = std::llabs(ordered(y) - ordered(cr));
            if (frac > st.max_frac) { st.max_frac = frac; st.worst_x = xs[i]; }
            if (d > st.max_int) { st.max_int = d; st.worst_int_x = xs[i]; }
        }
        ok &= report(st);
    }
    std::printf("%s\n", ok ? "ALL OK" : "SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
