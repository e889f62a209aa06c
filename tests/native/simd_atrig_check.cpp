// Accuracy check for arraycore/native/src/simd_atrig.h (tan, atan, asin, acos, atan2).
//
// Build & run (the pytest tests/native/test_simd_math.py does this, with three flag sets):
//   g++ -O2 -march=native -std=c++20 -I arraycore/native/src
//       tests/native/simd_atrig_check.cpp -o simd_atrig_check && ./simd_atrig_check
//
// Same method as simd_math_check.cpp (see its header; the harness is ulp_check.h): each
// function runs through an array loop of the engine's shape -- for atan2 a two-input loop,
// apply2 below -- and is compared with libm one precision up (float: the double libm
// function, whose result rounded to float is the correctly rounded one; double: the
// long-double libm function). float limits are on the integer ulp distance to the
// correctly rounded result (1), double limits on the fractional ulp error (2). Special
// values must match bit for bit (signed zeros, infinities; NaN only as NaN), and so must
// the results at the exact points of run_exact / run2_exact (Annex F's atan2 table,
// atan(+-inf), atan(+-1), asin(+-1), acos(+-1), ...).
// Inputs: special values and boundaries; a strided sweep of all float bit patterns (tan:
// of |x| <= 2^20, the function's domain; atan2: the sweep for one argument against random
// bits for the other, both ways round, plus every pair of a list of special values);
// random bit patterns (double); uniform ranges; points next to multiples of pi/2 (tan),
// to +-1 and +-1/2 (asin, acos), to the reduction breakpoints (atan, atan2); tiny and
// huge arguments and ratios. Options: --n N (random samples per set, default 4e6),
// --stride S (sweep stride, default 97; 1 = exhaustive).
#include "simd_atrig.h"

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
long double ref_tan_f(float x) { return std::tan(static_cast<double>(x)); }
long double ref_atan_f(float x) { return std::atan(static_cast<double>(x)); }
long double ref_asin_f(float x) { return std::asin(static_cast<double>(x)); }
long double ref_acos_f(float x) { return std::acos(static_cast<double>(x)); }
long double ref_tan_d(double x) { return std::tan(static_cast<long double>(x)); }
long double ref_atan_d(double x) { return std::atan(static_cast<long double>(x)); }
long double ref_asin_d(double x) { return std::asin(static_cast<long double>(x)); }
long double ref_acos_d(double x) { return std::acos(static_cast<long double>(x)); }
long double ref_atan2_f(float y, float x) {
    return std::atan2(static_cast<double>(y), static_cast<double>(x));
}
long double ref_atan2_d(double y, double x) {
    return std::atan2(static_cast<long double>(y), static_cast<long double>(x));
}

// ---- two-input loop and comparison (atan2) -------------------------------------
template <class F, class T>
__attribute__((noinline)) void apply2(F f, const T* a, const T* b, T* out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = f(a[i], b[i]);
}

// As ulp_check::compare, for out[i] = f(ys[i], xs[i]); worst_x records y, and the x of
// the worst case is kept here.
struct Pairs {
    long double worst_frac_x = 0, worst_int_x = 0;
};

template <class T, class F>
void run2(Stats& st, Pairs& pw, F f, long double (*ref_fn)(T, T), const std::vector<T>& ys,
          const std::vector<T>& xs) {
    constexpr bool isf = sizeof(T) == 4;
    std::vector<T> out(ys.size());
    apply2(f, ys.data(), xs.data(), out.data(), static_cast<int64_t>(ys.size()));
    for (size_t i = 0; i < ys.size(); i++) {
        const T y = ys[i], x = xs[i], r = out[i];
        const long double ref = ref_fn(y, x);
        const T cr = static_cast<T>(ref);
        st.count++;
        if (std::isnan(ref) || std::isnan(r)) {
            if (!(std::isnan(ref) && std::isnan(r)) && st.special_fail++ < 10)
                std::printf("  %s: FAIL y=%.17Lg x=%.17Lg got %.17Lg want %.17Lg\n", st.name,
                            (long double)y, (long double)x, (long double)r, ref);
            continue;
        }
        if (std::isinf(cr) || std::isinf(r) || cr == 0 || r == 0) {
            if (bits(r) != bits(cr) && st.special_fail++ < 10)
                std::printf("  %s: FAIL y=%.17Lg x=%.17Lg got %.17Lg want %.17Lg\n", st.name,
                            (long double)y, (long double)x, (long double)r, (long double)cr);
            continue;
        }
        const long double u = isf ? ulp_of(ref, 24, -149) : ulp_of(ref, 53, -1074);
        const double frac = static_cast<double>(std::fabs((long double)r - ref) / u);
        const int64_t d = std::llabs(ordered(r) - ordered(cr));
        if (frac > st.max_frac) { st.max_frac = frac; st.worst_x = y; pw.worst_frac_x = x; }
        if (d > st.max_int) { st.max_int = d; st.worst_int_x = y; pw.worst_int_x = x; }
    }
}

bool report2(const Stats& st, const Pairs& pw) {
    const bool ok = report(st);
    std::printf("%-12s   (worst cases above are y; their x: %.17Lg, %.17Lg)\n", "",
                pw.worst_frac_x, pw.worst_int_x);
    return ok;
}

// Inputs whose results must equal the correctly rounded reference bit for bit (not just
// within the ulp limit): the C99 Annex F special cases and exact points such as atan(1),
// asin(1), atan2(inf, inf). NaN must give NaN. Failures count as special_fail.
template <class T>
bool same_bits(T r, long double ref) {
    const T cr = static_cast<T>(ref);
    if (std::isnan(ref) || std::isnan(r)) return std::isnan(ref) && std::isnan(r);
    return bits(r) == bits(cr);
}
template <class T, class F>
void run_exact(Stats& st, F f, long double (*ref_fn)(T), const std::vector<T>& in) {
    std::vector<T> out(in.size());
    apply(f, in.data(), out.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < in.size(); i++)
        if (!same_bits(out[i], ref_fn(in[i])) && st.special_fail++ < 10)
            std::printf("  %s: NOT EXACT x=%.17Lg got %.17Lg want %.17Lg\n", st.name,
                        (long double)in[i], (long double)out[i], ref_fn(in[i]));
}
template <class T, class F>
void run2_exact(Stats& st, F f, long double (*ref_fn)(T, T), const std::vector<T>& ys,
                const std::vector<T>& xs) {
    std::vector<T> out(ys.size());
    apply2(f, ys.data(), xs.data(), out.data(), static_cast<int64_t>(ys.size()));
    for (size_t i = 0; i < ys.size(); i++)
        if (!same_bits(out[i], ref_fn(ys[i], xs[i])) && st.special_fail++ < 10)
            std::printf("  %s: NOT EXACT y=%.17Lg x=%.17Lg got %.17Lg want %.17Lg\n", st.name,
                        (long double)ys[i], (long double)xs[i], (long double)out[i],
                        ref_fn(ys[i], xs[i]));
}

// x, -x for each x, plus NaN
template <class T>
std::vector<T> signed_set(std::initializer_list<T> xs) {
    std::vector<T> v;
    for (T x : xs) { v.push_back(x); v.push_back(-x); }
    v.push_back(std::numeric_limits<T>::quiet_NaN());
    return v;
}

// atan2 pairs with an exact result: every combination of +-0, +-inf, +-finite (Annex F),
// and |y| = |x|
template <class T>
void exact_pairs(std::vector<T>& ys, std::vector<T>& xs) {
    using L = std::numeric_limits<T>;
    const T vals[] = {T(0), L::infinity(), T(1), T(3), L::denorm_min(), L::max(),
                      L::min(), L::quiet_NaN()};
    for (T a : vals)
        for (T b : vals)
            for (int s = 0; s < 4; s++) {
                const bool zero_or_inf = a == 0 || b == 0 || std::isinf(a) || std::isinf(b) ||
                                         std::isnan(a) || std::isnan(b) || a == b;
                if (!zero_or_inf) continue;
                ys.push_back(s & 1 ? -a : a);
                xs.push_back(s & 2 ? -b : b);
            }
}

// ---- inputs ------------------------------------------------------------------------
template <class T>
std::vector<T> in_domain(const std::vector<T>& v) {  // tan: |x| <= 2^20 or not finite
    std::vector<T> out;
    for (T x : v)
        if (!std::isfinite(x) || std::fabs(x) <= sm::kTrigFastLimit) out.push_back(x);
    return out;
}

// floats / doubles nearest to k pi/2 and their neighbours (k up to kmax, both signs)
template <class T>
std::vector<T> near_pio2(int64_t kmax, int64_t kstep) {
    std::vector<T> v;
    for (int64_t k = 1; k <= kmax; k += kstep) {
        const T c = static_cast<T>(static_cast<long double>(k) * 1.5707963267948966192313L);
        T lo = c, hi = c;
        for (int j = 0; j < 3; j++) {
            v.push_back(lo); v.push_back(-lo); v.push_back(hi); v.push_back(-hi);
            lo = std::nextafter(lo, T(0));
            hi = std::nextafter(hi, T(1e30));
        }
    }
    return v;
}

// values next to +-c: c and the `count` representable numbers on each side, both signs,
// plus c (1 -+ 2^-k) for k up to the precision
template <class T>
std::vector<T> around(T c, int count) {
    std::vector<T> v;
    T lo = c, hi = c;
    for (int j = 0; j <= count; j++) {
        v.push_back(lo); v.push_back(-lo); v.push_back(hi); v.push_back(-hi);
        lo = std::nextafter(lo, T(0));
        hi = std::nextafter(hi, T(1e30));
    }
    const int digits = std::numeric_limits<T>::digits;
    for (int k = 1; k <= digits + 1; k++)
        for (T s : {T(1) - std::ldexp(T(1), -k), T(1) + std::ldexp(T(1), -k)}) {
            v.push_back(c * s);
            v.push_back(-c * s);
        }
    return v;
}

std::vector<float> random_bits_f(std::mt19937_64& rng, int64_t n) {
    std::vector<float> v(n);
    for (auto& x : v) x = from_bits32(static_cast<uint32_t>(rng()));
    return v;
}

template <class T>
std::vector<T> concat(std::vector<T> a, const std::vector<T>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// special values for atan2 pairs (every ordered pair of them is tested)
template <class T>
std::vector<T> atan2_specials() {
    using L = std::numeric_limits<T>;
    std::vector<T> base = {T(0), L::infinity(), L::quiet_NaN(), T(1), T(0.5), T(2), T(3),
                           T(1e-3), L::min(), L::denorm_min(), L::max(), L::epsilon(),
                           std::nextafter(L::min(), T(0)), T(1) / L::epsilon(),
                           std::nextafter(T(1), T(0)), std::nextafter(T(2), T(3)),
                           std::nextafter(T(0.5), T(0)), std::ldexp(T(1), L::max_exponent - 2),
                           std::ldexp(T(1), L::min_exponent - 2)};
    std::vector<T> v;
    for (T b : base) { v.push_back(b); v.push_back(-b); }
    return v;
}

// (y, x) pairs for atan2
template <class T>
struct PairSet {
    std::vector<T> y, x;
    void add(T a, T b) { y.push_back(a); x.push_back(b); }
};

template <class T>
PairSet<T> atan2_special_pairs() {
    PairSet<T> p;
    const auto s = atan2_specials<T>();
    for (T a : s)
        for (T b : s) p.add(a, b);
    return p;
}

// pairs with |y/x| near the reduction breakpoints 1/2, 1, 2 (and the swap at 1), at
// random magnitudes and signs, including ratios a few ulps away from them
template <class T>
PairSet<T> atan2_breakpoint_pairs(std::mt19937_64& rng, int64_t n, int max_exp) {
    PairSet<T> p;
    std::uniform_int_distribution<int> e(-max_exp, max_exp), j(-4, 4), sg(0, 3);
    std::uniform_real_distribution<double> m(1.0, 2.0);
    const T ratios[] = {T(0.5), T(1), T(2)};
    for (int64_t i = 0; i < n; i++) {
        const T x = static_cast<T>(std::ldexp(m(rng), e(rng)));
        T y = x * ratios[i % 3];
        for (int k = j(rng); k != 0; k += k > 0 ? -1 : 1)
            y = std::nextafter(y, k > 0 ? T(1e30) : T(0));
        const int s = sg(rng);
        p.add(s & 1 ? -y : y, s & 2 ? -x : x);
    }
    return p;
}

// pairs with y and x of independent random magnitudes 2^e (huge and tiny ratios,
// subnormals): e uniform in [emin, emax]
template <class T>
PairSet<T> atan2_magnitude_pairs(std::mt19937_64& rng, int64_t n, int emin, int emax) {
    PairSet<T> p;
    std::uniform_int_distribution<int> e(emin, emax), sg(0, 3);
    std::uniform_real_distribution<double> m(1.0, 2.0);
    for (int64_t i = 0; i < n; i++) {
        const T y = static_cast<T>(std::ldexp(m(rng), e(rng)));
        const T x = static_cast<T>(std::ldexp(m(rng), e(rng)));
        const int s = sg(rng);
        p.add(s & 1 ? -y : y, s & 2 ? -x : x);
    }
    return p;
}

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse_options(argc, argv);
    if (!opt.ok) return 2;
    const int64_t n = opt.n;
    const uint64_t stride = opt.stride;
    std::mt19937_64 rng(20240611);
    bool ok = true;

    const auto spf = specials_f();
    const auto spd = specials_d();
    const auto rbd = random_bits_d(rng, n);

    // ---- tan ----
    {
        Stats st{"tan(float)", 1, true};
        auto f = [](float x) { return sm::tan(x); };
        run_exact<float>(st, f, ref_tan_f, signed_set<float>({0.0f, 1e-30f}));
        run<float>(st, f, ref_tan_f, in_domain(spf));
        std::vector<float> sweep;  // every float of [0, 2^20] at the stride, both signs
        for (uint32_t u = 0; u <= 0x49800000u; u += static_cast<uint32_t>(stride)) {
            sweep.push_back(from_bits32(u));
            sweep.push_back(-from_bits32(u));
        }
        run<float>(st, f, ref_tan_f, sweep);
        run<float>(st, f, ref_tan_f, uniform<float>(rng, n, -10.0, 10.0));
        run<float>(st, f, ref_tan_f, uniform<float>(rng, n / 4, -1048576.0, 1048576.0));
        run<float>(st, f, ref_tan_f, near_pio2<float>(667000, 1));
        run<float>(st, f, ref_tan_f, uniform<float>(rng, n / 8, -1e-3, 1e-3));
        ok &= report(st);
    }
    {
        Stats st{"tan(double)", 2, false};
        auto f = [](double x) { return sm::tan(x); };
        run_exact<double>(st, f, ref_tan_d, signed_set<double>({0.0, 1e-300, 1e-320}));
        run<double>(st, f, ref_tan_d, in_domain(spd));
        run<double>(st, f, ref_tan_d, in_domain(rbd));
        run<double>(st, f, ref_tan_d, uniform<double>(rng, n, -10.0, 10.0));
        run<double>(st, f, ref_tan_d, uniform<double>(rng, n / 2, -0.8, 0.8));
        run<double>(st, f, ref_tan_d, uniform<double>(rng, n / 4, -1048576.0, 1048576.0));
        run<double>(st, f, ref_tan_d, uniform<double>(rng, n / 8, -1e-5, 1e-5));
        run<double>(st, f, ref_tan_d, near_pio2<double>(667000, 3));
        ok &= report(st);
    }

    // ---- atan ----
    {
        Stats st{"atan(float)", 1, true};
        auto f = [](float x) { return sm::atan(x); };
        run_exact<float>(st, f, ref_atan_f,
                         signed_set<float>({0.0f, 1e-40f, 1.0f, 1e30f, 3e38f,
                                            std::numeric_limits<float>::infinity()}));
        run<float>(st, f, ref_atan_f, spf);
        run_sweep_f(st, f, ref_atan_f, stride);
        run<float>(st, f, ref_atan_f, uniform<float>(rng, n, -10.0, 10.0));
        run<float>(st, f, ref_atan_f, uniform<float>(rng, n / 2, -2.0, 2.0));
        run<float>(st, f, ref_atan_f, around(1.0f, 4000));
        ok &= report(st);
    }
    {
        Stats st{"atan(double)", 2, false};
        auto f = [](double x) { return sm::atan(x); };
        run_exact<double>(st, f, ref_atan_d,
                          signed_set<double>({0.0, 1e-310, 1.0, 1e300,
                                              std::numeric_limits<double>::infinity()}));
        run<double>(st, f, ref_atan_d, spd);
        run<double>(st, f, ref_atan_d, rbd);
        run<double>(st, f, ref_atan_d, uniform<double>(rng, n, -10.0, 10.0));
        run<double>(st, f, ref_atan_d, uniform<double>(rng, n / 2, -3.0, 3.0));
        run<double>(st, f, ref_atan_d, uniform<double>(rng, n / 8, -1e-5, 1e-5));
        run<double>(st, f, ref_atan_d, uniform<double>(rng, n / 8, -1e20, 1e20));
        for (double c : {0.5, 1.0, 2.0}) run<double>(st, f, ref_atan_d, around(c, 4000));
        ok &= report(st);
    }

    // ---- asin, acos ----
    for (int which = 0; which < 2; ++which) {
        Stats st{which ? "acos(float)" : "asin(float)", 1, true};
        auto f = [which](float x) { return which ? sm::acos(x) : sm::asin(x); };
        auto ref = which ? ref_acos_f : ref_asin_f;
        run_exact<float>(st, f, ref,
                         signed_set<float>({0.0f, 1e-40f, 1.0f, 1.5f, 2.0f,
                                            std::numeric_limits<float>::infinity()}));
        run<float>(st, f, ref, spf);
        run_sweep_f(st, f, ref, stride);
        run<float>(st, f, ref, uniform<float>(rng, n, -1.0, 1.0));
        for (float c : {1.0f, 0.5f}) run<float>(st, f, ref, around(c, 20000));
        run<float>(st, f, ref, uniform<float>(rng, n / 8, -1e-4, 1e-4));
        ok &= report(st);
    }
    for (int which = 0; which < 2; ++which) {
        Stats st{which ? "acos(double)" : "asin(double)", 2, false};
        auto f = [which](double x) { return which ? sm::acos(x) : sm::asin(x); };
        auto ref = which ? ref_acos_d : ref_asin_d;
        run_exact<double>(st, f, ref,
                          signed_set<double>({0.0, 1e-310, 1.0, 1.5, 2.0,
                                              std::numeric_limits<double>::infinity()}));
        run<double>(st, f, ref, spd);
        run<double>(st, f, ref, rbd);
        run<double>(st, f, ref, uniform<double>(rng, n, -1.0, 1.0));
        run<double>(st, f, ref, uniform<double>(rng, n / 4, 0.99, 1.0));
        run<double>(st, f, ref, uniform<double>(rng, n / 4, -1.0, -0.99));
        run<double>(st, f, ref, uniform<double>(rng, n / 8, -1e-5, 1e-5));
        for (double c : {1.0, 0.5}) run<double>(st, f, ref, around(c, 20000));
        ok &= report(st);
    }

    // ---- atan2 ----
    {
        Stats st{"atan2(float)", 1, true};
        Pairs pw;
        auto f = [](float y, float x) { return sm::atan2(y, x); };
        std::vector<float> ey, ex;
        exact_pairs(ey, ex);
        run2_exact<float>(st, f, ref_atan2_f, ey, ex);
        auto sp = atan2_special_pairs<float>();
        run2<float>(st, pw, f, ref_atan2_f, sp.y, sp.x);
        // strided sweep of one argument against random bits for the other, in chunks
        const uint64_t s2 = stride * 2 + 1;
        for (int side = 0; side < 2; ++side) {
            std::vector<float> a, b;
            for (uint64_t u = 0; u < (1ull << 32); u += s2) {
                a.push_back(from_bits32(static_cast<uint32_t>(u)));
                b.push_back(from_bits32(static_cast<uint32_t>(rng())));
                if (a.size() == (1u << 22) || u + s2 >= (1ull << 32)) {
                    if (side == 0) run2<float>(st, pw, f, ref_atan2_f, a, b);
                    else run2<float>(st, pw, f, ref_atan2_f, b, a);
                    a.clear(); b.clear();
                }
            }
        }
        run2<float>(st, pw, f, ref_atan2_f, uniform<float>(rng, n, -10.0, 10.0),
                    uniform<float>(rng, n, -10.0, 10.0));
        auto bp = atan2_breakpoint_pairs<float>(rng, n / 4, 120);
        run2<float>(st, pw, f, ref_atan2_f, bp.y, bp.x);
        auto mp = atan2_magnitude_pairs<float>(rng, n / 4, -149, 127);
        run2<float>(st, pw, f, ref_atan2_f, mp.y, mp.x);
        ok &= report2(st, pw);
    }
    {
        // atan2_common: the same bits as atan2 wherever atan2_in_common holds (random bit
        // patterns, values near the common domain's edges, random pairs of magnitudes)
        Stats st{"atan2_common(float)", 0, true};
        std::vector<float> ys, xs;
        for (int64_t i = 0; i < n; ++i) {
            ys.push_back(from_bits32(static_cast<uint32_t>(rng())));
            xs.push_back(from_bits32(static_cast<uint32_t>(rng())));
        }
        auto mp = atan2_magnitude_pairs<float>(rng, n / 4, -110, 127);
        ys.insert(ys.end(), mp.y.begin(), mp.y.end());
        xs.insert(xs.end(), mp.x.begin(), mp.x.end());
        for (float e : {0x1p-100f, 0x1.fffffep127f, 1.0f}) {
            for (float v : {e, std::nextafter(e, 0.0f), std::nextafter(e, 1e38f)}) {
                ys.push_back(v); xs.push_back(0.75f);
                ys.push_back(-0.75f); xs.push_back(-v);
                ys.push_back(v); xs.push_back(-v);
            }
        }
        std::vector<float> full(ys.size()), common(ys.size());
        apply2([](float y, float x) { return sm::atan2(y, x); }, ys.data(), xs.data(),
               full.data(), static_cast<int64_t>(ys.size()));
        apply2([](float y, float x) { return sm::atan2_common(y, x); }, ys.data(), xs.data(),
               common.data(), static_cast<int64_t>(ys.size()));
        for (size_t i = 0; i < ys.size(); ++i) {
            if (!sm::atan2_in_common(ys[i], xs[i])) continue;
            st.count++;
            if (bits(full[i]) != bits(common[i]) && st.special_fail++ < 10)
                std::printf("  atan2_common(%a, %a) = %a, atan2 = %a\n", ys[i], xs[i],
                            common[i], full[i]);
        }
        std::printf("%-16s n=%-10lld bit-identical to atan2: %s\n", st.name,
                    static_cast<long long>(st.count), st.special_fail ? "FAIL" : "OK");
        ok &= st.special_fail == 0;
    }
    {
        Stats st{"atan2(double)", 2, false};
        Pairs pw;
        auto f = [](double y, double x) { return sm::atan2(y, x); };
        std::vector<double> ey, ex;
        exact_pairs(ey, ex);
        run2_exact<double>(st, f, ref_atan2_d, ey, ex);
        auto sp = atan2_special_pairs<double>();
        run2<double>(st, pw, f, ref_atan2_d, sp.y, sp.x);
        run2<double>(st, pw, f, ref_atan2_d, rbd, random_bits_d(rng, n));
        run2<double>(st, pw, f, ref_atan2_d, uniform<double>(rng, n, -10.0, 10.0),
                     uniform<double>(rng, n, -10.0, 10.0));
        auto bp = atan2_breakpoint_pairs<double>(rng, n / 2, 1000);
        run2<double>(st, pw, f, ref_atan2_d, bp.y, bp.x);
        auto mp = atan2_magnitude_pairs<double>(rng, n / 4, -1074, 1023);
        run2<double>(st, pw, f, ref_atan2_d, mp.y, mp.x);
        auto near = atan2_magnitude_pairs<double>(rng, n / 4, -1074, -1000);  // subnormals
        run2<double>(st, pw, f, ref_atan2_d, near.y, near.x);
        auto top = atan2_magnitude_pairs<double>(rng, n / 8, 1000, 1023);     // near overflow
        run2<double>(st, pw, f, ref_atan2_d, top.y, top.x);
        ok &= report2(st, pw);
    }

    std::printf("%s\n", ok ? "ALL OK" : "SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
