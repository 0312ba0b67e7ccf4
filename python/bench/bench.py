#!/usr/bin/env python3
"""python/bench/bench.py — encode/decode times of the desert package beside
msgpack (python3-msgpack), protobuf (python3-protobuf, message built at run
time from a descriptor: no protoc needed) and json on the same values:

  person_list   one list of 10,000 Person records (bench case 8's record:
                id i32, name, score f64, active, 4 tags; tags added by a
                FieldAdded step), encoded and decoded as one message;
  person_each   the same 10,000 records one message each (per-call cost);
  oplog_list    golden/oplog_list's entries repeated to 10,000 (desert only:
                the values hold bytes, UUIDs and datetimes json cannot write).

Prints the median CPU time of --rounds rounds per row (all rows interleaved
in each round, garbage collector off while timing), in ms per pass and ns
per record, and the ratios to msgpack and json.
  /usr/bin/python3 python/bench/bench.py [--rounds 7] [--n 10000]
(with the package installed, or PYTHONPATH pointing at a build of it).
"""
import argparse
import gc
import json
import os
import statistics
import sys
import time

import desert

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "..", "golden")

PERSON = {"type": "record", "name": "Person", "fields": [
    {"name": "id", "type": "i32"}, {"name": "name", "type": "string"},
    {"name": "score", "type": "f64"}, {"name": "active", "type": "bool"},
    {"name": "tags", "type": {"type": "list", "element": "string"}}],
    "evolution": [{"step": "FieldAdded", "field": "tags", "default": []}]}


def people(n):
    return [{"id": i, "name": "person-%05d" % i, "score": i * 0.25, "active": i % 2 == 0,
             "tags": ["alpha", "beta-%d" % (i % 10), "gamma", "delta"]} for i in range(n)]


def measure(fns, rounds):
    """Median CPU time (time.process_time) of each callable over `rounds`
    rounds, the callables interleaved within each round so that every one
    sees the same host load; the garbage collector is off while timing, as
    timeit does (a collection would land on whichever call crosses its
    threshold)."""
    for fn in fns:
        fn()  # warm
    times = [[] for _ in fns]
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            for i, fn in enumerate(fns):
                t0 = time.process_time()
                fn()
                times[i].append(time.process_time() - t0)
    finally:
        if enabled:
            gc.enable()
    return [statistics.median(t) for t in times]


def protobuf_person():
    """The Person message class, or None when protobuf is unavailable."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError:
        return None, None
    f = descriptor_pb2.FileDescriptorProto(name="bench_person.proto", package="bench",
                                           syntax="proto3")
    m = f.message_type.add(name="Person")
    T = descriptor_pb2.FieldDescriptorProto
    for num, (name, typ, label) in enumerate([
            ("id", T.TYPE_INT32, T.LABEL_OPTIONAL), ("name", T.TYPE_STRING, T.LABEL_OPTIONAL),
            ("score", T.TYPE_DOUBLE, T.LABEL_OPTIONAL), ("active", T.TYPE_BOOL, T.LABEL_OPTIONAL),
            ("tags", T.TYPE_STRING, T.LABEL_REPEATED)], start=1):
        m.field.add(name=name, number=num, type=typ, label=label)
    lst = f.message_type.add(name="People")
    lst.field.add(name="people", number=1, type=T.TYPE_MESSAGE, label=T.LABEL_REPEATED,
                  type_name=".bench.Person")
    pool = descriptor_pool.DescriptorPool()
    fd = pool.Add(f)
    try:
        get = message_factory.GetMessageClass
    except AttributeError:
        factory = message_factory.MessageFactory(pool)
        get = factory.GetPrototype
    return get(fd.message_types_by_name["Person"]), get(fd.message_types_by_name["People"])


def rows_for(n, rounds):
    values = people(n)
    lst = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "Person"},
                         "definitions": {"Person": PERSON}})
    one = desert.Schema({"desert_schema": 1, "root": "Person", "definitions": {"Person": PERSON}})
    pending = []

    def add(case, impl, enc, dec, size):
        pending.append((case, impl, enc, dec, size))

    data = lst.encode(values)
    assert lst.decode(data) == values
    add("person_list", "desert", lambda: lst.encode(values), lambda: lst.decode(data), len(data))
    each = [one.encode(v) for v in values]
    add("person_each", "desert", lambda: [one.encode(v) for v in values],
        lambda: [one.decode(b) for b in each], sum(map(len, each)))
    try:
        import msgpack
        mp = msgpack.packb(values)
        assert msgpack.unpackb(mp) == values
        add("person_list", "msgpack", lambda: msgpack.packb(values),
            lambda: msgpack.unpackb(mp), len(mp))
        mpe = [msgpack.packb(v) for v in values]
        add("person_each", "msgpack", lambda: [msgpack.packb(v) for v in values],
            lambda: [msgpack.unpackb(b) for b in mpe], sum(map(len, mpe)))
    except ImportError:
        print("msgpack not installed: apt-get install python3-msgpack", file=sys.stderr)
    Person, People = protobuf_person()
    if Person is not None:
        def pb_build():
            msg = People()
            for v in values:
                msg.people.add(**v)
            return msg.SerializeToString()
        pb = pb_build()

        def pb_parse():
            msg = People.FromString(pb)
            return [{"id": p.id, "name": p.name, "score": p.score, "active": p.active,
                     "tags": list(p.tags)} for p in msg.people]
        assert pb_parse() == values
        add("person_list", "protobuf", pb_build, pb_parse, len(pb))
    js = json.dumps(values)
    add("person_list", "json", lambda: json.dumps(values), lambda: json.loads(js), len(js))
    jse = [json.dumps(v) for v in values]
    add("person_each", "json", lambda: [json.dumps(v) for v in values],
        lambda: [json.loads(s) for s in jse], sum(map(len, jse)))

    with open(os.path.join(GOLDEN, "oplog_list.schema.json"), "rb") as f:
        ol = desert.Schema(f.read())
    with open(os.path.join(GOLDEN, "oplog_list.bin"), "rb") as f:
        entries = ol.decode(f.read())
    oplog = (entries * (n // len(entries) + 1))[:n]
    od = ol.encode(oplog)
    assert ol.decode(od) == oplog
    add("oplog_list", "desert", lambda: ol.encode(oplog), lambda: ol.decode(od), len(od))
    fns = [f for p in pending for f in (p[2], p[3])]
    med = measure(fns, rounds)
    return [(p[0], p[1], med[2 * i], med[2 * i + 1], p[4]) for i, p in enumerate(pending)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--n", type=int, default=10000)
    a = ap.parse_args()
    rows = rows_for(a.n, a.rounds)
    print("desert %s (libdesert %s), Python %s, %d records, median CPU time of %d "
          "interleaved rounds" % (desert.__version__, desert.library_version(),
                                  sys.version.split()[0], a.n, a.rounds))
    print("%-12s %-9s %10s %10s %10s %10s %9s" % ("case", "impl", "enc ms", "dec ms",
                                                  "enc ns/rec", "dec ns/rec", "bytes"))
    for case, impl, enc, dec, size in rows:
        print("%-12s %-9s %10.2f %10.2f %10.0f %10.0f %9d" % (
            case, impl, enc * 1e3, dec * 1e3, enc * 1e9 / a.n, dec * 1e9 / a.n, size))
    by = {(r[0], r[1]): r for r in rows}
    for case in ("person_list", "person_each"):
        d = by.get((case, "desert"))
        for other in ("msgpack", "json"):
            o = by.get((case, other))
            if d and o:
                print("%-12s %s / desert: encode %.2fx, decode %.2fx"
                      % (case, other, o[2] / d[2], o[3] / d[3]))


if __name__ == "__main__":
    main()
