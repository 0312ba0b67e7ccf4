"""test_enums.py — enums (sum types) decoded and encoded by the extension's
direct converters (direct.c dec_enum / enc_enum), checked against the
`desert` tool (DESERT_CLI), which decodes and encodes with libdesert's
generic codec and JSON: every constructor form (record payload, no
payload, transparent payload, a transient constructor), both id orders,
recursion, enums inside records, lists and options; the same value or the
same error (kind and offset) on mutated bytes; and the errors of values
that are not an enum of the schema, with their paths."""
import json
import os
import random
import subprocess
import tempfile

import pytest

import desert
from jsonmap import Mapper, same

SHAPES = {"desert_schema": 1, "root": "Doc", "definitions": {
    "Doc": {"type": "record", "fields": [
        {"name": "items", "type": {"type": "list", "element": "Item"}},
        {"name": "first", "type": "Item", "optional": True},
        {"name": "tree", "type": "Tree"}]},
    # sorted ids: Circle 0, Label 1, Nothing 2, Poly 3, Square 4 (Ghost is transient)
    "Item": {"type": "enum", "order": "sorted", "constructors": [
        {"name": "Square", "type": "i32"},
        {"name": "Ghost", "transient": True},
        {"name": "Circle", "fields": [{"name": "r", "type": "f64"},
                                       {"name": "tag", "type": "string"}]},
        {"name": "Nothing"},
        {"name": "Label", "type": "string"},
        {"name": "Poly", "fields": [{"name": "points", "type": {"type": "list", "element": "i16"}},
                                     {"name": "note", "type": "string", "optional": True}]}]},
    "Tree": {"type": "enum", "constructors": [
        {"name": "Leaf", "type": "var_i32"},
        {"name": "Node", "fields": [{"name": "kids", "type": {"type": "list", "element": "Tree"}}]},
        {"name": "Maybe", "type": {"type": "option", "inner": "Tree"}}]}}}


def value(rng):
    def item():
        k = rng.randrange(5)
        if k == 0:
            return {"$case": "Square", "value": rng.randrange(-2**31, 2**31)}
        if k == 1:
            return {"$case": "Circle", "r": rng.choice([0.5, -2.0, 1e10]), "tag": rng.choice(["", "c\u00e9"])}
        if k == 2:
            return {"$case": "Nothing"}
        if k == 3:
            return {"$case": "Label", "value": rng.choice(["x", "label-%d" % rng.randrange(99)])}
        return {"$case": "Poly", "points": [rng.randrange(-5, 5) for _ in range(rng.randrange(4))],
                "note": rng.choice([None, "n"])}

    def tree(d):
        k = rng.randrange(3) if d else 0
        if k == 0:
            return {"$case": "Leaf", "value": rng.randrange(-1000, 1000)}
        if k == 1:
            return {"$case": "Node", "kids": [tree(d - 1) for _ in range(rng.randrange(3))]}
        return {"$case": "Maybe", "value": rng.choice([None, tree(d - 1)])}

    return {"items": [item() for _ in range(rng.randrange(6))],
            "first": rng.choice([None, item()]), "tree": tree(3)}


def cli():
    c = os.environ.get("DESERT_CLI")
    if not c:
        pytest.skip("DESERT_CLI (the desert tool) not given")
    return c


def run(args, data):
    with tempfile.TemporaryDirectory() as d:
        sp = os.path.join(d, "s.json")
        with open(sp, "w") as f:
            json.dump(SHAPES, f)
        return subprocess.run([cli(), *args[:1], "--schema", sp, *args[1:], "-"], input=data,
                              capture_output=True)


def test_values_match_the_tool_both_ways():
    s = desert.Schema(SHAPES)
    m = Mapper(SHAPES)
    rng = random.Random(7)
    for _ in range(25):
        v = value(rng)
        data = s.encode(v)
        # the tool's bytes for the same value, from its JSON form
        enc = run(["encode"], json.dumps(v).encode())
        assert enc.returncode == 0, enc.stderr
        assert enc.stdout == data
        got = s.decode(data)
        assert same(got, v) is None
        dec = run(["decode"], data)
        assert dec.returncode == 0, dec.stderr
        assert same(m.native(SHAPES["root"], json.loads(dec.stdout)), got) is None


def test_mutated_bytes_match_the_tool():
    s = desert.Schema(SHAPES)
    m = Mapper(SHAPES)
    rng = random.Random(11)
    base = [s.encode(value(rng)) for _ in range(4)]
    outcomes = set()
    for i in range(160):
        data = bytearray(base[i % len(base)])
        for _ in range(rng.randrange(1, 3)):
            data[rng.randrange(len(data))] = rng.choice([0, 1, 2, 3, 4, 5, 6, 0x80, 0xFF,
                                                         rng.randrange(256)])
        data = bytes(data)
        dec = run(["decode"], data)
        try:
            got = s.decode(data)
        except desert.DecodeError as e:
            outcomes.add("error")
            assert dec.returncode != 0, (data.hex(), e)
            # "<file>: <Kind> at offset <n>: <path>: <message>", or for bytes
            # after the value "... after the value (offset <n> of <len>) ..."
            want = ("(offset %d of" % e.offset if e.kind == "TrailingBytes"
                    else "%s at offset %d:" % (e.kind, e.offset))
            assert want in dec.stderr.decode(), (data.hex(), str(e), dec.stderr)
            continue
        outcomes.add("value")
        assert dec.returncode == 0, (data.hex(), dec.stderr)
        assert same(m.native(SHAPES["root"], json.loads(dec.stdout)), got) is None, data.hex()
    assert outcomes == {"value", "error"}


@pytest.mark.parametrize("bad,status,path", [
    ({"$case": "Hexagon", "value": 1}, "DESERT_E_INVALID_CONSTRUCTOR_NAME", "$.items[0]"),
    ({"value": 1}, "DESERT_E_ARGUMENT", "$.items[0]"),
    ({"$case": "Ghost"}, "DESERT_E_SERIALIZING_TRANSIENT", "$.items[0]"),
    ({"$case": "Circle", "r": 1.0}, "DESERT_E_ARGUMENT", "$.items[0]"),
    ({"$case": "Circle", "r": 1.0, "tag": "t", "extra": 1}, "DESERT_E_ARGUMENT", "$.items[0]"),
    ({"$case": "Square"}, "DESERT_E_ARGUMENT", "$.items[0]"),
    ({"$case": "Square", "value": 2**40}, "DESERT_E_ARGUMENT", "$.items[0].value"),
    ({"$case": "Circle", "r": "one", "tag": "t"}, "DESERT_E_ARGUMENT", "$.items[0].r"),
])
def test_encode_errors_name_the_path(bad, status, path):
    s = desert.Schema(SHAPES)
    v = {"items": [bad], "first": None, "tree": {"$case": "Leaf", "value": 1}}
    with pytest.raises(desert.EncodeError) as e:
        s.encode(v)
    assert e.value.status == status, str(e.value)
    assert e.value.path == path, str(e.value)


def test_golden_enums_and_oplog_round_trip():
    here = os.path.join(os.path.dirname(__file__), "..", "..", "golden")
    for name in ("enums", "oplog_list"):
        with open(os.path.join(here, name + ".schema.json"), "rb") as f:
            s = desert.Schema(f.read())
        with open(os.path.join(here, name + ".bin"), "rb") as f:
            data = f.read()
        v = s.decode(data)
        assert s.encode(v) == data
        assert same(s.decode(s.encode(v)), v) is None
