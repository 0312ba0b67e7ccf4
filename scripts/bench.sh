#!/usr/bin/env bash
# scripts/bench.sh — the main job: installs the Debian packages, builds the
# `release` preset with the benchmark suite (DESERT_BUILD_BENCH=ON, peers
# msgpack-c and protobuf-c required), prints `desert info`, runs the example
# programs, checks every benchmark row (`desert_bench --verify`), runs the
# suite once and writes the report:
#   bench/results/<date>-<cpu>.json       google-benchmark JSON (medians of
#                                         the repetitions, random interleaving)
#   bench/results/<date>-<cpu>.md         the report (bench/report.py)
#   bench/results/<date>-<cpu>-gains.svg  per-kernel gains per ISA
#   bench/results/<date>-<cpu>-python.json the Python package's rows
#                                         (python/bench/bench.py --json)
#   bash scripts/bench.sh
# Environment: DESERT_BUILD_ROOT (default ./build), DESERT_JOBS (default 2),
# DESERT_SKIP_DEPS=1 (do not check packages), DESERT_SKIP_BENCH=1 (stop
# after --verify), DESERT_BENCH_MIN_TIME (seconds per repetition, default
# 0.03), DESERT_BENCH_REPETITIONS (default 3), DESERT_BENCH_FILTER (regex of
# rows, default all), DESERT_BENCH_RESULTS (default bench/results),
# DESERT_PY_BENCH_ROUNDS (rounds of python/bench/bench.py, default 15),
# DESERT_FORCE_ISA (passed through; the bench refuses to run when it does
# not take effect). The whole job stays under about 10 minutes on the
# 2-core machines; absolute times move by up to 2x between runs there, so
# quote the ratios of one report.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
build_root=${DESERT_BUILD_ROOT:-$src/build}
jobs=${DESERT_JOBS:-2}
dir=$build_root/release

if [ "${DESERT_SKIP_DEPS:-0}" != 1 ]; then
  bash "$src/scripts/setup-deps.sh"
fi

printf '\n===== release: configure =====\n'
cmake --preset release -B "$dir" -DDESERT_BUILD_BENCH=ON -DDESERT_BENCH_REQUIRE_PEERS=ON
printf '\n===== release: build =====\n'
cmake --build "$dir" --parallel "$jobs"

printf '\n===== desert info =====\n'
"$dir/tools/desert" info

printf '\n===== examples =====\n'
# Known examples get their arguments here; any other example program runs
# without arguments (one that answers with a usage error, exit 2, is listed
# as skipped).
golden_in=${DESERT_GOLDEN_DIR:-$src/../shared/golden}/dataset1.bin
out=$dir/examples-out
mkdir -p "$out"
ran=0
failed=0
run() { # run <label> <program> <args...>
  local label=$1 rc=0
  shift
  printf -- '--- %s\n' "$label"
  ran=$((ran + 1))
  (cd "$out" && "$@" </dev/null) || rc=$?
  [ $rc -eq 0 ] || { echo "bench.sh: example '$label' failed (exit $rc)" >&2; failed=$((failed + 1)); }
  return $rc
}
if [ -d "$dir/examples" ]; then
  while IFS= read -r -d '' exe; do
    name=${exe##*/}
    case $name in
      golden)
        if [ ! -f "$golden_in" ]; then
          echo "--- golden: skipped ($golden_in not found)"
          continue
        fi
        if run "golden (legacy re-encoding)" "$exe" "$golden_in" "$out/dataset1.legacy.bin"; then
          if cmp -s "$golden_in" "$out/dataset1.legacy.bin"; then
            echo "golden: legacy re-encoding is byte-identical ($(wc -c <"$golden_in") bytes)"
          else
            echo "bench.sh: golden: legacy re-encoding differs from dataset1.bin" >&2
            failed=$((failed + 1))
          fi
        fi
        run "golden --modern" "$exe" "$golden_in" "$out/dataset1.modern.bin" --modern &&
          echo "golden: modern form $(wc -c <"$out/dataset1.modern.bin") bytes"
        ;;
      *)
        printf -- '--- %s\n' "$name"
        rc=0
        (cd "$out" && "$exe" </dev/null) || rc=$?
        if [ $rc -eq 2 ]; then
          echo "($name needs arguments: skipped)"
        else
          ran=$((ran + 1))
          [ $rc -eq 0 ] || { echo "bench.sh: example '$name' failed (exit $rc)" >&2; failed=$((failed + 1)); }
        fi
        ;;
    esac
  done < <(find "$dir/examples" -maxdepth 1 -type f -perm -u+x -print0 | sort -z)
fi
if [ $ran -eq 0 ]; then
  echo "(no example programs ran)"
else
  echo "examples: $((ran - failed)) of $ran runs succeeded"
fi
[ $failed -eq 0 ] || exit 1

# ---- benchmarks ------------------------------------------------------------
bench=$dir/bench/desert_bench
export DESERT_GOLDEN_DIR=${DESERT_GOLDEN_DIR:-$src/../shared/golden}

printf '\n===== desert_bench --verify =====\n'
# Every row's output checked once (kernel suite, codec cases, workloads,
# peers); prints one line per failure and the totals.
"$bench" --verify >"$dir/bench-verify.log" 2>&1 || {
  grep -v '^ok ' "$dir/bench-verify.log" >&2
  echo "bench.sh: desert_bench --verify failed (full log: $dir/bench-verify.log)" >&2
  exit 1
}
grep -v '^ok ' "$dir/bench-verify.log"

if [ "${DESERT_SKIP_BENCH:-0}" = 1 ]; then
  echo "bench.sh: DESERT_SKIP_BENCH=1: no benchmark run"
  exit 0
fi

printf '\n===== desert_bench =====\n'
results=${DESERT_BENCH_RESULTS:-$src/bench/results}
mkdir -p "$results"
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n1)
cpu=${cpu:-$(uname -m)}
slug=$(printf '%s' "$cpu" | tr 'A-Z' 'a-z' | sed -e 's/([^)]*)//g' -e 's/[^a-z0-9]\+/-/g' -e 's/^-//' -e 's/-$//')
stem=$results/$(date -u +%Y-%m-%d)-${slug:-cpu}
first=$("$bench" --benchmark_list_tests --benchmark_filter='^none$' 2>/dev/null | head -n1 || true)
active=$(printf '%s' "$first" | sed -n 's/^desert bench: active ISA \([a-z0-9-]*\).*/\1/p')
features=$(printf '%s' "$first" | sed -n 's/.*CPU features: //p')
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$src" status --porcelain 2>/dev/null | head -n1)" ] || commit="$commit+changes"
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt" | head -n1)
ccver=$("${cc:-cc}" --version 2>/dev/null | head -n1 || true)
cflags=$(sed -n 's/^CMAKE_C_FLAGS_RELEASE:[A-Z]*=//p' "$dir/CMakeCache.txt" | head -n1)
min_time=${DESERT_BENCH_MIN_TIME:-0.03}
reps=${DESERT_BENCH_REPETITIONS:-3}
clean() { printf '%s' "$1" | tr ',=' ';:'; } # the context flag splits on ',' and '='
context="desert_cpu=$(clean "$cpu"),desert_active_isa=$(clean "$active")"
context+=",desert_cpu_features=$(clean "$features"),desert_commit=$(clean "$commit")"
context+=",desert_compiler=$(clean "$ccver"),desert_build=$(clean "release preset: $cflags; no -march")"
context+=",desert_run=$(clean "$reps repetitions x $min_time s; random interleaving")"
echo "bench.sh: $reps repetitions x ${min_time}s per row, random interleaving; active ISA $active"
echo "bench.sh: console log: $dir/bench-run.log"
start=$(date +%s)
"$bench" --benchmark_min_time="$min_time" --benchmark_repetitions="$reps" \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
  ${DESERT_BENCH_FILTER:+--benchmark_filter="$DESERT_BENCH_FILTER"} \
  --benchmark_context="$context" \
  --benchmark_out="$stem.json" --benchmark_out_format=json >"$dir/bench-run.log" 2>&1 || {
  tail -n 20 "$dir/bench-run.log" >&2
  echo "bench.sh: desert_bench failed" >&2
  exit 1
}
echo "bench.sh: benchmark run took $(($(date +%s) - start)) s"

printf '\n===== python package: python/bench/bench.py =====\n'
# The package built against this release build (into the build tree, as
# ctest python_tests does), then its rows beside msgpack, protobuf and json
# (section 3e of the report). Debian's interpreter: its python3-* packages.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
pyout=$dir/python-bench
(cd "$src/python" && DESERT_BUILD_DIR="$dir" "$py" setup.py -q build --build-base "$pyout/build" \
  --build-lib "$pyout/lib") >"$pyout.log" 2>&1 || {
  tail -n 20 "$pyout.log" >&2
  echo "bench.sh: building the Python package failed (full log: $pyout.log)" >&2
  exit 1
}
PYTHONPATH="$pyout/lib" PYTHONDONTWRITEBYTECODE=1 "$py" "$src/python/bench/bench.py" \
  --rounds "${DESERT_PY_BENCH_ROUNDS:-15}" --json "$stem-python.json"

printf '\n===== report =====\n'
python3 "$src/bench/report.py" "$stem.json" -o "$stem.md" --svg "$stem-gains.svg" \
  --python "$stem-python.json"
echo "bench.sh: wrote $stem.json, $stem-python.json, $stem.md, $stem-gains.svg"
# The summary lines of the report: targets met, and the rows that did not run.
grep -E '^[0-9]+ of [0-9]+ targets met' "$stem.md" || true
if grep -q '^## 5. Rows that did not run' "$stem.md"; then
  sed -n '/^## 5. Rows that did not run/,$p' "$stem.md"
fi
