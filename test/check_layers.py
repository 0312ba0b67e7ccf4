#!/usr/bin/env python3
"""test/check_layers.py — keeps src/ layered: every file includes and calls
only its own folder, lower layers and include/, and no two files call each
other (directly or round a longer loop).

  check_layers.py --src DIR --objects LIST   check the tree and its objects
  check_layers.py --selftest                 prove the checker catches an
                                             upward include, an upward call
                                             and a circle (on a scratch tree)

Includes are read from the sources (`#include "folder/file.h"`; a name
without a folder is the including file's own folder). Calls are read from
the object files with `nm`: an undefined symbol that another object of the
library defines is a call from one file to the other. LIST is a file with
one object path per line (CMake writes it from $<TARGET_OBJECTS>).
Exit 0 when clean, 1 with one line per violation, 2 on usage errors.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# Bottom to top. A folder may use folders of a lower rank and its own; two
# folders of one rank (the SIMD kernel sets) may not use each other.
LAYERS = {
    "base": 0,      # shared macros, the kernel contract, statuses, options
    "scalar": 1,    # reference kernels
    "x86": 2,       # AVX2 / AVX-512 kernels (scalar tails)
    "neon": 2,      # NEON kernels (scalar tails)
    "dispatch": 3,  # CPU detection, kernel tables, public bulk API
    "core": 4,      # writer, reader, arena, session tables, compressor state
    "values": 5,    # docs/format.md §13–§16 values and compressed blocks
    "record": 6,    # records, tuples, enums with evolution
    "types": 7,     # runtime types, C-struct descriptors
    "json": 8,      # schema documents, JSON values, conformance testee
}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
PUBLIC_OR_GENERATED = ("desert/", "desert.h", "desert_build_config.h")


def layer_of(rel):
    """Folder (layer name) of a path relative to src/, or None."""
    top = rel.split("/", 1)[0]
    return top if top in LAYERS and "/" in rel else None


def allowed(user, used):
    return used == user or LAYERS[used] < LAYERS[user]


def check_includes(src):
    problems = []
    for dirpath, _, files in os.walk(src):
        for name in files:
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            user = layer_of(rel)
            if user is None:
                problems.append(f"{rel}: file outside every layer folder")
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for inc in INCLUDE_RE.findall(text):
                if inc.startswith(PUBLIC_OR_GENERATED):
                    continue
                target = inc if "/" in inc else f"{user}/{inc}"
                used = layer_of(target)
                if used is None:
                    problems.append(f"{rel}: includes \"{inc}\", which is in no layer")
                elif not allowed(user, used):
                    problems.append(f"{rel}: includes \"{inc}\" of layer {used}, above {user}")
    return problems


def source_of(obj, src):
    """src/-relative source path of an object file (…/x.dir/<path>.c.o)."""
    tail = obj.split(".dir/", 1)[-1]
    if tail.endswith(".o"):
        tail = tail[:-2]
    tail = os.path.normpath(tail).replace(os.sep, "/")
    if tail.startswith("src/"):
        return tail[4:]
    # Targets defined inside a layer folder (src/json) name their sources
    # relative to it: find the one file under src/ with that tail.
    hits = []
    for dirpath, _, files in os.walk(src):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), src).replace(os.sep, "/")
            if rel == tail or rel.endswith("/" + tail):
                hits.append(rel)
    return hits[0] if len(hits) == 1 else None


def read_symbols(obj, nm):
    out = subprocess.run([nm, obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVWGS":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
    return defined, undefined


def check_calls(objects, src, nm):
    problems = []
    files = {}
    for obj in objects:
        rel = source_of(obj, src)
        if rel is None or layer_of(rel) is None:
            problems.append(f"{obj}: cannot tell which layer's source this object is")
            continue
        files[rel] = read_symbols(obj, nm)
    owner = {}
    for rel, (defined, _) in files.items():
        for sym in defined:
            owner[sym] = rel
    edges = {rel: set() for rel in files}
    for rel, (_, undefined) in files.items():
        for sym in undefined:
            other = owner.get(sym)
            if other is None or other == rel:
                continue
            edges[rel].add(other)
            if not allowed(layer_of(rel), layer_of(other)):
                problems.append(f"{rel}: calls {sym} of {other}, a higher layer")
    for cycle in cycles(edges):
        problems.append("files call each other round a circle: " + " -> ".join(cycle + cycle[:1]))
    return problems


def cycles(edges):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def selftest(nm, cc):
    """Builds a scratch tree with one upward include, one upward call and one
    circle; the checker must report each, and nothing on a clean variant."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        for d in ("base", "core", "values"):
            os.makedirs(os.path.join(src, d))
        files = {
            "base/low.h": '#include "core/high.h"\nint desert_low(void);\n',
            "base/low.c": "int desert_high(void);\nint desert_low(void) { return desert_high(); }\n",
            "core/high.h": "int desert_high(void);\n",
            "core/high.c": "int desert_low(void);\nint desert_high(void) { return 1; }\n"
                           "int desert_ping(void);\nint desert_pong(void) { return desert_ping(); }\n",
            "core/peer.c": "int desert_pong(void);\nint desert_ping(void) { return desert_pong(); }\n",
        }
        objs = []
        for rel, text in files.items():
            path = os.path.join(src, rel)
            with open(path, "w") as f:
                f.write(text)
            if rel.endswith(".c"):
                obj = os.path.join(tmp, "t.dir", "src", rel + ".o")
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                subprocess.run([cc, "-c", path, "-o", obj], check=True)
                objs.append(obj)
        found = check_includes(src) + check_calls(objs, src, nm)
        want = ["includes \"core/high.h\" of layer core, above base",
                "calls desert_high of core/high.c, a higher layer",
                "round a circle: core/high.c -> core/peer.c"]
        missing = [w for w in want if not any(w in p for p in found)]
        for p in found:
            print("selftest saw:", p)
        if missing:
            print("selftest: the checker missed:", *missing, sep="\n  ")
            return 1
        print("selftest: upward include, upward call and circle all reported")
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", help="the src/ folder")
    ap.add_argument("--objects", help="file listing the library's object files")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    if a.selftest:
        return selftest(a.nm, a.cc)
    if not a.src or not a.objects:
        ap.print_usage(sys.stderr)
        return 2
    with open(a.objects) as f:
        objects = [l.strip() for l in f if l.strip()]
    if not objects:
        print("check_layers: the object list is empty", file=sys.stderr)
        return 2
    problems = check_includes(a.src) + check_calls(objects, a.src, a.nm)
    for p in problems:
        print(p)
    print(f"check_layers: {len(objects)} objects, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
