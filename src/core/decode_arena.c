/* src/core/decode_arena.c — desert_decode_arena: an arena the caller owns and
 * frees at once, into which a reader puts the decoded data it would
 * otherwise keep in its own arena (desert_reader_set_output_arena), so that
 * many decoded messages need one arena instead of one reader each. The
 * bump allocator itself is arena.c's; this file is its public wrapper.
 * SPDX-License-Identifier: MIT */
#include "core/reader_internal.h"

/* A caller's arena is set up without a busy flag or a redirect and keeps
 * neither: a reader's allocation redirected to it makes exactly one hop,
 * and it never marks a reader busy that does not own it. */
#define DESERT_DA_ASSERT_PLAIN(a) DESERT_ASSERT((a)->arena.busy == NULL && (a)->arena.redirect == NULL)

desert_status desert_decode_arena_create(const desert_allocator *alloc, desert_decode_arena **out) {
  if (!out) return DESERT_E_ARGUMENT;
  *out = NULL;
  desert_allocator al = {NULL, NULL, NULL}; /* both NULL: malloc/free (desert_mem_alloc) */
  if (alloc) {
    /* As desert_options_check: half an allocator is a caller's mistake. */
    if ((alloc->alloc == NULL) != (alloc->free == NULL)) return DESERT_E_ARGUMENT;
    al = *alloc;
  }
  desert_decode_arena *a = desert_mem_alloc(&al, sizeof *a);
  if (!a) return DESERT_E_NOMEM;
  a->alloc = al;
  desert_arena_init(&a->arena, &a->alloc); /* no busy flag, no redirect */
  *out = a;
  return DESERT_OK;
}

void *desert_decode_arena_alloc(desert_decode_arena *a, size_t size, size_t align) {
  if (!a) return NULL;
  DESERT_DA_ASSERT_PLAIN(a);
  return desert_arena_alloc(&a->arena, size, align);
}

void desert_decode_arena_reset(desert_decode_arena *a) {
  if (a) desert_arena_reset(&a->arena);
}

void desert_decode_arena_free(desert_decode_arena *a) {
  if (!a) return;
  desert_arena_free(&a->arena);
  desert_allocator al = a->alloc;
  desert_mem_free(&al, a, sizeof *a);
}

size_t desert_decode_arena_bytes(const desert_decode_arena *a) { return a ? a->arena.total : 0; }

desert_status desert_reader_set_output_arena(desert_reader *r, desert_decode_arena *a) {
  if (!r) return DESERT_E_ARGUMENT;
  if (a) DESERT_DA_ASSERT_PLAIN(a);
  /* Only the pointer changes: what was allocated stays where it is, and
   * neither busy nor the inline begin is affected (an allocation into
   * either arena sets busy itself). */
  r->arena.redirect = a ? &a->arena : NULL;
  return DESERT_OK;
}
