"""desert.dask — desert files as a dask bag (needs dask; import desert.dask).

read_desert(paths, schema) gives a dask.bag.Bag with one partition per file:
each partition streams its file with Schema.iter_decode, so a worker holds
one file's values, never the raw bytes of it all at once twice. The schema
is pickled as its document, so the bag also runs on dask.distributed
clusters with worker processes.
"""
import glob
import os

import dask.bag as db
from dask import delayed

from ._desert import Schema


def _read_file(path, schema_doc):
    schema = Schema(schema_doc)
    with open(path, "rb") as f:
        return list(schema.iter_decode(f))


def read_desert(paths, schema):
    """paths: a path, a glob pattern or a list of paths, each file holding one
    encoded list (the schema's root must be a list or a set). schema: a
    Schema or a schema document (str, bytes or dict). Returns a dask bag of
    the elements, one partition per file, in the order of paths (sorted
    when a glob pattern)."""
    if isinstance(paths, (str, os.PathLike)):
        text = os.fspath(paths)
        paths = sorted(glob.glob(text)) if any(c in text for c in "*?[") else [text]
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise FileNotFoundError("read_desert: no files")
    doc = schema.document if isinstance(schema, Schema) else schema
    Schema(doc)  # fail here, not on a worker, when the document is invalid
    parts = [delayed(_read_file)(p, doc) for p in paths]
    return db.from_delayed(parts)
