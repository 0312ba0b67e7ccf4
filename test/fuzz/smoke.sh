#!/usr/bin/env bash
# test/fuzz/smoke.sh — bounded libFuzzer smoke run for CI: every fuzz_<target>
# of a DESERT_BUILD_FUZZERS build for SECONDS each (default 20), starting
# from the committed corpus (read-only; new inputs go to a scratch folder).
# SPDX-License-Identifier: MIT
#
#   bash test/fuzz/smoke.sh <build dir> [seconds] [target...]
#
# Exit status 1 if any target crashed, timed out or ran out of memory; the
# reproducer is saved as <scratch>/<target>-crash-* and its path printed.
# Prints one summary line per target and a closing "fuzz smoke: N passed,
# F failed" line.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: smoke.sh <build dir> [seconds] [target...]}
secs=${2:-20}
shift $(( $# >= 2 ? 2 : 1 ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in "$here"/corpus/*/; do targets+=("$(basename "$d")"); done
fi
scratch=${DESERT_FUZZ_SCRATCH:-$(mktemp -d /tmp/desert-fuzz-smoke.XXXXXX)}
passed=0 failed=0
for t in "${targets[@]}"; do
  exe=$build/test/fuzz/fuzz_$t
  if [ ! -x "$exe" ]; then
    echo "fuzz smoke: $t: $exe missing (configure with CC=clang -DDESERT_BUILD_FUZZERS=ON)"
    failed=$((failed + 1))
    continue
  fi
  mkdir -p "$scratch/$t"
  log=$scratch/$t.log
  "$exe" "$scratch/$t" "$here/corpus/$t" -max_total_time="$secs" -rss_limit_mb=3072 \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$scratch/$t-" >"$log" 2>&1
  rc=$?
  line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
  if [ $rc -eq 0 ]; then
    echo "fuzz smoke: $t ok: ${line:-no stats}"
    passed=$((passed + 1))
  else
    echo "fuzz smoke: $t FAILED (exit $rc); log $log"
    grep -E 'fuzz check failed|ERROR: |runtime error|Test unit written' "$log" | head -n 5
    failed=$((failed + 1))
  fi
done
echo "fuzz smoke: $passed passed, $failed failed"
[ $failed -eq 0 ]
