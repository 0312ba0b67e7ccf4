/* src/core/arena.h — bump allocator owned by a reader: decoded data that cannot
 * be a view into the input lives here until the next message. Reset keeps
 * the blocks, so a warm reader allocates nothing. Also the layout of the
 * public desert_decode_arena (reader.h), an arena the caller owns that a
 * reader's allocations can be redirected to (decode_arena.c).
 * SPDX-License-Identifier: MIT */
#ifndef DESERT_ARENA_H
#define DESERT_ARENA_H

#include "base/internal.h"

typedef struct desert_arena_block desert_arena_block;

typedef struct desert_arena {
  const desert_allocator *alloc;
  desert_arena_block *head; /* first block */
  desert_arena_block *cur;  /* block being filled */
  size_t total;             /* bytes of all blocks (for limits and reports) */
  bool touched;             /* allocated from since the last reset: lets a
                             * reset of an unused arena be one inline test */
  size_t first_block;       /* least capacity of the first block */
  unsigned *busy;           /* NULL, or set to 1 by every allocation: the
                             * owning reader's desert_reader_fast.busy */
  struct desert_arena *redirect; /* NULL, or the arena that alloc and
                                  * shrink_last serve instead (a reader's
                                  * output arena); reset and free never
                                  * touch it. busy is still set, so the
                                  * reader's per-message counts are
                                  * cleared by the next begin as before */
} desert_arena;

/* The caller-owned arena of reader.h: the allocator is copied in so the
 * caller's desert_allocator need not outlive the create call. */
struct desert_decode_arena {
  desert_allocator alloc;
  desert_arena arena;
};

void desert_arena_init(desert_arena *a, const desert_allocator *alloc);
/* Sets the least capacity of the first block (default 4 KiB) before the
 * first allocation: readers in caller storage start with a small block
 * that fits the storage. Later blocks grow as usual. */
void desert_arena_set_first_block(desert_arena *a, size_t bytes);
/* NULL on allocator failure or size overflow. align: power of two <= 64.
 * Served by a->redirect when that is set. */
void *desert_arena_alloc(desert_arena *a, size_t size, size_t align);
/* Gives back the tail of the most recent allocation p (of old_size bytes)
 * beyond new_size, when p is still the last allocation of its block; a
 * no-op otherwise. For outputs allocated at a capacity guess and filled
 * with less: without it a stream of such allocations would keep all the
 * unused guesses until the next reset. */
void desert_arena_shrink_last(desert_arena *a, void *p, size_t old_size, size_t new_size);
/* Keeps the blocks; a->redirect's data is not touched. */
void desert_arena_reset(desert_arena *a);
/* desert_arena_reset only when something was allocated since the last one. */
DESERT_INLINE void desert_arena_reset_if_used(desert_arena *a) {
  if (a->touched) desert_arena_reset(a);
}
/* Frees a's own blocks; a->redirect is the caller's. */
void desert_arena_free(desert_arena *a);

#endif
