/* src/record/record_internal.h — shared internals of the records layer
 * (record_desc.c, record_writer.c, record_reader.c, enum.c): the derived
 * data of a description (FORMAT.md §13.1) and the versioned-header reader
 * that enums reuse for Scala's enum-level evolution layout (§15.3).
 * Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_RECORD_INTERNAL_H
#define DESERT_RECORD_INTERNAL_H

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

/* ---- versioned reading (record_reader.c) ------------------------------------ */

/* Drops the record-stack frames at the current nesting depth or deeper:
 * at a begin they can only be left over from abandoned values. */
void desert_rec_prune(desert_reader *r);
/* Scala's enum-level evolution layout (FORMAT.md §15.3): reads the header
 * of versioned enum data whose version byte (at version_offset) was just
 * read, pushes an enum frame at the current depth and points the reader at
 * the data's chunk 0 (where the id and payload are). The caller did
 * desert_reader_enter. */
desert_status desert_rec_enum_begin(desert_reader *r, unsigned sv, size_t version_offset);
/* If the topmost frame is an enum frame of the current depth: restores the
 * reader to after that enum with the outer limit, pops it, returns true. */
bool desert_rec_enum_end(desert_reader *r);

#endif /* DESERT_RECORD_INTERNAL_H */
