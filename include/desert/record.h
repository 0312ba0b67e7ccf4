/* include/desert/record.h — records (derived structs / case classes) with
 * schema evolution, enums (sum types), tuples, transparent wrappers and the
 * type registry framing: docs/format.md §8, §9–§12.
 * SPDX-License-Identifier: MIT
 *
 * A record type is described once, as static const data:
 *
 *   static const desert_field_desc point_fields[] = {
 *     {"x", 0}, {"label", DESERT_FIELD_OPTIONAL}, {"y", 0}};
 *   static const desert_evolution_step point_steps[] = {
 *     {DESERT_STEP_FIELD_ADDED, "label", true},
 *     {DESERT_STEP_FIELD_MADE_OPTIONAL, "label", false}};
 *   static const desert_record_desc point_desc = DESERT_RECORD_DESC(
 *     "PointV3", point_fields, point_steps);
 *
 * Writing: desert_record_write_begin, then for every non-transient field in
 * declaration order desert_record_write_field (which routes the following
 * writes into the field's chunk) followed by the field's value, then
 * desert_record_write_end (header + chunks). An optional field is written
 * as an Option<T>: the tag and, for Some, the value — either
 * desert_record_write_field + desert_write_option, or the shortcut
 * desert_record_write_field_option. A unit field is started and then
 * nothing is written (it still takes a position, docs/format.md §9.4).
 * Calls that do not match the description (fields out of order, twice,
 * skipped or transient; an optional field without its tag; an option tag
 * for a required field) fail with a status of their own at the call, or
 * for a missing tag when the field ends (desert_record_write_field), and
 * desert_record_error_message names the record and the field.
 *
 *   desert_record_writer rw;
 *   desert_record_write_begin(w, &point_desc, &rw);
 *   desert_record_write_field(&rw, 0);  desert_write_i32(w, p->x);
 *   desert_record_write_field_option(&rw, 1, p->has_label);
 *   if (p->has_label) desert_write_string(w, p->label, p->label_len);
 *   desert_record_write_field(&rw, 2);  desert_write_i32(w, p->y);
 *   desert_record_write_end(&rw);
 *
 * Reading: desert_record_read_begin, then desert_record_read_field for every
 * field of the reader's description in declaration order (transient ones
 * included); it says what to do with the field (read it, None, FieldAdded
 * default, transient default) and has already consumed the option tag of an
 * optional field. Then desert_record_read_end, which leaves the reader right
 * after the record whatever the fields left unread (docs/format.md §9.6).
 *
 *   desert_record_reader rr;
 *   desert_field_action a;
 *   desert_record_read_begin(r, &point_desc, &rr);
 *   desert_record_read_field(&rr, 0, &a);  desert_read_i32(r, &p->x);
 *   desert_record_read_field(&rr, 1, &a);
 *   if (a == DESERT_FIELD_READ) desert_read_string(r, &p->label);
 *   else if (a == DESERT_FIELD_DEFAULT) p->label = origin;  // FieldAdded default
 *   else p->label_none = true;                               // DESERT_FIELD_NONE
 *   desert_record_read_field(&rr, 2, &a);  desert_read_i32(r, &p->y);
 *   desert_record_read_end(&rr);
 *
 * Errors are the contexts' sticky errors: after the first failure every
 * call returns it; the offsets of docs/schema.md §14.5 are in
 * desert_reader_error_offset(). Call the _end function once _begin has
 * succeeded; it restores the context (chunk routing, reader limits,
 * nesting depth) for the enclosing value, also after an error. Code that
 * gives up on the whole message after an error may skip it: the message is
 * lost anyway, and desert_reader_begin / desert_writer_reset clean up what
 * abandoned records left behind (bounded by the nesting depth).
 *
 * Derived data (version, chunk of each field, made-optional indexes,
 * positions, removed names, header entries) is what a prepared plan holds:
 * desert_record_plan_create / desert_record_plan_init compute it once, and
 * desert_record_write_begin_plan / desert_record_read_begin_plan use it
 * (recommended for every record type written or read more than once).
 * The description-based begin calls compute the piece they need on each
 * call instead, with O(fields x steps) name comparisons per record and no
 * allocation: descriptions may be built at run time and freed, so the
 * library keeps no cache keyed by their address (it could serve stale
 * data); the caller owns the plan and its lifetime. (The library's own
 * static tuple descriptions, desert_tuple_desc(n), use their static plans
 * on this path too.) Both paths write the same bytes and return the same
 * statuses at the same offsets.
 * desert_record_desc_check validates a description once (plan creation
 * does it).
 *
 * Nesting: records may contain records (in fields, collections, options,
 * enum payloads) up to options.max_depth levels; begin/end calls must nest
 * properly. A versioned record writes chunk 0 in place, after room
 * reserved for its header in the enclosing output (the header is moved
 * into it at _end, and chunk 0 shifted only when the header's size differs
 * from the room), and its other chunks into chunk buffers taken from a
 * pool kept in the writer, so a warm writer allocates nothing per record
 * (and a fresh one allocates once for its first small records). With a
 * plan whose steps are only FieldAdded / FieldMadeOptional (at most 3)
 * and whose fields' chunks never decrease in declaration order (fields
 * added at the end), every chunk is written in place, one after the
 * other, and _end only writes the header: nothing is copied. In size-only
 * mode no chunk is stored: the writer counts each chunk's bytes.
 * Version-0 records are written straight through.
 *
 * Size-only mode (desert_writer_count_only, desert_encode with no buffer)
 * gives exactly the byte count and the statuses writing the record would
 * give (invalid UTF-8, too-long strings and chunks, misuse, depth; only
 * the memory and buffer-size failures cannot happen). With
 * a plan whose steps are only FieldAdded / FieldMadeOptional and whose
 * fields' chunks never decrease in declaration order (any number of
 * steps), it counts without storing anything and without chunk buffers:
 * the record's bytes add up in the writer's count as they are written,
 * and the header's size follows from the chunk sizes; with the inline
 * writes (writer_inline.h) its numbers, tags, counts and short ASCII
 * strings cost no call. This is the recommended way to compute a
 * record's size before writing it.
 *
 * DeduplicatedString fields in records with FieldRemoved/FieldMadeTransient
 * steps: writers register field strings before header names, readers the
 * other way round (docs/format.md §9.8). This library reproduces both orders
 * exactly, which means later back-references can resolve to the wrong
 * string in every implementation: do not combine the two. The same order
 * breaks a record with FieldRemoved steps nested inside a record of its
 * own type under the modern header scoping (the default; not with
 * DESERT_OPT_LEGACY_HEADER_STRINGS): the inner record registers the
 * removed field's name while its chunk is written, and the outer header,
 * written before that chunk in the stream, then back-references a name
 * the reader has not seen yet (DESERT_E_INVALID_STRING_ID on read). Both
 * reference implementations do the same; avoid that shape or write with
 * legacy header strings.
 *
 * Thread safety: descriptions are immutable and may be shared by threads;
 * record writers/readers belong to the thread using their context. */
#ifndef DESERT_RECORD_H
#define DESERT_RECORD_H

#include "desert/reader.h"
#include "desert/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- descriptions --------------------------------------------------------- */

/* Flags of desert_field_desc.flags. */
enum {
  /* The field's type is Option<T>: an "optional field" (docs/format.md §9.1).
   * Writers write an Option (tag + value); readers get DESERT_FIELD_NONE or
   * DESERT_FIELD_READ with the tag consumed. */
  DESERT_FIELD_OPTIONAL = 1u << 0,
  /* Never written, no position; readers get DESERT_FIELD_TRANSIENT_DEFAULT. */
  DESERT_FIELD_TRANSIENT = 1u << 1
};

/* Names (fields, step fields, cases, records) are NUL-terminated C strings:
 * a name cannot contain U+0000, it would end there. On the wire a name is
 * exactly the bytes before the NUL. Schema documents reject such names
 * (docs/schema.md §9), and neither desert-scala nor desert-rust can declare
 * one, so no interoperable data carries them. */
typedef struct desert_field_desc {
  const char *name; /* exact UTF-8, NUL-terminated; names matter on the wire
                     * only in FieldRemoved header entries */
  unsigned flags;   /* DESERT_FIELD_* */
} desert_field_desc;

typedef enum desert_step_kind {
  DESERT_STEP_FIELD_ADDED = 1,         /* FieldAdded(name, default) */
  DESERT_STEP_FIELD_MADE_OPTIONAL = 2, /* FieldMadeOptional(name) */
  DESERT_STEP_FIELD_REMOVED = 3,       /* FieldRemoved(name) */
  DESERT_STEP_FIELD_MADE_TRANSIENT = 4 /* FieldMadeTransient(name): written as FieldRemoved */
} desert_step_kind;

/* One evolution step after InitialVersion (which is implicit). */
typedef struct desert_evolution_step {
  desert_step_kind kind;
  const char *field; /* the field it names (may no longer, or not yet, be a field) */
  bool has_default;  /* FieldAdded only: readers of older data have a default
                      * for the field (else reading such data fails) */
} desert_evolution_step;

typedef struct desert_record_desc {
  const char *name;                /* for error reports; may be NULL */
  const desert_field_desc *fields; /* declaration order */
  size_t field_count;
  const desert_evolution_step *steps; /* after InitialVersion; version = step_count */
  size_t step_count;                  /* <= DESERT_RECORD_MAX_VERSION */
} desert_record_desc;

/* Scala stores the version byte signed, so versions above 127 break Scala
 * readers (docs/format.md §9.1); this library refuses them. */
#define DESERT_RECORD_MAX_VERSION 127u

#define DESERT_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))
#define DESERT_RECORD_DESC(name, fields, steps) \
  { (name), (fields), DESERT_COUNTOF(fields), (steps), DESERT_COUNTOF(steps) }
#define DESERT_RECORD_DESC_V0(name, fields) \
  { (name), (fields), DESERT_COUNTOF(fields), NULL, 0 }

/* Validates a description completely: d, fields and steps non-NULL where
 * counts are non-zero; every field and step name non-NULL, non-empty,
 * valid UTF-8; field names unique; no unknown flag bits or step kinds; at
 * most DESERT_RECORD_MAX_VERSION steps; every field named by a
 * FieldMadeOptional step that is written sits at chunk-0 position <= 127
 * (docs/format.md §9.5). Steps may name fields that do not exist (they are
 * data, as in the libraries). Returns DESERT_OK or DESERT_E_ARGUMENT.
 * O(fields^2 + fields x steps). Writers and readers only do the cheap
 * checks they need for memory safety (NULL pointers, version), so call this
 * once for descriptions built at run time. */
DESERT_API desert_status desert_record_desc_check(const desert_record_desc *d);

/* ---- prepared plans -----------------------------------------------------------
 * A plan is a description compiled once: per field its chunk, made-optional
 * step and default; per evolution step the header entry the writer emits;
 * whether the record is "plain" (no steps, every field required: tuples,
 * map entries, plain version-0 records), which takes a straight-line path
 * with no per-field lookups. A plan refers to its description (and the
 * names in it), which must outlive it and stay unchanged. Plans are
 * immutable once built: any number of threads may use one at the same
 * time (build a plan in static storage before the threads start). A
 * description that desert_record_desc_check refuses has no plan: use the
 * description-based calls for it.
 *
 * Two ways to get one:
 *  - desert_record_plan_create(d, alloc, &p) ... desert_record_plan_free(p)
 *    (one allocation; alloc NULL = malloc/free);
 *  - in caller storage, for static descriptions built once at start-up
 *    (no allocation, no free):
 *      static void *point_plan_mem[DESERT_RECORD_PLAN_BYTES(3, 2) / sizeof(void *)];
 *      const desert_record_plan *point_plan;
 *      desert_record_plan_init(&point_desc, point_plan_mem, sizeof point_plan_mem,
 *                              &point_plan);
 * desert_tuple_plan(n) gives the static plan of desert_tuple_desc(n). */
typedef struct desert_record_plan desert_record_plan;

/* Upper bound of the bytes a plan of a description with nfields fields and
 * nsteps steps needs (a constant expression; a multiple of 8). */
#define DESERT_RECORD_PLAN_FIXED_BYTES 96u
#define DESERT_RECORD_PLAN_BYTES(nfields, nsteps)                        \
  (DESERT_RECORD_PLAN_FIXED_BYTES + (((size_t)(nfields) * 12u + 7u) & ~(size_t)7u) + \
   (((size_t)(nsteps) * 2u + 7u) & ~(size_t)7u))

/* Exact bytes the plan of d needs in caller storage; 0 when no plan can be
 * built (d fails desert_record_desc_check or has 2^32 - 1 fields or more). */
DESERT_API size_t desert_record_plan_size(const desert_record_desc *d);
/* Builds the plan of d in storage[0..size) (aligned like a pointer), which
 * must stay valid and unmodified as long as the plan is used; *out = the
 * plan (pointing into storage) or NULL. Statuses: DESERT_E_ARGUMENT (out or
 * storage NULL, storage misaligned, d failing desert_record_desc_check or
 * with 2^32 - 1 fields or more),
 * DESERT_E_DST_TOO_SMALL (size below desert_record_plan_size(d)). Nothing to
 * free. O(fields^2 + fields x steps). */
DESERT_API desert_status desert_record_plan_init(const desert_record_desc *d, void *storage,
                                                 size_t size, const desert_record_plan **out);
/* Allocates (one block, through alloc; NULL = malloc/free) and builds the
 * plan of d; *out = the plan or NULL. Statuses: DESERT_E_ARGUMENT (out NULL,
 * d refused as by desert_record_plan_init), DESERT_E_NOMEM. Free it with
 * desert_record_plan_free once no record writer or reader uses it. */
DESERT_API desert_status desert_record_plan_create(const desert_record_desc *d,
                                                   const desert_allocator *alloc,
                                                   desert_record_plan **out);
/* Frees a plan from desert_record_plan_create (NULL: no-op; a plan built
 * with desert_record_plan_init is left alone). */
DESERT_API void desert_record_plan_free(desert_record_plan *p);
/* The description a plan was built from (NULL for NULL). */
DESERT_API const desert_record_desc *desert_record_plan_desc(const desert_record_plan *p);

/* ---- writing ---------------------------------------------------------------- */

/* Per-record writing state; lives on the caller's stack. The members after
 * `desc` are private. */
typedef struct desert_record_writer {
  desert_writer *w;
  const desert_record_desc *desc;
  void *outer_;     /* the writer's target before the record */
  size_t frame_;    /* index of this record's frame in the writer's chunk pool */
  size_t base_;     /* first pool buffer of this record */
  size_t next_;     /* next field index that may be started */
  size_t strings0_; /* string-table size when the record started (legacy header scoping) */
  size_t serial_;   /* identifies the frame (guards against stale use) */
  unsigned version_;
  unsigned state_; /* 0 idle, 1 open, 2 ended, 3 open with the last field
                    * optional and started by desert_record_write_field:
                    * its option tag is checked when it ends */
  const desert_record_plan *plan_; /* NULL: description-based */
  size_t at_;       /* in-place chunk 0: offset of the reserved header in the
                     * enclosing output; size-only: count when the live
                     * chunk was entered */
  unsigned chunk_;  /* chunk the writes go to now */
  unsigned layout_; /* 0 version 0, 1 chunk 0 in place, 2 size-only, 3 buffered,
                     * 4 sequential (every chunk in place), 5 counted
                     * (size-only, counted in place) */
  unsigned reserved_; /* header bytes reserved in place; counted layout: a
                       * chunk too large for its size entry */
  desert_wtarget *tag_t_; /* state 3: the target the optional field's bytes go to */
  size_t tag_at_;         /* state 3: its first byte there (streaming main
                           * output: as a stream offset) */
} desert_record_writer;

/* Writes the version byte. Version 0: fields go straight to the output.
 * Version >= 1: prepares one chunk buffer per chunk, from the writer's pool.
 * Statuses: DESERT_E_ARGUMENT (w, d or rw NULL; a NULL fields/steps array
 * with a non-zero count; a NULL step name; version above 127), DESERT_E_DEPTH
 * (nesting deeper than options.max_depth), DESERT_E_NOMEM, or the writer's
 * earlier error. On failure (other than NULL w/rw) the error is recorded in
 * the writer and rw must not be used further (no _end needed). */
DESERT_API desert_status desert_record_write_begin(desert_writer *w, const desert_record_desc *d,
                                                   desert_record_writer *rw);
/* desert_record_write_begin with a prepared plan (the description is the
 * plan's): same bytes and statuses, without the per-call derivations. A
 * NULL plan is DESERT_E_ARGUMENT. The plan must stay valid until _end. */
DESERT_API desert_status desert_record_write_begin_plan(desert_writer *w,
                                                        const desert_record_plan *plan,
                                                        desert_record_writer *rw);
/* Starts field `index` (declaration index): the following writes go to the
 * field's chunk. Non-transient fields must be started in declaration order,
 * each once.
 *
 * An optional field's bytes start with its option tag: either start it with
 * desert_record_write_field_option, or call this and then, before anything
 * else, desert_write_option (then the value for Some). When such a field
 * ends (the next field call or _end) the writer checks what it can see:
 * at least one byte, the first one 00 or 01, nothing after a 00 (None);
 * anything else is DESERT_E_OPTION_TAG_MISSING, returned by that call. A
 * value written without its tag whose own bytes are the single byte 00 or
 * start with 01 looks like a tag and passes: only
 * desert_record_write_field_option rules the mistake out. Size-only mode
 * keeps no bytes and checks only that the field has some; a streaming
 * writer (stream.h) checks the first byte while it is still in its buffer.
 *
 * Statuses, first match: the previous field's DESERT_E_OPTION_TAG_MISSING,
 * DESERT_E_STATE (rw not open, or its frame gone after a writer reset),
 * DESERT_E_ARGUMENT (index out of range, a NULL field name),
 * DESERT_E_FIELD_ORDER (index not after the previous field's: started
 * twice, or after a later one), DESERT_E_FIELD_TRANSIENT (a transient
 * field), DESERT_E_FIELD_SKIPPED (a non-transient field before index not
 * started), or the writer's earlier error. Errors are recorded in the
 * writer; desert_record_error_message names the record and the field. */
DESERT_API desert_status desert_record_write_field(desert_record_writer *rw, size_t index);
/* desert_record_write_field followed by desert_write_option(some): starts an
 * optional field. The caller writes the value when some is true. Same
 * statuses, plus DESERT_E_FIELD_NOT_OPTIONAL for a field without
 * DESERT_FIELD_OPTIONAL (after the previous field's tag check and the
 * not-open check). */
DESERT_API desert_status desert_record_write_field_option(desert_record_writer *rw, size_t index,
                                                          bool some);
/* Ends the record: for version >= 1 writes the evolution header (docs/format.md
 * §9.5; DESERT_OPT_LEGACY_HEADER_STRINGS and
 * DESERT_OPT_SCALA_REMOVED_OPTIONAL honoured) and then the chunks, in chunk
 * order, to the enclosing output. Always restores the writer's target and
 * nesting depth, also when an error is already recorded.
 * Statuses: DESERT_E_OPTION_TAG_MISSING (the last field, see
 * desert_record_write_field), DESERT_E_FIELD_SKIPPED (a non-transient field
 * was never started), DESERT_E_STATE (rw not open, or its frame gone after
 * a writer reset), DESERT_E_UNKNOWN_FIELD_REFERENCE (a FieldMadeOptional step names a
 * field that is neither written nor removed — Rust style counts only
 * FieldRemoved as removal, Scala style FieldMadeTransient too),
 * DESERT_E_ARGUMENT (a made-optional field at chunk-0 position above 127),
 * DESERT_E_LENGTH_TOO_LARGE (a chunk above 2^31-1 bytes), DESERT_E_NOMEM,
 * DESERT_E_DST_TOO_SMALL (fixed output buffer), DESERT_E_INVALID_UTF8 (a
 * removed name), or the writer's earlier error. */
DESERT_API desert_status desert_record_write_end(desert_record_writer *rw);
/* A message for people about w's error. For the record writer's misuse
 * statuses (DESERT_E_FIELD_ORDER, _SKIPPED, _TRANSIENT, _NOT_OPTIONAL,
 * DESERT_E_OPTION_TAG_MISSING) raised by the calls above it names the
 * record, the field and what is wrong, e.g.
 *   record "PointV3", field "label" (#1): optional field written without
 *   its option tag (first byte 0x05, not 00 or 01)
 * (a record without a name is "?"); for any other status, or when the
 * detail could not be kept (no memory), it is desert_status_message of the
 * writer's status ("success" without an error, the DESERT_E_ARGUMENT
 * message for NULL w). Never NULL; valid until the next call on w. */
DESERT_API const char *desert_record_error_message(desert_writer *w);

/* ---- reading ---------------------------------------------------------------- */

/* What desert_record_read_field asks the caller to do; for every action
 * but READ nothing is to be read. The transient action has the value of
 * the flag DESERT_FIELD_TRANSIENT, so `action == DESERT_FIELD_TRANSIENT`
 * reads naturally and works too. */
typedef enum desert_field_action {
  /* The value follows: read T (an optional field's tag is already consumed
   * and was Some, or the data predates the field's FieldMadeOptional step). */
  DESERT_FIELD_READ = 0,
  /* Optional field: None (tag 00, or removed in the data's version). */
  DESERT_FIELD_NONE = 1,
  /* Transient field: use its transient default. */
  DESERT_FIELD_TRANSIENT_DEFAULT = DESERT_FIELD_TRANSIENT,
  /* The data predates the field: use the default of its FieldAdded step
   * (for an optional field a value of Option<T>). */
  DESERT_FIELD_DEFAULT = 3
} desert_field_action;

/* Per-record reading state; lives on the caller's stack. The members after
 * `desc` are private. */
typedef struct desert_record_reader {
  desert_reader *r;
  const desert_record_desc *desc;
  size_t version_offset_; /* absolute offset of the version byte */
  size_t end_;            /* offset right after the record (versioned data) */
  size_t outer_end_;      /* the reader's limit before the record */
  size_t frame_;          /* offset of the header frame in the reader's record
                           * stack; SIZE_MAX for version-0 data */
  size_t serial_;         /* identifies the frame (guards against stale use) */
  size_t next_;           /* next field index */
  unsigned version_;      /* stored version byte (0..255) */
  unsigned chunk_;        /* chunk whose cursor is live; UINT_MAX: none */
  unsigned state_;        /* 0 idle, 1 open, 2 ended */
  const desert_record_plan *plan_; /* NULL: description-based */
} desert_record_reader;

/* Reads the version byte and, for version >= 1, the sv + 1 header entries;
 * remembers each chunk's byte range, the removed names and the made-optional
 * positions, and skips the chunks (docs/format.md §9.6). Any version byte is
 * accepted (0..255, Rust reads it unsigned).
 * Statuses: DESERT_E_INPUT_ENDED (at the item that is cut short; a chunk
 * longer than the rest of the input: at the chunk's start),
 * DESERT_E_UNKNOWN_EVOLUTION_STEP (a header code below -2; offset: the
 * code), DESERT_E_VARINT_TOO_LONG, DESERT_E_INVALID_UTF8 /
 * DESERT_E_INVALID_STRING_ID / DESERT_E_LIMIT (a removed-field name, read
 * as a DeduplicatedString), DESERT_E_DEPTH (nesting), DESERT_E_ARGUMENT (r, d or rr NULL, a
 * NULL array with a non-zero count, a NULL step name, a description above
 * version 127), DESERT_E_NOMEM, or the reader's earlier error. On failure
 * the error is recorded in the reader (except for NULL r/rr) and rr is not
 * open: there is nothing to end. */
DESERT_API desert_status desert_record_read_begin(desert_reader *r, const desert_record_desc *d,
                                                  desert_record_reader *rr);
/* desert_record_read_begin with a prepared plan (the description is the
 * plan's): same actions, statuses and offsets, without the per-call
 * derivations. A NULL plan is DESERT_E_ARGUMENT (recorded in the reader).
 * The plan must stay valid until _end. */
DESERT_API desert_status desert_record_read_begin_plan(desert_reader *r,
                                                       const desert_record_plan *plan,
                                                       desert_record_reader *rr);
/* Positions the reader for field `index` of the reader's description and
 * says what to do in *action. Every field, transient ones included, must be
 * visited in declaration order (position counters depend on it); fields at
 * the end may be left out. For DESERT_FIELD_READ the reader is limited to
 * the field's chunk (reads past it fail with DESERT_E_INPUT_ENDED); for the
 * other actions nothing must be read.
 * Statuses (offset = the record's version byte unless noted):
 * DESERT_E_FIELD_REMOVED (required field listed as removed by the data),
 * DESERT_E_FIELD_MISSING (required field the data predates, no default),
 * DESERT_E_DESERIALIZATION (optional field the data predates, no default),
 * DESERT_E_NONOPTIONAL_NONE (required field a newer writer made optional and
 * wrote as None; offset: the tag byte), DESERT_E_INVALID_TAG (an optional
 * field's tag other than 00/01 under strict tags; offset: the tag),
 * DESERT_E_INPUT_ENDED (the tag is past the chunk), DESERT_E_STATE (index
 * out of order, rr not open), DESERT_E_ARGUMENT (index out of range, NULL
 * action or field name), or the reader's earlier error. */
DESERT_API desert_status desert_record_read_field(desert_record_reader *rr, size_t index,
                                                  desert_field_action *action);
/* Ends the record: the reader continues right after it (versioned data: at
 * the end of its last chunk, whatever was left unread; version 0: where the
 * last field read ended) with the limit it had before the record. Always
 * restores the reader, also after an error. Returns the reader's status
 * (DESERT_E_STATE if rr is not open and no error is recorded). */
DESERT_API desert_status desert_record_read_end(desert_record_reader *rr);
/* Version byte of the data being read (valid after a successful begin). */
DESERT_API unsigned desert_record_read_version(const desert_record_reader *rr);

/* ---- tuples (docs/format.md §8) -----------------------------------------------------
 * A tuple is a version-0 record of its elements: write it with
 * desert_write_tuple_begin (the byte 00) and the elements, or equivalently
 * as a record of desert_tuple_desc(n). Read it as a full record reader with
 * desert_tuple_desc(n), which accepts evolved record data like the
 * libraries' tuple readers: fields "_1".."_n" (Scala's names, matched by
 * FieldRemoved entries), every element a required field (Rust behaviour,
 * docs/schema.md §4). For Scala's reading of an Option element as an optional
 * field, describe the tuple yourself with DESERT_FIELD_OPTIONAL on it. */
#define DESERT_TUPLE_MAX_ARITY 22u
/* Static description of an n-tuple, 1 <= n <= 22; NULL otherwise. */
DESERT_API const desert_record_desc *desert_tuple_desc(size_t arity);
/* Static plan of desert_tuple_desc(n) (the tuple and map-entry fast path),
 * 1 <= n <= 22; NULL otherwise. */
DESERT_API const desert_record_plan *desert_tuple_plan(size_t arity);

/* ---- transparent wrappers (docs/format.md §10) ----------------------------------------
 * A single-field wrapper declared transparent (Rust #[desert(transparent)],
 * Scala deriveForWrapper) is encoded exactly as its inner value, with no
 * version byte: write and read the inner value directly. No API needed. */

/* ---- enums (docs/format.md §11) ---------------------------------------------------- */

enum {
  DESERT_CASE_TRANSIENT = 1u << 0 /* no id; writing it fails */
};

typedef struct desert_case_desc {
  const char *name; /* NUL-terminated UTF-8 */
  unsigned flags;   /* DESERT_CASE_* */
} desert_case_desc;

typedef struct desert_enum_desc {
  const char *name;              /* for error reports; may be NULL */
  const desert_case_desc *cases; /* declaration order */
  size_t case_count;
  bool sorted; /* ids by byte-wise sorted case names (Rust sorted_constructors,
                * Scala shapeless order for cases declared side by side)
                * instead of declaration order */
} desert_enum_desc;

#define DESERT_ENUM_DESC(name, cases, sorted) \
  { (name), (cases), DESERT_COUNTOF(cases), (sorted) }

/* Constructor id of case `index` (declaration index): the number of
 * non-transient cases before it in id order. Statuses:
 * DESERT_E_SERIALIZING_TRANSIENT (a transient case), DESERT_E_ARGUMENT (d
 * or id NULL, index out of range, a NULL case name). O(cases) for
 * declaration order, O(cases) comparisons for sorted order. */
DESERT_API desert_status desert_enum_case_id(const desert_enum_desc *d, size_t index, uint32_t *id);
/* The inverse: declaration index of the case with constructor id `id`.
 * Statuses: DESERT_E_INVALID_CONSTRUCTOR_ID (no case has that id),
 * DESERT_E_ARGUMENT (d or index NULL, a NULL case name). O(cases) for
 * declaration order, O(cases^2) comparisons at worst for sorted order. */
DESERT_API desert_status desert_enum_case_index(const desert_enum_desc *d, uint32_t id,
                                                size_t *index);

/* Writes 00 (the enum's version byte; enums have no evolution steps here)
 * and var_u32(id of case `index`); the caller then writes the payload: a
 * record for ordinary cases (desert_record_write_begin..., a case without
 * fields being the record with no fields, i.e. the byte 00), the inner
 * value for Rust transparent/custom variants, nothing for a Rust
 * transparent unit variant. Statuses: DESERT_E_SERIALIZING_TRANSIENT,
 * DESERT_E_ARGUMENT (w or d NULL, index out of range), or the writer's
 * earlier error; errors are recorded in the writer. */
DESERT_API desert_status desert_enum_write_begin(desert_writer *w, const desert_enum_desc *d,
                                                 size_t index);

/* Reads the enum's version byte and the constructor id; *index = the
 * declaration index of the case, whose payload the caller reads next, then
 * calls desert_enum_read_end. A version byte other than 00 is Scala's
 * enum-level evolution layout (docs/format.md §11.5): the header is read like a
 * record's and the id and payload are read from the data's chunk 0; the
 * state this needs is kept in the reader's record stack, found again by
 * desert_enum_read_end through the nesting depth (so begin/end must nest
 * properly with records and other enums).
 * Statuses: DESERT_E_INVALID_CONSTRUCTOR_ID (an id no case has; offset: the
 * id varint), DESERT_E_INPUT_ENDED, DESERT_E_VARINT_TOO_LONG, the header
 * errors of desert_record_read_begin (evolved layout), DESERT_E_DEPTH,
 * DESERT_E_ARGUMENT (r, d or index NULL, a NULL case name in a sorted enum),
 * DESERT_E_NOMEM, or the reader's earlier error. After a failed begin there
 * is nothing to end. */
DESERT_API desert_status desert_enum_read_begin(desert_reader *r, const desert_enum_desc *d,
                                                size_t *index);
/* Ends the enum value read since the matching desert_enum_read_begin: for
 * the evolved layout the reader continues after the enum's last chunk,
 * with the limit it had before; in both cases the nesting level is left.
 * d is the description given to begin (only checked for NULL). Returns the
 * reader's status (DESERT_E_ARGUMENT for NULL r or d). */
DESERT_API desert_status desert_enum_read_end(desert_reader *r, const desert_enum_desc *d);

/* Enums by constructor id. desert_enum_write_begin and desert_enum_read_begin
 * derive ids from the description on every call (O(cases), with string
 * comparisons for sorted enums). A caller that maps its cases to ids once
 * (desert_enum_case_id for each case, or ids known when code is generated)
 * writes and reads the id itself with these; the bytes, statuses and error
 * offsets are those of the description-based calls. */

/* Writes 00 (the enum's version byte) and var_u32(id); the caller then
 * writes the payload. Statuses: the writer's (DESERT_E_ARGUMENT for NULL w). */
DESERT_API desert_status desert_enum_write_id(desert_writer *w, uint32_t id);
/* desert_enum_read_begin without a description: reads the version byte
 * (the Scala evolved layout included) and the constructor id into *id. An
 * id >= id_count (the number of non-transient cases) is
 * DESERT_E_INVALID_CONSTRUCTOR_ID with the offset of the id varint. Other
 * statuses as desert_enum_read_begin; DESERT_E_ARGUMENT for NULL r or id.
 * After success the caller reads the payload and calls
 * desert_enum_read_end_id; after a failure there is nothing to end. */
DESERT_API desert_status desert_enum_read_begin_id(desert_reader *r, uint32_t id_count,
                                                   uint32_t *id);
/* desert_enum_read_end for a value begun with desert_enum_read_begin_id. */
DESERT_API desert_status desert_enum_read_end_id(desert_reader *r);

/* Inline forms of the three calls above, with the contract of
 * reader_inline.h: exactly the exported function's behaviour (value,
 * status, error offset, position, nesting, sticky error), done inline only
 * when nothing can fail — no error yet, room to nest, no record-layer frame
 * at the level being opened or closed, and for begin the version byte 00
 * and a one-byte id below id_count inside the current limit; anything else
 * is the exported function's. The write needs room for two bytes (or
 * size-only mode) and an id below 128. Generated code (`desert gen-c`) uses
 * them for every enum value. */
static inline desert_status desert_enum_write_id_inline(desert_writer *w, uint32_t id) {
  if (id < 0x80u) { /* 00 and a one-byte varint */
    desert_wtarget *t = desert_wfast_room_(w, 2);
    if (t) {
      size_t len = t->len;
      t->data[len] = 0;
      t->data[len + 1] = (uint8_t)id;
      t->len = len + 2;
      return DESERT_OK;
    }
    if (desert_wfast_counted_(w, 2)) return DESERT_OK;
  }
  /* no room (the exported call writes what fits, then fails), or a longer id */
  return desert_enum_write_id(w, id);
}
/* desert_enum_write_id_inline for a case whose payload has a fixed size of
 * n bytes (n <= 64): when the writer holds no error, id < 128 and the
 * target has room for 2 + n bytes, writes 00 and the id, counts the n
 * payload bytes as written and returns where they go; the caller must
 * store all n there before its next call on w. Otherwise it writes nothing
 * and returns NULL, and the caller writes the id and the payload with the
 * ordinary calls (which grow the buffer, count in size-only mode, or
 * fail). One room check for a whole small case instead of two; generated
 * code uses it for the cases with a fixed-width number or bool payload. */
static inline uint8_t *desert_enum_write_id_room_inline(desert_writer *w, uint32_t id, size_t n) {
  if (id < 0x80u && n <= 64u) {
    desert_wtarget *t = desert_wfast_room_(w, 2 + n);
    if (t) {
      size_t len = t->len;
      uint8_t *p = t->data + len;
      p[0] = 0;
      p[1] = (uint8_t)id;
      t->len = len + 2 + n;
      return p + 2;
    }
  }
  return NULL;
}
static inline desert_status desert_enum_read_begin_id_inline(desert_reader *r, uint32_t id_count,
                                                             uint32_t *id) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->end - f->pos >= 2 &&
                          f->depth < f->depth_max && f->frame_depth <= f->depth)) {
    const uint8_t *p = f->base + f->pos;
    if (DESERT_FAST_LIKELY_(p[0] == 0 && p[1] < 0x80u && p[1] < id_count)) {
      f->pos += 2;
      f->depth++;
      f->busy = 1; /* the next begin restores the depth, as after any nesting */
      *id = p[1];
      return DESERT_OK;
    }
  }
  return desert_enum_read_begin_id(r, id_count, id);
}
/* For runs of enum values (`desert gen-c`'s lists of an enum with
 * fixed-width payloads): desert_enum_read_peek_inline(r, id_count, &avail)
 * returns the bytes at r's cursor, and in *avail how many are left before
 * r's current limit, when desert_enum_read_begin_id_inline(r, id_count,
 * ...) would begin the value there inline (no error, room to nest, no
 * header frame at this level, 00 and a one-byte id below id_count); else
 * NULL with *avail 0, and the caller reads the value with the ordinary
 * calls. A caller that decodes the value itself from those bytes (the id
 * at [1], a payload of a width it knows, n <= *avail bytes in all) then
 * calls desert_enum_read_skip_inline(r, n) before any other call on r,
 * which leaves r where begin, the payload's inline read and end would have
 * left it; a value that does not fit in *avail must take the ordinary
 * calls, which report it. */
static inline const uint8_t *desert_enum_read_peek_inline(desert_reader *r, uint32_t id_count,
                                                          size_t *avail) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->end - f->pos >= 2 &&
                          f->depth < f->depth_max && f->frame_depth <= f->depth)) {
    const uint8_t *p = f->base + f->pos;
    if (DESERT_FAST_LIKELY_(p[0] == 0 && p[1] < 0x80u && p[1] < id_count)) {
      *avail = f->end - f->pos;
      return p;
    }
  }
  *avail = 0;
  return NULL;
}
static inline void desert_enum_read_skip_inline(desert_reader *r, size_t n) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  f->pos += n;
}
static inline desert_status desert_enum_read_end_id_inline(desert_reader *r) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->frame_depth < f->depth)) {
    f->depth--; /* no evolved enum frame can be open at this level */
    return DESERT_OK;
  }
  return desert_enum_read_end_id(r);
}

/* Version-0 records by straight-line code. A record type without
 * evolution steps is written as the byte 00 and then its non-transient
 * fields in declaration order (docs/format.md §13.2):
 *
 *   if (desert_record_write_v0_begin_inline(w)) return desert_writer_status(w);
 *   ... write the fields in order, optional ones as Options ...
 *   return desert_record_write_v0_end_inline(w);
 *
 * desert_record_write_v0_begin_inline is desert_record_write_begin for such
 * a record: the nesting check (DESERT_E_DEPTH past options.max_depth open
 * records, desert_writer_enter), then the byte 00; on failure nothing is
 * left open. desert_record_write_v0_end_inline leaves the level and returns
 * the writer's status, as desert_record_write_end. Inline while the writer
 * holds no error, can nest and has room for the byte; the rest goes
 * through desert_writer_enter and desert_write_u8.
 *
 * Reading, the data can still come from a later version of the type (a
 * header, chunks), which only desert_record_read_begin reads. So:
 *
 *   if (desert_record_read_v0_begin_inline(r)) {
 *     ... read the fields in order, optional ones as Options ...
 *     return desert_record_read_v0_end_inline(r);
 *   }
 *   ... the record reader: desert_record_read_begin, _field, _end ...
 *
 * desert_record_read_v0_begin_inline returns true when the reader holds no
 * error, can nest one level deeper and the next byte (inside the current
 * limit) is 00: it then consumes the byte and enters a nesting level, as
 * desert_record_read_begin does for version-0 data. Otherwise it returns
 * false and changes nothing; desert_record_read_begin then reports what
 * is wrong or reads the later version. desert_record_read_v0_end_inline
 * leaves that level and returns the reader's status (the sticky error if a
 * field failed), as desert_record_read_end does for version-0 data. The
 * two calls must pair up, and nest properly with the other record and enum
 * calls. Generated code (`desert gen-c`) reads every record type without
 * steps this way. */
static inline desert_status desert_record_write_v0_begin_inline(desert_writer *w) {
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->depth < f->depth_max &&
                          f->t->len < f->t->cap)) {
    desert_wtarget *t = f->t;
    t->data[t->len++] = 0;
    f->depth++;
    /* a reset must restore the depth; |=: a writer in caller storage keeps
     * its pending bits until an exported call sets up the rest */
    f->busy |= 1u;
    return DESERT_OK;
  }
  desert_status st = desert_writer_enter(w);
  if (st) return st;
  st = desert_write_u8(w, 0);
  if (st) desert_writer_leave(w);
  return st;
}
static inline desert_status desert_record_write_v0_end_inline(desert_writer *w) {
  desert_writer_fast *f = (desert_writer_fast *)(void *)w;
  if (f->depth) f->depth--;
  return f->status;
}
static inline bool desert_record_read_v0_begin_inline(desert_reader *r) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (DESERT_FAST_LIKELY_(f->status == DESERT_OK && f->pos < f->end &&
                          f->depth < f->depth_max && f->base[f->pos] == 0)) {
    f->pos++;
    f->depth++;
    f->busy = 1; /* the next begin restores the depth, as after any nesting */
    return true;
  }
  return false;
}
static inline desert_status desert_record_read_v0_end_inline(desert_reader *r) {
  desert_reader_fast *f = (desert_reader_fast *)(void *)r;
  if (f->depth) f->depth--;
  return f->status;
}

/* ---- type registry framing (docs/format.md §12, Scala only) ---------------------------
 * A value of a registered type is var_u32(type id) followed by the value in
 * that type's codec (Scala serializeUnknown, Akka/Pekko and Shardcake
 * messages). desert_write_type_id / desert_read_type_id (writer.h,
 * reader.h) write and read the bare id; these helpers check it against an
 * application registry given as the list of its ids (DefaultTypeRegistry
 * hands out 1, 2, 3... in registration order; placeholders consume ids). */

/* Writes var_u32(ids[index]). index >= count (the value's type has no
 * registration) is DESERT_E_TYPE_NOT_REGISTERED; w NULL or ids NULL with a
 * non-zero count is DESERT_E_ARGUMENT. Errors are recorded in the writer. */
DESERT_API desert_status desert_registry_write_type(desert_writer *w, const uint32_t *ids,
                                                    size_t count, size_t index);
/* Reads var_u32(type id); *index = its position in ids[0..count) (the first
 * match). An id not in the list is DESERT_E_INVALID_TYPE_ID (offset: the id
 * varint). Also DESERT_E_INPUT_ENDED, DESERT_E_VARINT_TOO_LONG,
 * DESERT_E_ARGUMENT (r or index NULL, ids NULL with a non-zero count). */
DESERT_API desert_status desert_registry_read_type(desert_reader *r, const uint32_t *ids,
                                                   size_t count, size_t *index);

#ifdef __cplusplus
}
#endif
#endif /* DESERT_RECORD_H */
