/* src/core/reftab.h — the object reference table of a session (docs/format.md §17):
 * ids from 1 in registration order. Writer: object address -> id (hash
 * index). Reader: id -> object (vector).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_REFTAB_H
#define DESERT_REFTAB_H

#include "base/internal.h"

typedef struct desert_reftab {
  const desert_allocator *alloc;
  void **objs; /* index id-1 */
  size_t count, objs_cap;
  uint32_t *slots; /* writer index: 0 empty, else id */
  size_t slots_cap;
} desert_reftab;

void desert_reftab_init(desert_reftab *t, const desert_allocator *alloc);
void desert_reftab_clear(desert_reftab *t);
void desert_reftab_free(desert_reftab *t);
/* Writer: id of obj or 0. */
uint32_t desert_reftab_find(const desert_reftab *t, const void *obj);
/* Appends obj (next id); index_it: also index it for desert_reftab_find. */
desert_status desert_reftab_add(desert_reftab *t, void *obj, bool index_it, uint32_t *id);
/* Reader: object of id, *found false if unknown. */
void *desert_reftab_get(const desert_reftab *t, uint64_t id, bool *found);

#endif
