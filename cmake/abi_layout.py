#!/usr/bin/env python3
"""cmake/abi_layout.py — the ABI layout check of docs/abi.md.

The public headers compile struct layouts (the writer and reader heads the
inline fast paths use, every struct a caller fills or reads), enumerator
values and numeric constants (storage sizes, DESERT_RECORD_PLAN_BYTES) into
a user's program. This script lists all of them and compares the list with
the committed cmake/abi-layout.txt, which also names the ABI version
(DESERT_ABI_VERSION, the shared libraries' soname) the list belongs to.

  abi_layout.py probe  --include DIR --out probe.c
      writes a C program that prints the list for the compiler's target
      (sizeof/alignof/offsetof of every member of every struct and union
      the headers define, every enumerator, every numeric DESERT_ constant,
      DESERT_RECORD_PLAN_BYTES for a few arguments).
  abi_layout.py check  --probe EXE --file cmake/abi-layout.txt --abi N
      fails (exit 1) when the list differs from the file, saying whether
      the difference needs a raised DESERT_ABI_VERSION and what to run;
      exit 77 (ctest: skipped) when the file was made for another platform.
  abi_layout.py update --probe EXE --file cmake/abi-layout.txt --abi N
      rewrites the file, refusing a breaking change under a released ABI
      version that was not raised.

Compatible differences (no raise needed, the file is still updated):
new types, members appended to a struct that has a struct_size member
(it grows by contract, like desert_options), new enumerators, new
constants. Anything else — a member moved, resized or removed, a size or
alignment changed, an enumerator or constant with another value, a type
removed — is an ABI break.
"""
import argparse
import difflib
import os
import re
import subprocess
import sys

HEADER_NOTE = (
    "# cmake/abi-layout.txt — the layout the public headers compile into a user's\n"
    "# program (docs/abi.md), checked by ctest abi_layout. Do not edit by hand:\n"
    "# regenerate it with `cmake --build <build> --target desert_abi_layout_update`.\n"
    "# `state released` means the ABI version below has shipped: a breaking\n"
    "# change then needs DESERT_ABI_VERSION raised in include/desert/common.h.\n"
)
PLAN_ARGS = [(0, 0), (1, 0), (3, 2), (8, 1), (22, 0), (64, 16)]
# Object-like macros that are not layout: versions change every release and
# are meant to; DESERT_ABI_VERSION is the file's own header line.
SKIP_MACROS = re.compile(r"^DESERT_(VERSION_\w+|ABI_VERSION|API)$")
NUMERIC_TOKENS = {"size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int32_t",
                  "int64_t", "unsigned", "int", "long"}


# ---- header parsing -------------------------------------------------------

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: " " + "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def matching_brace(text, i):
    """Index of the '}' closing the '{' at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced braces")


def split_top(text, sep):
    """Splits at sep outside (), [] and {}."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def declarator_name(decl):
    m = re.search(r"\(\s*\*\s*(?:const\s+)?(\w+)\s*\)", decl)  # function pointer
    if m:
        return m.group(1)
    decl = re.sub(r"\[[^\]]*\]", "", decl).strip()
    m = re.search(r"(\w+)\s*$", decl)
    return m.group(1) if m else None


def members(body, prefix):
    """(designator, is_bitfield) for every member of a struct/union body,
    nested named and anonymous members included."""
    out = []
    for decl in split_top(body, ";"):
        if "{" in decl:
            ob = decl.index("{")
            cb = matching_brace(decl, ob)
            inner = decl[ob + 1:cb]
            after = decl[cb + 1:].strip()
            if after:
                for d in split_top(after, ","):
                    name = declarator_name(d)
                    array = "[" in d
                    out.append((prefix + name, False))
                    out.extend(members(inner, prefix + name + ("[0]." if array else ".")))
            else:
                out.extend(members(inner, prefix))  # anonymous struct/union (C11)
            continue
        bitfield = re.search(r"[^:]:[^:]", decl) is not None
        if bitfield:
            decl = decl.split(":")[0]
        parts = split_top(decl, ",")
        for d in parts:
            name = declarator_name(d)
            if name:
                out.append((prefix + name, bitfield))
    return out


def expand_lists(body, text):
    """An enum body built from an X-macro list (`DESERT_TYPE_KINDS(E)`, whose
    entries are X(enumerator, ...)) as the enumerators it expands to."""
    def expand(m):
        d = re.search(r"^[ \t]*#[ \t]*define[ \t]+" + m.group(1) + r"\((\w+)\)(.*)$", text, re.M)
        if not d:
            return m.group(0)
        return "".join(n + ", " for n in re.findall(r"\b" + d.group(1) + r"\(\s*(\w+)", d.group(2)))
    return re.sub(r"\b(DESERT_\w+)\(\s*\w+\s*\)", expand, body)


def parse_headers(include_dir):
    files = [os.path.join(include_dir, "desert.h")]
    sub = os.path.join(include_dir, "desert")
    files += [os.path.join(sub, f) for f in sorted(os.listdir(sub)) if f.endswith(".h")]
    records, enums, consts = [], [], []
    seen = set()
    for path in files:
        with open(path, encoding="utf-8") as fh:
            text = strip_comments(fh.read())
        joined = re.sub(r"\\\n", " ", text)
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(DESERT_\w+)[ \t]+(.+)$", joined, re.M):
            name, body = m.group(1), m.group(2).strip()
            if SKIP_MACROS.match(name) or '"' in body or "{" in body:
                continue
            idents = set(re.findall(r"[A-Za-z_]\w*", re.sub(r"\b0[xX][0-9a-fA-F]+\w*|\b\d\w*",
                                                             "", body)))
            if all(i in NUMERIC_TOKENS or i.startswith("DESERT_") for i in idents):
                consts.append(name)
        for m in re.finditer(r"\b(struct|union|enum)\s+(desert_\w+)\s*\{", text):
            kind, name = m.group(1), m.group(2)
            if (kind, name) in seen:
                continue
            seen.add((kind, name))
            ob = m.end() - 1
            body = text[ob + 1:matching_brace(text, ob)]
            if kind == "enum":
                body = expand_lists(body, joined)
                names = [re.match(r"\s*(\w+)", e).group(1) for e in split_top(body, ",")]
                enums.append((name, names))
            else:
                records.append((kind, name, members(body, "")))
    return records, enums, consts


def write_probe(include_dir, out):
    records, enums, consts = parse_headers(include_dir)
    lines = [
        "/* Generated by cmake/abi_layout.py from the public headers: prints the",
        " * layout they compile into a program (docs/abi.md). */",
        "#include <desert.h>",
        "#include <desert/json.h>",
        "",
        "#include <stddef.h>",
        "#include <stdio.h>",
        "",
        "#define T_(kind, name) printf(\"type \" #kind \" \" #name \" size %zu align %zu\\n\", \\",
        "    sizeof(kind name), _Alignof(kind name))",
        "#define M_(kind, name, member) printf(\"member \" #kind \" \" #name \".\" #member \\",
        "    \" offset %zu size %zu\\n\", offsetof(kind name, member), sizeof(((kind name *)0)->member))",
        "#define B_(kind, name, member) printf(\"member \" #kind \" \" #name \".\" #member \" bitfield\\n\")",
        "#define E_(type, name) printf(\"enum %s %s %lld\\n\", #type, #name, (long long)(name))",
        "#define C_(name) printf(\"const %s %llu\\n\", #name, (unsigned long long)(name))",
        "",
        "int main(void) {",
        "  printf(\"platform %s ptr %zu long %zu max_align %zu\\n\", DESERT_ABI_PLATFORM,",
        "         sizeof(void *), sizeof(long), _Alignof(max_align_t));",
    ]
    for kind, name, mems in records:
        lines.append(f"  T_({kind}, {name});")
        for m, bitfield in mems:
            lines.append(f"  {'B_' if bitfield else 'M_'}({kind}, {name}, {m});")
    for name, names in enums:
        for e in names:
            lines.append(f"  E_({name}, {e});")
    for c in consts:
        lines.append(f"  C_({c});")
    for nf, ns in PLAN_ARGS:
        lines.append(f"  printf(\"const DESERT_RECORD_PLAN_BYTES({nf},{ns}) %llu\\n\", "
                     f"(unsigned long long)DESERT_RECORD_PLAN_BYTES({nf}, {ns}));")
    lines += ["  return 0;", "}", ""]
    text = "\n".join(lines)
    if os.path.exists(out):
        with open(out, encoding="utf-8") as fh:
            if fh.read() == text:
                return
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)


# ---- comparison -----------------------------------------------------------

def run_probe(exe):
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    return lines[0], lines[1:]


def read_file(path):
    meta, body = {}, []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            key = line.split(" ", 1)[0]
            if key in ("abi", "state", "platform") and key not in meta:
                meta[key] = line.split(" ", 1)[1]
            else:
                body.append(line)
    return meta, body


def key_of(line):
    """The identity of a line (what it describes), without its values."""
    w = line.split()
    if w[0] == "type":
        return " ".join(w[:3])
    if w[0] == "member":
        return " ".join(w[:3])
    if w[0] in ("enum", "const"):
        return " ".join(w[:-1])
    return line


def classify(old, new):
    """(breaking, compatible) lists of human-readable differences."""
    old_map = {key_of(l): l for l in old}
    new_map = {key_of(l): l for l in new}
    extensible = {l.split()[2].rsplit(".", 1)[0] for l in new
                  if l.startswith("member ") and l.split()[2].endswith(".struct_size")}
    breaking, compatible = [], []
    for k, l in old_map.items():
        if k not in new_map:
            breaking.append(f"removed: {l}")
        elif new_map[k] != l:
            w_old, w_new = l.split(), new_map[k].split()
            if (w_old[0] == "type" and w_old[2] in extensible
                    and int(w_old[4]) <= int(w_new[4]) and w_old[6] == w_new[6]):
                compatible.append(f"grown: {l}  ->  {new_map[k]}")
            else:
                breaking.append(f"changed: {l}  ->  {new_map[k]}")
    for k, l in new_map.items():
        if k not in old_map:
            compatible.append(f"added: {l}")
    return breaking, compatible


def render(abi, state, platform, body):
    return HEADER_NOTE + f"abi {abi}\nstate {state}\nplatform {platform}\n" + "\n".join(body) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["probe", "check", "update"])
    ap.add_argument("--include")
    ap.add_argument("--out")
    ap.add_argument("--probe")
    ap.add_argument("--file")
    ap.add_argument("--abi", type=int)
    a = ap.parse_args()
    if a.mode == "probe":
        write_probe(a.include, a.out)
        return 0

    platform_line, body = run_probe(a.probe)
    platform = platform_line.split(" ", 1)[1]
    update_cmd = "cmake --build <build> --target desert_abi_layout_update"
    if not os.path.exists(a.file):
        if a.mode == "update":
            with open(a.file, "w", encoding="utf-8") as fh:
                fh.write(render(a.abi, "unreleased", platform, body))
            print(f"abi_layout: wrote {a.file} (ABI {a.abi}, unreleased)")
            return 0
        print(f"abi_layout: {a.file} is missing; create it with `{update_cmd}`")
        return 1
    meta, old = read_file(a.file)
    file_abi, state = int(meta["abi"]), meta.get("state", "released")
    if meta.get("platform") != platform:
        print(f"abi_layout: {a.file} lists the layout of platform '{meta.get('platform')}', "
              f"this build is '{platform}': not compared here (skipped)")
        return 77
    breaking, compatible = classify(old, body)
    raised = a.abi > file_abi
    if a.abi < file_abi:
        print(f"abi_layout: DESERT_ABI_VERSION {a.abi} is lower than the ABI {file_abi} "
              f"of {a.file}; an ABI version never goes down")
        return 1
    needs_raise = breaking and state == "released" and not raised

    if a.mode == "update":
        if needs_raise:
            print(f"abi_layout: refusing to update {a.file}: ABI {file_abi} is released and "
                  "the headers break it:")
            print("\n".join("  " + b for b in breaking))
            print(f"Raise DESERT_ABI_VERSION to {file_abi + 1} in include/desert/common.h first "
                  "(docs/abi.md), or undo the change.")
            return 1
        new_state = "unreleased" if raised else state
        with open(a.file, "w", encoding="utf-8") as fh:
            fh.write(render(a.abi, new_state, platform, body))
        print(f"abi_layout: wrote {a.file} (ABI {a.abi}, {new_state}; "
              f"{len(breaking)} breaking, {len(compatible)} compatible differences)")
        return 0

    if not breaking and not compatible and not raised:
        print(f"abi_layout: {len(body)} layout lines match {a.file} (ABI {file_abi}, {state})")
        return 0
    print(f"abi_layout: the public headers' layout differs from {a.file} "
          f"(ABI {file_abi}, {state}; DESERT_ABI_VERSION in common.h is {a.abi}).")
    if breaking:
        print("Breaking differences:")
        print("\n".join("  " + b for b in breaking))
    if compatible:
        print("Compatible differences:")
        print("\n".join("  " + c for c in compatible))
    if needs_raise:
        print(f"\nWhat to do: ABI {file_abi} has been released, so this is an ABI break. Either "
              f"undo it, or raise DESERT_ABI_VERSION to {file_abi + 1} in "
              f"include/desert/common.h (the soname becomes libdesert.so.{file_abi + 1}), note "
              f"it in CHANGELOG.md, then run `{update_cmd}` and commit {a.file}.")
    else:
        why = ("the ABI version was raised" if raised else
               f"ABI {file_abi} is not released yet" if breaking else
               "the differences are compatible")
        print(f"\nWhat to do: {why}, so no (further) raise is needed: run `{update_cmd}` and "
              f"commit {a.file}.")
    diff = difflib.unified_diff(old, body, "committed", "headers", lineterm="", n=0)
    print("\n".join(list(diff)[:200]))
    return 1


if __name__ == "__main__":
    sys.exit(main())
