#!/usr/bin/env python3
"""test/gen_c/split_cases.py — prepares the `desert gen-c` conformance tests
(test/gen_c.cmake) at configure time: collects the distinct schema documents
of the public conformance cases and of SCHEMA.md's worked examples, writes
each one that the cases accept as a file to generate, each one they expect a
BadSchema for (with that message) as a file the generator must refuse, and
the cases a generated testee can answer: every case none of whose requests
uses a refused schema, and the worked examples as cases (offsets compared).

  split_cases.py CASES.jsonl SCHEMA.md OUT_DIR

Writes OUT_DIR/schemas/sNNN.json, OUT_DIR/bad/bNNN.json + .msg,
OUT_DIR/public.jsonl, OUT_DIR/examples.jsonl and OUT_DIR/split.cmake (the
file lists and case counts). Numbers keep their exact text."""
import json
import os
import re
import sys


class Raw(str):
    """A JSON number, kept as its source text."""


def load(text):
    return json.loads(text, parse_float=Raw, parse_int=Raw)


def dump(v):
    if isinstance(v, Raw):
        return str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    return "{" + ",".join(json.dumps(k) + ":" + dump(x) for k, x in v.items()) + "}"


def key(schema):
    def canon(v):
        if isinstance(v, dict):
            return "{" + ",".join(json.dumps(k) + ":" + canon(v[k]) for k in sorted(v)) + "}"
        if isinstance(v, list):
            return "[" + ",".join(canon(x) for x in v) + "]"
        return dump(v)
    return canon(schema)


def examples(md):
    """The worked examples of ../shared/spec/SCHEMA.md: ```jsonl blocks of request/response line pairs."""
    out = []
    for block in re.findall(r"```jsonl\n(.*?)```", md, re.S):
        lines = [l for l in block.split("\n") if l.strip()]
        for i in range(0, len(lines) - 1, 2):
            out.append((load(lines[i]), load(lines[i + 1])))
    return out


def main():
    cases_path, md_path, out = sys.argv[1:4]
    os.makedirs(os.path.join(out, "schemas"), exist_ok=True)
    os.makedirs(os.path.join(out, "bad"), exist_ok=True)
    cases = [load(l) for l in open(cases_path, encoding="utf-8") if l.strip()]
    pairs = examples(open(md_path, encoding="utf-8").read())

    good, bad = {}, {}
    exchanges = [(e["request"], e["expect"]) for c in cases for e in c["exchanges"]] + pairs
    for req, exp in exchanges:
        if not isinstance(req, dict) or "schema" not in req:
            continue
        k = key(req["schema"])
        err = exp.get("error") if isinstance(exp, dict) else None
        if err and err.get("kind") == "BadSchema":
            bad.setdefault(k, (req["schema"], err["message"]))
        else:
            good.setdefault(k, req["schema"])
    for k in bad:
        good.pop(k, None)

    schema_files, bad_files = [], []
    for i, (k, s) in enumerate(sorted(good.items())):
        p = os.path.join(out, "schemas", "s%03d.json" % i)
        open(p, "w", encoding="utf-8").write(dump(s) + "\n")
        schema_files.append(p)
    for i, (k, (s, msg)) in enumerate(sorted(bad.items())):
        p = os.path.join(out, "bad", "b%03d.json" % i)
        open(p, "w", encoding="utf-8").write(dump(s) + "\n")
        open(p[:-5] + ".msg", "w", encoding="utf-8").write(msg)
        bad_files.append(p)

    def uses_bad(reqs):
        return any(isinstance(r, dict) and "schema" in r and key(r["schema"]) in bad for r in reqs)

    kept = [c for c in cases if not uses_bad([e["request"] for e in c["exchanges"]])]
    with open(os.path.join(out, "public.jsonl"), "w", encoding="utf-8") as f:
        for c in kept:
            f.write(dump(c) + "\n")
    ex = [(q, a) for q, a in pairs if not uses_bad([q])]
    with open(os.path.join(out, "examples.jsonl"), "w", encoding="utf-8") as f:
        for n, (q, a) in enumerate(ex):
            c = {"case": "E%d" % (n + 1), "group": "examples",
                 "exchanges": [{"request": q, "expect": a, "compare_offset": True}]}
            f.write(dump(c) + "\n")
    with open(os.path.join(out, "split.cmake"), "w", encoding="utf-8") as f:
        f.write("set(GEN_C_SCHEMAS\n  %s)\n" % "\n  ".join(schema_files))
        f.write("set(GEN_C_BAD_SCHEMAS\n  %s)\n" % "\n  ".join(bad_files))
        f.write("set(GEN_C_PUBLIC_CASES %d)\nset(GEN_C_PUBLIC_SKIPPED %d)\n"
                % (len(kept), len(cases) - len(kept)))
        f.write("set(GEN_C_EXAMPLE_CASES %d)\n" % len(ex))


if __name__ == "__main__":
    main()
