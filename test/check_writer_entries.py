#!/usr/bin/env python3
"""test/check_writer_entries.py — every exported function that takes a
desert_writer and can see its private layout settles a pending writer
first (src/core/writer_internal.h: desert_writer_init sets only the head;
desert_w_live settles the rest). A function that reads a field past the
head before desert_w_live reads uninitialised storage, so this check
requires, for each such function found in include/desert/*.h:

  * its definition (a plain one, or one made by a macro whose body
    defines desert_..._##name) in a src/ file that includes
    core/writer_internal.h calls desert_w_live before anything but NULL
    tests of its arguments and the sticky-status test, or
  * it is listed in HEAD_ONLY below with the reason it needs no settle, or
  * its file does not include core/writer_internal.h (it can only call
    exported functions, which settle themselves).

Exit status 0 when all pass; otherwise each offender is printed.
--selftest runs the checker on small made-up sources and requires it to
catch a missing call, a late call and a missing macro call.
"""
import argparse
import os
import re
import sys
import tempfile

# Functions that read nothing past the head, or handle a pending writer
# themselves (see their comments in src/core).
HEAD_ONLY = {
    "desert_writer_create": "makes a settled heap writer",
    "desert_writer_init": "makes the pending writer",
    "desert_writer_free": "returns at once for a pending writer",
    "desert_writer_size": "reads main.len (head)",
    "desert_writer_data": "reads main (head)",
    "desert_writer_status": "reads status (head)",
    "desert_writer_stream_offset": "tests the pending bit before reading the sink",
    "desert_writer_use_buffer": "head-only switch on a pending writer (switch_pending)",
    "desert_writer_use_growable": "head-only switch on a pending writer (switch_pending)",
    "desert_writer_count_only": "head-only switch on a pending writer (switch_pending)",
}

PROTO = re.compile(r"DESERT_API[^;{]*?\b(desert_\w+)\s*\(([^;{]*?)\)\s*;", re.S)
NULL_TEST = re.compile(r"^\s*if\s*\(\s*!\s*\w+[^;{]*\)\s*return[^;]*;\s*$")
# The sticky-status test reads only the head, so it may come first too.
STATUS_TEST = re.compile(
    r"^\s*if\s*\((?:DESERT_UNLIKELY\()?(\w+)->status\)?\)\s*return\s+\1->status;\s*$")


def exported_writer_functions(include_dir):
    names = set()
    for fn in sorted(os.listdir(include_dir)):
        if not fn.endswith(".h"):
            continue
        text = open(os.path.join(include_dir, fn), encoding="utf-8").read()
        for m in PROTO.finditer(text):
            if re.search(r"\bdesert_writer\s*\*", m.group(2)):
                names.add(m.group(1))
    return names


def body_after(text, start):
    """The text between the first '{' at/after start and its match."""
    i = text.index("{", start)
    depth, j = 0, i
    while j < len(text):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j]
        j += 1
    return text[i + 1 :]


def settles_first(body):
    """desert_w_live is the first statement, after NULL tests only."""
    for line in body.replace("\\\n", "\n").split("\n"):
        line = line.strip().rstrip("\\").strip()
        if not line or line.startswith("/*") or line.startswith("*"):
            continue
        if "desert_w_live(" in line:
            return True
        if NULL_TEST.match(line) or STATUS_TEST.match(line):
            continue
        return False
    return False


def check(src_dir, include_dir):
    wanted = exported_writer_functions(include_dir)
    if len(wanted) < 50:
        return ["found only %d exported writer functions: parser broken?" % len(wanted)]
    seen, problems = {}, []
    for root, _, files in os.walk(src_dir):
        for fn in sorted(files):
            if not fn.endswith(".c"):
                continue
            path = os.path.join(root, fn)
            text = open(path, encoding="utf-8").read()
            internal = '#include "core/writer_internal.h"' in text
            # plain definitions
            for m in re.finditer(r"^[\w \t\*]*?\b(desert_\w+)\s*\([^;{]*\)\s*\{", text, re.M):
                name = m.group(1)
                if name in wanted:
                    seen[name] = (path, internal, settles_first(body_after(text, m.start())))
            # macro-made definitions: #define M(name, ...) ... desert_X##name##Y(
            for m in re.finditer(r"^#define\s+(\w+)\((\w+)[^)]*\)((?:.*\\\n)*.*)$", text, re.M):
                macro, param, mbody = m.group(1), m.group(2), m.group(3)
                d = re.search(r"\b(desert_\w*?)##%s(?:##(\w+))?\s*\(" % param, mbody)
                if not d:
                    continue
                prefix, suffix = d.group(1), d.group(2) or ""
                ok = settles_first(body_after(mbody, d.end()))
                for inv in re.finditer(r"^%s\((\w+)\s*," % macro, text, re.M):
                    name = prefix + inv.group(1) + suffix
                    if name in wanted:
                        seen[name] = (path, internal, ok)
    for name in sorted(wanted):
        if name in HEAD_ONLY:
            continue
        if name not in seen:
            problems.append("%s: definition not found under %s" % (name, src_dir))
            continue
        path, internal, ok = seen[name]
        if internal and not ok:
            problems.append("%s (%s): does not call desert_w_live first" % (name, path))
    return problems


def selftest():
    with tempfile.TemporaryDirectory() as d:
        inc, src = os.path.join(d, "include"), os.path.join(d, "src")
        os.makedirs(inc)
        os.makedirs(src)
        protos = "".join(
            "DESERT_API desert_status desert_write_f%d(desert_writer *w, int v);\n" % i
            for i in range(60))
        protos += "DESERT_API desert_status desert_write_late(desert_writer *w);\n"
        protos += "DESERT_API desert_status desert_write_m_x(desert_writer *w, int v);\n"
        open(os.path.join(inc, "w.h"), "w").write(protos)
        body = '#include "core/writer_internal.h"\n'
        for i in range(60):
            live = "" if i == 7 else "  desert_w_live(w);\n"
            body += ("desert_status desert_write_f%d(desert_writer *w, int v) {\n"
                     "  if (!w) return DESERT_E_ARGUMENT;\n%s  return v;\n}\n" % (i, live))
        body += ("desert_status desert_write_late(desert_writer *w) {\n"
                 "  if (w->depth > 3) return DESERT_E_DEPTH;\n  desert_w_live(w);\n  return 0;\n}\n")
        body += ("#define M(name, t) \\\n  desert_status desert_write_m_##name(desert_writer *w, t v) { \\\n"
                 "    return (desert_status)v; \\\n  }\nM(x, int)\n")
        open(os.path.join(src, "w.c"), "w").write(body)
        got = check(src, inc)
        want = ["desert_write_f7", "desert_write_late", "desert_write_m_x"]
        missing = [w for w in want if not any(p.startswith(w + " ") for p in got)]
        if missing or len(got) != len(want):
            print("selftest failed: expected %s, got %s" % (want, got))
            return 1
    print("selftest: the three planted offenders were reported")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src")
    ap.add_argument("--include")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    problems = check(a.src, a.include)
    for p in problems:
        print(p)
    if problems:
        return 1
    print("every exported writer function settles a pending writer first")
    return 0


if __name__ == "__main__":
    sys.exit(main())
