#!/usr/bin/env bash
# scripts/gen_c_100.sh — measures issue 14's target "generating and compiling
# 100 schemas takes under 30 s" (a measurement, not a test: it prints times
# and never fails on them). Takes the distinct schema documents of the
# public conformance cases and of SCHEMA.md's worked examples (the files
# test/gen_c/split_cases.py extracts for the gen_c tests), the first 100 in
# file order, then times three steps:
#   1. generate: one `desert gen-c --testee` run writing P_<s>.h/.c for all
#      100 documents plus the testee's main;
#   2. compile: every generated .c to an object with the project's warning
#      set (-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror), one compiler per
#      file, DESERT_JOBS at a time (default: the number of CPUs);
#   3. link: the testee program against the build's static libdesert and
#      libdesert_json.
# and prints wall, user and system time of each step and of the whole, with
# the load average before and after (the machines are shared: quote it).
#   bash scripts/gen_c_100.sh [BUILD_DIR]
# BUILD_DIR: a configured and built tree with tools/desert, libdesert.a and
# src/json/libdesert_json.a (default: $DESERT_BUILD_ROOT/release, else
# build/release). Environment: CC (default cc), DESERT_JOBS, DESERT_SHARED_DIR
# (default ../shared), DESERT_GEN_C_COUNT (default 100), DESERT_GEN_C_KEEP=1
# (keep the work directory and print its path).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
build=${1:-${DESERT_BUILD_ROOT:-$src/build}/release}
shared=${DESERT_SHARED_DIR:-$src/../shared}
count=${DESERT_GEN_C_COUNT:-100}
jobs=${DESERT_JOBS:-$(nproc 2>/dev/null || echo 2)}
cc=${CC:-cc}
desert=$build/tools/desert
for f in "$desert" "$build/libdesert.a" "$build/src/json/libdesert_json.a"; do
  [ -e "$f" ] || { echo "gen_c_100.sh: $f not found (build $build first)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gen_c_100.XXXXXX")
if [ "${DESERT_GEN_C_KEEP:-0}" = 1 ]; then
  echo "gen_c_100.sh: work directory $work (kept)"
else
  trap 'rm -rf "$work"' EXIT
fi

python3 "$src/test/gen_c/split_cases.py" "$shared/conformance/public-cases.jsonl" \
  "$shared/spec/SCHEMA.md" "$work/split" >/dev/null
mapfile -t schemas < <(find "$work/split/schemas" -name '*.json' | sort | head -n "$count")
echo "gen_c_100.sh: ${#schemas[@]} schema documents (of $(find "$work/split/schemas" -name '*.json' | wc -l) distinct valid ones); $jobs compiler jobs; $($cc --version | head -n1)"
[ "${#schemas[@]}" -eq "$count" ] || echo "gen_c_100.sh: fewer documents than asked for" >&2

# Link flags of the compression libraries libdesert uses (static library).
libs=$(pkg-config --libs libdeflate zlib libzstd 2>/dev/null || echo "-ldeflate -lz -lzstd")
cflags=(-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -I"$src/include")
mkdir -p "$work/gen" "$work/obj"

load() { cut -d' ' -f1-3 /proc/loadavg; }
TIMEFORMAT='%R s wall, %U s user, %S s system'
echo "load average before: $(load)"
{
  time {
    printf 'generate: '
    { time "$desert" gen-c --prefix g --testee -o "$work/gen" "${schemas[@]}"; } 2>&1
    printf 'compile:  '
    { time find "$work/gen" -name '*.c' -print0 |
        xargs -0 -P "$jobs" -I{} sh -c \
          'f=$1; shift; exec "$@" -c "$f" -o "$0/$(basename "$f" .c).o"' \
          "$work/obj" {} "$cc" "${cflags[@]}"; } 2>&1
    printf 'link:     '
    # shellcheck disable=SC2086 # $libs is a list of flags
    { time "$cc" -o "$work/testee" "$work"/obj/*.o "$build/src/json/libdesert_json.a" \
        "$build/libdesert.a" $libs -lm; } 2>&1
    printf 'total:    '
  }
} 2>&1
echo "load average after: $(load)"
echo "gen_c_100.sh: $(find "$work/gen" -name '*.c' | wc -l) C files, $(du -sk "$work/gen" | cut -f1) KiB generated; testee $(du -k "$work/testee" | cut -f1) KiB"
