/* python/desert/_ext/to_python.c — a decoded desert_value tree to Python
 * objects under its type, following the native mapping of python/README.md:
 * records as dicts, maps as dicts when every key is hashable and distinct
 * (else a list of (key, value) tuples), ints of any width, Decimal, UUID,
 * datetime types where they hold the value exactly, and the dict forms of
 * the JSON value language (docs/schema.md §11) everywhere else. Runs with
 * the GIL held; the tree is read only. */
#include "ext.h"

#include <datetime.h>
#include <math.h>
#include <string.h>

static PyObject *conv(const dz_schema *s, const desert_type *t, const desert_value *v,
                      unsigned depth);

static PyObject *too_deep(void) {
  PyErr_SetString(PyExc_RecursionError, "desert: value nested too deeply to convert");
  return NULL;
}

static PyObject *bad_tree(const char *what) {
  PyErr_Format(PyExc_SystemError, "desert: decoded tree does not fit its type (%s)", what);
  return NULL;
}

/* A dict of the given keys and int components (the fixed objects of §11.8). */
static PyObject *int_dict(const char *const *keys, const desert_value *items, size_t n) {
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  for (size_t i = 0; i < n; i++) {
    PyObject *x = PyLong_FromLongLong(items[i].as.i);
    if (!x || PyDict_SetItemString(d, keys[i], x) < 0) {
      Py_XDECREF(x);
      Py_DECREF(d);
      return NULL;
    }
    Py_DECREF(x);
  }
  return d;
}

static const char *const k_dt[] = {"year", "month", "day", "hour", "minute", "second", "nano",
                                   "offset"};
static const char *const k_time[] = {"hour", "minute", "second", "nano", "offset"};

/* Days since 1970-01-01 to a proleptic Gregorian date (Hinnant's algorithm). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = yoe + era * 400 + (*m <= 2);
}

static PyObject *tz_of(int64_t seconds) {
  PyObject *delta = PyDelta_FromDSU(0, (int)seconds, 0);
  if (!delta) return NULL;
  PyObject *tz = PyTimeZone_FromOffset(delta);
  Py_DECREF(delta);
  return tz;
}

static int date_ok(const desert_value *c) { return c[0].as.i >= 1 && c[0].as.i <= 9999; }
static int time_ok(const desert_value *c) { return c[3].as.i % 1000 == 0; }

static PyObject *make_datetime(const desert_value *c, PyObject *tz) {
  return PyDateTimeAPI->DateTime_FromDateAndTime(
      (int)c[0].as.i, (int)c[1].as.i, (int)c[2].as.i, (int)c[3].as.i, (int)c[4].as.i,
      (int)c[5].as.i, (int)(c[6].as.i / 1000), tz ? tz : Py_None, PyDateTimeAPI->DateTimeType);
}

static PyObject *make_time(const desert_value *c, PyObject *tz) {
  return PyDateTimeAPI->Time_FromTime((int)c[0].as.i, (int)c[1].as.i, (int)c[2].as.i,
                                      (int)(c[3].as.i / 1000), tz ? tz : Py_None,
                                      PyDateTimeAPI->TimeType);
}

static PyObject *zone_id(const desert_value *v) {
  if (v->kind != DESERT_VALUE_ALT || !v->as.child) return bad_tree("zone_id");
  PyObject *x = v->index == 0 ? PyLong_FromLongLong(v->as.child->as.i)
                              : PyUnicode_DecodeUTF8(v->as.child->as.str.ptr,
                                                     (Py_ssize_t)v->as.child->as.str.len, NULL);
  if (!x) return NULL;
  PyObject *d = PyDict_New();
  if (d && PyDict_SetItem(d, v->index == 0 ? dz.k_offset : dz.k_region, x) < 0) Py_CLEAR(d);
  Py_DECREF(x);
  return d;
}

/* Date, time and duration kinds: SEQ of INT components (types.h). */
static PyObject *conv_time(desert_type_kind kind, const desert_value *v) {
  size_t n = desert_type_component_count(kind);
  if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != n) return bad_tree("date/time");
  const desert_value *c = v->as.seq.items;
  switch (kind) {
  case DESERT_TYPE_DURATION: {
    int64_t secs = c[0].as.i, nanos = c[1].as.i;
    int64_t days = secs >= 0 ? secs / 86400 : -((-(secs + 1)) / 86400) - 1;
    if (nanos % 1000 == 0 && days >= -999999999 && days <= 999999999)
      return PyDelta_FromDSU((int)days, (int)(secs - days * 86400), (int)(nanos / 1000));
    static const char *const k[] = {"seconds", "nanos"};
    return int_dict(k, c, 2);
  }
  case DESERT_TYPE_INSTANT: {
    int64_t secs = c[0].as.i, nanos = c[1].as.i;
    /* 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z */
    if (nanos % 1000 == 0 && secs >= -62135596800LL && secs <= 253402300799LL) {
      int64_t days = secs >= 0 ? secs / 86400 : -((-(secs + 1)) / 86400) - 1;
      int64_t sod = secs - days * 86400, y;
      int m, d;
      civil_from_days(days, &y, &m, &d);
      return PyDateTimeAPI->DateTime_FromDateAndTime(
          (int)y, m, d, (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60),
          (int)(nanos / 1000), PyDateTime_TimeZone_UTC, PyDateTimeAPI->DateTimeType);
    }
    static const char *const k[] = {"seconds", "nanos"};
    return int_dict(k, c, 2);
  }
  case DESERT_TYPE_MONTH_DAY: {
    static const char *const k[] = {"month", "day"};
    return int_dict(k, c, 2);
  }
  case DESERT_TYPE_YEAR_MONTH: {
    static const char *const k[] = {"year", "month"};
    return int_dict(k, c, 2);
  }
  case DESERT_TYPE_PERIOD: {
    static const char *const k[] = {"years", "months", "days"};
    return int_dict(k, c, 3);
  }
  case DESERT_TYPE_LOCAL_DATE:
    if (date_ok(c))
      return PyDate_FromDate((int)c[0].as.i, (int)c[1].as.i, (int)c[2].as.i);
    return int_dict(k_dt, c, 3);
  case DESERT_TYPE_LOCAL_TIME:
    if (time_ok(c)) return make_time(c, NULL);
    return int_dict(k_time, c, 4);
  case DESERT_TYPE_LOCAL_DATE_TIME:
    if (date_ok(c) && time_ok(c + 3)) return make_datetime(c, NULL);
    return int_dict(k_dt, c, 7);
  case DESERT_TYPE_OFFSET_TIME:
    if (time_ok(c)) {
      PyObject *tz = tz_of(c[4].as.i);
      if (!tz) return NULL;
      PyObject *r = make_time(c, tz);
      Py_DECREF(tz);
      return r;
    }
    return int_dict(k_time, c, 5);
  case DESERT_TYPE_OFFSET_DATE_TIME:
  case DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET:
    if (date_ok(c) && time_ok(c + 3)) {
      PyObject *tz = tz_of(c[7].as.i);
      if (!tz) return NULL;
      PyObject *r = make_datetime(c, tz);
      Py_DECREF(tz);
      return r;
    }
    return int_dict(k_dt, c, 8);
  case DESERT_TYPE_ZONED_DATE_TIME: {
    PyObject *d = int_dict(k_dt, c, 8);
    PyObject *z = d ? zone_id(&c[8]) : NULL;
    if (!z || PyDict_SetItem(d, dz.k_zone, z) < 0) Py_CLEAR(d);
    Py_XDECREF(z);
    return d;
  }
  case DESERT_TYPE_RUST_DATETIME_TZ: {
    PyObject *d = int_dict(k_dt, c, 7);
    PyObject *z = d ? PyUnicode_DecodeUTF8(c[7].as.str.ptr, (Py_ssize_t)c[7].as.str.len, NULL)
                    : NULL;
    if (!z || PyDict_SetItem(d, dz.k_zone, z) < 0) Py_CLEAR(d);
    Py_XDECREF(z);
    return d;
  }
  default:
    return bad_tree("date/time kind");
  }
}

/* f32/f64: a float, or {"fNN_bits": hex} for a NaN other than the quiet NaN
 * (so payloads survive a round trip, as in docs/schema.md §11.4). */
static PyObject *conv_float(int is_f32, uint64_t bits) {
  char hex[20];
  if (is_f32) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, 4);
    if (!isnan(f) || b == 0x7fc00000u) return PyFloat_FromDouble((double)f);
    snprintf(hex, sizeof hex, "%08x", (unsigned)b);
  } else {
    double d;
    memcpy(&d, &bits, 8);
    if (!isnan(d) || bits == 0x7ff8000000000000ull) return PyFloat_FromDouble(d);
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)bits);
  }
  PyObject *h = PyUnicode_FromString(hex);
  if (!h) return NULL;
  PyObject *d = PyDict_New();
  if (d && PyDict_SetItem(d, is_f32 ? dz.k_f32_bits : dz.k_f64_bits, h) < 0) Py_CLEAR(d);
  Py_DECREF(h);
  return d;
}

static PyObject *conv_bigint(const desert_value *v) {
  if (v->kind != DESERT_VALUE_BIGINT) return bad_tree("bigint");
  if (v->as.str.len == 0) return PyLong_FromLong(0);
  return _PyLong_FromByteArray((const unsigned char *)v->as.str.ptr, v->as.str.len, 0, 1);
}

PyObject *dz_field_to_python(const dz_schema *s, const desert_type_field *f,
                             const desert_value *fv, unsigned depth) {
  if (!(f->flags & DESERT_FIELD_OPTIONAL)) return conv(s, f->type, fv, depth + 1);
  if (fv->kind == DESERT_VALUE_NULL) return Py_NewRef(Py_None);
  if (fv->kind != DESERT_VALUE_SOME) return bad_tree("optional field");
  PyObject *x = conv(s, f->type, fv->as.child, depth + 1);
  if (x && desert_type_nullable(f->type)) {
    PyObject *w = PyDict_New();
    if (w && PyDict_SetItem(w, dz.k_some, x) < 0) Py_CLEAR(w);
    Py_DECREF(x);
    x = w;
  }
  return x;
}

/* The fields of a record into dict d (which may already hold "$case"). */
static int fill_record(const dz_schema *s, const desert_type *rt, const desert_value *v,
                       PyObject *d, unsigned depth) {
  const dz_names *nm = dz_names_of(s, rt);
  size_t n = rt->u.record.field_count;
  if (!nm || v->kind != DESERT_VALUE_SEQ || v->as.seq.count != n) {
    bad_tree("record");
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    PyObject *x = dz_field_to_python(s, &rt->u.record.fields[i], &v->as.seq.items[i], depth);
    if (!x) return -1;
    int rc = PyDict_SetItem(d, nm->names[i], x);
    Py_DECREF(x);
    if (rc < 0) return -1;
  }
  return 0;
}

static PyObject *conv_seq_list(const dz_schema *s, const desert_type *elem, const desert_value *v,
                               unsigned depth) {
  if (v->kind != DESERT_VALUE_SEQ) return bad_tree("collection");
  PyObject *list = PyList_New((Py_ssize_t)v->as.seq.count);
  if (!list) return NULL;
  for (size_t i = 0; i < v->as.seq.count; i++) {
    PyObject *x = conv(s, elem, &v->as.seq.items[i], depth + 1);
    if (!x) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, x);
  }
  return list;
}

/* A map: a dict when every key hashes and no two are equal, else a list of
 * (key, value) tuples in wire order. */
static PyObject *conv_map(const dz_schema *s, const desert_type *t, const desert_value *v,
                          unsigned depth) {
  if (v->kind != DESERT_VALUE_SEQ) return bad_tree("map");
  size_t n = v->as.seq.count;
  for (size_t i = 0; i < n; i++) {
    const desert_value *e = &v->as.seq.items[i];
    if (e->kind != DESERT_VALUE_SEQ || e->as.seq.count != 2) return bad_tree("map entry");
  }
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  int fallback = 0;
  for (size_t i = 0; i < n && !fallback; i++) {
    const desert_value *e = v->as.seq.items[i].as.seq.items;
    PyObject *k = conv(s, t->u.coll.element, &e[0], depth + 1);
    if (!k) goto fail;
    PyObject *x = conv(s, t->u.coll.value, &e[1], depth + 1);
    if (!x) {
      Py_DECREF(k);
      goto fail;
    }
    int rc = PyDict_SetItem(d, k, x);
    Py_DECREF(k);
    Py_DECREF(x);
    if (rc < 0) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) goto fail;
      PyErr_Clear(); /* an unhashable key */
      fallback = 1;
    } else if ((size_t)PyDict_GET_SIZE(d) != i + 1) {
      fallback = 1; /* a duplicate key */
    }
  }
  if (!fallback) return d;
  Py_DECREF(d);
  PyObject *list = PyList_New((Py_ssize_t)n);
  if (!list) return NULL;
  for (size_t i = 0; i < n; i++) {
    const desert_value *e = v->as.seq.items[i].as.seq.items;
    PyObject *k = conv(s, t->u.coll.element, &e[0], depth + 1);
    PyObject *x = k ? conv(s, t->u.coll.value, &e[1], depth + 1) : NULL;
    PyObject *pair = x ? PyTuple_Pack(2, k, x) : NULL;
    Py_XDECREF(k);
    Py_XDECREF(x);
    if (!pair) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, pair);
  }
  return list;
fail:
  Py_DECREF(d);
  return NULL;
}

PyObject *dz_one_key(PyObject *key, PyObject *x) {
  if (!x) return NULL;
  PyObject *d = PyDict_New();
  if (d && PyDict_SetItem(d, key, x) < 0) Py_CLEAR(d);
  Py_DECREF(x);
  return d;
}

static PyObject *conv_enum(const dz_schema *s, const desert_type *t, const desert_value *v,
                           unsigned depth) {
  const dz_names *nm = dz_names_of(s, t);
  if (!nm || v->kind != DESERT_VALUE_ALT || v->index >= t->u.enumeration.count || !v->as.child)
    return bad_tree("enum");
  const desert_type_ctor *k = &t->u.enumeration.ctors[v->index];
  PyObject *d = PyDict_New();
  if (!d) return NULL;
  if (PyDict_SetItem(d, dz.k_case, nm->names[v->index]) < 0) goto fail;
  const desert_type *pt = desert_type_resolve(k->payload);
  if (pt && pt->kind == DESERT_TYPE_RECORD) {
    if (fill_record(s, pt, v->as.child, d, depth) < 0) goto fail;
  } else {
    PyObject *x = conv(s, k->payload, v->as.child, depth + 1);
    if (!x) goto fail;
    int rc = PyDict_SetItem(d, dz.k_value, x);
    Py_DECREF(x);
    if (rc < 0) goto fail;
  }
  return d;
fail:
  Py_DECREF(d);
  return NULL;
}

static PyObject *conv(const dz_schema *s, const desert_type *t, const desert_value *v,
                      unsigned depth) {
  if (depth > DZ_MAX_DEPTH) return too_deep();
  t = desert_type_resolve(t);
  if (!t) return bad_tree("unresolved type");
  switch (t->kind) {
  case DESERT_TYPE_BOOL:
    return PyBool_FromLong(v->as.b);
  case DESERT_TYPE_I8:
  case DESERT_TYPE_I16:
  case DESERT_TYPE_I32:
  case DESERT_TYPE_I64:
  case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_DAY_OF_WEEK:
  case DESERT_TYPE_MONTH:
  case DESERT_TYPE_YEAR:
  case DESERT_TYPE_ZONE_OFFSET:
    return PyLong_FromLongLong(v->as.i);
  case DESERT_TYPE_U8:
  case DESERT_TYPE_U16:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_VAR_U32:
    return PyLong_FromUnsignedLongLong(v->as.u);
  case DESERT_TYPE_F32:
  case DESERT_TYPE_F64:
    return conv_float(t->kind == DESERT_TYPE_F32, v->as.bits);
  case DESERT_TYPE_UNIT:
    Py_RETURN_NONE;
  case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16:
    return PyUnicode_FromOrdinal((int)v->as.cp);
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING:
    return PyUnicode_DecodeUTF8(v->as.str.ptr, (Py_ssize_t)v->as.str.len, NULL);
  case DESERT_TYPE_BIGDECIMAL: {
    PyObject *text = PyUnicode_DecodeUTF8(v->as.str.ptr, (Py_ssize_t)v->as.str.len, NULL);
    if (!text) return NULL;
    PyObject *r = PyObject_CallOneArg(dz.Decimal, text);
    Py_DECREF(text);
    return r;
  }
  case DESERT_TYPE_BYTES:
  case DESERT_TYPE_COMPRESSED:
    return PyBytes_FromStringAndSize(v->as.str.ptr, (Py_ssize_t)v->as.str.len);
  case DESERT_TYPE_UUID:
    if (v->kind != DESERT_VALUE_BYTES || v->as.str.len != 16) return bad_tree("uuid");
    return dz_uuid((const uint8_t *)v->as.str.ptr);
  case DESERT_TYPE_BIGINT:
    return conv_bigint(v);
  case DESERT_TYPE_BIGDECIMAL_BINARY: {
    /* Decimal((sign, digits, -scale)) keeps unscaled and scale exactly. */
    if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != 2) return bad_tree("bigdecimal_binary");
    PyObject *u = conv_bigint(&v->as.seq.items[0]);
    if (!u) return NULL;
    PyObject *r = NULL, *mag = PyNumber_Absolute(u);
    PyObject *digits_s = mag ? PyObject_Str(mag) : NULL;
    PyObject *digits = NULL;
    if (digits_s) {
      Py_ssize_t nd = PyUnicode_GET_LENGTH(digits_s);
      digits = PyTuple_New(nd);
      for (Py_ssize_t i = 0; digits && i < nd; i++)
        PyTuple_SET_ITEM(digits, i, PyLong_FromLong(PyUnicode_READ_CHAR(digits_s, i) - '0'));
    }
    if (digits && v->as.seq.items[1].as.i == INT64_MIN) {
      PyErr_SetString(PyExc_OverflowError, "scale beyond Decimal's exponent range");
    } else if (digits) {
      int neg = PyObject_RichCompareBool(u, mag, Py_NE);
      PyObject *tuple = Py_BuildValue("(iOL)", neg, digits, (long long)-v->as.seq.items[1].as.i);
      if (tuple) r = PyObject_CallOneArg(dz.Decimal, tuple);
      Py_XDECREF(tuple);
    }
    Py_XDECREF(digits);
    Py_XDECREF(digits_s);
    Py_XDECREF(mag);
    Py_DECREF(u);
    if (!r && PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_MemoryError)) {
      /* beyond Decimal's exponent range: the JSON language's dict */
      PyErr_Clear();
      PyObject *uu = conv_bigint(&v->as.seq.items[0]);
      PyObject *sc = PyLong_FromLongLong(v->as.seq.items[1].as.i);
      if (uu && sc) r = Py_BuildValue("{OOOO}", dz.k_unscaled, uu, dz.k_scale, sc);
      Py_XDECREF(uu);
      Py_XDECREF(sc);
    }
    return r;
  }
  case DESERT_TYPE_ZONE_ID:
    return zone_id(v);
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
    return conv_time(t->kind, v);
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    return conv_seq_list(s, t->u.coll.element, v, depth);
  case DESERT_TYPE_MAP:
    return conv_map(s, t, v, depth);
  case DESERT_TYPE_OPTION:
    if (v->kind == DESERT_VALUE_NULL) Py_RETURN_NONE;
    if (v->kind != DESERT_VALUE_SOME) return bad_tree("option");
    if (desert_type_nullable(t->u.inner))
      return dz_one_key(dz.k_some, conv(s, t->u.inner, v->as.child, depth + 1));
    return conv(s, t->u.inner, v->as.child, depth + 1);
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY: {
    if (v->kind != DESERT_VALUE_ALT || v->index > 1) return bad_tree("either/try");
    int either = t->kind == DESERT_TYPE_EITHER;
    PyObject *key = dz_alt_key(either, v->index != 0);
    return dz_one_key(key, conv(s, v->index ? t->u.alt.right : t->u.alt.left, v->as.child,
                             depth + 1));
  }
  case DESERT_TYPE_TUPLE: {
    if (v->kind != DESERT_VALUE_SEQ || v->as.seq.count != t->u.tuple.count)
      return bad_tree("tuple");
    PyObject *tup = PyTuple_New((Py_ssize_t)v->as.seq.count);
    if (!tup) return NULL;
    for (size_t i = 0; i < v->as.seq.count; i++) {
      PyObject *x = conv(s, t->u.tuple.elements[i], &v->as.seq.items[i], depth + 1);
      if (!x) {
        Py_DECREF(tup);
        return NULL;
      }
      PyTuple_SET_ITEM(tup, (Py_ssize_t)i, x);
    }
    return tup;
  }
  case DESERT_TYPE_RECORD: {
    PyObject *d = _PyDict_NewPresized((Py_ssize_t)t->u.record.field_count);
    if (d && fill_record(s, t, v, d, depth) < 0) Py_CLEAR(d);
    return d;
  }
  case DESERT_TYPE_ENUM:
    return conv_enum(s, t, v, depth);
  default:
    return bad_tree("kind");
  }
}

int dz_to_python_init(void) {
  PyDateTime_IMPORT;
  return PyDateTimeAPI ? 0 : -1;
}

PyObject *dz_to_python(const dz_schema *s, const desert_type *t, const desert_value *v) {
  return conv(s, t, v, 0);
}

PyObject *dz_to_python_at(const dz_schema *s, const desert_type *t, const desert_value *v,
                          unsigned depth) {
  return conv(s, t, v, depth);
}

PyObject *dz_float_to_python(int is_f32, uint64_t bits) { return conv_float(is_f32, bits); }

/* UUID(bytes=b): the class called, as the documentation of uuid says. */
static PyObject *uuid_called(const uint8_t b[16]) {
  PyObject *bytes = PyBytes_FromStringAndSize((const char *)b, 16);
  if (!bytes) return NULL;
  PyObject *args = PyTuple_New(0), *kw = Py_BuildValue("{OO}", dz.k_bytes, bytes);
  PyObject *r = args && kw ? PyObject_Call(dz.UUID, args, kw) : NULL;
  Py_XDECREF(args);
  Py_XDECREF(kw);
  Py_DECREF(bytes);
  return r;
}

/* The object uuid.UUID.__setstate__ (pickle) leaves: a bare instance whose
 * int and is_safe slots are set through object.__setattr__. */
static PyObject *uuid_made(const uint8_t b[16]) {
  PyObject *n = _PyLong_FromByteArray(b, 16, 0, 0);
  if (!n) return NULL;
  PyTypeObject *tp = (PyTypeObject *)dz.UUID;
  PyObject *none = PyTuple_New(0);
  PyObject *u = none ? tp->tp_new(tp, none, NULL) : NULL;
  Py_XDECREF(none);
  if (u && (PyObject_GenericSetAttr(u, dz.s_int, n) < 0 ||
            PyObject_GenericSetAttr(u, dz.s_is_safe, dz.safe_unknown) < 0))
    Py_CLEAR(u);
  Py_DECREF(n);
  return u;
}

PyObject *dz_uuid(const uint8_t b[16]) { return dz.safe_unknown ? uuid_made(b) : uuid_called(b); }

int dz_uuid_init(void) {
  PyObject *mod = PyImport_ImportModule("uuid");
  PyObject *safe = mod ? PyObject_GetAttrString(mod, "SafeUUID") : NULL;
  PyObject *unknown = safe ? PyObject_GetAttrString(safe, "unknown") : NULL;
  Py_XDECREF(safe);
  Py_XDECREF(mod);
  dz.s_int = PyUnicode_InternFromString("int");
  dz.s_is_safe = PyUnicode_InternFromString("is_safe");
  if (!dz.s_int || !dz.s_is_safe) {
    Py_XDECREF(unknown);
    return -1;
  }
  if (!unknown || !PyType_Check(dz.UUID)) { /* another uuid module: call the class */
    PyErr_Clear();
    Py_XDECREF(unknown);
    return 0;
  }
  /* The fast form is kept only if it equals the called one, is_safe
   * included, for a sample. */
  dz.safe_unknown = unknown;
  const uint8_t sample[16] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0x4d, 0xef,
                              0x80, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd};
  PyObject *a = uuid_made(sample), *b = a ? uuid_called(sample) : NULL;
  int same = a && b ? PyObject_RichCompareBool(a, b, Py_EQ) : -1;
  PyObject *sa = same == 1 ? PyObject_GetAttr(a, dz.s_is_safe) : NULL;
  PyObject *sb = sa ? PyObject_GetAttr(b, dz.s_is_safe) : NULL;
  int safe_same = sa && sb && sa == sb && Py_TYPE(a) == Py_TYPE(b);
  Py_XDECREF(a);
  Py_XDECREF(b);
  Py_XDECREF(sa);
  Py_XDECREF(sb);
  if (!safe_same) {
    PyErr_Clear();
    Py_CLEAR(dz.safe_unknown);
  }
  return 0;
}
