#!/usr/bin/env bash
# scripts/setup-deps.sh — installs the Debian 12 packages libdesert needs to
# build, test and benchmark (idempotent: does nothing when they are all
# installed). Runs apt-get as root, or through sudo otherwise.
#   bash scripts/setup-deps.sh [extra-package...]
# What each package is for: see README.md, "Dependencies".
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config   # toolchain and build
  clang libclang-rt-14-dev                       # clang build, sanitizers, libFuzzer
  libsimde-dev                                   # NEON and AVX-512 kernels emulated on x86 (tests)
  libdeflate-dev zlib1g-dev libzstd-dev          # DEFLATE blocks (zlib: exact Java verdict), zstd blocks
  libcmocka-dev                                  # unit tests
  libbenchmark-dev                               # benchmarks
  libmsgpack-dev libprotobuf-c-dev protobuf-c-compiler  # benchmark peers (msgpack-c, protobuf-c)
  libsimdjson-dev                                # benchmark reference (simdjson::validate_utf8)
  python3 file binutils                          # test scripts, nm (layer and symbol tests)
  cppcheck                                       # static analysis test (test/static_analysis.cmake)
  python3-dev                                    # Python package python/: C extension headers
  python3-setuptools                             # Python package: setup.py build
  python3-pytest                                 # Python package: tests (ctest python_tests)
  python3-pandas                                 # Python package: desert.to_pandas
  python3-dask                                   # Python package: desert.dask.read_desert
  python3-distributed                            # Python package: LocalCluster test
  python3-msgpack                                # Python benchmark peer (python/bench/bench.py)
  python3-protobuf                               # Python benchmark peer (python/bench/bench.py)
)
packages+=("$@")

# Installed for the native architecture (other architectures, e.g. arm64
# libraries for the cross build, do not count).
arch=$(dpkg --print-architecture 2>/dev/null || echo none)
installed=$(dpkg-query -W -f='${db:Status-Status} ${binary:Package}\n' "${packages[@]}" 2>/dev/null || true)
missing=()
for p in "${packages[@]}"; do
  if ! grep -qxE "installed ${p//+/\\+}(:${arch}|:all)?" <<<"$installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#packages[@]} Debian packages already installed"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-deps: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup-deps: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
