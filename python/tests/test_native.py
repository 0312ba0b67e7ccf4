"""test_native.py — the native mapping of python/README.md, value by value,
with bytes checked against docs/schema.md's examples where it has them."""
import datetime as dt
import threading
import uuid
from decimal import Decimal

import pytest

import desert


def S(root, **defs):
    doc = {"desert_schema": 1, "root": root}
    if defs:
        doc["definitions"] = defs
    return desert.Schema(doc)


def test_doc_example_point_list():
    s = desert.Schema('{"desert_schema":1,"definitions":{"Point":{"type":"record","fields":'
                      '[{"name":"x","type":"i32"},{"name":"y","type":"i32"}]}},'
                      '"root":{"type":"list","element":"Point"}}')
    data = s.encode([{"x": 1, "y": 2}])
    assert data == bytes.fromhex("02" "00" "00000001" "00000002")
    assert s.decode(data) == [{"x": 1, "y": 2}]
    assert s.root_kind == "list"


def test_doc_example_tuple_of_natives():
    # docs/schema.md §11.2: uuid, bytes, bigint x2, duration, map
    s = S({"type": "tuple", "elements": ["uuid", "bytes", "bigint", "bigint", "duration",
                                        {"type": "map", "key": "i32", "value": "bool"}]})
    value = (uuid.UUID("D90C4285-544D-424D-885C-3940FE00883D"), b"\xab\xcd",
             12345678901234567890, -1, dt.timedelta(seconds=1, microseconds=0), {2: True, 1: False})
    expected = bytes.fromhex("00d90c4285544d424d885c3940fe00883d02abcd0900ab54a98ceb1f0ad201ff"
                             "000000000000000100000000" "04000000000201000000000100")
    # the example's duration has 5 nanoseconds, which timedelta cannot hold: dict form
    value5 = value[:4] + ({"seconds": 1, "nanos": 5},) + value[5:]
    assert s.encode(value5) == bytes.fromhex(
        "00d90c4285544d424d885c3940fe00883d02abcd0900ab54a98ceb1f0ad201ff"
        "000000000000000100000005" "04000000000201000000000100")
    back = s.decode(s.encode(value5))
    assert back[4] == {"seconds": 1, "nanos": 5}
    assert back[5] == {2: True, 1: False} and list(back[5]) == [2, 1]
    assert s.encode(value) == expected
    assert s.decode(expected)[4] == dt.timedelta(seconds=1)


def test_ints_of_every_width():
    for kind, lo, hi in [("i8", -128, 127), ("i16", -2**15, 2**15 - 1), ("i32", -2**31, 2**31 - 1),
                         ("i64", -2**63, 2**63 - 1), ("u8", 0, 255), ("u64", 0, 2**64 - 1),
                         ("var_u32", 0, 2**32 - 1), ("var_i32", -2**31, 2**31 - 1)]:
        s = S(kind)
        for v in (lo, hi):
            assert s.decode(s.encode(v)) == v
        for v in (lo - 1, hi + 1):
            with pytest.raises(desert.EncodeError):
                s.encode(v)
    big = -(2**200) + 12345
    assert S("bigint").decode(S("bigint").encode(big)) == big


def test_bigint_bytes():
    s = S("bigint")
    # a byte block (var_u32 length, as "-1" -> 01 ff in docs/schema.md §11.2) of
    # the two's complement big-endian form, shortest
    assert s.encode(0) == bytes.fromhex("0100")
    assert s.encode(-1) == bytes.fromhex("01ff")
    assert s.encode(128) == bytes.fromhex("020080")
    assert s.encode(-129) == bytes.fromhex("02ff7f")


def test_floats_and_nan_payloads():
    s = S({"type": "tuple", "elements": ["f32", "f64", "f64"]})
    v = s.decode(s.encode((0.1, float("nan"), {"f64_bits": "7FF0000000000001"})))
    assert v[0] == pytest.approx(0.1, rel=1e-7) and v[1] != v[1]
    assert v[2] == {"f64_bits": "7ff0000000000001"}
    with pytest.raises(desert.EncodeError):
        S("f32").encode(1e39)


def test_decimals():
    s = S({"type": "tuple", "elements": ["bigdecimal", "bigdecimal_binary"]})
    v = (Decimal("-12.50"), Decimal("1.000E-7"))
    back = s.decode(s.encode(v))
    assert back == v and back[1].as_tuple() == v[1].as_tuple()
    assert back[0].as_tuple() == v[0].as_tuple()
    with pytest.raises(desert.EncodeError):
        s.encode((Decimal("NaN"), Decimal(1)))
    # bigdecimal_binary bytes: i64 scale then the unscaled bigint
    assert S("bigdecimal_binary").encode(Decimal("-123.45")) == \
        bytes.fromhex("0000000000000002" "02cfc7")


def test_maps_dict_or_pairs():
    s = S({"type": "map", "key": {"type": "list", "element": "i32"}, "value": "string"})
    v = [([1, 2], "a"), ([3], "b")]
    assert s.decode(s.encode(v)) == v  # unhashable keys: pairs
    dup = S({"type": "map", "key": "string", "value": "i32"})
    data = dup.encode([("a", 1), ("a", 2)])
    assert dup.decode(data) == [("a", 1), ("a", 2)]  # duplicates kept: pairs
    assert dup.decode(dup.encode({"x": 1, "y": 2})) == {"x": 1, "y": 2}


def test_options_either_try_enum():
    s = S({"type": "list", "element": {"type": "option", "inner": {"type": "option",
                                                                    "inner": "i32"}}})
    v = [None, {"some": None}, {"some": 5}]
    assert s.encode(v) == bytes.fromhex("06" "00" "0100" "010100000005")  # §11.3
    assert s.decode(s.encode(v)) == v
    e = S({"type": "either", "left": "string", "right": "i32"})
    assert e.decode(e.encode({"right": 3})) == {"right": 3}
    en = S({"type": "list", "element": {"type": "enum", "name": "Event", "constructors": [
        {"name": "Started"}, {"name": "Message", "fields": [{"name": "text", "type": "string"}]},
        {"name": "Cached", "transient": True},
        {"name": "Moved", "fields": [{"name": "x", "type": "i32"}, {"name": "y", "type": "i32"}]},
        {"name": "Raw", "type": "string"}]}})
    v = [{"$case": "Message", "text": "hi"}, {"$case": "Started"}, {"$case": "Moved", "x": 1, "y": 2},
         {"$case": "Raw", "value": "z"}]
    data = en.encode(v)  # docs/schema.md §6.4
    assert data == bytes.fromhex("08" "000100046869" "000000" "0002000000000100000002" "0003027a")
    assert en.decode(data) == v


def test_record_optional_and_transient():
    # docs/schema.md §11.6
    s = S({"type": "record", "fields": [{"name": "a", "type": "i32"},
                                        {"name": "b", "type": "string", "optional": True},
                                        {"name": "c", "type": "i32", "transient": True,
                                         "default": 7}]})
    data = s.encode({"c": "not checked", "a": 1})
    assert data == bytes.fromhex("00" "00000001" "00")
    assert s.decode(data) == {"a": 1, "b": None, "c": 7}
    assert list(s.decode(data)) == ["a", "b", "c"]


def test_dates_and_times():
    tz = dt.timezone(dt.timedelta(hours=-5))
    s = S({"type": "tuple", "elements": ["local_date", "local_time", "local_date_time",
                                        "offset_date_time", "instant", "offset_time",
                                        "duration"]})
    v = (dt.date(2024, 6, 22), dt.time(9, 30, 5, 125), dt.datetime(2000, 2, 29, 23, 59, 59),
         dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=tz),
         dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=dt.timezone.utc),
         dt.time(1, 2, 3, tzinfo=tz), dt.timedelta(days=-1, seconds=5, microseconds=7))
    assert s.decode(s.encode(v)) == v
    # an instant is UTC: any aware datetime encodes as the same moment
    i = S("instant")
    assert i.encode(dt.datetime(2024, 1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=1)))) == \
        i.encode(dt.datetime(2024, 1, 1, 0, tzinfo=dt.timezone.utc))
    assert i.encode({"seconds": 0, "nanos": 0}) == i.encode(
        dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc))
    with pytest.raises(desert.EncodeError):
        i.encode(dt.datetime(2024, 1, 1))  # naive
    with pytest.raises(desert.EncodeTypeError):
        S("local_date").encode(dt.datetime(2024, 1, 1))
    # docs/schema.md §11.8 example: year -1 does not fit datetime: dict form both ways
    o = S("offset_date_time")
    j = {"year": -1, "month": 12, "day": 31, "hour": 23, "minute": 59, "second": 59,
         "nano": 999999999, "offset": -64800}
    data = o.encode(j)
    assert data == bytes.fromhex("ffffffff0f0c1f173b3bff93ebdc03bff407")
    assert o.decode(data) == j


def test_bytes_like_and_iterables():
    s = S({"type": "tuple", "elements": ["bytes", {"type": "list", "element": "i32"},
                                        {"type": "set", "element": "string"}]})
    a = s.encode((b"ab", [1, 2], ["x"]))
    assert s.encode((bytearray(b"ab"), (i for i in (1, 2)), {"x"})) == a
    assert s.encode((memoryview(b"ab"), range(1, 3), ("x",))) == a


def test_strings_chars_and_surrogates():
    s = S({"type": "tuple", "elements": ["string", "char", "dedup_string", "dedup_string"]})
    v = ("h\u00e9\U0001f600", "\U0001f600", "again", "again")
    assert s.decode(s.encode(v)) == v
    with pytest.raises(desert.EncodeError):
        S("string").encode("\ud800")


def test_pickle_and_document():
    import pickle
    s = S({"type": "list", "element": "i32"})
    s2 = pickle.loads(pickle.dumps(s))
    assert s2.encode([1]) == s.encode([1]) and '"list"' in s2.document


def test_threads_share_a_schema():
    s = S({"type": "list", "element": {"type": "record", "fields": [
        {"name": "a", "type": "string"}, {"name": "b", "type": "i64"}]}})
    value = [{"a": "x" * (i % 50), "b": i} for i in range(20000)]  # > 64 KiB: no GIL
    data = s.encode(value)
    assert len(data) > 64 << 10
    errors = []

    def work():
        try:
            for _ in range(5):
                assert s.decode(data) == value
                assert s.encode(value) == data
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
