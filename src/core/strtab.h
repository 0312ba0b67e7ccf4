/* src/core/strtab.h — the DeduplicatedString table of a session (docs/format.md §5.2):
 * ids from 1 in registration order, lookup by content. The writer's table
 * copies the text (caller strings may not live long enough); the reader's
 * table keeps views into the input or the arena, which outlive the message.
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_STRTAB_H
#define DESERT_STRTAB_H

#include "core/arena.h"

typedef struct desert_strtab_entry {
  const char *ptr; /* text (owned copy for the writer, view for the reader) */
  size_t len;
  uint64_t hash;
} desert_strtab_entry;

typedef struct desert_strtab {
  const desert_allocator *alloc;
  bool copy_keys;
  bool dirty; /* something was added since the last clear */
  desert_strtab_entry *entries; /* index id-1 */
  size_t count, entries_cap;
  uint32_t *slots; /* open addressing: 0 empty, else id */
  size_t slots_cap; /* power of two */
  desert_arena text; /* copied keys (writer only) */
  uint32_t last;     /* id found or added last, checked before hashing (a
                      * string written over and over is the common case);
                      * 0: none */
} desert_strtab;

void desert_strtab_init(desert_strtab *t, const desert_allocator *alloc, bool copy_keys);
void desert_strtab_clear(desert_strtab *t); /* keeps memory */
void desert_strtab_free(desert_strtab *t);
/* id of the text, or 0 when absent. Remembers a hit as the last-seen id
 * (hence not const). */
uint32_t desert_strtab_find(desert_strtab *t, const char *s, size_t len);
/* Registers the text if absent (copying it when copy_keys); *id = its id
 * (new or existing); *added tells which. DESERT_E_NOMEM on failure,
 * DESERT_E_LIMIT past 2^31-1 entries. */
desert_status desert_strtab_add(desert_strtab *t, const char *s, size_t len, uint32_t *id,
                                bool *added);
/* Entry of id (1-based) or NULL. */
const desert_strtab_entry *desert_strtab_get(const desert_strtab *t, uint64_t id);
/* Forgets every id above n (legacy header scoping, docs/format.md §9.8). */
void desert_strtab_truncate(desert_strtab *t, size_t n);

#endif
