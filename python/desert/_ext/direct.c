/* python/desert/_ext/direct.c — schema-driven conversion straight between
 * bytes and Python objects, without a desert_value tree in between: the
 * decoder reads each item with the reader (inline fast paths of
 * reader_inline.h) and makes its Python object at once; the encoder walks
 * the Python value along the type and writes each item into the writer
 * (writer_inline.h). Records (through a prepared plan built from the
 * type's fields and steps), enums (ids tabulated in the schema's names
 * table), lists, sets, maps, options, numbers, strings and byte blocks are
 * done here both ways, and chars, UUIDs and either/try when decoding; any
 * other kind (dates and times, decimals, big integers, tuples, ...) and
 * any Python object the encoder does not take as it is (a subclass, a
 * generator, a Mapping, a wrong type) is one subtree through the tree
 * codec (desert_type_decode + dz_to_python, dz_from_python +
 * desert_type_encode), so the values, statuses, paths and messages are
 * those of the tree path. Schema.decode tries flat.c before this. */
#include "items.h"

/* ---- decoding ------------------------------------------------------------------------------ */

typedef struct dz_dec {
  const dz_schema *s;
  desert_reader *r;
  desert_value_arena *arena;
  size_t budget; /* value nodes left, charged as the tree codec charges them */
  unsigned depth;
  dz_dec_failure *f;
  dz_strsite site; /* strings outside any record field */
  /* The whole input (held for the call), where the lengths of large items
   * are peeked at; NULL in a stream, where nothing is done without the GIL
   * (the window belongs to an iterator another thread may call meanwhile). */
  const uint8_t *in;
  size_t in_len;
} dz_dec;

static PyObject *dec(dz_dec *c, const desert_type *t);
static PyObject *bytes_copy(const void *p, size_t n, int release);
static PyObject *dec_r(dz_dec *c, const desert_type *t, const dz_names *nm, dz_strsite *site);

/* The reader recorded a failure: its status and offset. */
static PyObject *rfail(dz_dec *c) {
  desert_status st = desert_reader_status(c->r);
  c->f->status = st ? st : DESERT_E_STATE;
  c->f->offset = desert_reader_error_offset(c->r);
  c->f->message[0] = '\0';
  return NULL;
}

/* A failure found here, at offset at. */
static PyObject *dfail(dz_dec *c, desert_status st, size_t at, const char *message) {
  desert_reader_fail(c->r, st, at);
  c->f->status = desert_reader_status(c->r);
  if (!c->f->status) c->f->status = st;
  c->f->offset = at;
  snprintf(c->f->message, sizeof c->f->message, "%s", message);
  return NULL;
}

static int charge(dz_dec *c, size_t n) {
  if (n > c->budget) {
    dfail(c, DESERT_E_LIMIT, desert_reader_offset(c->r), "more than the allowed number of values");
    return -1;
  }
  c->budget -= n;
  return 0;
}

static PyObject *dpath_field(dz_dec *c, const char *name) {
  dz_path_field(c->f->path, sizeof c->f->path, &c->f->path_len, name);
  return NULL;
}
static PyObject *dpath_index(dz_dec *c, size_t i) {
  dz_path_index(c->f->path, sizeof c->f->path, &c->f->path_len, i);
  return NULL;
}

/* A subtree through the tree codec; nogil: decode it without the GIL (a
 * large compressed block: the codec touches only the reader and arena of
 * this call). */
static PyObject *dec_tree_as(dz_dec *c, const desert_type *t, int nogil) {
  desert_codec_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.max_depth = c->depth < DZ_MAX_DEPTH ? DZ_MAX_DEPTH - c->depth : 1;
  lim.max_values = c->budget ? c->budget : 1;
  desert_type_error terr;
  desert_value *v = NULL;
  desert_status rc;
  if (nogil) {
    DZ_BEGIN_NOGIL
    rc = desert_type_decode(c->r, t, c->arena, &lim, &v, &terr);
    DZ_END_NOGIL
  } else {
    rc = desert_type_decode(c->r, t, c->arena, &lim, &v, &terr);
  }
  if (rc) {
    char p[260];
    desert_type_error_json_path(&terr, p, sizeof p);
    size_t n = strlen(p + 1);
    if (n > sizeof c->f->path - 1) n = sizeof c->f->path - 1;
    memcpy(c->f->path, p + 1, n);
    c->f->path[n] = '\0';
    c->f->path_len = n;
    c->f->status = rc;
    c->f->offset = terr.has_offset ? terr.offset : desert_reader_error_offset(c->r);
    snprintf(c->f->message, sizeof c->f->message, "%s", terr.message);
    return NULL;
  }
  if (charge(c, 1) < 0) return NULL;
  if (t->kind == DESERT_TYPE_COMPRESSED && v->kind == DESERT_VALUE_BYTES)
    return bytes_copy(v->as.str.ptr, v->as.str.len, c->in != NULL);
  return dz_to_python_at(c->s, t, v, c->depth);
}

static PyObject *dec_tree(dz_dec *c, const desert_type *t) { return dec_tree_as(c, t, 0); }

static int coll_checks(dz_dec *c, const desert_type *t, const desert_seq *seq, size_t n) {
  if (t->u.coll.non_empty && n == 0) {
    dfail(c, DESERT_E_INVALID_VALUE, seq->offset, "empty collection for a non-empty type");
    return -1;
  }
  if (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length && n != t->u.coll.length) {
    char m[96];
    snprintf(m, sizeof m, "collection of %zu elements, expected %u", n, (unsigned)t->u.coll.length);
    dfail(c, DESERT_E_INVALID_VALUE, seq->offset, m);
    return -1;
  }
  return 0;
}

/* The var_u32 at offset at of the input (*next: the offset after it), or 0
 * when the input is not at hand or the varint is cut short or too long.
 * Only a hint for releasing the GIL: the reader decides what the bytes
 * mean and reports any error. */
static uint64_t peek_var(const dz_dec *c, size_t at, size_t *next) {
  uint64_t v = 0;
  for (unsigned k = 0; c->in && k < 5 && at + k < c->in_len; k++) {
    uint8_t b = c->in[at + k];
    v |= (uint64_t)(b & 0x7fu) << (7 * k);
    if (!(b & 0x80u)) {
      *next = at + k + 1;
      return v;
    }
  }
  return 0;
}

/* Whether the string (zig-zag length) or compressed block (two var_u32
 * lengths, docs/format.md §16) at the reader's position announces at least
 * DZ_NOGIL_BYTES. */
static int big_string_next(const dz_dec *c) {
  size_t next;
  return (peek_var(c, desert_reader_offset(c->r), &next) >> 1) >= DZ_NOGIL_BYTES;
}
static int big_block_next(const dz_dec *c) {
  size_t next = 0;
  uint64_t plain = peek_var(c, desert_reader_offset(c->r), &next);
  uint64_t packed = next ? peek_var(c, next, &next) : 0;
  return plain >= DZ_NOGIL_BYTES || packed >= DZ_NOGIL_BYTES;
}

/* dz_bytes_copy, without releasing the GIL when release is 0. */
static PyObject *bytes_copy(const void *p, size_t n, int release) {
  if (!release || n < DZ_NOGIL_BYTES)
    return PyBytes_FromStringAndSize((const char *)p, (Py_ssize_t)n);
  PyObject *o = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
  if (!o) return NULL;
  char *dst = PyBytes_AS_STRING(o); /* not shared before it is returned */
  DZ_BEGIN_NOGIL
  memcpy(dst, p, n);
  DZ_END_NOGIL
  return o;
}

PyObject *dz_bytes_copy(const void *p, size_t n) { return bytes_copy(p, n, 1); }

/* The string at the reader's position, announced with at least
 * DZ_NOGIL_BYTES: read (the reader validates the UTF-8) and measured
 * without the GIL. */
static PyObject *dec_big_string(dz_dec *c) {
  desert_str v;
  desert_status st;
  size_t chars = 0;
  unsigned lead = 0;
  DZ_BEGIN_NOGIL
  st = desert_read_string(c->r, &v);
  if (!st) dz_utf8_measure((const uint8_t *)v.ptr, v.len, &chars, &lead);
  DZ_END_NOGIL
  if (st) return rfail(c);
  return dz_big_str_measured(v.ptr, v.len, chars, lead, 1);
}

/* The common scalar kinds without a call: *out is the value (NULL on a
 * failure, recorded as dec_r records it) and 1 is returned; 0 for any other
 * kind, left to dec_r. Kept free of local arrays so that it inlines into
 * the record and list loops without a stack-protected frame. */
DZ_INLINE int dec_fast(dz_dec *c, const desert_type *t, dz_strsite *site, PyObject **out) {
  desert_reader *r = c->r;
  switch (t->kind) {
  case DESERT_TYPE_BOOL: {
    bool v;
    *out = desert_read_bool_inline(r, &v) ? rfail(c) : PyBool_FromLong(v);
    return 1;
  }
  case DESERT_TYPE_I32: {
    int32_t v;
    *out = desert_read_i32_inline(r, &v) ? rfail(c) : PyLong_FromLong(v);
    return 1;
  }
  case DESERT_TYPE_I64: {
    int64_t v;
    *out = desert_read_i64_inline(r, &v) ? rfail(c) : PyLong_FromLongLong(v);
    return 1;
  }
  case DESERT_TYPE_F64: {
    uint64_t bits; /* the f64's bytes, read as the inline f64 read reads them */
    *out = desert_read_u64_inline(r, &bits) ? rfail(c) : dz_f64_item(bits);
    return 1;
  }
  case DESERT_TYPE_STRING: {
    desert_str v;
    if (site->big && c->in && big_string_next(c)) *out = dec_big_string(c);
    else if (desert_read_string_inline(r, &v)) *out = rfail(c);
    else if (v.len >= DZ_NOGIL_BYTES)
      *out = (site->big = 1, dz_big_str(v.ptr, v.len, c->in != NULL));
    else *out = dz_str_of(v.ptr, v.len, site);
    return 1;
  }
  default:
    return 0;
  }
}

/* A known-size list of fixed-width numbers whose bytes are all in view and
 * within the value budget: one read of the whole run, then the objects.
 * Nothing in it can fail but memory, so the result (values, charge, the
 * reader's position) is the element loop's; anything else takes the loop,
 * which reports errors at their element. NULL with *taken 0: not taken. */
static PyObject *dec_bulk(dz_dec *c, const desert_type *et, desert_seq *seq, int *taken) {
  desert_reader *r = c->r;
  const size_t w = dz_bulk_width(et);
  *taken = 0;
  if (!w || !seq->known || seq->count > desert_reader_remaining(r) / w ||
      seq->count > c->budget || seq->count > (size_t)PY_SSIZE_T_MAX)
    return NULL;
  *taken = 1;
  const uint8_t *p;
  if (desert_read_raw(r, seq->count * w, &p)) return rfail(c);
  c->budget -= seq->count;
  seq->index = seq->count;
  PyObject *list = PyList_New((Py_ssize_t)seq->count);
  if (!list) return NULL;
  size_t bad = 0;
  if (dz_bulk_fill(list, et->kind, p, seq->count, &bad) < 0) {
    Py_DECREF(list);
    return dpath_index(c, bad);
  }
  return list;
}

static PyObject *dec_list(dz_dec *c, const desert_type *t, dz_strsite *site) {
  desert_reader *r = c->r;
  desert_seq seq;
  /* The element type resolved and its names entry found once per list. */
  const desert_type *et = desert_type_resolve(t->u.coll.element);
  const dz_names *enm = NULL;
  if (et && et->kind == DESERT_TYPE_RECORD && !(enm = dz_names_of(c->s, et))) return NULL;
  if (desert_read_seq_begin(r, &seq)) return rfail(c);
  int bulk = 0;
  PyObject *list = et ? dec_bulk(c, et, &seq, &bulk) : NULL;
  size_t n = bulk ? seq.count : 0, pre = 0;
  if (bulk && !list) return NULL;
  if (!bulk) {
    /* Never trust a count for an allocation: at most 1024 slots up front. */
    pre = seq.known ? (seq.count < 1024 ? seq.count : 1024) : 0;
    list = PyList_New((Py_ssize_t)pre);
    if (!list) return NULL;
  }
  while (!bulk && desert_read_seq_next_inline(r, &seq)) {
    if (charge(c, 1) < 0) goto fail;
    PyObject *x;
    if (!et) x = dec(c, t->u.coll.element);
    else if (!dec_fast(c, et, site, &x)) x = dec_r(c, et, enm, site);
    if (!x) {
      dpath_index(c, n);
      goto fail;
    }
    if (n < pre) {
      PyList_SET_ITEM(list, (Py_ssize_t)n, x);
    } else {
      int rc = PyList_Append(list, x);
      Py_DECREF(x);
      if (rc < 0) goto fail;
    }
    n++;
  }
  if (desert_reader_status(r)) {
    rfail(c);
    goto fail;
  }
  if (n < pre && PyList_SetSlice(list, (Py_ssize_t)n, (Py_ssize_t)pre, NULL) < 0) goto fail;
  if (coll_checks(c, t, &seq, n) < 0) goto fail;
  size_t cap = dz_tree_cap(seq.known, seq.count, n);
  if (cap > n && charge(c, cap - n) < 0) goto fail;
  return list;
fail:
  Py_DECREF(list);
  return NULL;
}

/* A map entry is a 2-tuple record (docs/format.md §6.4). */
static int dec_entry(dz_dec *c, const desert_type *t, PyObject **k, PyObject **v) {
  desert_record_reader rr;
  desert_field_action act;
  *k = *v = NULL;
  if (charge(c, 2) < 0) return -1;
  if (desert_record_read_begin_plan(c->r, desert_tuple_plan(2), &rr)) return rfail(c), -1;
  for (size_t i = 0; i < 2; i++) {
    if (desert_record_read_field(&rr, i, &act)) return rfail(c), dpath_index(c, i), -1;
    if (act != DESERT_FIELD_READ) {
      dfail(c, DESERT_E_STATE, desert_reader_offset(c->r), "unexpected field action");
      return dpath_index(c, i), -1;
    }
    PyObject *x = dec(c, i ? t->u.coll.value : t->u.coll.element);
    if (!x) return dpath_index(c, i), -1;
    if (i) *v = x;
    else *k = x;
  }
  if (desert_record_read_end(&rr)) return rfail(c), -1;
  return 0;
}

/* A dict when every key hashes and no two are equal, else a list of (key,
 * value) tuples in wire order (python/README.md). */
static PyObject *dec_map(dz_dec *c, const desert_type *t) {
  desert_reader *r = c->r;
  desert_seq seq;
  if (desert_read_seq_begin(r, &seq)) return rfail(c);
  PyObject **kv = NULL, *result = NULL;
  size_t n = 0, cap = 0;
  while (desert_read_seq_next_inline(r, &seq)) {
    if (charge(c, 1) < 0) goto done;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      PyObject **nkv = PyMem_Realloc(kv, ncap * 2 * sizeof *kv);
      if (!nkv) {
        PyErr_NoMemory();
        goto done;
      }
      kv = nkv;
      cap = ncap;
    }
    int rc = dec_entry(c, t, &kv[2 * n], &kv[2 * n + 1]);
    if (rc < 0) {
      Py_XDECREF(kv[2 * n]);
      Py_XDECREF(kv[2 * n + 1]);
      dpath_index(c, n);
      goto done;
    }
    n++;
  }
  if (desert_reader_status(r)) {
    rfail(c);
    goto done;
  }
  if (coll_checks(c, t, &seq, n) < 0) goto done;
  size_t tc = dz_tree_cap(seq.known, seq.count, n);
  if (tc > n && charge(c, tc - n) < 0) goto done;
  PyObject *d = _PyDict_NewPresized((Py_ssize_t)n);
  if (!d) goto done;
  int fallback = 0;
  for (size_t i = 0; i < n && !fallback; i++) {
    if (PyDict_SetItem(d, kv[2 * i], kv[2 * i + 1]) < 0) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
        Py_DECREF(d);
        goto done;
      }
      PyErr_Clear(); /* an unhashable key */
      fallback = 1;
    } else if ((size_t)PyDict_GET_SIZE(d) != i + 1) {
      fallback = 1; /* a duplicate key */
    }
  }
  if (!fallback) {
    result = d;
    goto done;
  }
  Py_DECREF(d);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    PyObject *pair = PyTuple_Pack(2, kv[2 * i], kv[2 * i + 1]);
    if (!pair) Py_CLEAR(list);
    else PyList_SET_ITEM(list, (Py_ssize_t)i, pair);
  }
  result = list;
done:
  for (size_t i = 0; i < 2 * n; i++) Py_DECREF(kv[i]);
  PyMem_Free(kv);
  return result;
}

/* The fields of record t (names entry nm, with a plan) into the dict d;
 * 0, or -1 with the failure recorded (d is the caller's). */
static int dec_fields(dz_dec *c, const desert_type *t, const dz_names *nm, PyObject *d) {
  desert_reader *r = c->r;
  const size_t n = t->u.record.field_count;
  if (charge(c, n) < 0) return -1;
  desert_record_reader rr;
  if (desert_record_read_begin_plan(r, nm->plan, &rr)) {
    rfail(c);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    desert_field_action act;
    PyObject *x = NULL;
    if (desert_record_read_field(&rr, i, &act)) {
      rfail(c);
      goto fail_field;
    }
    switch (act) {
    case DESERT_FIELD_READ:
      if (f->flags & DESERT_FIELD_OPTIONAL) {
        if (charge(c, 1) < 0) goto fail_field;
        x = dec(c, f->type);
        if (x && desert_type_nullable(f->type)) x = dz_one_key(dz.k_some, x);
      } else if (nm->ftypes[i]) {
        if (!dec_fast(c, nm->ftypes[i], &nm->sites[i], &x))
          x = dec_r(c, nm->ftypes[i], nm->fnames[i], &nm->sites[i]);
      } else {
        x = dec(c, f->type);
      }
      break;
    case DESERT_FIELD_NONE:
      x = Py_NewRef(Py_None);
      break;
    case DESERT_FIELD_DEFAULT:
      if (!nm->added[i]) {
        dfail(c, DESERT_E_FIELD_MISSING, desert_reader_offset(r), f->name);
        goto fail_field;
      }
      x = dz_field_to_python(c->s, f, nm->added[i], c->depth);
      break;
    case DESERT_FIELD_TRANSIENT:
      if (!f->transient_default) {
        dfail(c, DESERT_E_STATE, desert_reader_offset(r), "no transient default");
        goto fail_field;
      }
      x = dz_field_to_python(c->s, f, f->transient_default, c->depth);
      break;
    default:
      dfail(c, DESERT_E_STATE, desert_reader_offset(r), "unknown field action");
      goto fail_field;
    }
    if (!x) goto fail_field;
    int rc = PyDict_SetItem(d, nm->names[i], x);
    Py_DECREF(x);
    if (rc < 0) goto fail;
    continue;
  fail_field:
    dpath_field(c, f->name);
    goto fail;
  }
  if (desert_record_read_end(&rr)) {
    rfail(c);
    return -1;
  }
  return 0;
fail:
  desert_record_read_end(&rr); /* (restores the reader; the failure is recorded) */
  return -1;
}

static PyObject *dec_record(dz_dec *c, const desert_type *t, const dz_names *nm) {
  PyObject *d = _PyDict_NewPresized((Py_ssize_t)t->u.record.field_count);
  if (!d) return NULL;
  if (dec_fields(c, t, nm, d) < 0) Py_CLEAR(d);
  return d;
}

/* Either / Try: a tag, then the left (failure) or right (success) value,
 * as {"left": x} / {"right": x} / {"failure": x} / {"success": x}. */
static PyObject *dec_alt(dz_dec *c, const desert_type *t) {
  const int either = t->kind == DESERT_TYPE_EITHER;
  bool one;
  if (either ? desert_read_either_inline(c->r, &one) : desert_read_try_inline(c->r, &one))
    return rfail(c);
  if (charge(c, 1) < 0) return NULL;
  PyObject *key = dz_alt_key(either, one);
  PyObject *x = dec(c, one ? t->u.alt.right : t->u.alt.left);
  if (!x) return dpath_field(c, PyUnicode_AsUTF8(key));
  return dz_one_key(key, x);
}

/* An enum value: {"$case": name} and its record payload's fields, or
 * {"$case": name, "value": payload} (docs/schema.md's value language),
 * read with the reader's enum calls and the ids tabulated at load. */
static PyObject *dec_enum(dz_dec *c, const dz_names *nm) {
  desert_reader *r = c->r;
  uint32_t id;
  if (desert_enum_read_begin_id(r, nm->id_count, &id)) return rfail(c);
  const size_t idx = nm->case_of[id];
  const desert_type *pt = nm->ftypes[idx];
  PyObject *d = NULL;
  if (charge(c, 1) < 0) goto done;
  d = _PyDict_NewPresized(pt && pt->kind == DESERT_TYPE_RECORD
                              ? (Py_ssize_t)pt->u.record.field_count + 1 : 2);
  if (!d) goto done;
  if (PyDict_SetItem(d, dz.k_case, nm->names[idx]) < 0) goto fail;
  if (pt->kind == DESERT_TYPE_RECORD) {
    /* the payload record is a level of its own, as in the tree codec */
    if (c->depth >= DZ_MAX_DEPTH) {
      dfail(c, DESERT_E_DEPTH, desert_reader_offset(r), "nesting too deep");
      goto fail;
    }
    c->depth++;
    int rc = dec_fields(c, pt, nm->fnames[idx], d);
    c->depth--;
    if (rc < 0) goto fail;
  } else {
    PyObject *x = dec_r(c, pt, NULL, &c->site);
    if (!x) {
      dpath_field(c, "value");
      goto fail;
    }
    int rc = PyDict_SetItem(d, dz.k_value, x);
    Py_DECREF(x);
    if (rc < 0) goto fail;
  }
  if (desert_enum_read_end_id(r)) {
    rfail(c);
    goto fail;
  }
  return d;
fail:
  Py_CLEAR(d);
done:
  desert_enum_read_end_id(r); /* (restores the nesting; the failure is recorded) */
  return d;
}

#define RD(T, READ, MAKE)               \
  {                                     \
    T v_;                               \
    if (READ(r, &v_)) return rfail(c);  \
    return MAKE(v_);                    \
  }

static PyObject *dec(dz_dec *c, const desert_type *t) {
  t = desert_type_resolve(t);
  if (!t) return dfail(c, DESERT_E_ARGUMENT, desert_reader_offset(c->r), "unresolved type");
  return dec_r(c, t, NULL, &c->site);
}

/* A value of the resolved type t; nm: t's names entry when t is a record
 * (NULL: looked up); site: where its short strings come from. */
static PyObject *dec_r(dz_dec *c, const desert_type *t, const dz_names *nm, dz_strsite *site) {
  desert_reader *r = c->r;
  PyObject *fx;
  if (dec_fast(c, t, site, &fx)) return fx;
  switch (t->kind) {
  case DESERT_TYPE_I8:
    RD(int8_t, desert_read_i8_inline, PyLong_FromLong)
  case DESERT_TYPE_I16:
    RD(int16_t, desert_read_i16_inline, PyLong_FromLong)
  case DESERT_TYPE_U8:
    RD(uint8_t, desert_read_u8_inline, PyLong_FromLong)
  case DESERT_TYPE_U16:
    RD(uint16_t, desert_read_u16_inline, PyLong_FromLong)
  case DESERT_TYPE_U32:
    RD(uint32_t, desert_read_u32_inline, PyLong_FromUnsignedLong)
  case DESERT_TYPE_U64:
    RD(uint64_t, desert_read_u64_inline, PyLong_FromUnsignedLongLong)
  case DESERT_TYPE_VAR_U32:
    RD(uint32_t, desert_read_var_u32_inline, PyLong_FromUnsignedLong)
  case DESERT_TYPE_VAR_I32:
    RD(int32_t, desert_read_var_i32_inline, PyLong_FromLong)
  case DESERT_TYPE_F32: {
    uint32_t bits;
    if (desert_read_u32_inline(r, &bits)) return rfail(c);
    return dz_float_to_python(1, bits);
  }
  case DESERT_TYPE_UNIT:
    Py_RETURN_NONE;
  case DESERT_TYPE_CHAR: {
    uint32_t cp;
    if (desert_read_char(r, &cp)) return rfail(c);
    return PyUnicode_FromOrdinal((int)cp);
  }
  case DESERT_TYPE_CHAR16: {
    size_t at = desert_reader_offset(r);
    uint16_t u;
    if (desert_read_char16(r, &u)) return rfail(c);
    if (u >= 0xD800u && u <= 0xDFFFu) return dfail(c, DESERT_E_INVALID_CHAR, at, "a surrogate");
    return PyUnicode_FromOrdinal(u);
  }
  case DESERT_TYPE_UUID: {
    uint8_t b[16];
    if (desert_read_uuid(r, b)) return rfail(c);
    return dz_uuid(b);
  }
  case DESERT_TYPE_DEDUP_STRING: {
    desert_str s;
    if (desert_read_dedup_string(r, &s)) return rfail(c);
    return dz_str_of(s.ptr, s.len, site);
  }
  case DESERT_TYPE_BYTES:
    if (t->u.bytes.non_empty || t->u.bytes.has_length) return dec_tree(c, t);
    {
      desert_bytes b;
      if (desert_read_bytes(r, &b)) return rfail(c);
      return bytes_copy(b.ptr, b.len, c->in != NULL);
    }
  case DESERT_TYPE_COMPRESSED:
    return dec_tree_as(c, t, c->in && big_block_next(c));
  default:
    break;
  }
  if (t->kind < DESERT_TYPE_LIST) return dec_tree(c, t);
  if (t->kind == DESERT_TYPE_RECORD || t->kind == DESERT_TYPE_ENUM) {
    if (!nm) nm = dz_names_of(c->s, t);
    if (!nm) return NULL;
    if (t->kind == DESERT_TYPE_RECORD ? !nm->plan : !nm->direct) return dec_tree(c, t);
  }
  if (t->kind != DESERT_TYPE_LIST && t->kind != DESERT_TYPE_SET && t->kind != DESERT_TYPE_MAP &&
      t->kind != DESERT_TYPE_OPTION && t->kind != DESERT_TYPE_RECORD &&
      t->kind != DESERT_TYPE_ENUM && t->kind != DESERT_TYPE_EITHER && t->kind != DESERT_TYPE_TRY)
    return dec_tree(c, t);
  if (c->depth >= DZ_MAX_DEPTH) {
    char m[64];
    snprintf(m, sizeof m, "nesting deeper than %u", DZ_MAX_DEPTH);
    return dfail(c, DESERT_E_DEPTH, desert_reader_offset(r), m);
  }
  c->depth++;
  PyObject *x;
  switch (t->kind) {
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    x = dec_list(c, t, site);
    break;
  case DESERT_TYPE_MAP:
    x = dec_map(c, t);
    break;
  case DESERT_TYPE_OPTION: {
    bool some;
    if (desert_read_option_inline(r, &some)) {
      x = rfail(c);
      break;
    }
    if (!some) {
      x = Py_NewRef(Py_None);
      break;
    }
    if (charge(c, 1) < 0) {
      x = NULL;
      break;
    }
    if (desert_type_nullable(t->u.inner)) {
      PyObject *in = dec(c, t->u.inner);
      if (!in) {
        x = dpath_field(c, "some");
        break;
      }
      x = PyDict_New();
      if (x && PyDict_SetItem(x, dz.k_some, in) < 0) Py_CLEAR(x);
      Py_DECREF(in);
    } else {
      x = dec(c, t->u.inner);
    }
    break;
  }
  case DESERT_TYPE_ENUM:
    x = dec_enum(c, nm);
    break;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    x = dec_alt(c, t);
    break;
  default:
    x = dec_record(c, t, nm);
    break;
  }
  c->depth--;
  return x;
}

PyObject *dz_decode_direct(const dz_schema *s, desert_reader *r, desert_value_arena *arena,
                           const desert_type *t, size_t max_values, dz_dec_failure *fail) {
  return dz_decode_direct_in(s, r, arena, t, max_values, fail, NULL, 0);
}

PyObject *dz_decode_direct_in(const dz_schema *s, desert_reader *r, desert_value_arena *arena,
                              const desert_type *t, size_t max_values, dz_dec_failure *fail,
                              const void *in, size_t in_len) {
  memset(fail, 0, offsetof(dz_dec_failure, path) + 1);
  fail->message[0] = '\0';
  dz_dec c = {s, r, arena, max_values, 0, fail, {0, 0, 0, 0}, NULL, 0};
  c.in = in, c.in_len = in ? in_len : 0;
  if (charge(&c, 1) < 0) return NULL;
  PyObject *x = dec(&c, t);
  if (x && desert_reader_status(r)) { /* not expected: every read was checked */
    Py_DECREF(x);
    return rfail(&c);
  }
  return x;
}

/* ---- encoding ------------------------------------------------------------------------------ */

static int enc(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o);

/* A writer failure (the writer recorded it). */
static int wfail(dz_from_ctx *c, desert_writer *w) {
  desert_status st = desert_writer_status(w);
  if (!st) st = DESERT_E_STATE;
  return dz_fail_status(c, st, desert_status_message(st));
}

/* A subtree through the tree converter and codec: its values, errors and
 * messages are those of the tree path. */
static int enc_tree(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o) {
  desert_value v;
  memset(&v, 0, sizeof v);
  unsigned depth = c->depth;
  if (dz_from_python_sub(c, t, o, &v) < 0) return -1;
  desert_codec_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.max_depth = depth < DZ_MAX_DEPTH ? DZ_MAX_DEPTH - depth : 1;
  desert_type_error terr;
  desert_status rc;
  /* A large compressed block is deflated without the GIL: its tree is one
   * byte block pointing into o (immutable bytes, referenced by the caller)
   * or into this call's arena. */
  if (c->may_release && t->kind == DESERT_TYPE_COMPRESSED && v.kind == DESERT_VALUE_BYTES &&
      v.as.str.len >= DZ_NOGIL_BYTES) {
    DZ_BEGIN_NOGIL
    rc = desert_type_encode(w, t, &v, &lim, &terr);
    DZ_END_NOGIL
  } else {
    rc = desert_type_encode(w, t, &v, &lim, &terr);
  }
  if (!rc) return 0;
  char p[260];
  desert_type_error_json_path(&terr, p, sizeof p);
  dz_fail_status(c, rc, terr.message[0] ? terr.message : desert_status_message(rc));
  size_t n = strlen(p + 1);
  c->path_len = 0;
  c->path[0] = '\0';
  return dz_path_prepend(c->path, sizeof c->path, &c->path_len, p + 1, n);
}

/* enc_tree for the composite whose level is already counted. */
static int enc_tree_here(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o) {
  c->depth--;
  int rc = enc_tree(c, w, t, o);
  c->depth++;
  return rc;
}

static int enc_list(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o) {
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  int unknown = t->u.coll.unknown_form;
  if (unknown ? desert_write_stream_begin(w) : desert_write_count_inline(w, (size_t)n))
    return wfail(c, w);
  const desert_type *et = t->u.coll.element;
  for (Py_ssize_t i = 0; i < n; i++) {
    if (i >= PySequence_Fast_GET_SIZE(o)) /* user code shrank the list meanwhile */
      return dz_fail_status(c, DESERT_E_ARGUMENT, "the list changed size while encoding");
    if (unknown && desert_write_stream_item(w)) return wfail(c, w);
    PyObject *x = Py_NewRef(PySequence_Fast_GET_ITEM(o, i));
    int rc = enc(c, w, et, x);
    Py_DECREF(x);
    if (rc < 0) return dz_at_index(c, (size_t)i);
  }
  if (unknown && desert_write_stream_end(w)) return wfail(c, w);
  return 0;
}

static int enc_map(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o) {
  Py_ssize_t n = PyDict_GET_SIZE(o), pos = 0, i = 0;
  int unknown = t->u.coll.unknown_form;
  if (unknown ? desert_write_stream_begin(w) : desert_write_count_inline(w, (size_t)n))
    return wfail(c, w);
  PyObject *k, *v;
  while (i < n && PyDict_Next(o, &pos, &k, &v)) {
    if (unknown && desert_write_stream_item(w)) return wfail(c, w);
    desert_record_writer rw;
    if (desert_record_write_begin_plan(w, desert_tuple_plan(2), &rw)) return wfail(c, w);
    Py_INCREF(k);
    Py_INCREF(v);
    int rc = 0;
    if (desert_record_write_field(&rw, 0)) rc = wfail(c, w);
    if (!rc && enc(c, w, t->u.coll.element, k) < 0) rc = dz_at_index(c, 0);
    if (!rc && desert_record_write_field(&rw, 1)) rc = wfail(c, w);
    if (!rc && enc(c, w, t->u.coll.value, v) < 0) rc = dz_at_index(c, 1);
    Py_DECREF(k);
    Py_DECREF(v);
    if (!rc && desert_record_write_end(&rw)) rc = wfail(c, w);
    if (rc < 0) return dz_at_index(c, (size_t)i);
    i++;
  }
  if (i != n || PyDict_GET_SIZE(o) != n)
    return dz_fail_status(c, DESERT_E_ARGUMENT, "the dict changed size while encoding");
  if (unknown && desert_write_stream_end(w)) return wfail(c, w);
  return 0;
}

/* An Option<inner>: None, or the value (a nullable inner type's {"some": v}
 * form goes through the tree path). */
static int enc_option(dz_from_ctx *c, desert_writer *w, const desert_type *opt_t,
                      const desert_type *inner, PyObject *o) {
  if (o == Py_None) return desert_write_option_inline(w, false) ? wfail(c, w) : 0;
  if (desert_type_nullable(inner)) return enc_tree_here(c, w, opt_t, o);
  if (desert_write_option_inline(w, true)) return wfail(c, w);
  return enc(c, w, inner, o);
}

/* An optional field of a record: its tag through
 * desert_record_write_field_option (the record writer's fast path; a field
 * started without its tag is checked when it ends), then the value of a
 * Some, as enc_option writes it. */
static int enc_optional_field(dz_from_ctx *c, desert_writer *w, desert_record_writer *rw,
                              size_t i, const desert_type *inner, PyObject *o) {
  if (o == Py_None) return desert_record_write_field_option(rw, i, false) ? wfail(c, w) : 0;
  PyObject *x = o;
  if (desert_type_nullable(inner)) {
    /* an optional field of a nullable type: {"some": v} */
    x = PyDict_CheckExact(o) && PyDict_GET_SIZE(o) == 1 ? PyDict_GetItemWithError(o, dz.k_some)
                                                        : NULL;
    if (!x) {
      if (PyErr_Occurred()) return -1;
      return dz_fail_status(c, DESERT_E_ARGUMENT,
                            "Some of a nullable type is written {\"some\": value}");
    }
  }
  if (desert_record_write_field_option(rw, i, true)) return wfail(c, w);
  if (x != o) return enc(c, w, inner, x) < 0 ? dz_at_field(c, "some") : 0;
  return enc(c, w, inner, x);
}


/* The values of record t's fields in the exact dict o (borrowed, NULL for
 * an absent optional or transient field), for the direct writer: 1; 0 when
 * a required field is missing or o holds keys beyond the fields and
 * `extra` more (an enum's "$case") — the caller then hands the value to
 * the tree path, which names the error; -1 with a Python error. */
static int record_vals(const desert_type *t, PyObject *o, const dz_names *nm, Py_ssize_t extra,
                       PyObject **vals) {
  const size_t nf = t->u.record.field_count;
  Py_ssize_t seen = 0;
  for (size_t i = 0; i < nf; i++) {
    PyObject *x = PyDict_GetItemWithError(o, nm->names[i]);
    if (!x && PyErr_Occurred()) return -1;
    vals[i] = x;
    if (x) seen++;
    unsigned fl = t->u.record.fields[i].flags;
    if (!x && !(fl & (DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT))) return 0;
  }
  return seen + extra == PyDict_GET_SIZE(o);
}

/* Writes record t from the values record_vals found. */
static int enc_record_vals(dz_from_ctx *c, desert_writer *w, const desert_type *t,
                           const dz_names *nm, PyObject **vals) {
  const size_t nf = t->u.record.field_count;
  for (size_t i = 0; i < nf; i++) Py_XINCREF(vals[i]);
  desert_record_writer rw;
  int rc = 0;
  if (desert_record_write_begin_plan(w, nm->plan, &rw)) rc = wfail(c, w);
  for (size_t i = 0; i < nf && !rc; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    if (f->flags & DESERT_FIELD_TRANSIENT) continue;
    if (f->flags & DESERT_FIELD_OPTIONAL) {
      rc = enc_optional_field(c, w, &rw, i, f->type, vals[i] ? vals[i] : Py_None);
    } else if (desert_record_write_field(&rw, i)) {
      rc = wfail(c, w);
    } else {
      rc = enc(c, w, f->type, vals[i]);
    }
    if (rc < 0) dz_at_field(c, f->name);
  }
  if (!rc && desert_record_write_end(&rw)) rc = wfail(c, w);
  for (size_t i = 0; i < nf; i++) Py_XDECREF(vals[i]);
  return rc;
}

static int enc_record(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o,
                      const dz_names *nm) {
  PyObject *vals[DZ_DIRECT_MAX_FIELDS];
  /* Every field looked up first: a missing field or an unknown key sends
   * the whole record, untouched, to the tree path for its error. */
  int ok = record_vals(t, o, nm, 0, vals);
  if (ok <= 0) return ok < 0 ? -1 : enc_tree_here(c, w, t, o);
  return enc_record_vals(c, w, t, nm, vals);
}

/* An enum value from its dict form (see dec_enum): the constructor looked
 * up by name, its id tabulated at load; anything the tree path would
 * refuse (no or an unknown "$case", a transient constructor, missing or
 * unknown keys) is handed to it whole, untouched, for its error. */
static int enc_enum(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o,
                    const dz_names *nm) {
  PyObject *cs = PyDict_GetItemWithError(o, dz.k_case);
  if (!cs && PyErr_Occurred()) return -1;
  PyObject *ix = cs && PyUnicode_CheckExact(cs) ? PyDict_GetItemWithError(nm->case_index, cs) : NULL;
  if (!ix && PyErr_Occurred()) return -1;
  size_t idx = ix ? PyLong_AsSize_t(ix) : 0;
  if (!ix || idx >= nm->count || nm->ids[idx] == UINT32_MAX) return enc_tree_here(c, w, t, o);
  const desert_type *pt = nm->ftypes[idx];
  if (pt->kind == DESERT_TYPE_RECORD) {
    PyObject *vals[DZ_DIRECT_MAX_FIELDS];
    const dz_names *pnm = nm->fnames[idx];
    int ok = record_vals(pt, o, pnm, 1, vals);
    if (ok <= 0) return ok < 0 ? -1 : enc_tree_here(c, w, t, o);
    if (desert_enum_write_id_inline(w, nm->ids[idx])) return wfail(c, w);
    return enc_record_vals(c, w, pt, pnm, vals);
  }
  PyObject *x = PyDict_GET_SIZE(o) == 2 ? PyDict_GetItemWithError(o, dz.k_value) : NULL;
  if (!x && PyErr_Occurred()) return -1;
  if (!x) return enc_tree_here(c, w, t, o);
  if (desert_enum_write_id_inline(w, nm->ids[idx])) return wfail(c, w);
  Py_INCREF(x);
  int rc = enc(c, w, pt, x);
  Py_DECREF(x);
  return rc < 0 ? dz_at_field(c, "value") : 0;
}

static int enc_option_type(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o) {
  return enc_option(c, w, t, t->u.inner, o);
}

/* A composite done here: one level around its components. */
static int nested(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o,
                  int (*fn)(dz_from_ctx *, desert_writer *, const desert_type *, PyObject *)) {
  c->depth++;
  int rc = fn(c, w, t, o);
  c->depth--;
  return rc;
}

static int enc_inner(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o) {
  switch (t->kind) {
  case DESERT_TYPE_BOOL:
    if (o != Py_True && o != Py_False) break;
    return desert_write_bool_inline(w, o == Py_True) ? wfail(c, w) : 0;
  case DESERT_TYPE_I8:
  case DESERT_TYPE_I16:
  case DESERT_TYPE_I32:
  case DESERT_TYPE_I64:
  case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_U8:
  case DESERT_TYPE_U16:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_VAR_U32: {
    if (!PyLong_CheckExact(o)) break;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      break; /* out of range: the tree path says so */
    }
    desert_status st;
    switch (t->kind) {
    case DESERT_TYPE_I8:
      if (v < INT8_MIN || v > INT8_MAX) return enc_tree(c, w, t, o);
      st = desert_write_i8_inline(w, (int8_t)v);
      break;
    case DESERT_TYPE_I16:
      if (v < INT16_MIN || v > INT16_MAX) return enc_tree(c, w, t, o);
      st = desert_write_i16_inline(w, (int16_t)v);
      break;
    case DESERT_TYPE_I32:
      if (v < INT32_MIN || v > INT32_MAX) return enc_tree(c, w, t, o);
      st = desert_write_i32_inline(w, (int32_t)v);
      break;
    case DESERT_TYPE_VAR_I32:
      if (v < INT32_MIN || v > INT32_MAX) return enc_tree(c, w, t, o);
      st = desert_write_var_i32_inline(w, (int32_t)v);
      break;
    case DESERT_TYPE_I64:
      st = desert_write_i64_inline(w, (int64_t)v);
      break;
    case DESERT_TYPE_U8:
      if (v < 0 || v > UINT8_MAX) return enc_tree(c, w, t, o);
      st = desert_write_u8_inline(w, (uint8_t)v);
      break;
    case DESERT_TYPE_U16:
      if (v < 0 || v > UINT16_MAX) return enc_tree(c, w, t, o);
      st = desert_write_u16_inline(w, (uint16_t)v);
      break;
    case DESERT_TYPE_U32:
      if (v < 0 || v > UINT32_MAX) return enc_tree(c, w, t, o);
      st = desert_write_u32_inline(w, (uint32_t)v);
      break;
    default: /* VAR_U32 */
      if (v < 0 || v > UINT32_MAX) return enc_tree(c, w, t, o);
      st = desert_write_var_u32_inline(w, (uint32_t)v);
      break;
    }
    return st ? wfail(c, w) : 0;
  }
  case DESERT_TYPE_F64:
    if (!PyFloat_CheckExact(o)) break;
    return desert_write_f64_inline(w, PyFloat_AS_DOUBLE(o)) ? wfail(c, w) : 0;
  case DESERT_TYPE_F32: {
    if (!PyFloat_CheckExact(o)) break;
    double d = PyFloat_AS_DOUBLE(o);
    float f = (float)d;
    if (isfinite(d) && !isfinite(f)) break; /* out of range: the tree path says so */
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return desert_write_u32_inline(w, bits) ? wfail(c, w) : 0;
  }
  case DESERT_TYPE_UNIT:
    if (o != Py_None) break;
    return 0;
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_DEDUP_STRING: {
    if (!PyUnicode_CheckExact(o)) break;
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(o, &n);
    if (!p) { /* a lone surrogate: the tree path's error */
      PyErr_Clear();
      break;
    }
    desert_status st;
    if (c->may_release && t->kind == DESERT_TYPE_STRING && (size_t)n >= DZ_NOGIL_BYTES) {
      /* p is o's own UTF-8 (immutable; the caller holds o) */
      DZ_BEGIN_NOGIL
      st = desert_write_string(w, p, (size_t)n);
      DZ_END_NOGIL
    } else {
      st = t->kind == DESERT_TYPE_STRING ? desert_write_string_inline(w, p, (size_t)n)
                                         : desert_write_dedup_string(w, p, (size_t)n);
    }
    return st ? wfail(c, w) : 0;
  }
  case DESERT_TYPE_BYTES: {
    if (!PyBytes_CheckExact(o) || t->u.bytes.non_empty || t->u.bytes.has_length) break;
    const char *p = PyBytes_AS_STRING(o);
    size_t n = (size_t)PyBytes_GET_SIZE(o);
    desert_status st;
    if (c->may_release && n >= DZ_NOGIL_BYTES) { /* immutable; the caller holds o */
      DZ_BEGIN_NOGIL
      st = desert_write_bytes(w, p, n);
      DZ_END_NOGIL
    } else {
      st = desert_write_bytes(w, p, n);
    }
    return st ? wfail(c, w) : 0;
  }
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    if ((!PyList_CheckExact(o) && !PyTuple_CheckExact(o)) || t->u.coll.non_empty ||
        t->u.coll.has_length)
      break;
    return nested(c, w, t, o, enc_list);
  case DESERT_TYPE_MAP:
    if (!PyDict_CheckExact(o) || t->u.coll.non_empty) break;
    return nested(c, w, t, o, enc_map);
  case DESERT_TYPE_OPTION:
    return nested(c, w, t, o, enc_option_type);
  case DESERT_TYPE_RECORD:
  case DESERT_TYPE_ENUM: {
    const int rec = t->kind == DESERT_TYPE_RECORD;
    if (!PyDict_CheckExact(o) || (rec && t->u.record.field_count > DZ_DIRECT_MAX_FIELDS)) break;
    const dz_names *nm = dz_names_of(c->s, t);
    if (!nm) return -1;
    if (rec ? !nm->plan : !nm->direct) break;
    c->depth++;
    int rc = rec ? enc_record(c, w, t, o, nm) : enc_enum(c, w, t, o, nm);
    c->depth--;
    return rc;
  }
  default:
    break;
  }
  return enc_tree(c, w, t, o);
}

static int enc(dz_from_ctx *c, desert_writer *w, const desert_type *t, PyObject *o) {
  t = desert_type_resolve(t);
  if (!t) {
    PyErr_SetString(PyExc_SystemError, "desert: unresolved type");
    return -1;
  }
  /* The tree converter counts every value's level (and fails past
   * DZ_MAX_DEPTH); the composites done here count theirs around their
   * components, and a subtree handed to it counts its own. */
  if (c->depth >= DZ_MAX_DEPTH) return dz_fail_depth(c);
  return enc_inner(c, w, t, o);
}

int dz_encode_direct(dz_from_ctx *ctx, desert_writer *w, const desert_type *t, PyObject *obj) {
  dz_from_ctx_clear(ctx);
  return enc(ctx, w, t, obj);
}
