"""desert.frames — a list of records to a pandas DataFrame (desert.to_pandas).

The rows are streamed (Schema.iter_decode) when given a file or a path, so
the encoded list need not fit in memory twice; the DataFrame itself does.
"""
import io
import os

from ._desert import Schema


def _as_schema(schema):
    return schema if isinstance(schema, Schema) else Schema(schema)


def to_pandas(schema, data_or_file, columns=None):
    """Decodes a list of records into a pandas.DataFrame, one row per record
    and one column per field (in declaration order; values as decode gives
    them). data_or_file: bytes-like, a binary file object or a path.
    schema: a Schema or a schema document whose root is a list (or set) of
    records."""
    import pandas as pd

    schema = _as_schema(schema)
    if isinstance(data_or_file, (str, os.PathLike)):
        with open(data_or_file, "rb") as f:
            rows = list(schema.iter_decode(f))
    elif isinstance(data_or_file, (bytes, bytearray, memoryview)):
        rows = list(schema.iter_decode(io.BytesIO(data_or_file)))
    else:
        rows = list(schema.iter_decode(data_or_file))
    if rows and not isinstance(rows[0], dict):
        raise TypeError("to_pandas needs a list of records (dicts), got %s"
                        % type(rows[0]).__name__)
    if columns is None and rows:
        columns = list(rows[0].keys())
    return pd.DataFrame.from_records(rows, columns=columns)
