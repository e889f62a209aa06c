"""Build and run the standalone accuracy checkers of the vector math headers.

Each checker (tests/native/*_check.cpp on the shared harness ulp_check.h) exits non-zero
when a function exceeds its ulp limit or gets a special value wrong. Each is built several
ways because the headers must be accurate (and, for the engine, vectorizable) with and
without FMA contraction and with and without AVX2.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "tests" / "native"
# one checker per header: simd_math.h + simd_trig.h + simd_trig_float.h, simd_atrig.h, simd_hyperbolic.h, simd_pow.h
CHECKERS = sorted(p.stem for p in NATIVE.glob("simd_*_check.cpp"))
INCLUDE = ROOT / "arraycore" / "native" / "src"
CXX = os.environ.get("CXX", "g++")

pytestmark = pytest.mark.skipif(shutil.which(CXX) is None, reason=f"{CXX} not available")

FLAG_SETS = {
    # what the brief specifies (ISO mode: -ffp-contract=off)
    "O2-native-c++20": ["-O2", "-march=native", "-std=c++20"],
    # engine-like build: GNU mode contracts a*b+c into FMA, full vectorizer
    "O3-native-gnu++20": ["-O3", "-march=native", "-std=gnu++20"],
    # baseline x86-64 / no FMA: exercises the non-FMA fallback
    "O2-generic-c++20": ["-O2", "-std=c++20"],
}


@pytest.mark.parametrize("checker", CHECKERS)
@pytest.mark.parametrize("name", list(FLAG_SETS))
def test_simd_math_accuracy(checker, name, tmp_path):
    exe = tmp_path / f"{checker}_{name}"
    cmd = [CXX, *FLAG_SETS[name], "-I", str(INCLUDE), str(NATIVE / f"{checker}.cpp"),
           "-o", str(exe)]
    build = subprocess.run(cmd, capture_output=True, text=True)
    if build.returncode != 0 and "-march=native" in cmd:
        pytest.skip(f"compiler rejected flags: {build.stderr[-500:]}")
    assert build.returncode == 0, build.stderr
    # smaller random sample than the default to keep the test quick
    run = subprocess.run([str(exe), "--n", "1000000", "--stride", "257"],
                         capture_output=True, text=True, timeout=600)
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ALL OK" in run.stdout


VEC_SRC = """
#include "simd_math.h"
#include "simd_trig.h"
#include "simd_trig_float.h"
#include "simd_atrig.h"
#include "simd_hyperbolic.h"
#include "simd_pow.h"
#include <cstdint>
namespace sm = arraycore::native::simd_math;
#define K(name, T, f) void name(const T* a, T* o, int64_t n) { for (int64_t i = 0; i < n; i++) o[i] = sm::f(a[i]); }
K(k_exp_f, float, exp)
K(k_log_f, float, log)
K(k_exp_d, double, exp)
K(k_log_d, double, log)
K(k_expm1_f, float, expm1)
K(k_log1p_f, float, log1p)
K(k_tanh_f, float, tanh)
K(k_sin_f, float, sin)
K(k_cos_f, float, cos)
K(k_sin_short_f, float, sin_short)
K(k_cos_short_f, float, cos_short)
K(k_tanh_d, double, tanh)
K(k_sin_d, double, sin)
K(k_cos_d, double, cos)
K(k_expm1_d, double, expm1)
K(k_log1p_d, double, log1p)
// simd_atrig.h
K(k_tan_f, float, tan)
K(k_atan_f, float, atan)
K(k_asin_f, float, asin)
K(k_acos_f, float, acos)
K(k_tan_d, double, tan)
K(k_atan_d, double, atan)
K(k_asin_d, double, asin)
K(k_acos_d, double, acos)
#pragma push_macro("K")
#undef K
#define K(name, T, f) void name(const T* a, const T* b, T* o, int64_t n) { for (int64_t i = 0; i < n; i++) o[i] = sm::f(a[i], b[i]); }
K(k_atan2_f, float, atan2)
K(k_atan2c_f, float, atan2_common)
K(k_atan2_d, double, atan2)
// simd_pow.h
K(k_pow_f, float, pow)
K(k_pow_d, double, pow)
#pragma pop_macro("K")
K(k_log2_f, float, log2)
K(k_log10_f, float, log10)
K(k_log2c_f, float, log2_common)
K(k_log10c_f, float, log10_common)
K(k_log1pc_f, float, log1p_common)
K(k_expm1c_f, float, expm1_common)
K(k_log2_d, double, log2)
K(k_log10_d, double, log10)
// simd_hyperbolic.h
K(k_sinh_f, float, sinh)
K(k_cosh_f, float, cosh)
K(k_asinh_f, float, asinh)
K(k_acosh_f, float, acosh)
K(k_atanh_f, float, atanh)
K(k_sinh_d, double, sinh)
K(k_cosh_d, double, cosh)
K(k_asinh_d, double, asinh)
K(k_acosh_d, double, acosh)
K(k_atanh_d, double, atanh)
"""


@pytest.mark.parametrize("std", ["c++20", "gnu++20"])
def test_simd_math_vectorizes(std, tmp_path):
    """Every kernel loop must be auto-vectorized by the compiler with the engine's flags
    (CMakeLists.txt: -O3 -fno-math-errno -fno-trapping-math -march=native; without
    -fno-trapping-math, GCC 12 leaves several of these loops scalar on AVX2 machines)."""
    src = tmp_path / "vec.cpp"
    src.write_text(VEC_SRC)
    cmd = [CXX, "-O3", "-march=native", "-fno-math-errno", "-fno-trapping-math", f"-std={std}",
           "-I", str(INCLUDE), "-c", str(src),
           "-o", str(tmp_path / "vec.o"), "-fopt-info-vec-optimized"]
    build = subprocess.run(cmd, capture_output=True, text=True)
    if build.returncode != 0:
        pytest.skip(f"compiler rejected flags: {build.stderr[-500:]}")
    lines = {int(l.split(":")[1]) for l in build.stderr.splitlines()
             if "loop vectorized" in l and "vec.cpp:" in l}
    kernel_lines = [i + 1 for i, l in enumerate(VEC_SRC.splitlines()) if l.startswith("K(")]
    missing = [VEC_SRC.splitlines()[i - 1] for i in kernel_lines if i not in lines]
    assert not missing, f"not vectorized: {missing}\n{build.stderr}"
