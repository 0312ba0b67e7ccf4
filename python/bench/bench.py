#!/usr/bin/env python3
"""python/bench/bench.py — encode/decode times of the desert package beside
msgpack (python3-msgpack), protobuf (python3-protobuf, message built at run
time from a descriptor: no protoc needed) and json on the same values:

  person_list   one list of 10,000 Person records (bench case 8's record:
                id i32, name, score f64, active, 4 tags; tags added by a
                FieldAdded step), encoded and decoded as one message;
  person_each   the same 10,000 records one message each (per-call cost);
  terms_list    10,000 terms of the term dictionary (BENCHMARKING.md §3:
                a 4-12 letter term, a document frequency, 1-8 ascending
                postings; term: string, doc_freq: var_i32, postings: list
                of var_u32), as one message;
  oplog_list    golden/oplog_list's entries repeated to 10,000;
  golden        desert-scala's golden dataset (dataset1.bin, 240 KB, one
                message; from $DESERT_GOLDEN_DIR, default ../shared/golden
                beside the repository; skipped with a note when absent).

desert encodes and decodes the values in their native Python form (bytes,
uuid.UUID, datetime, ...). Where such values are not JSON (oplog_list and
golden hold bytes, UUIDs and datetimes), msgpack and json carry the same
values in the JSON value language instead (the case's .json file, as
`desert decode` prints it), which is what a Python user without desert
would store; protobuf runs where a message type exists (person_list,
terms_list).

Prints the median CPU time of --rounds rounds per row (all rows interleaved
in each round, each timed call right after an untimed call of the same
row, garbage collector off while timing), in ms per pass and ns per
record, and the ratios to msgpack and json; --json FILE also writes the
rows as JSON for bench/report.py (scripts/bench.sh does).
  /usr/bin/python3 python/bench/bench.py [--rounds 15] [--n 10000] [--json FILE]
(with the package installed, or PYTHONPATH pointing at a build of it).
"""
import argparse
import gc
import json
import os
import random
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


TERM = {"type": "record", "name": "Term", "fields": [
    {"name": "term", "type": "string"}, {"name": "doc_freq", "type": "var_i32"},
    {"name": "postings", "type": {"type": "list", "element": "var_u32"}}]}

DATASET_DIR = os.environ.get("DESERT_GOLDEN_DIR",
                             os.path.join(HERE, "..", "..", "..", "shared", "golden"))


def terms(n):
    """The term dictionary's shapes (bench/bench_values.c bv_terms_make),
    from a fixed seed."""
    rng = random.Random(0x7E5A)
    out = []
    for _ in range(n):
        term = "".join(chr(97 + rng.randrange(26)) for _ in range(4 + rng.randrange(9)))
        doc = rng.randrange(1000)
        post = []
        for _ in range(1 + rng.randrange(8)):
            post.append(doc)
            doc += 1 + rng.randrange(50000)
        out.append({"term": term, "doc_freq": 1 + rng.randrange(20000), "postings": post})
    return out


def people(n):
    return [{"id": i, "name": "person-%05d" % i, "score": i * 0.25, "active": i % 2 == 0,
             "tags": ["alpha", "beta-%d" % (i % 10), "gamma", "delta"]} for i in range(n)]


def measure(fns, rounds):
    """Median CPU time (time.process_time) of each callable over `rounds`
    rounds. In each round every callable runs twice in a row, untimed and
    then timed, the callables interleaved in a new (seeded) order each
    round: every one sees the same host load, and the timed call always
    follows a call of its own. What a call pays for whatever ran before it
    — the allocator giving back and faulting in again the memory of
    another row's large result, another row's data in the caches — is
    then the same as in a loop of that call alone (as timeit measures),
    not a draw of which row came before. The garbage collector is off
    while timing, as timeit does (a collection would land on whichever
    call crosses its threshold)."""
    for fn in fns:
        fn()  # warm
    times = [[] for _ in fns]
    enabled = gc.isenabled()
    gc.disable()
    try:
        order = list(range(len(fns)))
        shuffle = random.Random(0xDE5E).shuffle
        for _ in range(rounds):
            shuffle(order)
            for i in order:
                fns[i]()
                t0 = time.process_time()
                fns[i]()
                times[i].append(time.process_time() - t0)
    finally:
        if enabled:
            gc.enable()
    return [statistics.median(t) for t in times]


def protobuf_list(name, fields):
    """The message class of a list of records `name` with `fields` (name,
    type name of FieldDescriptorProto, repeated), built from a descriptor at
    run time; None when protobuf is unavailable."""
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
    except ImportError:
        return None
    f = descriptor_pb2.FileDescriptorProto(name="bench_%s.proto" % name.lower(), package="bench",
                                           syntax="proto3")
    m = f.message_type.add(name=name)
    T = descriptor_pb2.FieldDescriptorProto
    for num, (field, typ, repeated) in enumerate(fields, start=1):
        m.field.add(name=field, number=num, type=getattr(T, typ),
                    label=T.LABEL_REPEATED if repeated else T.LABEL_OPTIONAL)
    lst = f.message_type.add(name=name + "List")
    lst.field.add(name="items", number=1, type=T.TYPE_MESSAGE, label=T.LABEL_REPEATED,
                  type_name=".bench." + name)
    pool = descriptor_pool.DescriptorPool()
    fd = pool.Add(f)
    try:
        get = message_factory.GetMessageClass
    except AttributeError:
        get = message_factory.MessageFactory(pool).GetPrototype
    return get(fd.message_types_by_name[name + "List"])


def protobuf_rows(add, case, values, cls, records):
    """protobuf's row of a list case: the message built from and read back
    into the same dicts (what a user holding dicts pays)."""
    if cls is None:
        return
    names = [f.name for f in cls.DESCRIPTOR.fields_by_name["items"].message_type.fields]
    reps = {f.name for f in cls.DESCRIPTOR.fields_by_name["items"].message_type.fields
            if f.label == f.LABEL_REPEATED}

    def build():
        msg = cls()
        for v in values:
            msg.items.add(**v)
        return msg.SerializeToString()
    pb = build()

    def parse():
        return [{k: (list(getattr(p, k)) if k in reps else getattr(p, k)) for k in names}
                for p in cls.FromString(pb).items]
    assert parse() == values
    add(case, "protobuf", build, parse, len(pb), records)


def peer_rows(add, case, values, records):
    """msgpack's and json's rows of one case on the values they can carry."""
    try:
        import msgpack
        mp = msgpack.packb(values)
        assert msgpack.unpackb(mp) == values
        add(case, "msgpack", lambda: msgpack.packb(values), lambda: msgpack.unpackb(mp), len(mp),
            records)
    except ImportError:
        print("msgpack not installed: apt-get install python3-msgpack", file=sys.stderr)
    js = json.dumps(values)
    assert json.loads(js) == values
    add(case, "json", lambda: json.dumps(values), lambda: json.loads(js), len(js), records)


def rows_for(n, rounds):
    values = people(n)
    lst = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "Person"},
                         "definitions": {"Person": PERSON}})
    one = desert.Schema({"desert_schema": 1, "root": "Person", "definitions": {"Person": PERSON}})
    pending = []

    def add(case, impl, enc, dec, size, records):
        pending.append((case, impl, enc, dec, size, records))

    data = lst.encode(values)
    assert lst.decode(data) == values
    add("person_list", "desert", lambda: lst.encode(values), lambda: lst.decode(data), len(data), n)
    each = [one.encode(v) for v in values]
    add("person_each", "desert", lambda: [one.encode(v) for v in values],
        lambda: [one.decode(b) for b in each], sum(map(len, each)), n)
    peer_rows(add, "person_list", values, n)
    try:
        import msgpack
        mpe = [msgpack.packb(v) for v in values]
        add("person_each", "msgpack", lambda: [msgpack.packb(v) for v in values],
            lambda: [msgpack.unpackb(b) for b in mpe], sum(map(len, mpe)), n)
    except ImportError:
        pass
    protobuf_rows(add, "person_list", values, protobuf_list("Person", [
        ("id", "TYPE_INT32", False), ("name", "TYPE_STRING", False),
        ("score", "TYPE_DOUBLE", False), ("active", "TYPE_BOOL", False),
        ("tags", "TYPE_STRING", True)]), n)
    jse = [json.dumps(v) for v in values]
    add("person_each", "json", lambda: [json.dumps(v) for v in values],
        lambda: [json.loads(s) for s in jse], sum(map(len, jse)), n)

    tv = terms(n)
    tl = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "Term"},
                        "definitions": {"Term": TERM}})
    td = tl.encode(tv)
    assert tl.decode(td) == tv
    add("terms_list", "desert", lambda: tl.encode(tv), lambda: tl.decode(td), len(td), n)
    peer_rows(add, "terms_list", tv, n)
    protobuf_rows(add, "terms_list", tv, protobuf_list("Term", [
        ("term", "TYPE_STRING", False), ("doc_freq", "TYPE_INT32", False),
        ("postings", "TYPE_UINT32", True)]), n)

    with open(os.path.join(GOLDEN, "oplog_list.schema.json"), "rb") as f:
        ol = desert.Schema(f.read())
    with open(os.path.join(GOLDEN, "oplog_list.bin"), "rb") as f:
        entries = ol.decode(f.read())
    with open(os.path.join(GOLDEN, "oplog_list.json"), "rb") as f:
        entries_json = json.load(f)
    assert len(entries_json) == len(entries)
    oplog = (entries * (n // len(entries) + 1))[:n]
    od = ol.encode(oplog)
    assert ol.decode(od) == oplog
    add("oplog_list", "desert", lambda: ol.encode(oplog), lambda: ol.decode(od), len(od), n)
    peer_rows(add, "oplog_list", (entries_json * (n // len(entries_json) + 1))[:n], n)

    bin_path = os.path.join(DATASET_DIR, "dataset1.bin")
    if os.path.exists(bin_path):
        with open(os.path.join(DATASET_DIR, "dataset1.schema.json"), "rb") as f:
            gs = desert.Schema(f.read())
        with open(bin_path, "rb") as f:
            gb = f.read()
        with open(os.path.join(DATASET_DIR, "dataset1.json"), "rb") as f:
            gj = json.load(f)
        gv = gs.decode(gb)
        # (not byte for byte: the document does not ask for desert-scala's
        # legacy header strings, so the encoding is 6 bytes shorter)
        assert gs.decode(gs.encode(gv)) == gv
        add("golden", "desert", lambda: gs.encode(gv), lambda: gs.decode(gb), len(gb), 1)
        peer_rows(add, "golden", gj, 1)
    else:
        print("golden dataset not found at %s (set DESERT_GOLDEN_DIR): case skipped" % bin_path,
              file=sys.stderr)
    fns = [f for p in pending for f in (p[2], p[3])]
    med = measure(fns, rounds)
    return [(p[0], p[1], med[2 * i], med[2 * i + 1], p[4], p[5]) for i, p in enumerate(pending)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON (bench/report.py)")
    a = ap.parse_args()
    rows = rows_for(a.n, a.rounds)
    head = ("desert %s (libdesert %s), Python %s, %d records, median CPU time of %d "
            "interleaved rounds, each after a call of its own" % (desert.__version__, desert.library_version(),
                                    sys.version.split()[0], a.n, a.rounds))
    print(head)
    print("%-12s %-9s %10s %10s %10s %10s %9s" % ("case", "impl", "enc ms", "dec ms",
                                                  "enc ns/rec", "dec ns/rec", "bytes"))
    for case, impl, enc, dec, size, recs in rows:
        print("%-12s %-9s %10.2f %10.2f %10.0f %10.0f %9d" % (
            case, impl, enc * 1e3, dec * 1e3, enc * 1e9 / recs, dec * 1e9 / recs, size))
    by = {(r[0], r[1]): r for r in rows}
    for case in dict.fromkeys(r[0] for r in rows):
        d = by.get((case, "desert"))
        for other in ("msgpack", "json"):
            o = by.get((case, other))
            if d and o:
                print("%-12s %s / desert: encode %.2fx, decode %.2fx"
                      % (case, other, o[2] / d[2], o[3] / d[3]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"context": {"run": head, "python": sys.version.split()[0],
                                   "package": desert.__version__,
                                   "libdesert": desert.library_version(),
                                   "rounds": a.rounds, "n": a.n},
                       "rows": [{"case": c, "impl": i, "encode_s": e, "decode_s": d,
                                 "bytes": b, "records": r}
                                for c, i, e, d, b, r in rows]}, f, indent=1)


if __name__ == "__main__":
    main()
