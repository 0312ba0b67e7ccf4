#!/usr/bin/env python3
"""test/scripts/limits_cli.py — `desert decode` / `desert encode` at scale
and under hostile input (the limits belong to the caller).

  limits_cli.py DESERT WORKDIR [--max-rss-mib N] [--annotate-mib M]

Checks, with inputs generated here:
  * a list of 3,000,000 i32 (past the conformance testee's bound) encodes,
    and decodes to exactly the values it came from;
  * limit errors name the limit, its value and the flag that raises it
    (--max-values, --max-depth, --max-decompressed), and the flag does;
  * hostile inputs fail with exit 1 and the right error kind: a count of
    2^31-1 unit elements or i32 elements in a few bytes, 1,000,000 nested
    options, a raw DEFLATE bomb (1 GiB of zeros) with a lying and with an
    honest uncompressed length;
  * --annotate of an M MiB list (default 32) prints the last element's
    line; with --max-rss-mib, each child's peak RSS (os.wait4) is at most
    N MiB for the annotate and the hostile inputs, `desert encode` of the
    3,000,000-element JSON peaks at no more than 3x its size, and its
    decode at no more than the bytes plus the JSON plus 32 MiB;
  * a 25 MiB JSON whose root is a record (lists of records, a map, keys
    in shuffled order, absent optional fields) encodes within 3x its size
    (with --max-rss-mib) and decodes to the same values, and --annotate of
    its bytes labels every element within N MiB.
Exit 0 when everything holds; failures are listed on stderr.
"""
import json
import os
import random
import subprocess
import sys
import zlib

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def measure(stdout_path, args):
    """Child side of run_rss (a fresh, small interpreter): runs args with
    stdout to stdout_path and prints "exit rss_kib" then its stderr."""
    with open(stdout_path, "wb") as out:
        p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    sys.stdout.write("%d %d\n" % (p.returncode, ru.ru_maxrss))
    sys.stdout.write(err.decode("utf-8", "replace"))
    return 0


def run_rss(args, stdout_path=os.devnull):
    """Runs a child with stdout to a file; returns (exit, stderr, peak RSS
    MiB). Linux carries a process's peak RSS across fork and exec, so the
    child is started by a fresh interpreter (this script's --measure mode),
    not by this one, which holds the generated data."""
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--measure", stdout_path,
                        "--"] + args, stdout=subprocess.PIPE, check=True)
    text = r.stdout.decode("utf-8", "replace")
    head, _, err = text.partition("\n")
    code, kib = head.split()
    return int(code), err, int(kib) / 1024


def var_u32(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def count_prefix(n):
    """A collection count: var_i32, zigzag (docs/format.md)."""
    return var_u32((n << 1) & 0xFFFFFFFF)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def main():
    args = sys.argv[1:]
    if args and args[0] == "--measure":
        return measure(args[1], args[3:])
    max_rss = None
    annotate_mib = 32
    if "--max-rss-mib" in args:
        k = args.index("--max-rss-mib")
        max_rss = float(args[k + 1])
        del args[k:k + 2]
    if "--annotate-mib" in args:
        k = args.index("--annotate-mib")
        annotate_mib = int(args[k + 1])
        del args[k:k + 2]
    desert, work = args
    os.makedirs(work, exist_ok=True)
    P = lambda name: os.path.join(work, name)
    ints = write(P("ints.schema.json"), b'{"desert_schema":1,"root":{"type":"list","element":"i32"}}')
    units = write(P("units.schema.json"), b'{"desert_schema":1,"root":{"type":"list","element":"unit"}}')
    deep = write(P("deep.schema.json"),
                 b'{"desert_schema":1,"definitions":{"T":{"type":"option","inner":"T"}},"root":"T"}')
    comp = write(P("comp.schema.json"),
                 b'{"desert_schema":1,"root":{"type":"compressed","flavour":"raw"}}')

    # 1. 3,000,000 i32: encode, decode, same values.
    rng = random.Random(20261206)
    values = [rng.randint(-2**31, 2**31 - 1) for _ in range(3_000_000)]
    text = json.dumps(values, separators=(",", ":")).encode()
    src = write(P("list3m.json"), text)
    text_len = len(text)
    del text
    code, err, rss = run_rss([desert, "encode", "--schema", ints, src, "-o", P("list3m.bin")])
    check(code == 0, "encode 3M list: exit %d: %s" % (code, err))
    size = os.path.getsize(P("list3m.bin"))
    check(size == 4 * len(values) + len(count_prefix(len(values))),
          "encode 3M list: %d bytes" % size)
    if max_rss is not None:
        check(rss <= 3 * text_len / 2**20,
              "encode 3M list: peak RSS %.1f MiB above 3x the %.1f MiB input"
              % (rss, text_len / 2**20))
    print("encode of %.1f MiB JSON: peak RSS %.1f MiB" % (text_len / 2**20, rss))
    code, err, rss = run_rss([desert, "decode", "--schema", ints, P("list3m.bin")],
                             stdout_path=P("list3m.out.json"))
    check(code == 0, "decode 3M list: exit %d: %s" % (code, err))
    with open(P("list3m.out.json"), "rb") as f:
        check(json.loads(f.read()) == values, "decode 3M list: values differ")
    if max_rss is not None:
        # Element by element: the input and the JSON text, not a tree.
        bound = (size + text_len) / 2**20 + 32
        check(rss <= bound, "decode 3M list: peak RSS %.1f MiB above %.1f" % (rss, bound))
    print("decode of 3M-element list: peak RSS %.1f MiB" % rss)

    # 2. Limit messages and flags.
    code, err, _ = run_rss([desert, "decode", "--schema", ints, "--max-values", "1000",
                            P("list3m.bin")])
    check(code == 1 and "more than 1000 values (limit --max-values 1000)" in err,
          "--max-values 1000: exit %d: %s" % (code, err))
    nested = b"\x01" * 300 + b"\x00"
    write(P("deep300.bin"), nested)
    code, err, _ = run_rss([desert, "decode", "--schema", deep, P("deep300.bin")])
    check(code == 1 and "nesting deeper than 256 (limit --max-depth 256)" in err,
          "300 levels under the default depth: exit %d: %s" % (code, err))
    code, err, _ = run_rss([desert, "decode", "--schema", deep, "--max-depth", "400",
                            P("deep300.bin")], stdout_path=P("deep300.json"))
    check(code == 0, "300 levels with --max-depth 400: exit %d: %s" % (code, err))
    code, err, _ = run_rss([desert, "encode", "--schema", deep, P("deep300.json")])
    check(code == 1 and "(limit --max-depth 256)" in err,
          "encode 300 levels under the default depth: exit %d: %s" % (code, err))
    code, err, _ = run_rss([desert, "encode", "--schema", deep, "--max-depth", "400",
                            P("deep300.json"), "-o", P("deep300.again.bin")])
    check(code == 0, "encode 300 levels with --max-depth 400: exit %d: %s" % (code, err))
    with open(P("deep300.again.bin"), "rb") as f:
        check(f.read() == nested, "300 levels: re-encoded bytes differ")
    code, err, _ = run_rss([desert, "decode", "--schema", ints, "--max-values", "0",
                            P("list3m.bin")])
    check(code == 2 and "invalid value '0' for --max-values" in err,
          "--max-values 0: exit %d: %s" % (code, err))

    # 3. Hostile inputs: exit 1, the right kind, bounded memory.
    hostile = []
    write(P("units.bin"), count_prefix(2**31 - 1))
    hostile.append(("2^31-1 unit elements", units, P("units.bin"), [],
                    "DeserializationFailure", "(limit --max-values "))
    write(P("ints.bin"), count_prefix(2**31 - 1) + b"\0\0\0\0")
    hostile.append(("2^31-1 i32 elements", ints, P("ints.bin"), [],
                    "InputEndedUnexpectedly", ""))
    write(P("deep.bin"), b"\x01" * 1_000_000 + b"\x00")
    hostile.append(("1,000,000 nested options", deep, P("deep.bin"), ["--max-depth", "2000"],
                    "DeserializationFailure", "nesting deeper than 2000 (limit --max-depth 2000)"))
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = b"\0" * (1 << 20)
    bomb = b"".join(z.compress(block) for _ in range(1024)) + z.flush()
    write(P("bomb_lying.bin"), var_u32(1000) + var_u32(len(bomb)) + bomb)
    hostile.append(("DEFLATE bomb, lying length", comp, P("bomb_lying.bin"), [],
                    "DeserializationFailure", "--max-decompressed N raises it"))
    write(P("bomb_honest.bin"), var_u32(1 << 30) + var_u32(len(bomb)) + bomb)
    hostile.append(("DEFLATE bomb, honest length", comp, P("bomb_honest.bin"), [],
                    "DeserializationFailure", "--max-decompressed N raises it"))
    for name, schema, path, extra, kind, words in hostile:
        for mode in ([], ["--annotate"]):
            code, err, rss = run_rss([desert, "decode", "--schema", schema] + extra + mode + [path])
            what = "%s%s" % (name, " --annotate" if mode else "")
            check(code == 1 and (": %s at offset" % kind) in err and words in err,
                  "%s: exit %d: %s" % (what, code, err.strip()))
            # The bomb may inflate up to the 64 MiB default before failing.
            bound = max_rss + 64 if "bomb" in name and max_rss is not None else max_rss
            if bound is not None:
                check(rss <= bound, "%s: peak RSS %.1f MiB above %.0f" % (what, rss, bound))
            print("%s: exit %d, peak RSS %.1f MiB" % (what, code, rss))

    # 4. --annotate of a large list in memory independent of its size.
    n = annotate_mib * (1 << 20) // 4
    path = P("annotate.bin")
    with open(path, "wb") as f:
        f.write(count_prefix(n))
        chunk = 1 << 18
        for base in range(0, n, chunk):
            f.write(os.urandom(4 * min(chunk, n - base)))
    code, err, rss = run_rss([desert, "decode", "--annotate", "--schema", ints, path],
                             stdout_path=P("annotate.txt"))
    check(code == 0, "--annotate %d MiB: exit %d: %s" % (annotate_mib, code, err))
    with open(P("annotate.txt"), "rb") as f:
        f.seek(-200, os.SEEK_END)
        last = f.read().splitlines()[-1].decode()
    check(last.endswith("$[%d] (i32)" % (n - 1)), "--annotate: last line %r" % last)
    if max_rss is not None:
        check(rss <= max_rss, "--annotate %d MiB: peak RSS %.1f MiB above %.0f"
              % (annotate_mib, rss, max_rss))
    print("--annotate of %d MiB: peak RSS %.1f MiB" % (annotate_mib, rss))
    for name in ("annotate.txt", "annotate.bin", "list3m.out.json"):
        os.remove(P(name))

    # 5. A record root (a record of lists of records, a map, keys in
    # shuffled order) encodes in memory bounded by its text and output, and
    # decodes to the same values.
    rng = random.Random(5)
    users = []
    for i in range(220000):
        u = {"id": rng.randrange(-2**40, 2**40), "name": "user %d" % i,
             "email": "u%d@example.org" % i if i % 3 else None,
             "tags": ["t%d" % rng.randrange(50) for _ in range(rng.randrange(5))],
             "score": rng.randrange(100000) / 8}
        users.append(u)
    doc = {"name": "big", "ids": [rng.randrange(-2**31, 2**31) for _ in range(220000)],
           "users": users, "meta": [["k%d" % i, "v%d" % i] for i in range(1000)]}
    rschema = P("dataset.schema.json")
    write(rschema, json.dumps({"desert_schema": 1, "definitions": {"User": {
        "type": "record", "fields": [
            {"name": "id", "type": "i64"}, {"name": "name", "type": "string"},
            {"name": "email", "type": "string", "optional": True},
            {"name": "tags", "type": {"type": "list", "element": "string"}},
            {"name": "score", "type": "f64"}]}},
        "root": {"type": "record", "name": "Dataset", "fields": [
            {"name": "name", "type": "string"},
            {"name": "ids", "type": {"type": "list", "element": "i32"}},
            {"name": "users", "type": {"type": "list", "element": "User"}},
            {"name": "meta", "type": {"type": "map", "key": "string", "value": "string"}}]}}
    ).encode())

    def shuffled(v):
        if isinstance(v, dict):
            keys = [k for k in v if v[k] is not None or rng.random() < 0.5]
            rng.shuffle(keys)
            return {k: shuffled(v[k]) for k in keys}
        if isinstance(v, list):
            return [shuffled(x) for x in v]
        return v
    text = json.dumps(shuffled(doc), separators=(",", ":")).encode()
    write(P("dataset.json"), text)
    code, err, rss = run_rss([desert, "encode", "--schema", rschema, P("dataset.json"),
                              "-o", P("dataset.bin")])
    check(code == 0, "encode record root: exit %d: %s" % (code, err))
    if max_rss is not None:
        check(rss <= 3 * len(text) / 2**20,
              "encode record root: peak RSS %.1f MiB above 3x the %.1f MiB input"
              % (rss, len(text) / 2**20))
    print("encode of a %.1f MiB record-rooted JSON: peak RSS %.1f MiB"
          % (len(text) / 2**20, rss))
    code, err, _ = run_rss([desert, "decode", "--schema", rschema, P("dataset.bin")],
                           stdout_path=P("dataset.out.json"))
    check(code == 0, "decode record root: exit %d: %s" % (code, err))
    with open(P("dataset.out.json"), "rb") as f:
        back = json.loads(f.read())
    check(back == doc, "record root: decoded values differ from the source")
    # --annotate walks the record root's fields and its collections element
    # by element: memory independent of the file, every element labelled.
    code, err, rss = run_rss([desert, "decode", "--annotate", "--schema", rschema,
                              P("dataset.bin")], stdout_path=P("dataset.ann"))
    check(code == 0, "--annotate record root: exit %d: %s" % (code, err))
    want = [b"$.ids[219999] (i32)", b"$.users[219999].score (f64)",
            b"$.users [list structure]", b"$.meta[999][1] (string)"]
    seen = set()
    with open(P("dataset.ann"), "rb") as f:
        for line in f:
            seen.update(w for w in want if w in line)
    check(seen == set(want), "--annotate record root: labels missing: %r" %
          [w for w in want if w not in seen])
    if max_rss is not None:
        check(rss <= max_rss, "--annotate record root: peak RSS %.1f MiB above %.0f"
              % (rss, max_rss))
    print("--annotate of a %.1f MiB record root: peak RSS %.1f MiB"
          % (os.path.getsize(P("dataset.bin")) / 2**20, rss))
    for name in ("dataset.json", "dataset.bin", "dataset.out.json", "dataset.ann"):
        os.remove(P(name))

    if failures:
        print("limits_cli: %d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("limits_cli: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
