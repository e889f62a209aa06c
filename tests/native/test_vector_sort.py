"""Build and run the randomized C++ check of the vector quicksort
(tests/native/vector_sort_check.cpp): every instruction set built (AVX2, AVX-512, AVX-512 on
emulated intrinsics), key width and codec against std::sort, and the depth-limit fallback that
Python-level tests cannot reach."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "tests" / "native" / "vector_sort_check.cpp"
INCLUDE = ROOT / "arraycore" / "native" / "src" / "kernels"
CXX = os.environ.get("CXX", "g++")

pytestmark = pytest.mark.skipif(shutil.which(CXX) is None, reason=f"{CXX} not available")


def test_vector_sort_against_std_sort(tmp_path):
    exe = tmp_path / "vector_sort_check"
    sources = [SRC] + [INCLUDE / f for f in ("vector_sort.cpp", "vector_sort_avx512.cpp",
                                             "vector_sort_avx512_emulated.cpp")]
    cmd = [CXX, "-O2", "-march=native", "-std=c++20", "-I", str(INCLUDE), *map(str, sources),
           "-o", str(exe)]
    build = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    print(run.stdout)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ALL OK" in run.stdout
