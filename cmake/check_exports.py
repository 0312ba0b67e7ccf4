#!/usr/bin/env python3
"""cmake/check_exports.py — ctest symbol_exports: a shared library of
libdesert exports exactly the functions and variables its public headers
declare with DESERT_API: nothing internal leaks (the objects are compiled
with hidden visibility), and nothing declared is missing.
  check_exports.py <nm> <include dir> <libdesert.so> [<libdesert_json.so>]
Declarations in include/desert/json.h belong to libdesert_json, all others
to libdesert.
"""
import os
import re
import subprocess
import sys


def declared(include_dir):
    """{header base name: set of DESERT_API names}."""
    out = {}
    files = [os.path.join(include_dir, "desert.h")]
    sub = os.path.join(include_dir, "desert")
    files += [os.path.join(sub, f) for f in sorted(os.listdir(sub)) if f.endswith(".h")]
    for path in files:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", "", text)
        text = re.sub(r"^[ \t]*#.*$", "", text, flags=re.M)
        names = set()
        for m in re.finditer(r"\bDESERT_API\b([^;{]*)", text):
            decl = m.group(1)
            if "(" in decl:
                name = re.search(r"(\w+)\s*$", decl[:decl.index("(")]).group(1)
            else:
                name = re.search(r"(\w+)\s*(\[[^\]]*\]\s*)*$", decl.strip()).group(1)
            names.add(name)
        out[os.path.basename(path)] = names
    return out


# Names the toolchain generates (sanitizer and coverage instrumentation), as
# test/check_symbols.sh allows them.
TOOLCHAIN = re.compile(r"^(__odr_asan[._]|__asan_|__ubsan_|__tsan_|__sanitizer_|__gcov_|__llvm_"
                       r"|__profc_|__profd_)")


def exported(nm, lib):
    p = subprocess.run([nm, "-D", "--defined-only", lib], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {nm} -D {lib}: {p.stderr.strip()}")
    names = set()
    for line in p.stdout.splitlines():
        w = line.split()
        # "[address] TYPE name[@version]"; absolute linker symbols (type A)
        # are not code or data of the library.
        if len(w) >= 2 and w[-2] in "BCDGRSTVWiu" and len(w[-2]) == 1:
            name = w[-1].split("@")[0]
            if not TOOLCHAIN.match(name):
                names.add(name)
    return names


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    nm, include_dir, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
    decl = declared(include_dir)
    want_json = decl.pop("json.h", set())
    want_core = set().union(*decl.values())
    status = 0
    for lib in libs:
        want = want_json if os.path.basename(lib).startswith("libdesert_json") else want_core
        have = exported(nm, lib)
        extra = sorted(have - want)
        missing = sorted(want - have)
        if extra:
            status = 1
            print(f"FAIL {lib}: exports {len(extra)} symbols no public header declares "
                  "with DESERT_API:")
            print("\n".join("  " + e for e in extra))
        if missing:
            status = 1
            print(f"FAIL {lib}: {len(missing)} DESERT_API declarations are not exported "
                  "(no definition, or defined without DESERT_API):")
            print("\n".join("  " + e for e in missing))
        if not extra and not missing:
            print(f"ok   {lib}: exports exactly its {len(want)} DESERT_API declarations")
    return status


if __name__ == "__main__":
    sys.exit(main())
