/* python/desert/_ext/stream.c — Schema.iter_decode and Schema.iter_encode:
 * a list (or set) root streamed element by element through libdesert's
 * streaming reader and writer (desert/stream.h), with a source and a sink
 * that call the Python file object. Memory stays bounded by the reader's
 * window, one element's value tree and its Python objects; the reader is
 * marked after each element so it can forget the bytes behind it. The GIL
 * is held throughout, since every read or write may call Python code. */
#include "ext.h"

#include <string.h>

static const desert_type *list_root(dz_schema *s) {
  const desert_type *t = desert_type_resolve(s->schema->root);
  if (t && (t->kind == DESERT_TYPE_LIST || t->kind == DESERT_TYPE_SET)) return t;
  PyErr_Format(PyExc_TypeError,
               "streaming needs a schema whose root is a list or a set, not %s",
               t ? desert_type_kind_name(t->kind) : "?");
  return NULL;
}

/* ---- iter_decode --------------------------------------------------------------------------- */

typedef struct dz_decode_iter {
  PyObject_HEAD
  dz_schema *schema;
  PyObject *file;
  PyObject *readinto; /* bound method, or NULL: use read */
  PyObject *read;
  desert_reader *reader;
  desert_value_arena *arena;
  const desert_type *elem;
  desert_seq seq;
  size_t buffer_size;
  size_t max_window;   /* the reader's high-water mark (iter_decode's max_window) */
  uint64_t delivered;  /* bytes the file object gave so far */
  uint64_t elem_start; /* stream offset of the element being read */
  int max_window_hit;
  int started, finished, allow_trailing;
  PyObject *pending_type, *pending_value, *pending_tb; /* the source's Python error */
} dz_decode_iter;

static ptrdiff_t source_read(void *ctx, void *buf, size_t cap) {
  dz_decode_iter *it = ctx;
  Py_ssize_t n;
  if (it->readinto) {
    PyObject *mv = PyMemoryView_FromMemory(buf, (Py_ssize_t)cap, PyBUF_WRITE);
    PyObject *r = mv ? PyObject_CallOneArg(it->readinto, mv) : NULL;
    PyObject *et = NULL, *ev = NULL, *etb = NULL;
    if (!r) PyErr_Fetch(&et, &ev, &etb);
    if (mv) {
      /* a file object that keeps the view would write into freed memory */
      PyObject *rel = PyObject_CallMethod(mv, "release", NULL);
      if (!rel) PyErr_Clear();
      Py_XDECREF(rel);
      Py_DECREF(mv);
    }
    if (!r) {
      PyErr_Restore(et, ev, etb);
      goto error;
    }
    n = r == Py_None ? -1 : PyLong_AsSsize_t(r);
    Py_DECREF(r);
    if (n < 0 || (size_t)n > cap) {
      if (!PyErr_Occurred())
        PyErr_SetString(PyExc_OSError, "readinto() returned None or a bad count");
      goto error;
    }
    it->delivered += (uint64_t)n;
    return n;
  }
  PyObject *b = PyObject_CallFunction(it->read, "n", (Py_ssize_t)cap);
  if (!b) goto error;
  if (!PyBytes_Check(b) || (size_t)PyBytes_GET_SIZE(b) > cap) {
    Py_DECREF(b);
    PyErr_SetString(PyExc_OSError, "read() did not return bytes of at most the size asked");
    goto error;
  }
  n = PyBytes_GET_SIZE(b);
  memcpy(buf, PyBytes_AS_STRING(b), (size_t)n);
  Py_DECREF(b);
  it->delivered += (uint64_t)n;
  return n;
error:
  if (!it->pending_type) PyErr_Fetch(&it->pending_type, &it->pending_value, &it->pending_tb);
  else PyErr_Clear();
  return -1;
}

static PyObject *iter_fail(dz_decode_iter *it, desert_status rc, const desert_type_error *terr) {
  it->finished = 1;
  if (it->pending_type) { /* the file object's own error */
    PyErr_Restore(it->pending_type, it->pending_value, it->pending_tb);
    it->pending_type = it->pending_value = it->pending_tb = NULL;
    return NULL;
  }
  char path[300], msg[600];
  size_t off = desert_reader_error_offset(it->reader);
  if (terr) {
    char inner[260];
    desert_type_error_json_path(terr, inner, sizeof inner);
    snprintf(path, sizeof path, "$[%zu]%s", it->seq.index ? it->seq.index - 1 : 0, inner + 1);
    if (terr->has_offset) off = terr->offset;
  } else {
    snprintf(path, sizeof path, "$");
  }
  snprintf(msg, sizeof msg, "%s at offset %zu (%s): %s", desert_status_kind(rc), off, path,
           terr && terr->message[0] ? terr->message : desert_status_message(rc));
  return dz_raise(dz.DecodeError, rc, 1, off, path, msg);
}

/* A failed element (dz_decode_direct): path "$[i]..." and the message the
 * tree path words the same way. */
static PyObject *iter_fail_direct(dz_decode_iter *it, const dz_dec_failure *df) {
  it->finished = 1;
  if (it->pending_type) return iter_fail(it, df->status, NULL);
  char path[300], msg[700];
  snprintf(path, sizeof path, "$[%zu]%s", it->seq.index ? it->seq.index - 1 : 0, df->path);
  if (df->status == DESERT_E_LIMIT && it->max_window_hit) {
    snprintf(msg, sizeof msg,
             "%s at offset %zu (%s): an element is larger than iter_decode's max_window (%zu "
             "bytes); pass a larger max_window=", desert_status_kind(df->status), df->offset, path,
             it->max_window);
  } else {
    snprintf(msg, sizeof msg, "%s at offset %zu (%s): %s", desert_status_kind(df->status),
             df->offset, path, df->message[0] ? df->message : desert_status_message(df->status));
  }
  return dz_raise(dz.DecodeError, df->status, 1, df->offset, path, msg);
}

static PyObject *iter_next(PyObject *self_obj) {
  dz_decode_iter *it = (dz_decode_iter *)self_obj;
  if (it->finished) return NULL;
  desert_status rc;
  if (!it->started) {
    it->started = 1;
    desert_source src = {source_read, it};
    rc = desert_reader_begin_stream(it->reader, src, it->buffer_size);
    if (!rc) rc = desert_reader_set_max_window(it->reader, it->max_window);
    if (!rc) rc = desert_read_seq_begin(it->reader, &it->seq);
    if (rc) return iter_fail(it, rc, NULL);
  } else {
    rc = desert_reader_mark(it->reader); /* the previous element's views are gone */
    if (rc) return iter_fail(it, rc, NULL);
  }
  if (!desert_read_seq_next(it->reader, &it->seq)) {
    rc = desert_reader_status(it->reader);
    if (rc) return iter_fail(it, rc, NULL);
    it->finished = 1;
    /* the whole-value decode checks these after the last element too */
    const desert_type *root = desert_type_resolve(it->schema->schema->root);
    if ((root->u.coll.non_empty && it->seq.index == 0) ||
        (root->kind == DESERT_TYPE_LIST && root->u.coll.has_length &&
         it->seq.index != root->u.coll.length)) {
      char msg[160];
      snprintf(msg, sizeof msg,
               "DeserializationFailure at offset %zu ($): %zu elements where the type's "
               "non_empty/length forbids it", it->seq.offset, it->seq.index);
      return dz_raise(dz.DecodeError, DESERT_E_INVALID_VALUE, 1, it->seq.offset, "$", msg);
    }
    if (!it->allow_trailing && !desert_reader_at_end(it->reader)) {
      rc = desert_reader_status(it->reader);
      if (rc) return iter_fail(it, rc, NULL);
      size_t off = desert_reader_offset(it->reader);
      char msg[160];
      snprintf(msg, sizeof msg,
               "trailing bytes after the list (offset %zu); pass allow_trailing=True to accept "
               "them", off);
      return dz_raise(dz.DecodeError, DESERT_OK, 1, off, "$", msg);
    }
    if (it->pending_type) return iter_fail(it, DESERT_E_READ_INPUT, NULL);
    return NULL; /* StopIteration */
  }
  desert_value_arena_reset(it->arena);
  it->elem_start = desert_reader_offset(it->reader);
  dz_dec_failure df;
  PyObject *x = dz_decode_direct(it->schema, it->reader, it->arena, it->elem,
                                 it->schema->max_values, &df);
  if (x || PyErr_Occurred()) return x;
  /* The window's limit, not a length or count limit: the element had
   * already made the file object deliver about max_window bytes. */
  it->max_window_hit = df.status == DESERT_E_LIMIT && !df.message[0] &&
                       it->delivered - it->elem_start >= it->max_window / 2;
  return iter_fail_direct(it, &df);
}

static void iter_dealloc(PyObject *self_obj) {
  dz_decode_iter *it = (dz_decode_iter *)self_obj;
  desert_reader_free(it->reader);
  desert_value_arena_free(it->arena);
  Py_XDECREF(it->schema);
  Py_XDECREF(it->file);
  Py_XDECREF(it->readinto);
  Py_XDECREF(it->read);
  Py_XDECREF(it->pending_type);
  Py_XDECREF(it->pending_value);
  Py_XDECREF(it->pending_tb);
  Py_TYPE(self_obj)->tp_free(self_obj);
}

PyTypeObject dz_decode_iter_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "desert._desert.DecodeIterator",
    .tp_basicsize = sizeof(dz_decode_iter),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("Iterator over the elements of a streamed list (Schema.iter_decode)."),
    .tp_dealloc = iter_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = iter_next,
};

PyObject *dz_iter_decode(dz_schema *s, PyObject *fileobj, Py_ssize_t buffer_size,
                         int allow_trailing, PyObject *max_window) {
  const desert_type *root = list_root(s);
  if (!root) return NULL;
  if (buffer_size < 0) return PyErr_Format(PyExc_ValueError, "buffer_size must be >= 0");
  size_t mw = DESERT_STREAM_DEFAULT_MAX_WINDOW;
  if (max_window && max_window != Py_None) {
    Py_ssize_t m = PyNumber_AsSsize_t(max_window, PyExc_OverflowError);
    if (m == -1 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
      PyErr_Clear();
      m = PY_SSIZE_T_MAX;
    }
    if (m < 1) return PyErr_Format(PyExc_ValueError, "max_window must be >= 1 (or None)");
    mw = (size_t)m;
  }
  dz_decode_iter *it = PyObject_New(dz_decode_iter, &dz_decode_iter_type);
  if (!it) return NULL;
  memset((char *)it + sizeof(PyObject), 0, sizeof *it - sizeof(PyObject));
  it->schema = (dz_schema *)Py_NewRef((PyObject *)s);
  it->file = Py_NewRef(fileobj);
  it->elem = root->u.coll.element;
  it->buffer_size = (size_t)buffer_size;
  it->max_window = mw;
  it->allow_trailing = allow_trailing;
  if (PyObject_HasAttrString(fileobj, "readinto")) {
    it->readinto = PyObject_GetAttrString(fileobj, "readinto");
  } else {
    it->read = PyObject_GetAttrString(fileobj, "read");
  }
  if (!it->readinto && !it->read) {
    Py_DECREF(it);
    return NULL;
  }
  if (desert_reader_create(&s->options, &it->reader) ||
      desert_value_arena_create(NULL, &it->arena)) {
    Py_DECREF(it);
    return PyErr_NoMemory();
  }
  return (PyObject *)it;
}

/* ---- iter_encode --------------------------------------------------------------------------------- */

typedef struct sink_ctx {
  PyObject *write;
  PyObject *pending_type, *pending_value, *pending_tb;
} sink_ctx;

static int sink_write(void *ctx, const void *buf, size_t n) {
  sink_ctx *sc = ctx;
  size_t done = 0;
  while (done < n) {
    PyObject *b = PyBytes_FromStringAndSize((const char *)buf + done, (Py_ssize_t)(n - done));
    PyObject *r = b ? PyObject_CallOneArg(sc->write, b) : NULL;
    Py_XDECREF(b);
    if (!r) goto error;
    Py_ssize_t w = r == Py_None ? (Py_ssize_t)(n - done) : PyLong_AsSsize_t(r);
    Py_DECREF(r);
    if (w <= 0 || (size_t)w > n - done) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_OSError, "write() wrote nothing");
      goto error;
    }
    done += (size_t)w;
  }
  return 0;
error:
  if (!sc->pending_type) PyErr_Fetch(&sc->pending_type, &sc->pending_value, &sc->pending_tb);
  else PyErr_Clear();
  return 1;
}

PyObject *dz_iter_encode(dz_schema *s, PyObject *values, PyObject *fileobj,
                         Py_ssize_t buffer_size) {
  const desert_type *root = list_root(s);
  if (!root) return NULL;
  if (buffer_size < 0) return PyErr_Format(PyExc_ValueError, "buffer_size must be >= 0");
  sink_ctx sc = {PyObject_GetAttrString(fileobj, "write"), NULL, NULL, NULL};
  if (!sc.write) return NULL;
  PyObject *result = NULL, *iter = NULL;
  desert_writer *w = NULL;
  desert_value_arena *arena = NULL;
  dz_from_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.s = s;
  Py_ssize_t known = -1;
  if (!root->u.coll.unknown_form && PyObject_HasAttrString(values, "__len__")) {
    known = PyObject_Size(values);
    if (known < 0) goto done;
  }
  iter = PyObject_GetIter(values);
  if (!iter) goto done;
  if (desert_writer_create(&s->options, &w) || desert_value_arena_create(NULL, &arena)) {
    PyErr_NoMemory();
    goto done;
  }
  ctx.arena = arena;
  desert_sink sink = {sink_write, &sc};
  desert_status rc = desert_writer_begin_stream(w, sink, (size_t)buffer_size);
  if (!rc) rc = known >= 0 ? desert_write_count(w, (size_t)known) : desert_write_stream_begin(w);
  size_t count = 0;
  PyObject *item;
  while (!rc && (item = PyIter_Next(iter))) {
    desert_value_arena_reset(arena);
    ctx.keep = PyList_New(0);
    if (known < 0 && ctx.keep) rc = desert_write_stream_item(w);
    int bad = !ctx.keep || (!rc && dz_encode_direct(&ctx, w, root->u.coll.element, item) < 0);
    if (bad) {
      if (sc.pending_type) { /* the file object's own error, while writing */
        PyErr_Restore(sc.pending_type, sc.pending_value, sc.pending_tb);
        sc.pending_type = sc.pending_value = sc.pending_tb = NULL;
      } else if (ctx.keep) {
        dz_path_index(ctx.path, sizeof ctx.path, &ctx.path_len, count);
        dz_raise_from_failure(&ctx);
      }
      Py_DECREF(item);
      Py_XDECREF(ctx.keep);
      goto done;
    }
    Py_DECREF(item);
    Py_CLEAR(ctx.keep);
    count++;
  }
  if (PyErr_Occurred()) goto done; /* the iterable's own error */
  if (!rc && known >= 0 && count != (size_t)known) {
    PyErr_Format(PyExc_ValueError, "the iterable yielded %zu values, its len() said %zd", count,
                 known);
    goto done;
  }
  if (!rc && known < 0) rc = desert_write_stream_end(w);
  if (!rc && root->u.coll.non_empty && count == 0) {
    dz_raise(dz.EncodeError, DESERT_E_ARGUMENT, 0, 0, "$", "$: empty list for a non_empty type");
    goto done;
  }
  if (!rc && root->kind == DESERT_TYPE_LIST && root->u.coll.has_length &&
      count != root->u.coll.length) {
    dz_raise(dz.EncodeError, DESERT_E_ARGUMENT, 0, 0, "$", "$: wrong number of elements");
    goto done;
  }
  if (!rc) rc = desert_writer_flush(w);
  if (sc.pending_type) {
    PyErr_Restore(sc.pending_type, sc.pending_value, sc.pending_tb);
    sc.pending_type = sc.pending_value = sc.pending_tb = NULL;
    goto done;
  }
  if (rc) { /* the count, a stream marker or the flush */
    char path[40], msg[300];
    snprintf(path, sizeof path, "$[%zu]", count ? count - 1 : 0);
    snprintf(msg, sizeof msg, "%s: %s", path, desert_status_message(rc));
    dz_raise(dz.EncodeError, rc, 0, 0, path, msg);
    goto done;
  }
  result = PyLong_FromUnsignedLongLong(desert_writer_stream_offset(w));
done:
  Py_XDECREF(sc.pending_type);
  Py_XDECREF(sc.pending_value);
  Py_XDECREF(sc.pending_tb);
  Py_XDECREF(sc.write);
  Py_XDECREF(iter);
  desert_writer_free(w);
  desert_value_arena_free(arena);
  return result;
}
