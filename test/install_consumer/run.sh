#!/usr/bin/env bash
# test/install_consumer/run.sh — the install-and-consume test (ctest
# `install_consumer`, see test/install.cmake):
#   1. `cmake --install` the build tree into a fresh prefix under WORK and
#      check what a user finds there: headers, libraries with their soname
#      links, both .pc files, the CMake package, the tool, its man page,
#      LICENSE, CHANGELOG.md, README.md and docs/ under share/doc/desert;
#   2. configure, build and run this folder's consumers through
#      find_package(desert CONFIG REQUIRED): desert::desert (main.c),
#      desert::json (json_main.c) and desert_generate_c() (gen_main.c with
#      point.schema.json, when the tool is installed), then the same with
#      desert::desert_static and desert::json_static;
#   3. compile and run main.c with `pkg-config --cflags --libs desert` and
#      json_main.c with `pkg-config --cflags --libs desert_json` and nothing
#      else (the shared libraries, found at run time via LD_LIBRARY_PATH);
#   4. the same with `pkg-config --static`, the archives named explicitly
#      (-l:libdesert.a: with both kinds installed the linker would otherwise
#      pick the shared one), so the private dependencies (libdeflate, zlib,
#      libzstd) must come from the .pc files.
# Every program is checked for how it was linked (readelf: NEEDED
# libdesert.so.<ABI> or none) and must exit 0.
# Environment (set by test/install.cmake): CMAKE, BUILD_DIR, WORK, CONFIG,
# GENERATOR, MAKE_PROGRAM, CC, EXTRA_CFLAGS (sanitizer flags of the build),
# DESERT_SHARED (1: the shared libraries are built), ABI (DESERT_ABI_VERSION).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${CMAKE:=cmake}" "${BUILD_DIR:?}" "${WORK:?}" "${CONFIG:=}" "${GENERATOR:=}"
: "${MAKE_PROGRAM:=}" "${CC:=cc}" "${EXTRA_CFLAGS:=}" "${DESERT_SHARED:=1}" "${ABI:?}"

step() { printf '\n== %s\n' "$*"; }
fail() {
  echo "install_consumer: $*" >&2
  exit 1
}
# needs_lib <program> <yes|no> <library base name>: the program's
# dynamic section names lib<name>.so.<ABI> (yes) or no lib<name> at all (no).
needs_lib() {
  local needed
  needed=$(readelf -d "$1" | awk '/\(NEEDED\)/ { print $NF }')
  if [ "$2" = yes ]; then
    case $needed in
      *"[lib$3.so.$ABI]"*) ;;
      *) fail "$1 should need lib$3.so.$ABI; NEEDED: $(echo $needed)" ;;
    esac
  else
    case $needed in
      *"[lib$3."*) fail "$1 should not need lib$3; NEEDED: $(echo $needed)" ;;
    esac
  fi
}

rm -rf "$WORK"
mkdir -p "$WORK"
prefix=$WORK/prefix

step "install $BUILD_DIR into $prefix"
"$CMAKE" --install "$BUILD_DIR" --prefix "$prefix" ${CONFIG:+--config "$CONFIG"}

libdir=$(dirname "$(find "$prefix" -name libdesert.a | head -n 1)")
[ -f "$libdir/libdesert.a" ] || fail "missing after install: libdesert.a"
[ -f "$libdir/libdesert_json.a" ] || fail "missing after install: libdesert_json.a"
if [ "$DESERT_SHARED" = 1 ]; then
  for lib in desert desert_json; do
    [ -L "$libdir/lib$lib.so" ] || fail "missing after install: lib$lib.so (development link)"
    [ -e "$libdir/lib$lib.so.$ABI" ] || fail "missing after install: lib$lib.so.$ABI"
    soname=$(readelf -d "$libdir/lib$lib.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$soname" = "lib$lib.so.$ABI" ] || fail "lib$lib.so has soname '$soname', want lib$lib.so.$ABI"
  done
fi
for f in include/desert.h include/desert/common.h include/desert/kernels.h include/desert/json.h \
  share/doc/desert/LICENSE share/doc/desert/CHANGELOG.md share/doc/desert/README.md \
  share/doc/desert/docs/abi.md share/doc/desert/docs/format.md share/doc/desert/docs/schema.md; do
  [ -f "$prefix/$f" ] || fail "missing after install: $f"
done
config=$(find "$prefix" -path '*/cmake/desert/desert-config.cmake' | head -n 1)
pc=$(find "$prefix" -path '*/pkgconfig/desert.pc' | head -n 1)
[ -n "$config" ] || fail "missing after install: lib/cmake/desert/desert-config.cmake"
[ -n "$pc" ] || fail "missing after install: lib/pkgconfig/desert.pc"
[ -f "$(dirname "$pc")/desert_json.pc" ] || fail "missing after install: lib/pkgconfig/desert_json.pc"
# Nothing internal may leak into the installed headers.
if find "$prefix/include" -type f ! -path '*/desert.h' ! -path '*/desert/*.h' | grep .; then
  fail "unexpected files installed under include/"
fi

if [ -e "$prefix/bin/desert" ]; then
  step "installed tool: $prefix/bin/desert --version, its man page"
  out=$("$prefix/bin/desert" --version)
  echo "$out"
  case $out in
    "desert "*) ;;
    *) fail "the installed desert tool does not run" ;;
  esac
  [ -f "$prefix/share/man/man1/desert.1" ] || fail "missing after install: share/man/man1/desert.1"
fi

gen_args=()
[ -n "$GENERATOR" ] && gen_args+=(-G "$GENERATOR")
[ -n "$MAKE_PROGRAM" ] && gen_args+=("-DCMAKE_MAKE_PROGRAM=$MAKE_PROGRAM")
cmake_consumer() { # <dir> <CONSUMER_STATIC>
  "$CMAKE" -S "$here" -B "$1" "${gen_args[@]}" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_C_FLAGS="$EXTRA_CFLAGS" -DCMAKE_BUILD_TYPE=Debug -DCONSUMER_STATIC="$2"
  "$CMAKE" --build "$1" --verbose
}

step "find_package(desert CONFIG REQUIRED): desert::desert, desert::json"
cmake_consumer "$WORK/consumer-cmake" OFF
# CMake gives the programs an RPATH into the prefix: no LD_LIBRARY_PATH.
"$WORK/consumer-cmake/consumer"
"$WORK/consumer-cmake/consumer_json"
needs_lib "$WORK/consumer-cmake/consumer" "$([ "$DESERT_SHARED" = 1 ] && echo yes || echo no)" desert
needs_lib "$WORK/consumer-cmake/consumer_json" \
  "$([ "$DESERT_SHARED" = 1 ] && echo yes || echo no)" desert_json
# desert_generate_c() output (built when the tool was installed).
if [ -e "$prefix/bin/desert" ]; then
  "$WORK/consumer-cmake/consumer_gen"
fi

step "find_package(desert CONFIG REQUIRED): desert::desert_static, desert::json_static"
cmake_consumer "$WORK/consumer-cmake-static" ON
"$WORK/consumer-cmake-static/consumer"
"$WORK/consumer-cmake-static/consumer_json"
needs_lib "$WORK/consumer-cmake-static/consumer" no desert
needs_lib "$WORK/consumer-cmake-static/consumer_json" no desert_json
needs_lib "$WORK/consumer-cmake-static/consumer_json" no desert

export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
strict=(-std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror)
pc_build() { # <program> <source> <pkg-config arguments>...
  local out=$1 src=$2 flags
  shift 2
  flags=$(pkg-config "$@")
  echo "pkg-config $*: $flags"
  case " $flags " in
    *" -I$prefix/include "*) ;;
    *) fail "pkg-config flags do not point into the prefix" ;;
  esac
  if [ -n "${PC_STATIC_ARCHIVES:-}" ]; then
    local w named=()
    for w in $flags; do
      case $w in
        -ldesert | -ldesert_json) named+=("-l:lib${w#-l}.a") ;;
        *) named+=("$w") ;;
      esac
    done
    flags=${named[*]}
    echo "  archives named explicitly: $flags"
  fi
  # shellcheck disable=SC2086 # word splitting of the flags is intended
  "$CC" "${strict[@]}" $EXTRA_CFLAGS "$src" -o "$out" $flags
}

if [ "$DESERT_SHARED" = 1 ]; then
  step "pkg-config, shared (no other flags): desert and desert_json"
  pc_build "$WORK/pc-shared" "$here/main.c" --cflags --libs desert
  pc_build "$WORK/pc-shared-json" "$here/json_main.c" --cflags --libs desert_json
  needs_lib "$WORK/pc-shared" yes desert
  needs_lib "$WORK/pc-shared-json" yes desert_json
  needs_lib "$WORK/pc-shared-json" yes desert
  # pkg-config gives no rpath: the prefix is found through LD_LIBRARY_PATH.
  LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$WORK/pc-shared"
  LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$WORK/pc-shared-json"
else
  echo "(static-only build: no pkg-config shared pass)"
fi

step "pkg-config --static: desert and desert_json from their archives"
PC_STATIC_ARCHIVES=1 pc_build "$WORK/pc-static" "$here/main.c" --static --cflags --libs desert
PC_STATIC_ARCHIVES=1 pc_build "$WORK/pc-static-json" "$here/json_main.c" \
  --static --cflags --libs desert_json
needs_lib "$WORK/pc-static" no desert
needs_lib "$WORK/pc-static-json" no desert_json
needs_lib "$WORK/pc-static-json" no desert
"$WORK/pc-static"
"$WORK/pc-static-json"

step "install_consumer: ok"
