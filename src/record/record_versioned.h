/* src/record/record_versioned.h — hooks of the versioned record reader
 * (record_reader.c) that enums reuse for Scala's enum-level evolution layout
 * (docs/format.md §11.5). Split from the derived data (record_derived.h) so that
 * record_desc.c, which only computes that data, includes nothing of the
 * reader. Internal.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_RECORD_VERSIONED_H
#define DESERT_RECORD_VERSIONED_H

#include "desert/record.h"
#include "base/internal.h"

/* ---- versioned reading (record_reader.c) ------------------------------------ */

/* Drops the record-stack frames at the current nesting depth or deeper:
 * at a begin they can only be left over from abandoned values. */
void desert_rec_prune(desert_reader *r);
/* Scala's enum-level evolution layout (docs/format.md §11.5): reads the header
 * of versioned enum data whose version byte (at version_offset) was just
 * read, pushes an enum frame at the current depth and points the reader at
 * the data's chunk 0 (where the id and payload are). The caller did
 * desert_reader_enter. */
desert_status desert_rec_enum_begin(desert_reader *r, unsigned sv, size_t version_offset);
/* If the topmost frame is an enum frame of the current depth: restores the
 * reader to after that enum with the outer limit, pops it, returns true. */
bool desert_rec_enum_end(desert_reader *r);

#endif /* DESERT_RECORD_VERSIONED_H */
