/* python/desert/_ext/from_python.c — Python objects to a desert_value tree
 * under a type, accepting the native forms of python/README.md and the dict
 * forms of the JSON value language (docs/schema.md §11). The tree points
 * into the Python objects (str UTF-8 caches, bytes) where they are
 * immutable and owned by the caller's value; temporaries it points into are
 * kept alive in ctx->keep until the encode is done. A failure records a
 * message and builds the value path ("$.a.b[2]") while it unwinds, at no
 * cost on success. Range checks beyond the Python types (dates, offsets,
 * non_empty, length) are left to desert_type_encode. The direct encoder
 * (direct.c) hands it the subtrees it does not write itself, and shares its
 * failure and path helpers. */
#include "ext.h"

#include <datetime.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

int dz_from_python_init(void) {
  PyDateTime_IMPORT;
  return PyDateTimeAPI ? 0 : -1;
}

static int conv(dz_from_ctx *c, const desert_type *t, PyObject *o, desert_value *out);

static int fail(dz_from_ctx *c, int type_error, desert_status st, const char *fmt, ...) {
  /* Python's formatter, for %R and %U of the offending objects */
  va_list ap;
  va_start(ap, fmt);
  PyObject *m = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  const char *u = m ? PyUnicode_AsUTF8(m) : NULL;
  if (!u) PyErr_Clear();
  snprintf(c->message, sizeof c->message, "%s", u ? u : fmt);
  Py_XDECREF(m);
  c->type_error = type_error;
  c->status = st;
  return -1;
}

#define TYPE_FAIL(c, what, o) \
  fail((c), 1, DESERT_E_ARGUMENT, "expected %s, got %.64s", (what), Py_TYPE(o)->tp_name)
#define VALUE_FAIL(c, ...) fail((c), 0, DESERT_E_ARGUMENT, __VA_ARGS__)

/* Prepends one path component to path[0..*len) (capacity cap, kept
 * NUL-terminated) while a failure unwinds. Returns -1. */
int dz_path_prepend(char *path, size_t cap, size_t *len, const char *s, size_t n) {
  cap -= 1;
  if (*len + n > cap) n = *len < cap ? cap - *len : 0;
  memmove(path + n, path, *len);
  memcpy(path, s, n);
  *len += n;
  path[*len] = '\0';
  return -1;
}
int dz_path_field(char *path, size_t cap, size_t *len, const char *name) {
  char buf[96];
  int n = snprintf(buf, sizeof buf, ".%s", name);
  return dz_path_prepend(path, cap, len, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}
int dz_path_index(char *path, size_t cap, size_t *len, size_t i) {
  char buf[32];
  int n = snprintf(buf, sizeof buf, "[%zu]", i);
  return dz_path_prepend(path, cap, len, buf, (size_t)n);
}
int dz_at_field(dz_from_ctx *c, const char *name) {
  return dz_path_field(c->path, sizeof c->path, &c->path_len, name);
}
int dz_at_index(dz_from_ctx *c, size_t i) {
  return dz_path_index(c->path, sizeof c->path, &c->path_len, i);
}
#define at_field dz_at_field
#define at_index dz_at_index

static desert_value *vals(dz_from_ctx *c, size_t n) {
  desert_value *v = desert_value_arena_values(c->arena, n ? n : 1);
  if (!v) PyErr_NoMemory();
  return v;
}

/* Keeps a new reference alive until the encode is done (steals it). */
static int keep(dz_from_ctx *c, PyObject *o) {
  int rc = PyList_Append(c->keep, o);
  Py_DECREF(o);
  return rc;
}

/* ---- scalars ---------------------------------------------------------------------------- */

static int is_int(PyObject *o) {
  return PyLong_Check(o) ? !PyBool_Check(o) : (!PyFloat_Check(o) && PyIndex_Check(o));
}

static int get_i64(dz_from_ctx *c, PyObject *o, int64_t lo, int64_t hi, int64_t *out) {
  if (!is_int(o)) return TYPE_FAIL(c, "int", o);
  PyObject *x = PyLong_Check(o) ? Py_NewRef(o) : PyNumber_Index(o);
  if (!x) return -1;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
  Py_DECREF(x);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (overflow || v < lo || v > hi)
    return VALUE_FAIL(c, "%R is out of range %lld..%lld", o, (long long)lo, (long long)hi);
  *out = v;
  return 0;
}

static int get_u64(dz_from_ctx *c, PyObject *o, uint64_t hi, uint64_t *out) {
  if (!is_int(o)) return TYPE_FAIL(c, "int", o);
  PyObject *x = PyLong_Check(o) ? Py_NewRef(o) : PyNumber_Index(o);
  if (!x) return -1;
  unsigned long long v = PyLong_AsUnsignedLongLong(x);
  Py_DECREF(x);
  if (v == (unsigned long long)-1 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
    PyErr_Clear();
    return VALUE_FAIL(c, "%R is out of range 0..%llu", o, (unsigned long long)hi);
  }
  if (v > hi) return VALUE_FAIL(c, "%R is out of range 0..%llu", o, (unsigned long long)hi);
  *out = v;
  return 0;
}

static int hexval(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

static int conv_float(dz_from_ctx *c, int is_f32, PyObject *o, desert_value *out) {
  out->kind = DESERT_VALUE_FLOAT;
  if (PyDict_Check(o)) { /* {"f32_bits": "7fc00001"} */
    PyObject *h = PyDict_GetItemWithError(o, is_f32 ? dz.k_f32_bits : dz.k_f64_bits);
    Py_ssize_t n = 0;
    const char *txt = h && PyUnicode_Check(h) && PyDict_GET_SIZE(o) == 1
                          ? PyUnicode_AsUTF8AndSize(h, &n) : NULL;
    if (!txt || n != (is_f32 ? 8 : 16)) {
      if (PyErr_Occurred()) return -1;
      return VALUE_FAIL(c, "a float as a dict is {\"%s\": \"<%d hex digits>\"}",
                        is_f32 ? "f32_bits" : "f64_bits", is_f32 ? 8 : 16);
    }
    uint64_t bits = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
      int h4 = hexval(txt[i]);
      if (h4 < 0) return VALUE_FAIL(c, "bad hex digit in %s", txt);
      bits = bits << 4 | (uint64_t)h4;
    }
    out->as.bits = bits;
    return 0;
  }
  if (PyBool_Check(o) || !(PyFloat_Check(o) || PyLong_Check(o) || PyNumber_Check(o)))
    return TYPE_FAIL(c, "float", o);
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
    PyErr_Clear();
    return VALUE_FAIL(c, "%R is out of the float range", o);
  }
  if (is_f32) {
    float f = (float)d;
    if (isfinite(d) && !isfinite(f)) return VALUE_FAIL(c, "%R is out of the f32 range", o);
    uint32_t b;
    memcpy(&b, &f, 4);
    out->as.bits = b;
  } else {
    memcpy(&out->as.bits, &d, 8);
  }
  return 0;
}

static int conv_str(dz_from_ctx *c, PyObject *o, desert_value *out) {
  if (!PyUnicode_Check(o)) return TYPE_FAIL(c, "str", o);
  Py_ssize_t n;
  const char *p = PyUnicode_AsUTF8AndSize(o, &n);
  if (!p) {
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
    PyErr_Clear();
    return fail(c, 0, DESERT_E_INVALID_UTF16, "the string holds a lone surrogate");
  }
  out->kind = DESERT_VALUE_STRING;
  out->as.str.ptr = p;
  out->as.str.len = (size_t)n;
  return 0;
}

static int conv_bytes(dz_from_ctx *c, PyObject *o, desert_value *out) {
  out->kind = DESERT_VALUE_BYTES;
  if (PyBytes_Check(o)) {
    out->as.str.ptr = PyBytes_AS_STRING(o);
    out->as.str.len = (size_t)PyBytes_GET_SIZE(o);
    return 0;
  }
  if (!PyObject_CheckBuffer(o) || PyUnicode_Check(o)) return TYPE_FAIL(c, "bytes", o);
  /* bytearray, memoryview...: copied, since they may change */
  Py_buffer view;
  if (PyObject_GetBuffer(o, &view, PyBUF_CONTIG_RO) < 0) return -1;
  char *p = desert_value_arena_alloc(c->arena, (size_t)view.len, 1);
  if (p) memcpy(p, view.buf, (size_t)view.len);
  PyBuffer_Release(&view);
  if (!p) {
    PyErr_NoMemory();
    return -1;
  }
  out->as.str.ptr = p;
  out->as.str.len = (size_t)view.len;
  return 0;
}

/* A Python int as two's complement big-endian bytes, as short as possible. */
static int conv_bigint(dz_from_ctx *c, PyObject *o, desert_value *out) {
  if (!is_int(o)) return TYPE_FAIL(c, "int", o);
  PyObject *x = PyLong_Check(o) ? Py_NewRef(o) : PyNumber_Index(o);
  if (!x) return -1;
  int neg = _PyLong_Sign(x) < 0;
  PyObject *mag = neg ? PyNumber_Invert(x) : Py_NewRef(x); /* ~x = -x - 1 */
  size_t bits = mag ? _PyLong_NumBits(mag) : (size_t)-1;
  Py_XDECREF(mag);
  if (bits == (size_t)-1) {
    Py_DECREF(x);
    return -1;
  }
  size_t n = bits / 8 + 1;
  unsigned char *p = desert_value_arena_alloc(c->arena, n, 1);
  if (!p) {
    Py_DECREF(x);
    PyErr_NoMemory();
    return -1;
  }
  int rc = _PyLong_AsByteArray((PyLongObject *)x, p, n, 0, 1);
  Py_DECREF(x);
  if (rc < 0) return -1;
  out->kind = DESERT_VALUE_BIGINT;
  out->as.str.ptr = (const char *)p;
  out->as.str.len = n;
  return 0;
}

static int is_decimal(PyObject *o) { return PyObject_IsInstance(o, dz.Decimal) == 1; }

static int conv_bigdecimal(dz_from_ctx *c, PyObject *o, desert_value *out) {
  PyObject *text;
  if (PyUnicode_Check(o)) {
    text = Py_NewRef(o);
  } else if (is_decimal(o) || is_int(o)) {
    text = PyObject_Str(o);
  } else {
    return TYPE_FAIL(c, "decimal.Decimal", o);
  }
  if (!text || keep(c, text) < 0) return -1;
  if (conv_str(c, text, out) < 0) return -1;
  const char *p = out->as.str.ptr;
  if (*p == '+' || *p == '-') p++;
  if (!((*p >= '0' && *p <= '9') || *p == '.'))
    return VALUE_FAIL(c, "%R is not a finite decimal number", o);
  return 0;
}

static int conv_bigdecimal_binary(dz_from_ctx *c, PyObject *o, desert_value *out) {
  desert_value *items = vals(c, 2);
  if (!items) return -1;
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = 2;
  items[1].kind = DESERT_VALUE_INT;
  if (PyDict_Check(o)) {
    PyObject *u = PyDict_GetItemWithError(o, dz.k_unscaled);
    PyObject *sc = u ? PyDict_GetItemWithError(o, dz.k_scale) : NULL;
    if (!sc || PyDict_GET_SIZE(o) != 2) {
      if (PyErr_Occurred()) return -1;
      return VALUE_FAIL(c, "expected decimal.Decimal or {\"unscaled\": int, \"scale\": int}");
    }
    if (PyUnicode_Check(u)) { /* the JSON language writes it as a string */
      u = PyLong_FromUnicodeObject(u, 10);
      if (!u || keep(c, u) < 0) return -1;
    }
    if (conv_bigint(c, u, &items[0]) < 0) return -1;
    return get_i64(c, sc, INT64_MIN, INT64_MAX, &items[1].as.i);
  }
  if (!is_decimal(o)) return TYPE_FAIL(c, "decimal.Decimal", o);
  /* as_tuple() = (sign, digits, exponent): unscaled = ±digits, scale = -exponent */
  PyObject *tup = PyObject_CallMethodNoArgs(o, dz.s_as_tuple);
  if (!tup || keep(c, tup) < 0) return -1;
  PyObject *sign = PyTuple_GetItem(tup, 0), *digits = PyTuple_GetItem(tup, 1),
           *exp = PyTuple_GetItem(tup, 2);
  if (!exp) return -1;
  if (!PyLong_Check(exp)) return VALUE_FAIL(c, "%R is not a finite decimal number", o);
  PyObject *u = PyLong_FromLong(0);
  PyObject *ten = PyLong_FromLong(10);
  for (Py_ssize_t i = 0; u && i < PyTuple_GET_SIZE(digits); i++) {
    PyObject *m = PyNumber_Multiply(u, ten);
    Py_DECREF(u);
    u = m ? PyNumber_Add(m, PyTuple_GET_ITEM(digits, i)) : NULL;
    Py_XDECREF(m);
  }
  Py_XDECREF(ten);
  if (u && PyObject_IsTrue(sign)) {
    PyObject *nu = PyNumber_Negative(u);
    Py_DECREF(u);
    u = nu;
  }
  if (!u || keep(c, u) < 0) return -1;
  if (conv_bigint(c, u, &items[0]) < 0) return -1;
  int64_t e;
  if (get_i64(c, exp, INT64_MIN + 1, INT64_MAX, &e) < 0) return -1;
  items[1].as.i = -e;
  return 0;
}

static int conv_uuid(dz_from_ctx *c, PyObject *o, desert_value *out) {
  PyObject *u;
  if (PyUnicode_Check(o)) {
    u = PyObject_CallOneArg(dz.UUID, o);
    if (!u) {
      if (!PyErr_ExceptionMatches(PyExc_ValueError)) return -1;
      PyErr_Clear();
      return VALUE_FAIL(c, "%R is not a UUID", o);
    }
  } else if (PyObject_IsInstance(o, dz.UUID) == 1) {
    u = Py_NewRef(o);
  } else {
    return TYPE_FAIL(c, "uuid.UUID", o);
  }
  PyObject *b = PyObject_GetAttr(u, dz.k_bytes);
  Py_DECREF(u);
  if (!b || keep(c, b) < 0) return -1;
  if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != 16) return VALUE_FAIL(c, "UUID.bytes is not 16 bytes");
  out->kind = DESERT_VALUE_BYTES;
  out->as.str.ptr = PyBytes_AS_STRING(b);
  out->as.str.len = 16;
  return 0;
}

/* ---- dates and times ------------------------------------------------------------------------- */

static int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/* utcoffset() of an aware date-time or time in seconds; -1 with a failure
 * recorded when naive or not whole seconds. */
static int utc_offset(dz_from_ctx *c, PyObject *o, int64_t *out) {
  PyObject *d = PyObject_CallMethodNoArgs(o, dz.s_utcoffset);
  if (!d) return -1;
  if (d == Py_None) {
    Py_DECREF(d);
    return VALUE_FAIL(c, "expected an aware %.32s (with tzinfo), got a naive one",
                      Py_TYPE(o)->tp_name);
  }
  int64_t s = (int64_t)PyDateTime_DELTA_GET_DAYS(d) * 86400 + PyDateTime_DELTA_GET_SECONDS(d);
  int us = PyDateTime_DELTA_GET_MICROSECONDS(d);
  Py_DECREF(d);
  if (us) return VALUE_FAIL(c, "the UTC offset is not a whole number of seconds");
  *out = s;
  return 0;
}

static const char *const kd_duration[] = {"seconds", "nanos"};
static const char *const kd_month_day[] = {"month", "day"};
static const char *const kd_year_month[] = {"year", "month"};
static const char *const kd_period[] = {"years", "months", "days"};
static const char *const kd_dt[] = {"year", "month", "day", "hour", "minute", "second", "nano",
                                    "offset", "zone"};
static const char *const kd_time[] = {"hour", "minute", "second", "nano", "offset"};
static const char *const kd_rust_tz[] = {"year", "month", "day", "hour", "minute", "second",
                                         "nano", "zone"};

static const char *const *keys_of(desert_type_kind k) {
  switch (k) {
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT:
    return kd_duration;
  case DESERT_TYPE_MONTH_DAY:
    return kd_month_day;
  case DESERT_TYPE_YEAR_MONTH:
    return kd_year_month;
  case DESERT_TYPE_PERIOD:
    return kd_period;
  case DESERT_TYPE_LOCAL_TIME:
  case DESERT_TYPE_OFFSET_TIME:
    return kd_time;
  case DESERT_TYPE_RUST_DATETIME_TZ:
    return kd_rust_tz;
  default:
    return kd_dt;
  }
}

static int conv_zone_id(dz_from_ctx *c, PyObject *o, desert_value *out);

/* The dict form of a date/time kind (docs/schema.md §11.8). */
static int time_from_dict(dz_from_ctx *c, desert_type_kind kind, PyObject *o, desert_value *items,
                          size_t n) {
  const char *const *keys = keys_of(kind);
  if ((size_t)PyDict_GET_SIZE(o) != n)
    return VALUE_FAIL(c, "expected a dict of %zu keys (%s, ...)", n, keys[0]);
  for (size_t i = 0; i < n; i++) {
    PyObject *x = PyDict_GetItemString(o, keys[i]);
    if (!x) return VALUE_FAIL(c, "missing key '%s'", keys[i]);
    int rc;
    if (kind == DESERT_TYPE_ZONED_DATE_TIME && i == 8) {
      rc = conv_zone_id(c, x, &items[i]);
    } else if (kind == DESERT_TYPE_RUST_DATETIME_TZ && i == 7) {
      rc = conv_str(c, x, &items[i]);
    } else {
      items[i].kind = DESERT_VALUE_INT;
      rc = get_i64(c, x, INT64_MIN, INT64_MAX, &items[i].as.i);
    }
    if (rc < 0) return at_field(c, keys[i]);
  }
  return 0;
}

static void put_ints(desert_value *items, const int64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    items[i].kind = DESERT_VALUE_INT;
    items[i].as.i = v[i];
  }
}

static int conv_time(dz_from_ctx *c, desert_type_kind kind, PyObject *o, desert_value *out) {
  size_t n = desert_type_component_count(kind);
  desert_value *items = vals(c, n);
  if (!items) return -1;
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = n;
  if (PyDict_Check(o)) return time_from_dict(c, kind, o, items, n);
  int64_t v[8];
  switch (kind) {
  case DESERT_TYPE_DURATION:
    if (!PyDelta_Check(o)) return TYPE_FAIL(c, "datetime.timedelta or a dict", o);
    v[0] = (int64_t)PyDateTime_DELTA_GET_DAYS(o) * 86400 + PyDateTime_DELTA_GET_SECONDS(o);
    v[1] = (int64_t)PyDateTime_DELTA_GET_MICROSECONDS(o) * 1000;
    put_ints(items, v, 2);
    return 0;
  case DESERT_TYPE_INSTANT: {
    if (!PyDateTime_Check(o)) return TYPE_FAIL(c, "an aware datetime.datetime or a dict", o);
    int64_t off;
    if (utc_offset(c, o, &off) < 0) return -1;
    int64_t days = days_from_civil(PyDateTime_GET_YEAR(o), PyDateTime_GET_MONTH(o),
                                   PyDateTime_GET_DAY(o));
    v[0] = days * 86400 + PyDateTime_DATE_GET_HOUR(o) * 3600 +
           PyDateTime_DATE_GET_MINUTE(o) * 60 + PyDateTime_DATE_GET_SECOND(o) - off;
    v[1] = (int64_t)PyDateTime_DATE_GET_MICROSECOND(o) * 1000;
    put_ints(items, v, 2);
    return 0;
  }
  case DESERT_TYPE_LOCAL_DATE:
    if (!PyDate_Check(o) || PyDateTime_Check(o)) return TYPE_FAIL(c, "datetime.date or a dict", o);
    v[0] = PyDateTime_GET_YEAR(o), v[1] = PyDateTime_GET_MONTH(o), v[2] = PyDateTime_GET_DAY(o);
    put_ints(items, v, 3);
    return 0;
  case DESERT_TYPE_LOCAL_TIME:
  case DESERT_TYPE_OFFSET_TIME: {
    if (!PyTime_Check(o)) return TYPE_FAIL(c, "datetime.time or a dict", o);
    int aware = PyDateTime_TIME_GET_TZINFO(o) != Py_None;
    if (kind == DESERT_TYPE_LOCAL_TIME && aware)
      return VALUE_FAIL(c, "expected a naive datetime.time for local_time");
    v[0] = PyDateTime_TIME_GET_HOUR(o), v[1] = PyDateTime_TIME_GET_MINUTE(o);
    v[2] = PyDateTime_TIME_GET_SECOND(o), v[3] = PyDateTime_TIME_GET_MICROSECOND(o) * 1000;
    if (kind == DESERT_TYPE_OFFSET_TIME && utc_offset(c, o, &v[4]) < 0) return -1;
    put_ints(items, v, n);
    return 0;
  }
  case DESERT_TYPE_LOCAL_DATE_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET: {
    if (!PyDateTime_Check(o)) return TYPE_FAIL(c, "datetime.datetime or a dict", o);
    int aware = PyDateTime_DATE_GET_TZINFO(o) != Py_None;
    if (kind == DESERT_TYPE_LOCAL_DATE_TIME && aware)
      return VALUE_FAIL(c, "expected a naive datetime.datetime for local_date_time");
    v[0] = PyDateTime_GET_YEAR(o), v[1] = PyDateTime_GET_MONTH(o), v[2] = PyDateTime_GET_DAY(o);
    v[3] = PyDateTime_DATE_GET_HOUR(o), v[4] = PyDateTime_DATE_GET_MINUTE(o);
    v[5] = PyDateTime_DATE_GET_SECOND(o), v[6] = PyDateTime_DATE_GET_MICROSECOND(o) * 1000;
    if (kind != DESERT_TYPE_LOCAL_DATE_TIME && utc_offset(c, o, &v[7]) < 0) return -1;
    put_ints(items, v, n);
    return 0;
  }
  default:
    return TYPE_FAIL(c, "a dict (docs/schema.md §11.8)", o);
  }
}

static int conv_zone_id(dz_from_ctx *c, PyObject *o, desert_value *out) {
  if (!PyDict_Check(o) || PyDict_GET_SIZE(o) != 1)
    return TYPE_FAIL(c, "{\"offset\": seconds} or {\"region\": name}", o);
  desert_value *child = vals(c, 1);
  if (!child) return -1;
  out->kind = DESERT_VALUE_ALT;
  out->as.child = child;
  PyObject *x = PyDict_GetItemWithError(o, dz.k_offset);
  if (x) {
    out->index = 0;
    child->kind = DESERT_VALUE_INT;
    return get_i64(c, x, INT32_MIN, INT32_MAX, &child->as.i) < 0 ? at_field(c, "offset") : 0;
  }
  if (PyErr_Occurred()) return -1;
  x = PyDict_GetItemWithError(o, dz.k_region);
  if (!x) return PyErr_Occurred() ? -1 : VALUE_FAIL(c, "expected the key 'offset' or 'region'");
  out->index = 1;
  return conv_str(c, x, child) < 0 ? at_field(c, "region") : 0;
}

/* ---- composites --------------------------------------------------------------------------------- */

/* A sequence of the items of o (borrowed when o is a list or tuple; else a
 * new list kept alive in ctx). NULL on failure. */
static PyObject *as_fast(dz_from_ctx *c, PyObject *o, const char *what) {
  if (PyList_Check(o) || PyTuple_Check(o)) return o;
  if (PyUnicode_Check(o) || PyBytes_Check(o) || PyDict_Check(o) || PyByteArray_Check(o)) {
    TYPE_FAIL(c, what, o);
    return NULL;
  }
  PyObject *f = PySequence_Fast(o, "");
  if (!f) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) return NULL;
    PyErr_Clear();
    TYPE_FAIL(c, what, o);
    return NULL;
  }
  return keep(c, f) < 0 ? NULL : f;
}

static int conv_coll(dz_from_ctx *c, const desert_type *t, PyObject *o, desert_value *out) {
  PyObject *f = as_fast(c, o, "a list");
  if (!f) return -1;
  size_t n = (size_t)PySequence_Fast_GET_SIZE(f);
  desert_value *items = vals(c, n);
  if (!items) return -1;
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = n;
  PyObject **src = PySequence_Fast_ITEMS(f);
  for (size_t i = 0; i < n; i++)
    if (conv(c, t->u.coll.element, src[i], &items[i]) < 0) return at_index(c, i);
  return 0;
}

static int put_pair(dz_from_ctx *c, const desert_type *t, PyObject *k, PyObject *v,
                    desert_value *e, size_t i) {
  desert_value *kv = vals(c, 2);
  if (!kv) return -1;
  e->kind = DESERT_VALUE_SEQ;
  e->as.seq.items = kv;
  e->as.seq.count = 2;
  if (conv(c, t->u.coll.element, k, &kv[0]) < 0) return at_index(c, 0), at_index(c, i);
  if (conv(c, t->u.coll.value, v, &kv[1]) < 0) return at_index(c, 1), at_index(c, i);
  return 0;
}

static int conv_map(dz_from_ctx *c, const desert_type *t, PyObject *o, desert_value *out) {
  out->kind = DESERT_VALUE_SEQ;
  if (PyDict_Check(o)) {
    size_t n = (size_t)PyDict_GET_SIZE(o), i = 0;
    desert_value *items = vals(c, n);
    if (!items) return -1;
    out->as.seq.items = items;
    out->as.seq.count = n;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (i < n && PyDict_Next(o, &pos, &k, &v)) {
      if (put_pair(c, t, k, v, &items[i], i) < 0) return -1;
      i++;
    }
    return 0;
  }
  if (PyObject_HasAttrString(o, "items") && !PyList_Check(o) && !PyTuple_Check(o)) {
    o = PyObject_CallMethod(o, "items", NULL); /* a Mapping */
    if (!o || keep(c, o) < 0) return -1;
  }
  PyObject *f = as_fast(c, o, "a dict or a list of (key, value) pairs");
  if (!f) return -1;
  size_t n = (size_t)PySequence_Fast_GET_SIZE(f);
  desert_value *items = vals(c, n);
  if (!items) return -1;
  out->as.seq.items = items;
  out->as.seq.count = n;
  for (size_t i = 0; i < n; i++) {
    PyObject *pair = PySequence_Fast_GET_ITEM(f, i);
    PyObject *pf = as_fast(c, pair, "a (key, value) pair");
    if (!pf) return at_index(c, i);
    if (PySequence_Fast_GET_SIZE(pf) != 2)
      return VALUE_FAIL(c, "expected a (key, value) pair"), at_index(c, i);
    if (put_pair(c, t, PySequence_Fast_GET_ITEM(pf, 0), PySequence_Fast_GET_ITEM(pf, 1), &items[i],
                 i) < 0)
      return -1;
  }
  return 0;
}

static int conv_option(dz_from_ctx *c, const desert_type *inner, PyObject *o, desert_value *out) {
  if (o == Py_None) {
    out->kind = DESERT_VALUE_NULL;
    return 0;
  }
  desert_value *child = vals(c, 1);
  if (!child) return -1;
  out->kind = DESERT_VALUE_SOME;
  out->as.child = child;
  if (desert_type_nullable(inner)) {
    PyObject *x = PyDict_Check(o) && PyDict_GET_SIZE(o) == 1
                      ? PyDict_GetItemWithError(o, dz.k_some) : NULL;
    if (!x) {
      if (PyErr_Occurred()) return -1;
      return VALUE_FAIL(c, "Some of a nullable type is written {\"some\": value}");
    }
    return conv(c, inner, x, child) < 0 ? at_field(c, "some") : 0;
  }
  return conv(c, inner, o, child);
}

static int conv_alt(dz_from_ctx *c, const desert_type *t, PyObject *o, desert_value *out) {
  int either = t->kind == DESERT_TYPE_EITHER;
  PyObject *k0 = either ? dz.k_left : dz.k_failure, *k1 = either ? dz.k_right : dz.k_success;
  if (!PyDict_Check(o) || PyDict_GET_SIZE(o) != 1)
    return TYPE_FAIL(c, either ? "{\"left\": v} or {\"right\": v}"
                               : "{\"success\": v} or {\"failure\": v}", o);
  desert_value *child = vals(c, 1);
  if (!child) return -1;
  out->kind = DESERT_VALUE_ALT;
  out->as.child = child;
  PyObject *x = PyDict_GetItemWithError(o, k1);
  if (x) {
    out->index = 1;
    return conv(c, t->u.alt.right, x, child) < 0 ? at_field(c, PyUnicode_AsUTF8(k1)) : 0;
  }
  if (PyErr_Occurred()) return -1;
  x = PyDict_GetItemWithError(o, k0);
  if (!x)
    return PyErr_Occurred() ? -1 : VALUE_FAIL(c, "expected the key '%U' or '%U'", k0, k1);
  out->index = 0;
  return conv(c, t->u.alt.left, x, child) < 0 ? at_field(c, PyUnicode_AsUTF8(k0)) : 0;
}

/* Record fields from a dict (or a Mapping); skip_case for enum payloads. */
static int conv_fields(dz_from_ctx *c, const desert_type *rt, PyObject *o, int skip_case,
                       desert_value *out) {
  int is_dict = PyDict_Check(o);
  if (!is_dict && !PyMapping_Check(o)) return TYPE_FAIL(c, "a dict (a record)", o);
  if (PyList_Check(o) || PyTuple_Check(o) || PyUnicode_Check(o))
    return TYPE_FAIL(c, "a dict (a record)", o);
  const dz_names *nm = dz_names_of(c->s, rt);
  size_t nf = rt->u.record.field_count;
  desert_value *items = vals(c, nf);
  if (!items || !nm) return -1;
  out->kind = DESERT_VALUE_SEQ;
  out->as.seq.items = items;
  out->as.seq.count = nf;
  Py_ssize_t seen = skip_case;
  for (size_t i = 0; i < nf; i++) {
    const desert_type_field *f = &rt->u.record.fields[i];
    PyObject *x;
    if (is_dict) {
      x = PyDict_GetItemWithError(o, nm->names[i]);
      if (!x && PyErr_Occurred()) return -1;
    } else {
      x = PyObject_GetItem(o, nm->names[i]);
      if (!x) {
        if (!PyErr_ExceptionMatches(PyExc_KeyError)) return -1;
        PyErr_Clear();
      } else if (keep(c, x) < 0) {
        return -1;
      }
    }
    if (x) seen++;
    if (f->flags & DESERT_FIELD_TRANSIENT) { /* given or not, never checked */
      if (f->transient_default) items[i] = *f->transient_default;
      continue;
    }
    if (!x) {
      if (f->flags & DESERT_FIELD_OPTIONAL) {
        items[i].kind = DESERT_VALUE_NULL;
        continue;
      }
      return VALUE_FAIL(c, "missing field '%s'", f->name);
    }
    int rc = (f->flags & DESERT_FIELD_OPTIONAL) ? conv_option(c, f->type, x, &items[i])
                                                : conv(c, f->type, x, &items[i]);
    if (rc < 0) return at_field(c, f->name);
  }
  Py_ssize_t size = PyObject_Size(o);
  if (size < 0) return -1;
  if (size > seen) { /* name one unknown key */
    PyObject *it = PyObject_GetIter(o), *k;
    while (it && (k = PyIter_Next(it))) {
      int known = skip_case && PyUnicode_Check(k) && PyUnicode_Compare(k, dz.k_case) == 0;
      for (size_t i = 0; i < nf && !known; i++)
        known = PyUnicode_Check(k) && PyUnicode_Compare(k, nm->names[i]) == 0;
      if (!known) {
        VALUE_FAIL(c, "unknown field %R", k);
        Py_DECREF(k);
        Py_DECREF(it);
        return -1;
      }
      Py_DECREF(k);
    }
    Py_XDECREF(it);
    if (PyErr_Occurred()) return -1;
  }
  return 0;
}

static int conv_enum(dz_from_ctx *c, const desert_type *t, PyObject *o, desert_value *out) {
  const char *en = t->name ? t->name : "enum";
  if (!PyDict_Check(o)) return TYPE_FAIL(c, "a dict with \"$case\" (an enum)", o);
  PyObject *cs = PyDict_GetItemWithError(o, dz.k_case);
  if (!cs || !PyUnicode_Check(cs)) {
    if (PyErr_Occurred()) return -1;
    return VALUE_FAIL(c, "missing \"$case\" (a str)");
  }
  const dz_names *nm = dz_names_of(c->s, t);
  if (!nm) return -1;
  size_t idx = SIZE_MAX;
  for (size_t i = 0; i < nm->count && idx == SIZE_MAX; i++)
    if (PyUnicode_Compare(cs, nm->names[i]) == 0) idx = i;
  if (idx == SIZE_MAX)
    return fail(c, 0, DESERT_E_INVALID_CONSTRUCTOR_NAME, "%R is not a constructor of %s", cs, en);
  const desert_type_ctor *k = &t->u.enumeration.ctors[idx];
  if (k->transient)
    return fail(c, 0, DESERT_E_SERIALIZING_TRANSIENT, "%s.%s is transient", en, k->name);
  desert_value *child = vals(c, 1);
  if (!child) return -1;
  out->kind = DESERT_VALUE_ALT;
  out->index = (uint32_t)idx;
  out->as.child = child;
  const desert_type *pt = desert_type_resolve(k->payload);
  if (pt && pt->kind == DESERT_TYPE_RECORD) return conv_fields(c, pt, o, 1, child);
  PyObject *x = PyDict_GET_SIZE(o) == 2 ? PyDict_GetItemWithError(o, dz.k_value) : NULL;
  if (!x) {
    if (PyErr_Occurred()) return -1;
    return VALUE_FAIL(c, "constructor %s takes exactly \"$case\" and \"value\"", k->name);
  }
  return conv(c, k->payload, x, child) < 0 ? at_field(c, "value") : 0;
}

static int conv(dz_from_ctx *c, const desert_type *t, PyObject *o, desert_value *out) {
  if (++c->depth > DZ_MAX_DEPTH) {
    c->depth--;
    return dz_fail_depth(c);
  }
  int rc = -1;
  t = desert_type_resolve(t);
  if (!t) {
    PyErr_SetString(PyExc_SystemError, "desert: unresolved type");
    goto done;
  }
  switch (t->kind) {
  case DESERT_TYPE_BOOL:
    if (!PyBool_Check(o)) {
      TYPE_FAIL(c, "bool", o);
      break;
    }
    out->kind = DESERT_VALUE_BOOL;
    out->as.b = o == Py_True;
    rc = 0;
    break;
  case DESERT_TYPE_I8:
  case DESERT_TYPE_I16:
  case DESERT_TYPE_I32:
  case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_I64:
  case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH:
  case DESERT_TYPE_YEAR:
  case DESERT_TYPE_ZONE_OFFSET: {
    int64_t lo = t->kind == DESERT_TYPE_I8 ? INT8_MIN : t->kind == DESERT_TYPE_I16 ? INT16_MIN
                 : t->kind == DESERT_TYPE_I64 ? INT64_MIN : INT32_MIN;
    int64_t hi = t->kind == DESERT_TYPE_I8 ? INT8_MAX : t->kind == DESERT_TYPE_I16 ? INT16_MAX
                 : t->kind == DESERT_TYPE_I64 ? INT64_MAX : INT32_MAX;
    out->kind = DESERT_VALUE_INT;
    rc = get_i64(c, o, lo, hi, &out->as.i);
    break;
  }
  case DESERT_TYPE_U8:
  case DESERT_TYPE_U16:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_VAR_U32: {
    uint64_t hi = t->kind == DESERT_TYPE_U8 ? UINT8_MAX : t->kind == DESERT_TYPE_U16 ? UINT16_MAX
                  : t->kind == DESERT_TYPE_U64 ? UINT64_MAX : UINT32_MAX;
    out->kind = DESERT_VALUE_UINT;
    rc = get_u64(c, o, hi, &out->as.u);
    break;
  }
  case DESERT_TYPE_F32:
  case DESERT_TYPE_F64:
    rc = conv_float(c, t->kind == DESERT_TYPE_F32, o, out);
    break;
  case DESERT_TYPE_UNIT:
    if (o != Py_None) {
      TYPE_FAIL(c, "None (unit)", o);
      break;
    }
    out->kind = DESERT_VALUE_NULL;
    rc = 0;
    break;
  case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16:
    if (!PyUnicode_Check(o) || PyUnicode_GET_LENGTH(o) != 1) {
      if (PyUnicode_Check(o))
        VALUE_FAIL(c, "a char is a str of length 1, got length %zd", PyUnicode_GET_LENGTH(o));
      else
        TYPE_FAIL(c, "a str of length 1", o);
      break;
    }
    out->kind = DESERT_VALUE_CHAR;
    out->as.cp = PyUnicode_READ_CHAR(o, 0);
    rc = 0;
    break;
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING:
    rc = conv_str(c, o, out);
    break;
  case DESERT_TYPE_BIGDECIMAL:
    rc = conv_bigdecimal(c, o, out);
    break;
  case DESERT_TYPE_BYTES:
  case DESERT_TYPE_COMPRESSED:
    rc = conv_bytes(c, o, out);
    break;
  case DESERT_TYPE_UUID:
    rc = conv_uuid(c, o, out);
    break;
  case DESERT_TYPE_BIGINT:
    rc = conv_bigint(c, o, out);
    break;
  case DESERT_TYPE_BIGDECIMAL_BINARY:
    rc = conv_bigdecimal_binary(c, o, out);
    break;
  case DESERT_TYPE_ZONE_ID:
    rc = conv_zone_id(c, o, out);
    break;
  case DESERT_TYPE_DURATION:
  case DESERT_TYPE_INSTANT:
  case DESERT_TYPE_MONTH_DAY:
  case DESERT_TYPE_YEAR_MONTH:
  case DESERT_TYPE_PERIOD:
  case DESERT_TYPE_LOCAL_DATE:
  case DESERT_TYPE_LOCAL_TIME:
  case DESERT_TYPE_LOCAL_DATE_TIME:
  case DESERT_TYPE_OFFSET_TIME:
  case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_ZONED_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET:
  case DESERT_TYPE_RUST_DATETIME_TZ:
    rc = conv_time(c, t->kind, o, out);
    break;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    rc = conv_coll(c, t, o, out);
    break;
  case DESERT_TYPE_MAP:
    rc = conv_map(c, t, o, out);
    break;
  case DESERT_TYPE_OPTION:
    rc = conv_option(c, t->u.inner, o, out);
    break;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    rc = conv_alt(c, t, o, out);
    break;
  case DESERT_TYPE_TUPLE: {
    PyObject *f = as_fast(c, o, "a tuple");
    if (!f) break;
    size_t n = (size_t)PySequence_Fast_GET_SIZE(f);
    if (n != t->u.tuple.count) {
      VALUE_FAIL(c, "expected a tuple of %zu items, got %zu", t->u.tuple.count, n);
      break;
    }
    desert_value *items = vals(c, n);
    if (!items) break;
    out->kind = DESERT_VALUE_SEQ;
    out->as.seq.items = items;
    out->as.seq.count = n;
    rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
      if (conv(c, t->u.tuple.elements[i], PySequence_Fast_GET_ITEM(f, i), &items[i]) < 0)
        rc = at_index(c, i);
    break;
  }
  case DESERT_TYPE_RECORD:
    rc = conv_fields(c, t, o, 0, out);
    break;
  case DESERT_TYPE_ENUM:
    rc = conv_enum(c, t, o, out);
    break;
  default:
    PyErr_SetString(PyExc_SystemError, "desert: unknown type kind");
    break;
  }
done:
  c->depth--;
  return rc;
}

void dz_from_ctx_clear(dz_from_ctx *ctx) {
  ctx->path[0] = '\0';
  ctx->path_len = 0;
  ctx->message[0] = '\0';
  ctx->type_error = 0;
  ctx->status = DESERT_E_ARGUMENT;
}

int dz_from_python_sub(dz_from_ctx *ctx, const desert_type *t, PyObject *obj, desert_value *out) {
  return conv(ctx, t, obj, out);
}

int dz_fail_depth(dz_from_ctx *ctx) {
  return fail(ctx, 0, DESERT_E_DEPTH, "value nested deeper than %u levels", DZ_MAX_DEPTH);
}

int dz_fail_status(dz_from_ctx *ctx, desert_status st, const char *message) {
  snprintf(ctx->message, sizeof ctx->message, "%s", message);
  ctx->type_error = 0;
  ctx->status = st;
  return -1;
}

void dz_raise_from_failure(dz_from_ctx *ctx) {
  char path[300];
  snprintf(path, sizeof path, "$%s", ctx->path);
  if (PyErr_Occurred()) { /* a Python error from the value's own code: chained */
    PyObject *et, *ev, *etb;
    PyErr_Fetch(&et, &ev, &etb);
    PyErr_NormalizeException(&et, &ev, &etb);
    if (etb) PyException_SetTraceback(ev, etb);
    if (PyErr_GivenExceptionMatches(et, PyExc_MemoryError)) {
      PyErr_Restore(et, ev, etb);
      return;
    }
    PyObject *text = PyObject_Str(ev);
    const char *t = text ? PyUnicode_AsUTF8(text) : NULL;
    if (!t) PyErr_Clear();
    char msg[512];
    snprintf(msg, sizeof msg, "%s: %s: %s", path, ((PyTypeObject *)et)->tp_name, t ? t : "?");
    Py_XDECREF(text);
    dz_raise(dz.EncodeError, DESERT_E_ARGUMENT, 0, 0, path, msg);
    PyObject *nt, *nv, *ntb;
    PyErr_Fetch(&nt, &nv, &ntb);
    PyErr_NormalizeException(&nt, &nv, &ntb);
    PyException_SetCause(nv, ev); /* steals ev */
    Py_XDECREF(et);
    Py_XDECREF(etb);
    PyErr_Restore(nt, nv, ntb);
    return;
  }
  char msg[600];
  snprintf(msg, sizeof msg, "%s: %s", path, ctx->message);
  dz_raise(ctx->type_error ? dz.EncodeTypeError : dz.EncodeError, ctx->status, 0, 0, path, msg);
}
