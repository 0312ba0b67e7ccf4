/* src/record/record_derived.h — the derived data of a record description
 * (docs/format.md §9.1) that record_desc.c computes and the record writer and
 * reader consume: argument checks, the chunk and position of each field,
 * field lookup by name. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_RECORD_DERIVED_H
#define DESERT_RECORD_DERIVED_H

#include <limits.h>

#include "desert/record.h"
#include "base/internal.h"

/* ---- derived data (record_desc.c) ------------------------------------------
 * Step s of desc->steps is evolution step s + 1 (InitialVersion is 0), so a
 * FieldAdded at steps[s] owns chunk s + 1. */

/* Cheap checks every begin call makes so that nothing later dereferences a
 * NULL: arrays present for non-zero counts, step names non-NULL, version
 * <= 127. O(steps). DESERT_OK or DESERT_E_ARGUMENT. */
desert_status desert_rec_quick_check_steps(const desert_record_desc *d);
/* Inline: every record begin runs it, and most descriptions (tuples, map
 * entries) have no steps to scan. */
DESERT_INLINE desert_status desert_rec_quick_check(const desert_record_desc *d) {
  if (!d) return DESERT_E_ARGUMENT;
  if (d->field_count && !d->fields) return DESERT_E_ARGUMENT;
  return d->step_count ? desert_rec_quick_check_steps(d) : DESERT_OK;
}

/* desert_rec_field_quick_chunk's answer when it cannot tell. */
#define DESERT_REC_CHUNK_UNSURE UINT_MAX
/* The chunk of the field named `name` (the last FieldAdded step naming it,
 * else 0) by a scan that calls nothing, so that the hot paths that run it
 * for every field save no registers; DESERT_REC_CHUNK_UNSURE when a step's
 * name is another pointer with the same first byte (only a full comparison
 * can tell: desert_rec_field_chunk). Step names are not NULL
 * (desert_rec_quick_check). */
DESERT_INLINE unsigned desert_rec_field_quick_chunk(const desert_record_desc *d, const char *name) {
  for (size_t s = d->step_count; s-- > 0;) {
    const desert_evolution_step *st = &d->steps[s];
    if (st->kind != DESERT_STEP_FIELD_ADDED) continue;
    if (st->field == name) return (unsigned)(s + 1);
    if (st->field[0] == name[0]) return DESERT_REC_CHUNK_UNSURE;
  }
  return 0;
}

/* Chunk of field `index` (the last FieldAdded step naming it, else 0) and,
 * through *has_default (may be NULL), whether that step has a default. */
unsigned desert_rec_field_chunk(const desert_record_desc *d, size_t index, bool *has_default);
/* Index of the last FieldMadeOptional step naming field `index`, else 0. */
unsigned desert_rec_made_optional_index(const desert_record_desc *d, size_t index);
/* Declaration index of the field named `name`, or SIZE_MAX. */
size_t desert_rec_find_field(const desert_record_desc *d, const char *name);
/* Whether a FieldRemoved step (and, when with_transient, a
 * FieldMadeTransient step) names `name`. */
bool desert_rec_is_removed(const desert_record_desc *d, const char *name, bool with_transient);
/* Position of non-transient field `index` within its chunk: the number of
 * non-transient fields before it with the same chunk (writers start every
 * non-transient field, in declaration order). */
size_t desert_rec_field_position(const desert_record_desc *d, size_t index, unsigned chunk);

#endif /* DESERT_RECORD_DERIVED_H */
