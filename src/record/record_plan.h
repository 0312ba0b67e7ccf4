/* src/record/record_plan.h — the layout of a prepared record plan
 * (desert_record_plan, record.h) and the per-field and per-header-entry
 * data that both a plan and the description-based path use: a plan holds
 * them precomputed, the description-based calls compute the one they need
 * on the spot with the same functions (record_plan.c), so the two paths
 * cannot disagree. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_RECORD_PLAN_H
#define DESERT_RECORD_PLAN_H

#include "record/record_derived.h"

/* What the writer puts in header entry s + 1 (step s) besides chunk sizes. */
enum {
  REC_H_CHUNK = 0,       /* FieldAdded: the size of chunk s + 1 */
  REC_H_MO = 1,          /* FieldMadeOptional of a written field: 01 `byte` */
  REC_H_MO_REMOVED = 2,  /* ... of a FieldRemoved field: Scala 01 80, Rust 03 name */
  REC_H_MO_TRANSIENT = 3, /* ... of a field only FieldMadeTransient removed:
                          * Scala 01 80, Rust DESERT_E_UNKNOWN_FIELD_REFERENCE */
  REC_H_MO_UNKNOWN = 4,  /* ... of no field: DESERT_E_UNKNOWN_FIELD_REFERENCE */
  REC_H_MO_FAR = 5,      /* ... of a chunk-0 field past position 127: DESERT_E_ARGUMENT */
  REC_H_REMOVED = 6      /* FieldRemoved / FieldMadeTransient: 03 name */
};

typedef struct desert_rec_hentry {
  uint8_t kind; /* REC_H_* */
  uint8_t byte; /* REC_H_MO: the position byte */
} desert_rec_hentry;

typedef struct desert_rec_pfield {
  uint32_t name_len;   /* strlen(name) (matched against removed names) */
  uint32_t min_next;   /* writers: 1 + the last non-transient field before
                        * this one (0 if none): starting this field skips no
                        * written field iff the next expected index is at
                        * least this */
  uint8_t flags;       /* DESERT_FIELD_* */
  uint8_t chunk;       /* chunk of the field (its FieldAdded step), 0..127 */
  uint8_t mo_index;    /* last FieldMadeOptional step naming it, else 0 */
  uint8_t has_default; /* its FieldAdded step has a default */
} desert_rec_pfield;

/* Plan flags. */
enum {
  /* Every field required and not transient, no steps (tuples, map entries,
   * plain version-0 records): fields need no per-field lookup at all. */
  REC_PLAN_PLAIN = 1u << 0,
  /* Versioned, and every header entry is a chunk size or a made-optional
   * entry of a written field (01 + a fixed byte): no names, nothing that
   * depends on the writer's options or string table. The writer's
   * straight-line end writes such a header in place (record_writer.c). */
  REC_PLAN_FIXED_HEADER = 1u << 1,
  /* REC_PLAN_FIXED_HEADER, at most REC_SEQ_MAX steps, and the written
   * fields' chunks never decrease in declaration order (fields added at
   * the end, the usual evolution): written in order, the chunks come out
   * one after the other, as the wire orders them, so a growable output
   * takes them all in place (record_writer.c, the sequential layout). */
  REC_PLAN_SEQ = 1u << 2,
  /* REC_PLAN_FIXED_HEADER and the written fields' chunks never decrease in
   * declaration order, with any number of steps: size-only mode counts
   * such a record in the enclosing count, one chunk after the other, with
   * no chunk buffer (record_writer.c, the counted layout). */
  REC_PLAN_ORDERED = 1u << 3
};

/* Most steps a REC_PLAN_SEQ plan has (the writer keeps one chunk start per
 * step in its frame). */
#define REC_SEQ_MAX 3u

struct desert_record_plan {
  const desert_record_desc *desc;
  const desert_rec_pfield *fields; /* desc->field_count */
  const desert_rec_hentry *entries; /* desc->step_count */
  size_t field_count;
  unsigned version;
  unsigned flags;      /* REC_PLAN_* */
  unsigned min_header; /* fewest header bytes any message can have (see the
                        * writer's in-place chunk 0) */
  desert_allocator alloc; /* desert_record_plan_create's; unused for init */
  size_t bytes;           /* size of the block (create) */
  bool owned;             /* from desert_record_plan_create */
};

/* Field i's derived data (desc path: O(steps) name comparisons). */
desert_rec_pfield desert_rec_compute_field(const desert_record_desc *d, size_t i);
/* Header entry of step s (0-based; desc path). */
desert_rec_hentry desert_rec_compute_entry(const desert_record_desc *d, size_t s);
/* The library's tuple descriptions and their static plans (record_plan.c). */
extern const desert_record_desc desert_rec_tuple_descs[DESERT_TUPLE_MAX_ARITY];
extern const desert_record_plan desert_rec_tuple_plans[DESERT_TUPLE_MAX_ARITY];

/* The static plan of a description that is one of desert_tuple_desc's,
 * else NULL: the description-based calls on tuples (map entries) take the
 * plan's fast path too. Inline: every description-based record begin asks.
 * Only the library's own static descriptions: an address inside the tuple
 * array can belong to nothing else (compared as integers, since relational
 * operators on pointers into different objects are undefined). */
DESERT_INLINE const desert_record_plan *desert_rec_static_plan(const desert_record_desc *d) {
  uintptr_t a = (uintptr_t)d, lo = (uintptr_t)&desert_rec_tuple_descs[0];
  if (a < lo || a >= (uintptr_t)&desert_rec_tuple_descs[DESERT_TUPLE_MAX_ARITY]) return NULL;
  return &desert_rec_tuple_plans[(a - lo) / sizeof desert_rec_tuple_descs[0]];
}
/* Fewest header bytes a record of d writes: one per chunk size, two per
 * made-optional entry or removed name (03 + a back-reference). */
unsigned desert_rec_min_header(const desert_record_desc *d);

#endif /* DESERT_RECORD_PLAN_H */
