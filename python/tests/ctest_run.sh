#!/bin/sh
# python/tests/ctest_run.sh — what ctest python_tests runs (test/python.cmake):
# builds the desert package against the libraries of the CMake build tree
# into that tree (nothing is written to the source tree), then runs pytest
# on python/tests with the same interpreter.
#   ctest_run.sh PYTHON LIBDIR OUTDIR [DESERT_CLI]
set -eu
python=$1 libdir=$2 out=$3 cli=${4:-}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
cd "$src"
DESERT_BUILD_DIR="$libdir" "$python" setup.py -q build --build-base "$out/build" \
  --build-lib "$out/lib" >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
export PYTHONPATH="$out/lib" PYTHONDONTWRITEBYTECODE=1 DESERT_CLI="$cli"
cd "$out"
exec "$python" -m pytest -q -p no:cacheprovider --rootdir "$src/tests" "$src/tests"
