/* include/desert/types.h — runtime type descriptors (a desert_type graph for
 * every type of docs/schema.md §2), dynamic value trees, and the generic codec
 * that decodes bytes under a type into a value tree and encodes it back; plus
 * static C-struct descriptors (the C counterpart of Rust's derive).
 * SPDX-License-Identifier: MIT
 *
 * No JSON here: the JSON layer (target desert::json, src/json/) builds type
 * graphs from schema documents and converts value trees to and from JSON.
 *
 * Types
 *   A desert_type is a node: a built-in (bool, i32, string, uuid, dates, ...)
 *   or a composite (list, set, map, option, either, try, tuple, record, enum,
 *   transparent, ref). Built-ins without parameters are static singletons
 *   (desert_type_builtin). Composite nodes live in a desert_type_set, which
 *   owns their memory: create nodes with desert_type_set_new, fill in the
 *   public fields, then call desert_type_set_seal once; after that the nodes
 *   are immutable and may be shared by threads. Recursion goes through
 *   DESERT_TYPE_REF nodes (a named reference whose target is set later) or
 *   direct pointers; a cycle made only of REF/TRANSPARENT nodes is rejected
 *   by the seal (it would describe no bytes).
 *
 * Values
 *   A desert_value is interpreted under its type. Layout per type:
 *     bool                              BOOL  (b)
 *     i8 i16 i32 i64 var_i32            INT   (i)
 *     day_of_week month year zone_offset INT  (i)
 *     u8 u16 u32 u64 var_u32            UINT  (u)
 *     f32 f64                           FLOAT (bits: the IEEE bit pattern)
 *     unit, option None                 NULL
 *     char char16                       CHAR  (cp: the code point)
 *     string dedup_string bigdecimal    STRING (UTF-8 bytes)
 *     bytes compressed                  BYTES
 *     uuid                              BYTES of length 16
 *     bigint                            BIGINT (two's complement big-endian, len 0 = 0)
 *     list set tuple                    SEQ of the elements
 *     map                               SEQ of SEQ(2) = [key, value]
 *     record                            SEQ with one item per field, in declaration
 *                                       order, transient fields included; an optional
 *                                       field holds NULL or SOME
 *     option Some                       SOME (child)
 *     either                            ALT index 0 = left, 1 = right (child)
 *     try                               ALT index 0 = failure, 1 = success (child)
 *     enum                              ALT index = the constructor's declaration
 *                                       index, child = the payload (a record SEQ for
 *                                       field constructors and constructors without
 *                                       payload, else the value of its type)
 *     zone_id                           ALT 0 = offset (INT seconds), 1 = region (STRING)
 *     duration instant                  SEQ [INT seconds, INT nanos]
 *     bigdecimal_binary                 SEQ [BIGINT unscaled, INT scale]
 *     month_day                         SEQ [month, day]
 *     year_month                        SEQ [year, month]
 *     period                            SEQ [years, months, days]
 *     local_date                        SEQ [year, month, day]
 *     local_time                        SEQ [hour, minute, second, nano]
 *     local_date_time                   SEQ [the 3 date ints, the 4 time ints]
 *     offset_time                       SEQ [4 time ints, offset]
 *     offset_date_time, rust_datetime_fixed_offset  SEQ [7 ints, offset]
 *     zoned_date_time                   SEQ [7 ints, offset, zone (ALT as zone_id)]
 *     rust_datetime_tz                  SEQ [7 ints, zone (STRING)]
 *     transparent, ref                  the value of the inner type
 *   (all components of the date/time and duration SEQs are INT.)
 *
 *   Decoded value trees are allocated in a desert_value_arena; strings of
 *   decoded values are views into the decoded input (keep it alive and
 *   unchanged while the tree is used); values that fill in record defaults
 *   share the defaults stored in the type set (keep it alive too).
 *
 * Errors
 *   Every codec call fills a desert_type_error: the status, for decoding the
 *   absolute input offset of the failing item (docs/schema.md §14.5, as the reader
 *   reports it), and the value path, e.g. "exception.stackTrace[3].fileName"
 *   ("" = the root value). Nesting is bounded (max_depth). */
#ifndef DESERT_TYPES_H
#define DESERT_TYPES_H

#include <stdbool.h>

#include "desert/reader.h"
#include "desert/record.h"
#include "desert/values.h"
#include "desert/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- type kinds ------------------------------------------------------------ */

/* Every type kind, once (X(kind, value, schema name, group, components) per
 * kind), for code that walks them: the enum below, the kind names and the
 * built-in nodes (src/types/types.c), the every-kind test
 * (test/test_type_kinds.c). value is the enumerator's number, part of the ABI
 * (cmake/abi-layout.txt): a new kind takes the next free number, an existing
 * one never changes. group is BUILTIN (a leaf with a static node, docs/schema.md
 * §3) or COMPOSITE (docs/schema.md §4–§7); components is the component count of
 * a fixed-layout kind (desert_type_component_count), else 0.
 *   char:        the session's char form (var_u32, or 2 bytes with scala_chars)
 *   char16:      always one UTF-16 unit in 2 bytes
 *   bytes:       u.bytes             compressed:  u.compressed
 *   list, set:   u.coll (element)    map:         u.coll (element = key, value)
 *   option:      u.inner             either:      u.alt (left, right)
 *   try:         u.alt (left = failure, right = success)
 *   tuple:       u.tuple             record:      u.record
 *   enum:        u.enumeration
 *   transparent: u.inner; name = the wrapper's name
 *   ref:         u.inner = the target; name = the definition's name
 * Every switch over kinds in src/types, src/json and tools/gen_c names every
 * kind without a default arm and is compiled with -Wswitch-enum, so a kind
 * added here fails the build until each of them handles it. */
#define DESERT_TYPE_KINDS(X)                                              \
  X(DESERT_TYPE_BOOL, 1, "bool", BUILTIN, 0)                              \
  X(DESERT_TYPE_I8, 2, "i8", BUILTIN, 0)                                  \
  X(DESERT_TYPE_I16, 3, "i16", BUILTIN, 0)                                \
  X(DESERT_TYPE_I32, 4, "i32", BUILTIN, 0)                                \
  X(DESERT_TYPE_I64, 5, "i64", BUILTIN, 0)                                \
  X(DESERT_TYPE_U8, 6, "u8", BUILTIN, 0)                                  \
  X(DESERT_TYPE_U16, 7, "u16", BUILTIN, 0)                                \
  X(DESERT_TYPE_U32, 8, "u32", BUILTIN, 0)                                \
  X(DESERT_TYPE_U64, 9, "u64", BUILTIN, 0)                                \
  X(DESERT_TYPE_F32, 10, "f32", BUILTIN, 0)                               \
  X(DESERT_TYPE_F64, 11, "f64", BUILTIN, 0)                               \
  X(DESERT_TYPE_UNIT, 12, "unit", BUILTIN, 0)                             \
  X(DESERT_TYPE_CHAR, 13, "char", BUILTIN, 0)                             \
  X(DESERT_TYPE_CHAR16, 14, "char16", BUILTIN, 0)                         \
  X(DESERT_TYPE_STRING, 15, "string", BUILTIN, 0)                         \
  X(DESERT_TYPE_DEDUP_STRING, 16, "dedup_string", BUILTIN, 0)             \
  X(DESERT_TYPE_VAR_U32, 17, "var_u32", BUILTIN, 0)                       \
  X(DESERT_TYPE_VAR_I32, 18, "var_i32", BUILTIN, 0)                       \
  X(DESERT_TYPE_BYTES, 19, "bytes", BUILTIN, 0)                           \
  X(DESERT_TYPE_UUID, 20, "uuid", BUILTIN, 0)                             \
  X(DESERT_TYPE_DURATION, 21, "duration", BUILTIN, 2)                     \
  X(DESERT_TYPE_INSTANT, 22, "instant", BUILTIN, 2)                       \
  X(DESERT_TYPE_BIGINT, 23, "bigint", BUILTIN, 0)                         \
  X(DESERT_TYPE_BIGDECIMAL, 24, "bigdecimal", BUILTIN, 0)                 \
  X(DESERT_TYPE_BIGDECIMAL_BINARY, 25, "bigdecimal_binary", BUILTIN, 2)   \
  X(DESERT_TYPE_COMPRESSED, 26, "compressed", BUILTIN, 0)                 \
  X(DESERT_TYPE_DAY_OF_WEEK, 27, "day_of_week", BUILTIN, 0)               \
  X(DESERT_TYPE_MONTH, 28, "month", BUILTIN, 0)                           \
  X(DESERT_TYPE_YEAR, 29, "year", BUILTIN, 0)                             \
  X(DESERT_TYPE_MONTH_DAY, 30, "month_day", BUILTIN, 2)                   \
  X(DESERT_TYPE_YEAR_MONTH, 31, "year_month", BUILTIN, 2)                 \
  X(DESERT_TYPE_PERIOD, 32, "period", BUILTIN, 3)                         \
  X(DESERT_TYPE_ZONE_OFFSET, 33, "zone_offset", BUILTIN, 0)               \
  X(DESERT_TYPE_ZONE_ID, 34, "zone_id", BUILTIN, 0)                       \
  X(DESERT_TYPE_LOCAL_DATE, 35, "local_date", BUILTIN, 3)                 \
  X(DESERT_TYPE_LOCAL_TIME, 36, "local_time", BUILTIN, 4)                 \
  X(DESERT_TYPE_LOCAL_DATE_TIME, 37, "local_date_time", BUILTIN, 7)       \
  X(DESERT_TYPE_OFFSET_TIME, 38, "offset_time", BUILTIN, 5)               \
  X(DESERT_TYPE_OFFSET_DATE_TIME, 39, "offset_date_time", BUILTIN, 8)     \
  X(DESERT_TYPE_ZONED_DATE_TIME, 40, "zoned_date_time", BUILTIN, 9)       \
  X(DESERT_TYPE_RUST_DATETIME_FIXED_OFFSET, 41, "rust_datetime_fixed_offset", BUILTIN, 8) \
  X(DESERT_TYPE_RUST_DATETIME_TZ, 42, "rust_datetime_tz", BUILTIN, 8)     \
  X(DESERT_TYPE_LIST, 43, "list", COMPOSITE, 0)                           \
  X(DESERT_TYPE_SET, 44, "set", COMPOSITE, 0)                             \
  X(DESERT_TYPE_MAP, 45, "map", COMPOSITE, 0)                             \
  X(DESERT_TYPE_OPTION, 46, "option", COMPOSITE, 0)                       \
  X(DESERT_TYPE_EITHER, 47, "either", COMPOSITE, 0)                       \
  X(DESERT_TYPE_TRY, 48, "try", COMPOSITE, 0)                             \
  X(DESERT_TYPE_TUPLE, 49, "tuple", COMPOSITE, 0)                         \
  X(DESERT_TYPE_RECORD, 50, "record", COMPOSITE, 0)                       \
  X(DESERT_TYPE_ENUM, 51, "enum", COMPOSITE, 0)                           \
  X(DESERT_TYPE_TRANSPARENT, 52, "transparent", COMPOSITE, 0)             \
  X(DESERT_TYPE_REF, 53, "ref", COMPOSITE, 0)

#define DESERT_TYPE_ENUMERATOR_(kind, value, name, group, components) kind = value,
typedef enum desert_type_kind {
  DESERT_TYPE_KINDS(DESERT_TYPE_ENUMERATOR_)
  /* one past the highest kind: not a kind (switches over kinds list it with
   * the out-of-range values) */
  DESERT_TYPE_KIND_COUNT_
} desert_type_kind;
#undef DESERT_TYPE_ENUMERATOR_

/* DESERT_TYPE_CASES(BUILTIN) / DESERT_TYPE_CASES(COMPOSITE): the case labels
 * of every kind of one group, for a switch that treats a whole group alike
 * (the other group's kinds it still names one by one). */
#define DESERT_TYPE_CASES(group) DESERT_TYPE_KINDS(DESERT_TYPE_CASE_IN_##group##_)
#define DESERT_TYPE_CASE_IN_BUILTIN_(kind, value, name, group, components) \
  DESERT_TYPE_CASE_##group##_IN_BUILTIN_(kind)
#define DESERT_TYPE_CASE_IN_COMPOSITE_(kind, value, name, group, components) \
  DESERT_TYPE_CASE_##group##_IN_COMPOSITE_(kind)
#define DESERT_TYPE_CASE_BUILTIN_IN_BUILTIN_(kind)     case kind:
#define DESERT_TYPE_CASE_COMPOSITE_IN_BUILTIN_(kind)
#define DESERT_TYPE_CASE_BUILTIN_IN_COMPOSITE_(kind)
#define DESERT_TYPE_CASE_COMPOSITE_IN_COMPOSITE_(kind) case kind:

typedef struct desert_type desert_type;
typedef struct desert_value desert_value;

/* Every name below (fields, step fields, constructors, definitions,
 * record/enum/wrapper names) is a NUL-terminated UTF-8 C string and so
 * holds no U+0000: desert_schema_load rejects a document naming anything
 * with U+0000 as BadSchema (docs/schema.md §9), and a name built by hand ends
 * at its first NUL (see record.h). */

/* A record field (docs/schema.md §5). */
typedef struct desert_type_field {
  const char *name;        /* NUL-terminated UTF-8 */
  const desert_type *type; /* T; an optional field holds Option<T> */
  unsigned flags;          /* DESERT_FIELD_OPTIONAL | DESERT_FIELD_TRANSIENT (record.h) */
  /* Transient fields: the value readers fill in (of Option<T> when optional). */
  const desert_value *transient_default;
} desert_type_field;

/* An evolution step after InitialVersion. */
typedef struct desert_type_step {
  desert_step_kind kind;
  const char *field;                 /* may name a field that no longer exists */
  const desert_value *default_value; /* FieldAdded: the default, NULL = none */
} desert_type_step;

/* An enum constructor (docs/schema.md §6). */
typedef struct desert_type_ctor {
  const char *name;
  bool transient;             /* no id; writing it fails */
  const desert_type *payload; /* a RECORD for field cases and cases without payload
                               * (an empty record: the byte 00), else any type;
                               * may be NULL for transient constructors */
} desert_type_ctor;

struct desert_type {
  desert_type_kind kind;
  const char *name; /* REF: definition name; RECORD/ENUM/TRANSPARENT: name for
                     * messages (may be NULL) */
  union {
    struct {
      bool non_empty;  /* reader fails on length 0 (Rust NEVec<u8>) */
      bool has_length; /* reader fails unless the length is `length` ([u8; N]) */
      uint32_t length;
    } bytes;
    struct {
      int flavour; /* -1: the context's desert_options.compression, else desert_compression */
      int level;   /* -1: flavour default */
    } compressed;
    struct {
      const desert_type *element; /* MAP: the key type */
      const desert_type *value;   /* MAP only */
      bool unknown_form;          /* writer: 01 (01 element)* 00 */
      bool non_empty;
      bool has_length; /* LIST only */
      uint32_t length;
    } coll;
    const desert_type *inner; /* OPTION, TRANSPARENT, REF */
    struct {
      const desert_type *left;  /* EITHER: left; TRY: failure */
      const desert_type *right; /* EITHER: right; TRY: success */
    } alt;
    struct {
      const desert_type *const *elements;
      size_t count;
    } tuple;
    struct {
      const desert_type_field *fields;
      size_t field_count;
      const desert_type_step *steps;
      size_t step_count; /* <= 127 */
    } record;
    struct {
      const desert_type_ctor *ctors;
      size_t count;
      bool sorted; /* ids by byte-wise sorted names, else declaration order */
    } enumeration;
  } u;
  const void *impl_; /* derived data, set by desert_type_set_seal */
};

/* The static node of a built-in kind (bytes and compressed with their
 * defaults: no constraints, session flavour, default level), or NULL for a
 * composite kind. */
DESERT_API const desert_type *desert_type_builtin(desert_type_kind kind);
/* Schema name of a built-in kind ("i32", "local_date", ...) or composite kind
 * ("list", "record", ...); NULL for an unknown kind. */
DESERT_API const char *desert_type_kind_name(desert_type_kind kind);
/* Follows REF and TRANSPARENT nodes to the type that describes the bytes.
 * NULL when t is NULL or an unresolved REF. */
DESERT_API const desert_type *desert_type_resolve(const desert_type *t);
/* True when null is a value of the type (unit, option, or a REF/TRANSPARENT
 * of one): an Option of it writes Some as {"some": v} in JSON (docs/schema.md §11.3). */
DESERT_API bool desert_type_nullable(const desert_type *t);
/* Number of components of a fixed-layout kind (duration: 2, local_date: 3,
 * zoned_date_time: 9, ...), 0 for other kinds. */
DESERT_API size_t desert_type_component_count(desert_type_kind kind);

/* ---- type sets ---------------------------------------------------------------- */

typedef struct desert_type_set desert_type_set;

/* alloc NULL = malloc/free. */
DESERT_API desert_status desert_type_set_create(const desert_allocator *alloc,
                                                desert_type_set **out);
DESERT_API void desert_type_set_free(desert_type_set *s);
/* A zeroed node of the given kind owned by the set (NULL on failure). Its
 * flavour/level fields start at -1 for COMPRESSED. */
DESERT_API desert_type *desert_type_set_new(desert_type_set *s, desert_type_kind kind);
/* Memory owned by the set (arrays of fields, names, default values...). */
DESERT_API void *desert_type_set_alloc(desert_type_set *s, size_t size, size_t align);
/* A NUL-terminated copy of s[0..len). */
DESERT_API char *desert_type_set_strdup(desert_type_set *s, const char *str, size_t len);
/* The nodes of the set in the order desert_type_set_new made them: count,
 * and node i (NULL when i >= count or s is NULL). desert_schema_load makes
 * them in a fixed order for a given document and library version, so code
 * generated from a document (`desert gen-c`) finds its types again by
 * index (and checks what it finds). */
DESERT_API size_t desert_type_set_count(const desert_type_set *s);
DESERT_API const desert_type *desert_type_set_at(const desert_type_set *s, size_t i);
/* The set's value arena: default values stored in types should live here. */
typedef struct desert_value_arena desert_value_arena;
DESERT_API desert_value_arena *desert_type_set_arena(desert_type_set *s);
/* Checks every node created in the set and computes what the codecs need
 * (record and enum descriptors, constructor ids). DESERT_E_ARGUMENT for an
 * invalid graph (unresolved REF, REF/TRANSPARENT cycle, duplicate field or
 * constructor names, more than 127 steps, missing parts); the message says
 * what. May be called again after adding nodes. */
DESERT_API desert_status desert_type_set_seal(desert_type_set *s, char *message,
                                              size_t message_cap);

/* Constructor id of the enum's constructor at declaration index i;
 * DESERT_E_SERIALIZING_TRANSIENT for a transient one (the set is sealed). */
DESERT_API desert_status desert_type_enum_id(const desert_type *t, size_t i, uint32_t *id);

/* ---- values -------------------------------------------------------------------- */

typedef enum desert_value_kind {
  DESERT_VALUE_NULL = 0,
  DESERT_VALUE_BOOL,
  DESERT_VALUE_INT,
  DESERT_VALUE_UINT,
  DESERT_VALUE_FLOAT,
  DESERT_VALUE_CHAR,
  DESERT_VALUE_STRING,
  DESERT_VALUE_BYTES,
  DESERT_VALUE_BIGINT,
  DESERT_VALUE_SEQ,
  DESERT_VALUE_SOME,
  DESERT_VALUE_ALT
} desert_value_kind;

struct desert_value {
  desert_value_kind kind;
  uint32_t index; /* ALT: the alternative */
  union {
    bool b;
    int64_t i;
    uint64_t u;
    uint64_t bits; /* FLOAT: f32 in the low 32 bits */
    uint32_t cp;
    struct {
      const char *ptr; /* STRING: UTF-8; BYTES, BIGINT: bytes */
      size_t len;
    } str;
    struct {
      desert_value *items;
      size_t count;
    } seq;
    desert_value *child; /* SOME, ALT */
  } as;
};

/* Bump arena for value trees: create, reset (keeps memory), free. */
DESERT_API desert_status desert_value_arena_create(const desert_allocator *alloc,
                                                   desert_value_arena **out);
DESERT_API void desert_value_arena_reset(desert_value_arena *a);
DESERT_API void desert_value_arena_free(desert_value_arena *a);
/* NULL on failure. align: a power of two <= 64. size 0 gives a valid pointer. */
DESERT_API void *desert_value_arena_alloc(desert_value_arena *a, size_t size, size_t align);
/* n zeroed values (kind NULL), NULL on failure or overflow. */
DESERT_API desert_value *desert_value_arena_values(desert_value_arena *a, size_t n);
/* Bytes held by the arena's blocks. */
DESERT_API size_t desert_value_arena_size(const desert_value_arena *a);

/* ---- the generic codec ------------------------------------------------------------ */

typedef struct desert_type_error {
  desert_status status; /* DESERT_OK when nothing failed */
  bool has_offset;      /* decoding: offset is valid */
  size_t offset;        /* absolute input offset of the failing item */
  char path[224];       /* value path ("" = root), truncated with "..." */
  char message[224];    /* human-readable detail (may be empty) */
} desert_type_error;

/* Limits of one codec call; zero fields take the defaults. */
typedef struct desert_codec_limits {
  unsigned max_depth; /* nesting of composite values (default 256) */
  size_t max_values;  /* decode: value nodes in one tree (default 1 << 26) */
  size_t max_bigint;  /* decode: bytes of one big integer (default: no limit); its
                       * decimal text costs quadratic time */
} desert_codec_limits;

/* Decodes one value of type t at the reader's position (after
 * desert_reader_begin) into a tree allocated in a. On failure the reader's
 * status and error offset are those of the failing item; err (may be NULL)
 * gets the status, the offset and the path. limits may be NULL. */
DESERT_API desert_status desert_type_decode(desert_reader *r, const desert_type *t,
                                            desert_value_arena *a,
                                            const desert_codec_limits *limits, desert_value **out,
                                            desert_type_error *err);

/* Observer of a traced decode: called after each value was read with the
 * absolute offsets [start, end) of its bytes (a record's span includes its
 * version byte, header and chunks; values taken from defaults are not
 * reported), its value path, its type kind, and whether it is a leaf (a
 * value without component values). Calls come in completion order: a
 * composite value after its components. */
typedef void (*desert_decode_trace)(void *ctx, size_t start, size_t end, const char *path,
                                    desert_type_kind kind, bool leaf);

/* desert_type_decode with a trace observer (fn may be NULL). */
DESERT_API desert_status desert_type_decode_traced(desert_reader *r, const desert_type *t,
                                                   desert_value_arena *a,
                                                   const desert_codec_limits *limits,
                                                   desert_decode_trace fn, void *fn_ctx,
                                                   desert_value **out, desert_type_error *err);

/* Encodes v under t through w. A value that does not fit its type (wrong
 * kind, out of range, constraint violated) is DESERT_E_ARGUMENT with the path
 * and a message; writer failures keep their status (UnsupportedCharacter,
 * SerializingTransientConstructor, UnknownFieldReferenceInEvolutionStep,
 * LengthTooLarge, ...). Every failure is also recorded in the writer (sticky):
 * reset it before the next message. */
DESERT_API desert_status desert_type_encode(desert_writer *w, const desert_type *t,
                                            const desert_value *v,
                                            const desert_codec_limits *limits,
                                            desert_type_error *err);

/* Begins one value of a composite type whose values are records on the
 * wire, for a caller that writes the fields itself (the JSON layer's text
 * encoder does): t (resolved through aliases) is a record or a tuple of a
 * sealed set, or a map, whose entries are 2-tuples (key, value). It starts
 * the record writer rw on w with the type's plan or descriptor, as
 * desert_type_encode would; the caller then writes each field with
 * desert_record_write_field / desert_record_write_field_option and ends
 * with desert_record_write_end (record.h). DESERT_E_ARGUMENT for any other
 * kind or a NULL argument, DESERT_E_STATE for an unsealed set; the writer's
 * own failures otherwise. */
DESERT_API desert_status desert_type_write_begin(desert_writer *w, const desert_type *t,
                                                 desert_record_writer *rw);

/* Renders a path the JSON way: "$" for the root, "$.a.b[3]" otherwise. */
DESERT_API void desert_type_error_json_path(const desert_type_error *err, char *out, size_t cap);

/* ---- C-struct descriptors --------------------------------------------------------------
 * Static const data that maps a record to a C struct by field offsets: the C
 * counterpart of Rust's #[derive(BinaryCodec)]. The record part (names,
 * optional/transient flags, evolution steps) is an ordinary
 * desert_record_desc of record.h; next to it, one desert_cfield per record
 * field (same order) says how the field is stored in the struct: its C type,
 * its offsetof, the offsetof of the bool "is Some" flag for optional fields,
 * and for nested records and lists the descriptor of the pointee.
 *
 *   typedef struct point { int32_t x; desert_str label; bool has_label; int32_t y; } point;
 *   static const desert_field_desc pf[] = {
 *     {"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}};
 *   static const desert_evolution_step ps[] = {{DESERT_STEP_FIELD_ADDED, "label", true}};
 *   static const desert_cfield pc[] = {
 *     DESERT_CFIELD(point, x, DESERT_C_I32),
 *     DESERT_CFIELD_OPT(point, label, DESERT_C_STRING, has_label),
 *     DESERT_CFIELD(point, y, DESERT_C_I32)};
 *   static const desert_cstruct point_desc =
 *     DESERT_CSTRUCT(point, "Point", pf, ps, pc, point_defaults);
 *
 *   desert_cstruct_encode(w, &point_desc, &p);
 *   desert_cstruct_decode(r, &point_desc, &p);
 *
 * Strings and byte blocks are views (desert_str / desert_bytes): on decode
 * they point into the input (keep it alive); lists are desert_clist
 * {items, count} whose items array a decode allocates in the reader's arena
 * (valid until the next desert_reader_begin/reset/free), as are the structs
 * that DESERT_C_PTR fields point to. Fields the data does not hold
 * (transient fields, FieldAdded fields of older data) are left zeroed and
 * then passed to the descriptor's `defaults` callback, if any.
 * desert_cstruct_check validates a descriptor once (do it in a test).
 *
 * Bases. A desert_cfield describes a value relative to a base address: the
 * struct for a record's fields, one element slot for a list's element
 * descriptor (`sub`, slot size `sub_size`). The parts of an OPTION, EITHER
 * or TRY value are other members of the same base (a flag, the payloads),
 * so their sub-descriptors use that same base; an enum is a struct of its
 * own (tag + payloads, often a union) described once by a desert_cenum:
 *
 *   typedef struct second { uint8_t uuid[16]; bool has_desc; desert_str desc; } second;
 *   typedef struct elem2 {                 // enum ListElement2 { First(String), Second(...) }
 *     uint32_t kind;                       // declaration index of the case
 *     union { first_case first; second second; } u;
 *   } elem2;
 *   typedef struct m {
 *     bool ok; desert_str err; int32_t val; // Either[String, Int]
 *     bool has_e; elem2 e;                 // Option[ListElement2] (not a record field flag)
 *     desert_clist pairs;                  // Map[String, Int]: a list of 2-tuples
 *     struct m *next;                      // Option[M], recursive: NULL = None
 *   } m;
 *   static const desert_case_desc e2_names[] = {{"First", 0}, {"Second", 0}};
 *   static const desert_ccase e2_cases[] = {
 *     DESERT_CCASE(elem2, u.first, &first_desc), DESERT_CCASE(elem2, u.second, &second_desc)};
 *   static const desert_cenum e2 =
 *     DESERT_CENUM(elem2, kind, "ListElement2", e2_names, true, e2_cases);
 *   static const desert_cfield m_c[] = {
 *     DESERT_CFIELD_EITHER(m, ok, DESERT_CFIELD(m, err, DESERT_C_STRING),
 *                          DESERT_CFIELD(m, val, DESERT_C_I32)),
 *     DESERT_CFIELD_OPTION(m, has_e, DESERT_CFIELD_ENUM(m, e, &e2)),
 *     DESERT_CFIELD_LIST(m, pairs, DESERT_C_RECORD, &pair_desc),  // DESERT_CSTRUCT_TUPLE
 *     DESERT_CFIELD_PTR(m, next, &m_desc)};  // record field flagged DESERT_FIELD_OPTIONAL
 *
 * Try[A] is DESERT_CFIELD_TRY(S, is_success, failure, success) where the
 * failure is a record field of a PersistedThrowable descriptor (docs/format.md
 * §15; examples/golden_cstruct_model.h has one, stack trace and recursive
 * cause included).
 *
 * Lists of any element kind (lists of options, of lists, of enums...) take a
 * general element descriptor: DESERT_CFIELD_LISTOF(S, f, ElemType, elem)
 * with `elem` relative to one ElemType slot. Lists of fixed-width numbers
 * stored contiguously are read and written in bulk.
 *
 * Recursion. A descriptor may reach itself again only through a DESERT_C_PTR
 * or a list (both hold the recursive struct out of line); every level is a
 * record, so decoding and encoding stop at options.max_depth
 * (DESERT_E_DEPTH). An optional record field or an OPTION whose value is a
 * DESERT_C_PTR may do without a flag (DESERT_CFIELD_NO_FLAG): NULL is None.
 *
 * Value ctypes. The composite values of values.h (and char16, compressed
 * blocks) are fields like any scalar, stored as the struct the values.h
 * reader fills and the writer takes:
 *   CHAR16 uint16_t; DURATION, INSTANT desert_duration; BIGINT desert_bytes;
 *   BIGINT_I64 int64_t; BIGDECIMAL desert_str; BIGDECIMAL_BINARY
 *   desert_cbigdecimal; COMPRESSED desert_bytes (uncompressed); DAY_OF_WEEK,
 *   MONTH uint8_t; YEAR, ZONE_OFFSET int32_t; MONTH_DAY, YEAR_MONTH, PERIOD,
 *   ZONE_ID, LOCAL_DATE, LOCAL_TIME, LOCAL_DATE_TIME, OFFSET_TIME,
 *   OFFSET_DATE_TIME, ZONED_DATE_TIME the desert_<name> struct;
 *   RUST_DATETIME_FIXED_OFFSET desert_offset_date_time; RUST_DATETIME_TZ
 *   desert_cdatetime_tz; IP_ADDR desert_ip_addr; MAC_ADDRESS uint8_t[6];
 *   URL desert_str.
 * Ranges and text forms are checked by those readers and writers (same
 * statuses and offsets: DESERT_E_ARGUMENT on encode, DESERT_E_INVALID_VALUE
 * etc. on decode). Compressed blocks use the context's
 * desert_options.compression flavour and compression_level, like the
 * runtime type DESERT_TYPE_COMPRESSED with its defaults. Lifetimes on
 * decode: BIGINT, BIGDECIMAL(_BINARY), URL and zone names are views into
 * the input, as strings are; COMPRESSED data is inflated into the reader's
 * arena (valid until the next desert_reader_begin/reset/free). BIGINT and
 * BIGDECIMAL_BINARY values of length 0 encode as 0. */

typedef enum desert_ctype {
  DESERT_C_BOOL = 1,     /* bool */
  DESERT_C_I8,           /* int8_t */
  DESERT_C_I16,          /* int16_t */
  DESERT_C_I32,          /* int32_t */
  DESERT_C_I64,          /* int64_t */
  DESERT_C_U8,           /* uint8_t */
  DESERT_C_U16,          /* uint16_t */
  DESERT_C_U32,          /* uint32_t */
  DESERT_C_U64,          /* uint64_t */
  DESERT_C_F32,          /* float (exact bits) */
  DESERT_C_F64,          /* double (exact bits) */
  DESERT_C_VAR_U32,      /* uint32_t written as var_u32 */
  DESERT_C_VAR_I32,      /* int32_t written as var_i32 */
  DESERT_C_CHAR,         /* uint32_t code point, the context's char form */
  DESERT_C_STRING,       /* desert_str */
  DESERT_C_DEDUP_STRING, /* desert_str, DeduplicatedString */
  DESERT_C_BYTES,        /* desert_bytes (byte block) */
  DESERT_C_UUID,         /* uint8_t[16] */
  DESERT_C_UNIT,         /* no storage (offset ignored) */
  DESERT_C_RECORD,       /* an embedded struct described by `nested` */
  DESERT_C_LIST,         /* desert_clist of `sub` (slots of sub_size bytes), else of `elem`
                          * (for DESERT_C_RECORD: of `nested`); also sets and maps */
  DESERT_C_OPTION,       /* Option: bool at `present` (may be NO_FLAG when sub[0] is a
                          * PTR: NULL = None), the value of sub[0]; `offset` unused */
  DESERT_C_EITHER,       /* Either/Result: bool at `present` (true = Right/Ok), sub[0] the
                          * Left (Err), sub[1] the Right (Ok) value; `offset` unused */
  DESERT_C_TRY,          /* Scala Try: bool at `present` (true = Success), sub[0] the
                          * Failure (a PersistedThrowable record, docs/format.md §15), sub[1]
                          * the Success value; `offset` unused */
  DESERT_C_ENUM,         /* the struct of an enum described by `cenum` (its tag and
                          * payloads) at `offset` */
  DESERT_C_PTR,          /* pointer to a struct described by `nested` (arena-allocated on
                          * decode; NULL = None where the value is optional) */
  /* Value types (values.h / writer.h / reader.h; see "Value ctypes" above). */
  DESERT_C_CHAR16,            /* uint16_t: one UTF-16 unit in 2 bytes, any unit (Scala Char) */
  DESERT_C_DURATION,          /* desert_duration */
  DESERT_C_INSTANT,           /* desert_duration (Instant, chrono DateTime<Utc>) */
  DESERT_C_BIGINT,            /* desert_bytes: two's complement big-endian, len 0 = 0 */
  DESERT_C_BIGINT_I64,        /* int64_t written as a BigInt */
  DESERT_C_BIGDECIMAL,        /* desert_str: the decimal text form */
  DESERT_C_BIGDECIMAL_BINARY, /* desert_cbigdecimal: Rust scale + unscaled form */
  DESERT_C_COMPRESSED,        /* desert_bytes: the uncompressed data; the context's flavour */
  DESERT_C_DAY_OF_WEEK,       /* uint8_t: Monday = 1 .. Sunday = 7 */
  DESERT_C_MONTH,             /* uint8_t: 1..12 */
  DESERT_C_YEAR,              /* int32_t */
  DESERT_C_MONTH_DAY,         /* desert_month_day */
  DESERT_C_YEAR_MONTH,        /* desert_year_month */
  DESERT_C_PERIOD,            /* desert_period */
  DESERT_C_ZONE_OFFSET,       /* int32_t: total seconds (Scala ZoneOffset) */
  DESERT_C_ZONE_ID,           /* desert_zone_id */
  DESERT_C_LOCAL_DATE,        /* desert_local_date */
  DESERT_C_LOCAL_TIME,        /* desert_local_time */
  DESERT_C_LOCAL_DATE_TIME,   /* desert_local_date_time */
  DESERT_C_OFFSET_TIME,       /* desert_offset_time */
  DESERT_C_OFFSET_DATE_TIME,  /* desert_offset_date_time */
  DESERT_C_ZONED_DATE_TIME,   /* desert_zoned_date_time */
  DESERT_C_RUST_DATETIME_FIXED_OFFSET, /* desert_offset_date_time (Rust DateTime<FixedOffset>) */
  DESERT_C_RUST_DATETIME_TZ,           /* desert_cdatetime_tz (Rust DateTime<Tz>) */
  DESERT_C_IP_ADDR,                    /* desert_ip_addr (Rust IpAddr) */
  DESERT_C_MAC_ADDRESS,                /* uint8_t[6] */
  DESERT_C_URL                         /* desert_str: the URL text */
} desert_ctype;

/* Storage of DESERT_C_BIGDECIMAL_BINARY (values.h's
 * desert_write_bigdecimal_binary / desert_read_bigdecimal_binary): the value
 * is unscaled * 10^-scale. unscaled: two's complement big-endian, len 0 = 0
 * (what the reader gives for an empty block). */
typedef struct desert_cbigdecimal {
  int64_t scale;
  desert_bytes unscaled;
} desert_cbigdecimal;

/* Storage of DESERT_C_RUST_DATETIME_TZ (desert_write_rust_datetime_tz /
 * desert_read_rust_datetime_tz): the UTC date-time and the zone name. */
typedef struct desert_cdatetime_tz {
  desert_local_date_time utc;
  desert_str zone;
} desert_cdatetime_tz;

typedef struct desert_cstruct desert_cstruct;
typedef struct desert_cenum desert_cenum;

/* A list field: items points to count elements of the element's C type. */
typedef struct desert_clist {
  void *items;
  size_t count;
} desert_clist;

#define DESERT_CFIELD_NO_FLAG ((size_t)-1)

typedef struct desert_cfield desert_cfield;
struct desert_cfield {
  desert_ctype ctype;
  size_t offset;                /* offsetof(struct, field), from the base */
  size_t present;               /* optional fields and OPTION: offsetof the bool "is Some";
                                 * EITHER: "is Right"; TRY: "is Success" */
  desert_ctype elem;            /* DESERT_C_LIST without `sub`: the element type */
  const desert_cstruct *nested; /* DESERT_C_RECORD, DESERT_C_PTR, or a list of records */
  bool unknown_form;            /* DESERT_C_LIST: writers use the unknown-size form */
  const desert_cfield *sub;     /* LIST: the element (slot-relative); OPTION: sub[0] the value;
                                 * EITHER/TRY: sub[0], sub[1] (same base as this field) */
  size_t sub_size;              /* LIST with `sub`: bytes per element slot */
  const desert_cenum *cenum;    /* DESERT_C_ENUM */
};

/* One enum case: its payload record and where its struct is stored in the
 * enum's C struct (cases may share storage in a union). */
typedef struct desert_ccase {
  const desert_cstruct *payload; /* NULL: a case without fields (the empty record,
                                  * byte 00) or a transient case */
  size_t offset;                 /* offsetof the payload struct in the enum's struct */
} desert_ccase;

/* An enum (docs/format.md §11) stored as a C struct of its own: a 4-byte tag
 * (uint32_t or a C enum: the case's declaration index) and the payloads.
 * The case list is record.h's (names, transient cases, declaration or
 * sorted ids). */
struct desert_cenum {
  desert_enum_desc desc;
  const desert_ccase *cases; /* desc.case_count of them, declaration order */
  size_t tag_offset;         /* offsetof the tag */
  size_t size;               /* sizeof the enum's struct */
};

struct desert_cstruct {
  desert_record_desc record;    /* names, flags and evolution of the fields */
  const desert_cfield *cfields; /* one per record field, same order */
  size_t size;                  /* sizeof(struct) */
  /* Fills field `index` of obj when the data does not hold it (transient
   * fields; fields older data predates). NULL: left zeroed. */
  void (*defaults)(void *obj, size_t index);
  /* Optional prepared plan of `record` (record.h: desert_record_plan_init or
   * _create on &this->record, e.g. at start-up for a descriptor that is not
   * const): encode and decode then skip the per-record derivations. NULL
   * (what the DESERT_CSTRUCT macros set): the description-based calls. A
   * plan of another description is refused by desert_cstruct_check and
   * ignored by encode/decode. */
  const desert_record_plan *plan;
};

/* Field names "_1".."_22" of tuples (docs/format.md §8), for DESERT_CSTRUCT_TUPLE. */
DESERT_API extern const desert_field_desc desert_ctuple_fields[22];

/* Initializers of desert_cfield (all members spelled out: the sub-field
 * arguments of OPTION/EITHER/TRY/LISTOF are braced initializers themselves,
 * so they cannot be passed through another macro). The compound literals
 * they create have static storage only at file scope: declare descriptors
 * that use them at file scope. */
#define DESERT_CFIELD(S, f, ct) \
  { (ct), offsetof(S, f), DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false, NULL, 0, NULL }
#define DESERT_CFIELD_OPT(S, f, ct, flag) \
  { (ct), offsetof(S, f), offsetof(S, flag), (desert_ctype)0, NULL, false, NULL, 0, NULL }
#define DESERT_CFIELD_RECORD(S, f, desc) \
  { DESERT_C_RECORD, offsetof(S, f), DESERT_CFIELD_NO_FLAG, (desert_ctype)0, (desc), false, NULL, 0, NULL }
/* An optional record field holding a record: flag = its "is Some" bool. */
#define DESERT_CFIELD_RECORD_OPT(S, f, desc, flag) \
  { DESERT_C_RECORD, offsetof(S, f), offsetof(S, flag), (desert_ctype)0, (desc), false, NULL, 0, NULL }
#define DESERT_CFIELD_LIST(S, f, et, desc) \
  { DESERT_C_LIST, offsetof(S, f), DESERT_CFIELD_NO_FLAG, (et), (desc), false, NULL, 0, NULL }
/* An optional record field holding a list (flag: its "is Some" bool). */
#define DESERT_CFIELD_LIST_OPT(S, f, et, desc, flag) \
  { DESERT_C_LIST, offsetof(S, f), offsetof(S, flag), (et), (desc), false, NULL, 0, NULL }
/* A list written in the unknown-size form (Scala List, docs/format.md §6.2). */
#define DESERT_CFIELD_LIST_STREAM(S, f, et, desc) \
  { DESERT_C_LIST, offsetof(S, f), DESERT_CFIELD_NO_FLAG, (et), (desc), true, NULL, 0, NULL }
/* A list of ET slots whose element `elem` (a desert_cfield initializer
 * relative to ET) may be of any kind. */
#define DESERT_CFIELD_LISTOF(S, f, ET, elem)                                                     \
  { DESERT_C_LIST, offsetof(S, f), DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false,          \
    (const desert_cfield[]){elem}, sizeof(ET), NULL }
/* Option of any value: flag = the "is Some" bool, inner = a desert_cfield
 * initializer on the same struct. */
#define DESERT_CFIELD_OPTION(S, flag, inner)                                                     \
  { DESERT_C_OPTION, 0, offsetof(S, flag), (desert_ctype)0, NULL, false,                         \
    (const desert_cfield[]){inner}, 0, NULL }
/* Option of a pointer to a struct of `desc` without a flag: NULL is None. */
#define DESERT_CFIELD_OPTION_PTR(S, f, desc)                                                     \
  { DESERT_C_OPTION, 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false,                     \
    (const desert_cfield[]){DESERT_CFIELD_PTR(S, f, desc)}, 0, NULL }
/* Either[L, R]: right = the "is Right" bool; left/right initializers on S. */
#define DESERT_CFIELD_EITHER(S, right, left_f, right_f)                                          \
  { DESERT_C_EITHER, 0, offsetof(S, right), (desert_ctype)0, NULL, false,                        \
    (const desert_cfield[]){left_f, right_f}, 0, NULL }
/* Try[A]: success = the "is Success" bool; failure_f a record field of a
 * PersistedThrowable descriptor, success_f the A. */
#define DESERT_CFIELD_TRY(S, success, failure_f, success_f)                                      \
  { DESERT_C_TRY, 0, offsetof(S, success), (desert_ctype)0, NULL, false,                         \
    (const desert_cfield[]){failure_f, success_f}, 0, NULL }
/* A member of S that is an enum's struct (desert_cenum). */
#define DESERT_CFIELD_ENUM(S, f, ce) \
  { DESERT_C_ENUM, offsetof(S, f), DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false, NULL, 0, (ce) }
/* A pointer to a struct of `desc`; as an optional record field NULL is None. */
#define DESERT_CFIELD_PTR(S, f, desc) \
  { DESERT_C_PTR, offsetof(S, f), DESERT_CFIELD_NO_FLAG, (desert_ctype)0, (desc), false, NULL, 0, NULL }
#define DESERT_CFIELD_UNIT \
  { DESERT_C_UNIT, 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false, NULL, 0, NULL }
/* Element descriptors for DESERT_CFIELD_LISTOF when the slot is the value
 * itself (offset 0). */
#define DESERT_CELEM(ct) \
  { (ct), 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false, NULL, 0, NULL }
#define DESERT_CELEM_RECORD(desc) \
  { DESERT_C_RECORD, 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, (desc), false, NULL, 0, NULL }
#define DESERT_CELEM_ENUM(ce) \
  { DESERT_C_ENUM, 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, NULL, false, NULL, 0, (ce) }
#define DESERT_CELEM_LIST(et, desc) \
  { DESERT_C_LIST, 0, DESERT_CFIELD_NO_FLAG, (et), (desc), false, NULL, 0, NULL }
#define DESERT_CELEM_PTR(desc) \
  { DESERT_C_PTR, 0, DESERT_CFIELD_NO_FLAG, (desert_ctype)0, (desc), false, NULL, 0, NULL }
/* Case `member` of enum struct E has the payload record payload_desc. */
#define DESERT_CCASE(E, member, payload_desc) { (payload_desc), offsetof(E, member) }
#define DESERT_CCASE_NONE { NULL, 0 } /* a case without fields, or a transient case */
/* The enum stored as struct E with its 4-byte tag in member `tag` (the size
 * is checked at compile time); case_descs: record.h's desert_case_desc
 * array, ccases: one desert_ccase per case. */
#define DESERT_CENUM(E, tag, name, case_descs, sorted, ccases)                                  \
  { DESERT_ENUM_DESC(name, case_descs, sorted), (ccases),                                      \
    offsetof(E, tag) + 0 * sizeof(char[sizeof(((E *)0)->tag) == 4 ? 1 : -1]), sizeof(E) }
#define DESERT_CSTRUCT(S, name, fields, steps, cfields, defaults_fn) \
  { DESERT_RECORD_DESC(name, fields, steps), (cfields), sizeof(S), (defaults_fn), NULL }
#define DESERT_CSTRUCT_V0(S, name, fields, cfields, defaults_fn) \
  { DESERT_RECORD_DESC_V0(name, fields), (cfields), sizeof(S), (defaults_fn), NULL }
/* A tuple (docs/format.md §8; map entries are 2-tuples): a version-0 record of
 * fields "_1".."_n", n = the number of cfields (at most 22). */
#define DESERT_CSTRUCT_TUPLE(S, cfields) \
  { { "Tuple", desert_ctuple_fields, DESERT_COUNTOF(cfields), NULL, 0 }, (cfields), sizeof(S), NULL, NULL }

/* Validates a descriptor and everything it reaches: the record description
 * (desert_record_desc_check), C types, offsets inside the struct (or slot),
 * optional fields with a flag (or a PTR), nested, sub and enum descriptors
 * present and valid (case names, one desert_ccase per case, payloads inside
 * the base), and that the descriptor graph only reaches itself again
 * through a PTR or a list (a cycle through embedded values would describe
 * an infinite struct). DESERT_OK or DESERT_E_ARGUMENT. */
DESERT_API desert_status desert_cstruct_check(const desert_cstruct *d);
/* Writes the struct at obj as a record (docs/format.md §9). */
DESERT_API desert_status desert_cstruct_encode(desert_writer *w, const desert_cstruct *d,
                                               const void *obj);
/* Reads a record into the struct at obj (zeroed first). */
DESERT_API desert_status desert_cstruct_decode(desert_reader *r, const desert_cstruct *d,
                                               void *obj);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_TYPES_H */
