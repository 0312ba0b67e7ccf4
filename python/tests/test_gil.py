"""test_gil.py — the GIL is released around the pure C work on large items
(python/README.md, "The GIL and threads") and only there: the extension's
release counter (desert._desert._gil_release_count) moves for large strings,
byte blocks and compressed blocks, decoding and encoding, and stays put for
small ones, also inside a large input; values built on either side of the
threshold are checked against bytes written here from docs/format.md
(var_u32 §3.1, zig-zag lengths §5.1, byte blocks §6.1, compressed blocks §16,
with Python's zlib); two threads decoding large compressed blocks get the
right values; the stream calls, whose writer calls the file object when its
buffer fills, keep the GIL for large items too."""
import io
import threading
import zlib

import pytest

import desert
from desert import _desert

BIG = 256 << 10  # well above the 64 KiB threshold
SMALL = 1 << 10


def released():
    return _desert._gil_release_count()


def var_u32(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def count(n):
    """A collection's known-size count: zig-zag var_i32 (§6.2)."""
    return var_u32(2 * n)


def string_bytes(s):
    """A plain string: zig-zag var_i32 of the UTF-8 length, then the bytes."""
    u = s.encode("utf-8")
    return var_u32(2 * len(u)) + u


def zlib_block(payload):
    """desert-scala's compressed block: lengths then a zlib stream (§16.2)."""
    if not payload:
        return b"\x00"
    z = zlib.compress(payload, 1)
    return var_u32(len(payload)) + var_u32(len(z)) + z


def raw_block(payload):
    """desert-rust's compressed block: lengths then raw DEFLATE (§16.1)."""
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    z = c.compress(payload) + c.flush()
    return var_u32(len(payload)) + var_u32(len(z)) + z


def schema(root):
    return desert.Schema({"desert_schema": 1, "root": root})


def payload(n, seed=1):
    # compressible but not constant, so the stream has real work in it
    return bytes((i * seed + (i >> 7)) & 0xFF for i in range(n))


TEXTS = {
    "ascii": "abcdefgh" * (BIG // 8),
    "latin1": "caf\u00e9 " * (BIG // 5),
    "bmp": "\u20ac\u4e2d" * (BIG // 6),
    "astral": "a\U0001F600" * (BIG // 5),
}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_large_string_decodes_without_the_gil(name):
    text = TEXTS[name]
    data = string_bytes(text)
    s = schema("string")
    before = released()
    got = s.decode(data)
    assert released() > before
    assert got == text and type(got) is str
    # the same value as CPython's own decoder makes (kind and all)
    assert got.encode("utf-8") == text.encode("utf-8")
    assert hash(got) == hash(text)


def test_large_string_field_is_validated_without_the_gil_once_seen():
    doc = {"desert_schema": 1, "root": {"type": "list", "element": "R"}, "definitions": {
        "R": {"type": "record", "name": "R", "fields": [
            {"name": "id", "type": "i32"}, {"name": "text", "type": "string"}]}}}
    s = desert.Schema(doc)
    text = TEXTS["bmp"]
    # list of 3 records, each version 0: 00, i32 big-endian, the string
    data = count(3) + b"".join(b"\x00" + i.to_bytes(4, "big") + string_bytes(text)
                                 for i in range(3))
    assert s.decode(data) == [{"id": i, "text": text} for i in range(3)]
    # from the first large string on, each later one is read (validated),
    # measured and filled in two releases
    before = released()
    assert s.decode(data) == [{"id": i, "text": text} for i in range(3)]
    assert released() - before >= 6


def test_large_invalid_string_is_the_same_error():
    body = ("x" * BIG).encode() + b"\xc3\x28"
    data = var_u32(2 * len(body)) + body
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "string"}})
    ok = string_bytes("y" * BIG)
    # The reader-driven decoder (the raw-byte one, tried first, is off
    # here): the first large string is read with the GIL (nothing has
    # announced one yet), then measured and filled without it: 2 releases.
    # The second is read without the GIL, since its site has seen a large
    # one, and the reader's error comes from there: 1 more; the tree codec
    # then decodes the input again for the error, without the GIL: 1 more.
    was = _desert._set_flat_decoder(0)
    try:
        before = released()
        with pytest.raises(desert.DecodeError) as e:
            s.decode(count(2) + ok + data)
        assert released() - before == 4
    finally:
        _desert._set_flat_decoder(was)
    assert e.value.kind == "FailedToDecodeString"
    assert e.value.offset == len(count(2)) + len(ok) + len(var_u32(2 * len(body)))
    assert e.value.path == "$[1]"
    # The raw-byte decoder validates and measures the first string in one
    # release, fills it in another, finds the second invalid in a third
    # and declines; the error is then the same one, found as above.
    before = released()
    with pytest.raises(desert.DecodeError) as again:
        s.decode(count(2) + ok + data)
    assert released() - before == 7
    assert (again.value.kind, again.value.offset, again.value.path) == \
        (e.value.kind, e.value.offset, e.value.path)


def test_large_bytes_both_ways():
    s = schema("bytes")
    blob = payload(BIG)
    wire = var_u32(len(blob)) + blob
    before = released()
    assert s.decode(wire) == blob
    mid = released()
    assert mid > before
    assert s.encode(blob) == wire
    assert released() > mid


@pytest.mark.parametrize("flavour,block", [("zlib", zlib_block), ("raw", raw_block)])
def test_large_compressed_block_decodes_without_the_gil(flavour, block):
    s = schema({"type": "compressed", "flavour": flavour})
    blob = payload(BIG, 3)
    before = released()
    assert s.decode(block(blob)) == blob
    assert released() > before


def test_large_compressed_block_encodes_without_the_gil():
    s = schema({"type": "compressed", "flavour": "zlib"})
    blob = payload(BIG, 5)
    before = released()
    data = s.encode(blob)
    assert released() > before
    # the block is a valid zlib stream of the payload (§16.2)
    n = len(var_u32(len(blob)))
    assert data[:n] == var_u32(len(blob))
    rest = data[n:]
    m = 1
    while rest[m - 1] & 0x80:
        m += 1
    assert zlib.decompress(rest[m:]) == blob


def test_small_items_keep_the_gil():
    s = schema({"type": "compressed", "flavour": "zlib"})
    blob = payload(SMALL)
    before = released()
    assert s.decode(zlib_block(blob)) == blob
    assert s.decode(s.encode(blob)) == blob
    assert schema("string").decode(string_bytes("z" * SMALL)) == "z" * SMALL
    assert schema("bytes").decode(var_u32(SMALL) + blob) == blob
    assert released() == before


def test_large_input_of_small_items_keeps_the_gil():
    # 30,000 short strings: over 64 KiB in all, no item large enough
    s = schema({"type": "list", "element": "string"})
    items = ["item-%d-\u00e9" % i for i in range(30000)]
    data = count(len(items)) + b"".join(string_bytes(x) for x in items)
    assert len(data) > (64 << 10)
    before = released()
    assert s.decode(data) == items
    assert released() == before


def test_threads_decode_large_compressed_blocks():
    s = schema({"type": "list", "element": {"type": "compressed", "flavour": "zlib"}})
    blobs = [payload(BIG * 2, k) for k in (3, 5, 7, 11)]
    data = count(len(blobs)) + b"".join(zlib_block(b) for b in blobs)
    results, errors = [], []

    def work():
        try:
            for _ in range(10):
                results.append(s.decode(data) == blobs)
        except Exception as e:  # reported below, with the thread's error
            errors.append(e)

    before = released()
    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert results == [True] * 20
    assert released() - before >= 20 * len(blobs)


@pytest.mark.parametrize("element,value", [
    ("bytes", payload(BIG)),
    ("string", TEXTS["bmp"]),
    ({"type": "compressed", "flavour": "zlib"}, payload(BIG, 7)),
])
def test_streams_keep_the_gil_for_large_items(element, value):
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": element}})
    f = io.BytesIO()
    before = released()
    # a small buffer: the sink (f.write) is called while the item is written
    n = s.iter_encode([value, value], f, buffer_size=4096)
    assert released() == before
    data = f.getvalue()
    assert n == len(data)
    if element == "bytes":
        assert data == count(2) + (var_u32(len(value)) + value) * 2
    elif element == "string":
        assert data == count(2) + string_bytes(value) * 2
    assert list(s.iter_decode(io.BytesIO(data), buffer_size=4096)) == [value, value]
    assert released() == before
