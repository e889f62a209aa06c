// Shared harness of the simd_math accuracy checkers (simd_math_check.cpp and the checkers
// of the headers built on it): an array loop of the engine's shape (so the vectorized code
// is what gets measured), ulp statistics against a higher-precision reference, the report
// line, and the input generators (special values, a strided sweep of all float bit
// patterns, uniform and random-bit samples).  See simd_math_check.cpp's header for what
// the statistics mean.
#pragma once

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace ulp_check {

template <class F, class T>
__attribute__((noinline)) void apply(F f, const T* in, T* out, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = f(in[i]);
}

uint32_t bits(float x) { uint32_t u; std::memcpy(&u, &x, 4); return u; }
uint64_t bits(double x) { uint64_t u; std::memcpy(&u, &x, 8); return u; }
float from_bits32(uint32_t u) { float x; std::memcpy(&x, &u, 4); return x; }
double from_bits64(uint64_t u) { double x; std::memcpy(&x, &u, 8); return x; }

// ordered integer view: adjacent floats differ by 1, -0 == +0
int64_t ordered(float x) {
    int32_t i = static_cast<int32_t>(bits(x));
    return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : i;
}
int64_t ordered(double x) {
    int64_t i = static_cast<int64_t>(bits(x));
    return i < 0 ? -(i & 0x7fffffffffffffffll) : i;
}

// ulp of the binade containing |ref| for a format with `mant` bits of
// precision and minimum exponent (of the ulp) `min_ulp_exp`.
long double ulp_of(long double ref, int mant, int min_ulp_exp) {
    int ex;
    std::frexp(std::fabs(ref), &ex);  // |ref| = m * 2^ex, m in [0.5, 1)
    int e = ex - mant;
    if (e < min_ulp_exp) e = min_ulp_exp;
    return std::ldexp(1.0L, e);
}

struct Stats {
    const char* name;
    double limit;       // allowed ulp error
    bool is_float;      // limit applies to integer ulp distance to the CR result
    double max_frac = 0;  // max fractional ulp error vs the reference
    long double worst_x = 0;
    int64_t max_int = 0;  // max integer ulp distance to round(ref)
    long double worst_int_x = 0;
    int64_t count = 0;
    int64_t special_fail = 0;
    double frac_limit = 0;  // if > 0, also a bound on max_frac (float functions held < 1 ulp)
};

template <class T>
void compare(Stats& st, const std::vector<T>& in, const std::vector<T>& out,
             long double (*ref_fn)(T)) {
    constexpr bool isf = sizeof(T) == 4;
    for (size_t i = 0; i < in.size(); i++) {
        const T x = in[i], y = out[i];
        const long double ref = ref_fn(x);
        const T cr = static_cast<T>(ref);  // correctly rounded (modulo double rounding)
        st.count++;
        if (std::isnan(ref) || std::isnan(y)) {
            if (!(std::isnan(ref) && std::isnan(y))) {
                if (st.special_fail++ < 10)
                    std::printf("  %s: FAIL x=%.9Lg (bits %#" PRIx64 ") got %.9Lg want %.9Lg\n", st.name,
                                (long double)x, (uint64_t)bits(x), (long double)y, ref);
            }
            continue;
        }
        if (std::isinf(cr) || std::isinf(y) || cr == 0 || y == 0) {
            // exact agreement required (including the sign of zero)
            if (bits(y) != bits(cr)) {
                if (st.special_fail++ < 10)
                    std::printf("  %s: FAIL x=%.17Lg got %.17Lg want %.17Lg\n", st.name,
                                (long double)x, (long double)y, (long double)cr);
            }
            continue;
        }
        const long double u = isf ? ulp_of(ref, 24, -149) : ulp_of(ref, 53, -1074);
        const double frac = static_cast<double>(std::fabs((long double)y - ref) / u);
        const int64_t d = std::llabs(ordered(y) - ordered(cr));
        if (frac > st.max_frac) { st.max_frac = frac; st.worst_x = x; }
        if (d > st.max_int) { st.max_int = d; st.worst_int_x = x; }
    }
}

template <class T, class F>
void run(Stats& st, F f, long double (*ref_fn)(T), const std::vector<T>& in) {
    std::vector<T> out(in.size());
    apply(f, in.data(), out.data(), static_cast<int64_t>(in.size()));
    compare(st, in, out, ref_fn);
}

bool report(const Stats& st) {
    const bool ok = st.special_fail == 0 &&
                    (st.is_float ? st.max_int <= st.limit : st.max_frac <= st.limit) &&
                    (st.frac_limit <= 0 || st.max_frac <= st.frac_limit);
    std::printf("%-12s n=%-10" PRId64 " max_err=%.3f ulp (at x=%.17Lg)  max_dist_to_CR=%" PRId64
                " ulp (at x=%.17Lg)  special_fail=%" PRId64 "  limit=%g  %s\n",
                st.name, st.count, st.max_frac, st.worst_x, st.max_int, st.worst_int_x,
                st.special_fail, st.limit, ok ? "OK" : "FAILED");
    return ok;
}

// ---- input generators -------------------------------------------------------

std::vector<float> specials_f() {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> v = {0.0f, -0.0f, inf, -inf, nan, -nan, 1.0f, -1.0f,
                            std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                            88.0f, 88.72283f, 88.72284f, 88.7229f, 89.0f, 100.0f, -87.33654f,
                            -87.3366f, -100.0f, -103.27893f, -103.9720f, -104.0f, -105.0f, -150.0f,
                            0.34657359f, -0.34657359f, 0.5f, 2.0f, 10.0f, 1e-10f, -1e-10f,
                            from_bits32(0x7fc00001u), from_bits32(0x00000001u)};
    for (int e = -149; e <= 127; e++) {
        float p = std::ldexp(1.0f, e);
        v.push_back(p);
        v.push_back(std::nextafter(p, 0.0f));
        v.push_back(std::nextafter(p, 2 * p));
        v.push_back(-p);
    }
    for (float x = -110.0f; x <= 95.0f; x += 0.125f) v.push_back(x);
    return v;
}

std::vector<double> specials_d() {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> v = {0.0, -0.0, inf, -inf, nan, -nan, 1.0, -1.0,
                             std::numeric_limits<double>::min(),
                             std::numeric_limits<double>::denorm_min(),
                             -std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
                             709.0, 709.782712893384, 709.7827128933841, 709.79, 710.0, 800.0,
                             -708.3964185322641, -708.4, -720.0, -744.44007192138122,
                             -745.13321910194110, -745.1332191019412, -745.2, -746.0, -800.0,
                             0.34657359027997264, -0.34657359027997264, 0.5, 2.0, 1e-300, -1e-300,
                             1e-17, -1e-17};
    for (int e = -1074; e <= 1023; e++) {
        double p = std::ldexp(1.0, e);
        v.push_back(p);
        v.push_back(std::nextafter(p, 0.0));
        v.push_back(std::nextafter(p, 2 * p));
        v.push_back(-p);
    }
    for (double x = -750.0; x <= 715.0; x += 0.0625) v.push_back(x);
    return v;
}

// strided sweep over all 2^32 float bit patterns, in chunks (stride 1 is an
// exhaustive test and needs no more memory than the chunk)
template <class F>
void run_sweep_f(Stats& st, F f, long double (*ref_fn)(float), uint64_t stride) {
    const uint64_t chunk = 1ull << 24;
    std::vector<float> v;
    v.reserve(chunk);
    for (uint64_t u = 0; u < (1ull << 32); u += stride) {
        v.push_back(from_bits32(static_cast<uint32_t>(u)));
        if (v.size() == chunk) { run<float>(st, f, ref_fn, v); v.clear(); }
    }
    if (!v.empty()) run<float>(st, f, ref_fn, v);
}

template <class T>
std::vector<T> uniform(std::mt19937_64& rng, int64_t n, double lo, double hi) {
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(rng));
    return v;
}

std::vector<double> random_bits_d(std::mt19937_64& rng, int64_t n) {
    std::vector<double> v(n);
    for (auto& x : v) x = from_bits64(rng());
    return v;
}

// The checkers' command line: --n N (random samples per function, default 4e6), --stride S
// (float bit-pattern sweep stride, default 97; 1 = exhaustive).
struct Options {
    int64_t n = 4000000;
    uint64_t stride = 97;
    bool ok = true;
};
inline Options parse_options(int argc, char** argv) {
    Options opt;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--n" && i + 1 < argc) opt.n = std::atoll(argv[++i]);
        else if (a == "--stride" && i + 1 < argc) opt.stride = std::strtoull(argv[++i], nullptr, 10);
        else { std::fprintf(stderr, "usage: %s [--n N] [--stride S]\n", argv[0]); opt.ok = false; }
    }
    return opt;
}

}  // namespace ulp_check
