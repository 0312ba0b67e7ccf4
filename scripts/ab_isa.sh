#!/usr/bin/env bash
# scripts/ab_isa.sh — A/B of two kernel tables on the same rows in one run:
# runs the benchmark rows matching a pattern for ISA A and ISA B (default
# avx2 and avx512) with N repetitions in random interleaving (so the two
# ISAs' repetitions alternate through the run and share the machine's load),
# then prints per row the median and minimum CPU time of each ISA and the
# ratio A/B of the medians (above 1 = B is faster); rows with a
# bytes_per_op counter also in GB/s. On the noisy shared hosts one loaded
# report run is not a measurement of a small difference; this is.
#   bash scripts/ab_isa.sh [ROWS] [N]
# ROWS: regex of the row stems (default 'codec/c16_golden'); the ISA part of
#   the row name is appended, e.g. 'kernel/bswap64/' or
#   'kernel/utf16_to_utf8/2byte/'. N: repetitions (default 15).
# Environment: DESERT_BENCH (the desert_bench binary; default
#   $DESERT_BUILD_ROOT/release/bench/desert_bench, build it with
#   scripts/bench.sh or `cmake --preset release -DDESERT_BUILD_BENCH=ON`),
#   DESERT_AB_A / DESERT_AB_B (the two ISAs), DESERT_BENCH_MIN_TIME (seconds
#   per repetition, default 0.05), DESERT_AB_JSON (keep the raw JSON there).
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-codec/c16_golden}
n=${2:-15}
a=${DESERT_AB_A:-avx2}
b=${DESERT_AB_B:-avx512}
bench=${DESERT_BENCH:-${DESERT_BUILD_ROOT:-$(pwd)/build}/release/bench/desert_bench}
[ -x "$bench" ] || { echo "ab_isa.sh: no benchmark binary at $bench" >&2; exit 2; }
export DESERT_GOLDEN_DIR=${DESERT_GOLDEN_DIR:-$(pwd)/../shared/golden}
json=${DESERT_AB_JSON:-$(mktemp /tmp/ab_isa.XXXXXX.json)}
# Kernel rows end in /<isa>/<size>, codec rows in /<isa>.
filter="^(${rows})(.*/)?(${a}|${b})(/[0-9]+[KM]?i?B)?\$"
echo "ab_isa.sh: $bench, rows /$filter/, $n repetitions x ${DESERT_BENCH_MIN_TIME:-0.05} s, random interleaving"
echo "ab_isa.sh: host $(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n1), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$bench" --benchmark_filter="$filter" --benchmark_repetitions="$n" \
  --benchmark_min_time="${DESERT_BENCH_MIN_TIME:-0.05}" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$json" --benchmark_out_format=json >"$json.log" 2>&1 || {
  tail -n 20 "$json.log" >&2
  exit 1
}
rm -f "$json.log"
python3 - "$json" "$a" "$b" <<'EOF'
import json, statistics, sys
path, a, b = sys.argv[1:4]
runs, per_op = {}, {}
for r in json.load(open(path))["benchmarks"]:
    if r.get("run_type") != "iteration" or r.get("error_occurred"):
        continue
    parts = r["run_name"].split("/")
    isa = parts[-2] if parts[0] == "kernel" else parts[-1]
    key = "/".join(p for p in parts if p != isa)
    runs.setdefault(key, {}).setdefault(isa, []).append(r["cpu_time"] * {"ns": 1, "us": 1e3, "ms": 1e6}[r["time_unit"]])
    if "bytes_per_op" in r:
        per_op[key] = r["bytes_per_op"]
def fmt(ns, key):
    t = f"{ns / 1e3:.3f} us" if ns >= 1e3 else f"{ns:.1f} ns"
    return t + (f" ({per_op[key] / ns:.2f} GB/s)" if key in per_op else "")
print(f"| row | {a} median | {a} min | {b} median | {b} min | {a}/{b} (median) | reps |")
print("|---|---|---|---|---|---|---|")
for key, by in sorted(runs.items()):
    if a not in by or b not in by:
        continue
    ma, mb = statistics.median(by[a]), statistics.median(by[b])
    print(f"| {key} | {fmt(ma, key)} | {fmt(min(by[a]), key)} | {fmt(mb, key)} | {fmt(min(by[b]), key)} | "
          f"{ma / mb:.3f}x | {len(by[a])}/{len(by[b])} |")
EOF
[ -n "${DESERT_AB_JSON:-}" ] || rm -f "$json"
