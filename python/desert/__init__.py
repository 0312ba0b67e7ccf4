"""desert — Python bindings of libdesert, the C library for the desert binary
serialization format (Scala vigoo/desert, Rust vigoo/desert-rust).

    import desert
    schema = desert.Schema(open("order.schema.json").read())
    data = schema.encode(value)
    value = schema.decode(data)

Values are native Python objects (python/README.md has the mapping table).
desert.to_pandas(schema, data_or_file) builds a DataFrame from a list of
records; desert.dask.read_desert(paths, schema) a dask bag (import
desert.dask; it needs dask).
"""
from ._desert import (DecodeError, DesertError, EncodeError, EncodeTypeError, Schema,
                      SchemaError, library_version)
from .frames import to_pandas

__all__ = ["Schema", "DesertError", "SchemaError", "DecodeError", "EncodeError",
           "EncodeTypeError", "to_pandas", "library_version"]
__version__ = "0.1.0"
