"""jsonmap.py — the native mapping of python/README.md written independently
of the C extension: turns a JSON value of the JSON value language
(docs/schema.md §11) into the Python value desert.Schema.decode must give, by
walking the schema document itself, and compares values strictly (types,
NaN, -0.0)."""
import datetime as dt
import math
import struct
import uuid
from decimal import Decimal

BUILTINS = {
    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "unit", "char",
    "char16", "string", "dedup_string", "var_u32", "var_i32", "bytes", "uuid", "duration",
    "instant", "bigint", "bigdecimal", "bigdecimal_binary", "compressed", "day_of_week", "month",
    "year", "month_day", "year_month", "period", "zone_offset", "zone_id", "local_date",
    "local_time", "local_date_time", "offset_time", "offset_date_time", "zoned_date_time",
    "rust_datetime_fixed_offset", "rust_datetime_tz"}
UTC = dt.timezone.utc
EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)


class Mapper:
    def __init__(self, doc):
        self.defs = doc.get("definitions", {})
        self.root = doc["root"]

    def resolve(self, t):
        """(kind, object form) of a type expression, following names and transparent."""
        seen = 0
        while True:
            if isinstance(t, str):
                if t in BUILTINS:
                    return t, {"type": t}
                t = self.defs[t]
            elif t["type"] == "transparent":
                t = t["inner"]
            else:
                return t["type"], t
            seen += 1
            assert seen < 1000

    def nullable(self, t):
        kind, _ = self.resolve(t)
        return kind in ("unit", "option")

    def native(self, t, j):
        kind, o = self.resolve(t)
        if kind in ("f32", "f64"):
            return float_native(kind, j)
        if kind in ("bytes", "compressed"):
            return bytes.fromhex(j)
        if kind == "uuid":
            return uuid.UUID(j)
        if kind == "bigint":
            return int(j)
        if kind == "bigdecimal":
            return Decimal(j)
        if kind == "bigdecimal_binary":
            return Decimal("%sE%d" % (j["unscaled"], -j["scale"]))
        if kind in TIME_KINDS:
            return TIME_KINDS[kind](j)
        if kind in ("list", "set"):
            return [self.native(o["element"], x) for x in j]
        if kind == "map":
            pairs = [(self.native(o["key"], k), self.native(o["value"], v)) for k, v in j]
            try:
                d = dict(pairs)
            except TypeError:
                return pairs
            return d if len(d) == len(pairs) else pairs
        if kind == "option":
            return self.option(o["inner"], j)
        if kind == "either":
            (k, v), = j.items()
            return {k: self.native(o[k], v)}
        if kind == "try":
            (k, v), = j.items()
            return {k: self.native(o[k], v)}
        if kind == "tuple":
            return tuple(self.native(e, x) for e, x in zip(o["elements"], j))
        if kind == "record":
            return self.fields(o.get("fields", []), j, {})
        if kind == "enum":
            ctor = next(c for c in o["constructors"] if c["name"] == j["$case"])
            out = {"$case": j["$case"]}
            if "type" in ctor:
                pk, po = self.resolve(ctor["type"])
                if pk == "record":
                    return self.fields(po.get("fields", []), j, out)
                out["value"] = self.native(ctor["type"], j["value"])
                return out
            return self.fields(ctor.get("fields", []), j, out)
        return j  # bool, ints, unit, chars, strings, day_of_week, month, year, zone_offset

    def option(self, inner, j):
        if j is None:
            return None
        if self.nullable(inner):
            return {"some": self.native(inner, j["some"])}
        return self.native(inner, j)

    def fields(self, fields, j, out):
        for f in fields:
            v = j[f["name"]]
            out[f["name"]] = self.option(f["type"], v) if f.get("optional") else \
                self.native(f["type"], v)
        return out


def float_native(kind, j):
    if j == "NaN":
        return math.nan
    if j == "Infinity":
        return math.inf
    if j == "-Infinity":
        return -math.inf
    if isinstance(j, dict):
        return {k: v.lower() for k, v in j.items()}
    if kind == "f32":
        return struct.unpack("<f", struct.pack("<f", float(j)))[0]
    return float(j)


def duration(j):
    s, n = j["seconds"], j["nanos"]
    try:
        if n % 1000 == 0:
            return dt.timedelta(seconds=s, microseconds=n // 1000)
    except OverflowError:
        pass
    return dict(j)


def instant(j):
    s, n = j["seconds"], j["nanos"]
    try:
        if n % 1000 == 0:
            return EPOCH + dt.timedelta(seconds=s, microseconds=n // 1000)
    except OverflowError:
        pass
    return dict(j)


def _date_ok(j):
    return 1 <= j["year"] <= 9999


def _time_ok(j):
    return j["nano"] % 1000 == 0


def _tz(j):
    return dt.timezone(dt.timedelta(seconds=j["offset"]))


def _dt(j, tz=None):
    return dt.datetime(j["year"], j["month"], j["day"], j["hour"], j["minute"], j["second"],
                       j["nano"] // 1000, tzinfo=tz)


def _time(j, tz=None):
    return dt.time(j["hour"], j["minute"], j["second"], j["nano"] // 1000, tzinfo=tz)


TIME_KINDS = {
    "duration": duration,
    "instant": instant,
    "local_date": lambda j: dt.date(j["year"], j["month"], j["day"]) if _date_ok(j) else dict(j),
    "local_time": lambda j: _time(j) if _time_ok(j) else dict(j),
    "local_date_time": lambda j: _dt(j) if _date_ok(j) and _time_ok(j) else dict(j),
    "offset_time": lambda j: _time(j, _tz(j)) if _time_ok(j) else dict(j),
    "offset_date_time": lambda j: _dt(j, _tz(j)) if _date_ok(j) and _time_ok(j) else dict(j),
    "rust_datetime_fixed_offset":
        lambda j: _dt(j, _tz(j)) if _date_ok(j) and _time_ok(j) else dict(j),
}


def same(a, b, path="$"):
    """Strict equality: same types, floats by value with NaN == NaN and the
    sign of zero, dicts by keys in order. Returns None or a description of
    the first difference."""
    if type(a) is not type(b):
        return "%s: %s %r != %s %r" % (path, type(a).__name__, a, type(b).__name__, b)
    if isinstance(a, float):
        if math.isnan(a) and math.isnan(b):
            return None
        if a != b or math.copysign(1, a) != math.copysign(1, b):
            return "%s: %r != %r" % (path, a, b)
        return None
    if isinstance(a, dict):
        if list(a.keys()) != list(b.keys()):
            return "%s: keys %r != %r" % (path, list(a.keys()), list(b.keys()))
        for k in a:
            d = same(a[k], b[k], "%s.%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return "%s: length %d != %d" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = same(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if isinstance(a, (dt.datetime, dt.time)) and a.tzinfo != b.tzinfo:
        return "%s: tzinfo %r != %r" % (path, a.tzinfo, b.tzinfo)
    if isinstance(a, Decimal):
        return None if a.as_tuple() == b.as_tuple() else "%s: %r != %r" % (path, a, b)
    return None if a == b else "%s: %r != %r" % (path, a, b)
