#!/usr/bin/env python3
"""bench/ab.py — A/B of two desert_bench builds on a shared, noisy machine.

Runs the two binaries alternately (A, B, A, B, ...) for --rounds rounds over
the same row filter, takes each row's median CPU time per op over the rounds
of each build, and prints B's time / A's time per row present in both. The
noise of a row is the spread of A against itself: the median over adjacent
A-round pairs of |a_k+1 / a_k - 1|. A row is flagged SLOWER when B/A - 1
exceeds both 5 % and twice that noise (within 5 % is
on par, a difference inside the floor is a wash). Peer rows (msgpack-c,
protobuf-c, memcpy) run the same code in both builds: their B/A shows what
two binaries differ by with nothing changed.

Rows on the process-default ISA carry its name; when A and B default to
different tables (say avx2 then avx512), a key/impl found under exactly one
ISA in each build is compared across them, labelled `a->b`.

Rows renamed since A: when B has `<key>_heap` (the old API kept under a
suffix) and A has `<key>` but no `<key>_heap`, B's `<key>_heap` is also
compared against A's `<key>`, shown as `<key> (old API)`.

  python3 bench/ab.py BASE_BIN NEW_BIN --rounds 5 --filter 'codec/' [-o AB.md]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run_once(binary, flt, min_time):
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        subprocess.run([binary, "--benchmark_filter=" + flt, "--benchmark_min_time=%g" % min_time,
                        "--benchmark_format=json", "--benchmark_out=" + path,
                        "--benchmark_out_format=json"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(path) as f:
            doc = json.load(f)
    finally:
        os.unlink(path)
    out = {}
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        out[b["name"]] = b["cpu_time"] * scale
    return out


def fmt(ns):
    return "%.1f ns" % ns if ns < 1000 else "%.2f us" % (ns / 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--filter", default="codec/")
    ap.add_argument("--min-time", type=float, default=0.03)
    ap.add_argument("-o", "--output")
    a = ap.parse_args()

    runs = {"A": [], "B": []}
    for r in range(a.rounds):
        for tag, binary in (("A", a.base), ("B", a.new)):
            runs[tag].append(run_once(binary, a.filter, a.min_time))
            print("round %d/%d %s done" % (r + 1, a.rounds, tag), file=sys.stderr)

    def series(tag, name):
        return [r[name] for r in runs[tag] if name in r]

    names_a = set().union(*runs["A"])
    names_b = set().union(*runs["B"])
    pairs = [(n, n, n) for n in sorted(names_a & names_b)]

    def by_key(names):
        d = {}
        for n in names:
            parts = n.split("/")
            if len(parts) == 4:
                d.setdefault((parts[1], parts[2]), []).append(n)
        return d

    ka, kb = by_key(names_a), by_key(names_b)
    for key, lb in kb.items():
        la = ka.get(key, [])
        if len(la) == 1 and len(lb) == 1 and la[0] != lb[0]:
            isa_a, isa_b = la[0].split("/")[3], lb[0].split("/")[3]
            pairs.append(("codec/%s/%s/%s->%s" % (key[0], key[1], isa_a, isa_b), la[0], lb[0]))
    for n in sorted(names_b):
        parts = n.split("/")
        if len(parts) == 4 and parts[1].endswith("_heap"):
            base_key = (parts[1][: -len("_heap")], parts[2])
            if (parts[1], parts[2]) not in ka and len(ka.get(base_key, [])) == 1:
                old = ka[base_key][0]
                pairs.append(("%s (old API, %s)" % (old, parts[3]), old, n))

    lines = ["| row | A (base) | B (new) | B/A | noise | verdict |", "|---|---|---|---|---|---|"]
    slower = 0
    for label, na, nb in sorted(pairs):
        sa, sb = series("A", na), series("B", nb)
        if len(sa) < 2 or not sb:
            continue
        ma, mb = statistics.median(sa), statistics.median(sb)
        noise = statistics.median(abs(y / x - 1) for x, y in zip(sa, sa[1:]) if x > 0)
        ratio = mb / ma if ma > 0 else float("nan")
        verdict = ""
        if ratio - 1 > max(0.05, 2 * noise):
            verdict = "**SLOWER**"
            slower += 1
        elif 1 - ratio > max(0.05, 2 * noise):
            verdict = "faster"
        lines.append("| %s | %s | %s | %.2fx | %.0f %% | %s |" %
                     (label, fmt(ma), fmt(mb), ratio, 100 * noise, verdict))
    peers = []
    for label, na, nb in pairs:
        if na == nb and na.split("/")[2] in ("msgpack", "protobuf-c", "memcpy"):
            sa, sb = series("A", na), series("B", nb)
            if sa and sb:
                peers.append(statistics.median(sb) / statistics.median(sa))
    lines.append("")
    if peers:
        lines.append("Peer and memcpy rows (the same code in both builds): B/A from %.2fx to %.2fx, "
                     "median %.2fx, over %d rows: what the two binaries differ by with nothing "
                     "changed." % (min(peers), max(peers), statistics.median(peers), len(peers)))
    lines.append("%d rounds, alternating; medians of CPU time per op; %d rows slower than the noise."
                 % (a.rounds, slower))
    text = "\n".join(lines) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
