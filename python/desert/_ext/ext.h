/* python/desert/_ext/ext.h — shared declarations of the desert._desert
 * extension: the Schema object, the direct converters between bytes and
 * Python objects, the conversion contexts between desert_value trees and
 * Python objects, the exception helpers and the module-wide
 * Python objects (interned keys, decimal.Decimal, uuid.UUID) the converters
 * use. */
#ifndef DESERT_PY_EXT_H
#define DESERT_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <desert.h>
#include <desert/json.h>

/* Everything declared from here on is the extension's own (hidden: the
 * module exports PyInit__desert alone, which PyMODINIT_FUNC marks), so its
 * tables are reached directly rather than through the GOT. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* Pure C work on at least this many bytes runs without the GIL: UTF-8
 * validation and the copy of a string, the copy of a byte block, inflating
 * or deflating a compressed block, the copy of an encoded message, the
 * tree codec's second pass over a failed input. Below it the work takes
 * about as long as handing the GIL over and back, and a thread that gives
 * it up has to wait for it again (up to the switch interval when another
 * thread runs Python meanwhile): releasing per small item would slow every
 * thread. 64 KiB takes several microseconds to validate, copy or inflate. */
#define DZ_NOGIL_BYTES ((size_t)64 << 10)
/* Times the extension released the GIL (module.c; read with the GIL held
 * by desert._desert._gil_release_count(), for the tests). */
extern size_t dz_nogil_count;
#define DZ_BEGIN_NOGIL \
  dz_nogil_count++;    \
  Py_BEGIN_ALLOW_THREADS
#define DZ_END_NOGIL Py_END_ALLOW_THREADS
/* Most fields of a record the direct encoder writes itself (it keeps them
 * on the stack); a larger record goes through the tree codec. */
#define DZ_DIRECT_MAX_FIELDS 64
/* Nesting bound of the Python <-> tree converters (the codec has its own). */
#define DZ_MAX_DEPTH 200u
/* Default node budget of one decode (Schema(max_values=...)): a list that
 * claims 2^31 elements of a type taking no bytes (unit, an empty record)
 * passes every input-length check, so only this bounds its memory. */
#define DZ_DEFAULT_MAX_VALUES ((size_t)1 << 23)

/* Module-wide objects, created once at import. */
typedef struct dz_globals {
  PyObject *DesertError, *SchemaError, *DecodeError, *EncodeError, *EncodeTypeError;
  PyObject *Decimal, *UUID;
  /* uuid.UUID's slot names and uuid.SafeUUID.unknown, for dz_uuid; NULL
   * when the uuid module does not have that layout (dz_uuid then calls
   * the class) */
  PyObject *s_int, *s_is_safe, *safe_unknown;
  /* interned keys of the JSON value language */
  PyObject *k_case, *k_value, *k_some, *k_left, *k_right, *k_success, *k_failure;
  PyObject *k_offset, *k_region, *k_f32_bits, *k_f64_bits, *k_unscaled, *k_scale, *k_zone;
  PyObject *k_bytes;
  PyObject *s_utcoffset, *s_to_bytes, *s_as_tuple;
} dz_globals;
extern dz_globals dz;

/* Where decoded short ASCII strings come from (a record field, with the
 * elements of a list in it): whether the cache of recent str objects pays
 * there. A field of distinct values (names, ids) misses every time; it then
 * skips the cache for a while instead of paying for the probe and for
 * evicting strings that do recur. Only speed depends on it. */
typedef struct dz_strsite {
  uint32_t tries, hits, skip;
  /* A string of DZ_NOGIL_BYTES or more came from here: its later strings'
   * lengths are peeked at, so that large ones are validated without the
   * GIL (a peek costs a call, too much for every short string). */
  uint32_t big;
} dz_strsite;

/* Names of record fields and enum constructors as Python strings, looked up
 * by type node (an open-addressing table built when the schema is loaded). */
typedef struct dz_names {
  const desert_type *type; /* RECORD or ENUM node; NULL = empty slot */
  PyObject **names;        /* one interned str per field / constructor */
  size_t count;
  /* RECORD: the record description built from the type's public fields and
   * steps, its prepared plan (NULL: the direct converters hand the record
   * to the tree codec), and per field the default of the last FieldAdded
   * step naming it (NULL: none), as desert_type_set_seal derives them. */
  desert_record_desc desc;
  desert_field_desc *fdesc;
  desert_evolution_step *steps;
  desert_record_plan *plan;
  const desert_value **added;
  /* RECORD: per field, its type resolved once (NULL: does not resolve),
   * the names entry of a field whose type is a record (else NULL), and its
   * string site; filled once every entry exists. Decoding then does no
   * per-field type resolution or table lookup. ENUM: the same per
   * constructor for its payload (no sites). */
  const desert_type **ftypes;
  const struct dz_names **fnames;
  dz_strsite *sites;
  /* ENUM: whether direct.c reads and writes it itself (every record
   * payload has a plan and at most DZ_DIRECT_MAX_FIELDS fields; else the
   * tree codec does, as a subtree); the constructor id of each declaration
   * index (UINT32_MAX: transient) and the index of each id (id_count of
   * them), as desert_enum_case_id gives them; constructor name -> index. */
  int direct;
  uint32_t *ids, *case_of;
  uint32_t id_count;
  PyObject *case_index;
  /* RECORD, ENUM: whether flat.c reads it (record_prepare, enum_prepare
   * there); RECORD: the highest chunk of its fields and what flat.c keeps
   * of each field. */
  int flat;
  unsigned flat_top;
  struct dz_flat_field *flat_fields;
} dz_names;

typedef struct dz_schema {
  PyObject_HEAD
  desert_schema *schema;
  desert_options options;
  size_t max_values; /* value nodes one decode may make (hostile counts of empty elements) */
  dz_names *names; /* hash table, cap entries */
  size_t names_cap;
  /* Cached codec state, used by one call at a time (busy); a concurrent
   * call from another thread makes its own. */
  desert_reader *reader;
  desert_writer *writer;
  desert_value_arena *arena;
  int busy;
  /* flat.c reads the root type; decline run (inputs it left to direct.c
   * in a row) and how many decodes skip it after a run of them. */
  int flat_root;
  unsigned flat_declines, flat_pause;
} dz_schema;

extern PyTypeObject dz_schema_type;
extern PyTypeObject dz_decode_iter_type;

const dz_names *dz_names_of(const dz_schema *s, const desert_type *t);

/* ---- tree -> Python (to_python.c) ---- */
int dz_to_python_init(void); /* imports the datetime C API; -1 with an exception */
/* Converts v under t; NULL with a Python exception set on failure. */
PyObject *dz_to_python(const dz_schema *s, const desert_type *t, const desert_value *v);

/* One field's value from its tree form (NULL / SOME for optional fields),
 * for defaults and transient fields. */
PyObject *dz_field_to_python(const dz_schema *s, const desert_type_field *f,
                             const desert_value *fv, unsigned depth);
/* dz_to_python starting at nesting depth (the direct decoder's subtrees). */
PyObject *dz_to_python_at(const dz_schema *s, const desert_type *t, const desert_value *v,
                          unsigned depth);
/* f32/f64 bits as a float, or the {"fNN_bits": hex} dict of a NaN payload. */
PyObject *dz_float_to_python(int is_f32, uint64_t bits);
/* {key: x}, x's reference taken over (NULL x: NULL, the error kept): the
 * value language's one-key forms ({"some": x}, {"left": x}, ...). */
PyObject *dz_one_key(PyObject *key, PyObject *x);
/* The key of an Either (either 1) or Try value's side (one: the right /
 * success side). */
static inline PyObject *dz_alt_key(int either, int one) {
  return one ? (either ? dz.k_right : dz.k_success) : (either ? dz.k_left : dz.k_failure);
}
/* The uuid.UUID of 16 bytes (most significant first), made as pickle
 * makes one (its int and is_safe slots set) rather than through
 * UUID.__init__, whose checks cost a microsecond. */
PyObject *dz_uuid(const uint8_t b[16]);
/* Sets up dz_uuid's fast form and checks it against UUID(bytes=...);
 * -1 with an exception (no memory). */
int dz_uuid_init(void);

/* ---- Python -> tree (from_python.c) ---- */
typedef struct dz_from_ctx {
  const dz_schema *s;
  desert_value_arena *arena;
  PyObject *keep;   /* list of temporaries the tree points into */
  unsigned depth;
  int type_error;   /* the failure is a wrong Python type */
  /* The writer holds the whole message in memory: large items may be
   * written without the GIL. 0 for a streaming writer, whose sink calls
   * the file object when its buffer fills. */
  int may_release;
  desert_status status; /* the failure's status (DESERT_E_ARGUMENT unless said) */
  char path[256];   /* built backwards while a failure unwinds */
  size_t path_len;  /* bytes used at the end of path */
  char message[256];
} dz_from_ctx;

int dz_from_python_init(void); /* imports the datetime C API; -1 with an exception */
/* Resets the failure fields of ctx (path, message, status). */
void dz_from_ctx_clear(dz_from_ctx *ctx);
/* Fills out with the tree of obj under t: a subtree of a value being
 * converted (the direct encoder's hand-off), from ctx's depth. 0 on
 * success; -1 on failure with ctx->message / ctx->path set (the path
 * relative to obj), or a Python exception pending. */
int dz_from_python_sub(dz_from_ctx *ctx, const desert_type *t, PyObject *obj, desert_value *out);
/* Record a failure in ctx: nesting too deep; a status with a message. -1. */
int dz_fail_depth(dz_from_ctx *ctx);
int dz_fail_status(dz_from_ctx *ctx, desert_status st, const char *message);
/* Prepend ".name" / "[i]" to ctx->path while a failure unwinds. -1. */
int dz_at_field(dz_from_ctx *ctx, const char *name);
int dz_at_index(dz_from_ctx *ctx, size_t i);
/* The same on any path buffer of capacity cap holding *len bytes. -1. */
int dz_path_prepend(char *path, size_t cap, size_t *len, const char *s, size_t n);
int dz_path_field(char *path, size_t cap, size_t *len, const char *name);
int dz_path_index(char *path, size_t cap, size_t *len, size_t i);
/* Raises EncodeError / EncodeTypeError for a failed conversion. */
void dz_raise_from_failure(dz_from_ctx *ctx);

/* ---- errors (module.c) ---- */
/* Raises cls(message) with the attributes status, kind, offset (None when
 * has_offset is 0) and path. Returns NULL. */
PyObject *dz_raise(PyObject *cls, desert_status st, int has_offset, size_t offset,
                   const char *path, const char *message);

/* ---- the codec state (schema.c) ---- */
typedef struct dz_state {
  desert_reader *reader;
  desert_writer *writer;
  desert_value_arena *arena;
  int owned; /* 1: made for this call, free at release */
} dz_state;
/* The codec limits of one decode or encode call. */
void dz_limits(const dz_schema *s, desert_codec_limits *lim);
int dz_state_acquire(dz_schema *s, dz_state *st, int need_reader, int need_writer);
void dz_state_release(dz_schema *s, dz_state *st);

/* ---- direct conversion (direct.c) ---- */
/* Writes obj under t straight into w (records, lists, maps, options,
 * numbers, strings and bytes by hand; other kinds through a subtree of the
 * tree codec). 0, or -1 with ctx's failure set (or a Python error) as
 * dz_from_python_sub. ctx->arena and ctx->keep serve the subtrees. */
int dz_encode_direct(dz_from_ctx *ctx, desert_writer *w, const desert_type *t, PyObject *obj);

/* A failed direct decode: status, input offset, path ("" = the value
 * itself, else ".a[2]"...) and message. */
typedef struct dz_dec_failure {
  desert_status status;
  size_t offset;
  size_t path_len;
  char path[256];
  char message[224];
} dz_dec_failure;
/* Reads a value of type t at r's position straight into Python objects.
 * NULL on failure: a Python error is set, or (fail->status != DESERT_OK,
 * no Python error) the input does not decode. max_values bounds the value
 * nodes as the tree codec counts them; arena serves subtrees of kinds
 * read through the tree codec (reset by the caller). */
PyObject *dz_decode_direct(const dz_schema *s, desert_reader *r, desert_value_arena *arena,
                           const desert_type *t, size_t max_values, dz_dec_failure *fail);
/* The same for a reader begun on the whole input `in` of in_len bytes
 * (held for the call): the decoder may peek at the lengths there to choose
 * to release the GIL around the work on large items. */
PyObject *dz_decode_direct_in(const dz_schema *s, desert_reader *r, desert_value_arena *arena,
                              const desert_type *t, size_t max_values, dz_dec_failure *fail,
                              const void *in, size_t in_len);
/* ---- the raw-byte decoder (flat.c) ---- */
/* How Schema.decode uses it: 0 not at all, 1 first (paused for a while
 * after a run of declines), 2 first on every input (module.c's
 * _set_flat_decoder, for the tests that compare it with direct.c). */
extern int dz_flat_enabled;
/* Decodes it finished and inputs it declined (module.c's _flat_stats). */
extern size_t dz_flat_taken, dz_flat_declined;
/* Fills each record entry's flat fields and s->flat_root (after the names
 * table is complete). -1 with a Python error (no memory). */
int dz_flat_prepare(dz_schema *s);
/* Decodes a value of type t from the whole input in[0..len): the value,
 * *used the bytes it took; NULL with a Python error (no memory); NULL
 * without one: declined (a shape it leaves to direct.c, or an input that
 * does not decode), nothing kept. */
PyObject *dz_decode_flat(const dz_schema *s, const desert_type *t, const void *in, size_t len,
                         size_t *used);

/* bytes of n bytes at p, copied without the GIL when large (p must stay
 * valid and unchanged meanwhile: the input, an arena, a writer). */
PyObject *dz_bytes_copy(const void *p, size_t n);

/* ---- streaming (stream.c) ---- */
/* max_window: None/NULL = DESERT_STREAM_DEFAULT_MAX_WINDOW, else an int >= 1
 * (beyond Py_ssize_t: unbounded). */
PyObject *dz_iter_decode(dz_schema *s, PyObject *fileobj, Py_ssize_t buffer_size,
                         int allow_trailing, PyObject *max_window);
PyObject *dz_iter_encode(dz_schema *s, PyObject *values, PyObject *fileobj,
                         Py_ssize_t buffer_size);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* DESERT_PY_EXT_H */
