"""test_errors.py — errors carry status, kind, offset and path; hostile
inputs (truncated, huge counts, deep nesting, random bytes) raise
DecodeError without crashing; wrong Python values name their path."""
import glob
import json
import os
import random

import pytest

import desert
from conftest import GOLDEN

STRINGS = {"desert_schema": 1, "root": {"type": "list", "element": "string"}}
REC = {"desert_schema": 1, "root": {
    "type": "record", "fields": [{"name": "x", "type": "i32"}, {"name": "label", "type": "string"},
                                 {"name": "y", "type": "i32"}],
    "evolution": [{"step": "FieldAdded", "field": "label", "default": "origin"}]}}
TREE = {"desert_schema": 1, "definitions": {"Tree": {"type": "record", "fields": [
    {"name": "label", "type": "string"},
    {"name": "children", "type": {"type": "list", "element": "Tree"}}]}}, "root": "Tree"}


def test_error_classes():
    assert issubclass(desert.DecodeError, desert.DesertError)
    assert issubclass(desert.DecodeError, ValueError)
    assert issubclass(desert.EncodeTypeError, desert.EncodeError)
    assert issubclass(desert.EncodeTypeError, TypeError)
    assert issubclass(desert.SchemaError, ValueError)


def test_invalid_utf8_offset_and_path():
    # docs/schema.md §14.5: FailedToDecodeString at offset 6
    data = bytes.fromhex("04" "0668c3a9" "0661eda080")
    with pytest.raises(desert.DecodeError) as e:
        desert.Schema(STRINGS).decode(data)
    assert e.value.kind == "FailedToDecodeString"
    assert e.value.status == "DESERT_E_INVALID_UTF8"
    assert e.value.offset == 6
    assert e.value.path == "$[1]"


def test_record_chunk_ends_early():
    # docs/schema.md §14.5: InputEndedUnexpectedly at offset 11
    data = bytes.fromhex("01100e0000000a00000014")
    with pytest.raises(desert.DecodeError) as e:
        desert.Schema(REC).decode(data)
    assert e.value.kind == "InputEndedUnexpectedly"
    assert e.value.offset == 11


def test_trailing_bytes():
    s = desert.Schema({"desert_schema": 1, "root": "i32"})
    with pytest.raises(desert.DecodeError) as e:
        s.decode(b"\x00\x00\x00\x05\xff")
    assert e.value.kind == "TrailingBytes" and e.value.offset == 4 and e.value.status is None
    assert s.decode(b"\x00\x00\x00\x05\xff", allow_trailing=True) == 5


def golden_pairs():
    for p in sorted(glob.glob(os.path.join(GOLDEN, "*.schema.json"))):
        name = p[:-len(".schema.json")]
        if os.path.exists(name + ".bin"):
            yield os.path.basename(name)


@pytest.mark.parametrize("name", list(golden_pairs()))
def test_every_truncation_fails_cleanly(name):
    schema = desert.Schema(open(os.path.join(GOLDEN, name + ".schema.json"), "rb").read())
    data = open(os.path.join(GOLDEN, name + ".bin"), "rb").read()
    for n in range(len(data)):
        with pytest.raises(desert.DecodeError) as e:
            schema.decode(data[:n])
        assert e.value.offset is not None and e.value.offset <= n
        assert e.value.status.startswith("DESERT_E_")


def test_truncated_fixed_width_is_input_ended():
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "i64"}})
    with pytest.raises(desert.DecodeError) as e:
        s.decode(bytes.fromhex("04" "0000000000000001" "000000"))
    assert e.value.kind == "InputEndedUnexpectedly"
    assert e.value.offset == 9 and e.value.path == "$[1]"


def test_huge_count_of_sized_elements():
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "i64"}})
    with pytest.raises(desert.DecodeError) as e:
        s.decode(b"\xfe\xff\xff\xff\x0f" + b"\x00" * 7)  # 2^31-1 elements claimed
    assert e.value.kind == "InputEndedUnexpectedly" and e.value.offset == 5


def test_huge_count_of_empty_elements_hits_the_node_budget():
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "unit"}},
                      max_values=1000)
    assert s.decode(b"\x14") == [None] * 10
    with pytest.raises(desert.DecodeError) as e:
        s.decode(b"\xfe\xff\xff\xff\x0f")
    assert e.value.status == "DESERT_E_LIMIT"


def test_huge_string_length():
    with pytest.raises(desert.DecodeError) as e:
        desert.Schema({"desert_schema": 1, "root": "string"}).decode(b"\xfe\xff\xff\xff\x0fab")
    assert e.value.kind == "InputEndedUnexpectedly"


def test_deep_nesting_decode():
    s = desert.Schema(TREE)
    one = bytes.fromhex("00" "0261" "02")  # a tree node with one child, then the child
    data = one * 5000 + bytes.fromhex("00" "0261" "00")
    with pytest.raises(desert.DecodeError) as e:
        s.decode(data)
    assert e.value.status == "DESERT_E_DEPTH"
    ok = one * 20 + bytes.fromhex("00" "0261" "00")
    v = s.decode(ok)
    depth = 0
    while v["children"]:
        v = v["children"][0]
        depth += 1
    assert depth == 20


def test_deep_nesting_encode():
    v = {"label": "a", "children": []}
    for _ in range(5000):
        v = {"label": "a", "children": [v]}
    with pytest.raises(desert.EncodeError) as e:
        desert.Schema(TREE).encode(v)
    assert e.value.status == "DESERT_E_DEPTH"


def test_random_bytes_never_crash():
    rng = random.Random(1234)
    schemas = [desert.Schema(open(os.path.join(GOLDEN, n + ".schema.json"), "rb").read())
               for n in golden_pairs()]
    outcomes = {"ok": 0, "error": 0}
    for i in range(3000):
        s = schemas[i % len(schemas)]
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        try:
            s.decode(data, allow_trailing=True)
            outcomes["ok"] += 1
        except desert.DecodeError as e:
            assert e.status.startswith("DESERT_E_") and e.offset is not None
            outcomes["error"] += 1
    assert outcomes["error"] > 0


def test_mutated_golden_bytes_never_crash():
    rng = random.Random(99)
    for name in golden_pairs():
        s = desert.Schema(open(os.path.join(GOLDEN, name + ".schema.json"), "rb").read())
        data = bytearray(open(os.path.join(GOLDEN, name + ".bin"), "rb").read())
        for _ in range(200):
            m = bytearray(data)
            for _ in range(rng.randrange(1, 4)):
                m[rng.randrange(len(m))] = rng.randrange(256)
            try:
                s.decode(bytes(m), allow_trailing=True)
            except desert.DecodeError:
                pass


NESTED = {"desert_schema": 1, "root": {"type": "record", "fields": [
    {"name": "a", "type": {"type": "list", "element": {"type": "record", "fields": [
        {"name": "x", "type": "i32"}, {"name": "e", "type": "E", "optional": True}]}}}]},
    "definitions": {"E": {"type": "enum", "constructors": [
        {"name": "A"}, {"name": "B", "fields": [{"name": "n", "type": "i8"}]},
        {"name": "T", "transient": True}]}}}


def test_wrong_python_type_names_the_path():
    s = desert.Schema(NESTED)
    with pytest.raises(desert.EncodeTypeError) as e:
        s.encode({"a": [{"x": 1}, {"x": "no"}]})
    assert e.value.path == "$.a[1].x"
    assert "expected int" in str(e.value) and "str" in str(e.value)
    assert isinstance(e.value, TypeError)


def test_out_of_range_and_structure_errors():
    s = desert.Schema(NESTED)
    with pytest.raises(desert.EncodeError) as e:
        s.encode({"a": [{"x": 1, "e": {"$case": "B", "n": 300}}]})
    assert e.value.path == "$.a[0].e.n" and not isinstance(e.value, TypeError)
    with pytest.raises(desert.EncodeError) as e:
        s.encode({"a": [{"y": 1}]})
    assert e.value.path == "$.a[0]" and "missing field 'x'" in str(e.value)
    with pytest.raises(desert.EncodeError) as e:
        s.encode({"a": [], "zzz": 1})
    assert "unknown field 'zzz'" in str(e.value)
    with pytest.raises(desert.EncodeError) as e:
        s.encode({"a": [{"x": 1, "e": {"$case": "Nope"}}]})
    assert e.value.status == "DESERT_E_INVALID_CONSTRUCTOR_NAME"
    with pytest.raises(desert.EncodeError) as e:
        s.encode({"a": [{"x": 1, "e": {"$case": "T"}}]})
    assert e.value.status == "DESERT_E_SERIALIZING_TRANSIENT"
    with pytest.raises(desert.EncodeTypeError):
        s.encode({"a": [{"x": True}]})  # bool is not an int here
    with pytest.raises(desert.EncodeTypeError):
        s.encode([])


def test_library_range_checks_keep_the_path():
    s = desert.Schema({"desert_schema": 1, "root": {"type": "record", "fields": [
        {"name": "d", "type": "local_date"}]}})
    with pytest.raises(desert.EncodeError) as e:
        s.encode({"d": {"year": 2024, "month": 13, "day": 1}})
    assert e.value.path == "$.d" and e.value.status == "DESERT_E_ARGUMENT"


def test_iterable_errors_are_chained():
    def gen():
        yield 1
        raise KeyError("boom")
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "i32"}})
    with pytest.raises(desert.EncodeError) as e:
        s.encode(gen())
    assert isinstance(e.value.__cause__, KeyError)


def test_schema_errors():
    with pytest.raises(desert.SchemaError):
        desert.Schema('{"desert_schema": 1, "root": "Nope"}')
    with pytest.raises(desert.SchemaError) as e:
        desert.Schema('{"desert_schema": 1,')
    assert "not JSON" in str(e.value)
    with pytest.raises(TypeError):
        desert.Schema(42)
