"""test_leaks.py — no reference or memory leak over 100,000 calls of each
path (decode, encode, their errors, a short stream): the Python heap
(tracemalloc) and the process RSS (C allocations too) stay flat once warm."""
import gc
import io
import os
import tracemalloc

import desert
from conftest import GOLDEN

CALLS = 100_000


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def flat(fn, calls=CALLS, warm=2000):
    for _ in range(warm):
        fn()
    gc.collect()
    tracemalloc.start()
    rss0 = rss_kb()
    snap0 = tracemalloc.take_snapshot()
    for _ in range(calls):
        fn()
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    rss1 = rss_kb()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    # a leak of one small object per call would be >= 100,000 * 16 bytes
    assert grown < 200_000, grown
    assert rss1 - rss0 < 4096, (rss0, rss1)


def golden(name):
    with open(os.path.join(GOLDEN, name + ".schema.json"), "rb") as f:
        s = desert.Schema(f.read())
    with open(os.path.join(GOLDEN, name + ".bin"), "rb") as f:
        return s, f.read()


def test_decode_encode_do_not_leak():
    s, data = golden("collections")
    value = s.decode(data)
    flat(lambda: s.decode(data))
    flat(lambda: s.encode(value))


def test_every_type_does_not_leak():
    pairs = [golden(n) for n in ("primitives", "time", "enums", "strings")]
    vals = [(s, d, s.decode(d)) for s, d in pairs]

    def once():
        for s, d, v in vals:
            s.encode(v)
            s.decode(d)
    flat(once, calls=CALLS // 4)


def test_errors_do_not_leak():
    s, data = golden("oplog")
    cut = data[:len(data) // 2]
    value = s.decode(data)

    def bad_decode():
        try:
            s.decode(cut)
        except desert.DecodeError:
            pass
    flat(bad_decode)
    key = next(iter(value))
    broken = dict(value)
    broken[key] = object()

    def bad_encode():
        try:
            s.encode(broken)
        except desert.EncodeError:
            pass
    flat(bad_encode)


def test_streams_do_not_leak():
    s, data = golden("oplog_list")

    def stream():
        for _ in s.iter_decode(io.BytesIO(data)):
            pass
    flat(stream, calls=CALLS // 10)


def test_number_runs_do_not_leak():
    # lists of fixed-width numbers decode in one run (direct.c dec_bulk);
    # a cut one takes the element loop and fails
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "f64"}})
    data = s.encode([i * 0.5 for i in range(64)] + [float("nan")])
    flat(lambda: s.decode(data), calls=20_000)

    def cut():
        try:
            s.decode(data[:-3])
        except desert.DecodeError:
            pass
    flat(cut, calls=20_000)


def test_raw_byte_decoder_does_not_leak():
    # decodes flat.c finishes, and inputs it declines after making part of
    # the value (invalid UTF-8 in the last record: the direct path then
    # reports it); mode 2 tries it on every call
    from desert import _desert
    person = {"type": "record", "name": "P", "fields": [
        {"name": "id", "type": "i32"}, {"name": "name", "type": "string"},
        {"name": "tags", "type": {"type": "list", "element": "string"}}]}
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "P"},
                       "definitions": {"P": person}})
    data = s.encode([{"id": i, "name": "n%d" % i, "tags": ["a", "b-%d" % i]} for i in range(20)])
    bad = data[:-2] + b"\xc3\x28"  # the last tag's two bytes: invalid UTF-8
    old = _desert._set_flat_decoder(2)
    try:
        flat(lambda: s.decode(data), calls=20_000)

        def declined():
            try:
                s.decode(bad)
            except desert.DecodeError:
                pass
        flat(declined, calls=20_000)
    finally:
        _desert._set_flat_decoder(old)
