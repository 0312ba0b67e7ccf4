/* python/desert/_ext/schema.c — desert.Schema: loads a schema document
 * (desert_schema_load), keeps the interned field and constructor names and
 * the record plans, and encodes and decodes whole values through the direct
 * converters (direct.c). A decode that fails there is decoded again by the
 * tree codec (bytes -> desert_value tree, without the GIL for large inputs),
 * whose error is the one raised. */
#include "ext.h"

#include <string.h>

/* Trees and buffers above this size are given back after the call rather
 * than cached for the next one. */
#define DZ_CACHE_LIMIT ((size_t)64 << 20)

typedef struct dz_schema_full {
  dz_schema base;
  PyObject *doc_text;        /* the document as UTF-8 bytes (pickling) */
  desert_value_arena *parse; /* the parsed document, alive as long as the schema */
} dz_schema_full;

/* ---- names table ------------------------------------------------------------------------- */

static size_t slot_of(const desert_type *t, size_t cap) {
  uintptr_t h = (uintptr_t)t >> 4;
  return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

const dz_names *dz_names_of(const dz_schema *s, const desert_type *t) {
  if (!s->names_cap) return NULL;
  for (size_t i = slot_of(t, s->names_cap);; i = (i + 1) & (s->names_cap - 1)) {
    if (s->names[i].type == t) return &s->names[i];
    if (!s->names[i].type) break;
  }
  PyErr_SetString(PyExc_SystemError, "desert: type without a names entry");
  return NULL;
}

/* The record's description and plan from its public fields and steps, as
 * desert_type_set_seal derives them; a description the library refuses
 * gets no plan (the direct converters then use the tree codec for it). */
static int build_plan(dz_names *e, const desert_type *t) {
  size_t nf = t->u.record.field_count, ns = t->u.record.step_count;
  e->fdesc = PyMem_Calloc(nf ? nf : 1, sizeof *e->fdesc);
  e->steps = PyMem_Calloc(ns ? ns : 1, sizeof *e->steps);
  e->added = PyMem_Calloc(nf ? nf : 1, sizeof *e->added);
  if (!e->fdesc || !e->steps || !e->added) return PyErr_NoMemory(), -1;
  for (size_t i = 0; i < nf; i++) {
    e->fdesc[i].name = t->u.record.fields[i].name;
    e->fdesc[i].flags = t->u.record.fields[i].flags;
  }
  for (size_t k = 0; k < ns; k++) {
    const desert_type_step *st = &t->u.record.steps[k];
    e->steps[k].kind = st->kind;
    e->steps[k].field = st->field;
    e->steps[k].has_default = st->kind == DESERT_STEP_FIELD_ADDED && st->default_value != NULL;
    if (st->kind == DESERT_STEP_FIELD_ADDED)
      for (size_t i = 0; i < nf; i++)
        if (strcmp(t->u.record.fields[i].name, st->field) == 0) e->added[i] = st->default_value;
  }
  e->desc.name = t->name ? t->name : "record";
  e->desc.fields = e->fdesc;
  e->desc.field_count = nf;
  e->desc.steps = ns ? e->steps : NULL;
  e->desc.step_count = ns;
  desert_status rc = desert_record_plan_create(&e->desc, NULL, &e->plan);
  if (rc == DESERT_E_NOMEM) return PyErr_NoMemory(), -1;
  if (rc) e->plan = NULL;
  return 0;
}

/* An enum's constructor ids, their inverse, its payload types and the
 * name -> index dict (see dz_names); after every record entry is built. */
static int build_enum(dz_schema *s, dz_names *e) {
  const desert_type *t = e->type;
  size_t n = t->u.enumeration.count;
  desert_case_desc *cases = PyMem_Calloc(n ? n : 1, sizeof *cases);
  e->ids = PyMem_Calloc(n ? n : 1, sizeof *e->ids);
  e->case_of = PyMem_Calloc(n ? n : 1, sizeof *e->case_of);
  e->ftypes = PyMem_Calloc(n ? n : 1, sizeof *e->ftypes);
  e->fnames = PyMem_Calloc(n ? n : 1, sizeof *e->fnames);
  e->case_index = PyDict_New();
  int rc = -1;
  if (!cases || !e->ids || !e->case_of || !e->ftypes || !e->fnames) {
    PyErr_NoMemory();
    goto done;
  }
  if (!e->case_index) goto done;
  for (size_t k = 0; k < n; k++) {
    cases[k].name = t->u.enumeration.ctors[k].name;
    cases[k].flags = t->u.enumeration.ctors[k].transient ? DESERT_CASE_TRANSIENT : 0;
  }
  desert_enum_desc d = {t->name, cases, n, t->u.enumeration.sorted};
  e->direct = 1;
  for (size_t k = 0; k < n; k++) {
    const desert_type_ctor *ctor = &t->u.enumeration.ctors[k];
    PyObject *ix = PyLong_FromSize_t(k);
    if (!ix || PyDict_SetItem(e->case_index, e->names[k], ix) < 0) {
      Py_XDECREF(ix);
      goto done;
    }
    Py_DECREF(ix);
    uint32_t id = UINT32_MAX;
    if (!ctor->transient && desert_enum_case_id(&d, k, &id)) e->direct = 0;
    e->ids[k] = id;
    if (id < n) e->case_of[id] = (uint32_t)k, e->id_count++;
    const desert_type *pt = ctor->payload ? desert_type_resolve(ctor->payload) : NULL;
    e->ftypes[k] = pt;
    if (!ctor->transient && !pt) e->direct = 0;
    if (pt && pt->kind == DESERT_TYPE_RECORD) {
      if (!(e->fnames[k] = dz_names_of(s, pt))) goto done;
      if (!e->fnames[k]->plan || pt->u.record.field_count > DZ_DIRECT_MAX_FIELDS) e->direct = 0;
    }
  }
  rc = 0;
done:
  PyMem_Free(cases);
  return rc;
}

static int build_names(dz_schema *s) {
  size_t n = desert_type_set_count(s->schema->set), cap = 16;
  while (cap < 2 * n + 2) cap *= 2;
  s->names = PyMem_Calloc(cap, sizeof *s->names);
  if (!s->names) return PyErr_NoMemory(), -1;
  s->names_cap = cap;
  for (size_t i = 0; i < n; i++) {
    const desert_type *t = desert_type_set_at(s->schema->set, i);
    if (!t || (t->kind != DESERT_TYPE_RECORD && t->kind != DESERT_TYPE_ENUM)) continue;
    size_t count = t->kind == DESERT_TYPE_RECORD ? t->u.record.field_count : t->u.enumeration.count;
    PyObject **names = PyMem_Calloc(count ? count : 1, sizeof *names);
    if (!names) return PyErr_NoMemory(), -1;
    size_t slot = slot_of(t, cap);
    while (s->names[slot].type) slot = (slot + 1) & (cap - 1);
    s->names[slot].type = t;
    s->names[slot].names = names;
    s->names[slot].count = count;
    for (size_t k = 0; k < count; k++) {
      const char *nm = t->kind == DESERT_TYPE_RECORD ? t->u.record.fields[k].name
                                                     : t->u.enumeration.ctors[k].name;
      names[k] = PyUnicode_InternFromString(nm);
      if (!names[k]) return -1;
    }
    if (t->kind == DESERT_TYPE_RECORD && build_plan(&s->names[slot], t) < 0) return -1;
  }
  /* Each field's resolved type and, for a record type, its entry. */
  for (size_t i = 0; i < cap; i++) {
    dz_names *e = &s->names[i];
    if (!e->type || e->type->kind != DESERT_TYPE_RECORD) continue;
    size_t nf = e->type->u.record.field_count;
    e->ftypes = PyMem_Calloc(nf ? nf : 1, sizeof *e->ftypes);
    e->fnames = PyMem_Calloc(nf ? nf : 1, sizeof *e->fnames);
    e->sites = PyMem_Calloc(nf ? nf : 1, sizeof *e->sites);
    if (!e->ftypes || !e->fnames || !e->sites) return PyErr_NoMemory(), -1;
    for (size_t k = 0; k < nf; k++) {
      const desert_type *ft = desert_type_resolve(e->type->u.record.fields[k].type);
      e->ftypes[k] = ft;
      if (ft && ft->kind == DESERT_TYPE_RECORD && !(e->fnames[k] = dz_names_of(s, ft))) return -1;
    }
  }
  for (size_t i = 0; i < cap; i++)
    if (s->names[i].type && s->names[i].type->kind == DESERT_TYPE_ENUM &&
        build_enum(s, &s->names[i]) < 0)
      return -1;
  return dz_flat_prepare(s);
}

/* ---- codec state -------------------------------------------------------------------------- */

int dz_state_acquire(dz_schema *s, dz_state *st, int need_reader, int need_writer) {
  memset(st, 0, sizeof *st);
  desert_reader **r = &st->reader;
  desert_writer **w = &st->writer;
  desert_value_arena **a = &st->arena;
  if (!s->busy) {
    s->busy = 1;
    r = &s->reader, w = &s->writer, a = &s->arena;
  } else {
    st->owned = 1;
  }
  desert_status rc = DESERT_OK;
  if (!*a) rc = desert_value_arena_create(NULL, a);
  if (!rc && need_reader && !*r) rc = desert_reader_create(&s->options, r);
  if (!rc && need_writer && !*w) rc = desert_writer_create(&s->options, w);
  st->reader = *r, st->writer = *w, st->arena = *a;
  if (rc) {
    dz_state_release(s, st);
    PyErr_NoMemory();
    return -1;
  }
  desert_value_arena_reset(st->arena);
  return 0;
}

void dz_state_release(dz_schema *s, dz_state *st) {
  if (st->owned) {
    desert_reader_free(st->reader);
    desert_writer_free(st->writer);
    desert_value_arena_free(st->arena);
    return;
  }
  if (s->arena && desert_value_arena_size(s->arena) > DZ_CACHE_LIMIT) {
    desert_value_arena_free(s->arena);
    s->arena = NULL;
  }
  if (s->writer && desert_writer_size(s->writer) > DZ_CACHE_LIMIT) {
    desert_writer_free(s->writer);
    s->writer = NULL;
  }
  if (s->reader) desert_reader_reset(s->reader); /* drops its view of the input */
  s->busy = 0;
}

/* ---- Schema ----------------------------------------------------------------------------------- */

static int schema_init(PyObject *self_obj, PyObject *args, PyObject *kw) {
  dz_schema_full *self = (dz_schema_full *)self_obj;
  static char *kwlist[] = {"doc", "max_values", NULL};
  PyObject *doc;
  Py_ssize_t max_values = (Py_ssize_t)DZ_DEFAULT_MAX_VALUES;
  if (self->base.schema) {
    PyErr_SetString(PyExc_TypeError, "Schema is already initialised");
    return -1;
  }
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|n:Schema", kwlist, &doc, &max_values)) return -1;
  if (max_values < 1) {
    PyErr_SetString(PyExc_ValueError, "max_values must be >= 1");
    return -1;
  }
  self->base.max_values = (size_t)max_values;
  PyObject *text;
  if (PyDict_Check(doc)) {
    PyObject *json = PyImport_ImportModule("json");
    PyObject *s = json ? PyObject_CallMethod(json, "dumps", "O", doc) : NULL;
    Py_XDECREF(json);
    text = s ? PyUnicode_AsUTF8String(s) : NULL;
    Py_XDECREF(s);
  } else if (PyUnicode_Check(doc)) {
    text = PyUnicode_AsUTF8String(doc);
  } else if (PyBytes_Check(doc)) {
    text = Py_NewRef(doc);
  } else {
    PyErr_Format(PyExc_TypeError, "Schema(doc): doc is a str, bytes or dict, not %.64s",
                 Py_TYPE(doc)->tp_name);
    return -1;
  }
  if (!text) return -1;
  self->doc_text = text;
  if (desert_value_arena_create(NULL, &self->parse)) return PyErr_NoMemory(), -1;
  desert_json *j = NULL;
  desert_json_error err;
  memset(&err, 0, sizeof err);
  desert_status st = desert_json_parse_ex(PyBytes_AS_STRING(text), (size_t)PyBytes_GET_SIZE(text),
                                          self->parse, &j, &err);
  if (st) {
    char msg[700];
    snprintf(msg, sizeof msg, "schema document is not JSON: %zu:%zu: %s", err.line, err.column,
             err.message);
    dz_raise(dz.SchemaError, st, err.has_offset, err.offset, "$", msg);
    return -1;
  }
  memset(&err, 0, sizeof err);
  st = desert_schema_load(j, NULL, &self->base.schema, &err);
  if (st) {
    dz_raise(dz.SchemaError, st, 0, 0, "$", err.message);
    return -1;
  }
  desert_options_init(&self->base.options);
  desert_schema_options_apply(&self->base.schema->options, NULL, &self->base.options);
  return build_names(&self->base);
}

static void schema_dealloc(PyObject *self_obj) {
  dz_schema_full *self = (dz_schema_full *)self_obj;
  dz_schema *s = &self->base;
  for (size_t i = 0; i < s->names_cap; i++) {
    for (size_t k = 0; s->names[i].type && k < s->names[i].count; k++)
      Py_XDECREF(s->names[i].names[k]);
    PyMem_Free(s->names[i].names);
    desert_record_plan_free(s->names[i].plan);
    PyMem_Free(s->names[i].fdesc);
    PyMem_Free(s->names[i].steps);
    PyMem_Free(s->names[i].added);
    PyMem_Free(s->names[i].ftypes);
    PyMem_Free((void *)s->names[i].fnames);
    PyMem_Free(s->names[i].sites);
    PyMem_Free(s->names[i].flat_fields);
    PyMem_Free(s->names[i].ids);
    PyMem_Free(s->names[i].case_of);
    Py_XDECREF(s->names[i].case_index);
  }
  PyMem_Free(s->names);
  desert_reader_free(s->reader);
  desert_writer_free(s->writer);
  desert_value_arena_free(s->arena);
  desert_schema_free(s->schema);
  desert_value_arena_free(self->parse);
  Py_XDECREF(self->doc_text);
  Py_TYPE(self_obj)->tp_free(self_obj);
}

static int ready(dz_schema *s) {
  if (s->schema) return 1;
  PyErr_SetString(PyExc_ValueError, "Schema is not initialised");
  return 0;
}

void dz_limits(const dz_schema *s, desert_codec_limits *lim) {
  memset(lim, 0, sizeof *lim);
  lim->max_depth = DZ_MAX_DEPTH;
  lim->max_values = s->max_values;
}

PyDoc_STRVAR(decode_doc,
             "decode(data, allow_trailing=False) -> value\n\n"
             "Decodes one value of the schema's root type from a bytes-like object.\n"
             "Bytes after the value raise DecodeError (kind 'TrailingBytes') unless\n"
             "allow_trailing is true. Raises DecodeError with status, kind, offset and path.");

static PyObject *schema_decode(PyObject *self_obj, PyObject *args, PyObject *kw) {
  dz_schema *s = (dz_schema *)self_obj;
  static char *kwlist[] = {"data", "allow_trailing", NULL};
  Py_buffer view;
  int allow_trailing = 0;
  if (!ready(s)) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|p:decode", kwlist, &view, &allow_trailing))
    return NULL;
  dz_state st;
  if (dz_state_acquire(s, &st, 1, 0) < 0) {
    PyBuffer_Release(&view);
    return NULL;
  }
  const desert_type *root = s->schema->root;
  PyObject *result = NULL;
  /* The raw-byte decoder first, where it applies; then the direct path;
   * on a failure the tree path decodes the input again, so the error
   * (status, offset, path, message) is exactly its. */
  if (dz_flat_enabled && s->flat_root) {
    if (s->flat_pause && dz_flat_enabled == 1) {
      s->flat_pause--;
    } else {
      size_t used = 0;
      result = dz_decode_flat(s, root, view.buf, (size_t)view.len, &used);
      if (result && (allow_trailing || used == (size_t)view.len)) {
        s->flat_declines = 0;
        dz_flat_taken++;
        goto done;
      }
      Py_CLEAR(result);
      if (PyErr_Occurred()) goto done;
      dz_flat_declined++;
      /* Data this decoder keeps declining (removed fields, unknown-size
       * lists, ...) is left to the direct path for a while (not in the
       * tests' mode 2, which compares the decoders on every input). */
      if (++s->flat_declines >= 4) s->flat_declines = 0, s->flat_pause = 256;
    }
  }
  dz_dec_failure df;
  desert_status rc = desert_reader_begin_inline(st.reader, view.buf, (size_t)view.len);
  if (!rc) {
    result = dz_decode_direct_in(s, st.reader, st.arena, root, s->max_values, &df, view.buf,
                                 (size_t)view.len);
    if (!result && PyErr_Occurred()) goto done;
    if (result) {
      size_t used = desert_reader_offset(st.reader);
      if (allow_trailing || used == (size_t)view.len) goto done;
      Py_CLEAR(result);
    }
  }
  desert_value_arena_reset(st.arena);
  desert_codec_limits lim;
  dz_limits(s, &lim);
  desert_type_error terr;
  desert_value *v = NULL;
  if ((size_t)view.len >= DZ_NOGIL_BYTES) {
    DZ_BEGIN_NOGIL
    rc = desert_reader_begin(st.reader, view.buf, (size_t)view.len);
    if (!rc) rc = desert_type_decode(st.reader, root, st.arena, &lim, &v, &terr);
    DZ_END_NOGIL
  } else {
    rc = desert_reader_begin(st.reader, view.buf, (size_t)view.len);
    if (!rc) rc = desert_type_decode(st.reader, root, st.arena, &lim, &v, &terr);
  }
  if (rc) {
    char path[300], msg[600];
    desert_type_error_json_path(&terr, path, sizeof path);
    size_t off = terr.has_offset ? terr.offset : desert_reader_error_offset(st.reader);
    snprintf(msg, sizeof msg, "%s at offset %zu (%s): %s", desert_status_kind(rc), off, path,
             terr.message[0] ? terr.message : desert_status_message(rc));
    dz_raise(dz.DecodeError, rc, 1, off, path, msg);
  } else {
    size_t used = desert_reader_offset(st.reader);
    if (!allow_trailing && used != (size_t)view.len) {
      char msg[200];
      snprintf(msg, sizeof msg,
               "%zu trailing bytes after the value (offset %zu of %zd); pass allow_trailing=True "
               "to accept them",
               (size_t)view.len - used, used, view.len);
      dz_raise(dz.DecodeError, DESERT_OK, 1, used, "$", msg);
    } else {
      result = dz_to_python(s, root, v);
    }
  }
done:
  dz_state_release(s, &st);
  PyBuffer_Release(&view);
  return result;
}

PyDoc_STRVAR(encode_doc, "encode(value) -> bytes\n\n"
                         "Encodes a value of the schema's root type. Raises EncodeError (or\n"
                         "EncodeTypeError for a wrong Python type) naming the value path.");

static PyObject *schema_encode(PyObject *self_obj, PyObject *value) {
  dz_schema *s = (dz_schema *)self_obj;
  if (!ready(s)) return NULL;
  dz_state st;
  if (dz_state_acquire(s, &st, 0, 1) < 0) return NULL;
  dz_from_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.s = s;
  ctx.arena = st.arena;
  ctx.may_release = 1;
  ctx.keep = PyList_New(0);
  PyObject *result = NULL;
  if (!ctx.keep) goto done;
  desert_writer_reset(st.writer);
  if (dz_encode_direct(&ctx, st.writer, s->schema->root, value) < 0) {
    dz_raise_from_failure(&ctx);
    goto done;
  }
  size_t len;
  const uint8_t *data = desert_writer_data(st.writer, &len);
  result = dz_bytes_copy(data, len);
done:
  Py_XDECREF(ctx.keep);
  dz_state_release(s, &st);
  return result;
}

PyDoc_STRVAR(iter_decode_doc,
             "iter_decode(fileobj, buffer_size=0, allow_trailing=False, max_window=None)\n"
             "-> iterator\n\n"
             "Streams the elements of a list (or set) root from a binary file object\n"
             "(readinto or read), one element at a time, in bounded memory. max_window\n"
             "bounds the bytes one element may span (default 64 MiB; None = default;\n"
             "a larger int for larger elements); an element beyond it raises\n"
             "DecodeError (status DESERT_E_LIMIT) naming max_window.");

static PyObject *schema_iter_decode(PyObject *self_obj, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"fileobj", "buffer_size", "allow_trailing", "max_window", NULL};
  PyObject *f, *max_window = NULL;
  Py_ssize_t bs = 0;
  int allow_trailing = 0;
  if (!ready((dz_schema *)self_obj)) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|npO:iter_decode", kwlist, &f, &bs,
                                   &allow_trailing, &max_window))
    return NULL;
  return dz_iter_decode((dz_schema *)self_obj, f, bs, allow_trailing, max_window);
}

PyDoc_STRVAR(iter_encode_doc,
             "iter_encode(values, fileobj, buffer_size=0) -> int\n\n"
             "Writes an iterable of elements as the schema's list (or set) root to a\n"
             "binary file object (write), in bounded memory; returns the bytes written.\n"
             "A sized iterable is written in the known-size form, any other iterable\n"
             "in the unknown-size form (docs/format.md §6.2).");

static PyObject *schema_iter_encode(PyObject *self_obj, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"values", "fileobj", "buffer_size", NULL};
  PyObject *values, *f;
  Py_ssize_t bs = 0;
  if (!ready((dz_schema *)self_obj)) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|n:iter_encode", kwlist, &values, &f, &bs))
    return NULL;
  return dz_iter_encode((dz_schema *)self_obj, values, f, bs);
}

static PyObject *schema_reduce(PyObject *self_obj, PyObject *unused) {
  (void)unused;
  dz_schema_full *self = (dz_schema_full *)self_obj;
  if (!ready(&self->base)) return NULL;
  return Py_BuildValue("(O(On))", (PyObject *)Py_TYPE(self_obj), self->doc_text,
                       (Py_ssize_t)self->base.max_values);
}

static PyObject *schema_document(PyObject *self_obj, void *unused) {
  (void)unused;
  dz_schema_full *self = (dz_schema_full *)self_obj;
  if (!ready(&self->base)) return NULL;
  return PyUnicode_FromEncodedObject(self->doc_text, "utf-8", "strict");
}

static PyObject *schema_root_kind(PyObject *self_obj, void *unused) {
  (void)unused;
  dz_schema *s = (dz_schema *)self_obj;
  if (!ready(s)) return NULL;
  return PyUnicode_FromString(desert_type_kind_name(desert_type_resolve(s->schema->root)->kind));
}

static PyMethodDef schema_methods[] = {
    {"decode", (PyCFunction)(void (*)(void))schema_decode, METH_VARARGS | METH_KEYWORDS,
     decode_doc},
    {"encode", schema_encode, METH_O, encode_doc},
    {"iter_decode", (PyCFunction)(void (*)(void))schema_iter_decode,
     METH_VARARGS | METH_KEYWORDS, iter_decode_doc},
    {"iter_encode", (PyCFunction)(void (*)(void))schema_iter_encode,
     METH_VARARGS | METH_KEYWORDS, iter_encode_doc},
    {"__reduce__", schema_reduce, METH_NOARGS, "Pickles the schema as its document."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef schema_getset[] = {
    {"document", schema_document, NULL, "The schema document as JSON text.", NULL},
    {"root_kind", schema_root_kind, NULL, "Kind of the root type ('record', 'list', ...).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject dz_schema_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "desert.Schema",
    .tp_basicsize = sizeof(dz_schema_full),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("Schema(doc, max_values=8388608): a desert schema document (str, bytes "
                        "or dict; docs/schema.md) with encode, decode, iter_decode and "
                        "iter_encode. max_values bounds the value nodes of one decode (of one "
                        "element when streaming)."),
    .tp_new = PyType_GenericNew,
    .tp_init = schema_init,
    .tp_dealloc = schema_dealloc,
    .tp_methods = schema_methods,
    .tp_getset = schema_getset,
};
