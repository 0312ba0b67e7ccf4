"""test_flat.py — Schema.decode's raw-byte decoder (desert/_ext/flat.c)
against the reader-driven one (direct.c): on every input, valid or not,
both give the same value (same types, floats by their bits, dict keys in
the same order) or the same error (class, kind, offset, path, message).
The raw-byte decoder only reads the shapes it knows and declines the rest;
these tests check that it runs where it should (valid data of the common
shapes), declines where it must (fields the data predates, removed
fields, unknown-size lists, kinds it does not read), and never answers
differently: hand-made inputs for each rule, then seeded mutations of
encoded values (DESERT_PY_FLAT_MUTATIONS per sample, default 150)."""
import os
import random
import struct
import uuid

import pytest

import desert
from desert import _desert

MUTATIONS = int(os.environ.get("DESERT_PY_FLAT_MUTATIONS", "150"))


def doc(root, **defs):
    d = {"desert_schema": 1, "root": root}
    if defs:
        d["definitions"] = defs
    return d


def rec(name, fields, steps=None):
    r = {"type": "record", "name": name, "fields": fields}
    if steps:
        r["evolution"] = steps
    return r


def f(name, type_, **kw):
    return dict(name=name, type=type_, **kw)


PERSON0 = rec("Person", [f("id", "i32"), f("name", "string"), f("score", "f64"),
                         f("active", "bool")])
PERSON1 = rec("Person", PERSON0["fields"] + [f("tags", {"type": "list", "element": "string"})],
              [{"step": "FieldAdded", "field": "tags", "default": []}])

# chunks visited out of order: b (chunk 1) sits between two chunk-0 fields
MIXED = rec("Mixed", [f("a", "i32"), f("b", "string"), f("c", "i64"),
                      f("d", {"type": "list", "element": "var_u32"}),
                      f("e", "string", optional=True)],
            [{"step": "FieldAdded", "field": "b", "default": ""},
             {"step": "FieldAdded", "field": "d", "default": []}])

ALL = rec("All", [
    f("bo", "bool"), f("i8", "i8"), f("i16", "i16"), f("i32", "i32"), f("i64", "i64"),
    f("u8", "u8"), f("u16", "u16"), f("u32", "u32"), f("u64", "u64"), f("f32", "f32"),
    f("f64", "f64"), f("un", "unit"), f("s", "string"), f("vu", "var_u32"), f("vi", "var_i32"),
    f("by", "bytes"), f("os", "string", optional=True), f("orec", "Point", optional=True),
    f("lo", {"type": "list", "element": {"type": "option", "inner": "string"}}),
    f("lrec", {"type": "list", "element": "Point"}),
    f("set", {"type": "set", "element": "i32"}),
    f("ll", {"type": "list", "element": {"type": "list", "element": "string"}}),
    f("lf", {"type": "list", "element": "f64"}),
    f("opt", "i32", optional=True)])
POINT = rec("Point", [f("x", "i32"), f("y", "i32")])

TREE = rec("Tree", [f("label", "string"),
                    f("kids", {"type": "list", "element": "Tree"})])

# a record the raw-byte decoder does not read (uuid, map), inside one it does
OTHER = rec("Other", [f("id", "uuid"), f("m", {"type": "map", "key": "string", "value": "i32"})])
OUTER = rec("Outer", [f("n", "i32"), f("other", "Other"), f("after", "string")])

# sum types: an enum of every constructor form (sorted ids, a transient
# constructor), a recursive enum, uuid, char, char16, either and try
ITEM = {"type": "enum", "order": "sorted", "constructors": [
    {"name": "Square", "type": "i32"}, {"name": "Ghost", "transient": True},
    {"name": "Circle", "fields": [{"name": "r", "type": "f64"}, {"name": "tag", "type": "string"}]},
    {"name": "Nothing"}, {"name": "Label", "type": {"type": "option", "inner": "string"}}]}
TREE_E = {"type": "enum", "constructors": [
    {"name": "Leaf", "type": "var_i32"},
    {"name": "Node", "fields": [{"name": "kids", "type": {"type": "list", "element": "TreeE"}}]}]}
SUMS = rec("Sums", [f("items", {"type": "list", "element": "Item"}), f("one", "Item", optional=True),
                    f("tree", "TreeE"), f("id", "uuid"), f("ch", "char"), f("c16", "char16"),
                    f("ei", {"type": "either", "left": "i32", "right": "string"}),
                    f("tr", {"type": "try", "failure": "string", "success": "i64"})])

LIMITS = rec("Limits", [f("three", {"type": "list", "element": "i32", "length": 3}),
                        f("some", {"type": "list", "element": "string", "non_empty": True}),
                        f("fixed", {"type": "bytes", "length": 2})])


def person(i):
    return {"id": i, "name": "person-%05d" % i, "score": i * 0.25, "active": i % 2 == 0,
            "tags": ["alpha", "beta-%d" % (i % 10), "gamma", "delta"]}


def all_value(rng):
    return {"bo": rng.random() < 0.5, "i8": rng.randrange(-128, 128),
            "i16": rng.randrange(-2**15, 2**15), "i32": rng.randrange(-2**31, 2**31),
            "i64": rng.randrange(-2**63, 2**63), "u8": rng.randrange(256),
            "u16": rng.randrange(2**16), "u32": rng.randrange(2**32), "u64": rng.randrange(2**64),
            "f32": struct.unpack(">f", struct.pack(">f", rng.uniform(-1e6, 1e6)))[0],
            "f64": rng.choice([0.0, -0.0, 1e300, float("inf"), rng.random()]), "un": None,
            "s": rng.choice(["", "ascii", "h\u00e9", "\u65e5\u672c", "\U0001F600x", "x" * 40,
                             "\u00e9" * 20]),
            "vu": rng.randrange(2**32), "vi": rng.randrange(-2**31, 2**31),
            "by": bytes(rng.randrange(256) for _ in range(rng.randrange(6))),
            "os": rng.choice([None, "", "some"]),
            "orec": rng.choice([None, {"x": 1, "y": -2}]),
            "lo": [rng.choice([None, "", "o"]) for _ in range(rng.randrange(4))],
            "lrec": [{"x": k, "y": -k} for k in range(rng.randrange(4))],
            "set": [rng.randrange(-5, 5) for _ in range(rng.randrange(3))],
            "ll": [["a", "bc"][:rng.randrange(3)] for _ in range(rng.randrange(3))],
            "lf": [rng.random() for _ in range(rng.randrange(5))],
            "opt": rng.choice([None, 7, -1])}


def sums_value(rng):
    def item():
        return rng.choice([{"$case": "Square", "value": rng.randrange(-9, 9)},
                           {"$case": "Circle", "r": 0.5, "tag": "t"}, {"$case": "Nothing"},
                           {"$case": "Label", "value": rng.choice([None, "l\u00e9"])}])

    def tree_e(d):
        if not d or rng.random() < 0.3:
            return {"$case": "Leaf", "value": rng.randrange(-300, 300)}
        return {"$case": "Node", "kids": [tree_e(d - 1) for _ in range(rng.randrange(3))]}

    return {"items": [item() for _ in range(rng.randrange(4))], "one": rng.choice([None, item()]),
            "tree": tree_e(3), "id": uuid.UUID(int=rng.randrange(2**128)),
            "ch": rng.choice(["a", "\u00e9", "\u65e5", "\U0001F600"]),
            "c16": rng.choice(["b", "\u00e8", "\uffff"]),
            "ei": rng.choice([{"left": -4}, {"right": "r"}]),
            "tr": rng.choice([{"failure": "oops"}, {"success": 2**40}])}


def tree(rng, depth):
    kids = [tree(rng, depth - 1) for _ in range(rng.randrange(3))] if depth else []
    return {"label": "n%d" % rng.randrange(100), "kids": kids}


def cases():
    """(name, schema document, values)."""
    rng = random.Random(0xF1A7)
    return [
        ("person", doc({"type": "list", "element": "Person"}, Person=PERSON1),
         [[person(i) for i in range(n)] for n in (0, 1, 3)]),
        ("mixed", doc("Mixed", Mixed=MIXED),
         [{"a": 1, "b": "bee", "c": -5, "d": [1, 300, 2**31], "e": None},
          {"a": -1, "b": "", "c": 2**40, "d": [], "e": "e\u00e9"}]),
        ("all", doc("All", All=ALL, Point=POINT), [all_value(rng) for _ in range(6)]),
        ("tree", doc("Tree", Tree=TREE), [tree(rng, 3) for _ in range(3)]),
        ("outer", doc("Outer", Outer=OUTER, Other=OTHER),
         [{"n": 1, "other": {"id": uuid.UUID(int=5), "m": {"k": 1}}, "after": "z"}]),
        ("sums", doc("Sums", Sums=SUMS, Item=ITEM, TreeE=TREE_E),
         [sums_value(rng) for _ in range(5)]),
        ("sums_scala_chars", dict(doc("Sums", Sums=SUMS, Item=ITEM, TreeE=TREE_E),
                                  options={"scala_chars": True}),
         [dict(sums_value(rng), ch="\u00e9") for _ in range(2)]),
        ("limits", doc("Limits", Limits=LIMITS),
         [{"three": [1, 2, 3], "some": ["x"], "fixed": b"ab"}]),
        ("strings", doc({"type": "list", "element": "string"}),
         [["", "a", "\u00e9\u00e8", "x" * 17, "\U0001F600" * 3]]),
        ("f64s", doc({"type": "list", "element": "f64"}), [[0.5 * k for k in range(50)]]),
        ("scalar", doc("var_i32"), [0, -1, 2**31 - 1]),
        ("option", doc({"type": "option", "inner": "Point"}, Point=POINT),
         [None, {"x": 3, "y": 4}]),
    ]


def same(a, b):
    """Equal, with types, float bits and dict key order compared too."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack(">d", a) == struct.pack(">d", b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def outcome(s, data, allow_trailing):
    try:
        return ("value", s.decode(data, allow_trailing=allow_trailing))
    except desert.DesertError as e:
        return ("error", type(e), e.kind, e.offset, e.path, str(e))


def both(s, data, allow_trailing=False):
    """The outcome with flat.c tried on this input, and without it."""
    old = _desert._set_flat_decoder(2)
    try:
        with_flat = outcome(s, data, allow_trailing)
        _desert._set_flat_decoder(0)
        without = outcome(s, data, allow_trailing)
    finally:
        _desert._set_flat_decoder(old)
    return with_flat, without


def agree(a, b):
    if a[0] != b[0]:
        return False
    return same(a[1], b[1]) if a[0] == "value" else a == b


def taken():
    return _desert._flat_stats()[0]


@pytest.mark.parametrize("name,document,values", cases(), ids=[c[0] for c in cases()])
def test_valid_values_agree(name, document, values):
    s = desert.Schema(document)
    for v in values:
        data = s.encode(v)
        before = taken()
        a, b = both(s, data)
        # where the raw-byte decoder reads every type, it finished the decode
        ran = taken() - before == 1
        assert a[0] == "value" and agree(a, b), (name, v)
        assert ran == (name not in ("outer", "limits")), name
        assert same(a[1], s.decode(data))


@pytest.mark.parametrize("name,document,values", cases(), ids=[c[0] for c in cases()])
def test_every_byte_changed_agrees(name, document, values):
    """Each byte of each sample set to the values the rules turn on (tags
    00/01/02, varint continuation 7F/80, FF), and each cut, one at a time."""
    s = desert.Schema(document)
    for v in values:
        data = s.encode(v)
        for at in range(len(data)):
            for byte in (0, 1, 2, 0x7F, 0x80, 0xFF):
                m = data[:at] + bytes([byte]) + data[at + 1:]
                a, b = both(s, m)
                assert agree(a, b), (name, m.hex(), a, b)
            a, b = both(s, data[:at])
            assert agree(a, b), (name, data[:at].hex(), a, b)


@pytest.mark.parametrize("name,document,values", cases(), ids=[c[0] for c in cases()])
def test_mutated_inputs_agree(name, document, values):
    s = desert.Schema(document)
    rng = random.Random(name)
    for v in values:
        data = s.encode(v)
        for _ in range(MUTATIONS):
            m = bytearray(data)
            op = rng.randrange(5)
            if op == 0 and m:
                m[rng.randrange(len(m))] = rng.choice([0, 1, 2, 0x7F, 0x80, 0xFF, rng.randrange(256)])
            elif op == 1 and m:
                del m[rng.randrange(len(m)):]
            elif op == 2:
                m.insert(rng.randrange(len(m) + 1), rng.randrange(256))
            elif op == 3 and m:
                del m[rng.randrange(len(m))]
            else:
                m += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4)))
            for trailing in (False, True):
                a, b = both(s, bytes(m), trailing)
                assert agree(a, b), (name, bytes(m).hex(), trailing, a, b)


def test_evolution_both_ways():
    old = desert.Schema(doc({"type": "list", "element": "Person"}, Person=PERSON0))
    new = desert.Schema(doc({"type": "list", "element": "Person"}, Person=PERSON1))
    people = [person(i) for i in range(5)]
    # data older than "tags": the field takes its default (declined here,
    # read by direct.c)
    old_data = old.encode([{k: p[k] for k in PERSON0_KEYS} for p in people])
    before = _desert._flat_stats()
    a, b = both(new, old_data)
    assert agree(a, b) and a[1] == [dict(p, tags=[]) for p in people]
    after = _desert._flat_stats()
    assert after[0] == before[0] and after[1] == before[1] + 1
    # newer data read with the old schema: the chunk of "tags" is skipped
    # (read here)
    a, b = both(old, new.encode(people))
    assert agree(a, b) and a[1] == [{k: p[k] for k in PERSON0_KEYS} for p in people]
    assert _desert._flat_stats()[0] == after[0] + 1


PERSON0_KEYS = ("id", "name", "score", "active")


def removed_schema():
    r = rec("Person", [f("id", "i32"), f("name", "string")],
            [{"step": "FieldRemoved", "field": "score"}])
    return desert.Schema(doc("Person", Person=r))


def test_removed_fields_and_unknown_size_lists_are_declined():
    # a FieldRemoved step: the header holds a removed name (declined at
    # prepare: the record is never read here)
    s = removed_schema()
    v = {"id": 3, "name": "x"}
    a, b = both(s, s.encode(v))
    assert agree(a, b) and a[1] == v
    # an unknown-size list: 01 before each element, 00 after the last
    loose = desert.Schema(doc({"type": "list", "element": "string", "form": "unknown"}))
    known = desert.Schema(doc({"type": "list", "element": "string"}))
    data = loose.encode(["a", "b"])
    before = _desert._flat_stats()[1]
    a, b = both(known, data)
    assert agree(a, b) and a[1] == ["a", "b"]
    assert _desert._flat_stats()[1] == before + 1


def test_errors_are_those_of_the_reader():
    s = desert.Schema(doc("Mixed", Mixed=MIXED))
    data = s.encode({"a": 1, "b": "bee", "c": -5, "d": [1], "e": "x"})
    for cut in range(len(data)):
        a, b = both(s, data[:cut])
        assert a[0] == "error" and a == b
    # an invalid tag on the optional field, invalid UTF-8 in "b"
    tag_at = data.index(b"\x01\x02x")  # end of chunk 0: tag 01, the string "x"
    bad = bytearray(data)
    bad[tag_at] = 2
    a, b = both(s, bytes(bad))
    assert a[0] == "error" and a == b
    utf = bytearray(data)
    at = utf.index(b"bee")
    utf[at] = 0xC3
    a, b = both(s, bytes(utf))
    assert a[0] == "error" and a == b and a[2] == "FailedToDecodeString"


def test_budget_and_depth_bounds_agree():
    s = desert.Schema(doc({"type": "list", "element": "Person"}, Person=PERSON1), max_values=15)
    data = s.encode([person(i) for i in range(2)])
    a, b = both(s, data)
    assert a == b and a[0] == "error"
    deep = desert.Schema(doc("Tree", Tree=TREE))
    # 300 nested trees (each: version 00, label "x", a list of one),
    # deeper than the reader's 128 records
    data = b"".join([b"\x00\x02x\x02"] * 300) + b"\x00\x02x\x00"
    a, b = both(deep, data)
    assert a[0] == "error" and a == b


def test_varints_agree():
    """Varints of every length the reader takes (5 bytes at most, the bits
    past bit 31 dropped), and the 6-byte one it refuses, as values, lengths
    and counts."""
    scalar = desert.Schema(doc("var_u32"))
    strings = desert.Schema(doc({"type": "list", "element": "string"}))
    seen = set()
    for data in [b"\x05", b"\x80\x01", b"\xff\xff\xff\xff\x0f", b"\xff\xff\xff\xff\x7f",
                 b"\x80\x80\x80\x80\x00", b"\x80\x80\x80\x80\x80\x00", b"\x80", b""]:
        a, b = both(scalar, data)
        assert agree(a, b), (data.hex(), a, b)
        seen.add(a[0])
        # the same bytes as a list count (of empty strings) and as a length
        for body in (b"\x00" * 3, b"x" * 3):
            a, b = both(strings, data + body)
            assert agree(a, b), (data.hex(), a, b)
            a, b = both(strings, b"\x02" + data + body)
            assert agree(a, b), (data.hex(), a, b)
    assert seen == {"value", "error"}


def var_u32(n):
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def test_chars_agree():
    """Code points at the edges of what a char may hold: surrogates and
    past U+10FFFF fail, the rest are one-character strings."""
    plain = desert.Schema(doc("char"))
    scala = desert.Schema(dict(doc("char"), options={"scala_chars": True}))
    c16 = desert.Schema(doc("char16"))
    seen = set()
    for cp in (0x41, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF,
               0x110000, 0xFFFFFFFF):
        a, b = both(plain, var_u32(cp))
        assert agree(a, b), (hex(cp), a, b)
        seen.add(a[0])
        if cp <= 0xFFFF:
            for s in (scala, c16):
                a, b = both(s, cp.to_bytes(2, "big"))
                assert agree(a, b), (hex(cp), a, b)
                assert a[0] == ("error" if 0xD800 <= cp <= 0xDFFF else "value")
    assert seen == {"value", "error"}
