#!/usr/bin/env bash
# scripts/kernel-policy.sh — measures, on the host it runs on, which kernel
# (AVX2 or AVX-512) wins each slot of the kernel table, and by how much at
# 1 KiB, 64 KiB and 1 MiB, then prints the host's row of the policy table of
# src/dispatch/kernel_policy.c (paste it under the host's class) and the
# figures for the results file docs/kernel-policy.md asks for.
#   bash scripts/kernel-policy.sh [N]           measure, N repetitions (default 11)
#   bash scripts/kernel-policy.sh --json FILE   analyse a kept run again
# The kernel rows of the avx2 and avx512 tables (and of the process default
# when the policy composed it, "default") run N times each in random
# interleaving within one process, so both tables share the machine's load;
# times are medians of CPU time per op.
# Rule (docs/kernel-policy.md): a slot takes the AVX-512 kernel only when,
# over every benchmark case of the slot at every size, AVX2 time / AVX-512
# time is at least 1 - TOL and somewhere at least 1 + TOL (TOL 0.03,
# DESERT_POLICY_TOL); otherwise AVX2.
# Environment: DESERT_BENCH (the desert_bench binary, default
#   $DESERT_BUILD_ROOT/release/bench/desert_bench), DESERT_BENCH_MIN_TIME
#   (seconds per repetition, default 0.05), DESERT_POLICY_JSON (keep the raw
#   JSON there), DESERT_POLICY_TOL, DESERT_POLICY_ROWS (regex of the case
#   names to run, e.g. 'var_u32_decode/.*|utf8_validate/.*'; default all).
# Slots where the AVX-512 table holds the AVX2 kernel itself (the
# desert_avx512_slots context) are the control: their ratios compare one
# kernel with itself and show the run's noise.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--json" ]; then
  json=${2:?--json FILE}
  keep=1
else
  n=${1:-11}
  bench=${DESERT_BENCH:-${DESERT_BUILD_ROOT:-$(pwd)/build}/release/bench/desert_bench}
  [ -x "$bench" ] || { echo "kernel-policy.sh: no benchmark binary at $bench" >&2; exit 2; }
  json=${DESERT_POLICY_JSON:-$(mktemp /tmp/kernel_policy.XXXXXX.json)}
  keep=${DESERT_POLICY_JSON:+1}
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  filter="^kernel/(${DESERT_POLICY_ROWS:-.*})/(avx2|avx512|default)/(1KiB|64KiB|1MiB)\$"
  echo "kernel-policy.sh: $bench, $n repetitions x ${DESERT_BENCH_MIN_TIME:-0.05} s, random interleaving" >&2
  "$bench" --benchmark_filter="$filter" --benchmark_repetitions="$n" \
    --benchmark_min_time="${DESERT_BENCH_MIN_TIME:-0.05}" \
    --benchmark_enable_random_interleaving=true \
    --benchmark_out="$json" --benchmark_out_format=json >"$json.log" 2>&1 || {
    tail -n 20 "$json.log" >&2
    exit 1
  }
  rm -f "$json.log"
  export DESERT_POLICY_LOAD="$load0 (start), $(cut -d' ' -f1-3 /proc/loadavg) (end)"
  export DESERT_POLICY_CMD="bash scripts/kernel-policy.sh $n (DESERT_BENCH_MIN_TIME=${DESERT_BENCH_MIN_TIME:-0.05})"
fi
python3 - "$json" "${DESERT_POLICY_TOL:-0.03}" <<'EOF'
import json, os, statistics, sys
path, tol = sys.argv[1], float(sys.argv[2])
doc = json.load(open(path))
ctx = doc.get("context", {})
SLOTS = ["bswap16", "bswap32", "bswap64", "var_u32_encode", "var_i32_encode", "var_u32_decode",
         "var_i32_decode", "utf8_validate", "utf16_len_from_utf8", "utf8_to_utf16",
         "utf8_len_from_utf16", "utf16_to_utf8", "utf8_len_from_latin1", "latin1_to_utf8",
         "utf8_to_latin1"]
SIZES = ["1KiB", "64KiB", "1MiB"]
runs = {}
for r in doc["benchmarks"]:
    if r.get("run_type") != "iteration" or r.get("error_occurred"):
        continue
    parts = r["run_name"].split("/")
    case, isa, size = "/".join(parts[1:-2]), parts[-2], parts[-1]
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[r["time_unit"]]
    runs.setdefault((case, size), {}).setdefault(isa, []).append(r["cpu_time"] * scale)

def slot_of(case):
    s = case.split("/")[0]
    return s[:-len("_inplace")] if s.endswith("_inplace") else s

med = {k: {isa: statistics.median(v) for isa, v in by.items()} for k, by in runs.items()}
cases = sorted({c for c, _ in med}, key=lambda c: (SLOTS.index(slot_of(c)) if slot_of(c) in SLOTS else 99, c))
has_default = any("default" in by for by in med.values())
cpu = ""
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    fam = mod = "?"
    for line in open("/proc/cpuinfo"):
        if line.startswith("cpu family") and fam == "?":
            fam = "%xh" % int(line.split(":")[1])
        if line.startswith("model\t") and mod == "?":
            mod = "%02Xh" % int(line.split(":")[1])
    cpu += " (family %s, model %s)" % (fam, mod)
except OSError:
    pass
cls = ctx.get("desert_cpu_class", "?")
print("# Kernel policy measurement\n")
print("| | |\n|---|---|")
print("| CPU | %s |" % (cpu or ctx.get("host_name", "?")))
print("| desert CPU class | %s |" % cls)
print("| CPUs | %s |" % ctx.get("num_cpus", "?"))
print("| date | %s |" % ctx.get("date", "?"))
if os.environ.get("DESERT_POLICY_LOAD"):
    print("| load average | %s |" % os.environ["DESERT_POLICY_LOAD"])
if os.environ.get("DESERT_POLICY_CMD"):
    print("| command | `%s` |" % os.environ["DESERT_POLICY_CMD"])
reps = max((len(v) for by in runs.values() for v in by.values()), default=0)
print("| repetitions per row | %d (random interleaving, medians of CPU time) |" % reps)
print()
print("AVX2 time / AVX-512 table time (above 1 = AVX-512 faster)%s.\n" %
      ("; *default*: AVX2 time / the composed default table's time" if has_default else ""))
hdr = "| slot | case | " + " | ".join(SIZES) + (" | default " + " | default ".join(SIZES) if has_default else "") + " |"
print(hdr)
print("|" + "---|" * (2 + len(SIZES) * (2 if has_default else 1)))
ratios, dratios = {}, {}
for c in cases:
    cells, dcells = [], []
    for s in SIZES:
        m = med.get((c, s), {})
        if "avx2" in m and "avx512" in m:
            r = m["avx2"] / m["avx512"]
            ratios.setdefault(slot_of(c), []).append(r)
            cells.append("%.2fx" % r)
        else:
            cells.append("-")
        if has_default:
            d = m.get("default")
            if d and "avx2" in m:
                dr = m["avx2"] / d
                dratios.setdefault(slot_of(c), []).append((dr, c, s))
                dcells.append("%.2fx" % dr + (" **slower**" if dr < 1 - tol else ""))
            else:
                dcells.append("-")
    print("| %s | %s | %s |" % (slot_of(c), c, " | ".join(cells + dcells)))
print()
own512 = {}
for kv in ctx.get("desert_avx512_slots", "").split(","):
    if "=" in kv:
        k, v = kv.split("=", 1)
        own512[k] = v == "avx512"
control = [r for sl, rs in ratios.items() if own512.get(sl) is False for r in rs]
if control:
    print("Control (slots where both tables run the same AVX2 kernel): ratios %.2fx .. %.2fx over %d rows: "
          "the noise of this run.\n" % (min(control), max(control), len(control)))
print("Verdict per slot (rule: AVX-512 only if every ratio >= %.2f and one >= %.2f):\n" % (1 - tol, 1 + tol))
print("| slot | worst | best | wins |\n|---|---|---|---|")
row = []
for s in SLOTS:
    rs = ratios.get(s)
    if not rs:
        row.append("AVX2")
        print("| %s | - | - | avx2 (no rows) |" % s)
        continue
    same = own512.get(s) is False
    win = not same and min(rs) >= 1 - tol and max(rs) >= 1 + tol
    row.append("A512" if win else "AVX2")
    print("| %s | %.2fx | %.2fx | %s |" % (s, min(rs), max(rs),
          "avx2 (same kernel in both tables)" if same else "avx512" if win else "avx2"))
print()
if has_default:
    worst = min((d for v in dratios.values() for d in v), default=None)
    if worst:
        print("Default table vs AVX2: worst AVX2/default %.3fx (%s %s); %s.\n" % (
            worst[0], worst[1], worst[2],
            "never slower than AVX2 by more than %d %%" % round(tol * 100) if worst[0] >= 1 - tol
            else "SLOWER than AVX2 by more than %d %% somewhere" % round(tol * 100)))
label = "DESERT_CPU_CLASS_" + cls.upper().replace("-", "_")
print("Policy row (src/dispatch/kernel_policy.c; class %s):\n" % cls)
print("```")
print("[%s] = {%s}," % (label, ", ".join(row)))
print("```")
EOF
[ -n "$keep" ] || rm -f "$json"
