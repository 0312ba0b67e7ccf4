#!/usr/bin/env python3
"""test/scripts/stream_cli_cases.py — small cases of `desert encode
--stream` / `desert decode --stream`, each checked against the
tool's whole-value (in-memory) path:

  stream_cli_cases.py DESERT WORKDIR

* JSON Lines (with a blank line) encode to exactly the bytes the in-memory
  encode gives for the same elements as one JSON array under a schema with
  the unknown form, and decode back to the canonical lines;
* the known-size form written by the in-memory encoder decodes with
  --stream to the same lines;
* cut input: exit 1 and the same error kind, offset and value path ($[N]...
  for element N) as the in-memory decode of the same bytes;
* a root that is not a list or set, a line that is not JSON, a bad element,
  and --hex with --stream are refused with the documented exit codes.
Exit 0 when every case holds.
"""
import os
import re
import subprocess
import sys

ITEM = ('"Item": {"type": "record", "fields": [{"name": "id", "type": "i64"},'
        ' {"name": "tag", "type": "dedup_string"},'
        ' {"name": "note", "type": "string", "optional": true}]}')
LINES = ['{"id":1,"tag":"a","note":"x"}', '', '{"id":-2,"tag":"a","note":null}',
         '{"id":3,"tag":"b"}', '{"id":4,"tag":"b","note":"\\u00e9t\\u00e9"}']
CANON = ['{"id":1,"tag":"a","note":"x"}', '{"id":-2,"tag":"a","note":null}',
         '{"id":3,"tag":"b","note":null}', '{"id":4,"tag":"b","note":"été"}']

failures = []


def check(name, cond, detail=""):
    if not cond:
        failures.append("%s %s" % (name, detail))


def run(args, data=None):
    p = subprocess.run(args, input=data, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def schema(workdir, name, root):
    path = os.path.join(workdir, name)
    with open(path, "w") as f:
        f.write('{"desert_schema": 1, "definitions": {%s}, "root": %s}' % (ITEM, root))
    return path


def main():
    desert, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    unk = schema(work, "unknown.json", '{"type": "list", "element": "Item", "form": "unknown"}')
    known = schema(work, "known.json", '{"type": "list", "element": "Item"}')
    notcoll = schema(work, "notcoll.json", '"Item"')
    jsonl = ("\n".join(LINES) + "\n").encode()
    array = ("[" + ",".join(l for l in LINES if l) + "]").encode()

    rc, streamed, err = run([desert, "encode", "--schema", known, "--stream", "-", "-o", "-"], jsonl)
    check("encode --stream", rc == 0, err)
    rc, whole, err = run([desert, "encode", "--schema", unk, "-"], array)
    check("encode whole", rc == 0, err)
    check("byte identity", streamed == whole, "%s vs %s" % (streamed.hex(), whole.hex()))
    rc, out, err = run([desert, "decode", "--schema", known, "--stream", "-"], streamed)
    check("decode --stream", rc == 0 and out.decode().splitlines() == CANON, out + err.encode())

    rc, known_bytes, err = run([desert, "encode", "--schema", known, "-"], array)
    check("known form is known", rc == 0 and known_bytes[:1] == b"\x08", known_bytes.hex())
    rc, out, err = run([desert, "decode", "--schema", known, "--stream", "-"], known_bytes)
    check("decode known form", rc == 0 and out.decode().splitlines() == CANON, out + err.encode())

    pat = re.compile(r"(\w+) at offset (\d+): (\$[^:]*):")
    for data in (streamed, known_bytes):
        for cut in range(len(data)):
            rc_s, out_s, err_s = run([desert, "decode", "--schema", known, "--stream", "-"], data[:cut])
            rc_m, _, err_m = run([desert, "decode", "--schema", known, "-"], data[:cut])
            ms, mm = pat.search(err_s), pat.search(err_m)
            check("cut %d" % cut, rc_s == 1 and rc_m == 1 and ms and mm and
                  ms.groups() == mm.groups(), "stream: %r memory: %r" % (err_s, err_m))

    rc, _, err = run([desert, "decode", "--schema", notcoll, "--stream", "-"], streamed)
    check("root not a collection", rc == 1 and "list or set" in err, err)
    rc, _, err = run([desert, "encode", "--schema", known, "--stream", "-"], b'{"id":1,"tag":"a"}\n{oops\n')
    # line 2, column 2: "{oops" has an object key expected at its 'o'
    check("line not JSON", rc == 1 and err.startswith("desert encode: standard input:2:2: not JSON: "),
          err)
    rc, _, err = run([desert, "encode", "--schema", known, "--stream", "-"], b'{"id":"x","tag":"a"}\n')
    check("bad element", rc == 1 and
          err.startswith("desert encode: standard input:1: BadValue: $[0].id: "), err)
    # The second line is element 1 (the blank line before it is no element).
    rc, _, err = run([desert, "encode", "--schema", known, "--stream", "-"],
                     b'{"id":1,"tag":"a"}\n\n{"id":2,"tag":7}\n')
    check("bad element path", rc == 1 and
          err.startswith("desert encode: standard input:3: BadValue: $[1].tag: "), err)
    rc, _, err = run([desert, "decode", "--schema", known, "--stream", "-"], streamed + b"\x00")
    check("trailing refused", rc == 1 and "trailing bytes after the value (offset %d)" % len(streamed)
          in err and "--allow-trailing" in err, err)
    rc, out, err = run([desert, "decode", "--schema", known, "--stream", "--allow-trailing", "-"],
                       streamed + b"\x00")
    check("trailing allowed", rc == 0 and out.decode().splitlines() == CANON and err == "", err)
    rc, _, err = run([desert, "decode", "--schema", known, "--stream", "--hex", "-"], streamed)
    check("--hex refused", rc == 2, err)

    for f in failures:
        print("FAIL:", f)
    print("stream_cli_cases: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
