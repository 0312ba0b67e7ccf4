#!/usr/bin/env bash
# test/fuzz/campaign.sh — long libFuzzer campaign over every harness: each
# fuzz_<target> runs SECONDS (default 600) from the committed corpus, JOBS
# targets at a time (default 2), niced so interactive work keeps priority.
# Writes <out>/<target>.log, the new inputs to <out>/<target>/, any
# reproducer to <out>/<target>-crash-*, and <out>/summary.md: one table row
# per target with executions, exec/s, coverage (edges and features), corpus
# size, peak RSS and the outcome. SPDX-License-Identifier: MIT
#
#   bash test/fuzz/campaign.sh <fuzz build dir> <out dir> [seconds] [jobs] [target...]
#
# Exit status 1 if any target crashed, timed out or ran out of memory.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: campaign.sh <fuzz build dir> <out dir> [seconds] [jobs] [target...]}
out=${2:?usage: campaign.sh <fuzz build dir> <out dir> [seconds] [jobs] [target...]}
secs=${3:-600}
jobs=${4:-2}
shift $(( $# >= 4 ? 4 : $# ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in "$here"/corpus/*/; do targets+=("$(basename "$d")"); done
fi
mkdir -p "$out"

run_one() {
  local t=$1 exe=$build/test/fuzz/fuzz_$1
  mkdir -p "$out/$t"
  if [ ! -x "$exe" ]; then
    echo "missing executable $exe" >"$out/$t.log"
    echo 127 >"$out/$t.rc"
    return
  fi
  local extra=()
  [ "$t" = golden ] && extra+=(-max_len=4096)
  nice -n 10 "$exe" "$out/$t" "$here/corpus/$t" -max_total_time="$secs" \
    -rss_limit_mb=3072 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$out/$t-" "${extra[@]}" >"$out/$t.log" 2>&1
  echo $? >"$out/$t.rc"
}

# A simple job pool: start up to $jobs runs, wait for any to finish.
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  echo "campaign: $(date -u +%H:%M:%S) start $t (${secs}s)"
  run_one "$t" &
  running=$((running + 1))
done
wait

failed=0
{
  echo "| target | executions | exec/s | edges (cov) | features (ft) | corpus (units) | new units | peak RSS MB | result |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
  for t in "${targets[@]}"; do
    log=$out/$t.log rc=$(cat "$out/$t.rc" 2>/dev/null || echo 1)
    last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -n 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    newu=$(sed -n 's/^stat::new_units_added: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
    if [ "$rc" = 0 ]; then res=clean; else res="FAILED (exit $rc)"; failed=$((failed + 1)); fi
    echo "| $t | ${execs:-?} | ${eps:-?} | ${cov:-?} | ${ft:-?} | ${corp:-?} | ${newu:-?} | ${rss:-?} | $res |"
  done
} >"$out/summary.md"
cat "$out/summary.md"
[ $failed -eq 0 ]
