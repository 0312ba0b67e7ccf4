#!/usr/bin/env python3
"""python/bench/stream_1gb.py — a desert stream file of about 1 GB iterated
by Schema.iter_decode in bounded memory, beside libdesert's own streaming
reader (stream_c.c: the same element-by-element decode in C, into a value
tree, without Python objects).

Writes the file with Schema.iter_encode from a generator (rows of bench
case 8's Person record), then in child processes (so each peak RSS is its
own): iterates it with iter_decode, and with the C program (compiled here
with cc against DESERT_BUILD_DIR), interleaved. Prints records, median
seconds, records/s and peak RSS of each (VmHWM; for Python also getrusage
ru_maxrss, which includes the forking parent's image), and the ratio. The file goes to
--dir (default /tmp) and is deleted at the end.

  DESERT_BUILD_DIR=build/release PYTHONPATH=<desert build> \\
      /usr/bin/python3 python/bench/stream_1gb.py [--gb 1.0] [--runs 3]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import PERSON  # noqa: E402

DOC = {"desert_schema": 1, "root": {"type": "list", "element": "Person"},
       "definitions": {"Person": PERSON}}


def rows(n):
    for i in range(n):
        yield {"id": i & 0x7fffffff, "name": "person-%09d" % i, "score": i * 0.25,
               "active": i % 2 == 0, "tags": ["alpha", "beta-%d" % (i % 10), "gamma", "delta"]}


def write(path, target):
    import desert
    s = desert.Schema(DOC)
    per = len(s.encode([next(rows(1))])) - 1  # bytes of one row (the count takes 1)
    n = target // per
    with open(path, "wb") as f:
        size = s.iter_encode(rows(n), f, buffer_size=1 << 20)
    return n, size


def python_iter(path):
    """Child: iterate with iter_decode, print count, seconds, peak RSS KiB."""
    import desert
    s = desert.Schema(DOC)
    n = 0
    t0 = time.perf_counter()
    with open(path, "rb", buffering=0) as f:
        for _ in s.iter_decode(f):
            n += 1
    dt = time.perf_counter() - t0
    print(n, dt, peak_rss_kib(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def peak_rss_kib():
    """VmHWM of this process: ru_maxrss also counts the image of the process
    that forked it (kept across exec), which VmHWM does not."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def c_program(build):
    exe = os.path.join(tempfile.gettempdir(), "desert_stream_c_%d" % os.getpid())
    inc = os.path.join(HERE, "..", "..", "include")
    subprocess.run(["cc", "-O2", "-std=c11", "-I", inc, "-o", exe, os.path.join(HERE, "stream_c.c"),
                    "-L", build, "-Wl,-rpath," + build, "-ldesert_json", "-ldesert"], check=True)
    return exe


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
    return int(out[0]), float(out[1]), int(out[2]), int(out[3]) if len(out) > 3 else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gb", type=float, default=1.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=tempfile.gettempdir())
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        return python_iter(a.child)
    build = os.environ.get("DESERT_BUILD_DIR")
    if not build:
        sys.exit("set DESERT_BUILD_DIR to a CMake build with shared libraries")
    exe = c_program(os.path.abspath(build))
    fd, path = tempfile.mkstemp(suffix=".desert", dir=a.dir)
    os.close(fd)
    schema_path = path + ".schema.json"
    try:
        with open(schema_path, "w") as f:
            json.dump(DOC, f)
        t0 = time.perf_counter()
        n, size = write(path, int(a.gb * 1e9))
        print("wrote %d records, %d bytes, in %.1f s (iter_encode)" % (n, size,
                                                                   time.perf_counter() - t0))
        res = {"python iter_decode": [], "C stream reader": []}
        for _ in range(a.runs):  # interleaved, so both see the same host load
            res["python iter_decode"].append(run([sys.executable, __file__, "--child", path]))
            res["C stream reader"].append(run([exe, schema_path, path]))
        print("%-20s %10s %9s %12s %14s %14s" % ("reader", "records", "s (med)", "records/s",
                                                 "peak VmHWM", "ru_maxrss"))
        rate = {}
        for name, rs in res.items():
            assert all(r[0] == n for r in rs), (name, rs)
            t = statistics.median(r[1] for r in rs)
            rss = max(r[2] for r in rs)
            rate[name] = n / t
            ru = [r[3] for r in rs if r[3] is not None]
            print("%-20s %10d %9.2f %12.0f %10.1f MiB %10s" % (
                name, n, t, n / t, rss / 1024, "%.1f MiB" % (max(ru) / 1024) if ru else "-"))
        print("python / C records/s: %.2f (median of %d interleaved runs)"
              % (rate["python iter_decode"] / rate["C stream reader"], a.runs))
    finally:
        for p in (path, schema_path, exe):
            if os.path.exists(p):
                os.unlink(p)


if __name__ == "__main__":
    main()
