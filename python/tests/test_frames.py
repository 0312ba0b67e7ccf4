"""test_frames.py — desert.to_pandas and desert.dask.read_desert: a
DataFrame of a list of records, and a dask bag over 8 generated files on a
dask.distributed LocalCluster of 2 worker processes giving the same records as a
sequential loop over the files."""
import io

import pytest

import desert

pd = pytest.importorskip("pandas")

ROWS = {"desert_schema": 1, "root": {"type": "list", "element": {
    "type": "record", "name": "Row",
    "fields": [{"name": "id", "type": "i64"}, {"name": "name", "type": "dedup_string"},
               {"name": "score", "type": "f64"},
               {"name": "note", "type": "string", "optional": True}]}}}


def rows(start, n):
    return [{"id": i, "name": "name-%d" % (i % 7), "score": i / 4,
             "note": None if i % 3 else "n%d" % i} for i in range(start, start + n)]


def test_to_pandas_bytes_file_and_path(tmp_path):
    s = desert.Schema(ROWS)
    data = s.encode(rows(0, 50))
    df = desert.to_pandas(s, data)
    assert list(df.columns) == ["id", "name", "score", "note"]
    assert len(df) == 50 and df["id"].sum() == sum(range(50))
    assert df.loc[3, "note"] == "n3" and df.loc[4, "note"] is None
    assert df.loc[10, "score"] == 2.5
    p = tmp_path / "rows.bin"
    p.write_bytes(data)
    assert desert.to_pandas(ROWS, str(p)).equals(df)
    assert desert.to_pandas(s, io.BytesIO(data)).equals(df)
    assert len(desert.to_pandas(s, s.encode([]))) == 0


def write_files(tmp_path, s, count=8, per=500):
    paths, expected = [], []
    for k in range(count):
        p = tmp_path / ("part-%d.bin" % k)
        with open(p, "wb") as f:
            s.iter_encode(rows(k * per, per), f)
        paths.append(str(p))
    for p in paths:  # the sequential loop
        with open(p, "rb") as f:
            expected.extend(s.iter_decode(f))
    return paths, expected


def test_read_desert_partitions(tmp_path):
    dask_bag = pytest.importorskip("dask.bag")
    import desert.dask as ddk
    s = desert.Schema(ROWS)
    paths, expected = write_files(tmp_path, s)
    bag = ddk.read_desert(paths, s)
    assert isinstance(bag, dask_bag.Bag)
    assert bag.npartitions == 8
    assert bag.compute(scheduler="sync") == expected
    assert ddk.read_desert(str(tmp_path / "part-*.bin"), ROWS).count().compute(
        scheduler="sync") == len(expected)


def test_read_desert_on_a_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    # worker processes import desert from the same path (PYTHONPATH or install)
    import desert.dask as ddk
    s = desert.Schema(ROWS)
    paths, expected = write_files(tmp_path, s)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        got = ddk.read_desert(paths, s).compute()
        total = ddk.read_desert(paths, s).map(lambda r: r["id"]).sum().compute()
    assert got == expected
    assert total == sum(r["id"] for r in expected)
