"""test_stream.py — Schema.iter_decode / iter_encode: the same values and
bytes as the whole-value calls, both collection forms, file objects with
read() only, errors of the file and of the data, and memory that stays
bounded while a list far larger than the growth limit streams through."""
import io
import os

import pytest

import desert
from conftest import GOLDEN

ROW = {"desert_schema": 1, "root": {"type": "list", "element": {
    "type": "record", "fields": [{"name": "id", "type": "i64"},
                                 {"name": "name", "type": "string"},
                                 {"name": "tags", "type": {"type": "list", "element": "string"}},
                                 {"name": "score", "type": "f64", "optional": True}]}}}


def golden(name):
    with open(os.path.join(GOLDEN, name + ".schema.json"), "rb") as f:
        s = desert.Schema(f.read())
    with open(os.path.join(GOLDEN, name + ".bin"), "rb") as f:
        return s, f.read()


@pytest.mark.parametrize("name", ["oplog_list", "golem_oplog_list"])
def test_stream_equals_whole(name):
    s, data = golden(name)
    whole = s.decode(data)
    assert list(s.iter_decode(io.BytesIO(data))) == whole
    assert list(s.iter_decode(io.BytesIO(data), buffer_size=64)) == whole
    out = io.BytesIO()
    n = s.iter_encode(whole, out)
    assert out.getvalue() == data and n == len(data)


class ReadOnly:
    """A file object with read() only, returning a few bytes at a time."""

    def __init__(self, data, step=3):
        self.data, self.pos, self.step = data, 0, step

    def read(self, n):
        chunk = self.data[self.pos:self.pos + min(n, self.step)]
        self.pos += len(chunk)
        return chunk


def test_read_only_file_and_unknown_form():
    s = desert.Schema(ROW)
    rows = [{"id": i, "name": "n%d" % i, "tags": ["a"] * (i % 3), "score": None if i % 2 else 0.5}
            for i in range(100)]
    out = io.BytesIO()
    s.iter_encode((r for r in rows), out)  # no len(): unknown-size form
    data = out.getvalue()
    assert data[0] == 0x01 and data[-1] == 0x00
    assert data != s.encode(rows)
    assert s.decode(data) == rows
    assert list(s.iter_decode(ReadOnly(data))) == rows


def test_truncated_stream_same_offset_as_whole():
    s, data = golden("oplog_list")
    cut = data[:len(data) * 2 // 3]
    with pytest.raises(desert.DecodeError) as whole:
        s.decode(cut)
    with pytest.raises(desert.DecodeError) as streamed:
        list(s.iter_decode(io.BytesIO(cut), buffer_size=64))
    assert streamed.value.kind == whole.value.kind == "InputEndedUnexpectedly"
    assert streamed.value.offset == whole.value.offset


def test_trailing_bytes_in_stream():
    s = desert.Schema({"desert_schema": 1, "root": {"type": "list", "element": "i32"}})
    data = s.encode([1, 2]) + b"\x07"
    with pytest.raises(desert.DecodeError) as e:
        list(s.iter_decode(io.BytesIO(data)))
    assert e.value.kind == "TrailingBytes"
    assert list(s.iter_decode(io.BytesIO(data), allow_trailing=True)) == [1, 2]


class Failing(io.RawIOBase):
    def __init__(self, data):
        self.data, self.calls = data, 0

    def readable(self):
        return True

    def readinto(self, b):
        self.calls += 1
        if self.calls > 1:
            raise OSError("disk on fire")
        n = min(len(b), 10)
        b[:n] = self.data[:n]
        return n


def test_file_errors_propagate():
    s, data = golden("oplog_list")
    with pytest.raises(OSError, match="disk on fire"):
        list(s.iter_decode(Failing(data), buffer_size=64))

    class BadSink:
        def write(self, b):
            raise OSError("full")
    with pytest.raises(OSError, match="full"):
        s.iter_encode(s.decode(data), BadSink(), buffer_size=64)


def test_encode_errors_name_the_element():
    s = desert.Schema(ROW)
    with pytest.raises(desert.EncodeTypeError) as e:
        s.iter_encode([{"id": 1, "name": "a", "tags": []}, {"id": "x", "name": "b", "tags": []}],
                      io.BytesIO())
    assert e.value.path == "$[1].id"


def test_collection_constraints_checked_at_the_end():
    for root, data in [({"type": "list", "element": "i32", "non_empty": True}, b"\x00"),
                       ({"type": "list", "element": "i32", "length": 2}, b"\x02\x00\x00\x00\x01")]:
        s = desert.Schema({"desert_schema": 1, "root": root})
        with pytest.raises(desert.DecodeError) as whole:
            s.decode(data)
        with pytest.raises(desert.DecodeError) as streamed:
            list(s.iter_decode(io.BytesIO(data)))
        assert streamed.value.status == whole.value.status == "DESERT_E_INVALID_VALUE"
        assert streamed.value.offset == whole.value.offset == 0


def test_not_a_list_root():
    with pytest.raises(TypeError):
        desert.Schema({"desert_schema": 1, "root": "i32"}).iter_decode(io.BytesIO(b""))


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def test_bounded_memory(tmp_path):
    """~100 MB of rows stream out and back in while the RSS grows by far less
    than the file (a whole decode would need several times its size)."""
    s = desert.Schema(ROW)
    n = 600_000
    path = tmp_path / "big.bin"

    def rows():
        for i in range(n):
            yield {"id": i, "name": "row-%d-%s" % (i, "x" * 100), "tags": ["t1", "t2"],
                   "score": i * 0.5}
    base = rss_mb()
    with open(path, "wb") as f:
        written = s.iter_encode(rows(), f)
    assert written == os.path.getsize(path) > 64 << 20
    peak, count, total = base, 0, 0
    with open(path, "rb") as f:
        for r in s.iter_decode(f):
            count += 1
            total += r["id"]
            if count % 50_000 == 0:
                peak = max(peak, rss_mb())
    assert count == n and total == n * (n - 1) // 2
    assert peak - base < 48, (base, peak)


BLOBS = {"desert_schema": 1, "root": {"type": "list", "element": "bytes"}}


def test_max_window_bounds_one_element():
    s = desert.Schema(BLOBS)
    data = s.encode([b"a", b"x" * (1 << 20), b"b"])
    with pytest.raises(desert.DecodeError) as e:
        list(s.iter_decode(io.BytesIO(data), buffer_size=4096, max_window=1 << 16))
    assert e.value.status == "DESERT_E_LIMIT" and e.value.path == "$[1]"
    assert "max_window" in str(e.value)
    assert list(s.iter_decode(io.BytesIO(data), buffer_size=4096, max_window=2 << 20)) == \
        [b"a", b"x" * (1 << 20), b"b"]
    with pytest.raises(ValueError):
        s.iter_decode(io.BytesIO(data), max_window=0)


def test_element_over_64_mib_needs_a_larger_max_window():
    s = desert.Schema(BLOBS)
    big = b"\x07" * ((64 << 20) + 4096)
    data = s.encode([big])
    with pytest.raises(desert.DecodeError) as e:  # the documented default: 64 MiB
        list(s.iter_decode(io.BytesIO(data)))
    assert e.value.status == "DESERT_E_LIMIT" and "max_window" in str(e.value)
    got = list(s.iter_decode(io.BytesIO(data), max_window=128 << 20))
    assert len(got) == 1 and got[0] == big
    del got
    got = list(s.iter_decode(io.BytesIO(data), max_window=1 << 62))  # effectively unbounded
    assert got[0] == big
