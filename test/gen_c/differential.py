#!/usr/bin/env python3
"""test/gen_c/differential.py — a generated testee against desert-conformance
(ctest gen_c_differential): for each JSON value of VALUES (one per line) it
sends an encode request under SCHEMA, then decode requests for the
reference bytes, every 3rd prefix of them and a changed byte at every 2nd
position, to both testees, and requires the very same response lines
(bytes, values, error kinds, messages and offsets; with DESERT_GEN_C_NO_LIMITS
set, the generated code's direct path, everything but the messages, which
carry no value path there). Exit 0 when all match.

  differential.py SCHEMA VALUES REFERENCE_TESTEE GENERATED_TESTEE"""
import json
import os
import subprocess
import sys


def without_message(line):
    """A response line with its error message left out."""
    r = json.loads(line)
    if "error" in r:
        r["error"].pop("message", None)
    return json.dumps(r, sort_keys=True)


def run(testee, lines):
    out = subprocess.run([testee], input="".join(l + "\n" for l in lines), capture_output=True,
                         text=True, check=True).stdout
    return out.splitlines()


def main():
    schema_path, values_path, ref, gen = sys.argv[1:5]
    schema = json.load(open(schema_path, encoding="utf-8"))
    values = [json.loads(l) for l in open(values_path, encoding="utf-8") if l.strip()]
    enc = [json.dumps({"id": i, "schema": schema, "encode": v}) for i, v in enumerate(values)]
    ref_enc = run(ref, enc)
    dec = []
    for r in map(json.loads, ref_enc):
        b = r.get("bytes")
        if b is None:
            continue
        cases = [b] + [b[:c] for c in range(0, len(b), 6)]
        for p in range(0, len(b), 4):
            cases.append(b[:p] + ("00" if b[p:p + 2] == "ff" else "ff") + b[p + 2:])
        dec += [json.dumps({"id": len(dec) + k, "schema": schema, "decode": c})
                for k, c in enumerate(cases)]
    lines = enc + dec
    want, got = ref_enc + run(ref, dec), run(gen, lines)
    # Without codec limits (DESERT_GEN_C_NO_LIMITS) the generated code runs
    # its direct path, which reports an error's kind and offset but no value
    # path: compare everything else exactly.
    fast = os.environ.get("DESERT_GEN_C_NO_LIMITS", "") not in ("", "0")
    bad = [(l, w, g) for l, w, g in zip(lines, want, got)
           if (without_message(w) != without_message(g) if fast else w != g)]
    if len(want) != len(got):
        bad.append(("(count)", str(len(want)), str(len(got))))
    for l, w, g in bad[:5]:
        print("request: %.300s\n  want: %.300s\n  got:  %.300s" % (l, w, g))
    errors = sum('"error"' in w for w in want)
    print("differential: %d requests (%d errors), %d differ" % (len(lines), errors, len(bad)))
    return 1 if bad or errors == 0 or errors == len(want) else 0


if __name__ == "__main__":
    sys.exit(main())
