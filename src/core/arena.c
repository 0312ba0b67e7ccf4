/* src/core/arena.c — bump allocator of reader contexts (see arena.h). Blocks grow
 * geometrically so a message of n bytes of decoded data costs O(log n)
 * allocations the first time and none once warm.
 * SPDX-License-Identifier: MIT */
#include "core/arena.h"

struct desert_arena_block {
  desert_arena_block *next;
  size_t cap; /* usable bytes after the header */
  size_t used;
  /* data follows, aligned to 64 */
};

#define DESERT_ARENA_HDR       ((sizeof(desert_arena_block) + 63u) & ~(size_t)63u)
#define DESERT_ARENA_MIN_BLOCK ((size_t)4096)

void desert_arena_init(desert_arena *a, const desert_allocator *alloc) {
  a->alloc = alloc;
  a->head = a->cur = NULL;
  a->total = 0;
  a->touched = false;
  a->first_block = DESERT_ARENA_MIN_BLOCK;
  a->busy = NULL;
  a->redirect = NULL;
}

void desert_arena_set_first_block(desert_arena *a, size_t bytes) { a->first_block = bytes; }

static uint8_t *block_data(desert_arena_block *b) { return (uint8_t *)b + DESERT_ARENA_HDR; }

/* The allocation at off in b, which fit() placed inside b at alignment align. */
static void *arena_result(desert_arena_block *b, size_t off, size_t align) {
  DESERT_ASSERT(b->used <= b->cap && off <= b->used);
  DESERT_ASSERT(((uintptr_t)block_data(b) + off) % align == 0);
  return block_data(b) + off;
}

/* Room for size bytes at alignment align in b, or SIZE_MAX. */
static size_t fit(desert_arena_block *b, size_t size, size_t align) {
  uintptr_t base = (uintptr_t)block_data(b);
  uintptr_t p = (base + b->used + (align - 1)) & ~(uintptr_t)(align - 1);
  size_t off = (size_t)(p - base);
  if (off > b->cap || b->cap - off < size) return SIZE_MAX;
  return off;
}

void *desert_arena_alloc(desert_arena *a, size_t size, size_t align) {
  if (a->busy) *a->busy = 1; /* the next begin must reset the arena and the
                              * reader's per-message counts */
  /* A reader with an output arena: its own blocks stay unused (touched
   * stays false, so its reset remains one test). The output arena has no
   * redirect of its own (desert_reader_set_output_arena). */
  if (a->redirect) a = a->redirect;
  DESERT_ASSERT(a->redirect == NULL); /* one hop: an output arena redirects nowhere */
  if (align == 0 || (align & (align - 1)) != 0 || align > 64) return NULL;
  if (size == 0) size = 1; /* distinct allocations get distinct addresses */
  a->touched = true;
  for (desert_arena_block *b = a->cur; b; b = b->next) {
    size_t off = fit(b, size, align);
    if (off != SIZE_MAX) {
      b->used = off + size;
      a->cur = b;
      return arena_result(b, off, align);
    }
    /* A later (reused) block may be large enough; skip over small ones. */
  }
  if (size > SIZE_MAX / 2 - DESERT_ARENA_HDR - 64) return NULL;
  size_t least = a->head ? DESERT_ARENA_MIN_BLOCK : a->first_block;
  /* Half the arena's total so far: geometric growth (O(log n) blocks for n
   * bytes) that leaves at most half of the arena unused, where a block as
   * large as the total could double a decode's memory for one small
   * request (which took a fuzz_types input over the fuzz memory bound). */
  size_t cap = a->total / 2 > least ? a->total / 2 : least;
  if (cap < size + align) cap = size + align;
  desert_arena_block *nb = desert_mem_alloc(a->alloc, DESERT_ARENA_HDR + cap);
  if (!nb) return NULL;
  nb->cap = cap;
  nb->used = 0;
  /* Insert after cur so the block order stays "used ones first". */
  if (a->cur) {
    nb->next = a->cur->next;
    a->cur->next = nb;
  } else {
    nb->next = a->head;
    a->head = nb;
  }
  a->cur = nb;
  a->total += cap;
  size_t off = fit(nb, size, align);
  DESERT_ASSERT(off != SIZE_MAX); /* cap >= size + align leaves room at any alignment */
  nb->used = off + size;
  return arena_result(nb, off, align);
}

void desert_arena_shrink_last(desert_arena *a, void *p, size_t old_size, size_t new_size) {
  if (a->redirect) a = a->redirect; /* where desert_arena_alloc put p */
  desert_arena_block *b = a->cur;
  if (!b || !p || new_size >= old_size) return;
  if (old_size == 0) old_size = 1; /* desert_arena_alloc's size for 0 */
  if (new_size == 0) new_size = 1; /* keep addresses distinct */
  uint8_t *data = block_data(b);
  uint8_t *q = p;
  /* p must end exactly at the block's fill mark. Compare as offsets: p may
   * come from another block, where pointer differences are undefined. */
  uintptr_t up = (uintptr_t)q, ud = (uintptr_t)data;
  if (up < ud || up - ud > b->used || b->used - (up - ud) != old_size) return;
  b->used -= old_size - new_size;
  DESERT_ASSERT(b->used <= b->cap);
}

void desert_arena_reset(desert_arena *a) {
  a->touched = false;
  if (a->cur == a->head && (!a->head || a->head->used == 0)) return; /* untouched */
  for (desert_arena_block *b = a->head; b; b = b->next) b->used = 0;
  a->cur = a->head;
}

void desert_arena_free(desert_arena *a) {
  desert_arena_block *b = a->head;
  while (b) {
    desert_arena_block *n = b->next;
    desert_mem_free(a->alloc, b, DESERT_ARENA_HDR + b->cap);
    b = n;
  }
  a->head = a->cur = NULL;
  a->total = 0;
  a->touched = false;
}
