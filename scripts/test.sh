#!/usr/bin/env bash
# scripts/test.sh — the whole test suite, as CI runs it (.ci/run calls this):
# installs the Debian packages (scripts/setup-deps.sh), then for each preset
# configures, builds and runs ctest:
#   ci        RelWithDebInfo, gcc, warnings as errors, NEON through SIMDe
#   asan      Debug, AddressSanitizer + UndefinedBehaviorSanitizer
#   clang-ci  as ci, with clang
#   fuzz      libFuzzer build (clang) and a bounded smoke run of every
#             harness from its committed corpus (DESERT_FUZZ_SECONDS each,
#             default 10; test/fuzz/README.md has the long-run commands)
#   bash scripts/test.sh [preset...]        (default: ci asan clang-ci fuzz)
# Environment: DESERT_BUILD_ROOT (default ./build; a preset builds in
# $DESERT_BUILD_ROOT/<preset>), DESERT_JOBS (default 2), DESERT_SKIP_DEPS=1
# (do not check packages), DESERT_KEEP_BUILDS (default 0 with CI=true, 1
# otherwise: 0 deletes a preset's build tree once it has passed, keeping only
# its log, so the four presets never hold their trees at once: one tree
# and its test data peaked at about 8 GB in a fresh-clone CI run).
# With CI=true, DESERT_REQUIRE_GOLDEN=1 is exported: a missing
# ../shared/golden/dataset1.bin then fails instead of skipping.
# Every preset runs even if an earlier one failed; the exit status is
# non-zero if any stage failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
src=$(pwd)

build_root=${DESERT_BUILD_ROOT:-$src/build}
jobs=${DESERT_JOBS:-2}
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(ci asan clang-ci fuzz)

keep_builds=${DESERT_KEEP_BUILDS:-1}
if [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
  export DESERT_REQUIRE_GOLDEN=1
  keep_builds=${DESERT_KEEP_BUILDS:-0}
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export CTEST_OUTPUT_ON_FAILURE=1

t_start=$SECONDS
# A full disk shows up as a linker error deep in a build; say it up front.
mkdir -p "$build_root"
free_kib=$(df -Pk "$build_root" | awk 'NR == 2 { print $4 }')
if [ -n "$free_kib" ] && [ "$free_kib" -lt $((10 * 1024 * 1024)) ]; then
  echo "test.sh: warning: only $((free_kib / 1024)) MiB free under $build_root;" \
    "a preset with its test data takes up to about 8 GB (more for several kept trees)" >&2
fi
if [ "${DESERT_SKIP_DEPS:-0}" != 1 ]; then
  t0=$SECONDS
  bash "$src/scripts/setup-deps.sh" || { echo "test.sh: installing packages failed" >&2; exit 1; }
  echo "test.sh: packages ready ($((SECONDS - t0)) s)"
fi

results=()   # "preset stage status wall cpu"
summaries=() # ctest closing lines per preset
failed=0

# CPU seconds (user + system) used so far by finished child processes, in
# $cpu: on a shared machine the wall time of a stage says little, its CPU
# time does. `times` must run in this shell (not in $(...)) to see them.
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
child_cpu() {
  times >"$times_file" # second line: children's user and system time, "XmY.YYYs"
  cpu=$(awk 'END { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
                   printf "%d", t }' "$times_file")
}

# run_stage <preset> <stage> <command...>
run_stage() {
  local preset=$1 stage=$2 t0=$SECONDS c0 rc
  child_cpu
  c0=$cpu
  shift 2
  printf '\n===== %s: %s =====\n' "$preset" "$stage"
  "$@"
  rc=$?
  child_cpu
  results+=("$(printf '%-10s %-10s %-5s %5d s wall %5d s cpu' "$preset" "$stage" \
    "$([ $rc -eq 0 ] && echo ok || echo FAIL)" $((SECONDS - t0)) $((cpu - c0)))")
  return $rc
}

# prune_build <preset> <dir> <log>: with DESERT_KEEP_BUILDS=0, once a preset
# has passed, drop its build tree but keep its log (a failed preset keeps
# everything for the post-mortem).
prune_build() {
  [ "$keep_builds" = 0 ] || return 0
  grep -qE '^100% tests passed|^fuzz smoke: .* 0 failed' "$3" 2>/dev/null || return 0
  mv "$3" "$build_root/$1.log" && rm -rf "$2" && echo "test.sh: $1 passed; build tree removed (log: $build_root/$1.log)"
}

for preset in "${presets[@]}"; do
  dir=$build_root/$preset
  if [ "$preset" = fuzz ]; then
    if ! run_stage fuzz configure env CC=clang cmake -S "$src" -B "$dir" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDESERT_BUILD_FUZZERS=ON -DDESERT_NEON_EMULATION=ON -DDESERT_AVX512_EMULATION=ON \
      -DDESERT_BUILD_TOOLS=OFF -DDESERT_BUILD_EXAMPLES=OFF -DDESERT_WERROR=ON; then
      failed=1
      continue
    fi
    if ! run_stage fuzz build cmake --build "$dir" --target desert_fuzzers --parallel "$jobs"; then
      failed=1
      continue
    fi
    log=$dir/smoke.log
    run_stage fuzz smoke bash -c 'set -o pipefail; bash "$1/test/fuzz/smoke.sh" "$2" "$3" 2>&1 |
      tee "$4"' _ "$src" "$dir" "${DESERT_FUZZ_SECONDS:-10}" "$log" || failed=1
    summary=$(grep -E '^fuzz smoke: ' "$log" 2>/dev/null | tail -n 1)
    summaries+=("fuzz: ${summary:-no smoke summary (see $log)}")
    prune_build fuzz "$dir" "$log"
    continue
  fi
  if ! run_stage "$preset" configure cmake --preset "$preset" -B "$dir"; then
    failed=1
    continue
  fi
  if ! run_stage "$preset" build cmake --build "$dir" --parallel "$jobs"; then
    failed=1
    continue
  fi
  log=$dir/ctest.log
  # Sanitizer stages run every suite once (kernel suites still iterate every
  # ISA in-process) with reduced sweeps: the per-ISA reruns and the full
  # exhaustive domains run in the optimised ci and clang-ci stages, and
  # emulated NEON under ASan is ~50x slower than native code.
  extra=()
  case $preset in
  asan | tsan) extra=(-E '@') ;;
  esac
  exhaustive=${DESERT_TEST_EXHAUSTIVE:-}
  case $preset in asan | tsan) exhaustive=0 ;; esac
  run_stage "$preset" test env ${exhaustive:+DESERT_TEST_EXHAUSTIVE=$exhaustive} \
    bash -c 'set -o pipefail; log=$1 dir=$2 jobs=$3; shift 3; ctest --test-dir "$dir" \
      --parallel "$jobs" --output-on-failure --no-tests=error --timeout 900 "$@" 2>&1 | tee "$log"' \
    _ "$log" "$dir" "$jobs" "${extra[@]}" || failed=1
  summary=$(grep -E '^[0-9]+% tests passed' "$log" 2>/dev/null | tail -n 1)
  summaries+=("$preset: ${summary:-no ctest summary (see $log)}")
  prune_build "$preset" "$dir" "$log"
done

printf '\n===== summary =====\n'
printf '%s\n' "${results[@]}"
child_cpu
echo "total: $((SECONDS - t_start)) s wall, $cpu s cpu"
printf '%s\n' "${summaries[@]}"
if [ $failed -ne 0 ]; then
  echo "test.sh: FAILED"
  exit 1
fi
echo "test.sh: all presets passed (${presets[*]})"
