/* include/desert/json.h — the JSON layer of libdesert (target desert::json):
 * a strict JSON parser that keeps numbers as exact text, schema documents
 * (docs/schema.md §2) loaded into desert_type graphs, JSON values <-> value
 * trees (part 2) with the canonical output text, and the conformance testee
 * protocol (part 3).
 * SPDX-License-Identifier: MIT
 *
 * Why a parser of our own rather than jansson: docs/schema.md §11.1 needs integers
 * of any size (jansson 2.14 rejects integers beyond int64 with an error), the
 * exact text of every non-integer number (jansson parses reals into a double,
 * and JSON_DECODE_INT_AS_REAL would do the same to integers, so "0.1" could
 * not be converted to an f32 directly from its text), lone surrogate escapes
 * such as "\ud800" that must parse and then fail as BadValue rather than as a
 * syntax error (jansson refuses them), and objects that keep their key order.
 * A small recursive-descent parser over a bump arena does all of this, checks
 * UTF-8, rejects duplicate keys, bounds nesting, and never rounds a number.
 * The layer therefore has no third-party dependency. */
#ifndef DESERT_JSON_H
#define DESERT_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "desert/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parsed JSON ------------------------------------------------------------------ */

typedef enum desert_json_kind {
  DESERT_JSON_NULL = 0,
  DESERT_JSON_BOOL,
  DESERT_JSON_NUMBER,
  DESERT_JSON_STRING,
  DESERT_JSON_ARRAY,
  DESERT_JSON_OBJECT
} desert_json_kind;

typedef struct desert_json desert_json;
typedef struct desert_json_member desert_json_member;

struct desert_json {
  desert_json_kind kind;
  bool b;          /* BOOL */
  bool integer;    /* NUMBER written without fraction and exponent */
  bool lone;       /* STRING holding a lone surrogate (stored as its 3-byte WTF-8 form) */
  const char *str; /* STRING: the decoded text, NUL-terminated; NUMBER: the exact text */
  size_t len;
  size_t count;                /* ARRAY items / OBJECT members */
  desert_json *items;          /* ARRAY */
  desert_json_member *members; /* OBJECT, in input order */
};

struct desert_json_member {
  desert_json key; /* a STRING */
  desert_json value;
};

#define DESERT_JSON_MAX_DEPTH 256u

/* Parses exactly one JSON text (surrounding whitespace allowed) into a tree
 * allocated in a. On a syntax error (invalid UTF-8, NaN, trailing text,
 * duplicate keys, nesting beyond DESERT_JSON_MAX_DEPTH...) returns
 * DESERT_E_ARGUMENT and writes a message. */
DESERT_API desert_status desert_json_parse(const char *text, size_t len, desert_value_arena *a,
                                           desert_json **out, char *message, size_t message_cap);

/* Member of an object by key (exact bytes), or NULL. */
DESERT_API const desert_json *desert_json_get(const desert_json *obj, const char *key);

/* ---- errors of the JSON layer ------------------------------------------------------ */

typedef enum desert_json_error_kind {
  DESERT_JSON_ERR_NONE = 0,
  DESERT_JSON_ERR_BAD_REQUEST,
  DESERT_JSON_ERR_BAD_SCHEMA,
  DESERT_JSON_ERR_BAD_VALUE,
  DESERT_JSON_ERR_STATUS /* a library status: see `status` */
} desert_json_error_kind;

typedef struct desert_json_error {
  desert_json_error_kind kind;
  desert_status status; /* ERR_STATUS: the failure (e.g. DESERT_E_INVALID_CONSTRUCTOR_NAME) */
  bool has_offset;      /* decoding failures: offset of the failing item; JSON syntax
                         * errors (desert_json_parse_ex): byte offset in the text */
  size_t offset;
  /* JSON syntax errors: the 1-based line and column of `offset`. Only
   * desert_json_parse_ex sets them (other calls leave them as they were).
   * Lines end at '\n' ("\r\n" counts once); a column counts characters
   * (bytes that are not UTF-8 continuation bytes), so it matches what a
   * text editor shows for UTF-8 text. */
  size_t line, column;
  char message[512];
} desert_json_error;

/* desert_json_parse reporting a syntax error through err (may be NULL):
 * kind DESERT_JSON_ERR_BAD_REQUEST, status DESERT_E_ARGUMENT, has_offset,
 * offset, line and column of the error, and the message without the
 * position ("expected ',' or '}'"). Running out of memory is kind
 * DESERT_JSON_ERR_STATUS with DESERT_E_NOMEM (also returned). A caller can
 * then say "FILE:LINE:COLUMN: not JSON: MESSAGE". */
DESERT_API desert_status desert_json_parse_ex(const char *text, size_t len, desert_value_arena *a,
                                              desert_json **out, desert_json_error *err);

/* "BadRequest", "BadSchema", "BadValue", or the docs/format.md §18 kind of the
 * status ("InputEndedUnexpectedly", "DeserializationFailure", ...). */
DESERT_API const char *desert_json_error_kind_name(const desert_json_error *e);

/* ---- output buffer ---------------------------------------------------------------------- */

typedef struct desert_json_buf {
  char *data;
  size_t len, cap;
  bool failed; /* an allocation failed; data holds what fitted */
} desert_json_buf;

/* A buffer starts zeroed ({0}) and grows with malloc as text is appended;
 * desert_json_buf_free releases it and zeroes *b (NULL: no-op). */
DESERT_API void desert_json_buf_free(desert_json_buf *b);
/* Appends s[0..n) as it is, keeping data NUL-terminated; once the buffer
 * cannot grow, `failed` stays set and this and any later text is dropped. */
DESERT_API void desert_json_buf_put(desert_json_buf *b, const char *s, size_t n);
/* A JSON string literal with the escapes of docs/schema.md §11.5. Lone surrogates
 * stored as WTF-8 are written as \udxxx escapes; any other byte that is not
 * UTF-8 (a message cut inside a character) as \ufffd, so the output is
 * always valid JSON in UTF-8. */
DESERT_API void desert_json_buf_string(desert_json_buf *b, const char *s, size_t n);
/* Appends a parsed JSON tree as compact text (no spaces, members in input
 * order, numbers as their exact input text, strings escaped as by
 * desert_json_buf_string): what a request or a document looks like on one
 * line. Recursion is bounded by the parser's nesting limit. */
DESERT_API void desert_json_print(desert_json_buf *b, const desert_json *j);

/* Canonical text of a finite non-zero float (docs/schema.md §11.4): shortest
 * round-trip digits, positional for exponents -4..15, else d.ddde+XX. out
 * must hold 32 bytes; returns the length. */
DESERT_API size_t desert_json_format_float(double v, bool is_f32, char *out);

/* ---- schema documents --------------------------------------------------------------------- */

/* Options of docs/schema.md §8; -1 = not given. */
typedef struct desert_schema_options {
  int scala_chars;            /* bool */
  int legacy_header_strings;  /* bool */
  int scala_removed_optional; /* removed_optional_style: 1 = "scala", 0 = "rust" */
  int zlib_compression;       /* compression: 1 = "zlib", 0 = "raw" */
  int strict_tags;            /* bool */
  int strict_varint;          /* bool */
} desert_schema_options;

/* Reads an "options" object. On failure returns false with a message. */
DESERT_API bool desert_schema_options_parse(const desert_json *obj, desert_schema_options *out,
                                            char *message, size_t message_cap);
/* Fills a desert_options from document options overridden key by key by
 * request options (either may be NULL); defaults of docs/schema.md §8 for missing keys. */
DESERT_API void desert_schema_options_apply(const desert_schema_options *doc,
                                            const desert_schema_options *req, desert_options *out);

typedef struct desert_schema {
  desert_type_set *set;
  const desert_type *root;
  desert_schema_options options;
} desert_schema;

/* Loads and checks a schema document (every rule of docs/schema.md §9, names
 * holding U+0000 included: C names are NUL-terminated). On
 * failure returns DESERT_E_ARGUMENT with err->kind BAD_SCHEMA. alloc may be
 * NULL. */
DESERT_API desert_status desert_schema_load(const desert_json *doc, const desert_allocator *alloc,
                                            desert_schema **out, desert_json_error *err);
DESERT_API void desert_schema_free(desert_schema *s);

/* ---- JSON values <-> value trees ------------------------------------------------------------- */

/* Converts a JSON value of type t (docs/schema.md §11 input rules) into a value
 * tree allocated in a (strings are copied). Failures: BAD_VALUE, or
 * ERR_STATUS with DESERT_E_INVALID_CONSTRUCTOR_NAME /
 * DESERT_E_SERIALIZING_TRANSIENT. The message starts with the JSON path of
 * the offending value ("$.a.b[2]: ..."). */
DESERT_API desert_status desert_json_to_value(const desert_type *t, const desert_json *j,
                                              desert_value_arena *a, desert_value **out,
                                              desert_json_error *err);

/* Appends the canonical JSON text (docs/schema.md §11.5) of v under t. Returns
 * DESERT_E_NOMEM if the buffer could not grow, DESERT_E_ARGUMENT if v does
 * not fit t. */
DESERT_API desert_status desert_json_write_value(desert_json_buf *b, const desert_type *t,
                                                 const desert_value *v);

/* ---- whole operations ------------------------------------------------------------------------ */

/* Limits of one whole-value operation (desert_json_decode_ex,
 * desert_json_encode_ex): the caller's, not the layer's. A zero field takes
 * its default. The defaults are sized for data, not for the conformance
 * testee's requests: a valid input fails only if it nests deeper than 256,
 * holds a big integer of more than 256 KiB, or has more than 16 value
 * nodes per input byte beyond the first 1,048,576 (which only long runs of
 * elements that take no bytes reach); a hostile input still fails early:
 *  - max_values: value nodes of one decoded tree. Default
 *    DESERT_JSON_DEFAULT_MAX_VALUES plus DESERT_JSON_DEFAULT_VALUES_PER_BYTE
 *    per input byte. A collection count is checked against the bytes left
 *    before anything is allocated, so only elements that take no bytes
 *    (unit, empty records) can make more nodes than the input has bytes:
 *    this bound keeps a 5-byte input from claiming 2^31 such elements.
 *  - max_depth: nesting of composite values (decode and encode; encode's
 *    JSON text too). Default DESERT_JSON_DEFAULT_MAX_DEPTH. Nesting costs
 *    stack, so this one is not scaled with the input.
 *  - max_bigint: bytes of one big integer (decode). Default
 *    DESERT_JSON_DEFAULT_MAX_BIGINT: its decimal text costs quadratic time.
 * A decode past a limit fails with DESERT_E_LIMIT (values, big integer) or
 * DESERT_E_DEPTH, and the error message names the limit, its value and the
 * field that raises it ("more than 1048576 values (limit
 * desert_json_limits.max_values = 1048576)"). The reader's own limits
 * (desert_options: max_length, max_collection, max_depth, max_decompressed)
 * apply as well: strings and collections of up to 2^31, but records and
 * enums nested at most DESERT_DEFAULT_MAX_DEPTH (128) deep and inflated
 * blocks of at most 64 MiB unless the reader's options raise them (the
 * desert tool sets the reader's max_depth to the same value as
 * max_depth). */
typedef struct desert_json_limits {
  size_t max_values;  /* decode: value nodes of one tree (0: default, grows with the input) */
  unsigned max_depth; /* nesting of values (0: DESERT_JSON_DEFAULT_MAX_DEPTH) */
  size_t max_bigint;  /* decode: bytes of one big integer (0: DESERT_JSON_DEFAULT_MAX_BIGINT) */
} desert_json_limits;

#define DESERT_JSON_DEFAULT_MAX_VALUES      ((size_t)1 << 20)
#define DESERT_JSON_DEFAULT_VALUES_PER_BYTE ((size_t)16)
#define DESERT_JSON_DEFAULT_MAX_DEPTH       256u
#define DESERT_JSON_DEFAULT_MAX_BIGINT      ((size_t)256 << 10)

/* The codec limits (types.h) that desert_json_decode_ex uses for an input
 * of input_len bytes under l (NULL: all defaults): what a caller that runs
 * desert_type_decode itself passes to get the same bounds. */
DESERT_API void desert_json_limits_resolve(const desert_json_limits *l, size_t input_len,
                                           desert_codec_limits *out);

/* Encodes the JSON value under the schema with the given options into w
 * (which is reset first and must have been created with those options).
 * Nesting is bounded by DESERT_JSON_DEFAULT_MAX_DEPTH. */
DESERT_API desert_status desert_json_encode(const desert_schema *s, const desert_json *value,
                                            desert_writer *w, desert_value_arena *a,
                                            desert_json_error *err);
/* desert_json_encode with the caller's limits (NULL: defaults; only
 * max_depth applies). */
DESERT_API desert_status desert_json_encode_ex(const desert_schema *s, const desert_json *value,
                                               desert_writer *w, desert_value_arena *a,
                                               const desert_json_limits *limits,
                                               desert_json_error *err);
/* Encodes JSON text (one value, docs/schema.md §11) under the schema into w
 * (reset first; created with the schema's options), in memory bounded by
 * the output and one leaf value rather than by a tree of the whole text:
 * records, tuples, enums, lists, sets, maps and options are walked in the
 * text (a record's fields in declaration order, whatever order its keys
 * come in), and each leaf value goes through its own small tree. Input the
 * walk does not take in its plain form (an escaped or repeated key, a
 * missing required field, any error) is handed to the whole-value path —
 * desert_json_parse_depth, then desert_json_encode_ex — whose result is
 * the call's result: the same bytes, and the same error (a syntax error as
 * the parser reports it, kind DESERT_JSON_ERR_BAD_REQUEST with line and
 * column; an encode error as desert_json_encode_ex). limits: NULL for the
 * defaults; max_depth applies to the text and the value. scratch is the
 * call's working arena: it is reset as values are written and again before
 * the call returns, so it must hold nothing the caller still needs. text may hold
 * any bytes; it need not be NUL-terminated. */
DESERT_API desert_status desert_json_encode_text(const desert_schema *s, const char *text,
                                                 size_t len, desert_writer *w,
                                                 desert_value_arena *scratch,
                                                 const desert_json_limits *limits,
                                                 desert_json_error *err);
/* Decodes data[0..len) under the schema and appends the canonical JSON of the
 * value to out; *consumed = the bytes the root value used. Default limits
 * (see desert_json_limits). */
DESERT_API desert_status desert_json_decode(const desert_schema *s, desert_reader *r,
                                            const void *data, size_t len, desert_value_arena *a,
                                            desert_json_buf *out, size_t *consumed,
                                            desert_json_error *err);
/* desert_json_decode with the caller's limits (NULL: defaults). */
DESERT_API desert_status desert_json_decode_ex(const desert_schema *s, desert_reader *r,
                                               const void *data, size_t len,
                                               desert_value_arena *a,
                                               const desert_json_limits *limits,
                                               desert_json_buf *out, size_t *consumed,
                                               desert_json_error *err);

/* desert_json_parse_ex with a nesting limit of max_depth (0:
 * DESERT_JSON_MAX_DEPTH) instead of DESERT_JSON_MAX_DEPTH: for a value as
 * deep as the caller's desert_json_limits.max_depth. */
DESERT_API desert_status desert_json_parse_depth(const char *text, size_t len,
                                                 desert_value_arena *a, unsigned max_depth,
                                                 desert_json **out, desert_json_error *err);

/* ---- the conformance testee (docs/schema.md §14) ------------------------------------------------
 */

typedef struct desert_json_testee desert_json_testee;

/* A testee holds the schemas loaded by earlier requests of one session;
 * DESERT_E_NOMEM or DESERT_E_ARGUMENT (out NULL), else *out to free with
 * desert_json_testee_free (NULL: no-op). */
DESERT_API desert_status desert_json_testee_create(desert_json_testee **out);
DESERT_API void desert_json_testee_free(desert_json_testee *t);
/* Handles one request line (without its '\n'; a trailing '\r' is ignored)
 * and appends exactly one response line, '\n' included, to out. Returns
 * false (appending nothing) for a line of only whitespace. */
DESERT_API bool desert_json_testee_line(desert_json_testee *t, const char *line, size_t len,
                                        desert_json_buf *out);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_JSON_H */
