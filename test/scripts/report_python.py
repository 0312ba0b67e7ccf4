#!/usr/bin/env python3
"""test/scripts/report_python.py — bench/report.py's section 3e (the Python
package): rows of a synthetic python/bench/bench.py --json file (times
chosen here) must come out grouped by case with desert's row first, each
peer's time / desert's, per-record times, and the four person_list
targets judged from those ratios (msgpack >= 1x, json >= 3x, both ways).
Without --python there is no section 3e and no Python target.

  report_python.py REPORT_PY
"""
import json
import os
import subprocess
import sys
import tempfile


def row(case, impl, enc_s, dec_s, nbytes, records):
    return {"case": case, "impl": impl, "encode_s": enc_s, "decode_s": dec_s,
            "bytes": nbytes, "records": records}


def main():
    report = sys.argv[1]
    py = {"context": {"run": "synthetic run"}, "rows": [
        row("person_list", "msgpack", 0.004, 0.005, 789619, 10000),
        row("person_list", "desert", 0.002, 0.003, 550003, 10000),
        row("person_list", "json", 0.010, 0.006, 1184450, 10000),
        row("golden", "desert", 0.0005, 0.0007, 242540, 1),
        row("golden", "msgpack", 0.00075, 0.00035, 94049, 1)]}
    bench = {"context": {}, "benchmarks": []}
    tmp = tempfile.mkdtemp()
    pj, bj = os.path.join(tmp, "py.json"), os.path.join(tmp, "b.json")
    with open(pj, "w") as f:
        json.dump(py, f)
    with open(bj, "w") as f:
        json.dump(bench, f)
    run = lambda *a: subprocess.run([sys.executable, report, bj] + list(a), check=True,
                                    capture_output=True, text=True).stdout
    out, plain = run("--python", pj), run()
    for p in (pj, bj):
        os.unlink(p)
    os.rmdir(tmp)
    fails = []

    def expect(cond, what):
        if not cond:
            fails.append(what)

    sec = out[out.index("## 3e."):out.index("\n## ", out.index("## 3e."))]
    lines = [l for l in sec.splitlines() if l.startswith("| ") and not l.startswith("| case")]
    cases = [l.split(" | ")[0][2:] + "/" + l.split(" | ")[1] for l in lines]
    expect(cases == ["person_list/desert", "person_list/msgpack", "person_list/json",
                     "golden/desert", "golden/msgpack"], "3e: rows grouped, desert first: %s" % cases)
    expect("| person_list | desert | 200.0 ns | 300.0 ns | 550,003 | - | - |" in sec,
           "3e: desert's person_list row per record")
    expect("| person_list | json | 1.00 us | 600.0 ns | 1,184,450 | 5.00x | 2.00x |" in sec,
           "3e: json's ratios")
    expect("| golden | msgpack | 750.00 us | 350.00 us | 94,049 | 1.50x | 0.50x |" in sec,
           "3e: golden per pass, a peer faster shown below 1")
    targets = {l.split(" | ")[0][2:]: l for l in out.splitlines() if l.startswith("| python ")}
    want = {"python encode >= 1x msgpack": "yes", "python decode >= 1x msgpack": "yes",
            "python encode >= 3x json": "yes", "python decode >= 3x json": "**no**"}
    for name, met in want.items():
        expect(name in targets and targets[name].split(" | ")[3] == met,
               "target %s: %s" % (name, targets.get(name)))
    expect("3 of 4 targets met." in out, "the four targets counted")
    expect("## 3e." not in plain and "| python " not in plain, "no section without --python")
    for f in fails:
        print("FAIL:", f)
    print("%d checks failed" % len(fails) if fails else "report_python: ok")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
