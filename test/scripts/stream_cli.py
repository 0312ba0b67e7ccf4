#!/usr/bin/env python3
"""test/scripts/stream_cli.py — `desert encode --stream` piped into
`desert decode --stream` on a JSON Lines stream generated on the fly;
nothing is stored on disk.

  stream_cli.py DESERT SCHEMA MIB [--max-rss-mib N]

Generates canonical JSON lines of the schema's element type (see
make_line) until at least MIB MiB of desert bytes have been written
(counted from the bytes between the two processes), then checks that the
decoded lines are exactly the generated ones (count and SHA-256 of all
lines) and, with --max-rss-mib, that neither process's peak RSS exceeded
N MiB (resource.getrusage of the children). Exit 0 on success.
"""
import hashlib
import resource
import subprocess
import sys
import threading

PAD = "".join(chr(32 + (i * 7 + i // 13) % 95) for i in range(512)).replace('"', "'").replace("\\", "/")


def make_line(i):
    """Element i in canonical JSON (field order of the schema, null for an
    absent optional field)."""
    note = "null" if i % 5 == 0 else '"%s"' % PAD[i % 97:i % 97 + 40 + (i * 31) % 300]
    return '{"id":%d,"tag":"t%d","note":%s}\n' % (i * 2654435761 % (1 << 40) - (1 << 39), i % 7, note)


def main():
    args = sys.argv[1:]
    max_rss = None
    if "--max-rss-mib" in args:
        k = args.index("--max-rss-mib")
        max_rss = int(args[k + 1])
        del args[k:k + 2]
    desert, schema, mib = args[0], args[1], int(args[2])
    target = mib << 20
    enc = subprocess.Popen([desert, "encode", "--schema", schema, "--stream", "-", "-o", "-"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    dec = subprocess.Popen([desert, "decode", "--schema", schema, "--stream", "-"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    sent = hashlib.sha256()
    state = {"lines": 0, "wire": 0}

    def produce():
        i = 0
        # Rough size of one element's desert bytes, to stop near the target;
        # the exact byte count is measured in `relay`.
        approx = 0
        while approx < target:
            chunk = "".join(make_line(j) for j in range(i, i + 2000)).encode()
            i += 2000
            approx += len(chunk) * 3 // 4
            sent.update(chunk)
            enc.stdin.write(chunk)
        enc.stdin.close()
        state["lines"] = i

    def relay():
        while True:
            b = enc.stdout.read(1 << 16)
            if not b:
                break
            state["wire"] += len(b)
            dec.stdin.write(b)
        dec.stdin.close()

    threads = [threading.Thread(target=produce), threading.Thread(target=relay)]
    for t in threads:
        t.start()
    got = hashlib.sha256()
    lines = 0
    while True:
        b = dec.stdout.read(1 << 16)
        if not b:
            break
        lines += b.count(b"\n")
        got.update(b)
    for t in threads:
        t.join()
    rc_enc, rc_dec = enc.wait(), dec.wait()
    rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print("stream_cli: %d lines, %d desert bytes (%.1f MiB), peak child RSS %.1f MiB"
          % (state["lines"], state["wire"], state["wire"] / 1048576, rss_mib))
    ok = True
    if rc_enc != 0 or rc_dec != 0:
        print("stream_cli: exit codes encode %d decode %d" % (rc_enc, rc_dec))
        ok = False
    if lines != state["lines"]:
        print("stream_cli: decoded %d lines, generated %d" % (lines, state["lines"]))
        ok = False
    if got.hexdigest() != sent.hexdigest():
        print("stream_cli: decoded lines differ from the generated ones (SHA-256)")
        ok = False
    if state["wire"] < target:
        print("stream_cli: only %d desert bytes, wanted >= %d" % (state["wire"], target))
        ok = False
    if max_rss is not None and rss_mib > max_rss:
        print("stream_cli: peak RSS %.1f MiB above %d MiB" % (rss_mib, max_rss))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
