/* python/desert/_ext/module.c — the desert._desert module: the exception
 * hierarchy, the interned keys and the Python classes the converters use,
 * and module initialisation. */
#include "ext.h"

dz_globals dz;

PyObject *dz_raise(PyObject *cls, desert_status st, int has_offset, size_t offset,
                   const char *path, const char *message) {
  PyObject *inst = PyObject_CallFunction(cls, "s", message);
  if (!inst) return NULL;
  PyObject *status = st == DESERT_OK ? Py_NewRef(Py_None) : PyUnicode_FromString(desert_status_name(st));
  PyObject *kind = PyUnicode_FromString(st == DESERT_OK ? "TrailingBytes" : desert_status_kind(st));
  PyObject *off = has_offset ? PyLong_FromSize_t(offset) : Py_NewRef(Py_None);
  PyObject *p = PyUnicode_DecodeUTF8(path ? path : "$", (Py_ssize_t)strlen(path ? path : "$"),
                                     "replace");
  if (status && kind && off && p && PyObject_SetAttrString(inst, "status", status) == 0 &&
      PyObject_SetAttrString(inst, "kind", kind) == 0 &&
      PyObject_SetAttrString(inst, "offset", off) == 0 &&
      PyObject_SetAttrString(inst, "path", p) == 0)
    PyErr_SetObject((PyObject *)Py_TYPE(inst), inst);
  Py_XDECREF(status);
  Py_XDECREF(kind);
  Py_XDECREF(off);
  Py_XDECREF(p);
  Py_DECREF(inst);
  return NULL;
}

static PyObject *new_error(PyObject *m, const char *name, const char *doc, PyObject *bases) {
  char full[64];
  snprintf(full, sizeof full, "desert.%s", name);
  PyObject *e = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
  Py_DECREF(bases);
  if (!e) return NULL;
  if (PyModule_AddObjectRef(m, name, e) < 0) {
    Py_DECREF(e);
    return NULL;
  }
  return e;
}

static PyObject *version(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(desert_version_string());
}

size_t dz_nogil_count;

static PyObject *gil_release_count(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyLong_FromSize_t(dz_nogil_count);
}

/* Sets how Schema.decode uses flat.c: 0 off (it starts with direct.c), 1
 * on (the default: paused for a while after a run of declines), 2 on for
 * every input; returns the previous mode. */
static PyObject *set_flat_decoder(PyObject *self, PyObject *mode) {
  (void)self;
  long v = PyLong_AsLong(mode);
  if (v == -1 && PyErr_Occurred()) return NULL;
  if (v < 0 || v > 2) {
    PyErr_SetString(PyExc_ValueError, "mode must be 0, 1 or 2");
    return NULL;
  }
  int old = dz_flat_enabled;
  dz_flat_enabled = (int)v;
  return PyLong_FromLong(old);
}

static PyObject *flat_stats(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return Py_BuildValue("(nn)", (Py_ssize_t)dz_flat_taken, (Py_ssize_t)dz_flat_declined);
}

static PyMethodDef methods[] = {
    {"library_version", version, METH_NOARGS, "Version string of the libdesert in use."},
    {"_gil_release_count", gil_release_count, METH_NOARGS,
     "How many times the extension released the GIL (for the tests; not API)."},
    {"_flat_stats", flat_stats, METH_NOARGS,
     "(decodes the raw-byte decoder finished, inputs it declined) so far (for the tests; not "
     "API)."},
    {"_set_flat_decoder", set_flat_decoder, METH_O,
     "How decode uses the raw-byte decoder: 0 off, 1 on (default), 2 on for every input; "
     "returns the previous mode (for the tests, which compare both decoders; not API)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "desert._desert",
                                    "C extension over libdesert (see the desert package).", -1,
                                    methods, NULL, NULL, NULL, NULL};

#define INTERN(field, text) \
  if (!(dz.field = PyUnicode_InternFromString(text))) goto fail

PyMODINIT_FUNC PyInit__desert(void) {
  PyObject *m = PyModule_Create(&moddef);
  if (!m) return NULL;
  if (dz_to_python_init() < 0 || dz_from_python_init() < 0) goto fail;
  dz.DesertError = new_error(m, "DesertError",
                             "Base of every desert error: status (the libdesert status name, or "
                             "None), kind (the format's error kind), offset (input offset of the "
                             "failing item, or None) and path (the value path, '$' = root).",
                             Py_BuildValue("(O)", PyExc_Exception));
  if (!dz.DesertError) goto fail;
  dz.SchemaError = new_error(m, "SchemaError", "The schema document is invalid (BadSchema).",
                             Py_BuildValue("(OO)", dz.DesertError, PyExc_ValueError));
  dz.DecodeError = new_error(m, "DecodeError", "The bytes do not decode under the schema.",
                             Py_BuildValue("(OO)", dz.DesertError, PyExc_ValueError));
  dz.EncodeError = new_error(m, "EncodeError", "The value does not fit the schema.",
                             Py_BuildValue("(OO)", dz.DesertError, PyExc_ValueError));
  if (!dz.SchemaError || !dz.DecodeError || !dz.EncodeError) goto fail;
  dz.EncodeTypeError = new_error(m, "EncodeTypeError",
                                 "A value of the wrong Python type (path names it).",
                                 Py_BuildValue("(OO)", dz.EncodeError, PyExc_TypeError));
  if (!dz.EncodeTypeError) goto fail;

  PyObject *dec = PyImport_ImportModule("decimal");
  dz.Decimal = dec ? PyObject_GetAttrString(dec, "Decimal") : NULL;
  Py_XDECREF(dec);
  PyObject *uu = PyImport_ImportModule("uuid");
  dz.UUID = uu ? PyObject_GetAttrString(uu, "UUID") : NULL;
  Py_XDECREF(uu);
  if (!dz.Decimal || !dz.UUID) goto fail;
  INTERN(k_case, "$case");
  INTERN(k_value, "value");
  INTERN(k_some, "some");
  INTERN(k_left, "left");
  INTERN(k_right, "right");
  INTERN(k_success, "success");
  INTERN(k_failure, "failure");
  INTERN(k_offset, "offset");
  INTERN(k_region, "region");
  INTERN(k_f32_bits, "f32_bits");
  INTERN(k_f64_bits, "f64_bits");
  INTERN(k_unscaled, "unscaled");
  INTERN(k_scale, "scale");
  INTERN(k_zone, "zone");
  INTERN(k_bytes, "bytes");
  INTERN(s_utcoffset, "utcoffset");
  INTERN(s_to_bytes, "to_bytes");
  INTERN(s_as_tuple, "as_tuple");
  if (dz_uuid_init() < 0) goto fail;

  if (PyType_Ready(&dz_schema_type) < 0 || PyType_Ready(&dz_decode_iter_type) < 0) goto fail;
  if (PyModule_AddObjectRef(m, "Schema", (PyObject *)&dz_schema_type) < 0) goto fail;
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
