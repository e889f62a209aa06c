#!/usr/bin/env bash
# Incremental developer build: compiles the extension with CMake/Ninja into build/dev and
# copies it into arraycore/ so `python -c "import arraycore"` works from the source tree.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=OFF \
  -Dpybind11_DIR="$(python3 -c 'import pybind11; print(pybind11.get_cmake_dir())')" >/dev/null
cmake --build build/dev -j "${JOBS:-2}"
# Install by rename, not by overwriting: a running Python that has the old module mapped
# would die with SIGBUS if its file changed under it.
for so in build/dev/_native*.so; do
  cp -f "$so" "arraycore/native/.$(basename "$so").tmp"
  mv -f "arraycore/native/.$(basename "$so").tmp" "arraycore/native/$(basename "$so")"
done
