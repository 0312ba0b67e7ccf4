"""test_number_lists.py — lists of fixed-width numbers, which decode reads
in one view when the whole run is there (direct.c dec_bulk): the values
equal those of the element-by-element path (the same list in the
unknown-size form, which never takes the run), at every width and edge,
and inputs the run must not take (cut short, over the value budget) fail
as the element path does: at the element that fails."""
import math
import struct

import pytest

import desert

# kind -> (struct code, edge values): the wire is big-endian
KINDS = {
    "i16": (">h", [0, 1, -1, 2**15 - 1, -2**15, 1234]),
    "u16": (">H", [0, 1, 2**16 - 1, 2**15, 4321]),
    "i32": (">i", [0, -1, 2**31 - 1, -2**31, 77777]),
    "u32": (">I", [0, 2**32 - 1, 2**31, 99]),
    "i64": (">q", [0, -1, 2**63 - 1, -2**63, 2**40 + 3]),
    "u64": (">Q", [0, 2**64 - 1, 2**63, 12345678901]),
    "f32": (">f", [0.0, -0.0, 1.5, -2.25, float("inf"), float("-inf"), 3.4028234663852886e38]),
    "f64": (">d", [0.0, -0.0, 1e-300, -1.5e300, float("inf"), 0.1]),
}


def schema(kind, form=None):
    lst = {"type": "list", "element": kind}
    if form:
        lst["form"] = form
    return desert.Schema({"desert_schema": 1, "root": lst})


def same(a, b):
    """Equal with -0.0 and NaN told apart by their bits."""
    if isinstance(a, float):
        return isinstance(b, float) and struct.pack(">d", a) == struct.pack(">d", b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_run_equals_the_element_path(kind):
    code, edges = KINDS[kind]
    values = (edges * 300)[:1500]
    data = schema(kind).encode(values)
    # the known-size form: a count, then the elements as struct packs them
    assert data[len(data) - len(values) * struct.calcsize(code):] == b"".join(
        struct.pack(code, v) for v in values)
    got = schema(kind).decode(data)
    # the unknown-size form (01 before each element, 00 at the end) takes
    # the element loop
    loose = schema(kind, "unknown")
    want = loose.decode(loose.encode(values))
    assert len(got) == len(want) == len(values)
    assert all(same(g, w) for g, w in zip(got, want))
    assert all(same(g, v) for g, v in zip(got, values)) or kind == "f32"


def test_nan_payloads_survive():
    bits = [0x7FF8000000000001, 0xFFF0000000000123, 0x7FF0000000000001]
    raw = b"".join(struct.pack(">Q", b) for b in bits)
    data = bytes([len(bits) << 1]) + raw
    got = schema("f64").decode(data)
    loose = schema("f64", "unknown")
    assert got == loose.decode(loose.encode(got))  # as the element path makes them
    assert schema("f64").encode(got) == data  # the payloads, not just NaN
    raw32 = struct.pack(">I", 0x7FC00001) + struct.pack(">I", 0xFF800002)
    got32 = schema("f32").decode(bytes([4]) + raw32)
    assert schema("f32").encode(got32) == bytes([4]) + raw32
    assert math.isnan(schema("f64").decode(bytes([2]) + struct.pack(">d", math.nan))[0])


@pytest.mark.parametrize("kind", ["i16", "u32", "i64", "f64"])
def test_cut_short_fails_at_the_element(kind):
    code, edges = KINDS[kind]
    w = struct.calcsize(code)
    values = (edges * 10)[:20]
    data = schema(kind).encode(values)
    head = len(data) - 20 * w
    for keep in (0, 1, 7, 19):
        cut = data[:head + keep * w + w // 2]  # element `keep` is half there
        with pytest.raises(desert.DecodeError) as e:
            schema(kind).decode(cut)
        assert e.value.kind == "InputEndedUnexpectedly"
        assert e.value.offset == head + keep * w
        assert e.value.path == "$[%d]" % keep


def test_value_budget_applies_to_runs():
    doc = {"desert_schema": 1, "root": {"type": "list", "element": "i64"}}
    data = desert.Schema(doc).encode(list(range(100)))
    # (the budget counts the list itself and its capacity as the tree codec
    # grows it: 1 + 128 here)
    assert desert.Schema(doc, max_values=129).decode(data) == list(range(100))
    with pytest.raises(desert.DecodeError) as e:
        desert.Schema(doc, max_values=128).decode(data)
    assert e.value.status == "DESERT_E_LIMIT" and e.value.path == "$"
    with pytest.raises(desert.DecodeError) as e:
        desert.Schema(doc, max_values=50).decode(data)  # the run is over budget
    assert e.value.status == "DESERT_E_LIMIT" and e.value.path == "$"  # as element by element


def test_runs_inside_records_and_streams(tmp_path):
    doc = {"desert_schema": 1, "definitions": {"Row": {"type": "record", "fields": [
        {"name": "name", "type": "string"},
        {"name": "samples", "type": {"type": "list", "element": "f64"}},
        {"name": "ids", "type": {"type": "set", "element": "u32"}}]}},
        "root": {"type": "list", "element": "Row"}}
    rows = [{"name": "r%d" % i, "samples": [i * 0.5, -i, 1e9 + i], "ids": [i, i + 1, i + 7]}
            for i in range(200)]
    s = desert.Schema(doc)
    data = s.encode(rows)
    assert s.decode(data) == rows
    path = tmp_path / "rows.bin"
    path.write_bytes(data)
    with open(path, "rb") as f:
        assert list(s.iter_decode(f, buffer_size=4096)) == rows


def ref_decode(code, data):
    """An independent reader of a known-size list of one struct code:
    ("ok", values) or ("err", offset, path) as docs/format.md §3 and §6.2
    say (var_i32 count, zigzag; each element big-endian)."""
    pos, shift, u = 0, 0, 0
    while True:
        if pos >= len(data):
            return ("err", 0, "$")
        b = data[pos]
        pos += 1
        u |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
        if shift > 28:
            return None  # an over-long varint: not this test's business
    count = (u >> 1) ^ -(u & 1)
    if count < 0:
        return None
    w = struct.calcsize(code)
    out = []
    for i in range(count):
        if pos + w > len(data):
            return ("err", pos, "$[%d]" % i)
        out.append(struct.unpack(code, data[pos:pos + w])[0])
        pos += w
    if pos != len(data):
        return None  # trailing bytes: another error kind
    return ("ok", out)


@pytest.mark.parametrize("kind", ["i16", "u16", "i32", "u64", "f64"])
def test_mutated_lists_against_a_reference(kind):
    import random
    code, edges = KINDS[kind]
    rng = random.Random(kind)
    s = schema(kind)
    checked = 0
    for _ in range(400):
        data = bytearray(s.encode([rng.choice(edges) for _ in range(rng.randrange(0, 40))]))
        op = rng.randrange(3)
        if op == 0 and data:
            data = data[:rng.randrange(len(data))]  # cut short
        elif op == 1 and data:
            data[0] = rng.randrange(256)  # another count
        elif data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        want = ref_decode(code, bytes(data))
        if want is None:
            continue
        checked += 1
        if want[0] == "ok":
            got = s.decode(bytes(data))
            assert len(got) == len(want[1])
            assert all(same(g, float(v)) if kind == "f64" and not math.isnan(v) else
                       (isinstance(g, dict) or math.isnan(g)) if kind == "f64" else g == v
                       for g, v in zip(got, want[1]))
        else:
            with pytest.raises(desert.DecodeError) as e:
                s.decode(bytes(data))
            assert (e.value.offset, e.value.path) == want[1:]
    assert checked > 200
