#!/usr/bin/env bash
# test/install_consumer/run.sh — the install-and-consume test (ctest
# `install_consumer`, see test/install.cmake):
#   1. `cmake --install` the build tree into a fresh prefix under WORK;
#   2. configure, build and run this folder's consumers through
#      find_package(desert CONFIG REQUIRED) -> desert::desert (main.c),
#      desert::json (json_main.c) and desert_generate_c() (gen_main.c with
#      point.schema.json, when the tool is installed);
#   3. compile and run the same main.c with the flags of `pkg-config desert`
#      (PKG_CONFIG_PATH pointing into the prefix; --static for a static
#      libdesert, the pkg-config way to get its Requires.private).
# Environment (set by test/install.cmake): CMAKE, BUILD_DIR, WORK, CONFIG,
# GENERATOR, MAKE_PROGRAM, CC, EXTRA_CFLAGS (sanitizer flags of the build),
# DESERT_STATIC (1/0).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${CMAKE:=cmake}" "${BUILD_DIR:?}" "${WORK:?}" "${CONFIG:=}" "${GENERATOR:=}"
: "${MAKE_PROGRAM:=}" "${CC:=cc}" "${EXTRA_CFLAGS:=}" "${DESERT_STATIC:=1}"

step() { printf '\n== %s\n' "$*"; }

rm -rf "$WORK"
mkdir -p "$WORK"
prefix=$WORK/prefix

step "install $BUILD_DIR into $prefix"
"$CMAKE" --install "$BUILD_DIR" --prefix "$prefix" ${CONFIG:+--config "$CONFIG"}

for f in include/desert.h include/desert/common.h include/desert/kernels.h include/desert/json.h; do
  [ -f "$prefix/$f" ] || { echo "missing after install: $f" >&2; exit 1; }
done
config=$(find "$prefix" -path '*/cmake/desert/desert-config.cmake' | head -n 1)
pc=$(find "$prefix" -path '*/pkgconfig/desert.pc' | head -n 1)
[ -n "$config" ] || { echo "missing after install: lib/cmake/desert/desert-config.cmake" >&2; exit 1; }
[ -n "$pc" ] || { echo "missing after install: lib/pkgconfig/desert.pc" >&2; exit 1; }
# Nothing internal may leak into the installed headers.
if find "$prefix/include" -type f ! -path '*/desert.h' ! -path '*/desert/*.h' | grep .; then
  echo "unexpected files installed under include/" >&2
  exit 1
fi

if [ -e "$prefix/bin/desert" ]; then
  step "installed tool: $prefix/bin/desert --version"
  out=$("$prefix/bin/desert" --version)
  echo "$out"
  case $out in
    "desert "*) ;;
    *) echo "the installed desert tool does not run" >&2; exit 1 ;;
  esac
fi

step "consumer through find_package(desert CONFIG REQUIRED)"
gen_args=()
[ -n "$GENERATOR" ] && gen_args+=(-G "$GENERATOR")
[ -n "$MAKE_PROGRAM" ] && gen_args+=("-DCMAKE_MAKE_PROGRAM=$MAKE_PROGRAM")
"$CMAKE" -S "$here" -B "$WORK/consumer-cmake" "${gen_args[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$CC" \
  -DCMAKE_C_FLAGS="$EXTRA_CFLAGS" -DCMAKE_BUILD_TYPE=Debug
"$CMAKE" --build "$WORK/consumer-cmake" --verbose
"$WORK/consumer-cmake/consumer"
"$WORK/consumer-cmake/consumer_json"
# desert_generate_c() output (built when the tool was installed).
if [ -e "$prefix/bin/desert" ]; then
  "$WORK/consumer-cmake/consumer_gen"
fi

step "consumer through pkg-config ($pc)"
export PKG_CONFIG_PATH=$(dirname "$pc")
pc_opts=(--cflags --libs)
[ "$DESERT_STATIC" = 1 ] && pc_opts+=(--static)
flags=$(pkg-config "${pc_opts[@]}" desert)
echo "pkg-config ${pc_opts[*]} desert: $flags"
case " $flags " in
  *" -I$prefix/include "*) ;;
  *) echo "pkg-config flags do not point into the prefix" >&2; exit 1 ;;
esac
# shellcheck disable=SC2086 # word splitting of the flags is intended
"$CC" -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror $EXTRA_CFLAGS \
  "$here/main.c" -o "$WORK/consumer-pkgconfig" $flags
# A shared libdesert in the prefix is found at run time through LD_LIBRARY_PATH
# (pkg-config gives no rpath).
LD_LIBRARY_PATH="$(dirname "$pc")/..${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$WORK/consumer-pkgconfig"

step "install_consumer: ok"
