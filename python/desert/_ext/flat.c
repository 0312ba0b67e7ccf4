/* python/desert/_ext/flat.c — the raw-byte decoder: Schema.decode's first
 * try on the shapes most desert data has (records whose evolution only
 * added fields, lists, options, numbers, strings, byte blocks), read with a
 * cursor over the input instead of through the reader's calls, so that a
 * record costs a version byte, its header entries and one test per field.
 *
 * It never reports an error and never guesses. It takes an input only
 * where its reading is the library's by construction: the varint, tag,
 * length, limit, UTF-8 and chunk rules below are those of the reader
 * (src/core/reader.c, src/record/record_reader.c), and the value budget,
 * nesting bounds and Python objects are those of the reader-driven
 * decoder (direct.c). Anything else — an unknown-size list, a negative
 * header entry (a removed or made-optional field), data older than a
 * field, a tag other than 00/01, a varint or length the reader would
 * refuse, invalid UTF-8, a count over a limit, a budget exceeded — makes
 * it decline: it drops what it made and Schema.decode runs direct.c on the
 * same input, which decodes it or reports the error with its offset and
 * path. So a decline costs time, never a different answer; the tests
 * decode every case both ways and compare. */
#include "items.h"

/* Chunks of a record the decoder follows (a record with more FieldAdded
 * steps is left to direct.c). */
#define FL_MAX_CHUNKS 16u

typedef struct fl_dec {
  const dz_schema *s;
  const uint8_t *p;   /* cursor */
  const uint8_t *end; /* current limit: the input's end or the chunk's */
  size_t budget;      /* value nodes left, charged as direct.c charges them */
  size_t max_len, max_coll;
  unsigned depth;      /* direct.c's nesting count (lists, options, records) */
  unsigned rdepth;     /* the reader's (records) */
  unsigned rdepth_max; /* the reader's max_depth */
  int scala_chars;     /* DESERT_OPT_SCALA_CHARS: a char is 2 bytes */
  dz_strsite site;     /* strings outside any record field */
} fl_dec;

int dz_flat_enabled = 1;
size_t dz_flat_taken, dz_flat_declined;

/* NULL without a Python error: declined. */
#define FL_DECLINE NULL

static int fl_charge(fl_dec *c, size_t n) {
  if (n > c->budget) return -1;
  c->budget -= n;
  return 0;
}

/* A var_u32 that ends by its 5th byte inside the limit (bits past bit 31
 * dropped, as the reader does); 0: anything else (cut short, too long). */
static inline int fl_var(fl_dec *c, uint32_t *out) {
  const uint8_t *p = c->p;
  size_t avail = (size_t)(c->end - p);
  if (avail && p[0] < 0x80u) {
    *out = p[0];
    c->p = p + 1;
    return 1;
  }
  uint32_t v = 0;
  for (unsigned k = 0; k < 5 && k < avail; k++) {
    v |= (uint32_t)(p[k] & 0x7Fu) << (7 * k);
    if (p[k] < 0x80u) {
      *out = v;
      c->p = p + k + 1;
      return 1;
    }
  }
  return 0;
}

static inline int32_t fl_unzigzag(uint32_t u) {
  uint32_t v = (u >> 1) ^ (0u - (u & 1u));
  int32_t r;
  memcpy(&r, &v, sizeof r);
  return r;
}

/* The next n bytes, advancing; NULL when fewer are left in the limit. */
static inline const uint8_t *fl_take(fl_dec *c, size_t n) {
  if ((size_t)(c->end - c->p) < n) return NULL;
  const uint8_t *p = c->p;
  c->p += n;
  return p;
}

/* The str of len bytes at p (inside the limit), validated; NULL without
 * a Python error for invalid UTF-8. */
static PyObject *fl_str_body(const uint8_t *p, size_t len, dz_strsite *site) {
  size_t bad;
  if (len >= DZ_NOGIL_BYTES) { /* validated and measured in one release */
    desert_status st;
    size_t chars = 0;
    unsigned lead = 0;
    DZ_BEGIN_NOGIL
    st = desert_utf8_validate(p, len, &bad);
    if (!st) dz_utf8_measure(p, len, &chars, &lead);
    DZ_END_NOGIL
    if (st) return FL_DECLINE;
    site->big = 1;
    return dz_big_str_measured((const char *)p, len, chars, lead, 1);
  }
  if (len <= DZ_STR_CACHE_MAX) return dz_str_short((const char *)p, len, site, 1);
  if (dz_is_ascii(p, len)) return dz_new_ascii((const char *)p, len);
  if (desert_utf8_validate(p, len, &bad)) return FL_DECLINE;
  return PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)len, NULL);
}

/* A string whose length takes more than a byte (or is refused). */
static PyObject *fl_string_long(fl_dec *c, dz_strsite *site) {
  uint32_t u;
  if (!fl_var(c, &u)) return FL_DECLINE;
  int32_t n = fl_unzigzag(u);
  if (n < 0 || (size_t)n > c->max_len) return FL_DECLINE;
  const uint8_t *p = fl_take(c, (size_t)n);
  if (!p) return FL_DECLINE;
  return fl_str_body(p, (size_t)n, site);
}

/* A string: zig-zag length (not negative, at most max_length, inside the
 * limit), then valid UTF-8. A one-byte length (below 64) and a short ASCII
 * body are read in place. */
DZ_INLINE PyObject *fl_string(fl_dec *c, dz_strsite *site) {
  const uint8_t *p = c->p;
  const size_t avail = (size_t)(c->end - p);
  if (avail && !(p[0] & 0x81u)) { /* an even byte below 0x80: 0..63 */
    const size_t n = p[0] >> 1u;
    if (n < avail && n <= c->max_len) {
      c->p = p + 1 + n;
      if (n <= DZ_STR_CACHE_MAX) return dz_str_short((const char *)p + 1, n, site, 1);
      return fl_str_body(p + 1, n, site);
    }
  }
  return fl_string_long(c, site);
}

/* A byte block: var_u32 length (at most max_length, inside the limit). */
static PyObject *fl_bytes(fl_dec *c) {
  uint32_t n;
  if (!fl_var(c, &n) || (size_t)n > c->max_len) return FL_DECLINE;
  const uint8_t *p = fl_take(c, n);
  if (!p) return FL_DECLINE;
  return dz_bytes_copy(p, n);
}

/* A value of a leaf kind (numbers, bool, unit, string, bytes) in *out
 * (NULL: declined or no memory) and 1; 0 for the composite kinds. Inlined
 * into the record and list loops, so a field costs no call of its own. */
DZ_INLINE int fl_leaf(fl_dec *c, unsigned kind, dz_strsite *site, PyObject **out) {
  const uint8_t *p;
  uint32_t u;
  switch (kind) {
  case DESERT_TYPE_BOOL:
    *out = (p = fl_take(c, 1)) ? Py_NewRef(p[0] ? Py_True : Py_False) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_I8:
    *out = (p = fl_take(c, 1)) ? PyLong_FromLong((int8_t)p[0]) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_U8:
    *out = (p = fl_take(c, 1)) ? PyLong_FromLong(p[0]) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_I16:
    *out = (p = fl_take(c, 2)) ? PyLong_FromLong((int16_t)dz_be16(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_U16:
    *out = (p = fl_take(c, 2)) ? PyLong_FromLong(dz_be16(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_I32:
    *out = (p = fl_take(c, 4)) ? PyLong_FromLong((int32_t)dz_be32(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_U32:
    *out = (p = fl_take(c, 4)) ? PyLong_FromUnsignedLong(dz_be32(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_F32:
    *out = (p = fl_take(c, 4)) ? dz_float_to_python(1, dz_be32(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_I64:
    *out = (p = fl_take(c, 8)) ? PyLong_FromLongLong((int64_t)dz_be64(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_U64:
    *out = (p = fl_take(c, 8)) ? PyLong_FromUnsignedLongLong(dz_be64(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_F64:
    *out = (p = fl_take(c, 8)) ? dz_f64_item(dz_be64(p)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_VAR_U32:
    *out = fl_var(c, &u) ? PyLong_FromUnsignedLong(u) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_VAR_I32:
    *out = fl_var(c, &u) ? PyLong_FromLong(fl_unzigzag(u)) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_UNIT:
    *out = Py_NewRef(Py_None);
    return 1;
  case DESERT_TYPE_CHAR: /* a var_u32 code point, or a UTF-16 unit with scala_chars */
    if (c->scala_chars) u = (p = fl_take(c, 2)) ? dz_be16(p) : 0xD800u;
    else if (!fl_var(c, &u)) u = 0xD800u;
    *out = (u >= 0xD800u && u <= 0xDFFFu) || u > 0x10FFFFu ? FL_DECLINE
                                                             : PyUnicode_FromOrdinal((int)u);
    return 1;
  case DESERT_TYPE_CHAR16:
    u = (p = fl_take(c, 2)) ? dz_be16(p) : 0xD800u;
    *out = u >= 0xD800u && u <= 0xDFFFu ? FL_DECLINE : PyUnicode_FromOrdinal((int)u);
    return 1;
  case DESERT_TYPE_UUID:
    *out = (p = fl_take(c, 16)) ? dz_uuid(p) : FL_DECLINE;
    return 1;
  case DESERT_TYPE_STRING:
    *out = fl_string(c, site);
    return 1;
  case DESERT_TYPE_BYTES:
    *out = fl_bytes(c);
    return 1;
  default:
    return 0;
  }
}

static PyObject *fl_value(fl_dec *c, const desert_type *t, const dz_names *nm, dz_strsite *site);

/* A value of type t (kind: t's): leaves in place, the rest by a call. */
DZ_INLINE PyObject *fl_item(fl_dec *c, unsigned kind, const desert_type *t, const dz_names *nm,
                            dz_strsite *site) {
  PyObject *x;
  if (fl_leaf(c, kind, site, &x)) return x;
  return fl_value(c, t, nm, site);
}

static PyObject *fl_record(fl_dec *c, const dz_names *nm);

/* A record nested in a list or a record: one more level of nesting. */
DZ_INLINE PyObject *fl_nested_record(fl_dec *c, const dz_names *nm) {
  if (c->depth >= DZ_MAX_DEPTH) return FL_DECLINE;
  c->depth++;
  PyObject *x = fl_record(c, nm);
  c->depth--;
  return x;
}

/* A list or set t of elements of type et (resolved; enm: its names entry
 * when a record; w: its width when a fixed-width number, else 0). */
static PyObject *fl_list(fl_dec *c, const desert_type *t, const desert_type *et,
                         const dz_names *enm, size_t w, dz_strsite *site) {
  uint32_t u;
  if (!fl_var(c, &u)) return FL_DECLINE;
  int32_t count = fl_unzigzag(u);
  /* -1 is the unknown-size form: direct.c's */
  if (count < 0 || (size_t)count > c->max_coll) return FL_DECLINE;
  size_t n = (size_t)count, avail = (size_t)(c->end - c->p);
  if (t->u.coll.non_empty && n == 0) return FL_DECLINE;
  if (t->kind == DESERT_TYPE_LIST && t->u.coll.has_length && n != t->u.coll.length)
    return FL_DECLINE;
  /* Every element but a unit takes a byte at least: a longer count is
   * cut short, and the list is made at its full size at once. */
  if (et->kind != DESERT_TYPE_UNIT && n > avail) return FL_DECLINE;
  if (n > (size_t)PY_SSIZE_T_MAX || fl_charge(c, n) < 0) return FL_DECLINE;
  const size_t cap = dz_tree_cap(1, n, n);
  if (cap > n && fl_charge(c, cap - n) < 0) return FL_DECLINE;
  if (w) {
    if (n > avail / w) return FL_DECLINE;
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    size_t bad;
    if (dz_bulk_fill(list, et->kind, c->p, n, &bad) < 0) {
      Py_DECREF(list);
      return NULL;
    }
    c->p += n * w;
    return list;
  }
  PyObject *list = PyList_New((Py_ssize_t)n);
  if (!list) return NULL;
  const unsigned kind = et->kind;
  for (size_t i = 0; i < n; i++) {
    /* (strings and records, the commonest elements, without the kind
     * switch) */
    PyObject *x = kind == DESERT_TYPE_STRING   ? fl_string(c, site)
                  : kind == DESERT_TYPE_RECORD ? fl_nested_record(c, enm)
                                               : fl_item(c, kind, et, enm, site);
    if (!x) {
      Py_DECREF(list); /* the unset slots are NULL, which list_dealloc skips */
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, x);
  }
  return list;
}

/* What record_prepare keeps of a field. */
struct dz_flat_field {
  PyObject *key;             /* the field's name (the names entry's) */
  const desert_type *t;      /* its type, resolved */
  const dz_names *nm;        /* t's names entry when t is a record */
  dz_strsite *site;          /* its string site */
  unsigned char kind, chunk; /* t->kind; 0: first written, k: added by step k */
  unsigned char optional;    /* an optional field (tag 00/01 first) */
  /* a list or set: its element type resolved, that type's names entry
   * when a record, its width when a fixed-width number */
  unsigned char ewidth;
  const desert_type *et;
  const dz_names *enm;
};

/* A list or set field: one more level of nesting. */
DZ_INLINE PyObject *fl_list_field(fl_dec *c, const struct dz_flat_field *fd) {
  if (c->depth >= DZ_MAX_DEPTH) return FL_DECLINE;
  c->depth++;
  PyObject *x = fl_list(c, fd->t, fd->et, fd->enm, fd->ewidth, fd->site);
  c->depth--;
  return x;
}

/* The fields of the record of entry nm into the dict d: 0, or -1
 * (declined, or no memory: a Python error). */
static int fl_fields(fl_dec *c, const dz_names *nm, PyObject *d) {
  if (!nm->flat) return -1;
  const size_t nf = nm->count;
  if (fl_charge(c, nf) < 0 || c->rdepth >= c->rdepth_max) return -1;
  const uint8_t *vb = fl_take(c, 1);
  if (!vb) return -1;
  const unsigned v = *vb, top = nm->flat_top;
  const uint8_t *cur[FL_MAX_CHUNKS], *cend[FL_MAX_CHUNKS];
  const uint8_t *outer_end = c->end, *rec_end = NULL;
  if (v == 0) {
    if (top) return -1; /* the data predates an added field */
  } else {
    if (v < top) return -1;
    /* v + 1 header entries: chunk sizes (positive) or empty chunks (0);
     * chunk i starts where chunk i - 1 ends, after the header. */
    size_t size[FL_MAX_CHUNKS], rest = 0;
    for (unsigned i = 0; i <= v; i++) {
      uint32_t u;
      if (!fl_var(c, &u)) return -1;
      int32_t code = fl_unzigzag(u);
      if (code < 0) return -1;
      if (i <= top) size[i] = (size_t)code;
      else rest = (size_t)code > SIZE_MAX - rest ? SIZE_MAX : rest + (size_t)code;
    }
    const uint8_t *at = c->p;
    for (unsigned i = 0; i <= top; i++) {
      if (size[i] > (size_t)(c->end - at)) return -1;
      cur[i] = at;
      at += size[i];
      cend[i] = at;
    }
    if (rest > (size_t)(c->end - at)) return -1;
    rec_end = at + rest;
  }
  c->rdepth++;
  unsigned chunk = 0;
  if (v) c->p = cur[0], c->end = cend[0];
  for (size_t i = 0; i < nf; i++) {
    const struct dz_flat_field *fd = &nm->flat_fields[i];
    if (v && fd->chunk != chunk) {
      cur[chunk] = c->p;
      chunk = fd->chunk;
      c->p = cur[chunk], c->end = cend[chunk];
    }
    PyObject *x;
    if (fd->optional) {
      const uint8_t *tag = fl_take(c, 1);
      if (!tag || *tag > 1u) return -1;
      if (*tag == 0) x = Py_NewRef(Py_None);
      else if (fl_charge(c, 1) < 0) return -1;
      else x = fl_item(c, fd->kind, fd->t, fd->nm, fd->site);
    } else if (fd->et) {
      x = fl_list_field(c, fd);
    } else {
      x = fl_item(c, fd->kind, fd->t, fd->nm, fd->site);
    }
    if (!x) return -1;
    int rc = PyDict_SetItem(d, fd->key, x);
    Py_DECREF(x);
    if (rc < 0) return -1;
  }
  c->rdepth--;
  if (v) c->p = rec_end, c->end = outer_end;
  return 0;
}

static PyObject *fl_record(fl_dec *c, const dz_names *nm) {
  PyObject *d = _PyDict_NewPresized((Py_ssize_t)nm->count);
  if (d && fl_fields(c, nm, d) < 0) Py_CLEAR(d);
  return d;
}

/* An enum value as direct.c's dec_enum makes it, in the unevolved layout
 * (version byte 00; the evolved one is direct.c's): the reader's level,
 * the id (below the count of ids), then the payload. */
static PyObject *fl_enum(fl_dec *c, const dz_names *nm, dz_strsite *site) {
  uint32_t id;
  const uint8_t *vb;
  if (!nm->flat || c->rdepth >= c->rdepth_max || !(vb = fl_take(c, 1)) || *vb != 0 ||
      !fl_var(c, &id) || id >= nm->id_count || fl_charge(c, 1) < 0)
    return FL_DECLINE;
  const size_t idx = nm->case_of[id];
  const desert_type *pt = nm->ftypes[idx];
  const int merged = pt->kind == DESERT_TYPE_RECORD;
  PyObject *d = _PyDict_NewPresized(merged ? (Py_ssize_t)pt->u.record.field_count + 1 : 2);
  if (!d) return NULL;
  c->rdepth++;
  if (PyDict_SetItem(d, dz.k_case, nm->names[idx]) < 0) goto fail;
  if (merged) {
    /* the payload record is a level of its own, as in direct.c */
    if (c->depth >= DZ_MAX_DEPTH) goto fail;
    c->depth++;
    int rc = fl_fields(c, nm->fnames[idx], d);
    c->depth--;
    if (rc < 0) goto fail;
  } else {
    PyObject *x = fl_value(c, pt, NULL, site);
    if (!x) goto fail;
    int rc = PyDict_SetItem(d, dz.k_value, x);
    Py_DECREF(x);
    if (rc < 0) goto fail;
  }
  c->rdepth--;
  return d;
fail: /* declined, or no memory */
  Py_DECREF(d);
  return NULL;
}

/* Either / Try: a 00/01 tag, then one side, as {"left": x} and so on. */
static PyObject *fl_alt(fl_dec *c, const desert_type *t, dz_strsite *site) {
  const int either = t->kind == DESERT_TYPE_EITHER;
  const uint8_t *tag = fl_take(c, 1);
  if (!tag || *tag > 1u || fl_charge(c, 1) < 0) return FL_DECLINE;
  const desert_type *side = desert_type_resolve(*tag ? t->u.alt.right : t->u.alt.left);
  if (!side) return FL_DECLINE;
  return dz_one_key(dz_alt_key(either, *tag), fl_value(c, side, NULL, site));
}


/* A value of any kind read here; composites count toward the nesting
 * bound as direct.c counts them. */
static PyObject *fl_value(fl_dec *c, const desert_type *t, const dz_names *nm, dz_strsite *site) {
  PyObject *x;
  if (fl_leaf(c, t->kind, site, &x)) return x;
  if (t->kind != DESERT_TYPE_LIST && t->kind != DESERT_TYPE_SET &&
      t->kind != DESERT_TYPE_OPTION && t->kind != DESERT_TYPE_RECORD &&
      t->kind != DESERT_TYPE_ENUM && t->kind != DESERT_TYPE_EITHER && t->kind != DESERT_TYPE_TRY)
    return FL_DECLINE;
  if (c->depth >= DZ_MAX_DEPTH) return FL_DECLINE;
  c->depth++;
  if (t->kind == DESERT_TYPE_RECORD) {
    x = (nm || (nm = dz_names_of(c->s, t))) ? fl_record(c, nm) : NULL;
  } else if (t->kind == DESERT_TYPE_ENUM) {
    x = (nm || (nm = dz_names_of(c->s, t))) ? fl_enum(c, nm, site) : NULL;
  } else if (t->kind == DESERT_TYPE_EITHER || t->kind == DESERT_TYPE_TRY) {
    x = fl_alt(c, t, site);
  } else if (t->kind == DESERT_TYPE_OPTION) {
    const uint8_t *tag = fl_take(c, 1);
    const desert_type *in = desert_type_resolve(t->u.inner);
    if (!tag || *tag > 1u || !in) x = FL_DECLINE;
    else if (*tag == 0) x = Py_NewRef(Py_None);
    else if (fl_charge(c, 1) < 0) x = FL_DECLINE;
    else x = fl_value(c, in, NULL, site);
  } else {
    const desert_type *et = desert_type_resolve(t->u.coll.element);
    const dz_names *enm = NULL;
    if (!et) x = FL_DECLINE;
    else if (et->kind == DESERT_TYPE_RECORD && !(enm = dz_names_of(c->s, et))) x = NULL;
    else x = fl_list(c, t, et, enm, dz_bulk_width(et), site);
  }
  c->depth--;
  return x;
}

PyObject *dz_decode_flat(const dz_schema *s, const desert_type *t, const void *in, size_t len,
                         size_t *used) {
  const unsigned lenient = DESERT_OPT_LENIENT_UTF8 | DESERT_OPT_LENIENT_TAGS |
                           DESERT_OPT_LENIENT_VARINT;
  t = desert_type_resolve(t);
  if (!t || !s->flat_root || (s->options.flags & lenient)) return FL_DECLINE;
  fl_dec c;
  memset(&c, 0, sizeof c);
  c.s = s;
  c.p = (const uint8_t *)in;
  c.end = c.p + len;
  c.budget = s->max_values;
  c.max_len = s->options.max_length ? s->options.max_length : DESERT_DEFAULT_MAX_LENGTH;
  c.max_coll = s->options.max_collection ? s->options.max_collection : DESERT_DEFAULT_MAX_COLLECTION;
  c.rdepth_max = s->options.max_depth ? s->options.max_depth : DESERT_DEFAULT_MAX_DEPTH;
  c.scala_chars = (s->options.flags & DESERT_OPT_SCALA_CHARS) != 0;
  if (fl_charge(&c, 1) < 0) return FL_DECLINE;
  PyObject *x = fl_value(&c, t, NULL, &c.site);
  if (x) *used = (size_t)(c.p - (const uint8_t *)in);
  return x;
}

/* ---- what the decoder takes, decided once per schema ---------------------------------- */

/* Whether values of t are read here, records and enums aside (each is
 * checked where it is read, by its own entry: so recursion needs no fixed
 * point).
 * Lists nest at most DZ_MAX_DEPTH deep before a record or a leaf. */
static int type_ok(const desert_type *t, unsigned depth) {
  t = desert_type_resolve(t);
  if (!t || depth > DZ_MAX_DEPTH) return 0;
  switch (t->kind) {
  case DESERT_TYPE_BOOL:
  case DESERT_TYPE_I8:
  case DESERT_TYPE_I16:
  case DESERT_TYPE_I32:
  case DESERT_TYPE_I64:
  case DESERT_TYPE_U8:
  case DESERT_TYPE_U16:
  case DESERT_TYPE_U32:
  case DESERT_TYPE_U64:
  case DESERT_TYPE_F32:
  case DESERT_TYPE_F64:
  case DESERT_TYPE_UNIT:
  case DESERT_TYPE_STRING:
  case DESERT_TYPE_VAR_U32:
  case DESERT_TYPE_VAR_I32:
  case DESERT_TYPE_CHAR:
  case DESERT_TYPE_CHAR16:
  case DESERT_TYPE_UUID:
  case DESERT_TYPE_RECORD:
  case DESERT_TYPE_ENUM:
    return 1;
  case DESERT_TYPE_EITHER:
  case DESERT_TYPE_TRY:
    return type_ok(t->u.alt.left, depth + 1) && type_ok(t->u.alt.right, depth + 1);
  case DESERT_TYPE_BYTES:
    return !t->u.bytes.non_empty && !t->u.bytes.has_length;
  case DESERT_TYPE_LIST:
  case DESERT_TYPE_SET:
    return type_ok(t->u.coll.element, depth + 1);
  case DESERT_TYPE_OPTION: /* Option<Option<T>> nests {"some": ...}: direct.c's */
    return !desert_type_nullable(t->u.inner) && type_ok(t->u.inner, depth + 1);
  default:
    return 0;
  }
}

/* A record is read here when it has a plan (the library accepts its
 * description), every step is a FieldAdded (so the data's header holds
 * only chunk sizes and each field's chunk is the last step adding it),
 * at most FL_MAX_CHUNKS chunks, no transient field, and no optional field
 * of a nullable type; its fields' types as type_ok says. */
static int record_prepare(const dz_schema *s, dz_names *e) {
  const desert_type *t = e->type;
  size_t nf = t->u.record.field_count, ns = t->u.record.step_count;
  e->flat = 0;
  if (!e->plan || ns >= FL_MAX_CHUNKS) return 0;
  for (size_t k = 0; k < ns; k++)
    if (t->u.record.steps[k].kind != DESERT_STEP_FIELD_ADDED) return 0;
  struct dz_flat_field *ff = PyMem_Calloc(nf ? nf : 1, sizeof *ff);
  if (!ff) return PyErr_NoMemory(), -1;
  e->flat_fields = ff;
  unsigned top = 0;
  for (size_t i = 0; i < nf; i++) {
    const desert_type_field *f = &t->u.record.fields[i];
    if ((f->flags & DESERT_FIELD_TRANSIENT) || !e->ftypes[i] || !type_ok(e->ftypes[i], 0))
      return 0;
    if ((f->flags & DESERT_FIELD_OPTIONAL) && desert_type_nullable(f->type)) return 0;
    unsigned chunk = 0;
    for (size_t k = ns; k-- > 0;) {
      if (strcmp(t->u.record.steps[k].field, f->name) == 0) {
        chunk = (unsigned)k + 1;
        break;
      }
    }
    ff[i].key = e->names[i];
    ff[i].t = e->ftypes[i];
    ff[i].nm = e->fnames[i];
    ff[i].site = &e->sites[i];
    ff[i].kind = (unsigned char)e->ftypes[i]->kind;
    ff[i].chunk = (unsigned char)chunk;
    ff[i].optional = (f->flags & DESERT_FIELD_OPTIONAL) != 0;
    if (!ff[i].optional && (ff[i].kind == DESERT_TYPE_LIST || ff[i].kind == DESERT_TYPE_SET)) {
      const desert_type *et = desert_type_resolve(ff[i].t->u.coll.element);
      if (et && et->kind == DESERT_TYPE_RECORD && !(ff[i].enm = dz_names_of(s, et))) return -1;
      ff[i].et = et; /* (type_ok: et is not NULL) */
      ff[i].ewidth = (unsigned char)dz_bulk_width(et);
    }
    if (chunk > top) top = chunk;
  }
  e->flat_top = top;
  e->flat = 1;
  return 0;
}

/* An enum is read here when direct.c reads it (ids tabulated, payload
 * records with plans) and every payload but a record's is of a type
 * type_ok takes (a record payload is checked where it is read). */
static void enum_prepare(dz_names *e) {
  const desert_type *t = e->type;
  e->flat = e->direct;
  for (size_t k = 0; k < t->u.enumeration.count && e->flat; k++) {
    const desert_type *pt = e->ftypes[k];
    if (!t->u.enumeration.ctors[k].transient && pt->kind != DESERT_TYPE_RECORD && !type_ok(pt, 0))
      e->flat = 0;
  }
}

int dz_flat_prepare(dz_schema *s) {
  for (size_t i = 0; i < s->names_cap; i++) {
    dz_names *e = &s->names[i];
    if (e->type && e->type->kind == DESERT_TYPE_RECORD && record_prepare(s, e) < 0) return -1;
    if (e->type && e->type->kind == DESERT_TYPE_ENUM) enum_prepare(e);
  }
  s->flat_root = type_ok(s->schema->root, 0);
  return 0;
}
